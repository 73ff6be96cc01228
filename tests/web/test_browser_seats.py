"""The core under ``cmdraft serve``: seats bound to browsers (kept hashed, ended by a new code), the desk handing a
seat to a bot and back, and several seats' picks written in one transaction — on real database files."""

from __future__ import annotations

import json

import pytest

from draft.engine import StalePickError
from events.night import browser_seats
from events.night.seat_codes import reset_code
from events.storage.store import Store
from sets.errors import StateError
from tests.helpers.night import Night
from tests.helpers.nights import start, terminal_night


def drafting(cli, db, *humans, bots=2):
    event_id = terminal_night(cli, db, *humans, bots=bots)
    start(cli, db, event_id)
    return event_id, Night(Store(db))


def test_a_browser_token_is_kept_hashed_and_ends_with_a_new_code(tmp_path, cli):
    db = tmp_path / "bound.json"
    event_id, events = drafting(cli, db, "Ann", "Bo")
    ann = events.player(event_id, "Ann")
    token = browser_seats.bind(events, event_id, ann.id)
    assert browser_seats.holder(events, event_id, token) == ann.id
    assert browser_seats.holder(events, event_id, token + "x") is None
    on_disk = db.read_text(encoding="utf-8") + "".join(
        p.read_text(encoding="utf-8") for p in (tmp_path / "bound.json.drafts").glob("*.json")
    )
    assert token not in on_disk  # only its hash is kept, in the database and in the draft's file
    session = events.draft_session(event_id, ann.pod)
    seat = ann.seat
    assert session.bound_exactly(seat, token)  # the live draft's seat is bound to this browser
    second = browser_seats.bind(events, event_id, ann.id)  # joining again elsewhere moves the seat there
    assert browser_seats.holder(events, event_id, token) is None and browser_seats.holder(events, event_id, second)
    reset_code(events, event_id, "Ann")
    assert browser_seats.holder(events, event_id, second) is None
    assert not events.draft_session(event_id, ann.pod).bound(seat, second)
    history = [(e.who, e.what) for e in events.history(event_id)]
    assert history.count(("browser Ann", "browser joined")) == 2


def test_a_browser_claims_a_seat_nobody_holds_but_never_takes_one_over_without_the_code(tmp_path, cli):
    db = tmp_path / "claims.json"
    event_id, events = drafting(cli, db, "Ann", "Bo")
    bo = events.player(event_id, "Bo")
    session = events.draft_session(event_id, bo.pod)
    session.claim(bo.seat, "terminal-token")  # Bo gave his code at a terminal
    browser_seats.claim(events, event_id, bo.id, "browser-token")
    assert events.draft_session(event_id, bo.pod).bound_exactly(bo.seat, "terminal-token")
    browser_seats.claim(events, event_id, bo.id, "browser-token", take_over=True)  # the code given in a browser
    assert events.draft_session(event_id, bo.pod).bound_exactly(bo.seat, "browser-token")


def test_a_seat_taken_up_after_the_check_read_it_free_stays_where_it_was_taken(tmp_path, cli):
    db = tmp_path / "race.json"
    event_id, events = drafting(cli, db, "Ann", "Bo")
    bo = events.player(event_id, "Bo")
    late = events.draft_session(event_id, bo.pod)  # read while nobody holds Bo's seat
    assert late.bound(bo.seat, None)
    events.draft_session(event_id, bo.pod).claim(bo.seat, "terminal-token")  # then Bo's code is given at a terminal
    late.claim(bo.seat, "browser-token", take_over=False)  # the browser's claim of a seat it read as free
    assert events.draft_session(event_id, bo.pod).bound_exactly(bo.seat, "terminal-token")
    late.claim(bo.seat, "browser-token")  # the code given in that browser takes it over
    assert events.draft_session(event_id, bo.pod).bound_exactly(bo.seat, "browser-token")


def test_several_seats_picks_are_written_together_each_checked_alone(tmp_path, cli):
    db = tmp_path / "many.json"
    event_id, events = drafting(cli, db, "Ann", "Bo", "Cy", bots=1)
    session = events.draft_session(event_id, 1)
    seats = session.humans
    stale = session.choose(seats[2], [0, 1])
    session.pick(session.choose(seats[2], [2, 3]))  # a second tab of the third seat got there first
    before = len(session.draft.log)
    outcomes = session.pick_many(
        [(session.choose(seats[0], [0, 1]), None), (stale, None), (session.choose(seats[1], [4, 5]), None)]
    )
    assert isinstance(outcomes[1], StalePickError)
    assert [p.seat for p in outcomes if not isinstance(p, Exception)] == [seats[0], seats[1]]
    again = events.draft_session(event_id, 1)  # what is on disk
    assert len(again.draft.log) > before and [len(again.draft.picks_of(s)) for s in seats] == [1, 1, 1]
    assert again.draft.pick_number == 2  # every seat picked once: the packs passed, the bot picked after them


def test_the_desk_hands_a_seat_to_a_bot_and_back_and_the_bots_picks_stay(tmp_path, cli):
    db = tmp_path / "handed.json"
    event_id, events = drafting(cli, db, "Ann", "Bo")
    ann = events.player(event_id, "Ann")
    bo = events.player(event_id, "Bo")
    assert browser_seats.hand_seat(events, event_id, "Ann", bot=True)
    assert not browser_seats.hand_seat(events, event_id, "Ann", bot=True)  # already a bot's: nothing changes
    session = events.draft_session(event_id, ann.pod)
    assert (ann.seat, bo.seat, session.draft.config.seats) == (0, 1, 4)  # pack 1 passes left: 2 -> 3 -> Ann -> Bo
    # A bot takes a pack as soon as it reaches it: Ann's own pack and the packs of seats 3 and 4 upstream of her,
    # and every pack of the pod now waits at Bo, the one player left.
    assert ann.seat not in session.humans and len(session.draft.picks_of(ann.seat)) == 3
    assert session.draft.queued(ann.seat) == 0 and session.draft.queued(bo.seat) == 4
    session.pick(session.choose(bo.seat, [0, 1]))  # the table goes on without Ann: Bo's pack goes round to her
    assert len(events.draft_session(event_id, ann.pod).draft.picks_of(ann.seat)) == 4
    assert browser_seats.hand_seat(events, event_id, "Ann", bot=False)
    back = events.draft_session(event_id, ann.pod)
    assert ann.seat in back.humans and len(back.draft.picks_of(ann.seat)) == 4  # the bot's picks stay in her pool
    back.pick(back.choose(bo.seat, [0, 1]))
    assert ann.seat in back.waiting_humans()  # from the next pick on, the pack waits for Ann: no bot picks for her
    assert len(back.draft.picks_of(ann.seat)) == 4 and back.draft.queued(ann.seat) == 1
    with pytest.raises(StateError, match="is a bot"):
        browser_seats.hand_seat(events, event_id, "Bot 1", bot=True)
    whats = [e.what for e in events.history(event_id) if e.who == "desk"]
    assert whats.count("seat to a bot") == 1 and whats.count("seat back to the player") == 1
    assert json.loads(db.read_text(encoding="utf-8"))  # the database is whole
