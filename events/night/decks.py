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
from events import timing
from events.night import history
from events.night.pipers import owned_in, piper_number, stock_left, stock_note, used_in
from events.night.pools import Pools, check_size
from events.night.refusals import DESK, Actor, LimitExceeded, PhaseOver
from events.night.schema import DECKS, EVENTS, PLAYERS, POOLS, ROUNDS, Q
from sets.colors import Color
from sets.errors import InputError, StateError


def deck_text(doc: dict[str, Any]) -> str:
    """A registered deck in a few words for the history: its commanders and whether it is legal."""
    commanders = " + ".join(line["name"] for line in doc["deck"].get("commanders", [])) or "no commander"
    return f"{commanders} ({'legal' if doc['valid'] else 'not legal'})"


MAX_REASON = 500


def closing_time(text: str) -> float:
    """An ISO time as seconds since the epoch (a time without a zone is UTC)."""
    at = dt.datetime.fromisoformat(text)
    return (at if at.tzinfo else at.replace(tzinfo=dt.UTC)).timestamp()


def decks_closed_why(db, event_id: int, decks_close: str | None, now: float) -> str | None:
    """Why deck registration is closed (round 1 is paired, or the time the desk set has come), or None while it is
    open.  Inside the caller's transaction."""
    if db.table(ROUNDS).get(Q.event == event_id) is not None:
        return "round 1 has been paired"
    if decks_close is not None and now >= closing_time(decks_close):
        return "the desk closed it"
    return None


def closed_words(why: str) -> str:
    """The one set of words every face says when a player's deck change comes after the gate."""
    return f"deck registration is closed ({why}): your registered deck stands, and only the desk can change it now"


