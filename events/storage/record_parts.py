"""Parts of the stored records (``events.storage.records``) made of plain values only: a round's clock and what
``event undo`` keeps to take a change back."""

from __future__ import annotations

import msgspec


class Clock(msgspec.Struct, frozen=True):
    """A round's clock (``events.night.round_clock``): its length and pauses in seconds, times epoch seconds."""

    length: float
    started: float
    paused_at: float | None = None
    paused_total: float = 0.0


class UndoNote(msgspec.Struct, frozen=True):
    """What ``event undo`` needs to take a change back (``events.night.undo``): each kind of change fills its own."""

    player: int | None = None  # a player added, renamed or dropped
    players: list[int] = []  # players checked in
    round: int | None = None  # a round paired; a result's or a game's round
    table: int | None = None
    order: list[list[int]] | None = None  # a result as it was before (None: there was none)
    new: list[list[int]] | None = None  # the result recorded
    closed: bool = False  # the round was closed before the result
    status: str | None = None  # the event's status before the round
    rounds: int | None = None  # rounds paired when a player dropped
    event_status: str | None = None
    entries: int | None = None  # a game's tracker entries after the one to take back
    pods: list[list[int]] | None = None  # the pods before a seating (None: there were none)
    no_shows: list[int] = []
    seatings: int | None = None
