"""``cmdraft serve``'s JSON API and stream, in-process (Starlette's TestClient with WebSockets) over real
TinyDB files, on the tests' clock: joining with seat codes, picking from browsers beside a terminal player and
bots, stale and forged picks, reconnects, timeouts, a restarted server, the desk, and 'cmdraft serve' itself
(its guards: tests/test_serve_guards.py)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import httpx
import pytest

from events.night.decks import Decks
from events.night.seat_codes import check_code
from events.sessions.activities import EventDeck
from events.sessions.seat import BOT_SEAT, SeatSession, Taken, news_words
from events.storage.store import Store
from events.web.app import create_app
from sets.catalog import keep_texts, load_set
from tests.helpers.night import Night
from tests.helpers.nights import codes_of, draft_to_the_end, start, terminal_night
from tests.helpers.served import Phone, client, draft_log, joined, phone, served_night
from tests.helpers.terminals import ctrl_c_reaches_it


def test_a_player_joins_with_the_seat_code_sees_the_pack_and_picks(tmp_path, cli, manual_clock):
    db = tmp_path / "slice.json"
    event_id = served_night(cli, db)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock) as web:
        seat = joined(web, event_id, "Ann", codes["Ann"])["seat"]
        assert seat["player"]["name"] == "Ann" and seat["phase"] == "drafting"
        draft = seat["draft"]
        assert (draft["pack"], draft["pick"], draft["take"]) == (1, 1, 2) and len(draft["cards"]) == 20
        assert web.get("/api/seat").json() == {**seat, "server_time": manual_clock.now()}
        with web.websocket_connect("/api/stream") as stream:
            assert stream.receive_json()["seat"]["draft"]["cards"] == draft["cards"]
            after = web.post("/api/pick", json={"pack": 1, "pick": 1, "cards": [0, 1]})
            assert after.status_code == 200, after.text
            state = after.json()
            assert [c["name"] for c in state["pool"]] == [c["name"] for c in draft["cards"][:2]]
            assert state["draft"]["cards"] == [] and state["draft"]["waiting_for"] == 1  # the player upstream
            assert state["draft"]["waiting_on"][0] in ("Bo", "Cy", "Dee")  # (a bot passes at once)
            assert stream.receive_json()["seat"]["pool"] == state["pool"]
    taken = Night(Store(db)).draft_session(event_id, 1).draft.pools
    assert any([p.name for p in pool] == [c["name"] for c in draft["cards"][:2]] for pool in taken)


def terminal_seat(db: Path, event_id: int, name: str) -> tuple:
    """The terminal player's seat as a terminal holds it: the code given, the seat claimed with the terminal's
    token (``event draft --player`` does exactly this), a ``SeatSession`` per pick."""
    events = Night(Store(db))
    player = events.player(event_id, name)
    assert check_code(events, event_id, player.id, codes_of(db, event_id)[name], delay=0)
    session = events.draft_session(event_id, player.pod)
    seat = list(next(p for p in events.snapshot(event_id).pods if p.number == player.pod).players).index(player.id)
    token = "terminal-token-of-" + name
    session.claim(seat, token)
    return events, session, seat, token


def terminal_picks(events, event_id: int, session, seat: int, token: str) -> int:
    """Every pick due at the terminal now, the hint's cards each time; how many."""
    made = 0
    session.refresh()
    while seat in session.waiting_humans():
        held = SeatSession(session, seat, token=token)
        held.show()
        assert isinstance(held.pick(session.suggested_positions(seat)), Taken)
        events.after_picks(event_id, 1, session)
        made += 1
    return made


