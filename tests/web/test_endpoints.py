"""The web's routes as declared (``events.web.endpoints``): every route of the app has its audience, the seat's and the
desk's refuse a request without their token before any handler runs, a bad body is the one error shape, and
docs/api.md's table is the one the declarations write."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import msgspec
import pytest
from msgspec import Struct
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.websockets import WebSocketDisconnect

from events.web import answers
from events.web.answers import Card, SeatState
from events.web.app import ENDPOINTS, write_api_page
from events.web.bodies import PickBody, body_shape
from events.web.desk_answers import DeskLink
from events.web.endpoints import (
    NAMED,
    TABLE_END,
    TABLE_START,
    TYPES_END,
    TYPES_START,
    Audience,
    Endpoint,
    api_table,
    page_figures,
    settings_figures,
    types_table,
    with_figures,
    with_table,
)
from events.web.settings import DEFAULT, WebSettings
from tests.helpers.nights import codes_of
from tests.helpers.paths import ROOT
from tests.helpers.served import client, phone, served_night

API_PAGE = ROOT / "docs" / "api.md"


def test_every_route_of_the_app_is_a_declared_endpoint(tmp_path: Path, cli, manual_clock):
    db = tmp_path / "routes.json"
    event_id = served_night(cli, db)
    with client(db, event_id, manual_clock, watch=False) as web:
        routes = web.app.routes
    declared = [(e.path, e.method) for e in ENDPOINTS]
    served = []
    for route in routes:
        if isinstance(route, Route):
            served += [(route.path, method) for method in sorted(route.methods or ()) if method != "HEAD"]
        elif isinstance(route, WebSocketRoute):
            served.append((route.path, "WS"))
        else:
            assert isinstance(route, Mount) and route.path == "/static"
            served.append((route.path, "GET"))
    assert sorted(served) == sorted(declared)
    assert {e.audience for e in ENDPOINTS} == set(Audience)


SEAT_ONLY = [e for e in ENDPOINTS if e.audience is Audience.SEAT and e.method != "WS"]
DESK_ONLY = [e for e in ENDPOINTS if e.audience is Audience.DESK]


def concrete(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "pool", path)


def test_every_seat_and_desk_route_refuses_a_request_without_its_token(tmp_path: Path, cli, manual_clock):
    """The group's check runs before the handler (and before the body is read): 401 with the group's code, for a
    body the handler would take as well as none."""
    db = tmp_path / "guarded.json"
    event_id = served_night(cli, db)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        for endpoint in SEAT_ONLY + DESK_ONLY:
            send = web.get if endpoint.method == "GET" else web.post
            answer = send(concrete(endpoint.path), headers={"authorization": "Bearer forged"})
            code = "no-seat" if endpoint.audience is Audience.SEAT else "not-desk"
            assert answer.status_code == 401 and answer.json()["error"]["code"] == code, endpoint.path
        for endpoint in DESK_ONLY:  # a seat's token is not the desk's
            answer = ann.get(endpoint.path) if endpoint.method == "GET" else ann.post(endpoint.path, {})
            assert answer.status_code == 401 and answer.json()["error"]["code"] == "not-desk", endpoint.path
            # the command that makes a new link, for this server's event (not a placeholder to fill in)
            # and this server's database (the default one would be another night's)
            assert f"'cmdraft serve {event_id} --db {db} --new-desk-link'" in answer.json()["error"]["message"]
        with pytest.raises(WebSocketDisconnect) as closed, web.websocket_connect("/api/stream?token=forged"):
            pass
        assert closed.value.code == 4401


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (b"[1, 2]", 400, "bad-json"),
        (b"{nope", 400, "bad-json"),
        (b'{"pack": 1, "pick": 1}', 400, "missing-field"),
        (b'{"pack": 1, "pick": 1, "cards": [0], "more": 1}', 400, "unknown-field"),
        (b'{"pack": true, "pick": 1, "cards": [0]}', 400, "bad-field"),
        (b'{"pack": 1, "pick": 1, "cards": [0, "a"]}', 400, "bad-field"),
        (b'{"pack": 1, "pick": 1, "cards": [0]}' + b" " * 17_000, 413, "too-large"),
    ],
)
def test_a_bad_body_is_the_one_error_shape_before_the_handler_runs(tmp_path, cli, manual_clock, body, status, code):
    db = tmp_path / "bodies.json"
    event_id = served_night(cli, db)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        answer = web.post("/api/pick", content=body, headers={**ann.auth, "content-type": "application/json"})
        error = answer.json()
        assert answer.status_code == status and set(error) == {"error"} and error["error"]["code"] == code
        assert set(error["error"]) == {"code", "message"} and "\n" not in error["error"]["message"]


def generated_table(page: str) -> str:
    return page.split(TABLE_START, 1)[1].split(TABLE_END, 1)[0].strip() + "\n"


def test_the_api_page_shows_the_table_the_declarations_write():
    page = API_PAGE.read_text(encoding="utf-8")
    assert generated_table(page) == api_table(ENDPOINTS), (
        "docs/api.md's API table drifted from events/web's declarations: write it again with "
        "python -c \"from events.web.app import write_api_page; write_api_page('docs/api.md')\""
    )
    # each documented route is a row, with its body's fields as its type declares them
    assert "| `POST /api/pick` | seat token | `" + body_shape(PickBody) + "` |" in page
    assert body_shape(PickBody) == '{"pack": int, "pick": int, "cards": [int, …]}'


def test_a_planted_drift_between_the_declarations_and_the_api_page_is_seen():
    page = API_PAGE.read_text(encoding="utf-8")
    table = api_table(ENDPOINTS)
    assert generated_table(with_table(page, table)) == table
    pick = next(e for e in ENDPOINTS if e.path == "/api/pick")
    changed = [
        Endpoint(e.method, e.path, e.audience, e.answer, '{"pack": int}', call=e.call) if e is pick else e
        for e in ENDPOINTS
    ]
    assert api_table(changed) != generated_table(page)  # a body's field gone: the page no longer matches
    moved = [
        Endpoint(e.method, e.path, Audience.PUBLIC, e.answer, e.body, call=e.call) if e is pick else e
        for e in ENDPOINTS
    ]
    assert api_table(moved) != generated_table(page)  # the route's audience changed


def test_contributings_command_writes_the_api_page_again(tmp_path: Path):
    """The command CONTRIBUTING.md gives (``write_api_page``) puts back a table that drifted, leaving the prose."""
    page = tmp_path / "api.md"
    text = API_PAGE.read_text(encoding="utf-8")
    page.write_text(text.replace("| `POST /api/pick` | seat token", "| `POST /api/pick` | anyone"), encoding="utf-8")
    assert "write_api_page('docs/api.md')" in (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    write_api_page(page)
    assert page.read_text(encoding="utf-8") == text


def generated_types(page: str) -> str:
    return page.split(TYPES_START, 1)[1].split(TYPES_END, 1)[0].strip() + "\n"


def test_every_json_route_declares_the_type_it_answers():
    """Only the pages, their files, a player's export and the QR code answer something other than a typed JSON body."""
    untyped = sorted(e.path for e in ENDPOINTS if not e.returns)
    assert untyped == [
        "/",
        "/api/export/{kind}",
        "/api/room/qr.svg",
        "/decklists",
        "/desk",
        "/favicon.ico",
        "/images/{code}/{name}",
        "/join",
        "/room",
        "/static",
    ]
    for endpoint in ENDPOINTS:
        assert all(issubclass(kind, Struct) for kind in endpoint.returns), endpoint.path


