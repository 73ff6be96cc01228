"""The night in a real browser: Debian's chromium driven by Playwright against ``cmdraft serve`` run by uvicorn on a
loopback port, over a real database drafted to registered decks.  Three phones (390x844) at one table: one reports
the finishing order, the two others confirm it on their own phones, and all three see it recorded; the room display
(1920x1080) shows the pairings by name and the clock.  Screenshots are written to the test's folder (and copied to
$CMDRAFT_SCREENSHOTS when it is set)."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect

from events.night.round_clock import PAUSED, extra_time_words
from events.night.table_shown import PLAYER_STATUS_WORDS
from events.storage.store import Store
from sets.visible import quoted
from tests.helpers.browsers import LAPTOP, PHONE, Served
from tests.helpers.browsers import SIX_PLAYERS as NAMES
from tests.helpers.night import Night
from tests.helpers.nights import codes_of, terminal_night
from tests.helpers.pages import desk, open_table, script
from tests.helpers.served import drafted_night

# The table as the server has it, but the player told they may not drop, passed to the page as a push passes it.
NO_DROP = """() => fetch('/api/table').then((r) => r.json()).then((table) => {
  table.player.may_drop = false;
  document.dispatchEvent(new CustomEvent("cmdraft:seat", {detail: {table: table}}));
})"""


def test_three_phones_at_one_table_confirm_a_result_and_the_room_shows_the_round(night_server, browser, shots):
    db, event_id, served = night_server
    base = served.url
    codes = codes_of(db, event_id)
    paired = desk(base, "/api/desk/round", {})
    desk(base, "/api/desk/clock", {"minutes": 50})
    table = paired["tables"][0]
    assert len(table) == 3
    numbers = {p.name: p.number for p in Night(Store(db)).players(event_id)}
    phones = {}
    for name in table:
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
        page = context.new_page()
        open_table(page, base, event_id, numbers[name], codes[name])
        expect(page.locator("#night h1")).to_have_text("Round 1 · Table 1")
        expect(page.locator("#night .night-players li")).to_have_count(3)
        expect(page.locator("#night-clock")).to_have_text(re.compile(r"^(49|50):\d\d$"))
        phones[name] = page
    reporter, *others = table
    page = phones[reporter]
    page.click("text=Report the result")
    # The reporter taps the players in finishing order (a wrong tap taken back with Undo), then Confirm.
    confirm = page.locator("#night-result button", has_text=re.compile("^Confirm$"))
    page.locator(".night-choice", has_text=table[2]).click()
    page.locator(".night-choice", has_text=table[1]).click()  # wrong: taken back
    expect(page.locator(".night-picked li")).to_have_text([f"1st: {table[2]}", f"2nd: {table[1]}"])
    page.click("#night-result >> text=Undo")
    expect(page.locator(".night-picked li")).to_have_text([f"1st: {table[2]}"])
    page.locator(".night-choice", has_text=table[0]).click()
    # not everyone placed yet: the page sends it and shows the core's refusal, the order kept (it disabled Confirm)
    confirm.click()
    expect(page.locator("#night-result .error")).to_have_text(
        f"the result must name every player at the table once; missing {quoted(table[1])}"
    )
    expect(page.locator(".night-picked li")).to_have_text([f"1st: {table[2]}", f"2nd: {table[0]}"])
    page.locator(".night-choice", has_text=table[1]).click()
    confirm.click()
    expected = f"{table[2]}  >  {table[0]}  >  {table[1]}"
    expect(page.locator("#night-result .night-order")).to_have_text(expected)
    expect(page.locator("#night-result .night-waiting")).to_have_text("Still to confirm: " + " / ".join(others))
    # the table's status in the core's words (the page composed its own before, and said nothing while waiting)
    expect(page.locator("#night-result .night-status")).to_have_text(PLAYER_STATUS_WORDS["waiting"])
    for name in others:
        other = phones[name]
        expect(other.locator("#night-result .night-order")).to_have_text(expected, timeout=10_000)
        other.locator("#night-result button", has_text=re.compile("^Confirm$")).click()  # the button, not the words
    for page in phones.values():
        expect(page.locator("#night-result .hint")).to_have_text(
            "Recorded. The desk corrects it if it is wrong.", timeout=10_000
        )
    phones[others[0]].screenshot(path=str(shots / "night-phone-390x844.png"))
    # Whether the player may drop is the core's answer (before: the page judged it from the statuses it had)
    quiet = phones[others[0]]
    expect(quiet.locator("text=Drop from the event…")).to_be_visible()

    def no_drop(route) -> None:
        table = route.fetch().json()
        table["player"]["may_drop"] = False
        route.fulfill(json=table)

    quiet.route("**/api/table", no_drop)
    quiet.evaluate(NO_DROP)
    expect(quiet.locator("text=Drop from the event…")).to_have_count(0)
    logged = [e for e in Night(Store(db)).history(event_id) if e.what == "result"]
    assert [(e.who, e.new) for e in logged] == [(f"browser {reporter}", expected.replace("  ", " "))]

    room = browser.new_context(viewport=LAPTOP).new_page()
    room.goto(base + "/room")
    expect(room.locator("#view-pairings")).to_be_visible(timeout=10_000)
    rows = room.locator("#pairings .row .name")
    expect(rows).to_have_count(len(NAMES))
    assert rows.all_inner_texts() == [
        n + (" ▶" if n in paired["first"] else "") for n in sorted(NAMES, key=str.casefold)
    ]
    expect(room.locator("#clock")).to_have_text(re.compile(r"^(49|50):\d\d$"))
    # one column up to five rows, two up to sixteen, then three (room.js ``spread``): every name whole
    columns = 1 if len(NAMES) <= 5 else 2 if len(NAMES) <= 16 else 3
    assert room.locator("#pairings").get_attribute("data-columns") == str(columns)
    assert rows.evaluate_all("names => names.filter(n => n.scrollWidth > n.clientWidth).length") == 0
    room.screenshot(path=str(shots / "room-1920x1080.png"))
    assert Path(shots / "room-1920x1080.png").stat().st_size > 10_000
    # The clock's words are the core's, sent with the clock (before: each page had its own sentences)
    desk(base, "/api/desk/extra-time", {"table": 1, "minutes": 5})
    expect(phones[reporter].locator("#night-notice")).to_have_text(extra_time_words(300), timeout=10_000)
    desk(base, "/api/desk/clock", {"pause": True})
    expect(room.locator("#banner")).to_have_text(PAUSED, timeout=10_000)


def test_the_desk_page_sees_both_versions_of_a_disputed_table_and_settles_it(night_server, browser, shots):
    db, event_id, served = night_server
    base = served.url
    codes = codes_of(db, event_id)
    numbers = {p.name: p.number for p in Night(Store(db)).players(event_id)}
    table = desk(base, "/api/desk/round", {})["tables"][1]
    desk(base, "/api/desk/clock", {"minutes": 50})
    tokens = {
        name: script(base, "/api/join", {"event": event_id, "player": numbers[name], "code": codes[name]})["token"]
        for name in table
    }
    ids = {p["name"]: p["id"] for p in script(base, "/api/table", token=tokens[table[0]])["round"]["players"]}
    reported = script(base, "/api/result", {"order": [[ids[n]] for n in table]}, tokens[table[0]])
    theirs = [[ids[table[1]]], [ids[table[0]]], [ids[table[2]]]]
    report = reported["round"]["report"]["id"]
    script(base, "/api/result/confirm", {"report": report, "agree": False, "order": theirs}, tokens[table[1]])

    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{base}/desk?token=desk-secret")
    card = page.locator(".desk-night-table[data-table='2']")
    expect(card.locator(".desk-night-status")).to_have_text("disputed", timeout=10_000)
    # the draft's seats fold when the server says the draft is over, under its line (before: the page's own)
    over = script(base, "/api/desk", token="desk-secret")["seats_over"]
    expect(page.locator(".desk-fold summary")).to_have_text(f"{over} (open them for a new seat code or a drop)")
    expect(card.locator(".desk-night-order")).to_have_text(
        [" > ".join(table), " > ".join([table[1], table[0], table[2]])]
    )
    # the desk's own result box shows an example in table 2's names, not another table's
    example = f"{table[0]} > {table[1]} = {table[2]}" + "".join(f" > {name}" for name in table[3:])
    expect(card.locator("input[aria-label='result of table 2']")).to_have_attribute("placeholder", example)
    page.screenshot(path=str(shots / "desk-night-1920x1080.png"))
    card.locator(f"text=Record {table[1]}'s version").click()
    expect(card.locator(".desk-night-status")).to_have_text("recorded", timeout=10_000)
    expect(page.locator("#desk-night-message")).to_have_text("table 2 recorded")
    logged = [e for e in Night(Store(db)).history(event_id) if e.what == "result"]
    assert [(e.who, e.new) for e in logged] == [("desk", " > ".join([table[1], table[0], table[2]]))]
    # which actions the desk may take is the core's answer (before: the page judged it from the event's status)
    actions = page.locator(".desk-night-actions button")
    expect(actions.filter(has_text="Undo the desk's last change")).to_have_count(1)

    def no_undo(route) -> None:
        night = route.fetch().json()
        night["actions"] = [action for action in night["actions"] if action != "undo"]
        route.fulfill(json=night)

    page.route("**/api/desk/night", no_undo)
    page.reload()
    expect(card.locator(".desk-night-status")).to_have_text("recorded", timeout=10_000)
    expect(actions.filter(has_text="Undo the desk's last change")).to_have_count(0)


LONG_NAME = 'Ivy "Featherstonehaugh" Cholmondeley'  # a long name, seen whole on the TV while the screen has room


def test_the_room_before_the_draft_cycles_the_join_qr_code_and_the_seatings(tmp_path, cli, browser, shots):
    """Two pods read in two wide columns (a column a pod, up to three), so a long name is seen whole, not cut short
    in a narrow column beside an empty screen."""
    db = tmp_path / "seated.json"
    event_id = terminal_night(cli, db, *NAMES, "Gus", "Hal", LONG_NAME)
    served = Served(db, event_id)
    try:
        page = browser.new_context(viewport=LAPTOP).new_page()
        page.clock.install()  # the page's own timers: its 12-second cycle runs on the test's word
        page.goto(served.url + "/room")
        expect(page.locator("#view-join")).to_be_visible(timeout=10_000)
        expect(page.locator("#join-url")).to_have_text(f"{served.url}/join?event={event_id}")
        qr = page.locator("#join-qr")
        expect(qr).to_have_js_property("complete", True)
        page.screenshot(path=str(shots / "room-join-1920x1080.png"))
        assert qr.evaluate("img => img.naturalWidth") > 0  # the QR code's image loaded
        page.clock.run_for(13_000)
        expect(page.locator("#view-seatings")).to_be_visible()
        seated = page.locator("#seatings .pod .row .name").all_inner_texts()
        assert sorted(seated) == sorted([*NAMES, "Gus", "Hal", LONG_NAME])
        cut = page.eval_on_selector_all(
            "#seatings .pod .row .name",
            "names => names.filter(n => n.scrollWidth > n.clientWidth).map(n => n.textContent)",
        )
        assert cut == []
        codes = codes_of(db, event_id).values()
        assert not any(code in page.content() for code in codes)
        page.screenshot(path=str(shots / "room-seatings-1920x1080.png"))
    finally:
        served.stop()


def test_a_result_confirmed_on_other_phones_shows_on_the_first_phone_from_the_stream_without_polling(
    night_server,
    browser,
):
    db, event_id, served = night_server
    base = served.url
    codes = codes_of(db, event_id)
    numbers = {p.name: p.number for p in Night(Store(db)).players(event_id)}
    table = desk(base, "/api/desk/round", {})["tables"][0]
    reporter, *others = table
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    # The page's timers stand still, so its 3-second polling of /api/table never fires: only the stream can bring
    # the other phones' confirmations.
    page.clock.install()
    page.clock.pause_at(1_900_000_000_000)
    open_table(page, base, event_id, numbers[reporter], codes[reporter])
    tokens = {
        name: script(base, "/api/join", {"event": event_id, "player": numbers[name], "code": codes[name]})["token"]
        for name in others
    }
    page.click("text=Report the result")
    for name in table:
        page.locator(".night-choice", has_text=name).click()
    page.locator("#night-result button", has_text=re.compile("^Confirm$")).click()
    expect(page.locator("#night-result .night-waiting")).to_have_text("Still to confirm: " + " / ".join(others))
    polls = []
    page.on("request", lambda request: polls.append(request.url) if "/api/table" in request.url else None)
    report = script(base, "/api/table", token=tokens[others[0]])["round"]["report"]["id"]
    script(base, "/api/result/confirm", {"report": report, "agree": True}, tokens[others[0]])
    expect(page.locator("#night-result .night-waiting")).to_have_text("Still to confirm: " + others[1], timeout=2_000)
    script(base, "/api/result/confirm", {"report": report, "agree": True}, tokens[others[1]])
    expect(page.locator("#night-result .hint")).to_have_text(
        "Recorded. The desk corrects it if it is wrong.", timeout=2_000
    )
    assert polls == []


# What the page hears while its player types: the table as it is (a poll's answer: only the server's time moved),
# then a tablemate's tap pushed on the stream (another player's life), both arriving between the amount's field
# taking the focus and the digits landing in it, as a push or a poll's answer can.
PUSHED_WHILE_TYPING = """([table, other]) => {
  let done = false;
  document.addEventListener("focusin", (event) => {
    if (done || !event.target.matches("input[aria-label='damage amount']")) return;
    done = true;
    document.dispatchEvent(new CustomEvent("cmdraft:seat", {detail: {table: table}}));
    const tapped = JSON.parse(JSON.stringify(table));
    tapped.round.game.players[other].life -= 1;
    document.dispatchEvent(new CustomEvent("cmdraft:seat", {detail: {table: tapped}}));
  });
}"""

# Every life the tracker's rows show, in order, from now on.
WATCH_LIVES = """() => {
  window.lives = [];
  new MutationObserver(() => {
    window.lives.push([...document.querySelectorAll("#night .night-life")].map((row) => row.textContent));
  }).observe(document.getElementById("night"), {childList: true, subtree: true});
}"""


def test_commander_damage_entered_on_a_phone_is_recorded_on_the_tables_board(night_server, browser):
    """The damage reaches the board whatever the page hears meanwhile: a push while the amount is typed keeps the
    typing, and a poll's answer read before the change but delivered after it never shows the old life again."""
    db, event_id, served = night_server
    base = served.url
    codes = codes_of(db, event_id)
    numbers = {p.name: p.number for p in Night(Store(db)).players(event_id)}
    desk(base, "/api/desk/tracker", {"on": True})
    table = desk(base, "/api/desk/round", {})["tables"][0]
    me, victim, other, *_ = table
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    sent = []
    page.on("request", lambda r: sent.append(r.post_data_json) if r.url.endswith("/api/game") else None)
    open_table(page, base, event_id, numbers[me], codes[me])
    view = script(
        base,
        "/api/table",
        token=script(base, "/api/join", {"event": event_id, "player": numbers[victim], "code": codes[victim]})["token"],
    )
    players = {p["name"]: p for p in view["round"]["players"]}
    commanders = players[me]["commanders"]
    copies = commanders.count(commanders[0])  # two Pipers lead one deck: the page names them "#1", "#2"
    commander, label = (commanders[0], commanders[0]) if copies == 1 else (commanders[0] + "#1", commanders[0] + " #1")

    # A table asked for before the damage, its answer held back until after the damage is on the board.
    held: list = []
    holding = [True]

    def table_route(route) -> None:
        if holding[0] and route.request.method == "GET":
            held.append((route, route.fetch()))  # the server's answer now, delivered later
        else:
            route.continue_()

    page.route("**/api/table", table_route)
    page.locator("#night .night-tracker >> text=Undo my last entry").click()  # nothing to undo: the page asks again
    expect(page.locator("#night-result .error")).to_be_visible()
    while not held:
        page.wait_for_timeout(20)
    holding[0] = False

    page.evaluate(
        PUSHED_WHILE_TYPING,
        [
            page.evaluate("() => fetch('/api/table').then((r) => r.json())"),
            [p["name"] for p in view["round"]["players"]].index(other),
        ],
    )
    form = page.locator("#night .night-damage")
    form.locator("select[aria-label='damage to']").select_option(label=victim)
    form.locator("select[aria-label='damage from']").select_option(label=f"{me}: {label}")
    form.locator("input[aria-label='damage amount']").fill("7")
    form.locator("text=Add damage").click()
    row = page.locator("#night .night-tracker .night-life", has_text=victim)
    expect(row.locator(".life")).to_have_text("33", timeout=10_000)
    assert sent == [{"undo": True}, {"damage": [[players[victim]["id"], players[me]["id"], commander, "7"]]}]
    expect(page.locator("#night .night-tracker")).to_contain_text(f"7 from {me}: {label}")

    page.evaluate(WATCH_LIVES)
    (route, answer), *_ = held
    with page.expect_event("requestfinished"):
        route.fulfill(response=answer)  # the old table, 40 for everyone, arrives now
    page.evaluate("() => new Promise((done) => setTimeout(done, 200))")
    assert not any(f"{victim}" in line and "40" in line for lives in page.evaluate("window.lives") for line in lives)
    expect(row.locator(".life")).to_have_text("33")
    # No damage is judged by the page: sent as typed, the core's refusal shown (before: the page's own sentence)
    form.locator("input[aria-label='damage amount']").fill("0")
    form.locator("text=Add damage").click()
    words = f"commander damage to {quoted(victim)} must be from 1 to 1,000,000, not 0"
    expect(page.locator("#night-result .error")).to_have_text(words)
    assert sent[-1] == {"damage": [[players[victim]["id"], players[me]["id"], commander, "0"]]}
    expect(row.locator(".life")).to_have_text("33")
    logged = [e for e in Night(Store(db)).history(event_id) if e.what == "game"]
    assert [e.who for e in logged] == [f"browser {me}"]


