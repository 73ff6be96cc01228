"""Files that lose nothing, for the store and for exported files.

- ``atomic_write``: a temporary file in the same folder, fsynced, then an atomic rename (and the
  folder fsynced): a crash leaves the old content or the new, never a mix.
- ``remove_stale_temporaries``: the temporary files of killed processes are removed.
- ``FileLock``: an exclusive lock beside a file, taken through a turnstile so that waiting
  writers are served in turn (see its docstring).
"""

from __future__ import annotations

import os
import re
import signal
import threading
import time
from pathlib import Path
from typing import Any

from sets.errors import StorageError


def _fsync_folder(folder: Path) -> None:
    if hasattr(os, "O_DIRECTORY"):
        descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def atomic_write(path: Path, text: str, mode: int | None = None) -> None:
    """Write a file so that a crash leaves the old or the new content, never a mix (raises ``OSError``).

    ``mode``: permission bits for the new file (a database keeps its own).
    """
    folder = path.parent
    temporary = folder / f".{path.name}.{os.getpid()}.tmp"
    try:
        with open(temporary, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
            stream.flush()
            if mode is not None:
                os.fchmod(stream.fileno(), mode)
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)
        raise
    _fsync_folder(folder)


_TEMPORARY = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.tmp$")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale_temporaries(folder: Path) -> list[Path]:
    """Remove ``.NAME.PID.tmp`` files whose process is gone (a write killed half-way)."""
    removed = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        match = _TEMPORARY.match(entry.name)
        if match is None or int(match["pid"]) == os.getpid() or _alive(int(match["pid"])):
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


class _LockTimeout(Exception):
    pass


def _raise_timeout(signum: int, frame: Any) -> None:
    raise _LockTimeout


class FileLock:
    """An exclusive lock on ``NAME.lock`` beside the file, taken through a turnstile (``NAME.queue``).

    Waiters sleep in the kernel (``flock`` without ``LOCK_NB``) rather than poll.  To reach the
    lock a writer first takes the turnstile and holds it while it waits for the lock; so when the
    lock is released, the writer waiting at it gets it, and the one that just released it queues
    at the turnstile behind the others: a terminal writing in a loop can't keep taking the lock
    back, and waiting terminals are served in turn.  The kernel drops both locks of a killed
    process.  The wait is bounded by an interval timer (by polling off the main thread).
    """

    def __init__(self, path: Path):
        self.path = path.with_name(path.name + ".lock")
        self.queue_path = path.with_name(path.name + ".queue")
        self.handle: Any = None
        self.queue: Any = None

    def _open(self, path: Path) -> Any:
        try:
            return open(path, "a+b")
        except FileNotFoundError:
            raise StorageError(f"cannot open lock file {path}: the folder does not exist") from None
        except OSError as error:
            raise StorageError(f"cannot open lock file {path}: {error.strerror or error}; check the folder is writable") from None

    def acquire(self, timeout: float) -> None:
        self.handle = self._open(self.path)
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not POSIX: no locking
            return
        self.queue = self._open(self.queue_path)
        if threading.current_thread() is threading.main_thread():
            previous = signal.signal(signal.SIGALRM, _raise_timeout)
            signal.setitimer(signal.ITIMER_REAL, timeout)
            try:
                fcntl.flock(self.queue.fileno(), fcntl.LOCK_EX)
                fcntl.flock(self.handle.fileno(), fcntl.LOCK_EX)
                fcntl.flock(self.queue.fileno(), fcntl.LOCK_UN)
                return
            except _LockTimeout:
                pass
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)
        else:
            deadline = time.monotonic() + timeout
            held = []
            for handle in (self.queue, self.handle):
                while time.monotonic() < deadline:
                    try:
                        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                        held.append(handle)
                        break
                    except BlockingIOError:
                        time.sleep(0.001)
            if len(held) == 2:
                fcntl.flock(self.queue.fileno(), fcntl.LOCK_UN)
                return
        self.release()
        raise StorageError(f"the database is busy (locked by another cmdraft for {timeout:.0f}s); try again")

    def release(self) -> None:
        for handle in (self.queue, self.handle):
            if handle is not None:
                handle.close()  # closing drops the flock
        self.handle = self.queue = None
