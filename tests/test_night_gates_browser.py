"""The phone's deck after registration closed, in a real browser (Debian's chromium, Playwright): the registered deck
read-only, with the core's line saying who can change it (issue 38)."""

from __future__ import annotations

from playwright.sync_api import expect

from events.night.decks import closed_words
from events.storage.store import Store
from tests.night import Night
from tests.test_serve_browser import PHONE, browser, shots  # noqa: F401 (fixtures)
from tests.test_serve_night_browser import desk, night_server  # noqa: F401 (fixtures)
from tests.test_terminal_draft_integrity import codes_of


def test_after_round_one_the_phone_shows_its_deck_read_only_and_who_can_change_it(night_server, browser, shots):  # noqa: F811
    db, event_id, served = night_server
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
    desk(base, "/api/desk/round", {})
    page.reload()
    closed = page.locator("#deck-closed")
    expect(closed).to_be_visible(timeout=15_000)
    expect(closed).to_have_text(closed_words("round 1 has been paired") + ".")
    for control in ("#deck-register", "#deck-auto", "#deck-undo", "#deck-lands"):
        expect(page.locator(control)).to_be_hidden()
    expect(page.locator("#deck-grid button:visible")).to_have_count(0)  # the downloads are links
    page.screenshot(path=str(shots / "phone-deck-closed.png"))
    context.close()
