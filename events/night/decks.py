"""Decks: registering a player's deck from their pool (a file, or built by the bot) and checking it."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from typing import Any

from draft.deck_rules import validate
from draft.deckbuild import build_deck
from draft.decks import DeckFormat
from draft.formats import DeckFile, parse_json, resolve, write_json
from draft.products import product
from draft.sim import piper_card
from events.night import history
from events.night.pools import Pools, check_size
from events.night.schema import DECKS, PLAYERS, POOLS, Q
from sets.colors import Color
from sets.errors import InputError, StateError


def deck_text(doc: dict[str, Any]) -> str:
    """A registered deck in a few words for the history: its commanders and whether it is legal."""
    commanders = " + ".join(line["name"] for line in doc["deck"].get("commanders", [])) or "no commander"
    return f"{commanders} ({'legal' if doc['valid'] else 'not legal'})"


class Decks(Pools):
    """Deck registration, over the pools the decks are built from."""

    def register_deck(
        self,
        event_id: int,
        who: str,
        deck_file: DeckFile | None = None,
        *,
        auto: bool = False,
        piper_colors: Sequence[Color] | None = None,
        by: str = history.DESK,
    ) -> dict[str, Any]:
        """Register a player's deck, checked against their pool; ``by`` is who registers it (the desk, or a
        player's terminal) for the event's history."""
        with self.store.read() as db:
            event = self._event(db, event_id)
            player = self._player(db, event_id, who)
            pool_doc = db.table(POOLS).get((Q.event == event_id) & (Q.player == player.doc_id))
        self._require(event, "building", "playing", doing="register decks")
        if player["status"] == "dropped":
            raise StateError(f"{player['name']} has dropped; their deck can't be registered")
        pool = self.pool(event_id, player.doc_id)
        extra = []
        if auto:
            deck = build_deck(pool, piper_card(event.set), player["name"])
        else:
            if deck_file is None:
                raise InputError("give a deck file, or --auto to let the bot build one")
            deck, extra = resolve(deck_file, self.index)
            check_size(deck, extra, f"{player['name']}'s deck")
        report = validate(
            deck, [p.card for p in pool], DeckFormat.COMMANDER_DRAFT, piper_colors, (), extra, product(event.set)
        )
        deck = deck.with_piper_colors(report.piper_colors)
        doc = {
            "event": event_id,
            "player": player.doc_id,
            "deck": json.loads(write_json(deck)),
            "valid": report.valid,
            "problems": [p.to_json() for p in report.problems],
            "at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        }
        with self.store.write() as db:
            self._require(self._event(db, event_id), "building", "playing", doing="register decks")
            if db.table(PLAYERS).get(doc_id=player.doc_id)["status"] == "dropped":
                raise StateError(f"{player['name']} has dropped; their deck can't be registered")
            # the deck was checked against the pool read above: if the pool was recorded again meanwhile,
            # that check no longer holds (checked and written in this one transaction)
            if db.table(POOLS).get((Q.event == event_id) & (Q.player == player.doc_id)) != pool_doc:
                raise StateError(
                    f"{player['name']}'s pool was recorded again while the deck was checked; register the deck again"
                )
            existing = db.table(DECKS).get((Q.event == event_id) & (Q.player == player.doc_id))
            if existing:
                db.table(DECKS).update(doc, doc_ids=[existing.doc_id])
            else:
                db.table(DECKS).insert(doc)
            history.log_change(
                db,
                event_id,
                by,
                "deck",
                None if existing is None else deck_text(existing),
                f"{player['name']}: {deck_text(doc)}",
            )
        return {"player": player["name"], **report.to_json()}

    def deck_of(self, event_id: int, player_id: int):
        with self.store.read() as db:
            doc = db.table(DECKS).get((Q.event == event_id) & (Q.player == player_id))
        if doc is None:
            return None
        deck, _ = resolve(parse_json(json.dumps(doc["deck"])), self.index)
        return deck
