"""The night after the draft through ``cmdraft serve``'s JSON API and stream, in-process (Starlette's TestClient)
over a real TinyDB file on the tests' clock: thirteen players at their tables report and confirm results, one
disputes and the desk settles, one drops, one table reports after the clock, the final table; the room display
holds nothing private; a player can act only for their own table."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from starlette.testclient import TestClient

from draft.formats import parse
from events.night.browser_seats import seats_over
from events.night.round_clock import PAUSED, TIME_UP
from events.night.shown import StandingRow, standing_row
from events.night.standings import winner_line
from events.night.table_reports import NO_TIES
from events.night.table_shown import TableState
from events.night.table_views import TableViews
from events.storage.store import Store
from events.web.answers import typed
from events.web.app import create_app
from events.web.settings import WebSettings
from sets.colors import Color
from tests.helpers.cliapp import invoke
from tests.helpers.night import Night
from tests.helpers.nights import codes_of
from tests.helpers.served import NIGHT_NAMES, drafted_night

ORIGIN = {"origin": "http://testserver"}
NAMES = NIGHT_NAMES
DESK = {"authorization": "Bearer desk-secret"}


def app_of(db: Path, event_id: int, clock):
    settings = WebSettings(watch=False)
    return create_app(db, event_id, settings, clock=clock.monotonic, wall=clock.now, desk_token="desk-secret")


@pytest.fixture(scope="module")
def drafted(tmp_path_factory):
    """One drafted night, copied for each test (the draft takes a while)."""
    folder = tmp_path_factory.mktemp("night")
    db = folder / "drafted.json"
    event_id = drafted_night(lambda *args, input=None: invoke(args, input=input), db)
    return db, event_id


@pytest.fixture
def night(drafted, tmp_path):
    source, event_id = drafted
    db = tmp_path / "night.json"
    db.write_bytes(source.read_bytes())
    return db, event_id, codes_of(db, event_id)


def phone(app, event_id: int, name: str, code: str) -> TestClient:
    web = TestClient(app, headers=ORIGIN)
    answer = web.post("/api/join", json={"event": event_id, "player": name, "code": code})
    assert answer.status_code == 200, answer.text
    return web


def ok(answer):
    assert answer.status_code == 200, answer.text
    return answer.json()


@pytest.mark.slow
def test_a_whole_night_of_thirteen_phones(night, manual_clock):
    db, event_id, codes = night
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN) as desk:
        phones = {name: phone(app, event_id, name, codes[name]) for name in NAMES}
        assert ok(phones["Ann"].get("/api/table"))["round"] is None
        dropped = None
        for number in (1, 2, 3):
            paired = ok(desk.post("/api/desk/round", json={}, headers=DESK))
            ok(desk.post("/api/desk/clock", json={"minutes": 50}, headers=DESK))
            assert len(paired["tables"]) == 3 and paired["round"] == number
            for table, names in enumerate(paired["tables"], start=1):
                views = {name: ok(phones[name].get("/api/table")) for name in names}
                for view in views.values():
                    assert view["round"]["table"] == table and view["round"]["first"] == paired["first"][table - 1]
                    assert [p["name"] for p in view["round"]["players"]] == names
                    assert all(p["commanders"] for p in view["round"]["players"])
                    assert view["round"]["clock"]["deadline"] == manual_clock.now() + 50 * 60
                    # no standing before the night's first result (everyone would read "1st, 0 points")
                    assert (view["standing"] is None) == (number == 1 and table == 1)
                ids = {p["name"]: p["id"] for p in views[names[0]]["round"]["players"]}
                order = [[ids[n]] for n in names]
                if number == 3 and table == 3:
                    manual_clock.advance(50 * 60 + 5)  # this table reports after the clock
                    late = ok(phones[names[0]].post("/api/result", json={"order": order}))
                    assert late["round"]["status"] == "desk" and late["round"]["report"]["late"]
                    desk_view = ok(desk.get("/api/desk/night", headers=DESK))
                    late_table = desk_view["round"]["tables"][2]
                    # the status in the core's words, as the desk's page shows it (it had a list of its own)
                    assert late_table["status"] == "desk"
                    assert late_table["status_words"] == "time up: the desk records it"
                else:
                    view = ok(phones[names[0]].post("/api/result", json={"order": order}))
                    assert view["round"]["status"] == "waiting"
                    assert view["round"]["report"]["waiting_for"] == names[1:]
                report = ok(phones[names[1]].get("/api/table"))["round"]["report"]
                if number == 1 and table == 2:
                    mine = [[ids[names[1]]], [ids[names[0]]], *order[2:]]
                    answer = phones[names[1]].post(
                        "/api/result/confirm", json={"report": report["id"], "agree": False, "order": mine}
                    )
                    assert ok(answer)["round"]["status"] == "disputed"
                    both = ok(desk.get("/api/desk/night", headers=DESK))["round"]["tables"][1]
                    assert both["report"]["disputes"][0]["player"] == names[1]
                    assert [[p["id"] for p in g] for g in both["report"]["disputes"][0]["order"]] == mine
                    settled = desk.post("/api/desk/settle", json={"round": 1, "table": 2, "order": mine}, headers=DESK)
                    assert ok(settled)["table"] == 2
                    continue
                for name in names[1:]:
                    last = ok(phones[name].post("/api/result/confirm", json={"report": report["id"], "agree": True}))
                assert last["round"]["status"] == "recorded"
                assert last["round"]["result"]["order"] == [[n] for n in names]
            standings = ok(desk.get("/api/standings"))["standings"]
            cli_order = [row.name for row in Night(Store(db)).standings(event_id)]
            assert [row["name"] for row in standings] == cli_order
            if number == 1:
                dropped = standings[-1]["name"]
                assert ok(phones[dropped].get("/api/table"))["player"]["may_drop"]  # the core's rule, for the page
                refused = phones[dropped].post("/api/drop", json={"confirm": False})
                assert refused.status_code == 400 and refused.json()["error"]["code"] == "confirm-needed"
                gone = ok(phones[dropped].post("/api/drop", json={"confirm": True}))["player"]
                assert gone["status"] == "dropped" and not gone["may_drop"]
                assert ok(desk.get("/api/desk/night", headers=DESK))["dropped"] == [{"name": dropped, "after_round": 1}]
        final = ok(desk.post("/api/desk/top", json={"size": 4}, headers=DESK))
        assert dropped not in final["players"] and len(final["players"]) == 4
        assert final["said"] == (final["ties"] or [NO_TIES])  # the terminal's lines, for the desk's page to show
        view = ok(phones[final["players"][0]].get("/api/table"))
        assert view["round"]["final"] and view["round"]["first"] == final["players"][0]
        ids = {p["name"]: p["id"] for p in view["round"]["players"]}
        report = ok(
            phones[final["players"][0]].post("/api/result", json={"order": [[ids[n]] for n in final["players"]]})
        )
        for name in final["players"][1:]:
            ok(
                phones[name].post(
                    "/api/result/confirm", json={"report": report["round"]["report"]["id"], "agree": True}
                )
            )
        assert ok(phones[final["players"][2]].get("/api/table"))["round"]["status"] == "recorded"
        room = ok(desk.get("/api/room"))
        assert room["round"]["final"] and sorted(room["round"]["tables"][0]["players"]) == sorted(final["players"])
        assert room["views"] == ["standings", "pairings"]  # the final table closed: its pairings after the standings
        refused = desk.get("/api/decklists")
        assert refused.status_code == 409  # not before the event is finished, and only where the desk publishes
        ok(desk.post("/api/desk/publish", json={"on": True}, headers=DESK))
        assert desk.get("/api/decklists").status_code == 409
        assert ok(phones[final["players"][0]].get("/api/table"))["event"]["decklists"] is False  # not finished yet
        ok(desk.post("/api/desk/finish", json={}, headers=DESK))
        after = ok(phones[final["players"][0]].get("/api/table"))
        assert not after["player"]["may_drop"]  # the event is over
        assert after["event"]["decklists"] is True  # the phone links to them now
        lists = ok(desk.get("/api/decklists"))["decklists"]
        assert [d["name"] for d in lists] == [row.name for row in Night(Store(db)).standings(event_id)]
        assert all(d["commanders"] and sum(line["count"] for line in d["main"]) > 0 for d in lists)
        lines = [line for d in lists for part in ("commanders", "main", "sideboard") for line in d[part]]
        assert all(line["type"] and "cost" in line for line in lines)  # the card's facts as text, always
        assert not any("image" in line for line in lines)  # no images downloaded: none named
        assert ok(desk.get("/api/room"))["event"]["decklists"] is True
        assert ok(desk.get("/api/room"))["views"] == ["standings"]  # the event over: its standings only
    history = Night(Store(db)).history(event_id)
    results = [e for e in history if e.what == "result"]
    assert len(results) == 10 and [e.who for e in results].count("desk") == 1
    assert any(e.what == "drop" and e.who == f"browser {dropped}" for e in history)


def test_a_player_acts_only_for_their_own_table_and_the_room_shows_nothing_private(night, manual_clock):
    db, event_id, codes = night
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN) as desk:
        paired = ok(desk.post("/api/desk/round", json={}, headers=DESK))
        one, two = paired["tables"][0], paired["tables"][1]
        a, b = phone(app, event_id, one[0], codes[one[0]]), phone(app, event_id, two[0], codes[two[0]])
        ids = {p["name"]: p["id"] for p in ok(a.get("/api/table"))["round"]["players"]}
        report = ok(a.post("/api/result", json={"order": [[ids[n]] for n in one]}))["round"]["report"]
        answer = b.post("/api/result/confirm", json={"report": report["id"], "agree": True})
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "not-your-table"
        other = {p["name"]: p["id"] for p in ok(b.get("/api/table"))["round"]["players"]}
        answer = a.post("/api/result", json={"order": [[other[n]] for n in two]})
        assert answer.status_code == 400 and "not at this table" in answer.json()["error"]["message"]
        # No token: no table, no result; the desk's routes need the desk's token.
        stranger = TestClient(app, headers=ORIGIN)
        assert stranger.get("/api/table").status_code == 401
        assert stranger.post("/api/result", json={"order": [[1]]}).status_code == 401
        assert stranger.get("/api/desk/night").status_code == 401
        assert stranger.post("/api/desk/settle", json={"round": 1, "table": 1, "order": "x"}).status_code == 401
        # A page's cookie from another site is refused.
        assert a.post("/api/drop", json={"confirm": True}, headers={"origin": "http://evil.example"}).status_code == 403
        for body in ({"order": "Ann"}, {"order": [[True]]}, {"order": [[1]], "x": 1}, {}):
            answer = a.post("/api/result", json=body)
            assert 400 <= answer.status_code < 500 and "error" in answer.json()
        room = ok(stranger.get("/api/room"))
        text = json.dumps(room)
        assert all(code not in text for code in codes.values())
        assert "commanders" not in text and "pool" not in text
        assert [row["name"] for row in room["round"]["pairings"]] == sorted(NAMES, key=str.casefold)
        assert room["join"] == f"http://testserver/join?event={event_id}"
        qr = stranger.get("/api/room/qr.svg")
        assert qr.headers["content-type"] == "image/svg+xml" and 'xmlns="http://www.w3.org/2000/svg"' in qr.text
        page = stranger.get("/room")
        assert page.status_code == 200 and "room.js" in page.text


def test_the_desk_is_offered_the_final_table_sizes_the_core_allows_its_own_table_size_first(night, manual_clock):
    """RULES 1: a final table is one commander pod, 3 to 5 players; the event's tables seat 4, offered first (the
    desk page shows the sizes as they come, its choice preset to the first); the sizes refused are never offered."""
    db, event_id, _ = night
    with TestClient(app_of(db, event_id, manual_clock), headers=ORIGIN) as desk:
        ok(desk.post("/api/desk/round", json={}, headers=DESK))
        assert ok(desk.get("/api/desk/night", headers=DESK))["final_sizes"] == [4, 3, 5]


def test_the_desk_sees_who_has_no_legal_deck_and_may_pair_anyway(night, manual_clock):
    """The desk's page says who has registered a deck (the terminal's deck board's words); a player with a deck
    that has problems stops the round's pairing (the core's words, as at the terminal), and the desk may pair it
    anyway (the terminal's --force), offered only while someone to be paired has no legal deck."""
    db, event_id, _ = night
    small = parse("Commander\n1 The Prismatic Piper\n\nDeck\n10 Swamp\n")
    assert not Night(Store(db)).register_deck(event_id, "Ann", small, piper_colors=[Color.B]).valid
    with TestClient(app_of(db, event_id, manual_clock), headers=ORIGIN) as desk:
        view = ok(desk.get("/api/desk/night", headers=DESK))
        assert view["decks"] == f"{len(NAMES)} of {len(NAMES)} decks registered, 1 with problems (Ann)"
        assert "pair" in view["actions"] and "pair-anyway" in view["actions"]
        refused = desk.post("/api/desk/round", json={}, headers=DESK)
        assert refused.status_code == 409 and refused.json()["error"]["message"].startswith(
            "no legal deck registered for 'Ann'"
        )
        paired = ok(desk.post("/api/desk/round", json={"force": True}, headers=DESK))
        assert paired["round"] == 1 and any("Ann" in table for table in paired["tables"])
        view = ok(desk.get("/api/desk/night", headers=DESK))
        assert view["decks"] is None and "pair-anyway" not in view["actions"]  # a round open: nothing to pair


@pytest.mark.parametrize("size", [1, 2, 8, 9])
def test_a_final_table_size_the_core_refuses_is_refused_in_its_words_at_the_desk_and_the_cli(night, manual_clock, size):
    """A final table seats one commander pod, 3 to 5 (the core's rule, ``final_sizes``): the desk asks the core, as the
    CLI does, and both say the one refusal in the same words; nothing is seated."""
    db, event_id, _ = night
    words = f"a final table seats 3 to 5 players (one commander pod), not {size}"
    with TestClient(app_of(db, event_id, manual_clock), headers=ORIGIN) as desk:
        answer = desk.post("/api/desk/top", json={"size": size}, headers=DESK)
    assert answer.status_code == 400 and answer.json()["error"]["message"] == words
    done = invoke(("event", "top", event_id, size, "--db", db))
    assert done.exit_code == 2 and words in done.output
    assert Night(Store(db)).snapshot(event_id).rounds == ()


@pytest.mark.parametrize("order", ["", " ", "Ann > > Bo"])
def test_a_result_the_desk_types_with_an_empty_place_is_refused_in_the_cores_words_at_the_desk_and_the_cli(
    night, manual_clock, order
):
    db, event_id, _ = night
    with TestClient(app_of(db, event_id, manual_clock), headers=ORIGIN) as desk:
        ok(desk.post("/api/desk/round", json={}, headers=DESK))
        answer = desk.post("/api/desk/settle", json={"round": 1, "table": 1, "order": order}, headers=DESK)
    done = invoke(("event", "result", event_id, 1, 1, order, "--db", db))
    assert done.exit_code == 2 and answer.status_code == 400
    words = answer.json()["error"]["message"]
    assert (
        words.startswith(f"bad result '{order}': a place has no name") and f"cmdraft: error: {words}\n" in done.output
    )
    assert Night(Store(db)).snapshot(event_id).results == ()


def test_the_tracker_from_phones_is_off_until_the_desk_turns_it_on(night, manual_clock):
    db, event_id, codes = night
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN) as desk:
        table = ok(desk.post("/api/desk/round", json={}, headers=DESK))["tables"][0]
        a = phone(app, event_id, table[0], codes[table[0]])
        me = next(p["id"] for p in ok(a.get("/api/table"))["round"]["players"] if p["me"])
        assert a.post("/api/game", json={"life": [[me, -4]]}).status_code == 409
        ok(desk.post("/api/desk/tracker", json={"on": True}, headers=DESK))
        board = ok(a.post("/api/game", json={"life": [[me, -4]]}))
        assert board["players"][0]["life"] == 36
        assert ok(a.get("/api/table"))["round"]["game"]["players"][0]["life"] == 36
        assert ok(a.post("/api/game", json={"undo": True}))["players"][0]["life"] == 40


