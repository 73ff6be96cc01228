"""The helper process that fsyncs the picks ``cmdraft serve``'s event loop wrote (``syncer.HelperSyncer``,
``sync_child``): what it is told is synced before it is called back, what the device refuses is said, a helper that
stops (killed, never started) fails only the writes it had and is replaced (or a thread takes over), a stopping
server's writes are synced first, and a helper never outlives its server."""

from __future__ import annotations

import asyncio
import errno
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from events.deferred import Deferred
from events.storage.store import Store
from events.web import sync_child
from events.web.live import Connection
from events.web.syncer import HelperSyncer, Syncer, syncer_for
from tests.helpers.journals import written
from tests.helpers.night import Night
from tests.helpers.nights import codes_of
from tests.helpers.serve_process import serve_process
from tests.helpers.served import ORIGIN, client, draft_log, phone, served_night


def run(work: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    return asyncio.run(work())


def deferred_of(*fds: int) -> Deferred:
    deferred = Deferred()
    for fd in fds:
        deferred.add(fd)
    return deferred


async def until(told: list[Any], count: int) -> None:
    """Until ``count`` writes were told (synced or failed)."""
    while len(told) < count:
        await asyncio.sleep(0.01)


async def told_once(fd: int) -> tuple[HelperSyncer, list[Any]]:
    """A new syncer given a write of ``fd``'s file, once it has told it (synced, or failed); what it told."""
    syncer, told = HelperSyncer(), list[Any]()
    syncer.submit(deferred_of(fd), told.append)
    await until(told, 1)
    return syncer, told


def open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def stopped(syncer: HelperSyncer) -> asyncio.Future[None]:
    """``stop`` as the server calls it: in a worker thread while the loop runs."""
    return asyncio.get_running_loop().run_in_executor(None, syncer.stop, 10.0)


def test_each_write_is_called_back_once_synced_and_its_descriptors_are_let_go(tmp_path):
    fds = [written(tmp_path, f"pod-{n}.jsonl") for n in range(3)]
    before = open_descriptors()

    async def work() -> tuple[list[tuple[int, OSError | None]], int | None]:
        syncer = HelperSyncer()
        syncer.start()
        told: list[tuple[int, OSError | None]] = []
        for n, fd in enumerate([*fds, fds[0]]):  # the last: a file another write of the round synced too
            syncer.submit(deferred_of(fd), lambda problem, n=n: told.append((n, problem)))
        await until(told, 4)
        pid = syncer.process.pid if syncer.process else None
        await stopped(syncer)
        return told, pid

    told, pid = run(work)
    after = open_descriptors()
    assert sorted(told, key=lambda t: t[0]) == [(0, None), (1, None), (2, None), (3, None)]
    assert after <= before  # the duplicates sent were closed here (and the socket with the helper)
    assert pid is not None and not Path(f"/proc/{pid}").exists()  # it ended with the server's stop


def test_a_file_the_device_refuses_to_sync_is_said_with_its_error(tmp_path):
    """fsync on a pipe fails (EINVAL): the helper really fsyncs what it is sent, and the error reaches the write
    (a helper that skipped the fsync would answer it synced: this test would see it)."""
    reading, writing = os.pipe()

    async def work() -> list[OSError | None]:
        syncer, told = await told_once(reading)
        await stopped(syncer)
        return told

    (problem,) = run(work)
    assert isinstance(problem, OSError) and problem.errno == 22
    os.close(reading), os.close(writing)


def test_a_write_of_more_files_than_a_message_carries_is_called_back_once_all_are_synced(tmp_path):
    fds = [written(tmp_path, f"f{n}") for n in range(sync_child.MAX_FDS + 30)]

    async def work() -> list[OSError | None]:
        syncer = HelperSyncer()
        told: list[OSError | None] = []
        syncer.submit(deferred_of(*fds), told.append)
        await asyncio.sleep(0.3)
        await stopped(syncer)
        return told

    assert run(work) == [None]
    for fd in fds:
        os.close(fd)


def test_a_helper_killed_with_writes_fails_those_and_the_next_write_starts_another(tmp_path):
    fd = written(tmp_path, "pod-1.jsonl")

    async def work() -> tuple[list[Any], int, int]:
        syncer = HelperSyncer()
        told: list[Any] = []
        syncer.submit(deferred_of(fd), told.append)  # answered: the helper is at work
        await until(told, 1)
        first = syncer.process.pid
        os.kill(first, signal.SIGSTOP)  # held: the next write waits in it
        syncer.submit(deferred_of(fd), told.append)
        await asyncio.sleep(0.2)
        assert told == [None]  # not called back before its sync
        os.kill(first, signal.SIGKILL)
        await until(told, 2)
        syncer.submit(deferred_of(fd), told.append)
        await until(told, 3)
        second = syncer.process.pid
        await stopped(syncer)
        return told, first, second

    told, first, second = run(work)
    assert told[0] is None and told[2] is None
    assert isinstance(told[1], OSError) and "sync helper stopped" in str(told[1])
    assert second != first


def test_where_no_helper_can_start_the_writes_are_synced_by_a_thread(tmp_path, monkeypatch):
    fd = written(tmp_path, "pod-1.jsonl")
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-python-here"))

    async def work() -> tuple[list[OSError | None], bool]:
        syncer, told = await told_once(fd)
        await stopped(syncer)
        return told, isinstance(syncer.fallback, Syncer)

    assert run(work) == ([None], True)


def test_a_helper_that_ends_before_it_answers_anything_leaves_the_writes_to_a_thread(tmp_path, monkeypatch):
    """A helper that can't run (here: one that exits at once) fails the write it had, and is not started again and
    again: the thread syncs from then on."""
    fd = written(tmp_path, "pod-1.jsonl")
    monkeypatch.setattr(sync_child, "__file__", str(tmp_path / "missing.py"))

    async def work() -> tuple[list[OSError | None], bool]:
        syncer, told = await told_once(fd)
        syncer.submit(deferred_of(fd), told.append)
        await until(told, 2)
        await stopped(syncer)
        return told, isinstance(syncer.fallback, Syncer)

    told, fell_back = run(work)
    assert isinstance(told[0], OSError) and told[1] is None and fell_back


def test_stopping_syncs_and_calls_back_the_writes_sent_before_it(tmp_path):
    fd = written(tmp_path, "pod-1.jsonl")

    async def work() -> list[OSError | None]:
        syncer, told = await told_once(fd)
        os.kill(syncer.process.pid, signal.SIGSTOP)  # the next writes wait in the helper as the server stops
        for _ in range(3):
            syncer.submit(deferred_of(fd), told.append)
        pid = syncer.process.pid
        asyncio.get_running_loop().call_later(0.3, os.kill, pid, signal.SIGCONT)
        await stopped(syncer)
        return told

    assert run(work) == [None] * 4


def test_the_helper_ignores_ctrl_c_and_sigterm_its_server_acts_on(tmp_path):
    fd = written(tmp_path, "pod-1.jsonl")

    async def work() -> list[OSError | None]:
        syncer, told = await told_once(fd)
        for sent in (signal.SIGINT, signal.SIGTERM):
            os.kill(syncer.process.pid, sent)
        await asyncio.sleep(0.2)
        syncer.submit(deferred_of(fd), told.append)
        await until(told, 2)
        await stopped(syncer)
        return told

    assert run(work) == [None, None]


def test_a_helper_never_outlives_its_server_killed_with_sigkill(tmp_path):
    """A server killed -9 (no stop, no clean-up): its end of the socket closes with it, and the helper ends."""
    script = textwrap.dedent(
        f"""
        import asyncio, os, sys
        from events.deferred import Deferred
        from events.web.syncer import HelperSyncer
        async def main():
            syncer = HelperSyncer()
            fd = os.open({str(tmp_path / "pod.jsonl")!r}, os.O_WRONLY | os.O_CREAT, 0o600)
            deferred = Deferred()
            deferred.add(fd)
            await syncer.sync(deferred)
            print(syncer.process.pid, flush=True)
            await asyncio.sleep(60)
        asyncio.run(main())
        """
    )
    server = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        helper = int(server.stdout.readline())
        assert Path(f"/proc/{helper}").exists()
        server.kill()
        server.wait(10)
        deadline = time.monotonic() + 10
        while Path(f"/proc/{helper}").exists() and "Z" not in Path(f"/proc/{helper}/stat").read_text().split()[2]:
            assert time.monotonic() < deadline, "the helper outlived its server"
            time.sleep(0.05)
    finally:
        if server.poll() is None:
            server.kill()


def test_writes_to_a_helper_killed_unseen_are_failed_once_on_the_loops_next_turn_never_inside_submit(tmp_path):
    """The helper killed before the loop saw it go: a write's send fails, and it is told (failed) on the loop's next
    turn, never inside ``submit`` (where its caller is still writing); a write of more files than one message
    carries waits with it and is told once; the next write starts another helper."""
    fds = [written(tmp_path, f"f{n}") for n in range(sync_child.MAX_FDS + 50)]

    async def work() -> list[Any]:
        syncer = HelperSyncer()
        told: list[Any] = []
        syncer.submit(deferred_of(fds[0]), told.append)
        await until(told, 1)
        os.kill(syncer.process.pid, signal.SIGKILL)
        time.sleep(0.3)  # (the loop not run: it hasn't seen the helper go)
        syncer.submit(deferred_of(fds[1]), told.append)
        syncer.submit(deferred_of(*fds), told.append)
        assert len(told) == 1  # nothing said inside submit
        await until(told, 3)
        await asyncio.sleep(0.1)
        syncer.submit(deferred_of(fds[0]), told.append)
        await until(told, 4)
        await stopped(syncer)
        return told

    told = run(work)
    assert told[0] is None and told[3] is None and len(told) == 4
    assert all(isinstance(problem, OSError) for problem in told[1:3])
    for fd in fds:
        os.close(fd)


def test_a_restarted_helper_that_ends_before_it_answers_leaves_the_writes_to_a_thread(tmp_path, monkeypatch):
    """A helper that worked, killed; the one started after it can't run (its file gone: an upgrade): the write it
    had fails, and the thread syncs from then on (not 503 after 503)."""
    fd = written(tmp_path, "pod-1.jsonl")

    async def work() -> tuple[list[Any], bool]:
        syncer, told = await told_once(fd)
        monkeypatch.setattr(sync_child, "__file__", str(tmp_path / "gone" / "sync_child.py"))
        os.kill(syncer.process.pid, signal.SIGKILL)
        await asyncio.sleep(0.3)
        for n in range(3):
            syncer.submit(deferred_of(fd), told.append)
            await until(told, n + 2)
        await stopped(syncer)
        return told, isinstance(syncer.fallback, Syncer)

    told, fell_back = run(work)
    assert told[0] is None and isinstance(told[1], OSError) and told[2:] == [None, None] and fell_back


def test_a_server_stopping_with_a_helper_that_never_answers_ends_it_and_fails_its_writes(tmp_path):
    """A helper stopped by a signal (or on a hung disk) holds a write as the server stops: after the stop's wait it
    is ended and the write failed (it was never answered), so the server stops and no helper is left behind."""
    fd = written(tmp_path, "pod-1.jsonl")

    async def work() -> tuple[list[Any], int, float]:
        syncer, told = await told_once(fd)
        pid = syncer.process.pid
        os.kill(pid, signal.SIGSTOP)
        syncer.submit(deferred_of(fd), told.append)
        began = time.monotonic()
        await asyncio.get_running_loop().run_in_executor(None, syncer.stop, 0.5)
        return told, pid, time.monotonic() - began

    told, pid, took = run(work)
    assert told[0] is None and isinstance(told[1], OSError) and took < 3
    deadline = time.monotonic() + 5
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)  # (collected by this process's ``Popen`` at exit, or init)
    state = (
        Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] if Path(f"/proc/{pid}").exists() else "Z"
    )
    assert state == "Z"  # not running, not stopped: ended


