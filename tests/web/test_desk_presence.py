"""What the desk is told of who is there (``GET /api/desk``, in-process over a real database on the tests' clock):
a seat holding packs with nobody there is marked and counted (it holds up its pod, each pack waiting for its pick's
timer in turn), and after a restart a phone the new server has not heard from reads as last seen before the restart,
not as gone since it joined (the last request's time was the old server's, in memory only)."""

from __future__ import annotations

from events.night import presence
from tests.helpers.nights import codes_of
from tests.helpers.served import client, phone, served_night

DESK = {"authorization": "Bearer desk-secret"}


def desk(web) -> dict:
    answer = web.get("/api/desk", headers=DESK)
    assert answer.status_code == 200, answer.text
    return answer.json()


def rows(web) -> dict[str, dict]:
    return {row["name"]: row for row in desk(web)["seats"]}


def test_a_seat_holding_packs_with_nobody_there_is_marked_and_counted_for_the_desk(tmp_path, cli, manual_clock):
    db = tmp_path / "stalled.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo", "Cy"), bots=1, timer=35)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])  # joined, but no page open (no stream)
        seats = rows(web)
        assert all(seats[name]["queued"] >= 1 for name in ("Ann", "Bo", "Cy"))
        # Ann's phone holds a pack with no stream open; Bo and Cy never joined: all three hold up the pod
        held = seats["Ann"]["queued"]
        assert (
            seats["Ann"]["stalled"]
            == f"holding {held} pack{'s' * (held > 1)} with nobody there: To a bot lets the pod go on"
        )
        assert seats["Bo"]["stalled"] and seats["Cy"]["stalled"] and not seats["Bot 1"]["stalled"]
        assert desk(web)["stalled"] == (
            "3 seats holding packs with nobody there (To a bot picks for a seat until its player is back)"
        )
        with web.websocket_connect(f"/api/stream?token={ann.token}") as stream:  # Ann's page is open: she is there
            stream.receive_json()
            assert rows(web)["Ann"]["stalled"] is None and desk(web)["stalled"].startswith("2 seats holding packs")
        for name in ("Bo", "Cy"):
            handed = web.post("/api/desk/bot", json={"player": seats[name]["player"], "bot": True}, headers=DESK)
            assert handed.status_code == 200
        # Bo's and Cy's bots passed their packs on: Ann's phone, gone again, holds every pack of the pod now
        seats = rows(web)
        assert seats["Ann"]["queued"] == 4 and seats["Ann"]["stalled"].startswith("holding 4 packs with nobody")
        assert seats["Bo"]["stalled"] is None and desk(web)["stalled"].startswith("1 seat holding packs with nobody")
        web.post("/api/desk/bot", json={"player": seats["Ann"]["player"], "bot": True}, headers=DESK)
        assert desk(web)["stalled"] is None and not any(row["stalled"] for row in rows(web).values())


def test_a_seat_with_nothing_to_pick_or_a_player_there_holds_nobody_up():
    assert presence.stalls("picking", False, 1) and presence.stalls("picking", False, 8)
    assert not presence.stalls("picking", True, 8)  # a page open, a terminal running: the player is there
    assert not presence.stalls("waiting", False, 0)  # no pack in front of the seat: nothing waits on it
    assert not presence.stalls("bot", False, 3) and not presence.stalls("done", False, 0)
    assert presence.stalled_line(0) is None


def test_after_a_restart_a_phone_not_heard_from_reads_as_last_seen_before_it(tmp_path, cli, manual_clock):
    """Before: the restarted server fell back on the time the phone took its seat up (the stored one): a phone seen
    a minute before a crash read as gone since it joined, twenty minutes before."""
    db = tmp_path / "restart.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        joined = manual_clock.now()
        manual_clock.advance(20 * 60)
        ann.seat()  # Ann's phone asks: the server keeps when, in memory
        asked = manual_clock.now()
        assert (rows(web)["Ann"]["last_seen"], rows(web)["Ann"]["before_restart"]) == (asked, None)
    manual_clock.advance(60)  # the server is killed; a minute later it runs again over the same file
    restarted = manual_clock.now()
    with client(db, event_id, manual_clock, watch=False) as web:
        manual_clock.advance(5)
        ann_row = rows(web)["Ann"]
        # never "last seen" at the join: seen before the restart, some time after it took its seat up
        assert ann_row["before_restart"] == restarted and ann_row["last_seen"] == joined
        ann = phone(web, event_id, "Bo", codes["Bo"])  # a phone joining after the restart: seen since
        assert rows(web)["Bo"]["before_restart"] is None
        manual_clock.advance(5)
        web.get("/api/seat", headers={"authorization": f"Bearer {ann.token}"})
        assert rows(web)["Bo"]["last_seen"] == manual_clock.now()


def test_a_phone_seen_before_the_servers_start_is_said_so_and_never_later_than_it_was():
    assert presence.phone_seen(100.0, None, 500.0) == (100.0, 500.0)  # not heard from since the start at 500
    assert presence.phone_seen(100.0, 600.0, 500.0) == (600.0, None)  # asked this server
    assert presence.phone_seen(700.0, None, 500.0) == (700.0, None)  # took its seat up since the start
