"""Reading the player's lines at the terminal, with an optional deadline (the pick timer)."""

from __future__ import annotations

import io
import os
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
        self.console.print(prompt, end="", markup=True, highlight=False)
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


class Keys:
    """Single keystrokes as they are typed, no Enter needed (cbreak mode on a terminal).

    Use as a context manager: the terminal's settings are restored on leaving, also after Ctrl-C
    or an error.  Input that is not a terminal (a pipe, a test's stream) is read a character at a time.
    """

    def __init__(self, stream=None):
        self.stream = stream or sys.stdin
        self.fd: int | None = None
        self._saved = None

    def __enter__(self) -> Keys:
        try:
            self.fd = self.stream.fileno()
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            self.fd = None
        if self.fd is not None and os.isatty(self.fd):
            import termios
            import tty

            self._saved = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)
        return self

    def __exit__(self, *exc) -> None:
        if self._saved is not None:
            import termios

            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            self._saved = None

    def read(self, timeout: float) -> str | None:
        """One key (Enter is ``"\\n"``), ``""`` at end of input, or None when ``timeout`` seconds pass without one."""
        if self.fd is None:
            return self.stream.read(1)  # an in-memory stream: every key is already there
        ready, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        if not ready:
            return None
        data = os.read(self.fd, 1)
        if not data:
            return ""
        return "\n" if data in (b"\r", b"\n") else data.decode("utf-8", errors="replace")
