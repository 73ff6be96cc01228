"""What a deck builder shows about a deck: type groups, curve, roles, color sources against the
colored symbols the deck needs, a sample opening hand, basics split by symbols, and finishing a
half-built deck without dropping what the player chose.  Pure: no screen."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from draft.advice import is_ramp, is_removal
from draft.commanders import commander_identity
from draft.deck_spells import LANDS, MAX_ROCKS, choose_spells, filler_value, land_count
from draft.deck_state import plural
from draft.deckbuild import ranked_builds
from draft.decks import Deck, is_piper
from draft.manabase import FAR_BELOW, FAR_BELOW_SYMBOLS, fair_share, mana, produced, source_needs
from draft.products import Product, product_of
from draft.traits import card_rating
from sets.basics import basic_land
from sets.cards import Card
from sets.colors import Color, ColorIdentity

TYPE_ORDER = ("Creature", "Planeswalker", "Battle", "Instant", "Sorcery", "Artifact", "Enchantment", "Land")
LANDS_AT_MOST = 28  # more lands than this and the figures warn: the bots' decks play 22-26
HAND = 7


def type_group(card: Card) -> str:
    """The one group a card is listed under (a creature land is a Land, an artifact creature a Creature)."""
    if card.is_land:
        return "Land"
    for kind in TYPE_ORDER:
        if card.has_type(kind):
            return kind
    return "Other"


def group_cards(cards: Mapping[Card, int]) -> list[tuple[str, list[tuple[Card, int]]]]:
    """Cards by type group in the usual order, each group by mana value then name."""
    groups: dict[str, list[tuple[Card, int]]] = {}
    for card, n in cards.items():
        if n > 0:
            groups.setdefault(type_group(card), []).append((card, n))
    order = {kind: i for i, kind in enumerate(TYPE_ORDER + ("Other",))}
    return [
        (kind, sorted(groups[kind], key=lambda item: (item[0].mana_value, item[0].name)))
        for kind in sorted(groups, key=order.__getitem__)
    ]


def colored_symbols(card: Card) -> Counter[Color]:
    """Colored mana symbols in the card's cost (every face; a hybrid symbol counts for each of its colors)."""
    counts: Counter[Color] = Counter()
    for face in card.faces:
        try:
            cost = face.cost
        except ValueError:
            continue
        for color in Color:
            counts[color] += cost.count(color)
    return counts


@dataclass(frozen=True)
class DeckStats:
    size: int
    groups: list[tuple[str, list[tuple[Card, int]]]]
    curve: dict[int, int]  # nonland mana value (7 = 7 or more) -> cards
    creatures: int
    removal: int
    ramp: int
    sources: dict[Color, int]
    symbols: dict[Color, int]
    identity: ColorIdentity
    warnings: list[str]
    lands: int = 0  # land cards in the main deck
    spells: int = 0  # the main deck's other cards

    @property
    def lands_warning(self) -> str:
        """'49 lands and 10 spells: ...' where the deck has more lands than any deck plays (a pool with few spells in
        the commanders' colors is filled with basics: still legal, but mostly lands); '' otherwise."""
        if self.lands <= LANDS_AT_MOST:
            return ""
        return (
            f"{self.lands} lands and {plural(self.spells, 'spell')}: a deck plays {LANDS[0]}-{LANDS[1] + 1} lands; commanders of "
            "more colors (a second commander) give it more spells"  # true of every product's pairs and added card
        )

    @property
    def cautions(self) -> list[str]:
        """What the figures warn of, in the words every face shows: the colors short of sources, then a deck that is
        mostly lands (legal, but the player should know before registering it)."""
        cautions = ["colors short of sources: " + "; ".join(self.warnings)] if self.warnings else []
        return cautions + ([self.lands_warning] if self.lands_warning else [])


def _source_cards(main: Mapping[Card, int], identity: ColorIdentity) -> int:
    return sum(n for card, n in main.items() if produced(card, identity))


