"""``cmdraft event new``, ``list``, ``show`` and ``event player …``: the event itself and its players."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from events.cli.common import DbOption, JsonOption, SetOption, emit_json, option_limits, out
from events.cli.event.shared import EventArg, core, warn_exposed
from events.night.browser_seats import hand_seat
from events.night.drafting import Drafting
from events.night.pipers import Pipers, check_piper_stock
from events.night.registration import Registration, check_event_timer, parse_points
from events.night.seat_codes import reset_code, seat_code, uses_codes
from events.night.serving import served_url
from events.outputs.printables import slip_file
from events.outputs.text import join_names
from events.screens.boards import event_board
from events.screens.render import shown
from sets.errors import InputError
from sets.userdata import db_option
from sets.visible import quoted, visible


def event_new(
    name: Annotated[str, typer.Argument(help="Event name.")],
    date: Annotated[str | None, typer.Option(help="YYYY-MM-DD (default today).")] = None,
    set_code: SetOption = "CMR",
    sealed: Annotated[
        bool,
        typer.Option("--sealed", help="Sealed instead of draft (each player opens the product's sealed boosters)."),
    ] = False,
    style: Annotated[str, typer.Option("--style", help="physical, terminal or bots.")] = "physical",
    pod_size: Annotated[int, typer.Option("--pod-size", help="Most seats in a draft pod.")] = 8,
    game_size: Annotated[
        int | None, typer.Option("--game-size", help="Players per game pod (3-5; default 4; none for --1v1).")
    ] = None,
    one_v_one: Annotated[bool, typer.Option("--1v1", help="Play 1v1 games instead of multiplayer pods.")] = False,
    timer: Annotated[int, typer.Option("--timer", help="Seconds for the first pick of a pack (0: none).")] = 0,
    points: Annotated[str, typer.Option("--points", help="Placement points, best place first.")] = "3,2,1,0",
    piper_stock: Annotated[
        int,
        typer.Option(
            "--piper-stock",
            "--stock",
            help="How many of the product's added card the store can lend (Prismatic Pipers; Faceless Ones for CLB).",
        ),
    ] = 0,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed for seating and pairings (packs come from a secret).")
    ] = None,
    no_codes: Annotated[
        bool, typer.Option("--no-codes", help="Terminal drafts without seat codes: any terminal may pick for anyone.")
    ] = False,
    assist: Annotated[
        bool,
        typer.Option(
            "--assist", help="Let drafters use the hint, signals and 'Can lead' (a casual night; off by default)."
        ),
    ] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Create an event."""
    try:
        parse_points(points)
    except InputError as error:
        raise InputError(f"--points: {error}") from None
    with option_limits({"timer": "--timer", "piper_stock": "--piper-stock/--stock"}):  # either name typed
        check_event_timer(timer)  # the core checks again; here before the database is opened
        check_piper_stock(piper_stock)
        event_id = core(db, Registration, create=True).create(
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
            assist=assist,
        )
    warn_exposed(db, event_id)
    if as_json:
        emit_json({"id": event_id})
    else:
        out().print(f"Event {event_id} created. Register players with: cmdraft event player add {event_id} NAME")


def event_list(db: DbOption = None, as_json: JsonOption = False) -> None:
    """List events."""
    rows = core(db, create=db is None).list_events()  # the default database not there yet: no events
    if as_json:
        emit_json(
            [
                {k: getattr(row, k) for k in ("id", "name", "date", "set", "mode", "style", "status", "players")}
                for row in rows
            ]
        )
        return

    if not rows:
        out().print("No events yet: create one with 'cmdraft event new NAME'.")
        return
    table = Table("Id", "Name", "Date", "Kind", "Status", "Players", title="Events")
    for row in rows:
        table.add_row(
            str(row.id),
            shown(row.name),
            row.date,
            f"{row.mode} ({row.style})",
            row.status,
            str(row.players),
        )
    out().print(table)


def event_show(event_id: EventArg, db: DbOption = None, as_json: JsonOption = False) -> None:
    """The status board: players, pods, pools, decks and rounds."""
    events = core(db, Pipers)
    snap = events.snapshot(event_id)
    if as_json:
        emit_json({**snap.to_json(), "pipers": events.piper_ledger(event_id).to_json()})
        return

    out().print(event_board(snap, events.piper_ledger(event_id)))


