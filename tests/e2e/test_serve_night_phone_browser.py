"""A player's phone through the night, in a real browser (Debian's chromium through Playwright, at 390x844): the
night's standings under their table (the server's ranking, their own row marked), and the result flow's words on
each phone (the reporter's own report, who is still waited for), a press on the result's buttons while a push
arrives (the button pressed is the one clicked, with the mouse and with a finger); beside them the desk's clock
actions and the room's header (1920x1080).  Screenshots go to the test's folder
($CMDRAFT_SCREENSHOTS to keep them)."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable

from playwright.sync_api import Page, expect

from events.night.round_clock import start_clock
from events.night.table_shown import ALL_PLACED_VERSION_WORDS, ALL_PLACED_WORDS, PLAYER_STATUS_WORDS
from events.storage.store import Store
from tests.helpers.browsers import LAPTOP, PHONE, Served, phone_page
from tests.helpers.browsers import SIX_PLAYERS as NAMES
from tests.helpers.night import Night
from tests.helpers.nights import codes_of
from tests.helpers.pages import desk, join, open_table, script, words_replaced

# The shown elements reaching past the viewport's right edge (nothing on a phone page may need a sideways scroll).
OVERFLOWING = """() => [...document.querySelectorAll('body *')]
  .filter(n => n.offsetParent !== null && n.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .map(n => n.tagName.toLowerCase() + (n.id ? '#' + n.id : ''))"""

# The bar's event name is shown whole when the bar has room for it: "Saturday CMM" beside the status or the player's
# name was cut to "Saturday C…" with most of the bar empty.
WHOLE_EVENT_NAME = """(() => { const n = document.getElementById('event-name'); n.textContent = 'Saturday CMM';
  return n.scrollWidth <= n.clientWidth })()"""


# The standings' title in the server's answers, said otherwise on the way to the page: a page that shows these
# words shows the answer's title (``standings_title``), where the old one said its own.
SERVERS_TITLE_SAID = "Standings (as the server calls them)"
SERVERS_TITLE = ('"standings_title":"Standings"', f'"standings_title":"{SERVERS_TITLE_SAID}"')


def at_table(browser, served: Served, db, event_id: int, name: str, words: tuple[str, str] | None = None) -> Page:
    """``name``'s phone at their table; ``words``: (old, new), the server's answers to it with old words as new."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    if words is not None:
        words_replaced(context, *words)
    page = context.new_page()
    number = next(p.number for p in Night(Store(db)).players(event_id) if p.name == name)
    open_table(page, served.url, event_id, number, codes_of(db, event_id)[name])
    return page


def public(base: str, path: str) -> dict:
    with urllib.request.urlopen(base + path, timeout=10) as answer:
        return json.loads(answer.read())


def test_a_phone_shows_the_standings_as_the_server_ranks_them_with_its_own_row_marked(
    night_server, browser, cli, shots
):
    db, event_id, served = night_server
    paired = desk(served.url, "/api/desk/round", {})
    first, second = paired["tables"][0], paired["tables"][1]
    me = second[1]  # a player whose own table has no result yet
    page = at_table(browser, served, db, event_id, me, SERVERS_TITLE)
    expect(page.locator("#night-standings")).to_be_hidden()  # no result yet: nobody is ranked
    order = f"{first[0]} > {first[1]} = {first[2]}"
    assert cli("event", "result", event_id, 1, 1, order, "--db", db).exit_code == 0
    rows = page.locator("#night-standings li")
    ranked = public(served.url, "/api/standings")["standings"]
    expect(rows).to_have_count(len(NAMES), timeout=20_000)  # the push after the result, or the next poll
    expect(rows.locator(".name")).to_have_text([r["name"] + (" (you)" if r["name"] == me else "") for r in ranked])
    mine = page.locator("#night-standings li.me")
    expect(mine).to_have_count(1)
    expect(mine.locator(".name")).to_have_text(f"{me} (you)")
    expect(mine).to_have_attribute("aria-current", "true")
    expect(page.locator("#night-standings h2")).to_have_text(SERVERS_TITLE_SAID)  # the old page: its own words
    assert page.evaluate(OVERFLOWING) == [] and page.evaluate(WHOLE_EVENT_NAME)
    page.locator("#night-standings").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "night-standings-390x844.png"))


