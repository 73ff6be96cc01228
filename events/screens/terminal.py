"""Reading the player's lines at the terminal, with an optional deadline (the pick timer)."""

from __future__ import annotations

import math
import io
import os
import select
import sys
import time
from collections.abc import Callable

from rich.console import Console
from rich.text import Text


class Quit(Exception):
    """The player asked to leave; everything is already saved."""


class Terminal:
    """Reads lines from the player, with an optional deadline (the pick timer)."""

    def __init__(self, console: Console, stream=None):
        self.console = console
        self.stream = stream or sys.stdin

    def ask(self, prompt: str, deadline: float | None = None, status: Callable[[int], Text] | None = None) -> str | None:
        """A line, or None when the deadline passed; EOF counts as quit.

        ``status`` gives a line shown just above the prompt with the seconds left; on a
        real terminal it is redrawn in place every second while the player thinks
        (what they have typed so far stays where it is).
        """
        if status is not None and deadline is not None:
            self.console.print(status(self._seconds(deadline)))
        self.console.print(prompt, end="", markup=True, highlight=False)
        self.console.file.flush()
        if deadline is not None:
            shown = self._seconds(deadline)
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    self.console.print()
                    self.discard_typed()
                    return None
                try:
                    ready, _, _ = select.select([self.stream], [], [], min(left, max(0.05, left - (shown - 1)), 0.5))
                except (ValueError, OSError):
                    break
                except KeyboardInterrupt:
                    raise Quit() from None
                if ready:
                    break
                if status is not None and self._seconds(deadline) != shown and self.console.is_terminal:
                    shown = self._seconds(deadline)
                    self._redraw_above(status(shown))
        try:
            line = self.stream.readline()
        except KeyboardInterrupt:  # Ctrl-C while the player types: leave as 'quit' does
            raise Quit() from None
        if line == "":
            raise Quit()
        return line.strip()

    def discard_typed(self) -> None:
        """Drop what the player typed without Enter (time ran out): it must not start the next answer."""
        try:
            fd = self.stream.fileno()
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            return
        if os.isatty(fd):
            import termios

            termios.tcflush(fd, termios.TCIFLUSH)

    @staticmethod
    def _seconds(deadline: float) -> int:
        return max(0, math.ceil(deadline - time.monotonic()))

    def _redraw_above(self, text: Text) -> None:
        """Rewrite the line above the cursor: save the cursor, go up, clear, write, come back."""
        with self.console.capture() as capture:
            self.console.print(text, end="")
        self.console.file.write(f"\x1b7\x1b[1A\r\x1b[2K{capture.get()}\x1b8")
        self.console.file.flush()

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
