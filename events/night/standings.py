"""Points and standings as pure functions over the event's records (no store).

- A result is a finishing order; tied players share the average of the placement points of the
  places they cover (default points 3/2/1/0; places beyond the scheme get its last figure).
- Standings: points, then the average points per round of every opponent you shared a table with
  (each meeting counts), then the average finishing place (lower is better; a player who hasn't
  played comes after those who have).  All three are exact fractions; players equal on all three
  share a rank and are listed by name.  The final table's result is not counted in them: it names the
  event's winner (``final_place``: each finalist's place there; 1 is the winner, a draw for first shares it).  Bots (they only fill
  draft seats) have no standing, and neither has a player who did not play: no longer active (a no-show,
  or dropped) without ever holding a draft seat, a pool or a place at a game table (``did_not_play``:
  listed apart).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from dataclasses import replace as dc_replace
from fractions import Fraction

from events.night.schema import exact, number_text
from events.storage.records import Event, Player, Result, Round
from sets.names import name_order
from sets.visible import quoted


def ordinal(place: int) -> str:
    """A rank or a place as every face writes it: 1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st, 22nd."""
    suffix = "th" if 11 <= place % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def ordinals(count: int) -> list[str]:
    """The places 1 to ``count`` as every face writes them (a finishing order's form names each)."""
    return [ordinal(place) for place in range(1, count + 1)]


@dataclass(frozen=True)
class Standing:
    player: int
    name: str
    points: Fraction
    opponents_average: Fraction
    average_place: Fraction | None  # None before the player has played
    rounds: int
    dropped: bool
    rank: int = 0
    final_place: int | None = None  # the place at the final table once its result is in (1: won the event)

    @property
    def rank_text(self) -> str:
        """The rank as every face writes it ("1st"; players sharing a rank share the words)."""
        return ordinal(self.rank)

    def tie_key(self) -> tuple[Fraction, Fraction, bool, Fraction | int]:
        """The documented order: points, opponents' average (both higher first), average place (lower first)."""
        return (-self.points, -self.opponents_average, self.average_place is None, self.average_place or 0)

    @property
    def opponents_shown(self) -> Fraction | None:
        """The opponents' average as every face shows it: None (a dash, never "0.00") before the player has played,
        when they have met no opponent yet; it counts as nought in the order all the same."""
        return None if self.average_place is None else self.opponents_average


# The tie-breakers' names as every face shows them (the terminal's and the sheets' columns, the pages' rows).
OPPONENTS_AVERAGE, AVERAGE_PLACE = "Opp. avg", "Avg place"


NO_FIGURE = "–"  # a tie-breaker before the player has played: a dash, as EventLink and Melee show it, never a figure


def tie_breaker_figure(value: Fraction | None) -> str:
    """A tie-breaker's figure as every face shows it: two decimals, an exact half rounded up as a judge rounds by
    hand (9/8 is 1.13, where a float's round-half-even said 1.12); a dash before the player has played."""
    if value is None:
        return NO_FIGURE
    hundredths = math.floor(abs(value) * 100 + Fraction(1, 2))
    return f"{'-' if value < 0 and hundredths else ''}{hundredths // 100}.{hundredths % 100:02d}"


def tie_breaker_text(row: Standing) -> str:
    """A row's tie-breakers in words, for a face that shows them on one line beside the points (the pages)."""
    figures = f"{OPPONENTS_AVERAGE} {tie_breaker_figure(row.opponents_shown)} · {AVERAGE_PLACE} "
    return figures + (
        f"{NO_FIGURE} (no game played)" if row.average_place is None else tie_breaker_figure(row.average_place)
    )


def winners(rows: Sequence[Standing]) -> list[Standing]:
    """Who won the event: first at the final table (several when they drew for first); none before its result."""
    return [row for row in rows if row.final_place == 1]


FINAL_STANDINGS = "Final standings"  # once the event is finished: no result changes them any more
STANDINGS = "Standings"


def standings_title(event_status: str) -> str:
    """What every face calls the standings it shows (the room, a phone, the desk's terminal): final once the event
    is finished, the standings so far before."""
    return FINAL_STANDINGS if event_status == "finished" else STANDINGS


def winner_line(rows: Sequence[Standing]) -> str | None:
    """The sentence every face shows above the standings once the final table has its result (None before)."""
    won = [row.name for row in winners(rows)]
    if not won:
        return None
    if len(won) == 1:
        return f"Winner: {won[0]} (first at the final table)"
    return f"Winners: {' and '.join(won)} (shared first place at the final table)"


def _pair(a: Fraction, b: Fraction) -> str:
    """Two figures as text with as many decimals as it takes to tell them apart (exact fractions past six)."""
    for digits in range(2, 7):
        left, right = f"{float(a):.{digits}f}", f"{float(b):.{digits}f}"
        if left != right:
            return f"{left} to {right}"
    return f"{a} to {b}"


def tie_breaks(ranked: Sequence[Standing], seated: int) -> list[str]:
    """How the order of the top ``seated`` of ``ranked`` (players still in, best first) and the cut below them
    were settled wherever two neighbours have equal points: the tie-breaker that separated them, with both
    figures, or the order by name when they are equal on every tie-breaker (they share a rank)."""
    lines = []
    for at, (upper, lower) in enumerate(zip(ranked[:seated], ranked[1 : seated + 1], strict=False)):
        if upper.points != lower.points:
            continue
        no_game = [s.name for s in (upper, lower) if s.average_place is None]  # shown as a dash: never its 0.00
        if upper.opponents_average != lower.opponents_average:
            how = (
                f"on tie-breaker 1: {quoted(no_game[0])} has no game played"
                if no_game
                else f"on tie-breaker 1, opponents' average ({_pair(upper.opponents_average, lower.opponents_average)})"
            )
        elif len(no_game) == 1:  # one of them has played (both without a game are equal: by name)
            how = f"on tie-breaker 2: {quoted(no_game[0])} has no game played"
        elif (
            upper.average_place is not None
            and lower.average_place is not None
            and upper.average_place != lower.average_place
        ):
            how = (
                f"on tie-breaker 2, average place ({_pair(upper.average_place, lower.average_place)}; lower is better)"
            )
        else:
            how = f"by name: equal on points and both tie-breakers, they share rank {upper.rank}"
        ahead = "takes the last seat ahead of" if at == seated - 1 else "sits ahead of"
        lines.append(
            f"{quoted(upper.name)} {ahead} {quoted(lower.name)} (both {number_text(upper.points)} points) {how}"
        )
    return lines


def final_places(rounds: Sequence[Round], results: Iterable[Result]) -> dict[int, int]:
    """Each finalist's place at the final table (``event top``) from its recorded result: tied players share
    the best place they cover (1, 1, 3); empty before the result."""
    finals = {r.number for r in rounds if r.final}
    places: dict[int, int] = {}
    for result in results:
        if result.round not in finals:
            continue
        place = 1
        for group in result.order:
            for pid in group:
                places[pid] = place
            place += len(group)
    return places


def rank_standings(rows: Sequence[Standing]) -> list[Standing]:
    """Sorted by the tie-breakers (then name); players equal on every tie-breaker share a rank (1, 2, 2, 4)."""
    ordered = sorted(rows, key=lambda s: (*s.tie_key(), *name_order(s.name)))
    ranked: list[Standing] = []
    for position, row in enumerate(ordered, start=1):
        same = ranked and ranked[-1].tie_key() == row.tie_key()
        ranked.append(dc_replace(row, rank=ranked[-1].rank if same else position))
    return ranked


def placement_points(event: Event, order: Sequence[Sequence[int]]) -> dict[int, Fraction]:
    """Each player's points for one finishing order (groups of player numbers, best place first)."""
    points = [exact(p) for p in event.points]
    awarded: dict[int, Fraction] = {}
    place = 0
    for group in order:
        covered = [points[i] if i < len(points) else points[-1] for i in range(place, place + len(group))]
        share = sum(covered, Fraction(0)) / len(covered)
        for pid in group:
            awarded[pid] = share
        place += len(group)
    return awarded


def finishing_places(order: Sequence[Sequence[int]]) -> dict[int, int]:
    """Each player's place in one finishing order, from 1: players who drew share the best place of their group
    ("Ann > Bo = Cy > Di": 1, 2, 2, 4)."""
    places: dict[int, int] = {}
    place = 1
    for group in order:
        for pid in group:
            places[pid] = place
        place += len(group)
    return places


def point_totals(event: Event, results: Iterable[Result]) -> defaultdict[int, Fraction]:
    """Each player's points over the results given (nought for a player in none of them)."""
    totals: defaultdict[int, Fraction] = defaultdict(Fraction)
    for result in results:
        for pid, points in placement_points(event, result.order).items():
            totals[pid] += points
    return totals


def did_not_play(players: Iterable[Player], rounds: Iterable[Round], pooled: set[int] | frozenset[int]) -> list[Player]:
    """Players who took no part: not active now (a no-show, or dropped), and never held a draft seat, a pool
    (``pooled``: player ids) or a place at a game table."""
    tabled = {pid for r in rounds for table in r.tables for pid in table}
    return [
        p
        for p in players
        if not p.bot and p.status != "active" and p.pod is None and p.id not in pooled and p.id not in tabled
    ]


def standings_of(
    event: Event,
    players: Sequence[Player],
    results: Iterable[Result],
    rounds: Sequence[Round],
    pooled: set[int] | frozenset[int] = frozenset(),
) -> list[Standing]:
    """The ranked standings from the event's players, results and rounds; players who did not play
    (``did_not_play``, with ``pooled`` the ids holding a pool) are left out.

    The final table's result (``event top``) is its own: it is not counted in the standings."""
    finals = {r.number for r in rounds if r.final}
    results = list(results)
    at_final = final_places(rounds, results)
    results = [r for r in results if r.round not in finals]
    absent = {p.id for p in did_not_play(players, rounds, pooled)}
    totals = point_totals(event, results)
    played: Counter[int] = Counter()
    places: dict[int, list[int]] = defaultdict(list)
    opponents: dict[int, list[int]] = defaultdict(list)
    tables = {(r.number, i + 1): table for r in rounds for i, table in enumerate(r.tables)}
    for result in results:
        place = 1
        for group in result.order:
            for pid in group:
                played[pid] += 1
                places[pid].append(place)
            place += len(group)
        table = tables.get((result.round, result.table), [])
        for pid in table:
            opponents[pid] += [other for other in table if other != pid]

    def per_round(pid: int) -> Fraction:
        return totals[pid] / played[pid] if played[pid] else Fraction(0)

    rows = []
    for player in players:
        if player.bot or player.id in absent:
            continue  # a bot filled a draft seat (it plays no games); a no-show took no part
        pid = player.id
        opp = opponents[pid]
        rows.append(
            Standing(
                pid,
                player.name,
                Fraction(totals[pid]),
                sum((per_round(o) for o in opp), Fraction(0)) / len(opp) if opp else Fraction(0),
                Fraction(sum(places[pid]), len(places[pid])) if places[pid] else None,
                played[pid],
                player.status == "dropped",
                final_place=at_final.get(pid),
            )
        )
    return rank_standings(rows)
