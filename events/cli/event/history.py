"""``cmdraft event log`` and ``undo``: the event's history, and taking back the desk's last change."""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.prompt import Prompt

from events.cli.common import DbOption, JsonOption, emit_json, out
from events.cli.event.shared import EventArg, core
from events.night.undo import Undo, UndoRefused
from events.screens.boards import history_table
from events.screens.render import shown
from sets.errors import InputError, StateError


def event_log(event_id: EventArg, db: DbOption = None, as_json: JsonOption = False) -> None:
    """The event's history: every change, who made it (the desk or a terminal), when, the old and new value."""
    entries = core(db).history(event_id)
    if as_json:
        emit_json([entry.to_json() for entry in entries])
        return

    out().print(history_table(entries))


def event_undo(
    event_id: EventArg,
    yes: Annotated[
        bool, typer.Option("--yes", help="Take back a round's pairing or a seating without asking (y/N).")
    ] = False,
    show_next: Annotated[
        bool, typer.Option("--list", help="Show what would be undone next (and whether it can be); undo nothing.")
    ] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Take back the desk's last change where that is safe (a result, a round with nothing played, a
    seating, a check-in, a name, a drop, a game entry), and say what was undone.  A round's pairing or a
    seating moves players who may be sitting at those tables: asked (y/N) at a terminal, --yes otherwise."""
    events = core(db, Undo)
    coming = events.next_change(event_id)
    if show_next:
        if as_json:
            emit_json(None if coming is None else coming.to_json())
        elif coming is None:
            out().print(shown(f"nothing to undo in event {event_id}"), soft_wrap=True)
        else:
            verdict = coming.refused or "can be undone"
            if coming.refused and "can't be undone" not in coming.refused:  # (a read-only file: its own words)
                verdict = f"can't be undone: {coming.refused}"
            asks = " (asks first: players may sit at those tables)" if coming.asks and not coming.refused else ""
            out().print(shown(f"next to undo: {coming.text} ({coming.when}); {verdict}{asks}"), soft_wrap=True)
        return
    expect = None
    if coming is not None and coming.asks and not coming.refused and not yes:
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            raise InputError(
                f"undoing {coming.text} moves players who may be sitting at those tables: "
                f"add --yes to take it back ('cmdraft event undo {event_id} --yes')"
            )
        answer = Prompt.ask(
            shown(f"Take back {coming.text}? Players may be sitting at those tables (y/N)"),
            console=out(),
            default="",
            show_default=False,
        )
        if answer.strip().casefold() not in ("y", "yes"):
            out().print("nothing undone")
            return
    if coming is not None:
        expect = coming.entry  # the change confirmed is the one undone: another since is refused
    try:
        done = events.undo(event_id, expect=expect)
    except UndoRefused as refused:  # the core's words, then the command this terminal runs instead
        raise StateError(refused.at_terminal) from None
    if as_json:
        emit_json(done.to_json())
        return

    out().print(shown(f"undid: {done.undid}"), soft_wrap=True)
