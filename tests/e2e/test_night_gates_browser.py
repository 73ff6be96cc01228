"""The phone's deck after registration closed, in a real browser (Debian's chromium, Playwright): the registered deck
read-only, with the core's line saying who can change it (issue 38)."""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import expect

from events.night.decks import closed_words
from events.storage.store import Store
from tests.helpers.browsers import PHONE, Served
from tests.helpers.night import Night
from tests.helpers.nights import codes_of
from tests.helpers.served import drafted_night


@pytest.fixture
def four_server(tmp_path, cli):
    db = tmp_path / "night.json"
    event_id = drafted_night(cli, db, ["Ann", "Bo", "Cy", "Di"])
    served = Served(db, event_id)
    yield db, event_id, served
    served.stop()


def desk(base: str, path: str, body: dict) -> dict:
    """The desk's script: a POST with the desk's bearer token."""
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"authorization": "Bearer desk-secret", "content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def test_after_round_one_the_phone_shows_its_deck_read_only_and_who_can_change_it(four_server, browser, shots, cli):
    db, event_id, served = four_server
    assert cli("event", "pipers", event_id, "--stock", "0", "--db", db).exit_code == 0  # a word on the stock, below
    base = served.url
    codes = codes_of(db, event_id)
    numbers = {p.name: p.number for p in Night(Store(db)).players(event_id)}
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{base}/join?event={event_id}&seat={numbers['Ann']}")
    page.fill("#join-code", codes["Ann"])
    page.click("#join-button")
    expect(page.locator("#deck-register")).to_be_visible(timeout=15_000)  # open: the builder is live
    expect(page.locator("#deck-closed")).to_be_hidden()
    expect(page.locator("#piper-note")).to_be_visible()  # what the store's stock holds for the deck's Pipers
    desk(base, "/api/desk/round", {})
    page.reload()
    closed = page.locator("#deck-closed")
    expect(closed).to_be_visible(timeout=15_000)
    expect(closed).to_have_text(closed_words("round 1 has been paired") + ".")
    for control in ("#deck-register", "#deck-auto", "#deck-undo", "#deck-lands"):
        expect(page.locator(control)).to_be_hidden()
    expect(page.locator("#deck-grid button:visible:not(.line-name)")).to_have_count(0)  # the downloads are links
    expect(page.locator("#deck-grid .piper")).to_be_hidden()  # no Piper to choose: the deck's own are in its lines
    expect(page.locator("#piper-note")).to_be_hidden()  # nor the store's stock of them to weigh
    page.screenshot(path=str(shots / "phone-deck-closed.png"))
    context.close()
