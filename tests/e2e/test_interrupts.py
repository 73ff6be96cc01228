"""Ctrl-C (SIGINT) at the store night's screens, in real processes on pseudo-terminals: each says its farewell, ends
with exit code 130 as every interrupted command does, with no traceback, and the database keeps everything saved
before it.  Before: ``event draft --player``, ``event clock`` and ``event timer`` (and the desk's draft screen,
``event deck --build``) ended with 0, as if the screen had been left on purpose; Ctrl-C at a seat code's prompt
ended with 3, as if no code had been given."""

from __future__ import annotations

import re
import signal
import time

import pexpect
import pytest

from events.night.round_clock import read_clock
from events.storage.store import Store
from tests.helpers.night import Night, bots_drafted
from tests.helpers.nights import NAMES, codes_of, physical_event, record, terminal_event
from tests.helpers.terminals import PICK, spawn_keys

INTERRUPTED = 130


def interrupted(child: pexpect.spawn, farewell: str | None) -> str:
    """Send SIGINT from outside (as Ctrl-C at the terminal does) and wait for the end: the farewell (when the screen
    has one), the root's one line, exit 130, no traceback.  What the process wrote at the end."""
    time.sleep(0.3)  # the screen is waiting for a key or a line (its terminal modes are set)
    child.kill(signal.SIGINT)
    if farewell is not None:
        child.expect(farewell)
    child.expect("cmdraft: interrupted")
    child.expect(pexpect.EOF)
    child.close()
    said = child.before or ""
    assert (child.exitstatus, child.signalstatus) == (INTERRUPTED, None), said
    assert "Traceback" not in said
    return said


def test_ctrl_c_at_an_event_pick_keeps_the_picks_made_and_exits_130(tmp_path):
    db = tmp_path / "draft.json"
    event_id = terminal_event(db, humans=("Ann", "Bo"), bots=("Dot", "Eve"))
    code = codes_of(db, event_id)["Ann"]
    child = spawn_keys(["event", "draft", str(event_id), "--player", "Ann", "--db", str(db)], tmp_path, timeout=60)
    child.expect(re.escape("Seat code for Ann"))
    child.sendline(code)
    child.expect(PICK)
    child.sendline("1 2")
    child.expect(r"\[Y/n\]")
    child.sendline("y")
    child.expect(PICK)  # the next pack, passed at once by the bot upstream
    interrupted(child, re.escape(f"Saved. Continue with: cmdraft event draft {event_id} --player Ann --db {db}"))
    events = Night(Store(db))  # the database opens, the first pick is kept and the draft goes on
    player = next(p for p in events.snapshot(event_id).players if p.name == "Ann")
    session = events.draft_session(event_id, player.pod)
    assert len(session.draft.picks_of(player.seat)) == 1 and not session.draft.finished
    assert events.snapshot(event_id).event.status == "drafting"


def test_ctrl_c_at_a_seat_code_prompt_binds_nothing_and_exits_130(tmp_path):
    """Ctrl-C is not 'no code was given' (exit 3, 'run the command again'): the command was interrupted."""
    db = tmp_path / "code.json"
    event_id = terminal_event(db, humans=("Ann", "Bo"), bots=("Dot",))
    child = spawn_keys(["event", "draft", str(event_id), "--player", "Ann", "--db", str(db)], tmp_path)
    child.expect(re.escape("Seat code for Ann"))
    said = interrupted(child, "Saved. Continue with")
    assert "no seat code was given" not in said
    events = Night(Store(db))
    player = next(p for p in events.snapshot(event_id).players if p.name == "Ann")
    assert events.draft_session(event_id, player.pod).claims.get(str(player.seat)) is None


def test_ctrl_c_while_a_terminal_waits_for_the_desk_or_watches_the_draft_exits_130(tmp_path):
    db = tmp_path / "wait.json"
    events = Night(Store(db))
    event_id = events.create("Waiting", style="terminal", seed=3, codes=False)
    for name in ("Ann", "Bo"):
        events.add_player(event_id, name)
    events.add_player(event_id, "Dot", bot=True)
    events.seat(event_id)
    child = spawn_keys(["event", "draft", str(event_id), "--player", "Ann", "--db", str(db)], tmp_path)
    child.expect("waiting for the desk to start the draft")
    interrupted(child, "Left before the draft started. Join again with")
    assert Night(Store(db)).snapshot(event_id).event.status == "seated"  # nothing started, nothing lost

    events.start_draft(event_id)
    child = spawn_keys(["event", "draft", str(event_id), "--db", str(db)], tmp_path)  # the desk's screen
    child.expect("waiting for")
    interrupted(child, "The draft goes on without this screen")
    assert Night(Store(db)).snapshot(event_id).event.status == "drafting"


