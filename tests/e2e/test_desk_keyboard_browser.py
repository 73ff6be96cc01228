"""The desk's page from the keyboard, in a real browser (Debian's chromium through Playwright): the page asks the
server every 2 s (the seats) and 3 s (the night) and draws what it answers, and a desk working with Tab and Enter, or
a choice made in a list, must not lose its place to those answers.  Before: every answer drew the page anew, so the
keyboard's place fell back to the page's start every 2 seconds (the next Tab began again at the first seat), and the
final table's size chosen in its list went back to the first size before "Seat the final table" was pressed."""

from __future__ import annotations

import json
import urllib.request

from playwright.sync_api import Page, expect

from tests.helpers.browsers import LAPTOP, phone_page, player_numbers
from tests.helpers.nights import codes_of
from tests.helpers.pages import answer_next_question, desk, join, script, too_small

# whether an element's text is drawn on one line (its text's boxes all at one height)
ONE_LINE = """(node) => {
  const range = document.createRange();
  range.selectNodeContents(node);
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size === 1;
}"""
# the buttons whose name (what a screen reader says, what a voice control is told) doesn't begin with their words
NAMED_AS_SHOWN = """[...document.querySelectorAll('button[aria-label]')].filter(b =>
  !b.getAttribute('aria-label').toLowerCase().startsWith(b.textContent.trim().toLowerCase()))
  .map(b => b.textContent + ' / ' + b.getAttribute('aria-label'))"""
FOCUSED = "document.activeElement && (document.activeElement.getAttribute('aria-label') || document.activeElement.textContent)"


def tab_to(page: Page, name: str, most: int = 40) -> str:
    """Press Tab until the keyboard is on a control whose name starts with ``name``; that control's name."""
    for _ in range(most):
        page.keyboard.press("Tab")
        said = page.evaluate(FOCUSED)
        if said.startswith(name):
            return said
    raise AssertionError(f"Tab never reached {name!r}")


POLLS = 3_000  # the longer of the desk page's two polls (the seats every 2 s, the night every 3 s)


def desk_page(browser, url: str) -> Page:
    """The desk's page on a laptop, its timers on Playwright's clock (``answers`` runs them on)."""
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.clock.install()
    page.goto(f"{url}/desk?token=desk-secret")
    return page


def answers(page: Page, path: str, count: int) -> None:
    """The page's next ``count`` answers from ``path`` (its polls, the page's clock run on to each: ``desk_page``),
    the last one drawn."""
    for _ in range(count):
        with page.expect_response(lambda r: r.url.endswith(path)):
            page.clock.run_for(POLLS)
    page.wait_for_timeout(100)