def test_the_decklists_page_shows_everyones_deck_only_after_the_event_where_published(tmp_path, cli, browser, shots):
    """Once published, the players find the page: a link on every phone, its address on the room display and a link
    on the desk's page (before: nothing named /decklists, so nobody in the room could find what the desk published)."""
    db = tmp_path / "lists.json"
    names = [*NAMES[:5], "<b>Zed</b>"]
    event_id = drafted_night(cli, db, names)
    served = Served(db, event_id)
    try:
        base = served.url
        page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
        page.goto(base + "/decklists")
        expect(page.locator("#decklists-note")).to_have_text(
            "Decklists are shown here after the event, where the desk publishes them."
        )
        expect(page.locator(".decklist")).to_have_count(0)
        room = browser.new_context(viewport=LAPTOP).new_page()
        room.goto(base + "/room")  # the decks built, round 1 not paired: the room says so (before: "Drafting")
        expect(room.locator("#drafts-title")).to_have_text("Deck building · 6 of 6 decks registered")
        events = Night(Store(db))
        for number, table in enumerate(desk(base, "/api/desk/round", {})["tables"], 1):
            order = [[events.player_id(event_id, name)] for name in table]
            desk(base, "/api/desk/settle", {"round": 1, "table": number, "order": order})
        desk(base, "/api/desk/finish", {})
        ann = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
        number = next(p.number for p in events.players(event_id) if p.name == "Ann")
        open_table(ann, base, event_id, number, codes_of(db, event_id)["Ann"])
        room.reload()
        at_desk = browser.new_context(viewport=LAPTOP).new_page()
        at_desk.goto(f"{base}/desk?token=desk-secret")
        expect(room.locator("#standings-title")).to_have_text("Final standings")
        expect(at_desk.locator("#desk-night h1")).to_be_visible()
        for where in (ann.locator(".night-decklists a"), room.locator("#standings-decklists")):
            expect(where).to_be_hidden()  # not published: nothing to find
        expect(at_desk.locator(".desk-night-decklists")).to_have_count(0)
        page.reload()
        expect(page.locator("#decklists-note")).to_have_text(
            "Decklists are shown here after the event, where the desk publishes them."
        )
        expect(page.locator(".decklist")).to_have_count(0)  # finished but not published: nothing
        desk(base, "/api/desk/publish", {"on": True})
        ann.reload()
        expect(ann.get_by_role("link", name="Everyone's decklists")).to_have_attribute("href", "/decklists")
        expect(room.locator("#standings-decklists")).to_have_text(f"Everyone's decklists: {base}/decklists")
        at_desk.reload()
        expect(at_desk.locator(".desk-night-decklists")).to_have_attribute("href", "/decklists")
        page.reload()
        ranked = [f"{row.rank_text} {row.name}" for row in Night(Store(db)).standings(event_id)]
        expect(page.locator(".decklist-name")).to_have_text(ranked)
        assert page.locator(".decklist-name b").count() == 0  # the name is text, not markup
        zed = page.locator(".decklist", has_text="<b>Zed</b>")
        expect(zed.locator("h4").first).to_have_text(re.compile(r"^Commanders \([12]\)$"))
        expect(zed.locator("h4").nth(1)).to_have_text(re.compile(r"^Main deck \(\d+\)$"))
        page.screenshot(path=str(shots / "decklists-390x844.png"), full_page=False)
    finally:
        served.stop()


