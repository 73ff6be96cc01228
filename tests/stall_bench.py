"""No pod stalls (issue 41): drafts with randomly slow, sleeping and vanishing phones, simulated on a clock of their
own (``events.timing.ManualClock``), driving the real code: each draft is a ``TableSession`` on a real draft file,
each phone's pick goes through ``SeatSession`` / ``pick_together`` as the server's pick writer sends it, and the
server's watchdog is the real ``Watcher._tick`` (over a one-pod stand-in for the served event).

A phone sees its seat's state when a write changes it, unless that push is lost (then it sees it again when it
reconnects, a few seconds later, as the page does); it picks after its think time on the pack it was shown (a pick
the timer overtook is refused as stale, and the phone looks again).  Kinds of phone, drawn per seat:

- ``prompt``: thinks 2-15 s a pick;
- ``slow``: thinks 20-90 s (often past the pick's time: the timer picks for it);
- ``sleeping``: prompt, but now and then its screen sleeps for 1-10 minutes;
- ``vanishing``: prompt until a random pick, then gone for good (the timer picks for it from then on).

A stall is a pack waiting in front of a seat longer than its pick time plus two of the watchdog's looks, or a draft
that stops short of its end: nothing left to happen, or no pick for twice a full pack's time.  The watchdog looks at every multiple of ``POLL`` as the
server's does; looks that would find nothing due are skipped (they change nothing), so the clock jumps to the next
deadline.
"""

from __future__ import annotations

import contextlib
import heapq
import random
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from draft.engine import DraftConfig
from events import timing
from events.sessions.seat import Refused, SeatSession, pick_together
from events.storage.draft_files import TableSession
from events.storage.draft_records import journal_file
from events.storage.store import Store
from events.web.live import Watcher
from events.web.settings import DEFAULT

POLL = DEFAULT.poll  # the server's watchdog looks this often (seconds)

TIMER = 60  # seconds for a full pack
KINDS = ("prompt", "slow", "sleeping", "vanishing")
LOST_PUSH = 0.05  # the share of pushes that never reach the phone
RECONNECT = (3.0, 15.0)  # seconds until a phone that missed a push has the seat's state again


@dataclass
class OnePod:
    """What the watchdog asks of the served event, for one pod: its draft, its lock, its wall clock."""

    session: TableSession
    clock: timing.ManualClock
    deferred: set[int] = field(default_factory=set)
    lock: threading.RLock = field(default_factory=threading.RLock)
    settled: bool = False

    def live_pods(self) -> list[int]:
        return [] if self.settled else [1]

    def locked(self, _pod: Any) -> threading.RLock:
        return self.lock

    def table(self, _pod: int) -> TableSession:
        self.session.refresh()
        return self.session

    def settle(self, _pod: int, _session: TableSession | None = None) -> None:
        self.settled = True

    def wall(self) -> float:
        return self.clock.now()

    def changes(self) -> tuple[None, set[int]]:
        return None, set()  # nothing to push: each simulated phone asks for its seat


@dataclass
class Phone:
    seat: int
    kind: str
    rng: random.Random
    gone_after: int | None = None  # picks made before it vanishes
    asleep_until: float = 0.0
    made: int = 0
    pending: tuple[int, int] | None = None  # the (pack, pick) it is picking from, once it has seen it

    def think(self) -> float:
        if self.kind == "slow":
            return self.rng.uniform(20, 90)
        return self.rng.uniform(2, 15)

    @property
    def gone(self) -> bool:
        return self.gone_after is not None and self.made >= self.gone_after


@dataclass
class Outcome:
    picks: int = 0
    timed_out: int = 0
    stale: int = 0
    stalls: int = 0
    longest_hold: float = 0.0  # the longest a pack waited in front of a seat, as a share of its pick time
    seconds: float = 0.0  # the draft's simulated length


