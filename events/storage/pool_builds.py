"""Decks built from any pool (``cmdraft build POOL``, ``cmdraft sealed --build``), kept in the store.

A build is one ``builds`` record: where the pool came from, its cards (by set, number and
name), the deck as it stands and whether it is legal.  Opening the same pool again (the
same source and the same cards) brings the deck back as it was left; every change is saved
the moment it is made, like a practice draft's deck.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from events import timing
from events.storage.store import Store
from sets.cards import Card

BUILDS = "builds"


@dataclass
class PoolBuild:
    """A deck being built from a pool: its build record, the pool's cards, its set and seed (for sample hands);
    ``save_deck`` keeps the deck in the store."""

    store: Store
    build_id: int
    doc: dict[str, Any]
    cards: tuple[Card, ...]
    set_code: str = "CMR"
    seed: int = 0

    @property
    def saved_deck(self) -> Any:
        """The deck saved from this pool, as saved (None before one is)."""
        return self.doc.get("deck")

    @classmethod
    def open(cls, store: Store, source: str, cards: Sequence[Card], set_code: str = "CMR", seed: int = 0) -> PoolBuild:
        """The build of this pool from this source: the saved one when there is one, else a new one."""
        keys = sorted([card.set_code, card.number, card.name] for card in cards)
        with store.write() as db:
            table = db.table(BUILDS)
            found = next((doc for doc in table.all() if doc.get("source") == source and doc.get("cards") == keys), None)
            doc: dict[str, Any]
            if found is None:
                doc = {
                    "source": source,
                    "cards": keys,
                    "set": set_code,
                    "seed": seed,
                    "deck": None,
                    "deck_legal": False,
                    "status": "building",
                    "created": timing.stamp(),
                }
                build_id = table.insert(doc)
            else:
                doc, build_id = dict(found), found.doc_id
        return cls(store, build_id, doc, tuple(cards), set_code, int(doc.get("seed") or 0))

    def save_deck(self, deck_json: dict[str, Any], legal: bool, final: bool = True) -> None:
        """Keep the deck; ``final`` (the player typed 'done') marks a legal deck done."""
        self.doc.update(deck=deck_json, deck_legal=legal, status="done" if legal and final else "building")
        with self.store.write() as db:
            db.table(BUILDS).update(
                {"deck": deck_json, "deck_legal": legal, "status": self.doc["status"]}, doc_ids=[self.build_id]
            )
