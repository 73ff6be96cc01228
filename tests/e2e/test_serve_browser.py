"""The player's page in a real browser: Debian's chromium driven by Playwright against ``cmdraft serve``'s app run
by uvicorn on a loopback port, over a real database made at the desk's command line.  Two phones (390x844) and a
laptop (1920x1080) join with their seat codes, draft a pod's first pack with five bots by tapping two cards and
confirming (the other packs are picked at the core with the seats' own tokens, and the pages follow), build and
register their decks; a reload mid-pick keeps the seat; a player named like a script tag stays text.
Screenshots of both sizes are written to the test's folder (and copied to $CMDRAFT_SCREENSHOTS when it is set).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from draft.decks import is_piper
from events.storage.store import Store
from events.web import auth
from tests.helpers.browsers import (
    LAPTOP,
    PHONE,
    SCRIPT_NAME,
    Served,
    phone_page,
    player_numbers,
    tap_and_confirm,
    upstream_of,
)
from tests.helpers.cardfiles import cmr_mtgjson
from tests.helpers.night import Night
from tests.helpers.nights import codes_of, draft_to_the_end, start, terminal_night
from tests.helpers.pages import join
from tests.helpers.paths import ROOT

PICKS = 10  # a pack of 20 cards, two cards a pick: the first pack is picked on the pages, the other two at the core
WAKE_LOCK_RECORDER = """
window.wakeLocks = [];
Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {request: function (kind) {
  var lock = new EventTarget();
  lock.type = kind;
  lock.release = function () { lock.dispatchEvent(new Event("release")); return Promise.resolve(); };
  window.wakeLocks.push(lock);
  return Promise.resolve(lock);
}}});
"""  # the screen wake lock as a browser offers it, recording each request


def pick_status(page: Page) -> str:
    return page.locator("#pack-pick").inner_text()


def can_pick(page: Page) -> bool:
    return page.evaluate("!document.getElementById('screen-draft').hidden && !!document.querySelector('#pack .card')")


def build_by_hand(page: Page) -> None:
    """A commander tapped, the rest by Auto; a card taken out shows the problem; undo and redo."""
    expect(page.locator("#deck-legal")).to_have_text("Not legal yet")
    expect(page.locator("#deck-problems li").first).to_contain_text("commander")
    # the cards that may lead, under the Commanders heading: on a phone the ♛ of each was found only by scrolling
    # the whole sideboard
    crowns = page.locator("#deck-side button", has_text="♛")
    crowned = [crowns.nth(i).get_attribute("aria-label") or "" for i in range(crowns.count())]
    may_lead = [label.replace("make ", "lead with ", 1).removesuffix(" a commander") for label in crowned]
    assert may_lead
    leaders = page.locator("#deck-leaders button")
    assert [leaders.nth(i).get_attribute("aria-label") for i in range(leaders.count())] == may_lead
    leaders.first.click()
    expect(page.locator("#deck-commanders .line")).to_have_count(1)
    expect(page.locator("#deck-leaders")).to_be_hidden()  # a commander chosen: a partner's ♛ is on its line
    # a commander alone: no land makes its color yet, and the page says so in the terminal builder's words
    expect(page.locator("#deck-cautions li").first).to_contain_text("colors short of sources: ")
    page.click("#deck-auto")
    expect(page.locator("#deck-legal")).to_have_text("Legal")
    size = page.locator("#deck-size").inner_text()
    page.locator("#deck-main button", has_text="−").first.click()  # one card to the sideboard
    expect(page.locator("#deck-legal")).to_have_text("Not legal yet")
    expect(page.locator("#deck-problems li")).not_to_have_count(0)
    page.click("#deck-undo")
    expect(page.locator("#deck-size")).to_have_text(size)
    expect(page.locator("#deck-legal")).to_have_text("Legal")
    page.click("#deck-redo")
    expect(page.locator("#deck-legal")).to_have_text("Not legal yet")
    page.click("#deck-undo")
    expect(page.locator("#deck-problems li")).to_have_count(0)


def lead_with_pipers(page: Page) -> None:
    page.get_by_role("button", name="Piper colour Blue").click()
    page.get_by_role("button", name="Piper colour Red").click()
    page.click("#piper-set")
    expect(page.locator("#deck-commanders .line-name")).to_have_text(["The Prismatic Piper", "The Prismatic Piper"])
    expect(page.locator("#deck-commanders .line > .pip")).to_have_text(["U", "R"])  # each Piper's colour
    # a screen reader hears each Piper's colour by name and its cost in words (before: the letters "U", "5")
    expect(page.locator("#deck-commanders .line > .visually-hidden")).to_have_text(["blue", "red"])
    expect(page.locator("#deck-commanders .line > .pips").first).to_have_attribute("aria-label", "costs 5")
    page.get_by_role("button", name="remove The Prismatic Piper (blue) as commander").click()  # named by its colour
    expect(page.locator("#deck-commanders .line > .pip")).to_have_text(["R"])  # the other keeps its colour
    expect(page.get_by_role("button", name="Piper colour Red")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Piper colour Blue").click()  # and back: both again
    page.click("#piper-set")
    expect(page.locator("#deck-commanders .line > .pip")).to_have_text(["U", "R"])


def draft_the_rest_with_the_seats_tokens(db: Path, event_id: int, pages: list[Page]) -> None:
    """The draft's other packs picked to the end at the core, each seat's pick the strong bot's, made with the token
    its browser holds (its seat cookie: as its phone would send it, the seats being bound to the browsers), the way
    a terminal at the table picks while the event is served: the pages follow by themselves."""
    tokens = [c["value"] for page in pages for c in page.context.cookies() if c["name"] == auth.SEAT_COOKIE]
    assert len(tokens) == len(pages)
    night = Night(Store(db))
    (pod,) = night.snapshot(event_id).pods
    session = night.draft_session(event_id, pod.number)
    while not session.draft.finished:
        for seat in session.waiting_humans():
            token = next(token for token in tokens if session.bound_exactly(seat, token))
            session.pick(session.suggested_pick(seat), token)


def test_two_phones_and_a_laptop_draft_with_bots_to_registered_decks(pod, server, browser, shots):
    db, event_id = pod
    codes, numbers = codes_of(db, event_id), player_numbers(db, event_id)
    phones = [browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True) for _ in "ab"]
    laptop = browser.new_context(viewport=LAPTOP)
    ann, script, bo = phones[0].new_page(), phones[1].new_page(), laptop.new_page()
    errors: list[str] = []
    for page in (ann, script, bo):
        page.on("pageerror", lambda error: errors.append(str(error)))

    join(ann, server.url, codes["Ann"], event_id=event_id, number=numbers["Ann"])
    join(script, server.url, codes[SCRIPT_NAME], event_id=event_id, number=numbers[SCRIPT_NAME])
    join(bo, server.url, codes["Bo"], event_id=event_id, name="Bo")
    expect(script.locator("#player-name")).to_have_text(SCRIPT_NAME)  # a name is text, never markup
    assert script.locator("#player-name").inner_html() == "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert script.locator("script:not([src])").count() == 0  # only the page's own files run

    pages = {"Ann": ann, SCRIPT_NAME: script, "Bo": bo}
    made = dict.fromkeys(pages, 0)
    reloaded = False
    stalled_until = time.monotonic() + 45
    while min(made.values()) < PICKS:
        moved = False
        for name, page in pages.items():
            if made[name] < PICKS and can_pick(page):
                if name == "Ann" and made[name] == 2 and not reloaded:
                    ann.locator("#pack .card").nth(0).click()
                    ann.screenshot(path=shots / "phone-draft.png")
                    ann.click("#pool-toggle")
                    expect(ann.locator("#pool-panel")).to_be_in_viewport()
                    ann.screenshot(path=shots / "phone-pool.png")
                    ann.click("#pool-panel .tab[data-view=curve]")
                    expect(ann.locator("#pool-view .bar")).to_have_count(8)  # mana values 0 to 7+
                    assert (
                        sum(int(n or 0) for n in ann.locator("#pool-view .bar b").all_inner_texts())
                        + sum(1 for _ in ann.locator("#pool-view h3", has_text="Lands").all())
                        >= 1
                    )
                    ann.click("#pool-close")
                    shown, pool = pick_status(ann), ann.locator("#pool-count").inner_text()
                    ann.reload()  # mid-pick: the seat, the pack and the pool come back without the code
                    expect(ann.locator("#screen-draft")).to_be_visible()
                    expect(ann.locator("#pack-pick")).to_have_text(shown)
                    expect(ann.locator("#pool-count")).to_have_text(pool)
                    assert pool == "4"
                    reloaded = True
                if name == "Bo" and made[name] == 3:
                    bo.screenshot(path=shots / "laptop-draft.png")
                tap_and_confirm(page, careful=made[name] == 0)
                made[name] += 1
                if name == "Ann" and made[name] == 1:  # the first to pick: she waits for the pack Bo passes her
                    assert upstream_of(db, event_id, "Ann") == ("Bo", 0) and made["Bo"] == 0
                    expect(ann.locator("#waiting-for")).to_have_text("Waiting for Bo to pass you a pack…")
                    expect(ann.locator("#confirm-bar")).to_be_hidden()
                    ann.screenshot(path=shots / "phone-waiting.png")
                moved = True
        if not moved:
            assert time.monotonic() < stalled_until, f"the draft stalled at {made}"
            ann.wait_for_timeout(50)
        else:
            stalled_until = time.monotonic() + 45
    assert reloaded
    for page in pages.values():  # the first pack's last two cards came chosen; the second pack opens
        expect(page.locator("#pack-pick")).to_have_text(re.compile(r"^Pack 2/3 · Pick 1/10\b"))  # (a pack may wait)
        expect(page.locator("#pack .card")).to_have_count(20)
    draft_the_rest_with_the_seats_tokens(db, event_id, list(pages.values()))
    for page in pages.values():
        expect(page.locator("#screen-deck")).to_be_visible()
        expect(page.locator("#conn")).to_have_attribute("data-state", "ok")

    build_by_hand(bo)
    lead_with_pipers(ann)
    for page in pages.values():
        page.click("#deck-auto")
        expect(page.locator("#deck-legal")).to_have_text("Legal")
        page.click("#deck-register")
        expect(page.locator("#deck-message")).to_contain_text("Registered")
    expect(ann.locator("#deck-legal")).to_have_text("Legal · registered")
    ann.locator("#deck-basics button[aria-label$='basic more']").first.click()  # changed after registering
    expect(ann.locator("#deck-legal")).to_have_text(re.compile(r" · changed since registered$"))  # not the desk's deck
    expect(ann.locator("#deck-register")).to_have_text("Register again")
    ann.click("#deck-undo")
    expect(ann.locator("#deck-legal")).to_have_text("Legal · registered")
    with bo.expect_download() as download:
        bo.locator("#downloads a", has_text="Arena").nth(1).click()  # the deck, as Arena text
    exported = Path(download.value.path()).read_text(encoding="utf-8")
    for name in bo.locator("#deck-commanders .line-name").all_inner_texts():
        assert name in exported
    ann.screenshot(path=shots / "phone-deck.png", full_page=False)
    bo.screenshot(path=shots / "laptop-deck.png")
    assert not errors

    snap = Night(Store(db)).snapshot(event_id)
    registered = {p.name for p in snap.players if p.deck is not None}
    assert set(pages) <= registered
    for context in (*phones, laptop):
        context.close()
    for picture in (
        "phone-draft",
        "phone-pool",
        "phone-waiting",
        "laptop-draft",
        "phone-deck",
        "laptop-deck",
    ):  # looked at, in docs/
        assert (shots / f"{picture}.png").stat().st_size > 10_000


def test_the_desk_page_shows_each_seat_and_resets_a_code_and_hands_a_seat_to_a_bot(pod, server, browser, shots):
    db, event_id = pod
    codes, numbers = codes_of(db, event_id), player_numbers(db, event_id)
    phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True).new_page()
    desk = browser.new_context(viewport=LAPTOP).new_page()
    phone.goto(f"{server.url}/join?event={event_id}&player={numbers['Ann']}")
    phone.fill("#join-code", "WRONG2")
    phone.click("#join-button")
    expect(phone.locator("#join-error")).to_contain_text("seating slip")  # what to check, says the server
    phone.screenshot(path=shots / "phone-join.png")

    desk.goto(f"{server.url}/desk?token=desk-secret")
    assert "token" not in desk.url  # the token left the address bar for an HttpOnly cookie
    ann = desk.locator(f'tr[data-player="{numbers["Ann"]}"]')
    expect(ann).to_contain_text("not joined")
    assert upstream_of(db, event_id, "Ann") == ("Bo", 0)  # who hasn't picked: Ann's queue is her own pack
    expect(ann.locator("td").nth(4)).to_have_text("1")  # the Packs column: the seat's queue
    expect(ann.locator("td").nth(6)).to_have_text(re.compile(r"^1 last .*address 127\.0\.0\.1"))  # one, from where
    expect(desk.locator(f'tr[data-player="{numbers["Bot 1"]}"]')).to_contain_text("bot")
    assert desk.locator(f'tr[data-player="{numbers["Bot 1"]}"] button').count() == 0  # a bot has no code to reset
    script = desk.locator(f'tr[data-player="{numbers[SCRIPT_NAME]}"]')
    expect(script.locator("td").nth(1)).to_have_text(f"#{numbers[SCRIPT_NAME]} {SCRIPT_NAME}")

    desk.once("dialog", lambda dialog: dialog.accept())
    ann.get_by_role("button", name="New code for Ann's seat").click()
    expect(desk.locator("#desk-code")).to_contain_text("New code for Ann: ")
    new_code = desk.locator("#desk-code").inner_text().rsplit(" ", 1)[1]
    assert new_code != codes["Ann"] and codes_of(db, event_id)["Ann"] == new_code

    phone.fill("#join-code", codes["Ann"])  # the old code is dead
    phone.click("#join-button")
    expect(phone.locator("#join-error")).to_contain_text("code")
    phone.fill("#join-code", new_code)
    phone.click("#join-button")
    expect(phone.locator("#screen-draft")).to_be_visible()
    expect(ann).to_contain_text("phone · online")
    other = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    join(other, server.url, new_code, event_id=event_id, number=numbers["Ann"])  # the code typed in another browser
    phone.reload()  # the seat moved there: this browser is asked for the code again
    expect(phone.locator("#screen-join")).to_be_visible()
    other.context.close()
    join(phone, server.url, new_code, event_id=event_id, number=numbers["Ann"])
    expect(ann.locator("td").nth(3)).to_have_text("picking")

    desk.once("dialog", lambda dialog: dialog.accept())  # the desk is asked first, as for a new code
    ann.get_by_role("button", name="To a bot: Ann's seat").click()
    expect(ann.locator("td").nth(3)).to_have_text("a bot plays it")
    expect(phone.locator("#pool-count")).not_to_have_text("0")  # the bot picked for Ann at once
    expect(phone.locator("#note")).to_be_visible()  # and her phone says why
    desk.screenshot(path=shots / "laptop-desk.png")
    ann.get_by_role("button", name="Back to player Ann").click()
    expect(ann.locator("td").nth(3)).to_have_text(re.compile("^(picking|waiting)$"))
    expect(desk.locator("#desk-message")).to_contain_text("Ann has the seat back")
    expect(phone.locator("#note")).to_be_hidden()


def test_a_phone_reconnects_by_itself_after_the_server_is_restarted_mid_draft(pod, server, browser):
    db, event_id = pod
    codes = codes_of(db, event_id)
    phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True).new_page()
    phone.add_init_script(WAKE_LOCK_RECORDER)
    join(phone, server.url, codes["Bo"], event_id=event_id, name="Bo")
    phone.wait_for_function("window.wakeLocks.length === 1")  # asked while picking
    phone.evaluate("window.wakeLocks[0].release()")  # what the browser does when the page is hidden
    phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # ... and the page is back
    phone.wait_for_function("window.wakeLocks.length === 2")
    tap_and_confirm(phone)
    shown = phone.locator("#pack-pick").inner_text()
    server.stop()
    expect(phone.locator("#conn")).to_have_attribute("data-state", "bad")
    expect(phone.locator("#conn-text")).to_contain_text("offline")
    again = Served(db, event_id, port=server.port)
    try:
        expect(phone.locator("#conn")).to_have_attribute("data-state", "ok", timeout=15_000)
        expect(phone.locator("#pool-count")).to_have_text("2")  # the acknowledged pick is kept
        expect(phone.locator("#pack-pick")).to_have_text(shown)
        expect(phone.locator("#screen-draft")).to_be_visible()
    finally:
        again.stop()


MARKUP_TEXT = 'Draw a card. <img src=x onerror="window.pwned=1"> & <b>more</b>'


# The cards whose "i" button overlaps their type line or marks: the type's and the marks' boxes against the button's.
COVERED = """() => [...document.querySelectorAll('#pack .card-box')].flatMap((box) => {
  const more = box.querySelector('.card-more');
  if (!more) return [];
  const m = more.getBoundingClientRect();
  return [...box.querySelectorAll('.card-type, .card-marks')].filter((part) => {
    const r = part.getBoundingClientRect();
    return r.right > m.left && r.left < m.right && r.bottom > m.top && r.top < m.bottom;
  }).map((part) => box.querySelector('.card-name').textContent + ': ' + part.className);
})"""


@pytest.fixture
def imported_text(tmp_path, cli):
    """Rules text imported for every CMR card (this test's own data folder), each with markup in it."""
    data = cmr_mtgjson()
    for card in data["data"]["cards"]:
        card["text"] = f"{card['name']}: {MARKUP_TEXT}"
    path = tmp_path / "CMR.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert cli("sets", "import", path).exit_code == 0


def test_a_cards_imported_text_shows_on_tap_as_text_and_the_timer_runs_on_the_servers_time(
    imported_text, pod, server, browser
):
    db, event_id = pod
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.clock.set_system_time(time.time() + 3600)  # a phone whose clock is an hour out
    join(phone, server.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
    expect(phone.locator("#timer")).to_have_text(re.compile(r"^[45]:\d\d$"))  # 5 minutes a pick, by the server's time
    # the "i" at each card's corner covers none of its type line or marks (before: the type's last word, under it)
    covered = phone.evaluate(COVERED)
    assert phone.locator("#pack .card-more").count() > 10 and covered == [], covered
    box = phone.locator("#pack .card-box").nth(2)
    card = box.locator(".card")
    name = card.locator(".card-name").inner_text()
    box.locator(".card-more").click()
    expect(phone.locator("#sheet")).to_be_visible()
    expect(phone.locator("#sheet-title")).to_have_text(name)
    expect(phone.locator("#sheet-text p").first).to_have_text(f"{name}: {MARKUP_TEXT}")
    assert (
        phone.locator("#sheet-text img, #sheet-text b").count() == 0
        and phone.locator("#sheet-img").is_hidden()
        and phone.evaluate("window.pwned") is None
    )
    expect(card).to_have_attribute("aria-pressed", "false")  # reading a card's text doesn't pick it
    phone.click("#sheet-close")
    expect(phone.locator("#sheet")).to_be_hidden()


def test_a_player_who_joins_before_the_draft_waits_and_the_pack_comes_by_itself(tmp_path, cli, browser):
    db = tmp_path / "early.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=6)
    served = Served(db, event_id)
    try:
        phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
        phone.goto(f"{served.url}/join?event={event_id}&player={player_numbers(db, event_id)['Ann']}")
        phone.fill("#join-code", codes_of(db, event_id)["Ann"])
        phone.click("#join-button")
        expect(phone.locator("#wait-title")).to_have_text("Waiting for the desk to start the draft.")  # the core's
        expect(phone.locator("#conn")).to_have_attribute("data-state", "ok")
        start(cli, db, event_id)  # the desk starts the draft
        expect(phone.locator("#pack .card")).to_have_count(20)
        expect(phone.locator("#pack-pick")).to_have_text("Pack 1/3 · Pick 1/10")
    finally:
        served.stop()


STATIC = ROOT / "events" / "web" / "static"


def test_the_pages_ship_everything_and_keep_to_what_older_phone_browsers_run():
    """Nothing fetched from anywhere but the server (no CDN, web font or remote style), no inline script or style
    (the pages' Content-Security-Policy allows neither), and no syntax newer than ES2017 in the scripts
    (optional chaining and ``??`` are ES2020)."""
    files = sorted(STATIC.iterdir())
    assert {
        "index.html",
        "page.js",
        "app_core.js",
        "app_draft.js",
        "app_deck.js",
        "app.js",
        "style.css",
        "desk.html",
        "desk.js",
    } <= {f.name for f in files}
    for path in files:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".svg":  # an SVG names its namespace with an address that is never fetched
            text = text.replace('xmlns="http://www.w3.org/2000/svg"', "", 1)
        assert not re.search(r"https?://|//cdn|@import|@font-face|url\(", text), path.name
        if path.suffix == ".js":
            assert not re.search(r"\?\.[A-Za-z_$\[(]|\?\?", text), f"{path.name}: syntax newer than ES2017"
        if path.suffix == ".html":
            assert not re.search(r"<style|\sstyle=|\son[a-z]+=", text), f"{path.name}: inline style or handler"
            scripts = re.findall(r"<script([^>]*)>", text)
            assert scripts and all(re.fullmatch(r' src="/static/[a-z_]+\.js"', s) for s in scripts), path.name
            links = re.findall(r'<link rel="stylesheet" href="([^"]+)">', text)
            assert links and all(re.fullmatch(r"/static/[a-z_]+\.css", h) for h in links), path.name


def test_a_builder_whose_pool_and_the_stores_stock_hold_no_piper_offers_none(tmp_path, cli, browser):
    """With the store's stock at 0, the phone's builder offers a Piper to lead with only when the player drafted one
    (its colours and "Lead with Piper" would only be refused), and its hint names one only then."""
    db = tmp_path / "stock0.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=6)
    assert cli("event", "pipers", event_id, "--stock", "0", "--db", db).exit_code == 0
    start(cli, db, event_id)
    events = draft_to_the_end(db, event_id)
    drafted = sum(1 for p in events.pool(event_id, events.player_id(event_id, "Ann")) if is_piper(p.card))
    served = Served(db, event_id)
    try:
        page = phone_page(browser)
        join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann", screen="#screen-deck")
        if drafted:  # (the boosters come from the event's secret: a Piper is in about one of six)
            expect(page.locator("#piper-row")).to_be_visible()
            expect(page.locator("#deck-commanders")).to_contain_text("or lead with The Prismatic Piper")
        else:
            expect(page.locator("#piper-note")).to_contain_text("the store's stock holds 0 Pipers for your deck")
            expect(page.locator("#piper-row")).to_be_hidden()
            expect(page.locator("#deck-commanders")).to_have_text("None yet: tap ♛ on a sideboard card.")
    finally:
        served.stop()