def test_whether_the_drafts_seats_fold_on_the_desk_is_the_cores_answer(night, manual_clock):
    """Before: the desk's page folded the draft's seats by reading the event's status itself, in its own words
    ("6 in 1 pods")."""
    db, event_id, codes = night
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN) as desk:
        seats = ok(desk.get("/api/desk", headers=DESK))
    pods = {row["pod"] for row in seats["seats"]}
    assert seats["event"]["status"] == "building" and len(pods) == 2
    assert seats["seats_over"] == f"Draft seats: {len(seats['seats'])} in 2 pods, the draft is over"
    assert seats_over("playing", 6, 1) == "Draft seats: 6 in 1 pod, the draft is over"
    assert seats_over("drafting", 8, 1) is None


def test_the_desk_pauses_the_clock_and_gives_one_table_extra_time_on_every_phone(night, manual_clock):
    db, event_id, codes = night
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN) as desk:
        paired = ok(desk.post("/api/desk/round", json={}, headers=DESK))
        ok(desk.post("/api/desk/clock", json={"minutes": 40}, headers=DESK))
        one, two = (phone(app, event_id, t[0], codes[t[0]]) for t in paired["tables"][:2])
        manual_clock.advance(600)
        ok(desk.post("/api/desk/extra-time", json={"table": 2, "minutes": 5}, headers=DESK))
        first, second = ok(one.get("/api/table"))["round"]["clock"], ok(two.get("/api/table"))["round"]["clock"]
        assert (first["remaining"], second["remaining"]) == (30 * 60, 35 * 60)
        assert second["deadline"] == manual_clock.now() + 35 * 60 and second["extra"] == 300
        # what each clock says is the core's (round_clock), sent with it: the pages count down and show these
        assert second["words"] == {"time_up": TIME_UP, "paused": PAUSED, "extra": "This table has 5 extra minutes."}
        assert first["words"]["extra"] == "" and first["words"]["time_up"] == TIME_UP
        ok(desk.post("/api/desk/clock", json={"pause": True}, headers=DESK))
        manual_clock.advance(120)
        paused = ok(one.get("/api/table"))["round"]["clock"]
        assert paused["paused"] and paused["remaining"] == 30 * 60 and paused["deadline"] is None
        room = ok(desk.get("/api/room"))["round"]["clock"]
        assert room["paused"] and room["remaining"] == 30 * 60
        manual_clock.advance(30 * 60 + 1)  # paused: no time passes
        assert not ok(one.get("/api/table"))["round"]["clock"]["over"]


