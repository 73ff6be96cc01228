"""What the player's phone says about its own seat (and a join with nothing typed, in the server's words), in a real browser (Debian's chromium through Playwright, at
390x844): a seat opened on another device, the draft's status lines (a pack finished, a seat a bot picks for),
and a pack whose last cards are the whole pick.  Screenshots go to the test's folder ($CMDRAFT_SCREENSHOTS to
keep them)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from events.night import joining
from events.storage.store import Store
from tests.helpers.browsers import PHONE, Served, player_numbers
from tests.helpers.night import Night
from tests.helpers.nights import codes_of
from tests.helpers.pages import desk, join

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
    first.goto(server.url + "/")
    first.click("#join-button")  # nothing typed: sent as it is, and the server's words shown (before: the page's own)
    expect(first.locator("#join-error")).to_have_text(joining.NO_EVENT)
    expect(first.locator("#join-event")).to_be_focused()  # the field the core's refusal is about (before: the code)
    first.fill("#join-event", str(event_id))
    first.click("#join-button")
    expect(first.locator("#join-error")).to_have_text(joining.NO_PLAYER)
    expect(first.locator("#join-player")).to_be_focused()
    join(first, server.url, codes["Ann"], event_id=event_id, name="Ann")  # typed by hand: no numbers in the address
    second = phone_page(browser)
    join(second, server.url, codes["Ann"], event_id=event_id, number=numbers["Ann"])
    notice = first.locator("#join-notice")
    expect(notice).to_have_text(
        "Your seat was opened on another device or terminal: give your seat code again to take it back, or ask the desk"
    )  # the server's words, on the page left open
    expect(first.locator("#screen-join")).to_be_visible()
    expect(first.locator("#join-event")).to_have_value(str(event_id))
    expect(first.locator("#join-player")).to_have_value(str(numbers["Ann"]))
    assert first.evaluate(OVERFLOWING) == []
    first.screenshot(path=str(shots / "phone-seat-moved-390x844.png"))
    first.reload()  # the tab still knows its seat
    expect(notice).to_contain_text("opened on another device")
    expect(first.locator("#join-player")).to_have_value(str(numbers["Ann"]))
    again = first.context.new_page()  # a new tab (a QR code scanned again, a tab the phone threw away): the same
    again.goto(server.url + "/")
    expect(again.locator("#join-notice")).to_contain_text("opened on another device")
    expect(again.locator("#join-event")).to_have_value(str(event_id))
    expect(again.locator("#join-player")).to_have_value(str(numbers["Ann"]))
    again.close()
    first.fill("#join-code", codes["Ann"])  # taken back
    first.click("#join-button")
    expect(first.locator("#screen-draft")).to_be_visible()
    expect(second.locator("#join-notice")).to_contain_text("opened on another device")


def to_the_last_pick_of_pack_1(db, event_id: int) -> None:
    """Every person's seat picks (its suggested pick, in the core) until the pack in front of it holds the last two
    cards of pack 1: what each takes at the pack's last pick."""
    session = Night(Store(db)).draft_session(event_id, 1)
    while True:
        due = [seat for seat in session.waiting_humans() if len(session.draft.view(seat)[0].cards) > 2]
        if not due:
            return
        for seat in due:
            session.pick(session.suggested_pick(seat))


def test_the_last_pick_of_a_pack_is_chosen_for_the_player_and_the_pack_then_says_it_is_done(pod, browser, shots):
    db, event_id = pod
    to_the_last_pick_of_pack_1(db, event_id)
    served = Served(db, event_id)
    try:
        page = phone_page(browser)
        join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
        expect(page.locator("#pack-pick")).to_have_text("Pack 1/3 · Pick 10/10")
        # a long player name leaves the event's name whole in the header
        page.evaluate("""() => {
            document.getElementById('event-name').textContent = 'Friday CMR';
            document.getElementById('player-name').textContent = 'Maximiliana Featherstonehaugh-Cholmondeley';
        }""")
        assert page.evaluate("(n => n.scrollWidth <= n.clientWidth)(document.getElementById('event-name'))")
        assert page.evaluate(OVERFLOWING) == []
        page.screenshot(path=str(shots / "phone-long-name-390x844.png"))
        cards = page.locator("#pack .card")
        expect(cards).to_have_count(2)
        expect(cards.nth(0)).to_have_attribute("aria-pressed", "true")  # the pack's two cards are the pick
        expect(cards.nth(1)).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#confirm")).to_be_enabled()
        expect(page.locator("#confirm")).to_have_text("Confirm")
        page.screenshot(path=str(shots / "phone-last-pick-390x844.png"))
        page.click("#confirm")
        expect(page.locator("#pool-count")).to_have_text("20")
        expect(page.locator("#pack-pick")).to_have_text("Pack 1/3 done")
        expect(page.locator("#waiting-for")).to_contain_text("to finish pack 1…")
        assert page.evaluate(OVERFLOWING) == []
        page.screenshot(path=str(shots / "phone-pack-done-390x844.png"))
    finally:
        served.stop()


def test_a_seat_the_desk_handed_to_a_bot_says_a_bot_picks_for_it(pod, server, browser, shots):
    db, event_id = pod
    page = phone_page(browser)
    join(page, server.url, codes_of(db, event_id)["Bo"], event_id=event_id, name="Bo")
    desk(server.url, "/api/desk/bot", {"player": player_numbers(db, event_id)["Bo"], "bot": True})
    expect(page.locator("#waiting-for")).to_have_text(  # the core's words, as a refused pick says them
        "A bot picks for your seat now (the desk dropped the player or handed the seat to a bot): ask the desk."
    )
    expect(page.locator("#note")).to_have_text("the desk handed your seat to a bot for now")
    assert page.evaluate(OVERFLOWING) == []
    page.screenshot(path=str(shots / "phone-bot-seat-390x844.png"))


def test_the_desks_page_on_a_phone_needs_no_sideways_scroll(pod, server, browser, shots):
    """Before: at 390 px the seats' table ran past its panel and the screen's edge (the page 850 px wide), so a
    judge holding the desk's page on a phone scrolled sideways to reach the New code and To a bot buttons."""
    db, event_id = pod
    join(phone_page(browser), server.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
    page = phone_page(browser)
    page.goto(f"{server.url}/desk?token=desk-secret")
    expect(page.get_by_role("button", name="To a bot: Ann's seat")).to_be_visible()
    page.screenshot(path=shots / "desk-phone.png", full_page=True)
    assert page.evaluate(OVERFLOWING) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
