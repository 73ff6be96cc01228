"""Files that lose nothing, for the store and for exported files.

- ``atomic_write``: a temporary file in the same folder, fsynced, then an atomic rename (and the
  folder fsynced): a crash leaves the old content or the new, never a mix.
- ``remove_stale_temporaries``: the temporary files of killed processes are removed.
- ``FileLock``: an exclusive lock beside a file, taken through a turnstile so that waiting
  writers are served in turn (see its docstring).
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from events import portable
from sets.errors import StorageError
from sets.visible import quoted


def _fsync_folder(folder: Path) -> None:
    portable.fsync_folder(folder)


def full_disk(error: OSError) -> str:
    """What to do, at the end of a refused write's message, when the disk (or the owner's quota) is full."""
    return "; free some space on that disk, then try again" if error.errno in (errno.ENOSPC, errno.EDQUOT) else ""


PRIVATE = 0o600  # a new database, backup or draft file: the owner's alone (they hold the packs and the codes)


def atomic_write(
    path: Path,
    text: str | bytes,
    mode: int | None = None,
    before_rename: Callable[[os.stat_result], None] | None = None,
) -> None:
    """Write a file so that a crash leaves the old or the new content, never a mix (raises ``OSError``).

    ``mode``: permission bits for the new file (a database keeps its own, a new one is ``PRIVATE``);
    None: the usual ones (the umask's), for output files.  ``text`` is written as UTF-8 (bytes as they are).  The
    temporary file is made owner-only from the start, so the content is never readable by others on its way in.
    ``before_rename`` is told the new file's status (its inode, size and modification time stay the same once it
    is renamed into place) when it is whole on the disk, just before the rename.
    """
    folder = path.parent
    temporary = folder / f".{path.name}.{os.getpid()}.tmp"
    try:
        permissions = PRIVATE if mode is not None else 0o666  # 0o666: the umask decides, as for any new file
        opener = lambda name, flags: os.open(name, flags, permissions)  # noqa: E731
        with open(temporary, "wb", opener=opener) as stream:
            stream.write(text.encode() if isinstance(text, str) else text)
            stream.flush()
            if mode is not None:
                portable.set_mode(stream, temporary, mode)
            portable.flush_to_disk(stream.fileno())
            if before_rename is not None:
                before_rename(os.fstat(stream.fileno()))
        portable.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)
        raise
    _fsync_folder(folder)


def copy_private(source: Path, target: Path) -> None:
    """``source`` copied whole to ``target`` (a new file, owner-only) and flushed to the device."""
    opener = lambda name, flags: os.open(name, flags, PRIVATE)  # noqa: E731
    with open(source, "rb") as original, open(target, "wb", opener=opener) as copy:
        shutil.copyfileobj(original, copy, 1 << 20)
        copy.flush()
        portable.set_mode(copy, target, PRIVATE)  # whatever the umask let through
        portable.flush_to_disk(copy.fileno())


def readable_by_others(path: Path) -> bool:
    """Whether the file's permission bits let other accounts read it (only where bits say so: POSIX)."""
    if not portable.private_modes():
        return False
    try:
        return bool(path.stat().st_mode & 0o044)
    except OSError:
        return False


_TEMPORARY = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.tmp$")


def remove_stale_temporaries(folder: Path, name: str | None = None) -> list[Path]:
    """Remove ``.NAME.PID.tmp`` files whose process is gone (a write killed half-way); with ``name``,
    only those of that file."""
    removed: list[Path] = []
    try:
        with os.scandir(folder) as scan:
            # one file's temporaries: a plain prefix test first (a drafts folder holds three files per draft)
            prefix = "." if name is None else f".{name}."
            entries = [entry for entry in scan if entry.name.startswith(prefix) and entry.name.endswith(".tmp")]
    except OSError:
        return removed
    for entry in entries:
        match = _TEMPORARY.match(entry.name)
        if match is None or (name is not None and match["name"] != name) or int(match["pid"]) == os.getpid():
            continue
        try:
            changed = entry.stat(follow_symlinks=False).st_mtime
        except OSError:
            continue
        if portable.process_alive(int(match["pid"]), changed):  # no probe (Windows): stale after an hour
            continue
        try:
            os.unlink(entry.path)
            removed.append(Path(entry.path))
        except OSError:
            pass
    return removed


