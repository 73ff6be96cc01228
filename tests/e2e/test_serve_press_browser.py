"""A press on the player's draft page while a push draws the pack again, in a real browser (Debian's chromium through
Playwright, a phone's window).  The upstream neighbour's pick passes a pack into the seat's queue, the server pushes
the seat's state (the page's "1 more pack waits"), and the old page drew the pack's cards anew at once, mid-press:
the browser gives the click of a press begun on a node no longer in the page to no control at all, so the card
tapped was not marked and nothing was told to the server.  The page now draws the pack after the press
(``cmdraftPage.pressHold``), and a tap or a Confirm asks about the pack it shows: the server decides.  The deck
builder, drawn again on each answer, holds its redraws the same way."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import FloatRect, Locator, Page, Route, expect

from tests.helpers.browsers import phone_page, player_numbers, upstream_of
from tests.helpers.nights import codes_of
from tests.helpers.pages import join, script

# Each seat state a push brings the page, heard after the page has drawn it (app.js passes it on once drawn).
HEARD = """() => {
  window.heard = [];
  document.addEventListener("cmdraft:seat", (event) => window.heard.push(event.detail));
}"""


def ann_with_bo_to_pick(pod, server, browser) -> tuple[Page, list, Callable[[], None]]:
    """Ann's phone on her first pack (its stream's sent messages kept in a list), and Bo's pick by script: Bo sits
    just upstream, so his pick passes his pack into Ann's queue."""
    db, event_id = pod
    codes, numbers = codes_of(db, event_id), player_numbers(db, event_id)
    assert upstream_of(db, event_id, "Ann") == ("Bo", 0)
    bo = script(server.url, "/api/join", {"event": event_id, "player": numbers["Bo"], "code": codes["Bo"]})["token"]
    page = phone_page(browser)
    sent: list = []
    page.on("websocket", lambda socket: socket.on("framesent", lambda frame: sent.append(json.loads(frame))))
    join(page, server.url, codes["Ann"], event_id=event_id, number=numbers["Ann"])
    expect(page.locator("#pack .card")).to_have_count(20)
    expect(page.locator("#pack-pick")).not_to_contain_text("more pack")
    page.evaluate(HEARD)

    def bo_picks() -> None:
        draft = script(server.url, "/api/seat", token=bo)["draft"]
        script(server.url, "/api/pick", {"pack": 1, "pick": 1, "cards": list(range(draft["take"]))}, bo)

    return page, sent, bo_picks


