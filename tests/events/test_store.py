"""The event store on real files: the schema-1 migration, crashes at every step, racing terminals,
backups, read-only and not-a-database files, stale temporary files."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from events.storage.database_file import SCHEMA
from events.storage.draft_files import TableSession
from events.storage.draft_records import DRAFTS
from events.storage.safe_files import FileLock
from events.storage.store import KEEP_BACKUPS, Store
from sets.errors import StorageError
from tests.helpers.night import Night
from tests.helpers.nights import NAMES, terminal_event
from tests.helpers.paths import FIXTURES
from tests.helpers.terminals import acks, worker

FIXTURE = FIXTURES / "schema1.json"
PICKS_PER_SEAT = 30  # CMR: 20-card boosters, two cards a pick, three boosters


def picks_on_disk(db: Path, event_id: int) -> set[tuple[int, int, int]]:
    events = Night(Store(db))
    found = set()
    for pod in events.snapshot(event_id).pods:
        session = events.draft_session(event_id, pod.number)
        found |= {(pod.players[p.seat], p.pack, p.pick) for p in session.draft.log}
    return found


def status(db: Path, event_id: int) -> str:
    return Night(Store(db)).snapshot(event_id).event.status


def killed_then_finished(cli, db: Path, event_id: int, mode: str, kill: str) -> set[tuple[int, int, int]]:
    """A worker drafting Ann and Bo's picks (``mode``) killed at ``kill``: every pick it acknowledged is on disk,
    the next command reads the event, the next worker drafts on to the end and the event moves on.  Returns the
    acknowledged picks."""
    process = worker(mode, str(db), str(event_id), "Ann", "Bo", kill=kill)
    output, errors = process.communicate(timeout=120)
    assert process.returncode == -signal.SIGKILL, errors
    acked = acks(output)
    assert acked <= picks_on_disk(db, event_id)
    assert cli("event", "show", str(event_id), "--db", db).exit_code == 0
    rest = worker(mode, str(db), str(event_id), "Ann", "Bo")
    output, errors = rest.communicate(timeout=120)
    assert "DONE" in output, errors
    assert status(db, event_id) == "building" and len(picks_on_disk(db, event_id)) == SEATS_TWO
    return acked


def temporaries(folder: Path) -> list[Path]:
    return [p for p in folder.rglob(".*.tmp")]


# --- schema 1 → 2 ---------------------------------------------------------------------------------------------


def test_a_schema_1_database_opens_is_backed_up_and_migrated(tmp_path, cli):
    """The fixture was written by the schema-1 release: three events (playing, drafting, registration)
    and a practice draft; its drafts hold 90, 6 and 5 picks."""
    db = tmp_path / "old.json"
    shutil.copy(FIXTURE, db)
    original = db.read_bytes()
    listed = json.loads(cli("event", "list", "--db", db, "--json").stdout)
    assert [(row["name"], row["status"]) for row in listed] == [
        ("Played [b]night[/b]", "playing"),
        ("Drafting", "drafting"),
        ("Next week", "registration"),
    ]
    assert db.read_bytes() == original and not list(tmp_path.glob("old.json.bak.*"))  # reading writes nothing
    practice = json.loads(cli("play", "--list", "--db", db, "--json").stdout)
    assert [(row["id"], row["picks"]) for row in practice] == [(3, 2)]  # the player's own picks, not the bots'

    assert cli("event", "player", "add", "3", "Gus", "--db", db).exit_code == 0  # the first write migrates
    assert (tmp_path / "old.json.bak.1").read_bytes() == original
    saved = json.loads(db.read_text())
    assert saved["_meta"]["1"]["schema"] == SCHEMA == 3 and "picks" not in saved
    assert all("event" in doc and "e" not in doc for doc in saved["players"].values())  # schema 3: readable names
    assert [len(saved["drafts"][key]["picks"]) for key in ("1", "2", "3")] == [90, 6, 5]

    events = Night(Store(db))
    standings = events.standings(1)
    assert sorted(row.name for row in standings) == ["Ann", "Bø", "Çy"] and sum(row.rounds for row in standings) == 3
    session = events.draft_session(2, 1)  # the draft in progress goes on where it stopped
    assert len(session.draft.log) == 6
    while not session.draft.finished:
        for seat in session.waiting_humans():
            session.pick(session.suggested_pick(seat))
    events.after_picks(2, 1, session)
    snap = events.snapshot(2)
    assert snap.event.status == "building" and [p.pool_size for p in snap.players] == [60, 60]
    resumed = TableSession.load(Store(db), 3)
    assert len(resumed.draft.log) == 5 and resumed.waiting_humans() == [0]


def test_picks_into_a_schema_1_database_before_its_first_write_are_kept(tmp_path):
    db = tmp_path / "old.json"
    shutil.copy(FIXTURE, db)
    session = Night(Store(db)).draft_session(2, 1)
    for seat in session.waiting_humans():
        session.pick(session.suggested_pick(seat))
    assert json.loads(db.read_text())["_meta"]["1"]["schema"] == 1  # the database itself was not written
    assert len(Night(Store(db)).draft_session(2, 1).draft.log) == 8  # a fresh reader finds the picks
    Night(Store(db)).add_player(3, "Gus")  # the migrating write
    assert len(Night(Store(db)).draft_session(2, 1).draft.log) == 8


def test_a_later_migration_backs_up_once_then_upgrades(tmp_path, monkeypatch):
    import events.storage.database_file as file_module
    import events.storage.store as store_module

    db = tmp_path / "db.json"
    Night(Store(db)).create("Old", seed=1)
    before = db.read_bytes()
    monkeypatch.setattr(store_module, "SCHEMA", SCHEMA + 1)
    monkeypatch.setattr(file_module, "SCHEMA", SCHEMA + 1)
    monkeypatch.setitem(
        file_module.MIGRATIONS,
        SCHEMA,
        lambda data: {**data, "events": {k: {**v, "upgraded": True} for k, v in data["events"].items()}},
    )
    with Store(db).read() as handle:  # read through the migration, nothing written
        assert handle.table("events").get(doc_id=1)["upgraded"] is True
    assert db.read_bytes() == before and not (tmp_path / "db.json.bak.1").exists()
    with Store(db).write() as handle:
        handle.table("events").update({"seen": True}, doc_ids=[1])
    saved = json.loads(db.read_text())
    assert saved["_meta"]["1"]["schema"] == SCHEMA + 1 and saved["events"]["1"]["upgraded"]
    assert (tmp_path / "db.json.bak.1").read_bytes() == before


# --- schema 2 → 3 ---------------------------------------------------------------------------------------------

FIXTURE_2 = FIXTURES / "schema2.json"


def schema_2_copy(folder: Path) -> Path:
    """The schema-2 fixture (written by the schema-2 release: a played night with a game and a result, a
    terminal draft two picks in with a wrong seat code typed, and an event still registering) and its
    live draft's own file."""
    db = folder / "two.json"
    shutil.copy(FIXTURE_2, db)
    shutil.copytree(FIXTURE_2.with_name("schema2.json.drafts"), folder / "two.json.drafts")
    return db


