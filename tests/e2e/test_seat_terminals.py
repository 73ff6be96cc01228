"""A seat binds to one terminal session, a refused pick says who took the pack, and a terminal that never got
a valid code leaves out of order (exit 3).  Real terminals (pexpect) and real draft files; the clock is the
tests' own."""

from __future__ import annotations

import io
import os
import pty
import shlex
import stat
import subprocess
import sys

import pexpect
import pytest
from rich.console import Console

from draft.engine import DraftConfig
from events import portable
from events.night.seat_codes import SESSION_TOKEN_HOURS, keep_token, terminal_token
from events.screens.table import TablePrompt
from events.sessions.seat import Refused, SeatSession
from events.storage.draft_files import TableSession
from events.storage.store import Store
from sets.errors import StateError
from tests.helpers.night import Night
from tests.helpers.nights import EXIT_STATE, codes_of, seat_of, start, terminal_night
from tests.helpers.terminals import PICK, spawn

# --- one terminal session ---------------------------------------------------------------------------------------------


def cmdraft(*args: str) -> str:
    return " ".join(shlex.quote(a) for a in [sys.executable, "-m", "events", *args])


def test_the_same_terminal_window_is_not_asked_again_and_a_new_one_is(tmp_path, cli):
    db = tmp_path / "window.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2)
    start(cli, db, event_id)
    code = codes_of(db, event_id)["Ann"]
    command = cmdraft("event", "draft", str(event_id), "--player", "Ann", "--db", str(db))
    env = dict(os.environ, CMDRAFT_HOME=str(tmp_path), COLUMNS="120", LINES="50", NO_COLOR="1", TERM="xterm")
    # one terminal window: a shell that runs the draft twice, as a player who quits and comes back
    window = pexpect.spawn(
        "/bin/sh",
        ["-c", f"{command}; echo NEXT-RUN; {command}"],
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 120),
    )
    window.expect("Seat code for Ann")
    window.sendline(code)
    window.expect(PICK)
    window.sendline("quit")
    window.expect("NEXT-RUN")
    window.expect(PICK)
    assert "Seat code" not in window.before  # the same terminal session: bound
    files = list((tmp_path / "seats").glob("*.token"))
    assert len(files) == 1 and stat.S_IMODE(files[0].stat().st_mode) == 0o600
    assert code not in files[0].read_text()
    other = spawn(["event", "draft", str(event_id), "--player", "Ann", "--db", str(db)], tmp_path, timeout=30)
    other.expect("Seat code for Ann")  # another window of the same account, same folder: asked
    window.sendline("quit")
    window.expect(pexpect.EOF)
    other.sendline("quit")
    other.expect(pexpect.EOF)


@pytest.fixture
def at_a_terminal(monkeypatch):
    """Standard input is a real terminal (a pty) in this test's process and session."""
    leader, follower = pty.openpty()
    stream = os.fdopen(follower, "r")
    monkeypatch.setattr(sys, "stdin", stream)
    yield stream
    stream.close()
    os.close(leader)


def test_a_terminal_sessions_seat_file_is_short_lived(tmp_path, at_a_terminal, manual_clock):
    event = Night(Store(tmp_path / "db.json")).event(Night(Store(tmp_path / "db.json")).create("N", seed=1))
    token = keep_token(event, 3)
    assert terminal_token(event, 3) == token and terminal_token(event, 4) is None
    assert SESSION_TOKEN_HOURS == 12  # the README's figure
    manual_clock.advance(SESSION_TOKEN_HOURS * 3600 - 60)
    assert terminal_token(event, 3) == token
    manual_clock.advance(120)
    assert terminal_token(event, 3) is None  # too old: the next person at this terminal is asked
    assert list((tmp_path / "seats").glob("*.token")) == []


def test_a_terminal_session_is_alive_until_its_leader_ends():
    """In a process of its own: a session leader (a terminal's shell) that runs, then ends."""
    shell = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE, start_new_session=True
    )
    try:
        assert portable.session_alive(shell.pid)
    finally:
        shell.stdin.close()
        shell.wait(timeout=10)
    assert not portable.session_alive(shell.pid)


