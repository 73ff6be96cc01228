"""Run by the crash and concurrency tests in a process of its own (forked from a server that imported this module
once: ``tests.helpers.terminals.worker``, or ``python -m``): one terminal's commands through the store.

    python -m tests.event_worker picks DB EVENT PLAYER...   pick for these players until their drafts end, printing ACK
    python -m tests.event_worker deferred-picks DB EVENT PLAYER...  the same, each pick written as ``cmdraft
                                                            serve``'s event loop writes it (appended without its
                                                            fsync, a ``Deferred`` syncing it before the ACK)
    python -m tests.event_worker players DB EVENT PREFIX N  register N players, printing ACK n
    python -m tests.event_worker start DB EVENT...          start each event's draft, printing IDS event draft-ids
    python -m tests.event_worker register DB EVENT NAME...  register an automatic deck for each, printing OK / REFUSED
    python -m tests.event_worker drop DB EVENT NAME...      drop each, printing DROPPED name had-deck
    python -m tests.event_worker writes DB N HOLD           N write transactions holding the lock HOLD s each,
                                                            back to back; prints WAIT worst-ms and END time
    python -m tests.event_worker restore DB FILE [EVENT]    ``event restore FILE --force`` (``--all`` without
                                                            EVENT), printing RESTORED

Environment:
- ``WORKER_KILL=write:K:before`` / ``write:K:after``: SIGKILL this process at its K-th commit (a file
  rename or a draft journal's appended line; backup copies don't count), just before or just after it;
  ``compact:K:before`` / ``compact:K:after``: at its K-th rename of a draft's journal (a compaction);
  ``tear:K``: at its K-th appended line, half of it written (a torn last line); ``sync:K:before`` /
  ``sync:K:after``: at its K-th sync of deferred appends (``Deferred.sync``); ``WORKER_KILL=last-pick``:
  right after the pick that ends a draft, before anything else is saved.
- ``WORKER_PICK_PAUSE=S``: sleep S seconds after each acknowledged pick (a player taking their time).
- ``WORKER_START_AT=T``: wait until wall-clock time T before the first command; with
  ``WORKER_STEP=S`` command i waits until T + i*S (two workers with the same schedule race), plus
  the i-th of ``WORKER_OFFSETS`` (comma-separated seconds) if given.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from typing import Any

from draft.engine import StalePickError
from events.deferred import Deferred
from events.storage import journal
from events.storage.store import Store
from sets.errors import CmdraftError, WouldWait
from tests.helpers.night import Night

KILL = os.environ.get("WORKER_KILL", "")
PICK_PAUSE = float(os.environ.get("WORKER_PICK_PAUSE", "0"))


def die() -> None:
    sys.stdout.flush()
    os.kill(os.getpid(), signal.SIGKILL)


def arm_kill() -> None:
    if not KILL.startswith(("write:", "compact:", "tear:", "sync:")):
        return
    kind, count, *rest = KILL.split(":")
    when = rest[0] if rest else ""
    target = int(count)
    real_replace, real_appended, real_sync = os.replace, journal.appended, Deferred.sync
    calls = 0

    def commit(real, *args):
        nonlocal calls
        calls += 1
        if calls == target and when == "before":
            die()
        real(*args)
        if calls == target and when == "after":
            die()

    if kind == "sync":

        def sync(self: Deferred, *how) -> None:
            commit(real_sync, self, *how)

        Deferred.sync = sync  # type: ignore[method-assign]  # the kill hook, in this worker only
        return

    def replace(src, dst, *args, **kwargs):
        if kind == "tear" or ".bak." in os.fspath(dst) or (kind == "compact" and ".drafts" not in os.fspath(dst)):
            return real_replace(src, dst, *args, **kwargs)  # not a commit (a backup copy), or not one counted
        commit(real_replace, src, dst, *args)

    def appended(fd, line, deferred=None):
        nonlocal calls
        if kind == "compact":
            return real_appended(fd, line, deferred)
        if kind == "tear":  # a write cut short: half the line reaches the file, then the kill
            calls += 1
            if calls == target:
                os.write(fd, line[: len(line) // 2])
                die()
            return real_appended(fd, line, deferred)
        commit(real_appended, fd, line, deferred)

    os.replace = replace
    journal.appended = appended


def wait_turn(index: int) -> None:
    start = os.environ.get("WORKER_START_AT")
    if start is None:
        return
    offsets = [float(x) for x in os.environ.get("WORKER_OFFSETS", "").split(",") if x]
    moment = (
        float(start)
        + index * float(os.environ.get("WORKER_STEP", "0"))
        + (offsets[index] if index < len(offsets) else 0.0)
    )
    while time.time() < moment:
        time.sleep(min(0.002, max(0.0, moment - time.time())))


def deferred_pick(session: Any, request: Any) -> Any:
    """A pick written as the server's event loop writes it: appended without waiting and synced before it is
    acknowledged; the ordinary write when that can't be (``JournalBusy``: the file is to be rewritten first)."""
    later = Deferred()
    try:
        outcome = session.pick_many([(request, None)], later)[0]
    except WouldWait:
        later.close()
        return session.pick(request)
    if isinstance(outcome, Exception):
        later.close()
        raise outcome
    later.sync()
    for work in later.after:  # a pack ended: the file compacted as the server does it, after the sync
        work()
    return outcome