def test_ctrl_c_at_the_round_clock_exits_130_and_the_clock_runs_on(tmp_path):
    db = tmp_path / "clock.json"
    events = Night(Store(db))
    event_id = bots_drafted(events, "Clock", NAMES[:8], seed=5)
    events.new_round(event_id, force=True)
    child = spawn_keys(["event", "clock", str(event_id), "--minutes", "30", "--db", str(db)], tmp_path)
    child.expect("p: pause")
    child.send("p")
    child.expect("The clock is paused")
    interrupted(child, None)
    clock = read_clock(Night(Store(db)), event_id, 1)
    assert clock is not None and clock.paused and clock.length == 1800  # the pause made before is kept


def test_ctrl_c_at_the_physical_draft_timer_exits_130(tmp_path):
    db = tmp_path / "timer.json"
    Night(Store(db)).create("Physical", timer=40, seed=1)
    child = spawn_keys(["event", "timer", "1", "--db", str(db)], tmp_path)
    child.expect("Pick 1 of")
    interrupted(child, None)
    assert Night(Store(db)).snapshot(1).event.name == "Physical"


def test_ctrl_c_in_the_event_deck_builder_says_no_deck_was_registered_and_exits_130(tmp_path):
    db = tmp_path / "deck.json"
    events = Night(Store(db))
    event_id = physical_event(events, ["Ann", "Bo"])
    record(events, event_id, "Ann", "10 Plains\n10 Island\n2 Murder\n")
    record(events, event_id, "Bo", "10 Swamp\n")  # every pool recorded: decks are built
    child = spawn_keys(["event", "deck", str(event_id), "Ann", "--build", "--db", str(db)], tmp_path)
    child.expect("deck> ")
    interrupted(child, re.escape("No deck registered (use 'save' or 'done' to register one)."))
    assert Night(Store(db)).snapshot(event_id).players[0].deck is None


def cooked(child: pexpect.spawn) -> int:
    """The terminal's echo and line modes now (as the process found them, when read before it sets its own)."""
    import termios

    return termios.tcgetattr(child.child_fd)[3] & (termios.ECHO | termios.ICANON)


def timed_terminal_pick(db, tmp_path) -> tuple[pexpect.spawn, int]:
    """Ann's terminal at her first timed pick (the prompt reads keys one at a time under the ticking clock)."""
    events = Night(Store(db))
    event_id = events.create("Timed", style="terminal", seed=11, timer=120)
    for name in ("Ann", "Bo"):
        events.add_player(event_id, name)
    events.add_player(event_id, "Dot", bot=True)
    events.seat(event_id)
    events.start_draft(event_id)
    child = spawn_keys(["event", "draft", str(event_id), "--player", "Ann", "--db", str(db)], tmp_path, timeout=60)
    modes = cooked(child)
    child.expect(re.escape("Seat code for Ann"))
    child.sendline(codes_of(db, event_id)["Ann"])
    child.expect(PICK)
    return child, modes


def physical_timer(db, tmp_path) -> tuple[pexpect.spawn, int]:
    Night(Store(db)).create("Physical", timer=40, seed=1)
    child = spawn_keys(["event", "timer", "1", "--db", str(db)], tmp_path)
    modes = cooked(child)
    child.expect("Pick 1 of")
    return child, modes


def round_clock(db, tmp_path) -> tuple[pexpect.spawn, int]:
    event_id = bots_drafted(Night(Store(db)), "Clock", NAMES[:8], seed=5)
    Night(Store(db)).new_round(event_id, force=True)
    child = spawn_keys(["event", "clock", str(event_id), "--minutes", "30", "--db", str(db)], tmp_path)
    modes = cooked(child)
    child.expect("p: pause")
    return child, modes


@pytest.mark.parametrize("screen", [timed_terminal_pick, physical_timer, round_clock])
def test_a_sigterm_at_the_store_nights_key_screens_gives_the_terminal_back_and_exits_130(tmp_path, screen):
    """`kill PID` at a screen that reads keys one at a time (a timed pick, the physical draft's timer, the round
    clock) ends it as Ctrl-C does, the terminal's modes as they were.  Before: killed by the signal, the player's
    terminal left unechoed and uncooked (only `play` and `build` were given back)."""
    db = tmp_path / "night.json"
    child, modes = screen(db, tmp_path)
    time.sleep(0.5)  # the screen reads keys now (its modes set)
    assert cooked(child) != modes
    child.kill(signal.SIGTERM)
    child.expect("cmdraft: interrupted")
    child.expect(pexpect.EOF)
    assert cooked(child) == modes
    child.close()
    assert (child.exitstatus, child.signalstatus) == (INTERRUPTED, None)
