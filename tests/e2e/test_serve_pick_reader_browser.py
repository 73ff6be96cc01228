"""A player who drafts on a phone with a screen reader, at 390 x 844 in a real browser: where the pack stands is
a heading read in words ("Pack 1 of 3, pick 2 of 10": "1/3" is read "one third", or a date, "2/10"), and a pick
confirmed leaves the reader's place on that heading, never at the top of the page.  Before, the Confirm button
that had the focus went away with the pack and the focus fell to the page's body: the reader started again from
the header, past the event's name and the connection, to find the next pack."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.helpers.browsers import phone_page
from tests.helpers.nights import codes_of
from tests.helpers.pages import join

FOCUSED = "() => document.activeElement ? document.activeElement.id || document.activeElement.tagName : ''"


def test_the_pack_heading_is_words_and_takes_the_focus_after_a_pick(two_drafting, browser, shots):
    db, event_id, served = two_drafting
    page = phone_page(browser)
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
    heading = page.locator("#pack-pick")
    expect(heading).to_have_text("Pack 1/3 · Pick 1/10")  # as seen
    expect(heading).to_have_accessible_name("Pack 1 of 3, pick 1 of 10")  # as heard
    cards = page.locator("#pack .card")
    cards.first.focus()
    page.keyboard.press("Enter")
    cards.last.focus()
    page.keyboard.press("Enter")
    page.locator("#confirm").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#pool-count")).to_have_text("2")
    expect(heading).to_have_accessible_name("Pack 1 of 3, pick 2 of 10")
    page.wait_for_function(f"() => ({FOCUSED})() === 'pack-pick'", timeout=5000)
    page.screenshot(path=shots / "pick-focus-after-pick.png")
    page.locator('#pool-panel .tab[data-view="curve"]').click()  # the pool's curve says its bars in words too
    expect(page.locator("#pool-view .bar")).to_have_count(8)
    assert "mana value 7 or more: " in page.locator("#pool-view .curve").aria_snapshot()


def test_the_deck_curve_is_read_as_counts_of_mana_values_and_its_last_bar_is_7_or_more(building, browser, shots):
    """The builder's curve was read as bare numbers, each bar's count then its mana value ("0 1 1 5 2 10 3 8 ..."),
    and its last bar, every spell of 7 or more, was labelled "7" (the terminal's curve says "7+")."""
    db, event_id, served = building
    page = phone_page(browser)
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann", screen="#screen-deck")
    page.locator("#deck-auto").click()
    expect(page.locator("#deck-size")).to_contain_text("60")
    curve = page.locator("#deck-curve")
    heard = curve.aria_snapshot()
    assert "mana value 7 or more:" in heard and "mana value 0:" in heard, heard
    counts = [int(n) for n in re.findall(r"mana value [0-9][^:]*: (\d+) cards?\.", heard)]
    shown = [int(t or 0) for t in curve.locator(".bar b").all_inner_texts()]
    assert len(counts) == 8 and counts == shown and sum(counts), (heard, shown)  # the words say what the bars show
    assert curve.locator(".bar span[aria-hidden]").last.inner_text() == "7+"
    curve.scroll_into_view_if_needed()
    page.screenshot(path=shots / "deck-curve-words.png")
