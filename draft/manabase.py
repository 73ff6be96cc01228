"""A deck's mana: the sources each color needs, the colors a land or rock makes, and the basic lands to add.

A commander's colored symbol (its front face's) needs 8 sources, a color the main deck's spells show 6;
lands, and mana rocks of mana value 3 or less, are the sources.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from operator import itemgetter

from draft.commanders import commander_identity
from draft.decks import Deck
from draft.traits import COLOR_INDEXES, card_traits
from sets.basics import basic_land
from sets.cards import Card
from sets.colors import COLORLESS, Color, ColorIdentity, identity_from_mask

COMMANDER_SOURCES = 8
SPELL_SOURCES = 6
_COLORS = tuple(Color)


def _symbol_weights(cards: Sequence[Card], identity: ColorIdentity) -> list[float]:
    """The colored symbols of the cards' front faces, for each color of the identity (in WUBRG order)."""
    symbols = [card_traits(card).symbols for card in cards]
    # Whole numbers of symbols: their sum is the same in any order.
    return [float(sum(map(itemgetter(_COLORS.index(color)), symbols))) for color in identity]


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


def mana(
    spells: Sequence[Card], lands: Sequence[Card], leaders: Sequence[Card], identity: ColorIdentity, land_total: int
) -> tuple[Counter[Card], int]:
    needs = source_needs(leaders, spells, identity)
    counts = [0] * len(_COLORS)  # sources of each color, WUBRG
    mask = identity.mask
    for card in [*spells, *lands]:
        traits = card_traits(card)
        if traits.source:
            made = traits.mask & mask if traits.mask else (mask if traits.fixing else 0)
            for index in COLOR_INDEXES[made]:
                counts[index] += 1
    have = Counter({color: n for color, n in zip(_COLORS, counts, strict=True) if n})
    return basics_for_needs(spells, identity, land_total - len(lands), needs, have)


def basics_for_needs(
    spells: Sequence[Card],
    identity: ColorIdentity,
    count: int,
    needs: dict[Color, int] | None = None,
    have: Counter[Color] | None = None,
) -> tuple[Counter[Card], int]:
    """Basic lands: first what each color still needs, then by the colored symbols of the spells.

    Returns the basics and how many sources the needs still lack.  Wastes for a colorless identity.
    """
    if count <= 0:
        lacking = sum(max(0, need - (have or Counter())[color]) for color, need in (needs or {}).items())
        return Counter(), lacking
    if not identity:
        return Counter({basic_land(""): count}), 0
    needs, have = needs or {}, have or Counter()
    colors = list(identity)  # WUBRG order breaks ties: each list below follows it
    held = [have[color] for color in colors]
    shares = [0] * len(colors)
    missing = [max(0, needs.get(color, 0) - n) for color, n in zip(colors, held, strict=True)]
    budget = count
    # Meet the needs, most missing first, while basics last.
    while budget and any(missing):
        at = missing.index(max(missing))
        shares[at] += 1
        missing[at] -= 1
        budget -= 1
    # Then each basic to the color with the most symbols per source it has (the first of equals).
    weights = _symbol_weights(spells, identity)
    ratios = [(weights[at] + 1.0) / (1 + shares[at] + held[at]) for at in range(len(colors))]
    for _ in range(budget):
        at = ratios.index(max(ratios))
        shares[at] += 1
        ratios[at] = (weights[at] + 1.0) / (1 + shares[at] + held[at])
    basics = Counter({basic_land(color.value): n for color, n in zip(colors, shares, strict=True) if n})
    return basics, sum(missing)
