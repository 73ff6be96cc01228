"""A phone player who tapped a card and then ran out of time, in a real browser (Debian's chromium through
Playwright): the page told the server its marks as the player tapped (and again on a new stream after its
connection dropped), so the timer takes the card tapped and the strong bot's best for the other.  The server runs on the test's clock (``manual_clock``), moved past the deadline
at once.  Screenshots at 390x844 and 1920x1080 in the test's folder (copied to $CMDRAFT_SCREENSHOTS when set)."""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from tests.helpers.browsers import PHONE, Served
from tests.helpers.nights import codes_of, start, terminal_night
from tests.helpers.pages import join


def told(served, pod: int, seat: int, before: object) -> object:
    """The seat's marks at the server once it has heard a card marked, other than ``before`` (real time: the page's
    message on its way to the server's thread)."""
    until = time.monotonic() + 20
    while (marks := served.tables[pod].marks.get(seat)) is None or marks is before or not marks.cards:
        assert time.monotonic() < until, "the server never heard the page's marks"
        time.sleep(0.05)
    return marks


def test_a_phone_player_who_tapped_one_card_gets_it_when_the_clock_runs_out(
    manual_clock, tmp_path, cli, browser, shots
):
    db = tmp_path / "marks.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2, timer=300)  # on the test's clock: made before it moves
    start(cli, db, event_id)
    server = Served(db, event_id)
    try:
        served = server.app.state.server.served
        for size, name in ((PHONE, "390x844"), ({"width": 1920, "height": 1080}, "1920x1080")):
            page = browser.new_context(viewport=size, device_scale_factor=2, is_mobile=size == PHONE).new_page()
            join(page, server.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
            shown = page.evaluate("cmdraft.state.seat.draft")
            pod, seat = shown["pod"], shown["seat"] - 1
            with served.locked(pod):
                suggested = served.table(pod).suggested_positions(seat)
            tapped = next(i for i in range(len(shown["cards"])) if i not in suggested)
            page.click(f'#pack .card[data-index="{tapped}"]')
            expect(page.locator(f'#pack .card[data-index="{tapped}"]')).to_have_attribute("aria-pressed", "true")
            heard = told(served, pod, seat, None)
            page.evaluate("cmdraft.state.ws.close()")  # the connection drops: a new stream starts with none marked
            told(served, pod, seat, heard)  # until the page, still showing its mark, tells it again
            page.screenshot(path=shots / f"marks-tapped-{name}.png")
            names = [shown["cards"][i]["name"] for i in (tapped, suggested[0])]
            manual_clock.advance(shown["deadline"] - manual_clock.now() + 1)  # Ann's time runs out
            last = page.locator("#last-pick")
            for card in names:
                expect(last).to_contain_text(card)
            expect(last).to_contain_text("your time ran out")
            page.screenshot(path=shots / f"marks-timed-out-{name}.png")
            at = (shown["pack"], shown["pick"])  # the phone's first pick, then the desktop's next one
            made = next(p for p in served.tables[pod].draft.log if p.seat == seat and (p.pack, p.pick) == at)
            assert set(made.positions) == {tapped, suggested[0]}
            page.context.close()
    finally:
        server.stop()


def test_a_reader_is_told_once_when_ten_seconds_are_left_to_pick(manual_clock, tmp_path, cli, browser):
    """The countdown is seen, not heard (a timer region is not read out): the page's live region says once per pick
    that ten seconds are left, and not again while the same pick's time runs on."""
    db = tmp_path / "warn.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2, timer=60)  # on the test's clock: made before it moves
    start(cli, db, event_id)
    server = Served(db, event_id)
    try:
        page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
        page.clock.install()  # the page's own timers, run by the test
        join(page, server.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
        live = page.locator("#announce")
        expect(live).to_contain_text("Your next pack is here")
        page.evaluate(COUNT_WARNINGS)
        deadline = page.evaluate("cmdraft.state.seat.draft.deadline")
        manual_clock.advance(deadline - manual_clock.now() - 20)  # 20 s left: not yet
        page.evaluate("cmdraft.state.ws.close()")  # a new stream: the page hears the server's time again
        page.clock.run_for(5_000)
        expect(page.locator("#timer")).to_have_text(re.compile(r"^0:(1\d|20)$"))
        assert page.evaluate("window.warnings") == 0
        manual_clock.advance(12)  # 8 s left
        page.evaluate("cmdraft.state.ws.close()")
        page.clock.run_for(5_000)
        expect(live).to_have_text(re.compile(r"^\d seconds left to pick$"))
        page.clock.run_for(3_000)  # the same pick's time running on: said once
        assert page.evaluate("window.warnings") == 1
    finally:
        server.stop()


COUNT_WARNINGS = """() => {
  window.warnings = 0;
  new MutationObserver(() => {
    if (/seconds left/.test(document.getElementById('announce').textContent)) window.warnings += 1;
  }).observe(document.getElementById('announce'), { childList: true, characterData: true, subtree: true });
}"""