def test_a_write_refused_for_the_descriptors_in_flight_is_sent_again(tmp_path, monkeypatch):
    """Too many descriptors on their way between processes (``ETOOMANYREFS``, a user's limit): the helper is not
    taken for gone; the write waits and is sent again."""
    fd = written(tmp_path, "pod-1.jsonl")
    real_send_fds = socket.send_fds
    refused = []

    def send_fds(sock: socket.socket, buffers: Any, fds: Any, *rest: Any) -> int:
        if not refused:
            refused.append(True)
            raise OSError(errno.ETOOMANYREFS, "Too many references: cannot splice")
        return real_send_fds(sock, buffers, fds, *rest)

    monkeypatch.setattr(socket, "send_fds", send_fds)

    async def work() -> tuple[list[Any], int | None]:
        syncer = HelperSyncer()
        syncer.start()
        first = syncer.process.pid
        told: list[Any] = []
        syncer.submit(deferred_of(fd), told.append)
        await until(told, 1)
        pid = syncer.process.pid if syncer.process else None
        await stopped(syncer)
        return told, first == pid

    assert run(work) == ([None], True)


def test_the_web_face_imports_where_the_system_passes_no_descriptors():
    """Without ``socket.CMSG_SPACE`` (Windows) the server still starts: the thread syncs there."""
    probe = "import socket; del socket.CMSG_SPACE; import events.web.app, events.web.sync_child; print('ok')"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "ok", done.stderr


