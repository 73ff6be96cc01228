"""A server started again mid-draft after one stopped: no phone could pick while it was down, so the pick timers start
over (each player holding a pack has that pack's whole time again) instead of handing every overdue pick to the
timer.  A second server beside one that runs, or the first of a draft terminals pick, changes no clock."""

from __future__ import annotations

import os
import signal

import portalocker
import pytest
import uvicorn

from events import portable
from events.cli.serve import StoppingServer
from events.night.serving import held, hold_shared, marker, served_url, serving, stopped_before
from tests.helpers.nights import codes_of
from tests.helpers.served import Phone, client, phone, served_night


def test_a_server_started_again_gives_each_player_holding_a_pack_its_whole_time_again(tmp_path, cli, manual_clock):
    db = tmp_path / "restarted.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2, timer=60)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        bo = phone(web, event_id, "Bo", codes["Bo"])
        before = ann.seat()["draft"]
        assert before["deadline"] == pytest.approx(manual_clock.now() + 60, abs=1)  # a full pack's time
    manual_clock.advance(90)  # the server is down past every deadline: no phone can pick meanwhile

    again = client(db, event_id, manual_clock, watch=False)
    server = again.app.state.server
    server.served.warm(restart_clocks=True)  # what 'cmdraft serve' does as it starts after a server stopped
    with again:
        again.portal.call(server.watcher.step)  # the server's first look: nothing is overdue now
        ann, bo = Phone(again, ann.token), Phone(again, bo.token)
        state = ann.seat()["draft"]
        assert (state["pack"], state["pick"], len(state["cards"])) == (before["pack"], before["pick"], 20)
        assert state["deadline"] == pytest.approx(manual_clock.now() + 60, abs=1)
        assert ann.pick_first()  # Ann's own pick, made once the server is back
        assert ann.seat()["draft"]["last"]["why"] is None
        # The timer still runs: Bo, who never comes back, is picked for once his new time is up, not before.
        bo_deadline = bo.seat()["draft"]["deadline"]
        assert bo_deadline == pytest.approx(manual_clock.now() + 60, abs=1)
        manual_clock.advance(bo_deadline - manual_clock.now() - 1)
        again.portal.call(server.watcher.step)
        assert bo.seat()["draft"]["last"] is None
        manual_clock.advance(2)
        again.portal.call(server.watcher.step)
        assert "time ran out" in bo.seat()["draft"]["last"]["why"]


def test_a_second_server_beside_one_that_runs_changes_no_clock(tmp_path, cli, manual_clock):
    db = tmp_path / "beside.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2, timer=60)
    codes = codes_of(db, event_id)
    with serving(db, event_id, "http://127.0.0.1:8000"), client(db, event_id, manual_clock, watch=False) as first:
        ann = phone(first, event_id, "Ann", codes["Ann"])
        deadline = ann.seat()["draft"]["deadline"]
        manual_clock.advance(55)  # Ann has 5 s left
        assert not stopped_before(db, event_id)  # the first serves it still
        second = client(db, event_id, manual_clock, watch=False)  # 'cmdraft serve 1 --port 8001' in another window
        second.app.state.server.served.warm(restart_clocks=stopped_before(db, event_id))
        assert ann.seat()["draft"]["deadline"] == deadline


def test_the_next_server_is_told_one_served_the_event_and_stopped_or_crashed(tmp_path):
    db = tmp_path / "night.json"
    assert not stopped_before(db, 1)  # never served: a draft the terminals pick keeps its clocks
    with serving(db, 1, "http://127.0.0.1:8000"):
        assert not stopped_before(db, 1)  # serving now
    assert stopped_before(db, 1) and not stopped_before(db, 2)  # stopped (Ctrl-C), this event only
    marker(db, 1).write_text('{"url": "http://127.0.0.1:8000", "pid": 999999999}', encoding="utf-8")
    assert stopped_before(db, 1)  # a crash left the file of a process that is gone


def test_a_server_says_it_stopped_at_the_first_ctrl_c_before_its_shutdown_closes_the_phones_streams(tmp_path):
    """uvicorn closes the streams and waits for the requests under way before ``serve`` returns: from the first
    Ctrl-C or SIGTERM the phones can't pick, so the file says stopped at once (no terminal times them out meanwhile),
    and only while it is still this server's."""
    db = tmp_path / "night.json"
    with serving(db, 1, "http://127.0.0.1:8000") as said_stopped:
        server = StoppingServer(uvicorn.Config(app=None), said_stopped)
        assert not stopped_before(db, 1)
        server.handle_exit(signal.SIGINT, None)
        assert server.should_exit and stopped_before(db, 1)  # while the process still shuts down
    with open(
        held(db, 2), "a+b"
    ) as other:  # a second server started beside it: its lock, and the file says its address
        with serving(db, 2, "http://127.0.0.1:8000") as said_stopped:
            assert hold_shared(other)
            marker(db, 2).write_text(f'{{"url": "http://127.0.0.1:8001", "pid": {os.getppid()}}}', encoding="utf-8")
            StoppingServer(uvicorn.Config(app=None), said_stopped).handle_exit(signal.SIGTERM, None)
            assert not stopped_before(db, 2)  # another server serves the event now: its file is left alone
        assert not stopped_before(db, 2)


