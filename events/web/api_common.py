"""What every endpoint of ``cmdraft serve`` shares: the served event over the core, the one JSON error shape, and
reading a request's JSON body strictly (size, fields, types).

``Served`` is the event as the server sees it: the night's database and the phases of the night it uses, each pod's
``DraftTable`` kept between requests only as a parse cache (every use catches up with the draft's file first,
so another process's picks and timeouts are always seen), and the decks players are building in their browsers.
Every call into the core runs in one of the server's two worker threads (``Served.run``), so the event loop never
waits on a file lock or a disk, and a pod's session is used by one request at a time (its lock).  Two, not a pool of
dozens: the core's work holds Python's interpreter lock, and more threads only take it from each other (measured
with ``python -m tests.benchmarks serve``: a third of the server's time went to that); the second keeps the
server going while the first waits on a terminal's write.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import threading
from collections.abc import Callable, Hashable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import msgspec
from msgspec import UNSET
from starlette.responses import JSONResponse

from events.night.base import EventBase
from events.night.decks import Decks
from events.night.drafting import Drafting
from events.night.joining import no_draft_seat
from events.night.refusals import answer as refusal_answer
from events.night.rounds import Rounds
from events.night.seat_codes import not_served_why
from events.night.snapshot import Snapshot
from events.night.table_reports import TableReports
from events.night.table_views import TableViews
from events.night.undo import Undo
from events.sessions.activities import EventDeck
from events.sessions.table import DraftTable, caught_up
from events.web import answers
from events.web.cards_shown import remember_printings
from events.web.settings import DEFAULT, WebSettings
from sets.booster import Printing
from sets.cards import CardSet
from sets.errors import CmdraftError, InputError, StateError

STATIC = Path(__file__).with_name("static")  # the pages and their files


def workers_for(pods: int, settings: WebSettings) -> int:
    """Worker threads for ``pods`` live pods: one a pod (a pod's picks are written a batch at a time, and a write
    waits on the disk's fsync without holding the interpreter, so pods write side by side) and one for the answers
    that only read; ``settings.workers`` to ``settings.max_workers``."""
    return max(settings.workers, min(settings.max_workers, pods + 1))


T = TypeVar("T")
Signature = tuple[int, int, int] | None  # a file's (inode, size, modification time), None when it is missing


class ApiError(Exception):
    """An answer other than 200: the HTTP status, a short code the page reads, a one-line message, and
    anything else the answer carries (the seat's new state with a stale pick)."""

    def __init__(self, status: int, code: str, message: str, *, field: str | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra
        self.field = field  # the core's name of the field the refusal is about (``CmdraftError.about``), if one

    def body(self) -> answers.Failure:
        info = answers.ErrorInfo(self.code, self.message, UNSET if self.field is None else self.field)
        return answers.Failure(error=info, **self.extra)

    def response(self) -> JSONResponse:
        return Json(self.body(), status_code=self.status)


class Json(JSONResponse):
    """A JSON answer, encoded by msgspec (several times faster than the standard library's encoder)."""

    def render(self, content: Any) -> bytes:
        return msgspec.json.encode(content)


def json_text(content: Any) -> str:
    return msgspec.json.encode(content).decode()


def error_response(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
    return ApiError(status, code, message, **extra).response()


CLI_HINT = re.compile(
    r"\s*[:;,(]?\s*(?:see|run|with|start it with|pair the next one with|the desk shows it:)?\s*'cmdraft [^']*'\)?"
)


def web_words(message: str, instead: str = "") -> str:
    """A core message as a page says it: a command to type at the desk's terminal (``see 'cmdraft event show
    1'``) is no help on a phone, so it is left out, and ``instead`` (what the player can do there) said."""
    if "cmdraft " not in message:
        return message
    return CLI_HINT.sub("", message).rstrip(" :;,") + (f": {instead}" if instead else "")


def core_error(error: Exception) -> ApiError:
    """A cmdraft error from the core as an answer: a refusal by its own status and code (``events.night.refusals``),
    other bad input 400, another step out of order 409."""
    said = refusal_answer(error) if isinstance(error, CmdraftError) else None
    field = error.about if isinstance(error, CmdraftError) else None
    if said is not None:
        return ApiError(said.status, said.code, said.message, field=field, **said.extra)
    if isinstance(error, InputError):
        return ApiError(400, "bad-input", web_words(str(error)), field=field)
    if isinstance(error, StateError):
        return ApiError(409, "out-of-order", web_words(str(error)), field=field)
    return ApiError(503, "unavailable", f"the database can't be used now: {error}")


def core_read(read: Callable[[Any], T], typed: Any) -> T:
    """What was typed, read by the core's ``read`` (on the event loop: a reading touches no file), its bad input
    answered as the core's error is."""
    try:
        return read(typed)
    except CmdraftError as error:
        raise core_error(error) from None


def whole(value: Any, what: str, low: int, high: int) -> int:
    """``value`` when it is a whole number from ``low`` to ``high`` (the caller's range: a setting's limit or the
    core's rule), else the 400 ``bad-field`` refusal naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApiError(400, "bad-field", f"{what} must be a whole number from {low} to {high}")
    return value


def wholes(values: list[Any], what: str, low: int, high: int) -> list[int]:
    """``whole`` of each value, in one call when every one is in range (a pick's cards, on every pick)."""
    if all(type(value) is int and low <= value <= high for value in values):  # (type: a bool is no whole number)
        return list(values)
    return [whole(value, what, low, high) for value in values]


def file_signature(path: os.PathLike[str] | str) -> Signature:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return (stat.st_ino, stat.st_size, stat.st_mtime_ns)


@dataclass
class Served:
    """The event ``cmdraft serve`` serves, over the same core the terminals use."""

    night: EventBase  # the event's database, opened by ``events.night.opening.open_night``
    event_id: int
    wall: Callable[[], float]
    settings: WebSettings = DEFAULT
    drafting: Drafting = field(init=False)
    decks: Decks = field(init=False)
    reports: TableReports = field(init=False)  # the night's use cases the browsers' pages call
    views: TableViews = field(init=False)
    rounds: Rounds = field(init=False)
    undo: Undo = field(init=False)
    tables: dict[int, DraftTable] = field(default_factory=dict)
    clocks_stopped: bool = False  # the server has begun to stop (``stop_clocks``)
    building: dict[int, EventDeck] = field(default_factory=dict)  # player id -> the deck being built
    _snap: tuple[Signature, Snapshot] | None = None
    _turn_mark: tuple[Signature] | None = None  # the database's signature this loop turn (``database_mark``)
    _locks: dict[Hashable, threading.RLock] = field(default_factory=dict)
    _guard: threading.Lock = field(default_factory=threading.Lock)
    holders: dict[str, tuple[Signature, int]] = field(default_factory=dict)  # token -> (database signature, player)
    # api_draft.pool_json: (pod, seat) -> (the pool list, its cards encoded so far, their list encoded, as Raw)
    pools_json: dict[tuple[int, int], tuple[list[Printing], int, bytes, msgspec.Raw]] = field(default_factory=dict)
    # api_draft.recorded_pool_json: player -> ((the event's set, the pool's references), the card sets, encoded)
    recorded_json: dict[int, tuple[tuple[str, tuple[str, ...]], dict[str, CardSet], msgspec.Raw]] = field(
        default_factory=dict
    )
    _refs: tuple[Signature, tuple[str, dict[int, tuple[str, ...]]]] | None = None
    _workers: ThreadPoolExecutor | None = None
    workers: int | None = None  # threads the pool may start: ``warm`` sizes it to the live pods (``workers_for``)
    _closed: bool = False
    deferred: set[int] = field(default_factory=set)  # ended pods whose pools the pick writer records when quiet
    # pod -> its draft file's signature when its connected seats were last given states showing all of it
    # (``write_picks``, the watcher's look: ``changes``): a file as it was shown needs no push
    shown: dict[int, Signature] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.drafting = self.night.phase(Drafting)
        self.decks = self.night.phase(Decks)
        self.reports = self.night.phase(TableReports)
        self.views = self.night.phase(TableViews)
        self.rounds = self.night.phase(Rounds)
        self.undo = self.night.phase(Undo)

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in one of the worker threads (the event loop never waits on a file lock or a disk); a cmdraft
        error becomes an ``ApiError``.  What a function does with a pod's draft it does holding that pod's lock
        (``locked``): pods pick in parallel, one pod's session is used by one request at a time."""
        if self._closed:
            raise ApiError(503, "unavailable", "the server is stopping: try again in a moment")
        if self._workers is None:
            count = self.workers or self.settings.workers
            self._workers = ThreadPoolExecutor(count, thread_name_prefix="cmdraft-core")
        return await asyncio.get_running_loop().run_in_executor(self._workers, self._guarded, function, args)

    def close(self) -> None:
        """The worker threads stop once their work is done (the server is stopping)."""
        self._closed = True
        if self._workers is not None:
            self._workers.shutdown(wait=False, cancel_futures=True)
            self._workers = None

    @staticmethod
    def _guarded(function: Callable[..., T], args: tuple[Any, ...]) -> T:
        try:
            return function(*args)
        except CmdraftError as error:
            raise core_error(error) from None

    def locked(self, what: Hashable) -> threading.RLock:
        """The lock of one pod's draft (its number), or of another shared thing (``"decks"``, ``"snapshot"``)."""
        with self._guard:
            lock = self._locks.get(what)
            if lock is None:
                lock = self._locks[what] = threading.RLock()
            return lock

    def one_at_a_time(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` holding the decks' lock: one deck action at a time (in a worker thread)."""
        with self.locked("decks"):
            return function(*args)

    def database_mark(self) -> Signature:
        """The database file's signature now: one look at the file for a request's checks (``cached_holder``,
        ``fresh_snapshot``), each a trip of the event loop's to the disk that lets a worker take the interpreter.
        On the event loop one look serves a turn of the loop: the messages and requests it takes in one turn
        arrived together, and are checked against the database as it was when that turn first looked (as if
        they had come one after the other that moment); the next turn looks again."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # a worker thread: a look of its own
            return file_signature(self.night.path)
        if self._turn_mark is not None:
            return self._turn_mark[0]
        mark = file_signature(self.night.path)
        self._turn_mark = (mark,)
        loop.call_soon(self._next_turn)
        return mark

    def _next_turn(self) -> None:
        self._turn_mark = None

    def cached_holder(self, token: str, mark: Signature = None) -> int | None:
        """The player a token stood for when the database was last read as it is now (None: ask the database);
        ``mark``: the database's signature the caller just took (``database_mark``)."""
        found = self.holders.get(token)
        if found is not None and found[0] == (self.database_mark() if mark is None else mark):
            return found[1]
        return None

    def check(self) -> None:
        """The event can be served: it exists, and its players join with seat codes."""
        why = not_served_why(self.drafting.event(self.event_id), self.event_id)
        if why is not None:
            raise StateError(why)

    def snapshot(self) -> Snapshot:
        """The event's snapshot, read again whenever the database file changed."""
        with self.locked("snapshot"):
            signature = file_signature(self.night.path)
            if self._snap is None or self._snap[0] != signature or signature is None:
                self._snap = (signature, self.drafting.snapshot(self.event_id))
            return self._snap[1]

    def recorded_refs(self) -> tuple[str, dict[int, tuple[str, ...]]]:
        """The event's set and the card references of every recorded pool, read again (in one read) whenever
        the database file changed."""
        signature = file_signature(self.night.path)
        with self.locked("pools"):
            if self._refs is None or signature is None or self._refs[0] != signature:
                self._refs = (signature, self.decks.pool_refs(self.event_id))
            return self._refs[1]

    def fresh_snapshot(self, mark: Signature = None) -> Snapshot | None:
        """The snapshot already read, when the database file is still the one it was read from (no lock, no
        read: cheap enough for the event loop); None when it must be read again (``snapshot``, in a worker).
        ``mark``: the database's signature the caller just took (``database_mark``)."""
        kept = self._snap
        signature = self.database_mark() if mark is None else mark
        return kept[1] if kept is not None and signature is not None and kept[0] == signature else None

    def table(self, pod_number: int) -> DraftTable:
        """The pod's draft, caught up with its file (another terminal's picks, a timeout applied elsewhere); the
        caller holds ``locked(pod_number)``."""
        session = self.tables.get(pod_number)
        if session is not None and caught_up(session):
            return session  # else restored meanwhile: the pod's new draft is read below
        # the server's own: the clocks of the seats its phones hold are its to run (``phone_clocks``)
        session = self.tables[pod_number] = self.drafting.draft_session(
            self.event_id, pod_number, serving=True, stopping=self.stopping
        )
        return session

    def stopping(self) -> bool:
        """Whether the server has begun to stop (``stop_clocks``): its phones can't pick from then on."""
        return self.clocks_stopped

    def stop_clocks(self) -> None:
        """The server begins to stop (its first Ctrl-C or SIGTERM): no seat of its drafts times out from now on, by
        its watcher or a pick's write, however long its shutdown takes; the next ``serve`` starts the phones'
        clocks over, and the terminals time out their own seats."""
        self.clocks_stopped = True

    def warm(self, restart_clocks: bool = False) -> None:
        """Read now what the night's answers need: the event's snapshot and every live pod's draft (its packs,
        its cards), so the first picks don't wait for them; ``restart_clocks``: a server served the event and
        stopped (``serving.stopped_before``), so the pick timers of the seats its phones hold start over
        (``resume_file``; a terminal's seat keeps its clock).  The worker pool
        is sized to the live pods (``workers_for``)."""
        live = self.live_pods()
        self.workers = workers_for(len(live), self.settings)
        for number in live:
            with self.locked(number), contextlib.suppress(CmdraftError):
                session = self.table(number)  # a damaged draft file is said when a phone of that pod asks
                # the file's first write by this process, now rather than at a pick (the phones' timers started over)
                phones = self.drafting.phone_seats(self.event_id, number, session) if restart_clocks else frozenset()
                session.resume_file(self.wall() if restart_clocks else None, phones)
                for booster in (b for round_ in session.draft.boosters for b in round_):
                    remember_printings(booster.printings)  # every pack's cards, before the packs open

    def settle(self, pod_number: int, session: DraftTable | None = None) -> None:
        """A pod whose draft is over gets its pools recorded, and the event moves on when it was the last (once,
        whoever sees it first: the pick that ended it, the server's watcher, a browser asking, a terminal).
        ``session``: the pod's draft, already caught up by a caller holding the pod's lock."""
        with self.locked(pod_number):
            session = self.table(pod_number) if session is None else session
            if session.draft.finished:
                self.drafting.after_picks(self.event_id, pod_number)

    def settle_pods(self, pod_numbers: Iterable[int]) -> None:
        """``settle`` for several pods at once: the pools of those whose drafts are over recorded in one write of
        the database (``Drafting.after_picks_of``), each pod's lock held meanwhile (taken in order)."""
        with contextlib.ExitStack() as held:
            ended = []
            for number in sorted(set(pod_numbers)):
                held.enter_context(self.locked(number))
                if self.table(number).draft.finished:
                    ended.append(number)
            if ended:
                self.drafting.after_picks_of(self.event_id, ended)

    def live_pods(self) -> list[int]:
        """The pods whose draft is still being picked (as the database last said)."""
        snap = self.snapshot()
        return [pod.number for pod in snap.pods if pod.draft and snap.drafts.get(pod.number) == "drafting"]

    def signature_of(self, pod: int) -> Signature:
        """The signature of the pod's draft file, as ``signatures`` gives it."""
        session = self.tables.get(pod)
        path = None if session is None else session.draft_file()
        return None if path is None else file_signature(path)

    def written_signature(self, pod: int) -> Signature:
        """The signature of the pod's draft file as this process last read or wrote it (the caller holds the pod's
        lock and has just written it): no look at the file.  A write by another process meanwhile shows as a
        change at the watcher's next look, which pushes it."""
        session = self.tables.get(pod)
        return None if session is None else session.known_signature()

    def changes(self, wait: bool = True) -> tuple[Signature, set[int]]:
        """What changed of the event: the database file's signature now, and the pods whose draft file changed
        since their connected seats were last shown it (``shown``; a write of this server shows what it changes,
        so only a change made elsewhere, or by the watcher, counts), which count as shown from now on (the caller
        pushes their seats).  Each pod's file is looked at holding its lock: never halfway through a write.
        ``wait`` False (on the event loop): a pod whose lock a worker holds is looked at next time (one the loop's
        own write holds until synced is looked at: what it shows is pushed by a worker, once the lock is free)."""
        changed = set()
        for number in list(self.tables):
            lock = self.locked(number)
            if not lock.acquire(blocking=wait):
                continue
            try:
                mark = self.signature_of(number)
                if number not in self.shown or self.shown[number] != mark:
                    self.shown[number] = mark
                    changed.add(number)
            finally:
                lock.release()
        return file_signature(self.night.path), changed


def no_draft_words(served: Served, player_id: int, place: object) -> str:
    """Why a seat has no draft to pick at: no draft seat at all (``place`` None: a late player's sealed pool, said in
    the core's words, as ``event draft --player`` says them), or its pod's draft not started yet."""
    if place is None:
        return no_draft_seat(served.event_id, served.snapshot().player(player_id), served.night.path)
    return "your pod's draft hasn't started"
