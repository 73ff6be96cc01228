"""What the packs passed to a bot say about the seats upstream (``draft.bots``): a color whose good cards are still
there after the first picks, more than its share of a fresh pack's, is one those seats aren't taking.

A strong drafter reads what flows, not what is deep: a set with more good green cards than blue ones shows more green
in every pack, whoever takes what.  So each pack passed to a seat is compared with what a fresh booster of its set
holds: the good cards left, by color, against the share of them each color has in a fresh booster (``fresh_shares``,
from the set's booster sheets and their weights).  A color above its share was passed; below it, taken upstream.
"""

from __future__ import annotations

from collections.abc import Sequence

from draft.traits import KEPT_TRAITS, card_traits
from sets.booster import Printing, booster_spec
from sets.cards import Card, CardSet
from sets.catalog import load_set
from sets.errors import InputError

SIGNAL_FROM = 1.8  # a card rated this or less says nothing: any seat would pass it
# What an open color's signal counts for in a strong seat's plan (``draft.bots``), as pool value of that color, at the
# first pick; less as the draft goes on, nothing from two thirds of it.
SIGNAL_LEAN = 3.0
SIGNAL_PACKS = (
    1  # the packs whose flow a seat reads: a strong drafter reads the first (the second passes the other way)
)
EVEN = (0.2, 0.2, 0.2, 0.2, 0.2)  # each color's share when the set's boosters are unknown
_FRESH: dict[str, tuple[CardSet, tuple[float, ...]]] = {}  # fresh_shares by set code, with the set they came from


class _Said(dict[Card, tuple[float, tuple[int, ...]]]):
    """What each card says (``_SAID``), worked out the first time it is asked: its excess over ``SIGNAL_FROM`` split
    among its colors and those colors' places, (0, ()) for a card that says nothing (rated ``SIGNAL_FROM`` or less,
    colorless, or of three colors or more).  A pod's bots read each card many times."""

    def __missing__(self, card: Card) -> tuple[float, tuple[int, ...]]:
        if len(self) >= KEPT_TRAITS:
            self.clear()
        traits = card_traits(card)
        indexes = traits.color_indexes
        said = (
            (0.0, ())
            if traits.rating < SIGNAL_FROM or not indexes or len(indexes) > 2
            else ((traits.rating - SIGNAL_FROM) / len(indexes), indexes)
        )
        self[card] = said
        return said


_SAID = _Said()


def fresh_shares(item: Printing | Card) -> tuple[float, ...]:
    """Each color's share (WUBRG, summing to 1) of the good cards' excess over ``SIGNAL_FROM`` in a fresh draft
    booster of the card's set: each sheet's cards by their weights, each variant by its; ``EVEN`` for a card of no
    loaded set or a set without boosters.  Worked out once per set (again when the set is imported anew)."""
    card = item.card if isinstance(item, Printing) else item
    try:
        card_set = load_set(card.set_code)
    except InputError:
        return EVEN
    kept = _FRESH.get(card_set.code)
    if kept is not None and kept[0] is card_set:
        return kept[1]
    try:
        spec = booster_spec(card_set, None)
    except InputError:
        return EVEN
    excess = [0.0] * 5
    for variant in spec.variants:
        share = variant.weight / spec.total_weight
        for name, count in variant.contents:
            sheet = spec.sheets[name]
            for printing, weight in zip(sheet.printings, sheet.weights, strict=True):
                part, indexes = _SAID[printing.card]
                for index in indexes:
                    excess[index] += share * count * weight / sheet.total * part
    total = sum(excess)
    shares = tuple(value / total for value in excess) if total > 0 else EVEN
    _FRESH[card_set.code] = (card_set, shares)
    return shares


def read_signals(
    signals: list[float], offered: Sequence[Printing | Card], pick_number: int, shares: Sequence[float] = EVEN
) -> None:
    """Add what a pack passed at ``pick_number`` (from 2) says to ``signals`` (one figure per color, WUBRG): each card
    of one or two colors rated above ``SIGNAL_FROM`` counts its excess for its colors, split between them; each color
    gains what it holds beyond its share (``shares``: a fresh booster's, ``fresh_shares``) of the pack's total, and
    loses what it holds less (the figures of one pack sum to nothing), the more the later the pick (in full from the
    fifth)."""
    found = [0.0] * 5
    said = _SAID
    for item in offered:
        part, indexes = said[item.card if isinstance(item, Printing) else item]
        for index in indexes:
            found[index] += part
    total = sum(found)
    if total <= 0:
        return
    weight = min(1.0, (pick_number - 1) / 4)
    for index in range(5):
        signals[index] += weight * (found[index] - total * shares[index])
