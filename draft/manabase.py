"""A deck's mana: the sources each color needs, the colors a land or rock makes, and the basic lands to add.

A commander's colored symbols (its front face's) need sources by how many of one color it has: 10 for one (8 in a
deck of three colors or more), 12 for two, 14 for three or more (of a 60-card deck's lands and rocks); a color the
main deck's spells show needs 6.
Lands, and mana rocks of mana value 3 or less, are the sources.  Basics beyond the needs follow the colored
symbols of the spells and the commanders, a commander's counting as ``COMMANDER_SYMBOL_WEIGHT`` spells' (it is
cast every game, and again).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from operator import itemgetter

from draft.commanders import commander_identity
from draft.decks import Deck
from draft.traits import COLOR_INDEXES, card_traits
from sets.basics import basic_land
from sets.cards import Card
from sets.colors import COLORLESS, Color, ColorIdentity, identity_from_mask

COMMANDER_SOURCES = (0, 10, 12, 14)  # by a commander's colored symbols of one color (three or more: the last)
SPELL_SOURCES = 6
COMMANDER_SYMBOL_WEIGHT = 4
_COLORS = tuple(Color)


WIDE_SOURCES = 8  # for one symbol in a deck of three colors or more: three colors of 10 are more than 24 lands
# A color with at least ``FAR_BELOW_SYMBOLS`` colored symbols (spells and commanders, once each) needs this share of
# its fair part of the sources (the sources by its share of the symbols): the builder's stats warn below it.
FAR_BELOW = 0.75
FAR_BELOW_SYMBOLS = 10


def commander_sources(symbols: int, width: int = 2) -> int:
    """Sources a commander's ``symbols`` colored symbols of one color need (0 for none) in a deck of ``width``
    colors."""
    if symbols == 1 and width >= 3:
        return WIDE_SOURCES
    return COMMANDER_SOURCES[min(symbols, len(COMMANDER_SOURCES) - 1)]


def _symbol_weights(cards: Sequence[Card], identity: ColorIdentity, commanders: Sequence[Card] = ()) -> list[float]:
    """The colored symbols of the cards' front faces, and ``COMMANDER_SYMBOL_WEIGHT`` times the commanders', for each
    color of the identity (in WUBRG order)."""
    symbols = [card_traits(card).symbols for card in cards]
    leading = [card_traits(card).symbols for card in commanders]
    # Whole numbers of symbols: their sum is the same in any order.  The identity's colors by their places in WUBRG.
    return [
        float(sum(map(itemgetter(at), symbols)) + COMMANDER_SYMBOL_WEIGHT * sum(map(itemgetter(at), leading)))
        for at in COLOR_INDEXES[identity.mask]
    ]


HEAVY_LIGHT_COST = 1.5  # each symbol past one of a commander's in the deck's light color
LIGHT_SHARE = 1 / 3  # a color with less than this share of the spells' colored symbols is a light one


def light_color_cost(commanders: Sequence[Card], spells: Sequence[Card], identity: ColorIdentity) -> float:
    """What a commander heavy in the deck's light color costs it (a deck of two colors or more): its symbols there
    need the sources (``commander_sources``) that the spells of the deck's main color would rather have."""
    if len(identity) < 2:
        return 0.0
    if all(max(card_traits(card).symbols) < 2 for card in commanders):
        return 0.0  # no commander heavy in any color: the spells' symbols needn't be counted
    weights = _symbol_weights(spells, identity)
    total = sum(weights)
    cost = 0.0
    for card in commanders:
        symbols = card_traits(card).symbols
        for at, color in enumerate(identity):
            heavy = symbols[_COLORS.index(color)]
            if heavy >= 2 and weights[at] < LIGHT_SHARE * total:
                cost += HEAVY_LIGHT_COST * (heavy - 1)
    return cost


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
    """Sources each color needs: ``commander_sources`` for a commander's colored symbols of it (its front face's: 8-10,
    12 or 14), 6 for a color the spells show."""
    needs: dict[Color, int] = {}
    shown, width = 0, len(identity)
    for card in spells:
        shown |= card_traits(card).cost_mask
    for color in identity_from_mask(shown & identity.mask):
        needs[color] = SPELL_SOURCES
    for card in commanders:
        # A commander is cast by its front face (a modal DFC's back face widens its identity, not its cost).
        symbols = card_traits(card).symbols
        for at, color in enumerate(_COLORS):
            if symbols[at]:
                needs[color] = max(needs.get(color, 0), commander_sources(symbols[at], width))
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


def fair_share(sources: int, symbols: int, total: int) -> int:
    """A color's fair part of a deck's ``sources``: by its share of the ``total`` colored symbols."""
    return round(sources * symbols / total) if total else 0


def share_need(sources: int, symbols: int, total: int) -> int:
    """The sources a color with ``symbols`` of the deck's ``total`` colored symbols needs not to be far below its fair
    part (``FAR_BELOW``); 0 for a color of fewer than ``FAR_BELOW_SYMBOLS`` symbols."""
    if symbols < FAR_BELOW_SYMBOLS:
        return 0
    return math.ceil(FAR_BELOW * fair_share(sources, symbols, total) - 1e-9)


