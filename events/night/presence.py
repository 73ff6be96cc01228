"""Who holds each seat, for the desk: a phone (a browser bound with the seat code) or a terminal, since when, and
whether a terminal holding it still runs.

One row per seat (``seat_presence``: event, player, via, pid, at, left), written when a seat is taken up: a browser
joins with the code (``browser_seats.bind``, in its own transaction) or a terminal is given the code, or picks up
the binding it kept (``terminal_holds``, which ends the seat's browser bindings); the last to take the seat up holds
it, as with picks.  A terminal's row
names its process, so the desk's server (on the same machine: the database is a local file) can tell whether it
still runs without the terminal writing anything while the player thinks; a terminal that ends says so
(``terminal_left``).  A new code from the desk clears the row (``forget``).  Whether a phone is connected is the
server's to say (its open streams), not the database's.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from tinydb import TinyDB

from events import portable, timing
from events.storage.records import BrowserSeat, SeatPresence
from events.storage.tables import records_of

SEAT_PRESENCE = "seat_presence"


@dataclass(frozen=True)
class Presence:
    """How a seat is held: ``via`` "terminal" or "browser", when it was taken up (``at``, wall time), the
    terminal's process and when it ended (``left``)."""

    via: str
    at: float
    pid: int | None = None
    left: float | None = None

    def terminal_running(self) -> bool:
        """A terminal holding the seat that has not ended (its process still runs)."""
        return (
            self.via == "terminal"
            and self.left is None
            and self.pid is not None
            and portable.process_alive(self.pid, self.at)
        )


def put(db: TinyDB, event_id: int, player_id: int, via: str, pid: int | None = None) -> None:
    """Inside the caller's transaction: the seat is taken up now, from ``via``."""
    seats = records_of(db, SeatPresence)
    seats.remove_where(event=event_id, player=player_id)
    seats.insert_fields(event=event_id, player=player_id, via=via, pid=pid, at=timing.now(), left=None)


def terminal_holds(events: Any, event_id: int, player_id: int) -> None:
    """This terminal (its process) holds the player's seat from now: the seat's browser bindings end in the same
    transaction, as a code typed in another browser ends them (``browser_seats.bind``), so a phone that held it is
    shown the seat no more (its stream is closed; its page asks for the code again)."""
    with events.store.write() as db:
        records_of(db, BrowserSeat).remove_where(event=event_id, player=player_id)
        put(db, event_id, player_id, "terminal", os.getpid())


def terminal_left(events: Any, event_id: int, player_ids: list[int]) -> None:
    """This terminal ends: the seats it held say since when (a seat taken up elsewhere meanwhile is left alone)."""
    with events.store.write() as db:
        seats = records_of(db, SeatPresence)
        for row in seats.find(event=event_id, via="terminal", pid=os.getpid()):
            if row.player in player_ids and row.left is None:
                seats.update(row.id, left=timing.now())


def held_here(events: Any, event_id: int, player_id: int) -> bool | None:
    """Whether this terminal (its process), given the seat's code before the draft began, holds the seat still:
    True; taken up since by a phone or another terminal (the last to take it up holds it): False; held by nobody,
    the desk having given the seat a new code meanwhile: None."""
    row = of_event(events, event_id).get(player_id)
    return None if row is None else row.via == "terminal" and row.pid == os.getpid()


def forget(db: TinyDB, event_id: int, player_id: int) -> None:
    """Inside the caller's transaction: nobody holds the seat (its code was reset)."""
    records_of(db, SeatPresence).remove_where(event=event_id, player=player_id)


def of_event(events: Any, event_id: int) -> dict[int, Presence]:
    """Each held seat's presence, by player id."""
    with events.store.read() as db:
        rows = records_of(db, SeatPresence).find(event=event_id)
    return {row.player: Presence(row.via, row.at, row.pid, row.left) for row in rows}


# --- what the desk is told of a seat's presence -----------------------------------------------------------------------


def phone_seen(taken_up: float, asked: float | None, started: float) -> tuple[float, float | None]:
    """When a phone holding a seat was last seen, as the desk is told: (the time, and the server's start when the
    phone has not asked since, else None).  A server keeps each phone's last request in memory only; after a restart
    (a crash included) a phone it has not heard from yet was last seen before the restart, some time after
    ``taken_up`` (the stored time it took the seat up): the desk says "before the restart", never that the phone
    has been gone since it joined."""
    if asked is not None or taken_up >= started:
        return max(taken_up, asked or 0.0), None
    return taken_up, started


def stalls(state: str, connected: bool, queued: int) -> bool:
    """Whether a person's seat holds up its pod with nobody there: a seat of a live draft (picking or waiting) with
    at least one pack in front of it, and no phone's page open (a stream) nor a terminal running for it (or nobody
    joined).  Each pack it holds waits for its pick's timer in turn."""
    return state in ("picking", "waiting") and queued >= 1 and not connected


def stalled_words(queued: int) -> str:
    """A stalled seat's words on the desk's row (``stalls``)."""
    return f"holding {queued} pack{'' if queued == 1 else 's'} with nobody there: To a bot lets the pod go on"


def stalled_line(seats: int) -> str | None:
    """The desk's summary of the stalled seats (``stalls``); None when there are none."""
    if not seats:
        return None
    held = "seat holding packs" if seats == 1 else "seats holding packs"
    return f"{seats} {held} with nobody there (To a bot picks for a seat until its player is back)"
