"""The same bad action through every face gets the same refusal (issue 38): the core's typed refusal, in its own
words, as the web's status and JSON error, the CLI's exit code and line, the prompt's and the app's message.
Picks, joins, deck changes after the gate, life limits and role refusals."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from events.night import joining
from events.night.decks import closed_words
from events.night.games import MAX_LIFE_CHANGE
from events.night.refusals import EXIT_ROLE, Actor, NotAllowed, NotBuilding, StalePack, WrongCode, WrongCount
from events.sessions.seat import SeatSession
from events.storage.draft_files import TableSession
from events.storage.store import Store
from sets.visible import quoted
from tests.helpers.night import Night
from tests.helpers.nights import codes_of, terminal_night
from tests.helpers.practice import practice_app, session_at, widget_text
from tests.helpers.served import ORIGIN, client, phone, served_night
from tests.helpers.tables import app_of, drafted_four, four, ok, session_of  # noqa: F401  (fixtures)
from tests.helpers.tables import table_phone as night_phone

THREE = "take exactly 2 cards from this pack, not 3"


async def test_a_pick_of_three_cards_is_refused_in_the_same_words_at_the_app(tmp_path: Path) -> None:
    db = tmp_path / "practice.json"
    session = session_at(db)
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("1", "space", "2", "space", "3", "enter")
        await pilot.pause()
        assert THREE in widget_text(pilot.app.screen, "#message")
        assert TableSession.load(Store(db), session.draft_id).draft.picks_of(0) == []


def test_a_pick_of_three_cards_is_refused_in_the_same_words_at_the_core_the_prompt_and_the_web(
    tmp_path: Path, cli, manual_clock
) -> None:
    db = tmp_path / "friday.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    table, seat = session_of(db, event_id, "Bo")
    held = SeatSession(table, seat)
    held.show()
    with pytest.raises(WrongCount) as core:  # the core
        held.verify([0, 1, 2])
    assert str(core.value) == THREE
    prompt = cli("event", "draft", event_id, "--player", "Ann", "--db", db, input=f"{codes['Ann']}\n1 2 3\nquit\n")
    assert prompt.exit_code == 0 and f"{THREE} — same pick again" in prompt.stdout  # the plain prompt
    with client(db, event_id, manual_clock, watch=False) as web:  # the web
        ann = phone(web, event_id, "Ann", codes["Ann"])
        answer = ann.post("/api/pick", {"pack": 1, "pick": 1, "cards": [0, 1, 2]})
        assert answer.status_code == 400 and answer.json()["error"] == {"code": "wrong-count", "message": THREE}
        assert ann.pick_first()
        again = ann.post("/api/pick", {"pack": 1, "pick": 1, "cards": [0, 1]})  # a second tab on the old pack
    stale = SeatSession(*session_of(db, event_id, "Ann"), token=ann.token)
    stale.seen = (1, 1)
    with pytest.raises(StalePack) as words:
        stale.verify([0, 1])
    assert again.status_code == 409 and again.json()["error"] == {"code": "stale", "message": str(words.value)}


def test_a_join_of_a_name_not_in_the_event_tells_the_phone_what_it_can_do_there(tmp_path: Path, cli, manual_clock):
    db = tmp_path / "join.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    with client(db, event_id, manual_clock, watch=False) as web:
        answer = web.post("/api/join", json={"event": event_id, "player": "Zed", "code": "ABCDEF"})
    assert answer.status_code == 404 and answer.json()["error"]["field"] == "player"  # the field to correct
    message = answer.json()["error"]["message"]
    assert "cmdraft" not in message and message.endswith("check the name on your seating slip")
    terminal = cli("event", "draft", event_id, "--player", "Zed", "--db", db)
    assert terminal.exit_code == 2 and "no player 'Zed'" in terminal.stderr  # the desk's terminal keeps its hint


def test_a_wrong_seat_code_is_refused_in_the_same_words_at_the_terminal_and_the_phone(
    tmp_path: Path, cli, manual_clock
) -> None:
    """Before: the terminal said "Wrong code: not accepted. Check your seating slip, or ask the desk for a new
    code." and the phone "wrong code: type the 6 characters on your seating slip (no 0/O or 1/I), or ask the desk
    for a new one": two sets of words for one rule."""
    db = tmp_path / "codes.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    words = str(WrongCode())
    assert "seating slip" in words and "ask the desk" in words
    with client(db, event_id, manual_clock, watch=False) as web:
        answer = web.post("/api/join", json={"event": event_id, "player": "Ann", "code": "WRONG2"})
    assert answer.status_code == 401
    assert answer.json()["error"] == {"code": "wrong-code", "message": words, "field": "code"}  # the field to correct
    terminal = cli("event", "draft", event_id, "--player", "Bo", "--db", db, input=f"WRONG3\n{codes['Bo']}\nquit\n")
    assert terminal.exit_code == 0 and words in terminal.stdout


