"""Reading the player's lines at the terminal, with an optional deadline (the pick timer)."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable

from rich.console import Console
from rich.text import Text

from events import timing
from events.portable import KeyMode, LineReader, discard_typed


def undecodable_byte(text: str) -> int | None:
    """The first byte of typed text that wasn't UTF-8 (kept as a lone surrogate), or None."""
    return next((ord(ch) - 0xDC00 for ch in text if "\udc80" <= ch <= "\udcff"), None)


class Quit(Exception):
    """The player asked to leave; everything is already saved."""


class Interrupted(Quit):
    """Ctrl-C at a prompt: a leave like ``Quit`` for a draft (every pick is saved), but a command that
    gathers lines before saving (a typed pool) must stop without saving them."""


class Terminal:
    """Reads lines from the player, with an optional deadline (the pick timer)."""

    def __init__(self, console: Console, stream=None):
        self.console = console
        self.stream = stream or sys.stdin
        self.reader = LineReader(self.stream)

    def ask(
        self, prompt: str, deadline: float | None = None, status: Callable[[int], Text] | None = None
    ) -> str | None:
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
                left = deadline - timing.monotonic()
                if left <= 0:
                    self.console.print()
                    self.discard_typed()
                    return None
                try:
                    ready = self.reader.wait(min(left, max(0.05, left - (shown - 1)), 0.5))
                except KeyboardInterrupt:
                    raise Interrupted() from None
                if ready:
                    break
                if status is not None and self._seconds(deadline) != shown and self.console.is_terminal:
                    shown = self._seconds(deadline)
                    self._redraw_above(status(shown))
        try:
            line = self.reader.readline()
        except KeyboardInterrupt:  # Ctrl-C while the player types: leave as 'quit' does
            raise Interrupted() from None
        if line == "":
            raise Quit()
        byte = undecodable_byte(line)
        if byte is not None:
            self.console.print(
                Text(f"that line is not UTF-8 text (byte 0x{byte:02x}); type it again in a UTF-8 terminal", style="red")
            )
            return self.ask(prompt, deadline, status)
        return line.strip()

    def discard_typed(self) -> None:
        """Drop what the player typed without Enter (time ran out): it must not start the next answer."""
        discard_typed(self.stream)

    @staticmethod
    def _seconds(deadline: float) -> int:
        return max(0, math.ceil(deadline - timing.monotonic()))

    def _redraw_above(self, text: Text) -> None:
        """Rewrite the line above the cursor: save the cursor, go up, clear, write, come back."""
        with self.console.capture() as capture:
            self.console.print(text, end="")
        self.console.file.write(f"\x1b7\x1b[1A\r\x1b[2K{capture.get()}\x1b8")
        self.console.file.flush()

    def wait(self, seconds: float) -> str | None:
        """Wait up to ``seconds`` for a line typed meanwhile (None when none came); end of input and
        ``quit`` raise ``Quit``, so a terminal waiting for other players can still be left."""
        if not self.reader.wait(seconds):
            return None
        line = self.reader.readline()
        if line == "" or line.strip().lower() in ("quit", "q", "exit"):
            raise Quit()
        return line.strip()


class Keys(KeyMode):
    """Single keystrokes as they are typed, no Enter needed (cbreak mode on a terminal; see
    ``events.portable.KeyMode``).  Use as a context manager: the terminal's settings are restored on
    leaving, also after Ctrl-C or an error.  Input that is not a terminal (a pipe, a test's stream)
    is read a character at a time."""
