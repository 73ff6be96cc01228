"""A booster spec's draws written out once as one Python function, from its sheets' own numbers.

``BoosterSpec.open_many`` opens thousands of boosters a night.  Each booster draws the very random numbers, and so
the very cards, that ``Sheet.draw`` draws (the slow, plain way, kept as the reference a test compares with); only
the work around the numbers is less:

- each entry of a variant (so many cards from one sheet) is a ``Step``: the way it draws and the tables it reads;
- ``compose`` writes the whole spec's loop out as Python source once, as ``collections.namedtuple`` and
  ``dataclasses`` do: the variant by one lookup, found in a tree of comparisons that splits the variants by weight
  (CMR's usual variant after one), then every entry's draws inline, one local name a card, ending in the booster's
  one tuple (no call a sheet, no list, no copy).  The source holds only names it makes up and counts;
  every table reaches the code by name, never as text, so nothing a set file says becomes code; one shape of spec
  compiles once;
- a weighted sheet's index table holds each card once per unit of its weight, so a random number times the table's
  size finds by one lookup the card ``bisect`` finds on the running totals (whole weights: ``bisect`` of ``x`` and
  of ``int(x)`` agree on whole totals); a uniform sheet is its own table;
- a sheet too big for an index table (a foil sheet weighted by printing) looks its card up in a small table of
  buckets of the random numbers first, each holding the card every number of it gives (``coarse``), and runs
  ``bisect`` on the running totals only for a number in a bucket a card's end falls in (one in eleven for CMR's);
- ``math.trunc`` for ``int`` (the same whole number of a float, in a fraction of the time), sizes as floats (a float
  times a float: no int to convert, the same product); running totals as floats for ``bisect``;
- repeats refused: up to ``BY_IDENTITY`` cards by comparing each with the ones before (a sheet's printings are one
  object a position); more by marks: a list a sheet size, made at each call (nothing shared between threads),
  holding at each position the number of the booster that last drew it.
"""

from __future__ import annotations

import random
from bisect import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import trunc
from typing import Any, TypeVar

Printing = TypeVar("Printing")  # a sheet's card as it comes out of a pack (``sets.booster.Printing``)
B = TypeVar("B")  # the booster (``sets.booster.Booster``, a named tuple of index, variant, printings)

BY_IDENTITY = 4  # the most cards of one entry whose repeats are refused by comparing them with each other
DEPTH = 12  # the deepest the variants' tree splits by weight; deeper, it halves by count (a nesting Python parses)


@dataclass(frozen=True, slots=True)
class Step:
    """One entry of a variant: ``count`` cards drawn the way ``kind`` names, from ``tables`` (what its code reads,
    in order); ``marks``: the size of the marks list it refuses repeats with (0: none)."""

    kind: str
    count: int
    tables: tuple[object, ...]
    marks: int = 0


def one(cards: Sequence[Printing]) -> Step:
    """One card: a random number times the table's size picks it (``cards`` is the sheet's index table, cards
    repeated by weight, or the sheet itself when uniform)."""
    return Step("one", 1, (tuple(cards), float(len(cards))))


def one_by_totals(cards: Sequence[Printing], totals: Sequence[int], total: int) -> Step:
    """One card of a sheet too big for an index table: ``bisect`` on its running totals, looked up first in a
    small table of the card each ``1 / COARSE`` of the random numbers gives (``coarse``)."""
    running = [float(value) for value in totals]
    cards = tuple(cards)
    table = tuple(None if at is None else cards[at] for at in coarse(tuple(running), total))
    return Step("one_by_totals", 1, (cards, running, total, table, float(COARSE)))


COARSE = 4096  # a power of two: a random number times it is exact, so its whole part names its bucket exactly


@lru_cache(maxsize=64)
def coarse(totals: tuple[float, ...], total: int) -> tuple[int | None, ...]:
    """For each bucket ``b`` of the random numbers (``b / COARSE`` up to ``(b + 1) / COARSE``), the position
    ``bisect(totals, number * total)`` gives for every number of it, or None where they differ (the few buckets a
    card's end falls in).  A number times ``total`` only grows with the number, and ``bisect`` with it, so the two
    ends of a bucket (the top one as a bound it never reaches) agreeing means every number between them agrees."""
    ends = [bisect(totals, (bucket / COARSE) * total) for bucket in range(COARSE + 1)]
    return tuple(ends[b] if ends[b] == ends[b + 1] else None for b in range(COARSE))


