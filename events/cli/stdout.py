"""Standard output that refuses what a command writes (a full disk, ``cmdraft packs --json > /dev/full``, a device
error): one line ``cmdraft: error: …`` and exit 2, as for any output that can't be written, never a traceback and
never the command's own code (a legal deck's 0 said over output that was lost).

``guard`` puts a thin layer under ``sys.stdout`` once, at the entry point: every writer (``print``, rich's
consoles, the JSON helpers, click's help) goes through it, and a refusal comes out as ``StdoutRefused``, which the
root group and the entry point tell apart from any other ``OSError``.  Each refusal is also noted, so one a library
swallows (click tries an empty write to learn what a stream takes) still ends the command with its line
(``said``).  A reader that went away (``| head``) is no refusal: ``BrokenPipeError`` passes as it is
(``events.portable.stdout_gone``).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from typing import Any

from events.portable import stdout_gone

EXIT_CODE = 2  # as an output that can't be written (README's "bad input")


class StdoutRefused(OSError):
    """Standard output refused a write or a flush (its errno and reason are the device's)."""

    def words(self) -> str:
        return f"standard output could not be written ({self.strerror}): send the output where there is room"


_REFUSED: list[StdoutRefused] = []  # the refusals seen this run, the first said (``said``)
_SAID: list[bool] = []  # said already


def said(line: Callable[[str], None]) -> bool:
    """Whether standard output refused a write this run (caught or swallowed on the way): then its line is given
    to ``line`` (once a run), and what is written from now on goes to the null device, so Python's own flush at exit
    can't fail again."""
    if not _REFUSED:
        return False
    if not _SAID:
        _SAID.append(True)
        stdout_gone()
        line(_REFUSED[0].words())
    return True


class _Guarded(io.BufferedIOBase):
    """A buffer standing for ``raw`` (stdout's own buffer): a write or flush it refuses raises ``StdoutRefused``,
    noted for ``said``."""

    def __init__(self, raw: Any) -> None:
        super().__init__()
        self.raw_buffer = raw

    def _refused(self, error: OSError) -> StdoutRefused:
        refusal = StdoutRefused(error.errno, error.strerror or str(error))
        _REFUSED.append(refusal)
        return refusal

    def _through(self, call: Callable[..., Any], *args: Any) -> Any:
        try:
            return call(*args)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise self._refused(error) from None

    def write(self, data: Any) -> int:
        return self._through(self.raw_buffer.write, data)

    def flush(self) -> None:
        self._through(self.raw_buffer.flush)

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.raw_buffer.fileno()

    def isatty(self) -> bool:
        return self.raw_buffer.isatty()


def guard() -> None:
    """``sys.stdout`` written through ``_Guarded`` from now on (its encoding, error handler and line buffering
    kept); a stream without a buffer of its own (a test's capture) is left as it is."""
    stream = sys.stdout
    buffer = getattr(stream, "buffer", None)
    if buffer is None or isinstance(buffer, _Guarded) or not isinstance(stream, io.TextIOWrapper):
        return
    stream.flush()
    sys.stdout = io.TextIOWrapper(
        _Guarded(buffer),
        encoding=stream.encoding,
        errors=stream.errors,
        line_buffering=stream.line_buffering,
        write_through=stream.write_through,
    )
