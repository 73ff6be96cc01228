"""The table closes from the table (issue 38): a player at a terminal sees their table, reports and confirms its
result with their seat code, as the phones at the table do; the phones show who still has to confirm."""

from __future__ import annotations

from starlette.testclient import TestClient

from events.storage.store import Store
from tests.helpers.night import Night
from tests.helpers.served import ORIGIN
from tests.helpers.tables import app_of, drafted_four, four, ok, terminal_report  # noqa: F401  (fixtures)
from tests.helpers.tables import table_phone as phone


def test_a_table_with_a_terminal_player_closes_from_the_table(four, manual_clock, cli):  # noqa: F811
    db, event_id, codes = four
    assert cli("event", "round", event_id, "--db", db).exit_code == 0
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        phones = {name: phone(app, event_id, name, codes[name]) for name in ("Ann", "Bo", "Cy")}
        table = ok(phones["Ann"].get("/api/table"))["round"]
        ids = {p["name"]: p["id"] for p in table["players"]}
        ok(phones["Ann"].post("/api/result", json={"order": [[ids["Di"]], [ids["Ann"]], [ids["Bo"]], [ids["Cy"]]]}))
        shown = ok(phones["Bo"].get("/api/table"))["round"]["report"]
        assert sorted(shown["waiting_for"]) == ["Bo", "Cy", "Di"]  # the phones say who still has to confirm
        seen = cli("event", "table", event_id, "--player", "Di", "--db", db)
        assert seen.exit_code == 0 and "Reported by Ann: Di > Ann > Bo > Cy" in seen.stdout
        waiting = next(line for line in seen.stdout.splitlines() if line.startswith("Still to confirm: "))
        assert sorted(waiting.removeprefix("Still to confirm: ").split(" / ")) == ["Bo", "Cy", "you"]  # Di's own
        for name in ("Bo", "Cy"):
            report = ok(phones[name].get("/api/table"))["round"]["report"]["id"]
            ok(phones[name].post("/api/result/confirm", json={"report": report, "agree": True}))
        assert ok(phones["Ann"].get("/api/table"))["round"]["report"]["waiting_for"] == ["Di"]
        wrong = cli("event", "table", event_id, "--player", "Di", "--confirm", "--db", db, input="")
        assert wrong.exit_code == 3 and "no seat code was given for 'Di'" in wrong.stderr  # the code holds the seat
        said = " ".join(wrong.stderr.split())  # what didn't happen, and where the code is: not a draft's words
        assert "so nothing was confirmed" in said and "picks for" not in said
        assert "type the seat code of 'Di' when it asks" in said and f"cmdraft event player code {event_id} Di" in said
        done = cli("event", "table", event_id, "--player", "Di", "--confirm", "--db", db, input=codes["Di"] + "\n")
        assert done.exit_code == 0, done.output
        assert "Result recorded: Di > Ann > Bo > Cy" in done.stdout
        assert ok(phones["Ann"].get("/api/table"))["round"]["status"] == "recorded"
    history = Night(Store(db)).history(event_id)
    assert [e.who for e in history if e.what == "result confirm"] == ["browser Bo", "browser Cy", "terminal Di"]
    assert next(e for e in history if e.what == "result").who == "browser Ann"


def test_a_terminal_player_reports_their_table_and_the_phones_confirm_it(four, manual_clock, cli):  # noqa: F811
    db, event_id, codes = four
    reported = terminal_report(cli, db, event_id, codes, "Di", "Ann > Bo = Cy > Di")
    assert "Reported by Di: Ann > Bo = Cy > Di" in reported.stdout
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        for name in ("Ann", "Bo", "Cy"):
            web = phone(app, event_id, name, codes[name])
            report = ok(web.get("/api/table"))["round"]["report"]["id"]
            ok(web.post("/api/result/confirm", json={"report": report, "agree": True}))
    assert next(e for e in Night(Store(db)).history(event_id) if e.what == "result").who == "terminal Di"


def test_a_terminal_confirmation_says_it_was_taken_and_a_wrong_code_says_it_was_wrong(four, cli):  # noqa: F811
    """Before: ``event table --confirm`` printed only the table (the same again when repeated, exit 0), and a
    wrong code then end of input said "no seat code was given" (exit 3)."""
    db, event_id, codes = four
    terminal_report(cli, db, event_id, codes, "Ann", "Ann > Bo = Cy > Di")
    confirm = ("event", "table", event_id, "--player", "Bo", "--confirm", "--db", db)
    wrong = cli(*confirm, input="WRONG1\n")
    said = " ".join(wrong.stderr.split())
    assert wrong.exit_code == 2 and "no seat code was given" not in said, wrong.output  # a wrong code's exit
    assert "the seat code typed for 'Bo' was wrong, so nothing was confirmed" in said
    assert f"cmdraft event player code {event_id} Bo" in said
    taken = cli(*confirm, input=codes["Bo"] + "\n")
    assert taken.exit_code == 0 and "Bo confirmed the result" in said_lines(taken.stdout), taken.output
    again = cli(*confirm, input=codes["Bo"] + "\n")
    assert again.exit_code == 0 and "Bo already confirmed the result" in said_lines(again.stdout), again.output
    assert "Bo confirmed the result" not in said_lines(again.stdout)
    for name in ("Cy", "Di"):
        last = cli("event", "table", event_id, "--player", name, "--confirm", "--db", db, input=codes[name] + "\n")
        assert last.exit_code == 0, last.output
    assert "Di confirmed the result; it is the table's result now" in said_lines(last.stdout)
    disputed = Night(Store(db))
    assert [e.who for e in disputed.history(event_id) if e.what == "result confirm"] == [
        "terminal Bo",
        "terminal Bo",
        "terminal Cy",
        "terminal Di",
    ]