def test_a_phone_at_the_desk_mid_round_shows_the_rounds_tables_before_the_seats(night_server, browser, shots):
    """Before: at 390x844 every seat card came first and the round's tables after them, a long scroll down for a
    judge looking for a table.  A laptop keeps the seats first; so does a phone between rounds."""
    db, event_id, served = night_server
    base = served.url
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.clock.install()  # before the page loads: its polls run on Playwright's clock
    phone.goto(f"{base}/desk?token=desk-secret")
    expect(phone.locator("#desk-night h1")).to_have_text("Rounds", timeout=10_000)
    expect(phone.locator("#desk-main + #desk-night")).to_have_count(1)  # no round yet: the seats first
    desk(base, "/api/desk/round", {})
    phone.clock.run_for(3_000)  # the page's next poll (desk_night.js's POLL_MS), not waited for
    expect(phone.locator("#desk-night + #desk-main")).to_have_count(1, timeout=10_000)  # the tables first
    first = phone.locator(".desk-night-table").first
    expect(first).to_be_visible()
    assert first.bounding_box()["y"] < PHONE["height"]  # a table on the first screen, not below the seats
    phone.screenshot(path=str(shots / "desk-mid-round-390x844.png"))
    laptop = browser.new_context(viewport=LAPTOP).new_page()
    laptop.goto(f"{base}/desk?token=desk-secret")
    expect(laptop.locator(".desk-night-table").first).to_be_visible(timeout=10_000)
    expect(laptop.locator("#desk-main + #desk-night")).to_have_count(1)
    phone.set_viewport_size(LAPTOP)  # a window made wide: the seats come first again
    expect(phone.locator("#desk-main + #desk-night")).to_have_count(1)


