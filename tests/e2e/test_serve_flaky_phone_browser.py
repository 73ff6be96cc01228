"""A phone on a store's bad Wi-Fi, in a real browser: a pick confirmed while the network is gone says, for as long
as it waits and not only in a toast that goes away, that it got no answer and goes again once the server answers;
choosing again drops it.  A registration whose answer was lost says what the server has once it answers, never
"not registered" on a guess.  Nothing is taken twice, nothing the player took back is sent."""

from __future__ import annotations

import re

from playwright.sync_api import Page, Route, WebSocketRoute, expect

from events.night.decks import registered_words
from tests.helpers.browsers import PHONE, bots_downstream, phone_page, player_numbers
from tests.helpers.nights import codes_of
from tests.helpers.pages import join, two_marked
from tests.helpers.served import draft_log


def ann_confirms_offline(pod, server, browser) -> tuple[Page, dict[str, bool], int, str]:
    """Ann's phone joined, then the network gone (every request refused, a pick on the stream lost), two cards
    tapped and Confirm pressed; on Playwright's clock the page's 15 s wait for an answer and its toast have gone by.
    The page, the switch that brings the network back (``gone``), the draft's picks before, and the two cards'
    names as the page wrote them."""
    db, event_id = pod
    codes, numbers = codes_of(db, event_id), player_numbers(db, event_id)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    network = {"gone": False}

    def lose_picks_while_gone(route: WebSocketRoute) -> None:
        to_server = route.connect_to_server()
        route.on_message(
            lambda message: None if network["gone"] and '"pick"' in str(message) else to_server.send(message)
        )

    context.route_web_socket(re.compile(r"/api/stream"), lose_picks_while_gone)
    context.route(re.compile(r"/api/"), lambda route: route.abort() if network["gone"] else route.continue_())
    page = context.new_page()
    two_marked(page, server.url, codes["Ann"], event_id=event_id, number=numbers["Ann"])
    before = len(draft_log(db, event_id))  # (marking cards makes no pick)
    chosen = page.locator("#selected-names").inner_text()
    page.clock.install()  # from here the page's timers run on Playwright's clock
    network["gone"] = True
    page.click("#confirm")
    page.clock.fast_forward(16_000)  # no answer within 15 s
    expect(page.locator("#toast")).to_contain_text("No answer from the server")
    page.clock.fast_forward(5_000)
    expect(page.locator("#toast")).to_be_hidden()  # the toast goes after 4 s; the pick still waits
    return page, network, before, chosen


def test_a_pick_confirmed_offline_says_it_waits_until_the_server_takes_it(pod, server, browser):
    db, event_id = pod
    page, network, before, chosen = ann_confirms_offline(pod, server, browser)
    expect(page.locator("#selected-names")).to_have_text(
        f"No answer yet for {chosen}: sent again once the server answers"
    )
    expect(page.locator("#confirm")).to_have_text("Send again")
    assert page.evaluate("(n => n.scrollWidth <= n.clientWidth)(document.getElementById('selected-names'))")  # whole
    assert len(draft_log(db, event_id)) == before  # nothing arrived
    network["gone"] = False
    page.clock.fast_forward(20_000)  # the page tries again by itself
    expect(page.locator("#pool-count")).to_have_text("2")  # sent again by itself, with no second tap
    expect(page.locator("#selected-names")).not_to_contain_text("No answer")
    assert len(draft_log(db, event_id)) == before + 1 + bots_downstream(db, event_id, "Ann")  # once
    page.context.close()


def test_a_card_tapped_after_a_pick_got_no_answer_takes_it_back(pod, server, browser):
    db, event_id = pod
    page, network, before, chosen = ann_confirms_offline(pod, server, browser)
    page.locator("#pack .card").first.click()  # the player chooses again: the unanswered pick is not sent
    expect(page.locator("#selected-names")).not_to_contain_text("No answer")
    network["gone"] = False
    page.clock.fast_forward(20_000)  # the page tries again by itself
    expect(page.locator("#conn")).to_have_attribute("data-state", "ok")
    expect(page.locator("#pool-count")).to_have_text("0")
    expect(page.locator("#confirm")).to_have_text("Pick 1 more")
    assert len(draft_log(db, event_id)) == before
    page.context.close()


