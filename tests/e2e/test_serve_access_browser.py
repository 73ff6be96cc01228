"""The player's pick page for a reader, a keyboard and large text, in a real browser (Debian's chromium through
Playwright) at a phone's 390 x 844: the page says "your next pack is here" in a live region each time a pack
arrives (and what the seat waits for meanwhile); each card to pick is named in words, not "Kamahl's Will3GInstantR";
the keyboard's place is a ring of its own, on a chosen card too, never under the sticky header or the confirm bar; the card sheet gives the focus back when it
closes; and with the reader's text at 200% the page's text grows with it, one card a row, nothing off the side,
on the deck builder too."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from events.sessions.seat import news_words
from tests.helpers.browsers import PHONE, Served, phone_page, tap_and_confirm
from tests.helpers.cardfiles import cmr_mtgjson, write
from tests.helpers.nights import codes_of, draft_first_pod_by_hint, start, terminal_night
from tests.helpers.pages import contrast, join, serious

OUTLINE = """(selector) => {
  const style = getComputedStyle(document.querySelector(selector));
  return [style.outlineStyle, style.outlineWidth, style.outlineColor];
}"""


def test_a_reader_hears_each_pack_arrive_and_what_the_seat_waits_for(two_drafting, browser, shots):
    db, event_id, served = two_drafting
    codes = codes_of(db, event_id)
    ann, bo = phone_page(browser), phone_page(browser)
    join(ann, served.url, codes["Ann"], event_id=event_id, name="Ann")
    join(bo, served.url, codes["Bo"], event_id=event_id, name="Bo")
    live = ann.locator("#announce")
    assert live.get_attribute("aria-live") == "polite" and live.get_attribute("role") == "status"
    expect(live).to_have_text(news_words(1, 3, 1, 10, 2, 20))  # the server's words (before: the page's own)
    assert news_words(1, 3, 1, 10, 2, 20) == "Your next pack is here: pack 1 of 3, pick 1 of 10, take 2 of 20 cards."
    ann.screenshot(path=shots / "access-pick-1.png")
    tap_and_confirm(ann)
    tap_and_confirm(bo)
    # Ann's second pack comes from upstream (Bo, or the bots between them, as soon as Bo has picked)
    expect(live).to_have_text(news_words(1, 3, 2, 10, 2, 18))
    tap_and_confirm(ann)
    said = live.inner_text()
    assert said.startswith("Your next pack is here: pack 1 of 3, pick 3 of 10") or said.startswith("Waiting for"), said


def test_cards_to_pick_are_named_in_words(two_drafting, browser):
    db, event_id, served = two_drafting
    page = phone_page(browser)
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
    card = page.locator("#pack .card").first
    label = card.get_attribute("aria-label") or ""
    name = card.locator(".card-name").inner_text()
    kind = card.locator(".card-type").inner_text()
    assert label.startswith(name + ", ") and kind in label, label
    assert label.rsplit(", ", 1)[-1] in ("common", "uncommon", "rare", "mythic", "special", "foil"), label


def test_the_keyboard_alone_picks_and_its_place_is_always_seen(two_drafting, browser, shots):
    db, event_id, served = two_drafting
    page = phone_page(browser)
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
    page.locator("#pack-order").focus()  # the pack's own control, above it
    page.keyboard.press("Tab")  # the first card of the pack
    first = page.evaluate("document.activeElement.getAttribute('data-index')")
    assert first is not None
    focused = page.evaluate(OUTLINE, f'#pack [data-index="{first}"]')
    assert focused[0] == "solid" and float(focused[1][:-2]) >= 3  # a ring of at least 3 px, not a 1 px hairline
    page.keyboard.press("Space")
    expect(page.locator(f'#pack [data-index="{first}"]')).to_have_attribute("aria-pressed", "true")
    chosen_and_focused = page.evaluate(OUTLINE, f'#pack [data-index="{first}"]')
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    second = page.evaluate("document.activeElement.getAttribute('data-index')")
    chosen_only = page.evaluate(OUTLINE, f'#pack [data-index="{first}"]')
    assert chosen_and_focused != chosen_only  # on a chosen card the keyboard's ring is not the chosen card's ring
    page.screenshot(path=shots / "access-keyboard.png")
    expect(page.locator("#confirm")).to_be_enabled()
    page.locator("#confirm").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#pool-count")).to_have_text("2")
    assert second != first


@pytest.fixture
def rules_text(tmp_path, cli):
    """CMR's rules text imported before the server starts: each card to pick has its "i" button."""
    assert cli("sets", "import", write(tmp_path, "CMR.json", cmr_mtgjson())).exit_code == 0


def test_the_card_sheet_gives_the_keyboard_back_to_its_card(rules_text, two_drafting, browser):
    db, event_id, served = two_drafting
    page = phone_page(browser)
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
    more = page.locator("#pack .card-more").first
    more.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#sheet")).to_be_visible()
    expect(page.locator("#sheet-close")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator("#sheet")).to_be_hidden()
    expect(more).to_be_focused()


