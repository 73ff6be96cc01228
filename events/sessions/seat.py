"""One seat at a draft table, as a face holds it: the pack on the screen, the cards marked, the pick on the
pack that was seen, the last cards taken for the player, the pick's clock and what runs out of it.

Every face (the line prompt, the full-screen app, a browser) holds a ``SeatSession`` over the draft's
``DraftTable`` and only shows what it says: nothing here prints or draws.  A pick always names the pack
state that was shown (``show``), so a pick confirmed on a pack that another terminal or the timer has
overtaken is refused, never applied to other cards.  The clocks come in (``clock``: seconds that only go
forward, ``wall``: the time of day; by default the application's, ``events.timing``), so tests move them
instead of waiting.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import TYPE_CHECKING

from draft.advice import Advice, ColorSignal, seat_advice, signals
from draft.engine import Draft, StalePickError
from draft.picks import Pick, PickRequest
from draft.timeout import Marks
from events import timing
from events.night.refusals import BotSeat, NotYourSeat, Refusal, StalePack, WrongCount
from events.sessions.table import DraftTable
from sets.booster import Printing
from sets.cards import Card
from sets.errors import StateError
from sets.visible import sentence

if TYPE_CHECKING:
    from events.deferred import Deferred


class Mark(Enum):
    """What a mark key did: marked the card, took the mark off, or nothing (as many cards are marked as the pick takes)."""

    MARKED = "marked"
    UNMARKED = "unmarked"
    FULL = "full"


@dataclass(frozen=True)
class Taken:
    """A pick made for the seat: the cards, and why when they were taken for the player (else empty)."""

    pick: Pick
    why: str = ""


@dataclass(frozen=True)
class Refused:
    """The pick was refused (the pack on the screen is no longer the seat's): why, the cards taken for the
    seat at the pick it was made on meanwhile, and who took them (the draft's timer, the desk, another terminal);
    ``refusal``: the core's typed refusal (``StalePack``), which the web answers with."""

    reason: str
    taken_meanwhile: Pick | None
    by: str = ""  # who took it meanwhile: "timer", "desk" or "terminal" (``DraftTable.taken_by``)
    refusal: Refusal | None = None


BOT_SEAT = "a bot picks for your seat now (the desk dropped the player or handed the seat to a bot): ask the desk"
# Why a phone or terminal holds its seat no more, as every face says it (a phone's join screen, a refused pick):
SEAT_LOST = {
    False: "your seat was opened on another device or terminal: give your seat code again to take it back, or ask "
    "the desk",  # its code was given there
    True: "the desk gave your seat a new code: ask the desk for it, then give it again",
}


def where_words(pack: int, packs: int, pick: int, picks: int) -> str:
    """Where a seat's draft is, as every face says it: ``pack 1 of 3, pick 2 of 10``."""
    return f"pack {pack} of {packs}, pick {pick} of {picks}"


@lru_cache(maxsize=1024)  # (a server says it with every pack it hands a phone: the same few hundred sentences)
def news_words(pack: int, packs: int, pick: int, picks: int, take: int, cards: int) -> str:
    """What a seat is told once when a pack reaches it (a phone's screen reader says it)."""
    return f"Your next pack is here: {where_words(pack, packs, pick, picks)}, take {take} of {cards} cards."


def pack_wait_words(done: bool, bot: bool, waiting_on: Sequence[str], pack_done: bool, pack: int) -> str:
    """What a seat with no pack in front of it waits for: its draft done, a bot picking for it (``BOT_SEAT``), the
    players upstream (by name, as given: a face shows them as it shows every name), or the next pack."""
    if done:
        return "Your draft is done. Waiting for the others to finish."
    if bot:
        return sentence(BOT_SEAT)
    if waiting_on:
        return f"Waiting for {', '.join(waiting_on)} " + (
            f"to finish pack {pack}…" if pack_done else "to pass you a pack…"
        )
    return "Waiting for the next pack…"


def check_positions(positions: Sequence[int], due: int, size: int) -> None:
    """``WrongCount`` unless ``positions`` are ``due`` different cards of a pack of ``size``: the one rule, in one
    set of words, for the prompt, the app and the web (positions from 0; the words count from 1)."""
    cards = "card" if due == 1 else "cards"
    if len(positions) != due:
        raise WrongCount(f"take exactly {due} {cards} from this pack, not {len(positions)}")
    for index, position in enumerate(positions):
        if not 0 <= position < size:
            raise WrongCount(
                f"there is no card {position + 1} in this pack (it has {size}): take exactly {due} {cards}"
            )
        if position in positions[:index]:
            raise WrongCount(f"card {position + 1} is chosen twice: take exactly {due} different {cards}")


def stale_words(seen: tuple[int, int], at: tuple[int, int], picked: bool, *, packs: int, picks: int) -> str:
    """Why a pick on pack ``seen`` is refused, the seat being at ``at`` now (``picked``: it holds no pack now and
    waits for one to be passed to it) in a draft of ``packs`` packs of ``picks`` picks each: past the last pick of
    a pack the seat's next pick is the next pack's first, and past the last pack there is none."""
    if at[0] > packs:
        now = "the draft is over: every pick is made"
    elif picked and at[1] > picks and at[0] == packs:
        now = "your picks are all made: the others are finishing the last pack"
    elif picked and at[1] > picks:
        now = f"your next pick is pack {at[0] + 1} pick 1, once every seat has finished pack {at[0]}"
    elif picked:
        now = f"your next pick is pack {at[0]} pick {at[1]} (waiting for a pack)"
    else:
        now = f"the pack in front of you is now pack {at[0]} pick {at[1]}"
    if seen < at:
        return f"that pack has moved on: your pack {seen[0]} pick {seen[1]} is already made; {now}"
    # the seat's next pick, or a later one: its pack hasn't been passed to the seat yet
    return f"that pack hasn't reached you: your pack {seen[0]} pick {seen[1]} is not reached yet; {now}"


NO_ASSISTANCE = "no assistance in this event's drafts: the hint, signals and 'Can lead' are off (the event's rules)"
TIMED_OUT = "the strong bot's pick, the same at every terminal"
TIMED_OUT_PRACTICE = "the best pick for your colors"


def timed_out_words(taken: Sequence[int], marked: Sequence[int], practice: bool) -> str:
    """Why the timer took these positions of the pack shown, the player having marked ``marked`` there: the cards
    chosen, the strong bot's pick (at a practice table: the best for the seat's colors), or both."""
    kept = sum(position in marked for position in taken)
    if not kept:
        return TIMED_OUT_PRACTICE if practice else TIMED_OUT
    chosen = "the card you had chosen" if kept == 1 else "the cards you had chosen"
    if kept == len(taken):
        return chosen
    rest = TIMED_OUT_PRACTICE if practice else "the strong bot's pick"
    return f"{chosen}, and {rest} for the rest"


class SeatSession:
    """The seat ``seat`` of ``table``; ``token`` is this terminal's binding of it (seat codes), ``confirm``
    whether each pick is asked about before it is taken."""

    def __init__(
        self,
        table: DraftTable,
        seat: int,
        *,
        token: str | None = None,
        confirm: bool = False,
        clock: Callable[[], float] = timing.monotonic,
        wall: Callable[[], float] = timing.now,
    ) -> None:
        self.table, self.seat, self.token, self.confirm = table, seat, token, confirm
        self.clock, self.wall = clock, wall
        self.marked: list[int] = []
        self.seen: tuple[int, int] | None = None  # (pack, pick) of the pack on the screen
        self.deadline: float | None = None  # when this pick ends, on ``clock``

    # --- what the seat sees --------------------------------------------------------------------------------

    @property
    def draft(self) -> Draft:
        return self.table.draft

    @property
    def pack(self) -> list[Printing]:
        return self.draft.pack(self.seat)

    @property
    def due(self) -> int:
        """Cards to take from this pack."""
        return self.draft.picks_due(self.seat)

    @property
    def at(self) -> tuple[int, int]:
        """(pack, pick) the seat is at now, from 1."""
        return self.draft.at(self.seat)

    @property
    def pool(self) -> list[Card]:
        return [printing.card for printing in self.draft.pools[self.seat]]

    @property
    def timed(self) -> bool:
        """Whether the draft keeps the clock (an event draft with a timer), the same at every terminal."""
        return self.table.timed

    @property
    def assist(self) -> bool:
        """Whether the seat may see the hint, the signals and the cards that can lead: a practice draft always,
        an event's draft only when the event allows it (``event new --assist``): outside assistance otherwise."""
        return self.table.kind == "practice" or self.table.assist

    def _assisted(self) -> None:
        if not self.assist:
            raise StateError(NO_ASSISTANCE)

    def hint(self) -> Advice:
        """What a strong drafter takes from this pack, and why (``StateError`` where assistance is off)."""
        self._assisted()
        return seat_advice(self.draft, self.seat, self.table.pipers)

    def signals(self) -> list[ColorSignal]:
        self._assisted()
        return signals(self.draft, self.seat)

    def show(self) -> None:
        """The pack goes on the screen: the pick names it from now on, the marks are cleared, and the pick's
        clock runs: the draft's own deadline (an event's timer, the same at every terminal and after a
        restart), or a practice timer that starts now (the first pick shows the full time)."""
        self.seen = self.at
        self.mark_only([])
        if self.timed:
            at = self.table.deadline(self.seat)
            self.deadline = None if at is None else self.clock() + (at - self.wall())
            return
        seconds = self.table.pick_seconds(len(self.pack)) if self.pack else None
        self.deadline = self.clock() + seconds if seconds else None

    @property
    def current(self) -> bool:
        """Whether the pack on the screen is still the seat's (an answer to a question asked about it counts)."""
        return self.seen == self.at

    def seconds_left(self) -> int | None:
        """Whole seconds left for this pick, rounded up (None without a clock)."""
        if self.deadline is None:
            return None
        return max(0, math.ceil(self.deadline - self.clock()))

    def expired(self) -> bool:
        return self.deadline is not None and self.clock() >= self.deadline

    # --- marks ---------------------------------------------------------------------------------------------

    def toggle_mark(self, index: int) -> Mark:
        """Mark a card of the pack, or take its mark off; no more marks than the pick takes."""
        if index in self.marked:
            self.mark_only([i for i in self.marked if i != index])
            return Mark.UNMARKED
        if len(self.marked) >= self.due:
            return Mark.FULL
        self.mark_only([*self.marked, index])
        return Mark.MARKED

    def mark_only(self, positions: Sequence[int]) -> None:
        """These cards marked and no others (the hint's pair, a choice waiting for its confirmation); the table is
        told, so the timer takes them if the pick's time runs out first (``DraftTable.mark``)."""
        self.marked = list(positions)
        seen, pack = self.seen or self.at, self.pack
        if seen == self.at and all(0 <= i < len(pack) for i in self.marked):  # (a pack that moved on: void marks)
            self.table.mark(self.seat, Marks(*seen, tuple([pack[i] for i in self.marked])))

    def ready(self, highlighted: int | None) -> bool:
        """Whether the marks make a whole pick; one missing is the ``highlighted`` card, marked now."""
        if len(self.marked) < self.due and highlighted is not None and highlighted not in self.marked:
            self.mark_only([*self.marked, highlighted])
        return len(self.marked) >= self.due

    # --- picks ---------------------------------------------------------------------------------------------

    def request(self, positions: Sequence[int]) -> PickRequest:
        """The pick of these positions of the pack that was shown."""
        seen = self.seen or self.at
        pack = self.pack
        return PickRequest(self.seat, *seen, tuple(pack[i] for i in positions), tuple(positions))

    def verify(self, positions: Sequence[int]) -> PickRequest:
        """The pick of these positions of the pack that was shown, checked by the night's rules in order: the seat
        is a player's (``BotSeat``), held here (``NotYourSeat``), on the pack it shows (``StalePack``), and the
        positions are a whole pick of it (``WrongCount``).  Every face's pick comes through here."""
        seat, table = self.seat, self.table
        if seat not in table.humans:
            raise BotSeat(BOT_SEAT)
        if not table.bound(seat, self.token):
            raise NotYourSeat(SEAT_LOST[table.code_reset(seat)])
        draft = table.draft
        held, at, due, _, _ = draft.view(seat)  # held None: the seat waits for a pack, or the draft is over
        seen = self.seen or at
        if held is None or seen != at:
            raise StalePack(self.stale_words(seen, not draft.finished and held is None))
        cards = held.cards
        positions = list(positions)
        check_positions(positions, due, len(cards))
        return PickRequest(seat, *seen, tuple([cards[i] for i in positions]), tuple(positions))

    def pick(self, positions: Sequence[int], why: str = "") -> Taken | Refused:
        """Take these cards of the pack that was shown (saved, the bots' picks after it); a pack that moved on
        meanwhile refuses it (``Refused``); another rule's refusal is raised (``verify``)."""
        return pick_together([(self, positions)], why)[0]

    def refused(self, error: Exception) -> Refused:
        """A refusal from the draft's file (applied inside its transaction) as the night's typed refusal: a pack
        that moved on is ``Refused`` with who took it meanwhile; a seat that became a bot's or is held elsewhere
        raises ``BotSeat`` / ``NotYourSeat``."""
        seen = self.seen or self.at
        if not isinstance(error, StalePickError):
            if self.seat not in self.table.humans:
                raise BotSeat(BOT_SEAT) from None
            if not self.table.bound(self.seat, self.token):
                raise NotYourSeat(SEAT_LOST[self.table.code_reset(self.seat)]) from None
            raise error
        return self.stale(seen)

    def stale_words(self, seen: tuple[int, int], picked: bool) -> str:
        """Why a pick on pack ``seen`` is refused now (``stale_words`` with this draft's packs and picks)."""
        draft = self.draft
        return stale_words(seen, self.at, picked, packs=draft.config.boosters, picks=draft.picks_per_pack)

    def stale(self, seen: tuple[int, int]) -> Refused:
        draft = self.draft
        refusal = StalePack(self.stale_words(seen, not draft.finished and self.seat not in draft.waiting()))
        taken = self.taken_at(seen)
        return Refused(refusal.message, taken, "" if taken is None else self.table.taken_by(taken), refusal)

    @property
    def last_cards_due(self) -> bool:
        """Whether the pack holds no more cards than the pick takes: they are taken for the player, no choosing."""
        return not self.draft.finished and 0 < len(self.pack) <= self.due

    def take_last_cards(self) -> Taken | Refused:
        self.show()
        return self.pick(range(len(self.pack)))

    def time_up(self) -> Taken | None:
        """The pick's time ran out: the draft's timeout (once, the same cards whoever applies it), or at a practice
        table the timer's pick made here; either takes the cards marked on the screen first, then the strong bot's
        pick, the best for the seat's colors (``DraftTable.timed_out_positions``).  None: not quite due by the
        draft's clock yet."""
        seen = self.seen or self.at
        if self.timed:
            self.table.apply_timeout(self.wall())
            taken = self.taken_at(seen)
            return None if taken is None else Taken(taken, timed_out_words(taken.positions, self.marked, False))
        positions = self.table.timed_out_positions(self.seat)
        outcome = self.pick(positions, timed_out_words(positions, self.marked, True))
        return outcome if isinstance(outcome, Taken) else None

    def taken_at(self, seen: tuple[int, int]) -> Pick | None:
        """The seat's pick at (pack, pick), once made."""
        return next((p for p in reversed(self.draft.log) if p.seat == self.seat and (p.pack, p.pick) == seen), None)


def pick_together(
    picks: Sequence[tuple[SeatSession, Sequence[int]]],
    why: str = "",
    *,
    raising: bool = True,
    deferred: Deferred | None = None,
) -> list[Taken | Refused]:
    """Several seats' picks at one table, each checked as ``SeatSession.verify`` checks it, then written in one
    transaction on the draft's file (``DraftTable.pick_many``: a server with a table of phones picking at once
    writes once).  Each answer is ``Taken``, or ``Refused`` (its pack moved on); a seat whose pick another rule
    refuses gets that refusal raised when it is alone and ``raising``, else carried in ``Refused.refusal``.
    ``deferred``: the write's sync left to it (``DraftTable.pick_many``)."""
    outcomes: list[Taken | Refused | None] = [None] * len(picks)
    requests, placed = [], []
    for index, (held, positions) in enumerate(picks):
        try:
            requests.append((held.verify(positions), held.token))
            placed.append(index)
        except StalePack:
            outcomes[index] = held.stale(held.seen or held.at)
        except Refusal as refusal:
            if raising and len(picks) == 1:
                raise
            outcomes[index] = Refused(refusal.message, None, "", refusal)
    if requests:
        table = picks[placed[0]][0].table
        for index, result in zip(placed, table.pick_many(requests, deferred), strict=True):
            held = picks[index][0]
            if isinstance(result, Exception):
                try:
                    outcomes[index] = held.refused(result)
                except Refusal as refusal:
                    if raising and len(picks) == 1:
                        raise
                    outcomes[index] = Refused(refusal.message, None, "", refusal)
            else:
                outcomes[index] = Taken(result, why)
    return [outcome for outcome in outcomes if outcome is not None]
