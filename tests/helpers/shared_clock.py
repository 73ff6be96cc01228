"""One clock for the test and the processes it starts, moved by the test: the wall and monotonic clocks plus an
offset kept in a file (``SharedClock.advance``), so a pick timer runs out in a real terminal when the test says,
not after its seconds of real time.  The processes run as ``python -m tests.helpers.shared_clock FILE events
ARGS`` (``command``): the application's clock (``events.timing``) reads the file, the rest of the process is the
command's own.  Sleeping still sleeps: only the clock's reading moves."""

from __future__ import annotations

import os
import runpy
import sys
import time
from pathlib import Path

from tests.helpers.paths import ROOT


class OffsetClock:
    """The machine's clocks, plus the seconds written in ``path`` (the test's advances so far)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def offset(self) -> float:
        return float(self.path.read_text("ascii"))

    def now(self) -> float:
        return time.time() + self.offset()

    def monotonic(self) -> float:
        return time.monotonic() + self.offset()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


class SharedClock(OffsetClock):
    """The test's side: starts at the machine's time (offset 0) and moves forward on ``advance``."""

    def __init__(self, folder: Path) -> None:
        super().__init__(Path(folder) / "clock-offset")
        self._write(0.0)

    def advance(self, seconds: float) -> None:
        self._write(self.offset() + seconds)

    def _write(self, offset: float) -> None:
        part = self.path.with_suffix(".part")
        part.write_text(repr(offset), "ascii")
        os.replace(part, self.path)  # a process reads the old offset or the new one, never half of one

    def command(self, module: str = "events") -> list[str]:
        """The arguments (after ``python``) that run ``python -m MODULE`` on this clock."""
        return ["-m", "tests.helpers.shared_clock", str(self.path), module]

    def env(self, env: dict[str, str]) -> dict[str, str]:
        """``env`` with this checkout on the path, so the process finds ``tests`` wherever it starts."""
        path = env.get("PYTHONPATH")
        return {**env, "PYTHONPATH": str(ROOT) + (os.pathsep + path if path else "")}


def main(argv: list[str]) -> None:
    """``FILE MODULE ARGS``: run ``python -m MODULE ARGS`` with the application's clock on ``FILE``'s offset."""
    from events import timing

    path, module, *args = argv
    timing.use(OffsetClock(Path(path)))
    sys.argv = [module, *args]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
