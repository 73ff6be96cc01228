"""Who may do what, and when (issue 38): the core refuses by role and by phase, and every face only maps it.

A player's terminal joins its seat and waits for the desk's start; only the desk starts a draft."""

from __future__ import annotations

import pexpect
import pytest

from events.night.refusals import Actor, NotAllowed
from events.storage.store import Store
from tests.helpers.night import Night
from tests.helpers.nights import codes_of, terminal_night
from tests.helpers.terminals import PICK, spawn


def test_a_players_terminal_never_starts_the_draft_it_waits_for_the_desk(tmp_path, cli):
    db = tmp_path / "friday.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2)  # seated, not started
    code = codes_of(db, event_id)["Ann"]
    waited = cli("event", "draft", event_id, "--player", "Ann", "--db", db, input=f"{code}\nquit\n")
    assert waited.exit_code == 0, waited.output
    assert "waiting for the desk to start the draft" in waited.stdout
    events = Night(Store(db))
    assert events.snapshot(event_id).event.status == "seated"
    assert not [entry for entry in events.history(event_id) if entry.what == "draft start"]


def test_the_core_lets_only_the_desk_start_a_draft(tmp_path, cli):
    db = tmp_path / "friday.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2)
    events = Night(Store(db))
    ann = events.player_id(event_id, "Ann")
    with pytest.raises(NotAllowed, match="only the desk can start the draft"):
        events.start_draft(event_id, actor=Actor.seat(ann, "terminal", "Ann"))
    assert events.snapshot(event_id).event.status == "seated"
    events.start_draft(event_id, actor=Actor.desk())
    assert events.snapshot(event_id).event.status == "drafting"


def ann_waiting(cli, tmp_path):
    """A seated terminal night and Ann's terminal given her code, waiting for the desk's start: (the database, the
    event's id, her code, the terminal)."""
    db = tmp_path / "friday.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2)
    code = codes_of(db, event_id)["Ann"]
    ann = spawn(["event", "draft", str(event_id), "--player", "Ann", "--db", str(db)], tmp_path, timeout=60)
    ann.expect("Seat code for Ann")
    ann.sendline(code)
    ann.expect("waiting for the desk to start the draft")
    return db, event_id, code, ann


def test_a_waiting_terminal_picks_once_the_desk_starts_the_draft(tmp_path, cli):
    db, event_id, _, ann = ann_waiting(cli, tmp_path)
    assert Night(Store(db)).snapshot(event_id).event.status == "seated"
    assert cli("event", "draft", event_id, "--db", db, "--json").exit_code == 0  # the desk starts it
    ann.expect(PICK)  # bound by the code given while waiting: not asked again
    assert "Seat code" not in ann.before
    ann.sendline("quit")
    ann.expect(pexpect.EOF)


@pytest.mark.parametrize("meanwhile", ["phone", "new code"])
def test_a_code_given_while_waiting_holds_the_seat_only_if_nobody_took_it_up_since(tmp_path, cli, meanwhile):
    """The last to take a seat up holds it: a phone that joined with the code after this terminal gave it (or the
    desk's new code) wins, and the terminal is told so in the core's words and asked for the code when the draft
    starts.  Before: the waiting terminal claimed the seat at the start all the same, over the phone."""
    from events.night import browser_seats
    from events.night.seat_codes import reset_code

    db, event_id, code, ann = ann_waiting(cli, tmp_path)
    night = Night(Store(db))
    if meanwhile == "phone":
        browser_seats.bind(night.phases[0], event_id, night.player_id(event_id, "Ann"))
        told = "Your seat was opened on another device or terminal: give your seat code again to take it back"
    else:
        code = reset_code(night, event_id, "Ann")[1]
        told = "The desk gave your seat a new code: ask the desk for it, then give it again."
    assert cli("event", "draft", event_id, "--db", db, "--json").exit_code == 0  # the desk starts it
    ann.expect_exact(told)
    ann.expect("Seat code for Ann")
    ann.sendline(code)
    ann.expect(PICK)  # the code given again: the seat is this terminal's once more
    ann.sendline("quit")
    ann.expect(pexpect.EOF)


def test_the_core_refuses_every_desk_step_to_a_seats_holder(tmp_path, cli):
    from events.night.seat_codes import reset_code
    from events.night.table_reports import TableReports

    db = tmp_path / "friday.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2)
    events = Night(Store(db))
    ann = Actor.seat(events.player_id(event_id, "Ann"), "browser", "Ann")
    steps = {
        "seat the players": lambda: events.seat(event_id, again=True, actor=ann),
        "pair a round": lambda: events.new_round(event_id, actor=ann),
        "record a result for a table": lambda: events.record_result(event_id, 1, 1, "Ann > Bo", actor=ann),
        "settle a table's result": lambda: TableReports(events.store).settle(event_id, 1, 1, "Ann > Bo", actor=ann),
        "make a new seat code": lambda: reset_code(events, event_id, "Bo", actor=ann),
        "close deck registration": lambda: events.close_decks(event_id, actor=ann),
    }
    before = events.history(event_id)
    for doing, step in steps.items():
        with pytest.raises(NotAllowed, match=f"only the desk can {doing}: ask the organizer"):
            step()
    assert events.history(event_id) == before  # nothing changed