def source_warnings(
    made: Mapping[Color, int],
    symbols: Mapping[Color, int],
    identity: ColorIdentity,
    sources: int,
    needs: Mapping[Color, int],
) -> list[str]:
    """One line per identity color short of sources: fewer than the deck builder asks of it (``needs``:
    ``manabase.source_needs``, 10-14 for a commander's colored symbols, 6 for a color the spells show), or far below
    its share of the deck's sources by its share of the colored symbols (8 sources for 25 of 50 symbols, where about
    12 would match)."""
    total = sum(symbols.get(color, 0) for color in identity)
    warnings = []
    for color in identity:
        have, need = made.get(color, 0), symbols.get(color, 0)
        fair = fair_share(sources, need, total)
        line = f"{color.word} {have} ({plural(need, color.value + ' symbol')} to cast"
        if have < needs.get(color, 0):
            warnings.append(line + f": {needs[color]} wanted)")
        elif need >= FAR_BELOW_SYMBOLS and have < FAR_BELOW * fair:
            warnings.append(line + f": far below them, about {fair} would match)")
    return warnings


def deck_stats(deck: Deck, identity: ColorIdentity) -> DeckStats:
    """The builder's figures for a deck whose commanders give ``identity``."""
    main: Counter[Card] = Counter()
    for card, n in deck.main.items():
        main[card] += n
    everything = Counter(main)
    for card in deck.commanders:
        everything[card] += 1
    curve = {mv: 0 for mv in range(8)}
    creatures = removal = ramp = 0
    symbols: Counter[Color] = Counter()
    made: Counter[Color] = Counter()
    for card, n in main.items():
        if not card.is_land:
            curve[min(7, int(card.mana_value))] += n
        creatures += n * card.has_type("Creature")
        removal += n * is_removal(card)
        ramp += n * is_ramp(card)
        for color in produced(card, identity):  # the bots' deck builder counts sources the same way
            made[color] += n
    for card, n in everything.items():
        for color, count in colored_symbols(card).items():
            symbols[color] += count * n
    needs = source_needs(deck.commanders, [card for card in main if not card.is_land], identity)
    warnings = source_warnings(made, symbols, identity, _source_cards(main, identity), needs)
    return DeckStats(
        deck.size,
        group_cards(main),
        curve,
        creatures,
        removal,
        ramp,
        {c: made[c] for c in Color},
        {c: symbols[c] for c in Color},
        identity,
        warnings,
        sum(n for card, n in main.items() if card.is_land),
        sum(n for card, n in main.items() if not card.is_land),
    )


def sample_hand(deck: Deck, seed: int, number: int) -> list[Card]:
    """Opening hand ``number`` (0, 1, 2 ...) of the main deck: seven cards, the same for the same seed and number."""
    library = sorted(
        (card for card, n in deck.main.items() for _ in range(n)), key=lambda c: (c.name, c.set_code, c.number)
    )
    rng = random.Random(seed * 1_000_003 + number)
    return rng.sample(library, min(HAND, len(library)))


def basic_split(cards: Iterable[Card], identity: ColorIdentity, count: int) -> Counter[Card]:
    """``count`` basic lands shared among the identity's colors by the colored symbols of ``cards``
    (largest remainders first); every color of the identity gets at least one when there is room.
    A colorless identity gets Wastes."""
    if count <= 0:
        return Counter()
    if not identity:
        return Counter({basic_land(""): count})
    weights: Counter[Color] = Counter()
    for card in cards:
        for color, n in colored_symbols(card).items():
            if color in identity:
                weights[color] += n
    colors = list(identity)
    total = sum(weights[c] for c in colors)
    if total == 0:
        weights = Counter({c: 1 for c in colors})
        total = len(colors)
    exact = {c: count * weights[c] / total for c in colors}
    shares = {c: int(exact[c]) for c in colors}
    for c in sorted(colors, key=lambda c: (-(exact[c] - shares[c]), c.value))[: count - sum(shares.values())]:
        shares[c] += 1
    if count >= len(colors):
        for c in colors:
            if shares[c] == 0:
                donor = max(colors, key=lambda d: shares[d])
                shares[donor] -= 1
                shares[c] += 1
    return Counter({basic_land(c.value): n for c, n in shares.items() if n})


MAX_NONBASIC_LANDS = 6  # the pool's nonbasic lands a finished deck plays, as the bots' builder