def test_a_schema_2_database_opens_is_backed_up_once_and_gets_readable_field_names(tmp_path, cli):
    db = schema_2_copy(tmp_path)
    original = db.read_bytes()
    assert json.loads(original)["_meta"]["1"]["schema"] == 2 and '"e":' in original.decode()
    shown = json.loads(cli("event", "show", "1", "--db", db, "--json").stdout)
    assert [p["name"] for p in shown["players"]] == ["Ann", "Bo", "Cy", "Di"]
    assert shown["rounds"][0]["results"] == {"1": [["Ann"], ["Bo", "Cy"], ["Di"]]}
    assert db.read_bytes() == original and not list(tmp_path.glob("two.json.bak.*"))  # reading writes nothing

    assert cli("event", "player", "add", "3", "Hal", "--db", db).exit_code == 0  # the first write migrates
    assert (tmp_path / "two.json.bak.1").read_bytes() == original and not (tmp_path / "two.json.bak.2").exists()
    saved = json.loads(db.read_text())
    assert saved["_meta"]["1"]["schema"] == SCHEMA == 3
    for table in ("players", "pods", "pools", "decks", "rounds", "results", "games", "history", "code_failures"):
        assert all("event" in doc and "e" not in doc for doc in saved[table].values()), table
    assert all("player" in doc and "p" not in doc for doc in saved["pools"].values())
    assert [set(cast) >= {"player"} and "p" not in cast for cast in saved["games"]["1"]["casts"]] == [True]
    assert [sorted(doc) for doc in saved["code_failures"].values()] == [["at", "event", "player", "process"]]
    assert [doc["number"] for doc in saved["players"].values()] == [1, 2, 3, 4, 1, 2, 1, 2]
    cli("event", "player", "add", "3", "Ivy", "--db", db)
    assert not (tmp_path / "two.json.bak.2").exists()  # migrated once: a later write makes no backup

    night = Night(Store(db))
    assert [row.name for row in night.standings(1)][:1] == ["Ann"]
    assert night.event(1).name == "Played night" and night.player(2, "Fay").number == 2
    session = night.draft_session(2, 1)  # the live draft goes on from its own file
    assert len(session.draft.log) == 2
    for seat in session.waiting_humans():
        session.pick(session.suggested_pick(seat))
    assert len(Night(Store(db)).draft_session(2, 1).draft.log) == 4


@pytest.mark.slow
@pytest.mark.parametrize("kill", ["write:1:before", "write:1:after"])
def test_a_crash_while_a_schema_2_database_is_migrated_leaves_the_old_file_or_the_new_one(tmp_path, cli, kill):
    db = schema_2_copy(tmp_path)
    original = db.read_bytes()
    process = worker("players", str(db), "3", "Late", "1", kill=kill)  # its first commit is the migrating write
    process.communicate(timeout=120)
    assert process.returncode == -signal.SIGKILL
    saved = json.loads(db.read_text())
    if kill.endswith("before"):
        assert db.read_bytes() == original
    else:
        assert saved["_meta"]["1"]["schema"] == 3 and "Late0" in {p["name"] for p in saved["players"].values()}
    assert (tmp_path / "two.json.bak.1").read_bytes() == original  # the backup came first, whole
    assert cli("event", "show", "1", "--db", db).exit_code == 0  # either file opens
    assert cli("event", "player", "add", "3", "Later", "--db", db).exit_code == 0
    assert json.loads(db.read_text())["_meta"]["1"]["schema"] == 3


def test_the_snapshot_json_form_is_what_event_show_prints(tmp_path, cli):
    db = schema_2_copy(tmp_path)
    shown = json.loads(cli("event", "show", "2", "--db", db, "--json").stdout)
    night = Night(Store(db))
    expected = night.snapshot(2).to_json()
    assert {key: value for key, value in shown.items() if key != "pipers"} == expected
    assert [p["wrong_codes"] for p in shown["players"]] == [0, 1]  # Fay's wrong code, typed before the upgrade


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"_meta": {"1": {"app": "cmdraft", "schema": 0}}, "events": {}}', "schema 0"),
        (
            b'{"_meta": {"1": {"app": "cmdraft", "schema": 2}}, "events": {"1": {"name": "No fields"}}}',
            "events record 1 has no date",
        ),
        (
            b'{"_meta": {"1": {"app": "cmdraft", "schema": 1}}, "players": {"1": {"e": 1}}}',
            "players record 1 has no name",
        ),
        (
            b'{"_meta": {"1": {"app": "cmdraft", "schema": 1}}, "picks": {"1": {"s": 0}}}',
            "schema-1 record can't be read",
        ),
    ],
)
def test_unknown_schema_or_a_record_missing_a_field_is_a_one_line_error(tmp_path, cli, content, message):
    db = tmp_path / "db.json"
    db.write_bytes(content)
    for args in (
        ("event", "list"),
        ("event", "show", "1"),
        ("event", "new", "X"),
        ("event", "player", "add", "1", "Ann"),
    ):
        result = cli(*args, "--db", db)
        assert result.exit_code == 4 and message in result.stderr, (args, result.stderr)
        assert result.stderr.startswith("cmdraft: error:") and result.stderr.count("\n") == 1
        assert "Traceback" not in result.stderr and "KeyError" not in result.stderr
    assert db.read_bytes() == content and sorted(p.name for p in tmp_path.iterdir()) == [
        "db.json"
    ]  # no backups rotated


# --- what is not a new database ---------------------------------------------------------------------------------


@pytest.mark.parametrize("content", [b"", b"  \n\t \n"])
def test_an_empty_file_is_not_a_new_database(tmp_path, cli, content):
    db = tmp_path / "db.json"
    db.write_bytes(content)
    for args in (("event", "list"), ("event", "new", "X")):
        result = cli(*args, "--db", db)
        assert result.exit_code == 4 and "is empty" in result.stderr and "Traceback" not in result.stderr
    assert db.read_bytes() == content


def test_a_path_under_a_file_is_not_a_new_database(tmp_path, cli):
    blocker = tmp_path / "file.txt"
    blocker.write_text("not a folder")
    for args in (("event", "list"), ("event", "new", "X")):
        result = cli(*args, "--db", blocker / "db.json")
        assert result.exit_code == 4 and "a part of the path is a file" in result.stderr
    assert blocker.read_text() == "not a folder"


