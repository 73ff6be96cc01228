"""Every call that differs between operating systems, in one place, each with a portable fallback.

cmdraft runs on POSIX systems and on Windows (store PCs).  Nothing else in the package calls
``fcntl``, ``termios``, ``tty``, ``msvcrt``, ``select`` on input or ``os.kill(pid, 0)``:

- ``lock`` / ``unlock``: an exclusive lock on an open file through ``portalocker`` (``flock`` on
  POSIX, ``LockFileEx``/``msvcrt.locking`` on Windows).  Where ``flock`` can be called directly
  (``HAS_FLOCK``) a lock that is free is taken, and a lock let go, with one system call (the same
  ``flock`` portalocker makes, without its wrapping: a server's pick write takes and lets go three);
  a lock that is held is waited for as without it.  Where an interval timer exists (``HAS_ALARM``) a
  waiter sleeps in the kernel's lock queue and the timer bounds the wait; elsewhere (Windows, or off
  the main thread) it polls every millisecond until the deadline.
- ``process_alive``: whether the process that left a temporary file still runs.  POSIX probes it
  with signal 0; without that probe (``HAS_KILL_PROBE``; on Windows signal 0 would *end* the
  process) a temporary file counts as abandoned once it is older than ``STALE_AFTER`` seconds.
- ``fsync_folder``: makes a rename durable where folders can be opened (POSIX); a no-op elsewhere.
- ``flush_to_disk``: a file's bytes on the device.  macOS's ``fsync`` only hands them to the drive,
  whose cache a power cut loses: there ``fcntl(F_FULLFSYNC)`` (``HAS_FULLFSYNC``), with ``fsync``
  when the file system refuses it; ``fsync`` elsewhere.
- ``set_mode``: a new file's permission bits through its open handle (``os.fchmod``, which Windows
  has only from Python 3.13: ``HAS_FCHMOD``), else by its path.
- ``replace``: an atomic rename.  On Windows a file another process holds open (a terminal polling
  the draft) can't be replaced for a moment (``PermissionError``): it is tried again for at most
  ``REPLACE_PATIENCE`` seconds (``RETRY_REPLACE``) on the application's clock, then the error stands.
- ``private_modes``: whether permission bits say who can read a file (POSIX; Windows uses ACLs).
- ``terminal_key``: what names this terminal session (its tty device and session id) and
  ``session_alive``: whether that session still runs; None where there is no such thing (Windows, a pipe).
- ``LineReader``: waiting for a typed line with a timeout.  POSIX ``select()``s on the stream
  (``HAS_SELECT_INPUT``); elsewhere a reader thread hands lines over a queue.
- ``discard_typed``: what was typed without Enter is dropped (``tcflush``; the console's keys on Windows).
- ``stdout_gone``: stdout's reader went away (``| head``): what is written there from now on goes to the null device.
- ``KeyMode``: single keys without Enter: cbreak mode through ``termios``/``tty``
  (``HAS_TERMIOS``), ``msvcrt`` on a Windows console, else characters read one at a time.

The ``HAS_*`` flags are plain module attributes: tests turn them off to run the fallbacks on Linux.
"""

from __future__ import annotations

import contextlib
import io
import os
import queue
import signal
import sys
import threading
import time
import types
from collections.abc import Callable
from typing import Any, Self

from events import timing

_fcntl: types.ModuleType | None
try:
    import fcntl as _fcntl
except ImportError:  # pragma: no cover - Windows
    _fcntl = None