def test_three_browsers_a_terminal_and_four_bots_draft_a_pod_to_registered_decks(tmp_path, cli, manual_clock):
    db = tmp_path / "mixed.json"
    event_id = served_night(cli, db)
    codes = codes_of(db, event_id)
    events, session, dee_seat, dee_token = terminal_seat(db, event_id, "Dee")
    with client(db, event_id, manual_clock, watch=False) as web:
        phones = {name: phone(web, event_id, name, codes[name]) for name in ("Ann", "Bo", "Cy")}
        picks = {name: 0 for name in phones}
        terminal = 0
        for _ in range(200):
            progressed = False
            manual_clock.advance(1)  # a person takes a moment per pick (the rate limit allows 20 requests a second)
            for name, each in phones.items():
                if each.pick_first():
                    picks[name] += 1
                    progressed = True
            made = terminal_picks(events, event_id, session, dee_seat, dee_token)
            terminal += made
            if not progressed and not made:
                break
        # 3 packs of 20 cards, two taken a pick: 10 picks a pack, 30 in all, at every seat
        assert picks == {"Ann": 30, "Bo": 30, "Cy": 30} and terminal == 30
        for each in phones.values():
            state = each.seat()
            assert state["phase"] == "building" and len(state["pool"]) == 60 and state["draft"]["done"]
        assert Night(Store(db)).event(event_id).status == "building"
        for each in phones.values():
            deck = each.post("/api/deck", {"action": "auto"})
            assert deck.status_code == 200, deck.text
            assert deck.json()["size"] == 60 and deck.json()["commanders"]
            if each is phones["Ann"]:  # ✕ on every commander: none leads until the player chooses another
                cleared = each.post("/api/deck", {"action": "commanders", "cards": []})
                assert cleared.status_code == 200 and cleared.json()["commanders"] == [], cleared.text
                deck = each.post("/api/deck", {"action": "undo"})
                assert deck.json()["commanders"] and deck.json()["size"] == 60
            registered = each.post("/api/deck/register", {})
            assert registered.status_code == 200, registered.text
            assert registered.json()["registered"] and registered.json()["deck"]["registered"]
            assert each.seat()["phase"] == "registered"
        exported = phones["Ann"].get("/api/export/deck", params={"format": "json"})
        assert exported.status_code == 200 and "attachment" in exported.headers["content-disposition"]
        built = phones["Ann"].get("/api/deck").json()
    with client(db, event_id, manual_clock, watch=False) as web:  # a restarted server starts from the registered deck
        again = Phone(web, phones["Ann"].token).get("/api/deck").json()
        assert again["registered"] and again["main"] == built["main"] and again["commanders"] == built["commanders"]
    dee = EventDeck(Decks(Store(db)), event_id, "Dee")
    dee.session.replace(True)
    dee.session.save()
    snap = Night(Store(db)).snapshot(event_id)
    decks = {p.name: p.deck for p in snap.players if not p.bot}
    assert all(deck is not None for deck in decks.values())
    by = {e.new.partition(":")[0]: e.who for e in Night(Store(db)).history(event_id) if e.what == "deck"}
    assert by["Ann"] == "browser Ann" and by["Dee"].startswith("terminal Dee")
    # the browser's registration is 'event deck''s: the same file registered at the desk gives the same record
    ann_id = next(p.id for p in snap.players if p.name == "Ann")
    with Store(db).read() as handle:
        before = [dict(d) for d in handle.table("decks").all() if d["player"] == ann_id]
    deck_file = tmp_path / "ann.json"
    deck_file.write_text(exported.text, encoding="utf-8")
    again = cli("event", "deck", event_id, "Ann", deck_file, "--db", db, "--json")
    assert again.exit_code in (0, 1), again.output
    with Store(db).read() as handle:
        after = [dict(d) for d in handle.table("decks").all() if d["player"] == ann_id]
    assert [{k: v for k, v in d.items() if k != "at"} for d in after] == [
        {k: v for k, v in d.items() if k != "at"} for d in before
    ]


def test_a_stale_pick_is_refused_with_the_new_pack_and_a_forged_one_changes_nothing(tmp_path, cli, manual_clock):
    db = tmp_path / "stale.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann, bo = (phone(web, event_id, name, codes[name]) for name in ("Ann", "Bo"))
        assert ann.pick_first() and bo.pick_first()  # the table moves on to pick 2
        before = draft_log(db, event_id)
        old = ann.post("/api/pick", {"pack": 1, "pick": 1, "cards": [0, 1]})  # a second tab, still on pick 1
        assert old.status_code == 409 and old.json()["error"]["code"] == "stale"
        assert old.json()["seat"]["draft"]["pick"] == 2 and len(old.json()["seat"]["draft"]["cards"]) == 18
        ahead = ann.post("/api/pick", {"pack": 1, "pick": 3, "cards": [0, 1]})
        assert ahead.status_code == 409 and ahead.json()["error"]["code"] == "stale"
        for forged in ([0], [0, 0], [0, 18], [0, -1], [0, 1, 2], [0, "1"], [0, 1.5], [0, None], [True, 0]):
            answer = ann.post("/api/pick", {"pack": 1, "pick": 2, "cards": forged})
            assert answer.status_code == 400, (forged, answer.text)
            assert answer.json()["error"]["code"] in ("wrong-count", "bad-field")
        assert draft_log(db, event_id) == before
        right = ann.post("/api/pick", {"pack": 1, "pick": 2, "cards": [16, 17]})
        assert right.status_code == 200 and len(draft_log(db, event_id)) == len(before) + 1