def test_only_a_missing_path_is_a_new_database(tmp_path, cli):
    db = tmp_path / "new" / "db.json"
    listed = cli("event", "list", "--db", db)  # a --db that names nothing is said, not listed as empty (exit 6)
    assert listed.exit_code == 6 and f"no database file '{db}'" in listed.stderr and not db.parent.exists()
    assert cli("event", "new", "X", "--db", db).exit_code == 0 and db.exists()


# --- read-only ------------------------------------------------------------------------------------------------------


def test_a_read_only_database_refuses_writes_and_is_left_as_it_is(tmp_path, cli):
    db = tmp_path / "db.json"
    events = Night(Store(db))
    event_id = events.create("Night", seed=1)
    events.add_player(event_id, "Ann")
    os.chmod(db, 0o444)
    before, mode = db.read_bytes(), stat.S_IMODE(db.stat().st_mode)
    for args in (
        ("event", "new", "Y"),
        ("event", "player", "add", str(event_id), "Bo"),
        ("event", "player", "drop", "1", "Ann"),
    ):
        result = cli(*args, "--db", db)
        assert result.exit_code == 4 and "read-only" in result.stderr, result.stderr
    assert db.read_bytes() == before and stat.S_IMODE(db.stat().st_mode) == mode == 0o444
    assert "Night" in cli("event", "list", "--db", db).stdout


def test_a_write_keeps_the_database_permissions(tmp_path):
    db = tmp_path / "db.json"
    events = Night(Store(db))
    events.create("Night", seed=1)
    os.chmod(db, 0o600)
    events.create("Day", seed=2)
    assert stat.S_IMODE(db.stat().st_mode) == 0o600


def test_a_database_in_a_read_only_folder_can_be_read_without_a_lock_file(tmp_path, cli):
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "db.json"
    events = Night(Store(db))
    event_id = events.create("Night", style="bots", seed=3)
    for name in NAMES[:4]:
        events.add_player(event_id, name)
    events.seat(event_id)
    events.start_draft(event_id)
    for path in folder.rglob("*"):
        if path.name.endswith(".lock"):
            path.unlink()
    names_before = sorted(p.name for p in folder.rglob("*"))
    os.chmod(db, 0o444)
    os.chmod(folder, 0o555)
    try:
        assert "Night" in cli("event", "list", "--db", db).stdout
        assert cli("event", "show", str(event_id), "--db", db).exit_code == 0
        assert cli("event", "standings", str(event_id), "--db", db, "--json").exit_code == 0
        exported = cli("event", "export", str(event_id), "--out", tmp_path / "out", "--db", db)
        assert exported.exit_code == 0 and (tmp_path / "out" / "database.json").exists()
        listed = cli("event", "undo", str(event_id), "--list", "--db", db)  # what undo would take back: a read
        assert listed.exit_code == 0 and "can't be undone" in listed.stdout and "read-only" in listed.stdout
        assert sorted(p.name for p in folder.rglob("*")) == names_before  # no lock file, nothing else
        refused = cli("event", "new", "Y", "--db", db)
        assert refused.exit_code == 4
    finally:
        os.chmod(folder, 0o755)