def distinct(cards: Sequence[Printing], table: Sequence[int], count: int) -> Step:
    """``count`` different cards: each a random number into the index table of positions, drawn again while the
    position is already in the booster."""
    size = float(len(table))
    if count <= BY_IDENTITY and len({id(card) for card in cards}) == len(cards):  # one object a position
        return Step("distinct", count, (tuple(cards[position] for position in table), size))
    return Step("distinct_marked", count, (tuple(table), size, tuple(cards)), len(cards))


def balanced(
    cards: Sequence[Printing], colored: Sequence[Sequence[int]], groups: Sequence[Sequence[int]], count: int
) -> Step:
    """A uniform color-balanced sheet (RULES.md section 5): one card of each color group, then for each other slot
    a group by the plan's table (one entry per unit of its weight) and a card of that group not yet drawn.  The
    whole part of one random number times the table's size picks the group, the fraction left (40+ random bits)
    its card.  Each entry of the table holds its group, the group's size and its own place as a float (the number
    less its whole part is then a float less a float, the same difference as less the int, in less time)."""
    forced = tuple(x for group in colored for x in (tuple(group), float(len(group))))
    slots = tuple((tuple(group), float(len(group)), float(place)) for place, group in enumerate(groups))
    return Step("balanced", count, (tuple(cards), slots, float(len(slots)), *forced), len(cards))


def by_sheet(draw: Callable[[random.Random, int], list[Printing]], count: int) -> Step:
    """The sheet's own ``draw`` (a sheet no table serves, or one that draws its own way)."""
    return Step("by_sheet", count, (draw, count))


def _lines(step: Step, names: Sequence[str], marks: str, prefix: str) -> tuple[list[str], list[str]]:
    """The code of one entry (its lines, then the booster's cards it adds as expressions); ``names`` name its
    tables, ``marks`` its marks list, ``prefix`` starts every local name it makes."""
    count, a = step.count, [f"{prefix}_{i}" for i in range(step.count)]
    if step.kind == "one":
        table, size = names
        return [f"{a[0]} = {table}[trunc(rnd() * {size})]"], a
    if step.kind == "one_by_totals":
        cards, totals, total, table, buckets = names
        number = f"{prefix}r"
        return [
            f"{number} = rnd()",
            f"{a[0]} = {table}[trunc({number} * {buckets})]",
            f"if {a[0]} is None:",
            f"    {a[0]} = {cards}[bisect({totals}, {number} * {total})]",
        ], a
    if step.kind == "by_sheet":
        draw, number = names
        return [f"{prefix} = {draw}(rng, {number})"], [f"*{prefix}"]
    lines = []
    if step.kind == "distinct":
        table, size = names
        for i in range(count):
            lines.append(f"{a[i]} = {table}[trunc(rnd() * {size})]")
            if i:
                lines.append(f"while {' or '.join(f'{a[i]} is {b}' for b in a[:i])}:")
                lines.append(f"    {a[i]} = {table}[trunc(rnd() * {size})]")
        return lines, a
    if step.kind == "distinct_marked":
        table, size, cards = names
        for i in range(count):
            lines.append(f"{a[i]} = {table}[trunc(rnd() * {size})]")
            if i:
                lines.append(f"while {marks}[{a[i]}] is index:")
                lines.append(f"    {a[i]} = {table}[trunc(rnd() * {size})]")
            if i < count - 1:
                lines.append(f"{marks}[{a[i]}] = index")
        return lines, [f"{cards}[{x}]" for x in a]
    if step.kind == "balanced":
        cards, slots, size, *forced = names
        colored = len(forced) // 2
        for i in range(colored):  # the color groups are disjoint: no repeat among these
            group, length = forced[2 * i], forced[2 * i + 1]
            lines.append(f"{a[i]} = {group}[trunc(rnd() * {length})]")
            lines.append(f"{marks}[{a[i]}] = index")
        where, group, length, place = (f"{prefix}{x}" for x in ("w", "g", "n", "k"))
        for i in range(colored, count):
            lines += [
                f"{where} = rnd() * {size}",
                f"{group}, {length}, {place} = {slots}[trunc({where})]",
                f"{a[i]} = {group}[trunc(({where} - {place}) * {length})]",
                f"while {marks}[{a[i]}] is index:",
                f"    {a[i]} = {group}[trunc(rnd() * {length})]",
            ]
            if i < count - 1:
                lines.append(f"{marks}[{a[i]}] = index")
        return lines, [f"{cards}[{x}]" for x in a]
    raise ValueError(f"no code for a step of kind {step.kind!r}")


