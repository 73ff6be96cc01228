"""Decks: registering a player's deck from their pool (a file, or built by the bot) and checking it."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from tinydb import TinyDB

from draft.commanders import leaders_text
from draft.deck_rules import DeckReport, validate
from draft.deck_rules import Problem as DeckProblem
from draft.deck_state import plural
from draft.deckbuild import auto_deck, build_deck
from draft.decks import Deck as DraftDeck
from draft.decks import DeckFormat, Zone, is_piper
from draft.formats import DeckFile, parse_json, resolve, write_json
from draft.formats.resolve import UNREADABLE
from draft.products import product
from draft.sim import piper_card
from events import timing
from events.night import history
from events.night.pipers import Pipers, owned_in, piper_number, shortfall_note, stock_left, stock_note, stock_short
from events.night.pools import Pools, check_size, refuse_unreadable
from events.night.refusals import DESK, Actor, LimitExceeded, PhaseOver, not_building
from events.night.schema import minute_text
from events.night.snapshot import PlayerRow, Snapshot
from events.storage.records import Deck, Event, Player, Pool, Round
from events.storage.tables import records_of
from sets.booster import Printing
from sets.cards import Card
from sets.colors import Color
from sets.errors import InputError, StateError
from sets.visible import quoted, visible


def deck_text(commanders: Sequence[str], valid: bool) -> str:
    """A registered deck in a few words for the history: its commanders and whether it is legal."""
    return f"{' + '.join(commanders) or 'no commander'} ({'legal' if valid else 'not legal'})"


def unread_card(unread: Sequence[DeckProblem]) -> str:
    """The first card of a registered deck that no set here has now (as ``deck_read`` found it), by its name."""
    return ", ".join(unread[0].cards) or unread[0].message


def unread_deck_words(unread: Sequence[DeckProblem]) -> str:
    """Why a registered deck is not shown: a card of it no set here has now (its set's file imported again
    without it)."""
    return (
        f"the registered deck holds a card no set here has now ({quoted(unread_card(unread))}): import the set's file that has it "
        "('cmdraft sets import FILE'), then try again; the deck stays registered as it is"
    )


RegistrationState = Literal["legal", "illegal", "missing"]


def registers(player: Player) -> bool:
    """Whether a player registers a deck, and is paired with it: an active one (a bot only fills a draft seat, and a
    dropped player plays no more)."""
    return player.status == "active" and not player.bot


def registrations(snap: Snapshot) -> list[tuple[PlayerRow, RegistrationState]]:
    """Who registers a deck (``registers``) and where each stands, in the snapshot's order: "legal", "illegal"
    (registered with problems the desk sees) or "missing"."""
    return [
        (p, "missing" if p.deck is None else "legal" if p.deck.valid else "illegal")
        for p in snap.players
        if registers(p)
    ]


def registered_count(rows: Sequence[tuple[PlayerRow, RegistrationState]]) -> str:
    """How many of those who register a deck have one: "6 of 8 decks registered" (the desk's and the room's)."""
    return f"{sum(1 for _, state in rows if state != 'missing')} of {len(rows)} decks registered"


def registrations_words(rows: Sequence[tuple[PlayerRow, RegistrationState]]) -> str:
    """The desk's summary of deck registration: "6 of 8 decks registered, 1 with problems (Cy); not yet: Ann, Bo"."""
    missing = [p.name for p, state in rows if state == "missing"]
    illegal = [p.name for p, state in rows if state == "illegal"]
    words = registered_count(rows)
    if illegal:
        words += f", {len(illegal)} with problems ({', '.join(illegal)})"
    return words + (f"; not yet: {', '.join(missing)}" if missing else "")


def desk_decks_words(status: str, rows: Sequence[tuple[PlayerRow, RegistrationState]]) -> str | None:
    """What the desk's page says of deck registration (``registrations_words``) while the event is ``status``: while
    decks are registered, and once rounds are played only while a player (a late one) still has none."""
    if status == "building" or (status == "playing" and any(state == "missing" for _, state in rows)):
        return registrations_words(rows)
    return None


MAX_REASON = 500


DESK_CLOSED = "the desk closed it"


def closing_time(text: str) -> float:
    """An ISO time as seconds since the epoch (a time without a zone is UTC)."""
    at = dt.datetime.fromisoformat(text)
    return (at if at.tzinfo else at.replace(tzinfo=dt.UTC)).timestamp()