def test_serve_syncs_with_the_helper_on_linux_and_a_thread_when_asked():
    assert isinstance(syncer_for(True), HelperSyncer if sys.platform == "linux" else Syncer)
    assert isinstance(syncer_for(False), Syncer)


def test_a_pick_is_answered_only_once_the_helper_synced_it(tmp_path, cli, manual_clock, monkeypatch):
    """Through the server: the helper held (SIGSTOP) with a pick written on the loop: nothing is sent to the phone
    (its answer, the next seat's pack) until the helper has synced it."""
    db = tmp_path / "helper.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    posted: list[float] = []
    real_post = Connection.post

    def post(self: Connection, message: Any) -> None:
        posted.append(time.monotonic())
        real_post(self, message)

    with client(db, event_id, manual_clock, watch=False) as web:
        ann, bo = (phone(web, event_id, name, codes[name]) for name in ("Ann", "Bo"))
        assert bo.pick_first()  # the pod's first write (a worker's)
        syncer = web.app.state.server.writer.syncer
        assert isinstance(syncer, HelperSyncer) and syncer.process is not None
        with web.websocket_connect(f"/api/stream?token={ann.token}") as stream:
            shown = stream.receive_json()["seat"]["draft"]
            monkeypatch.setattr(Connection, "post", post)
            os.kill(syncer.process.pid, signal.SIGSTOP)
            try:
                stream.send_json(
                    {"type": "pick", "id": 4, "pack": shown["pack"], "pick": shown["pick"], "cards": [0, 1]}
                )
                web.portal.call(asyncio.sleep, 0.3)  # time enough for an early answer to be sent
            finally:
                resumed = time.monotonic()
                os.kill(syncer.process.pid, signal.SIGCONT)
            answer = stream.receive_json()
    assert answer["type"] == "picked" and answer["id"] == 4
    assert posted and min(posted) >= resumed


