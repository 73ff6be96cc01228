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

import os
import sys
from collections.abc import Iterable
from typing import Any, TypeVar

import msgspec
from tinydb import TinyDB

from events import timing
from events.storage.record_parts import UndoNote
from events.storage.records import Change, Record
from events.storage.table_names import HISTORY
from events.storage.tables import Table, records_of

Told = TypeVar("Told", bound=msgspec.Struct)

DESK = "desk"
SYSTEM = "cmdraft"


class Entry(Record, frozen=True, kw_only=True):
    """One change in an event's history as ``event log`` shows it: its number (``id``), when, who, what, the old
    and new value as a person reads them, and what ``event undo`` needs (``undo``) as it was written, or the number of
    the entry it takes back (``undoes``)."""

    event: int
    at: str
    who: str
    what: str
    old: Any = None
    new: Any = None
    undo: dict[str, Any] | None = None  # as written, so the log's JSON shows exactly that; ``note`` reads it typed
    undoes: int | None = None

    @property
    def note(self) -> UndoNote:
        """What ``event undo`` needs, typed (every field its default when the change can't be undone)."""
        return UndoNote() if self.undo is None else msgspec.convert(self.undo, UndoNote)

    @property
    def what_text(self) -> str:
        """What the entry changed, in words, as every face names it: a result names its round and table, a final
        table is named so (not a plain round), an undo names the entry it takes back."""
        what, note = self.what, self.note
        if what == "result" and note.round is not None and note.table is not None:
            what = f"result, round {note.round} table {note.table}"
        elif final_table_round(self.what, self.new) is not None:
            what = "final table"
        return what + (f" (of #{self.undoes})" if self.undoes else "")

    def to_json(self) -> dict[str, Any]:
        """The entry as ``event log --json`` prints it: the fields as written, then its number, as ``entry`` (the key
        ``event undo --json``, its ``--list`` and ``history.csv`` name it by) and as ``id`` (its first key)."""
        written = {"event": self.event, "at": self.at, "who": self.who, "what": self.what}
        kept = {"undo": self.undo, "undoes": self.undoes}
        return {
            **written,
            "old": self.old,
            "new": self.new,
            **{name: value for name, value in kept.items() if value is not None},
            "entry": self.id,
            "id": self.id,
        }


class RoundPaired(msgspec.Struct, frozen=True):
    """The new value of a ``round`` entry: the round's number and its tables by player names."""

    tables: list[Any]
    round: int | None = None
    final: bool = False  # the final table (``event top``), not a round of the standings


def final_table_round(what: str, new: Any) -> int | None:
    """The round number of a history entry that seated a final table (``event top``: a "round" marked final), or
    None for any other entry."""
    if what != "round" or not isinstance(new, dict):
        return None
    try:
        paired = msgspec.convert(new, RoundPaired)
    except msgspec.ValidationError:
        return None
    return paired.round if paired.final and paired.round is not None else None


class PiperSettings(msgspec.Struct, frozen=True):
    """The new value of a ``pipers`` entry: what the desk set (the store's stock, the Pipers typed as opened per pod,
    each player's request); None or empty where it set nothing."""

    stock: int | None = None
    opened: dict[str, int] = {}
    requests: dict[str, int] = {}


def value_text(value: Any, what: str = "") -> str:
    """A history value in words, as every face shows it (the log, and what ``event undo`` would take back): names joined, a round's tables and a seating's pods numbered, the Piper
    ledger's settings named, any other mapping as ``key: value`` (never raw JSON)."""
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    if isinstance(value, bool | int | float):
        return str(value)
    if isinstance(value, list) and all(isinstance(x, str) for x in value):
        return _joined(value)  # players: "Ann / Cy, the Great"
    if isinstance(value, list) and all(isinstance(x, list) for x in value):
        label = "pod" if what in ("seat", "reseat") else "table"
        return "; ".join(f"{label} {n}: {value_text(x)}" for n, x in enumerate(value, start=1))
    if isinstance(value, dict) and what == "round" and "tables" in value:
        paired = _told(value, RoundPaired)
        if paired is not None:
            return f"round {'?' if paired.round is None else paired.round}: {value_text(paired.tables, what)}"
    if isinstance(value, dict) and what == "pipers":
        settings = _told(value, PiperSettings)
        if settings is not None:
            parts = []
            if settings.stock is not None:
                parts.append(f"store stock {settings.stock}")
            if settings.opened:
                parts.append("opened: " + _joined(f"pod {pod} {n}" for pod, n in settings.opened.items()))
            if settings.requests:
                parts.append("requests: " + _joined(f"{who} {n}" for who, n in settings.requests.items()))
            return "; ".join(parts) or "no change"
    if isinstance(value, dict):
        return "; ".join(f"{key}: {value_text(item)}" for key, item in value.items())
    if isinstance(value, list):
        return _joined(value_text(x) for x in value)
    return str(value)


