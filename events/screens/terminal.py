"""Reading the player's lines at the terminal, with an optional deadline (the pick timer)."""

from __future__ import annotations

import io
import select
import sys
import time

from rich.console import Console


class Quit(Exception):
    """The player asked to leave; everything is already saved."""


class Terminal:
    """Reads lines from the player, with an optional deadline (the pick timer)."""

    def __init__(self, console: Console, stream=None):
        self.console = console
        self.stream = stream or sys.stdin

    def ask(self, prompt: str, deadline: float | None = None) -> str | None:
        """A line, or None when the deadline passed; EOF counts as quit."""
        self.console.print(prompt, end="", markup=False, highlight=False)  # prompts hold card names: shown as typed
        self.console.file.flush()
        if deadline is not None:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    self.console.print()
                    return None
                try:
                    ready, _, _ = select.select([self.stream], [], [], min(left, 0.5))
                except (ValueError, OSError):
                    break
                if ready:
                    break
        line = self.stream.readline()
        if line == "":
            raise Quit()
        return line.strip()

    def wait(self, seconds: float) -> str | None:
        """Wait up to ``seconds`` for a line typed meanwhile (None when none came); end of input and
        ``quit`` raise ``Quit``, so a terminal waiting for other players can still be left."""
        try:
            ready, _, _ = select.select([self.stream], [], [], seconds)
        except (ValueError, OSError, io.UnsupportedOperation):
            ready = [self.stream]  # not a real file (a test's input): read the next line
        if not ready:
            return None
        line = self.stream.readline()
        if line == "" or line.strip().lower() in ("quit", "q", "exit"):
            raise Quit()
        return line.strip()
