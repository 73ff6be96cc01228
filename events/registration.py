"""Registration: creating an event and its players (add, rename, remove before seating, drop)."""

from __future__ import annotations

import datetime as dt
import random
import uuid
from typing import Any

from events.base import EventBase
from events.drafting import Drafting
from events.drafts import DRAFTS
from events.schema import DECKS, DRAFT_STYLES, EVENTS, MAX_POD, PLAYERS, PODS, POOLS, STATUSES, Q
from sets.booster import booster_spec
from sets.numbers import parse_decimal
from sets.errors import InputError, StateError


MAX_POINTS = 1_000
EVENT_NAME_LIMIT = 200  # characters (a saved name may be up to events.records' 500, so any typed one is readable)


def parse_points(text: str) -> list[float]:
    """Placement points, best place first: each through the one strict parser (``nan``, ``inf``,
    ``1e3``, ``1_0`` or ``３`` are no numbers), 0 to ``MAX_POINTS``, 2 to 64 places."""
    parts = [part.strip(" \t") for part in text.split(",")]
    if not 2 <= len(parts) <= 64 or not all(parts):
        raise InputError(f"bad points scheme {text!r}: give 2 to 64 placement points like 3,2,1,0, best place first")
    points = [parse_decimal(part, f"placement points in {text!r}:", low=0, high=MAX_POINTS) for part in parts]
    if len(points) < 2 or any(b > a for a, b in zip(points, points[1:], strict=False)):
        raise InputError(f"bad points scheme {text!r}: give at least two numbers, best place first, never rising")
    return points


