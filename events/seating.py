"""Seating: players shuffled (seeded) into balanced draft pods of at most the event's pod size."""

from __future__ import annotations

import math
import random

from events.base import EventBase
from events.schema import EVENTS, MAX_POD, PLAYERS, PODS
from events.store import phase_change
from sets.errors import StateError


def draft_pod_sizes(players: int, most: int = MAX_POD) -> list[int]:
    """Balanced draft pods of at most ``most`` seats."""
    pods = max(1, math.ceil(players / most))
    return [players // pods + (1 if i < players % pods else 0) for i in range(pods)]


class Seating(EventBase):
    """The one seating of a draft event."""

    def seat(self, event_id: int) -> list[list[str]]:
        with self.store.write() as db:
            event = self._event(db, event_id)
            if event["mode"] == "sealed":
                raise StateError("a sealed event has no draft seating: open the pools with 'cmdraft event draft'")
            self._require(event, "registration", doing="seat players (seating happens once)")
            players = self._players(db, event_id, active_only=True)
            if len(players) < 2:
                raise StateError(f"a draft needs at least 2 players, not {len(players)}; register more or make the event sealed")
            rng = random.Random(event["seed"])
            order = [p.doc_id for p in players]
            rng.shuffle(order)
            seating = []
            start = 0
            for number, size in enumerate(draft_pod_sizes(len(order), event["pod_size"]), start=1):
                ids = order[start:start + size]
                start += size
                db.table(PODS).insert({"e": event_id, "number": number, "players": ids, "draft": None, "opened": None})
                for seat, pid in enumerate(ids):
                    db.table(PLAYERS).update({"pod": number, "seat": seat}, doc_ids=[pid])
                seating.append(ids)
            phase_change(db)
            db.table(EVENTS).update({"status": "seated"}, doc_ids=[event_id])
            names = {p.doc_id: p["name"] for p in players}
        return [[names[pid] for pid in ids] for ids in seating]
