"""How the player's page sends a pick, in Debian's chromium: over its open stream, and with ``POST /api/pick`` when
it has none (a network that lets no WebSocket through), the same pick taken either way."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Page, WebSocketRoute, expect

from tests.helpers.browsers import PHONE, SCRIPT_NAME, bots_downstream, player_numbers, tap_and_confirm, upstream_of
from tests.helpers.nights import codes_of
from tests.helpers.pages import join, two_marked
from tests.helpers.served import draft_log


def test_the_page_picks_over_its_open_stream_and_posts_the_pick_when_it_has_none(pod, server, browser):
    db, event_id = pod
    codes, numbers = codes_of(db, event_id), player_numbers(db, event_id)
    seen: dict[str, list] = {"posted": [], "frames": [], "refused": []}
    streaming, blocked = (
        browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True) for _ in "ab"
    )

    def refuse(route: WebSocketRoute) -> None:  # this phone's network lets no WebSocket through
        seen["refused"].append(route.url)
        route.close()

    blocked.route_web_socket(re.compile(r"/api/stream"), refuse)
    pages = {"Ann": streaming.new_page(), SCRIPT_NAME: blocked.new_page()}
    for name, page in pages.items():
        page.on("request", lambda request, name=name: seen["posted"].append(name) if "/api/pick" in request.url else 0)
        page.on("websocket", lambda socket: socket.on("framesent", lambda frame: seen["frames"].append(frame)))
        page.goto(f"{server.url}/join?event={event_id}&player={numbers[name]}")
        page.fill("#join-code", codes[name])
        page.click("#join-button")
        expect(page.locator("#pack .card")).to_have_count(20)
    expect(pages["Ann"].locator("#conn")).to_have_attribute("data-state", "ok")
    expect(pages[SCRIPT_NAME].locator("#conn")).not_to_have_attribute("data-state", "ok")
    assert seen["refused"]

    before = len(draft_log(db, event_id))
    tap_and_confirm(pages["Ann"])  # the page's own check: the answer showed the pool with both cards
    sent = [json.loads(frame) for frame in seen["frames"]]
    picks = [message for message in sent if message["type"] == "pick"]
    assert [(p["type"], p["pack"], p["pick"], len(p["cards"])) for p in picks] == [("pick", 1, 1, 2)]
    told = [sorted(m["cards"]) for m in sent if m["type"] == "marks"]
    assert told[-1:] == [picks[0]["cards"]]  # the taps were told on the stream before the pick
    assert seen["posted"] == []
    tap_and_confirm(pages[SCRIPT_NAME])
    assert seen["posted"] == [SCRIPT_NAME] and len(picks) == 1
    assert upstream_of(db, event_id, "Ann") == ("Bo", 0)  # Bo, who hasn't picked, passes Ann her next pack
    expect(pages["Ann"].locator("#waiting-for")).to_have_text("Waiting for Bo to pass you a pack…")
    # the two picks, and the bots' picks of the packs they passed on (a bot picks a pack as soon as it reaches it)
    passed_on = bots_downstream(db, event_id, "Ann") + bots_downstream(db, event_id, SCRIPT_NAME)
    assert len(draft_log(db, event_id)) == before + 2 + passed_on
    for context in (streaming, blocked):
        context.close()


def ann_confirms_a_pick_her_stream_swallows(pod, server, browser) -> tuple[Page, list[WebSocketRoute], int]:
    """Ann's phone, whose first stream takes her pick and never passes it on (a connection that dies silently
    mid-pick): joined, two cards tapped, the page's timers on Playwright's clock from then, Confirm pressed.  The
    page, its streams' routes, and the draft's picks before."""
    db, event_id = pod
    codes, numbers = codes_of(db, event_id), player_numbers(db, event_id)
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    routes: list[WebSocketRoute] = []

    def swallow_the_first_pick(route: WebSocketRoute) -> None:
        routes.append(route)
        to_server = route.connect_to_server()
        first = len(routes) == 1
        route.on_message(lambda message: None if first and '"pick"' in str(message) else to_server.send(message))

    context.route_web_socket(re.compile(r"/api/stream"), swallow_the_first_pick)
    page = context.new_page()
    two_marked(page, server.url, codes["Ann"], event_id=event_id, number=numbers["Ann"])
    before = len(draft_log(db, event_id))  # (marking cards makes no pick)
    expect(page.locator("#confirm")).to_be_enabled()
    page.clock.install()  # from here the page's timers run on Playwright's clock
    page.click("#confirm")
    return page, routes, before


def test_a_pick_the_stream_never_answers_closes_it_and_the_page_reconnects_and_sends_it_again(pod, server, browser):
    """The page's own 15 s wait runs on Playwright's clock (fast-forwarded), not the test's.  The pick that got no
    answer is sent again by itself once the server answers with the same pack in front of the seat: a player
    whose phone lost the server (or whose server was started again) taps nothing twice."""
    db, event_id = pod
    page, opened, before = ann_confirms_a_pick_her_stream_swallows(pod, server, browser)
    page.clock.fast_forward(16_000)
    expect(page.locator("#toast")).to_contain_text("your pick is sent again")
    expect(page.locator("#pool-count")).to_have_text("2")  # taken, with no second tap
    expect(page.locator("#conn")).to_have_attribute("data-state", "ok")
    assert len(opened) == 2  # a new stream
    log = draft_log(db, event_id)
    assert len(log) == before + 1 + bots_downstream(db, event_id, "Ann")  # once, and the bots after her
    page.context.close()


def test_a_pick_that_got_no_answer_is_never_sent_for_the_next_seat_joined_on_the_phone(pod, server, browser, cli):
    """Ann's pick gets no answer, and meanwhile the desk gives her seat a new code: the page goes to the join
    screen.  Bo joins on the same phone (his pack is at the same pack, pick and size as Ann's was): when his stream
    drops and the page reconnects, Ann's cards are not sent as Bo's pick."""
    db, event_id = pod
    codes, numbers = codes_of(db, event_id), player_numbers(db, event_id)
    page, routes, before = ann_confirms_a_pick_her_stream_swallows(pod, server, browser)
    assert cli("event", "player", "code", event_id, "Ann", "--reset", "--db", db).exit_code == 0
    page.clock.fast_forward(16_000)  # no answer: the page asks again, and Ann's seat needs its new code
    expect(page.locator("#join-notice")).to_contain_text("new code")
    page.fill("#join-player", str(numbers["Bo"]))
    page.fill("#join-code", codes["Bo"])
    page.click("#join-button")
    expect(page.locator("#pack .card")).to_have_count(20)
    expect(page.locator("#conn")).to_have_attribute("data-state", "ok")
    expect(page.locator('#pack .card[aria-pressed="true"]')).to_have_count(0)  # nor Ann's cards shown as Bo's
    routes[-1].close()  # Bo's stream drops: the page reconnects
    page.clock.fast_forward(20_000)
    expect(page.locator("#conn")).to_have_attribute("data-state", "ok")
    expect(page.locator("#pack .card")).to_have_count(20)
    assert len(draft_log(db, event_id)) == before  # nobody's pick was made: not Ann's, nor hers as Bo's
    page.context.close()


def test_a_packs_cards_come_without_ids_and_the_page_names_a_tapped_card_by_its_place(pod, server, browser):
    """A pack's cards carry no ``id`` on the stream (a card's place is its index in the list): the page, which
    shows the pack sorted, names each tapped card by its place in the list it got, and the server takes those
    very cards."""
    db, event_id = pod
    codes, numbers = codes_of(db, event_id), player_numbers(db, event_id)
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    frames: dict[str, list] = {"received": [], "sent": []}
    page.on(
        "websocket",
        lambda socket: (
            socket.on("framereceived", lambda frame: frames["received"].append(json.loads(frame))),
            socket.on("framesent", lambda frame: frames["sent"].append(json.loads(frame))),
        ),
    )
    join(page, server.url, codes["Ann"], event_id=event_id, number=numbers["Ann"])
    expect(page.locator("#pack .card")).to_have_count(20)
    for _ in range(200):  # the page may show the pack from GET /api/seat before the stream's first state comes
        if any(m["type"] == "seat" for m in frames["received"]):
            break
        page.wait_for_timeout(50)
    cards = next(m["seat"]["draft"]["cards"] for m in frames["received"] if m["type"] == "seat")
    assert len(cards) == 20 and not any("id" in card for card in cards)
    names = [card["name"] for card in cards]
    places = [place for place, name in enumerate(names) if names.count(name) == 1][2:4]  # not the first nor last
    for place in places:
        tapped = page.locator(f'#pack [data-index="{place}"]')
        expect(tapped).to_contain_text(names[place])  # the card drawn for that place is the list's card there
        tapped.click()
    page.click("#confirm")
    expect(page.locator("#pool-count")).to_have_text("2")
    picks = [m for m in frames["sent"] if m["type"] == "pick"]
    assert [sorted(p["cards"]) for p in picks] == [places]
    answer = next(m for m in frames["received"] if m["type"] == "picked")
    assert sorted(card["name"] for card in answer["seat"]["pool"]) == sorted(names[place] for place in places)
    assert not any("id" in card for card in answer["seat"]["pool"])
    taken = [sorted(names_taken) for _, pack, pick, names_taken in draft_log(db, event_id) if (pack, pick) == (1, 1)]
    assert sorted(names[place] for place in places) in taken  # the draft took those very cards
    context.close()