def said_lines(stdout: str) -> list[str]:
    """The lines a command printed, the seat code's prompt (answered from a pipe, on the same line) left out."""
    return [line.split(")> ", 1)[1] if line.startswith("Seat code for ") else line for line in stdout.splitlines()]


def test_a_player_who_dropped_mid_round_reports_and_confirms_no_more_on_any_face(four, manual_clock, cli):  # noqa: F811
    """Before: a player who dropped from their phone mid-round was still offered "Report the result" and POST
    /api/result was taken (200).  docs/store-night.md: a dropped player gets no further pairings; docs/phones.md:
    the players still in the event confirm, and a drop ends the wait for the one who dropped.  So a player who
    dropped plays no more: the core refuses their report, confirmation or dispute (409 ``dropped``, exit 3, the
    same words) and their view says they may not (``may_report``), with what happens instead."""
    from events.night.table_shown import DROPPED_WORDS

    db, event_id, codes = four
    assert cli("event", "round", event_id, "--db", db).exit_code == 0
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        di, ann = phone(app, event_id, "Di", codes["Di"]), phone(app, event_id, "Ann", codes["Ann"])
        before = ok(di.get("/api/table"))
        assert before["player"]["may_report"] is True and before["round"]["status_words"] != DROPPED_WORDS
        ids = {p["name"]: p["id"] for p in before["round"]["players"]}
        ok(di.post("/api/drop", json={"confirm": True}))
        view = ok(di.get("/api/table"))
        assert view["player"]["status"] == "dropped" and view["player"]["may_report"] is False
        assert view["round"]["status_words"] == DROPPED_WORDS
        order = [[ids["Di"]], [ids["Ann"]], [ids["Bo"]], [ids["Cy"]]]
        refused = di.post("/api/result", json={"order": order})
        words = (
            "'Di' has dropped from the event: the players still in it report and confirm the table's result, or the "
            "desk records it"
        )
        assert refused.status_code == 409 and refused.json()["error"] == {"code": "dropped", "message": words}
        at_terminal = cli(
            "event", "table", event_id, "--player", "Di", "--report", "Di > Ann > Bo > Cy", "--db", db,
            input=codes["Di"] + "\n",
        )  # fmt: skip
        assert at_terminal.exit_code == 3 and " ".join(at_terminal.stderr.split()) == f"cmdraft: error: {words}"
        assert ok(ann.get("/api/table"))["player"]["may_report"] is True
        ok(ann.post("/api/result", json={"order": order}))  # the players still in it report (Di is placed)
        report = ok(ann.get("/api/table"))["round"]["report"]
        assert "Di" not in report["waiting_for"]
        confirming = di.post("/api/result/confirm", json={"report": report["id"], "agree": True})
        assert confirming.status_code == 409 and confirming.json()["error"]["code"] == "dropped"


def test_a_player_who_dropped_keeps_no_game_tracker_and_a_tablemate_still_does(four, manual_clock, cli):  # noqa: F811
    """A player who dropped plays no more (as their report is refused): a life change they send from their phone
    is refused, 409 ``dropped`` in the core's words, and nothing changes; a tablemate still in the event changes it."""
    db, event_id, codes = four
    assert cli("event", "round", event_id, "--db", db).exit_code == 0
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN) as desk:
        ok(desk.post("/api/desk/tracker", json={"on": True}, headers={"authorization": "Bearer desk-secret"}))
        di, ann = phone(app, event_id, "Di", codes["Di"]), phone(app, event_id, "Ann", codes["Ann"])
        ids = {p["name"]: p["id"] for p in ok(di.get("/api/table"))["round"]["players"]}
        ok(di.post("/api/drop", json={"confirm": True}))
        refused = di.post("/api/game", json={"life": [[ids["Ann"], -1]]})
        assert refused.status_code == 409 and refused.json()["error"] == {
            "code": "dropped",
            "message": "'Di' has dropped from the event: the players still in it keep the table's game tracker, or "
            "the desk does",
        }
        board = ok(ann.post("/api/game", json={"life": [[ids["Di"], -1]]}))
        lives = {row["player"]: row["life"] for row in board["players"]}
        assert lives == {"Ann": 40, "Bo": 40, "Cy": 40, "Di": 39}  # Di's tap changed nothing; Ann's did
