"""``cmdraft serve``'s JSON API and stream, in-process (Starlette's TestClient with WebSockets) over real
TinyDB files, on the tests' clock: joining with seat codes, picking from browsers beside a terminal player and
bots, stale and forged picks, reconnects, timeouts, a restarted server, the desk, and hostile requests."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from events.storage.store import Store
from events.web.app import create_app
from tests.night import Night
from tests.test_terminal_draft_integrity import codes_of, start, terminal_night

ORIGIN = {"origin": "http://testserver"}


def served_night(cli, db: Path, humans=("Ann", "Bo", "Cy", "Dee"), bots: int = 4, timer: int = 0) -> int:
    """A terminal event with seat codes, seated and drafting."""
    event_id = terminal_night(cli, db, *humans, bots=bots, timer=timer)
    start(cli, db, event_id)
    return event_id


def client(db: Path, event_id: int, clock, **options) -> TestClient:
    app = create_app(db, event_id, clock=clock.monotonic, wall=clock.now, desk_token="desk-secret", **options)
    return TestClient(app, headers=ORIGIN)


def joined(web: TestClient, event_id: int, name: str, code: str) -> dict:
    answer = web.post("/api/join", json={"event": event_id, "player": name, "code": code})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_player_joins_with_the_seat_code_sees_the_pack_and_picks(tmp_path, cli, manual_clock):
    db = tmp_path / "slice.json"
    event_id = served_night(cli, db)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock) as web:
        seat = joined(web, event_id, "Ann", codes["Ann"])["seat"]
        assert seat["player"]["name"] == "Ann" and seat["phase"] == "drafting"
        draft = seat["draft"]
        assert (draft["pack"], draft["pick"], draft["take"]) == (1, 1, 2) and len(draft["cards"]) == 20
        assert web.get("/api/seat").json() == {**seat, "server_time": manual_clock.now()}
        with web.websocket_connect("/api/stream") as stream:
            assert stream.receive_json()["seat"]["draft"]["cards"] == draft["cards"]
            after = web.post("/api/pick", json={"pack": 1, "pick": 1, "cards": [0, 1]})
            assert after.status_code == 200, after.text
            state = after.json()
            assert [c["name"] for c in state["pool"]] == [c["name"] for c in draft["cards"][:2]]
            assert state["draft"]["cards"] == [] and state["draft"]["waiting_for"] == 3  # Bo, Cy, Dee still pick
            assert stream.receive_json()["seat"]["pool"] == state["pool"]
    taken = Night(Store(db)).draft_session(event_id, 1).draft.pools
    assert any([p.name for p in pool] == [c["name"] for c in draft["cards"][:2]] for pool in taken)


def test_a_wrong_code_is_refused_counted_and_the_seat_locks_after_five(tmp_path, cli, manual_clock):
    db = tmp_path / "codes.json"
    event_id = served_night(cli, db)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock) as web:
        for left in (4, 3, 2, 1):
            answer = web.post("/api/join", json={"event": event_id, "player": "Bo", "code": "WRONG1"})
            assert answer.status_code == 401 and answer.json()["error"]["code"] == "wrong-code"
            assert f"{left} tr" in answer.json()["error"]["message"]
        answer = web.post("/api/join", json={"event": event_id, "player": "Bo", "code": "WRONG1"})
        assert answer.status_code == 423
        answer = web.post("/api/join", json={"event": event_id, "player": "Bo", "code": codes["Bo"]})
        assert answer.status_code == 423  # even the right code: only the desk opens the seat again
        assert sum(manual_clock.slept) == 0  # the server never sleeps on a wrong code
    history = Night(Store(db)).history(event_id)
    assert sum(1 for e in history if e["what"] == "wrong seat code" and e["who"] == "browser Bo") == 5
