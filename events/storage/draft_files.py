"""The draft being picked (``TableSession``): practice drafts and event pods alike.  Its records and
journal, and how a pick is kept, are described in ``events.storage.draft_records``.

The token in the file name is random: a draft number reused after a restore
never picks up another draft's journal.

A pick names the pack state the player saw (``PickRequest``: pack, pick and the
printings taken); inside the transaction it is checked against the draft as it
stands on disk, so a pick confirmed on a screen that another terminal (or the
timer) has overtaken is refused, never applied to other cards.

The pick timer belongs to the draft: with a timer, the journal (or, before the
first pick, the record) holds each player's deadline for the pack in front of
them (``pick_clock``: the timer runs per pack held).  Whoever writes the draft
file first after a deadline (a terminal showing the seat, the desk, the server's
watchdog or any other command) takes that seat's pick in that same transaction,
once: the cards this copy's faces show marked for the seat (``mark``: kept in
memory, never saved), then the strong bot's pick (``draft.timeout``); a copy told
that a seat's clock waits for another party (``clocks_held``: the phones', once a
server has served the event) leaves that seat's pick alone.  Quitting and coming back
changes nothing.

A draft stopped by ``event restore --force`` has the status ``replaced``: a
terminal still on it is told so instead of picking on.

"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tinydb import TinyDB

from draft.bots import Bot, BotStyle
from draft.engine import Draft, DraftConfig, StalePickError
from draft.picks import Pick, PickRequest
from draft.sim import bot_styles, run_bots
from draft.timeout import Marks
from events import timing
from events.deferred import Deferred
from events.storage.draft_records import (
    DRAFTS,
    REPLACED,
    RESET_MARK,
    DraftReplacedError,
    check_practice_timer,
    check_timer,
    fold,
    journal_file,
    load_draft,
    pick_rows,
    pick_seconds,
    token_hash,
)
from events.storage.journal import JournalWrite
from events.storage.pick_clock import deadline_of, next_deadline, set_back, without_seats
from events.storage.records import MAX_NAME
from events.storage.seat_picks import SeatPicks
from events.storage.store import Store
from sets.errors import LimitError, StateError, WouldWait
from sets.names import refuse_blank


@dataclass
class TableSession(SeatPicks):
    """A draft in progress with some human seats; bots take the others."""

    store: Store
    draft_id: int
    draft: Draft
    doc: dict[str, Any]
    bots: dict[int, Bot] = field(default_factory=dict)
    # The database record as saved: its picks come before the journal's, its token names the journal.
    record: dict[str, Any] = field(default_factory=dict)
    _round_read: int = field(default=0, init=False)  # the round at the journal's last read (a write compacts after it)
    # Asked only when a pick's time is up, with the seats' claims: the seats whose overdue picks are not this copy's to
    # make (the phones' of an event a server has served are a server's: ``events.night.phone_clocks``).
    clocks_held: Callable[[Mapping[str, Any]], Collection[int]] | None = field(default=None, repr=False)
    # The cards the faces of this process show marked, by seat (``mark``): in memory only, for the timer's pick.
    marks: dict[int, Marks] = field(default_factory=dict, repr=False)

    @classmethod
    def prepare(
        cls,
        store: Store,
        *,
        kind: str,
        seed: int,
        config: DraftConfig,
        humans: Sequence[int],
        names: Sequence[str],
        styles: Sequence[BotStyle] | None = None,
        timer: int | None = None,
        pipers: int | None = None,
        extra: dict[str, Any] | None = None,
    ) -> TableSession:
        """A new draft with the bots' first picks made, not saved yet (``insert`` saves it); a seat's name
        is 1 to ``MAX_NAME`` characters (``LimitError`` otherwise, before anything is made) that show something
        (``sets.names``: bad input otherwise).  ``pipers``: the Pipers
        each seat can count on after the draft (a store's stock shared), which the bots, the hint and the timer's
        pick plan with; None, the product's most (no store)."""
        for name in names:
            if not 1 <= len(name) <= MAX_NAME:
                raise LimitError("name", "a seat's name", 1, MAX_NAME, len(name), "characters")
            refuse_blank(name, "a seat's name")
        check_practice_timer(timer) if kind == "practice" else check_timer(timer or 0, "the event's pick timer")
        draft = Draft.new(config, seed)
        seat_styles = bot_styles(styles, config.seats)
        state = draft.to_json()
        state.pop("picks")
        doc = {
            "kind": kind,
            "created": timing.stamp(),
            "state": state,
            "humans": list(humans),
            "names": list(names),
            "styles": [style.value for style in seat_styles],
            "timer": timer,
            "status": "drafting",
            "deck": None,
            **({} if pipers is None else {"pipers": pipers}),  # a draft without a store keeps none
            **(extra or {}),
        }
        session = cls(store, 0, draft, doc)
        session._make_bots()
        run_bots(draft, session.bots)
        session._after_bots()
        session.doc["picks"] = pick_rows(draft.log)
        session.doc["journal"] = None if draft.finished else secrets.token_hex(6)
        session.doc["deadline"] = session._next_deadline(None, timing.now())
        session.record = {"picks": session.doc["picks"], "journal": session.doc["journal"]}
        return session

    def insert(self, db: TinyDB) -> int:
        """Save the prepared draft inside a database transaction."""
        self.draft_id = db.table(DRAFTS).insert(self.doc)
        return self.draft_id

    @classmethod
    def create(cls, store: Store, **options: Any) -> TableSession:
        session = cls.prepare(store, **options)
        with store.write() as db:
            session.insert(db)
        return session

    @classmethod
    def load(cls, store: Store, draft_id: int) -> TableSession:
        with store.read() as db:
            draft, doc = load_draft(store, db, draft_id)
            record = dict(db.table(DRAFTS).get(doc_id=draft_id))
        session = cls(store, draft_id, draft, doc, record=record)
        session._make_bots()
        return session

    def _make_bots(self) -> None:
        seed = self.draft.seed or 0
        self.bots = {}
        for seat, style in enumerate(self.doc["styles"]):
            if seat in self.doc["humans"]:
                continue
            bot = Bot(BotStyle(style), seed * 1009 + seat, pipers=self.pipers)
            for pick in self.draft.picks_of(seat):  # the packs it saw and what it took: the same bot as before
                bot.learn(pick.offered, [p.card for p in pick.taken], pick.pick)
            self.bots[seat] = bot

    def _after_bots(self) -> None:
        if self.draft.finished:
            self.doc["status"] = "building"

    def waiting_humans(self) -> list[int]:
        humans = self.doc["humans"]  # read once, not copied for every seat
        return [seat for seat in self.draft.waiting() if seat in humans]

    @property
    def _base(self) -> int:
        """Picks kept in the database record; the journal holds the ones after them."""
        return len(self.record["picks"])

    def _catch_up(self, journal: dict[str, Any] | None, deferred: Deferred | None = None) -> None:
        """Apply the picks made elsewhere; a replaced draft is ``DraftReplacedError``, a copy whose write failed
        after it changed ``DraftBehindError`` (``WouldWait`` with ``deferred``)."""
        self.check_fresh(deferred)
        self._round_read = self.draft.round
        if journal is None:
            return
        if journal["status"] == REPLACED:
            if deferred is not None:
                raise WouldWait(f"draft {self.draft_id} was replaced: the new one is to be opened first")
            self.doc["status"] = REPLACED
            raise DraftReplacedError(
                f"draft {self.draft_id} was replaced by 'cmdraft event restore' and stopped here; "
                "no pick is taken on it any more: run the draft command again for the restored draft"
            )
        if journal["humans"] != self.doc["humans"]:
            self.doc["humans"] = list(journal["humans"])
            self._make_bots()
        rows = journal["picks"][len(self.draft.log) - self._base :]
        for seat, *positions in rows:
            record = self.draft.pick(seat, positions)
            if seat in self.bots:
                self.bots[seat].learn(record.offered, [p.card for p in record.taken], record.pick)
        self.doc["status"] = journal["status"]
        for key in ("deadline", "claims", "timed_out"):
            if key in journal:
                self.doc[key] = journal[key]
        self._round_read = self.draft.round

    # --- the draft's clock ------------------------------------------------------------------------------

    def pick_seconds(self, cards_left: int) -> float | None:
        return pick_seconds(self.doc.get("timer"), cards_left, self.draft.pack_size)

    def _next_deadline(self, deadline: dict[str, Any] | None, now: float) -> dict[str, Any] | None:
        """The players' deadlines after a write at ``now`` (``pick_clock``: the timer runs per pack held)."""
        return next_deadline(self.draft, self.humans, self.pick_seconds, deadline, now) if self.timed else None

    def deadline(self, seat: int | None = None) -> float | None:
        """Wall-clock time the seat's pick of the pack in front of it ends (None without a timer, or without a
        pack); without a seat, the earliest of the players'."""
        if not self.timed:
            return None
        return deadline_of(self.draft, self.doc.get("deadline"), self.humans if seat is None else [seat])

    def _due(self, now: float) -> list[int]:
        """The players' seats whose pick's time is up at ``now`` and is this copy's to make (``clocks_held``)."""
        due = [seat for seat in self.waiting_humans() if (at := self.deadline(seat)) is not None and now >= at]
        if due and self.clocks_held is not None:
            held = self.clocks_held(self.claims)
            due = [seat for seat in due if seat not in held]
        return due

    def _time_out(self, now: float) -> list[Pick]:
        """Inside a transaction: the best cards for every player whose pick's time is up (``_due``), and the bots
        after them."""
        if not self.timed:  # no deadlines kept: nothing is ever due (every pick write asks)
            return []
        due = self._due(now)
        if not due:
            return []
        taken = [self.draft.pick(seat, self.timed_out_positions(seat)) for seat in due]
        self.doc["timed_out"] = [*self.doc.get("timed_out", []), *([p.seat, p.pack, p.pick] for p in taken)]
        run_bots(self.draft, self.bots)
        self._after_bots()
        return taken

    def apply_timeout(self, now: float | None = None) -> list[Pick]:
        """Apply the current pick's timeout if it is due (a no-op if another terminal already did); returns the
        picks it made for the players."""
        journal = journal_file(self.store, self.draft_id, self.record)
        now = timing.now() if now is None else now
        if journal is None or not self.timed:
            return []
        self._catch_up(journal.state())
        at = self.deadline()
        if not self.clock_set_back(now) and (
            at is None or now < at or not self._due(now)
        ):  # (a seat's clock held: no write)
            return []
        with self._writing(journal) as entry:
            self._catch_up(entry.state)
            before = len(self.draft.log)
            taken = self._time_out(now)
            if taken or self.clock_set_back(now):  # (set back: deadlines no more than a whole pick's time away)
                self._save(entry, before, now)
        return taken

    def clock_set_back(self, now: float) -> bool:
        """Whether the clock was set back since a player's deadline was stamped (it lies further ahead than the
        whole time of the pack in front of them): ``apply_timeout`` then stamps the deadlines anew."""
        return self.timed and set_back(self.draft, self.doc.get("deadline"), self.humans, self.pick_seconds, now)

    # --- seats bound to terminals ---------------------------------------------------------------------------

    def claim(self, seat: int, token: str, take_over: bool = True) -> None:
        """Bind a seat to the terminal holding ``token`` (after its seat code was given there); without
        ``take_over``, only a seat nobody holds, checked in the same transaction that binds it."""
        self._set_claim(seat, token_hash(token), None if take_over else token)

    def release(self, seat: int) -> None:
        """Unbind a seat (its code was reset): no terminal may pick for it until the new code is given."""
        self._set_claim(seat, RESET_MARK + secrets.token_hex(8))

    def _set_claim(self, seat: int, value: str, unless_held: str | None = None) -> None:
        """Inside one transaction: the seat's claim set to ``value``, unless ``unless_held`` is given and the seat is
        held by another token than it (``bound``) once the draft's file is read."""
        if self.record.get("journal") is None:
            return  # the draft is over
        with self._writing() as entry:
            self._catch_up(entry.state)
            if unless_held is not None and not self.bound(seat, unless_held):
                return
            self.doc["claims"] = dict(self.doc.get("claims") or {}, **{str(seat): value})
            self._save(entry, len(self.draft.log))

    def _save(self, entry: JournalWrite, before: int, now: float | None = None) -> None:
        """Inside the transaction: the picks after ``before`` and the draft's fields, for the journal to keep (the
        file compacted when a pack ended in this transaction)."""
        self.doc["deadline"] = self._next_deadline(self.doc.get("deadline"), timing.now() if now is None else now)
        fields = {
            "humans": self.humans,
            "status": self.doc["status"],
            "deadline": self.doc["deadline"],
            "claims": self.doc.get("claims") or {},
            "timed_out": self.doc.get("timed_out") or [],
        }
        pack_ended = self.draft.round != self._round_read
        entry.save(fields, pick_rows(self.draft.log[before:]), compact=pack_ended)

    def choose(self, seat: int, positions: Sequence[int]) -> PickRequest:
        """The pick of these positions of the pack on the seat's screen now (what the player confirms)."""
        return self.draft.request(seat, positions)

    def pick(self, request: PickRequest, token: str | None = None) -> Pick:
        """A human pick, then the bot picks it allows, saved in one transaction on the draft's own file.

        Inside the transaction the session first applies picks made at other terminals and a timeout that is due,
        then checks the request against the pack as it stands: a pick made on a pack state that has moved on is
        refused (``StalePickError``, the session then shows the new pack), so several terminals can share one draft
        without losing or misplacing picks.  ``token``: the terminal's binding when the seat is bound to one.
        """
        if not isinstance(request, PickRequest):
            raise TypeError("a pick is a PickRequest (session.choose or session.suggested_pick), not pack positions")
        if request.seat not in self.humans:
            raise StateError(f"seat {request.seat + 1} is a bot seat")
        outcome = self.pick_many([(request, token)])[0]
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    def pick_many(
        self, requests: Sequence[tuple[PickRequest, str | None]], deferred: Deferred | None = None
    ) -> list[Pick | Exception]:
        """Several seats' picks (each with its seat's token) and the bot picks they allow, in one transaction on
        the draft's own file — one write for them all, as a server with many players at one table makes them.
        Each is checked as ``pick`` checks it, in the order given; a refused one comes back as its error
        (``StalePickError``, ``StateError``) and changes nothing, the others are taken and saved together.
        ``deferred``: written without waiting, synced by it (``Journal.write``; a replaced draft: ``_catch_up``)."""
        outcomes: list[Pick | Exception] = []
        with self._writing(deferred=deferred) as entry:
            self._catch_up(entry.state, deferred)
            now = timing.now()
            before = len(self.draft.log)
            self._time_out(now)
            for request, token in requests:
                outcomes.append(self._take(request, token))
            if len(self.draft.log) > before:
                self._save(entry, before, now)
        if self.draft.finished and self.doc["kind"] == "practice":
            with self.store.write() as db:
                fold(self.store, db, self.draft_id)
        return outcomes

    def _take(self, request: PickRequest, token: str | None) -> Pick | Exception:
        """Inside the transaction: one checked pick and the bot picks it allows, or why it is refused."""
        seat = request.seat
        if seat not in self.doc["humans"]:
            return StateError(
                f"seat {seat + 1} is now a bot seat: the desk dropped the player or handed the seat to a bot, "
                "and a bot picks for the seat"
            )
        if not self.bound(seat, token):
            return StateError(
                f"seat {seat + 1} is now bound to another terminal (its seat code was given there); "
                "ask the desk to reset the code"
            )
        try:
            record = self.draft.take(request)
        except StalePickError as error:
            return error
        if self.bots:  # a table of players only has no bot to run
            run_bots(self.draft, self.bots)
        self._after_bots()
        return record

    def hand_to_bot(self, seat: int | None) -> list[Pick]:
        """A human seat becomes a bot seat (the player dropped) and the bots catch up at once; the picks made.
        ``None``: no seat changes hands, the bots make the picks that are theirs (the server's watchdog)."""
        if self.record.get("journal") is None:
            return []  # the draft is over
        with self._writing() as entry:
            self._catch_up(entry.state)
            self.doc["humans"] = [s for s in self.doc["humans"] if s != seat]
            self._make_bots()
            before = len(self.draft.log)
            run_bots(self.draft, self.bots)
            self._after_bots()
            self._save(entry, before)
        return self.draft.log[before:]

    def hand_to_player(self, seat: int) -> None:
        """A seat a bot took over (``hand_to_bot``) is the player's again from the next pick on; the bot's picks
        so far stay."""
        if self.record.get("journal") is None:
            return  # the draft is over
        with self._writing() as entry:
            self._catch_up(entry.state)
            if seat in self.doc["humans"]:
                return
            self.doc["humans"] = sorted([*self.doc["humans"], seat])
            self._make_bots()
            self._save(entry, len(self.draft.log))

    def resume_file(self, restart_clock: float | None = None, seats: Collection[int] = ()) -> None:
        """This process's first write of the draft's file made now, where waiting is fine (a server starting):
        the file written whole (made, when the draft has none yet) with the draft as it stands, so the next pick
        appends, on the server's event loop.  ``restart_clock``: a time from which each of ``seats`` holding a pack
        has its whole time again (a server started again after one stopped: nobody could pick on a phone while
        it was down, and a clock that ran on meanwhile would hand their picks to the timer the moment it came
        back); the other seats keep theirs.  Nothing to do for a draft that is over or a file written here."""
        journal = journal_file(self.store, self.draft_id, self.record)
        if journal is None or journal.resumed or self.draft.finished:
            return
        with self._writing(journal) as entry:
            self._catch_up(entry.state)
            if restart_clock is not None:  # the seats' deadlines made anew from then (``_save``), the others kept
                self.doc["deadline"] = without_seats(self.doc.get("deadline"), self.humans, seats)
            self._save(entry, len(self.draft.log), restart_clock)

    def refresh(self) -> None:
        """Catch up with picks made at other terminals."""
        journal = journal_file(self.store, self.draft_id, self.record)
        if journal is None:
            return
        self._catch_up(journal.state())

    def set_timer(self, seconds: int | None) -> None:
        """A new pick timer for the rest of the draft (seconds for a full pack)."""
        check_practice_timer(seconds)
        self.doc["timer"] = seconds
        with self.store.write() as db:
            db.table(DRAFTS).update({"timer": seconds}, doc_ids=[self.draft_id])

    def save_deck(self, deck_json: dict[str, Any], legal: bool, final: bool = True) -> None:
        """Keep the deck; ``final`` (the player typed 'done') marks a legal deck's draft done."""
        self.doc["deck"] = deck_json
        self.doc["deck_legal"] = legal
        self.doc["status"] = "done" if legal and final else "building"
        with self.store.write() as db:
            fold(self.store, db, self.draft_id)
            db.table(DRAFTS).update(
                {"deck": deck_json, "deck_legal": legal, "status": self.doc["status"]}, doc_ids=[self.draft_id]
            )
