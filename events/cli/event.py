"""``cmdraft event …``: running a store event at the terminal."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from events import timing
from events.cli.common import (
    MAXIMA,
    DbOption,
    ForceOption,
    JsonOption,
    emit_json,
    open_store,
    out,
    parse_colors,
    positive,
    write_stdout,
)
from sets.errors import InputError, StateError, StorageError
from sets.numbers import parse_int

event_app = typer.Typer(
    help="Run a store event: players, seating, draft, Pipers, decks, rounds, standings.", no_args_is_help=True
)
player_app = typer.Typer(
    help="Register, rename, remove (before seating), drop and late-add players.", no_args_is_help=True
)
event_app.add_typer(player_app, name="player")

EventArg = Annotated[int, typer.Argument(metavar="ID", help="Event number (see 'cmdraft event list').")]


def core(db: Path | None, phase: type | None = None):
    """The use cases of one phase of the night (``phase``, a class from its module in ``events``; the
    shared reading of ``events.night.base`` when none), after finishing whatever an interrupted command left
    behind.  The phase modules are imported by each command, so that ``cmdraft --help`` loads none."""
    from events.night.base import EventBase
    from events.night.drafting import Drafting

    store = open_store(db)
    with store.read():
        pass  # a database that can't be read is refused here, in one line (exit 4)
    try:
        Drafting(store).recover()
    except StorageError as error:
        # A full disk or a read-only file: reading commands still work on what is saved, and the
        # half-done step is finished by the next command that can write.
        sys.stderr.write(f"cmdraft: note: finishing an interrupted step is postponed ({error})\n")
    return (phase or EventBase)(store)


def _pairs(values: list[str] | None, what: str, signed: bool = False) -> dict[str, int]:
    """``NAME=NUMBER`` options; the number through the one strict parser (a sign only when ``signed``)."""
    out_: dict[str, int] = {}
    for value in values or []:
        key, sep, number = value.rpartition("=")
        if not sep or not key.strip():
            raise InputError(f"bad {what} {value!r}: write NAME=NUMBER")
        out_[key.strip()] = parse_int(number, f"number in {what} {value!r}", signed=signed)
    return out_


@event_app.command("new")
def event_new(
    name: Annotated[str, typer.Argument(help="Event name.")],
    date: Annotated[str | None, typer.Option(help="YYYY-MM-DD (default today).")] = None,
    set_code: Annotated[str, typer.Option("--set", help="Set code.")] = "CMR",
    sealed: Annotated[bool, typer.Option("--sealed", help="Sealed instead of draft (six boosters each).")] = False,
    style: Annotated[str, typer.Option("--style", help="physical, terminal or bots.")] = "physical",
    pod_size: Annotated[int, typer.Option("--pod-size", help="Most seats in a draft pod.")] = 8,
    game_size: Annotated[int, typer.Option("--game-size", help="Players per game pod (3-5).")] = 4,
    one_v_one: Annotated[bool, typer.Option("--1v1", help="Play 1v1 games instead of multiplayer pods.")] = False,
    timer: Annotated[int, typer.Option("--timer", help="Seconds for the first pick of a pack (0: none).")] = 0,
    points: Annotated[str, typer.Option("--points", help="Placement points, best place first.")] = "3,2,1,0",
    piper_stock: Annotated[int, typer.Option("--piper-stock", help="Prismatic Pipers the store can lend.")] = 0,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed for seating and pairings (packs come from a secret).")
    ] = None,
    no_codes: Annotated[
        bool, typer.Option("--no-codes", help="Terminal drafts without seat codes: any terminal may pick for anyone.")
    ] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Create an event."""
    from events.night.registration import Registration, parse_points

    try:
        parse_points(points)
    except InputError as error:
        raise InputError(f"--points: {error}") from None
    if not 0 <= timer <= MAXIMA["--timer"]:
        raise InputError(f"--timer must be from 0 to {MAXIMA['--timer']:,} seconds, not {timer:,}")
    if not 0 <= piper_stock <= MAXIMA["--piper-stock"]:
        raise InputError(f"--piper-stock must be from 0 to {MAXIMA['--piper-stock']:,}, not {piper_stock:,}")
    event_id = core(db, Registration).create(
        name,
        date=date,
        set_code=set_code,
        mode="sealed" if sealed else "draft",
        style=style,
        pod_size=pod_size,
        game_size=game_size,
        one_v_one=one_v_one,
        timer=timer,
        points=points,
        piper_stock=piper_stock,
        seed=seed,
        codes=not no_codes,
    )
    if as_json:
        emit_json({"id": event_id})
    else:
        out().print(f"Event {event_id} created. Register players with: cmdraft event player add {event_id} NAME")


