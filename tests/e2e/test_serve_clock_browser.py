"""The pick's countdown on a phone that lost its server, in a real browser (Debian's chromium through Playwright):
while the page is not connected it doesn't know the server's clock (a server started again gives the phones their
whole time again; a phone whose own connection dropped doesn't know what the server did meanwhile), so the countdown
gives way to the page's "reconnecting…" until the server's next state says the time again.  Screenshots at 390x844
in the test's folder (copied to $CMDRAFT_SCREENSHOTS when it is set)."""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from tests.helpers.browsers import PHONE, Served
from tests.helpers.nights import codes_of
from tests.helpers.pages import join

COUNTDOWN = re.compile(r"^[45]:\d\d$")  # the pod's 5 minutes a pick, by the server's time
WRITES_COUNTED = """() => {
  window.timerWrites = 0;
  new MutationObserver((changes) => { window.timerWrites += changes.length; })
    .observe(document.getElementById('timer'), {childList: true, characterData: true, subtree: true});
}"""  # from now on, each change to the timer's text counted


def test_a_phone_that_lost_its_server_shows_no_countdown_until_the_servers_next_state(pod, server, browser, shots):
    db, event_id = pod
    phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True).new_page()
    join(phone, server.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
    timer = phone.locator("#timer")
    expect(timer).to_have_text(COUNTDOWN)
    phone.screenshot(path=shots / "clock-connected-390x844.png")

    server.stop()  # Ctrl-C at the desk, or a crash
    expect(phone.locator("#conn")).to_have_attribute("data-state", "bad")
    expect(timer).to_have_text("reconnecting…")
    expect(timer).to_have_attribute("data-level", "held")
    phone.evaluate(WRITES_COUNTED)
    phone.clock.set_system_time(time.time() + 600)  # meanwhile the old deadline passes by the phone's own time
    phone.wait_for_timeout(1000)  # four of the countdown's ticks
    expect(timer).to_have_text("reconnecting…")  # never "0:00", nor a countdown still ticking
    # the same text is not written again at each tick (each write has the phone lay out and draw the page anew)
    assert phone.evaluate("window.timerWrites") == 0
    phone.screenshot(path=shots / "clock-reconnecting-390x844.png")

    again = Served(db, event_id, port=server.port)
    try:
        expect(phone.locator("#conn")).to_have_attribute("data-state", "ok", timeout=30_000)
        expect(timer).to_have_text(COUNTDOWN)  # the server's next state: its time again, on its own clock
        expect(timer).not_to_have_attribute("data-level", "held")
        phone.screenshot(path=shots / "clock-back-390x844.png")
    finally:
        again.stop()


def test_a_phone_that_reconnects_takes_the_servers_state_though_it_had_seen_a_later_one(pod, server, browser, shots):
    """A restored draft (``event restore --force``) may hold fewer picks than the page last saw: the first state of a
    new stream is the server's now, so the page shows it and counts down again instead of waiting on "reconnecting…"
    for a version that will never come."""
    db, event_id = pod
    phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True).new_page()
    join(phone, server.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
    timer = phone.locator("#timer")
    expect(timer).to_have_text(COUNTDOWN)
    server.stop()
    expect(timer).to_have_text("reconnecting…")
    phone.evaluate("cmdraft.state.version = 1e9")  # the page saw picks the restored draft doesn't have
    again = Served(db, event_id, port=server.port)
    try:
        expect(phone.locator("#conn")).to_have_attribute("data-state", "ok", timeout=30_000)
        expect(timer).to_have_text(COUNTDOWN)
        phone.screenshot(path=shots / "clock-restored-390x844.png")
    finally:
        again.stop()
