"""What the event commands share: the phase a command works with, the event argument, ``NAME=NUMBER``
options and the JSON of the status board."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, TypeVar, overload

import typer

from events.night.base import EventBase
from events.night.drafting import Drafting
from events.night.opening import open_night
from events.night.seat_codes import exposed_file
from sets.errors import InputError, StorageError
from sets.numbers import parse_int
from sets.visible import quoted, visible

Phase = TypeVar("Phase", bound=EventBase)
EventArg = Annotated[int, typer.Argument(metavar="ID", help="Event number (see 'cmdraft event list').")]


@overload
def core(db: Path | None, *, create: bool = False) -> EventBase: ...


@overload
def core(db: Path | None, phase: type[Phase], *, create: bool = False) -> Phase: ...


def core(db: Path | None, phase: type[EventBase] | None = None, *, create: bool = False) -> EventBase:
    """The use cases of one phase of the night (``phase``, a class from its module in ``events``; the
    shared reading of ``events.night.base`` when none), after finishing whatever an interrupted command left
    behind.  A database file that is not there is refused (exit 6) and not created, unless the command may
    start one (``create``: a new event, a restore)."""
    drafting = open_night(db, Drafting)
    if not create:
        drafting.check_exists()
    drafting.check_readable()  # a database that can't be read is refused here, in one line (exit 4)
    try:
        drafting.recover()
    except StorageError as error:
        # A full disk or a read-only file: reading commands still work on what is saved, and the
        # half-done step is finished by the next command that can write.
        sys.stderr.write(f"cmdraft: note: finishing an interrupted step is postponed ({error})\n")
    return drafting.phase(phase or EventBase)


def warn_exposed(db: Path | None, event_id: int) -> None:
    """One ``cmdraft: note:`` line when a terminal event's database can be read by other accounts."""
    events = core(db)
    note = exposed_file(events, events.event(event_id))
    if note:
        sys.stderr.write(f"cmdraft: note: {visible(note)}\n")


def number_pairs(values: list[str] | None, what: str, signed: bool = False) -> dict[str, int]:
    """``NAME=NUMBER`` options; the number through the one strict parser (a sign only when ``signed``)."""
    out_: dict[str, int] = {}
    for value in values or []:
        key, sep, number = value.rpartition("=")
        if not sep or not key.strip():
            raise InputError(f"bad {what} {quoted(value)}: write NAME=NUMBER")
        out_[key.strip()] = parse_int(number, f"number in {what} {quoted(value)}", signed=signed)
    return out_
