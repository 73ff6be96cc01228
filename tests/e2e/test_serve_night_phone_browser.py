"""A player's phone through the night, in a real browser (Debian's chromium through Playwright, at 390x844): the
night's standings under their table (the server's ranking, their own row marked), and the result flow's words on
each phone (the reporter's own report, who is still waited for).  Screenshots go to the test's folder
($CMDRAFT_SCREENSHOTS to keep them)."""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from events.storage.store import Store
from tests.helpers.browsers import PHONE, Served
from tests.helpers.night import Night
from tests.helpers.nights import codes_of
from tests.helpers.pages import desk, open_table
from tests.helpers.served import drafted_night

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]

# The shown elements reaching past the viewport's right edge (nothing on a phone page may need a sideways scroll).
OVERFLOWING = """() => [...document.querySelectorAll('body *')]
  .filter(n => n.offsetParent !== null && n.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .map(n => n.tagName.toLowerCase() + (n.id ? '#' + n.id : ''))"""


@pytest.fixture
def night_server(tmp_path, cli):
    db = tmp_path / "night.json"
    event_id = drafted_night(cli, db, NAMES)
    served = Served(db, event_id)
    yield db, event_id, served
    served.stop()


def at_table(browser, served: Served, db, event_id: int, name: str) -> Page:
    page = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True).new_page()
    number = next(p.number for p in Night(Store(db)).players(event_id) if p.name == name)
    open_table(page, served.url, event_id, number, codes_of(db, event_id)[name])
    return page


def public(base: str, path: str) -> dict:
    with urllib.request.urlopen(base + path, timeout=10) as answer:
        return json.loads(answer.read())


def test_a_phone_shows_the_standings_as_the_server_ranks_them_with_its_own_row_marked(
    night_server, browser, cli, shots
):
    db, event_id, served = night_server
    paired = desk(served.url, "/api/desk/round", {})
    first, second = paired["tables"][0], paired["tables"][1]
    me = second[1]  # a player whose own table has no result yet
    page = at_table(browser, served, db, event_id, me)
    expect(page.locator("#night-standings")).to_be_hidden()  # no result yet: nobody is ranked
    order = f"{first[0]} > {first[1]} = {first[2]}"
    assert cli("event", "result", event_id, 1, 1, order, "--db", db).exit_code == 0
    rows = page.locator("#night-standings li")
    ranked = public(served.url, "/api/standings")["standings"]
    expect(rows).to_have_count(len(NAMES), timeout=20_000)  # the push after the result, or the next poll
    expect(rows.locator(".name")).to_have_text([r["name"] + (" (you)" if r["name"] == me else "") for r in ranked])
    mine = page.locator("#night-standings li.me")
    expect(mine).to_have_count(1)
    expect(mine.locator(".name")).to_have_text(f"{me} (you)")
    expect(mine).to_have_attribute("aria-current", "true")
    expect(page.locator("#night-standings h3")).to_have_text("Standings")
    assert page.evaluate(OVERFLOWING) == []
    page.locator("#night-standings").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "night-standings-390x844.png"))