def test_a_card_pressed_while_a_pack_is_pushed_into_the_queue_is_marked_and_told_to_the_server(pod, server, browser):
    """The mouse's press lasts until the page has heard the push (a second pack in Ann's queue).  The page's timers
    are paused meanwhile: the press stays a tap however long the push takes on a busy machine (held half a second, a
    card is shown full size instead of marked).  (A finger's tap on a card that stays where it was is found where
    the finger lifts, and was taken by the old page too.)"""
    page, sent, bo_picks = ann_with_bo_to_pick(pod, server, browser)
    card = page.locator("#pack .card").nth(2)
    index, box = settled_card(card)
    page.clock.install()
    page.clock.pause_at(page.evaluate("Date.now()") + 10)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    bo_picks()
    page.wait_for_function("() => window.heard.some((seat) => seat.draft && seat.draft.queued === 2)")
    page.mouse.up()
    page.clock.resume()
    expect(page.locator("#pack-pick")).to_contain_text("1 more pack waits")  # the push drawn, after the press
    expect(page.locator(f'#pack .card[data-index="{index}"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#selected-names")).to_have_text(page.evaluate(f"cmdraft.state.seat.draft.cards[{index}].name"))
    assert told(page, sent) == [[index]]


def settled_card(card: Locator) -> tuple[int, FloatRect]:
    """The card's index and box once it stays drawn: the stream's first state, pushed as it opens, may draw the pack
    again just after the join's (on a busy machine, while the card is being scrolled to: "not attached")."""
    for attempt in range(5):
        try:
            card.scroll_into_view_if_needed()
            index, box = int(card.get_attribute("data-index") or ""), card.bounding_box()
            if box is not None:
                return index, box
        except PlaywrightError:
            if attempt == 4:
                raise
    raise AssertionError("the card has no box")


def told(page: Page, sent: list, cards: int = 1) -> list:
    """The marks the page told the server on its stream, each time, once the last told has ``cards`` cards marked (a
    frame is reported a moment after the page sends it)."""
    for _ in range(200):
        marks = [m["cards"] for m in sent if m["type"] == "marks"]
        if marks and len(marks[-1]) == cards:
            return marks
        page.wait_for_timeout(50)
    return []


def test_confirm_pressed_as_the_time_runs_out_asks_for_the_pack_shown_and_the_server_says_it_moved_on(
    manual_clock, pod, server, browser
):
    """Ann's time runs out while her finger is on Confirm: the timer takes her marked cards and Bo's pack comes in
    front of her.  The old page drew the new pack at once, its Confirm disabled under the finger: the press was
    dropped without a word.  Now the pack is drawn after the press, and the Confirm pressed asks for the pack the
    page shows: the server says it has moved on (its words in the toast), and the cards marked on the first pack are
    never taken from a second pack Ann has not seen (as a page asking with the seat's newest pack and pick would)."""
    db, event_id = pod
    page, sent, bo_picks = ann_with_bo_to_pick(pod, server, browser)
    bo_picks()
    expect(page.locator("#pack-pick")).to_contain_text("1 more pack waits")
    page.locator("#pack .card").first.click()
    page.locator("#pack .card").last.click()
    marked = sorted(told(page, sent, 2)[-1])
    shown = page.evaluate("cmdraft.state.seat.draft")
    confirm = page.locator("#confirm")
    expect(confirm).to_be_enabled()
    box = confirm.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    manual_clock.advance(shown["deadline"] - manual_clock.now() + 1)  # Ann's time runs out
    page.wait_for_function("() => window.heard.some((seat) => seat.draft && seat.draft.pick === 2)")
    page.mouse.up()
    expect(page.locator("#toast")).to_contain_text("moved on")
    expect(page.locator("#pack-pick")).to_contain_text("Pick 2/")
    # the reader's place: the heading that says the pack now in front of her, not the top of the page (the
    # Confirm pressed is disabled under the new pack)
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'pack-pick'", timeout=5000)
    expect(page.locator("#pool-count")).to_have_text("2")  # the cards the timer took, no more
    assert [(m["pack"], m["pick"]) for m in sent if m["type"] == "pick"] == [(1, 1)]
    served = server.app.state.server.served
    made = [p for p in served.tables[shown["pod"]].draft.log if p.seat == shown["seat"] - 1]
    assert [(p.pack, p.pick, sorted(p.positions)) for p in made] == [(1, 1, marked)]


def test_a_cards_plus_pressed_while_the_answer_to_the_last_one_redraws_the_deck_adds_that_card(building, browser):
    """Two cards added in quick succession on the builder: the second's + is pressed when the answer to the first
    arrives (held here until the press has begun) and the deck is drawn again.  The old page drew it at once: the
    press, begun on a + no longer in the page, clicked nothing, and the second card stayed in the sideboard.  Now the
    deck is drawn after the press, and the + pressed asks for its card."""
    db, event_id, served = building
    page = phone_page(browser)
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann", screen="#screen-deck")
    expect(page.locator("#deck-side .line-name").first).to_be_visible()  # the deck drawn (the screen shows first)
    names = page.locator("#deck-side .line-name").all_inner_texts()
    first, second = next((a, b) for a, b in zip(names, names[2:]) if names.count(a) == names.count(b) == 1)
    assert in_main(page, first).count() == in_main(page, second).count() == 0
    held, asked = hold_the_first_deck_answer(page)
    page.get_by_role("button", name=f"add {first} to the main deck").click()
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(25)
    plus = page.get_by_role("button", name=f"add {second} to the main deck")
    plus.scroll_into_view_if_needed()
    box = plus.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    held[0].continue_()  # the first card's answer arrives: the deck with it in the main deck
    page.wait_for_function("() => !cmdraft.state.busy")
    page.mouse.up()
    for name in (first, second):
        expect(in_main(page, name)).to_have_count(1)
    assert [body["action"] for body in asked] == ["add", "add"]


def in_main(page: Page, name: str):
    """The lines of the main deck naming the card ``name``."""
    return page.locator("#deck-main .line-name", has_text=re.compile(f"^{re.escape(name)}$"))


def hold_the_first_deck_answer(page: Page) -> tuple[list[Route], list[dict]]:
    """The page's deck changes as the server gets them (``asked``: their bodies), the first one's answer held back
    (``held``: its route, to ``continue_`` when the test says) as slow Wi-Fi holds it, the others answered at once."""
    held: list[Route] = []
    asked: list[dict] = []

    def hold_the_first_answer(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        asked.append(route.request.post_data_json)
        if len(asked) == 1:
            held.append(route)
        else:
            route.continue_()

    page.route("**/api/deck", hold_the_first_answer)
    return held, asked


def test_taps_made_while_a_change_is_on_its_way_are_each_made_after_it(building, browser):
    """A player on the store's Wi-Fi taps + on a card, then + on another card and twice on "one White basic more"
    before the first answer is back.  The old page dropped every tap made while a change was on its way (nothing
    said, nothing sent): one card added of two, no Plains of two.  Now each tap waits its turn and goes once the
    answer before it is in, a basic's count counted from the deck that answer brings."""
    db, event_id, served = building
    page = phone_page(browser)
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann", screen="#screen-deck")
    expect(page.locator("#deck-side .line-name").first).to_be_visible()
    names = page.locator("#deck-side .line-name").all_inner_texts()
    first, second = next((a, b) for a, b in zip(names, names[2:]) if names.count(a) == names.count(b) == 1)
    plains = page.get_by_role("button", name="one White basic more")
    white = page.locator("#deck-basics .basic").first.locator("b")
    expect(white).to_have_text("0")
    held, asked = hold_the_first_deck_answer(page)
    page.get_by_role("button", name=f"add {first} to the main deck").click()
    page.wait_for_function("() => cmdraft.state.busy")  # the first change is on its way, its answer held
    page.get_by_role("button", name=f"add {second} to the main deck").click()
    plains.click()
    plains.click()
    assert len(asked) == 1  # one change at a time
    held[0].continue_()
    for name in (first, second):
        expect(in_main(page, name)).to_have_count(1)
    expect(white).to_have_text("2")
    page.wait_for_function("() => !cmdraft.state.busy")
    assert [body["action"] for body in asked] == ["add", "add", "basics", "basics"]
    assert [body.get("count") for body in asked[2:]] == [1, 2]


def test_a_second_crown_tapped_while_the_first_is_on_its_way_adds_to_it_not_replaces_it(building, browser):
    """Before: a crown tapped while a change was on its way asked for the commanders drawn when it was tapped plus
    its card: 'lead with Ardenn' then 'lead with Falthis' sent [Ardenn] then [Falthis], and the deck ended led by
    Falthis alone, Ardenn sent back to the pool.  A queued tap is worked out from the deck its turn finds."""
    db, event_id, served = building
    page = phone_page(browser)
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann", screen="#screen-deck")
    chips = page.locator("#deck-leaders button")
    expect(chips.first).to_be_visible()
    assert chips.count() >= 2
    held, asked = hold_the_first_deck_answer(page)
    chips.nth(0).click()
    page.wait_for_function("() => cmdraft.state.busy")  # the first crown is on its way, its answer held
    chips.nth(1).click()
    held[0].continue_()
    page.wait_for_function("() => !cmdraft.state.busy && cmdraft.state.deckQueue.length === 0")
    assert [body["action"] for body in asked] == ["commanders", "commanders"]
    (first,) = asked[0]["cards"]
    assert asked[1]["cards"][0] == first and len(asked[1]["cards"]) == 2  # the first kept, the second beside it


def test_a_second_tab_shows_the_deck_as_the_first_left_it_when_the_player_comes_back_to_it(building, browser):
    """Before: a change made in one tab never reached another open tab (no stream says a deck changed), so its Undo
    took back a change it had never shown.  Coming back to a tab (it becomes visible) asks for the deck again."""
    db, event_id, served = building
    first = phone_page(browser)
    join(first, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann", screen="#screen-deck")
    second = first.context.new_page()  # the same phone, the same player: another tab
    second.goto(first.url)
    expect(second.locator("#deck-side .line-name").first).to_be_visible()
    names = second.locator("#deck-side .line-name").all_inner_texts()
    card = next(name for name in names if names.count(name) == 1)
    first.get_by_role("button", name=f"add {card} to the main deck").click()
    expect(in_main(first, card)).to_have_count(1)
    expect(in_main(second, card)).to_have_count(0)  # nothing told the other tab
    second.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # the player switches back to it
    expect(in_main(second, card)).to_have_count(1)