def picks(db: str, event_id: int, names: list[str], deferred: bool = False) -> None:
    events = Night(Store(db))
    snap = events.snapshot(event_id)
    ids = {events.player_id(event_id, name) for name in names}
    pods = [pod for pod in snap.pods if ids & set(pod.players)]
    sessions = {pod.number: (pod, events.draft_session(event_id, pod.number)) for pod in pods}
    count = 0
    while not all(session.draft.finished for _, session in sessions.values()):
        progressed = False
        for number, (pod, session) in sessions.items():
            session.refresh()
            for seat in session.waiting_humans():
                if pod.players[seat] not in ids or seat not in session.waiting_humans():
                    continue  # not ours, or picked meanwhile (this session caught up with another terminal's picks)
                try:
                    request = session.suggested_pick(seat)
                    record = deferred_pick(session, request) if deferred else session.pick(request)
                except StalePickError:  # another terminal picked for this seat first: its pack moved on
                    print(f"STALE {pod.players[seat]}", flush=True)
                    progressed = True
                    continue
                count += 1
                progressed = True
                print(f"ACK {count} {pod.players[seat]} {record.pack} {record.pick}", flush=True)
                if KILL == "last-pick" and session.draft.finished:
                    die()
                time.sleep(PICK_PAUSE)
                events.after_picks(event_id, number, session)
        if not progressed:
            time.sleep(0.01)  # the other terminal's turn: don't hold the lock in a tight loop
    print("DONE", flush=True)


def players(db: str, event_id: int, prefix: str, count: int) -> None:
    events = Night(Store(db))
    for i in range(count):
        events.add_player(event_id, f"{prefix}{i}")
        print(f"ACK {i + 1}", flush=True)
    print("DONE", flush=True)


def start(db: str, event_ids: list[int]) -> None:
    events = Night(Store(db))
    for index, event_id in enumerate(event_ids):
        wait_turn(index)
        ids = events.start_draft(event_id)
        print(f"IDS {event_id} {','.join(map(str, ids))}", flush=True)
    print("DONE", flush=True)


def register(db: str, event_id: int, names: list[str]) -> None:
    events = Night(Store(db))
    events.pool(event_id, names[0])  # warm up: load the card data before the race
    for index, name in enumerate(names):
        wait_turn(index)
        try:
            events.register_deck(event_id, name, auto=True)
            print(f"OK {name}", flush=True)
        except CmdraftError as error:
            print(f"REFUSED {name} {error.exit_code}", flush=True)
    print("DONE", flush=True)


def drop(db: str, event_id: int, names: list[str]) -> None:
    events = Night(Store(db))
    for index, name in enumerate(names):
        wait_turn(index)
        dropped = events.drop_player(event_id, name)
        print(f"DROPPED {name} {int(dropped.had_deck)}", flush=True)
    print("DONE", flush=True)


def writes(db: str, count: int, hold: float) -> None:
    store = Store(db)
    wait_turn(0)
    worst = 0.0
    for i in range(count):
        begin = time.perf_counter()
        with store.write() as handle:
            worst = max(worst, time.perf_counter() - begin)
            handle.table("writes").insert({"pid": os.getpid(), "i": i})
            time.sleep(hold)
    print(f"WAIT {worst * 1000:.1f}", flush=True)
    print(f"END {time.time()}", flush=True)


def restore(db: str, path: str, which: list[str]) -> None:
    from pathlib import Path

    from events.night.transfer import read_database_file, restore_all, restore_event

    events = Night(Store(db))
    data = read_database_file(Path(path))
    if which:
        restore_event(events, data, int(which[0]), force=True)
    else:
        restore_all(events, Path(path), data, force=True)
    print("RESTORED", flush=True)


def sim_out(folder: str, seed: int) -> None:
    """A bots pod's files written to ``folder``, as ``cmdraft sim --seed SEED --out FOLDER`` writes them."""
    from pathlib import Path

    from draft.sim import run_pod
    from events.outputs.exports import export_pod

    export_pod(run_pod(seed), Path(folder))
    print("WRITTEN", flush=True)


def main(argv: list[str]) -> None:
    """Run one worker (``argv``: the command line's words after ``python -m tests.event_worker``), its kill and
    pause read from the environment now (a forked worker sets its environment before calling this)."""
    global KILL, PICK_PAUSE
    KILL = os.environ.get("WORKER_KILL", "")
    PICK_PAUSE = float(os.environ.get("WORKER_PICK_PAUSE", "0"))
    arm_kill()
    kind, db = argv[0], argv[1]
    if kind in ("picks", "deferred-picks"):
        picks(db, int(argv[2]), argv[3:], deferred=kind == "deferred-picks")
    elif kind == "players":
        players(db, int(argv[2]), argv[3], int(argv[4]))
    elif kind == "start":
        start(db, [int(arg) for arg in argv[2:]])
    elif kind == "register":
        register(db, int(argv[2]), argv[3:])
    elif kind == "writes":
        writes(db, int(argv[2]), float(argv[3]))
    elif kind == "drop":
        drop(db, int(argv[2]), argv[3:])
    elif kind == "restore":
        restore(db, argv[2], argv[3:])
    elif kind == "sim-out":
        sim_out(db, int(argv[2]))
    else:
        raise SystemExit(f"unknown worker kind {kind!r}")


def forked(argv: list[str], env: dict[str, str], cwd: str, out: Any, err: Any) -> None:
    """A worker in a process forked from the warm server of ``tests.helpers.terminals.worker`` (this module
    imported there once): the environment, folder and output a fresh ``python -m tests.event_worker`` would
    have, then ``main``."""
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    os.dup2(out.fileno(), 1)
    os.dup2(err.fileno(), 2)
    out.close()
    err.close()
    sys.stdout = open(1, "w", encoding="utf-8", buffering=1, closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", buffering=1, closefd=False)
    main(argv)


if __name__ == "__main__":
    main(sys.argv[1:])