def test_a_stopping_server_times_out_no_seat_while_its_shutdown_waits_for_the_streams(tmp_path, cli, manual_clock):
    """From the first Ctrl-C uvicorn waits for the open streams before the watcher is stopped: meanwhile no phone can
    pick, so neither the watcher nor a last pick's write hands an overdue seat to the timer (the next ``serve``
    starts the phones' clocks over)."""
    db = tmp_path / "stopping.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo", "Cy", "Di"), bots=0, timer=60)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        others = [phone(web, event_id, name, codes[name]) for name in ("Bo", "Cy", "Di")]
        server = web.app.state.server
        manual_clock.advance(59)
        assert all(other.pick_first() for other in others)  # their picks arrived in time; Ann's hasn't
        manual_clock.advance(31)
        server.served.stop_clocks()  # what the first Ctrl-C does (``StoppingServer``)
        web.portal.call(server.watcher.step)
        assert ann.seat()["draft"]["last"] is None
        assert any(other.pick_first() for other in others)  # a pick still arriving as the streams close
        assert ann.seat()["draft"]["last"] is None


def test_a_crashed_server_whose_process_id_another_process_took_is_known_stopped_by_its_lock(tmp_path):
    """After a crash (a power cut, the machine started again), a new process may take the dead server's number: the
    file still names a running process.  The lock the server held while serving ended with it, so the next ``serve``
    still starts the phones' clocks over, and the slips name no server."""
    db = tmp_path / "night.json"
    with serving(db, 1, "http://127.0.0.1:8000"):
        assert served_url(db, 1) == "http://127.0.0.1:8000"  # its lock held: serving
        crashed = marker(db, 1).read_text(encoding="utf-8")
    marker(db, 1).write_text(crashed.replace(str(os.getpid()), str(os.getppid())), encoding="utf-8")
    assert served_url(db, 1) is None and stopped_before(db, 1)  # a running process's number, nobody's lock
    held(db, 1).unlink()  # a file an older cmdraft left, with no lock beside it: the process id alone says
    assert served_url(db, 1) == "http://127.0.0.1:8000"


def test_a_server_that_could_not_take_its_lock_is_judged_by_its_process_id(tmp_path, monkeypatch):
    """Where no shared lock can be taken (Windows without pywin32: portalocker raises ImportError), the server still
    serves, says so, and the file it writes is judged by its process id alone, even beside a lock file an earlier
    server left."""
    db = tmp_path / "night.json"
    held(db, 1).write_bytes(b"left by an earlier serve\n")

    def no_shared_locks(handle, flags):
        raise ImportError("Shared locks on Windows require the win32 extra")

    monkeypatch.setattr(portalocker, "lock", no_shared_locks)
    with serving(db, 1, "http://127.0.0.1:8000"):
        assert served_url(db, 1) == "http://127.0.0.1:8000" and not stopped_before(db, 1)
    assert stopped_before(db, 1)


def test_where_no_process_id_can_be_asked_after_the_lock_says_the_server_runs(tmp_path, monkeypatch):
    """Windows has no signal-0 probe (``portable.HAS_KILL_PROBE``): a server holding its lock is serving, and one
    whose lock nobody holds is stopped."""
    monkeypatch.setattr(portable, "HAS_KILL_PROBE", False)
    db = tmp_path / "night.json"
    with serving(db, 1, "http://127.0.0.1:8000"):
        assert served_url(db, 1) == "http://127.0.0.1:8000" and not stopped_before(db, 1)
        crashed = marker(db, 1).read_text(encoding="utf-8")
    marker(db, 1).write_text(crashed, encoding="utf-8")  # as a crash leaves it: the lock ended with the process
    assert served_url(db, 1) is None and stopped_before(db, 1)


def test_while_the_server_is_down_no_desk_command_hands_the_phones_picks_to_the_timer(tmp_path, cli, manual_clock):
    """Every event command first finishes what was left behind (``recover``), a pick whose time ran out among it.
    While the event's server is down its phones can't pick: their overdue picks wait for the next ``serve``, which
    starts the clocks over (the tester's outage of 70 s against a 60 s timer, the desk looking meanwhile)."""
    db = tmp_path / "down.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2, timer=60)
    codes = codes_of(db, event_id)
    with serving(db, event_id, "http://127.0.0.1:8000"), client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        before = ann.seat()["draft"]
    manual_clock.advance(70)  # the server stopped (Ctrl-C): past every deadline
    assert cli("event", "show", event_id, "--db", db).exit_code == 0  # the desk looks meanwhile
    assert stopped_before(db, event_id)
    again = client(db, event_id, manual_clock, watch=False)
    again.app.state.server.served.warm(restart_clocks=stopped_before(db, event_id))  # as 'cmdraft serve' starts
    with again:
        ann = Phone(again, ann.token)
        state = ann.seat()["draft"]
        assert (state["pack"], state["pick"], state["last"]) == (before["pack"], before["pick"], None)
        assert state["deadline"] == pytest.approx(manual_clock.now() + 60, abs=1)