@event_app.command("list")
def event_list(db: DbOption = None, as_json: JsonOption = False) -> None:
    """List events."""
    rows = core(db).list_events()
    if as_json:
        emit_json(
            [{k: row[k] for k in ("id", "name", "date", "set", "mode", "style", "status", "players")} for row in rows]
        )
        return
    from rich.table import Table

    from events.screens.render import shown

    if not rows:
        out().print("No events yet: create one with 'cmdraft event new NAME'.")
        return
    table = Table("Id", "Name", "Date", "Kind", "Status", "Players", title="Events")
    for row in rows:
        table.add_row(
            str(row["id"]),
            shown(row["name"]),
            row["date"],
            f"{row['mode']} ({row['style']})",
            row["status"],
            str(row["players"]),
        )
    out().print(table)


@event_app.command("show")
def event_show(event_id: EventArg, db: DbOption = None, as_json: JsonOption = False) -> None:
    """The status board: players, pods, pools, decks and rounds."""
    from events.night.pipers import Pipers
    from events.night.seat_codes import note_failures

    events = core(db, Pipers)
    snap = note_failures(events, event_id, events.snapshot(event_id))
    if as_json:
        emit_json({**_snapshot_json(snap), "pipers": events.piper_ledger(event_id)})
        return
    from events.screens.render import event_board

    out().print(event_board(snap, events.piper_ledger(event_id)))


def _snapshot_json(snap: dict[str, Any]) -> dict[str, Any]:
    event = snap["event"]
    names = {p["id"]: p["name"] for p in snap["players"]}
    return {
        "event": {
            k: event[k]
            for k in (
                "id",
                "name",
                "date",
                "set",
                "mode",
                "style",
                "status",
                "pod_size",
                "game_size",
                "one_v_one",
                "timer",
                "points",
                "piper_stock",
            )
        },
        "players": [
            {
                "id": p["id"],
                "number": p["number"],
                "name": p["name"],
                "status": p["status"],
                "late": p["late"],
                "checked_in": bool(p.get("checked_in")),
                "dropped_after": p.get("dropped_after"),
                "bot": bool(p.get("bot")),
                "pod": p["pod"],
                "seat": None if p["seat"] is None else p["seat"] + 1,
                "pipers_requested": p["requested"],
                "pool_size": p["pool_size"],
                "deck": p["deck"],
                **({"wrong_codes": p["wrong_codes"]} if "wrong_codes" in p else {}),
            }
            for p in snap["players"]
        ],
        "pods": [
            {
                "pod": pod["number"],
                "players": [names[i] for i in pod["players"]],
                "pipers_opened": pod.get("opened"),
                "draft": snap["drafts"].get(pod["number"]),
            }
            for pod in snap["pods"]
        ],
        "rounds": [
            {
                "round": r["number"],
                "status": r["status"],
                "tables": [[names[i] for i in t] for t in r["tables"]],
                "results": {
                    str(res["table"]): [[names[i] for i in group] for group in res["order"]]
                    for res in snap["results"]
                    if res["round"] == r["number"]
                },
            }
            for r in snap["rounds"]
        ],
    }