def test_without_terminal_sessions_the_binding_stays_in_memory(tmp_path, at_a_terminal, monkeypatch, manual_clock):
    monkeypatch.setattr(portable, "HAS_TERMINAL_SESSIONS", False)  # Windows: no tty device, no session id
    event = Night(Store(tmp_path / "db.json")).event(Night(Store(tmp_path / "db.json")).create("N", seed=1))
    token = keep_token(event, 3)
    assert token and terminal_token(event, 3) is None
    assert not (tmp_path / "seats").exists()


def test_input_from_a_pipe_keeps_the_binding_in_memory_only(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("ABC\n"))
    event = Night(Store(tmp_path / "db.json")).event(Night(Store(tmp_path / "db.json")).create("N", seed=1))
    assert keep_token(event, 3) and terminal_token(event, 3) is None


def test_a_terminal_that_never_got_a_valid_code_exits_out_of_order_without_a_continue_hint(tmp_path, cli):
    db = tmp_path / "nocode.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2)
    start(cli, db, event_id)
    for typed in ("quit\n", ""):  # quit at the prompt, end of input
        result = cli("event", "draft", event_id, "--player", "Ann", "--db", db, input=typed)
        assert result.exit_code == EXIT_STATE, result.output
        assert "no seat code was given for 'Ann'" in result.stderr and "Saved" not in result.output
        assert "Continue with" not in result.output and "Traceback" not in result.output
    # a wrong code then end of input: the code typed was wrong (a wrong code's exit, 2), not "no code was given"
    result = cli("event", "draft", event_id, "--player", "Ann", "--db", db, input="WRONG1\n")
    assert result.exit_code == 2 and "no seat code was given" not in result.stderr, result.output
    assert "the seat code typed for 'Ann' was wrong, so this terminal picks for nobody" in result.stderr
    assert "Saved" not in result.output and "Continue with" not in result.output and "Traceback" not in result.output
    code = codes_of(db, event_id)["Ann"]
    given = cli("event", "draft", event_id, "--player", "Ann", "--db", db, input=f"{code}\nquit\n")
    assert given.exit_code == 0 and "Saved. Continue with" in given.stdout  # once bound, quitting saves as before


# --- who took the pack ----------------------------------------------------------------------------------------------------


def report_text(seat: SeatSession, outcome: Refused) -> str:
    console = Console(file=io.StringIO(), width=200)
    TablePrompt(seat, console, None).report(outcome)
    return console.file.getvalue()


def event_table(db, timer: int | None) -> TableSession:
    return TableSession.create(
        Store(db), kind="event", seed=7, config=DraftConfig(seats=4), humans=[0], names=list("ABCD"), timer=timer
    )


def test_a_pick_overtaken_by_another_terminal_says_so_not_that_time_ran_out(tmp_path, manual_clock):
    db = tmp_path / "d.json"
    table = event_table(db, timer=None)
    here = SeatSession(table, 0)
    here.show()
    there = SeatSession(TableSession.load(Store(db), table.draft_id), 0)
    there.show()
    there.pick([0, 1])
    refused = here.pick([2, 3])
    assert isinstance(refused, Refused) and refused.by == "terminal"
    text = report_text(here, refused)
    assert "Another terminal picked for this seat at pack 1 pick 1" in text and "Time ran out" not in text


def test_a_pick_overtaken_by_the_timer_says_the_time_ran_out(tmp_path, manual_clock):
    db = tmp_path / "t.json"
    table = event_table(db, timer=60)
    here = SeatSession(table, 0)
    here.show()
    manual_clock.advance(61)
    desk = TableSession.load(Store(db), table.draft_id)
    assert desk.apply_timeout()  # the desk's screen (or any command) applies the timeout
    refused = here.pick([2, 3])
    assert isinstance(refused, Refused) and refused.by == "timer"
    text = report_text(here, refused)
    assert "Time ran out for pack 1 pick 1" in text and "were taken for you" in text


def test_a_pick_for_a_seat_the_desk_dropped_says_the_desk_did(tmp_path, cli):
    db = tmp_path / "drop.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2, codes=False)
    start(cli, db, event_id)
    pod, seat = seat_of(db, event_id, "Ann")
    night = Night(Store(db))
    here = SeatSession(night.draft_session(event_id, pod), seat)
    here.show()
    assert cli("event", "player", "drop", event_id, "Ann", "--db", db).exit_code == 0
    with pytest.raises(StateError, match="the desk dropped the player"):
        here.pick([0, 1])
