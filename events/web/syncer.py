"""The one thread that puts the picks ``cmdraft serve``'s event loop wrote on the device (``Syncer``)."""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Callable

from events.deferred import Deferred
from events.web.api_common import ApiError

_STOP = None  # what ``close`` puts in the queue: the thread ends
log = logging.getLogger("cmdraft.serve")


Synced = Callable[[OSError | None], None]  # told on the event loop once a write is on the device (or could not be)


class Syncer:
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
        self.closed = False

    def submit(self, deferred: Deferred, synced: Synced) -> None:
        """``deferred``'s files put on the device, then ``synced`` called on the event loop (with the ``OSError``
        when one could not be synced).  Called on the event loop; never called back once the syncer is closed."""
        if self.closed:
            raise ApiError(503, "unavailable", "the server is stopping: pick again")
        if self.thread is None:
            self.loop = asyncio.get_running_loop()
            self.thread = threading.Thread(target=self._run, name="cmdraft-sync", daemon=True)
            self.thread.start()
        self.queue.put((deferred, synced))

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


def unsynced(problem: OSError) -> ApiError:
    """A write that could not be put on the device, as its picks are answered."""
    return ApiError(503, "unavailable", f"the database can't be used now: {problem}")


def _synced(round_: list[Synced], problem: OSError | None) -> None:
    for synced in round_:
        try:
            synced(problem)
        except Exception:  # one write's follow-up failing stops no other's
            log.exception("answering a synced write failed")
