"""Registration: creating an event and its players (add, rename, remove before seating, drop)."""

from __future__ import annotations

import datetime as dt
import random
import shlex
import uuid
from typing import Any

from events.night import history
from events.night.base import EventBase, name_key, player_number
from events.night.drafting import Drafting
from events.night.packs_secret import new_secret
from events.night.pipers import check_piper_stock
from events.night.schema import (
    DECKS,
    DRAFT_STYLES,
    EVENTS,
    MAX_POD,
    PLAYERS,
    PODS,
    POOLS,
    ROUNDS,
    STATUSES,
    Q,
    card_ref,
)
from events.night.seat_codes import assign_codes
from events.night.seating import draft_pod_sizes
from events.storage.draft_records import DRAFTS, check_timer
from events.storage.records import MAX_NAME, Event
from sets.booster import booster_spec, sealed_pool
from sets.errors import InputError, StateError
from sets.numbers import parse_decimal

MAX_POINTS = 1_000
EVENT_NAME_LIMIT = (
    200  # characters (a saved name may be up to events.storage.records' 500, so any typed one is readable)
)


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

    def create(
        self,
        name: str,
        *,
        date: str | None = None,
        set_code: str = "CMR",
        mode: str = "draft",
        style: str = "physical",
        pod_size: int = MAX_POD,
        game_size: int = 4,
        one_v_one: bool = False,
        timer: int = 0,
        points: str = "3,2,1,0",
        piper_stock: int = 0,
        seed: int | None = None,
        codes: bool = True,
        assist: bool = False,
        secret: int | None = None,
    ) -> int:
        """A new event.  ``seed`` seats and pairs; the packs come from ``secret`` (drawn from the operating
        system unless a test gives one).  ``codes``: a terminal draft's players pick behind seat codes."""
        check_timer(timer, "the event's pick timer")
        check_piper_stock(piper_stock)
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
        booster_spec(set_code)  # the set must exist and have boosters
        date = date or dt.date.today().isoformat()
        try:
            dt.date.fromisoformat(date)
        except ValueError:
            raise InputError(f"bad date {date!r}: use YYYY-MM-DD") from None
        doc = {
            "name": name.strip(),
            "date": date,
            "set": set_code.upper(),
            "mode": mode,
            "style": style,
            "pod_size": pod_size,
            "game_size": game_size,
            "one_v_one": one_v_one,
            "timer": timer,
            "points": parse_points(points),
            "piper_stock": piper_stock,
            "status": "registration",
            "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "seed": seed if seed is not None else random.SystemRandom().randrange(1, 2**31),
            "uid": uuid.uuid4().hex,
            "secret": new_secret() if secret is None else secret,
            "codes": codes,
            "assist": assist,
        }
        with self.store.write() as db:
            event_id = db.table(EVENTS).insert(doc)
            history.log_change(db, event_id, history.DESK, "event new", None, doc["name"])
            return event_id

    def add_player(self, event_id: int, name: str, bot: bool = False, sealed: bool = False) -> int:
        """Register a player.  After seating: a seat in the smallest pod with room, or registered without a
        seat when every pod is full (``late_offer`` says how to re-seat).  Once the draft has started a
        late player joins with a sealed pool (``sealed``), or is refused with the reason."""
        clean = self._clean_name(name)
        with self.store.write() as db:
            event = self._event(db, event_id)
            self._require(event, "registration", "seated", "drafting", "building", "playing", doing="add a player")
            self._refuse_same_name(db, event_id, clean)
            late = event.status != "registration"
            started = event.mode == "draft" and event.status in ("drafting", "building", "playing")
            if started and bot:
                raise StateError("the draft has started: a bot can no longer fill a seat")
            if started and not sealed:
                raise StateError(
                    f"the draft has started, so {clean} can't take a draft seat: they can join with a sealed "
                    f"pool (cmdraft event player add {event_id} {shlex.quote(clean)} --sealed), or wait "
                    "for the next event"
                )
            if event.mode == "sealed" and event.status in ("building", "playing"):
                sealed = True  # a sealed event: every late player opens their six boosters
            number = 1 + max((player_number(p) for p in self._players(db, event_id)), default=0)
            doc = {
                "event": event_id,
                "name": clean,
                "status": "active",
                "late": late,
                "bot": bot,
                "pod": None,
                "seat": None,
                "requested": 0,
                "number": number,
            }
            if self._is_checking_in(db, event_id) and event.status in ("registration", "seated"):
                # registered at the desk while check-in runs (a late player too): they are here, so a
                # re-seat seats them rather than listing them as a no-show
                doc["checked_in"] = True
            player_id = db.table(PLAYERS).insert(doc)
            shown = clean
            if event.status == "seated":
                shown = f"{clean} ({self._seat_late(db, event_id, event, player_id)})"
            elif sealed and late:
                spec = booster_spec(event.set)
                # from the packs' secret, per player: the same pool on every replay, and none to work out from the seed
                rng = random.Random((event.secret or event.seed) * 7919 + number)
                cards = [card_ref(p, event.set) for b in sealed_pool(spec, rng) for p in b.printings]
                db.table(POOLS).insert({"event": event_id, "player": player_id, "cards": cards, "source": "sealed"})
                shown = f"{clean} (sealed pool)"
            history.log_change(db, event_id, history.DESK, "player add", None, shown, undo={"player": player_id})
            return player_id

    @staticmethod
    def _seat_late(db, event_id: int, event: Event, player_id: int) -> str:
        """A seat in the smallest pod with room, before the draft starts; says where (or that every pod is full)."""
        pods = sorted(db.table(PODS).search(Q.event == event_id), key=lambda p: (len(p["players"]), p["number"]))
        pod = pods[0]
        if len(pod["players"]) >= event.pod_size:
            return "no seat: every pod is full"
        db.table(PODS).update({"players": pod["players"] + [player_id]}, doc_ids=[pod.doc_id])
        db.table(PLAYERS).update({"pod": pod["number"], "seat": len(pod["players"])}, doc_ids=[player_id])
        assign_codes(db, event, event_id)
        return f"pod {pod['number']}, seat {len(pod['players']) + 1}"

    def late_offer(self, event_id: int) -> str | None:
        """For seated players waiting without a seat (every pod was full): the re-seat that makes room."""
        with self.store.read() as db:
            event = self._event(db, event_id)
            if event.status != "seated":
                return None
            active = self._players(db, event_id, active_only=True)
            waiting = [p["name"] for p in active if p["pod"] is None]
        if not waiting:
            return None
        sizes = draft_pod_sizes(len(active), event.pod_size)
        return (
            f"every draft pod is full ({event.pod_size} seats), so {' / '.join(waiting)} has no seat yet: "
            f"'cmdraft event seat {event_id} --again' re-draws the pods for all {len(active)} players "
            f"({len(sizes)} pods: {' / '.join(map(str, sizes))}), or drop them"
        )

    def _refuse_same_name(self, db, event_id: int, name: str, other_than: int | None = None) -> None:
        key = name_key(name)
        for player in self._players(db, event_id):
            if player.doc_id != other_than and name_key(player["name"]) == key:
                raise InputError(
                    f"{name!r} is the same name as player #{player_number(player)} {player['name']!r} "
                    "(case, Unicode form and spaces don't make names different): choose another name, "
                    f"or use '#{player_number(player)}' for that player"
                )

    @staticmethod
    def _is_checking_in(db, event_id: int) -> bool:
        """Check-in is in use once any player of the event has checked in."""
        return any(p.get("checked_in") for p in db.table(PLAYERS).search(Q.event == event_id))

    def check_in(self, event_id: int, names: list[str] | None = None) -> list[str]:
        """Mark players present (every registered one when ``names`` is None); returns who was checked in now
        (a no-show checked in after seating with the seat they got).  Once check-in is used, seating seats
        only the players checked in."""
        with self.store.write() as db:
            event = self._event(db, event_id)
            self._require(event, "registration", "seated", doing="check players in (check-in comes before the draft)")
            if names is None:
                chosen = [
                    p
                    for p in self._players(db, event_id)
                    if not p.get("checked_in")
                    and p["status"] == ("active" if event.status == "registration" else "no-show")
                ]
            else:
                chosen = []
                for who in names:
                    player = self._player(db, event_id, who)
                    if player.get("checked_in"):
                        raise StateError(f"{player['name']} is already checked in")
                    if player.doc_id not in [p.doc_id for p in chosen]:
                        chosen.append(player)
            if not chosen:
                raise StateError("everyone registered is already checked in")
            seated = {}
            for player in chosen:
                if event.status == "seated" and player["status"] != "no-show":
                    raise StateError(
                        f"the event is seated; {player['name']} is not a no-show, so there is nothing to check in"
                    )
                db.table(PLAYERS).update({"checked_in": True}, doc_ids=[player.doc_id])
                if event.status == "seated":  # a no-show who came after all: a late seat
                    db.table(PLAYERS).update({"status": "active", "late": True}, doc_ids=[player.doc_id])
                    seated[player.doc_id] = self._seat_late(db, event_id, event, player.doc_id)
            checked = [p["name"] + (f" ({seated[p.doc_id]})" if p.doc_id in seated else "") for p in chosen]
            history.log_change(
                db,
                event_id,
                history.DESK,
                "checkin",
                None,
                checked,
                undo={"players": [p.doc_id for p in chosen]} if not seated else None,
            )
        return checked

    @staticmethod
    def _clean_name(name: str) -> str:
        clean = " ".join(name.split())
        if not clean:
            raise InputError("a player needs a name")
        if len(clean) > MAX_NAME:
            raise InputError(f"player name is {len(clean)} characters; keep it to {MAX_NAME}")
        return clean

    def rename_player(self, event_id: int, who: str | int, new_name: str) -> tuple[str, str]:
        """Correct a player's name everywhere it is shown (their draft seat's name too); returns (old, new)."""
        clean = self._clean_name(new_name)
        with self.store.write() as db:
            self._event(db, event_id)
            player = self._player(db, event_id, who)
            self._refuse_same_name(db, event_id, clean, other_than=player.doc_id)
            db.table(PLAYERS).update({"name": clean}, doc_ids=[player.doc_id])
            history.log_change(
                db, event_id, history.DESK, "rename", player["name"], clean, undo={"player": player.doc_id}
            )
            pod = db.table(PODS).get((Q.event == event_id) & (Q.number == player["pod"])) if player["pod"] else None
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
            if event.status != "registration" or player["pod"] is not None:
                raise StateError(
                    f"{player['name']} already has a seat; drop them instead: "
                    f"cmdraft event player drop {event_id} '#{player_number(player)}'"
                )
            for table in (POOLS, DECKS):
                db.table(table).remove((Q.event == event_id) & (Q.player == player.doc_id))
            db.table(PLAYERS).remove(doc_ids=[player.doc_id])
            history.log_change(db, event_id, history.DESK, "player remove", player["name"], None)
        return player["name"]

    def drop_player(self, event_id: int, who: str | int, by: str = history.DESK) -> dict[str, Any]:
        """Drop a player (``by``: who asked, for the history: the desk, or ``browser NAME`` for themselves)."""
        with self.store.write() as db:
            event = self._event(db, event_id)
            self._require(event, *STATUSES[:-1], doing="drop a player")
            player = self._player(db, event_id, who)
            if player["status"] == "dropped":
                raise StateError(f"{player['name']} has already dropped")
            rounds = len(db.table(ROUNDS).search(Q.event == event_id))
            db.table(PLAYERS).update({"status": "dropped", "dropped_after": rounds}, doc_ids=[player.doc_id])
            history.log_change(
                db,
                event_id,
                by,
                "drop",
                player["status"],
                "dropped",
                undo={"player": player.doc_id, "rounds": rounds, "event_status": event.status},
            )
            had_deck = db.table(DECKS).get((Q.event == event_id) & (Q.player == player.doc_id)) is not None
            pod = db.table(PODS).get((Q.event == event_id) & (Q.number == player["pod"])) if player["pod"] else None
        if event.status == "drafting" and pod is not None and pod.get("draft"):
            # A bot takes the seat so that the rest of the pod can draft on (``recover`` does it if we die first).
            Drafting(self.store).hand_dropped_seats_to_bots(event_id, pod)
        return dict(player, status="dropped", had_deck=had_deck)
