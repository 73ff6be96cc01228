"""Store events: every step of a Commander Legends draft night as a use case.

Lifecycle: ``registration`` → ``seated`` → ``drafting`` → ``building`` →
``playing`` → ``finished`` (sealed events skip seating and drafting).  Each
use case runs in one store transaction and checks that its step is in order;
``StateError`` (exit 3) says what to do first.

Game pods and standings:
- Tables of 4 by default, 3 to 5 when numbers don't divide (``game_table_sizes``),
  or 1v1.  Round one is random; later rounds sort players by points and fill
  tables from the top, choosing among the nearest candidates the one who has
  met the fewest of the table's players already (repeat opponents avoided
  where possible).
- A result is a finishing order; tied players share the average of the
  placement points of the places they cover (default points 3/2/1/0).
- Standings: points, then the average points per round of every opponent you
  shared a table with (each meeting counts), then the average finishing place
  (lower is better; a player who hasn't played comes after those who have).
  All three are exact fractions; players equal on all three share a rank and
  are listed by name.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import random
import uuid
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import replace as dc_replace
from fractions import Fraction
from typing import Any

from tinydb import Query

from draft.decks import PIPER, DeckFormat, is_piper, validate
from draft.engine import DraftConfig
from draft.formats import DeckFile, parse_json, resolve, write_json
from events.drafts import DRAFTS, TableSession, current, fold, read_journal
from events.store import Store, phase_change
from sets.booster import Printing, booster_spec, sealed_pool
from sets.cards import Card
from sets.catalog import CardIndex, card_index, load_set
from sets.colors import Color
from sets.errors import InputError, StateError
from sets.numbers import is_number, parse_int

EVENTS, PLAYERS, PODS, POOLS, DECKS, ROUNDS, RESULTS, GAMES = (
    "events", "players", "pods", "pools", "decks", "rounds", "results", "games")
STATUSES = ("registration", "seated", "drafting", "building", "playing", "finished")
DRAFT_STYLES = ("physical", "terminal", "bots")
MAX_POD = 8
STARTING_LIFE = 40
COMMANDER_DAMAGE_LOSS = 21

Q = Query()


# --- small helpers -----------------------------------------------------------------------------


def card_ref(printing: Printing | Card, event_set: str) -> str:
    """A compact card reference: ``186``, ``514*e`` (etched), ``TST:12*f`` (foil, another set)."""
    card = getattr(printing, "card", printing)
    ref = card.number if card.set_code == event_set else f"{card.set_code}:{card.number}"
    if getattr(printing, "etched", False):
        return ref + "*e"
    return ref + ("*f" if getattr(printing, "foil", False) else "")


def card_from_ref(ref: str, event_set: str) -> Printing:
    from sets.basics import basic_lands

    ref, _, finish = ref.partition("*")
    code, _, number = ref.rpartition(":")
    code = code or event_set
    card_set = basic_lands() if code == "BASIC" else load_set(code)
    return Printing(card_set.card(number), "", finish in ("f", "e"), finish == "e")


def parse_points(text: str) -> list[float]:
    try:
        points = [float(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        raise InputError(f"bad points scheme {text!r}: give placement points like 3,2,1,0") from None
    if len(points) < 2 or any(b > a for a, b in zip(points, points[1:], strict=False)):
        raise InputError(f"bad points scheme {text!r}: give at least two numbers, best place first, never rising")
    return points


DRAFT_BOOSTERS, SEALED_BOOSTERS = 3, 6


def expected_pool_size(event: dict[str, Any]) -> int:
    """Cards in a full pool: three boosters drafted, or six opened for sealed (60 and 120 in CMR)."""
    size = max(booster_spec(event["set"]).sizes)
    return size * (SEALED_BOOSTERS if event["mode"] == "sealed" else DRAFT_BOOSTERS)


def pool_warning(event: dict[str, Any], cards: int) -> str | None:
    """A warning (not a refusal) when a pool is not the size the event's kind gives."""
    expected = expected_pool_size(event)
    if cards == expected:
        return None
    kind = "sealed" if event["mode"] == "sealed" else "draft"
    return f"{cards} cards, but a {kind} pool has {expected}: check it and record it again with --replace"


