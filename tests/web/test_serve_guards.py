"""``cmdraft serve``'s guards, in-process over real database files: wrong codes slowing their address down, names as
JSON text, cross-origin requests refused, oversized, malformed and unknown requests answered 4xx with nothing
changed, and the per-client rate limits."""

from __future__ import annotations

import random
from xml.etree import ElementTree

import pytest
import segno
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from events.storage.store import Store
from events.web import room
from events.web.api_common import ApiError
from events.web.auth import Limits
from events.web.settings import WebSettings
from tests.helpers.night import Night
from tests.helpers.nights import codes_of
from tests.helpers.served import client, draft_log, drafted_night, joined, phone, served_night

MAX_CLIENTS = WebSettings().max_clients
GUESSER = ("10.0.0.66", 40000)


def join_from(web: TestClient, address: str, event_id: int, name: str, code: str):
    """A join posted from another device (its own address) of the same server."""
    device = TestClient(web.app, headers={"origin": "http://testserver"}, client=(address, 40001))
    return device.post("/api/join", json={"event": event_id, "player": name, "code": code})


def test_wrong_codes_slow_down_the_address_that_types_them_and_never_lock_the_seat(tmp_path, cli, manual_clock):
    """Before: five wrong codes locked the seat from everyone (423), the slip holder too."""
    db = tmp_path / "codes.json"
    event_id = served_night(cli, db)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock) as web:
        guesser = TestClient(web.app, headers={"origin": "http://testserver"}, client=GUESSER)
        for _ in range(4):  # three back to back, and the one after which this address waits 2 s
            answer = guesser.post("/api/join", json={"event": event_id, "player": "Bo", "code": "WRONG1"})
            assert answer.status_code == 401 and answer.json()["error"]["code"] == "wrong-code"
            assert "seating slip" in answer.json()["error"]["message"]  # what the player can do
        answer = guesser.post("/api/join", json={"event": event_id, "player": "Bo", "code": codes["Bo"]})
        assert answer.status_code == 429 and answer.json()["error"]["code"] == "limit"
        message = answer.json()["error"]["message"]
        assert answer.json()["retry_after"] == 2 and "the next try is taken in 2 s" in message
        assert "seating slip" in message  # the terminal's words: what the player can do
        # Bo's own phone, at once: the seat takes the right code
        assert join_from(web, "10.0.0.12", event_id, "Bo", codes["Bo"]).status_code == 200
        assert sum(manual_clock.slept) == 0  # the server never sleeps on a wrong code
        rows = {
            r["name"]: r for r in web.get("/api/desk", headers={"authorization": "Bearer desk-secret"}).json()["seats"]
        }
        assert (rows["Bo"]["wrong_codes"], rows["Bo"]["wrong_code_from"]) == (4, "address 10.0.0.66")
        assert rows["Ann"]["wrong_codes"] == 0 and "locked" not in rows["Bo"]
        manual_clock.advance(2)  # the guesser's wait is over: its code is checked again
        assert (
            guesser.post("/api/join", json={"event": event_id, "player": "Bo", "code": codes["Bo"]}).status_code == 200
        )
    typed = [e.who for e in Night(Store(db)).history(event_id) if e.what == "wrong seat codes"]
    assert typed == ["browser Bo"]  # the history says where the codes were typed


def test_one_address_guessing_every_seat_leaves_every_slip_holder_able_to_join_at_once(tmp_path, cli, manual_clock):
    """The store night's finding: one device sent 31 wrong codes over all 8 seats and locked every one."""
    db = tmp_path / "every.json"
    humans = ("Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")
    event_id = served_night(cli, db, humans=humans, bots=0)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        guesser = TestClient(web.app, headers={"origin": "http://testserver"}, client=GUESSER)
        statuses = []
        for n in range(31):
            answer = guesser.post("/api/join", json={"event": event_id, "player": humans[n % 8], "code": "NOPE22"})
            statuses.append(answer.status_code)
            if answer.status_code == 429:
                manual_clock.advance(answer.json()["retry_after"])
        assert statuses.count(401) > 8 and set(statuses) == {401, 429}  # every seat had wrong codes, some twice
        for number, name in enumerate(humans):
            answer = join_from(web, f"10.0.0.{20 + number}", event_id, name, codes[name])
            assert answer.status_code == 200, (name, answer.text)
        assert sum(manual_clock.slept) == 0


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


