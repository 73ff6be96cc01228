"""The user's data folder and what cmdraft keeps there for the built-in sets (rules text, MTGO ids), the default
database in it and the ``--db`` a command typed again needs to open another (``db_option``: every layer names this one)."""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


def user_home() -> Path:
    """Where cmdraft keeps the user's data: ``$CMDRAFT_HOME`` or the platform's data folder."""
    environ = os.environ
    return _user_home(environ.get("CMDRAFT_HOME"), environ.get("XDG_DATA_HOME"), environ.get("HOME"))


def default_path() -> Path:
    """The database a command opens when no ``--db`` names one."""
    return user_home() / "cmdraft.json"


def db_option(path: str | Path) -> str:
    """`` --db PATH`` for a command to type again, unless ``path`` is the default database (then nothing)."""
    if Path(path).resolve() == default_path().resolve():
        return ""
    return f" --db {shlex.quote(str(path))}"


@lru_cache(maxsize=16)
def _user_home(override: str | None, xdg: str | None, home: str | None) -> Path:
    """The folder for these variables (the platform's rule worked out once for them)."""
    if override:
        return Path(override).expanduser()
    from platformdirs import user_data_path

    return user_data_path("cmdraft", appauthor=False)


# The files of the data folder as first read inside the current ``one_reading`` block (None: outside one).
_READING: ContextVar[dict[Any, Any] | None] = ContextVar("cmdraft_reading", default=None)


@contextmanager
def one_reading() -> Iterator[None]:
    """Inside the block the user's data folder is looked at once per file: what a kept file (texts, MTGO ids, an
    imported set, the basic lands) held when first asked for is what it holds until the block ends.  A pod's bots
    and deck builds ask for them thousands of times; a file changed meanwhile is seen by the next block."""
    if _READING.get() is not None:
        yield
        return
    token = _READING.set({})
    try:
        yield
    finally:
        _READING.reset(token)


def pinned(key: Any, read: Callable[[], T]) -> T:
    """``read()``, or inside a ``one_reading`` block what it gave the first time there for ``key``."""
    reading = _READING.get()
    if reading is None:
        return read()
    if key not in reading:
        reading[key] = read()
    found: T = reading[key]
    return found


def texts_path(code: str) -> Path:
    return user_home() / "texts" / f"{code.upper()}.json"


def kept_mtgo_ids(code: str) -> tuple[dict[str, int], dict[str, int]]:
    """MTGO ids by card name that imported files gave for a built-in set's cards, and their foils' ids (one read)."""
    kept = read_kept(code)
    return dict(kept["mtgo_ids"]), dict(kept["mtgo_foil_ids"])


def read_kept(code: str) -> dict[str, Any]:
    return pinned(("kept", code.upper()), lambda: _read_kept(code))


def _read_kept(code: str) -> dict[str, Any]:
    path = texts_path(code)
    try:
        stat = path.stat()
    except OSError:
        return {"cards": {}, "mtgo_ids": {}, "mtgo_foil_ids": {}}
    return read_kept_file(str(path), stat.st_mtime_ns, stat.st_size)


@cache
def read_kept_file(path: str, mtime_ns: int, size: int) -> dict[str, Any]:
    """The kept texts and MTGO ids (cached per file version); a damaged file counts as none (import again to mend it)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        cards = data["cards"]
        texts = {str(name): [str(text) for text in faces] for name, faces in cards.items() if isinstance(faces, list)}
        ids, foil_ids = (
            {
                str(name): value
                for name, value in (data.get(key) or {}).items()
                if isinstance(value, int) and not isinstance(value, bool) and value > 0
            }
            for key in ("mtgo_ids", "mtgo_foil_ids")
        )
        return {"cards": texts, "mtgo_ids": ids, "mtgo_foil_ids": foil_ids}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {"cards": {}, "mtgo_ids": {}, "mtgo_foil_ids": {}}