TWO_PIPERS = "Commander\n1 The Prismatic Piper\n1 The Prismatic Piper\n\nDeck\n58 Plains\n"


def test_the_trackers_taps_change_the_board_with_no_error_and_each_of_two_pipers_is_cast_by_itself(
    night_server, browser, cli, tmp_path
):
    """A life tap, and a cast of each of two Pipers leading one deck: the board changes and the page shows no
    error (the board the server answers a tracker's entry with is no table's state; the page used to take it for
    one and say "Cannot read properties of undefined"); each Piper is its own commander (CR 903.8: its own tax),
    named on its button "#1" and "#2" as the damage form names them, with the color chosen for it (as the table's
    list of players shows them), and cast as that one (its tax: 2 more)."""
    db, event_id, served = night_server
    base = served.url
    deck = tmp_path / "pipers.txt"
    deck.write_text(TWO_PIPERS, encoding="utf-8")
    for name in NAMES:  # whoever sits where: every deck is led by two Pipers (registered as it is)
        done = cli("event", "deck", event_id, name, deck, "--piper", "W", "--piper", "U", "--db", db)
        assert done.exit_code in (0, 1)  # (1: registered, not legal)
    codes = codes_of(db, event_id)
    numbers = {p.name: p.number for p in Night(Store(db)).players(event_id)}
    desk(base, "/api/desk/tracker", {"on": True})
    me = desk(base, "/api/desk/round", {})["tables"][0][0]
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    open_table(page, base, event_id, numbers[me], codes[me])
    tracker = page.locator("#night .night-tracker")
    mine = tracker.locator(".night-life", has_text=me)
    mine.locator("text=-1").click()
    expect(mine.locator(".life")).to_have_text("39")
    lose = page.get_by_role("button", name=f"{me}: lose 1 life")  # whose life, said to a screen reader
    lose.click()
    lose.click()  # at once, while the first is on its way: added to the next change, not lost
    expect(mine.locator(".life")).to_have_text("37")
    led = "The Prismatic Piper #1 (white) · The Prismatic Piper #2 (blue)"
    expect(page.locator("#night .night-players li.me .commanders")).to_have_text(led)
    expect(tracker.locator("text=Cast The Prismatic Piper #2 (blue)")).to_have_count(1)
    tracker.locator("text=Cast The Prismatic Piper #2").click()
    expect(tracker).to_contain_text("The Prismatic Piper #2: tax 2")
    expect(tracker).not_to_contain_text("The Prismatic Piper #1: tax")
    tracker.locator("text=Cast The Prismatic Piper #1").click()
    expect(tracker).to_contain_text("The Prismatic Piper #1: tax 2")
    expect(page.locator("#night-result .error")).to_have_count(0)


