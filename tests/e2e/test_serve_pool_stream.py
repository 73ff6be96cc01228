"""The pool on the player's page in Debian's chromium while its stream sends only the cards each state adds
(issue 41): the pool view holds every card the seat took, in the draft file's order, across a stream that drops
and reconnects and across a state that doesn't follow on from the cards the page holds (it asks for the whole)."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Page, WebSocketRoute, expect

from events.storage.store import Store
from tests.helpers.browsers import PHONE, Served, player_numbers, tap_and_confirm
from tests.helpers.night import Night
from tests.helpers.nights import codes_of, start, terminal_night


def taken_by(db, event_id: int, name: str) -> list[str]:
    """The cards ``name`` took, from the draft's own file, in the order taken."""
    night = Night(Store(db))
    pod = night.snapshot(event_id).pods[0]
    seat = [night.snapshot(event_id).names()[p] for p in pod.players].index(name)
    return [
        card.name
        for pick in night.draft_session(event_id, pod.number).draft.log
        if pick.seat == seat
        for card in pick.taken
    ]


def first_on(page: Page, received: list[dict], stream: int) -> dict:
    """The first message the page got on stream number ``stream``, waiting for it (the page shows itself connected
    when the socket opens, before the server's first state arrives); the route's callbacks run while Playwright
    waits, so the wait is the page's own timer."""
    for _ in range(200):
        found = [m for m in received if m["stream"] == stream]
        if found:
            return found[0]
        page.wait_for_timeout(50)
    raise AssertionError(f"no message on stream {stream} in 10 s")


def test_the_pool_view_stays_right_across_a_reconnect_and_a_state_it_cannot_follow(tmp_path, cli, browser, shots):
    db = tmp_path / "pool.json"
    event_id = terminal_night(cli, db, "Ann", bots=7, timer=300)  # the bots pass Ann a pack at once, every pick
    start(cli, db, event_id)
    served = Served(db, event_id)
    routes: list[WebSocketRoute] = []
    received: list[dict] = []
    asked: list[dict] = []
    gap = {"next": False}

    def route(page_side: WebSocketRoute) -> None:
        server_side = page_side.connect_to_server()
        routes.append(page_side)
        stream = len(routes)

        def to_page(message: str | bytes) -> None:
            data = json.loads(message)
            seat = data.get("seat")
            if gap["next"] and seat and seat["pool_from"]:  # a state after cards the page never got
                gap["next"] = False
                seat["pool_from"] += 2
                seat["pool_size"] += 2
            if data["type"] != "pong":
                received.append(data | {"stream": stream})
            page_side.send(json.dumps(data))

        def to_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "seat":
                asked.append(data)
            server_side.send(message)

        server_side.on_message(to_page)
        page_side.on_message(to_server)

    try:
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
        context.route_web_socket(re.compile(r"/api/stream"), route)
        page = context.new_page()
        page.goto(f"{served.url}/join?event={event_id}&player={player_numbers(db, event_id)['Ann']}")
        page.fill("#join-code", codes_of(db, event_id)["Ann"])
        page.click("#join-button")
        expect(page.locator("#pack .card")).to_have_count(20)
        expect(page.locator("#conn")).to_have_attribute("data-state", "ok")
        for _ in range(3):
            tap_and_confirm(page)
        froms = [m["seat"]["pool_from"] for m in received if m["type"] == "picked"]
        assert froms == [0, 2, 4]  # the first answer the whole pool (none held), then the two cards each took

        routes[-1].close()  # the stream drops: the page reconnects, the new stream's first state whole
        expect(page.locator("#conn")).not_to_have_attribute("data-state", "ok")
        expect(page.locator("#conn")).to_have_attribute("data-state", "ok")
        assert len(routes) == 2
        first = first_on(page, received, stream=2)
        assert first["type"] == "seat" and first["seat"]["pool_from"] == 0 and len(first["seat"]["pool"]) == 6
        tap_and_confirm(page)  # the new stream goes on from the cards it sent

        gap["next"] = True
        tap_and_confirm(page)  # its answer says it follows cards the page never got: the page asks for the whole
        assert len(asked) == 1 and received[-1]["type"] == "seat" and received[-1]["seat"]["pool_from"] == 0
        tap_and_confirm(page)
        assert [m["seat"]["pool_from"] for m in received if m["type"] == "picked"][-1] == 10

        page.click("#pool-toggle")
        expect(page.locator("#pool-view .line")).to_have_count(12)
        shown = page.locator("#pool-view .line .line-name").all_inner_texts()
        assert sorted(shown) == sorted(taken_by(db, event_id, "Ann"))
        page.screenshot(path=str(shots / "pool-after-reconnect.png"))
        context.close()
    finally:
        served.stop()
