"""``cmdraft event log`` and ``undo``: the event's history, and taking back the desk's last change."""

from __future__ import annotations

from events.cli.common import DbOption, JsonOption, emit_json, out
from events.cli.event.shared import EventArg, core
from events.night.undo import Undo
from events.screens.render import history_table, shown


def event_log(event_id: EventArg, db: DbOption = None, as_json: JsonOption = False) -> None:
    """The event's history: every change, who made it (the desk or a terminal), when, the old and new value."""
    entries = core(db).history(event_id)
    if as_json:
        emit_json(entries)
        return

    out().print(history_table(entries))


def event_undo(event_id: EventArg, db: DbOption = None, as_json: JsonOption = False) -> None:
    """Take back the desk's last change where that is safe (a result, a round with nothing played, a
    seating, a check-in, a name, a drop, a game entry), and say what was undone."""
    done = core(db, Undo).undo(event_id)
    if as_json:
        emit_json(done)
        return

    out().print(shown(f"undid: {done['undid']}"), soft_wrap=True)