def test_an_empty_or_malformed_join_is_judged_by_the_core_in_the_words_the_terminal_uses(
    tmp_path: Path, cli, manual_clock
) -> None:
    """Before: the join form judged the event number (digits), the player and the code (not empty) itself, in the
    page's own words, and the server took only a number for the event (a typed "1 " or "" was a 400 on the type);
    at the terminal a blank line at the code prompt counted as a wrong code."""
    db = tmp_path / "join.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    cases = [  # what was typed, the answer's status, its words, and the field the core says it is about
        ({"event": "", "player": "Ann", "code": codes["Ann"]}, 400, joining.NO_EVENT, "event"),
        ({"event": "abc", "player": "Ann", "code": codes["Ann"]}, 400, "bad event number 'abc'", "event"),
        (
            {"event": str(event_id + 7), "player": "Ann", "code": "X"},
            404,
            f"this server serves event {event_id} only",
            "event",
        ),
        ({"event": f" {event_id} ", "player": "  ", "code": codes["Ann"]}, 400, joining.NO_PLAYER, "player"),
        ({"event": str(event_id), "player": "Ann", "code": " "}, 400, joining.NO_CODE, "code"),
        ({"event": str(event_id), "player": "Ann", "code": "X" * 99}, 400, "a few characters", "code"),
    ]
    with client(db, event_id, manual_clock, watch=False) as web:
        for body, status, words, field in cases:
            answer = web.post("/api/join", json=body)
            refused = answer.json()["error"]
            assert answer.status_code == status and words in refused["message"], (body, answer.text)
            assert refused["field"] == field, (body, answer.text)  # the page focuses it (before: always the code)
        number = Night(Store(db)).player(event_id, "Ann").id
        joined = web.post("/api/join", json={"event": str(event_id), "player": str(number), "code": codes["Ann"]})
        assert joined.status_code == 200, joined.text  # digits typed for the player are the player's number
    assert Night(Store(db)).player(event_id, "Ann").code_tries == 0  # nothing typed was never a try
    terminal = cli("event", "draft", event_id, "--player", "Bo", "--db", db, input=f"\n{codes['Bo']}\nquit\n")
    assert terminal.exit_code == 0 and joining.NO_CODE in " ".join(terminal.stdout.split()), terminal.output
    assert Night(Store(db)).player(event_id, "Bo").code_tries == 0
    nobody = cli("event", "draft", event_id, "--player", " ", "--db", db)
    assert nobody.exit_code == 2 and joining.NO_PLAYER in " ".join(nobody.stderr.split())


def test_a_name_with_both_kinds_of_quote_reads_as_typed_on_every_face(tmp_path: Path, cli, manual_clock):
    """No backslash before a quote: the name sits between quotes it does not hold, the same at the desk's
    terminal and on a phone."""
    db = tmp_path / "quotes.json"
    name = 'Bob "The Piper" O\'Neil'
    event_id = served_night(cli, db, humans=("Ann", name), bots=2)
    typo = name[:-1]
    shown = f"\u201c{typo}\u201d"
    terminal = cli("event", "draft", event_id, "--player", typo, "--db", db)
    assert terminal.exit_code == 2 and f"no player {shown} in event {event_id}" in terminal.stderr
    assert "\\" not in terminal.stderr
    with client(db, event_id, manual_clock, watch=False) as web:
        answer = web.post("/api/join", json={"event": event_id, "player": typo, "code": "ABCDEF"})
    message = answer.json()["error"]["message"]
    assert answer.status_code == 404 and shown in message and "\\" not in message
    other = tmp_path / "other.json"
    assert cli("event", "new", "Other", "--db", other).exit_code == 0
    added = cli("event", "player", "add", "1", name, "--db", other)
    assert added.exit_code == 0 and f"registered \u201c{name}\u201d as player #1" in added.stdout


