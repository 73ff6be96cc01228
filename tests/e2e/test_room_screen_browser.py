"""The room display on a 1920x1080 TV during a round of an eight-player night (Debian's chromium through
Playwright): the pairings and the standings fill the screen's width, in big type (before: one column 60% of the
screen wide in the type of a 45-row list, the rest of the screen dark), and once the event is finished the heading
says it is over (before: "Final table" stayed).  Screenshots go to the test's folder ($CMDRAFT_SCREENSHOTS keeps
them), at 390x844 too."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from events.storage.store import Store
from tests.helpers.browsers import LAPTOP, PHONE, Served
from tests.helpers.night import Night
from tests.helpers.pages import desk
from tests.helpers.served import NIGHT_NAMES, drafted_night

EIGHT = NIGHT_NAMES[:8]

# The shown view's rows: how much of the stage's width they span, and their type's size, in CSS pixels.
MEASURED = """() => {
  const stage = document.getElementById('stage');
  const style = getComputedStyle(stage);
  const area = stage.getBoundingClientRect();
  const inner = area.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const view = [...document.querySelectorAll('.view')].find(v => !v.hidden);
  const rows = [...view.querySelectorAll('.row')].map(r => r.getBoundingClientRect());
  const left = Math.min(...rows.map(r => r.left)), right = Math.max(...rows.map(r => r.right));
  const name = view.querySelector('.row .name');
  return {id: view.id, span: (right - left) / inner, font: parseFloat(getComputedStyle(name).fontSize),
          rows: rows.length, bottom: Math.max(...rows.map(r => r.bottom)), stage: area.bottom};
}"""


def views(page: Page, shots, label: str) -> dict[str, dict]:
    """Each view of the room's cycle, once, measured (by its section's id)."""
    expect(page.locator("#pages")).to_have_text(re.compile(r"^1 / \d+$"), timeout=20_000)
    total = int(page.locator("#pages").inner_text().split("/")[1])
    seen = {}
    for index in range(total):
        expect(page.locator("#pages")).to_have_text(f"{index + 1} / {total}")
        measured = page.evaluate(MEASURED)
        seen[measured["id"]] = measured
        page.screenshot(path=str(shots / f"room-{label}-{index + 1}.png"), full_page=True)
        page.clock.run_for(12_500)  # the page's own 12-second cycle, on the test's word
    return seen


def test_an_eight_player_round_fills_the_tv_and_the_finished_event_says_it_is_over(tmp_path, cli, browser, shots):
    db = tmp_path / "eight.json"
    event_id = drafted_night(cli, db, EIGHT)
    night = Night(Store(db))
    tables = night.new_round(event_id).tables
    night.record_result(event_id, 1, 1, " > ".join(f'"{name}"' for name in tables[0]))
    served = Served(db, event_id)
    try:
        desk(served.url, "/api/desk/clock", {"minutes": 50})
        page = browser.new_context(viewport=LAPTOP).new_page()
        page.clock.install()
        page.goto(served.url + "/room")
        expect(page.locator("#round-name")).to_have_text("Round 1")
        seen = views(page, shots, "eight-round-1920")
        for view in ("view-pairings", "view-standings"):
            measured = seen[view]
            assert measured["rows"] == len(EIGHT), measured  # every player on one page
            assert measured["span"] > 0.9, measured  # the lists span the screen (before: 0.6)
            assert measured["font"] >= 40, measured  # read from across the room (before: 34 px)
            assert measured["bottom"] <= measured["stage"], measured  # and nothing falls below the screen
        narrow = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
        narrow.clock.install()
        narrow.goto(served.url + "/room")
        views(narrow, shots, "eight-round-390")
        narrow.context.close()

        night.record_result(event_id, 1, 2, " > ".join(f'"{name}"' for name in tables[1]))
        final = desk(served.url, "/api/desk/top", {"size": 4})
        night.record_result(event_id, final["round"], 1, " > ".join(f'"{name}"' for name in final["players"]))
        page.clock.run_for(2_500)  # the page's next poll
        expect(page.locator("#round-name")).to_have_text("Final table")
        desk(served.url, "/api/desk/finish", {})
        page.clock.run_for(2_500)
        expect(page.locator("#round-name")).to_have_text("The event is over")  # before: "Final table" stayed
        expect(page.locator("#standings-title")).to_have_text("Final standings")
        page.screenshot(path=str(shots / "room-eight-finished-1920.png"))
        page.context.close()
    finally:
        served.stop()
