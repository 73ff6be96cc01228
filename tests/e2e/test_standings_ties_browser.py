"""Players tied on points, explained wherever the standings are shown (Debian's chromium through Playwright): the
room display (1920x1080) and a phone's standings (390x844) show each row's tie-breakers in the core's words, as the
terminal's standings do.  Screenshots go to the test's folder ($CMDRAFT_SCREENSHOTS to keep them)."""

from __future__ import annotations

from playwright.sync_api import expect

from events.night.shown import standing_row
from events.storage.store import Store
from tests.helpers.browsers import LAPTOP, PHONE
from tests.helpers.night import Night
from tests.helpers.nights import codes_of
from tests.helpers.pages import desk, open_table


def test_the_room_and_a_phone_show_the_tie_breakers_of_players_tied_on_points(night_server, browser, shots, cli):
    db, event_id, served = night_server
    base = served.url
    tables = desk(base, "/api/desk/round", {})["tables"]
    for number, table in enumerate(tables, start=1):  # each table's winner has 3 points: tied on points
        desk(base, "/api/desk/settle", {"round": 1, "table": number, "order": " > ".join(table)})
    night = Night(Store(db))
    rows = [standing_row(row) for row in night.standings(event_id)]
    assert rows[0].points == rows[1].points and rows[0].tie_breakers.startswith("Opp. avg ")
    terminal = " ".join(cli("event", "standings", event_id, "--db", db).stdout.split())
    assert "Opp. avg" in terminal and "Avg place" in terminal

    room = browser.new_context(viewport=LAPTOP).new_page()
    room.goto(base + "/room")
    expect(room.locator("#view-standings")).to_be_visible(timeout=15_000)
    ties = room.locator("#standings .row .ties")
    expect(ties).to_have_text([row.tie_breakers for row in rows])
    # every standing whole, inside the screen: nothing cut off, nothing below its bottom edge
    lines = room.locator("#standings .row")
    assert lines.evaluate_all("rows => rows.filter(r => r.scrollWidth > r.clientWidth).length") == 0
    assert lines.evaluate_all("rows => rows.filter(r => r.getBoundingClientRect().bottom > innerHeight).length") == 0
    height = ties.first.evaluate("n => parseFloat(getComputedStyle(n).fontSize)")
    assert height >= 24  # read from across the room at 1080p
    room.screenshot(path=str(shots / "room-standings-ties-1920x1080.png"))

    codes = codes_of(db, event_id)
    player = night.players(event_id)[0]
    phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True).new_page()
    open_table(phone, base, event_id, player.number, codes[player.name])
    shown = phone.locator("#night-standings .night-ranks li .ties")
    expect(shown).to_have_text([row.tie_breakers for row in rows])
    items = phone.locator("#night-standings .night-ranks li")
    assert items.evaluate_all("rows => rows.filter(r => r.scrollWidth > r.clientWidth).length") == 0
    phone.locator("#night-standings").scroll_into_view_if_needed()
    phone.screenshot(path=str(shots / "phone-standings-ties-390x844.png"))
