"""The room display on the store's biggest night (Debian's chromium through Playwright): 27 players seat as four
pods (7 + 7 + 7 + 6), and every name must be seen whole on the TV, at 1920x1080 and at 1280x720, somewhere in the
display's cycle: each pod's seatings before the draft, each pairing and each standing once round 1 is paired and
its clock runs.  A pod or a standing drawn past the screen's edge (a fourth column, a row below the bottom) is a
player who can't find their seat.  Screenshots go to the test's folder ($CMDRAFT_SCREENSHOTS to keep them)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from events.storage.store import Store
from tests.helpers.browsers import Served
from tests.helpers.night import Night
from tests.helpers.nights import draft_to_the_end
from tests.helpers.pages import desk, words_replaced

NAMES = [f"Player {number:02d}" for number in range(1, 27)] + ["Rosalind Featherstonehaugh-Montgomery"]

TV = ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720})

# The names of the shown view's rows whose box lies whole inside the stage (the screen under the title bar).
SEEN = """() => {
  const stage = document.getElementById('stage').getBoundingClientRect();
  const bottom = Math.min(stage.bottom, innerHeight) + 1, right = Math.min(stage.right, innerWidth) + 1;
  const view = [...document.querySelectorAll('.view')].find(v => !v.hidden);
  return [...view.querySelectorAll('.row')].filter(row => {
    const r = row.getBoundingClientRect();
    return r.width > 0 && r.top >= stage.top - 1 && r.left >= stage.left - 1 && r.bottom <= bottom && r.right <= right;
  }).map(row => row.querySelector('.name').textContent);
}"""


def cycle(page: Page, shots, label: str) -> dict[str, set[str]]:
    """Every view of the room's cycle, once: the names seen whole on each view (by its section's id)."""
    seen: dict[str, set[str]] = {}
    expect(page.locator("#pages")).to_have_text(re.compile(r"^1 / \d+$"), timeout=20_000)
    total = int(page.locator("#pages").inner_text().split("/")[1])
    for index in range(total):
        expect(page.locator("#pages")).to_have_text(f"{index + 1} / {total}")
        view = page.locator(".view:not([hidden])").get_attribute("id") or ""
        seen.setdefault(view, set()).update(page.evaluate(SEEN))
        page.screenshot(path=str(shots / f"room-{label}-{index + 1}.png"))
        page.clock.run_for(12_500)  # the page's own 12-second cycle, on the test's word
    return seen


def shown_names(texts: set[str]) -> set[str]:
    """A row's player: the name without a standing's rank ('3rd Ann') or the first player's mark ('Ann ▶')."""
    return {re.sub(r"^\d+(st|nd|rd|th) ", "", text).removesuffix(" ▶") for text in texts}


def big_night(db) -> tuple[Night, int]:
    """27 players of a terminal draft seated as four pods (7 + 7 + 7 + 6)."""
    night = Night(Store(db))
    event_id = night.create("Friday CLB", style="terminal", seed=3, piper_stock=60)
    for name in NAMES:
        night.add_player(event_id, name)
    night.seat(event_id)
    assert sorted(len(pod.players) for pod in night.snapshot(event_id).pods) == [6, 7, 7, 7]
    return night, event_id


def drafted(db, night: Night, event_id: int) -> Night:
    """The big night's draft picked to the end and every deck registered: round 1 may be paired."""
    night.start_draft(event_id)
    night = draft_to_the_end(db, event_id)
    for name in NAMES:
        assert night.register_deck(event_id, name, auto=True).valid
    return night


def test_every_player_of_27_is_seen_whole_on_the_room_display_seatings_pairings_and_standings(tmp_path, browser, shots):
    db = tmp_path / "big.json"
    night, event_id = big_night(db)
    served = Served(db, event_id)
    try:
        for size in TV:
            page = browser.new_context(viewport=size).new_page()
            page.clock.install()
            page.goto(served.url + "/room")
            seen = cycle(page, shots, f"seated-{size['width']}")
            assert shown_names(seen["view-seatings"]) == set(NAMES), size  # pod 4 too, on a page of its own
            page.context.close()
        desk_page = browser.new_context(viewport={"width": 768, "height": 1024}).new_page()
        desk_page.goto(f"{served.url}/desk?token=desk-secret")
        expect(desk_page.get_by_role("button", name=re.compile("^New code for "))).to_have_count(27)
        # before the draft no seat can go to a bot (the server refuses it): no button offers it
        expect(desk_page.get_by_role("button", name=re.compile("^To a bot"))).to_have_count(0)
        desk_page.context.close()

        night = drafted(db, night, event_id)
        first = night.new_round(event_id).tables[0]
        # one result: the room shows standings from the night's first (before it, everyone would read "1.")
        night.record_result(event_id, 1, 1, " > ".join(f'"{name}"' for name in first))
        desk(served.url, "/api/desk/clock", {"minutes": 50})  # the big clock on top: the lists have less room
        for size in TV:
            page = browser.new_context(viewport=size).new_page()
            page.clock.install()
            page.goto(served.url + "/room")
            expect(page.locator("#clock")).not_to_have_attribute("data-state", "none")
            seen = cycle(page, shots, f"round-{size['width']}")
            assert shown_names(seen["view-pairings"]) == set(NAMES), size
            assert shown_names(seen["view-standings"]) == set(NAMES), size  # two lines a standing, every one seen
            page.context.close()
    finally:
        served.stop()


