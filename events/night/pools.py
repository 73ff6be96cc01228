"""Pools: recording a player's pool (physical drafts, sealed pools opened at the table) and reading it back."""

from __future__ import annotations

import json
from collections.abc import Sequence

from tinydb import TinyDB

from draft.deck_rules import Problem, validate
from draft.decks import Deck as DraftDeck
from draft.decks import DeckFormat
from draft.formats import DeckFile, parse_json, resolve
from draft.products import product
from events.night import history
from events.night.base import EventBase
from events.night.drafting import Drafting
from events.night.schema import card_ref, cards_from_refs, pool_warning
from events.storage.records import MAX_CARDS, Deck, Event, Player, Pool
from events.storage.store import phase_change
from events.storage.tables import records_of
from sets.booster import Printing
from sets.errors import InputError, LimitError, StateError
from sets.visible import quoted

# Problems found reading a deck file (not by checking the deck against its pool): kept when the deck is checked again.
FILE_PROBLEMS = ("unreadable-line", "unknown-card", "meld-result", "unclear-commander")


def check_size(deck: DraftDeck, problems: Sequence[object], what: str) -> None:
    """A pool or deck holds at most ``MAX_CARDS`` cards, and its file as many lines (the store's bound, kept
    in one place): more is bad input, refused before anything is saved."""
    size = max(sum(line.count for line in deck.lines), len(deck.lines) + len(problems))
    if size > MAX_CARDS:
        raise LimitError("cards", what, 0, MAX_CARDS, size, "cards (and lines)")


def refuse_unreadable(problems: Sequence[Problem], what: str, again: str, label: str = "") -> None:
    """A pool or deck file with lines that name no card is bad input, refused before anything is saved: the
    first five lines said, then how many more (``label``: the file's name, said first)."""
    if problems:
        raise InputError(
            (f"{quoted(label)}: " if label else "")
            + f"{what} has unreadable lines: "
            + "; ".join(p.message for p in problems[:5])
            + (f" (and {len(problems) - 5} more)" if len(problems) > 5 else "")
            + f"; fix them and {again}"
        )


class Pools(EventBase):
    """The cards each player drafted or opened."""

    def _check_deck_again(self, db: TinyDB, event_id: int, player_id: int, cards: list[Printing]) -> str | None:
        """A registered deck was checked against the pool it was built from: with a new pool it is checked
        again (in the same transaction), and the desk is told when it isn't legal any more."""
        decks = records_of(db, Deck)
        registered = decks.first(event=event_id, player=player_id)
        if registered is None:
            return None
        deck, _ = resolve(parse_json(json.dumps(decks.as_saved(registered.id, "deck"))), self.index)
        kept = [Problem(p.code, p.message, tuple(p.cards)) for p in registered.problems if p.code in FILE_PROBLEMS]
        event = self._event(db, event_id)
        report = validate(deck, [p.card for p in cards], DeckFormat.COMMANDER_DRAFT, None, (), kept, product(event.set))
        decks.update(registered.id, valid=report.valid, problems=[p.to_json() for p in report.problems])
        if report.valid == registered.valid:
            return None
        if report.valid:
            return "legal now"
        reason = report.problems[0].message if report.problems else "see the board"
        return f"not legal ({reason}); register the deck again"

    def _pool_target(
        self, db: TinyDB, event_id: int, who: str | int, replace: bool
    ) -> tuple[Event, Player, Pool | None]:
        event = self._event(db, event_id)
        self._require(event, "drafting", "building", "seated", "registration", "playing", doing="record a pool")
        if event.mode == "draft" and event.status in ("registration",):
            raise StateError("seat the players before recording draft pools")
        player = self._player(db, event_id, who)
        if player.status == "dropped":
            raise StateError(f"{quoted(player.name)} has dropped; their pool can't be recorded")
        existing = records_of(db, Pool).first(event=event_id, player=player.id)
        if existing and not replace:
            raise StateError(f"{quoted(player.name)} already has a pool recorded; use --replace to record it again")
        return event, player, existing

    def check_pool_entry(self, event_id: int, who: str | int, replace: bool = False) -> Event:
        """The checks of ``record_pool`` before a pool is typed (so no typing is lost to a refusal); returns the event."""
        with self.store.read() as db:
            return self._pool_target(db, event_id, who, replace)[0]

    def record_pool(
        self, event_id: int, who: str, deck_file: DeckFile, replace: bool = False, label: str = ""
    ) -> tuple[int, list[str]]:
        """A player's pool from a file (``label``: its name, said before its unreadable lines) or typed lines
        (physical drafts, sealed pools opened at the table).

        Returns the player number and warnings: a pool that is not the full size is recorded, with a
        warning that the board keeps showing until the pool is recorded again."""
        deck, problems = resolve(deck_file, self.index, pool=True)
        check_size(deck, problems, "the pool")
        if not deck.lines and not problems:
            raise InputError(
                (f"{quoted(label)}: " if label else "")
                + "the pool has no cards: give a pool file, or type one card a line"
            )
        refuse_unreadable(problems, "the pool", "record it again", label)
        with self.store.write() as db:
            event, player, existing = self._pool_target(db, event_id, who, replace)
            cards = [
                card_ref(Printing(line.card, "", line.foil, line.etched), event.set)
                for line in deck.lines
                for _ in range(line.count)
            ]
            fields = {"event": event_id, "player": player.id, "cards": cards, "source": "recorded"}
            if existing:
                records_of(db, Pool).update(existing.id, **fields)
            else:
                records_of(db, Pool).insert_fields(**fields)
            history.log_change(
                db,
                event_id,
                history.DESK,
                "pool",
                None if existing is None else f"{len(existing.cards)} cards",
                f"{player.name}: {len(cards)} cards",
            )
            if event.status == "seated" and event.style == "physical":
                phase_change(db)
                records_of(db, Event).update(event_id, status="drafting")
            Drafting(self.store).finish_drafting_if_done(db, event_id)
            recheck = (
                self._check_deck_again(db, event_id, player.id, cards_from_refs(cards, event.set)) if existing else None
            )
        warning = pool_warning(event, len(cards))
        warnings = [f"the pool of {quoted(player.name)} has {warning}"] if warning else []
        if recheck:
            warnings.append(
                f"the deck registered for {quoted(player.name)}, checked again against the new pool: {recheck}"
            )
        return player.id, warnings

    def pool_refs(self, event_id: int) -> tuple[str, dict[int, tuple[str, ...]]]:
        """The event's set and every recorded pool's card references (``card_ref``) by player id, in one read."""
        with self.store.read() as db:
            event = self._event(db, event_id)
            pools = records_of(db, Pool).find(event=event_id)
        return event.set, {pool.player: tuple(pool.cards) for pool in pools}

    def pool(self, event_id: int, who: str | int) -> list[Printing]:
        with self.store.read() as db:
            event = self._event(db, event_id)
            player = self._player(db, event_id, who)
            pool = records_of(db, Pool).first(event=event_id, player=player.id)
        if pool is None:
            raise StateError(f"{quoted(player.name)} has no pool recorded yet")
        return cards_from_refs(pool.cards, event.set)