def test_the_reporter_may_change_their_report_and_a_waiting_player_reads_you(night_server, browser, shots):
    db, event_id, served = night_server
    table = desk(served.url, "/api/desk/round", {})["tables"][0]
    served_words = "Everyone is placed (the server's words): Confirm to send the result."
    reporter, waiting = (
        at_table(browser, served, db, event_id, table[0], (ALL_PLACED_WORDS, served_words)),
        at_table(browser, served, db, event_id, table[1]),
    )
    reporter.click("text=Report the result")
    for name in table:
        reporter.locator(".night-choice", has_text=name).click()
    expect(reporter.locator(".night-editor .hint")).to_have_text(served_words)  # the old page said its own words
    reporter.locator("#night-result button", has_text="Confirm").click()
    actions = reporter.locator("#night-result .night-actions button")
    expect(actions).to_have_text(["Change my report"])  # nothing of their own to confirm or dispute
    # the core's words, as the terminal says them (the old page: "Waiting for: you, Bo", its own)
    expect(reporter.locator(".night-waiting")).to_have_text(f"Still to confirm: {table[1]} / {table[2]}")
    expect(waiting.locator(".night-waiting")).to_have_text(f"Still to confirm: you / {table[2]}", timeout=20_000)
    expect(waiting.locator("#night-result .night-actions button")).to_have_text(["Confirm", "Dispute", "Report again"])
    assert reporter.evaluate(OVERFLOWING) == [] and waiting.evaluate(OVERFLOWING) == []
    waiting.screenshot(path=str(shots / "night-waiting-for-you-390x844.png"))
    waiting.locator("#night-result button", has_text="Dispute").click()  # the form starts from the report's order
    expect(waiting.locator(".night-editor .hint")).to_have_text(ALL_PLACED_VERSION_WORDS)
    for _ in range(2):
        waiting.locator("#night-result button", has_text="Undo").click()
    for name in (table[2], table[1]):
        waiting.locator(".night-choice", has_text=name).click()
    waiting.locator("#night-result button", has_text="Confirm my version").click()
    # the dispute in the core's words, as the desk and the terminal say it (the old page: "Bo disputes: …")
    expect(reporter.locator(".night-dispute")).to_have_text(
        f"{table[1]} disputes it, with this version: {table[0]} > {table[2]} > {table[1]}", timeout=20_000
    )


def test_the_desk_offers_the_clock_actions_its_state_allows_and_the_room_keeps_the_round_at_the_right(
    night_server, browser, shots
):
    db, event_id, served = night_server
    desk(served.url, "/api/desk/round", {})
    room = browser.new_context(viewport=LAPTOP).new_page()
    room.goto(served.url + "/room")
    expect(room.locator("#round-name")).to_have_text("Round 1")
    edge = room.evaluate("document.getElementById('round-name').getBoundingClientRect().right")
    assert edge > 0.95 * LAPTOP["width"]  # no clock yet: the round's name at the right edge
    room.screenshot(path=str(shots / "room-no-clock-1920x1080.png"))
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{served.url}/desk?token=desk-secret")
    actions = page.locator(".desk-night-actions button")
    expect(actions.filter(has_text="clock")).to_have_text(["Start the clock"])
    page.click("text=Start the clock")
    expect(actions.filter(has_text="clock")).to_have_text(["Pause the clock", "Restart the clock"])
    page.click("text=Pause the clock")
    expect(actions.filter(has_text="clock")).to_have_text(["Resume the clock", "Restart the clock"])
    page.screenshot(path=str(shots / "desk-clock-1920x1080.png"))
    assert page.evaluate(WHOLE_EVENT_NAME), "the event's name is cut short on a wide bar"
    expect(room.locator("#clock")).to_be_visible(timeout=10_000)  # the room's clock, right of the round's name
    assert room.evaluate("document.getElementById('clock').getBoundingClientRect().right") > 0.95 * LAPTOP["width"]


