"""Drafts kept in the store: solo practice and event pods share these records.

A draft is one ``drafts`` document (config, seed and every booster, once) and
one small ``picks`` row per pick (``{"d": draft id, "s": seat, "p": [positions]}``).
Loading replays the rows; each human pick and the bot picks it lets happen are
written in one transaction, so an acknowledged pick is on disk.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tinydb import Query

from draft.bots import Bot, BotStyle, card_rating
from draft.engine import Draft, DraftConfig, Pick
from draft.sim import bot_styles, run_bots
from events.store import Store
from sets.errors import InputError, StateError

DRAFTS, PICKS = "drafts", "picks"


def now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def pick_rows(draft_id: int, picks: Sequence[Pick]) -> list[dict[str, Any]]:
    return [{"d": draft_id, "s": pick.seat, "p": list(pick.positions)} for pick in picks]


def load_draft(db, draft_id: int) -> tuple[Draft, dict[str, Any]]:
    doc = db.table(DRAFTS).get(doc_id=draft_id)
    if doc is None:
        raise InputError(f"no draft {draft_id} in the database: see 'cmdraft play --list'")
    rows = sorted(db.table(PICKS).search(Query().d == draft_id), key=lambda row: row.doc_id)
    state = dict(doc["state"], picks=[[row["s"], *row["p"]] for row in rows])
    return Draft.from_json(state), dict(doc)


@dataclass
class TableSession:
    """A draft in progress with some human seats; bots take the others."""

    store: Store
    draft_id: int
    draft: Draft
    doc: dict[str, Any]
    bots: dict[int, Bot] = field(default_factory=dict)

    @property
    def humans(self) -> list[int]:
        return list(self.doc["humans"])

    @property
    def names(self) -> list[str]:
        return list(self.doc["names"])

    @classmethod
    def create(cls, store: Store, *, kind: str, seed: int, config: DraftConfig, humans: Sequence[int],
               names: Sequence[str], styles: Sequence[BotStyle] | None = None, timer: int | None = None,
               extra: dict[str, Any] | None = None) -> TableSession:
        draft = Draft.new(config, seed)
        seat_styles = bot_styles(styles, config.seats)
        state = draft.to_json()
        state.pop("picks")
        doc = {
            "kind": kind, "created": now(), "state": state, "humans": list(humans), "names": list(names),
            "styles": [style.value for style in seat_styles], "timer": timer, "status": "drafting", "deck": None,
            **(extra or {}),
        }
        session = cls(store, 0, draft, doc)
        session._make_bots()
        before = len(draft.log)
        run_bots(draft, session.bots)
        session._after_bots()
        session.doc["n"] = len(draft.log)
        with store.write() as db:
            session.draft_id = db.table(DRAFTS).insert(session.doc)
            db.table(PICKS).insert_multiple(pick_rows(session.draft_id, draft.log[before:]))
        return session

    @classmethod
    def load(cls, store: Store, draft_id: int) -> TableSession:
        with store.read() as db:
            draft, doc = load_draft(db, draft_id)
        session = cls(store, draft_id, draft, doc)
        session._make_bots()
        return session

    def _make_bots(self) -> None:
        seed = self.draft.seed or 0
        self.bots = {}
        for seat, style in enumerate(self.doc["styles"]):
            if seat in self.doc["humans"]:
                continue
            bot = Bot(BotStyle(style), seed * 1009 + seat)
            bot.remember([p.card for p in self.draft.pools[seat]])
            self.bots[seat] = bot

    def _after_bots(self) -> None:
        if self.draft.finished:
            self.doc["status"] = "building"

    def waiting_humans(self) -> list[int]:
        return [seat for seat in self.draft.waiting() if seat in self.humans]

    def pick(self, seat: int, cards: Sequence[Any]) -> Pick:
        """A human pick, then the bot picks it allows, saved in one transaction.

        Inside the transaction the draft is reloaded if another terminal picked
        meanwhile, so several terminals can share one draft without losing picks.
        """
        if seat not in self.humans:
            raise StateError(f"seat {seat + 1} is a bot seat")
        with self.store.write() as db:
            doc = db.table(DRAFTS).get(doc_id=self.draft_id)
            if doc is None:
                raise StateError(f"draft {self.draft_id} is no longer in the database")
            if doc.get("n") != len(self.draft.log):
                self.draft, _ = load_draft(db, self.draft_id)
                self._make_bots()
            before = len(self.draft.log)
            record = self.draft.pick(seat, cards)
            run_bots(self.draft, self.bots)
            self._after_bots()
            db.table(PICKS).insert_multiple(pick_rows(self.draft_id, self.draft.log[before:]))
            db.table(DRAFTS).update({"n": len(self.draft.log), "status": self.doc["status"]}, doc_ids=[self.draft_id])
        return record

    def hand_to_bot(self, seat: int) -> None:
        """A human seat becomes a bot seat (the player dropped); the bots catch up at once."""
        with self.store.write() as db:
            self.draft, self.doc = load_draft(db, self.draft_id)
            self.doc["humans"] = [s for s in self.doc["humans"] if s != seat]
            self._make_bots()
            before = len(self.draft.log)
            run_bots(self.draft, self.bots)
            self._after_bots()
            db.table(PICKS).insert_multiple(pick_rows(self.draft_id, self.draft.log[before:]))
            db.table(DRAFTS).update({"humans": self.doc["humans"], "n": len(self.draft.log), "status": self.doc["status"]},
                                    doc_ids=[self.draft_id])

    def refresh(self) -> None:
        """Catch up with picks made at other terminals."""
        with self.store.read() as db:
            doc = db.table(DRAFTS).get(doc_id=self.draft_id)
            if doc is not None and doc.get("n") != len(self.draft.log):
                self.draft, self.doc = load_draft(db, self.draft_id)
                self._make_bots()

    def suggested_pick(self, seat: int) -> list[int]:
        """The cards the bot rating would take for this seat (used when a pick timer runs out)."""
        pack = self.draft.pack(seat)
        ranked = sorted(range(len(pack)), key=lambda i: -card_rating(pack[i].card))
        return ranked[: self.draft.picks_due(seat)]

    def set_timer(self, seconds: int | None) -> None:
        """A new pick timer for the rest of the draft (seconds for a full pack)."""
        self.doc["timer"] = seconds
        with self.store.write() as db:
            db.table(DRAFTS).update({"timer": seconds}, doc_ids=[self.draft_id])

    def save_deck(self, deck_json: dict[str, Any], legal: bool, final: bool = True) -> None:
        """Keep the deck; ``final`` (the player typed 'done') marks a legal deck's draft done."""
        self.doc["deck"] = deck_json
        self.doc["deck_legal"] = legal
        self.doc["status"] = "done" if legal and final else "building"
        with self.store.write() as db:
            db.table(DRAFTS).update({"deck": deck_json, "deck_legal": legal, "status": self.doc["status"]}, doc_ids=[self.draft_id])


def list_drafts(store: Store, kind: str | None = None) -> list[dict[str, Any]]:
    with store.read() as db:
        counts: dict[int, int] = {}
        for row in db.table(PICKS).all():
            counts[row["d"]] = counts.get(row["d"], 0) + 1
        out = []
        for doc in db.table(DRAFTS).all():
            if kind is not None and doc.get("kind") != kind:
                continue
            config = doc["state"]["config"]
            out.append({"id": doc.doc_id, "kind": doc.get("kind"), "created": doc.get("created"), "status": doc.get("status"),
                        "seed": doc["state"].get("seed"), "seats": config["seats"], "set": config["set"],
                        "picks": counts.get(doc.doc_id, 0), "humans": [doc["names"][s] for s in doc["humans"]]})
    return out