def _split(weights: Sequence[int], low: int, high: int, depth: int) -> int:
    """Where the variants ``low`` to ``high`` split: the two sides' weights as near equal as can be (the likely
    variant found in fewer comparisons), or their counts once ``depth`` passes ``DEPTH``."""
    if depth >= DEPTH:
        return (low + high) // 2
    total, running, best, split = sum(weights[low:high]), 0, None, low + 1
    for middle in range(low + 1, high):
        running += weights[middle - 1]
        gap = abs(total - 2 * running)
        if best is None or gap < best:
            best, split = gap, middle
    return split


@lru_cache(maxsize=64)
def _compiled(source: str) -> Any:
    """The code of a spec's source, compiled once a shape."""
    return compile(source, "<booster draws>", "exec")


def compose(
    variants: Sequence[Sequence[Step]],
    weights: Sequence[int],
    table: Sequence[int],
    totals: Sequence[int],
    booster: type[B],
) -> Callable[[random.Random, int, int], list[B]]:
    """The spec's ``open_many(rng, count, start)``: ``count`` boosters numbered from ``start``, each its variant
    (by ``table``, each variant once per unit of its weight, or when empty ``bisect`` on ``totals``), then each of
    its steps in turn, the cards in one ``booster(index, variant, cards)``."""
    bound: dict[str, object] = {"trunc": trunc, "bisect": bisect, "new": tuple.__new__, "Booster": booster}
    marks: dict[str, int] = {}  # a marks list's name: its size
    named: dict[int, list[str]] = {}  # a step's tables' names, by the step (one sheet's step serves every variant)

    def body(variant: int) -> list[str]:
        lines: list[str] = []
        cards: list[str] = []  # the booster's cards as expressions, in order
        taken: dict[int, int] = {}  # how many entries so far use marks of each size
        for number, step in enumerate(variants[variant]):
            prefix = f"v{variant}s{number}"
            names = named.get(id(step))
            if names is None:
                names = named[id(step)] = [f"t{len(named)}_{i}" for i in range(len(step.tables))]
                bound.update(zip(names, step.tables))
            # Entries of one variant need marks of their own; variants (one a booster) share them.
            nth = taken[step.marks] = taken.get(step.marks, -1) + 1
            mark = f"m{step.marks}_{nth}"
            if step.marks:
                marks[mark] = step.marks
            code, drawn = _lines(step, names, mark, prefix)
            lines += code
            cards += drawn
        printings = f"({', '.join(cards)},)" if cards else "()"
        return [*lines, f"append(new(Booster, (index, {variant}, {printings})))"]

    def tree(low: int, high: int, depth: int) -> list[str]:
        if high - low == 1:
            return body(low)
        middle = _split(weights, low, high, depth)
        inner = ["    " + line for line in tree(low, middle, depth + 1)]
        outer = ["    " + line for line in tree(middle, high, depth + 1)]
        return [f"if v < {middle}:", *inner, "else:", *outer]

    if table:
        bound.update(vt=tuple(table), vs=float(len(table)))
        choose = "v = vt[trunc(rnd() * vs)]"
    else:
        bound.update(vc=[float(running) for running in totals], vw=totals[-1])
        choose = "v = bisect(vc, rnd() * vw)"
    loop = [choose, *tree(0, len(variants), 0)]
    source = "\n".join(
        [
            f"def make({', '.join(bound)}):",
            "    def open_many(rng, count, start):",
            "        rnd = rng.random",
            "        boosters = []",
            "        append = boosters.append",
            *(f"        {name} = [None] * {size}" for name, size in marks.items()),
            "        for index in range(start, start + count):",
            *("            " + line for line in loop),
            "        return boosters",
            "    return open_many",
        ]
    )
    namespace: dict[str, Any] = {}
    exec(_compiled(source), namespace)
    opener: Callable[[random.Random, int, int], list[B]] = namespace["make"](*bound.values())
    return opener
