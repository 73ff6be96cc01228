"""The application's clock: wall time, a monotonic clock and sleeping, in one object a test can replace.

Draft deadlines, the wrong-code delay, the round clock, the timers and every time a record keeps (``stamp``, an
event's date: ``today``, a draft log's: ``local``) read ``now()``/``monotonic()`` and wait with ``sleep()``; ``use(clock)`` puts another clock in their place (tests move a
``ManualClock`` instead of waiting on the wall clock). Waiting for a file lock stays in the kernel.
"""

from __future__ import annotations

import datetime as dt
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float: ...

    def monotonic(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The machine's clocks."""

    def now(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


class ManualClock:
    """A clock that moves only when told to (``advance``) or slept on (sleeping moves it at once)."""

    def __init__(self, start: float = 1_800_000_000.0):
        self.wall = start
        self.mono = 1000.0
        self.slept: list[float] = []

    def now(self) -> float:
        return self.wall

    def monotonic(self) -> float:
        return self.mono

    def advance(self, seconds: float) -> None:
        self.wall += seconds
        self.mono += seconds

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.advance(max(0.0, seconds))


_current: Clock = SystemClock()


def use(clock: Clock) -> Clock:
    """Put ``clock`` in place of the current one; returns the one it replaced."""
    global _current
    previous, _current = _current, clock
    return previous


def now() -> float:
    """Seconds since the epoch, as the current clock tells them."""
    return _current.now()


def monotonic() -> float:
    return _current.monotonic()


def sleep(seconds: float) -> None:
    _current.sleep(seconds)


def stamp(at: float | None = None) -> str:
    """A record's time as the database keeps it: ISO 8601 in UTC to the second, now on the current clock (``at``:
    another moment, seconds since the epoch)."""
    return dt.datetime.fromtimestamp(now() if at is None else at, dt.UTC).isoformat(timespec="seconds")


def local() -> dt.datetime:
    """Now on the current clock as the machine's local date and time (a draft log's time)."""
    return dt.datetime.fromtimestamp(now())


def today() -> str:
    """The local date on the current clock, ISO 8601 (an event's date when none is given)."""
    return local().date().isoformat()
