"""Every face says what the core says (brief "faces agree"): who is still to confirm a report, and a reporter's
own report (nothing to confirm or dispute: they report again), at a phone and at a terminal alike."""

from __future__ import annotations

from starlette.testclient import TestClient

from events.night.report_waits import waiting_for
from events.storage.records import Round
from events.storage.store import Store
from events.storage.tables import records_of
from tests.helpers.served import ORIGIN
from tests.helpers.tables import app_of, drafted_four, four, ok  # noqa: F401  (fixtures)
from tests.helpers.tables import table_phone as phone

OWN = "nothing to confirm or dispute; report again to change it"


def test_who_is_still_to_confirm_a_disputed_report_is_the_cores_list_on_every_face(four, manual_clock, cli):  # noqa: F811
    db, event_id, codes = four
    assert cli("event", "round", event_id, "--db", db).exit_code == 0
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        phones = {name: phone(app, event_id, name, codes[name]) for name in ("Ann", "Bo")}
        table = ok(phones["Ann"].get("/api/table"))["round"]
        ids = {p["name"]: p["id"] for p in table["players"]}
        order = [[ids["Ann"]], [ids["Bo"]], [ids["Cy"]], [ids["Di"]]]
        report = ok(phones["Ann"].post("/api/result", json={"order": order}))["round"]["report"]["id"]
        ok(phones["Bo"].post("/api/result/confirm", json={"report": report, "agree": False}))
        shown = ok(phones["Ann"].get("/api/table"))["round"]["report"]
    with Store(db).read() as data:
        rnd = records_of(data, Round).find(event=event_id)[0]
        core = waiting_for(data, rnd, 1, [ids["Ann"]], [ids["Bo"]])
    names = {pid: name for name, pid in ids.items()}
    assert shown["waiting_for"] == [names[pid] for pid in core] and sorted(shown["waiting_for"]) == ["Cy", "Di"]
    seen = cli("event", "table", event_id, "--player", "Cy", "--db", db)
    waiting = next(line for line in seen.stdout.splitlines() if line.startswith("Still to confirm: "))
    assert waiting.removeprefix("Still to confirm: ").split(" / ") == shown["waiting_for"]


def test_a_reporter_may_not_dispute_their_own_report_at_a_phone_or_a_terminal(four, manual_clock, cli):  # noqa: F811
    db, event_id, codes = four
    assert cli("event", "round", event_id, "--db", db).exit_code == 0
    reported = cli(
        "event",
        "table",
        event_id,
        "--player",
        "Di",
        "--report",
        "Ann > Bo > Cy > Di",
        "--db",
        db,
        input=codes["Di"] + "\n",
    )
    assert reported.exit_code == 0, reported.output
    refused = cli("event", "table", event_id, "--player", "Di", "--dispute", "--db", db, input=codes["Di"] + "\n")
    assert refused.exit_code == 3 and OWN in " ".join(refused.stderr.split())
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        di = phone(app, event_id, "Di", codes["Di"])
        report = ok(di.get("/api/table"))["round"]["report"]
        assert report["status"] == "waiting" and report["disputes"] == []
        answer = di.post("/api/result/confirm", json={"report": report["id"], "agree": False})
        assert answer.status_code == 409 and OWN in answer.json()["error"]["message"]
        assert ok(di.get("/api/table"))["round"]["report"]["status"] == "waiting"


def test_a_correction_settled_from_the_desks_page_says_what_the_terminal_says_of_the_later_pairing(
    four,  # noqa: F811
    manual_clock,
    cli,
):
    db, event_id, _ = four
    desk = {"authorization": "Bearer desk-secret"}
    assert cli("event", "round", event_id, "--db", db).exit_code == 0
    assert cli("event", "result", event_id, 1, 1, "Ann > Bo > Cy > Di", "--db", db).exit_code == 0
    assert cli("event", "round", event_id, "--db", db).exit_code == 0
    with TestClient(app_of(db, event_id, manual_clock), headers=ORIGIN) as web:
        body = {"round": 1, "table": 1, "order": "Di > Cy > Bo > Ann", "replace": True}
        settled = ok(web.post("/api/desk/settle", json=body, headers=desk))
    said = cli("event", "result", event_id, 1, 1, "Di > Cy > Bo > Ann", "--replace", "--db", db)
    terminal = " ".join(said.stdout.split())
    assert settled["next_round"] == 2 and settled["correction"].startswith("corrected after round 2 was paired")
    assert settled["correction"].removesuffix(")") in terminal  # the terminal adds its command inside the brackets


def test_a_final_table_is_named_so_in_the_log_and_round_again_says_it_refuses_one(four, cli):  # noqa: F811
    db, event_id, _ = four
    assert cli("event", "round", event_id, "--db", db).exit_code == 0
    assert cli("event", "result", event_id, 1, 1, "Ann > Bo > Cy > Di", "--db", db).exit_code == 0
    assert cli("event", "top", event_id, 4, "--db", db).exit_code == 0
    log = cli("event", "log", event_id, "--db", db)
    rows = [line for line in log.stdout.splitlines() if "round 2:" in line]
    assert len(rows) == 1 and "final table" in rows[0]
    helped = " ".join(cli("event", "round", "--help").stdout.split())
    assert "never a final table" in helped
    refused = cli("event", "round", event_id, "--again", "--db", db)
    assert refused.exit_code == 3 and "final table" in refused.stderr
