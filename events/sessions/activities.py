"""Where a deck is built, each opening one ``DeckSession`` with its own way of keeping the deck.

* ``PracticeDeck``: a practice draft's seat; every change is saved in the draft's record; the draft's
  review, the bots' decks and an export of everything come with it.
* ``PoolDeck``: any pool file (``cmdraft build POOL``, ``sealed --build``); every change is saved in the
  pool's build record; the export writes the deck and pool under the pool's name.
* ``EventDeck``: an event player's recorded pool; the deck is registered only on 'done' or 'save', with
  the history saying it came from the player's terminal (or browser); until then every change is kept on disk
  as the build in progress (``events.storage.building_files``), which the next builder of the player opens.

The faces hold one of these (composition: each is the session plus what its place offers) and ask it for
the review, a bot's deck or an export; a place that doesn't offer one refuses with ``InputError`` saying
where to look instead.  Nothing here prints.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from draft.deck_rules import DeckReport, Problem, validate
from draft.deck_session import DeckSession
from draft.deckbuild import build_deck
from draft.decks import Deck, is_free_basic, is_piper
from draft.formats import parse_json, resolve, write_json
from draft.log import mtgo_log
from draft.sim import piper_card
from events import timing
from events.night.base import player_number
from events.night.decks import DeckRegistered, Decks
from events.night.history import actor
from events.night.refusals import Actor
from events.outputs.deck_problems import judge_order
from events.outputs.exports import export_seat, seat_files
from events.outputs.guard import check_folder, fill_folder
from events.sessions.table import DraftTable
from events.storage.building_files import BuildingFiles, pool_key
from events.storage.pool_builds import PoolBuild
from events.storage.store import Store
from sets.booster import Printing
from sets.card_index import card_index
from sets.cards import Card, normalize_name
from sets.errors import InputError
from sets.userdata import db_option
from sets.visible import quoted


@dataclass(frozen=True)
class BotDeck:
    """A bot seat's deck, built the bots' way from its pool, with its check."""

    seat: int
    deck: Deck
    report: DeckReport
    pool: tuple[Printing, ...]


@dataclass(frozen=True)
class Exported:
    """Files written: where, which, the notes on what couldn't be (a format with no ids), and which names the
    files have when they aren't the folder's own (``sealed-4-deck.*``)."""

    folder: Path
    written: tuple[Path, ...]
    notes: tuple[str, ...]
    names: str = ""
    problems: tuple[Problem, ...] = ()  # the deck written isn't legal: why, in a judge's order (the files can't say)


def written_problems(session: DeckSession) -> tuple[Problem, ...]:
    """What keeps the deck an export writes from being legal, in the checker's words and a judge's order (none for
    a legal deck, or when there is no deck to write: only the pool is written)."""
    report = session.report()
    if report.valid or not session.deck().lines:
        return ()
    return tuple(judge_order(report.problems, report.color_identity))


class DeckActivity(Protocol):
    """What every place a deck is built offers a face: the session, the name a resumed deck goes by
    (``label``) and the command that opens it again (``resume``), whether the deck is registered only when asked (``registers``: an event's) rather than kept
    after every change, what the place said when it kept the deck (``notices``, for the face to show and
    clear), and the review, a bot's deck or an export (``InputError`` where the place has none)."""

    @property
    def session(self) -> DeckSession: ...

    label: str
    resume: str  # the command that opens this deck again, as a person types it
    registers: bool
    reviews: bool  # whether the pool was drafted here, so 'review' and 'bot N' have picks and bots to show
    notices: list[str]

    def drafted(self) -> DraftTable: ...

    def bot(self, seat: int) -> BotDeck: ...

    def export(self, folder: Path | None, force: bool) -> Exported: ...


def deck_json(deck: Deck) -> dict:
    """A deck as the JSON the records keep."""
    return json.loads(write_json(deck))


def saved_deck(saved: dict | None) -> Deck | None:
    """A deck kept as JSON, its cards found again by name (None: nothing saved)."""
    if not saved:
        return None
    deck, _ = resolve(parse_json(json.dumps(saved)), card_index())
    return deck


def bot_decks(table: DraftTable) -> list[BotDeck]:
    """Every bot seat's deck from its pool (built the bots' way) with its check."""
    draft = table.draft
    piper = piper_card(draft.config.set_code)
    out = []
    for seat in range(draft.config.seats):
        if seat in table.humans:
            continue
        deck = build_deck(draft.pools[seat], piper, f"{table.names[seat]} (practice draft {table.draft_id})")
        out.append(BotDeck(seat, deck, validate(deck, [p.card for p in draft.pools[seat]]), tuple(draft.pools[seat])))
    return out


def export_practice(table: DraftTable, deck: Deck, folder: Path, *, force: bool = False) -> Exported:
    """Your pool, deck, draft log and the draft; every bot's pool and deck beside them (``practice-bot-N-*``)."""
    notes: list[str] = []
    real = check_folder(folder, force)
    seat = table.humans[0]
    stem = "practice"
    files = seat_files(
        real,
        stem,
        table.draft.pools[seat],
        deck if deck.lines else None,
        mtgo_log(table.draft, seat, table.names, timing.local()),
        notes,
    )
    if table.draft.finished:
        for bot in bot_decks(table):
            files += seat_files(real, f"{stem}-bot-{bot.seat + 1}", table.draft.pools[bot.seat], bot.deck, None, notes)
    files.append((real / f"{stem}-draft.json", json.dumps(table.draft.to_json(), separators=(",", ":"))))
    return Exported(
        folder, tuple(fill_folder(real, files, force)), tuple(notes)
    )  # every path checked before any is written


class PracticeDeck:
    """The deck of a practice draft's seat; ``export_root`` is where 'export' with no folder writes."""

    registers = False  # every change is saved as it is made; 'done' marks the draft done
    reviews = True

    def __init__(self, table: DraftTable, export_root: Path) -> None:
        self.table, self.export_root = table, export_root
        self.seat = table.humans[0]
        self.label = str(table.draft_id)
        # The draft's own database named too: without it the command opens the default one's draft of that number.
        self.resume = f"cmdraft play --resume {table.draft_id}{db_option(table.database)}"
        self.notices: list[str] = []
        self.session = DeckSession(
            [p.card for p in table.draft.pools[self.seat]],
            piper=piper_card(table.draft.config.set_code),
            name=f"Practice draft {table.draft_id}",
            save=lambda deck, legal, final: table.save_deck(deck_json(deck), legal, final),
            hand_seed=int(table.draft.seed or 0),
            deck=saved_deck(table.saved_deck),
        )

    def drafted(self) -> DraftTable:
        """The draft the pool came from, for its review."""
        return self.table

    def bot(self, seat: int) -> BotDeck:
        """One bot's pool and deck (``seat`` from 0)."""
        for bot in bot_decks(self.table):
            if bot.seat == seat:
                return bot
        raise InputError(
            f"seat {seat + 1} is not a bot seat: bots sit at "
            + ", ".join(str(s + 1) for s in range(self.table.draft.config.seats) if s not in self.table.humans)
        )

    def export(self, folder: Path | None, force: bool) -> Exported:
        """Into ``folder``, or the draft's own folder: that one, holding only files an export of it writes, is written
        again (a deck changed another evening, x pressed again); a file of anyone else's there still needs --force."""
        if folder is None:
            folder = self.export_root / f"cmdraft-practice-{self.table.draft_id}"
            force = force or _only_practice_files(folder)
        exported = export_practice(self.table, self.session.deck(), folder, force=force)
        return dataclasses.replace(exported, problems=written_problems(self.session))


def _only_practice_files(folder: Path) -> bool:
    """Whether ``folder`` holds files and nothing but files named as a practice export names them."""
    try:
        entries = list(folder.iterdir())
    except OSError:
        return False
    return bool(entries) and all(entry.is_file() and entry.name.startswith("practice-") for entry in entries)


class PoolDeck:
    """The deck of a pool that wasn't drafted here, kept in its build record; ``stem`` names its files."""

    registers = False
    reviews = False

    def __init__(self, build: PoolBuild, stem: str, export_root: Path, resume: str = "") -> None:
        """``resume``: the command that made this build (``cmdraft build POOL``, ``cmdraft sealed --build ...``),
        which opens it again."""
        self.build, self.stem, self.export_root = build, stem, export_root
        self.label = str(build.build_id)
        self.resume = resume or f"cmdraft build {stem}"
        self.notices: list[str] = []
        self.session = DeckSession(
            build.cards,
            piper=piper_card(build.set_code),
            name=stem,  # the pool's own name, as its exported files have it: it was never drafted here
            save=lambda deck, legal, final: build.save_deck(deck_json(deck), legal, final),
            hand_seed=build.seed,
            deck=saved_deck(build.saved_deck),
        )

    @classmethod
    def open(
        cls,
        db: Path | None,
        source: str,
        cards: Sequence[Card],
        *,
        set_code: str,
        seed: int,
        stem: str,
        export_root: Path,
        resume: str = "",
    ) -> PoolDeck:
        """The build of this pool from ``source``, kept in the database ``db`` (the default one when None): the
        saved one when there is one, else a new one."""
        return cls(PoolBuild.open(Store(db), source, cards, set_code, seed), stem, export_root, resume)

    def drafted(self) -> DraftTable:
        raise InputError("this pool wasn't drafted here: there are no picks to review")

    def bot(self, seat: int) -> BotDeck:
        raise InputError("this pool wasn't drafted here: there are no bots")

    def export(self, folder: Path | None, force: bool) -> Exported:
        """The deck and the pool under the pool's name (files of an earlier run replaced only with ``force``)."""
        folder = folder or self.export_root
        deck = self.session.deck()
        notes: list[str] = []
        written = export_seat(
            folder,
            self.stem,
            [Printing(c) for c in self.build.cards],
            deck if deck.lines else None,
            None,
            notes,
            force=force,
        )
        names = f"{self.stem}-deck.*, {self.stem}-pool.*"
        return Exported(folder, tuple(written), tuple(notes), names, written_problems(self.session))


class EventDeck:
    """An event player's deck from their recorded pool; 'done' (a legal deck) and 'save' (as it is) register it.
    Every change before that is kept on disk as the player's build in progress, taken back by the next builder
    opened for them (a restarted server's page, a terminal's ``--build``) while it was built on the registration
    that stands and registration is open for the deck; a deck registered since, or closed registration, drops it."""

    registers = True
    reviews = False  # the review is in 'cmdraft event export'

    def __init__(
        self,
        decks: Decks,
        event_id: int,
        who: str | int,
        by: str | None = None,
        resume: bool = False,
        via: str = "terminal",
    ) -> None:
        """``by``: who registers (the player's terminal when not given); ``resume``: with no build in progress to
        take back, start from the deck registered for the player, if any (a browser coming back), rather than an
        empty one; ``via``: where the player builds it ("terminal" or "browser"): the player's seat is who asks the
        core."""
        player = decks.player(event_id, who)
        decks.require_building(event_id)  # the event's phase before the player's pool: the same words everywhere
        self.decks, self.event_id, self.player_name = decks, event_id, player.name
        self.by = by or actor(player.name)  # who registers, for the history: the player's terminal, or a browser
        self.actor = Actor.seat(player.id, via, player.name)
        self.label = f"{event_id}/{player.id}"
        self.resume = f"cmdraft event deck {event_id} '#{player_number(player)}' --build{db_option(decks.path)}"
        self.registered = False
        self.report: DeckRegistered | None = None
        self.notices: list[str] = []
        self.player_id = player.id
        self._seen = decks.deck_mark(event_id, player.id)  # the registration this builder knows of
        self._files, self._pool = BuildingFiles(decks.path), ""  # where the build in progress is kept; its pool's key
        kept = self._kept()
        if kept is not None:
            self.notices.append("your deck in progress is back, as you left it: it is not registered yet")
        self._session = self._opened(kept[0] if kept else decks.deck_of(event_id, player.id) if resume else None)
        if kept is not None:
            self._session.touched = kept[1]
        note = self.pipers_note
        if note:
            self.notices.append(note)

    def _opened(self, deck: Deck | None) -> DeckSession:
        """A builder over the player's recorded pool, starting from ``deck`` (None: an empty one)."""
        pool = [p.card for p in self.decks.pool(self.event_id, self.player_id)]
        self._pool = pool_key((card.set_code, card.number, card.name) for card in pool)
        return DeckSession(
            pool,
            piper=piper_card(self.decks.event(self.event_id).set),
            name=self.player_name,  # the player's deck, as 'event deck --auto' names it (no practice draft)
            save=self._register,
            autosave=False,  # an event deck is registered with 'done' or 'save', not after every change
            deck=deck,
            progress=self._keep,  # every change kept on disk as the build in progress until then
        )

    def _kept(self) -> tuple[Deck, bool] | None:
        """The player's build in progress and whether they made it, when it was built on the registration that
        stands, over the pool as it is, from the pool's cards, and registration is open for the deck; else None."""
        if self.decks.decks_closed(self.event_id, player_id=self.player_id) is not None:
            return None
        pool = [p.card for p in self.decks.pool(self.event_id, self.player_id)]
        self._pool = pool_key((card.set_code, card.number, card.name) for card in pool)
        kept = self._files.take(self.event_id, self.player_id, built_on=self._seen, pool=self._pool)
        if kept is None:
            return None
        try:
            deck, problems = resolve(parse_json(json.dumps(kept.deck)), self.decks.index)
        except (InputError, ValueError):
            return None
        have = Counter(normalize_name(card.name) for card in pool)
        used = Counter(normalize_name(card.name) for card in deck.commanders if not is_piper(card))
        for card, count in deck.main.items():
            used[normalize_name(card.name)] += 0 if is_free_basic(card) else count
        if problems or any(n > have[name] for name, n in used.items()):
            return None  # hand-edited, or a card the pool doesn't hold: the registered deck instead
        return deck, kept.touched

    def _keep(self, session: DeckSession) -> None:
        self._files.keep(
            self.event_id,
            self.player_id,
            deck_json(session.deck()),
            session.touched,
            built_on=self._seen,
            pool=self._pool,
        )

    @property
    def session(self) -> DeckSession:
        """The deck being built, allowed the Pipers the store's stock holds for it now: other decks take them, and
        the desk changes the stock, while a builder stays open.  A deck registered for the player elsewhere since
        (the desk's correction, another builder) is the deck: the builder starts again from it, the changes not
        registered here set aside, and says so."""
        mark = self.decks.deck_mark(self.event_id, self.player_id)
        if mark != self._seen:
            self._seen = mark
            self._session = self._opened(self.decks.deck_of(self.event_id, self.player_id))
            self.notices.append(
                f"a deck was registered for {quoted(self.player_name)} elsewhere: this builder now shows that deck"
            )
        self._session.may_add = self.decks.stock_for(self.event_id, self.player_id)[0]
        return self._session

    @property
    def pipers_note(self) -> str | None:
        """What the builder says when the store's stock, as it is now, limits the Pipers this deck may add."""
        return self.decks.stock_for(self.event_id, self.player_id)[1]

    @property
    def pipers_most(self) -> int:
        """The most Pipers this deck may lead with, as the store's stock is now (``Decks.pipers_most``)."""
        return self.decks.pipers_most(self.event_id, self.player_id)

    def _register(self, deck: Deck, legal: bool, final: bool) -> None:
        registered = self.decks.register_deck(
            self.event_id,
            self.player_name,
            parse_json(write_json(deck)),
            by=self.by,
            actor=self.actor,
            within_stock=True,
        )  # the history says it came from this terminal (or browser); closed registration refuses it (PhaseOver)
        self.registered = True
        self._seen = registered.mark  # this builder's own registration (one registered elsewhere since is not)
        self._files.drop(self.event_id, self.player_id)  # registered: the deck is the registration now
        self.report = registered  # the legality report ``event deck`` gives, for a face that shows it
        self.notices.append(
            f"deck registered for {quoted(self.player_name)} ({registered.led}): "
            + ("legal" if registered.valid else "not legal yet")
        )

    def drafted(self) -> DraftTable:
        raise InputError("the draft review is in 'cmdraft event export'; here you build and register the deck")

    def bot(self, seat: int) -> BotDeck:
        raise InputError("an event pool has no bots to show; here you build and register the deck")

    def export(self, folder: Path | None, force: bool) -> Exported:
        raise InputError("export the event's files with 'cmdraft event export'")
