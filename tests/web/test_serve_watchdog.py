"""No pod can stall (issue 41): the server's watchdog finds a pack that waits at a seat nobody picks for (a bot seat
whose pick was never made, a player gone past the pick's deadline) and lets the bot or the timer pick, logged."""

from __future__ import annotations

import logging

from events.web.app import create_app
from events.web.live import Watcher
from tests.helpers.served import served_night
from tests.helpers.watching import planted_stuck_pod


def test_the_watchdog_lets_the_bots_pick_a_pack_left_at_a_bot_seat_and_says_so(tmp_path, cli, manual_clock, caplog):
    db = tmp_path / "stuck.json"
    event_id = served_night(cli, db, humans=("Ann",), bots=3)
    served, number = planted_stuck_pod(db, event_id, manual_clock)
    made = len(served.table(number).draft.log)
    with caplog.at_level(logging.WARNING, logger="cmdraft.serve"):
        Watcher(served, hub=None)._tick()  # type: ignore[arg-type]  # no phone is connected: the watchdog pushes to nobody
    session = served.table(number)
    assert len(session.draft.log) > made
    assert session.draft.waiting() == session.humans  # only the player is to pick now
    assert any("the table waited on bot seats" in record.getMessage() for record in caplog.records)


def test_the_watchdog_lets_the_timer_pick_for_a_player_gone_past_the_deadline(tmp_path, cli, manual_clock, caplog):
    db = tmp_path / "gone.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2, timer=60)
    served = create_app(db, event_id, clock=manual_clock.monotonic, wall=manual_clock.now).state.server.served
    number = served.live_pods()[0]
    session = served.table(number)
    deadline = session.deadline()
    assert deadline is not None
    watcher = Watcher(served, hub=None)  # type: ignore[arg-type]  # no phone is connected: the watchdog pushes to nobody
    picks = len(session.draft.log)
    watcher._tick()
    assert len(served.table(number).draft.log) == picks  # not due yet
    manual_clock.advance(deadline - manual_clock.now() + 0.5)
    with caplog.at_level(logging.INFO, logger="cmdraft.serve"):
        watcher._tick()
    session = served.table(number)
    timed = [p for p in session.draft.log[picks:] if p.seat in session.humans]
    assert timed and all(session.taken_by(p) == "timer" for p in timed)
    assert any("the timer picked for seat" in record.getMessage() for record in caplog.records)


def test_after_the_clock_is_set_back_the_watcher_stamps_the_deadlines_anew_and_the_timer_picks_in_time(
    tmp_path, cli, manual_clock
):
    """The machine's clock set back an hour mid-pick (a wrong time corrected) while nobody writes to the pod: the
    watcher's own look stamps each player's deadline anew, at most a whole pick's time away, as a terminal's look
    does, and the timer picks once that is up (before: the phones' packs stayed an hour and a minute)."""
    db = tmp_path / "back.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2, timer=60)
    served = create_app(db, event_id, clock=manual_clock.monotonic, wall=manual_clock.now).state.server.served
    number = served.live_pods()[0]
    watcher = Watcher(served, hub=None)  # type: ignore[arg-type]  # no phone is connected: the watchdog pushes to nobody
    manual_clock.advance(10)
    manual_clock.wall -= 3600
    due = watcher._due()
    assert due is not None and number in due  # the look finds the deadlines the clock left an hour away
    watcher._tick(due)
    session = served.table(number)
    deadline = session.deadline()
    assert deadline is not None and deadline <= manual_clock.now() + 60 + 1
    picks = len(session.draft.log)
    manual_clock.advance(61)
    watcher._tick(watcher._due())
    session = served.table(number)
    assert any(p.seat in session.humans and session.taken_by(p) == "timer" for p in session.draft.log[picks:])
