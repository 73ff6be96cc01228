"""The round clock (stored in the event, shared by terminals) and single-key input, in real pseudo-terminals."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pexpect
import pytest

from events.night.round_clock import RoundClock, clock_text, read_clock, start_clock, toggle_pause
from events.storage.store import Store
from sets.errors import InputError, StateError
from tests.helpers.night import Night, drafted_by_bots
from tests.helpers.terminals import ctrl_c_reaches_it, spawn_keys

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo"]


# --- the arithmetic ------------------------------------------------------------------------------------------


def test_remaining_counts_down_and_stops_at_zero():
    clock = RoundClock(length=50 * 60, started=1000.0)
    assert clock.remaining(1000.0) == 3000 and clock.remaining(1600.0) == 2400
    assert clock.remaining(4000.0) == 0 and clock.over(4000.0) and not clock.over(3999.0)
    assert (
        clock.remaining(900.0) == 3000
    )  # a clock read before its start (skewed terminals) never shows more than its length


def test_pauses_freeze_the_clock_and_add_up():
    clock = RoundClock(length=600, started=0.0)
    paused = clock.pause(100.0)  # 500 left
    assert paused.paused and paused.remaining(100.0) == paused.remaining(400.0) == 500
    assert paused.pause(200.0) == paused  # pausing a paused clock changes nothing
    resumed = paused.resume(400.0)  # paused for 300
    assert not resumed.paused and resumed.paused_total == 300 and resumed.remaining(450.0) == 450
    again = resumed.pause(500.0).resume(520.0)  # 20 more
    assert again.paused_total == 320 and again.remaining(600.0) == 600 - (600 - 320)
    assert RoundClock.from_json(json.loads(json.dumps(again.to_json()))) == again


@pytest.mark.parametrize(
    ("seconds", "shown"), [(3000, "50:00"), (2999.2, "50:00"), (59.01, "01:00"), (0.4, "00:01"), (0, "00:00")]
)
def test_clock_text_rounds_up(seconds, shown):
    assert clock_text(seconds) == shown


# --- stored in the event ---------------------------------------------------------------------------------------


def playing_event(tmp_path: Path) -> tuple[Night, int]:
    events = Night(Store(tmp_path / "clock.json"))
    event_id = drafted_by_bots(events, "Clock <night>", NAMES, seed=5)
    events.new_round(event_id, force=True)
    return events, event_id


def test_the_clock_is_stored_so_reopening_shows_the_true_time(tmp_path):
    events, event_id = playing_event(tmp_path)
    number, clock = start_clock(events, event_id, 50, now=10_000.0)
    assert number == 1 and clock.length == 3000
    # Reopened ten minutes later (another process, the same file): the same start, 40 minutes left.
    reopened = Night(Store(tmp_path / "clock.json"))
    _, again = start_clock(reopened, event_id, now=10_600.0)
    assert again.started == 10_000.0 and again.remaining(10_600.0) == 2400
    toggle_pause(reopened, event_id, 1, now=10_700.0)
    assert read_clock(events, event_id, 1).remaining(99_999.0) == 2300  # paused: frozen for every reader
    toggle_pause(events, event_id, 1, now=10_800.0)
    assert read_clock(reopened, event_id, 1).remaining(10_900.0) == 2200
    _, longer = start_clock(events, event_id, 60, now=10_900.0)  # more time given: the start stays
    assert longer.started == 10_000.0 and longer.remaining(10_900.0) == 2800
    _, fresh = start_clock(events, event_id, 50, now=20_000.0, restart=True)
    assert fresh.remaining(20_000.0) == 3000


def test_a_clock_needs_a_round_in_play(tmp_path, cli):
    events = Night(Store(tmp_path / "early.json"))
    event_id = events.create("Early", style="bots", seed=5)
    result = cli("event", "clock", event_id, "--db", events.store.path)
    assert result.exit_code == 3 and "no round is being played" in result.stderr
    events, event_id = playing_event(tmp_path)
    for bad in ("0", "-5", "100000"):
        result = cli("event", "clock", event_id, "--minutes", bad, "--db", events.store.path)
        assert result.exit_code == 2 and "--minutes" in result.stderr
    with pytest.raises(StateError):
        toggle_pause(events, event_id, 1)
    with pytest.raises(InputError):
        start_clock(events, event_id, 0)


# --- real terminals ----------------------------------------------------------------------------------------------


def spawn_shell(command: str, home: Path, timeout=30):
    """A shell in a real terminal that runs ``command`` and then prints the terminal's settings."""
    env = dict(os.environ, CMDRAFT_HOME=str(home), COLUMNS="120", LINES="40", NO_COLOR="1", TERM="xterm")
    return pexpect.spawn(
        "/bin/sh",
        ["-c", f"trap : INT; {command}; echo STTY-AFTER; stty -a"],
        env=env,
        encoding="utf-8",
        timeout=timeout,
        dimensions=(40, 120),
        preexec_fn=ctrl_c_reaches_it,
    )


