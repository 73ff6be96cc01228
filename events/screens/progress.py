"""A progress bar for long work that stays out of the way of short work."""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeRemainingColumn

# Work that ends sooner than this shows no bar at all.
DELAY_SECONDS = 1.0


class LongWork:
    """``with LongWork(console, total, "opening boosters") as work: … work.advance()``.

    The bar appears only once the work has taken ``DELAY_SECONDS`` and only on a
    terminal; it is transient, so what the work printed is all that stays.
    """

    def __init__(
        self,
        console: Console,
        total: int,
        description: str,
        delay: float = DELAY_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.console = console
        self.total = total
        self.description = description
        self.delay = delay
        self.clock = clock
        self.done = 0
        self.progress: Progress | None = None
        self.task = TaskID(0)  # the bar's task, once the bar is shown

    def __enter__(self) -> LongWork:
        self.started = self.clock()
        return self

    def advance(self, count: int = 1) -> None:
        self.done += count
        if self.progress is not None:
            self.progress.update(self.task, completed=self.done)
        elif self.console.is_terminal and self.clock() - self.started >= self.delay:
            self.progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=self.console,
                transient=True,
            )
            self.progress.start()
            self.task = self.progress.add_task(self.description, total=self.total, completed=self.done)

    def __exit__(self, *exc_info: object) -> None:
        if self.progress is not None:
            self.progress.stop()