def test_the_desk_on_a_tablet_mid_round_of_27_players_shows_the_tables_on_the_first_screen(tmp_path, browser, shots):
    """Before: the 27 seats of a draft long over came first, four pods of rows, and the round's tables (a disputed
    one among them) began some 2,500 pixels down a 1024x768 tablet.  Now the seats fold into one line once the draft
    is over, and open for a new seat code."""
    db = tmp_path / "big.json"
    night, event_id = big_night(db)
    drafted(db, night, event_id)
    served = Served(db, event_id)
    try:
        desk(served.url, "/api/desk/round", {})
        for size in ({"width": 1024, "height": 768}, {"width": 768, "height": 1024}):
            page = browser.new_context(viewport=size).new_page()
            page.clock.install()  # the page's polls run on the test's word
            page.goto(f"{served.url}/desk?token=desk-secret")
            first = page.locator(".desk-night-table").first
            expect(first).to_be_visible()
            assert first.bounding_box()["y"] < size["height"] - 100, size  # a table on the first screen
            page.screenshot(path=str(shots / f"desk-mid-round-{size['width']}x{size['height']}.png"))
            new_codes = page.get_by_role("button", name=re.compile("^New code for "))
            expect(new_codes.first).to_be_hidden()
            page.get_by_text("Draft seats: 27 in 4 pods").click()
            expect(new_codes).to_have_count(27)
            expect(new_codes.first).to_be_visible()
            with page.expect_response(re.compile(r"/api/desk$")):
                page.clock.run_for(2_500)  # the page's next poll draws the seats again: they stay open
            expect(new_codes.first).to_be_visible()
            page.context.close()
    finally:
        served.stop()


# The shown Drafting view's pods (by their line's first words) whose line and bar lie whole inside the stage.
SEEN_PODS = """() => {
  const stage = document.getElementById('stage').getBoundingClientRect();
  const bottom = Math.min(stage.bottom, innerHeight) + 1, right = Math.min(stage.right, innerWidth) + 1;
  const whole = (n) => { const r = n.getBoundingClientRect();
    return r.width > 0 && r.top >= stage.top - 1 && r.bottom <= bottom && r.right <= right; };
  return [...document.querySelectorAll('#view-drafts:not([hidden]) .draft-line')]
    .filter(line => whole(line) && line.nextElementSibling && whole(line.nextElementSibling))
    .map(line => line.firstChild.textContent);
}"""


def test_every_pod_of_a_twelve_pod_draft_is_seen_whole_on_the_rooms_drafting_pages(tmp_path, browser, shots):
    """Before: the Drafting view was one page, and past about seven pods the rest fell below a 1920x1080 screen;
    now it is paged where the screen ends, as the seatings, pairings and standings are."""
    db = tmp_path / "pods.json"
    night = Night(Store(db))
    event_id = night.create("Twelve pods", style="terminal", seed=5, pod_size=2)
    for number in range(1, 25):
        night.add_player(event_id, f"Player {number:02d}")
    night.seat(event_id)
    night.start_draft(event_id)
    assert len(night.snapshot(event_id).pods) == 12
    served = Served(db, event_id)
    try:
        context = browser.new_context(viewport=TV[0])
        # the answer names the drafts alone (the core's cycle is drafts, join code, seatings): the page cycles the
        # views the answer names (the old page chose its own, by the event's status)
        words_replaced(context, '"views":["drafts","join","seatings"]', '"views":["drafts"]')
        page = context.new_page()
        page.clock.install()
        page.goto(served.url + "/room")
        expect(page.locator("#view-drafts")).to_be_visible(timeout=20_000)  # the drafting night's first view
        expect(page.locator("#pages")).to_have_text(re.compile(r"^1 / \d+$"))
        seen: set[str] = set()
        titles = []
        total = int(page.locator("#pages").inner_text().split("/")[1])
        for index in range(total):
            expect(page.locator("#pages")).to_have_text(f"{index + 1} / {total}")
            seen.update(page.evaluate(SEEN_PODS))
            if page.locator("#view-drafts").is_visible():
                titles.append(page.locator("#view-drafts h2").inner_text())
                page.screenshot(path=str(shots / f"room-drafting-1920-{index + 1}.png"))
            page.clock.run_for(12_500)  # the page's own 12-second cycle
        assert seen == {f"Pod {number}" for number in range(1, 13)}  # the old page: pods 8 to 12 below the screen
        assert titles == [f"Drafting ({page}/{total})" for page in range(1, total + 1)]  # the drafts' pages only
        context.close()  # before the server stops: no answer is left on its way through the route
    finally:
        served.stop()