def test_every_page_links_its_icon_and_the_icon_is_served_from_here(tmp_path, cli, manual_clock):
    """``/favicon.ico`` (where a browser asks first) answers the pages' own small SVG, which every page links: no
    404 in a page's log, and nothing fetched from elsewhere."""
    db = tmp_path / "icon.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    with client(db, event_id, manual_clock, watch=False) as web:
        icon = web.get("/favicon.ico")
        assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"
        root = ElementTree.fromstring(icon.content)
        assert root.tag == "{http://www.w3.org/2000/svg}svg" and len(icon.content) < 2_000
        assert "href" not in icon.text and "url(" not in icon.text  # drawn here, nothing linked
        for path in ("/", "/join", "/room", "/decklists", "/desk?token=desk-secret"):
            page = web.get(path)
            assert page.status_code == 200, path
            assert '<link rel="icon" href="/favicon.ico" type="image/svg+xml">' in page.text, path


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


def test_a_page_of_another_site_cant_type_codes_in_a_phones_name_and_slow_it_down(tmp_path, cli, manual_clock):
    """Before: a join from a page of another site (no cookie: SameSite keeps it back; Origin names that site) was
    taken, so a page the player opened typed wrong codes from the player's own phone, and the phone's right code
    then waited (429): a stranger shut the player out."""
    db = tmp_path / "crosssite.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        victim = ("10.0.0.7", 40002)
        for origin in ("http://evil.example", "null", "http://10.0.0.9:8000"):
            elsewhere = TestClient(web.app, headers={"origin": origin}, client=victim)
            for guess in range(8):
                answer = elsewhere.post("/api/join", json={"event": event_id, "player": "Ann", "code": f"WRONG{guess}"})
                assert answer.status_code == 403 and answer.json()["error"]["code"] == "cross-origin", answer.text
        board = Night(Store(db)).snapshot(event_id)
        assert [p.code_tries for p in board.players if p.name == "Ann"] == [0]  # nothing typed, nothing counted
        own_page = TestClient(web.app, headers={"origin": "http://testserver"}, client=victim)
        assert (
            own_page.post("/api/join", json={"event": event_id, "player": "Ann", "code": codes["Ann"]}).status_code
            == 200
        )
        script = TestClient(web.app, client=("10.0.0.8", 40003))  # a script sends no Origin: it still joins
        assert (
            script.post("/api/join", json={"event": event_id, "player": "Bo", "code": codes["Bo"]}).status_code == 200
        )


def test_a_phone_joining_its_own_seat_over_and_over_is_held_back_and_the_night_does_not_grow(
    tmp_path, cli, manual_clock
):
    """Before: a phone could join its own seat 20 times a second (the address's request limit), each join a write
    of the database, a line of its history and a line of the pod's draft file: measured, 552 history lines and 540
    lines of the draft file in 23 s from one phone, every later write of the night slower for everyone."""
    db = tmp_path / "rejoin.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    burst = int(WebSettings().join_burst)
    with client(db, event_id, manual_clock, watch=False) as web:
        answers = [join_from(web, "10.0.0.5", event_id, "Ann", codes["Ann"]) for _ in range(burst + 10)]
        assert [a.status_code for a in answers] == [200] * burst + [429] * 10
        refused = answers[-1].json()
        assert refused["error"]["code"] == "slow-down" and refused["retry_after"] >= 1
        assert refused["error"]["message"].startswith("too many joins from this address: try again in")
        assert join_from(web, "10.0.0.6", event_id, "Bo", codes["Bo"]).status_code == 200  # another phone: at once
        manual_clock.advance(5)
        assert join_from(web, "10.0.0.5", event_id, "Ann", codes["Ann"]).status_code == 200  # in time, again
    joins = [e for e in Night(Store(db)).history(event_id) if e.what == "browser joined"]
    assert len(joins) == burst + 2


