"""The one thread that puts the picks ``cmdraft serve``'s event loop wrote on the device (``Syncer``)."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import queue
import socket
import struct
import subprocess
import sys
import threading
import weakref
from collections.abc import Callable
from pathlib import Path

from events import portable
from events.deferred import Deferred
from events.web import sync_child
from events.web.api_common import ApiError

_STOP = None  # what ``close`` puts in the queue: the thread ends
log = logging.getLogger("cmdraft.serve")


Synced = Callable[[OSError | None], None]  # told on the event loop once a write is on the device (or could not be)


class Syncing:
    """What puts the picks written on ``cmdraft serve``'s event loop on the device: ``Syncer`` (a thread of the
    server's own) or ``HelperSyncer`` (a process of its own)."""

    closed = False

    def start(self) -> None:
        """Ready to sync (on the event loop, as the server starts): the first pick then doesn't wait for it."""

    def submit(self, deferred: Deferred, synced: Synced) -> None:
        """``deferred``'s files put on the device, then ``synced`` called on the event loop (with the ``OSError``
        when one could not be synced).  Called on the event loop; never called back once the syncer is closed."""
        raise NotImplementedError

    def stop(self, timeout: float) -> None:
        """No write taken any more; those taken before synced and called back (up to ``timeout`` seconds); called
        in a worker thread while the event loop runs (the server is stopping)."""
        raise NotImplementedError

    async def sync(self, deferred: Deferred) -> None:
        """Until ``deferred``'s files are on the device (an ``ApiError`` 503 when one could not be synced)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def synced(problem: OSError | None) -> None:
            if done.done():
                return
            if problem is None:
                done.set_result(None)
            else:
                done.set_exception(unsynced(problem))

        self.submit(deferred, synced)
        await done

    def refuse_if_closed(self) -> None:
        if self.closed:
            raise stopping()


class Syncer(Syncing):
    """One thread that puts the picks written on the event loop on the device (group commit): each round it
    fsyncs every draft file appended to since the last round, once a file and one after another, then wakes the
    loop once with every write it synced.  The event loop does the rest of a write (the draft's logic, the appended
    line: a few microseconds of disk-free work), so no pick waits for a worker thread, and none is answered before
    its sync.  A write reaches the thread through a queue (one C call on the loop, a wake-up only when the thread
    sleeps), and the thread takes everything queued meanwhile as one round.

    The thread is alone on purpose: every thread that runs Python takes the interpreter from the event loop each
    time it wakes, so a pool syncing a round's files at once cost the loop a quarter of its time and doubled the
    picks' waits (``python -m tests.benchmarks serve``, issue 41); a longer round only gathers more picks."""

    def __init__(self) -> None:
        self.queue: queue.SimpleQueue[tuple[Deferred, Synced] | None] = queue.SimpleQueue()
        self.thread: threading.Thread | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    def submit(self, deferred: Deferred, synced: Synced) -> None:
        self.refuse_if_closed()
        if self.thread is None:
            self.loop = asyncio.get_running_loop()
            self.thread = threading.Thread(target=self._run, name="cmdraft-sync", daemon=True)
            self.thread.start()
        self.queue.put((deferred, synced))

    def close(self) -> None:
        """The thread ends once the writes queued before it are synced and called back (the server is stopping)."""
        self.closed = True
        self.queue.put(_STOP)

    def _run(self) -> None:
        while True:
            first = self.queue.get()
            round_ = []
            while first is not _STOP:  # everything queued meanwhile joins this round
                round_.append(first)
                try:
                    first = self.queue.get_nowait()
                except queue.Empty:
                    break
            if round_:
                together = Deferred()
                for deferred, _ in round_:
                    together.merge(deferred)
                try:
                    together.sync()
                    problem: OSError | None = None
                except OSError as error:
                    problem = error
                assert self.loop is not None
                try:
                    self.loop.call_soon_threadsafe(_synced, [synced for _, synced in round_], problem)
                except RuntimeError:  # the loop closed: the server stopped
                    return
            if first is _STOP:  # the server is stopping: the writes already queued were synced and called back
                return

    def stop(self, timeout: float) -> None:
        """``close``, then wait (up to ``timeout`` seconds) for the thread to sync and call back what was queued."""
        self.close()
        if self.thread is not None:
            self.thread.join(timeout)