class Simulation:
    def __init__(self, folder: Path, seed: int) -> None:
        self.rng = random.Random(seed)
        self.clock = timing.ManualClock()
        self.seed = seed
        seats = self.rng.randint(4, 8)
        humans = sorted(self.rng.sample(range(seats), self.rng.randint(2, seats)))
        self.table = TableSession.create(
            Store(folder / f"draft-{seed}.json"),
            kind="event",
            seed=seed,
            config=DraftConfig(seats=seats),
            humans=humans,
            names=[f"Seat {n + 1}" for n in range(seats)],
            timer=TIMER,
        )
        self.phones: dict[int, Phone] = {}
        for seat in humans:
            kind = self.rng.choice(KINDS)
            phone = Phone(seat, kind, random.Random(self.rng.random()))
            if kind == "vanishing":
                phone.gone_after = self.rng.randint(0, 29)
            self.phones[seat] = phone
        self.served = OnePod(self.table, self.clock)
        self.watcher = Watcher(self.served, hub=None)  # type: ignore[arg-type]  # the bench has no phones connected: nothing to push to, so no hub
        self.events: list[tuple[float, int, str, int]] = []
        self.order = 0
        self.tick_at: float | None = None  # the watchdog's next look
        self.held_since: dict[int, tuple[tuple[int, int], float]] = {}
        self.outcome = Outcome()
        self.start = self.clock.now()

    def at(self, when: float, what: str, seat: int = -1) -> None:
        self.order += 1
        heapq.heappush(self.events, (when, self.order, what, seat))

    # --- what the phones see ---------------------------------------------------------------------------------

    def pushed(self, seats: set[int] | None = None) -> None:
        """After a write: each phone whose seat now holds a pack it isn't picking from is shown it, unless the
        push is lost (then it looks again when it reconnects)."""
        draft = self.table.draft
        now = self.clock.now()
        for seat, phone in self.phones.items():
            if seats is not None and seat not in seats:
                continue
            if draft.finished or draft.held(seat) is None or phone.gone or seat not in self.table.humans:
                continue
            if phone.pending == draft.at(seat):
                continue
            if self.rng.random() < LOST_PUSH:
                self.at(now + self.rng.uniform(*RECONNECT), "look", seat)
                continue
            self.show(phone, now)

    def show(self, phone: Phone, now: float) -> None:
        draft = self.table.draft
        phone.pending = draft.at(phone.seat)
        wake = max(now, phone.asleep_until)
        if phone.kind == "sleeping" and phone.rng.random() < 0.1:
            phone.asleep_until = wake + phone.rng.uniform(60, 600)
            wake = phone.asleep_until
        self.at(wake + phone.think(), "pick", phone.seat)

    # --- the clock's events --------------------------------------------------------------------------------------

    def pick(self, seat: int) -> None:
        phone = self.phones[seat]
        seen, phone.pending = phone.pending, None
        if seen is None or phone.gone:
            return
        held = SeatSession(self.table, seat, wall=self.clock.now)
        held.seen = seen
        with self.served.locked(1):
            self.table.refresh()
            pack = self.table.draft.pack(seat)  # a pack moved on meanwhile is refused whatever the positions
            positions = phone.rng.sample(range(len(pack)), self.table.draft.picks_due(seat)) if pack else [0]
            (outcome,) = pick_together([(held, positions)], raising=False)
        if isinstance(outcome, Refused):
            self.outcome.stale += 1
        else:
            phone.made += 1
        self.pushed()

    def look(self, seat: int) -> None:
        phone = self.phones[seat]
        if not phone.gone:
            self.table.refresh()
            draft = self.table.draft
            if not draft.finished and draft.held(seat) is not None and phone.pending != draft.at(seat):
                self.show(phone, self.clock.now())

    def tick(self) -> None:
        before = len(self.table.draft.log)
        self.watcher._tick()
        if len(self.table.draft.log) != before:
            self.pushed()

    def next_tick(self) -> None:
        """The watchdog's next look that can find something due: the first multiple of POLL at or after the
        earliest deadline (a look is added when a write made a deadline earlier than the next look)."""
        deadline = self.table.deadline()
        if deadline is None:
            return
        due = max(deadline, self.clock.now() + POLL / 2)  # a look already made at this moment is not made again
        when = self.start + -(-(due - self.start) // POLL) * POLL
        if self.tick_at is None or when < self.tick_at or self.tick_at <= self.clock.now():
            self.tick_at = when
            self.at(when, "tick")

    def check_holds(self) -> None:
        """Every pack in front of a seat is picked within its time plus two of the watchdog's looks."""
        draft, now = self.table.draft, self.clock.now()
        for seat in self.table.humans:
            held = draft.held(seat)
            if held is None:
                self.held_since.pop(seat, None)
                continue
            at = draft.at(seat)
            since = self.held_since.get(seat)
            if since is None or since[0] != at:
                self.held_since[seat] = since = (at, now)
            allowed = self.table.pick_seconds(len(held.cards)) or TIMER
            waited = now - since[1]
            self.outcome.longest_hold = max(self.outcome.longest_hold, waited / allowed)
            if waited > allowed + 2 * POLL + 0.01:
                self.outcome.stalls += 1
                self.held_since[seat] = (at, now)  # counted once per pack held

    def run(self) -> Outcome:
        previous = timing.use(self.clock)
        try:
            self.pushed()
            self.next_tick()
            progress = (len(self.table.draft.log), self.clock.now())
            while self.events and not self.table.draft.finished:
                when, _, what, seat = heapq.heappop(self.events)
                if when - progress[1] > 2 * TIMER:  # no pick for longer than any pick may take: it will not move
                    break
                self.clock.advance(max(0.0, when - self.clock.now()))
                if what == "pick":
                    self.pick(seat)
                elif what == "look":
                    self.look(seat)
                elif when == self.tick_at:  # a look overtaken by an earlier one is not made again
                    self.tick()
                self.check_holds()
                if len(self.table.draft.log) != progress[0]:
                    progress = (len(self.table.draft.log), self.clock.now())
                self.next_tick()
            if not self.table.draft.finished:
                self.outcome.stalls += 1  # nothing left to happen (or nothing but looks finding nothing): stopped
        finally:
            timing.use(previous)
        log = self.table.draft.log
        self.outcome.picks = len(log)
        self.outcome.timed_out = len(self.table.doc.get("timed_out") or [])
        self.outcome.seconds = self.clock.now() - self.start
        return self.outcome


@contextlib.contextmanager
def scratch() -> Iterator[Path]:
    """A folder for the draft files: in memory where the system has one (the figure is about stalls, not disks)."""
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(prefix="cmdraft-stalls-", dir=shm if shm.is_dir() else None) as folder:
        yield Path(folder)


def stalls(drafts: int = 1000, seed: int = 0) -> dict[str, Any]:
    """``drafts`` simulated drafts; their stalls and what happened in them."""
    total = Outcome()
    kinds = dict.fromkeys(KINDS, 0)
    cpu, wall = time.process_time(), time.perf_counter()
    seeds = random.Random(seed)
    with scratch() as folder:
        for _ in range(drafts):
            simulation = Simulation(folder, seeds.randrange(1 << 30))
            outcome = simulation.run()
            for phone in simulation.phones.values():
                kinds[phone.kind] += 1
            total.picks += outcome.picks
            total.timed_out += outcome.timed_out
            total.stale += outcome.stale
            total.stalls += outcome.stalls
            total.longest_hold = max(total.longest_hold, outcome.longest_hold)
            total.seconds = max(total.seconds, outcome.seconds)
            journal = journal_file(simulation.table.store, simulation.table.draft_id, simulation.table.record)
            if journal is not None:
                journal.path.unlink(missing_ok=True)
            simulation.table.store.path.unlink(missing_ok=True)
    return {
        "drafts": drafts,
        "stalls": total.stalls,
        "picks": total.picks,
        "timed_out": total.timed_out,
        "stale": total.stale,
        "phones": kinds,
        "longest_hold_share": round(total.longest_hold, 3),
        "longest_draft_minutes": round(total.seconds / 60, 1),
        "cpu_s": round(time.process_time() - cpu, 1),
        "seconds": round(time.perf_counter() - wall, 1),
    }
