"""A phone that is easy to hold, in a real browser (Debian's chromium through Playwright): every control at least
44 x 44 px on every phone page; a lost connection shown within 5 s (the heartbeat on the stream); honest empty states;
one h1 per page and names that match the text; axe-core (shipped by axe-playwright-python, a test dependency only)
finds nothing critical or serious on any page.  Result entry by tapping players in finishing order is driven in
tests/test_serve_night_browser.py (three phones at one table: a tap, Undo, the rest, Confirm)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from events.night.refusals import no_builder_words
from events.storage.store import Store
from tests.helpers.browsers import Served, phone_page
from tests.helpers.night import Night
from tests.helpers.nights import codes_of, draft_first_pod_by_hint, draft_to_the_end, start, terminal_night
from tests.helpers.pages import DeckReloads, contrast, desk, headings_one, join, open_table, script, serious, too_small

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


# Where a button's label text ends and its count begins, as drawn, and the width of a space in its font.
LABEL_AND_COUNT = """([button, count]) => {
  const node = document.getElementById(button), label = document.createRange();
  label.selectNodeContents(node.firstChild);
  const text = label.getClientRects();
  const probe = document.createElement('span');
  probe.textContent = 'x x';
  node.appendChild(probe);
  const wide = probe.getBoundingClientRect().width;
  probe.textContent = 'xx';
  const space = wide - probe.getBoundingClientRect().width;
  probe.remove();
  return [text[0].right, document.getElementById(count).getBoundingClientRect().left, space];
}"""


@pytest.fixture
def finished_pod(tmp_path, cli):
    """Two pods: the first drafted to the end (its players build), the second still drafting."""
    db = tmp_path / "early.json"
    event_id = terminal_night(cli, db, *[f"P{n}" for n in range(1, 10)], bots=0, timer=0)
    start(cli, db, event_id)
    night = Night(Store(db))
    pod = draft_first_pod_by_hint(db, event_id)
    names = {p.number: p.name for p in night.players(event_id)}
    served = Served(db, event_id)
    yield db, event_id, served, [names[n] for n in pod.players]
    served.stop()


def test_every_control_on_the_draft_and_builder_pages_is_at_least_44_px(two_drafting, browser):
    db, event_id, served = two_drafting
    page = phone_page(browser)
    page.goto(served.url + "/")
    expect(page.locator("#screen-join")).to_be_visible()
    assert too_small(page) == []
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
    assert too_small(page) == []
    # the pool button's label and count read apart ("Pool 0", not "Pool0"): a space's width at least between them
    label_end, count_start, space = page.evaluate(LABEL_AND_COUNT, ["pool-toggle", "pool-count"])
    assert count_start - label_end >= space > 0
    page.click("#pool-toggle")
    assert too_small(page) == []


# The vertical middles (px) of what the pick screen's sticky header shows.
HEADER_MIDDLES = """() => [...document.getElementById('draft-status').children].filter(n => n.offsetParent !== null)
  .map(n => { const r = n.getBoundingClientRect(); return Math.round(r.top + r.height / 2); })"""


def test_the_pick_screens_sticky_header_keeps_to_one_row_on_a_phone(two_drafting, browser):
    """The header stays on screen as the pack scrolls: at 390 px it is one row (pack and pick, direction, pool,
    clock), so it hides as little of the pack as it can; the booster-order switch is the pack's own, above it."""
    db, event_id, served = two_drafting
    page = phone_page(browser)
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
    expect(page.locator("#timer")).not_to_be_empty()
    middles = page.evaluate(HEADER_MIDDLES)
    assert len(middles) == 4 and max(middles) - min(middles) <= 4, middles
    expect(page.locator("#pack-area #pack-order")).to_be_visible()


def test_a_new_pack_is_shown_from_its_top_after_a_pick_made_at_the_bottom_of_the_last(two_drafting, browser):
    """On a phone the last pick's second card is often at the bottom of the pack: the next pack is seen from its
    top (its first card below the sticky header), not where the page was left scrolled."""
    db, event_id, served = two_drafting
    codes = codes_of(db, event_id)
    bo = script(served.url, "/api/join", {"event": event_id, "player": "Bo", "code": codes["Bo"]})
    script(served.url, "/api/pick", {"pack": 1, "pick": 1, "cards": [0, 1]}, bo["token"])  # Ann's next pack waits
    page = phone_page(browser)
    join(page, served.url, codes["Ann"], event_id=event_id, name="Ann")
    cards = page.locator("#pack .card")
    expect(cards).to_have_count(20)
    cards.first.click()
    cards.last.click()  # scrolled to the bottom of the pack, as a finger does
    assert page.evaluate("window.scrollY") > 0
    page.click("#confirm")
    expect(page.locator("#pack-pick")).to_contain_text("Pick 2")
    expect(cards).to_have_count(18)
    first, header = cards.first.bounding_box(), page.locator("#draft-status").bounding_box()
    assert first is not None and header is not None
    assert first["y"] >= header["y"] + header["height"] - 1, (first, header)