def test_phones_behind_one_router_address_each_join_their_own_seat_at_once(tmp_path, cli, manual_clock):
    """Before: the join limit was the address's alone, so the phones of a room behind one router's address
    (docs/phones.md: raise --max-per-address for them) shared one allowance: past it, a player joining their seat
    for the first time waited (429). A seat joined over and over from that address is still held back."""
    db = tmp_path / "router.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo", "Cy"), bots=1)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False, join_burst=1) as web:
        firsts = [join_from(web, "10.0.0.5", event_id, name, codes[name]) for name in ("Ann", "Bo", "Cy")]
        assert [a.status_code for a in firsts] == [200, 200, 200], [a.text for a in firsts]
        again = join_from(web, "10.0.0.5", event_id, " ann ", codes["Ann"])  # the same seat, however typed
        assert again.status_code == 429 and again.json()["error"]["code"] == "slow-down"


def test_joins_naming_long_made_up_seats_keep_no_long_keys(tmp_path, cli, manual_clock):
    """The join limit is kept per seat named: names far past the longest a player may have (refused) all count as
    one seat, so a phone can't fill the table of limits with keys of a request body's length."""
    db = tmp_path / "long_names.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    with client(db, event_id, manual_clock, watch=False) as web:
        for n in range(5):
            refused = join_from(web, "10.0.0.5", event_id, f"{n}" * 10_000, "WRONG")
            assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad-field"
        keys = list(web.app.state.server.joins.requests)
    assert len(keys) == 1 and len(keys[0]) < 100


def test_the_desks_own_machine_joins_a_seat_as_often_as_it_likes(tmp_path, cli, manual_clock):
    """docs/api.md: joins are held back per seat and address, "this machine's own, the desk's, aside": its loopback
    and the address it serves at (a request from the address its Host names)."""
    db = tmp_path / "desk_joins.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False, join_burst=1) as web:
        assert [join_from(web, "127.0.0.1", event_id, "Ann", codes["Ann"]).status_code for _ in range(3)] == [200] * 3
        own = TestClient(web.app, base_url="http://10.0.0.9:8000", client=("10.0.0.9", 40001))
        own.headers["origin"] = "http://10.0.0.9:8000"
        body = {"event": event_id, "player": "Bo", "code": codes["Bo"]}
        assert [own.post("/api/join", json=body).status_code for _ in range(3)] == [200] * 3


def test_a_seat_registering_over_and_over_is_held_back_whatever_its_token(tmp_path, cli, manual_clock):
    """Before: a seat could register its deck 20 times a second, each a write of the database and a line of its
    history (measured: 50 registrations, 54 history lines and 11 KB), so one player made every write and read of
    the night slower for everyone; a new token (joining again) gave no new allowance."""
    db = tmp_path / "reregister.json"
    event_id = drafted_night(cli, db, ["Ann", "Bo", "Cy", "Di"])
    codes = codes_of(db, event_id)
    burst = int(WebSettings().write_burst)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        answers = [ann.post("/api/deck/register", {}) for _ in range(burst)]
        assert {a.status_code for a in answers} == {200}
        again = phone(web, event_id, "Ann", codes["Ann"])  # a new token for the same seat
        refused = again.post("/api/deck/register", {})
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "slow-down"
        assert refused.json()["error"]["message"].startswith("too many changes from this seat: try again in")
        bo = phone(web, event_id, "Bo", codes["Bo"])
        assert bo.post("/api/deck/register", {}).status_code == 200  # another seat: at once
        manual_clock.advance(1)
        assert again.post("/api/deck/register", {}).status_code == 200
    lines = [e for e in Night(Store(db)).history(event_id) if e.what == "deck" and e.who == "browser Ann"]
    assert len(lines) == burst + 1


def test_the_rooms_qr_code_is_made_once_however_often_anyone_asks(tmp_path, cli, manual_clock, monkeypatch):
    """Before: each ask made the code again, milliseconds of the event loop that answers everyone, on a route
    anyone may ask without a limit: one phone asking over and over held up every other phone's answers."""
    db = tmp_path / "qr.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    made = []
    make = segno.make
    monkeypatch.setattr(segno, "make", lambda *args, **options: made.append(args) or make(*args, **options))
    room.qr_image.cache_clear()
    with client(db, event_id, manual_clock, watch=False) as web:
        answers = [web.get("/api/room/qr.svg") for _ in range(50)]
    assert {a.status_code for a in answers} == {200} and len({a.content for a in answers}) == 1
    assert made == [(f"http://testserver/join?event={event_id}",)]


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