def test_the_room_on_a_phone_lists_the_final_standings_in_one_readable_column_the_winners_row_as_the_others(
    night_server, browser, shots
):
    db, event_id, served = night_server
    for table, names in enumerate(desk(served.url, "/api/desk/round", {})["tables"], start=1):
        desk(served.url, "/api/desk/settle", {"round": 1, "table": table, "order": " > ".join(names)})
    final = desk(served.url, "/api/desk/top", {"size": 3})
    desk(served.url, "/api/desk/settle", {"round": final["round"], "table": 1, "order": " > ".join(final["players"])})
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    words_replaced(context, *SERVERS_TITLE)
    room = context.new_page()
    room.goto(served.url + "/room")
    rows = room.locator("#standings .row")
    expect(rows).to_have_count(len(NAMES))
    expect(room.locator("#standings-title")).to_have_text(SERVERS_TITLE_SAID)  # the old page: its own words
    expect(room.locator("#standings .row.winner")).to_have_count(1)
    looks = rows.evaluate_all(
        "rows => rows.map(r => [getComputedStyle(r).fontSize, getComputedStyle(r).marginBottom, r.offsetLeft])"
    )
    assert len({tuple(look) for look in looks}) == 1, (
        looks
    )  # one column; the winner's row no bigger and no further apart
    assert room.locator("#standings .name").evaluate_all("ns => ns.filter(n => n.scrollWidth > n.clientWidth)") == []
    assert room.evaluate(OVERFLOWING) == []
    room.screenshot(path=str(shots / "room-final-390x844.png"), full_page=True)


# Each table a push brings the page, heard after the page's own table has taken it (night.js listens first).
HEARD = """() => {
  window.heard = [];
  document.addEventListener("cmdraft:seat", (event) => event.detail.table && window.heard.push(event.detail.table));
}"""


def waiting_to_confirm(night_server, browser) -> tuple[Page, list, Callable[[bool], None]]:
    """Table 1 reported by its first player's script; its last player's phone shows the report with its Confirm.
    Answers the phone (its requests confirming recorded in a list, ``window.heard`` kept), the list, and the second
    player's answer to the report, by script: confirmed (True) or disputed with their own order (False)."""
    db, event_id, served = night_server
    base = served.url
    table = desk(base, "/api/desk/round", {})["tables"][0]
    reporter, first, last = table
    numbers = {p.name: p.number for p in Night(Store(db)).players(event_id)}
    codes = codes_of(db, event_id)
    tokens = {
        name: script(base, "/api/join", {"event": event_id, "player": numbers[name], "code": codes[name]})["token"]
        for name in (reporter, first)
    }
    ids = [[p["id"]] for p in script(base, "/api/table", token=tokens[reporter])["round"]["players"]]
    report = script(base, "/api/result", {"order": ids}, tokens[reporter])["round"]["report"]["id"]
    page = at_table(browser, served, db, event_id, last)
    expect(page.locator("#night-result .night-waiting")).to_have_text(f"Still to confirm: {first} / you")
    sent: list = []
    page.on("request", lambda r: sent.append(r.post_data_json) if r.url.endswith("/api/result/confirm") else None)
    page.evaluate(HEARD)

    def answer(agree: bool) -> None:
        said = {"report": report, "agree": agree} | ({} if agree else {"order": ids[::-1]})
        script(base, "/api/result/confirm", said, tokens[first])  # pushed to every phone

    return page, sent, answer


def middle_of(page: Page, words: str) -> tuple[float, float]:
    """The middle of the result's button that says ``words``, where a finger or the mouse presses it."""
    box = page.locator("#night-result button", has_text=re.compile(f"^{words}$")).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_confirm_held_down_while_a_tablemates_confirmation_is_pushed_is_sent_and_records_the_result(
    night_server, browser
):
    """A press takes a moment, and a push may arrive meanwhile: here the tablemate's confirmation, which changes who
    is still waited for.  The old page drew its table again at once, a new Confirm put where the pressed one was; the
    browser sends the click of a press begun on a node no longer in the page to no control, so the confirmation was
    never sent and the table stayed "Reported by ...", as the three-phone browser test once saw in a full run.  Now
    the table is drawn after the press: the Confirm pressed is the Confirm clicked."""
    db, event_id, _ = night_server
    page, sent, answer = waiting_to_confirm(night_server, browser)
    page.mouse.move(*middle_of(page, "Confirm"))
    page.mouse.down()
    answer(True)
    page.wait_for_function("() => window.heard.some((t) => t.round.report?.waiting_words === 'Still to confirm: you')")
    page.mouse.up()
    expect(page.locator("#night-result .hint")).to_have_text(PLAYER_STATUS_WORDS["recorded"], timeout=10_000)
    assert [said["agree"] for said in sent] == [True]
    assert len([e for e in Night(Store(db)).history(event_id) if e.what == "result confirm"]) == 2


