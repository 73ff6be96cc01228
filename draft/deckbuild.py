"""Building a legal Commander draft deck from a pool, as a strong player would (bots, ``auto``, ``--auto``).

1. Commanders: every option the pool allows (a legend, a pair that may lead
   together, a partner with an added Piper of some color, one or two Pipers
   alone) is built into a deck and valued by that deck: the ratings of its
   spells, less a cost for every mana source its colors would lack (a
   three-color commander needs sources of each color) and for each Piper
   added.  The best deck wins.
2. Spells: the best cards inside the identity, with every on-color removal
   spell and board wipe in, a curve (at most five cards of six mana or more
   unless they are removal or bombs) and at least 14 creatures when the pool
   has them.  A Prismatic Piper never goes in the main deck.
3. Lands: 22-25 by the spells' average mana value and the ramp in the deck;
   the pool's fixing lands first, then basics split by the colored symbols
   the spells need, so that a commander's colored symbol has at least 8
   sources and every identity color the spells use at least 6 (lands, and
   mana rocks of mana value 3 or less, count as sources).
4. The sideboard is the rest: off-color cards and cards worse than the ones
   played.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from draft.bots import card_rating, card_roles, card_traits
from draft.commanders import commander_identity, usable_options
from draft.decks import DRAFT_MIN_SIZE, Deck, DeckLine, Zone, is_piper
from sets.basics import basic_land
from sets.booster import Printing
from sets.cards import Card
from sets.colors import COLORLESS, Color, ColorIdentity, identity_from_mask

SPELLS = 36
MAX_NONBASIC_LANDS = 6
ADDED_PIPER_COST = 2.5
LANDS = (22, 25)
COMMANDER_SOURCES = 8
SPELL_SOURCES = 6
MIN_CREATURES = 14
MAX_HEAVY = 5
SHORT_SOURCE_COST = 1.5
_COLORS = tuple(Color)


@dataclass(frozen=True, slots=True)
class CommanderChoice:
    commanders: tuple[Card, ...]
    colors: tuple[Color, ...]
    identity: ColorIdentity
    value: float


@dataclass(frozen=True, slots=True)
class _Build:
    """A deck under construction for one commander option."""

    spells: tuple[Card, ...]
    lands: tuple[Card, ...]
    basics: Counter
    short: int  # mana sources missing to meet the per-color needs
    value: float


def _symbol_weights(cards: Sequence[Card], identity: ColorIdentity) -> dict[Color, float]:
    weights = {color: 0.0 for color in identity}
    indexes = [(color, _COLORS.index(color)) for color in identity]
    for card in cards:
        symbols = card_traits(card).symbols
        for color, index in indexes:
            weights[color] += symbols[index]
    return weights


def produced(card: Card, identity: ColorIdentity) -> ColorIdentity:
    """Colors of the identity a source (a land, or a mana rock of mana value 3 or less) gives.

    A dual land or a Diamond gives its own colors; a colorless fixing source
    (Command Tower, Arcane Signet) gives every color of the identity.
    """
    traits = card_traits(card)
    if not traits.source:
        return COLORLESS
    if traits.mask:  # a dual land, a Diamond: its own colors
        return identity_from_mask(traits.mask & identity.mask)
    return identity if traits.fixing else COLORLESS


def source_needs(commanders: Sequence[Card], spells: Sequence[Card], identity: ColorIdentity) -> dict[Color, int]:
    """Sources each color needs: 8 for a commander's colored symbol (its front face's), 6 for a color the spells show."""
    needs: dict[Color, int] = {}
    shown = 0
    for card in spells:
        shown |= card_traits(card).cost_mask
    for color in identity_from_mask(shown & identity.mask):
        needs[color] = SPELL_SOURCES
    for card in commanders:
        # A commander is cast by its front face (a modal DFC's back face widens its identity, not its cost).
        symbols = card_traits(card).symbols
        for color in _COLORS:
            if symbols[_COLORS.index(color)]:
                needs[color] = COMMANDER_SOURCES
    return needs


def mana_sources(deck: Deck, identity: ColorIdentity | None = None) -> dict[str, int]:
    """Sources per color of the deck's identity (lands and cheap mana rocks), by color letter."""
    if identity is None:
        identity = commander_identity(deck.commanders, deck.piper_colors)
    counts = {color.value: 0 for color in identity}
    for card, n in deck.main.items():
        for color in produced(card, identity):
            counts[color.value] += n
    return counts