def player_add(
    event_id: EventArg,
    names: Annotated[list[str], typer.Argument(metavar="NAME...", help="One or more player names (any characters).")],
    bot: Annotated[bool, typer.Option("--bot", help="A bot fills this seat in a terminal draft.")] = False,
    sealed: Annotated[
        bool,
        typer.Option(
            "--sealed", help="After the draft has started: join with a sealed pool (the product's sealed boosters)."
        ),
    ] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Register players (after seating: a seat in the smallest pod with room, or a re-seat offer when
    every pod is full; after the draft has started: with a sealed pool)."""
    events = core(db, Registration)
    ids = events.add_players(event_id, names, bot=bot, sealed=sealed)
    snap = events.snapshot(event_id)
    rows = {p.id: p for p in snap.players}
    offer = events.late_offer(event_id)
    # A late player seated in a pod (or joining with a sealed pool): the desk is told that their seat code needs
    # a slip; the core gave them one.
    slips = uses_codes(snap.event) and snap.event.status != "registration"
    coded = {pid: slips and not rows[pid].bot and bool(events.player(event_id, pid).code) for pid in ids}
    if as_json:
        emit_json(
            {
                "players": ids,  # ids, as event show's players have them (the lists below go with it, in order)
                "numbers": [rows[pid].number for pid in ids],
                "names": [rows[pid].name for pid in ids],  # as stored: a tab or a run of spaces typed is one space
                "seats": [
                    None if rows[pid].pod is None else {"pod": rows[pid].pod, "seat": (rows[pid].seat or 0) + 1}
                    for pid in ids
                ],
                "code_slip": [coded[pid] for pid in ids],
                "offer": None if offer is None else visible(offer),
            }
        )
        return

    for pid in ids:
        row = rows[pid]
        where = "" if row.pod is None else f": pod {row.pod}, seat {(row.seat or 0) + 1}"
        out().print(shown(f"registered {quoted(row.name)} as player #{row.number}{where}"), soft_wrap=True)
        if coded[pid]:
            slip_note(event_id, row.name, row.number, events.path)
    if offer:
        out().print(shown(offer, style="yellow"))


def slip_note(event_id: int, name: str, number: int, database: Path) -> None:
    """A player seated late in an event with seat codes (or given a sealed pool): the desk is told their code needs
    a slip, and the command that prints the slips, with the address 'cmdraft serve' serves the event at while it
    runs (as 'event seat' suggests it), so the late player's slip carries their join address and QR code."""
    where = db_option(database)
    url = served_url(database, event_id)
    where += f" --url {shlex.quote(url)}" if url else ""
    out().print(
        shown(
            f"{quoted(name)} needs a seat code slip: 'cmdraft event player code {event_id} {shlex.quote(name)}' "
            f"shows the code; their slip: 'cmdraft event print {event_id} seatings --codes --player "
            f"{shlex.quote(name)}{where} --format html --out {shlex.quote(slip_file(number, name))}'",
            style="yellow",
        ),
        soft_wrap=True,
    )


def player_checkin(
    event_id: EventArg,
    names: Annotated[list[str] | None, typer.Argument(metavar="NAME...", help="Players present (name or #N).")] = None,
    everyone: Annotated[bool, typer.Option("--all", help="Check in every registered player.")] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Mark players present; once check-in is used, 'event seat' seats only the players checked in."""
    if bool(names) == everyone:
        raise InputError("name the players who are here, or use --all (not both)")
    events = core(db, Registration)
    slips: list[str] = []  # a no-show who came after all took a seat whose code needs a slip (the core says)
    checked = events.check_in(event_id, None if everyone else names, slips)
    offer = events.late_offer(event_id)
    if as_json:
        emit_json({"checked_in": checked, "code_slip": slips, "offer": None if offer is None else visible(offer)})
        return

    out().print(shown(f"checked in: {join_names(checked)}"))
    numbers = {row.name: row.number for row in events.snapshot(event_id).players}
    for name in slips:
        slip_note(event_id, name, numbers[name], events.path)
    if offer:
        out().print(shown(offer, style="yellow"))


def player_drop(
    event_id: EventArg,
    name: Annotated[str, typer.Argument(help="Player name, or #N for player number N.")],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Drop a player: no more pairings, no deck registration."""
    done = core(db, Registration).drop_player(event_id, name)
    dropped = done.player
    if as_json:
        emit_json({"dropped": dropped.name, "recorded": [result.to_json() for result in done.recorded]})
    else:
        out().print(shown(f"{quoted(dropped.name)} dropped"))
        for result in done.recorded:
            out().print(
                f"Round {result.round} table {result.table}: the report that waited only for them is its result now"
            )


def player_rename(
    event_id: EventArg,
    name: Annotated[str, typer.Argument(help="Player name, or #N for player number N.")],
    new_name: Annotated[str, typer.Argument(metavar="NEW_NAME", help="The corrected name.")],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Correct a player's name (everywhere it is shown)."""
    old, new = core(db, Registration).rename_player(event_id, name, new_name)
    if as_json:
        emit_json({"old": old, "new": new})
    else:
        out().print(shown(f"{old} is now {new}"))


def player_remove(
    event_id: EventArg,
    name: Annotated[str, typer.Argument(help="Player name, or #N for player number N.")],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Take back a registration before seating (a typo, a double entry): the player is gone, not dropped."""
    removed = core(db, Registration).remove_player(event_id, name)
    if as_json:
        emit_json({"removed": removed})
    else:
        out().print(shown(f"{removed} removed from the event"))


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
    events = core(db, Drafting)
    player, code = reset_code(events, event_id, name) if reset else seat_code(events, event_id, name)
    if as_json:
        emit_json({"name": player, "player": player, "code": code, "reset": reset})  # named as every player is
    else:
        out().print(
            shown(f"seat code of {quoted(player)}: {code}" + (" (new; the old one no longer works)" if reset else ""))
        )


def player_bot(
    event_id: EventArg,
    name: Annotated[str, typer.Argument(help="Player name, or #N for player number N.")],
    back: Annotated[bool, typer.Option("--back", help="Give the seat back to the player.")] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """During the draft: a bot picks for a player's seat (they stepped away or left), or --back gives it back
    (the desk page's 'To a bot' and 'Back to player')."""
    events = core(db, Drafting)
    player = events.player(event_id, name).name
    changed = hand_seat(events, event_id, name, not back)
    if as_json:
        emit_json({"name": player, "player": player, "bot": not back, "changed": changed})  # named as every player is
        return
    again = f"'cmdraft event player bot {event_id} {shlex.quote(player)} --back' gives it back"
    if back:
        said = f"{quoted(player)} has the seat back" if changed else f"nothing changed: {quoted(player)} has the seat"
    else:
        said = (
            f"a bot picks for {quoted(player)} now" if changed else f"nothing changed: a bot picks for {quoted(player)}"
        )
        said += f"; {again}"
    out().print(shown(said), soft_wrap=True)