def _told(value: dict[str, Any], kind: type[Told]) -> Told | None:
    """A history value read as the type its kind of entry writes (None: it isn't one, so it is shown as it lies)."""
    try:
        return msgspec.convert(value, kind)
    except msgspec.ValidationError:
        return None


def _joined(names: Iterable[str]) -> str:
    """Names in one line, as every list of names is written ("Ann, the Great / Bo")."""
    return " / ".join(names)


# What ``event undo`` needs to take back each kind of change, written whole as the change's history entry's ``undo``
# (every field, as that kind of change has always written it) and read back as one ``UndoNote``.


class PlayerUndo(msgspec.Struct, frozen=True):
    """A player added or renamed: who."""

    player: int


class CheckInUndo(msgspec.Struct, frozen=True):
    """Players checked in."""

    players: list[int]


class DropUndo(msgspec.Struct, frozen=True):
    """A player dropped: who, the rounds paired then, and the event's status before."""

    player: int
    rounds: int
    event_status: str


class RoundUndo(msgspec.Struct, frozen=True):
    """A round paired (or the final table drawn): its number and the event's status before."""

    round: int
    status: str


class ResultUndo(msgspec.Struct, frozen=True):
    """A table's result recorded: where, the result before (None: there was none), the one recorded, and whether
    the round was closed before."""

    round: int
    table: int
    order: list[list[int]] | None
    new: list[list[int]]
    closed: bool


class GameUndo(msgspec.Struct, frozen=True):
    """A game-tracker entry: its table, and how many entries the tracker held after it."""

    round: int
    table: int
    entries: int


class SeatingUndo(msgspec.Struct, frozen=True):
    """The pods seated: the pods before (None: there were none), the no-shows marked, the seatings drawn before."""

    pods: list[list[int]] | None
    no_shows: list[int]
    seatings: int


Undo = PlayerUndo | CheckInUndo | DropUndo | RoundUndo | ResultUndo | GameUndo | SeatingUndo


def browser(name: str) -> str:
    """Who acts from a browser (a player's own phone or laptop), in the history: ``browser NAME``."""
    return f"browser {name}"


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
    undo: Undo | None = None,
    undoes: int | None = None,
) -> int:
    """Append one change to the event's history inside the caller's transaction; returns the entry's number.

    ``old`` and ``new`` are plain JSON values as a person reads them (names, not numbers).  ``undo``
    holds what ``event undo`` needs to take the change back; ``undoes`` marks an entry that is itself
    an undo of entry ``undoes``.
    """
    marks = {"undo": undo, "undoes": undoes}  # written only when given
    return records_of(db, Change).insert_fields(
        event=event_id,
        at=timing.stamp(),
        who=who,
        what=what,
        old=old,
        new=new,
        **{name: value for name, value in marks.items() if value is not None},
    )


def history(db: TinyDB, event_id: int) -> list[Entry]:
    """The event's history, oldest first, each entry with its number (``id``)."""
    return Table(db, Entry, HISTORY).find(event=event_id)


# Entries that change nothing of the night an undo could take back (the desk's link for `cmdraft serve`, made at
# its first start): kept in the history, passed over by undo, so serving the phones never blocks an undo.
PASSED_OVER = frozenset({"desk link made", "desk link renewed"})


def last_undoable(db: TinyDB, event_id: int, who: str = DESK) -> Change | None:
    """The newest change made by ``who`` that no undo has taken back yet (an undo itself is never undone; the
    desk's link, ``PASSED_OVER``, is no change to undo)."""
    entries = records_of(db, Change).find(event=event_id)
    taken_back = {entry.undoes for entry in entries if entry.undoes is not None}
    for entry in reversed(entries):
        if entry.who == who and entry.undoes is None and entry.id not in taken_back and entry.what not in PASSED_OVER:
            return entry
    return None
