"""Game tables for a round, pure: how many of what size (``game_table_sizes``), and who sits where in a round after
the first (``pair_by_points``: from the top of the standings, repeat opponents avoided where possible, and the seats
at a round's odd tables, a table of 3 or of 5 among tables of 4, rotating as a bye does)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from fractions import Fraction

from events.storage.records import Round
from sets.errors import StateError


def game_table_sizes(players: int, size: int = 4, one_v_one: bool = False) -> list[int]:
    """Tables for a round: pods of ``size`` (3-5 when numbers don't divide), or pairs for 1v1."""
    if players < 2:
        raise StateError(f"a round needs at least 2 active players, not {players}")
    if one_v_one:
        # 1v1: pairs, with one table of three when the count is odd.
        tables = players // 2
    elif players < 3:
        tables = 1  # two players can only play each other
    else:
        # Every table holds 3 to 5 players: between ceil(n/5) and floor(n/3) tables, as near n/size as that allows;
        # at an exact half the fewer tables, every time (10 at size 4: 5 + 5, and so 14: 5 + 5 + 4), never Python's
        # round(), which halves to even and so went down for 10 and 18 but up for 14 and 22.
        fewest, most = -(-players // 5), players // 3
        nearest = players // size + (1 if 2 * (players % size) > size else 0)
        tables = min(max(nearest, fewest), most)
    return [players // tables + (1 if i < players % tables else 0) for i in range(tables)]


def pair_by_points(
    ids: list[int],
    totals: Mapping[int, Fraction | int],
    met: Mapping[tuple[int, int], int],
    sizes: list[int],
    rng: random.Random,
    window: int = 4,
    *,
    game_size: int | None = None,
    sat_at: Mapping[tuple[int, int], int] | None = None,
) -> list[list[int]]:
    """Tables filled from the top of the standings; each seat goes to the candidate among the
    next few who has met the table's players least (random among equals).

    With ``game_size`` and ``sat_at`` (each player's earlier seats at tables of each size, ``seats_by_size``), the
    seats at the tables of the round's odd size (``odd_size``: a table of 3, or of 5, among tables of 4) rotate
    as a bye does: when the filling above would seat a player there again while one who has sat at a table of
    that size fewer times goes to another table, those tables take the players who have sat at one least
    instead (the lowest standing among equals for a short table, the highest for a long one), and the others
    fill the rest of the tables from the top."""
    order = sorted(ids, key=lambda pid: (-totals[pid], rng.random()))
    tables = _filled(order, sizes, met, window)
    odd = odd_size(sizes, game_size) if game_size is not None and sat_at is not None else None
    if odd is None or sat_at is None:
        return tables

    def count(pid: int) -> int:
        return sat_at.get((pid, odd), 0)

    at_odd = [count(pid) for seats in tables if len(seats) == odd for pid in seats]
    elsewhere = [count(pid) for seats in tables if len(seats) != odd for pid in seats]
    if max(at_odd) <= min(elsewhere):
        return tables
    short = odd < max(sizes)
    nearest = order[::-1] if short else order  # a short table's seats are taken from the bottom, a long one's the top
    chosen = set(sorted(nearest, key=lambda pid: (count(pid), nearest.index(pid)))[: odd * sizes.count(odd)])
    odd_tables = _filled([pid for pid in order if pid in chosen], [odd] * sizes.count(odd), met, window)
    rest = _filled([pid for pid in order if pid not in chosen], [s for s in sizes if s != odd], met, window)
    return rest + odd_tables if short else odd_tables + rest


def _filled(order: list[int], sizes: list[int], met: Mapping[tuple[int, int], int], window: int) -> list[list[int]]:
    """``order`` (best first) seated at tables of ``sizes`` from the top: each seat to the candidate among the next
    ``window`` who has met the table's players least (the higher among equals)."""
    order = list(order)
    tables = []
    for size in sizes:
        table = [order.pop(0)]
        while len(table) < size:
            candidates = order[:window]
            best = min(candidates, key=lambda pid: (sum(met[(pid, other)] for other in table), candidates.index(pid)))
            order.remove(best)
            table.append(best)
        tables.append(table)
    return tables


def odd_size(sizes: list[int], game_size: int) -> int | None:
    """The size of a round's odd tables, whose seats rotate (``pair_by_points``): with tables of two sizes, the one
    that isn't the game size (3 among 4s, 5 among 4s), or, when neither is, the one further from it (3 beside 4
    at size 5); None when every table has the same size."""
    kinds = sorted(set(sizes))
    if len(kinds) < 2:
        return None
    return max(kinds, key=lambda size: (abs(size - game_size), size == kinds[0]))


def seats_by_size(rounds: Iterable[Round]) -> Counter[tuple[int, int]]:
    """How often each player has sat at a table of each size: ``(player, size)``; the final table is left out."""
    sat: Counter[tuple[int, int]] = Counter()
    for rnd in rounds:
        if not rnd.final:
            for table in rnd.tables:
                for pid in table:
                    sat[(pid, len(table))] += 1
    return sat


def meetings(rounds: Iterable[Round]) -> Counter[tuple[int, int]]:
    """How often each ordered pair of players has shared a table."""
    met: Counter[tuple[int, int]] = Counter()
    for rnd in rounds:
        for table in rnd.tables:
            for a in table:
                for b in table:
                    if a != b:
                        met[(a, b)] += 1
    return met