def test_a_new_database_never_makes_its_folder_inside_a_read_only_one(tmp_path, cli, monkeypatch):
    """The data folder's parent (``XDG_DATA_HOME``) or a --db's ancestor marked read-only: ``event new`` makes no
    folder in it (root could), refused in one line naming the read-only folder (4)."""
    locked = tmp_path / "data"
    locked.mkdir()
    os.chmod(locked, 0o555)
    monkeypatch.delenv("CMDRAFT_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(locked))
    try:
        for typed in ((), ("--db", locked / "night" / "db.json")):
            refused = cli("event", "new", "Night", "--style", "bots", *typed)
            assert refused.exit_code == 4, refused.output
            assert refused.stderr.count("\n") == 1 and f"the folder {locked} is read-only" in refused.stderr
            assert "choose another --db" in refused.stderr
            assert list(locked.iterdir()) == []
    finally:
        os.chmod(locked, 0o755)


# --- temporary files and backups ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_stale_temporary_files_of_dead_processes_are_removed_by_the_next_write(tmp_path):
    """Crash safety: real processes, killed or racing, on a real database file; a process that has ended leaves its temporary file."""
    db = tmp_path / "db.json"
    events = Night(Store(db))
    events.create("Night", seed=1)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(dead.stdout)
    stale = tmp_path / f".db.json.{dead_pid}.tmp"
    stale.write_text("half a database")
    (tmp_path / "db.json.drafts").mkdir()
    stale_draft = tmp_path / "db.json.drafts" / f".1-abc.json.{dead_pid}.tmp"
    stale_draft.write_text("half a draft")
    alive = tmp_path / f".db.json.{os.getppid()}.tmp"  # a live process may be writing it: left alone
    alive.write_text("in progress")
    events.create("Day", seed=2)
    assert not stale.exists() and not stale_draft.exists() and alive.exists()


def test_backups_before_every_phase_change_keep_five(tmp_path, cli):
    db = tmp_path / "db.json"
    run = lambda *args: cli(*args, "--db", db)  # noqa: E731
    assert run("event", "new", "Night", "--style", "bots", "--seed", "5").exit_code == 0
    assert run("event", "player", "add", "1", *NAMES[:4]).exit_code == 0
    assert not list(tmp_path.glob("db.json.bak.*"))  # registering players is not a phase change
    steps = [("event", "seat", "1"), ("event", "draft", "1"), ("event", "round", "1", "--force")]
    for step in steps:
        before = db.read_bytes()
        assert run(*step).exit_code == 0, step
        assert (tmp_path / "db.json.bak.1").read_bytes() == before, step
    tables = json.loads(run("event", "show", "1", "--json").stdout)["rounds"][0]["tables"]
    for number, table in enumerate(tables, start=1):
        assert run("event", "result", "1", "1", str(number), " > ".join(table)).exit_code == 0
    before = db.read_bytes()
    assert run("event", "finish", "1").exit_code == 0
    assert (tmp_path / "db.json.bak.1").read_bytes() == before
    before = db.read_bytes()
    restored = run("event", "restore", tmp_path / "db.json.bak.3")
    assert restored.exit_code == 0 and (tmp_path / "db.json.bak.1").read_bytes() == before
    assert sorted(p.name for p in tmp_path.glob("db.json.bak.*")) == [
        f"db.json.bak.{i}" for i in range(1, KEEP_BACKUPS + 1)
    ]


def test_terminal_draft_start_and_end_are_backed_up(tmp_path):
    db = tmp_path / "db.json"
    events = Night(Store(db))
    event_id = events.create("Screens", style="terminal", seed=8)
    for name in ("Ann", "Bo"):
        events.add_player(event_id, name)
    events.seat(event_id)
    seated = db.read_bytes()
    events.start_draft(event_id)
    assert (tmp_path / "db.json.bak.1").read_bytes() == seated
    session = events.draft_session(event_id, 1)
    while not session.draft.finished:
        for seat in session.waiting_humans():
            session.pick(session.suggested_pick(seat))
    drafting = db.read_bytes()
    events.after_picks(event_id, 1, session)
    assert (tmp_path / "db.json.bak.1").read_bytes() == drafting and status(db, event_id) == "building"
    # the backup made at the draft's end still finds every pick in the draft's own file
    store = Store(db)
    store.restore(tmp_path / "db.json.bak.1")
    assert len(Night(store).draft_session(event_id, 1).draft.log) == 2 * PICKS_PER_SEAT
    assert Night(store).recover() == [event_id] and status(db, event_id) == "building"
    # back to before the draft started: the draft numbers are used again, the old picks are not read
    with_seats = next(p for p in tmp_path.glob("db.json.bak.*") if p.read_bytes() == seated)
    store.restore(with_seats)
    events = Night(store)
    events.start_draft(event_id)
    again = events.draft_session(event_id, 1)
    assert again.draft_id == session.draft_id and again.draft.log == [] and status(db, event_id) == "drafting"


@pytest.mark.slow
def test_the_draft_command_says_pools_are_recorded_only_when_they_are(tmp_path, cli):
    """Crash safety: real processes, killed or racing, on a real database file; a process killed while it records pools."""
    db = tmp_path / "last.json"
    event_id = terminal_event(db, humans=("Ann", "Bo"), bots=())
    process = worker("picks", str(db), str(event_id), "Ann", "Bo", kill="last-pick")
    process.communicate(timeout=120)
    with Store(db).read() as handle:
        assert len(handle.table("pools")) == 0  # killed between the last pick and the pools
    shown = cli("event", "draft", str(event_id), "--player", "Ann", "--db", db)
    assert shown.exit_code == 0 and "Pools are recorded" in shown.stdout
    snap = Night(Store(db)).snapshot(event_id)
    assert snap.event.status == "building" and [p.pool_size for p in snap.players] == [60, 60]


def test_every_message_naming_a_backup_names_a_file_that_exists(tmp_path, cli):

    db = tmp_path / "db.json"
    cli("event", "new", "Night", "--db", db)
    good = db.read_bytes()
    db.write_text("{not json")
    messages = [cli("event", "list", "--db", db).stderr]  # no backup exists yet: none is named
    assert ".bak" not in messages[0] and "no backup" in messages[0]
    restored = tmp_path / "good.json"
    restored.write_bytes(good)
    messages.append(cli("event", "restore", restored, "--all", "--db", db).stdout)  # a damaged database can be replaced
    assert cli("event", "seat", "1", "--db", db).exit_code == 3
    cli("event", "player", "add", "1", "Ann", "Bo", "--db", db)
    assert cli("event", "seat", "1", "--db", db).exit_code == 0  # a phase change: backed up
    db.write_text('{"_meta": {"1": {"app": "cmdraft", "schema": 2}}, "events": {"1": {}}}')
    for args in (("event", "list"), ("event", "show", "1"), ("event", "new", "X")):
        messages.append(cli(*args, "--db", db).stderr)
    messages.append(cli("event", "restore", restored, "--all", "--db", db).stdout)
    named = [
        Path(path.lstrip("'").rstrip(".,;)")) for text in messages for path in re.findall(r"(\S+\.bak\.\d+)", text)
    ]
    assert len(named) >= 4, messages
    assert all(path.exists() for path in named), (named, messages)


def advised_restore(stderr: str) -> list[str]:
    """The restore command a damaged database's error advises, as arguments."""
    import shlex

    return shlex.split(stderr.split("'cmdraft ", 1)[1].split("'", 1)[0])


def test_a_damaged_database_is_kept_aside_and_the_advice_always_names_a_readable_backup(tmp_path, cli):
    """Damaged twice in a row: each time the advice names a backup that is a cmdraft database, with its time, and
    running it works; the damaged files are kept aside under names of their own, never in the backups' places."""
    db = tmp_path / "db.json"
    assert cli("event", "new", "Night", "--db", db).exit_code == 0
    cli("event", "player", "add", "1", "Ann", "Bo", "--db", db)
    assert cli("event", "seat", "1", "--db", db).exit_code == 0
    good_backups = {path.name: path.read_bytes() for path in tmp_path.glob("db.json.bak.*")}
    for attempt in range(2):
        db.write_bytes(b"\0\0\0")
        refused = cli("event", "list", "--db", db)
        assert refused.exit_code == 4 and re.search(r"saved \d{4}-\d\d-\d\d \d\d:\d\d", refused.stderr)
        args = advised_restore(refused.stderr)
        assert args[:2] == ["event", "restore"] and "--all" in args and args[args.index("--db") + 1] == str(db)
        restored = cli(*args)
        assert restored.exit_code == 0, restored.output
        assert "saved " in restored.stdout and "kept aside" in restored.stdout
        assert cli("event", "show", "1", "--db", db).exit_code == 0
        assert {path.name: path.read_bytes() for path in tmp_path.glob("db.json.bak.*")} == good_backups
        aside = sorted(tmp_path.glob("db.json.damaged-*"))
        assert len(aside) == attempt + 1 and all(path.read_bytes() == b"\0\0\0" for path in aside)
        assert stat.S_IMODE(aside[-1].stat().st_mode) == 0o600


def test_the_advice_passes_over_a_backup_that_is_not_a_database_and_a_restore_says_when_its_file_was_saved(
    tmp_path, cli
):
    db = tmp_path / "db.json"
    assert cli("event", "new", "Night", "--db", db).exit_code == 0
    cli("event", "player", "add", "1", "Ann", "Bo", "--db", db)
    assert cli("event", "seat", "1", "--db", db).exit_code == 0
    assert cli("event", "seat", "1", "--again", "--db", db).exit_code == 0
    (tmp_path / "db.json.bak.1").write_bytes(b"junk")  # as a damaged database rotated by an older release
    db.write_text("{not json")
    refused = cli("event", "show", "1", "--db", db)
    assert refused.exit_code == 4 and str(tmp_path / "db.json.bak.2") in advised_restore(refused.stderr)
    os.utime(tmp_path / "db.json.bak.2", (1_700_000_000, 1_700_000_000))
    saved = time.strftime("%Y-%m-%d %H:%M", time.localtime(1_700_000_000))
    assert f"saved {saved}" in cli("event", "show", "1", "--db", db).stderr
    report = json.loads(cli(*advised_restore(refused.stderr), "--json").stdout)
    assert report["saved"] == saved and report["backup"] is None and "damaged-" in report["damaged"]
    one = cli("event", "restore", tmp_path / "db.json.bak.2", "--event", "1", "--db", db)
    assert one.exit_code == 0 and f"(saved {saved})" in one.stdout
    (tmp_path / "db.json.bak.2").write_bytes(b"[]")
    for backup in tmp_path.glob("db.json.bak.*"):
        backup.write_bytes(b"junk")
    db.write_text("{not json")
    refused = cli("event", "show", "1", "--db", db)
    assert refused.exit_code == 4 and "none of its backups is a readable cmdraft database" in refused.stderr


def test_restoring_a_missing_file_is_bad_input(tmp_path, cli):
    db = tmp_path / "db.json"
    cli("event", "new", "Night", "--db", db)
    before = db.read_bytes()
    missing = cli("event", "restore", tmp_path / "nothing.json", "--db", db)
    assert missing.exit_code == 2 and "does not exist" in missing.stderr and db.read_bytes() == before


# --- one file per live draft ---------------------------------------------------------------------------------------


def test_a_pick_rewrites_only_its_own_draft_file(tmp_path):
    db = tmp_path / "db.json"
    events = Night(Store(db))
    event_id = events.create("Big", style="terminal", seed=4)
    for i in range(16):
        events.add_player(event_id, f"P{i}")
    events.seat(event_id)
    events.start_draft(event_id)
    database = (db.read_bytes(), db.stat().st_mtime_ns)
    first, second = events.draft_session(event_id, 1), events.draft_session(event_id, 2)
    assert list(tmp_path.glob("db.json.drafts/*.json")) == []  # no file until the first pick
    first.pick(first.suggested_pick(0))
    (journal,) = tmp_path.glob("db.json.drafts/*.json")
    assert journal.name.startswith(f"{first.draft_id}-")
    for seat in first.waiting_humans():
        first.pick(first.suggested_pick(seat))
    assert (db.read_bytes(), db.stat().st_mtime_ns) == database  # the event database was not rewritten
    assert journal.stat().st_size < 4096  # the picks since the draft started, nothing else
    second.pick(second.suggested_pick(3))
    assert len(list(tmp_path.glob("db.json.drafts/*.json"))) == 2
    again = events.draft_session(event_id, 1)
    assert [p.positions for p in again.draft.log] == [p.positions for p in first.draft.log]


def test_an_export_of_a_live_draft_holds_its_picks_but_no_packs_to_draft_on(tmp_path, cli):
    """The export of a draft still being picked keeps its picks but not its packs (they are secret until
    'event finish'): restored into its own database it takes them from there; elsewhere it is refused."""
    db = tmp_path / "db.json"
    event_id = terminal_event(db, humans=("Ann", "Bo"), bots=())
    events = Night(Store(db))
    session = events.draft_session(event_id, 1)
    for _ in range(3):
        for seat in session.waiting_humans():
            session.pick(session.suggested_pick(seat))
    assert cli("event", "export", str(event_id), "--out", tmp_path / "out", "--db", db).exit_code == 0
    exported = json.loads((tmp_path / "out" / "database.json").read_text())
    (record,) = exported["drafts"].values()
    assert len(record["picks"]) == 6 and record["withheld"] and record["state"]["boosters"] == []
    copy = tmp_path / "copy.json"
    refused = cli("event", "restore", tmp_path / "out" / "database.json", "--db", copy)
    assert refused.exit_code == 2 and "pod 1" in refused.stderr and "backup" in refused.stderr
    assert not copy.exists()
    # into the database it came from, the same event's draft gives its packs back
    back = cli("event", "restore", tmp_path / "out" / "database.json", "--force", "--db", db, "--json")
    assert back.exit_code == 0, back.output
    again = Night(Store(db)).draft_session(event_id, 1)
    assert again.draft.to_json()["boosters"] == session.draft.to_json()["boosters"]
    assert [p.positions for p in again.draft.log] == [p.positions for p in session.draft.log]
    again.pick(again.suggested_pick(0))  # and it drafts on


# --- crashes ---------------------------------------------------------------------------------------------------------------

SEATS_TWO = 2 * PICKS_PER_SEAT  # commits of a two-human pod's picks; the next commit ends the draft


@pytest.mark.slow
@pytest.mark.parametrize(
    "kill",
    [
        "write:1:before",
        "write:1:after",
        "write:31:before",
        "write:31:after",
        f"write:{SEATS_TWO}:before",
        f"write:{SEATS_TWO}:after",
        "last-pick",
        f"write:{SEATS_TWO + 1}:before",
        f"write:{SEATS_TWO + 1}:after",
    ],
)
def test_a_kill_at_any_step_of_a_draft_loses_nothing_and_the_next_command_moves_on(tmp_path, cli, kill):
    """Crash safety: real processes, killed or racing, on a real database file; a process killed at each step of a draft."""
    db = tmp_path / "kill.json"
    event_id = terminal_event(db, humans=("Ann", "Bo"), bots=())
    process = worker("picks", str(db), str(event_id), "Ann", "Bo", kill=kill)
    output, errors = process.communicate(timeout=120)
    assert process.returncode == -signal.SIGKILL, errors
    acked = acks(output)
    shown = cli("event", "show", str(event_id), "--db", db, "--json")  # the next command
    assert shown.exit_code == 0, shown.stderr
    assert acked <= picks_on_disk(db, event_id)
    if len(picks_on_disk(db, event_id)) == SEATS_TWO:  # the last pick was saved: the event must move on now
        snap = json.loads(shown.stdout)
        assert snap["event"]["status"] == "building" and [p["pool_size"] for p in snap["players"]] == [60, 60]
    else:
        rest = worker("picks", str(db), str(event_id), "Ann", "Bo")
        output, errors = rest.communicate(timeout=120)
        assert "DONE" in output, errors
    assert status(db, event_id) == "building"
    cli("event", "player", "add", str(event_id), "Late", "--db", db)  # any write clears what the kill left
    assert temporaries(tmp_path) == []
    with Store(db).read() as handle:
        assert len(handle.table(DRAFTS)) == 1


@pytest.mark.slow
@pytest.mark.parametrize("kill", ["compact:2:before", "compact:2:after", "compact:3:before", "compact:4:after"])
def test_a_kill_while_a_draft_file_is_compacted_loses_nothing_and_the_draft_goes_on(tmp_path, cli, kill):
    """Crash safety: real processes killed while the draft's journal is rewritten whole (its second rewrite is the
    first pack's end, its third the second's, its fourth the draft's end): the file is the old one (snapshot and
    entries) or the new one, every acknowledged pick is in it, and the next write removes the killed temporary."""
    db = tmp_path / "compact.json"
    event_id = terminal_event(db, humans=("Ann", "Bo"), bots=())
    acked = killed_then_finished(cli, db, event_id, "picks", kill)
    assert len(acked) >= 19  # the pack's last pick is the compaction's
    assert temporaries(tmp_path) == []


@pytest.mark.slow
@pytest.mark.parametrize("kill", ["write:3:after", "sync:2:before", "sync:2:after", "compact:2:before"])
def test_a_kill_between_a_deferred_append_and_its_sync_loses_no_acknowledged_pick(tmp_path, cli, kill):
    """Crash safety: picks written as ``cmdraft serve``'s event loop writes them (appended without waiting, fsynced
    by a ``Deferred`` before they are acknowledged), the process killed after an append before its sync, at a
    sync, or at the compaction a pack's end leaves for later: every acknowledged pick is on disk, and the next
    terminal drafts on to the end."""
    db = tmp_path / "deferred.json"
    event_id = terminal_event(db, humans=("Ann", "Bo"), bots=())
    assert killed_then_finished(cli, db, event_id, "deferred-picks", kill)
    assert temporaries(tmp_path) == []


@pytest.mark.slow
@pytest.mark.parametrize("tear", [1, 7, 19])
def test_a_kill_mid_append_leaves_a_torn_line_that_costs_no_acknowledged_pick(tmp_path, cli, tear):
    """Crash safety: a real process killed with half a pick's line written (a torn last line): the pick was not
    acknowledged, every acknowledged one is read back, and the next writer drops the torn line and drafts on."""
    db = tmp_path / "torn.json"
    event_id = terminal_event(db, humans=("Ann", "Bo"), bots=())
    process = worker("picks", str(db), str(event_id), "Ann", "Bo", kill=f"tear:{tear}")
    output, errors = process.communicate(timeout=120)
    assert process.returncode == -signal.SIGKILL, errors
    acked = acks(output)
    (journal,) = (tmp_path / "torn.json.drafts").glob("*.json")
    assert not journal.read_bytes().endswith(b"\n")  # the torn line is there
    assert acked <= picks_on_disk(db, event_id) and len(picks_on_disk(db, event_id)) == len(acked)
    rest = worker("picks", str(db), str(event_id), "Ann", "Bo")
    output, errors = rest.communicate(timeout=120)
    assert "DONE" in output, errors
    assert status(db, event_id) == "building" and len(picks_on_disk(db, event_id)) == SEATS_TWO


@pytest.mark.slow
@pytest.mark.parametrize("kill", ["write:1:before", "write:1:after", "write:2:before", "write:2:after"])
def test_a_kill_while_a_player_drops_mid_draft_never_strands_the_pod(tmp_path, cli, kill):
    """Crash safety: real processes, killed or racing, on a real database file; a process killed while a player drops."""
    db = tmp_path / "drop.json"
    event_id = terminal_event(db, humans=("Ann", "Bo"), bots=())
    process = worker("drop", str(db), str(event_id), "Ann", kill=kill)  # commit 1: the drop, commit 2: the bot's picks
    process.communicate(timeout=60)
    assert process.returncode == -signal.SIGKILL
    assert cli("event", "show", str(event_id), "--db", db).exit_code == 0  # the next command hands the seat to a bot
    if kill == "write:1:before":  # the drop was never saved: do it again
        assert cli("event", "player", "drop", str(event_id), "Ann", "--db", db).exit_code == 0
    rest = worker("picks", str(db), str(event_id), "Bo")
    output, errors = rest.communicate(timeout=120)
    assert "DONE" in output, errors
    snap = Night(Store(db)).snapshot(event_id)
    dropped = {p.name: p.status for p in snap.players}["Ann"]
    assert snap.event.status == "building" and [p.pool_size for p in snap.players] == [60, 60]
    assert dropped == "dropped"


@pytest.mark.slow
@pytest.mark.parametrize("kill", ["write:1:before", "write:1:after"])
def test_a_kill_while_the_draft_starts_leaves_it_started_or_not_at_all(tmp_path, cli, kill):
    """Crash safety: real processes, killed or racing, on a real database file; a process killed while the draft starts."""
    db = tmp_path / "start.json"
    events = Night(Store(db))
    event_id = events.create("Start", style="terminal", seed=6)
    for name in NAMES[:6]:
        events.add_player(event_id, name)
    events.seat(event_id)
    process = worker("start", str(db), str(event_id), kill=kill)
    process.communicate(timeout=60)
    assert process.returncode == -signal.SIGKILL
    assert status(db, event_id) == ("seated" if kill.endswith("before") else "drafting")
    assert cli("event", "draft", str(event_id), "--db", db, "--json").exit_code == 0
    with Store(db).read() as handle:
        assert len(handle.table(DRAFTS)) == 1 and status(db, event_id) == "drafting"


@pytest.mark.slow
def test_random_kills_never_corrupt_stick_or_lose_a_pick(tmp_path, cli):
    """Seeded kills at random commits (before or after the rename, or right after a pod's last pick)
    of terminals picking for three players; every kill is followed by an event command."""
    rng = random.Random(2026)
    events_count = int(os.environ.get("CMDRAFT_CRASH_EVENTS", "3"))
    kills = corrupted = stuck = lost = 0
    for trial in range(events_count):
        db = tmp_path / f"crash{trial}.json"
        event_id = terminal_event(db)
        acked: set[tuple[int, int, int]] = set()
        for _ in range(200):
            kill = rng.choice([f"write:{rng.randint(1, 30)}:{rng.choice(['before', 'after'])}"] * 9 + ["last-pick"])
            process = worker("picks", str(db), str(event_id), "Ann", "Bo", "Cy", kill=kill)
            output, errors = process.communicate(timeout=120)
            acked |= acks(output)
            shown = cli("event", "show", str(event_id), "--db", db)
            if shown.exit_code != 0:
                corrupted += 1
                break
            lost += len(acked - picks_on_disk(db, event_id))
            if "DONE" in output:
                break
            assert process.returncode == -signal.SIGKILL, errors
            kills += 1
        if status(db, event_id) != "building":
            stuck += 1
    print(f"\nrandom kills: {kills} kills, {corrupted} corrupted, {stuck} stuck, {lost} lost picks")
    assert kills >= 4 * events_count and (corrupted, stuck, lost) == (0, 0, 0)


# --- racing terminals ---------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_two_terminals_starting_drafts_together_make_one_draft_per_pod(tmp_path):
    """Crash safety: real processes, killed or racing, on a real database file; two processes starting the drafts at once."""
    db = tmp_path / "race.json"
    events = Night(Store(db))
    trials = 12
    ids = []
    for trial in range(trials):
        event_id = events.create(f"Race {trial}", style="terminal", seed=trial, pod_size=3)
        for name in NAMES[:6]:
            events.add_player(event_id, name)
        events.seat(event_id)
        ids.append(event_id)
    start_at = time.time() + 1.5  # both processes are up and warm by then
    first = worker("start", str(db), *map(str, ids), start_at=start_at, step=0.15)
    second = worker("start", str(db), *map(str, ids), start_at=start_at, step=0.15)
    out1, err1 = first.communicate(timeout=120)
    out2, err2 = second.communicate(timeout=120)
    assert "DONE" in out1 and "DONE" in out2, (err1, err2)
    bound1 = {line.split()[1]: line.split()[2] for line in out1.splitlines() if line.startswith("IDS")}
    bound2 = {line.split()[1]: line.split()[2] for line in out2.splitlines() if line.startswith("IDS")}
    assert bound1 == bound2 and len(bound1) == trials  # both terminals bound to the same drafts
    with Store(db).read() as handle:
        drafts = handle.table(DRAFTS).all()
    for event_id in ids:
        mine = sorted(doc.doc_id for doc in drafts if doc["event"] == event_id)
        snap = events.snapshot(event_id)
        assert len(mine) == 2 and sorted(pod.draft for pod in snap.pods) == mine
        assert bound1[str(event_id)] == ",".join(str(pod.draft) for pod in snap.pods)
        assert snap.event.status == "drafting"


@pytest.mark.slow
def test_registering_a_deck_while_the_player_drops_is_one_or_the_other(tmp_path):
    """Crash safety: real processes, killed or racing, on a real database file; two processes at once, one registering, one dropping."""
    db = tmp_path / "deckrace.json"
    events = Night(Store(db))
    names = [f"Player {i}" for i in range(24)]
    event_id = events.create("Race", style="bots", seed=9)
    for name in names:
        events.add_player(event_id, name)
    events.seat(event_id)
    events.start_draft(event_id)
    start_at = time.time() + 2.0
    register = worker("register", str(db), str(event_id), *names, start_at=start_at, step=0.15)
    # a registration takes about 5 ms: the drops land from just before it starts to after it ends
    drop = worker(
        "drop",
        str(db),
        str(event_id),
        *names,
        start_at=start_at,
        step=0.15,
        offsets=[-0.004 + i * 0.0005 for i in range(len(names))],
    )
    out1, err1 = register.communicate(timeout=180)
    out2, err2 = drop.communicate(timeout=180)
    assert "DONE" in out1 and "DONE" in out2, (err1, err2)
    registered = {line.split(" ", 1)[1] for line in out1.splitlines() if line.startswith("OK ")}
    refused = {line.split(" ", 1)[1].rsplit(" ", 1)[0] for line in out1.splitlines() if line.startswith("REFUSED ")}
    saw_deck = {
        line.split(" ", 1)[1].rsplit(" ", 1)[0]: line.endswith(" 1")
        for line in out2.splitlines()
        if line.startswith("DROPPED ")
    }
    assert registered | refused == set(names) and not registered & refused and set(saw_deck) == set(names)
    snap = events.snapshot(event_id)
    for player in snap.players:
        name = player.name
        # serial either way: a registration that won was seen by the drop; one that lost left no deck
        assert (name in registered) == saw_deck[name] == (player.deck is not None), name
        assert player.status == "dropped"
    print(f"\ndeck/drop races: {len(names)} trials, {len(registered)} registered first, {len(refused)} dropped first")


@pytest.mark.slow
def test_a_terminal_writing_in_a_loop_does_not_starve_another(tmp_path):
    """One process commits back to back for a long while; another, starting together, gets each of
    its writes in turn instead of waiting for the first to stop."""
    db = tmp_path / "busy.json"
    Night(Store(db)).create("Busy", seed=1)
    start_at = time.time() + 1.0
    busy = worker("writes", str(db), "150", "0.01", start_at=start_at)
    polite = worker("writes", str(db), "20", "0", start_at=start_at + 0.2)
    out1, err1 = busy.communicate(timeout=120)
    out2, err2 = polite.communicate(timeout=120)
    worst = float(out2.split("WAIT ")[1].split()[0])
    print(f"\nlock waits while another writes in a loop: worst {worst} ms (a figure, not a check: it follows the load)")
    with Store(db).read() as handle:
        rows = [row["pid"] for row in handle.table("writes").all()]
    assert len(rows) == 170
    # Judged by the order of the commits, not by the clock (a loaded machine stretches every wait alike):
    # served in turn, the polite writer's commits come between the busy writer's, a few busy turns apart at
    # most, and all of them long before the busy writer's last; a starved one would come after it.
    polite_pid = polite.pid
    at = [index for index, pid in enumerate(rows) if pid == polite_pid]
    assert len(at) == 20
    gaps = [later - earlier - 1 for earlier, later in zip(at, at[1:])]
    assert max(gaps) <= 4, gaps
    assert at[-1] < len(rows) - 50, (at[-1], len(rows))


def test_threads_of_one_process_take_a_files_lock_in_turn_and_a_wait_past_its_timeout_is_the_busy_error(tmp_path):
    """Worker threads (the web server's) queue for a file's lock at a lock of their process: while one holds
    it another waits (and gets it once it is let go), and one that waits longer than its timeout gets the
    one-line busy error, nothing held."""
    target = tmp_path / "shared.json"
    holder = FileLock(target)
    holder.acquire(5)
    outcome: list[str] = []

    def waiter(timeout: float) -> None:
        other = FileLock(target)
        try:
            other.acquire(timeout)
        except StorageError as error:
            outcome.append(str(error))
            return
        outcome.append("taken")
        other.release()

    late = threading.Thread(target=waiter, args=(0.2,))
    late.start()
    late.join(10)
    assert len(outcome) == 1 and outcome[0].startswith("the database is busy")
    patient = threading.Thread(target=waiter, args=(10,))
    patient.start()
    patient.join(0.3)  # it waits for the lock the holder has (a free lock is taken at once)
    assert patient.is_alive() and len(outcome) == 1
    holder.release()
    patient.join(10)
    assert outcome[1:] == ["taken"]
    again = FileLock(target)
    again.acquire(1)  # nothing was left held
    again.release()


def held_elsewhere(lock_file: Path) -> bool:
    """Whether another holder (another process, as far as ``flock`` can tell: a lock belongs to an open file, so a
    file opened again here is another holder) finds the lock file locked."""
    import fcntl

    with open(lock_file, "a+b") as probe:
        try:
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True
        fcntl.flock(probe, fcntl.LOCK_UN)
        return False


@pytest.mark.skipif(os.name != "posix", reason="the probe locks with flock, as the lock does on POSIX")
def test_a_lock_that_keeps_its_files_open_still_shuts_other_processes_out_only_while_held(tmp_path):
    """``FileLock(keep_open=True)`` (a live draft's journal) lets go by unlocking, not closing: another process is
    shut out while it is held and let in after each release, over several holds of the same open files."""
    target = tmp_path / "draft.json"
    lock = FileLock(target, keep_open=True)
    for _ in range(2):
        lock.acquire(5)
        assert held_elsewhere(target.with_name("draft.json.lock"))
        lock.release()
        assert not held_elsewhere(target.with_name("draft.json.lock"))
    lock.close()


@pytest.mark.skipif(os.name != "posix", reason="the probe locks with flock, as the lock does on POSIX")
def test_a_kept_lock_opens_a_replaced_lock_file_anew_so_it_locks_the_file_others_lock(tmp_path):
    """A lock file removed and made again (by hand, a restore of the folder) is another file: a kept handle on
    the old one would shut nobody out, so the lock opens the new one."""
    target = tmp_path / "draft.json"
    lock = FileLock(target, keep_open=True)
    lock.acquire(5)
    lock.release()
    lock_file = target.with_name("draft.json.lock")
    lock_file.unlink()
    lock_file.touch()
    lock.acquire(5)
    assert held_elsewhere(lock_file)
    lock.release()
    lock.close()


class SwitchingLock:
    """A process lock whose release hands the interpreter to the waiting thread at once (as a busy server's may):
    what a releasing thread does after it is done while the next holder runs."""

    def __init__(self) -> None:
        self.inner = threading.Lock()

    def acquire(self, timeout: float = -1) -> bool:
        return self.inner.acquire(timeout=timeout)

    def release(self) -> None:
        self.inner.release()
        time.sleep(0.001)


def test_threads_sharing_one_kept_lock_hold_it_one_at_a_time_and_never_strand_it(tmp_path):
    """The journal's one ``FileLock`` is taken by every worker thread of the server in turn: never two at once,
    and a release racing the next thread's acquire leaves nothing held (each thread's every hold ends)."""
    lock = FileLock(tmp_path / "draft.json", keep_open=True)
    FileLock._threads[os.path.abspath(lock.path)] = SwitchingLock()
    inside = [0]
    most = [0]
    errors: list[BaseException] = []

    def hold(times: int) -> None:
        try:
            for _ in range(times):
                lock.acquire(3)
                inside[0] += 1
                most[0] = max(most[0], inside[0])
                time.sleep(0)
                inside[0] -= 1
                lock.release()
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=hold, args=(40,)) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == [] and most[0] == 1
    assert not any(thread.is_alive() for thread in threads)
    lock.acquire(1)  # nothing was left held
    lock.release()
    lock.close()


