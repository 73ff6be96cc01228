"""A pod of two players whose draft is kept in its own journal file (``events.storage.journal``), for the tests of
that file's writes, and the file itself; a device that refuses to sync; a file appended to, not yet synced."""

from __future__ import annotations

import errno
import os
from pathlib import Path

from events.deferred import Deferred
from events.storage.draft_files import TableSession
from events.storage.store import Store
from tests.helpers.night import Night
from tests.helpers.nights import terminal_event


def two_human_pod(tmp_path: Path) -> tuple[Night, int, TableSession]:
    db = tmp_path / "db.json"
    event_id = terminal_event(db, humans=("Ann", "Bo"), bots=())
    events = Night(Store(db))
    return events, event_id, events.draft_session(event_id, 1)


def journal_path(tmp_path: Path) -> Path:
    (path,) = (tmp_path / "db.json.drafts").glob("*.json")
    return path


def refused_sync(self: Deferred, *how: object) -> None:
    """``Deferred.sync`` as a device that refuses it does (an I/O error), its descriptors let go."""
    self.close()
    raise OSError(errno.EIO, "Input/output error")


def written(folder: Path, name: str) -> int:
    """A file appended to, as a pick's write leaves it: open, its bytes not yet on the device."""
    fd = os.open(folder / name, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.write(fd, b'{"pick": 1}\n')
    return fd