def test_the_desk_pairs_the_round_again_until_a_table_reports(night, manual_clock):
    """The desk's view says whether the round may be paired again, by the core's one rule: its page offers the
    button only then (it offered it after a result, and the click was refused)."""
    db, event_id, codes = night
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN) as desk:
        paired = ok(desk.post("/api/desk/round", json={}, headers=DESK))
        assert ok(desk.get("/api/desk/night", headers=DESK))["round"]["pair_again"] is True
        again = ok(desk.post("/api/desk/round", json={"again": True}, headers=DESK))
        assert again["round"] == 1 and sorted(map(sorted, again["tables"])) == sorted(map(sorted, paired["tables"]))
        table = again["tables"][0]
        a = phone(app, event_id, table[0], codes[table[0]])
        ids = {p["name"]: p["id"] for p in ok(a.get("/api/table"))["round"]["players"]}
        ok(a.post("/api/result", json={"order": [[ids[n]] for n in table]}))
        refused = desk.post("/api/desk/round", json={"again": True}, headers=DESK)
        assert refused.status_code == 409 and "can't be paired again" in refused.json()["error"]["message"]
        assert ok(desk.get("/api/desk/night", headers=DESK))["round"]["pair_again"] is False


def test_the_stream_pushes_a_new_pairing_a_result_and_a_paused_clock_to_the_phones_at_once(night, manual_clock):
    db, event_id, codes = night
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN) as desk:
        web = phone(app, event_id, "Ann", codes["Ann"])
        with web.websocket_connect("/api/stream") as stream:
            assert stream.receive_json()["seat"]["table"] is None  # building: no table yet
            paired = ok(desk.post("/api/desk/round", json={}, headers=DESK))
            table = stream.receive_json()["seat"]["table"]
            mine = next(t for t in paired["tables"] if "Ann" in t)
            assert table["round"]["number"] == 1 and [p["name"] for p in table["round"]["players"]] == mine
            ok(desk.post("/api/desk/clock", json={"minutes": 30}, headers=DESK))
            assert stream.receive_json()["seat"]["table"]["round"]["clock"]["deadline"] == manual_clock.now() + 1800
            ok(desk.post("/api/desk/clock", json={"pause": True}, headers=DESK))
            assert stream.receive_json()["seat"]["table"]["round"]["clock"]["paused"]
            ids = {p["name"]: p["id"] for p in table["round"]["players"]}
            ok(web.post("/api/result", json={"order": [[ids[n]] for n in mine]}))
            report = stream.receive_json()["seat"]["table"]["round"]["report"]
            assert report["by"] == "Ann" and report["waiting_for"] == [n for n in mine if n != "Ann"]