def test_a_terminal_and_a_browser_on_the_same_pick_one_wins_the_other_is_refused(tmp_path, cli, manual_clock):
    db = tmp_path / "race.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        shown = ann.seat()["draft"]
        # Ann gives her code at a terminal too: the terminal now holds her seat, the browser's binding ends there
        events, session, seat, token = terminal_seat(db, event_id, "Ann")
        held = SeatSession(session, seat, token=token)
        held.show()
        assert isinstance(held.pick([0, 1]), Taken)
        late = ann.post("/api/pick", {"pack": 1, "pick": 1, "cards": [2, 3]})
        assert late.status_code in (401, 409), late.text
        assert len([p for p in draft_log(db, event_id) if p[0] == seat]) == 1
        assert shown["cards"][0]["name"] in [p[3] for p in draft_log(db, event_id) if p[0] == seat][0]


def test_a_reconnecting_browser_gets_its_whole_seat_back_and_the_next_seat_is_pushed_at_once(
    tmp_path, cli, manual_clock
):
    db = tmp_path / "reconnect.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann, bo = (phone(web, event_id, name, codes[name]) for name in ("Ann", "Bo"))
        with web.websocket_connect(f"/api/stream?token={bo.token}") as bo_stream:
            first = bo_stream.receive_json()["seat"]
            assert first["draft"]["pick"] == 1 and first["draft"]["cards"]
            assert bo.pick_first()
            assert bo_stream.receive_json()["seat"]["draft"]["cards"] == []  # waiting for Ann
            with web.websocket_connect(f"/api/stream?token={ann.token}") as ann_stream:
                ann_stream.receive_json()
                ann_stream.send_json({"type": "ping"})
                assert ann_stream.receive_json() == {"type": "pong", "server_time": manual_clock.now()}
                assert ann.pick_first()
                # Bo's next pack arrives on Bo's stream right after Ann's pick, without any look at the files
                pushed = bo_stream.receive_json()["seat"]["draft"]
                assert (pushed["pick"], len(pushed["cards"])) == (2, 18)
        # the phone slept: a new connection gets pack, pick and pool as they are
        with web.websocket_connect(f"/api/stream?token={bo.token}") as again:
            state = again.receive_json()["seat"]
            assert state == {**bo.seat(), "server_time": state["server_time"]}
            assert state["draft"]["pick"] == 2 and len(state["pool"]) == 2


def test_a_player_who_never_comes_back_is_picked_for_when_the_timer_runs_out(tmp_path, cli, manual_clock):
    db = tmp_path / "gone.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2, timer=60)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock) as web:
        server = web.app.state.server
        ann = phone(web, event_id, "Ann", codes["Ann"])
        bo = phone(web, event_id, "Bo", codes["Bo"])  # Bo joins, then his phone is gone for good
        deadline = ann.seat()["draft"]["deadline"]
        assert deadline == pytest.approx(manual_clock.now() + 60, abs=1)
        picks = 0
        while not ann.seat()["draft"]["done"]:
            if ann.pick_first():
                picks += 1
            state = ann.seat()["draft"]
            if not state["done"] and not state["cards"]:
                assert state["waiting_on"] == ["Bo"] and state["deadline"] is None  # Ann holds no pack: no clock
                bo_deadline = bo.seat()["draft"]["deadline"]  # the clock of the pack in front of Bo
                manual_clock.advance(bo_deadline - manual_clock.now() + 0.5)  # Bo's time runs out
                web.portal.call(server.watcher.step)  # the server's own look applies the timeout, once
        assert picks == 30
        # back at last, Bo's page says why his pool grew without him; Ann's own picks need no word
        assert "time ran out" in bo.seat()["draft"]["last"]["why"] and ann.seat()["draft"]["last"]["why"] is None
    log = draft_log(db, event_id)
    bo_seat = Night(Store(db)).player(event_id, "Bo").seat
    assert len([p for p in log if p[0] == bo_seat]) == 30  # every one of Bo's picks was taken by the timer
    assert Night(Store(db)).event(event_id).status == "building"


