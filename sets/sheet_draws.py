"""A sheet's draw of a booster's cards, made once per sheet and count as a closure over its tables.

``BoosterSpec.open`` runs one of these per sheet of a booster's variant (thousands of boosters a night).  Each
draws the very random numbers, and so the very cards, that ``Sheet.draw`` draws (the slow, plain way, kept as the
reference a test compares with); only the work around the numbers is less:

- a weighted sheet's index table holds each card once per unit of its weight, so a random number times the total
  finds by one lookup the card ``bisect`` finds on the running totals (whole weights: ``bisect`` of ``x`` and of
  ``int(x)`` agree on whole totals); a uniform sheet is a table of weight one;
- ``math.trunc`` for ``int`` (the same whole number of a float, in a fraction of the time), sizes as floats (a
  float times a float: no int to convert, the same product);
- running totals as floats: ``bisect`` compares float with float (whole numbers below 2**53 are exact floats);
- repeats refused by a dict of the positions drawn so far, in draw order, holding their printings.
"""

from __future__ import annotations

import random
from bisect import bisect
from collections.abc import Callable, Sequence
from math import trunc
from typing import TypeVar

Printing = TypeVar("Printing")  # a sheet's card as it comes out of a pack (``sets.booster.Printing``)

# What a draw is given: the generator (for a sheet that draws itself), its ``random`` method, the booster's cards
# so far (the draw appends its own).
Draw = Callable[[random.Random, Callable[[], float], list[Printing]], None]


def one(cards: Sequence[Printing]) -> Draw[Printing]:
    """One card: a random number times the table's size picks it (``cards`` is the sheet's index table, cards
    repeated by weight, or the sheet itself when uniform)."""
    size = float(len(cards))

    def one(rng: random.Random, rnd: Callable[[], float], printings: list[Printing]) -> None:
        printings.append(cards[trunc(rnd() * size)])

    return one


def one_by_totals(cards: Sequence[Printing], totals: Sequence[int], total: int) -> Draw[Printing]:
    """One card of a sheet too big for an index table: ``bisect`` on its running totals."""
    floats = [float(running) for running in totals]

    def one_by_totals(rng: random.Random, rnd: Callable[[], float], printings: list[Printing]) -> None:
        printings.append(cards[bisect(floats, rnd() * total)])

    return one_by_totals


def distinct(cards: Sequence[Printing], table: Sequence[int], count: int) -> Draw[Printing]:
    """``count`` different cards: each a random number into the index table of positions, drawn again while the
    position is already in the booster.  Two and three (a booster's usual uncommons and legends) are written out:
    no loop, no container, in half the time."""
    size = float(len(table))

    def two(rng: random.Random, rnd: Callable[[], float], printings: list[Printing]) -> None:
        a = table[trunc(rnd() * size)]
        b = table[trunc(rnd() * size)]
        while b == a:
            b = table[trunc(rnd() * size)]
        printings += cards[a], cards[b]

    def three(rng: random.Random, rnd: Callable[[], float], printings: list[Printing]) -> None:
        a = table[trunc(rnd() * size)]
        b = table[trunc(rnd() * size)]
        while b == a:
            b = table[trunc(rnd() * size)]
        c = table[trunc(rnd() * size)]
        while c == a or c == b:
            c = table[trunc(rnd() * size)]
        printings += cards[a], cards[b], cards[c]

    def distinct(rng: random.Random, rnd: Callable[[], float], printings: list[Printing]) -> None:
        chosen: dict[int, Printing] = {}
        for _ in range(count):
            position = table[trunc(rnd() * size)]
            while position in chosen:
                position = table[trunc(rnd() * size)]
            chosen[position] = cards[position]
        printings += chosen.values()

    return two if count == 2 else three if count == 3 else distinct


def balanced(
    cards: Sequence[Printing], colored: Sequence[Sequence[int]], groups: Sequence[Sequence[int]], count: int
) -> Draw[Printing]:
    """A uniform color-balanced sheet (RULES.md section 5): one card of each color group, then for each other slot
    a group by the plan's table (one entry per unit of its weight) and a card of that group not yet drawn.  The
    whole part of one random number times the table's size picks the group, the fraction left (40+ random bits)
    its card."""
    forced = tuple((group, float(len(group))) for group in colored)
    slots = tuple((group, float(len(group))) for group in groups)
    size, free = float(len(slots)), count - len(forced)

    def balanced(rng: random.Random, rnd: Callable[[], float], printings: list[Printing]) -> None:
        chosen: dict[int, Printing] = {}
        for group, length in forced:  # groups are disjoint: no repeat
            position = group[trunc(rnd() * length)]
            chosen[position] = cards[position]
        for _ in range(free):
            where = rnd() * size
            whole = trunc(where)
            group, length = slots[whole]
            position = group[trunc((where - whole) * length)]
            while position in chosen:
                position = group[trunc(rnd() * length)]
            chosen[position] = cards[position]
        printings += chosen.values()

    return balanced


def by_sheet(draw: Callable[[random.Random, int], list[Printing]], count: int) -> Draw[Printing]:
    """The sheet's own ``draw`` (a sheet no table serves, or one that draws its own way)."""

    def by_sheet(rng: random.Random, rnd: Callable[[], float], printings: list[Printing]) -> None:
        printings += draw(rng, count)

    return by_sheet