POSIX = os.name == "posix"
HAS_ALARM = hasattr(signal, "setitimer") and hasattr(signal, "SIGALRM")
_flock = getattr(_fcntl, "flock", None)  # portalocker's own primitive on POSIX, called directly when the lock is free
HAS_FLOCK = _flock is not None
LOCK_EX, LOCK_NB, LOCK_UN = (getattr(_fcntl, name, 0) for name in ("LOCK_EX", "LOCK_NB", "LOCK_UN"))
HAS_KILL_PROBE = POSIX
HAS_SELECT_INPUT = POSIX
HAS_TERMIOS = POSIX
HAS_FOLDER_FSYNC = POSIX and hasattr(os, "O_DIRECTORY")
HAS_FCHMOD = hasattr(os, "fchmod")
F_FULLFSYNC = getattr(_fcntl, "F_FULLFSYNC", None)  # macOS only
HAS_FULLFSYNC = F_FULLFSYNC is not None
RETRY_REPLACE = os.name == "nt"
REPLACE_PATIENCE = 2.0  # seconds a rename onto a file held open is tried again (Windows)
REPLACE_PAUSE = 0.02
HAS_POSIX_MODES = POSIX
HAS_TERMINAL_SESSIONS = POSIX and hasattr(os, "getsid") and hasattr(os, "ttyname")
STALE_AFTER = 3600.0  # seconds: a temporary file this old is abandoned where no process probe exists
POLL = 0.001


class LockTimeout(Exception):
    """The lock was not free before the deadline."""


class _Alarm(Exception):
    pass


def _ring(signum: int, frame: Any) -> None:
    raise _Alarm


def lock(handle: Any, timeout: float) -> None:
    """Take an exclusive lock on the open file ``handle`` within ``timeout`` seconds (else ``LockTimeout``).

    With an interval timer, on the main thread, the wait sleeps in the kernel's queue: when the
    holder lets go, the longest waiter is woken, which keeps the store's turnstile fair."""
    if HAS_FLOCK and free_lock_taken(handle):
        return
    import portalocker  # here: importing it reads its package's metadata, which a free lock never needs

    if HAS_ALARM and threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGALRM, _ring)
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            portalocker.lock(handle, portalocker.LockFlags.EXCLUSIVE)
            return
        except _Alarm:
            raise LockTimeout from None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    deadline = time.monotonic() + timeout
    while True:
        try:
            portalocker.lock(handle, portalocker.LockFlags.EXCLUSIVE | portalocker.LockFlags.NON_BLOCKING)
            return
        except portalocker.AlreadyLocked:
            if time.monotonic() >= deadline:
                raise LockTimeout from None
            time.sleep(POLL)


def free_lock_taken(handle: Any) -> bool:
    """Take the lock with one ``flock`` call when nobody holds it; False when somebody does (or the call fails
    otherwise: portalocker then tries, and says why)."""
    assert _flock is not None  # HAS_FLOCK
    try:
        _flock(handle.fileno(), LOCK_EX | LOCK_NB)
    except OSError:
        return False
    return True


def unlock(handle: Any) -> None:
    if HAS_FLOCK:
        assert _flock is not None
        try:
            _flock(handle.fileno(), LOCK_UN)
        except (OSError, ValueError):
            pass  # closing the file drops the lock anyway
        return
    import portalocker  # (where ``flock`` can't be called directly; see ``lock``)

    try:
        portalocker.unlock(handle)
    except (portalocker.LockException, OSError, ValueError):
        pass  # closing the file drops the lock anyway


def end_process(process: Any) -> None:
    """A child process (a ``subprocess.Popen``) ended at once, whatever it is doing (SIGKILL; Windows:
    ``TerminateProcess``); one already gone is no error."""
    with contextlib.suppress(OSError):
        process.kill()


def process_alive(pid: int, since: float | None = None) -> bool:
    """Whether process ``pid`` (which left a file last changed at ``since``, epoch seconds) may still run."""
    if HAS_KILL_PROBE:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        except OSError:
            return False
        return True
    return since is not None and time.time() - since < STALE_AFTER


def fsync_folder(folder: Any) -> None:
    if not HAS_FOLDER_FSYNC:
        return
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def flush_to_disk(descriptor: int) -> None:
    """The open file's bytes on the storage device (``F_FULLFSYNC`` on macOS, else ``fsync``)."""
    if HAS_FULLFSYNC and F_FULLFSYNC is not None and _fcntl is not None:
        try:
            _fcntl.fcntl(descriptor, F_FULLFSYNC)
            return
        except OSError:
            pass  # a file system without it (a network share): fsync is the best there is
    os.fsync(descriptor)