class Registration(EventBase):
    """Creating the event; players come, are corrected, taken back or drop."""

    def create(self, name: str, *, date: str | None = None, set_code: str = "CMR", mode: str = "draft",
               style: str = "physical", pod_size: int = MAX_POD, game_size: int = 4, one_v_one: bool = False,
               timer: int = 0, points: str = "3,2,1,0", piper_stock: int = 0, seed: int | None = None) -> int:
        if not name.strip():
            raise InputError("an event needs a name")
        if len(name.strip()) > EVENT_NAME_LIMIT:
            raise InputError(f"event name is {len(name.strip()):,} characters; keep it to {EVENT_NAME_LIMIT}")
        if mode not in ("draft", "sealed"):
            raise InputError(f"unknown event kind {mode!r}: use draft or sealed")
        if style not in DRAFT_STYLES:
            raise InputError(f"unknown draft style {style!r}: use {', '.join(DRAFT_STYLES)}")
        if not 2 <= pod_size <= 12:
            raise InputError(f"draft pod size must be 2 to 12, not {pod_size}")
        if not 3 <= game_size <= 5 and not one_v_one:
            raise InputError(f"game pod size must be 3 to 5, not {game_size} (or use 1v1)")
        if piper_stock < 0 or timer < 0:
            raise InputError("piper stock and timer can't be negative")
        booster_spec(set_code)  # the set must exist and have boosters
        date = date or dt.date.today().isoformat()
        try:
            dt.date.fromisoformat(date)
        except ValueError:
            raise InputError(f"bad date {date!r}: use YYYY-MM-DD") from None
        doc = {"name": name.strip(), "date": date, "set": set_code.upper(), "mode": mode, "style": style, "pod_size": pod_size,
               "game_size": game_size, "one_v_one": one_v_one, "timer": timer, "points": parse_points(points),
               "piper_stock": piper_stock, "status": "registration", "created": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
               "seed": seed if seed is not None else random.SystemRandom().randrange(1, 2**31), "uid": uuid.uuid4().hex}
        with self.store.write() as db:
            return db.table(EVENTS).insert(doc)

    def add_player(self, event_id: int, name: str, bot: bool = False) -> int:
        clean = self._clean_name(name)
        with self.store.write() as db:
            event = self._event(db, event_id)
            self._require(event, "registration", "seated", "building", "playing", doing="add a player")
            late = event["status"] != "registration"
            doc = {"e": event_id, "name": clean, "status": "active", "late": late, "bot": bot, "pod": None, "seat": None,
                   "requested": 0}
            if event["status"] == "seated":
                pods = sorted(db.table(PODS).search(Q.e == event_id), key=lambda p: (len(p["players"]), p["number"]))
                pod = pods[0]
                if len(pod["players"]) >= event["pod_size"]:
                    raise StateError(f"every draft pod is full ({event['pod_size']} seats): the player can't join this draft")
                player_id = db.table(PLAYERS).insert(doc)
                db.table(PODS).update({"players": pod["players"] + [player_id]}, doc_ids=[pod.doc_id])
                db.table(PLAYERS).update({"pod": pod["number"], "seat": len(pod["players"])}, doc_ids=[player_id])
                return player_id
            return db.table(PLAYERS).insert(doc)

    @staticmethod
    def _clean_name(name: str) -> str:
        clean = " ".join(name.split())
        if not clean:
            raise InputError("a player needs a name")
        if len(clean) > 80:
            raise InputError(f"player name is {len(clean)} characters; keep it under 80")
        return clean

    def rename_player(self, event_id: int, who: str | int, new_name: str) -> tuple[str, str]:
        """Correct a player's name everywhere it is shown (their draft seat's name too); returns (old, new)."""
        clean = self._clean_name(new_name)
        with self.store.write() as db:
            self._event(db, event_id)
            player = self._player(db, event_id, who)
            clash = [p for p in self._players(db, event_id) if p.doc_id != player.doc_id and p["name"].casefold() == clean.casefold()]
            if clash:
                raise InputError(f"another player is already called {clash[0]['name']!r} (#{clash[0].doc_id}); choose another name")
            db.table(PLAYERS).update({"name": clean}, doc_ids=[player.doc_id])
            pod = db.table(PODS).get((Q.e == event_id) & (Q.number == player["pod"])) if player["pod"] else None
            if pod is not None and pod.get("draft"):
                draft = db.table(DRAFTS).get(doc_id=pod["draft"])
                if draft is not None and player.doc_id in pod["players"]:
                    names = list(draft["names"])
                    names[pod["players"].index(player.doc_id)] = clean
                    db.table(DRAFTS).update({"names": names}, doc_ids=[draft.doc_id])
        return player["name"], clean

    def remove_player(self, event_id: int, who: str | int) -> str:
        """Take back a registration (a typo, a double entry) before seating: the player is gone, not dropped."""
        with self.store.write() as db:
            event = self._event(db, event_id)
            player = self._player(db, event_id, who)
            if event["status"] != "registration" or player["pod"] is not None:
                raise StateError(f"{player['name']} already has a seat; drop them instead: "
                                 f"cmdraft event player drop {event_id} '#{player.doc_id}'")
            for table in (POOLS, DECKS):
                db.table(table).remove((Q.e == event_id) & (Q.p == player.doc_id))
            db.table(PLAYERS).remove(doc_ids=[player.doc_id])
        return player["name"]

    def drop_player(self, event_id: int, who: str) -> dict[str, Any]:
        with self.store.write() as db:
            event = self._event(db, event_id)
            self._require(event, *STATUSES[:-1], doing="drop a player")
            player = self._player(db, event_id, who)
            if player["status"] == "dropped":
                raise StateError(f"{player['name']} has already dropped")
            db.table(PLAYERS).update({"status": "dropped"}, doc_ids=[player.doc_id])
            had_deck = db.table(DECKS).get((Q.e == event_id) & (Q.p == player.doc_id)) is not None
            pod = db.table(PODS).get((Q.e == event_id) & (Q.number == player["pod"])) if player["pod"] else None
        if event["status"] == "drafting" and pod is not None and pod.get("draft"):
            # A bot takes the seat so that the rest of the pod can draft on (``recover`` does it if we die first).
            Drafting(self.store).hand_dropped_seats_to_bots(event_id, pod)
        return dict(player, status="dropped", had_deck=had_deck)
