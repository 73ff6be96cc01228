"""Files appended to now and put on the device later (``Deferred``): what lets ``cmdraft serve``'s event loop write
a pick without waiting on the disk, while its syncer (a helper process, or a thread) fsyncs every file written since
its last round (group commit) before any of those picks is answered (``events.storage.journal``,
``events.web.syncer``)."""

from __future__ import annotations

import os
from collections.abc import Callable

from events import portable


class Deferred:
    """Files appended to without their fsync (``events.storage.journal.Journal.write``): ``sync`` puts them on the
    device.  Each file is held by a descriptor of its own (closed by ``sync`` or ``close``), so its writer may close
    its own meanwhile; ``after``: work the writes left for after the sync (a journal to compact)."""

    def __init__(self) -> None:
        self.files: dict[tuple[int, int], int] = {}  # (device, inode) -> a descriptor of that file
        self.after: list[Callable[[], None]] = []  # what is left to do after the sync, where waiting is fine

    def add(self, fd: int, key: tuple[int, int] | None = None) -> None:
        """``fd``'s file synced by this one; ``key``: its (device, inode), when the caller has just looked."""
        if key is None:
            stat = os.fstat(fd)
            key = (stat.st_dev, stat.st_ino)
        if key not in self.files:
            self.files[key] = os.dup(fd)

    def merge(self, other: Deferred) -> None:
        """``other``'s files synced by this one (one fsync a file for a round of writes); ``other`` is emptied."""
        for key, fd in other.files.items():
            if key in self.files:
                os.close(fd)
            else:
                self.files[key] = fd
        other.files = {}

    def parts(self, most: int) -> list[Deferred]:
        """This write's files as writes of at most ``most`` files each (this one when it has no more)."""
        if len(self.files) <= most:
            return [self]
        items = list(self.files.items())
        self.files = {}
        parts = []
        for start in range(0, len(items), most):
            part = Deferred()
            part.files = dict(items[start : start + most])
            parts.append(part)
        return parts

    def sync(self) -> None:
        """Every file appended to on the device (fsync), one after another, then let go; the first error is raised
        once all were tried."""
        try:
            problems = [problem for problem in map(_flushed, list(self.files.values())) if problem is not None]
        finally:
            self.close()
        if problems:
            raise problems[0]

    def close(self) -> None:
        files, self.files = self.files, {}
        for fd in files.values():
            try:
                os.close(fd)
            except OSError:
                pass


def _flushed(fd: int) -> OSError | None:
    try:
        portable.flush_to_disk(fd)
    except OSError as error:
        return error
    return None
