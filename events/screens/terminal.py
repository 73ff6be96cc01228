"""Reading the player's lines at the terminal, with an optional deadline (the pick timer)."""

from __future__ import annotations

import contextlib
import math
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

from rich.console import Console, RenderableType
from rich.text import Text

from events import timing
from events.outputs.text import cell_width
from events.portable import KeyMode, LineReader, discard_typed
from sets.visible import visible


def undecodable_byte(text: str) -> int | None:
    """The first byte of typed text that wasn't UTF-8 (kept as a lone surrogate), or None."""
    return next((ord(ch) - 0xDC00 for ch in text if "\udc80" <= ch <= "\udcff"), None)


def _terminated(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (``kill PID``) ends the block as Ctrl-C does: a screen that set the terminal's modes (the timed
    prompt reads keys itself) sets them back, says how to resume, and the command ends with 130; the handler
    before it is back after the block.  Off the main thread, or where there is no SIGTERM, nothing changes."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGTERM"):
        yield
        return
    before = signal.signal(signal.SIGTERM, _terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


class Quit(Exception):
    """The player asked to leave; everything is already saved."""


class Interrupted(Quit):
    """Ctrl-C at a prompt: a leave like ``Quit`` for a draft (every pick is saved), but a command that
    gathers lines before saving (a typed pool) must stop without saving them."""


def interrupted(left: BaseException) -> bool:
    """Whether what ended a screen (``left``) was Ctrl-C (SIGINT) rather than 'quit' or end of input."""
    return isinstance(left, (Interrupted, KeyboardInterrupt))


def leave_screen(console: Console, left: BaseException, farewell: RenderableType | None) -> None:
    """A screen's last line (``farewell``, none when None), whatever ended it (``left``): 'quit' or end of input,
    and the command goes on; or Ctrl-C, and the farewell has a line of its own after the terminal's ``^C``, then
    the command ends as every interrupted one does (130), everything saved kept."""
    if interrupted(left):
        console.print()
    if farewell is not None:
        console.print(farewell, soft_wrap=True)
    if interrupted(left):
        raise KeyboardInterrupt from None


class Terminal:
    """Reads lines from the player, with an optional deadline (the pick timer)."""

    def __init__(self, console: Console, stream: Any = None) -> None:
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
            first = status(self._seconds(deadline))
            self.console.print(first, soft_wrap=True)  # the terminal wraps it: its rows are its width's
            if self.console.is_terminal:
                with Keys(self.stream) as keys:
                    if keys.single:
                        return self._ask_edited(keys, prompt, deadline, status, first)
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

    def _ask_edited(
        self, keys: Keys, prompt: str, deadline: float, status: Callable[[int], Text], first: Text
    ) -> str | None:
        """A line typed under a ticking status line: the keys come one at a time and this edits the line
        (letters, backspace, Ctrl-U, Ctrl-W), so it always knows how many rows the prompt and the typed
        text take (the terminal wraps them) and redraws the status line above them, and them again, in place.
        A terminal's own line editing can't tell a program how much was typed: moving up one line from a
        wrapped line would write the clock over the prompt."""
        typed = EditedLine(self.console, prompt, first)
        typed.draw_prompt()
        shown = self._seconds(deadline)
        while True:
            left = deadline - timing.monotonic()
            if left <= 0:
                typed.write("\r\n")
                self.discard_typed()
                return None
            try:
                key = keys.read(min(left, max(0.05, left - (shown - 1)), 0.5))
            except KeyboardInterrupt:
                raise Interrupted() from None
            if key is None:
                if self._seconds(deadline) != shown:
                    shown = self._seconds(deadline)
                    typed.redraw(status(shown))
                continue
            if key == "" or (key == "\x04" and not typed.letters):  # end of input: leave, as 'quit' does
                raise Quit()
            if key == "\n":
                typed.write("\r\n")
                line = "".join(typed.letters)
                byte = undecodable_byte(line)
                if byte is None:
                    return line.strip()
                self.console.print(
                    Text(
                        f"that line is not UTF-8 text (byte 0x{byte:02x}); type it again in a UTF-8 terminal",
                        style="red",
                    )
                )
                return self.ask(prompt, deadline, status)
            if key == "\x1b":  # an arrow or function key's sequence: this line has no cursor to move
                while (more := keys.read(0.02)) is not None and more != "" and not (more.isalpha() or more == "~"):
                    pass
                continue
            typed.key(key)

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
        ``quit`` raise ``Quit``, so a terminal waiting for other players can still be left; Ctrl-C raises
        ``Interrupted``, as at a prompt."""
        try:
            if not self.reader.wait(seconds):
                return None
            line = self.reader.readline()
        except KeyboardInterrupt:
            raise Interrupted() from None
        if line == "" or line.strip().lower() in ("quit", "q", "exit"):
            raise Quit()
        return line.strip()


class EditedLine:
    """The prompt and the letters typed after it, drawn by this program (no terminal echo): what it wrote is
    what is on the screen, so it knows the cursor's row below the prompt's first row."""

    def __init__(self, console: Console, prompt: str, status: Text | None = None):
        self.console = console
        self.letters: list[str] = []
        with console.capture() as capture:  # the terminal wraps it, as ``cursor_row`` counts (not rich, at words)
            console.print(prompt, end="", markup=True, highlight=False, soft_wrap=True)
        self.prompt = capture.get()
        self.prompt_text = Text.from_markup(prompt).plain
        self.status_rows = self.rows(status.plain) if status is not None else 1  # the status line's, above

    def rows(self, text: str) -> int:
        """The rows ``text`` takes on the terminal, which wraps it at its width."""
        return max(1, -(-cell_width(text) // max(1, self.console.width)))

    def write(self, text: str) -> None:
        self.console.file.write(text)
        self.console.file.flush()

    def draw_prompt(self) -> None:
        self.write(self.prompt)

    def cursor_row(self) -> int:
        """The row of the cursor below the prompt's first row, as a terminal wraps: a letter that does not
        fit the row goes to the next one, and after the last column the cursor waits there for one."""
        width, row, column = max(1, self.console.width), 0, 0
        for letter in self.prompt_text + self.shown_letters():
            cells = cell_width(letter)
            if column + cells > width:
                row, column = row + 1, 0
            column += cells
        return row

    def key(self, key: str) -> None:
        """A typed key: a letter is added and shown; backspace, Ctrl-U and Ctrl-W take letters back (the line is
        drawn again from the row the cursor was on before they went: a line that wrapped may now take fewer)."""
        row = self.cursor_row()
        if key in ("\x7f", "\b"):
            if self.letters:
                self.letters.pop()
                self.redraw(row=row)
        elif key == "\x15":  # Ctrl-U: the whole line
            self.letters.clear()
            self.redraw(row=row)
        elif key == "\x17":  # Ctrl-W: the last word
            while self.letters and self.letters[-1].isspace():
                self.letters.pop()
            while self.letters and not self.letters[-1].isspace():
                self.letters.pop()
            self.redraw(row=row)
        elif key.isprintable() or "\udc80" <= key <= "\udcff":
            self.letters.append(key)
            self.write(visible(key))

    def redraw(self, status: Text | None = None, row: int | None = None) -> None:
        """The prompt and the typed letters again from the prompt's first row, and the status line above it over
        the rows it takes (a status wider than the terminal takes two: going up one wrote it over its own end)."""
        up = (self.cursor_row() if row is None else row) + (self.status_rows if status is not None else 0)
        out = (f"\x1b[{up}A" if up else "") + "\r"
        if status is not None:  # written over the old one, the rest of its last row cleared, the prompt below it
            with self.console.capture() as capture:
                self.console.print(status, end="", soft_wrap=True)
            out += f"\x1b[2K{capture.get()}\x1b[K\r\n"
            self.status_rows = self.rows(status.plain)
        self.write(out + "\x1b[J" + self.prompt + self.shown_letters())

    def shown_letters(self) -> str:
        """The typed letters as drawn (a byte that was no UTF-8 written out, as ``visible`` writes it)."""
        return "".join(visible(letter) for letter in self.letters)


class Keys(KeyMode):
    """Single keystrokes as they are typed, no Enter needed (cbreak mode on a terminal; see
    ``events.portable.KeyMode``).  Use as a context manager: the terminal's settings are restored on
    leaving, also after Ctrl-C or an error.  Input that is not a terminal (a pipe, a test's stream)
    is read a character at a time."""