def test_the_desk_page_says_who_has_no_legal_deck_and_pairs_anyway_only_once_confirmed(
    night_server, browser, cli, tmp_path, shots
):
    """Before round 1 the desk's page says who has registered a deck, with problems or not (the core's words, as the
    terminal's deck board's caption); a deck with problems stops the pairing, and "Pair anyway" (the terminal's
    --force) pairs only once the desk confirms it."""
    db, event_id, served = night_server
    small = tmp_path / "small.txt"
    small.write_text("Commander\n1 The Prismatic Piper\n\nDeck\n10 Swamp\n", encoding="utf-8")
    assert cli("event", "deck", event_id, NAMES[0], small, "--piper", "B", "--db", db).exit_code == 1  # registered
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{served.url}/desk?token=desk-secret")
    said = f"{len(NAMES)} of {len(NAMES)} decks registered, 1 with problems ({NAMES[0]})"
    expect(page.locator("#desk-night-decks")).to_have_text(said, timeout=10_000)
    page.screenshot(path=str(shots / "desk-decks-1920x1080.png"))
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.locator("#desk-night button", has_text="Pair anyway").click()
    page.locator("#desk-night button", has_text="Pair the next round").click()  # refused: the core's words
    expect(page.locator("#desk-night-message")).to_contain_text(f"no legal deck registered for {quoted(NAMES[0])}")
    expect(page.locator("#desk-night h1")).to_have_text("Rounds")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#desk-night button", has_text="Pair anyway").click()
    expect(page.locator("#desk-night h1")).to_have_text("Round 1")
    expect(page.locator("#desk-night-decks")).to_have_count(0)