def test_the_keyboard_keeps_its_place_on_the_seats_through_the_desks_polls_and_a_change(two_drafting, browser):
    db, event_id, served = two_drafting
    codes, numbers = codes_of(db, event_id), player_numbers(db, event_id)
    page = desk_page(browser, served.url)
    bo = page.locator(f'tr[data-player="{numbers["Bo"]}"]')
    expect(bo.get_by_role("button", name="To a bot: Bo's seat")).to_be_visible()
    tablet = browser.new_context(viewport={"width": 820, "height": 1180}).new_page()  # a judge's tablet
    tablet.goto(f"{served.url}/desk?token=desk-secret")
    for name in ("Ann", "Bo"):  # "#2 Bo" on one line, never "#2" above "Bo"
        cell = tablet.locator(f'tr[data-player="{numbers[name]}"] td').nth(1)
        expect(cell).to_contain_text(name)
        assert cell.evaluate(ONE_LINE), cell.inner_text()
    tablet.context.close()
    tab_to(page, "To a bot: Bo's seat")
    answers(page, "/api/desk", 2)  # the seats as they were
    assert page.evaluate(FOCUSED) == "To a bot: Bo's seat"
    script(served.url, "/api/join", {"event": event_id, "player": numbers["Ann"], "code": codes["Ann"]})
    ann = page.locator(f'tr[data-player="{numbers["Ann"]}"]')
    answers(page, "/api/desk", 1)
    expect(ann.locator("td").nth(2)).to_contain_text("phone")  # Ann joined: the seats are drawn again
    assert page.evaluate(FOCUSED) == "To a bot: Bo's seat"
    assert page.evaluate("document.activeElement.matches(':focus-visible')")  # the keyboard's place is seen
    # a phone open on Ann's seat asks the server all the time: the rows are not drawn again for it (a click half
    # made on a row drawn anew is lost), only when something they show changes
    phone = phone_page(browser)
    join(phone, served.url, codes["Ann"], event_id=event_id, number=numbers["Ann"])
    answers(page, "/api/desk", 1)
    expect(ann.locator("td").nth(2)).to_contain_text("phone · online")
    page.evaluate("window.kept = document.activeElement")
    answers(page, "/api/desk", 3)
    assert page.evaluate("document.activeElement === window.kept && document.body.contains(window.kept)")
    page.once("dialog", lambda dialog: dialog.accept())
    page.keyboard.press("Enter")
    expect(bo.locator("td").nth(3)).to_have_text("a bot plays it")
    # a new seat code is read out when it comes (a live region), not only drawn in its box
    page.once("dialog", lambda dialog: dialog.accept())
    ann.get_by_role("button", name="New code for Ann's seat").click()
    expect(page.get_by_role("status").filter(has_text="New code for Ann: ")).to_have_count(1)


def test_the_keyboard_and_the_final_tables_size_keep_their_place_on_the_night_through_the_polls(night_server, browser):
    db, event_id, served = night_server
    tables = desk(served.url, "/api/desk/round", {})["tables"]
    page = desk_page(browser, served.url)
    expect(page.locator("#desk-night h1")).to_have_text("Round 1")
    assert too_small(page) == []  # every control a thumb's size, the result fields too (they were 40 px high)
    assert page.evaluate(NAMED_AS_SHOWN) == []  # each button's name begins with the words it shows
    extra = tab_to(page, "+5 min for table ")  # a screen reader hears which table's
    first = page.evaluate("document.activeElement.closest('[data-table]').dataset.table")
    assert extra == f"+5 min for table {first}"
    answers(page, "/api/desk/night", 2)
    assert page.evaluate(FOCUSED) == extra
    # another table's result comes in: the night is drawn again, the keyboard stays on the same table's button
    other = 2 if first == "1" else 1
    desk(served.url, "/api/desk/settle", {"round": 1, "table": other, "order": " > ".join(tables[other - 1])})
    answers(page, "/api/desk/night", 1)
    expect(page.locator(f'.desk-night-table[data-table="{other}"] .desk-night-order')).to_be_visible()
    assert page.evaluate(FOCUSED) == extra
    page.keyboard.press("Space")  # Space presses the button the keyboard is on, as Enter does
    expect(page.locator("#desk-night-message")).to_have_text(f"table {first}: 5 more minutes")
    # the last table's result typed at the keyboard: Enter in the field records it, as its button does
    field = page.get_by_role("textbox", name=f"result of table {first}")
    field.focus()
    page.evaluate("window.region = document.getElementById('desk-night-said')")
    page.keyboard.type(" > ".join(tables[int(first) - 1]))
    page.keyboard.press("Enter")
    expect(page.locator("#desk-night-message")).to_have_text(f"table {first} recorded")
    # a screen reader is told: the same live region (not one drawn anew with its words in, which is not read out)
    expect(page.get_by_role("status").filter(has_text=f"table {first} recorded")).to_have_count(1)
    assert page.evaluate("document.getElementById('desk-night-said') === window.region && !!window.region")
    size = page.locator("#desk-night select")
    expect(size).to_be_visible()
    size.select_option("3")
    answers(page, "/api/desk/night", 2)
    expect(size).to_have_value("3")  # the desk's choice, not the list's first size again
    page.locator("#desk-night button", has_text="Seat the final table").click()
    expect(page.locator("#desk-night h1")).to_have_text("Final table")
    assert len(page.locator(".desk-night-table").first.locator("p").nth(1).inner_text().split(", ")) == 3


