"""What the packs passed to a bot say about the seats upstream (``draft.bots``): good cards of a color still there
after the first picks mean those seats aren't taking it."""

from __future__ import annotations

from collections.abc import Sequence

from draft.traits import card_traits
from sets.booster import Printing
from sets.cards import Card

SIGNAL_FROM = 1.8  # a card rated this or less says nothing: any seat would pass it


def read_signals(signals: list[float], offered: Sequence[Printing | Card], pick_number: int) -> None:
    """Add what a pack passed at ``pick_number`` (from 2) says to ``signals`` (one figure per color, WUBRG): each
    card of one or two colors rated above ``SIGNAL_FROM`` counts its excess for its colors, split between them, and
    the more the later the pick (in full from the fifth)."""
    weight = min(1.0, (pick_number - 1) / 4)
    for item in offered:
        traits = card_traits(item.card if isinstance(item, Printing) else item)
        if traits.rating < SIGNAL_FROM:
            continue
        indexes = traits.color_indexes  # the colors' places, as the mask's bits
        width = len(indexes)
        if not width or width > 2:
            continue
        share = weight * (traits.rating - SIGNAL_FROM) / width
        for index in indexes:
            signals[index] += share