def decks_closed_why(
    db: TinyDB, event_id: int, decks_close: str | None, now: float, player_id: int | None = None
) -> str | None:
    """Why deck registration is closed (round 1 is paired, or the time the desk set has come), or None while it is
    open.  With ``player_id``: for that player's deck, which closes only once it is registered (the correction
    rule is for changing a registered deck; a player with none yet, a late one, registers their first as
    before the gate).  Inside the caller's transaction."""
    if player_id is not None and records_of(db, Deck).first(event=event_id, player=player_id) is None:
        return None
    if records_of(db, Round).first(event=event_id) is not None:
        return "round 1 has been paired"
    if decks_close is not None and now >= closing_time(decks_close):
        return DESK_CLOSED
    return None


def closed_words(why: str) -> str:
    """The one set of words every face says when a player's deck change comes after the gate."""
    return f"deck registration is closed ({why}): your registered deck stands, and only the desk can change it now"


def registered_words(registered: bool, legal: bool) -> str | None:
    """What a player is told of their deck's registration: the desk has it, or has it with problems the desk will
    see; None while the deck built is not the one registered."""
    if not registered:
        return None
    return "Registered. The desk has your deck." if legal else "Registered, with problems the desk will see."


@dataclass(frozen=True)
class DeckRegistered:
    """A deck just registered: whose it is, the checker's report, and what the builder said about the store's
    stock of Pipers when it chose them, or for a deck file the Piper shortfall it leaves (None: neither); ``mark``: this registration's
    ``deck_mark``, read in the transaction that wrote it (a builder's own, never one made just after)."""

    player: str
    report: DeckReport
    pipers_note: str | None = None
    mark: str | None = None
    leaders: str = ""  # the commanders, each that chose a color with it (``leaders_text``)

    @property
    def valid(self) -> bool:
        return self.report.valid

    @property
    def led(self) -> str:
        """What the desk reads back of the deck registered: its commanders, each that chose its color with it, its
        color identity and size ("Kamahl, Heart of Krosa + The Prismatic Piper (blue); identity UG; 60 cards")."""
        report = self.report
        identity = report.color_identity.code or "colorless"
        return f"{self.leaders or 'no commander'}; identity {identity}; {plural(report.size, 'card')}"

    def to_json(self) -> dict[str, Any]:
        """The answer ``event deck --json`` prints: the player (as registered: ``name``, as every player list names
        them, and ``player``, the key it had first), the report's JSON and the note, null when there is none (words,
        written out as every face shows them: ``visible``); the same keys for every deck."""
        return {
            "name": self.player,
            "player": self.player,
            **self.report.to_json(),
            "pipers_note": visible(self.pipers_note) if self.pipers_note else None,
        }


@dataclass(frozen=True)
class DecksClosing:
    """The desk's closing time for deck registration (ISO, UTC) and why it is closed now (None: it closes later)."""

    at: str
    closed: str | None

    @property
    def words(self) -> str:
        """What every face says of it."""
        when = minute_text(self.at)  # as every face writes a time, to the minute: '2026-02-06 19:30 UTC'
        if self.closed is None:
            return f"deck registration closes at {when}; after that only the desk changes a deck"
        why = f"{DESK_CLOSED} at {when}" if self.closed == DESK_CLOSED else self.closed
        return f"deck registration is closed now ({why}): only the desk changes a deck, as a correction with its reason"

    def to_json(self) -> dict[str, Any]:
        return {"decks_close": self.at, "closed": self.closed is not None, "message": visible(self.words)}


def _stock_limited(pool: Sequence[Printing], piper: Card | None, may_add: int) -> bool:
    """Whether the stock's ``may_add`` changed the bot's deck: the deck it builds when the product's most may be
    added adds more Pipers beyond the pool than that (else the deck built within the stock is the same one)."""
    free = build_deck(pool, piper)
    held = sum(1 for printing in pool if is_piper(printing.card))
    return sum(1 for card in free.commanders if is_piper(card)) - held > may_add