@player_app.command("add")
def player_add(
    event_id: EventArg,
    names: Annotated[list[str], typer.Argument(metavar="NAME...", help="One or more player names (any characters).")],
    bot: Annotated[bool, typer.Option("--bot", help="A bot fills this seat in a terminal draft.")] = False,
    sealed: Annotated[
        bool, typer.Option("--sealed", help="After the draft has started: join with a sealed pool (six boosters).")
    ] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Register players (after seating: a seat in the smallest pod with room, or a re-seat offer when
    every pod is full; after the draft has started: with a sealed pool)."""
    from events.night.registration import Registration

    events = core(db, Registration)
    ids = [events.add_player(event_id, name, bot=bot, sealed=sealed) for name in names]
    numbers = {p["id"]: p["number"] for p in events.snapshot(event_id)["players"]}
    offer = events.late_offer(event_id)
    if as_json:
        emit_json({"players": ids, "numbers": [numbers[pid] for pid in ids], "offer": offer})
        return
    from events.screens.render import shown

    for name, pid in zip(names, ids, strict=True):
        out().print(shown(f"registered {name!r} as player #{numbers[pid]}"))
    if offer:
        out().print(shown(offer, style="yellow"))


@player_app.command("checkin")
def player_checkin(
    event_id: EventArg,
    names: Annotated[list[str] | None, typer.Argument(metavar="NAME...", help="Players present (name or #N).")] = None,
    everyone: Annotated[bool, typer.Option("--all", help="Check in every registered player.")] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Mark players present; once check-in is used, 'event seat' seats only the players checked in."""
    from events.night.registration import Registration

    if bool(names) == everyone:
        raise InputError("name the players who are here, or use --all (not both)")
    events = core(db, Registration)
    checked = events.check_in(event_id, None if everyone else names)
    offer = events.late_offer(event_id)
    if as_json:
        emit_json({"checked_in": checked, "offer": offer})
        return
    from events.screens.render import join_names, shown

    out().print(shown(f"checked in: {join_names(checked)}"))
    if offer:
        out().print(shown(offer, style="yellow"))


@player_app.command("drop")
def player_drop(
    event_id: EventArg,
    name: Annotated[str, typer.Argument(help="Player name, or #N for player number N.")],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Drop a player: no more pairings, no deck registration."""
    from events.night.registration import Registration

    player = core(db, Registration).drop_player(event_id, name)
    if as_json:
        emit_json({"dropped": player["name"]})
    else:
        from events.screens.render import shown

        out().print(shown(f"{player['name']} dropped"))


@player_app.command("rename")
def player_rename(
    event_id: EventArg,
    name: Annotated[str, typer.Argument(help="Player name, or #N for player number N.")],
    new_name: Annotated[str, typer.Argument(metavar="NEW_NAME", help="The corrected name.")],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Correct a player's name (everywhere it is shown)."""
    from events.night.registration import Registration

    old, new = core(db, Registration).rename_player(event_id, name, new_name)
    if as_json:
        emit_json({"old": old, "new": new})
    else:
        from events.screens.render import shown

        out().print(shown(f"{old} is now {new}"))


@player_app.command("remove")
def player_remove(
    event_id: EventArg,
    name: Annotated[str, typer.Argument(help="Player name, or #N for player number N.")],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Take back a registration before seating (a typo, a double entry): the player is gone, not dropped."""
    from events.night.registration import Registration

    removed = core(db, Registration).remove_player(event_id, name)
    if as_json:
        emit_json({"removed": removed})
    else:
        from events.screens.render import shown

        out().print(shown(f"{removed} removed from the event"))


@player_app.command("code")
def player_code(
    event_id: EventArg,
    name: Annotated[str, typer.Argument(help="Player name, or #N for player number N.")],
    reset: Annotated[
        bool, typer.Option("--reset", help="Give the player a new code (the old one stops working).")
    ] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """A player's seat code, for the desk: with --reset a new one, and the seat is unbound from its terminal."""
    from events.night.drafting import Drafting
    from events.night.seat_codes import reset_code, uses_codes

    events = core(db, Drafting)
    if reset:
        player, code = reset_code(events, event_id, name)
    else:
        from sets.errors import StateError

        with events.store.read() as handle:
            event = events._event(handle, event_id)
            found = events._player(handle, event_id, name)
        if not uses_codes(event):
            raise StateError(
                f"event {event_id} has no seat codes (it was made with --no-codes, or is not a terminal draft)"
            )
        if not found.get("code"):
            raise StateError(f"{found['name']} has no seat code yet: codes are given at seating")
        player, code = found["name"], found["code"]
    if as_json:
        emit_json({"player": player, "code": code, "reset": reset})
    else:
        from events.screens.render import shown

        out().print(shown(f"{player}'s seat code: {code}" + (" (new; the old one no longer works)" if reset else "")))


@event_app.command("seat")
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
    from events.night.seating import Seating

    events = core(db, Seating)
    pods = events.seat(event_id, again=again)
    no_shows = events.no_shows(event_id)
    if as_json:
        emit_json({"pods": pods, "no_shows": no_shows})
        return
    from rich.table import Table

    from events.screens.render import join_names, shown

    for number, names in enumerate(pods, start=1):
        table = Table("Seat", "Player", title=f"Draft pod {number}")
        for seat, name in enumerate(names, start=1):
            table.add_row(str(seat), shown(name))
        out().print(table)
    if no_shows:
        out().print(shown(f"No-shows (not seated): {join_names(no_shows)}", style="yellow"), soft_wrap=True)
    from events.night.seat_codes import uses_codes

    if uses_codes(events.snapshot(event_id)["event"]):
        out().print(
            f"Seat codes for the slips (desk only): cmdraft event print {event_id} seatings --codes --format html --out slips.html"
        )


@event_app.command("draft")
def event_draft(
    event_id: EventArg,
    player: Annotated[
        list[str] | None, typer.Option("--player", help="Pick for this player at this terminal (repeatable).")
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Start the draft (or open sealed pools); in a terminal draft, pick for the players at this terminal."""
    from events.night.drafting import Drafting

    events = core(db, Drafting)
    snap = events.snapshot(event_id)
    status, style = snap["event"]["status"], snap["event"]["style"]
    if status in ("seated", "registration"):
        events.start_draft(event_id)
        snap = events.snapshot(event_id)
    if as_json:
        emit_json(_snapshot_json(snap))
        return
    console = out()
    if snap["event"]["mode"] == "sealed":
        console.print("Sealed pools opened: six boosters for every player. Register decks with 'cmdraft event deck'.")
    elif style == "physical":
        console.print(
            f"The physical draft has started: run 'cmdraft event timer {event_id}' for the big screen, then record "
            f"each pool with 'cmdraft event pool {event_id} NAME FILE'."
        )
    elif style == "bots":
        recorded = all(p["pool_size"] is not None for p in snap["players"] if p["status"] == "active")
        console.print(
            "Every pod was drafted by bots; "
            + ("pools are recorded." if recorded else "pools are not all recorded yet.")
        )
    else:
        from events.screens.event_draft import run_event_draft
        from events.screens.terminal import Terminal

        run_event_draft(events, event_id, player, console, Terminal(console))


@event_app.command("timer")
def event_timer(
    event_id: EventArg,
    seconds: Annotated[
        int | None, typer.Option("--seconds", help="Seconds for a full pack (default: the event's timer or 60).")
    ] = None,
    db: DbOption = None,
) -> None:
    """Big screen for a physical draft: round, passing direction and a shrinking pick timer."""
    from events.screens.timer import run_timer, schedule
    from sets.booster import booster_spec

    if seconds is not None:
        positive(seconds, "--seconds")  # --seconds 0 is refused, never read as "the default"
    snap = core(db).snapshot(event_id)
    event = snap["event"]
    if event["mode"] == "sealed" or event["style"] != "physical":
        kind = (
            "a sealed event (no packs are passed)"
            if event["mode"] == "sealed"
            else f"a {event['style']} draft (each terminal times its own picks)"
        )
        raise StateError(f"the pick timer is for a physical draft, and event {event_id} is {kind}")
    base = seconds if seconds is not None else (event["timer"] or 60)
    size = max(booster_spec(event["set"]).sizes)
    slots = list(schedule(3, size, 2, base))
    run_timer(out(), slots, title=event["name"])


@event_app.command("clock")
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
    from events.night.round_clock import start_clock
    from events.outputs.printables import first_players

    events = core(db)
    number, clock = start_clock(events, event_id, minutes, restart=restart)
    now = timing.now()
    if as_json:
        emit_json(
            {
                "round": number,
                "length": clock.length,
                "remaining": round(clock.remaining(now), 1),
                "paused": clock.paused,
                "started": clock.started,
            }
        )
        return
    from events.screens.clock import run_clock

    snap = events.snapshot(event_id)
    names = {p["id"]: p["name"] for p in snap["players"]}
    rnd = next(r for r in snap["rounds"] if r["number"] == number)
    tables = [[names[pid] for pid in table] for table in rnd["tables"]]
    first = [names[pid] for pid in first_players(snap["event"], rnd)]
    run_clock(out(), events, event_id, number, f"{snap['event']['name']} · round clock", tables, first)


@event_app.command("pool")
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
    from draft.formats import parse, read_file
    from events.night.pools import Pools

    events = core(db, Pools)
    if edit and file is not None:
        raise InputError("--edit changes the recorded pool line by line; to record a file over it use --replace")
    if file is not None:
        deck_file = read_file(file)
    elif sys.stdin.isatty() or edit:
        from events.night.pool_entry import pool_lines
        from events.night.schema import expected_pool_size
        from events.screens.pool_entry import type_pool
        from events.screens.terminal import Terminal

        event = events.check_pool_entry(event_id, name, replace or edit)  # refused before any typing, not after
        recorded = pool_lines(events.pool(event_id, name)) if edit else None
        replace = replace or edit
        console = out()
        deck_file = parse(
            "\n".join(type_pool(console, Terminal(console), events.index, expected_pool_size(event), recorded))
        )
    else:
        from events.screens.terminal import undecodable_byte

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
    player_id, warnings = events.record_pool(event_id, name, deck_file, replace)
    count = len(events.pool(event_id, player_id))
    if as_json:
        emit_json({"player": player_id, "cards": count, "warnings": warnings})
        return
    from events.screens.render import shown

    out().print(f"pool recorded: {count} cards")
    for warning in warnings:
        out().print(shown(f"warning: {warning}", style="yellow"))


@event_app.command("pipers")
def event_pipers(
    event_id: EventArg,
    stock: Annotated[int | None, typer.Option("--stock", help="Pipers the store can lend.")] = None,
    opened: Annotated[
        list[str] | None,
        typer.Option("--opened", help="POD=N Pipers opened in a pod, checked against the pools (repeatable)."),
    ] = None,
    request: Annotated[
        list[str] | None,
        typer.Option("--request", help="NAME=N Pipers a player plans to add, 0-2: a forecast (repeatable)."),
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """The Piper ledger: opened per pod (counted in the pools), Pipers the registered decks add, unused ones,
    the store's stock, any shortfall with who could lend; requests before deck building as a forecast."""
    from events.night.pipers import Pipers

    events = core(db, Pipers)
    opened_by_pod = {}
    for key, count in _pairs(opened, "--opened").items():
        opened_by_pod[parse_int(key, "pod number in --opened (write POD=N)")] = count
    if stock is not None or opened_by_pod or request:
        events.set_pipers(event_id, stock=stock, opened=opened_by_pod, requests=_pairs(request, "--request"))
    ledger = events.piper_ledger(event_id)
    if as_json:
        emit_json(ledger)
        return
    from events.screens.render import piper_ledger

    out().print(piper_ledger(ledger))


@event_app.command("deck")
def event_deck(
    event_id: EventArg,
    name: Annotated[str | None, typer.Argument(help="Player name (or #N); leave out for the status board.")] = None,
    file: Annotated[Path | None, typer.Argument(help="Deck file in any supported format.")] = None,
    auto: Annotated[bool, typer.Option("--auto", help="Let the bot build the deck from the player's pool.")] = False,
    build: Annotated[
        bool, typer.Option("--build", help="Build the deck at this terminal from the player's pool.")
    ] = False,
    piper: Annotated[list[str] | None, typer.Option("--piper", help="Chosen Piper color (repeat for two).")] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Register a player's deck, checked against their recorded pool; with no name, the registration board."""
    from draft.formats import read_file
    from events.night.decks import Decks

    events = core(db, Decks)
    if name is None:
        snap = events.snapshot(event_id)
        if as_json:
            emit_json(
                [
                    {"player": p["name"], "status": p["status"], "deck": p["deck"]}
                    for p in snap["players"]
                    if not p.get("bot")
                ]
            )
            return
        from events.screens.render import deck_board

        out().print(deck_board(snap))
        return
    if build:
        from events.screens.event_draft import PoolBuilder
        from events.screens.terminal import Quit, Terminal

        console = out()
        builder = PoolBuilder(events, event_id, name, console, Terminal(console))
        try:
            builder.build()
        except Quit:
            pass
        if not builder.registered:
            console.print("No deck registered (use 'save' or 'done' to register one).")
        return
    report = events.register_deck(
        event_id, name, None if file is None else read_file(file), auto=auto, piper_colors=parse_colors(piper)
    )
    if as_json:
        emit_json(report)
        raise typer.Exit(0 if report["valid"] else 1)
    from events.screens.render import shown

    verdict = "legal" if report["valid"] else "NOT legal: " + "; ".join(p["message"] for p in report["problems"])
    out().print(shown(f"{report['player']}: deck registered, {verdict}"))
    if not report["valid"]:
        raise typer.Exit(1)  # as 'deck check': an illegal deck is exit 1 (it is registered, and shown on the board)


@event_app.command("round")
def event_round(
    event_id: EventArg,
    force: Annotated[bool, typer.Option("--force", help="Pair even if some decks are missing.")] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Start the next round: game pods at random in round one, then by points avoiding repeat opponents."""
    from events.night.rounds import Rounds

    result = core(db, Rounds).new_round(event_id, force)
    if as_json:
        emit_json(result)
        return
    from rich.table import Table

    from events.screens.render import join_names, shown

    table = Table("Table", "Players (seat order)", "Goes first", title=f"Round {result['round']}")
    for number, (names, first) in enumerate(zip(result["tables"], result["first"], strict=True), start=1):
        table.add_row(str(number), shown(join_names(names)), shown(first))
    out().print(table)


@event_app.command("result")
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
    from events.night.rounds import Rounds
    from events.night.schema import number_text

    result = core(db, Rounds).record_result(event_id, round_number, table, order, replace)
    if as_json:
        emit_json({**result, "points": {name: round(float(points), 4) for name, points in result["points"].items()}})
        return
    from events.screens.render import join_names, shown

    out().print(shown(join_names(f"{name} {number_text(points)}" for name, points in result["points"].items())))
    if result["next_round"] is not None:
        changed = result["would_change"]
        verdict = (
            f"would have changed tables {join_names(map(str, changed))} of round {result['next_round']}"
            if changed
            else f"would not have changed the pairing of round {result['next_round']}"
        )
        out().print(
            shown(
                f"corrected after round {result['next_round']} was paired: the standings follow; this result "
                f"{verdict} (its pairing stays as it is)",
                style="yellow",
            ),
            soft_wrap=True,
        )


@event_app.command("standings")
def event_standings(event_id: EventArg, db: DbOption = None, as_json: JsonOption = False) -> None:
    """Standings: points, then opponents' average points, then average place; exact ties share a rank."""
    from events.night.rounds import Rounds

    events = core(db, Rounds)
    rows = events.standings(event_id)
    if as_json:
        emit_json([row.to_json() for row in rows])
        return
    from events.screens.render import standings_table

    out().print(standings_table(rows, events.snapshot(event_id)["event"]["points"]))


@event_app.command("print")
def event_print(
    event_id: EventArg,
    what: Annotated[
        str, typer.Argument(metavar="WHAT", help="seatings, pairings, slips, standings, results or decklists.")
    ],
    fmt: Annotated[str, typer.Option("--format", help="text (80 columns), html (one page to print) or csv.")] = "text",
    out_file: Annotated[str | None, typer.Option("--out", help="Write to this file instead of the screen.")] = None,
    codes: Annotated[
        bool, typer.Option("--codes", help="seatings: add every player's seat code, a slip each (for the desk only).")
    ] = False,
    force: ForceOption = False,
    db: DbOption = None,
) -> None:
    """Printable sheets: draft seatings, round pairings, result slips, standings, results, decklists."""
    from events.outputs.guard import check_file, output_value
    from events.outputs.printables import sheet
    from events.outputs.sheet_writers import render

    if codes and what.lower() != "seatings":
        raise InputError("--codes belongs to 'seatings' (the desk's seating slips); leave it out for other sheets")
    target = None if out_file is None else output_value(out_file, "--out")
    events = core(db)
    if target is not None:
        check_file(target, force)  # refused before anything is worked out
    text = render(sheet(events, event_id, what.lower(), codes=codes), fmt.lower())
    if target is None:
        write_stdout(text)
        return
    from events.outputs.exports import write_file
    from events.screens.render import shown

    write_file(target, text, force)
    out().print(shown(f"wrote {what} to {target}"))


@event_app.command("game")
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
            raise InputError(f"bad --damage {value!r}: write VICTIM=SOURCE:COMMANDER:N, e.g. Ann=Bo:Piper#2:7")
        damages.append(
            (victim.strip(), source.strip(), commander.strip(), parse_int(amount, f"damage in --damage {value!r}"))
        )
    casts = []
    for value in cast or []:
        name, sep, commander = value.partition("=")
        if not sep or not name.strip() or not commander.strip():
            raise InputError(f"bad --cast {value!r}: write NAME=COMMANDER, e.g. Bo=Piper#1")
        casts.append((name.strip(), commander.strip()))
    from events.night.games import Games

    board = core(db, Games).game(
        event_id, round_number, table, life=_pairs(life, "--life", signed=True), damage=damages, casts=casts, undo=undo
    )
    if as_json:
        emit_json(board)
        return
    from events.screens.render import game_board

    out().print(game_board(board))


@event_app.command("finish")
def event_finish(event_id: EventArg, db: DbOption = None) -> None:
    """Close the event: no more results."""
    from events.night.rounds import Rounds

    core(db, Rounds).finish(event_id)
    out().print(f"event {event_id} finished")


@event_app.command("undo")
def event_undo(event_id: EventArg, db: DbOption = None, as_json: JsonOption = False) -> None:
    """Take back the desk's last change where that is safe (a result, a round with nothing played, a
    seating, a check-in, a name, a drop, a game entry), and say what was undone."""
    from events.night.undo import Undo

    done = core(db, Undo).undo(event_id)
    if as_json:
        emit_json(done)
        return
    from events.screens.render import shown

    out().print(shown(f"undid: {done['undid']}"), soft_wrap=True)


@event_app.command("log")
def event_log(event_id: EventArg, db: DbOption = None, as_json: JsonOption = False) -> None:
    """The event's history: every change, who made it (the desk or a terminal), when, the old and new value."""
    entries = core(db).history(event_id)
    if as_json:
        emit_json(entries)
        return
    from events.screens.render import history_table

    out().print(history_table(entries))


@event_app.command("export")
def event_export(
    event_id: EventArg,
    out_dir: Annotated[str, typer.Option("--out", help="Folder to write into (new or empty, unless --force).")],
    force: ForceOption = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Standings, results and pairings CSV, every pool and deck in each format, draft logs and a database copy."""
    from events.outputs.exports import export_event
    from events.outputs.guard import output_value

    folder = output_value(out_dir, "--out")
    notes: list[str] = []
    written = export_event(core(db), event_id, folder, notes, force=force)
    if as_json:
        emit_json({"written": [str(p) for p in written], "notes": notes})
    else:
        from rich.text import Text

        out().print(Text(f"wrote {len(written)} files to {folder}"))
        for note in notes:
            out().print(Text(note))


@event_app.command("restore")
def event_restore(
    file: Annotated[Path, typer.Argument(help="The database.json of an export, or a database backup (NAME.bak.N).")],
    which: Annotated[
        int | None, typer.Option("--event", help="The event to take from a file that holds several.")
    ] = None,
    whole: Annotated[
        bool, typer.Option("--all", help="Replace the whole database with the file (every event).")
    ] = False,
    force: Annotated[
        bool, typer.Option("--force", help="Restore over a live draft: stop it first and discard its later picks.")
    ] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Add the file's event to the database, or replace the same event there; other events are left alone.
    With --all the whole database is replaced by the file.  An event whose draft is live is refused
    unless --force, which stops the draft first and says how many picks the restore discards."""
    from events.storage.transfer import read_database_file, restore_all, restore_event

    data = read_database_file(file)  # a missing or unreadable file is bad input (exit 2), before anything changes
    if whole:
        if which is not None:
            raise InputError("--all restores every event of the file; leave out --event, or leave out --all")
        store = open_store(db)
        kept, stopped, discarded = restore_all(store, file, data, force)
        kept = kept or store.path.with_name(f"{store.path.name}.bak.1")
        report = {"restored": str(file), "all": True, "backup": str(kept) if kept.exists() else None}
        message = f"restored {file} into {store.path}"
    else:
        events = core(db)
        result = restore_event(events, data, which, force)
        stopped, discarded = result["stopped"], result["discarded_picks"]
        report = {
            "restored": str(file),
            "all": False,
            "event": result["event"],
            "replaced": result["replaced"],
            "backup": None if result["backup"] is None else str(result["backup"]),
        }
        message = (
            f"{'replaced' if result['replaced'] else 'added'} event {result['event']} ({result['name']}) from {file}; "
            "other events unchanged"
        )
    report.update(stopped_drafts=stopped, discarded_picks=discarded)
    if stopped:
        message += (
            f"; stopped {stopped} live draft{'s' if stopped != 1 else ''} first: the restore discards "
            f"{discarded} pick{'s' if discarded != 1 else ''}"
        )
    if report["backup"]:
        message += f" (previous database kept as {report['backup']})"
    if as_json:
        emit_json(report)
    else:
        from events.screens.render import shown

        out().print(shown(message))