def _land_count(spells: Sequence[Card]) -> int:
    if not spells:
        return LANDS[1]
    average = sum(card_traits(c).mana_value for c in spells) / len(spells)
    ramp = sum(1 for c in spells if "ramp" in card_traits(c).roles and c.mana_value <= 3)
    lands = round(23 + (average - 3.2) * 2.0 - (1 if ramp >= 3 else 0) - (1 if ramp >= 6 else 0))
    return max(LANDS[0], min(LANDS[1], lands))


def _choose_spells(candidates: Sequence[Card], count: int) -> list[Card]:
    """The best ``count`` spells (``candidates`` best first) with removal in, a curve and enough creatures."""
    must = [c for c in candidates if card_traits(c).interaction]
    chosen: list[Card] = list(must[:count])
    used = Counter(chosen)
    left: list[Card] = []
    for card in candidates:
        if used[card]:
            used[card] -= 1
            continue
        left.append(card)
    heavy = sum(1 for c in chosen if c.mana_value >= 6)
    creatures_left = sum(1 for c in left if c.has_type("Creature"))
    creatures = sum(1 for c in chosen if c.has_type("Creature"))
    spare: list[Card] = []
    for card in left:
        if len(chosen) >= count:
            break
        room = count - len(chosen)
        if card.mana_value >= 6 and heavy >= MAX_HEAVY and "bomb" not in card_roles(card):
            spare.append(card)
            continue
        needed = max(0, MIN_CREATURES - creatures)
        if not card.has_type("Creature") and needed >= room and creatures_left > 0:
            spare.append(card)
            continue
        chosen.append(card)
        heavy += card.mana_value >= 6
        if card.has_type("Creature"):
            creatures += 1
            creatures_left -= 1
    for card in spare:  # a small pool: fill with what was passed over
        if len(chosen) >= count:
            break
        chosen.append(card)
    return chosen


def _ranked(pool: Counter) -> list[Card]:
    """Pool cards that could be played, best first (every copy)."""
    cards = [card for card, n in pool.items() for _ in range(n) if not card.is_basic_land and not is_piper(card)]
    cards.sort(key=lambda c: (-card_rating(c), c.mana_value, c.name))
    return cards


def _pool_wastes(pool: Counter) -> Counter:
    """The pool's basic lands that make no colored mana (Wastes): the only basics a colorless identity allows."""
    return Counter({card: n for card, n in pool.items() if card.is_basic_land and not card.deck_colors and n > 0})


