"""An export made before `event finish` leaves the seat codes and the packs' secret out; restored into the database
it came from, the event keeps them from that database's own copy of the event (as its withheld boosters are), so
the players' slips still work and the desk's `event player code` still shows each code."""

from __future__ import annotations

import json
import shlex

from events.storage.store import Store
from tests.helpers.night import Night
from tests.helpers.nights import codes_of, start, terminal_night


def secret_of(db, event_id: int):
    with Store(db).read() as handle:
        return handle.table("events").get(doc_id=event_id).get("secret")


def test_a_running_export_restored_into_its_own_database_keeps_the_seat_codes_and_the_secret(tmp_path, cli):
    db = tmp_path / "night.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", "Cy", bots=1)
    start(cli, db, event_id)
    session = Night(Store(db)).draft_session(event_id, 1)
    for seat in session.waiting_humans():
        session.pick(session.suggested_pick(seat))
    codes, secret = codes_of(db, event_id), secret_of(db, event_id)
    assert all(codes.values()) and secret is not None
    out = tmp_path / "out"
    assert cli("event", "export", event_id, "--out", out, "--db", db).exit_code == 0
    restored = cli("event", "restore", out / "database.json", "--force", "--db", db, "--json")
    assert restored.exit_code == 0, restored.output
    assert json.loads(restored.stdout)["replaced"] is True
    assert codes_of(db, event_id) == codes
    assert secret_of(db, event_id) == secret
    shown = cli("event", "player", "code", event_id, "Ann", "--db", db, "--json")
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["code"] == codes["Ann"]


def test_a_running_export_restored_elsewhere_holds_no_code_of_the_night(tmp_path, cli):
    """Into another database nothing gives the codes back (the export never carried them): asked for a code, the
    desk is told how to give a new one."""
    db = tmp_path / "night.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2)
    out = tmp_path / "out"
    assert cli("event", "export", event_id, "--out", out, "--db", db).exit_code == 0
    other = tmp_path / "other.json"
    assert cli("event", "restore", out / "database.json", "--db", other).exit_code == 0
    assert set(codes_of(other, 1).values()) == {None}
    assert secret_of(other, 1) is None
    tricky = "O'Neil #2"  # a name a shell reads otherwise unquoted
    assert cli("event", "player", "rename", 1, "Ann", tricky, "--db", other).exit_code == 0
    asked = cli("event", "player", "code", 1, tricky, "--db", other)
    assert asked.exit_code == 3 and asked.stderr.count("\n") == 1
    # was: codes are given at seating; then a command naming '#1', which a shell reads as a comment from '#' on
    command = asked.stderr.split("give one with: ", 1)[1].strip()
    words = shlex.split(command)  # as a shell reads it, pasted
    assert words[:2] == ["cmdraft", "event"] and words[-2:] == ["--db", str(other)]
    assert cli(*words[1:]).exit_code == 0
    assert codes_of(other, 1)[tricky] is not None


def test_a_running_export_refused_by_a_new_database_leaves_nothing_there(tmp_path, cli):
    """Its packs are in no database there: refused (2) before anything is made, not even the database's lock."""
    db = tmp_path / "night.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=1)
    start(cli, db, event_id)
    out = tmp_path / "out"
    assert cli("event", "export", event_id, "--out", out, "--db", db).exit_code == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for whole in ((), ("--all",)):
        refused = cli("event", "restore", out / "database.json", *whole, "--db", elsewhere / "new.json")
        assert refused.exit_code == 2 and "holds no boosters" in refused.stderr
        assert list(elsewhere.iterdir()) == []  # before: new.json.lock and new.json.queue


def test_a_restored_event_keeps_its_players_ids_where_it_replaces_itself(tmp_path, cli):
    """`id` in `event show --json` (and what the phones' and terminals' builds in progress are kept by) names the
    same player after the event is restored over itself; before, every player got a new one."""
    db = tmp_path / "night.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", "Cy", bots=1)
    ids = {
        p["name"]: p["id"] for p in json.loads(cli("event", "show", event_id, "--db", db, "--json").stdout)["players"]
    }
    out = tmp_path / "out"
    assert cli("event", "export", event_id, "--out", out, "--db", db).exit_code == 0
    assert cli("event", "player", "add", event_id, "Late", "--db", db).exit_code == 0  # not in the file
    other = terminal_night(cli, db, "Di", "Ed", name="Next week")  # players numbered after the event's
    assert cli("event", "restore", out / "database.json", "--db", db).exit_code == 0
    shown = json.loads(cli("event", "show", event_id, "--db", db, "--json").stdout)["players"]
    assert {p["name"]: p["id"] for p in shown} == ids
    assert cli("event", "player", "add", event_id, "Later", "--db", db).exit_code == 0
    later = json.loads(cli("event", "show", event_id, "--db", db, "--json").stdout)["players"]
    others = json.loads(cli("event", "show", other, "--db", db, "--json").stdout)["players"]
    assert len({p["id"] for p in later + others}) == len(later) + len(others) == len(ids) + 3


def test_a_file_with_two_players_of_one_number_restores_over_its_event_without_a_traceback(tmp_path, cli):
    """A file edited by hand so that two players share a number: restored over the same event, the second was
    inserted with the id the first had just kept ("Document with ID 1 already exists", a traceback, exit 1).  One
    of them keeps the id; the other gets a new one, as a player the event didn't have."""
    db = tmp_path / "night.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", "Cy", bots=1)
    out = tmp_path / "out"
    assert cli("event", "export", event_id, "--out", out, "--db", db).exit_code == 0
    data = json.loads((out / "database.json").read_text())
    players = data["players"]
    ann = next(p for p in players.values() if p["name"] == "Ann")
    next(p for p in players.values() if p["name"] == "Bo")["number"] = ann["number"]
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    restored = cli("event", "restore", edited, "--db", db)
    assert restored.exit_code == 0 and "Traceback" not in restored.output, restored.output
    shown = json.loads(cli("event", "show", event_id, "--db", db, "--json").stdout)["players"]
    assert sorted(p["name"] for p in shown) == sorted(p["name"] for p in players.values())
    assert len({p["id"] for p in shown}) == len(shown)