def test_undo_and_finish_ask_first_naming_what_and_undo_takes_back_only_the_change_it_named(night_server, browser):
    """Before: "Undo the desk's last change" took back whatever was last, a round's pairing too, in one tap and
    without saying what (the terminal asks first for a pairing: players may sit at those tables), and "Finish the
    event", which nothing takes back, finished it in one tap."""
    db, event_id, served = night_server
    tables = desk(served.url, "/api/desk/round", {})["tables"]
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{served.url}/desk?token=desk-secret")
    heading = page.locator("#desk-night h1")
    expect(heading).to_have_text("Round 1")
    asked: list[str] = []

    undo = page.locator("#desk-night button", has_text="Undo the desk's last change")
    answer_next_question(page, asked, accept=False)
    undo.click()
    expect(page.locator("#desk-night button", has_text="Undo the desk's last change")).to_be_enabled()
    assert (
        len(asked) == 1
        and asked[0].startswith("Take back the pairing of round 1?")
        and "Players may be sitting" in asked[0]
    )
    expect(heading).to_have_text("Round 1")  # dismissed: still paired
    desk(served.url, "/api/desk/clock", {})  # a clock is started again, never undone: said why, nothing asked or sent
    undo.click()
    expect(page.locator("#desk-night-message")).to_contain_text("can't be undone: a round's clock is set again")
    assert len(asked) == 1
    # restarting the clock (never undone) and pairing the round again (players may sit there) ask first too
    answer_next_question(page, asked, accept=False)
    page.locator("#desk-night button", has_text="Restart the clock").click()
    expect(page.locator("#desk-night button", has_text="Restart the clock")).to_be_enabled()
    assert asked[1].startswith("Restart the clock of round 1 from its full ") and "time played so far" in asked[1]
    answer_next_question(page, asked, accept=False)
    page.locator("#desk-night button", has_text="Pair this round again").click()
    expect(page.locator("#desk-night button", has_text="Pair this round again")).to_be_enabled()
    assert asked[2].startswith("Pair round 1 again?") and "sitting" in asked[2]
    expect(page.locator("#desk-night-message")).not_to_contain_text("restarted")
    expect(page.locator("#desk-night-message")).not_to_contain_text("paired again")
    del asked[1:]
    one = " > ".join(tables[0])
    desk(served.url, "/api/desk/settle", {"round": 1, "table": 1, "order": one})

    def another_change_then_yes(dialog) -> None:  # a second desk records table 2 while this one is asked
        asked.append(dialog.message)
        desk(served.url, "/api/desk/settle", {"round": 1, "table": 2, "order": " > ".join(tables[1])})
        dialog.accept()

    page.once("dialog", another_change_then_yes)
    undo.click()
    expect(page.locator("#desk-night-message")).to_contain_text("another change was made meanwhile")
    assert asked[1].startswith("Take back result") and "Players may be sitting" not in asked[1]
    for table in ("1", "2"):  # nothing undone in its place: both results stand
        expect(page.locator(f'.desk-night-table[data-table="{table}"] .desk-night-order')).to_be_visible()
    finish = page.locator("#desk-night button", has_text="Finish the event")
    answer_next_question(page, asked, accept=False)
    finish.click()
    expect(page.locator("#desk-night button", has_text="Finish the event")).to_be_enabled()
    assert asked[2].startswith("Finish ") and "stays finished" in asked[2]
    expect(page.locator("#event-status")).to_have_text("playing")
    page.once("dialog", lambda dialog: dialog.accept())
    finish.click()
    expect(page.locator("#desk-night-message")).to_have_text("finished")
    expect(page.locator(".desk-night-table input")).to_have_count(0)  # no result changes now: no field offers one
    expect(page.locator(".desk-night-table button")).to_have_count(0)


