"""Every per-request limit of ``cmdraft serve`` is a figure of ``WebSettings``: a changed figure changes what is
refused, and every figure is read by a check (a setting nothing reads would be a promise the server doesn't keep)."""

from __future__ import annotations

import ast
from dataclasses import fields
from pathlib import Path

from events.web.settings import WebSettings
from tests.helpers.nights import codes_of
from tests.helpers.served import client, joined, phone, served_night

WEB = Path(__file__).resolve().parents[2] / "events" / "web"


def test_a_pick_of_more_cards_than_the_setting_allows_is_refused_and_the_default_takes_it(tmp_path, cli, manual_clock):
    db = tmp_path / "limits.json"
    event_id = served_night(cli, db)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False, max_pick_cards=1) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        refused = ann.post("/api/pick", {"pack": 1, "pick": 1, "cards": [0, 1]})
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad-pick"
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        taken = ann.post("/api/pick", {"pack": 1, "pick": 1, "cards": [0, 1]})
        assert taken.status_code == 200, taken.text


def test_a_code_longer_than_the_setting_allows_is_refused_before_it_is_checked(tmp_path, cli, manual_clock):
    db = tmp_path / "codes.json"
    event_id = served_night(cli, db)
    code = codes_of(db, event_id)["Bo"]
    with client(db, event_id, manual_clock, watch=False, max_code=len(code) - 1) as web:
        refused = web.post("/api/join", json={"event": event_id, "player": "Bo", "code": code})
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad-field"
    with client(db, event_id, manual_clock, watch=False) as web:
        assert joined(web, event_id, "Bo", code)["seat"]["player"]["name"] == "Bo"


def test_a_finishing_order_is_held_to_the_settings_places(tmp_path, cli, manual_clock):
    db = tmp_path / "places.json"
    event_id = served_night(cli, db)
    codes = codes_of(db, event_id)
    order = {"order": [[1], [2], [3]]}
    with client(db, event_id, manual_clock, watch=False, max_places=2) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        refused = ann.post("/api/result", order)
        assert refused.status_code == 400 and "list of places" in refused.json()["error"]["message"]
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        later = ann.post("/api/result", order)  # past the web's check: the core's answer (no round yet)
        assert "list of places" not in later.json().get("error", {}).get("message", "")


def read_names(folder: Path) -> set[str]:
    """Every attribute name read in the modules of ``folder`` (``settings.max_code`` reads ``max_code``)."""
    names: set[str] = set()
    for path in folder.glob("*.py"):
        if path.name == "settings.py":
            continue
        names |= {node.attr for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Attribute)}
    return names


def limits_unread(folder: Path) -> list[str]:
    read = read_names(folder)
    return [f.name for f in fields(WebSettings) if f.name.startswith("max_") and f.name not in read]


def test_every_limit_of_the_settings_is_read_by_a_check():
    assert limits_unread(WEB) == []


def test_a_limit_nothing_reads_is_caught(tmp_path):
    for path in WEB.glob("*.py"):
        text = path.read_text()
        (tmp_path / path.name).write_text(text.replace(".max_pick_cards", ".other_figure"))
    assert limits_unread(tmp_path) == ["max_pick_cards"]