def test_a_deck_change_after_round_one_is_refused_alike_at_the_phone_the_terminal_and_the_core(
    four,  # noqa: F811
    manual_clock,
    cli,
) -> None:
    db, event_id, codes = four
    assert cli("event", "round", event_id, "--db", db).exit_code == 0
    words = closed_words("round 1 has been paired") + ": ask the organizer"
    events = Night(Store(db))
    with pytest.raises(Exception) as core:
        events.register_deck(event_id, "Ann", auto=True, actor=Actor.seat(events.player_id(event_id, "Ann")))
    assert str(core.value) == words
    terminal = cli("event", "deck", event_id, "Ann", "--build", "--db", db, input="done\n")
    assert terminal.exit_code == 3 and terminal.stderr.strip() == f"cmdraft: error: {words}"
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        ann = night_phone(app, event_id, "Ann", codes["Ann"])
        refused = ann.post("/api/deck/register", json={})
        assert refused.status_code == 409 and refused.json()["error"] == {"code": "phase-over", "message": words}


@contextmanager
def tracked_round(night, manual_clock, cli) -> Iterator[TestClient]:
    """Round 1 paired, the desk's tracker on, and Ann's phone joined: the phone's client."""
    db, event_id, codes = night
    assert cli("event", "round", event_id, "--db", db).exit_code == 0
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers={**ORIGIN, "authorization": "Bearer desk-secret"}) as desk:
        ok(desk.post("/api/desk/tracker", json={"on": True}))
        yield night_phone(app, event_id, "Ann", codes["Ann"])


def test_a_life_change_has_one_limit_at_the_phone_and_at_the_desk(four, manual_clock, cli) -> None:  # noqa: F811
    db, event_id, codes = four
    with tracked_round(four, manual_clock, cli) as ann:
        me = ok(ann.get("/api/table"))["player"]["id"]
        ok(ann.post("/api/game", json={"life": [[me, -1500]]}))  # the phone used to refuse what the desk accepts
        beyond = -(MAX_LIFE_CHANGE + 1)
        refused = ann.post("/api/game", json={"life": [[me, beyond]]})
    desk_line = cli("event", "game", event_id, "1", "1", "--life", f"Ann={beyond}", "--db", db)
    assert desk_line.exit_code == 2 and refused.status_code == 400
    error = refused.json()["error"]
    assert (
        error["code"] == "limit"
        and f"from {-MAX_LIFE_CHANGE:,} to {MAX_LIFE_CHANGE:,}, not {beyond:,}" in error["message"]
    )
    assert f"from {-MAX_LIFE_CHANGE:,} to {MAX_LIFE_CHANGE:,}, not {beyond:,}" in desk_line.stderr
    ok_desk = cli("event", "game", event_id, "1", "1", "--life", "Ann=-1500", "--db", db)
    assert ok_desk.exit_code == 0


def test_commander_damage_is_judged_by_the_core_in_the_same_words_at_the_phone_and_the_desk(
    four,  # noqa: F811
    manual_clock,
    cli,
) -> None:
    """Before: the phone's page refused an amount it judged wrong ("choose the commander and a whole amount from
    1", up to 1000) in its own words, while the core took 0 (an entry doing nothing) and said a phone's victim by
    its id ("commander damage to '3'")."""
    db, event_id, codes = four
    with tracked_round(four, manual_clock, cli) as ann:
        seated = ok(ann.get("/api/table"))["round"]["players"]
        me, victim = next(p for p in seated if p["me"]), next(p for p in seated if not p["me"])
        commander = me["commanders"][0] + ("#1" if me["commanders"].count(me["commanders"][0]) > 1 else "")
        answers = {
            typed: ann.post("/api/game", json={"damage": [[victim["id"], me["id"], commander, typed]]})
            for typed in ("0", "", "2.5")
        }
    zero = f"commander damage to {quoted(victim['name'])} must be from 1 to {MAX_LIFE_CHANGE:,}, not 0"
    assert answers["0"].status_code == 400 and answers["0"].json()["error"]["message"] == zero
    for typed in ("", "2.5"):
        error = answers[typed].json()["error"]
        assert answers[typed].status_code == 400 and error["message"].startswith(
            f"bad commander damage {quoted(typed)}"
        )
    desk_line = cli(
        "event", "game", event_id, "1", "1", "--damage", f"{victim['name']}={me['name']}:{commander}:0", "--db", db
    )
    said = f"--damage must be from 1 to {MAX_LIFE_CHANGE:,}, not 0 (commander damage to {quoted(victim['name'])})"
    assert desk_line.exit_code == 2 and said in desk_line.stderr  # the core's words, after the option that carried them