def test_a_tap_on_confirm_while_a_dispute_is_pushed_confirms_and_a_finger_scrolling_away_lets_the_table_redraw(
    night_server, browser
):
    """A phone: the finger is on Confirm when the tablemate's dispute arrives, a line more above the buttons.  The old
    page drew the table at once and the tap, found under the finger after the buttons had moved, reached no control:
    nothing was sent.  Now the tap is the Confirm's, sent; the server decides (the table waits for the desk)."""
    served = night_server[2]
    page, sent, answer = waiting_to_confirm(night_server, browser)
    x, y = middle_of(page, "Confirm")
    touch = page.context.new_cdp_session(page)
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    answer(False)
    page.wait_for_function("() => window.heard.some((t) => t.round.report?.disputes.length)")
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    expect(page.locator("#night-result .night-status")).to_have_text(PLAYER_STATUS_WORDS["disputed"])
    expect(page.locator("#night-result button", has_text=re.compile("^Confirm$"))).to_have_count(0, timeout=10_000)
    assert [said["agree"] for said in sent] == [True]

    # The desk settles the table while a finger rests on a button, and the finger then scrolls the page: no click
    # comes, and the table is drawn as soon as the finger moves off (it is not held for a click that never comes).
    names = [row.split(" (you)")[0] for row in page.locator("#night .night-players .name").all_inner_texts()]
    x, y = middle_of(page, "Report again")
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    desk(served.url, "/api/desk/settle", {"round": 1, "table": 1, "order": " > ".join(names)})
    page.wait_for_function("() => window.heard.some((t) => t.round.result)")
    for step in range(1, 6):
        touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y - 40 * step}]})
    expect(page.locator("#night-result .hint")).to_have_text(PLAYER_STATUS_WORDS["recorded"])
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    assert len(sent) == 1  # the press that scrolled sent nothing


# The levels of the headings a reader lists, in the page's order (those in a hidden part left out).
HEADING_LEVELS = """() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
  .filter(n => !n.closest('[hidden]')).map(n => [Number(n.tagName[1]), n.textContent.trim()])"""


def test_a_phone_at_its_table_lists_its_headings_as_an_outline_the_table_first(night_server, browser):
    """A screen reader's list of headings: the table the player is at heads the page (h1), its parts under it, then
    the deck with its own h1; no heading is deeper than one level under the heading before it (the table's h2-h4
    came before the deck's h1)."""
    db, event_id, served = night_server
    me = desk(served.url, "/api/desk/round", {})["tables"][0][1]
    page = at_table(browser, served, db, event_id, me)
    expect(page.locator("#night-result")).to_be_visible()
    expect(page.locator("#screen-deck")).to_be_visible()
    levels = page.evaluate(HEADING_LEVELS)
    assert levels[0] == [1, "Round 1 · Table 1"], levels
    assert [1, "Result"] not in levels and any(text.startswith("Your deck") for _, text in levels), levels
    deeper = [(a, b) for a, b in zip(levels, levels[1:], strict=False) if b[0] > a[0] + 1]
    assert deeper == [], levels


# The computed font sizes (px) of the table's parts a player reads.
TABLE_TEXT_SIZES = """() => ['.night-head h1', '.night-players .name', '.night-players .commanders', '.night-players .first']
  .map(s => parseFloat(getComputedStyle(document.querySelector('#night ' + s)).fontSize))"""


def test_a_phone_at_its_table_grows_every_text_with_the_readers_larger_text_and_needs_no_sideways_scroll(
    night_server, browser
):
    """A reader who sets the phone's text to twice the size (the root font size) gets the table's heading, names,
    commanders and "goes first" twice as big (px sizes stayed as they were), and the page still fits the width."""
    db, event_id, served = night_server
    me = desk(served.url, "/api/desk/round", {})["tables"][0][1]
    page = at_table(browser, served, db, event_id, me)
    expect(page.locator("#night .night-players .first")).to_be_visible()
    plain = page.evaluate(TABLE_TEXT_SIZES)
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    assert page.evaluate(TABLE_TEXT_SIZES) == [2 * size for size in plain]
    assert page.evaluate(OVERFLOWING) == []