def set_mode(handle: Any, path: Any, mode: int) -> None:
    """Permission bits of a file open as ``handle`` (at ``path``): through the handle where
    ``os.fchmod`` exists, else by the path (Windows before Python 3.13: only the read-only bit counts)."""
    if HAS_FCHMOD:
        os.fchmod(handle.fileno(), mode)
    else:
        os.chmod(path, mode)


def _rename(source: Any, target: Any) -> None:
    os.replace(source, target)


def replace(source: Any, target: Any) -> None:
    """``os.replace``; where another process holding the target open makes it fail for a moment
    (Windows), tried again for at most ``REPLACE_PATIENCE`` seconds before the error stands."""
    deadline = timing.monotonic() + REPLACE_PATIENCE
    while True:
        try:
            _rename(source, target)
            return
        except PermissionError:
            if not RETRY_REPLACE or timing.monotonic() >= deadline:
                raise
            timing.sleep(REPLACE_PAUSE)


def private_modes() -> bool:
    """Whether a file's permission bits tell who may read it (POSIX; Windows keeps that in ACLs)."""
    return HAS_POSIX_MODES


def terminal_key(stream: Any = None) -> tuple[str, int] | None:
    """This terminal session: (the tty device of ``stream``, default standard input; the session id),
    or None where there is none (Windows, or input from a pipe or file)."""
    if not HAS_TERMINAL_SESSIONS:
        return None
    stream = sys.stdin if stream is None else stream
    try:
        descriptor = stream.fileno()
        if not os.isatty(descriptor):
            return None
        return os.ttyname(descriptor), os.getsid(0)
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return None


def session_alive(session: int) -> bool:
    """Whether the terminal session ``session`` (its leader's process id) still runs."""
    if not HAS_TERMINAL_SESSIONS:
        return False
    try:
        return os.getsid(session) == session
    except OSError:
        return False


# --- typed input ------------------------------------------------------------------------------------


class LineReader:
    """Lines from ``stream`` with a timeout: ``wait(seconds)`` is True once a line (or end of input)
    can be read without blocking; ``readline()`` then returns it."""

    def __init__(self, stream: Any):
        self.stream = stream
        self._queue: queue.Queue[str] | None = None
        self._pending: list[str] = []

    def _selectable(self) -> bool:
        if not HAS_SELECT_INPUT:
            return False
        try:
            self.stream.fileno()
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            return False
        return True

    def _start_thread(self) -> queue.Queue[str]:
        if self._queue is None:
            self._queue = queue.Queue()

            def pump(target: queue.Queue[str] = self._queue) -> None:
                while True:
                    try:
                        line = self.stream.readline()
                    except (OSError, ValueError):
                        line = ""
                    target.put(line)
                    if line == "":
                        return

            threading.Thread(target=pump, daemon=True, name="cmdraft-input").start()
        return self._queue

    def wait(self, seconds: float) -> bool:
        if self._pending:
            return True
        if self._selectable():
            import select

            try:
                ready, _, _ = select.select([self.stream], [], [], max(0.0, seconds))
            except (ValueError, OSError, io.UnsupportedOperation):
                return True
            return bool(ready)
        if not self._threaded():
            return True  # an in-memory stream: its lines are already there
        try:
            self._pending.append(self._start_thread().get(timeout=max(0.0, seconds)))
        except queue.Empty:
            return False
        return True

    def _threaded(self) -> bool:
        """Whether reading may block (a real file or console), so a thread must do it."""
        if self._queue is not None:
            return True
        try:
            self.stream.fileno()
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            return False
        return True

    def readline(self) -> str:
        if self._pending:
            return self._pending.pop(0)
        if self._queue is not None:
            return self._queue.get()
        return self.stream.readline()