def draft_pod_sizes(players: int, most: int = MAX_POD) -> list[int]:
    """Balanced draft pods of at most ``most`` seats."""
    pods = max(1, math.ceil(players / most))
    return [players // pods + (1 if i < players % pods else 0) for i in range(pods)]


def game_table_sizes(players: int, size: int = 4, one_v_one: bool = False) -> list[int]:
    """Tables for a round: pods of ``size`` (3-5 when numbers don't divide), or pairs for 1v1."""
    if players < 2:
        raise StateError(f"a round needs at least 2 active players, not {players}")
    if one_v_one:
        # 1v1: pairs, with one table of three when the count is odd.
        tables = players // 2
    elif players < 3:
        tables = 1  # two players can only play each other
    else:
        # Every table holds 3 to 5 players: between ceil(n/5) and floor(n/3) tables, as near n/size as that allows.
        fewest, most = -(-players // 5), players // 3
        tables = min(max(round(players / size), fewest), most)
    return [players // tables + (1 if i < players % tables else 0) for i in range(tables)]


def exact(number: float | int | str | Fraction) -> Fraction:
    """A points value as an exact fraction: ``0.1`` is 1/10, not the nearest binary float."""
    return number if isinstance(number, Fraction) else Fraction(str(number))


def number_text(value: Fraction | int | None, places: int = 2) -> str:
    """A points figure for people: whole numbers bare, others to at most two decimals (7/3 is 2.33); None is blank."""
    if value is None:
        return ""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    scaled = round(value * 10**places)  # exact half-to-even rounding on the fraction itself
    sign = "-" if scaled < 0 else ""
    whole, part = divmod(abs(scaled), 10**places)
    return f"{sign}{whole}.{part:0{places}d}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class Standing:
    player: int
    name: str
    points: Fraction
    opponents_average: Fraction
    average_place: Fraction | None  # None before the player has played
    rounds: int
    dropped: bool
    rank: int = 0

    def tie_key(self) -> tuple:
        """The documented order: points, opponents' average (both higher first), average place (lower first)."""
        return (-self.points, -self.opponents_average, self.average_place is None, self.average_place or 0)

    def to_json(self, rank: int | None = None) -> dict[str, Any]:
        return {"rank": self.rank if rank is None else rank, "player": self.name, "points": round(float(self.points), 4),
                "points_exact": str(self.points), "opponents_average": round(float(self.opponents_average), 4),
                "average_place": None if self.average_place is None else round(float(self.average_place), 4),
                "rounds": self.rounds, "dropped": self.dropped}


class Events:
    """Use cases over one store."""

    def __init__(self, store: Store):
        self.store = store
        self._index: CardIndex | None = None

    @property
    def index(self) -> CardIndex:
        if self._index is None:
            self._index = card_index()
        return self._index

    # --- reading ------------------------------------------------------------------------------

    @staticmethod
    def _event(db, event_id: int) -> dict[str, Any]:
        doc = db.table(EVENTS).get(doc_id=event_id)
        if doc is None:
            raise InputError(f"no event {event_id}: see 'cmdraft event list'")
        return doc

    @staticmethod
    def _players(db, event_id: int, active_only: bool = False) -> list[dict[str, Any]]:
        players = sorted(db.table(PLAYERS).search(Q.e == event_id), key=lambda d: d.doc_id)
        return [p for p in players if p["status"] == "active"] if active_only else players

    def _player(self, db, event_id: int, who: str | int) -> dict[str, Any]:
        """A player by exact name first (then the same name in another case), or ``#N`` for player number N.

        An int is a player number from the program itself.  Bare digits are a name: a player called
        ``3`` is reachable, and ``3`` never silently means player number 3.
        """
        players = self._players(db, event_id)
        if isinstance(who, int):
            found = next((p for p in players if p.doc_id == who), None)
            if found is None:
                raise InputError(f"no player number {who} in event {event_id}: see 'cmdraft event show {event_id}'")
            return found
        text = " ".join(str(who).split())
        exact = [p for p in players if p["name"] == text] or [p for p in players if p["name"].casefold() == text.casefold()]
        if len(exact) == 1:
            return exact[0]
        if len(exact) > 1:
            raise InputError(f"{text!r} names {len(exact)} players: use the player number "
                             f"({', '.join('#' + str(p.doc_id) for p in exact)})")
        number = text[1:].strip() if text.startswith("#") else ""
        if is_number(number):
            return self._player(db, event_id, int(number))
        hint = f"; for player number {text} write '#{text}'" if is_number(text) else ""
        raise InputError(f"no player {text!r} in event {event_id}{hint}: see 'cmdraft event show {event_id}'")

    def _player_id(self, event_id: int, who: str) -> int:
        with self.store.read() as db:
            return self._player(db, event_id, who).doc_id

    @staticmethod
    def _require(event: dict[str, Any], *statuses: str, doing: str) -> None:
        if event["status"] not in statuses:
            raise StateError(f"can't {doing} while the event is {event['status']}; it needs to be {' or '.join(statuses)}")

    def snapshot_tables(self, event_id: int, round_number: int) -> list[list[str]]:
        """The tables of a round, by player names."""
        snap = self.snapshot(event_id)
        names = {p["id"]: p["name"] for p in snap["players"]}
        rnd = next((r for r in snap["rounds"] if r["number"] == round_number), None)
        if rnd is None:
            raise InputError(f"no round {round_number} in event {event_id}")
        return [[names[i] for i in table] for table in rnd["tables"]]

    def list_events(self) -> list[dict[str, Any]]:
        with self.store.read() as db:
            return [dict(doc, id=doc.doc_id, players=len(self._players(db, doc.doc_id, True))) for doc in db.table(EVENTS).all()]

    def snapshot(self, event_id: int) -> dict[str, Any]:
        """Everything about an event, for the status board and exports."""
        with self.store.read() as db:
            event = dict(self._event(db, event_id), id=event_id)
            players = [dict(p, id=p.doc_id) for p in self._players(db, event_id)]
            pools = {d["p"]: d for d in db.table(POOLS).search(Q.e == event_id)}
            decks = {d["p"]: d for d in db.table(DECKS).search(Q.e == event_id)}
            pods = sorted((dict(d, id=d.doc_id) for d in db.table(PODS).search(Q.e == event_id)), key=lambda d: d["number"])
            rounds = sorted((dict(d, id=d.doc_id) for d in db.table(ROUNDS).search(Q.e == event_id)), key=lambda d: d["number"])
            results = [dict(d) for d in db.table(RESULTS).search(Q.e == event_id)]
            records = {pod["number"]: db.table(DRAFTS).get(doc_id=pod["draft"]) for pod in pods if pod.get("draft")}
        picks = {}
        for number, record in records.items():
            picks[number] = None if record is None else current(record, read_journal(self.store, record.doc_id, record))["status"]
        for player in players:
            player["pool_size"] = len(pools[player["id"]]["cards"]) if player["id"] in pools else None
            player["pool_warning"] = None if player["pool_size"] is None else pool_warning(event, player["pool_size"])
            deck = decks.get(player["id"])
            player["deck"] = None if deck is None else {"valid": deck["valid"], "problems": deck["problems"],
                                                        "commanders": deck["deck"].get("commanders", [])}
        return {"event": event, "players": players, "pods": pods, "rounds": rounds, "results": results, "drafts": picks}

    # --- creating and registering ---------------------------------------------------------------------

    def create(self, name: str, *, date: str | None = None, set_code: str = "CMR", mode: str = "draft",
               style: str = "physical", pod_size: int = MAX_POD, game_size: int = 4, one_v_one: bool = False,
               timer: int = 0, points: str = "3,2,1,0", piper_stock: int = 0, seed: int | None = None) -> int:
        if not name.strip():
            raise InputError("an event needs a name")
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
            self._hand_dropped_seats_to_bots(event_id, pod)
        return dict(player, status="dropped", had_deck=had_deck)

    def _hand_dropped_seats_to_bots(self, event_id: int, pod: dict[str, Any]) -> None:
        with self.store.read() as db:
            dropped = {p.doc_id for p in self._players(db, event_id) if p["status"] == "dropped"}
        session = TableSession.load(self.store, pod["draft"])
        for seat, pid in enumerate(pod["players"]):
            if pid in dropped and seat in session.humans:
                session.hand_to_bot(seat)
        self.after_picks(event_id, pod["number"], session)

    # --- seating and drafting --------------------------------------------------------------------------

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

    def start_draft(self, event_id: int) -> list[int]:
        """Start the event's drafts (or open sealed pools); returns the draft ids of digital pods.

        The drafts are dealt outside the lock (seeded, so every terminal deals the same ones), then
        saved with the pods' links and the new status in one transaction that first checks the
        event is still seated: two terminals starting at once make one draft per pod, and both
        get the same draft ids.
        """
        with self.store.read() as db:
            event = self._event(db, event_id)
            players = {p.doc_id: p for p in self._players(db, event_id)}
            pods = sorted(db.table(PODS).search(Q.e == event_id), key=lambda d: d["number"])
        if event["mode"] == "sealed":
            self._require(event, "registration", doing="open sealed pools")
            return self._open_sealed(event_id, event)
        if event["status"] in ("drafting", "building") and event["style"] != "physical":
            return [pod["draft"] for pod in pods if pod.get("draft")]  # another terminal started it
        self._require(event, "seated", doing="start the draft")
        sessions: dict[int, TableSession] = {}
        if event["style"] in ("terminal", "bots"):
            for pod in pods:
                seats = len(pod["players"])
                if seats < 2:
                    raise StateError(f"pod {pod['number']} has fewer than 2 players; can't draft it")
                names = [players[pid]["name"] for pid in pod["players"]]
                humans = [] if event["style"] == "bots" else [
                    s for s, pid in enumerate(pod["players"]) if not players[pid]["bot"] and players[pid]["status"] == "active"]
                sessions[pod["number"]] = TableSession.prepare(
                    self.store, kind="event", seed=event["seed"] * 100 + pod["number"],
                    config=DraftConfig(seats=seats, set_code=event["set"]), humans=humans, names=names,
                    timer=event["timer"] or None, extra={"event": event_id, "pod": pod["number"]})
        with self.store.write() as db:
            event = self._event(db, event_id)
            pods = sorted(db.table(PODS).search(Q.e == event_id), key=lambda d: d["number"])
            if event["status"] != "seated":
                if event["status"] in ("drafting", "building") and event["style"] != "physical":
                    return [pod["draft"] for pod in pods if pod.get("draft")]
                self._require(event, "seated", doing="start the draft")
            phase_change(db)
            draft_ids = []
            for pod in pods:
                session = sessions.get(pod["number"])
                if session is None:
                    continue
                if pod.get("draft"):  # saved by a schema-1 cmdraft that was interrupted
                    draft_ids.append(pod["draft"])
                    continue
                draft_ids.append(session.insert(db))
                db.table(PODS).update({"draft": session.draft_id}, doc_ids=[pod.doc_id])
            db.table(EVENTS).update({"status": "drafting"}, doc_ids=[event_id])
            for pod in db.table(PODS).search(Q.e == event_id):
                self._settle_pod(db, event_id, pod)
            self._finish_drafting_if_done(db, event_id)
        return draft_ids

    def _open_sealed(self, event_id: int, event: dict[str, Any]) -> list[int]:
        spec = booster_spec(event["set"])
        rng = random.Random(event["seed"])
        with self.store.write() as db:
            for player in self._players(db, event_id, active_only=True):
                if db.table(POOLS).get((Q.e == event_id) & (Q.p == player.doc_id)):
                    continue
                boosters = sealed_pool(spec, rng)
                cards = [card_ref(p, event["set"]) for b in boosters for p in b.printings]
                db.table(POOLS).insert({"e": event_id, "p": player.doc_id, "cards": cards, "source": "sealed"})
            phase_change(db)
            db.table(EVENTS).update({"status": "building"}, doc_ids=[event_id])
        return []

    def draft_session(self, event_id: int, pod_number: int) -> TableSession:
        with self.store.read() as db:
            pod = db.table(PODS).get((Q.e == event_id) & (Q.number == pod_number))
        if pod is None:
            raise InputError(f"no pod {pod_number} in event {event_id}")
        if not pod.get("draft"):
            raise StateError(f"pod {pod_number} has no digital draft; start it with 'cmdraft event draft {event_id}'")
        return TableSession.load(self.store, pod["draft"])

    def after_picks(self, event_id: int, pod_number: int, session: TableSession | None = None) -> bool:
        """Once a pod's draft is over: fold its picks into the database, record its pools and move
        the event on when every pod is done — one transaction.  True when the pools are recorded.

        A caller that holds the pod's session passes it, so an unfinished draft isn't loaded again.
        """
        if session is not None and not session.draft.finished:
            return False
        with self.store.write() as db:
            pod = db.table(PODS).get((Q.e == event_id) & (Q.number == pod_number))
            if pod is None or not pod.get("draft"):
                raise StateError(f"pod {pod_number} has no digital draft; start it with 'cmdraft event draft {event_id}'")
            done = self._settle_pod(db, event_id, pod)
            self._finish_drafting_if_done(db, event_id)
        return done

    def _settle_pod(self, db, event_id: int, pod: dict[str, Any]) -> bool:
        """Inside a transaction: a finished pod draft gets its picks folded and its pools recorded."""
        if not pod.get("draft"):
            return False
        draft = fold(self.store, db, pod["draft"])
        if draft is None:
            return False
        event = self._event(db, event_id)
        for seat, pid in enumerate(pod["players"]):
            if db.table(POOLS).get((Q.e == event_id) & (Q.p == pid)):
                continue
            cards = [card_ref(p, event["set"]) for p in draft.pools[seat]]
            db.table(POOLS).insert({"e": event_id, "p": pid, "cards": cards, "source": "draft"})
        if pod.get("opened") is None:
            opened = sum(1 for row in draft.boosters for b in row for p in b.printings if is_piper(p.card))
            db.table(PODS).update({"opened": opened}, doc_ids=[pod.doc_id])
        return True

    def _finish_drafting_if_done(self, db, event_id: int) -> None:
        """Inside a transaction: a drafting event whose active players all have pools moves to building."""
        event = self._event(db, event_id)
        if event["status"] != "drafting":
            return
        active = self._players(db, event_id, active_only=True)
        have = {d["p"] for d in db.table(POOLS).search(Q.e == event_id)}
        if all(p.doc_id in have for p in active):
            phase_change(db)
            db.table(EVENTS).update({"status": "building"}, doc_ids=[event_id])

    def recover(self) -> list[int]:
        """Finish what an interrupted command left in drafting events: seats of dropped players go
        to bots, finished pod drafts get their pools, and an event whose pods are all done moves to
        building.  Every event command runs this first; a read-only database is left as it is.
        Returns the events that moved on."""
        if not self.store.writable():
            return []
        with self.store.read() as db:
            drafting = [doc.doc_id for doc in db.table(EVENTS).search(Q.status == "drafting")]
            if not drafting:
                return []
            stranded, settle = [], False
            for event_id in drafting:
                players = self._players(db, event_id)
                dropped = {p.doc_id for p in players if p["status"] == "dropped"}
                have = {d["p"] for d in db.table(POOLS).search(Q.e == event_id)}
                settle = settle or all(p.doc_id in have for p in players if p["status"] == "active")
                for pod in db.table(PODS).search(Q.e == event_id):
                    record = db.table(DRAFTS).get(doc_id=pod["draft"]) if pod.get("draft") else None
                    if record is None:
                        continue
                    doc = current(record, read_journal(self.store, record.doc_id, record))
                    if any(pid in dropped and seat in doc["humans"] for seat, pid in enumerate(pod["players"])):
                        stranded.append((event_id, dict(pod)))
                    settle = settle or (doc["status"] != "drafting" and not set(pod["players"]) <= have)
        for event_id, pod in stranded:
            self._hand_dropped_seats_to_bots(event_id, pod)
        if not (stranded or settle):
            return []
        moved = []
        with self.store.write() as db:
            for event_id in drafting:
                for pod in db.table(PODS).search(Q.e == event_id):
                    self._settle_pod(db, event_id, pod)
                self._finish_drafting_if_done(db, event_id)
                if self._event(db, event_id)["status"] != "drafting":
                    moved.append(event_id)
        return moved

    def _pool_target(self, db, event_id: int, who: str | int, replace: bool):
        event = self._event(db, event_id)
        self._require(event, "drafting", "building", "seated", "registration", "playing", doing="record a pool")
        if event["mode"] == "draft" and event["status"] in ("registration",):
            raise StateError("seat the players before recording draft pools")
        player = self._player(db, event_id, who)
        if player["status"] == "dropped":
            raise StateError(f"{player['name']} has dropped; their pool can't be recorded")
        existing = db.table(POOLS).get((Q.e == event_id) & (Q.p == player.doc_id))
        if existing and not replace:
            raise StateError(f"{player['name']} already has a pool recorded; use --replace to record it again")
        return event, player, existing

    def check_pool_entry(self, event_id: int, who: str | int, replace: bool = False) -> dict[str, Any]:
        """The checks of ``record_pool`` before a pool is typed (so no typing is lost to a refusal); returns the event."""
        with self.store.read() as db:
            return dict(self._pool_target(db, event_id, who, replace)[0])

    def record_pool(self, event_id: int, who: str, deck_file: DeckFile, replace: bool = False) -> tuple[int, list[str]]:
        """A player's pool from a file or typed lines (physical drafts, sealed pools opened at the table).

        Returns the player number and warnings: a pool that is not the full size is recorded, with a
        warning that the board keeps showing until the pool is recorded again."""
        deck, problems = resolve(deck_file, self.index)
        if not deck.lines and not problems:
            raise InputError("the pool has no cards: give a pool file, or type one card a line")
        if problems:
            raise InputError("the pool has unreadable lines: " + "; ".join(p.message for p in problems[:5]) +
                             (f" (and {len(problems) - 5} more)" if len(problems) > 5 else "") + "; fix them and record it again")
        with self.store.write() as db:
            event, player, existing = self._pool_target(db, event_id, who, replace)
            cards = [card_ref(Printing(line.card, "", line.foil, line.etched), event["set"])
                     for line in deck.lines for _ in range(line.count)]
            doc = {"e": event_id, "p": player.doc_id, "cards": cards, "source": "recorded"}
            if existing:
                db.table(POOLS).update(doc, doc_ids=[existing.doc_id])
            else:
                db.table(POOLS).insert(doc)
            if event["status"] == "seated" and event["style"] == "physical":
                phase_change(db)
                db.table(EVENTS).update({"status": "drafting"}, doc_ids=[event_id])
            self._finish_drafting_if_done(db, event_id)
        warning = pool_warning(event, len(cards))
        return player.doc_id, [f"{player['name']}'s pool has {warning}"] if warning else []

    def pool(self, event_id: int, who: str | int) -> list[Printing]:
        with self.store.read() as db:
            event = self._event(db, event_id)
            player = self._player(db, event_id, who)
            doc = db.table(POOLS).get((Q.e == event_id) & (Q.p == player.doc_id))
        if doc is None:
            raise StateError(f"{player['name']} has no pool recorded yet")
        return [card_from_ref(ref, event["set"]) for ref in doc["cards"]]

    # --- the Piper ledger ---------------------------------------------------------------------------------

    def set_pipers(self, event_id: int, *, stock: int | None = None, opened: dict[int, int] | None = None,
                   requests: dict[str, int] | None = None) -> None:
        with self.store.write() as db:
            event = self._event(db, event_id)
            self._require(event, *STATUSES[:-1], doing="change the Piper ledger")
            if stock is not None:
                if stock < 0:
                    raise InputError("the store's Piper stock can't be negative")
                db.table(EVENTS).update({"piper_stock": stock}, doc_ids=[event_id])
            for number, count in (opened or {}).items():
                pod = db.table(PODS).get((Q.e == event_id) & (Q.number == number))
                if pod is None:
                    raise InputError(f"no pod {number} in event {event_id}")
                if count < 0:
                    raise InputError("Pipers opened can't be negative")
                db.table(PODS).update({"opened_typed": count}, doc_ids=[pod.doc_id])
            for who, count in (requests or {}).items():
                if not 0 <= count <= 2:
                    raise InputError(f"a player may add 0 to 2 Pipers, not {count}")
                player = self._player(db, event_id, who)
                db.table(PLAYERS).update({"requested": count}, doc_ids=[player.doc_id])

    def piper_ledger(self, event_id: int) -> dict[str, Any]:
        """The Piper ledger, from what is recorded.

        - Opened: the Pipers in each pod's recorded pools (a typed ``--opened`` count that disagrees is flagged).
        - Needed: the Pipers registered decks add (a deck's Pipers beyond the ones in its owner's pool).
        - Unused: Pipers in pools that their owner's deck doesn't use (every one, before the deck is registered).
        - Shortfall: only when needed exceeds unused plus the store's stock; lenders hold unused Pipers.
        - Forecast: requests made before deck building (``--request``), shown apart from the decks' needs.
        """
        snap = self.snapshot(event_id)
        event = snap["event"]
        with self.store.read() as db:
            pools = {d["p"]: d["cards"] for d in db.table(POOLS).search(Q.e == event_id)}
            decks = {d["p"]: d["deck"] for d in db.table(DECKS).search(Q.e == event_id)}
        piper_number = next((c.number for c in load_set(event["set"]) if c.name == PIPER), None)

        def owned_by(pid: int) -> int:
            return sum(1 for ref in pools.get(pid, []) if ref.partition("*")[0] == piper_number)

        def used_by(deck: dict[str, Any]) -> int:
            return sum(line.get("count", 1) for zone in ("commanders", "main") for line in deck.get(zone, []) if line["name"] == PIPER)

        lenders, needs = [], []
        unused = 0
        requested = own_cover = forecast_spare = 0
        for player in snap["players"]:
            pid, active = player["id"], player["status"] == "active"
            owned = owned_by(pid)
            deck = decks.get(pid)
            used = used_by(deck) if deck and active else 0
            if deck and active and used:
                needs.append({"player": player["name"], "owned": owned, "used": used, "added": max(0, used - owned)})
            spare = max(0, owned - used)
            unused += spare
            if spare:
                lenders.append({"player": player["name"], "pod": player.get("pod"), "spare": spare, "deck_registered": bool(deck),
                                "dropped": not active})
            if active:  # the forecast from requests, as before deck building
                requested += player["requested"]
                own_cover += min(owned, player["requested"])
                forecast_spare += max(0, owned - (used if deck else player["requested"]))
            else:
                forecast_spare += owned
        needed = sum(n["added"] for n in needs)
        available = unused + event["piper_stock"]
        pods = []
        for pod in snap["pods"]:
            recorded = [pid for pid in pod["players"] if pid in pools]
            counted = sum(owned_by(pid) for pid in recorded) if recorded else None
            typed = pod.get("opened_typed", None if pod.get("draft") else pod.get("opened"))
            pods.append({"pod": pod["number"], "opened": counted, "pools_recorded": len(recorded), "seats": len(pod["players"]),
                         "typed": typed, "disagrees": typed is not None and counted is not None and typed != counted})
        forecast_needed = requested - own_cover
        forecast_available = forecast_spare + event["piper_stock"]
        return {"pods": pods, "held_in_pools": sum(owned_by(pid) for pid in pools), "stock": event["piper_stock"],
                "decks": needs, "needed": needed, "unused": unused, "available": available,
                "shortfall": max(0, needed - available), "lenders": lenders,
                "forecast": {"requested": requested, "needed_from_others": forecast_needed, "available": forecast_available,
                             "shortfall": max(0, forecast_needed - forecast_available),
                             "requests": [{"player": p["name"], "requested": p["requested"]} for p in snap["players"]
                                          if p["requested"] and p["status"] == "active"]}}

    # --- decks ------------------------------------------------------------------------------------------------

    def register_deck(self, event_id: int, who: str, deck_file: DeckFile | None = None, *, auto: bool = False,
                      piper_colors: Sequence[Color] | None = None) -> dict[str, Any]:
        from draft.deckbuild import build_deck
        from draft.sim import piper_card

        with self.store.read() as db:
            event = self._event(db, event_id)
            player = self._player(db, event_id, who)
        self._require(event, "building", "playing", doing="register decks")
        if player["status"] == "dropped":
            raise StateError(f"{player['name']} has dropped; their deck can't be registered")
        pool = self.pool(event_id, player.doc_id)
        extra = []
        if auto:
            deck = build_deck(pool, piper_card(event["set"]), player["name"])
        else:
            if deck_file is None:
                raise InputError("give a deck file, or --auto to let the bot build one")
            deck, extra = resolve(deck_file, self.index)
        report = validate(deck, [p.card for p in pool], DeckFormat.COMMANDER_DRAFT, piper_colors, (), extra)
        deck = deck.with_piper_colors(report.piper_colors)
        doc = {"e": event_id, "p": player.doc_id, "deck": json.loads(write_json(deck)), "valid": report.valid,
               "problems": [p.to_json() for p in report.problems],
               "at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")}
        with self.store.write() as db:
            self._require(self._event(db, event_id), "building", "playing", doing="register decks")
            if db.table(PLAYERS).get(doc_id=player.doc_id)["status"] == "dropped":
                raise StateError(f"{player['name']} has dropped; their deck can't be registered")
            existing = db.table(DECKS).get((Q.e == event_id) & (Q.p == player.doc_id))
            if existing:
                db.table(DECKS).update(doc, doc_ids=[existing.doc_id])
            else:
                db.table(DECKS).insert(doc)
        return {"player": player["name"], **report.to_json()}

    def deck_of(self, event_id: int, player_id: int):
        with self.store.read() as db:
            doc = db.table(DECKS).get((Q.e == event_id) & (Q.p == player_id))
        if doc is None:
            return None
        deck, _ = resolve(parse_json(json.dumps(doc["deck"])), self.index)
        return deck

    # --- rounds, results, standings ------------------------------------------------------------------------

    def new_round(self, event_id: int, force: bool = False) -> dict[str, Any]:
        with self.store.write() as db:
            event = self._event(db, event_id)
            self._require(event, "building", "playing", doing="start a round")
            rounds = sorted(db.table(ROUNDS).search(Q.e == event_id), key=lambda d: d["number"])
            if rounds and rounds[-1]["status"] != "closed":
                raise StateError(f"round {rounds[-1]['number']} still has tables without results; record them first")
            # Bots fill draft seats only: they are never paired and need no deck.
            active = [p for p in self._players(db, event_id, active_only=True) if not p.get("bot")]
            decks = {d["p"]: d for d in db.table(DECKS).search(Q.e == event_id)}
            missing = [p["name"] for p in active if p.doc_id not in decks or not decks[p.doc_id]["valid"]]
            if missing and not force:
                raise StateError("no legal deck registered for " + ", ".join(missing) + "; register them or use --force")
            number = len(rounds) + 1
            sizes = game_table_sizes(len(active), event["game_size"], event["one_v_one"])
            rng = random.Random(event["seed"] * 1000 + number)
            ids = [p.doc_id for p in active]
            if number == 1:
                rng.shuffle(ids)
                tables = []
                start = 0
                for size in sizes:
                    tables.append(ids[start:start + size])
                    start += size
            else:
                results = db.table(RESULTS).search(Q.e == event_id)
                totals = self._points(event, results)
                met = self._meetings(rounds)
                tables = pair_by_points(ids, totals, met, sizes, rng)
            phase_change(db)
            # The first player of each table, drawn now (seeded) and recorded with the round.
            first = [table[rng.randrange(len(table))] for table in tables]
            db.table(ROUNDS).insert({"e": event_id, "number": number, "tables": tables, "first": first, "status": "open"})
            db.table(EVENTS).update({"status": "playing"}, doc_ids=[event_id])
            names = {p.doc_id: p["name"] for p in active}
        return {"round": number, "tables": [[names[pid] for pid in table] for table in tables],
                "first": [names[pid] for pid in first]}

    @staticmethod
    def _meetings(rounds) -> Counter:
        met: Counter = Counter()
        for rnd in rounds:
            for table in rnd["tables"]:
                for a in table:
                    for b in table:
                        if a != b:
                            met[(a, b)] += 1
        return met

    @staticmethod
    def placement_points(event: dict[str, Any], order: Sequence[Sequence[int]]) -> dict[int, Fraction]:
        points = [exact(p) for p in event["points"]]
        awarded: dict[int, Fraction] = {}
        place = 0
        for group in order:
            covered = [points[i] if i < len(points) else points[-1] for i in range(place, place + len(group))]
            share = sum(covered, Fraction(0)) / len(covered)
            for pid in group:
                awarded[pid] = share
            place += len(group)
        return awarded

    def _points(self, event, results) -> Counter:
        totals: Counter = Counter()
        for result in results:
            for pid, points in self.placement_points(event, result["order"]).items():
                totals[pid] += points
        return totals

    def record_result(self, event_id: int, round_number: int, table_number: int, order_text: str, replace: bool = False) -> dict[str, Any]:
        with self.store.write() as db:
            event = self._event(db, event_id)
            # A round or table that does not exist is bad input (2) in every state; then the state (3).
            rnd = db.table(ROUNDS).get((Q.e == event_id) & (Q.number == round_number))
            if rnd is None:
                raise InputError(f"no round {round_number} in event {event_id}")
            if not 1 <= table_number <= len(rnd["tables"]):
                raise InputError(f"round {round_number} has tables 1 to {len(rnd['tables'])}, not {table_number}")
            if event["status"] == "finished":
                raise StateError("the event is finished; results can't change")
            later = db.table(ROUNDS).get((Q.e == event_id) & (Q.number == round_number + 1))
            if later is not None:
                raise StateError(f"round {round_number + 1} has started; results of round {round_number} can no longer change")
            if rnd["status"] == "closed" and not replace:
                raise StateError(f"round {round_number} is finished; use --replace to correct a result")
            if not 1 <= table_number <= len(rnd["tables"]):
                raise InputError(f"round {round_number} has tables 1 to {len(rnd['tables'])}, not {table_number}")
            table = rnd["tables"][table_number - 1]
            order = self._parse_order(db, event_id, order_text, table)
            existing = db.table(RESULTS).get((Q.e == event_id) & (Q.round == round_number) & (Q.table == table_number))
            if existing and not replace:
                raise StateError(f"table {table_number} of round {round_number} already has a result; use --replace to correct it")
            doc = {"e": event_id, "round": round_number, "table": table_number, "order": order}
            if existing:
                db.table(RESULTS).update(doc, doc_ids=[existing.doc_id])
            else:
                db.table(RESULTS).insert(doc)
            done = {r["table"] for r in db.table(RESULTS).search((Q.e == event_id) & (Q.round == round_number))}
            if done >= set(range(1, len(rnd["tables"]) + 1)):
                db.table(ROUNDS).update({"status": "closed"}, doc_ids=[rnd.doc_id])
            awarded = self.placement_points(event, order)
            names = {p.doc_id: p["name"] for p in self._players(db, event_id)}
        return {"round": round_number, "table": table_number, "points": {names[pid]: pts for pid, pts in awarded.items()}}

    def _parse_order(self, db, event_id: int, text: str, table: list[int]) -> list[list[int]]:
        """``Alice > Bob = Carol > Dave``: finishing order, ``=`` for a draw; names (quoted when they hold
        ``>``, ``=`` or quotes) or ``#N`` player numbers."""
        groups = []
        for part in split_order(text):
            group = []
            for name in part:
                player = self._player(db, event_id, name)
                if player.doc_id not in table:
                    raise InputError(f"{player['name']} is not at this table")
                group.append(player.doc_id)
            groups.append(group)
        listed = [pid for group in groups for pid in group]
        if sorted(listed) != sorted(table):
            missing = [pid for pid in table if pid not in listed]
            names = {p.doc_id: p["name"] for p in self._players(db, event_id)}
            raise InputError("the result must name every player at the table once"
                             + (f"; missing {', '.join(names[m] for m in missing)}" if missing else "; someone is named twice"))
        return groups

    def standings(self, event_id: int) -> list[Standing]:
        with self.store.read() as db:
            event = self._event(db, event_id)
            players = self._players(db, event_id)
            results = db.table(RESULTS).search(Q.e == event_id)
            rounds = db.table(ROUNDS).search(Q.e == event_id)
        totals = self._points(event, results)
        played: Counter = Counter()
        places: dict[int, list[int]] = defaultdict(list)
        opponents: dict[int, list[int]] = defaultdict(list)
        tables = {(r["number"], i + 1): table for r in rounds for i, table in enumerate(r["tables"])}
        for result in results:
            place = 1
            for group in result["order"]:
                for pid in group:
                    played[pid] += 1
                    places[pid].append(place)
                place += len(group)
            table = tables.get((result["round"], result["table"]), [])
            for pid in table:
                opponents[pid] += [other for other in table if other != pid]
        def per_round(pid: int) -> Fraction:
            return totals[pid] / played[pid] if played[pid] else Fraction(0)
        rows = []
        for player in players:
            if player.get("bot"):
                continue  # a bot filled a draft seat; it plays no games and has no standing
            pid = player.doc_id
            opp = opponents[pid]
            rows.append(Standing(pid, player["name"], Fraction(totals[pid]),
                                 sum((per_round(o) for o in opp), Fraction(0)) / len(opp) if opp else Fraction(0),
                                 Fraction(sum(places[pid]), len(places[pid])) if places[pid] else None, played[pid],
                                 player["status"] == "dropped"))
        return rank_standings(rows)

    def finish(self, event_id: int) -> None:
        with self.store.write() as db:
            event = self._event(db, event_id)
            self._require(event, "playing", "building", doing="finish the event")
            rounds = db.table(ROUNDS).search(Q.e == event_id)
            if any(r["status"] != "closed" for r in rounds):
                raise StateError("a round still has tables without results; record them before finishing")
            phase_change(db)
            db.table(EVENTS).update({"status": "finished"}, doc_ids=[event_id])

    # --- game tracker ------------------------------------------------------------------------------------------

    @staticmethod
    def _commander_names(db, event_id: int, player_id: int) -> list[str]:
        """A player's commanders as registered with their deck, one entry per card (two Pipers: two entries)."""
        doc = db.table(DECKS).get((Q.e == event_id) & (Q.p == player_id))
        if doc is None:
            return []
        return [line["name"] for line in doc["deck"].get("commanders", []) for _ in range(int(line.get("count", 1)))]

    @staticmethod
    def find_commander(player_name: str, commanders: list[str], text: str) -> tuple[str, int]:
        """``Piper`` or ``Piper#2`` among a player's commanders: (card name, which copy, from 1)."""
        body, sep, number = text.strip().rpartition("#")
        if not sep or not is_number(number):
            body, number = text.strip(), ""
        body = body.strip()
        names = list(dict.fromkeys(commanders))
        if not names:
            raise InputError(f"{player_name} has no registered deck, so no commanders to track; register the deck first")
        folded = body.casefold()
        matches = [n for n in names if n.casefold() == folded] or [n for n in names if folded and folded in n.casefold()]
        if not matches:
            raise InputError(f"{player_name} has no commander {body!r}; their commanders: {', '.join(names)}")
        if len(matches) > 1:
            raise InputError(f"{body!r} could be {' or '.join(matches)}: give more of the name")
        name = matches[0]
        copies = commanders.count(name)
        if number:
            copy = parse_int(number, f"commander number in {text!r}")
            if not 1 <= copy <= copies:
                raise InputError(f"{player_name} has {copies} {name} as commander{'s' if copies > 1 else ''}, not a #{copy}")
        elif copies > 1:
            raise InputError(f"{player_name} has {copies} {name} as commanders: say which, "
                             + " or ".join(f"{body}#{i}" for i in range(1, copies + 1)))
        else:
            copy = 1
        return name, copy

    @staticmethod
    def _game_state(doc: dict[str, Any] | None, event_id: int, round_number: int, table_number: int,
                    table: list[int]) -> dict[str, Any]:
        """The tracker's record; one written before commanders were told apart (``damage``/``tax`` keyed by
        card name alone) is read with those entries kept under an unknown source."""
        if doc is None:
            return {"e": event_id, "round": round_number, "table": table_number,
                    "life": {str(pid): STARTING_LIFE for pid in table}, "hits": [], "casts": []}
        state = {k: v for k, v in dict(doc).items() if k not in ("damage", "tax")}
        state["life"] = dict(doc.get("life") or {})
        for pid in table:
            state["life"].setdefault(str(pid), STARTING_LIFE)
        state["hits"] = [dict(h) for h in doc.get("hits", [])] + [
            {"to": int(victim), "from": None, "commander": name, "copy": None, "amount": amount}
            for victim, hits in (doc.get("damage") or {}).items() for name, amount in hits.items()]
        state["casts"] = [dict(c) for c in doc.get("casts", [])] + [
            {"p": int(pid), "commander": name, "copy": None, "count": count}
            for pid, taxes in (doc.get("tax") or {}).items() for name, count in taxes.items()]
        return state

    def game(self, event_id: int, round_number: int, table_number: int, *, life: dict[str, int] | None = None,
             damage: list[tuple[str, str, str, int]] | None = None, casts: list[tuple[str, str]] | None = None) -> dict[str, Any]:
        """Life (from 40), commander damage and commander tax at one table, per commander (CR 903.10a, 903.8).

        ``damage`` holds (victim, source player, commander, amount): damage is kept per victim, source
        player and which of that player's commanders dealt it, so two Pipers at one seat, or the same
        card at two seats, are different commanders.  ``casts`` holds (player, commander): each cast
        from the command zone adds {2} to that commander's next cast.
        """
        changing = bool(life or damage or casts)
        with self.store.write() as db:
            event = self._event(db, event_id)
            rnd = db.table(ROUNDS).get((Q.e == event_id) & (Q.number == round_number))
            if rnd is None:
                raise InputError(f"no round {round_number} in event {event_id}")
            if not 1 <= table_number <= len(rnd["tables"]):
                raise InputError(f"round {round_number} has tables 1 to {len(rnd['tables'])}, not {table_number}")
            if changing and event["status"] == "finished":
                raise StateError("the event is finished; its games can't change")
            if changing and rnd["status"] == "closed":
                raise StateError(f"round {round_number} is closed (every result is recorded); its games can't change")
            table = rnd["tables"][table_number - 1]
            key = (Q.e == event_id) & (Q.round == round_number) & (Q.table == table_number)
            doc = db.table(GAMES).get(key)
            state = self._game_state(doc, event_id, round_number, table_number, table)
            names = {p.doc_id: p["name"] for p in self._players(db, event_id)}

            def at_table(name: str) -> int:
                player = self._player(db, event_id, name)
                if player.doc_id not in table:
                    raise InputError(f"{player['name']} is not at table {table_number} of round {round_number}")
                return player.doc_id

            commanders = {pid: self._commander_names(db, event_id, pid) for pid in table}
            for name, delta in (life or {}).items():
                state["life"][str(at_table(name))] += delta
            for victim, source, commander, amount in damage or []:
                if amount < 0:
                    raise InputError("commander damage can't be negative")
                to, frm = at_table(victim), at_table(source)
                card, copy = self.find_commander(names[frm], commanders[frm], commander)
                hit = next((h for h in state["hits"] if (h["to"], h["from"], h["commander"], h["copy"]) == (to, frm, card, copy)), None)
                if hit is None:
                    hit = {"to": to, "from": frm, "commander": card, "copy": copy, "amount": 0}
                    state["hits"].append(hit)
                hit["amount"] += amount
                state["life"][str(to)] -= amount
            for name, commander in casts or []:
                pid = at_table(name)
                card, copy = self.find_commander(names[pid], commanders[pid], commander)
                cast = next((c for c in state["casts"] if (c["p"], c["commander"], c["copy"]) == (pid, card, copy)), None)
                if cast is None:
                    cast = {"p": pid, "commander": card, "copy": copy, "count": 0}
                    state["casts"].append(cast)
                cast["count"] += 1
            if changing:
                if doc:
                    db.table(GAMES).remove(doc_ids=[doc.doc_id])
                db.table(GAMES).insert(state)

        def label(source: int | None, card: str, copy: int | None, owner: int) -> str:
            several = copy is not None and commanders.get(owner, []).count(card) > 1
            mark = f" #{copy}" if several else ""
            return (f"{names[source]}: " if source is not None else "") + card + mark + ("" if copy is not None else " (source not recorded)")

        board = []
        for pid in table:
            hits = [h for h in state["hits"] if h["to"] == pid]
            own = [c for c in state["casts"] if c["p"] == pid]
            lost = state["life"][str(pid)] <= 0 or any(h["amount"] >= COMMANDER_DAMAGE_LOSS for h in hits)
            board.append({
                "player": names[pid], "life": state["life"][str(pid)], "lost": lost,
                "commander_damage": [{"from": None if h["from"] is None else names[h["from"]], "commander": h["commander"],
                                      "copy": h["copy"], "amount": h["amount"],
                                      "label": label(h["from"], h["commander"], h["copy"], h["from"])} for h in hits],
                "tax": [{"commander": c["commander"], "copy": c["copy"], "casts": c["count"], "tax": 2 * c["count"],
                         "label": label(None, c["commander"], c["copy"], pid).replace(" (source not recorded)", "")} for c in own],
            })
        return {"round": round_number, "table": table_number, "players": board}


def split_order(text: str) -> list[list[str]]:
    """A finishing order as groups of names: ``>`` separates places, ``=`` joins a draw.

    A name in double or single quotes may hold ``>``, ``=``, commas and the other quote (a quote
    opens only where a name starts, so ``O'Brien`` needs none); a backslash inside quotes takes
    the next character literally (``"Al \\"Ace\\" Bo"``).
    """
    usage = "write the finishing order like 'Ann > Bo = Cy > Di' (quote a name that holds > or =)"
    groups: list[list[str]] = [[]]
    name: list[str] = []
    quoted = False  # the current name had a quoted part (so an empty "" is still a name given)
    index = 0

    def close() -> None:
        nonlocal name, quoted
        value = " ".join("".join(name).split())
        if not value and not quoted:
            raise InputError(f"bad result {text!r}: a place has no name; {usage}")
        groups[-1].append(value)
        name, quoted = [], False

    while index < len(text):
        ch = text[index]
        if ch in "\"'" and not quoted and not "".join(name).strip():  # a quote opens only where a name starts (O'Brien)
            end = index + 1
            part = []
            while end < len(text) and text[end] != ch:
                if text[end] == "\\" and end + 1 < len(text):
                    end += 1
                part.append(text[end])
                end += 1
            if end >= len(text):
                raise InputError(f"bad result {text!r}: a quote {ch} is not closed; {usage}")
            name.extend(part)
            quoted = True
            index = end + 1
            continue
        if ch in ">=":
            close()
            if ch == ">":
                groups.append([])
        else:
            name.append(ch)
        index += 1
    close()
    return groups


def rank_standings(rows: Sequence[Standing]) -> list[Standing]:
    """Sorted by the tie-breakers (then name); players equal on every tie-breaker share a rank (1, 2, 2, 4)."""
    ordered = sorted(rows, key=lambda s: (*s.tie_key(), s.name.casefold(), s.name))
    ranked: list[Standing] = []
    for position, row in enumerate(ordered, start=1):
        same = ranked and ranked[-1].tie_key() == row.tie_key()
        ranked.append(dc_replace(row, rank=ranked[-1].rank if same else position))
    return ranked


def pair_by_points(ids: list[int], totals: Counter, met: Counter, sizes: list[int], rng: random.Random,
                   window: int = 4) -> list[list[int]]:
    """Tables filled from the top of the standings; each seat goes to the candidate among the
    next few who has met the table's players least (random among equals)."""
    order = sorted(ids, key=lambda pid: (-totals[pid], rng.random()))
    tables = []
    for size in sizes:
        table = [order.pop(0)]
        while len(table) < size:
            candidates = order[:window]
            best = min(candidates, key=lambda pid: (sum(met[(pid, other)] for other in table), candidates.index(pid)))
            order.remove(best)
            table.append(best)
        tables.append(table)
    return tables
