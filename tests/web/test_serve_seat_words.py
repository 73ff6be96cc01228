"""What ``cmdraft serve`` tells a phone about its own seat, in-process (Starlette's TestClient): why a seat is
held no more (opened on another device, or a new code from the desk), and that a bot picks for it (while the draft
goes on, not after)."""

from __future__ import annotations

from tests.helpers.nights import codes_of, draft_to_the_end
from tests.helpers.served import client, phone, served_night


def test_a_phone_whose_seat_was_opened_elsewhere_or_given_a_new_code_is_told_which(tmp_path, cli, manual_clock):
    db = tmp_path / "moved.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        first = phone(web, event_id, "Ann", codes["Ann"])
        second = phone(web, event_id, "Ann", codes["Ann"])  # the same code typed on another device
        lost = first.get("/api/seat")
        assert lost.status_code == 401 and lost.json()["error"] == {
            "code": "no-seat",
            "message": "your seat was opened on another device: type your code to take it back, or ask the desk",
        }
        assert second.get("/api/seat").status_code == 200
        player = second.seat()["player"]["number"]
        desk = {"authorization": "Bearer desk-secret"}
        assert web.post("/api/desk/reset-code", json={"player": player}, headers=desk).status_code == 200
        reset = second.get("/api/seat")
        assert reset.status_code == 401 and reset.json()["error"]["message"] == (
            "the desk gave your seat a new code: ask the desk for it, then join again"
        )
        assert web.get("/api/seat").json()["error"]["message"] == "join with your seat code first"  # never joined


def test_the_note_that_a_bot_picks_for_the_seat_ends_with_the_draft(tmp_path, cli, manual_clock):
    db = tmp_path / "handed.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        number = ann.seat()["player"]["number"]
        desk = {"authorization": "Bearer desk-secret"}
        assert web.post("/api/desk/bot", json={"player": number, "bot": True}, headers=desk).status_code == 200
        handed = ann.seat()
        assert handed["draft"]["bot"] and handed["connection_note"] == "the desk handed your seat to a bot for now"
        draft_to_the_end(db, event_id)
        built = ann.seat()
        assert built["phase"] == "building" and built["connection_note"] is None  # the builder: nothing to say