def discard_typed(stream: Any) -> None:
    """Drop what was typed at a terminal without Enter: ``tcflush`` where there is termios, the
    console's pending keys on Windows, nothing for a pipe or a file."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return
    if not os.isatty(fd):
        return
    if HAS_TERMIOS:
        import termios

        termios.tcflush(fd, termios.TCIFLUSH)
    elif sys.platform == "win32":  # pragma: no cover - Windows console (os.name "nt")
        import msvcrt

        while msvcrt.kbhit():
            msvcrt.getwch()


class KeyMode:
    """Single keystrokes, no Enter needed; the terminal's settings come back on leaving."""

    def __init__(self, stream: Any = None):
        self.stream = stream or sys.stdin
        self.fd: int | None = None
        self._saved: Any = None
        self._console = False
        self._reader: LineReader | None = None
        self._buffer = ""

    def __enter__(self) -> Self:
        try:
            self.fd = self.stream.fileno()
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            self.fd = None
        if self.fd is not None and os.isatty(self.fd):
            if HAS_TERMIOS:
                import termios
                import tty

                self._saved = termios.tcgetattr(self.fd)
                tty.setcbreak(self.fd, termios.TCSANOW)  # not the default TCSAFLUSH: what was typed ahead stays
            elif sys.platform == "win32":  # pragma: no cover - Windows console (os.name "nt")
                self._console = True
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._saved is not None:
            import termios

            assert self.fd is not None  # settings are saved only for a terminal's descriptor
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            self._saved = None

    @property
    def single(self) -> bool:
        """Whether keys come one at a time as typed, unechoed (a terminal in cbreak mode, a Windows console)."""
        return self._saved is not None or self._console

    def read(self, timeout: float) -> str | None:
        """One key (Enter is ``"\\n"``), ``""`` at end of input, or None when ``timeout`` passes without one."""
        if self.fd is None:
            return self.stream.read(1)  # an in-memory stream: every key is already there
        if self._console and sys.platform == "win32":  # pragma: no cover - Windows console (only there)
            import msvcrt

            deadline = time.monotonic() + timeout
            while not msvcrt.kbhit():
                if time.monotonic() >= deadline:
                    return None
                time.sleep(0.02)
            key = msvcrt.getwch()
            return "\n" if key in ("\r", "\n") else key
        if HAS_SELECT_INPUT:
            import select

            ready, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
            if not ready:
                return None
            data = os.read(self.fd, 1)
            if not data:
                return ""
            need = 0 if data[0] < 0xC0 else 1 if data[0] < 0xE0 else 2 if data[0] < 0xF0 else 3
            while need and select.select([self.fd], [], [], 0.05)[0]:  # a letter's other UTF-8 bytes follow at once
                more = os.read(self.fd, 1)
                if not more:
                    break
                data, need = data + more, need - 1
            # a byte that is no UTF-8 comes as a lone surrogate (events.screens.terminal.undecodable_byte names it)
            return "\n" if data in (b"\r", b"\n") else data.decode("utf-8", errors="surrogateescape")
        # No select on input: whole lines through a reader thread, handed out a key at a time.
        if not self._buffer:
            if self._reader is None:
                self._reader = LineReader(self.stream)
            if not self._reader.wait(timeout):
                return None
            line = self._reader.readline()
            if line == "":
                return ""
            self._buffer = line
        key, self._buffer = self._buffer[0], self._buffer[1:]
        return "\n" if key in ("\r", "\n") else key


def on_interrupt(callback: Callable[[], None]) -> None:
    """``callback`` on the running event loop when SIGINT or SIGTERM comes (a full-screen app reads Ctrl-C as a key,
    so this is one sent from outside: ``kill -INT``, ``timeout -s INT``, ``kill PID``), so the app leaves and gives
    the terminal back as it was.  Where the loop can't take signals (Windows) they stay Python's own."""
    import asyncio  # here: only the full-screen app, already running on asyncio's loop, asks (a command would pay)

    for name in ("SIGINT", "SIGTERM"):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError, AttributeError):
            asyncio.get_running_loop().add_signal_handler(getattr(signal, name), callback)


def stdout_gone() -> None:
    """Standard output's reader went away (``cmdraft packs --json | head -1``): what is written to it from now on,
    and the flush at exit, goes to the null device, so the command ends with its own exit code, not an error."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
