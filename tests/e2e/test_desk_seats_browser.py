"""The desk's seats in a real browser (Debian's chromium through Playwright) during a live draft: a seat holding
packs with nobody there is marked and counted on the first screen (the server decides who is there), "To a bot"
asks first and names the player, as "New code" does (one mis-tap took a player's seat), and after the server is
started again a phone it has not heard from reads as last seen before the restart (the old page said "last seen" at
the time it joined), and the seats' last message ("Bo's seat is played by a bot now") goes once the draft is over
(it stood above the rounds all night).  Screenshots at 1920x1080 and 390x844 go to the test's folder ($CMDRAFT_SCREENSHOTS keeps them)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from events.storage.store import Store
from tests.helpers.browsers import LAPTOP, PHONE, Served, phone_page, player_numbers
from tests.helpers.night import Night
from tests.helpers.nights import codes_of
from tests.helpers.pages import answer_next_question, join


def test_the_desk_sees_seats_holding_packs_with_nobody_there_asks_before_a_bot_and_a_restart(
    two_drafting, browser, shots
):
    db, event_id, served = two_drafting
    codes, numbers = codes_of(db, event_id), player_numbers(db, event_id)
    desk = browser.new_context(viewport=LAPTOP).new_page()
    desk.goto(f"{served.url}/desk?token=desk-secret")
    ann = desk.locator(f'tr[data-player="{numbers["Ann"]}"]')
    bo = desk.locator(f'tr[data-player="{numbers["Bo"]}"]')
    # nobody has joined: both seats hold their first pack, and the pod waits on them
    stalled = desk.locator("#desk-stalled")
    expect(stalled).to_have_text(re.compile(r"^2 seats holding packs with nobody there \(To a bot"))
    expect(ann).to_have_class(re.compile(r"\bstalled\b"))
    expect(bo.locator(".stalled-note")).to_have_text(re.compile(r"^holding \d+ packs? with nobody there: To a bot"))
    desk.screenshot(path=str(shots / "desk-stalled-1920.png"))
    small = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    small.goto(f"{served.url}/desk?token=desk-secret")
    expect(small.locator("#desk-stalled")).to_be_visible()
    expect(small.locator(f'tr[data-player="{numbers["Bo"]}"] .stalled-note')).to_be_visible()
    small.screenshot(path=str(shots / "desk-stalled-390.png"), full_page=True)
    small.context.close()

    phone = phone_page(browser)
    join(phone, served.url, codes["Ann"], event_id=event_id, number=numbers["Ann"])  # Ann's page is open: she's there
    expect(ann.locator("td").nth(2)).to_contain_text("phone · online")
    expect(ann).not_to_have_class(re.compile(r"\bstalled\b"))
    expect(stalled).to_have_text(re.compile(r"^1 seat holding packs with nobody there"))

    # a mis-tap on "To a bot" asks first, naming the player; dismissed, the seat stays Bo's
    asked: list[str] = []

    answer_next_question(desk, asked, accept=False)
    bo.get_by_role("button", name="To a bot: Bo's seat").click()
    expect(bo.get_by_role("button", name="To a bot: Bo's seat")).to_be_visible()
    assert asked == ["Hand Bo's seat to a bot? It picks for Bo until you give the seat back."]
    expect(bo.locator("td").nth(3)).to_have_text("picking")
    desk.once("dialog", lambda dialog: dialog.accept())
    bo.get_by_role("button", name="To a bot: Bo's seat").click()
    expect(bo.locator("td").nth(3)).to_have_text("a bot plays it")
    expect(desk.locator("#desk-message")).to_contain_text("Bo's seat is played by a bot now")

    # Ann's phone goes away; the server is stopped and started again: the new one hasn't heard from her phone
    phone.context.close()
    served.stop()
    again = Served(db, event_id, port=served.port)
    try:
        expect(ann.locator("td").nth(2)).to_have_text(
            re.compile(r"phone · last seen before the restart at \d\d:\d\d"), timeout=20_000
        )
        expect(ann).to_have_class(re.compile(r"\bstalled\b"))  # she holds packs, and nobody is there
        desk.screenshot(path=str(shots / "desk-after-restart-1920.png"))
        # at a laptop's 1920 px a seat's buttons sit on its one row (before: "To a bot" wrapped under the others)
        tops = ann.locator(".actions button").evaluate_all(
            "(bs) => bs.map((b) => Math.round(b.getBoundingClientRect().top))"
        )
        assert len(tops) == 3 and len(set(tops)) == 1, tops
        desk.once("dialog", lambda dialog: dialog.accept())
        ann.get_by_role("button", name="To a bot: Ann's seat").click()  # the bots draft to the end
        expect(desk.locator("#event-status")).to_have_text("building", timeout=20_000)  # the draft is over: its
        # seats' last word is said no more above the night
        expect(desk.locator("#desk-message")).to_have_text("")
    finally:
        desk.context.close()
        again.stop()


def test_the_desk_page_lists_a_late_sealed_player_apart_and_drops_them_after_asking(two_drafting, browser, shots):
    """A player added after the draft started opens a sealed pool and has no draft seat: the desk's page lists them
    in a panel of their own with New code and Drop, as the terminal desk offers (before: only seats had rows, so the
    desk page could do nothing for them)."""
    db, event_id, served = two_drafting
    Night(Store(db)).add_player(event_id, "Late", sealed=True)
    number = player_numbers(db, event_id)["Late"]
    small = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    small.goto(f"{served.url}/desk?token=desk-secret")
    apart = small.locator(".panel", has=small.get_by_role("heading", name="No draft seat"))
    late = apart.locator(f'tr[data-player="{number}"]')
    expect(late).to_contain_text("Late")
    expect(late.locator("td").nth(1)).to_have_text("a sealed pool")  # why: the server's words
    assert small.locator(f'#desk-pods tr[data-player="{number}"]').count() == 1  # in that panel only, no seat's row
    box = late.get_by_role("button", name="Drop Late from the event").bounding_box()
    assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= PHONE["width"]
    small.screenshot(path=str(shots / "desk-sealed-player-390x844.png"), full_page=True)
    small.context.close()

    desk = browser.new_context(viewport=LAPTOP).new_page()
    desk.goto(f"{served.url}/desk?token=desk-secret")
    late = desk.locator(f'tr[data-player="{number}"]')
    expect(late.get_by_role("button", name="New code for Late's seat")).to_be_visible()
    desk.screenshot(path=str(shots / "desk-sealed-player-1920x1080.png"))
    asked: list[str] = []

    answer_next_question(desk, asked, accept=True)
    late.get_by_role("button", name="Drop Late from the event").click()
    expect(desk.locator("#desk-message")).to_have_text("Late dropped")
    assert asked == ["Drop Late from the event? They are paired no more (the desk's undo takes it back)."]
    expect(late).to_have_count(0)  # dropped: nothing left to do for them here
    expect(desk.get_by_role("heading", name="No draft seat")).to_have_count(0)
    assert Night(Store(db)).player(event_id, "Late").status == "dropped"
