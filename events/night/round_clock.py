"""The round clock: a countdown for the current game round, kept in the event so that any terminal,
and a terminal reopened later, shows the true time left.

The clock is stored with the round as wall-clock times (seconds since the epoch, shared by every
process on the machine): when it started, its length, when it was paused (if it is) and how long
it has been paused in all.  Time left = length - (now - started - paused in all), frozen while paused.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from typing import Any

import msgspec
from tinydb import TinyDB

from events import timing
from events.night import history
from events.night.base import EventBase, before_a_round
from events.storage.record_parts import Clock
from events.storage.records import Round
from events.storage.tables import records_of
from sets.errors import InputError, StateError

DEFAULT_MINUTES = 50
TIME_UP = "Time! Finish the turn in progress, then report the result."
PAUSED = "The clock is paused."


def extra_time_words(extra: float) -> str:
    """A table's extra time from the desk, as every face says it ("" for none)."""
    if extra <= 0:
        return ""
    minutes = round(extra / 60)
    return f"This table has {minutes} extra minute{'' if minutes == 1 else 's'}."


class ShownClock(msgspec.Struct, frozen=True):
    """A round's clock as the faces answer it: the stored times in seconds (``started`` and ``paused_at`` epoch
    seconds, as every live time: the API's ``server_time``, a pick's ``deadline``), whether it is paused, and the
    seconds left (to a tenth)."""

    round: int
    length: float
    started: float
    paused_at: float | None
    paused_total: float
    paused: bool
    remaining: float


@dataclass(frozen=True)
class RoundClock:
    length: float  # seconds
    started: float  # epoch seconds
    paused_at: float | None = None
    paused_total: float = 0.0

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    def elapsed(self, now: float) -> float:
        """Seconds the clock has run (pauses not counted)."""
        end = self.paused_at if self.paused_at is not None else now
        return max(0.0, end - self.started - self.paused_total)

    def remaining(self, now: float) -> float:
        return max(0.0, self.length - self.elapsed(now))

    def over(self, now: float) -> bool:
        return self.remaining(now) <= 0

    def pause(self, now: float) -> RoundClock:
        return self if self.paused else replace(self, paused_at=now)

    def resume(self, now: float) -> RoundClock:
        if self.paused_at is None:
            return self
        return replace(self, paused_at=None, paused_total=self.paused_total + max(0.0, now - self.paused_at))

    def toggle(self, now: float) -> RoundClock:
        return self.resume(now) if self.paused else self.pause(now)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def shown(self, number: int, now: float) -> ShownClock:
        """Round ``number``'s clock as ``event clock --json`` and the desk's ``POST /api/desk/clock`` answer it."""
        return ShownClock(
            number,
            self.length,
            self.started,
            self.paused_at,
            self.paused_total,
            self.paused,
            round(self.remaining(now), 1),
        )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RoundClock:
        return cls.of(msgspec.convert(data, Clock))

    @classmethod
    def of(cls, clock: Clock) -> RoundClock:
        """The clock a round keeps (its stored record)."""
        return cls(float(clock.length), clock.started, clock.paused_at, clock.paused_total)  # seconds, always a float


def clock_text(seconds: float) -> str:
    """``MM:SS`` rounded up, so the clock shows 00:00 only when time is really up."""
    whole = int(-(-seconds // 1))
    return f"{whole // 60:02d}:{whole % 60:02d}"


def _current_round(db: TinyDB, event_id: int) -> Round:
    event = EventBase._event(db, event_id)
    rounds = sorted(records_of(db, Round).find(event=event_id), key=lambda d: d.number)
    if event.status != "playing" or not rounds or rounds[-1].status == "closed":
        raise StateError(f"no round is being played: {before_a_round(event_id, event.status)}")
    return rounds[-1]


def start_clock(
    events: EventBase, event_id: int, minutes: float | None = None, now: float | None = None, restart: bool = False
) -> tuple[int, RoundClock]:
    """The current round's clock, started now if it hasn't been (``minutes`` changes the length of a
    running clock; ``restart`` starts it again from the full length: the round's own, or ``minutes``)."""
    if minutes is not None and not (1 <= minutes <= 24 * 60 and math.isfinite(minutes)):
        raise InputError(f"--minutes must be between 1 and 1440, not {minutes:g}")
    now = timing.now() if now is None else now
    with events.store.write() as db:
        rnd = _current_round(db, event_id)
        kept = None if rnd.clock is None else RoundClock.of(rnd.clock).length  # a restart keeps the round's length
        length = float(minutes * 60) if minutes is not None else kept or float(DEFAULT_MINUTES * 60)
        if rnd.clock is not None and not restart:
            clock = RoundClock.of(rnd.clock)
            if minutes is not None and clock.length != length:
                history.log_change(
                    db,
                    event_id,
                    history.DESK,
                    "clock",
                    f"round {rnd.number}: {clock.length / 60:g} minutes",
                    f"round {rnd.number}: {length / 60:g} minutes",
                )
                clock = replace(clock, length=length)
                records_of(db, Round).update(rnd.id, clock=clock.to_json())
        else:
            clock = RoundClock(length, now)
            records_of(db, Round).update(rnd.id, clock=clock.to_json())
            history.log_change(
                db,
                event_id,
                history.DESK,
                "clock",
                "restarted" if rnd.clock is not None else None,
                f"round {rnd.number}: {length / 60:g} minutes from now",
            )
        return rnd.number, clock


def read_clock(events: EventBase, event_id: int, round_number: int) -> RoundClock | None:
    """The stored clock of a round (None once the round has none)."""
    with events.store.read() as db:
        rnd = records_of(db, Round).first(event=event_id, number=round_number)
    return None if rnd is None or rnd.clock is None else RoundClock.of(rnd.clock)


def toggle_pause(events: EventBase, event_id: int, round_number: int, now: float | None = None) -> RoundClock:
    """Pause a running clock or resume a paused one, for every terminal."""
    now = timing.now() if now is None else now
    with events.store.write() as db:
        rnd = records_of(db, Round).first(event=event_id, number=round_number)
        if rnd is None or rnd.clock is None:
            raise StateError(f"round {round_number} has no clock running")
        clock = RoundClock.of(rnd.clock).toggle(now)
        records_of(db, Round).update(rnd.id, clock=clock.to_json())
        history.log_change(
            db,
            event_id,
            history.DESK,
            "clock",
            f"round {round_number}: " + ("running" if clock.paused else "paused"),
            f"round {round_number}: " + ("paused" if clock.paused else "running"),
        )
        return clock
