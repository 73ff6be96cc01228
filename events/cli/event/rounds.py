"""``cmdraft event round``, ``result``, ``standings``, ``game``, ``clock``, ``top`` and ``finish``: playing the rounds."""

from __future__ import annotations

from typing import Annotated

import msgspec
import typer
from rich.table import Table

from events import timing
from events.cli.common import DbOption, JsonOption, emit_json, out
from events.cli.event.shared import EventArg, core, number_pairs
from events.night.games import Games
from events.night.refusals import DecksMissing, ResultStands
from events.night.round_clock import start_clock
from events.night.rounds import Rounds
from events.night.schema import number_text
from events.night.shown import standing_row
from events.night.standings import ordinal, standings_title
from events.night.table_reports import TableReports
from events.outputs.pairing_sheets import first_players
from events.outputs.text import join_names
from events.screens.boards import game_board, standings_table
from events.screens.clock import run_clock
from events.screens.render import shown
from events.screens.terminal import terminate_as_interrupt
from sets.errors import InputError, LimitError
from sets.numbers import parse_int
from sets.userdata import db_option
from sets.visible import quoted


def event_round(
    event_id: EventArg,
    force: Annotated[bool, typer.Option("--force", help="Pair even if some decks are missing.")] = False,
    again: Annotated[
        bool,
        typer.Option(
            "--again",
            help="Pair the current round again with the players in the event now (after a drop, a late player or "
            "a corrected result), while none of its tables has a result, a report or a game entry; never a final "
            "table (event undo takes that back).",
        ),
    ] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Start the next round: game pods at random in round one, then by points avoiding repeat opponents."""
    try:
        pairing = (
            core(db, TableReports).repair(event_id, force) if again else core(db, Rounds).new_round(event_id, force)
        )
    except DecksMissing as refused:  # the core's words, and this face's way to pair anyway
        raise DecksMissing(f"{refused.message} with --force") from None
    if as_json:
        emit_json(pairing.to_json())
        return

    table = Table("Table", "Players (seat order)", "Goes first", title=f"Round {pairing.round}")
    for number, (names, first) in enumerate(zip(pairing.tables, pairing.first, strict=True), start=1):
        table.add_row(str(number), shown(join_names(names)), shown(first))
    out().print(table)


def event_result(
    event_id: EventArg,
    round_number: Annotated[int, typer.Argument(metavar="ROUND")],
    table: Annotated[int, typer.Argument(metavar="TABLE")],
    order: Annotated[
        str, typer.Argument(metavar="ORDER", help="Finishing order: 'Ann > Bo = Cy > Di' ('=' for a draw).")
    ],
    replace: Annotated[
        bool, typer.Option("--replace", help="Correct a result already recorded (until the event is finished).")
    ] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Record a table's result by finishing order; --replace corrects one, also after the next round was
    paired (the standings follow; the pairing stays, and the tables it would have changed are named)."""
    rounds = core(db, Rounds)
    try:
        result = rounds.record_result(event_id, round_number, table, order, replace)
    except ResultStands as refused:  # the core's words, and this face's way to correct a result
        raise ResultStands(f"{refused.message} with --replace") from None
    if as_json:
        emit_json(result.to_json())
        return

    if result.final:  # its places count for no points: the places, as the results sheet heads it
        out().print(
            shown("Final table: " + join_names(f"{name} {ordinal(place)}" for name, place in result.places.items()))
        )
    else:
        out().print(shown(join_names(f"{name} {number_text(points)}" for name, points in result.points.items())))
    if result.next_round is None:
        return
    if result.final_size is not None:
        # A final table can't be paired again; the desk takes it back with undo (this correction first).
        advice = (
            "; to seat it again while it has no result, take back the changes since it was seated, this correction "
            f"first, with 'cmdraft event undo {event_id}{db_option(rounds.path)}' until the final table is taken "
            "back (its --list says what comes next), then correct the result again and seat the final table with "
            f"'cmdraft event top {event_id} {result.final_size}{db_option(rounds.path)}'"
        )
    else:
        advice = (
            f"; 'cmdraft event round {event_id} --again{db_option(rounds.path)}' pairs the current round again while "
            "none of its tables has a result"
        )
    out().print(shown(result.correction(advice) or "", style="yellow"), soft_wrap=True)


def event_standings(event_id: EventArg, db: DbOption = None, as_json: JsonOption = False) -> None:
    """Standings: points, then opponents' average points, then average place; exact ties share a rank."""
    events = core(db, Rounds)
    rows = events.standings(event_id)
    if as_json:
        # Each row as the web's standings give it (``StandingRow``: the name is ``name``); ``player``, the name too,
        # is the key this list used before, kept so scripts that read it keep working.
        emit_json([{**msgspec.to_builtins(standing_row(row)), "player": row.name} for row in rows])
        return

    heading = standings_title(events.event(event_id).status)
    out().print(standings_table(rows, events.event(event_id).points, heading, events.did_not_play(event_id)))


GAME_OPTIONS = {"life": "--life", "damage": "--damage"}  # the core's fields, by the options that carry them


def event_game(
    event_id: EventArg,
    round_number: Annotated[int, typer.Argument(metavar="ROUND")],
    table: Annotated[int, typer.Argument(metavar="TABLE")],
    life: Annotated[list[str] | None, typer.Option("--life", help="NAME=DELTA life change (repeatable).")] = None,
    damage: Annotated[
        list[str] | None,
        typer.Option(
            "--damage", help="VICTIM=SOURCE:COMMANDER[#K]:N commander damage, e.g. Ann=Bo:Piper#2:7 (repeatable)."
        ),
    ] = None,
    cast: Annotated[
        list[str] | None,
        typer.Option("--cast", help="NAME=COMMANDER[#K]: a cast from the command zone, e.g. Bo=Piper#1 (repeatable)."),
    ] = None,
    undo: Annotated[
        bool, typer.Option("--undo", help="Take back the table's last entry (while the round is open).")
    ] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Game tracker for one table: life from 40, commander damage (21 loses), commander tax; --undo takes
    back the last entry."""
    damages = []
    for value in damage or []:
        victim, sep, rest = value.partition("=")
        rest, sep2, amount = rest.rpartition(":")
        source, sep3, commander = rest.partition(":")
        if not (sep and sep2 and sep3) or not victim.strip() or not source.strip() or not commander.strip():
            raise InputError(f"bad --damage {quoted(value)}: write VICTIM=SOURCE:COMMANDER:N, e.g. Ann=Bo:Piper#2:7")
        damages.append(
            (
                victim.strip(),
                source.strip(),
                commander.strip(),
                parse_int(amount, f"damage in --damage {quoted(value)}"),
            )
        )
    casts = []
    for value in cast or []:
        name, sep, commander = value.partition("=")
        if not sep or not name.strip() or not commander.strip():
            raise InputError(f"bad --cast {quoted(value)}: write NAME=COMMANDER, e.g. Bo=Piper#1")
        casts.append((name.strip(), commander.strip()))

    try:
        board = core(db, Games).game(
            event_id,
            round_number,
            table,
            life=number_pairs(life, "--life", signed=True),
            damage=damages,
            casts=casts,
            undo=undo,
        )
    except LimitError as error:  # the core keeps the ranges; the command line names its option
        raise InputError(error.for_option(GAME_OPTIONS.get(error.field, error.what))) from None
    if as_json:
        emit_json(board.to_json())
        return

    out().print(game_board(board))


def event_clock(
    event_id: EventArg,
    minutes: Annotated[
        float | None, typer.Option("--minutes", help="Length of the round (default 50; changes a running clock).")
    ] = None,
    restart: Annotated[
        bool, typer.Option("--restart", help="Start the round's clock again from the full length.")
    ] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Big-screen countdown for the current round, pairings beside it; p pauses or resumes, q quits.

    The start time and pauses are kept in the event: reopening the clock, or a second terminal, shows
    the true time left."""
    events = core(db)
    number, clock = start_clock(events, event_id, minutes, restart=restart)
    now = timing.now()
    if as_json:
        emit_json(msgspec.to_builtins(clock.shown(number, now)))
        return

    snap = events.snapshot(event_id)
    names = {p.id: p.name for p in snap.players}
    rnd = next(r for r in snap.rounds if r.number == number)
    tables = [[names[pid] for pid in table] for table in rnd.tables]
    first = [names[pid] for pid in first_players(snap.event, rnd)]
    with terminate_as_interrupt():  # the big screen reads keys one at a time: `kill PID` sets the terminal back
        run_clock(out(), events, event_id, number, f"{snap.event.name} · round clock", tables, first)


def event_top(
    event_id: EventArg,
    size: Annotated[
        int,
        typer.Argument(metavar="N", help="Players at the final table: one commander pod, 3 to 5 (2 in a 1v1 event)."),
    ],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Seat the top N of the standings (players still in the event) at a final table, the highest standing
    first; its result ('event result ID ROUND 1 ...') is its own and leaves the standings as they are; it names
    the event's winner.  Every tie on points among them (and at the cut) is said with the tie-breaker that
    settled it."""
    final = core(db, TableReports).top(event_id, size)
    if as_json:
        emit_json(final.to_json())
        return

    out().print(f"Final table: round {final.round}, table 1")
    table = Table("Rank", "Player")
    for rank, name in zip(final.ranks, final.players, strict=True):
        table.add_row(ordinal(rank), shown(name))
    out().print(table)
    out().print(shown(f"{final.first} goes first (highest standing)"))
    for line in final.said:
        out().print(shown(line), soft_wrap=True)


def event_finish(event_id: EventArg, db: DbOption = None, as_json: JsonOption = False) -> None:
    """Close the event: no more results."""
    was = core(db, Rounds).finish(event_id)
    if as_json:
        emit_json({"event": event_id, "status": "finished", "was": was})
        return
    out().print(f"event {event_id} finished")
