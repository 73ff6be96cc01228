"""``cmdraft event seat``, ``draft``, ``timer`` and ``pool``: seating, the draft and the pools it gives."""

from __future__ import annotations

import contextlib
import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from draft.formats import parse, read_file
from draft.products import product
from events.cli.common import DbOption, JsonOption, emit_json, option_limits, out
from events.cli.event.shared import EventArg, core, warn_exposed
from events.night import presence
from events.night.drafting import Drafting
from events.night.pool_entry import pool_lines
from events.night.pools import Pools
from events.night.refusals import DESK, Actor
from events.night.registration import check_pack_seconds
from events.night.schema import expected_pool_size
from events.night.seat_codes import uses_codes
from events.night.seating import Seating
from events.night.serving import served_url
from events.outputs.text import join_names
from events.screens.event_draft import run_event_draft, wait_for_start
from events.screens.pool_entry import type_pool
from events.screens.render import shown
from events.screens.terminal import Terminal, terminate_as_interrupt, undecodable_byte
from events.screens.timer import run_timer, schedule
from sets.booster import booster_spec
from sets.errors import CmdraftError, InputError, StateError
from sets.visible import visible


def event_seat(
    event_id: EventArg,
    again: Annotated[
        bool,
        typer.Option(
            "--again", help="Draw the pods again before the draft starts (late players included; a backup first)."
        ),
    ] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Seat players at random into balanced draft pods of at most the pod size (only those checked in,
    when check-in was used); --again re-draws them until the draft starts."""
    events = core(db, Seating)
    pods = events.seat(event_id, again=again)
    no_shows = events.no_shows(event_id)
    warn_exposed(db, event_id)
    if as_json:
        # each pod as 'event show --json' gives it: its number and its players by name, in seat order
        emit_json(
            {"pods": [{"pod": n, "players": names} for n, names in enumerate(pods, start=1)], "no_shows": no_shows}
        )
        return

    for number, names in enumerate(pods, start=1):
        table = Table("Seat", "Player", title=f"Draft pod {number}")
        for seat, name in enumerate(names, start=1):
            table.add_row(str(seat), shown(name))
        out().print(table)
    if no_shows:
        out().print(shown(f"No-shows (not seated): {join_names(no_shows)}", style="yellow"), soft_wrap=True)

    if uses_codes(events.event(event_id)):
        # The command on a line of its own, never wrapped: it is copied as it stands.
        where = f" --db {shlex.quote(str(db))}" if db is not None else ""
        url = served_url(events.path, event_id)  # 'cmdraft serve' is running: the slips carry its address
        where += f" --url {shlex.quote(url)}" if url else ""
        again_over = " --force" if again else ""  # seated again: the slips printed before are wrong, replace them
        out().print("Seat codes for the slips (desk only), to print and cut:")
        out().print(
            shown(
                f"  cmdraft event print {event_id} seatings --codes{where} --format html --out slips.html{again_over}"
            ),
            soft_wrap=True,
        )


def event_draft(
    event_id: EventArg,
    player: Annotated[
        list[str] | None, typer.Option("--player", help="Pick for this player at this terminal (repeatable).")
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Start the draft (or open sealed pools); in a terminal draft, pick for the players at this terminal.

    With --player, this terminal joins the players' seats and waits for the desk to start the draft (only
    the desk starts it)."""
    events = core(db, Drafting)
    snap = events.snapshot(event_id)
    status, style = snap.event.status, snap.event.style
    if player and as_json and style == "terminal" and snap.event.mode == "draft":
        raise InputError(
            "--json goes without --player in a terminal draft (the player picks at this terminal): "
            f"'cmdraft event show {event_id} --json' gives the draft's state"
        )
    given: dict[int, str] | None = None
    if status in ("seated", "registration") and player and style == "terminal" and snap.event.mode == "draft":
        console = out()
        with terminate_as_interrupt():  # `kill PID` gives the terminal back as Ctrl-C does
            given = wait_for_start(events, event_id, player, console, Terminal(console))
        if given is None:
            return
        snap = events.snapshot(event_id)
    elif status in ("seated", "registration"):
        asking = DESK if not player else Actor.seat(events.player_id(event_id, player[0]), "terminal", player[0])
        events.start_draft(event_id, actor=asking)  # a player's own command can't start it (exit 5)
        snap = events.snapshot(event_id)
    if as_json:
        emit_json(snap.to_json())
        return
    console = out()
    if snap.event.mode == "sealed":
        console.print(
            f"Sealed pools opened: {product(snap.event.set).sealed_words} for every player. Register decks with "
            "'cmdraft event deck'."
        )
    elif style == "physical":
        console.print(
            f"The physical draft has started: run 'cmdraft event timer {event_id}' for the big screen, then record "
            f"each pool with 'cmdraft event pool {event_id} NAME FILE'."
        )
    elif style == "bots":
        recorded = all(p.pool_size is not None for p in snap.players if p.status == "active")
        console.print(
            "Every pod was drafted by bots; "
            + ("pools are recorded." if recorded else "pools are not all recorded yet.")
        )
    else:
        try:
            with terminate_as_interrupt():  # (a timed pick reads keys one at a time: the terminal's modes set back)
                run_event_draft(events, event_id, player, console, Terminal(console), given=given)
        finally:  # the desk sees when this terminal stopped holding its seats
            with contextlib.suppress(CmdraftError):
                presence.terminal_left(events, event_id, [events.player_id(event_id, name) for name in player or []])


def event_timer(
    event_id: EventArg,
    seconds: Annotated[
        int | None, typer.Option("--seconds", help="Seconds for a full pack (default: the event's timer or 60).")
    ] = None,
    db: DbOption = None,
) -> None:
    """Big screen for a physical draft: round, passing direction and a shrinking pick timer."""
    if seconds is not None:
        with option_limits({"timer": "--seconds"}):  # --seconds 0 is refused, never read as "the default"
            check_pack_seconds(seconds)
    snap = core(db).snapshot(event_id)
    event = snap.event
    if event.mode == "sealed" or event.style != "physical":
        kind = (
            "a sealed event (no packs are passed)"
            if event.mode == "sealed"
            else f"a {event.style} draft (each terminal times its own picks)"
        )
        raise StateError(f"the pick timer is for a physical draft, and event {event_id} is {kind}")
    base = seconds if seconds is not None else (event.timer or 60)
    size = max(booster_spec(event.set).sizes)
    slots = list(schedule(3, size, 2, base))
    with terminate_as_interrupt():  # the big screen reads keys one at a time: `kill PID` sets the terminal back
        run_timer(out(), slots, title=event.name)


def event_pool(
    event_id: EventArg,
    name: Annotated[str, typer.Argument(help="Player name, or #N for player number N.")],
    file: Annotated[
        Path | None, typer.Argument(help="Pool file in any deck format; leave out to type the cards.")
    ] = None,
    replace: Annotated[bool, typer.Option("--replace", help="Replace a pool already recorded.")] = False,
    edit: Annotated[
        bool, typer.Option("--edit", help="Edit the recorded pool line by line (undo, remove N, new lines).")
    ] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Record a player's pool from a file, or typed line by line (end with an empty line); --edit changes
    the recorded one line by line.

    Typed at a terminal, every good line is kept; an unreadable one is set aside with suggestions and
    asked again at the end, 'undo' takes back the last change.  A pool that isn't full size (60 drafted,
    120 sealed in CMR) is recorded with a warning."""
    events = core(db, Pools)
    if edit and file is not None:
        raise InputError("--edit changes the recorded pool line by line; to record a file over it use --replace")
    if edit and as_json:
        raise InputError(
            "--json goes without --edit (the pool is edited at this terminal): record a file, or the lines on "
            "standard input, with --replace --json"
        )
    if file is not None:
        deck_file = read_file(file)
    elif (sys.stdin.isatty() and not as_json) or edit:  # with --json the lines are read as given, no prompts
        event = events.check_pool_entry(event_id, name, replace or edit)  # refused before any typing, not after
        recorded = pool_lines(events.pool(event_id, name)) if edit else None
        replace = replace or edit
        console = out()
        deck_file = parse(
            "\n".join(type_pool(console, Terminal(console), events.index, expected_pool_size(event), recorded))
        )
    else:
        # refused before any line is read (typed with --json, no prompts; or piped: an unknown name is said as
        # such, not as a pool with no cards)
        events.check_pool_entry(event_id, name, replace)
        lines = []
        for number, line in enumerate(sys.stdin, start=1):
            if not line.strip():
                break
            byte = undecodable_byte(line)
            if byte is not None:
                raise InputError(
                    f"standard input line {number} is not UTF-8 text (byte 0x{byte:02x}); nothing was recorded"
                )
            lines.append(line)
        deck_file = parse("".join(lines))
    player_id, warnings = events.record_pool(event_id, name, deck_file, replace, str(file) if file else "")
    count = len(events.pool(event_id, player_id))
    if as_json:
        row = events.snapshot(event_id).player(player_id)
        emit_json(
            {
                # ``player`` the name, as every other command's ``player``; ``id`` and ``number`` as ``event show``
                "name": row.name,
                "player": row.name,
                "id": row.id,
                "number": row.number,
                "cards": count,
                "warnings": [visible(warning) for warning in warnings],
            }
        )
        return

    out().print(f"pool recorded: {count} cards")
    for warning in warnings:
        out().print(shown(f"warning: {warning}", style="yellow"))
