"""The desk's page offers what the core allows for a player with no draft seat (a late player's sealed pool, a
late player every pod was full for): a new code and a drop, as a seat's row does."""

from __future__ import annotations

from starlette.testclient import TestClient

from events.storage.store import Store
from events.web.app import create_app
from events.web.settings import WebSettings
from sets.userdata import db_option
from tests.helpers.night import Night

ORIGIN = {"origin": "http://testserver"}
DESK = {"authorization": "Bearer desk-secret"}


def late_sealed(tmp_path) -> tuple:
    """A terminal night of three, its draft started, then "Late" given a sealed pool (no draft seat):
    (database, night, event)."""
    db = tmp_path / "event.json"
    events = Night(Store(db))
    event_id = events.create("Late", style="terminal", seed=3)
    for name in ("Ann", "Bo", "Cy"):
        events.add_player(event_id, name)
    events.seat(event_id)
    events.start_draft(event_id)
    events.add_player(event_id, "Late", sealed=True)  # the draft has started: a sealed pool, no draft seat
    return db, events, event_id


def test_the_desk_page_lists_a_late_sealed_player_and_drops_them_as_the_terminal_does(tmp_path, manual_clock):
    db, events, event_id = late_sealed(tmp_path)
    settings = WebSettings(watch=False)
    app = create_app(
        db, event_id, settings, clock=manual_clock.monotonic, wall=manual_clock.now, desk_token="desk-secret"
    )
    with TestClient(app, headers=ORIGIN) as desk:
        seats = desk.get("/api/desk", headers=DESK).json()
        assert "Late" not in {row["name"] for row in seats["seats"]}
        (late,) = seats["unseated"]  # the seated players are the seats' rows; the late one is listed apart
        assert late["name"] == "Late" and late["drop"] is True
        listed = {"Late": late}
        dropped = desk.post("/api/desk/drop", json={"player": listed["Late"]["player"]}, headers=DESK)
        assert dropped.status_code == 200, dropped.text
        assert dropped.json()["name"] == "Late"
        after = desk.get("/api/desk", headers=DESK).json()
    assert "Late" not in {row["name"] for row in after["unseated"]}  # dropped: no action left for them here
    assert events.player(event_id, "Late").status == "dropped"


def test_a_late_player_every_pod_was_full_for_is_offered_a_drop_but_no_new_code_and_told_why(tmp_path, manual_clock):
    """A player who came after seating with every pod full holds no seat and no pool: the core refuses them a new
    code (codes are given at seating), so the desk's row offers none (before: "New code", refused when pressed), and
    says why they have no seat; a late sealed player holds a pool, and is offered one."""
    db = tmp_path / "event.json"
    events = Night(Store(db))
    event_id = events.create("Full", style="terminal", seed=3)
    for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"):
        events.add_player(event_id, name)
    events.seat(event_id)  # one full pod of eight
    events.add_player(event_id, "Ivy")  # after seating: no pod has room
    app = create_app(
        db,
        event_id,
        WebSettings(watch=False),
        clock=manual_clock.monotonic,
        wall=manual_clock.now,
        desk_token="desk-secret",
    )
    with TestClient(app, headers=ORIGIN) as desk:
        (ivy,) = desk.get("/api/desk", headers=DESK).json()["unseated"]
        assert ivy["name"] == "Ivy" and ivy["new_code"] is False and ivy["drop"] is True
        assert ivy["why"] == "no seat yet: every pod was full when they joined"
        refused = desk.post("/api/desk/reset-code", json={"player": ivy["player"]}, headers=DESK)
        assert refused.status_code == 409  # what the row no longer offers is what the core refuses
        assert desk.post("/api/desk/drop", json={"player": ivy["player"]}, headers=DESK).status_code == 200
        events.start_draft(event_id)  # (with Ivy unseated it refuses: seat again, or drop them)
        events.add_player(event_id, "Late", sealed=True)
        rows = {row["name"]: row for row in desk.get("/api/desk", headers=DESK).json()["unseated"]}
        assert rows["Late"]["new_code"] is True and rows["Late"]["why"] == "a sealed pool"
        assert (
            desk.post("/api/desk/reset-code", json={"player": rows["Late"]["player"]}, headers=DESK).status_code == 200
        )


def test_a_late_sealed_players_pick_is_refused_saying_they_have_no_draft_seat_in_the_terminals_words(
    tmp_path, manual_clock
):
    """Before: "your pod's draft hasn't started", for a player with no pod whose night's draft was long under way;
    now the core's words, the terminal's (`event draft --player`): no draft seat, and the command that builds."""
    db, events, event_id = late_sealed(tmp_path)
    code = events.player(event_id, "Late").code
    app = create_app(
        db, event_id, WebSettings(watch=False), clock=manual_clock.monotonic, wall=manual_clock.now, desk_token="x"
    )
    with TestClient(app, headers=ORIGIN) as web:
        joined = web.post("/api/join", json={"event": event_id, "player": "Late", "code": code})
        assert joined.status_code == 200, joined.text
        seat = {"authorization": f"Bearer {joined.json()['token']}"}
        refused = web.post("/api/pick", json={"pack": 1, "pick": 1, "cards": [0, 1]}, headers=seat)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "no-draft"
    words = refused.json()["error"]["message"]
    assert (
        "no draft seat to pick at" in words and f"'cmdraft event deck {event_id} Late{db_option(db)} --build'" in words
    )
    assert db_option(db)  # the test's own database, named in the command