class HelperSyncer(Syncing):
    """A process of the server's own that puts the picks written on the event loop on the device (``sync_child``:
    each write synced by a thread of the helper's as it comes, several pods' at once, and answered as soon as its
    own files are on the device).  A write's files reach it as descriptors over a socket pair (one message a
    write, sent at once), its answer wakes the loop through the socket: no second thread of the server runs
    Python, so the event loop never waits for the interpreter while its picks are synced.

    A helper that ends unasked (killed) fails the writes it had (``OSError``: their picks are answered 503, and
    are made again); the next write starts another.  Where the helper can't be started (no process may be spawned
    here), the writes are synced by a ``Syncer`` thread instead."""

    def __init__(self) -> None:
        self.sock: socket.socket | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.numbered = 0  # the last write's number
        self.waiting: dict[int, Synced] = {}  # write's number -> told once it is synced
        self.unsent: list[tuple[int, Deferred]] = []  # writes the socket had no room for yet
        self.idle = threading.Event()  # set once stopped with nothing waiting
        self.fallback: Syncer | None = None
        self.answering = False  # this helper has answered (one that ends before it does isn't started again)
        self.broken: OSError | None = None  # the socket failed: the helper is let go on the loop's next turn

    def start(self) -> None:
        """The helper started now (on the event loop), unless running; a ``Syncer`` thread if it can't be."""
        if self.sock is not None or self.fallback is not None:
            return
        self.loop = asyncio.get_running_loop()
        try:
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        except (OSError, AttributeError) as error:
            return self._fall_back(error)
        try:  # (its output not the server's: a helper stopped by a signal holds no pipe of the server's open)
            command = [sys.executable, "-I", "-S", str(Path(sync_child.__file__)), str(theirs.fileno())]
            self.process = subprocess.Popen(
                command,
                pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError as error:
            ours.close()
            return self._fall_back(error)
        finally:
            theirs.close()
        ours.setblocking(False)
        self.sock, self.answering = ours, False
        self.loop.add_reader(ours.fileno(), self._answered)
        weakref.finalize(self, _let_go, ours, self.process)

    def _fall_back(self, error: BaseException) -> None:
        log.warning("the picks are synced by a thread: the sync helper could not start (%s)", error)
        self.fallback = Syncer()

    def submit(self, deferred: Deferred, synced: Synced) -> None:
        self.refuse_if_closed()
        self.start()
        if self.fallback is not None:
            return self.fallback.submit(deferred, synced)
        parts = deferred.parts(sync_child.MAX_FDS)  # a message carries that many descriptors at most
        if len(parts) > 1:
            synced = _joined(synced, len(parts))
        for part in parts:
            self.numbered += 1
            self.waiting[self.numbered] = synced
            if self.unsent or not self._send(self.numbered, part):
                self.unsent.append((self.numbered, part))

    def _send(self, number: int, deferred: Deferred) -> bool:
        """The write sent to the helper (its descriptors closed here then); False when it waits in ``unsent``:
        the socket has no room (sent once it has: ``_send_unsent``), or the helper is being let go (``_lost``
        fails it, on the loop's next turn: never inside the write that sent it)."""
        assert self.sock is not None and self.loop is not None
        if self.broken is not None:
            return False
        try:
            socket.send_fds(self.sock, [sync_child.NUMBER.pack(number)], list(deferred.files.values()))
        except BlockingIOError:
            self.loop.add_writer(self.sock.fileno(), self._send_unsent)
            return False
        except OSError as error:
            if error.errno in IN_FLIGHT:  # too many descriptors on their way: sent again once some arrived
                self.loop.call_later(RETRY, self._send_unsent)
                return False
            self.broken = error
            self.loop.call_soon(self._lost, error, self.sock)
            return False
        deferred.close()
        return True

    def _send_unsent(self) -> None:
        if self.sock is None or self.loop is None:
            return  # (the helper was let go meanwhile: what was unsent failed with it)
        self.loop.remove_writer(self.sock.fileno())
        while self.unsent:
            if not self._send(*self.unsent[0]):
                return
            self.unsent.pop(0)
        if self.closed:
            self._finish()

    def _answered(self) -> None:
        """The helper's answers read (on the event loop): each write it names told."""
        while self.sock is not None:
            try:
                data = self.sock.recv(65536)
            except BlockingIOError:
                return
            except OSError as error:
                return self._lost(error)
            if not data:
                return self._lost(None)
            self.answering = True
            code, count = sync_child.HEAD.unpack_from(data)
            numbers = struct.unpack_from(f"<{count}Q", data, sync_child.HEAD.size)
            text = data[sync_child.HEAD.size + 8 * count :].decode("utf-8", "replace")
            _synced([self.waiting.pop(n) for n in numbers if n in self.waiting], OSError(code, text) if code else None)
            if self.unsent:  # descriptors it took in free room for the writes that waited
                self._send_unsent()

    def _lost(self, error: OSError | None, sock: socket.socket | None = None) -> None:
        """The helper gone (``error``: how the socket said so): every write it had fails; the next write starts
        another.  ``sock``: the socket that failed (nothing to do once that helper was let go already)."""
        if sock is not None and sock is not self.sock:
            return
        problem = OSError(errno.EIO, "the sync helper stopped" + ("" if error is None else f" ({error})"))
        self.broken = None
        sock, self.sock = self.sock, None
        if sock is not None:
            assert self.loop is not None
            self.loop.remove_reader(sock.fileno())
            self.loop.remove_writer(sock.fileno())
            sock.close()
        process, self.process = self.process, None
        if process is not None and process.poll() is None:  # ending (its socket closed), or of no use: ended now
            portable.end_process(process)
            assert self.loop is not None
            self.loop.call_later(1.0, process.poll)  # its exit collected (no wait on the loop)
        if not self.answering and not self.closed:  # it never got to work: the thread syncs from now on
            self._fall_back(problem)
        for _, deferred in self.unsent:
            deferred.close()
        self.unsent.clear()
        waiting, self.waiting = list(self.waiting.values()), {}
        if waiting and not self.closed:
            log.error("%s: %d writes failed (their picks are made again)", problem.strerror, len(waiting))
        _synced(waiting, problem)
        if self.closed:
            self.idle.set()

    def stop(self, timeout: float) -> None:
        self.closed = True
        if self.fallback is not None:
            return self.fallback.stop(timeout)
        if self.sock is None or self.loop is None:
            return
        try:
            self.loop.call_soon_threadsafe(self._finish)
        except RuntimeError:  # the loop closed
            return
        if not self.idle.wait(timeout) and (process := self.process) is not None:
            # a helper that never answered (stopped by a signal, a hung disk): ended, its writes failed (none was
            # answered), so the server stops all the same
            portable.end_process(process)
            self.idle.wait(1.0)

    def _finish(self) -> None:
        """The helper told no more writes come (once the unsent are sent): it answers the rest and ends."""
        if self.sock is None:
            self.idle.set()
        elif not self.unsent:
            self.sock.shutdown(socket.SHUT_WR)


IN_FLIGHT = {code for code in (getattr(errno, "ETOOMANYREFS", None), errno.ENOBUFS) if code is not None}
RETRY = 0.01  # seconds before a write refused for the descriptors in flight is sent again


def _joined(synced: Synced, parts: int) -> Synced:
    """``synced`` told once, when all ``parts`` of a write are (with the first problem)."""
    problems: list[OSError | None] = []

    def part_synced(problem: OSError | None) -> None:
        problems.append(problem)
        if len(problems) == parts:
            synced(next((p for p in problems if p is not None), None))

    return part_synced


def _let_go(sock: socket.socket, process: subprocess.Popen[bytes]) -> None:
    """A syncer dropped without stopping: its helper told to end (its socket closed) and its exit collected."""
    sock.close()
    with contextlib.suppress(subprocess.TimeoutExpired, OSError):
        process.wait(timeout=5)


def syncer_for(helper: bool) -> Syncing:
    """A ``HelperSyncer`` where ``helper`` is asked for and the system passes descriptors between processes
    (Linux), else a ``Syncer`` thread."""
    if helper and sys.platform == "linux" and hasattr(socket, "send_fds"):
        return HelperSyncer()
    return Syncer()


def stopping() -> ApiError:
    """A write refused because the server is stopping."""
    return ApiError(503, "unavailable", "the server is stopping: pick again")


def unsynced(problem: OSError) -> ApiError:
    """A write that could not be put on the device, as its picks are answered."""
    return ApiError(503, "unavailable", f"the database can't be used now: {problem}")


def _synced(round_: list[Synced], problem: OSError | None) -> None:
    for synced in round_:
        try:
            synced(problem)
        except Exception:  # one write's follow-up failing stops no other's
            log.exception("answering a synced write failed")