def test_the_nights_answers_are_the_cores_views_byte_for_byte(night, manual_clock):
    """The typed answers (``events.web.answers``) read the core's views strictly and send them as the core gives
    them: a player's table (with a report, a dispute and the tracker), the desk's night, the room, the standings."""
    db, event_id, codes = night
    app = app_of(db, event_id, manual_clock)
    views = TableViews(Store(db))
    with TestClient(app, headers=ORIGIN) as desk:
        ok(desk.post("/api/desk/tracker", json={"on": True}, headers=DESK))
        paired = ok(desk.post("/api/desk/round", json={}, headers=DESK))
        ok(desk.post("/api/desk/clock", json={"minutes": 50}, headers=DESK))
        names = paired["tables"][0]
        phones = {name: phone(app, event_id, name, codes[name]) for name in names}
        seated = ok(phones[names[0]].get("/api/table"))["round"]["players"]
        ids = {p["name"]: p["id"] for p in seated}
        commanders = seated[0]["commanders"]  # two Pipers lead one deck: the core asks which ("#1")
        source = commanders[0] + ("#1" if commanders.count(commanders[0]) > 1 else "")
        hit = [[ids[names[1]], ids[names[0]], source, 4]]
        ok(phones[names[0]].post("/api/game", json={"life": [[ids[names[1]], -3]], "damage": hit}))
        report = ok(phones[names[0]].post("/api/result", json={"order": [[ids[n]] for n in names]}))["round"]["report"]
        mine = [[ids[n]] for n in reversed(names)]
        ok(phones[names[1]].post("/api/result/confirm", json={"report": report["id"], "agree": False, "order": mine}))
        now = manual_clock.now()
        for name in names:
            core = views.table_view(event_id, ids[name], now=now).to_json()
            assert core["round"]["report"] and core["round"]["game"]["players"]
            assert phones[name].get("/api/table").content == msgspec.json.encode(core)
        assert desk.get("/api/desk/night", headers=DESK).content == msgspec.json.encode(views.desk_view(event_id, now))
        room = views.room_view(event_id, now=now)
        assert desk.get("/api/room").content == msgspec.json.encode(
            {**msgspec.to_builtins(room), "join": f"http://testserver/join?event={event_id}"}
        )
        standings = Night(Store(db)).standings(event_id)
        shown = {
            "server_time": now,
            "standings": [standing_row(r) for r in standings],
            "winner": winner_line(standings),
        }
        assert desk.get("/api/standings").content == msgspec.json.encode(shown)