class Decks(Pools):
    """Deck registration, over the pools the decks are built from.

    Registration is open from the end of the draft until round 1 is paired (or earlier, at a time the desk sets:
    ``close_decks``); after that a deck changes only by the desk's correction, with its reason, which the
    history keeps and the player's view shows.  The gate is here, the same for every face."""

    def require_building(self, event_id: int) -> None:
        """``NotBuilding`` unless the event's decks are being built (every pod has drafted, the event not finished):
        the one gate of the builder and of registering, whoever asks."""
        with self.store.read() as db:
            self._building(self._event(db, event_id))

    @staticmethod
    def _building(event: Event) -> None:
        refused = not_building(event.status)
        if refused is not None:
            raise refused

    def decks_closed(self, event_id: int, now: float | None = None, player_id: int | None = None) -> str | None:
        """Why deck registration is closed for the event (with ``player_id``: for that player's deck, closed only
        once one is registered), or None while it is open."""
        with self.store.read() as db:
            event = self._event(db, event_id)
            return decks_closed_why(db, event_id, event.decks_close, timing.now() if now is None else now, player_id)

    def close_decks(self, event_id: int, at: float | None = None, *, actor: Actor = DESK) -> DecksClosing:
        """The desk closes deck registration now, or at ``at`` (seconds since the epoch; a time already past closes
        it now); returns the time, ISO, and whether registration is closed now."""
        actor.require_desk("close deck registration")
        now = timing.now()
        when = timing.stamp(now if at is None else at)
        with self.store.write() as db:
            event = self._event(db, event_id)
            if event.status == "finished":
                raise PhaseOver(f"event {event_id} is finished")
            records_of(db, Event).update(event_id, decks_close=when)
            history.log_change(db, event_id, actor.who, "deck registration closes", event.decks_close, when)
            return DecksClosing(when, decks_closed_why(db, event_id, when, now))

    def check_deck_change(self, event_id: int, player_id: int, actor: Actor, reason: str | None = None) -> None:
        """``PhaseOver`` when the player's registered deck is closed to changes and ``actor`` isn't the desk
        correcting it with a reason."""
        with self.store.read() as db:
            event = self._event(db, event_id)
            self._gate(db, event_id, player_id, event.decks_close, actor, reason)

    @staticmethod
    def _gate(
        db: TinyDB, event_id: int, player_id: int, decks_close: str | None, actor: Actor, reason: str | None
    ) -> bool:
        """Inside a transaction: True when the change is a correction (the player's registered deck changed after
        registration closed, by the desk with a reason)."""
        why = decks_closed_why(db, event_id, decks_close, timing.now(), player_id)
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
        label: str = "",
    ) -> DeckRegistered:
        """Register a player's deck, checked against their pool; ``by`` is who registers it (the desk, or a
        player's terminal) for the event's history, ``actor`` who is asking (a player only for their own seat).
        Once registration is closed only the desk changes a deck, with its ``reason`` (``PhaseOver`` otherwise).
        A deck file with a line that names no card (``label``: the file's name) is bad input: nothing is registered,
        as a pool with one is not recorded."""
        if auto and deck_file is not None:
            raise InputError("give a deck file or --auto, not both: --auto lets the bot build the deck from the pool")
        if auto and piper_colors:  # the bot's deck, checked against colors given for other commanders, was illegal
            raise InputError(
                "give --piper with a deck file, not --auto: the bot chooses its commanders and their colors"
            )
        if reason is not None:
            reason = " ".join(reason.split())
            LimitExceeded.check(len(reason), "reason", "a correction's reason", 1, MAX_REASON, "characters")
        with self.store.read() as db:
            event = self._event(db, event_id)
            player = self._player(db, event_id, who)
            actor.require_player(player.id, "register a deck")
            self._building(event)  # before the closing's words
            pool_read = records_of(db, Pool).first(event=event_id, player=player.id)
            self._gate(db, event_id, player.id, event.decks_close, actor, reason)
            may_add = stock_left(db, event, player.id)
        if player.status == "dropped":
            raise StateError(f"{quoted(player.name)} has dropped; their deck can't be registered")
        pool = self.pool(event_id, player.id)
        extra: list[DeckProblem] = []
        note = None
        if auto:
            within_stock = True
            owner = None if actor.player == player.id else player.name  # the desk asks: the player is named
            in_pool = owned_in(pool_read.cards if pool_read else [], piper_number(event))
            note = stock_note(event, may_add, in_pool, owner)
            deck = auto_deck(pool, piper_card(event.set), player.name, may_add, stock_short(event, actor))
            if note is not None and not _stock_limited(pool, piper_card(event.set), may_add):
                note = None  # the bot's deck is the one it builds with the product's most: the stock changed nothing
        else:
            if deck_file is None:
                raise InputError("give a deck file, or --auto to let the bot build one")
            deck, extra = resolve(deck_file, self.index)
            check_size(deck, extra, f"the deck of {quoted(player.name)}")
            unreadable = [problem for problem in extra if problem.code in UNREADABLE]
            refuse_unreadable(unreadable, f"the deck of {quoted(player.name)}", "register it again", label)
        report = validate(
            deck, [p.card for p in pool], DeckFormat.COMMANDER_DRAFT, piper_colors, (), extra, product(event.set)
        )
        deck = deck.with_piper_colors(report.piper_colors)
        doc: dict[str, Any] = {
            "event": event_id,
            "player": player.id,
            "deck": json.loads(write_json(deck)),
            "valid": report.valid,
            "problems": [p.to_json() for p in report.problems],
            "at": timing.stamp(),
        }
        with self.store.write() as db:
            event = self._event(db, event_id)
            self._building(event)
            correction = self._gate(db, event_id, player.id, event.decks_close, actor, reason)
            if correction:
                doc = {**doc, "correction": reason}
            now = records_of(db, Player).get(player.id)
            if now is not None and now.status == "dropped":
                raise StateError(f"{quoted(player.name)} has dropped; their deck can't be registered")
            # the deck was checked against the pool read above: if the pool was recorded again meanwhile,
            # that check no longer holds (checked and written in this one transaction)
            if records_of(db, Pool).first(event=event_id, player=player.id) != pool_read:
                raise StateError(
                    f"the pool of {quoted(player.name)} was recorded again while the deck was checked; register the deck again"
                )
            if within_stock:
                played = sum(
                    line.count for line in deck.lines if line.zone is not Zone.SIDEBOARD and is_piper(line.card)
                )
                adds = max(0, played - sum(1 for printing in pool if is_piper(printing.card)))
                left = stock_left(db, event, player.id)
                if adds > left:
                    words = product(event.set).added
                    raise StateError(
                        f"the deck of {quoted(player.name)} adds {words.count_words(adds)} beyond the pool and the store's "
                        f"stock holds {words.count_words(left)} for it now (other decks took them meanwhile): "
                        "choose fewer, or ask the desk about its stock"
                    )
            decks = records_of(db, Deck)
            existing = decks.first(event=event_id, player=player.id)
            if existing:
                decks.update(existing.id, **doc)
            else:
                decks.insert_fields(**doc)
            mark = repr(decks.first(event=event_id, player=player.id))  # as ``deck_mark`` reads it
            commanders = [line.card.name for line in deck.zone(Zone.COMMANDER)]
            history.log_change(
                db,
                event_id,
                by,
                "deck correction" if correction else "deck",
                None
                if existing is None
                else deck_text([line.name for line in existing.deck.commanders], existing.valid),
                f"{player.name}: {deck_text(commanders, report.valid)}" + (f"; reason: {reason}" if correction else ""),
            )
        if not auto:  # a deck file may add more than the stock and the lenders hold: said now, as the board says it
            note = shortfall_note(self.phase(Pipers).piper_ledger(event_id), player.name)
        return DeckRegistered(player.name, report, note, mark, leaders_text(deck.commanders, deck.piper_colors))

    def stock_for(self, event_id: int, player_id: int) -> tuple[int, str | None]:
        """The Pipers the store's stock holds for the player's deck now (``stock_left``) and what the builder says
        about it (None: the stock doesn't limit the deck)."""
        event, left, in_pool = self._stock(event_id, player_id)
        return left, stock_note(event, left, in_pool)

    def pipers_most(self, event_id: int, player_id: int) -> int:
        """The most Pipers the player's deck may lead with now: the product's most, or fewer when the pool's own and
        what the store's stock holds for the deck (``stock_for``) come to fewer."""
        event, left, in_pool = self._stock(event_id, player_id)
        return min(product(event.set).added.most, left + in_pool)

    def _stock(self, event_id: int, player_id: int) -> tuple[Event, int, int]:
        """The event, the Pipers its stock holds for the player's deck now, and the Pipers in the player's pool."""
        with self.store.read() as db:
            event = self._event(db, event_id)
            left = stock_left(db, event, player_id)
            pool = records_of(db, Pool).first(event=event_id, player=player_id)
        return event, left, owned_in(pool.cards if pool else [], piper_number(event))

    def correction_of(self, event_id: int, player_id: int) -> str | None:
        """The desk's reason, when it corrected the player's deck after registration closed."""
        with self.store.read() as db:
            deck = records_of(db, Deck).first(event=event_id, player=player_id)
        return None if deck is None else deck.correction

    def deck_mark(self, event_id: int, player_id: int) -> str | None:
        """What tells one registration of the player's deck from another (None: none yet): an open builder
        compares it to know the deck was registered elsewhere since."""
        with self.store.read() as db:
            deck = records_of(db, Deck).first(event=event_id, player=player_id)
        return None if deck is None else repr(deck)

    def deck_of(self, event_id: int, player_id: int) -> DraftDeck | None:
        """The player's registered deck (None: none); refused while a card of it is in no set here now, so that
        nothing shows, builds on or saves over the deck without that card (``deck_read`` gives both)."""
        deck, unread = self.deck_read(event_id, player_id)
        if unread:
            raise StateError(unread_deck_words(unread))
        return deck

    def deck_read(self, event_id: int, player_id: int) -> tuple[DraftDeck | None, list[DeckProblem]]:
        """The player's registered deck (None: none), and what of it this machine's sets cannot read now (a card a
        set file imported again no longer has): each such line is left out of the deck."""
        with self.store.read() as db:
            decks = records_of(db, Deck)
            registered = decks.first(event=event_id, player=player_id)
            saved = None if registered is None else decks.as_saved(registered.id, "deck")
        if saved is None:
            return None, []
        return resolve(parse_json(json.dumps(saved)), self.index)
