"""Picks from browsers written a pod at a time (``PickWriter``): group commit on the event loop, synced by the
server's syncer (``syncer.HelperSyncer``, a process of its own; else ``syncer.Syncer``), answered in its call back;
the next seats' packs pushed at once (``live.Hub``)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from events.deferred import Deferred
from events.web.answers import SeatState
from events.web.api_common import Served, core_error
from events.web.api_draft import Waiting, carries_state, write_picks
from events.web.syncer import stopping, syncer_for, unsynced
from sets.errors import CmdraftError, WouldWait

if TYPE_CHECKING:
    from events.web.live import Hub, Watcher

log = logging.getLogger("cmdraft.serve")


class PickWriter:
    """Picks from browsers, written a pod at a time: while a pod's write is being synced, the picks arriving at that
    pod wait, and the next write takes them all (group commit); after each write the pod's connected seats are
    pushed once.  A write is made on the event loop once the pod is free and the loop's turn has taken in the picks
    that arrived with it, synced by the syncer, and its picks answered in the syncer's call back (no task between,
    and a stream's pick told at once: ``submit_then``; a pick costs the loop as little as it can); a
    write that may have to wait (another process holds the file, a pack's end to compact, a draft to read) is
    made in a worker thread instead (``_slow``)."""

    def __init__(self, served: Served, hub: Hub, watcher: Watcher) -> None:
        self.served, self.hub, self.watcher = served, hub, watcher
        self.syncer = syncer_for(served.settings.sync_helper)
        self.waiting: dict[int, list[tuple[Waiting, Outcome]]] = {}
        self.busy: set[int] = set()  # pods with a write under way (on the loop until synced, or in a worker)
        # pod -> the compaction a pack's end left (``Journal.compact``), made once the pod went ``compact_idle``
        # seconds without a pick: a pod whose players pick on is never held up for it (its file meanwhile appended
        # to, its lines bounded by ``journal.MAX_ENTRIES``; a server stopped before it leaves it to ``warm``)
        self.compact_later: dict[int, list[Callable[[], None]]] = {}
        self.picked_since: dict[int, bool] = {}  # pod -> a write was made since ``_compact_if_idle`` last looked
        self.tasks: set[asyncio.Task] = set()
        self.ended: set[int] = set()  # pods whose drafts ended, their pools not recorded yet (``_settle``)
        self.syncing: dict[int, float] = {}  # pod -> the loop's time its write went to the syncer, until synced
        self.slow: set[int] = set()  # pods whose write was said to wait long for the disk (``_look_at_syncs``)
        self.sync_watch: asyncio.TimerHandle | None = None
        self.settling = False  # a ``_settle`` task is running

    async def submit(self, waiting: Waiting) -> None:
        """Until the pick is written (or refused: ``waiting.refusal``)."""
        await self.submit_later(waiting)

    def submit_later(self, waiting: Waiting) -> asyncio.Future[None]:
        """The pick queued at its pod: the future is done once it is written (or refused: ``waiting.refusal``)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue(waiting, done)
        return done

    def submit_then(self, waiting: Waiting, then: Callable[[BaseException | None], None]) -> None:
        """The pick queued at its pod; ``then`` called the moment it is written (None; or refused:
        ``waiting.refusal``), or failed (the error): a stream's pick is answered in the same turn of the loop as
        its sync, with no future between."""
        self._queue(waiting, Told(then))

    def _queue(self, waiting: Waiting, done: Outcome) -> None:
        self.waiting.setdefault(waiting.pod, []).append((waiting, done))
        if waiting.pod not in self.busy:  # written after the picks that arrived in this turn of the loop too
            self.busy.add(waiting.pod)
            asyncio.get_running_loop().call_soon(self._next, waiting.pod)

    def _next(self, pod: int) -> None:
        """The pod's waiting picks written now, on the loop (answered once synced: ``_synced``), or in a worker
        (``_slow``) when the write would wait; the pod is free again when no pick waits."""
        while batch := self.waiting.pop(pod, None):
            self.picked_since[pod] = True
            if self.syncer.closed:  # the server is stopping: refused before anything is written
                _fail(batch, stopping())
                continue
            lock = self.served.locked(pod)
            if not lock.acquire(blocking=False):  # held until the write is synced: no worker shows the pod meanwhile
                self._start(self._slow(pod, batch))
                return
            deferred = Deferred()
            try:  # the connected players as they are after the write (a stream opening meanwhile included)
                _, states = write_picks(self.served, pod, [w for w, _ in batch], self.hub.connections, deferred)
                self.syncer.submit(deferred, partial(self._synced, pod, batch, states, deferred, lock))
                self._syncing(pod)
                return
            except WouldWait:
                deferred.close()
                lock.release()
                self._start(self._slow(pod, batch))
                return
            except Exception as error:  # said to every pick of the batch (each answers with it)
                deferred.close()
                lock.release()
                _fail(batch, core_error(error) if isinstance(error, CmdraftError) else error)
        self.busy.discard(pod)

    def _synced(
        self,
        pod: int,
        batch: list[tuple[Waiting, Outcome]],
        states: dict[int, SeatState],
        deferred: Deferred,
        lock: Any,
        problem: OSError | None,
    ) -> None:
        """A write on the loop is on the device: its picks answered, the next seats pushed, then the pod's next
        write (a pack that ended in it: the file compacted first, in a worker)."""
        deferred.close()
        self._synced_after(pod, problem)
        if problem is not None and (session := self.served.tables.get(pod)) is not None:
            session.unsynced()  # (under the pod's lock) its next write rewrites the file whole, synced before answered
        lock.release()
        if problem is not None:
            _fail(batch, unsynced(problem))
            self.served.shown.pop(pod, None)  # the watcher's next look shows the pod's seats the file as it is
            self._settle_if_ended(pod)  # its pools recorded all the same
        else:
            self._answered(pod, batch, states)
        if deferred.after:  # a pack ended: its file is compacted once the pod has been idle a while
            if pod not in self.compact_later:
                self.picked_since[pod] = False  # counted from now
                asyncio.get_running_loop().call_later(self.served.settings.compact_idle, self._compact_if_idle, pod)
            self.compact_later.setdefault(pod, []).extend(deferred.after)
        self._next(pod)

    def _syncing(self, pod: int) -> None:
        """The pod's write handed to the syncer: looked at ``slow_sync`` seconds from now if still not synced."""
        loop = asyncio.get_running_loop()
        self.syncing[pod] = loop.time()
        if self.sync_watch is None:
            self.sync_watch = loop.call_later(self.served.settings.slow_sync, self._look_at_syncs)

    def _look_at_syncs(self) -> None:
        """Each write the disk has held for ``slow_sync`` seconds or more said in the log, once (its pod's players
        wait for it: a failing, full or hung disk); looked at again while any write waits."""
        loop, slow = asyncio.get_running_loop(), self.served.settings.slow_sync
        self.sync_watch, now = None, loop.time()
        if self.syncer.closed:
            return  # the server is stopping: its last writes are synced (or failed) as it stops
        for pod, since in self.syncing.items():
            if now - since >= slow and pod not in self.slow:
                self.slow.add(pod)
                log.error(
                    "pod %s's picks have waited %.0f s for the disk to sync them, and its players with them: "
                    "is the disk failing or full?",
                    pod,
                    now - since,
                )
        if self.syncing:
            self.sync_watch = loop.call_later(slow / 2, self._look_at_syncs)

    def _synced_after(self, pod: int, problem: OSError | None) -> None:
        since = self.syncing.pop(pod, None)
        if pod in self.slow:
            self.slow.discard(pod)
            waited = asyncio.get_running_loop().time() - (since or 0.0)
            if problem is None:
                log.warning("pod %s's picks reached the disk after %.1f s", pod, waited)
            else:
                log.error("pod %s's picks could not be synced after %.1f s: %s", pod, waited, problem)

    def _compact_if_idle(self, pod: int) -> None:
        """The compaction a pack's end left, made now if no pick of the pod was written or waits since the last
        look (its next picks wait for it), else looked at again a while later."""
        if self.syncer.closed or pod not in self.compact_later:
            return
        if pod in self.busy or self.waiting.get(pod) or self.picked_since.pop(pod, False):
            asyncio.get_running_loop().call_later(self.served.settings.compact_idle, self._compact_if_idle, pod)
            return
        self.busy.add(pod)
        self._start(self._compact(pod, self.compact_later.pop(pod)))

    def _answered(self, pod: int, batch: list[tuple[Waiting, Outcome]], states: dict[int, SeatState]) -> None:
        """``_answer``, and never a pick left unanswered: an error in it is said to the batch and logged."""
        try:
            self._answer(pod, batch, states)
        except Exception as error:
            _fail(batch, error)
            log.exception("answering pod %s's picks failed", pod)

    def _answer(self, pod: int, batch: list[tuple[Waiting, Outcome]], states: dict[int, SeatState]) -> None:
        for waiting, done in batch:
            if not done.done():
                done.set_result(None)
            if waiting.connection is not None and waiting.state is not None and carries_state(waiting):
                waiting.connection.answered(waiting.state)  # in the pick's answer: not pushed too
        self.hub.offer(states)  # the next seats' packs, at once
        self._settle_if_ended(pod)

    async def _slow(self, pod: int, batch: list[tuple[Waiting, Outcome]]) -> None:
        """The batch written in a worker (the write would wait on the loop), then the pod's next."""
        try:
            _, states = await self.served.run(
                write_picks, self.served, pod, [w for w, _ in batch], self.hub.connections
            )
        except asyncio.CancelledError:  # the server is stopping
            _fail(batch, stopping())
            self._stop(pod)
            raise
        except Exception as error:  # said to every pick of the batch (each answers with it)
            _fail(batch, error)
        else:
            self._answered(pod, batch, states)
        self._next(pod)

    async def _compact(self, pod: int, after: list[Callable[[], None]]) -> None:
        """A pack ended in a write on the loop: the pod's file compacted (in a worker), then its next write."""
        try:
            await self.served.run(self._after_now, pod, after)
        except asyncio.CancelledError:
            self._stop(pod)
            raise
        except Exception:  # the picks are written already; a later write rewrites the file (its entries bounded)
            log.exception("compacting pod %s's draft file failed; it is compacted at a later pack's end", pod)
        self._next(pod)

    def _stop(self, pod: int) -> None:
        """The server is stopping: the pod's waiting picks are told so."""
        self.busy.discard(pod)
        _fail(self.waiting.pop(pod, []), stopping())

    def _after_now(self, pod: int, after: list[Callable[[], None]]) -> None:
        with self.served.locked(pod):
            for work in after:
                work()

    def _start(self, work: Any) -> None:
        task = asyncio.create_task(work)  # a task of its own: a browser that goes away stops no one's pick
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def quiet(self) -> bool:
        """No pick is waiting or being written at any pod."""
        return not self.busy and not any(self.waiting.values())

    def _settle_if_ended(self, pod: int) -> None:
        """The pod's pools recorded soon (``_settle_later``) when the batch just written ended its draft (the write
        marked it ``Served.deferred``)."""
        if pod in self.served.deferred:
            self._settle_later(pod)

    def _settle_later(self, pod: int) -> None:
        """A pod whose draft a write ended: its pools are recorded by the running ``_settle``, or a new one."""
        self.ended.add(pod)
        if not self.settling:
            self.settling = True
            self._start(self._settle())

    async def _settle(self) -> None:
        """The pools of the pods whose drafts the last writes ended, recorded once their picks are answered and no
        pick is waiting (the database write it takes is the night's largest) or at the latest ``settle_wait``
        seconds later, and the pods' browsers shown their pools to build with.  The pods that end meanwhile are
        recorded with it, in the same write of the database (a big room's pods end within moments of each
        other: one write, and one look at it by every stream, instead of one a pod).  The write that ended a
        draft marked its pod ``Served.deferred`` under its lock, so the watcher leaves it to this (and tries again
        if it fails)."""
        try:
            while self.ended:
                loop = asyncio.get_running_loop()
                until = loop.time() + self.served.settings.settle_wait
                while not self.quiet() and loop.time() < until:
                    await asyncio.sleep(0.01)
                pods, self.ended = self.ended, set()
                try:
                    await self.served.run(self.served.settle_pods, pods)
                    await self.hub.push_pods(pods)
                except Exception:
                    said = ", ".join(map(str, sorted(pods)))
                    log.exception("recording the pools of pods %s failed; the server's next look tries again", said)
                finally:
                    self.served.deferred.difference_update(pods)
        finally:
            self.settling = False
            self.served.deferred.difference_update(self.ended)  # stopped: the watcher records them (not stopping)
            self.ended.clear()


class Outcome(Protocol):
    """How a waiting pick is told its write's outcome: an ``asyncio.Future`` (a request awaits it) or ``Told``."""

    def done(self) -> bool: ...

    def set_result(self, result: None, /) -> None: ...

    def set_exception(self, exception: BaseException, /) -> None: ...


class Told:
    """A pick told its write's outcome by a call at once (``PickWriter.submit_then``), told once."""

    __slots__ = ("then", "told")

    def __init__(self, then: Callable[[BaseException | None], None]) -> None:
        self.then, self.told = then, False

    def done(self) -> bool:
        return self.told

    def set_result(self, result: None, /) -> None:
        self._tell(None)

    def set_exception(self, exception: BaseException, /) -> None:
        self._tell(exception)

    def _tell(self, error: BaseException | None) -> None:
        if self.told:
            return
        self.told = True
        try:
            self.then(error)
        except Exception:  # one pick's answer failing stops no other's
            log.exception("answering a pick failed")


def _fail(batch: list[tuple[Waiting, Outcome]], error: BaseException) -> None:
    """Every pick of the batch answered with ``error``."""
    for _, done in batch:
        if not done.done():
            done.set_exception(error)
