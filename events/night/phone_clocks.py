"""Whose pick clocks are the event's server's: the one rule of who may time out a seat a phone holds.

A phone picks only through ``cmdraft serve``, and only that server knows the cards its player has tapped but not yet
confirmed (the timer takes them: ``draft.timeout``).  So once a server has served the event, the seats the phones hold
are timed out by a server alone: while one serves, by it, with each phone's chosen cards; while it is down (stopped,
or gone in a crash: ``serving.stopped_before``) the phones can't pick, so the overdue picks wait for its next start,
which gives each of them holding a pack its whole time again (``TableSession.resume_file``).  No terminal, no desk
screen and no ``cmdraft event`` command makes them.  A seat a terminal holds (its seat code given there), and one
nobody holds, times out as ever, whoever reaches the draft first, and keeps its clock through a restart.

The pod's draft asks this only when a pick's time is up (``TableSession.clocks_held``), never on a pick that isn't
late; the server serving the event holds its drafts without it (``Drafting.draft_session(serving=True)``): the
phones' clocks are its own, whatever the file beside the database says.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from events.night.serving import served_ever
from events.storage.records import BrowserSeat
from events.storage.store import Store
from events.storage.tables import records_of


@dataclass(frozen=True)
class PhoneClocks:
    """One pod of an event: ``players``, the player id at each seat."""

    store: Store
    database: Path
    event_id: int
    players: tuple[int, ...]

    def held(self, claims: Mapping[str, object]) -> frozenset[int]:
        """The seats whose overdue picks are a server's to make, given who holds each seat (the draft's ``claims``):
        the phones' (``seats``) once a server has served the event, whether it serves it now or is down; none when
        none ever did."""
        return self.seats(claims) if served_ever(self.database, self.event_id) else frozenset()

    def seats(self, claims: Mapping[str, object]) -> frozenset[int]:
        """The seats a phone holds: its browser's binding is the seat's claim, or the player joined on a phone before
        the draft bound the seat (what a server started again gives their whole time again)."""
        with self.store.read() as db:
            phones = {row.player: row.token for row in records_of(db, BrowserSeat).find(event=self.event_id)}
        return frozenset(
            seat
            for seat, player in enumerate(self.players)
            if player in phones and claims.get(str(seat)) in (None, phones[player])
        )