def cmdraft(*args: str) -> str:
    import shlex

    return " ".join(shlex.quote(a) for a in [sys.executable, "-m", "events", *args])


def assert_terminal_restored(child):
    child.expect("STTY-AFTER")
    child.expect(pexpect.EOF)
    settings = child.before.split()
    assert "icanon" in settings and "echo" in settings and "-icanon" not in settings and "-echo" not in settings


def test_clock_in_a_real_terminal_keys_act_without_enter(tmp_path):
    """A real terminal (a pseudo-terminal, the command in a process of its own): single keys act without Enter only in a terminal's raw mode."""
    events, event_id = playing_event(tmp_path)
    db = str(events.store.path)
    child = spawn_shell(cmdraft("event", "clock", str(event_id), "--minutes", "30", "--db", db), tmp_path)
    child.expect("ROUND 1")
    child.expect("Pairings")
    child.expect("p: pause")
    child.send("p")  # no Enter
    child.expect("The clock is paused")
    deadline = time.time() + 10
    while not read_clock(events, event_id, 1).paused and time.time() < deadline:
        time.sleep(0.1)
    assert read_clock(events, event_id, 1).paused  # stored: every terminal sees the pause
    child.send("p")
    child.expect("p: pause · q: quit")
    child.send("q")
    assert_terminal_restored(child)
    clock = read_clock(events, event_id, 1)
    assert not clock.paused and clock.length == 1800 and 0 < clock.remaining(time.time()) <= 1800


def test_a_second_terminal_shows_the_same_time_and_time_at_the_end(tmp_path):
    """Two terminals at once, each a process of its own: the stored clock read by a second terminal."""
    events, event_id = playing_event(tmp_path)
    db = str(events.store.path)
    # Started 49 minutes ago by another terminal: one minute is left.
    start_clock(events, event_id, 50, now=time.time() - 49 * 60)
    child = spawn_keys(["event", "clock", str(event_id), "--db", db], tmp_path)
    child.expect(r"0[01]:[0-5]\d")
    child.send("q")
    child.expect(pexpect.EOF)
    # Ran out long ago: the screen says TIME.
    start_clock(events, event_id, 50, now=time.time() - 3 * 3600, restart=True)
    child = spawn_keys(["event", "clock", str(event_id), "--db", db], tmp_path)
    child.expect("Finish the turn in progress")  # the core's words (round_clock.TIME_UP), as the phones say them
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_ctrl_c_leaves_the_clock_and_restores_the_terminal(tmp_path):
    """A real terminal (a pseudo-terminal, the command in a process of its own): Ctrl-C and the terminal's modes put back exist only there."""
    events, event_id = playing_event(tmp_path)
    child = spawn_shell(cmdraft("event", "clock", str(event_id), "--db", str(events.store.path)), tmp_path)
    child.expect("p: pause")
    child.sendintr()
    assert_terminal_restored(child)
    assert "Traceback" not in child.before


def test_physical_draft_timer_keys_act_without_enter(tmp_path):
    """A real terminal (a pseudo-terminal, the command in a process of its own): single keys act without Enter only in a terminal's raw mode."""
    db = tmp_path / "timer.json"
    Night(Store(db)).create("Physical", timer=40, seed=1)
    child = spawn_shell(cmdraft("event", "timer", "1", "--db", str(db)), tmp_path)
    child.expect("Pick 1 of")
    child.send("p")
    child.expect("PAUSED")
    child.send("p")
    child.expect("Enter: next pick")
    child.send("\r")  # Enter: the next pick at once
    child.expect("Pick 2 of")
    child.send("q")
    assert_terminal_restored(child)


def test_clock_cli_json_reports_the_stored_clock(tmp_path, cli):
    events, event_id = playing_event(tmp_path)
    first = json.loads(cli("event", "clock", event_id, "--minutes", "45", "--json", "--db", events.store.path).stdout)
    assert first["round"] == 1 and first["length"] == 2700 and not first["paused"]
    second = json.loads(cli("event", "clock", event_id, "--json", "--db", events.store.path).stdout)
    assert second["started"] == first["started"] and second["remaining"] <= first["remaining"]
    screen = cli("event", "clock", event_id, "--db", events.store.path, input="pq")
    assert screen.exit_code == 0 and "The clock is paused" in screen.stdout and "Clock <night>" in screen.stdout
    assert read_clock(events, event_id, 1).paused