def test_a_restarted_server_has_every_acknowledged_pick_and_the_same_tokens(tmp_path, cli, manual_clock):
    db = tmp_path / "restart.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann, bo = (phone(web, event_id, name, codes[name]) for name in ("Ann", "Bo"))
        assert ann.pick_first() and bo.pick_first() and ann.pick_first()
        acknowledged = ann.seat()
    with client(db, event_id, manual_clock, watch=False) as web:  # a new server process over the same file
        ann, bo = Phone(web, ann.token), Phone(web, bo.token)
        assert ann.seat() == {**acknowledged, "server_time": manual_clock.now()}
        assert len(ann.seat()["pool"]) == 4 and bo.seat()["draft"]["pick"] == 2
        with web.websocket_connect(f"/api/stream?token={bo.token}") as stream:
            assert len(stream.receive_json()["seat"]["draft"]["cards"]) == 18


def test_the_desk_resets_a_code_and_hands_a_seat_to_a_bot_and_back(tmp_path, cli, manual_clock):
    db = tmp_path / "desk.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        desk = {"authorization": "Bearer desk-secret"}
        ann = phone(web, event_id, "Ann", codes["Ann"])
        for _ in range(3):
            web.post("/api/join", json={"event": event_id, "player": "Bo", "code": "WRONG9"})
        web.cookies.clear()
        seats = {row["name"]: row for row in web.get("/api/desk", headers=desk).json()["seats"]}
        assert seats["Bo"]["wrong_codes"] == 3 and seats["Ann"]["state"] == "picking"
        picking = ann.seat()["draft"]  # what a seat is told is the core's (the page composed it)
        assert picking["news"] == news_words(1, 3, 1, 10, 2, len(picking["cards"])) and not picking["waiting"]
        assert web.get("/api/desk", headers=desk).json()["seats_over"] is None  # drafting: the seats stay open
        # what the desk may do with each seat is the core's answer (the page decided from the event's status)
        assert seats["Ann"]["hand"] == "bot" and [row["hand"] for row in seats.values() if row["bot_player"]] == [
            None,
            None,
        ]
        assert "code" not in json.dumps(seats).lower().replace("wrong_code", "")
        bo_number = seats["Bo"]["player"]
        reset = web.post("/api/desk/reset-code", json={"player": bo_number}, headers=desk)
        assert reset.status_code == 200 and reset.json()["code"] != codes["Bo"]
        bo = phone(web, event_id, "Bo", reset.json()["code"])  # the seat opens again with the new code
        # Ann's phone died: the desk hands her seat to a bot, which picks for her at once
        ann_number = seats["Ann"]["player"]
        handed = web.post("/api/desk/bot", json={"player": ann_number, "bot": True}, headers=desk)
        assert handed.status_code == 200 and handed.json()["changed"]
        rows = {row["name"]: row for row in web.get("/api/desk", headers=desk).json()["seats"]}
        assert rows["Ann"]["hand"] == "player"
        state = ann.seat()
        assert state["draft"]["bot"] and state["connection_note"] and state["draft"]["queued"] == 0
        assert state["draft"]["waiting"] == BOT_SEAT[:1].upper() + BOT_SEAT[1:] + "." and not state["draft"]["news"]
        held = len(state["pool"])  # the bot took every pack that reached the seat: they all wait at Bo's now
        assert held >= 2 and held % 2 == 0
        assert ann.post("/api/pick", {"pack": 1, "pick": 2, "cards": [0, 1]}).status_code == 409
        assert bo.pick_first() and bo.seat()["draft"]["pick"] == 2 and len(ann.seat()["pool"]) == held + 2
        back = web.post("/api/desk/bot", json={"player": ann_number, "bot": False}, headers=desk)
        assert back.status_code == 200 and not ann.seat()["draft"]["bot"]
        assert bo.pick_first() and ann.pick_first() and len(ann.seat()["pool"]) == held + 4
        # Ann's old token ends when her code is reset
        web.post("/api/desk/reset-code", json={"player": ann_number}, headers=desk)
        assert ann.get("/api/seat").status_code == 401
    history = [(e.who, e.what) for e in Night(Store(db)).history(event_id)]
    assert ("desk", "seat to a bot") in history and ("desk", "seat back to the player") in history
    assert ("browser Bo", "browser joined") in history


