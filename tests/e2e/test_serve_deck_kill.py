"""A deck being built on a phone survives ``cmdraft serve`` killed (``kill -9``, as a laptop's process dies) before
the player taps Register: every change the server answered is on disk, and the restarted server shows it.

Before: the build lived only in the server's memory; after the restart the page showed the registered deck."""

from __future__ import annotations

import contextlib
from typing import Any

import httpx

from tests.helpers.nights import codes_of
from tests.helpers.serve_process import serve_process
from tests.helpers.served import drafted_night


def deck_shown(state: dict[str, Any]) -> tuple[Any, ...]:
    main = sorted((line["card"]["name"], line["count"]) for line in state["main"])
    return sorted(c["name"] for c in state["commanders"]), state["pipers"], main, state["size"], state["legal"]


def phone(url: str, event_id: int, code: str) -> httpx.Client:
    web = httpx.Client(base_url=url, timeout=30, headers={"origin": url})
    joined = web.post("/api/join", json={"event": event_id, "player": "Ann", "code": code})
    assert joined.status_code == 200, joined.text
    return web


def test_a_deck_built_on_a_phone_is_the_same_after_the_server_is_killed_and_restarted(tmp_path, cli):
    db = tmp_path / "night.json"
    event_id = drafted_night(cli, db, ["Ann", "Bo", "Cy", "Di"])  # drafted, every deck registered (the bot's)
    code = codes_of(db, event_id)["Ann"]
    with serve_process(db, event_id) as (process, url):
        with contextlib.closing(phone(url, event_id, code)) as ann:
            deck = ann.get("/api/deck").json()
            spell = next(line for line in deck["main"] if "Land" not in line["card"]["type"])
            assert ann.post("/api/deck", json={"action": "remove", "cards": [[spell["card"]["id"], 1]]}).is_success
            answered = ann.post("/api/deck", json={"action": "basics", "color": "U", "count": 3})
            assert answered.status_code == 200, answered.text
        process.kill()  # SIGKILL the moment the change was answered: nothing at exit runs
        process.wait()
    assert answered.json()["registered"] is False
    with serve_process(db, event_id) as (process, url):
        with contextlib.closing(phone(url, event_id, code)) as ann:
            again = ann.get("/api/deck").json()
    assert deck_shown(again) == deck_shown(answered.json()) and again["registered"] is False