def test_only_the_desk_starts_a_draft_at_the_core_and_the_cli(tmp_path: Path, cli) -> None:
    db = tmp_path / "bots.json"
    made = cli("event", "new", "Bots", "--style", "bots", "--db", db, "--json")
    event_id = json.loads(made.stdout)["id"]
    assert cli("event", "player", "add", event_id, "Ann", "Bo", "--db", db).exit_code == 0
    assert cli("event", "seat", event_id, "--db", db).exit_code == 0
    events = Night(Store(db))
    with pytest.raises(NotAllowed) as core:
        events.start_draft(event_id, actor=Actor.seat(events.player_id(event_id, "Ann"), "terminal", "Ann"))
    player = cli("event", "draft", event_id, "--player", "Ann", "--db", db)
    assert player.exit_code == EXIT_ROLE and player.stderr.strip() == f"cmdraft: error: {core.value}"
    assert events.snapshot(event_id).event.status == "seated"
    terminal = terminal_night(cli, tmp_path / "terminal.json", "Ann", "Bo", bots=2)
    waited = cli("event", "draft", terminal, "--player", "Ann", "--db", tmp_path / "terminal.json", input="quit\n")
    assert waited.exit_code == 3 and "no seat code was given for 'Ann'" in waited.stderr


def test_building_a_deck_before_every_pod_has_drafted_is_refused_alike_at_the_terminal_the_phone_and_the_core(
    tmp_path: Path, cli, manual_clock
) -> None:
    """Before: the phone said "decks are built once every pod has drafted …" (its own check), the terminal's
    builder "'Ann' has no pool recorded yet" and its --auto "can't register decks while the event is drafting"."""
    db = tmp_path / "early.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    words = "decks are built once every pod has drafted (the event is drafting)"
    events = Night(Store(db))
    with pytest.raises(NotBuilding) as core:
        events.register_deck(event_id, "Ann", auto=True, actor=Actor.seat(events.player_id(event_id, "Ann")))
    assert str(core.value) == words
    for how in ("--build", "--auto"):
        terminal = cli("event", "deck", event_id, "Ann", how, "--db", db, input="done\n")
        assert terminal.exit_code == 3 and terminal.stderr.strip() == f"cmdraft: error: {words}"
    with client(db, event_id, manual_clock, watch=False) as web:
        web.post("/api/join", json={"event": event_id, "player": "Ann", "code": codes["Ann"]})
        refused = web.get("/api/deck")
    assert refused.status_code == 409 and refused.json()["error"] == {"code": "not-building", "message": words}


@pytest.mark.parametrize(
    ("sent", "shown"),
    [("X", "'X'"), ("Wastes", "'Wastes'"), ("", "''"), ("W'", '"W\'"')],
)
def test_a_phones_basic_land_of_an_unknown_color_is_refused_naming_the_value_sent_and_what_to_send(
    four,  # noqa: F811
    manual_clock,
    sent,
    shown,
) -> None:
    db, event_id, codes = four
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        ann = night_phone(app, event_id, "Ann", codes["Ann"])
        before = ok(ann.get("/api/deck"))["basics"]
        refused = ann.post("/api/deck", json={"action": "basics", "color": sent, "count": 3})
        assert refused.status_code == 400
        assert refused.json()["error"] == {
            "code": "bad-field",
            "message": f"unknown basic land color {shown}: send one of W, U, B, R, G or C (Wastes)",
        }
        assert ok(ann.get("/api/deck"))["basics"] == before
        assert ok(ann.post("/api/deck", json={"action": "basics", "color": "c", "count": 0}))["basics"]["C"] == 0
