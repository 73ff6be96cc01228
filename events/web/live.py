"""Live updates: each connected browser's seat state pushed whenever it changes, whoever changed it.

One background task (``Watcher``) looks at the event's files every quarter second — the database and each live
draft's own file, by their signatures (inode, size, time) — and, when one changed, works out the state of every
connected seat and pushes the ones that differ from what that browser last got.  The same task applies a pick's
timeout once it is due (the draft's stored deadline, as any terminal does: whoever sees it first, once), so a
draft never waits on a player who is gone.  After a pick through this server the pod's seats are pushed at once,
without waiting for the next look.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import types
from collections import deque
from collections.abc import Callable, Coroutine, Generator
from dataclasses import dataclass, field
from typing import Any

import msgspec
from msgspec import Raw
from msgspec.structs import replace
from starlette.types import Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from events.night.shown import Answer
from events.sessions.table import DraftTable
from events.web.answers import SeatMessage, SeatState
from events.web.api_common import ApiError, Served, Signature, file_signature
from events.web.api_draft import seat_state
from events.web.auth import seat_holder
from events.web.cards_shown import EMPTY
from events.web.settings import DEFAULT
from sets.errors import CmdraftError, StorageError

log = logging.getLogger("cmdraft.serve")
_encode = msgspec.json.Encoder().encode
IN_FLIGHT = 16  # a stream's picks waiting for their writes past which it is read no further (a page sends one)


@dataclass(eq=False)
class Connection:
    """One browser's stream: the newest state waiting to be sent (older ones are dropped, never queued), and the
    pool its last state carried (a state sends only the cards added since: ``shown``).  ``send_asgi``: the
    stream's ASGI send, which its messages go through (else the socket's ``send_text``), unless the server writes
    them at once (``stream_socket.WRITE_NOW``: the bytes as encoded, no layer between)."""

    socket: WebSocket
    player: int
    token: str = ""
    send_asgi: Send | None = None
    pending: SeatState | None = None
    sent: SeatState | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    outbox: deque[bytes] = field(default_factory=deque)  # messages encoded, in the order sent, not yet on the socket
    writing: bool = False  # a task is putting the outbox on the socket
    calm: asyncio.Event = field(default_factory=asyncio.Event)  # set when writing ends or a pick is answered
    in_flight: int = 0  # picks from this stream handed to their pods, not answered yet
    pool: bytes = b""  # the whole pool as this stream's browser holds it (encoded), once a state carried one
    pool_size: int = 0
    eager: bool = False  # a state offered while nothing is being sent goes on the socket at once (``start_now``)
    write_now: Callable[[bytes], bool] | None = None  # the server's, when it has one (``stream_socket.WRITE_NOW``)

    def offer(self, state: SeatState) -> None:
        """A state for this browser: sent unless it shows what the browser has or will get, and never in place of a
        newer one (a state worked out before a write can be offered after the write's own: issue 41's lost
        hand-off, where the older replaced the newer still waiting and the seat never got its pack)."""
        newest = self.pending if self.pending is not None else self.sent
        if newest is not None and (state is newest or state.version < newest.version or same(state, newest)):
            return
        if self.eager and self.pending is None and not self.writing:
            self.sent = state
            self.post(SeatMessage(state))  # on the socket now, not a task's turn later
            return
        self.pending = state
        self.ready.set()

    def post(self, message: Answer) -> None:
        """``message`` on the socket now (``send``, after what it is already sending), from code that doesn't wait:
        a browser gone meanwhile is no error here (its stream ends).  Mostly the server writes it at once
        (``write_now``); else a task goes on with it."""
        data = _encode(self.shown(message))
        if not self.writing and not self.outbox and self.write_now is not None and self.write_now(data):
            return  # (nothing before it waits: on the socket now, the outbox not touched)
        self.outbox.append(data)
        if not self.writing:
            start_now(self._write_quietly())

    async def _write_quietly(self) -> None:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            await self._write()

    def answered(self, state: SeatState) -> None:
        """This state goes to the browser as the answer to its pick (``send``): not pushed again."""
        if not older(state, self.sent):
            self.sent = state
        if self.pending is not None and (same(self.pending, state) or older(self.pending, state)):
            self.pending = None

    async def send(self, message: Answer, whole: bool = False) -> None:
        """``message`` on the socket, its seat's pool as ``shown`` (``whole``: the whole pool, what the browser
        asks for when it misses cards).  Messages go out in the order they were given, whichever task gives them
        (the pool each carries is worked out in that order): while one task writes (the socket is slow to take
        a message), a message given meanwhile waits in the outbox and that task writes it after its own."""
        if whole:
            self.pool, self.pool_size = b"", 0
        self.outbox.append(msgspec.json.encode(self.shown(message)))
        if not self.writing:
            await self._write()

    async def caught_up(self) -> None:
        """Until what this stream was given is on the socket and fewer than ``IN_FLIGHT`` of its picks wait for
        their writes: at once, unless the browser is slow to take its messages or sends picks faster than they
        are written (it is read no further meanwhile, so it can't make the server keep more and more for it)."""
        while self.writing or self.in_flight >= IN_FLIGHT:
            await self._calmer()

    def handed_over(self) -> None:
        """A pick from this stream handed to its pod (``answered_back`` once it is answered)."""
        self.in_flight += 1

    def answered_back(self) -> None:
        self.in_flight -= 1
        self.calm.set()

    async def _calmer(self) -> None:
        self.calm.clear()
        await self.calm.wait()

    async def _write(self) -> None:
        """The outbox on the socket, in order: at once where the server can (``write_now``), else through ASGI."""
        self.writing = True
        try:
            while self.outbox:
                data = self.outbox.popleft()
                if self.write_now is not None and self.write_now(data):
                    continue
                if self.send_asgi is not None:
                    await self.send_asgi({"type": "websocket.send", "text": data.decode()})
                else:
                    await self.socket.send_text(data.decode())
        finally:
            self.writing = False
            self.calm.set()

    def shown(self, message: Answer) -> Answer:
        """A message as this stream sends it: a seat state in it carries only the pool's cards the stream's earlier
        states didn't (``pool_from``: where they start), when the pool only grew since the last one (its cards
        first, the same and in the same order); else the whole pool (the first state, another pool)."""
        seat = getattr(message, "seat", None)
        if not isinstance(seat, SeatState):
            return message
        return replace(message, seat=self.trimmed(seat))

    def trimmed(self, state: SeatState) -> SeatState:
        pool, known, held = bytes(state.pool), self.pool, self.pool_size
        self.pool, self.pool_size = pool, state.pool_size
        if not held or held > state.pool_size or not pool.startswith(known[:-1]):
            return state
        rest = pool[len(known) :]  # after the cards held and the comma that follows them: the cards added
        return replace(state, pool=Raw(b"[" + rest) if rest else EMPTY, pool_from=held)

    async def sender(self) -> None:
        while True:
            await self.ready.wait()
            self.ready.clear()
            state, self.pending = self.pending, None
            if state is None:
                continue
            await self.send(SeatMessage(state))
            self.sent = state


_STARTED: set[asyncio.Task] = set()  # the works ``start_now`` finishes in a task, kept until done


def start_now(work: Coroutine[Any, Any, None]) -> None:
    """``work`` run at once, as far as it goes without waiting (a message a socket takes at once: to its end), the
    rest in a task of its own, as ``asyncio.create_task`` would run it all a turn of the loop later (what Python
    3.12's eager tasks do).  An error it raises before it waits is logged, as a task's nobody awaits would be."""
    try:
        waits_on = work.send(None)
    except StopIteration:
        return
    except asyncio.CancelledError:
        return
    except Exception:  # a browser gone is no error here (the works given to this suppress it): anything else is
        log.exception("sending on a stream failed")
        return
    task = asyncio.ensure_future(_go_on(work, waits_on))
    _STARTED.add(task)
    task.add_done_callback(_STARTED.discard)
    task.add_done_callback(lambda _: work.close())  # cancelled before its first turn: the work is ended too


async def _go_on(work: Coroutine[Any, Any, None], waits_on: Any) -> None:
    """The rest of a ``start_now`` work: what it waits on handed to this task, then the work driven on."""
    while True:
        try:
            value = await _waiting_on(waits_on)
        except BaseException as error:  # the task cancelled, or the future failed: into the work
            try:
                waits_on = work.throw(error)
            except StopIteration:
                return
        else:
            try:
                waits_on = work.send(value)
            except StopIteration:
                return


@types.coroutine
def _waiting_on(waits_on: Any) -> Generator[Any, Any, Any]:
    return (yield waits_on)


def older(a: SeatState, b: SeatState | None) -> bool:
    """Whether state ``a`` was worked out from an older draft than ``b`` (its version is lower: the version grows
    with every pick at the table and every phase of the night)."""
    return b is not None and a.version < b.version


def same(a: SeatState | None, b: SeatState | None) -> bool:
    """Whether two states show the same: they differ at most in the server's time and the version (which moves
    with every pick at the table, also the picks that change nothing this seat sees)."""
    if a is None or b is None:
        return a is b
    return replace(a, server_time=0, version=0) == replace(b, server_time=0, version=0)


class Hub:
    """The connected browsers by player, and pushing states to them."""

    def __init__(self, served: Served) -> None:
        self.served = served
        self.connections: dict[int, set[Connection]] = {}
        self.pushed_db: Any = None  # the database's signature when every connected seat was last worked out

    def add(self, connection: Connection) -> None:
        self.connections.setdefault(connection.player, set()).add(connection)

    def remove(self, connection: Connection) -> None:
        found = self.connections.get(connection.player)
        if found is not None:
            found.discard(connection)
            if not found:
                del self.connections[connection.player]

    def connected(self, player_id: int) -> bool:
        return bool(self.connections.get(player_id))

    def _states(self, players: list[int]) -> dict[int, SeatState]:
        """Each player's state; a player removed meanwhile, or seated at a pod whose draft file can't be read now
        (the watcher says why in the log), is left out: the others are pushed all the same."""
        states = {}
        for player in players:
            try:
                states[player] = seat_state(self.served, player)
            except (ApiError, LookupError, StorageError):
                continue
        return states

    def offer(self, states: dict[int, SeatState]) -> None:
        """States already worked out, to the browsers of their players."""
        for player, state in states.items():
            for connection in list(self.connections.get(player, ())):
                connection.offer(state)

    def _marked_states(self, players: list[int], held: list[tuple[str, int]]) -> tuple[Any, dict, set[str]]:
        """The states, the database's signature taken before they were worked out (so a change made meanwhile
        is never taken as seen), and which of the streams' tokens (``held``: token, player) hold their seat no
        more (a code reset, the seat joined elsewhere)."""
        mark = file_signature(self.served.night.path)
        ended = {token for token, player in held if seat_holder_or_none(self.served, token) != player}
        return mark, self._states(players), ended

    def _pod_states(self, pods: set[Any]) -> dict[int, SeatState]:
        """The states of the connected players seated in these pods."""
        players = [p for pod in self.served.snapshot().pods if pod.number in pods for p in pod.players]
        return self._states([p for p in players if p in self.connections])

    async def push(self, players: list[int] | None = None) -> None:
        """Work out the states of these connected players (all by default) and offer each to its browsers.
        Pushing to all (the database changed) also closes the streams whose token holds its seat no more."""
        wanted = [p for p in (players if players is not None else list(self.connections)) if p in self.connections]
        if not wanted:
            return
        if players is not None:
            self.offer(await self.served.run(self._states, wanted))
            return
        streams = [c for found in self.connections.values() for c in found]
        held = [(c.token, c.player) for c in streams]
        mark, states, ended = await self.served.run(self._marked_states, wanted, held)
        self.pushed_db = mark  # the watcher need not work the same states out again for this change
        for connection in streams:
            if connection.token in ended:
                self.remove(connection)
                with contextlib.suppress(Exception):
                    await connection.socket.close(code=4401, reason="this seat is held elsewhere now: join again")
        self.offer(states)

    async def push_pods(self, pods: set[Any]) -> None:
        """Work out and offer the states of the connected players of these pods."""
        self.offer(await self.served.run(self._pod_states, pods))


def time_up(session: DraftTable, now: float) -> bool:
    """Whether a player's pick at the pod is past its deadline (the timer is to pick), or the clock was set back
    since a deadline was stamped (to be stamped anew: never more than a whole pick's time away)."""
    deadline = session.deadline()
    return deadline is not None and (now >= deadline or session.clock_set_back(now))


def waits_on_bots(session: DraftTable) -> bool:
    """Whether a pack waits at a bot seat (a hand-off the bots didn't make: they are to pick)."""
    return any(seat in session.bots for seat in session.draft.waiting())


def seat_holder_or_none(served: Served, token: str) -> int | None:
    try:
        return seat_holder(served, token)
    except ApiError:
        return None


class Watcher:
    """The one background task: notice changes in the files, apply due timeouts, push."""

    def __init__(self, served: Served, hub: Hub, poll: float = DEFAULT.poll) -> None:
        self.served, self.hub, self.poll = served, hub, poll
        self.database: Signature = None  # the database file's signature at the last look
        self.problems: dict[int, str] = {}  # pod -> why its last look failed (said in the log once)

    def _tick(self, pods: set[int] | None = None) -> tuple[set[Any], Signature]:
        """In a worker thread: apply any due timeout (once); what changed since the last look (``"db"`` or pod
        numbers) and the database file's signature now.  ``pods``: only these pods' drafts looked at (``_due``
        found them to need it), what changed left to the caller (an empty set, and no signature).  A pod whose
        look fails (its draft file damaged, its disk full) is said in the log, once a problem, and the pods after
        it are looked at all the same: one pod's file never stops another pod's timer or bots."""
        now = self.served.wall()
        for number in self.served.live_pods() if pods is None else sorted(pods):
            try:
                self._look_at(number, now)
            except Exception as error:  # said once a problem; a fault of the code's own with its traceback
                said = f"{type(error).__name__}: {error}"
                if self.problems.get(number) != said:
                    log.error(
                        "pod %s can't be looked at (%s); its timer and bots wait until it can",
                        number,
                        said,
                        exc_info=None if isinstance(error, CmdraftError) else error,
                    )
                self.problems[number] = said
            else:
                if self.problems.pop(number, None) is not None:
                    log.warning("pod %s can be looked at again", number)
        if pods is not None:
            return set(), None
        for gone in set(self.problems).difference(self.served.live_pods()):
            del self.problems[gone]  # a pod whose draft ended or was stopped
        database, changed = self.served.changes()
        return set(changed) | ({"db"} if database != self.database else set()), database

    def _look_at(self, number: int, now: float) -> None:
        """The pod's watchdog work, under its lock: a pick whose time is up made, a table waiting on a bot moved
        on, a draft that is over settled."""
        with self.served.locked(number):
            session = self.served.table(number)
            if time_up(session, now):  # the watchdog: a pick nobody made in time
                taken = session.apply_timeout(now)
                if taken:
                    seats = ", ".join(f"seat {pick.seat + 1} pack {pick.pack} pick {pick.pick}" for pick in taken)
                    log.info("pod %s: the time ran out, the timer picked for %s", number, seats)
            if waits_on_bots(session):  # the table waits on a bot
                made = session.hand_to_bot(None)
                log.warning("pod %s: the table waited on bot seats; the bots made %d picks", number, len(made))
            if self._to_settle(session, number):
                self.served.settle(number, session)  # the pod's pools recorded, whoever made the last pick

    def _due(self) -> set[int] | None:
        """On the event loop, without waiting (a look at each draft's file, as a pick's write makes): the live pods
        whose drafts the watcher has work on (a pick's time up, a bot to pick, a draft over to settle, a file
        changed elsewhere to read), for ``_tick`` in a worker; None when the database changed (``_tick`` then
        looks at every pod).  A pod whose lock a worker holds (a write, which applies a due timeout itself; a read)
        is looked at next time: the look holds no pod a pick waits for, and the loop waits for no worker.  (A pod
        the loop's own write holds until synced is looked at as it is in memory: that write is made already.)"""
        snap = self.served.fresh_snapshot()
        if snap is None:
            return None
        now, due = self.served.wall(), set()
        for pod in snap.pods:
            number = pod.number
            if not pod.draft or snap.drafts.get(number) != "drafting":
                continue
            lock = self.served.locked(number)
            if not lock.acquire(blocking=False):
                continue
            try:
                session = self.served.tables.get(number)
                if session is None or session.known_signature() != self.served.signature_of(number):
                    due.add(number)  # to be read (first, or after a change made elsewhere): in the worker
                    continue
                if time_up(session, now) or waits_on_bots(session) or self._to_settle(session, number):
                    due.add(number)
            finally:
                lock.release()
        return due

    def _to_settle(self, session: DraftTable, number: int) -> bool:
        """Whether the pod's draft is over and its pools are the watcher's to record (not the pick writer's)."""
        return session.draft.finished and number not in self.served.deferred

    async def step(self) -> bool:
        """One look: True when something changed (and the connected seats it concerns were pushed).  Mostly made
        on the event loop (``_due``); only a pod with work to do, or a changed database, takes a worker."""
        due = self._due()
        if due is None:
            changed, database = await self.served.run(self._tick)
        else:
            if due:
                await self.served.run(self._tick, due)
            database, pods = self.served.changes(wait=False)
            changed = set(pods) | ({"db"} if database != self.database else set())
        self.database = database
        if "db" in changed and database is not None and database == self.hub.pushed_db:
            changed.discard("db")  # every connected seat was pushed at this very file already (a desk's change)
        if not changed:
            return False
        if "db" in changed:
            await self.hub.push()
        else:
            await self.hub.push_pods(changed)
        return True

    async def run(self) -> None:
        while True:
            try:
                await self.step()
            except asyncio.CancelledError:
                raise
            except Exception:  # a damaged file, a full disk: said in the log, and tried again
                log.exception("watching the event's files failed; trying again")
            await asyncio.sleep(self.poll)