def _build(
    ranked: Sequence[Card], leaders: Sequence[Card], identity: ColorIdentity, wastes: Counter | None = None
) -> _Build:
    skip = Counter(leaders)
    outside = ~identity.mask
    fitting = []
    for card in ranked:
        if card_traits(card).mask & outside:
            continue
        if skip[card]:
            skip[card] -= 1
            continue
        fitting.append(card)
    candidates = [card for card in fitting if not card.is_land]
    lands = [card for card in fitting if card.is_land and (produced(card, identity) or card_rating(card) > 1.8)]
    lands = lands[:MAX_NONBASIC_LANDS]
    first = candidates[: DRAFT_MIN_SIZE - len(leaders) - LANDS[0]]
    land_total = _land_count(first[:SPELLS])
    spell_total = DRAFT_MIN_SIZE - len(leaders) - land_total
    spells = _choose_spells(candidates, spell_total)
    # A small pool: more lands rather than fewer than 60 cards.
    land_total = DRAFT_MIN_SIZE - len(leaders) - len(spells)
    lands = lands[:land_total]
    if not identity:
        return _colorless_build(candidates, leaders, lands, wastes or Counter(), land_total)
    basics, short = _mana(spells, lands, leaders, identity, land_total)
    if short and land_total < LANDS[1]:
        # Colors short of sources: play up to 25 lands before giving up on them (the last spells chosen go).
        land_total = min(LANDS[1], land_total + short)
        spells = spells[: DRAFT_MIN_SIZE - len(leaders) - land_total]
        basics, short = _mana(spells, lands, leaders, identity, land_total)
    value = sum(card_rating(c) for c in spells) + sum(card_rating(c) for c in leaders if not is_piper(c))
    value -= SHORT_SOURCE_COST * short
    return _Build(tuple(spells), tuple(lands), basics, short, value)


def _mana(
    spells: Sequence[Card], lands: Sequence[Card], leaders: Sequence[Card], identity: ColorIdentity, land_total: int
) -> tuple[Counter, int]:
    needs = source_needs(leaders, spells, identity)
    have: Counter = Counter()
    mask = identity.mask
    for card in [*spells, *lands]:
        traits = card_traits(card)
        if traits.source:
            made = traits.mask & mask if traits.mask else (mask if traits.fixing else 0)
            for color in _COLORS:
                if made & color.bit:
                    have[color] += 1
    return _basic_split(spells, identity, land_total - len(lands), needs, have)


def _colorless_build(
    candidates: Sequence[Card], leaders: Sequence[Card], lands: Sequence[Card], wastes: Counter, land_total: int
) -> _Build:
    """A colorless identity allows none of the free basic lands (each has a colored basic land type, CR 903.5d):
    the pool's own Wastes are its basics, and more spells fill the room they leave.  A pool without enough
    colorless cards makes a short deck, valued so low that any colored option wins."""
    size = DRAFT_MIN_SIZE - len(leaders)
    land_total = min(land_total, len(lands) + sum(wastes.values()))
    spells = _choose_spells(candidates, size - land_total)
    land_total = min(size - len(spells), len(lands) + sum(wastes.values()))
    lands = list(lands[:land_total])
    basics: Counter = Counter()
    room = land_total - len(lands)
    for card, n in wastes.items():
        basics[card] = min(n, room - sum(basics.values()))
    basics = +basics
    missing = size - len(spells) - len(lands) - sum(basics.values())
    value = sum(card_rating(c) for c in spells) + sum(card_rating(c) for c in leaders if not is_piper(c))
    return _Build(tuple(spells), tuple(lands), basics, 0, value - 10.0 * missing)


def _basic_split(
    spells: Sequence[Card],
    identity: ColorIdentity,
    count: int,
    needs: dict[Color, int] | None = None,
    have: Counter | None = None,
) -> tuple[Counter, int]:
    """Basic lands: first what each color still needs, then by the colored symbols of the spells.

    Returns the basics and how many sources the needs still lack.  Wastes for a colorless identity.
    """
    if count <= 0:
        lacking = sum(max(0, need - (have or Counter())[color]) for color, need in (needs or {}).items())
        return Counter(), lacking
    if not identity:
        return Counter({basic_land(""): count}), 0
    needs, have = needs or {}, have or Counter()
    colors = list(identity)  # WUBRG order breaks ties
    shares = {color: 0 for color in colors}
    missing = {color: max(0, needs.get(color, 0) - have[color]) for color in colors}
    budget = count
    # Meet the needs, most missing first, while basics last.
    while budget and any(missing.values()):
        color = max(colors, key=missing.__getitem__)
        shares[color] += 1
        missing[color] -= 1
        budget -= 1
    weights = _symbol_weights(spells, identity)
    for _ in range(budget):
        color = max(colors, key=lambda c: (weights[c] + 1.0) / (1 + shares[c] + have[c]))
        shares[color] += 1
    return Counter({basic_land(color.value): n for color, n in shares.items() if n}), sum(missing.values())


