"""``cmdraft serve``'s guards, in-process over real database files: wrong codes and the seat's lockout, names as
JSON text, cross-origin requests refused, oversized, malformed and unknown requests answered 4xx with nothing
changed, and the per-client rate limits."""

from __future__ import annotations

import random

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from events.storage.store import Store
from tests.helpers.night import Night
from tests.helpers.nights import codes_of
from tests.helpers.served import client, draft_log, joined, phone, served_night


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
        rows = {
            r["name"]: r for r in web.get("/api/desk", headers={"authorization": "Bearer desk-secret"}).json()["seats"]
        }
        assert rows["Bo"]["wrong_codes"] == 5 and rows["Bo"]["locked"] and not rows["Ann"]["locked"]
    typed = [e["who"] for e in Night(Store(db)).history(event_id) if e["what"] in ("wrong seat code", "seat locked")]
    assert typed and set(typed) == {"browser Bo"}  # the history says where the codes were typed


def test_a_name_with_markup_comes_back_as_json_text(tmp_path, cli, manual_clock):
    db = tmp_path / "names.json"
    name = "<script>alert(1)</script>"
    event_id = served_night(cli, db, humans=(name, "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        answer = web.post("/api/join", json={"event": event_id, "player": name, "code": codes[name]})
        assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
        assert answer.json()["seat"]["player"]["name"] == name
        assert "script-src 'self'" in answer.headers["content-security-policy"]
        page = web.get("/")
        assert page.status_code == 200 and name not in page.text
        assert answer.headers["x-content-type-options"] == "nosniff"


def test_a_page_post_from_another_origin_is_refused_and_changes_nothing(tmp_path, cli, manual_clock):
    db = tmp_path / "csrf.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        joined(web, event_id, "Ann", codes["Ann"])  # the cookie is set
        set_cookie = web.post("/api/join", json={"event": event_id, "player": "Ann", "code": codes["Ann"]}).headers
        assert "httponly" in set_cookie["set-cookie"].lower() and "samesite=strict" in set_cookie["set-cookie"].lower()
        before = draft_log(db, event_id)
        pick = {"pack": 1, "pick": 1, "cards": [0, 1]}
        for headers in ({"origin": "http://evil.example"}, {"origin": "null"}, {"referer": "http://evil.example/x"}):
            answer = TestClient(web.app, cookies=web.cookies).post("/api/pick", json=pick, headers=headers)
            assert answer.status_code == 403 and answer.json()["error"]["code"] == "cross-origin"
        bare = TestClient(web.app, cookies=web.cookies).post("/api/pick", json=pick)  # neither Origin nor Referer
        assert bare.status_code == 403
        with pytest.raises(WebSocketDisconnect):
            with TestClient(web.app, cookies=web.cookies, headers={"origin": "http://evil.example"}).websocket_connect(
                "/api/stream"
            ) as stream:
                stream.receive_json()
        assert draft_log(db, event_id) == before
        assert web.post("/api/pick", json=pick).status_code == 200  # the page itself, same origin


def test_oversized_bad_and_unknown_requests_get_a_4xx_and_change_nothing(tmp_path, cli, manual_clock):
    db = tmp_path / "hostile.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        before = (draft_log(db, event_id), Night(Store(db)).history(event_id))
        cases = [
            ("/api/pick", {"pack": 1, "pick": 1, "cards": [0, 1], "pad": "x" * 20_000}, 413),
            ("/api/pick", {"pack": 1, "pick": 1, "cards": [0, 1], "extra": 1}, 400),
            ("/api/pick", {"pack": "1", "pick": 1, "cards": [0, 1]}, 400),
            ("/api/pick", {"pack": 1, "pick": 1}, 400),
            ("/api/pick", [1, 2], 400),
            ("/api/pick", {"pack": 10**30, "pick": 1, "cards": [0, 1]}, 400),
            ("/api/deck", {"action": "add", "cards": [[0, 1]]}, 409),
            ("/api/join", {"event": event_id, "player": ["Ann"], "code": "X"}, 400),
            ("/api/join", {"event": event_id, "player": "Nobody", "code": "X"}, 404),
            ("/api/join", {"event": event_id + 7, "player": "Ann", "code": "X"}, 404),
            ("/api/join", {"event": event_id, "player": "Ann", "code": "X" * 100}, 400),
            ("/api/desk/bot", {"player": 1, "bot": True}, 401),
        ]
        for path, body, status in cases:
            answer = ann.post(path, body)
            assert answer.status_code == status, (path, body, answer.text)
            error = answer.json()["error"]
            assert error["code"] and "\n" not in error["message"] and "Traceback" not in answer.text
        for raw in (b"{", b"\xff\xfe", b"[" * 5000 + b"]" * 5000, b'{"pack": NaN}', b"null", b'"text"'):
            answer = ann.web.post("/api/pick", content=raw, headers=ann.auth)
            assert 400 <= answer.status_code < 500, (raw[:20], answer.text)
        rng = random.Random(31)
        alphabet = [b"{", b"}", b"[", b"]", b'"', b":", b",", b"1", b"-", b"e", b"pack", b"cards", b"\x00", b"\xc3"]
        for _ in range(200):
            raw = b"".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
            path = rng.choice(["/api/pick", "/api/join", "/api/deck", "/api/deck/register", "/api/desk/reset-code"])
            answer = ann.web.post(path, content=raw, headers=ann.auth)
            assert 400 <= answer.status_code < 500, (path, raw, answer.text)
        assert web.get("/api/seat", headers={"authorization": "Bearer forged"}).status_code == 401
        assert web.get("/api/nothing").status_code == 404 and web.get("/api/nothing").json()["error"]
        assert (draft_log(db, event_id), Night(Store(db)).history(event_id)) == before


def test_requests_and_wrong_codes_are_rate_limited_per_client(tmp_path, cli, manual_clock):
    db = tmp_path / "limits.json"
    event_id = served_night(cli, db)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        answers = [ann.get("/api/seat").status_code for _ in range(61)]
        assert answers[:59].count(200) == 59 and answers[-1] == 429  # bursts of 60 (the join was one)
        manual_clock.advance(1)
        assert ann.get("/api/seat").status_code == 200  # 20 a second come back
        # wrong codes from one address, spread over seats so that no seat locks: ten a minute
        statuses = []
        for n in range(11):
            name = ("Bo", "Cy", "Dee")[n % 3]
            statuses.append(
                web.post("/api/join", json={"event": event_id, "player": name, "code": "NOPE22"}).status_code
            )
            manual_clock.advance(0.1)
        assert statuses[:10] == [401] * 10 and statuses[10] == 429
        assert web.post("/api/join", json={"event": event_id, "player": "Bo", "code": codes["Bo"]}).status_code == 429
        manual_clock.advance(60)
        assert web.post("/api/join", json={"event": event_id, "player": "Bo", "code": codes["Bo"]}).status_code == 200