def test_the_builder_and_the_finished_pods_pool_are_honest_and_easy_to_hit(finished_pod, browser):
    db, event_id, served, players = finished_pod
    page = phone_page(browser)
    join(
        page, served.url, codes_of(db, event_id)[players[0]], event_id=event_id, name=players[0], screen="#screen-deck"
    )
    expect(page.locator("#deck-message")).to_contain_text(re.compile("other pods? (is|are) still drafting"))
    expect(page.locator("#deck-pool .line")).not_to_have_count(0)  # the pool, read only
    expect(page.locator("#deck-actions")).to_be_hidden()  # no builder whose buttons can do nothing
    expect(page.locator("#deck-waiting-downloads .label")).to_have_text(["Pool"])  # no deck yet
    assert too_small(page) == []
    assert serious(page) == []


def test_a_lost_connection_shows_within_5_seconds(two_drafting, browser):
    """The server's answers stop (the connection dead while the socket still reads as open): the heartbeat's
    missing pongs show it as lost within 5 s (of the page's clock: Playwright's, held still once the answers stop
    and moved on 5 s by the test)."""
    db, event_id, served = two_drafting
    page = phone_page(browser)
    silent = {"on": False}

    def route(ws):
        server = ws.connect_to_server()
        server.on_message(lambda message: None if silent["on"] else ws.send(message))
        ws.on_message(lambda message: server.send(message))

    page.route_web_socket(re.compile(r".*/api/stream$"), route)
    page.clock.install()  # before the page loads: its heartbeat runs on Playwright's clock (flowing until held)
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
    page.clock.run_for(2_000)  # connected a while: two pings (the pongs come back as they come)
    expect(page.locator("#conn")).to_have_attribute("data-state", "ok")
    silent["on"] = True
    # held half a second on from its now: from here only the test moves the page's time.  Never at the now it said:
    # the clock flows on while the pause is on its way, and a clock paused in its past fails the test ("Cannot
    # fast-forward to the past", seen on a loaded machine).
    page.clock.pause_at(page.evaluate("Date.now() / 1000") + 0.5)
    for _ in range(9):  # then half a second at a time (the page tries again a second after it said so): 5 s at most
        page.clock.run_for(500)
        if page.locator("#conn").get_attribute("data-state") == "bad":
            break
    expect(page.locator("#conn")).to_have_attribute("data-state", "bad", timeout=1)
    expect(page.locator("#conn-text")).to_contain_text("connection lost")


def test_each_page_has_one_h1_and_axe_finds_nothing_serious(two_drafting, browser, tmp_path, cli):
    db, event_id, served = two_drafting
    page = phone_page(browser)
    page.goto(served.url + "/")
    expect(page.locator("#screen-join")).to_be_visible()
    assert headings_one(page) == ["Join your draft"] and serious(page) == []
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
    pack = page.locator("#pack button[data-index]")
    pack.nth(0).click()
    pack.nth(1).click()  # two cards chosen: their names stay readable on the chosen cards' colour
    expect(pack.nth(1)).to_have_attribute("aria-pressed", "true")
    assert contrast(page, '#pack button[aria-pressed="true"] .card-name') >= 4.5
    assert len(headings_one(page)) == 1 and serious(page) == []
    page.click("#pool-toggle")
    assert serious(page) == []

    laptop = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    laptop.goto(f"{served.url}/desk?token=desk-secret")
    expect(laptop.locator("#desk-main")).to_be_visible()
    assert headings_one(laptop) == ["Seats"] and serious(laptop) == []
    mismatched = laptop.evaluate(
        """[...document.querySelectorAll('button[aria-label]')].filter(b =>
             !b.getAttribute('aria-label').toLowerCase().startsWith(b.textContent.trim().toLowerCase()))
           .map(b => b.textContent + ' / ' + b.getAttribute('aria-label'))"""
    )
    assert mismatched == []
    room = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    room.goto(f"{served.url}/room")
    expect(room.locator("h1")).to_be_visible()
    assert len(headings_one(room)) == 1 and serious(room) == []