def ann_registers_and_hears_nothing(building, browser, *, arrives: bool) -> Page:
    """Ann's phone builds a legal deck and taps Register; the answer is lost (``arrives``: the server took it) or
    the request never got there."""
    db, event_id, served = building
    page = phone_page(browser)
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann", screen="#screen-deck")
    page.click("#deck-auto")
    expect(page.locator("#deck-legal")).to_have_text("Legal")

    def lose_the_answer(route: Route) -> None:
        if arrives:
            route.fetch()  # the server registers the deck; its answer never reaches the phone
        route.abort()

    page.route("**/api/deck/register", lose_the_answer)
    page.click("#deck-register")
    return page


def test_a_registration_whose_answer_was_lost_says_registered_once_the_server_says_so(building, browser):
    page = ann_registers_and_hears_nothing(building, browser, arrives=True)
    expect(page.locator("#deck-legal")).to_have_text("Legal · registered")
    expect(page.locator("#deck-message")).to_have_text("Registered. The desk has your deck.")  # never "not registered"
    page.context.close()


def test_a_registration_that_never_arrived_says_not_registered_and_how_to_send_it(building, browser):
    page = ann_registers_and_hears_nothing(building, browser, arrives=False)
    expect(page.locator("#deck-message")).to_have_text(
        "Not registered: your deck did not arrive. Tap Register to send it again."
    )
    expect(page.locator("#deck-legal")).to_have_text("Legal")
    page.unroute("**/api/deck/register")

    def reworded(route: Route) -> None:  # the page shows the registration in the core's words, whatever they are
        answer = route.fetch().json()
        assert answer["deck"]["registered_words"] == registered_words(True, True)
        answer["deck"]["registered_words"] = "Registered (the core's words)."
        route.fulfill(json=answer)

    page.route("**/api/deck/register", reworded)
    page.click("#deck-register")
    expect(page.locator("#deck-message")).to_have_text("Registered (the core's words).")
    page.context.close()


def test_a_request_that_hangs_on_a_dead_connection_is_given_up_and_tried_again(pod, server, browser):
    """Wi-Fi that swallows packets: the stream drops, and the phone's request for its seat then never gets an
    answer.  The page gives it up (20 s on Playwright's clock), says it is offline and tries again by itself; a page
    that waited for it would say "reconnecting…" for as long as the phone's system keeps the dead connection (many
    minutes), with the network long back."""
    db, event_id = pod
    codes, numbers = codes_of(db, event_id), player_numbers(db, event_id)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    streams: list[WebSocketRoute] = []

    def through(route: WebSocketRoute) -> None:
        streams.append(route)
        route.connect_to_server()

    context.route_web_socket(re.compile(r"/api/stream"), through)
    page = context.new_page()
    join(page, server.url, codes["Ann"], event_id=event_id, number=numbers["Ann"])
    hung: list[Route] = []
    page.route("**/api/seat", lambda route: hung.append(route) if not hung else route.continue_())
    page.clock.install()  # from here the page's timers run on Playwright's clock
    streams[-1].close()  # the stream drops; the page asks for its seat again, and that request hangs
    page.clock.fast_forward(3_000)
    expect(page.locator("#conn-text")).to_have_text("reconnecting…")
    for _ in range(250):  # the request for the seat reaches the route a moment later on a busy machine
        if hung:
            break
        page.wait_for_timeout(20)  # (real time: Playwright's own wait, not the page's installed clock)
    assert len(hung) == 1
    page.clock.fast_forward(21_000)
    expect(page.locator("#conn")).not_to_have_attribute("data-state", "wait")  # given up: said, and tried again
    page.clock.fast_forward(20_000)
    expect(page.locator("#conn")).to_have_attribute("data-state", "ok")
    expect(page.locator("#pack .card")).to_have_count(20)
    context.close()


def test_the_last_pick_reads_as_two_cards_when_a_name_holds_a_comma(pod, server, browser):
    """ "Last pick: Akroma's Will, Toggo, Goblin Weaponsmith" read as three cards: the two are joined with " + ",
    as the chosen cards are."""
    db, event_id = pod
    page = phone_page(browser)
    join(page, server.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
    names = page.locator("#pack .card .card-name").all_inner_texts()
    legend = next(index for index, name in enumerate(names) if "," in name)
    other = 0 if legend else 1
    page.locator("#pack .card").nth(legend).click()
    page.locator("#pack .card").nth(other).click()
    page.click("#confirm")
    expect(page.locator("#pool-count")).to_have_text("2")
    taken = sorted([names[legend], names[other]], key=names.index)
    expect(page.locator("#last-pick")).to_have_text(
        re.compile(
            "^Last pick: ("
            + " \\+ ".join(map(re.escape, taken))
            + "|"
            + " \\+ ".join(map(re.escape, taken[::-1]))
            + ")"
        )
    )
    page.context.close()
