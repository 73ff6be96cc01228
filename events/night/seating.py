"""Seating: players shuffled (seeded) into balanced draft pods of at most the event's pod size."""

from __future__ import annotations

import math
import random

from events.night import history
from events.night.base import EventBase
from events.night.refusals import DESK, Actor
from events.night.schema import MAX_POD
from events.night.seat_codes import assign_codes
from events.storage.records import Event, Player, Pod
from events.storage.store import phase_change
from events.storage.tables import records_of
from sets.errors import StateError
from sets.names import name_order
from sets.userdata import db_option


def draft_pod_sizes(players: int, most: int = MAX_POD) -> list[int]:
    """Balanced draft pods of at most ``most`` seats."""
    pods = max(1, math.ceil(players / most))
    return [players // pods + (1 if i < players % pods else 0) for i in range(pods)]


class Seating(EventBase):
    """Seating a draft event, and seating it again until its draft starts."""

    def seat(self, event_id: int, again: bool = False, *, actor: Actor = DESK) -> list[list[str]]:
        """Players shuffled (seeded) into balanced pods; returns the pods by names.  Only the desk seats
        (``NotAllowed`` for anyone else).

        When check-in was used, only the players checked in are seated; the others become no-shows.
        ``again`` re-draws the pods of a seated event whose draft hasn't started (late players
        included), after a backup, with the old seating kept in the event's history.
        """
        actor.require_desk("seat the players")
        with self.store.write() as db:
            event = self._event(db, event_id)
            if event.mode == "sealed":
                raise StateError("a sealed event has no draft seating: open the pools with 'cmdraft event draft'")
            if again and event.status == "registration":
                raise StateError(f"the players aren't seated yet: seat them with 'cmdraft event seat {event_id}'")
            if again and (
                event.status != "seated" or any(pod.draft for pod in records_of(db, Pod).find(event=event_id))
            ):
                raise StateError(
                    f"the draft has started (the event is {event.status}), so the pods can't be drawn again; "
                    f"a late player can join with a sealed pool ('cmdraft event player add {event_id} NAME --sealed')"
                )
            if not again:
                self._require(
                    event,
                    "registration",
                    doing="seat players",
                    hint=f"to draw the pods again: 'cmdraft event seat {event_id} --again'"
                    if event.status == "seated"
                    else "",
                )
            players = self._players(db, event_id, active_only=True)
            checking_in = any(p.checked_in for p in players)
            no_shows = [p for p in players if checking_in and not p.checked_in and not p.bot]
            players = [p for p in players if p not in no_shows]
            if len(players) < 2:
                raise StateError(
                    f"a draft needs at least 2 players, not {len(players)}; register (or check in) more, or make a "
                    f"sealed event instead ('cmdraft event new NAME --sealed{db_option(self.store.path)}')"
                )
            names = {p.id: p.name for p in self._players(db, event_id)}
            pods, players_table = records_of(db, Pod), records_of(db, Player)
            old = sorted(pods.find(event=event_id), key=lambda d: d.number)
            draws = event.seatings + (1 if again else 0)
            # The first seating uses the event's seed as it always has; each re-seat draws anew, still seeded.
            rng = random.Random(event.seed if not draws else event.seed * 1_000_003 + draws)
            order = [p.id for p in players]
            rng.shuffle(order)
            phase_change(db)
            if old:
                pods.remove([pod.id for pod in old])
            seating = []
            start = 0
            for number, size in enumerate(draft_pod_sizes(len(order), event.pod_size), start=1):
                ids = order[start : start + size]
                start += size
                pods.insert_fields(event=event_id, number=number, players=ids, draft=None, opened=None)
                for seat, pid in enumerate(ids):
                    players_table.update(pid, pod=number, seat=seat)
                seating.append(ids)
            assign_codes(db, event, event_id)  # a re-seat keeps each player's code; new seats get one
            for player in no_shows:
                players_table.update(player.id, status="no-show")
            records_of(db, Event).update(event_id, status="seated", seatings=draws)
            before = [[names[pid] for pid in pod.players] for pod in old]
            after = [[names[pid] for pid in ids] for ids in seating]
            history.log_change(
                db,
                event_id,
                history.DESK,
                "reseat" if again else "seat",
                before or None,
                after,
                undo=history.SeatingUndo(
                    [pod.players for pod in old] or None, [p.id for p in no_shows], event.seatings
                ),
            )
        return after

    def no_shows(self, event_id: int) -> list[str]:
        """Players registered but not checked in when the event was seated, by name as every list of names is."""
        with self.store.read() as db:
            return sorted((p.name for p in self._players(db, event_id) if p.status == "no-show"), key=name_order)
