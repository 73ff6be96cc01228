"""The server's watcher looks at the live drafts from the event loop (``Watcher._due``: a try at each pod's lock, a
look at its file) and takes a worker only for a pod with work to do; a pod a worker holds is left for the next
look, which finds it (a thread of the watcher's once held every pod four times a second, and a busy pod's picks
then went the slow way, through a worker)."""

from __future__ import annotations

import threading
import time

from events.web.app import create_app
from events.web.live import Watcher
from tests.helpers.nights import codes_of
from tests.helpers.served import client, phone, served_night
from tests.helpers.watching import planted_stuck_pod, terminal_pick


def test_the_look_on_the_loop_finds_each_kind_of_work_and_nothing_else(tmp_path, cli, manual_clock):
    db = tmp_path / "looked.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2, timer=60)
    app = create_app(db, event_id, clock=manual_clock.monotonic, wall=manual_clock.now)
    served, watcher = app.state.server.served, app.state.server.watcher
    number = served.live_pods()[0]
    assert watcher._due() == {number}  # not read yet: read in a worker
    watcher._tick({number})
    assert watcher._due() == set()  # read, nothing due
    session = served.table(number)
    manual_clock.advance(session.deadline() - manual_clock.now() + 0.5)
    assert watcher._due() == {number}  # a pick's time is up
    picks = len(session.draft.log)
    watcher._tick({number})
    assert len(served.table(number).draft.log) > picks  # the timer picked
    assert watcher._due() == set()
    terminal_pick(db, event_id, "Ann")  # another process writes the pod's file
    assert watcher._due() == {number}


def test_a_pod_left_at_a_bot_seat_is_found_by_the_look_on_the_loop(tmp_path, cli, manual_clock):
    db = tmp_path / "stuck.json"
    event_id = served_night(cli, db, humans=("Ann",), bots=3)
    served, number = planted_stuck_pod(db, event_id, manual_clock)
    watcher = Watcher(served, hub=None)  # type: ignore[arg-type]  # no phone is connected: the look pushes to nobody
    assert watcher._due() == {number}


def test_a_pod_a_worker_holds_is_left_for_the_next_look_which_finds_its_change(tmp_path, cli, manual_clock):
    db = tmp_path / "held.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        server = web.app.state.server
        served, watcher = server.served, server.watcher
        phone(web, event_id, "Ann", codes["Ann"])
        web.portal.call(watcher.step)  # the first look: every file new to it
        assert web.portal.call(watcher.step) is False
        number = served.live_pods()[0]
        terminal_pick(db, event_id, "Bo")  # a change made elsewhere, while a worker holds the pod
        held, release = threading.Event(), threading.Event()

        def hold() -> None:
            with served.locked(number):
                held.set()
                release.wait(10)

        holder = threading.Thread(target=hold)
        holder.start()
        try:
            assert held.wait(10)
            started = time.monotonic()
            assert watcher._due() == set() and served.changes(wait=False)[1] == set()  # left for the next look
            assert web.portal.call(watcher.step) is False
            assert time.monotonic() - started < 5  # and nobody waited for the worker
        finally:
            release.set()
            holder.join(10)
        assert watcher._due() == {number}  # the next look: the file another process wrote, to be read
        assert web.portal.call(watcher.step) is True  # read in a worker, and the pod's seats pushed
        assert web.portal.call(watcher.step) is False