def test_the_table_and_decklists_pages_have_one_h1_big_controls_and_nothing_serious(tmp_path, cli, browser):
    from tests.helpers.served import drafted_night

    db = tmp_path / "night.json"
    event_id = drafted_night(cli, db, NAMES)
    served = Served(db, event_id)
    try:
        codes = codes_of(db, event_id)
        table = desk(served.url, "/api/desk/round", {})["tables"][0]
        numbers = {p.name: p.number for p in Night(Store(db)).players(event_id)}
        page = phone_page(browser)
        open_table(page, served.url, event_id, numbers[table[0]], codes[table[0]])
        assert len(headings_one(page)) == 1 and too_small(page) == [] and serious(page) == []
        page.click("text=Report the result")
        assert too_small(page) == [] and serious(page) == []
        page.locator("#night-result button", has_text="Cancel").click()
        events = Night(Store(db))
        for number, seated in enumerate(desk(served.url, "/api/desk/round", {"again": True})["tables"], 1):
            order = [[events.player_id(event_id, name)] for name in seated]
            desk(served.url, "/api/desk/settle", {"round": 1, "table": number, "order": order})
        desk(served.url, "/api/desk/finish", {})
        desk(served.url, "/api/desk/publish", {"on": True})
        # The event over: the phone says so and shows the pool and the downloads there are (pool and deck).
        expect(page.locator("#deck-message")).to_contain_text(no_builder_words("finished"), timeout=20_000)
        expect(page.locator("#night-result")).to_contain_text("The event is over: the results are final.")
        # not beside it the builder's "only the desk can change it now" from the rounds: nobody can any more
        expect(page.locator("#deck-closed")).to_be_hidden()
        expect(page.locator("#deck-pool .line")).not_to_have_count(0)
        expect(page.locator("#deck-waiting-downloads .label")).to_have_text(["Pool", "Deck"])
        assert too_small(page) == [] and serious(page) == []
        lists = phone_page(browser)
        lists.goto(served.url + "/decklists")
        expect(lists.locator(".decklist")).not_to_have_count(0)
        assert headings_one(lists) == ["Decklists"] and too_small(lists) == [] and serious(lists) == []
        expect(lists.get_by_text("Decklists", exact=True)).to_have_count(1)  # the heading, said once
        shown = lists.locator(".decklist-name").all_inner_texts()  # as the page renders them (CSS case too)
        assert sorted(name.partition(" ")[2] for name in shown) == sorted(NAMES)  # names as typed
    finally:
        served.stop()


@pytest.fixture
def built(tmp_path, cli):
    """One pod of two players and six bots drafted to the end: the builder is open."""
    db = tmp_path / "built.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=6)
    start(cli, db, event_id)
    draft_to_the_end(db, event_id)
    served = Served(db, event_id)
    yield db, event_id, served
    served.stop()


def test_a_reload_answered_after_a_deck_change_does_not_undo_it_on_the_screen(built, browser):
    """The stream asks the page to reload the deck while the player taps Auto: the reload's answer, read before the
    change, arrives after the change's answer (they are separate requests). The page keeps the changed deck."""
    db, event_id, served = built
    page = phone_page(browser)
    reloads = DeckReloads(page)
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann", screen="#screen-deck")
    legal = page.locator("#deck-legal")
    expect(legal).to_have_text("Not legal yet")  # nothing built yet
    route, before = reloads.hold_one()  # the deck as the server has it now, before the change
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/api/deck")) as answer:
        page.click("#deck-auto")
    size = answer.value.json()["size"]
    expect(legal).to_have_text("Legal")
    with page.expect_request_finished(lambda r: r.method == "GET" and r.url.endswith("/api/deck")):
        route.fulfill(response=before)
    reloads.taken()
    expect(legal).to_have_text("Legal")
    expect(page.locator("#deck-size")).to_have_text(f"· {size} cards")


def test_register_tapped_while_a_deck_change_is_on_its_way_is_sent_once_the_change_is_answered(built, browser):
    """A player taps Auto build, then Register before the build's answer came (a slow network, a busy server): the
    registration is not dropped; it goes once the change is answered, and the page says the deck is registered."""
    db, event_id, served = built
    page = phone_page(browser)
    held: list = []

    def hold_changes(route, request):
        if request.method == "POST":
            held.append(route)  # let through below, after Register was tapped
        else:
            route.continue_()

    page.route("**/api/deck", hold_changes)
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann", screen="#screen-deck")
    page.click("#deck-auto")
    for _ in range(500):  # the handler runs while Playwright waits
        if held:
            break
        page.wait_for_timeout(20)
    assert held, "the build never reached the server"
    page.click("#deck-register")
    page.wait_for_timeout(200)
    assert page.locator("#deck-message").inner_text() == ""  # nothing sent yet: the change comes first
    held[0].continue_()
    expect(page.locator("#deck-message")).to_contain_text("Registered")


