"""How much a commander option's deck could be worth at most, before it is built (``draft.deckbuild._best`` leaves
unbuilt an option whose ceiling can't beat the best built)."""

from __future__ import annotations

from collections.abc import Sequence

from draft.deck_spells import FILLER, LANDS, WIDTH_COST, leader_value
from draft.decks import DRAFT_MIN_SIZE, is_piper
from draft.traits import card_traits
from sets.cards import Card
from sets.colors import ColorIdentity


class Ceilings:
    """No build of a commander option is worth more than its ceiling (``deckbuild._best`` leaves unbuilt an option
    whose ceiling can't beat the best built): the best-rated nonland cards of its colors (``rows``: each spell's
    color mask and rating) in every spell slot (a colored deck plays ``LANDS[0]`` lands or more), the weakest of them
    up to ``most_lands`` raised to ``FILLER`` (a filler land is worth that much in place of a weaker spell), its
    leaders, less its colors past two (every other cost is zero or more); a hair above, so a sum rounded in another
    order can't matter.  What every option of a pool shares is worked out once: each identity's fitting ratings,
    best first, and each group of leaders' own copies and worth leading."""

    __slots__ = ("_bounds", "_by_mask", "_cards", "_fitting", "_leaders")

    def __init__(self, rows: Sequence[tuple[int, float]]) -> None:
        # The ratings by the cards' color masks (a pool has a few), a card rated under nothing counted as nothing.
        self._by_mask: dict[int, list[float]] = {}
        for color, rating in rows:
            self._by_mask.setdefault(color, []).append(max(0.0, rating))
        self._fitting: dict[int, list[float]] = {}
        self._leaders: dict[int, tuple[tuple[Card, ...], list[tuple[int, float]], float]] = {}
        self._bounds: dict[tuple[int, int, int], float] = {}
        self._cards: dict[Card, tuple[tuple[int, float] | None, float | None]] = {}

    def of(self, leaders: tuple[Card, ...], identity: ColorIdentity, most_lands: int) -> float:
        """The option's ceiling."""
        own, leading = self._leading(leaders)
        return self._spells(identity.mask, len(leaders), most_lands, own) + leading + 1e-6

    def bound(self, leaders: tuple[Card, ...], identity: ColorIdentity, most_lands: int) -> float:
        """No ceiling (``of``) is above this, kept per identity and count of leaders: their own copies are left
        among the spells (each slot holds a card as good or better, so the sum is no lower)."""
        key = (identity.mask, len(leaders), most_lands)
        if (bound := self._bounds.get(key)) is None:
            bound = self._bounds[key] = self._spells(identity.mask, len(leaders), most_lands, [])
        return bound + self._leading(leaders)[1] + 1e-6

    def beats(self, leaders: tuple[Card, ...], identity: ColorIdentity, most_lands: int, value: float) -> bool:
        """Whether the option's ceiling is above ``value``: the ``bound`` first, the ceiling only when that is (the
        two asked in one, as ``_best`` asks of every option)."""
        mask, count = identity.mask, len(leaders)
        own, leading = self._leading(leaders)
        if (bound := self._bounds.get((mask, count, most_lands))) is None:
            bound = self._bounds[mask, count, most_lands] = self._spells(mask, count, most_lands, [])
        return bound + leading + 1e-6 > value and self._spells(mask, count, most_lands, own) + leading + 1e-6 > value

    def _leading(self, leaders: tuple[Card, ...]) -> tuple[list[tuple[int, float]], float]:
        """The leaders' own copies (color mask, rating) and their worth leading, worked out once a group (the options
        of a group share its tuple: kept by it, held, so the key names no other)."""
        known = self._leaders.get(id(leaders))
        if known is None or known[0] is not leaders:
            own: list[tuple[int, float]] = []
            leading = 0.0
            for card in leaders:
                if (figures := self._cards.get(card)) is None:  # a pool's few legends lead in many groups
                    traits = card_traits(card)
                    copy = None if traits.land or traits.piper else (traits.mask, max(0.0, traits.rating))
                    figures = self._cards[card] = (copy, None if is_piper(card) else leader_value(card))
                if figures[0] is not None:
                    own.append(figures[0])
                if figures[1] is not None:
                    leading += figures[1]
            known = self._leaders[id(leaders)] = (leaders, own, leading)
        return known[1], known[2]

    def _spells(self, mask: int, leaders: int, most_lands: int, own: list[tuple[int, float]]) -> float:
        """The spells' part of a ceiling, less the colors past two, with ``own`` (the leaders' copies) out."""
        if (fitting := self._fitting.get(mask)) is None:
            outside = ~mask
            fitting = []
            for color, ratings in self._by_mask.items():
                if not color & outside:
                    fitting += ratings
            fitting.sort(reverse=True)
            self._fitting[mask] = fitting
        slots = DRAFT_MIN_SIZE - leaders - (LANDS[0] if mask else 0)
        # The best ``slots`` once the leaders' own copies are out (they lead, no spell of the deck): a copy below
        # the first ``slots`` + its count changes none of them.
        top = fitting[: slots + len(own)]
        for color, rating in own:
            if not color & ~mask:
                try:
                    top.remove(rating)
                except ValueError:
                    pass
        del top[slots:]
        top += [0.0] * (slots - len(top))  # a slot no card fills: a land at best
        # A colored deck's filler lands take the places of its weakest spells, ``LANDS[0]`` lands to ``most_lands``.
        raised = 0.0
        for rating in top[max(0, slots - (most_lands - LANDS[0] if mask else 0)) :]:
            if rating < FILLER:
                raised += FILLER - rating
        return sum(top) + raised - WIDTH_COST * max(0, mask.bit_count() - 2)