def test_a_full_disk_is_one_line_saying_to_free_space_and_changes_nothing(tmp_path, cli, monkeypatch):
    """A write the disk refuses for want of space (a backup, the database, an output file): one line naming the
    file, what happened and what to do (free some space), its exit code, nothing changed."""
    import errno

    import events.outputs.guard as guard
    import events.storage.store as store_module

    db = tmp_path / "full.json"
    events = Night(Store(db))
    event_id = events.create("Night", style="bots", seed=3)
    events.add_player(event_id, "Ann")
    events.add_player(event_id, "Cy")
    before = db.read_bytes()

    def no_space(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(shutil, "copyfileobj", no_space)  # the backup before a phase change
    monkeypatch.setattr(store_module, "atomic_write", no_space)  # the database itself
    monkeypatch.setattr(guard, "atomic_write", no_space)  # an output file
    for args, code in (
        (("event", "seat", event_id), 4),
        (("event", "player", "add", event_id, "Bo"), 4),
        (("event", "print", event_id, "standings", "--out", tmp_path / "standings.txt"), 2),
    ):
        refused = cli(*args, "--db", db)
        assert refused.exit_code == code and refused.stderr.count("\n") == 1, refused.output
        assert "No space left on device" in refused.stderr and "free some space on that disk" in refused.stderr
    assert db.read_bytes() == before and not (tmp_path / "standings.txt").exists()


@pytest.mark.parametrize("whole", [True, False], ids=["all", "one-event"])
def test_a_restore_the_disk_refuses_leaves_the_live_draft_it_stopped_going(tmp_path, cli, monkeypatch, whole):
    """``event restore --force`` stops a live draft, then the database write fails (a full disk): nothing was
    changed, so the draft goes on with every pick (before: "nothing was changed", and the draft stayed stopped)."""
    import errno

    import events.storage.store as store_module

    db = tmp_path / "night.json"
    event_id = terminal_event(db, humans=("Ann", "Bo"), bots=())
    night = Night(Store(db))
    session = night.draft_session(event_id, 1)
    for seat in session.waiting_humans():
        session.pick(session.suggested_pick(seat))

    def no_space(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store_module, "atomic_write", no_space)
    backup = db.with_name(db.name + ".bak.1")
    refused = cli("event", "restore", backup, *(["--all"] if whole else []), "--force", "--db", db)
    assert refused.exit_code == 4 and "nothing was changed" in refused.stderr, refused.output
    again = Night(Store(db)).draft_session(event_id, 1)
    assert again.doc["status"] == "drafting" and len(again.draft.log) == 2


def test_a_draft_file_damaged_by_hand_names_the_restore_that_is_the_way_out_and_that_restore_works(tmp_path, cli):
    """A live draft's own file cut short by hand: the event's commands refuse it in one line naming the file and the
    backup to restore; that restore (``--all``) is taken, the damaged draft stopping nothing (before: the restore
    itself was refused for the same damaged file, and there was no way out)."""
    db = tmp_path / "night.json"
    event_id = terminal_event(db, humans=("Ann", "Bo"), bots=())
    session = Night(Store(db)).draft_session(event_id, 1)
    for seat in session.waiting_humans():
        session.pick(session.suggested_pick(seat))
    (journal,) = (db.parent / (db.name + ".drafts")).glob("*.json")
    journal.write_bytes(journal.read_bytes()[:100])
    refused = cli("event", "show", event_id, "--db", db)
    assert refused.exit_code == 4 and f"'{journal}' is damaged" in refused.stderr, refused.output
    line = refused.stderr.splitlines()[-1]
    command = re.search(r"'(cmdraft event restore [^']+)'", line)
    assert command is not None, line
    restored = cli(*command[1].split()[1:])
    assert restored.exit_code == 0, restored.output
    assert Night(Store(db)).snapshot(event_id).event.status == "seated"  # the backup taken before the draft started
