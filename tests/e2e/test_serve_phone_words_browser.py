"""What the player's phone says about its own seat, in a real browser (Debian's chromium through Playwright, at
390x844): a seat opened on another device, the draft's status lines (a pack finished, a seat a bot picks for),
and a pack whose last cards are the whole pick.  Screenshots go to the test's folder ($CMDRAFT_SCREENSHOTS to
keep them)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.helpers.browsers import PHONE, player_numbers
from tests.helpers.nights import codes_of
from tests.helpers.pages import join

# The shown elements reaching past the viewport's right edge (nothing on a phone page may need a sideways scroll).
OVERFLOWING = """() => [...document.querySelectorAll('body *')]
  .filter(n => n.offsetParent !== null && n.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .map(n => n.tagName.toLowerCase() + (n.id ? '#' + n.id : ''))"""


def phone_page(browser) -> Page:
    return browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()


def test_a_seat_opened_on_another_device_says_so_with_the_form_filled_in(pod, server, browser, shots):
    db, event_id = pod
    codes, numbers = codes_of(db, event_id), player_numbers(db, event_id)
    first = phone_page(browser)
    join(first, server.url, codes["Ann"], event_id=event_id, name="Ann")  # typed by hand: no numbers in the address
    second = phone_page(browser)
    join(second, server.url, codes["Ann"], event_id=event_id, number=numbers["Ann"])
    notice = first.locator("#join-notice")
    expect(notice).to_have_text(
        "Your seat was opened on another device: type your code to take it back, or ask the desk"
    )  # the server's words, on the page left open
    expect(first.locator("#screen-join")).to_be_visible()
    expect(first.locator("#join-event")).to_have_value(str(event_id))
    expect(first.locator("#join-player")).to_have_value(str(numbers["Ann"]))
    assert first.evaluate(OVERFLOWING) == []
    first.screenshot(path=str(shots / "phone-seat-moved-390x844.png"))
    first.reload()  # the tab still knows its seat
    expect(notice).to_contain_text("opened on another device")
    expect(first.locator("#join-player")).to_have_value(str(numbers["Ann"]))
    first.fill("#join-code", codes["Ann"])  # taken back
    first.click("#join-button")
    expect(first.locator("#screen-draft")).to_be_visible()
    expect(second.locator("#join-notice")).to_contain_text("opened on another device")