FULL_BUILDS = 4


def _spell_value(ranked: Sequence[Card], mask: int) -> float:
    """The ratings of the best ``SPELLS`` nonland cards inside an identity (a leader among them counts too)."""
    outside = ~mask
    total, taken = 0.0, 0
    for card in ranked:
        traits = card_traits(card)
        if traits.mask & outside or traits.land:
            continue
        total += traits.rating
        taken += 1
        if taken == SPELLS:
            break
    return total


def _estimate(spells: float, leaders: Sequence[Card], identity: ColorIdentity) -> float:
    """A quick value of an option: its best spells' ratings, leaders, and a cost for colors past two."""
    return spells + sum(card_traits(c).rating for c in leaders if not is_piper(c)) - 2.0 * max(0, len(identity) - 2)


def _best(pool: Counter, piper: Card | None) -> tuple[CommanderChoice, _Build] | None:
    ranked = _ranked(pool)
    wastes = _pool_wastes(pool)
    options = []
    by_mask: dict[int, float] = {}
    for leaders, colors, added in usable_options(pool, piper):
        identity = commander_identity(leaders, colors)
        if identity.mask not in by_mask:
            by_mask[identity.mask] = _spell_value(ranked, identity.mask)
        options.append(
            (
                _estimate(by_mask[identity.mask], leaders, identity) - ADDED_PIPER_COST * added,
                leaders,
                colors,
                added,
                identity,
            )
        )
    if not options:
        return None
    # A colorless identity allows no free basic land (Wastes come from the pool): lead with colors when possible.
    options.sort(key=lambda o: (bool(o[4]), o[0]), reverse=True)
    best: tuple[CommanderChoice, _Build] | None = None
    for _, leaders, colors, added, identity in options[:FULL_BUILDS]:
        build = _build(ranked, leaders, identity, wastes)
        value = build.value - ADDED_PIPER_COST * added
        if best is None or (bool(identity), value) > (bool(best[0].identity), best[0].value):
            best = (CommanderChoice(leaders, colors, identity, value), build)
    return best


def choose_commanders(pool: Counter, piper: Card | None) -> CommanderChoice | None:
    """The commander option whose deck is best (``None`` when nothing in the pool can lead)."""
    found = _best(pool, piper)
    return None if found is None else found[0]


def build_deck(pool: Sequence[Card | Printing], piper: Card | None = None, name: str = "") -> Deck:
    """A legal Commander draft deck from the pool, the rest of the pool in the sideboard."""
    printings = [item if isinstance(item, Printing) else Printing(item) for item in pool]
    cards = Counter(p.card for p in printings)
    piper = piper or next((card for card in cards if is_piper(card)), None)
    found = _best(cards, piper)
    if found is None:
        # No legend and no Piper known: nothing can lead, so no legal deck exists.
        return Deck.build((), {basic_land(""): DRAFT_MIN_SIZE}, cards, name=name)
    choice, build = found
    left = Counter(cards)
    for card in choice.commanders:
        if left.get(card, 0) > 0:
            left[card] -= 1
    main = Counter(build.spells) + Counter(build.lands)
    main.update(build.basics)
    side = Counter(left)
    side.subtract(
        Counter(build.spells) + Counter(build.lands) + build.basics
    )  # the pool's Wastes a colorless deck plays
    lines = [DeckLine(card, 1, Zone.COMMANDER) for card in choice.commanders]
    lines += [DeckLine(card, n, Zone.MAIN) for card, n in main.items() if n > 0]
    lines += [DeckLine(card, n, Zone.SIDEBOARD) for card, n in side.items() if n > 0]
    return Deck(tuple(lines), choice.colors, name)