def test_requests_are_rate_limited_per_seat_token(tmp_path, cli, manual_clock):
    db = tmp_path / "limits.json"
    event_id = served_night(cli, db)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        answers = [ann.get("/api/seat").status_code for _ in range(61)]
        assert answers[:60] == [200] * 60 and answers[60] == 429  # bursts of 60
        manual_clock.advance(1)
        assert ann.get("/api/seat").status_code == 200  # 20 a second come back


def test_forged_tokens_count_against_the_address_that_sends_them(tmp_path, cli, manual_clock):
    """Before: every forged token got a bucket of its own, so a client inventing tokens was never limited."""
    db = tmp_path / "forged.json"
    event_id = served_night(cli, db)
    with client(db, event_id, manual_clock, watch=False) as web:
        forger = TestClient(web.app, client=GUESSER)
        answers = [
            forger.get("/api/seat", headers={"authorization": f"Bearer forged-{n}"}).status_code for n in range(61)
        ]
        assert answers[:60] == [401] * 60 and answers[60] == 429
        assert forger.get("/api/seat").status_code == 429  # no token at all: the same address's limit
        other = TestClient(web.app, client=("10.0.0.12", 40000))  # another device is not held back
        assert other.get("/api/seat", headers={"authorization": "Bearer forged-x"}).status_code == 401


def test_the_limits_are_never_cleared_wholesale(manual_clock):
    """Before: past 10,000 clients the whole table of limits was cleared, a limited client's too."""
    limits = Limits(manual_clock.monotonic)
    for _ in range(60):
        limits.request("address 10.0.0.66")
    with pytest.raises(ApiError):
        limits.request("address 10.0.0.66")
    for n in range(MAX_CLIENTS + 5_000):  # a flood of new clients, each asking once
        limits.request(f"address 172.16.{n // 256}.{n % 256}")
    assert len(limits.requests) <= MAX_CLIENTS
    with pytest.raises(ApiError) as refused:
        limits.request("address 10.0.0.66")  # still held back
    assert refused.value.status == 429
    manual_clock.advance(1)
    limits.request("address 10.0.0.66")  # and back at 20 a second


def test_joining_sets_a_mark_the_page_can_read_that_it_holds_a_seat_never_the_token(tmp_path, cli, manual_clock):
    """A page that never joined asks nothing of a seat (no 401 in a fresh phone's log): it reads whether it holds
    a seat from a cookie script may read, set beside the token's HttpOnly one for as long, holding no secret."""
    db = tmp_path / "mark.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        answer = web.post("/api/join", json={"event": event_id, "player": "Ann", "code": codes["Ann"]})
        cookies = {line.split("=", 1)[0]: line.lower() for line in answer.headers.get_list("set-cookie")}
        assert set(cookies) == {"cmdraft_seat", "cmdraft_holds_seat"}
        assert "httponly" in cookies["cmdraft_seat"] and "httponly" not in cookies["cmdraft_holds_seat"]
        assert cookies["cmdraft_holds_seat"].startswith("cmdraft_holds_seat=1;")
        for line in cookies.values():
            assert "samesite=strict" in line and "path=/" in line and f"max-age={3 * 24 * 3600}" in line


def test_a_token_from_before_the_mark_gets_it_with_the_players_page_and_a_fresh_page_none(tmp_path, cli, manual_clock):
    """A browser that joined before the mark existed brings its token without it: the player's page sets the mark,
    so the page asks for its seat as it did (no second join after an upgrade); a page without a token gets none."""
    db = tmp_path / "mark-late.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        assert "cmdraft_holds_seat" not in web.get("/").headers.get("set-cookie", "")
        web.post("/api/join", json={"event": event_id, "player": "Ann", "code": codes["Ann"]})
        web.cookies.delete("cmdraft_holds_seat")
        page = web.get("/")
        assert page.status_code == 200
        assert (
            page.headers.get_list("set-cookie")
            == [line for line in page.headers.get_list("set-cookie") if line.startswith("cmdraft_holds_seat=1;")]
            != []
        )
        assert "httponly" not in page.headers["set-cookie"].lower()
        assert "cmdraft_holds_seat=1;" not in web.get("/").headers.get("set-cookie", "")  # held now: not set again
