"""Standings and results sheets, and the CSV rows of both."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from events.night.base import EventBase
from events.night.rounds import Rounds
from events.night.schema import number_text
from events.night.snapshot import Snapshot
from events.night.standings import (
    Standing,
    finishing_places,
    ordinal,
    placement_points,
    standings_title,
    tie_breaker_figure,
    winner_line,
)
from events.outputs.sheets import Block, Note, Page, Sheet, Table, subtitle


def standings_legend(points: Sequence[float]) -> tuple[str, ...]:
    """What every standings column means, tie-breakers in order (shown under the table on screen and paper)."""
    scheme = "/".join(number_text(Fraction(p)) for p in points)  # as before: the float's exact value
    return (
        (
            f"Points: placement points from every game ({scheme} for 1st, 2nd, …); players who draw share the average "
            "of the places they cover."
        ),
        (
            "Tie-breaker 1, Opp. avg: the average points per round of every opponent you shared a table with (each "
            "meeting counts); higher is better."
        ),
        (
            "Tie-breaker 2, Avg place: your average finishing place (1 is first); lower is better; blank before you "
            "have played."
        ),
        (
            "Rounds: games with a recorded result. Players equal on points and both tie-breakers share a rank and are "
            "listed by name."
        ),
    )


def final_place_text(place: int | None) -> str:
    """A finalist's place at the final table for the standings' column ("1st: winner"); blank for the others."""
    if place is None:
        return ""
    return ordinal(place) + (": winner" if place == 1 else "")


FINAL_TABLE_LEGEND = (
    "Final table: each finalist's place at the final table ('event top'); it names the winner and is not counted "
    "in the points or the tie-breakers."
)


def did_not_play_lines(names: Sequence[str]) -> tuple[str, ...]:
    """The players who took no part (no-shows), listed apart from the ranked players (no line when none)."""
    if not names:
        return ()
    return (f"Did not play (never seated, no game): {', '.join(names)}.",)


def standings_heading(snap: Snapshot) -> str:
    """What the standings are: before any result, during or after a round, or final once the event is finished."""
    if snap.event.status == "finished":
        return standings_title(snap.event.status)
    if not snap.results:
        return "Standings before any result"
    last = snap.rounds[-1]
    if last.final:
        return "Standings after the final table" if last.status == "closed" else "Standings during the final table"
    if last.status == "closed":
        return f"Standings after round {last.number}"
    return f"Standings during round {last.number} (some tables still playing)"


STANDINGS_CSV = ("rank", "player", "points", "opponents_average", "average_place", "rounds", "dropped", "final_place")


def standings_csv(rows: Sequence[Standing]) -> Table:
    return Table(
        STANDINGS_CSV,
        tuple(
            (
                str(r.rank),
                r.name,
                number_text(r.points, 4),
                number_text(r.opponents_shown, 4),
                number_text(r.average_place, 4),
                str(r.rounds),
                str(int(r.dropped)),
                "" if r.final_place is None else str(r.final_place),
            )
            for r in rows
        ),
    )


def standings(events: EventBase, event_id: int) -> Sheet:
    snap = events.snapshot(event_id)
    event = snap.event
    rounds = Rounds(events.store)
    rows = rounds.standings(event_id)
    heading = standings_heading(snap)
    final = any(r.final_place is not None for r in rows)
    table = Table(
        ("Rank", "Player", "Points", "Opp. avg", "Avg place", "Rounds", *(("Final table",) if final else ())),
        tuple(
            (
                r.rank_text,
                r.name + (" (dropped)" if r.dropped else ""),
                number_text(r.points),
                tie_breaker_figure(r.opponents_shown),
                tie_breaker_figure(r.average_place),
                str(r.rounds),
                *((final_place_text(r.final_place),) if final else ()),
            )
            for r in rows
        ),
        right=(0, 2, 3, 4, 5),
    )
    won = winner_line(rows)
    winner = (Note(won, strong=True),) if won else ()
    legend = tuple(Note(line) for line in (*standings_legend(event.points), *((FINAL_TABLE_LEGEND,) if final else ())))
    absent = tuple(Note(line, strong=True) for line in did_not_play_lines(rounds.did_not_play(event_id)))
    return Sheet(
        "standings",
        event.name,
        subtitle(event),
        (Page(heading, (*winner, table, *absent, *legend)),),
        csv=standings_csv(rows),
        page_breaks=False,
    )


RESULTS_CSV = ("round", "table", "player", "place", "points", "final")


def result_rows(events: EventBase, snap: Snapshot) -> list[tuple[int, int, str, int, Any]]:
    """(round, table, player, place, points) for every recorded result, in round and table order; the final
    table's places count for no points (None)."""
    names = {p.id: p.name for p in snap.players}
    final = {rnd.number for rnd in snap.rounds if rnd.final}
    rows = []
    for result in sorted(snap.results, key=lambda r: (r.round, r.table)):
        awarded = placement_points(snap.event, result.order)
        for pid, place in finishing_places(result.order).items():
            points = None if result.round in final else awarded[pid]
            rows.append((result.round, result.table, names[pid], place, points))
    return rows


def results_csv(events: EventBase, snap: Snapshot) -> Table:
    """Every place of every result: its points (blank at the final table, whose places count for none) and
    whether it is the final table's ("yes"), so the points summed are the standings' points."""
    return Table(
        RESULTS_CSV,
        tuple(
            (str(r), str(t), name, str(place), *(("", "yes") if points is None else (number_text(points, 4), "")))
            for r, t, name, place, points in result_rows(events, snap)
        ),
    )


def results(events: EventBase, event_id: int) -> Sheet:
    snap = events.snapshot(event_id)
    event = snap.event
    rows = result_rows(events, snap)
    blocks: list[Block] = []
    for rnd in snap.rounds:
        mine = [row for row in rows if row[0] == rnd.number]
        status = "finished" if rnd.status == "closed" else "in progress"
        label = f"Final table (round {rnd.number}, {status})" if rnd.final else f"Round {rnd.number} ({status})"
        if mine:
            blocks.append(
                Table(
                    ("Table", "Place", "Player", "Points"),
                    tuple(
                        (str(t), ordinal(place), name, "—" if points is None else number_text(points))
                        for _, t, name, place, points in mine
                    ),
                    title=label,
                    right=(0, 3),
                )
            )
        else:
            blocks.append(Note(label, strong=True))
        waiting = [number for number in range(1, len(rnd.tables) + 1) if not any(row[1] == number for row in mine)]
        if waiting:
            blocks.append(
                Note(f"Waiting for table{'s' if len(waiting) > 1 else ''} " + ", ".join(map(str, waiting)) + ".")
            )
    if not blocks:
        blocks.append(Note("No round has been played yet."))
    return Sheet(
        "results",
        event.name,
        subtitle(event),
        (Page("Results", tuple(blocks)),),
        csv=results_csv(events, snap),
        page_breaks=False,
    )