def test_the_command_lines_standings_json_has_the_webs_rows_with_the_old_player_key_beside(night, manual_clock):
    """``event standings --json`` and ``GET /api/standings`` give the same rows (``StandingRow``, the name as
    ``name``); the list's old key ``player`` (the name) is still there for scripts written before."""
    db, event_id, _ = night
    events = Night(Store(db))
    table = events.new_round(event_id).tables[0]
    events.record_result(event_id, 1, 1, " > ".join(f'"{name}"' for name in table))
    listed = invoke(["event", "standings", str(event_id), "--json", "--db", str(db)])
    assert listed.exit_code == 0, listed.output
    rows = json.loads(listed.stdout)
    with TestClient(app_of(db, event_id, manual_clock), headers=ORIGIN) as web:
        served = web.get("/api/standings").json()["standings"]
    assert set(rows[0]) == {*StandingRow.__struct_fields__, "player"}
    assert [{k: v for k, v in row.items() if k != "player"} for row in rows] == served
    assert [row["player"] for row in rows] == [row["name"] for row in rows]
    assert {row["name"] for row in rows if row["rounds"]} == set(table)  # the players of the one result
    decks = json.loads(invoke(["event", "deck", str(event_id), "--json", "--db", str(db)]).stdout)
    assert all(deck["name"] == deck["player"] for deck in decks) and {d["name"] for d in decks} >= set(table)