def read_only(path: Path) -> bool:
    """A file or folder marked read-only (no write permission bit for anyone: even root leaves it
    alone), or one this process may not write."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not mode & 0o222 or not os.access(path, os.W_OK)


class FileLock:
    """An exclusive lock on ``NAME.lock`` beside the file, taken through a turnstile (``NAME.queue``).

    Waiters sleep in the kernel's lock queue (``portable.lock``: ``flock`` without ``LOCK_NB``
    through portalocker) rather than poll.  To reach the lock a writer first takes the turnstile
    and holds it while it waits for the lock; so when the lock is released, the writer waiting at
    it gets it, and the one that just released it queues at the turnstile behind the others: a
    terminal writing in a loop can't keep taking the lock back, and waiting terminals are served in
    turn.  The kernel drops both locks of a killed process.  The whole wait is bounded by
    ``timeout`` (an interval timer; by polling where there is none, or off the main thread).

    Threads of one process (the web server's workers) first queue at a lock of the process's own for
    that file (``threading.Lock``: they sleep until it is free, none polls), so only a wait on another
    process polls, and only one thread of a process at a time.

    ``keep_open``: the two files stay open between holds (a live draft's journal, locked for every pick
    write): a hold then costs the ``flock`` calls alone, not two opens and two closes.  Letting go unlocks
    them; they are opened again when the lock file was replaced meanwhile (its inode is compared with one
    ``stat``), and closed when the lock is dropped.
    """

    _threads: dict[str, threading.Lock] = {}
    _threads_guard = threading.Lock()

    def __init__(self, path: Path, *, keep_open: bool = False):
        self.path = path.with_name(path.name + ".lock")
        self.queue_path = path.with_name(path.name + ".queue")
        self.handle: Any = None
        self.queue: Any = None
        self.in_process: threading.Lock | None = None
        self.keep_open = keep_open
        self._kept: tuple[Any, Any, int] | None = None  # (lock file, turnstile, the lock file's inode) between holds
        self._closer: weakref.finalize | None = None
        self._threads_lock: threading.Lock | None = None  # this file's lock among this process's threads, once found

    def _process_lock(self) -> threading.Lock:
        if self._threads_lock is not None:
            return self._threads_lock
        key = os.path.abspath(self.path)
        with FileLock._threads_guard:
            found = FileLock._threads.get(key)
            if found is None:
                found = FileLock._threads[key] = threading.Lock()
        self._threads_lock = found
        return found

    def _open(self, path: Path) -> Any:
        try:  # unbuffered: nothing is read or written through it, so no buffer to set up (fewer system calls)
            return open(path, "a+b", buffering=0)
        except FileNotFoundError:
            raise StorageError(f"cannot open lock file {quoted(str(path))}: the folder does not exist") from None
        except OSError as error:
            raise StorageError(
                f"cannot open lock file {quoted(str(path))}: {error.strerror or error}; check the folder is writable"
            ) from None

    def acquire(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        in_process = self._process_lock()
        if not in_process.acquire(timeout=max(0.001, timeout)):
            raise self._busy(timeout)
        self.in_process = in_process
        try:
            self.handle, self.queue = self._handles()
            portable.lock(self.queue, max(0.001, deadline - time.monotonic()))
            portable.lock(self.handle, max(0.001, deadline - time.monotonic()))
            portable.unlock(self.queue)
            if self.keep_open:
                self.queue = None  # let go already: nothing for ``release`` to do with it (it stays open, kept)
        except portable.LockTimeout:
            self.release()
            raise self._busy(timeout) from None
        except BaseException:
            self.release()
            raise

    def try_acquire(self) -> bool:
        """Take the lock only when nobody holds it or waits for it (no thread of this process, no process at the
        turnstile): a few ``flock`` calls, never a wait (the web server's event loop).  False: the lock was busy,
        nothing is held (the caller queues for it with ``acquire`` where waiting is fine)."""
        if not portable.HAS_FLOCK:
            return False
        in_process = self._process_lock()
        if not in_process.acquire(blocking=False):
            return False
        self.in_process = in_process
        try:
            self.handle, self.queue = self._handles()
            taken = portable.free_lock_taken(self.queue)
            if taken and not portable.free_lock_taken(self.handle):
                portable.unlock(self.queue)
                taken = False
            if taken:
                portable.unlock(self.queue)
                if self.keep_open:
                    self.queue = None
                return True
            self.release()  # unlocks kept files (a lock not held: nothing happens), closes others
            return False
        except BaseException:
            self.release()
            raise

    @staticmethod
    def _busy(timeout: float) -> StorageError:
        return StorageError(f"the database is busy (locked by another cmdraft for {timeout:.0f}s); try again")

    def _handles(self) -> tuple[Any, Any]:
        """The lock file and the turnstile, open (kept ones when the lock file is still the one they opened)."""
        if self._kept is not None:
            try:
                inode = os.stat(self.path).st_ino
            except OSError:
                inode = -1
            if inode == self._kept[2]:
                return self._kept[0], self._kept[1]
            self.close()
        handle = self._open(self.path)
        try:
            queue = self._open(self.queue_path)
        except BaseException:
            handle.close()
            raise
        if self.keep_open:
            self._kept = (handle, queue, os.fstat(handle.fileno()).st_ino)
            self._closer = weakref.finalize(self, _close_files, handle, queue)
        return handle, queue

    def release(self) -> None:
        kept = self._kept is not None and self.handle is self._kept[0]
        for handle in (self.queue, self.handle):
            if handle is not None:
                if kept:
                    portable.unlock(handle)  # the turnstile only when an acquire was cut short holding it
                else:
                    handle.close()  # closing drops the lock
        self.handle = self.queue = None
        held, self.in_process = self.in_process, None  # cleared first: a thread waiting for it may set it next
        if held is not None:
            held.release()

    def close(self) -> None:
        """Close the files kept open between holds (not while held)."""
        if self._closer is not None:
            self._closer()
        self._kept = self._closer = None


def _close_files(*handles: Any) -> None:
    for handle in handles:
        handle.close()