def test_the_api_page_lists_the_answers_fields_as_their_types_declare_them():
    page = API_PAGE.read_text(encoding="utf-8")
    assert generated_types(page) == types_table(), (
        "docs/api.md's answer types drifted from events/web/answers.py: write the page again with "
        "python -c \"from events.web.app import write_api_page; write_api_page('docs/api.md')\""
    )
    assert "| `GET /api/seat` | seat token |  | `SeatState` |" in page
    assert '| `POST /api/desk/reset-code` | desk token | `{"player": int}` | `{"player", "name", "code"}`: ' in page
    assert '"image?", "artist?"' in page  # a card's image is left out when none was kept


class TrimmedCard(Struct):
    name: str
    cost: str


def test_a_planted_drift_between_the_answer_types_and_the_api_page_is_seen():
    page = API_PAGE.read_text(encoding="utf-8")
    reset = next(e for e in ENDPOINTS if e.path == "/api/desk/reset-code")
    answered = [replace(e, returns=(DeskLink,)) if e is reset else e for e in ENDPOINTS]
    assert api_table(answered) != generated_table(page)  # the route answers another type: its row changes
    trimmed = tuple(TrimmedCard if kind is Card else kind for kind in NAMED)
    assert answers.types_table(trimmed) != generated_types(page)  # a card's fields gone: the list no longer matches


def test_the_api_pages_seat_state_example_is_a_seat_state():
    """The example the page shows reads strictly as the type the server answers (every field, nothing more)."""
    page = API_PAGE.read_text(encoding="utf-8")
    example = page.split("A `SeatState`:", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    state = msgspec.json.decode(example, type=SeatState)
    assert state.draft is not None
    cards = msgspec.json.decode(state.draft.cards, type=list[Card])  # the pack comes encoded: its cards read strictly
    assert cards[0].name == "Ghastly Demise"
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(example.replace('"queued"', '"waiting"'), type=SeatState)  # a field renamed is seen


def test_the_api_pages_limits_are_the_web_settings():
    """The body size, the rate, its bursts and the clients kept that docs/api.md's prose states are WebSettings'."""
    page = API_PAGE.read_text(encoding="utf-8")
    assert page_figures(page) == settings_figures(DEFAULT), (
        "docs/api.md's limits drifted from WebSettings: write the page again with "
        "python -c \"from events.web.app import write_api_page; write_api_page('docs/api.md')\""
    )
    assert set(page_figures(page)) == set(settings_figures())  # every figure the page states is marked
    assert DEFAULT.max_body == 16 * 1024 and "at most <!-- setting: max_body -->16 KiB<" in page


def test_a_planted_drift_between_the_settings_and_the_api_pages_limits_is_seen():
    page = API_PAGE.read_text(encoding="utf-8")
    assert with_figures(page) == page
    tighter = WebSettings(max_body=8 * 1024, rate=5.0, burst=15.0, max_clients=500)
    written = page_figures(with_figures(page, tighter))
    assert written == {
        "max_body": "8 KiB",
        "rate": "5 requests a second",
        "burst": "bursts of 15",
        "max_clients": "500",
        "write_limit": "30 at once, then one every 1 s",
    }
    assert written != page_figures(page)
    with pytest.raises(KeyError, match="no setting: max_speed"):
        with_figures(page.replace("setting: rate -->", "setting: max_speed -->"))
