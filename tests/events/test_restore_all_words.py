"""`event restore FILE --all` replaces every event: one event's export restored so, over a league's database, takes
the other events away (kept in the backup).  The refusal over a live draft names the event that has it, and the
restore says which events the file left out, in words and in `--json` (`left_out`, empty for one event's
restore)."""

from __future__ import annotations

import json
import re

from events.storage.store import Store
from tests.helpers.night import Night
from tests.helpers.nights import start, terminal_night


def league(cli, tmp_path):
    """A database with a seated bots event ('Week one') and a terminal event whose draft is live ('Week two')."""
    db = tmp_path / "league.json"
    assert cli("event", "new", "Week one", "--style", "bots", "--seed", "1", "--db", db).exit_code == 0
    assert cli("event", "player", "add", "1", "Ann", "Bo", "Cy", "--db", db).exit_code == 0
    live = terminal_night(cli, db, "Di", "Ed", bots=1, name="Week two")
    start(cli, db, live)
    session = Night(Store(db)).draft_session(live, 1)
    for seat in session.waiting_humans():
        session.pick(session.suggested_pick(seat))
    out = tmp_path / "week-one"
    assert cli("event", "export", "1", "--out", out, "--db", db).exit_code == 0
    return db, out / "database.json"


def test_a_refused_whole_restore_names_the_event_whose_draft_is_live(cli, tmp_path):
    db, file = league(cli, tmp_path)
    refused = cli("event", "restore", file, "--all", "--db", db)
    assert refused.exit_code == 3 and refused.stderr.count("\n") == 1
    said = (
        "event 2 ('Week two') has a live draft (pod 1 at 4 picks) and is not in the file, which takes it away: "
        "restoring now would stop it and discard 4 picks the file doesn't hold"
    )
    assert said in refused.stderr, refused.stderr  # was: the event has a live draft (pod 1 at 4 picks): restoring


def test_a_refused_whole_restore_tells_two_live_events_of_one_name_apart(cli, tmp_path):
    """Two live 'Week two' events left out of the file were named alike ("'Week two' has a live draft ...; 'Week
    two' has a live draft ...: restoring now would stop it"), and their picks called "made since the file was
    written" though the file never held them."""
    db, file = league(cli, tmp_path)
    again = terminal_night(cli, db, "Flo", "Gus", bots=1, name="Week two")
    start(cli, db, again)
    refused = cli("event", "restore", file, "--all", "--db", db)
    said = " ".join(refused.stderr.split())
    assert refused.exit_code == 3 and refused.stderr.count("\n") == 1
    assert "event 2 ('Week two') has a live draft" in said and f"event {again} ('Week two') has a live draft" in said
    held = sum(int(n) for n in re.findall(r"pod 1 at (\d+) picks?\)", said))  # every pick of both: none in the file
    assert held >= 5 and f"would stop them and discard {held} picks the file doesn't hold" in said, said
    assert "let the drafts finish, or restore with --force to stop them first" in said


def test_a_whole_restore_says_which_events_the_file_left_out(cli, tmp_path):
    db, file = league(cli, tmp_path)
    done = cli("event", "restore", file, "--all", "--force", "--db", db)
    assert done.exit_code == 0, done.stderr
    said = " ".join(done.stdout.split())
    assert "event 2 ('Week two') is not in the file: it is gone from the database" in said, said
    assert [e.name for e in Night(Store(db)).list_events()] == ["Week one"]
    back = cli("event", "restore", f"{db}.bak.1", "--all", "--db", db, "--json")
    assert back.exit_code == 0 and json.loads(back.stdout)["left_out"] == []
    again = cli("event", "restore", file, "--all", "--force", "--db", db, "--json")
    assert json.loads(again.stdout)["left_out"] == [{"id": 2, "name": "Week two"}]
    one = cli("event", "restore", file, "--db", db, "--json")
    assert one.exit_code == 0 and json.loads(one.stdout)["left_out"] == []
