"""The desk's page from the keyboard, in a real browser (Debian's chromium through Playwright): the page asks the
server every 2 s (the seats) and 3 s (the night) and draws what it answers, and a desk working with Tab and Enter, or
a choice made in a list, must not lose its place to those answers.  Before: every answer drew the page anew, so the
keyboard's place fell back to the page's start every 2 seconds (the next Tab began again at the first seat), and the
final table's size chosen in its list went back to the first size before "Seat the final table" was pressed."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.helpers.browsers import LAPTOP, player_numbers
from tests.helpers.nights import codes_of
from tests.helpers.pages import desk, script

FOCUSED = "document.activeElement && (document.activeElement.getAttribute('aria-label') || document.activeElement.textContent)"


def tab_to(page: Page, name: str, most: int = 40) -> None:
    """Press Tab until the keyboard is on the control named ``name``."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED) == name:
            return
    raise AssertionError(f"Tab never reached {name!r}")


def answers(page: Page, path: str, count: int) -> None:
    """Wait for the page's next ``count`` answers from ``path`` (its polls) and for the page to draw the last."""
    for _ in range(count):
        with page.expect_response(lambda r: r.url.endswith(path)):
            pass
    page.wait_for_timeout(100)


def test_the_keyboard_keeps_its_place_on_the_seats_through_the_desks_polls_and_a_change(two_drafting, browser):
    db, event_id, served = two_drafting
    codes, numbers = codes_of(db, event_id), player_numbers(db, event_id)
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{served.url}/desk?token=desk-secret")
    bo = page.locator(f'tr[data-player="{numbers["Bo"]}"]')
    expect(bo.get_by_role("button", name="To a bot: Bo's seat")).to_be_visible()
    tab_to(page, "To a bot: Bo's seat")
    answers(page, "/api/desk", 2)  # the seats as they were
    assert page.evaluate(FOCUSED) == "To a bot: Bo's seat"
    script(served.url, "/api/join", {"event": event_id, "player": numbers["Ann"], "code": codes["Ann"]})
    ann = page.locator(f'tr[data-player="{numbers["Ann"]}"]')
    expect(ann.locator("td").nth(2)).to_contain_text("phone")  # Ann joined: the seats are drawn again
    assert page.evaluate(FOCUSED) == "To a bot: Bo's seat"
    assert page.evaluate("document.activeElement.matches(':focus-visible')")  # the keyboard's place is seen
    page.once("dialog", lambda dialog: dialog.accept())
    page.keyboard.press("Enter")
    expect(bo.locator("td").nth(3)).to_have_text("a bot plays it")


def test_the_keyboard_and_the_final_tables_size_keep_their_place_on_the_night_through_the_polls(night_server, browser):
    db, event_id, served = night_server
    tables = desk(served.url, "/api/desk/round", {})["tables"]
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{served.url}/desk?token=desk-secret")
    expect(page.locator("#desk-night h1")).to_have_text("Round 1")
    tab_to(page, "+5 min")
    first = page.evaluate("document.activeElement.closest('[data-table]').dataset.table")
    answers(page, "/api/desk/night", 2)
    assert page.evaluate(FOCUSED) == "+5 min"
    # another table's result comes in: the night is drawn again, the keyboard stays on the same table's button
    other = 2 if first == "1" else 1
    desk(served.url, "/api/desk/settle", {"round": 1, "table": other, "order": " > ".join(tables[other - 1])})
    expect(page.locator(f'.desk-night-table[data-table="{other}"] .desk-night-order')).to_be_visible()
    assert page.evaluate(FOCUSED) == "+5 min"
    assert page.evaluate("document.activeElement.closest('[data-table]').dataset.table") == first
    for table, names in enumerate(tables, start=1):
        if table != other:
            desk(served.url, "/api/desk/settle", {"round": 1, "table": table, "order": " > ".join(names)})
    size = page.locator("#desk-night select")
    expect(size).to_be_visible()
    size.select_option("3")
    answers(page, "/api/desk/night", 2)
    expect(size).to_have_value("3")  # the desk's choice, not the list's first size again
    page.locator("#desk-night button", has_text="Seat the final table").click()
    expect(page.locator("#desk-night h1")).to_have_text("Final table")
    assert len(page.locator(".desk-night-table").first.locator("p").nth(1).inner_text().split(", ")) == 3