def desk_read(base: str, path: str) -> dict:
    """The desk's script reading: a GET with the desk's bearer token."""
    request = urllib.request.Request(base + path, headers={"authorization": "Bearer desk-secret"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def test_the_desk_page_shows_the_piper_ledger_while_decks_are_built_and_follows_it(building, browser, cli, shots):
    """Before: the Piper ledger was the terminal's only (`event pipers`); the desk's page, open on the laptop and a
    judge's phone while decks are built, had none (who could lend, a shortfall, the forecast from requests)."""
    db, event_id, served = building
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{served.url}/desk?token=desk-secret")
    panel = page.locator("#desk-pipers")
    expect(panel.get_by_role("heading", name="Piper ledger")).to_be_visible()
    stock = panel.get_by_role("row", name="Piper stock")
    expect(stock.get_by_role("cell")).to_have_text("6")
    expect(panel.get_by_role("row", name="Opened, pod 1")).to_contain_text("of 8 recorded pools")
    expect(panel.get_by_role("row", name="Could lend")).to_be_visible()
    # the desk's terminal changes the ledger: the page follows with no reload, in the core's figures
    changed = cli("event", "pipers", event_id, "--stock", "0", "--request", "Ann=2", "--request", "Bo=2", "--db", db)
    assert changed.exit_code == 0, changed.output
    expect(stock.get_by_role("cell")).to_have_text("0")
    expect(panel.get_by_role("row", name="Requested (forecast)").get_by_role("cell")).to_have_text("Ann 2, Bo 2")
    forecast = desk_read(served.url, "/api/desk/pipers")["forecast"]
    needed = panel.get_by_role("row", name="Needed from others").get_by_role("cell")
    expect(needed).to_have_text(str(forecast["needed_from_others"]))
    short = panel.get_by_role("row", name="Forecast short")  # shown when the requests outrun what could be lent
    if forecast["shortfall"]:
        expect(short).to_contain_text(f"{forecast['shortfall']} Piper")
    else:
        expect(short).to_have_count(0)
    page.screenshot(path=str(shots / "desk-pipers-1920.png"), full_page=True)


def test_a_desk_button_pressed_as_the_seats_change_is_the_button_clicked(two_drafting, browser):
    """Before: the seats were drawn anew on each answer that changed them, mid-press too, and the browser gives the
    click of a press begun on a button no longer in the page to no button: "New code" pressed as a phone joined did
    nothing.  The seats are drawn after the press now (``cmdraftPage.pressHold``, as the player's pages do)."""
    db, event_id, served = two_drafting
    codes, numbers = codes_of(db, event_id), player_numbers(db, event_id)
    page = desk_page(browser, served.url)
    bo = page.locator(f'tr[data-player="{numbers["Bo"]}"]')
    ann = page.locator(f'tr[data-player="{numbers["Ann"]}"]')
    button = bo.get_by_role("button", name="New code for Bo's seat")
    box = button.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    script(served.url, "/api/join", {"event": event_id, "player": numbers["Ann"], "code": codes["Ann"]})
    answers(page, "/api/desk", 2)  # the answer with Ann's phone in it has come (her row waits for the press)
    asked: list[str] = []

    answer_next_question(page, asked, accept=False)
    page.mouse.up()
    expect(ann.locator("td").nth(2)).to_contain_text("phone")  # drawn once the press is over
    assert asked == ["Give Bo a new seat code? The old one stops working."]


def test_a_judge_drops_a_player_from_the_desk_page_and_a_report_waiting_only_for_them_is_recorded(
    night_server, browser
):
    """Before: only the terminal (`event player drop`) or the player's own phone dropped a player; a judge with the
    desk's page on a tablet, at a table a player had left, could not.  The seat's "Drop" asks first, naming the
    player, and says what the terminal says, the report that waited only for them recorded as the table's result."""
    db, event_id, served = night_server
    codes, numbers = codes_of(db, event_id), player_numbers(db, event_id)
    first, second, gone = desk(served.url, "/api/desk/round", {})["tables"][0]
    tokens = {
        name: script(served.url, "/api/join", {"event": event_id, "player": numbers[name], "code": codes[name]})[
            "token"
        ]
        for name in (first, second)
    }
    seated = {p["name"]: p["id"] for p in script(served.url, "/api/table", token=tokens[first])["round"]["players"]}
    order = [[seated[first]], [seated[second]], [seated[gone]]]
    report = script(served.url, "/api/result", {"order": order}, tokens[first])["round"]["report"]["id"]
    script(served.url, "/api/result/confirm", {"report": report, "agree": True}, tokens[second])  # waits for `gone`
    page = browser.new_context(viewport={"width": 820, "height": 1180}).new_page()  # a judge's tablet
    page.goto(f"{served.url}/desk?token=desk-secret")
    page.locator(".desk-fold > summary").click()  # the draft is over: its seats are folded
    drop = page.get_by_role("button", name=f"Drop {gone} from the event")
    asked: list[str] = []

    answer_next_question(page, asked, accept=False)
    drop.click()
    expect(drop).to_be_visible()
    assert asked == [f"Drop {gone} from the event? They are paired no more (the desk's undo takes it back)."]
    expect(page.locator(".desk-night-table").first.locator(".desk-night-status")).not_to_have_text("recorded")
    page.once("dialog", lambda dialog: dialog.accept())
    drop.click()
    said = f"{gone} dropped; round 1 table 1: the report that waited only for them is its result now"
    expect(page.locator("#desk-message")).to_have_text(said)
    expect(page.locator(".desk-night-table").first.locator(".desk-night-status")).to_have_text("recorded")
    expect(page.locator("#desk-night")).to_contain_text(f"Dropped: {gone} (after round 1)")
    expect(drop).to_have_count(0)  # a player who dropped is dropped no more


def test_a_typed_result_the_core_refuses_stays_in_its_field_to_mend_and_is_cleared_once_recorded(night_server, browser):
    """Before: the field was emptied as the result was sent, so a name mistyped in a five-player order ("Hall"
    for "Hal") came back refused with nothing left to mend: the desk typed the whole order again."""
    db, event_id, served = night_server
    tables = desk(served.url, "/api/desk/round", {})["tables"]
    page = desk_page(browser, served.url)
    field = page.get_by_role("textbox", name="result of table 1")
    players = tables[0]
    typo = " > ".join([players[0] + "x", *players[1:]])
    field.fill(typo)
    field.press("Enter")
    expect(page.locator("#desk-night-message")).to_contain_text(f"no player '{players[0]}x'")
    expect(field).to_have_value(typo)
    page.locator("#desk-night h1").click()  # the keyboard leaves the field: the page follows the server again
    answers(page, "/api/desk/night", 2)
    expect(field).to_have_value(typo)
    field.fill(" > ".join(players))
    field.press("Enter")
    expect(page.locator("#desk-night-message")).to_have_text("table 1 recorded")
    expect(page.get_by_role("textbox", name="result of table 1")).to_have_value("")


def test_a_refused_desk_action_is_drawn_as_a_refusal_and_what_an_action_came_to_as_before(night_server, browser):
    """Before: the core's refusal of a result typed at a table ("no player 'Box' …") was drawn in the same small grey
    line under the round's heading as "table 1 recorded", easy to take for done on a busy night."""
    db, event_id, served = night_server
    tables = desk(served.url, "/api/desk/round", {})["tables"]
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{served.url}/desk?token=desk-secret")
    field = page.get_by_role("textbox", name="result of table 1")
    message = page.locator("#desk-night-message")
    field.fill(" > ".join([tables[0][0] + "x", *tables[0][1:]]))
    field.press("Enter")
    expect(message).to_contain_text(f"no player '{tables[0][0]}x'")
    refused = message.evaluate("n => getComputedStyle(n).color")
    field.fill(" > ".join(tables[0]))
    field.press("Enter")
    expect(message).to_have_text("table 1 recorded")
    said = message.evaluate("n => getComputedStyle(n).color")
    assert refused != said and refused == "rgb(179, 38, 30)"  # the page's colour for what went wrong (--bad)