def test_the_desk_page_seats_the_final_table_saying_how_each_tie_at_the_cut_was_settled(night_server, browser, cli):
    """Seating the final table from the desk's page said only "final table seated"; the terminal's `event top` says
    how each tie at the cut was settled (or that none needed it): the page now says the same lines."""
    db, event_id, served = night_server
    for table, names in enumerate(desk(served.url, "/api/desk/round", {})["tables"], start=1):
        desk(served.url, "/api/desk/settle", {"round": 1, "table": table, "order": " = ".join(names)})  # all tied
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.goto(f"{served.url}/desk?token=desk-secret")
    page.locator("#desk-night select").select_option("3")
    page.locator("#desk-night button", has_text="Seat the final table").click()
    expect(page.locator("#desk-night h1")).to_have_text("Final table")
    said = page.locator("#desk-night-message")
    expect(said).to_contain_text("final table seated: ")
    expect(said).to_contain_text("tie-breaker")  # everyone drew: the cut is settled below points


def test_a_player_who_dropped_mid_round_is_offered_no_report_and_a_tablemate_still_is(night_server, browser, cli):
    """A player who dropped reports, confirms and disputes no more (the core refuses it: ``may_report`` false);
    their phone offers no "Report the result" and says who reports now, while a tablemate's still offers it."""
    db, event_id, served = night_server
    desk(served.url, "/api/desk/tracker", {"on": True})
    table = desk(served.url, "/api/desk/round", {})["tables"][0]
    gone, stays = table[0], table[1]
    codes = codes_of(db, event_id)
    numbers = {p.name: p.number for p in Night(Store(db)).players(event_id)}
    pages = {}
    for name in (gone, stays):
        pages[name] = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
        open_table(pages[name], served.url, event_id, numbers[name], codes[name])
    expect(pages[gone].locator("#night-result button", has_text="Report the result")).to_be_visible()
    assert cli("event", "player", "drop", event_id, gone, "--db", db).exit_code == 0  # the desk drops them
    pages[gone].reload()
    expect(pages[stays].locator("#night-result button", has_text="Report the result")).to_be_visible()
    result = pages[gone].locator("#night-result")
    expect(result).to_contain_text("You dropped from the event")
    expect(result.locator("button")).to_have_count(0)
    expect(pages[stays].locator("#night .night-tracker")).to_be_visible()
    expect(pages[gone].locator("#night .night-tracker")).to_have_count(0)  # nor a game tracker to change
    taken = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    open_table(taken, served.url, event_id, numbers[stays], codes[stays])  # the seat opened on another phone
    expect(pages[stays].locator("#join-notice")).to_contain_text("opened on another device", timeout=10_000)
    expect(pages[stays].locator("#night")).to_be_hidden()  # the table it held is not shown above the form