@pytest.mark.slow
def test_cmdraft_serve_listens_on_loopback_prints_the_addresses_and_stops_cleanly_on_ctrl_c(tmp_path, cli):
    """A real process on a real socket: what 'cmdraft serve' prints, that it answers over TCP on 127.0.0.1 (a
    free port), and that Ctrl-C (SIGINT) stops it with everything saved — none of which an in-process client sees."""
    db = tmp_path / "served.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    process = subprocess.Popen(
        [sys.executable, "-m", "events", "serve", str(event_id), "--db", str(db), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
        preexec_fn=ctrl_c_reaches_it,  # also when the suite runs as a background job
    )
    try:
        lines = []
        while not any("The desk:" in line for line in lines):
            line = process.stdout.readline()
            assert line, process.stderr.read()
            lines.append(line)
        url = re.search(r"at (http://127\.0\.0\.1:\d+)", lines[0]).group(1)
        desk = re.search(r"(http://\S+/desk\?token=\S+)", "".join(lines)).group(1)
        assert "▀" in "".join(lines) or "█" in "".join(lines)  # the QR code, drawn in the terminal
        with httpx.Client(base_url=url, timeout=10) as web:
            assert web.get("/api/seat").status_code == 401
            joined = web.post("/api/join", json={"event": event_id, "player": "Ann", "code": codes["Ann"]})
            assert joined.status_code == 200 and joined.json()["seat"]["draft"]["take"] == 2
            token = joined.json()["token"]
            web.cookies.clear()  # the pick by its bearer token alone, as a script sends it
            picked = web.post(
                "/api/pick", json={"pack": 1, "pick": 1, "cards": [0, 1]}, headers={"authorization": f"Bearer {token}"}
            )
            assert picked.status_code == 200, picked.text
            token_query = desk.partition("token=")[2]
            assert web.get("/api/desk", headers={"authorization": f"Bearer {token_query}"}).status_code == 200
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
        assert process.returncode == 0, err
        assert "Stopped serving" in out and "Traceback" not in err
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert (
        len(Night(Store(db)).draft_session(event_id, 1).draft.pools[Night(Store(db)).player(event_id, "Ann").seat]) == 2
    )


def test_serve_refuses_an_event_players_cannot_join_from_a_browser(tmp_path, cli):
    db = tmp_path / "nocodes.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", codes=False)
    answer = cli("serve", event_id, "--db", db, "--port", "0")
    assert answer.exit_code == 3 and "no seat codes" in answer.stderr and "Traceback" not in answer.output


def test_serve_refusing_a_sealed_event_says_it_is_sealed_not_to_make_it_terminal(tmp_path, cli):
    """Before: a sealed event made with '--style terminal' was told to be made with '--style terminal'."""
    db = tmp_path / "sealed.json"
    made = cli("event", "new", "Sealed", "--sealed", "--style", "terminal", "--db", db, "--json")
    event_id = str(json.loads(made.stdout)["id"])
    answer = cli("serve", event_id, "--db", db, "--port", "0")
    assert answer.exit_code == 3 and answer.stderr.count("\n") == 1 and "Traceback" not in answer.output
    assert (
        f"event {event_id} is a sealed event" in answer.stderr and "'--style terminal' and codes" not in answer.stderr
    )