def test_a_new_state_drawing_the_pack_again_keeps_the_keyboard_on_its_card_and_the_sheets_way_back(
    rules_text, two_drafting, browser
):
    """Every state draws the pack anew (another seat's pick queues a pack behind this one): the keyboard stays on the
    card it was on, and the card sheet open meanwhile still gives it back to its card's button when it closes (the
    button it was opened from is gone then: before, the focus fell to nowhere)."""
    db, event_id, served = two_drafting
    codes = codes_of(db, event_id)
    ann, bo = phone_page(browser), phone_page(browser)
    join(ann, served.url, codes["Ann"], event_id=event_id, name="Ann")
    join(bo, served.url, codes["Bo"], event_id=event_id, name="Bo")
    drawn = "document.querySelectorAll('#pack .card-box').forEach(box => box.dataset.drawn = 'before')"
    ann.evaluate(drawn)
    third = ann.locator('#pack [data-index="2"]')
    third.focus()
    tap_and_confirm(bo)  # a pack more for Ann (Bo's, passed on by the bots between them): her pack drawn again
    expect(ann.locator("#pack .card-box[data-drawn]")).to_have_count(0)
    expect(third).to_be_focused()
    ann.evaluate(drawn)
    more = ann.locator("#pack .card-more").first
    label = more.get_attribute("aria-label")
    more.focus()
    ann.keyboard.press("Enter")
    expect(ann.locator("#sheet-close")).to_be_focused()
    tap_and_confirm(bo)  # Bo's next pick: Ann's pack drawn again under the sheet
    expect(ann.locator("#pack .card-box[data-drawn]")).to_have_count(0)
    ann.keyboard.press("Escape")
    expect(ann.locator("#sheet")).to_be_hidden()
    expect(ann.locator(f'#pack .card-more[aria-label="{label}"]').first).to_be_focused()


def test_at_200_percent_text_the_pick_page_grows_its_text_and_stays_usable(two_drafting, browser, shots):
    db, event_id, served = two_drafting
    page = phone_page(browser)
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
    # the reader's text size: the root font at twice the browser's 16 px (set from the page's own CSSOM: the
    # page's content security policy refuses an added style sheet)
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    assert page.evaluate("getComputedStyle(document.body).fontSize") == "32px"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # nothing off the side
    cards = page.locator("#pack .card")
    expect(cards.nth(1)).to_be_visible()  # drawn (a box measured before the pack is drawn is None: the flake)
    boxes = [cards.nth(i).bounding_box() for i in range(2)]
    assert boxes[0] and boxes[1] and boxes[1]["y"] > boxes[0]["y"]  # one card a row: no name cut mid-word
    page.screenshot(path=shots / "access-text-200.png")
    tap_and_confirm(page)  # still picked by tapping, Confirm on screen
    assert serious(page) == []


LONG_NAME = "Friday Night Commander Legends Draft at the Dragon's Lair, Back Room"


def test_a_long_event_name_cut_in_the_bar_is_shown_whole_under_it_at_200_percent_text(tmp_path, cli, browser, shots):
    """The header bar keeps to one line and cuts a long event name with '…' (at 200% text even a short one): the
    name is then shown whole just under the bar, and goes when the bar holds it again."""
    db = tmp_path / "long.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=6, name=LONG_NAME)
    start(cli, db, event_id)
    served = Served(db, event_id)
    try:
        page = phone_page(browser)
        join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
        whole = page.locator("#event-whole")
        page.evaluate("document.documentElement.style.fontSize = '200%'")
        expect(whole).to_be_visible()
        expect(whole).to_have_text(LONG_NAME)
        assert page.evaluate("(e) => e.scrollWidth <= e.clientWidth", whole.element_handle())  # nothing of it cut
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.screenshot(path=shots / "access-long-event-name-200.png")
        page.set_viewport_size({"width": 1920, "height": 1080})
        page.evaluate("document.documentElement.style.fontSize = ''")
        expect(whole).to_be_hidden()  # the bar holds it whole again
        page.screenshot(path=shots / "access-long-event-name-wide.png")
        desk = phone_page(browser)  # the desk on a phone: the same bar, the same line under it
        desk.goto(f"{served.url}/desk?token=desk-secret")
        expect(desk.locator("#event-name")).to_have_text(LONG_NAME)
        expect(desk.locator("#event-whole")).to_have_text(LONG_NAME)
        expect(desk.locator("#event-whole")).to_be_visible()
        desk.screenshot(path=shots / "access-long-event-name-desk.png")
    finally:
        served.stop()


# what reaches past the screen's right edge, leaving out what a table's own scroll box holds (that box itself counts)
WIDER_THAN_THE_SCREEN = """(width) => [...document.querySelectorAll('#screen-deck *')]
  .filter(node => node.offsetParent !== null && !node.parentElement.closest('.table-scroll'))
  .filter(node => node.getBoundingClientRect().right > width + 1)
  .map(node => node.tagName.toLowerCase() + (node.id ? '#' + node.id : '') + '.' + node.className).slice(0, 5)"""


