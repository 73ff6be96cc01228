"""An event's history: every change appended, with who made it, when, what, and the old and new value.

``log_change`` is called inside the store transaction that makes the change, so a change and its
history entry are written together or not at all.  Entries live in the ``history`` table, one
record per change, keyed by the event (``e``) like every other event record: an event's export
and restore carry its history with it.  The log is append-only; an undo is a new entry that names
the entry it takes back (``undoes``).

``who`` says where the change came from: ``desk`` for the organizer's commands, ``terminal NAME``
for a player's terminal (see ``actor``), ``cmdraft`` for a step the program finishes itself (a pod's
draft ended, so its pools are recorded).
"""

from __future__ import annotations

import datetime as dt
import os
import sys
from typing import Any

from tinydb import Query, TinyDB

from events.storage.records import Change
from events.storage.tables import records_of

HISTORY = "history"
DESK = "desk"
SYSTEM = "cmdraft"


def now() -> str:
    """The time of a change, UTC, to the second."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def actor(player: str | None = None) -> str:
    """Who is changing the event: the desk, or the terminal a player picks at (with its tty when there is one)."""
    if player is None:
        return DESK
    try:
        tty = os.ttyname(sys.stdin.fileno())
    except (OSError, ValueError, AttributeError):
        tty = ""
    return f"terminal {player}" + (f" ({tty})" if tty else "")


def log_change(
    db: TinyDB,
    event_id: int,
    who: str,
    what: str,
    old: Any,
    new: Any,
    *,
    undo: dict[str, Any] | None = None,
    undoes: int | None = None,
) -> int:
    """Append one change to the event's history inside the caller's transaction; returns the entry's number.

    ``old`` and ``new`` are plain JSON values as a person reads them (names, not numbers).  ``undo``
    holds what ``event undo`` needs to take the change back; ``undoes`` marks an entry that is itself
    an undo of entry ``undoes``.
    """
    doc: dict[str, Any] = {"event": event_id, "at": now(), "who": who, "what": what, "old": old, "new": new}
    if undo is not None:
        doc["undo"] = undo
    if undoes is not None:
        doc["undoes"] = undoes
    return db.table(HISTORY).insert(doc)


def history(db: TinyDB, event_id: int) -> list[dict[str, Any]]:
    """The event's history, oldest first, each entry with its number (``id``)."""
    entries = db.table(HISTORY).search(Query().event == event_id)
    return [dict(entry, id=entry.doc_id) for entry in sorted(entries, key=lambda d: d.doc_id)]


def last_undoable(db: TinyDB, event_id: int, who: str = DESK) -> Change | None:
    """The newest change made by ``who`` that no undo has taken back yet (an undo itself is never undone)."""
    entries = records_of(db, Change).find(event=event_id)
    taken_back = {entry.undoes for entry in entries if entry.undoes is not None}
    for entry in reversed(entries):
        if entry.who == who and entry.undoes is None and entry.id not in taken_back:
            return entry
    return None
