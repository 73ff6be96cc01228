"""Building a legal Commander draft deck from a pool, as a bot (or a player's first draft) would.

Commanders: every option the pool allows (a legend, a pair that may lead
together, a pool partner with an added Piper of some color, or one or two
Pipers alone) is valued by the ratings of the best cards it makes playable;
the best wins, with a small cost for each Piper added.  Then 36 playables at
most, the nonbasic lands that fit, and basic lands of the identity's colors
(by the colored symbols of the spells) up to 60 cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from draft.bots import card_rating
from draft.decks import DRAFT_MIN_SIZE, Deck, DeckLine, Zone, commander_identity, is_piper, usable_options
from sets.basics import basic_land
from sets.booster import Printing
from sets.cards import Card
from sets.colors import Color, ColorIdentity

SPELLS = 36
MAX_NONBASIC_LANDS = 6
ADDED_PIPER_COST = 2.5


@dataclass(frozen=True, slots=True)
class CommanderChoice:
    commanders: tuple[Card, ...]
    colors: tuple[Color, ...]
    identity: ColorIdentity
    value: float


def _playable_value(rated: list[tuple[float, int, Card]], identity: ColorIdentity, leaders: Counter) -> float:
    """The ratings of the best ``SPELLS`` pool cards inside the identity (``rated`` is best first)."""
    skip = Counter(leaders)
    outside = ~identity.mask
    total, taken = 0.0, 0
    for rating, mask, card in rated:
        if mask & outside:
            continue
        if skip[card]:
            skip[card] -= 1
            continue
        total += rating
        taken += 1
        if taken == SPELLS:
            break
    return total


def choose_commanders(pool: Counter, piper: Card | None) -> CommanderChoice | None:
    rated = sorted(((card_rating(card), card.deck_colors.mask, card) for card, n in pool.items() if not card.is_basic_land
                    for _ in range(n)), key=lambda item: -item[0])
    best: CommanderChoice | None = None
    for leaders, colors, added in usable_options(pool, piper):
        identity = commander_identity(leaders, colors)
        # A Piper leads as a plain 3/3 for five: it adds no strength of its own.
        value = (_playable_value(rated, identity, Counter(leaders)) + sum(card_rating(c) for c in leaders if not is_piper(c))
                 - ADDED_PIPER_COST * added)
        # A colorless identity allows no free basic land (Wastes come from the pool): lead with colors when possible.
        if best is None or (bool(identity), value) > (bool(best.identity), best.value):
            best = CommanderChoice(leaders, colors, identity, value)
    return best


def _basic_split(spells: Sequence[Card], identity: ColorIdentity, count: int) -> Counter:
    """Basic lands by the colored symbols of the spells; Wastes for a colorless identity."""
    if count <= 0:
        return Counter()
    if not identity:
        return Counter({basic_land(""): count})
    weights = {color: 1.0 for color in identity}
    for card in spells:
        for face in card.faces[:1]:
            try:
                cost = face.cost
            except ValueError:
                continue
            for color in identity:
                weights[color] += cost.count(color)
    total = sum(weights.values())
    shares = {color: int(count * weight / total) for color, weight in weights.items()}
    left = count - sum(shares.values())
    for color in sorted(weights, key=lambda c: -weights[c])[:left]:
        shares[color] += 1
    return Counter({basic_land(color.value): n for color, n in shares.items() if n})


def build_deck(pool: Sequence[Card | Printing], piper: Card | None = None, name: str = "") -> Deck:
    """A legal Commander draft deck from the pool, the rest of the pool in the sideboard."""
    printings = [item if isinstance(item, Printing) else Printing(item) for item in pool]
    cards = Counter(p.card for p in printings)
    piper = piper or next((card for card in cards if is_piper(card)), None)
    choice = choose_commanders(cards, piper)
    if choice is None:
        # No legend and no Piper known: nothing can lead, so no legal deck exists.
        return Deck.build((), {basic_land(""): DRAFT_MIN_SIZE}, cards, name=name)
    left = Counter(cards)
    for card in choice.commanders:
        if left.get(card, 0) > 0:
            left[card] -= 1
    fitting = [card for card, n in left.items() for _ in range(n) if card.deck_colors <= choice.identity and not card.is_basic_land]
    fitting.sort(key=lambda c: (-card_rating(c), c.mana_value, c.name))
    spells = [card for card in fitting if not card.is_land][:SPELLS]
    lands = [card for card in fitting if card.is_land and (card.deck_colors or card_rating(card) > 1.2)][:MAX_NONBASIC_LANDS]
    main = Counter(spells) + Counter(lands)
    basics_needed = DRAFT_MIN_SIZE - len(choice.commanders) - sum(main.values())
    main.update(_basic_split(spells, choice.identity, basics_needed))
    side = Counter(left)
    side.subtract(Counter(spells) + Counter(lands))
    lines = [DeckLine(card, 1, Zone.COMMANDER) for card in choice.commanders]
    lines += [DeckLine(card, n, Zone.MAIN) for card, n in main.items() if n > 0]
    lines += [DeckLine(card, n, Zone.SIDEBOARD) for card, n in side.items() if n > 0]
    return Deck(tuple(lines), choice.colors, name)