def test_a_key_the_answer_type_does_not_declare_is_refused_not_sent(night, manual_clock):
    """A view the core widened with a key the API page doesn't name can't reach a page unnoticed."""
    db, event_id, _ = night
    view = TableViews(Store(db)).table_view(event_id, 1, now=manual_clock.now()).to_json()
    assert typed(view, TableState) == typed(dict(view), TableState)
    with pytest.raises(msgspec.ValidationError, match="unknown field `secret`"):
        typed({**view, "secret": "a seat code"}, TableState)


def test_the_desk_says_a_bot_holds_a_seat_it_drafted_to_the_end(tmp_path, cli, manual_clock):
    """Seats the desk handed to the bots, drafted by them to the end: they were shown "not joined" once the draft
    was over, as if a phone were still to come; a bot held them, and the desk says so."""
    from tests.helpers.nights import draft_to_the_end
    from tests.helpers.served import served_night

    db = tmp_path / "handed.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    for name in ("Ann", "Bo"):
        assert cli("event", "player", "bot", event_id, name, "--db", db).exit_code == 0
    draft_to_the_end(db, event_id)
    with TestClient(app_of(db, event_id, manual_clock), headers=ORIGIN) as desk:
        seats = ok(desk.get("/api/desk", headers=DESK))["seats"]
    assert len(seats) == 4 and {row["holder"] for row in seats} == {"bot"}