@pytest.fixture
def building(tmp_path, cli):
    """Ann and Bo's pod drafted to the end (every pick the hint's): their decks are built on their phones."""
    db = tmp_path / "built.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=6, timer=0)
    assert cli("event", "pipers", event_id, "--stock", "4", "--db", db).exit_code == 0  # a Piper is offered
    start(cli, db, event_id)
    draft_first_pod_by_hint(db, event_id)
    served = Served(db, event_id)
    yield db, event_id, served
    served.stop()


def test_at_200_percent_text_the_deck_builder_stays_within_the_screen(building, browser, shots):
    db, event_id, served = building
    page = phone_page(browser)
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann", screen="#screen-deck")
    page.click("#deck-auto")
    expect(page.locator("#deck-legal")).to_have_text("Legal")
    toggles = page.locator("#piper-colors button")
    expect(toggles).to_have_count(5)
    for index in range(5):  # each colour's letter readable on its disc, off or on, never faded
        selector = f"#piper-colors button:nth-child({index + 1})"
        assert page.evaluate(f"getComputedStyle(document.querySelector('{selector}')).opacity") == "1"
        assert contrast(page, selector) >= 4.5, toggles.nth(index).get_attribute("aria-label")
    for index in range(5):  # every colour off: how many Pipers may lead is the server's to say, in its words
        if toggles.nth(index).get_attribute("aria-pressed") == "true":
            toggles.nth(index).click()
    page.click("#piper-set")
    expect(page.locator("#deck-message")).to_have_text(
        "choose one or two colors for The Prismatic Piper: 1 Piper leads in each color (none chosen)"
    )
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    assert page.evaluate(WIDER_THAN_THE_SCREEN, PHONE["width"]) == []  # the × of a commander, the basics: on screen
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=shots / "access-deck-text-200.png", full_page=True)
    assert serious(page) == []


HIDDEN_BY_BARS = """() => {
  const card = document.activeElement.getBoundingClientRect();
  const bottom = document.querySelector('#confirm-bar').getBoundingClientRect().top;
  const top = Math.max(...[...document.querySelectorAll('#bar, #draft-status')]
    .filter((bar) => getComputedStyle(bar).position === 'sticky').map((bar) => bar.getBoundingClientRect().bottom), 0);
  return (card.bottom > bottom + 0.5 || card.top < top - 0.5) ? [card.top, card.bottom, top, bottom] : null;
}"""


@pytest.mark.parametrize("text", ["100%", "200%"])
def test_tabbing_through_the_pack_never_leaves_the_focused_card_under_the_confirm_bar_or_the_header(
    two_drafting, browser, text
):
    db, event_id, served = two_drafting
    page = phone_page(browser)
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
    page.evaluate(f"document.documentElement.style.fontSize = '{text}'")  # the reader's text size (as above)
    cards = page.locator("#pack .card")
    expect(cards).to_have_count(20)
    page.locator("#pool-toggle").focus()
    hidden = []
    for key, end in (("Tab", "confirm"), ("Shift+Tab", "pool-toggle")):  # every card (and its "i"), forward then back
        for _ in range(80):
            page.keyboard.press(key)
            if page.evaluate("document.activeElement.closest('#pack') !== null") and page.evaluate(HIDDEN_BY_BARS):
                hidden.append(
                    (page.evaluate("document.activeElement.getAttribute('aria-label')"), page.evaluate(HIDDEN_BY_BARS))
                )
            if page.evaluate("document.activeElement.id") == end:
                break
    assert hidden == []


HEADINGS = """(root) => Array.from(document.querySelectorAll(root + ' h1, ' + root + ' h2, ' + root + ' h3, ' + root + ' h4'))
  .filter(h => h.offsetParent !== null || h.classList.contains('visually-hidden'))
  .map(h => Number(h.tagName[1]))"""


def test_the_draft_screens_headings_go_down_one_level_at_a_time_for_a_reader(two_drafting, browser):
    """A screen reader lists a screen's headings to find its parts: the pick screen's one h1 (the pack and pick),
    then the pool (h2, said, not shown: its tabs name it) and its colour groups (h3), no level skipped (the groups
    came straight after the h1)."""
    db, event_id, served = two_drafting
    page = phone_page(browser)
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
    page.locator("#pack .card").first.click()
    page.locator("#pack .card").nth(1).click()
    page.locator("#confirm").click()
    expect(page.locator("#pool-count")).to_have_text("2")
    if page.locator("#pool-toggle").is_visible():  # a pack in front of Ann: the pool behind its button
        page.locator("#pool-toggle").click()
    expect(page.locator("#pool-view .pool-group").first).to_be_visible()  # (waiting: shown under the message)
    levels = page.evaluate(HEADINGS, "#screen-draft")
    assert levels[0] == 1 and levels.count(1) == 1, levels
    assert all(later - earlier <= 1 for earlier, later in zip(levels, levels[1:])), levels
    assert 3 in levels  # the pool's groups are there