def mana(
    spells: Sequence[Card], lands: Sequence[Card], leaders: Sequence[Card], identity: ColorIdentity, land_total: int
) -> tuple[Counter[Card], int, int]:
    """The basic lands that bring the deck to ``land_total`` lands, the sources its colors still lack for the needs of
    ``source_needs``, and those they lack not to be far below their share of the colored symbols (the stats' warning,
    met from the basics the needs leave)."""
    needs = source_needs(leaders, spells, identity)
    counts = [0] * len(_COLORS)  # sources of each color, WUBRG
    mask = identity.mask
    sources = land_total - len(lands)  # the basics, each a source
    for card in [*spells, *lands]:
        traits = card_traits(card)
        if traits.source:
            made = traits.mask & mask if traits.mask else (mask if traits.fixing else 0)
            sources += made != 0
            for index in COLOR_INDEXES[made]:
                counts[index] += 1
    have = Counter({color: n for color, n in zip(_COLORS, counts, strict=True) if n})
    symbols = [0] * len(_COLORS)
    for card in [*spells, *leaders]:
        for index, n in enumerate(card_traits(card).symbols):
            symbols[index] += n
    total = sum(symbols[index] for index in COLOR_INDEXES[mask])
    wanted = {}
    for index in COLOR_INDEXES[mask]:
        share = share_need(sources, symbols[index], total)
        if share > needs.get(_COLORS[index], 0):
            wanted[_COLORS[index]] = share
    basics, short, wanting = basics_for_needs(spells, identity, land_total - len(lands), needs, have, leaders, wanted)
    return basics, short, wanting


def with_lands(
    spells: Sequence[Card],
    lands: Sequence[Card],
    leaders: Sequence[Card],
    identity: ColorIdentity,
    land_total: int,
    size: int,
) -> tuple[list[Card], Counter[Card], int]:
    """A deck of ``size`` cards at ``land_total`` lands (the last of its ``spells`` go): its spells, its basics and
    the sources its needs still lack (``mana``)."""
    kept = list(spells[: size - len(leaders) - land_total])
    basics, short, _below = mana(kept, lands, leaders, identity, land_total)
    return kept, basics, short


def basics_for_needs(
    spells: Sequence[Card],
    identity: ColorIdentity,
    count: int,
    needs: dict[Color, int] | None = None,
    have: Counter[Color] | None = None,
    commanders: Sequence[Card] = (),
    shares_wanted: dict[Color, int] | None = None,
) -> tuple[Counter[Card], int, int]:
    """Basic lands: first what each color still needs, then what the colors far below their share of the colored
    symbols want (``shares_wanted``, from what is left), then by the colored symbols of the spells and the commanders
    (``_symbol_weights``).

    Returns the basics, how many sources the needs still lack and how many the shares still lack.  Wastes for a
    colorless identity.
    """
    if count <= 0:
        held_now = have or Counter()
        lacking = sum(max(0, need - held_now[color]) for color, need in (needs or {}).items())
        below = sum(max(0, want - held_now[color]) for color, want in (shares_wanted or {}).items())
        return Counter(), lacking, below
    if not identity:
        return Counter({basic_land(""): count}), 0, 0
    needs, have = needs or {}, have or Counter()
    colors = list(identity)  # WUBRG order breaks ties: each list below follows it
    held = [have[color] for color in colors]
    shares = [0] * len(colors)
    missing = [max(0, needs.get(color, 0) - n) for color, n in zip(colors, held, strict=True)]
    budget = count
    # Meet the needs, most missing first, while basics last (all of them at once when the basics meet them all: the
    # order they come in changes nothing then).
    if sum(missing) <= budget:
        shares, budget, missing = missing, budget - sum(missing), [0] * len(colors)
    while budget and any(missing):
        at = missing.index(max(missing))
        shares[at] += 1
        missing[at] -= 1
        budget -= 1
    # Then what the colors far below their share of the symbols want, from the basics left, most missing first.
    wanting = shares_wanted or {}
    short = [max(0, wanting.get(color, 0) - shares[at] - held[at]) for at, color in enumerate(colors)]
    while budget and any(short):
        at = short.index(max(short))
        shares[at] += 1
        short[at] -= 1
        budget -= 1
    # Then each basic to the color with the most symbols per source it has (the first of equals).
    weights = _symbol_weights(spells, identity, commanders)
    ratios = [(weights[at] + 1.0) / (1 + shares[at] + held[at]) for at in range(len(colors))]
    for _ in range(budget):
        at = ratios.index(max(ratios))
        shares[at] += 1
        ratios[at] = (weights[at] + 1.0) / (1 + shares[at] + held[at])
    basics = Counter({basic_land(color.value): n for color, n in zip(colors, shares, strict=True) if n})
    return basics, sum(missing), sum(short)