def choose_colors(
    pool: Counter[Card],
    commanders: Sequence[Card],
    colors: Sequence[Color],
    main: Mapping[Card, int],
    added: tuple[Card | None, Product, int | None],
) -> tuple[Color, ...]:
    """The chosen colors of the commanders that choose one (CR 903.4b), ``colors`` first (one each, any more dropped):
    a choice missing is the one ranking of commanders' (``ranked_builds``: the best deck these commanders lead),
    preferring one whose identity holds every card already in ``main``; ``added``: the product's added card, the
    product, the most it may add."""
    colors = colors[: sum(card.chooses_color for card in commanders)]
    if sum(card.chooses_color for card in commanders) <= len(colors):
        return tuple(colors)
    names = sorted(card.name for card in commanders)
    needed = ColorIdentity.of(c for card, n in main.items() if n > 0 for c in card.deck_colors)
    piper, product, may_add = added
    kept = Counter(colors)  # the ranking lists a pair's colors in its own order (WUBRG): any that hold these
    fits = [
        choice
        for choice, _ in ranked_builds(pool, piper, None, product, may_add)
        if sorted(card.name for card in choice.commanders) == names and kept <= Counter(choice.colors)
    ]
    fits.sort(key=lambda choice: not needed <= choice.identity)  # stable: the ranking's order otherwise
    return (*colors, *(Counter(fits[0].colors) - kept).elements()) if fits else tuple(colors)


def complete_deck(
    pool: Sequence[Card], commanders: Sequence[Card], colors: Sequence[Color], main: Mapping[Card, int]
) -> Counter[Card]:
    """``main`` filled to the product's minimum deck size (60) from the pool, as the bots build: every card the
    player chose stays (a deck already that big gets nothing); the best pool spells inside the commanders' identity
    join (``draft.deck_spells.choose_spells``: removal in, a curve, creatures) until the deck has the lands its
    spells' curve wants (``land_count``, 22-25, the player's own lands and basics counted); then the pool's
    nonbasic lands that make the identity's colors (up to ``MAX_NONBASIC_LANDS``), then basic lands split so that
    each color meets the sources its commander and spells ask (``draft.manabase.mana``) and the rest by the
    colored symbols.  A pool short of spells in the identity fills with basics: the deck is still the minimum
    size.  Returns the new main deck."""
    identity = commander_identity(commanders, colors)
    size = product_of([*pool, *commanders]).min_deck_size
    have = Counter({card: n for card, n in main.items() if n > 0})
    room = size - len(commanders) - sum(have.values())
    if room <= 0:
        return have
    free = Counter(pool)
    for card in commanders:
        if free[card]:
            free[card] -= 1
    for card, n in have.items():
        free[card] -= min(free[card], n)
    fitting = [
        card
        for card, n in free.items()
        for _ in range(n)
        if card.deck_colors <= identity and not card.is_basic_land and not is_piper(card)
    ]
    fitting.sort(key=lambda c: (-filler_value(c), c.mana_value, c.name))
    chosen_spells = [card for card, n in have.items() if not card.is_land for _ in range(n)]
    chosen_lands = sum(n for card, n in have.items() if card.is_land)
    candidates = [card for card in fitting if not card.is_land]
    # The lands the deck's curve wants: its spells as they would be with the pool's best filling the rest.
    projected = chosen_spells + candidates[: max(0, size - len(commanders) - LANDS[0] - len(chosen_spells))]
    lands_wanted = max(chosen_lands, land_count(projected, commanders))
    spell_room = max(0, min(room, size - len(commanders) - lands_wanted - len(chosen_spells)))
    max_rocks = MAX_ROCKS + (len(identity) >= 3)
    have.update(choose_spells(candidates, spell_room, max_rocks, commanders))
    room = size - len(commanders) - sum(have.values())
    nonbasic = sum(n for card, n in have.items() if card.is_land and not card.is_basic_land)
    for card in fitting:
        if room <= 0 or nonbasic >= MAX_NONBASIC_LANDS:
            break
        if card.is_land and (produced(card, identity) or card_rating(card) > 1.8 or not identity):
            have[card] += 1
            nonbasic += 1
            room -= 1
    if room > 0:
        spells = [card for card, n in have.items() if not card.is_land for _ in range(n)]
        lands = [card for card, n in have.items() if card.is_land for _ in range(n)]
        basics, _short, _wanting = mana(spells, lands, commanders, identity, len(lands) + room)
        have.update(basics)
    return have