def test_a_pick_whose_helper_was_killed_is_refused_and_the_pods_seats_are_shown_the_file_again(
    tmp_path, cli, manual_clock
):
    """The helper killed while it holds a write: its pick is refused 503 (never answered as taken), the pod's seats
    are shown the file as it is on the watcher's next look, the next write rewrites the file whole (``Journal.unsynced``)
    and the one after it is synced by a new helper."""
    db = tmp_path / "killed.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann, bo = (phone(web, event_id, name, codes[name]) for name in ("Ann", "Bo"))
        assert bo.pick_first()
        syncer = web.app.state.server.writer.syncer
        served = web.app.state.server.served
        with web.websocket_connect(f"/api/stream?token={ann.token}") as stream:
            shown = stream.receive_json()["seat"]["draft"]
            web.portal.call(web.app.state.server.watcher.step)  # the pod's seats shown its file
            assert 1 in served.shown
            first = syncer.process.pid
            os.kill(first, signal.SIGSTOP)
            stream.send_json({"type": "pick", "id": 5, "pack": shown["pack"], "pick": shown["pick"], "cards": [0, 1]})
            web.portal.call(asyncio.sleep, 0.2)
            os.kill(first, signal.SIGKILL)
            failed = stream.receive_json()
            assert (failed["type"], failed["id"], failed["status"], failed["error"]["code"]) == (
                "refused",
                5,
                503,
                "unavailable",
            )
            assert "sync helper stopped" in failed["error"]["message"]
            assert 1 not in served.shown  # the watcher's next look shows the pod's seats the file as it is
        assert ann.pick_first()  # the next write: the file rewritten whole in a worker (a sync failed), synced there
        assert bo.pick_first() or ann.pick_first()  # the write after it: appended, and synced by a new helper
        assert syncer.process is not None and syncer.process.pid != first
    ann_seat = shown["seat"] - 1
    made = [(pack, pick) for seat, pack, pick, _ in draft_log(db, event_id) if seat == ann_seat]
    assert len(made) == len(set(made))  # no pick made twice


