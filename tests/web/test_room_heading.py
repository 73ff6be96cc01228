"""The room's heading beside the event's name is the core's (``table_shown.room_heading``): the round, then the final
table, and once the event is finished that it is over (before: the page wrote "Final table" itself, and kept it
after the event was finished)."""

from __future__ import annotations

from events.night.room_shown import EVENT_OVER, room_heading
from events.storage.store import Store
from tests.helpers.night import Night
from tests.helpers.served import client, drafted_night

DESK = {"authorization": "Bearer desk-secret"}
SIX = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


def test_the_rooms_heading_says_the_round_the_final_table_and_then_that_the_event_is_over(tmp_path, cli, manual_clock):
    db = tmp_path / "heading.json"
    event_id = drafted_night(cli, db, SIX)
    night = Night(Store(db))
    with client(db, event_id, manual_clock, watch=False) as web:
        assert web.get("/api/room").json()["heading"] == "6 players"
        for table, players in enumerate(night.new_round(event_id).tables, start=1):
            night.record_result(event_id, 1, table, " > ".join(f'"{name}"' for name in players))
        assert web.get("/api/room").json()["heading"] == "Round 1"
        final = web.post("/api/desk/top", json={"size": 4}, headers=DESK).json()
        assert web.get("/api/room").json()["heading"] == "Final table"
        night.record_result(event_id, final["round"], 1, " > ".join(f'"{name}"' for name in final["players"]))
        assert web.post("/api/desk/finish", json={}, headers=DESK).status_code == 200
        room = web.get("/api/room").json()
    assert room["heading"] == EVENT_OVER == "The event is over"
    assert room["standings_title"] == "Final standings" and room["winner"]


def test_a_finished_event_is_over_whatever_its_last_round_was():
    assert room_heading("finished", 6, 3, True) == room_heading("finished", 6, 2, False) == EVENT_OVER
    assert room_heading("playing", 6, 3, True) == "Final table" and room_heading("playing", 6, 2, False) == "Round 2"
    assert room_heading("building", 1, None, False) == "1 player"


def test_the_rooms_drafts_say_each_pods_pack_then_done_and_the_decks_registered_in_the_cores_words(
    tmp_path, cli, manual_clock
):
    """The page wrote "pack 2 of 3", "done" and "Deck building · 6 of 6 decks registered" itself, from the pods'
    status and counts; now the core sends those words and the page lays them out."""
    from tests.helpers.nights import draft_first_pod_by_hint, start, terminal_night

    db = tmp_path / "drafts.json"
    event_id = terminal_night(cli, db, *[f"P{n}" for n in range(1, 10)], bots=0, timer=0)
    start(cli, db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        room = web.get("/api/room").json()
        assert room["drafts_title"] == "Drafting"
        assert [pod["words"] for pod in room["drafts"]] == ["pack 1 of 3", "pack 1 of 3"]
        done = draft_first_pod_by_hint(db, event_id).number
        room = web.get("/api/room").json()
    assert {pod["pod"]: pod["words"] for pod in room["drafts"]} == {done: "done", 3 - done: "pack 1 of 3"}


def test_once_every_draft_is_over_the_rooms_drafts_heading_counts_the_decks_registered(tmp_path, cli, manual_clock):
    db = tmp_path / "building.json"
    event_id = drafted_night(cli, db, SIX)
    with client(db, event_id, manual_clock, watch=False) as web:
        room = web.get("/api/room").json()
    assert room["drafts_title"] == "Deck building · 6 of 6 decks registered"
    assert [pod["words"] for pod in room["drafts"]] == ["done"]


def test_a_player_who_dropped_after_registering_is_counted_by_the_room_as_by_the_desk(tmp_path, cli, manual_clock):
    """The room counted every deck recorded against the players still active: "6 of 5 decks registered" once Bo
    dropped, where the desk said 5 of 5."""
    db = tmp_path / "dropped.json"
    event_id = drafted_night(cli, db, SIX)
    assert cli("event", "player", "drop", event_id, "Bo", "--db", db).exit_code == 0
    with client(db, event_id, manual_clock, watch=False) as web:
        room = web.get("/api/room").json()
        desk = web.get("/api/desk/night", headers=DESK).json()
    assert room["drafts_title"] == "Deck building · 5 of 5 decks registered" and room["decks_registered"] == 5
    assert desk["decks"].startswith("5 of 5 decks registered"), desk["decks"]