def test_a_fresh_phone_fires_no_request_bound_to_fail_before_it_joins(two_drafting, browser):
    """Before: a phone's first load asked for its seat (and its table) with no seat token, and the browser's
    console logged two 401s before the join form showed.  A page that never joined asks nothing of a seat."""
    db, event_id, served = two_drafting
    page = phone_page(browser)
    failed: list[str] = []
    page.on(
        "response",
        lambda response: failed.append(f"{response.status} {response.url}") if response.status >= 400 else None,
    )
    page.clock.install()  # before the page loads: its polls run on Playwright's clock
    page.goto(served.url + f"/?event={event_id}&player=1")
    expect(page.locator("#screen-join")).to_be_visible()
    page.wait_for_load_state("networkidle")
    page.clock.run_for(3_000)  # night.js's first poll (POLL_MS, 3 s), on the page's clock: it asks for no table
    page.wait_for_timeout(500)  # (real time, Playwright's own wait) for an answer to anything it did ask
    assert failed == []
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
    page.reload()  # a joined page asks for its seat at once, and holds it
    expect(page.locator("#screen-draft")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert failed == []


def test_a_deck_reload_answered_after_the_event_finished_leaves_the_pool_and_downloads_shown(tmp_path, cli, browser):
    """A reload of the deck asked for during the rounds, answered once the event was finished, drew the builder
    back over "its decks can no longer be built or changed", with the rounds' "only the desk can change it now".
    The late answer is the server's deck from the rounds, given to a reload the page asks for after the finish
    (holding a real request past the finish outlasts the page's own 20 s wait on a busy machine)."""
    from tests.helpers.served import drafted_night

    db = tmp_path / "night.json"
    event_id = drafted_night(cli, db, NAMES)
    served = Served(db, event_id)
    try:
        page = phone_page(browser)
        join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann", screen="#screen-deck")
        expect(page.locator("#deck-grid")).to_be_visible()
        during = page.request.get(served.url + "/api/deck")  # the deck as the server has it during the rounds
        assert during.ok, during.text()
        events = Night(Store(db))
        for number, seated in enumerate(desk(served.url, "/api/desk/round", {})["tables"], 1):
            order = [[events.player_id(event_id, name)] for name in seated]
            desk(served.url, "/api/desk/settle", {"round": 1, "table": number, "order": order})
        desk(served.url, "/api/desk/finish", {})
        expect(page.locator("#deck-message")).to_contain_text(no_builder_words("finished"), timeout=20_000)
        page.route("**/api/deck", lambda route: route.fulfill(response=during))
        page.evaluate("() => cmdraft.loadDeck()")  # answered late, with the rounds' deck; awaited
        expect(page.locator("#deck-waiting")).to_be_visible()
        expect(page.locator("#deck-grid")).to_be_hidden()
        expect(page.locator("#deck-closed")).to_be_hidden()
        expect(page.locator("#deck-message")).to_contain_text(no_builder_words("finished"))
    finally:
        served.stop()


def test_a_deck_of_its_commander_alone_is_one_card(built, browser):
    """The first ♛ tapped on a phone: the heading read "Your deck · 1 cards"."""
    db, event_id, served = built
    page = phone_page(browser)
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann", screen="#screen-deck")
    page.locator("#deck-leaders button").first.click()
    expect(page.locator("#deck-commanders .line")).to_have_count(1)
    expect(page.locator("#deck-size")).to_have_text("· 1 card")


def test_a_refusal_said_on_the_builder_goes_when_the_desk_registers_another_deck(built, browser, cli):
    """Ann's builder refused a change ("can't add 1 Charcoal Diamond: ... nothing added"); then the desk registered
    a deck for her (`event deck --auto`) and her page showed that deck, registered, still under the refusal of a
    change made to a deck that was no longer there.  A deck that arrives changed from elsewhere takes the builder's
    words of the deck before it away."""
    db, event_id, served = built
    page = phone_page(browser)
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann", screen="#screen-deck")
    page.evaluate('cmdraft.deckAction({ action: "basics", color: "W", count: 100 })')  # as no button sends it
    message = page.locator("#deck-message")
    expect(message).to_have_text("count must be a whole number from 0 to 99")
    assert cli("event", "deck", event_id, "Ann", "--auto", "--db", db).exit_code == 0
    expect(page.locator("#deck-legal")).to_have_text("Legal · registered")
    expect(message).to_have_text("")


def test_an_illegal_deck_once_registration_closed_is_not_legal_not_not_legal_yet(built, browser, cli):
    """Ann registered a deck with problems and the desk paired round 1 anyway: her read-only deck, which only the
    desk can change now, still read "Not legal yet · registered", as if she could make it legal."""
    db, event_id, served = built
    page = phone_page(browser)
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann", screen="#screen-deck")
    page.click("#deck-register")
    legal = page.locator("#deck-legal")
    expect(legal).to_have_text("Not legal yet · registered")  # registration open: she may still mend it
    assert cli("event", "round", event_id, "--force", "--db", db).exit_code == 0
    expect(page.locator("#deck-closed")).to_be_visible()
    expect(legal).to_have_text("Not legal · registered")