def test_a_phone_sees_its_recorded_pool_again_after_it_is_recorded_anew_or_a_card_gains_its_text(
    tmp_path, cli, manual_clock
):
    """The server keeps a recorded pool between pushes only while the database file and the card set it comes
    from are unchanged: a pool recorded again at the desk, and a card text kept meanwhile, show at once."""
    db = tmp_path / "pools.json"
    event_id = served_night(cli, db)
    events = Night(Store(db))
    session = events.draft_session(event_id, 1)
    while not session.draft.finished:
        for seat in session.waiting_humans():
            session.pick(session.suggested_pick(seat))
    events.after_picks(event_id, 1, session)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        first = ann.seat()
        assert first["phase"] == "building" and len(first["pool"]) == 60
        assert ann.seat()["pool"] == first["pool"]
        names = [card["name"] for card in first["pool"][:10]]
        pool_file = tmp_path / "ann-pool.txt"
        pool_file.write_text("".join(f"1 {name}\n" for name in names), encoding="utf-8")
        recorded = cli("event", "pool", event_id, "Ann", pool_file, "--replace", "--db", db)
        assert recorded.exit_code == 0, recorded.output
        again = ann.seat()["pool"]
        assert [card["name"] for card in again] == names
        card = next(c for c in load_set("CMR").cards if c.name == names[0])
        assert not any(face.text for face in card.faces)
        texted = replace(card, faces=(replace(card.faces[0], text="Test text: draw a card."), *card.faces[1:]))
        keep_texts([texted], "a test's card file")
        shown = ann.seat()["pool"]
        assert shown[0]["text"] == ["Test text: draw a card."]
        assert [c["name"] for c in shown] == names


def test_the_server_reads_every_live_pods_draft_before_the_first_phone_asks(tmp_path, cli, manual_clock):
    """``cmdraft serve`` warms up before it listens (then sets what it read aside from the garbage collector)."""
    db = tmp_path / "warm.json"
    event_id = terminal_night(cli, db, *(f"Player {n}" for n in range(1, 11)), bots=6)
    start(cli, db, event_id)
    served = create_app(db, event_id, clock=manual_clock.monotonic, wall=manual_clock.now).state.server.served
    assert served.tables == {}
    served.warm()
    assert sorted(served.tables) == [1, 2] and all(not t.draft.finished for t in served.tables.values())


def test_a_pick_after_the_draft_is_over_says_so_and_names_no_fourth_pack(tmp_path, cli, manual_clock):
    """A pick posted once the draft is over (a phone's send again, a script): 409 ``stale`` saying the draft is over.
    Before: 'the pack in front of you is now pack 4 pick 1', in a draft of three packs."""
    db = tmp_path / "over.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo", "Cy"), bots=0)
    draft_to_the_end(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes_of(db, event_id)["Ann"])
        late = ann.post("/api/pick", {"pack": 3, "pick": 10, "cards": [0, 1]})
        assert late.status_code == 409 and late.json()["error"]["code"] == "stale"
        assert late.json()["error"]["message"] == (
            "that pack has moved on: your pack 3 pick 10 is already made; the draft is over: every pick is made"
        )


def test_a_pick_on_the_pack_the_seat_waits_for_says_it_has_not_reached_the_seat(tmp_path, cli, manual_clock):
    """A script posting its next pick while that pack is still with the player upstream: 409 ``stale`` saying the
    pack hasn't reached the seat.  Before: 'that pack has moved on: your pack 1 pick 2 is already made; your next
    pick is pack 1 pick 2 (waiting for a pack)'."""
    db = tmp_path / "early.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo", "Cy"), bots=0)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        assert ann.pick_first()  # nobody else has picked: her next pack is still upstream
        early = ann.post("/api/pick", {"pack": 1, "pick": 2, "cards": [0, 1]})
        assert early.status_code == 409 and early.json()["error"]["code"] == "stale"
        assert early.json()["error"]["message"] == (
            "that pack hasn't reached you: your pack 1 pick 2 is not reached yet; "
            "your next pick is pack 1 pick 2 (waiting for a pack)"
        )


@pytest.mark.parametrize("style", ["physical", "bots"])
def test_serve_refusing_a_physical_or_bots_event_says_its_style_cant_change_and_what_can_be_done(tmp_path, cli, style):
    """Before: "make the event with '--style terminal'" for an event that exists, whose style no command changes
    (docs/phones.md, "Which events can be served")."""
    db = tmp_path / f"{style}.json"
    made = cli("event", "new", "Friday", "--style", style, "--db", db, "--json")
    event_id = str(json.loads(made.stdout)["id"])
    answer = cli("serve", event_id, "--db", db, "--port", "0")
    assert answer.exit_code == 3 and "Traceback" not in answer.output
    assert " ".join(answer.stderr.split()) == (
        f"cmdraft: error: event {event_id} has no seat codes (it is a {style} draft): players can't join it from a "
        "browser, and an event's style and codes can't be changed once it is made; for phones, make a new event "
        "with 'cmdraft event new NAME --style terminal' (seat codes are on by default) and register the players "
        "there"
    )