def test_a_confirmation_that_got_no_answer_says_so_in_words_until_the_server_answers_again(night_server, browser):
    """Confirm tapped while the server could not be reached said the browser's own "Failed to fetch" (Chrome; "Load
    failed" on a phone's Safari) under Result, and went on saying it after the phone was back and the table shown
    again.  Now it says what the player can know, and goes once the table comes as the server has it."""
    page, sent, _ = waiting_to_confirm(night_server, browser)
    db, event_id, served = night_server
    # the server out of reach: the confirmation gets no answer, nor does the table the page asks for again, nor the
    # stream (with any of them answered the words would go at once, as they should: the table shows what arrived)
    served.stop()
    page.locator("#night-result button", has_text=re.compile("^Confirm$")).click()
    error = page.locator("#night-result .error")
    expect(error).to_have_text(
        "No answer from the server: what you sent may not have arrived. The page asks again and shows what the "
        "server has."
    )
    expect(page.locator("#night-result .night-waiting")).to_contain_text("you")  # it did not arrive: still asked
    again = Served(db, event_id, port=served.port)  # back: the next poll or the stream's table
    try:
        expect(error).to_have_count(0, timeout=10_000)
        page.locator("#night-result button", has_text=re.compile("^Confirm$")).click()
        expect(page.locator("#night-result .night-waiting")).not_to_contain_text("you")
    finally:
        again.stop()
    assert [said["agree"] for said in sent] == [True, True]


def test_a_refused_report_is_said_until_the_reporter_taps_again_then_the_order_is_finished_and_sent(
    night_server, browser
):
    """Before: the refusal of an order missing players stayed under Result while the reporter tapped the players it
    named, so "missing 'Ann', 'Bo', 'Cy'" was still read with every one of them placed."""
    db, event_id, served = night_server
    table = desk(served.url, "/api/desk/round", {})["tables"][0]
    reporter = at_table(browser, served, db, event_id, table[0])
    reporter.click("text=Report the result")
    reporter.locator(".night-choice", has_text=table[0]).click()
    reporter.locator("#night-result button", has_text="Confirm").click()
    refusal = reporter.locator("#night-result .error")
    expect(refusal).to_have_text(
        "the result must name every player at the table once; missing " + ", ".join(f"'{n}'" for n in table[1:])
    )
    reporter.locator(".night-choice", has_text=table[1]).click()
    expect(refusal).to_have_count(0)  # the order is being finished: the refusal of the one sent is not said over it
    for name in table[2:]:
        reporter.locator(".night-choice", has_text=name).click()
    reporter.locator("#night-result button", has_text="Confirm").click()
    expect(reporter.locator("#night-result .night-actions button")).to_have_text(["Change my report"])


def test_a_phone_scrolled_into_its_deck_is_brought_to_its_table_when_the_round_is_paired(building, browser, cli):
    """Ann registered her deck and looked further down the builder (the basics, the curve); the desk paired round
    1.  The table went in above the deck and the browser kept her where she was: the page looked no different, and
    she did not learn that she was paired, nor where she sits.  A table new to the page is scrolled into view; the
    next push of the same table (a report, a confirmation) leaves the page where the player put it."""
    db, event_id, served = building
    page = phone_page(browser)
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann", screen="#screen-deck")
    page.click("#deck-auto")
    expect(page.locator("#deck-legal")).to_have_text("Legal")
    page.click("#deck-register")
    expect(page.locator("#deck-legal")).to_have_text("Legal · registered")
    page.locator("#deck-curve").scroll_into_view_if_needed()
    heading = page.locator("#night h1")
    assert cli("event", "round", event_id, "--force", "--db", db).exit_code == 0
    expect(heading).to_have_text("Round 1 · Table 1")
    expect(heading).to_be_in_viewport()
    page.locator("#deck-curve").scroll_into_view_if_needed()
    start_clock(Night(Store(db)), event_id, 50)  # the same table pushed again, with its clock
    expect(page.locator("#night-clock")).not_to_be_empty()
    expect(heading).not_to_be_in_viewport()