class Decks(Pools):
    """Deck registration, over the pools the decks are built from.

    Registration is open from the end of the draft until round 1 is paired (or earlier, at a time the desk sets:
    ``close_decks``); after that a deck changes only by the desk's correction, with its reason, which the
    history keeps and the player's view shows.  The gate is here, the same for every face."""

    def decks_closed(self, event_id: int, now: float | None = None) -> str | None:
        """Why deck registration is closed for the event, or None while it is open."""
        with self.store.read() as db:
            event = self._event(db, event_id)
            return decks_closed_why(db, event_id, event.decks_close, timing.now() if now is None else now)

    def close_decks(self, event_id: int, at: float | None = None, *, actor: Actor = DESK) -> str:
        """The desk closes deck registration now, or at ``at`` (seconds since the epoch); returns the time, ISO."""
        actor.require_desk("close deck registration")
        when = dt.datetime.fromtimestamp(timing.now() if at is None else at, dt.UTC).isoformat(timespec="seconds")
        with self.store.write() as db:
            event = self._event(db, event_id)
            if event.status == "finished":
                raise PhaseOver(f"event {event_id} is finished")
            db.table(EVENTS).update({"decks_close": when}, doc_ids=[event_id])
            history.log_change(db, event_id, actor.who, "deck registration closes", event.decks_close, when)
        return when

    def check_deck_change(self, event_id: int, actor: Actor, reason: str | None = None) -> None:
        """``PhaseOver`` when deck registration is closed and ``actor`` isn't the desk correcting with a reason."""
        with self.store.read() as db:
            event = self._event(db, event_id)
            self._gate(db, event_id, event.decks_close, actor, reason)

    @staticmethod
    def _gate(db, event_id: int, decks_close: str | None, actor: Actor, reason: str | None) -> bool:
        """Inside a transaction: True when the change is a correction (registration closed, the desk with a reason)."""
        why = decks_closed_why(db, event_id, decks_close, timing.now())
        if why is None:
            return False
        if not actor.is_desk:
            raise PhaseOver(closed_words(why) + ": ask the organizer")
        if not reason or not reason.strip():
            raise PhaseOver(
                f"deck registration is closed ({why}): the desk changes a deck now only as a correction, "
                "with its reason (--reason TEXT)"
            )
        return True

    def register_deck(
        self,
        event_id: int,
        who: str,
        deck_file: DeckFile | None = None,
        *,
        auto: bool = False,
        piper_colors: Sequence[Color] | None = None,
        by: str = history.DESK,
        actor: Actor = DESK,
        reason: str | None = None,
        within_stock: bool = False,
    ) -> dict[str, Any]:
        """Register a player's deck, checked against their pool; ``by`` is who registers it (the desk, or a
        player's terminal) for the event's history, ``actor`` who is asking (a player only for their own seat).
        Once registration is closed only the desk changes a deck, with its ``reason`` (``PhaseOver`` otherwise).

        ``auto`` builds a deck that adds no more Pipers than the store's stock holds for it (``stock_left``) and
        says so when the stock limits it (``pipers_note``); ``within_stock`` (the builder's decks, and ``auto``)
        refuses a deck adding more than that, checked in the transaction that writes it."""
        if reason is not None:
            reason = " ".join(reason.split())
            LimitExceeded.check(len(reason), "reason", "a correction's reason", 1, MAX_REASON, "characters")
        with self.store.read() as db:
            event = self._event(db, event_id)
            player = self._player(db, event_id, who)
            actor.require_player(player.doc_id, "register a deck")
            pool_doc = db.table(POOLS).get((Q.event == event_id) & (Q.player == player.doc_id))
            self._gate(db, event_id, event.decks_close, actor, reason)
            may_add = stock_left(db, event, player.doc_id)
        self._require(event, "building", "playing", doing="register decks")
        if player["status"] == "dropped":
            raise StateError(f"{player['name']} has dropped; their deck can't be registered")
        pool = self.pool(event_id, player.doc_id)
        extra = []
        note = None
        if auto:
            within_stock = True
            note = stock_note(event, may_add)
            deck = build_deck(pool, piper_card(event.set), player["name"], may_add)
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
            event = self._event(db, event_id)
            self._require(event, "building", "playing", doing="register decks")
            correction = self._gate(db, event_id, event.decks_close, actor, reason)
            if correction:
                doc["correction"] = reason
            if db.table(PLAYERS).get(doc_id=player.doc_id)["status"] == "dropped":
                raise StateError(f"{player['name']} has dropped; their deck can't be registered")
            # the deck was checked against the pool read above: if the pool was recorded again meanwhile,
            # that check no longer holds (checked and written in this one transaction)
            if db.table(POOLS).get((Q.event == event_id) & (Q.player == player.doc_id)) != pool_doc:
                raise StateError(
                    f"{player['name']}'s pool was recorded again while the deck was checked; register the deck again"
                )
            if within_stock:
                adds = max(
                    0,
                    used_in(doc["deck"], product(event.set).added)
                    - owned_in(pool_doc["cards"] if pool_doc else [], piper_number(event)),
                )
                left = stock_left(db, event, player.doc_id)
                if adds > left:
                    words = product(event.set).added
                    raise StateError(
                        f"{player['name']}'s deck adds {words.count_words(adds)} beyond the pool and the store's "
                        f"stock holds {words.count_words(left)} for it now (other decks took them meanwhile): "
                        "choose fewer, or ask the desk about its stock"
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
                "deck correction" if correction else "deck",
                None if existing is None else deck_text(existing),
                f"{player['name']}: {deck_text(doc)}" + (f"; reason: {reason}" if correction else ""),
            )
        return {"player": player["name"], **report.to_json(), **({"pipers_note": note} if note else {})}

    def stock_for(self, event_id: int, player_id: int) -> tuple[int, str | None]:
        """The Pipers the store's stock holds for the player's deck now (``stock_left``) and what the builder says
        about it (None: the stock doesn't limit the deck)."""
        with self.store.read() as db:
            event = self._event(db, event_id)
            left = stock_left(db, event, player_id)
        return left, stock_note(event, left)

    def correction_of(self, event_id: int, player_id: int) -> str | None:
        """The desk's reason, when it corrected the player's deck after registration closed."""
        with self.store.read() as db:
            doc = db.table(DECKS).get((Q.event == event_id) & (Q.player == player_id))
        return None if doc is None else doc.get("correction")

    def deck_of(self, event_id: int, player_id: int):
        with self.store.read() as db:
            doc = db.table(DECKS).get((Q.event == event_id) & (Q.player == player_id))
        if doc is None:
            return None
        deck, _ = resolve(parse_json(json.dumps(doc["deck"])), self.index)
        return deck