@pytest.fixture(autouse=True)
def no_helper_left_behind():
    """No test here leaves a helper of this process running (each ends with its server's stop, or is killed)."""
    before = helpers_running()
    yield
    deadline = time.monotonic() + 10
    while helpers_running() - before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not helpers_running() - before


def helpers_running() -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes()
                state = (entry / "stat").read_text().rpartition(")")[2].split()[:2]  # its state, its parent
            except OSError:
                continue
            if b"sync_child.py" in command and state[0] != "Z" and int(state[1]) == os.getpid():
                found.add(int(entry.name))
    return found


@pytest.mark.parametrize("acknowledged", [1, 6, 17])
def test_cmdraft_serve_killed_mid_draft_loses_no_pick_it_acknowledged(tmp_path, cli, acknowledged):
    """A real ``cmdraft serve`` (its picks synced by its helper) killed with SIGKILL while a phone picks over its
    stream, a pick on its way: every pick the phone was answered ``picked`` for is in the draft's file, read by a
    new process, and the helper ended with its server."""
    db = tmp_path / "crash.json"
    event_id = served_night(cli, db, humans=("Ann",), bots=7)
    codes = codes_of(db, event_id)
    made: list[tuple[int, int]] = []
    with serve_process(db, event_id) as (process, url):
        address = url.removeprefix("http://")
        joined = httpx.post(f"{url}/api/join", json={"event": event_id, "player": "Ann", "code": codes["Ann"]})
        with connect(f"ws://{address}/api/stream?token={joined.json()['token']}", origin=ORIGIN["origin"]) as ws:
            shown = json.loads(ws.recv(timeout=10))["seat"]["draft"]
            while True:
                pick = {"type": "pick", "id": len(made), "pack": shown["pack"], "pick": shown["pick"], "cards": [0, 1]}
                ws.send(json.dumps(pick))
                if len(made) == acknowledged:  # this one on its way: the server killed now
                    helpers = [
                        int(n) for n in Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
                    ]
                    process.kill()
                    process.wait(10)
                    break
                answer = json.loads(ws.recv(timeout=10))
                while answer["type"] != "picked":
                    answer = json.loads(ws.recv(timeout=10))
                made.append((shown["pack"], shown["pick"]))
                shown = answer["seat"]["draft"]
    ann = Night(Store(db)).player(event_id, "Ann").seat
    on_disk = {(pack, pick) for seat, pack, pick, _ in draft_log(db, event_id) if seat == ann}
    assert set(made) <= on_disk
    assert helpers and all(not helper_running(pid) for pid in helpers)


def helper_running(pid: int) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
        except OSError:
            return False
        if state == "Z":
            return False
        time.sleep(0.05)
    return True
