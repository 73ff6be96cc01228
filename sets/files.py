"""Reading the files a person names: regular files only, of a bounded size, JSON parsed strictly.

Limits (stated in README):

- ``DECK_LIMIT``: deck and pool files, 10 MiB (a 60-card deck is about 2 KiB).
- ``CARD_FILE_LIMIT``: card files for ``sets import`` (MTGJSON AllPrintings is ~500 MB), 2 GiB.
- ``DATABASE_LIMIT``: an event database, a backup or an export's ``database.json``, 512 MiB.

A FIFO, a device (``/dev/zero``), a socket or a folder is refused before anything is read: the
file type is checked first, the file is opened without blocking and checked again on the open
descriptor, so a path swapped in between can't hang the command.  A file without any read
permission bit is refused even for root: the bits are the owner's intent.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from sets.errors import InputError
from sets.visible import quoted

DECK_LIMIT = 10 * 1024 * 1024
CARD_FILE_LIMIT = 2 * 1024 * 1024 * 1024
DATABASE_LIMIT = 512 * 1024 * 1024

O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
O_BINARY = getattr(os, "O_BINARY", 0)


class FileProblem(Exception):
    """Why a file can't be read; ``missing`` when nothing is at the path."""

    def __init__(self, reason: str, missing: bool = False):
        super().__init__(reason)
        self.reason, self.missing = reason, missing


def kind_of(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file"


def _size_text(size: int) -> str:
    return f"{size / (1024 * 1024):.0f} MiB" if size >= 1024 * 1024 else f"{size} bytes"


def read_bytes(path: str | Path, limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them (else ``FileProblem``)."""
    descriptor, _ = open_regular(path, limit)
    try:
        return read_descriptor(descriptor, limit)
    finally:
        os.close(descriptor)


def open_regular(path: str | Path, limit: int) -> tuple[int, os.stat_result]:
    """A descriptor open for reading on the regular file ``path`` of at most ``limit`` bytes, and its status as
    opened (else ``FileProblem``); the caller closes it."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise FileProblem("does not exist", missing=True) from None
    except NotADirectoryError:
        raise FileProblem("can't exist: a part of the path is a file, not a folder", missing=True) from None
    except OSError as error:
        if error.errno == 40 or "symbolic links" in str(error.strerror or ""):
            raise FileProblem("is a symbolic link loop") from None
        raise FileProblem(f"can't be read: {error.strerror or error}") from None
    if not stat.S_ISREG(info.st_mode):
        raise FileProblem(f"is {kind_of(info.st_mode)}, not a regular file")
    if not info.st_mode & 0o444:
        raise FileProblem(f"has no read permission (mode {stat.S_IMODE(info.st_mode):03o})")
    if info.st_size > limit:
        raise FileProblem(f"is {_size_text(info.st_size)}, over the limit of {_size_text(limit)}")
    try:
        descriptor = os.open(path, os.O_RDONLY | O_NONBLOCK | O_BINARY)
    except FileNotFoundError:
        raise FileProblem("does not exist", missing=True) from None
    except OSError as error:
        raise FileProblem(f"can't be read: {error.strerror or error}") from None
    try:
        opened = os.fstat(descriptor)
        if not stat.S_ISREG(opened.st_mode):
            raise FileProblem(f"is {kind_of(opened.st_mode)}, not a regular file")
        if O_NONBLOCK and hasattr(os, "set_blocking"):
            os.set_blocking(descriptor, True)
    except OSError as error:
        os.close(descriptor)
        raise FileProblem(f"can't be read: {error.strerror or error}") from None
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor, opened


def read_descriptor(descriptor: int, limit: int) -> bytes:
    """What is left to read of an open file, at most ``limit`` bytes (else ``FileProblem``)."""
    chunks, total = [], 0
    try:
        while True:
            chunk = os.read(descriptor, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise FileProblem(f"is over the limit of {_size_text(limit)}")
    except OSError as error:
        raise FileProblem(f"can't be read: {error.strerror or error}") from None
    return b"".join(chunks)


def read_input(path: str | Path, limit: int, what: str = "") -> bytes:
    """``read_bytes`` for a file given as input: problems are ``InputError`` (exit 2)."""
    try:
        return read_bytes(path, limit)
    except FileProblem as problem:
        raise InputError(
            f"cannot read {what + ' ' if what else ''}{quoted(str(path))}: it {problem.reason}; check the path"
        ) from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def loads(text: str | bytes) -> Any:
    """Strict JSON: no NaN or Infinity, numbers of at most 4,300 digits, nesting no deeper than
    the parser's recursion limit (``ValueError`` naming the first problem, with its line where known)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8-sig")
    elif text.startswith("\ufeff"):
        text = text[1:]
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        # the parser's words end in 'at' before the place it gives apart ('Invalid control character at')
        what = error.msg.removesuffix(" at")
        raise ValueError(f"not valid JSON (line {error.lineno}, column {error.colno}: {what})") from None
    except RecursionError:
        raise ValueError("JSON nested too deep") from None
    except ValueError as error:
        message = str(error)
        if "digits" in message:
            message = "a number with too many digits"
        raise ValueError(message) from None
    return data
