"""Issue 21: nothing a user types or a disk does can destroy an event.

Every reproduction of the issue on real files and real processes: outputs that would replace
inputs, a full disk (a real 300 KiB tmpfs, and an injected failing write), symbolic links, loops,
FIFOs, mode-000 files, read-only folders, hostile content (43 kinds of bad database made by a
generator below, and bad deck, pool, restore and import files), size limits, encodings, CSV
formula injection and numbers."""

from __future__ import annotations

import atexit
import functools
import json
import os
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from random import Random

import pytest

from draft.deckbuild import rank_commanders
from draft.engine import DraftConfig
from draft.sim import check_runs, pod_seeds
from events.cli.common import option_refusal
from events.storage.draft_files import TableSession
from events.storage.store import KEEP_BACKUPS, Store
from sets.audit import open_and_audit
from sets.booster import booster_spec, check_opened, check_sealed, sealed_pool
from sets.errors import LimitError
from tests.helpers.damaged import bad_databases, first_record, playing_event
from tests.helpers.night import Night
from tests.helpers.paths import ROOT

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]


def run(
    *args: str, timeout: float = 60, env: dict | None = None, input: str | None = None, stdin=None
) -> subprocess.CompletedProcess:
    """The real CLI in a process of its own (a hang fails the test at ``timeout``)."""
    return subprocess.run(
        [sys.executable, "-m", "events", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env=env,
        input=input,
        stdin=stdin,
    )


def one_line(result, code: int) -> str:
    """The single error line of a refused command (exit ``code``, no traceback)."""
    err = result.stderr
    assert result.exit_code if hasattr(result, "exit_code") else True
    got = result.exit_code if hasattr(result, "exit_code") else result.returncode
    assert got == code, (got, err, getattr(result, "stdout", ""))
    assert "Traceback" not in err and err.count("\n") == 1 and err.startswith("cmdraft: error: "), err
    return err


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("template") / "friday.json"
    playing_event(db)
    return db


@pytest.fixture
def friday(tmp_path, template) -> Path:
    db = tmp_path / "friday.json"
    db.write_bytes(template.read_bytes())
    return db


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# --- 1. outputs never destroy inputs ----------------------------------------------------------------------------


def test_print_out_over_the_open_database_is_refused_and_it_stays_whole(friday, cli):
    before = friday.read_bytes()
    for force in ((), ("--force",)):
        err = one_line(cli("event", "print", "1", "standings", "--out", friday, "--db", friday, *force), 2)
        assert "open database" in err
    assert friday.read_bytes() == before
    assert cli("event", "standings", "1", "--db", friday).exit_code == 0


def test_the_open_database_is_known_by_real_path_and_inode(friday, tmp_path, cli):
    before = friday.read_bytes()
    (tmp_path / "sub").mkdir()
    link = tmp_path / "link.json"
    link.symlink_to(friday)
    hard = tmp_path / "sub" / "hard.json"
    os.link(friday, hard)
    for target in (
        link,
        tmp_path / "sub" / ".." / "friday.json",
        hard,
        f"{friday}.bak.1",
        f"{friday}.drafts/x.json",
        f"{friday}.lock",
    ):
        one_line(cli("event", "print", "1", "standings", "--out", target, "--db", friday, "--force"), 2)
    assert friday.read_bytes() == before


def test_export_into_the_folder_of_a_live_database_is_refused(tmp_path, template, cli):
    db = tmp_path / "database.json"
    db.write_bytes(template.read_bytes())
    before = snapshot(tmp_path)
    for force in ((), ("--force",)):
        err = one_line(cli("event", "export", "1", "--out", tmp_path, "--db", db, *force), 2)
        assert "holds the open database" in err
    assert snapshot(tmp_path) == before


def test_deck_convert_never_writes_over_a_database_even_with_force(friday, tmp_path, cli):
    deck = tmp_path / "deck.txt"
    deck.write_text("1 Arcane Signet\n1 Command Tower\n", encoding="utf-8")
    before = friday.read_bytes()
    for force in ((), ("--force",)):
        err = one_line(cli("deck", "convert", deck, friday, *force), 2)
        assert "cmdraft database" in err
    backup = tmp_path / "old.json.bak.3"
    backup.write_bytes(before)
    one_line(cli("deck", "convert", deck, backup, "--force", "--to", "json"), 2)
    assert friday.read_bytes() == before and backup.read_bytes() == before


def test_an_existing_file_needs_force_and_a_file_of_this_run_does_not(friday, tmp_path, cli):
    target = tmp_path / "standings.txt"
    target.write_text("keep me", encoding="utf-8")
    err = one_line(cli("event", "print", "1", "standings", "--out", target, "--db", friday), 2)
    assert "--force" in err and target.read_text() == "keep me"
    assert cli("event", "print", "1", "standings", "--out", target, "--db", friday, "--force").exit_code == 0
    assert "Ann" in target.read_text()
    deck = tmp_path / "deck.txt"
    deck.write_text(
        "Commander\n1 Akroma, Vision of Ixidor\nDeck\n1 Command Tower\nSideboard\n1 Arcane Signet\n", encoding="utf-8"
    )
    assert cli("deck", "convert", deck, tmp_path / "d.cod").exit_code == 0
    assert "--force" in one_line(cli("deck", "convert", deck, tmp_path / "d.cod"), 2)
    assert cli("deck", "convert", deck, tmp_path / "d.cod", "--force").exit_code == 0


@pytest.mark.parametrize(
    "args",
    [
        ("event", "print", "1", "standings", "--out", ""),
        ("event", "print", "1", "standings", "--out", "  "),
        ("event", "export", "1", "--out", ""),
        ("sim", "--seed", "1", "--out", ""),
    ],
)
def test_an_empty_out_is_bad_input_and_writes_nothing(friday, tmp_path, args, monkeypatch, cli):
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    db_args = ("--db", str(friday)) if args[0] == "event" else ()
    err = one_line(cli(*args, *db_args), 2)
    assert "--out needs a path" in err and list(work.iterdir()) == []


def test_deck_convert_to_an_empty_name_is_bad_input(tmp_path, cli):
    deck = tmp_path / "deck.txt"
    deck.write_text("1 Sol Ring\n", encoding="utf-8")
    assert "needs a path" in one_line(cli("deck", "convert", deck, ""), 2)


def test_out_slash_and_a_non_empty_folder_are_not_filled(friday, tmp_path, cli):
    for force in ((), ("--force",)):
        assert "root of a file system" in one_line(cli("event", "export", "1", "--out", "/", "--db", friday, *force), 2)
        assert "root of a file system" in one_line(cli("sim", "--seed", "1", "--out", "/", *force), 2)
    full = tmp_path / "full"
    full.mkdir()
    (full / "notes.txt").write_text("mine", encoding="utf-8")
    assert "not empty" in one_line(cli("event", "export", "1", "--out", full, "--db", friday), 2)
    assert snapshot(full) == {"notes.txt": b"mine"}
    assert cli("event", "export", "1", "--out", full, "--db", friday, "--force").exit_code == 0
    assert (full / "notes.txt").read_text() == "mine" and (full / "standings.csv").exists()
    # exporting again: the earlier export's database.json is a cmdraft database, kept even with --force
    again = cli("event", "export", "1", "--out", full, "--db", friday, "--force")
    assert "cmdraft database" in one_line(again, 2)


def test_sim_out_and_practice_export_use_the_same_guard(tmp_path, cli, friday):
    folder = tmp_path / "pod"
    assert cli("sim", "--seed", "2", "--players", "3", "--out", folder).exit_code == 0
    assert "not empty" in one_line(cli("sim", "--seed", "2", "--players", "3", "--out", folder), 2)
    from events.outputs.guard import check_folder
    from sets.errors import InputError

    with pytest.raises(InputError, match="not empty"):
        check_folder(folder)  # what the practice builder's 'export' calls first
    check_folder(folder, force=True)


# --- 2. disk full ---------------------------------------------------------------------------------------------------


def _can_mount() -> str | None:
    if os.geteuid() != 0:
        return "mounting a small tmpfs needs root (CI runs as root); the injected-failure tests below cover the logic"
    return None


@pytest.fixture
def small_disk(tmp_path):
    reason = _can_mount()
    if reason:
        pytest.skip(reason)
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=300k", "tmpfs", str(mount)], capture_output=True, text=True
    )
    if done.returncode != 0:
        pytest.skip(f"this machine refuses a tmpfs mount even to root: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(folder: Path) -> Path:
    """Fill the file system of ``folder`` to the last byte."""
    ballast = folder / "ballast"
    descriptor = os.open(ballast, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        for size in (65536, 4096, 512, 1):
            try:
                while True:
                    os.write(descriptor, b"\0" * size)
            except OSError:
                pass
    finally:
        os.close(descriptor)
    return ballast


def test_a_full_disk_drops_no_backup_and_reading_commands_still_work(small_disk):
    db = small_disk / "friday.json"
    events = Night(Store(db))
    event_id = events.create("Friday", style="bots", seed=5)
    for name in NAMES:
        events.add_player(event_id, name)
    store = Store(db)
    for _ in range(4):
        store.backup()
    backups = {p.name: p.read_bytes() for p in small_disk.glob("friday.json.bak.*")}
    assert len(backups) == 4
    ballast = _fill(small_disk)
    before = db.read_bytes()
    for _ in range(3):  # each refused phase change used to drop one backup while saying "nothing was changed"
        result = run("event", "seat", "1", "--db", db)
        assert result.returncode == 4 and "nothing was changed" in result.stderr, result.stderr
        assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1
    assert {p.name: p.read_bytes() for p in small_disk.glob("friday.json.bak.*")} == backups
    assert db.read_bytes() == before
    assert not [p for p in small_disk.iterdir() if p.name.endswith(".tmp")]  # no partial copy left
    for args in (
        ("event", "list"),
        ("event", "show", "1"),
        ("event", "standings", "1"),
        ("event", "print", "1", "seatings"),
    ):
        result = run(*args, "--db", db)
        assert result.returncode in (0, 3) and "Traceback" not in result.stderr, (args, result.stderr)
    ballast.unlink()
    assert run("event", "seat", "1", "--db", db).returncode == 0
    assert len(list(small_disk.glob("friday.json.bak.*"))) == 5


def test_a_draft_finished_on_a_full_disk_leaves_reading_commands_working(small_disk, tmp_path):
    from tests.helpers.nights import terminal_event

    db = small_disk / "t.json"
    event_id = terminal_event(db, humans=("Ann",), bots=("Bo", "Cy"))
    events = Night(Store(db))
    session = events.draft_session(event_id, 1)
    # Ann picks through the whole draft: the draft ends, and its pools wait to be recorded
    while not session.draft.finished:
        session.pick(session.choose(session.humans[0], [0, 1]))
    ballast = _fill(small_disk)
    before = db.read_bytes()
    for args in (("event", "list"), ("event", "show", str(event_id)), ("event", "standings", str(event_id))):
        result = run(*args, "--db", db)
        assert result.returncode == 0, (args, result.stderr)
        assert "postponed" in result.stderr and result.stderr.count("\n") == 1
    assert db.read_bytes() == before
    ballast.unlink()
    assert run("event", "show", str(event_id), "--db", db).stderr == ""
    assert Night(Store(db)).snapshot(event_id).event.status == "building"


def test_an_injected_failing_write_drops_no_backup_and_leaves_no_partial_copy(friday, monkeypatch):
    import shutil

    store = Store(friday)
    for _ in range(KEEP_BACKUPS - 1):
        store.backup()
    backups = {p.name: p.read_bytes() for p in friday.parent.glob("friday.json.bak.*")}
    real_copy = shutil.copyfileobj

    def half_then_full(source, target, length=0):
        target.write(source.read(100))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(shutil, "copyfileobj", half_then_full)
    events = Night(Store(friday))
    event_id = events.create("Saturday", seed=3)
    for name in NAMES:
        events.add_player(event_id, name)
    before = friday.read_bytes()
    from sets.errors import StorageError

    for _ in range(3):
        with pytest.raises(StorageError, match="No space left on device; nothing was changed"):
            events.seat(event_id)  # a phase change: backed up first
    assert friday.read_bytes() == before
    assert {p.name: p.read_bytes() for p in friday.parent.glob("friday.json.bak.*")} == backups
    assert not list(friday.parent.glob(".*.tmp"))
    monkeypatch.setattr(shutil, "copyfileobj", real_copy)
    events.seat(event_id)
    assert len(list(friday.parent.glob("friday.json.bak.*"))) == KEEP_BACKUPS


def test_an_injected_failing_database_write_is_refused_whole(friday, monkeypatch):
    import events.storage.safe_files as store_module
    from sets.errors import StorageError

    before = friday.read_bytes()
    real_open = open

    def full_disk(path, *args, **kwargs):
        if str(path).endswith(".tmp") and "w" in (args[0] if args else kwargs.get("mode", "r")):
            raise OSError(28, "No space left on device")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(store_module, "open", full_disk, raising=False)
    with pytest.raises(StorageError, match="nothing was changed"):
        Night(Store(friday)).create("Saturday", seed=1)
    assert friday.read_bytes() == before
    assert not list(friday.parent.glob(".*.tmp"))


# --- 3. symlinks, loops, FIFOs, odd files --------------------------------------------------------------------------


def test_a_symlinked_database_is_written_through_and_locked_at_the_real_file(friday, tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to(friday)
    run("event", "new", "Saturday", "--db", link)
    assert link.is_symlink() and os.readlink(link) == str(friday)
    assert "Saturday" in run("event", "list", "--db", friday).stdout
    assert Store(link).path == Store(friday).path == friday
    assert not (tmp_path / "link.json.lock").exists() and (tmp_path / "friday.json.lock").exists()


def test_a_symlink_loop_is_one_line_exit_4(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.symlink_to(b)
    b.symlink_to(a)
    for args in (("event", "list"), ("event", "new", "X")):
        err = one_line(run(*args, "--db", a), 4)
        assert "symbolic link loop" in err or "loop" in err
    assert a.is_symlink() and b.is_symlink()


def test_a_fifo_at_the_database_path_never_hangs(tmp_path):
    fifo = tmp_path / "db.json"
    os.mkfifo(fifo)
    for args in (("event", "list"), ("event", "new", "X"), ("event", "show", "1")):
        start = time.monotonic()
        err = one_line(run(*args, "--db", fifo, timeout=30), 4)
        assert "FIFO" in err and time.monotonic() - start < 30
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_fifo_as_an_input_or_output_file_never_hangs(tmp_path, friday):
    fifo = tmp_path / "deck.txt"
    os.mkfifo(fifo)
    assert "FIFO" in one_line(run("deck", "check", fifo, timeout=30), 2)
    assert "FIFO" in one_line(run("event", "restore", fifo, "--db", friday, timeout=30), 2)
    assert "FIFO" in one_line(run("sets", "import", fifo, timeout=30), 2)
    deck = tmp_path / "d.txt"
    deck.write_text("1 Arcane Signet\n", encoding="utf-8")
    assert "FIFO" in one_line(run("deck", "check", deck, "--format", "commander", "--banlist", fifo, timeout=30), 2)
    assert "FIFO" in one_line(
        run("event", "print", "1", "standings", "--out", fifo, "--db", friday, "--force", timeout=30), 2
    )


def test_a_mode_000_database_is_exit_4_and_unchanged(friday):
    before = friday.read_bytes()
    os.chmod(friday, 0)
    try:
        for args in (("event", "list"), ("event", "show", "1"), ("event", "new", "X")):
            err = one_line(run(*args, "--db", friday), 4)
            assert "read permission" in err or "read-only" in err
        assert stat.S_IMODE(friday.stat().st_mode) == 0
    finally:
        os.chmod(friday, 0o644)
    assert friday.read_bytes() == before


def test_a_read_only_folder_stops_writes_even_as_root(tmp_path, template):
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "friday.json"
    db.write_bytes(template.read_bytes())
    before = snapshot(folder)
    os.chmod(folder, 0o555)
    try:
        err = one_line(run("event", "new", "X", "--db", db), 4)
        assert "read-only" in err
        assert run("event", "list", "--db", db).returncode == 0
        out_target = folder / "out.txt"
        one_line(run("event", "print", "1", "standings", "--out", out_target, "--db", db), 2)
    finally:
        os.chmod(folder, 0o755)
    assert snapshot(folder) == before


def test_a_device_is_not_a_deck(friday):
    start = time.monotonic()
    err = one_line(run("event", "deck", "1", "Ann", "/dev/zero", "--db", friday, timeout=30), 2)
    assert "device" in err and time.monotonic() - start < 30


# --- 4. hostile content: 43 kinds of bad database ------------------------------------------------------------------


SWEEP_EVERY = 12  # the suite's sample of ``python -m tests.hostile`` (which runs every input)


# Found when each input began to meet the database as the sweep made it (before, an earlier input had renamed Ann).
KNOWN_DEFECTS: dict = {}  # inputs the sweep is known to fail on, each an xfail(strict) until fixed


@functools.cache
def _sweep_world() -> tuple[Path, list]:
    """The sweep's files and inputs, made once per test process (at collection: each input is a test of its own)."""
    from tests.hostile import prepare, release

    # A fixed last folder: the inputs' names quote the last characters of their paths, and every test process
    # must name them alike.
    work = Path(tempfile.mkdtemp(prefix="cmdraft-hostile-")) / "hostile-sweep-inputs"
    work.mkdir()
    atexit.register(release, work.parent)
    return work, prepare(work)[1]


def bad_database_kinds() -> list[str]:
    """The kinds of damage ``bad_databases`` makes (of the sweep's database: the names don't depend on it)."""
    work, _ = _sweep_world()
    return list(bad_databases(json.loads((work / "pristine-db" / "friday.json").read_text())))


def test_forty_three_kinds_of_bad_database_are_made():
    assert len(bad_database_kinds()) >= 43


@pytest.fixture(scope="module")
def bad_kinds(template) -> dict[str, bytes]:
    """Every kind of bad database, made once from the template (each test takes its own kind)."""
    return bad_databases(json.loads(template.read_text()))


def test_each_kind_of_bad_database_is_refused_in_one_line(bad_kinds, tmp_path, bad_kind):
    content = bad_kinds[bad_kind]
    db = tmp_path / "bad.json"
    db.write_bytes(content)
    for args in (("event", "list"), ("event", "show", "1"), ("event", "player", "add", "1", "Zed")):
        result = Events_cli(args, db)
        assert result[0] == 4, (args, result)
        assert result[1].count("\n") == 1 and result[1].startswith("cmdraft: error: ") and str(db) in result[1], result
        assert db.read_bytes() == content, args


def Events_cli(args, db):  # noqa: N802 - in-process, quicker than 130 processes
    from tests.helpers.cliapp import invoke

    result = invoke([*args, "--db", str(db)], catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return (99, f"{type(result.exception).__name__}: {result.exception}\n")
    return (result.exit_code, result.stderr)


def test_a_good_database_passes_the_same_checks(template, tmp_path):
    db = tmp_path / "good.json"
    db.write_bytes(template.read_bytes())
    assert Events_cli(("event", "show", "1"), db)[0] == 0


@pytest.mark.parametrize(
    ("content", "expect"),
    [
        (b'{"main": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nested too deep"),
        (b'{"main": [{"name": "Sol Ring", "count": ' + b"9" * 5000 + b"}]}", "too many digits"),
        (b'{"main": [{"name": "Sol Ring", "count": NaN}]}', "NaN"),
        (b'{"name": 5, "main": []}', "'name' should be text"),
        (b'{"main": [{"name": "Sol Ring", "set": ["CMR"]}]}', None),
    ],
)
def test_hostile_deck_and_pool_json_is_bad_input_naming_the_file(tmp_path, content, expect, cli, friday):
    deck = tmp_path / "deck.json"
    deck.write_bytes(content)
    for args in (("deck", "check", deck), ("event", "pool", "1", "Ann", deck, "--replace", "--db", friday)):
        result = cli(*args)
        if expect is None:  # a bad line is reported as a problem of the deck, never a traceback
            assert result.exit_code in (1, 2, 3) and "Traceback" not in result.stderr
            continue
        err = one_line(result, 2)
        assert expect in err and str(deck) in err


@pytest.mark.parametrize("change", ["nested", "digits", "schema true", "dangling", "wrong type"])
def test_hostile_restore_files_are_bad_input_and_change_nothing(template, tmp_path, friday, change, cli):
    good = json.loads(template.read_text())
    source = tmp_path / "export.json"
    if change == "nested":
        source.write_bytes(b"{" + b'"a":{' * 50_000 + b"}" * 50_001)
    elif change == "digits":
        text = json.dumps(good)
        assert '"seed": 5' in text
        source.write_text(text.replace('"seed": 5', '"seed": ' + "7" * 5000))
    else:
        if change == "schema true":
            good["_meta"]["1"]["schema"] = True
        elif change == "dangling":
            first_record(good, "pools")["player"] = 12345
        else:
            first_record(good, "players")["late"] = "yes"
        source.write_text(json.dumps(good))
    before = friday.read_bytes()
    for extra in ((), ("--all",)):
        err = one_line(cli("event", "restore", source, *extra, "--db", friday), 2)
        assert str(source) in err
    assert friday.read_bytes() == before


@pytest.mark.parametrize(
    ("content", "expect"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested too deep"),
        (b'{"data": {"cards": [{"name": 5}]}}', None),
        (b'{"cards": [{"number": ' + b"1" * 5000 + b', "name": "X"}]}', "too many digits"),
        (b"\xff\xfe\x00", None),
    ],
)
def test_hostile_import_files_are_one_line_exit_2(tmp_path, content, expect, cli):
    path = tmp_path / "cards.json"
    path.write_bytes(content)
    err = one_line(cli("sets", "import", path), 2)
    assert str(path) in err
    if expect:
        assert expect in err


# --- 5. size limits ------------------------------------------------------------------------------------------------


def test_a_deck_file_over_10_mib_is_refused_before_it_is_read(tmp_path, cli):
    from sets.files import DECK_LIMIT

    big = tmp_path / "big.txt"
    with open(big, "wb") as stream:
        stream.truncate(DECK_LIMIT + 1)  # sparse: no time spent writing it
    err = one_line(cli("deck", "check", big), 2)
    assert "over the limit of 10 MiB" in err


# --- 6. names and encodings ----------------------------------------------------------------------------------------


def test_a_latin1_name_is_refused_naming_the_byte(friday):
    """In a process of its own: bytes that are not UTF-8 reach a command only through a real process's arguments."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LC_ALL": "C.UTF-8"}
    result = subprocess.run(
        [sys.executable, "-m", "events", "event", "player", "add", "1", b"Jos\xe9", "--db", str(friday)],
        capture_output=True,
        timeout=60,
        cwd=ROOT,
        env=env,
    )
    err = result.stderr.decode()
    assert result.returncode == 2 and err.count("\n") == 1 and "0xe9" in err and "Traceback" not in err
    assert "Jos" not in Night(Store(friday)).snapshot(1).players[-1].name


def test_screens_on_a_non_utf8_stream_replace_what_they_cant_show(friday, tmp_path, cli):
    """In a process of its own: a process whose output stream is not UTF-8 (PYTHONIOENCODING)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "latin-1"}
    added = subprocess.run(
        [sys.executable, "-m", "events", "event", "player", "add", "1", "李小龍", "--db", str(friday)],
        capture_output=True,
        timeout=60,
        cwd=ROOT,
        env=env,
    )
    assert added.returncode in (0, 3), added.stderr
    if added.returncode == 0:
        # saved once and reported once: a retry would be a duplicate, so the first run must not fail
        names = [p.name for p in Night(Store(friday)).snapshot(1).players]
        assert names.count("李小龍") == 1
    Night(Store(friday)).rename_player(1, "Ann", "李小龍 Ann")
    for args in (
        ("event", "show", "1"),
        ("event", "standings", "1"),
        ("event", "print", "1", "standings"),
        ("event", "show", "1", "--json"),
    ):
        result = subprocess.run(
            [sys.executable, "-m", "events", *args, "--db", str(friday)],
            capture_output=True,
            timeout=60,
            cwd=ROOT,
            env=env,
        )
        assert result.returncode == 0 and b"Traceback" not in result.stderr, (args, result.stderr)
    shown = result  # the last: event show --json
    assert any(p["name"] == "李小龍 Ann" for p in json.loads(shown.stdout)["players"])  # escaped, still exact
    out = tmp_path / "standings.csv"  # a file, whatever the stream's encoding: written in UTF-8
    assert cli("event", "print", "1", "standings", "--format", "csv", "--out", out, "--db", friday).exit_code == 0
    assert "李小龍 Ann" in out.read_text(encoding="utf-8")


def test_player_add_on_a_latin1_terminal_saves_once_and_exits_0(tmp_path):
    """In a process of its own: a process whose streams are ASCII only (PYTHONIOENCODING)."""
    db = tmp_path / "db.json"
    Night(Store(db)).create("Night", seed=1)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "ascii"}
    result = subprocess.run(
        [sys.executable, "-m", "events", "event", "player", "add", "1", "李小龍", "José", "--db", str(db)],
        capture_output=True,
        timeout=60,
        cwd=ROOT,
        env=env,
    )
    assert result.returncode == 0 and b"Traceback" not in result.stderr
    assert [p.name for p in Night(Store(db)).snapshot(1).players] == ["李小龍", "José"]


# --- 7. CSV formula injection --------------------------------------------------------------------------------------

DANGEROUS = ["=SUM(A1)", "=cmd|' /C calc'!A0", "+1", "-2", "@x", "\tTab", "\rCR"]


def test_csv_cells_that_start_a_formula_are_neutralised_and_read_back(tmp_path):
    import csv
    import io

    db = tmp_path / "db.json"
    events = Night(Store(db))
    event_id = events.create("Night", style="bots", seed=2)
    for name in ["Ann", *DANGEROUS[:4]]:
        events.add_player(event_id, name)
    events.seat(event_id)
    events.start_draft(event_id)
    for player in events.snapshot(event_id).players:
        events.register_deck(event_id, player.name, None, auto=True)
    events.new_round(event_id)
    folder = tmp_path / "out"
    assert run("event", "export", str(event_id), "--out", folder, "--db", db).returncode == 0
    for name in ("standings.csv", "results.csv", "pairings.csv"):
        for row in csv.reader(io.StringIO((folder / name).read_text(encoding="utf-8"))):
            for cell in row:
                assert not cell or cell[0] not in "=+-@\t\r", (name, cell)
    text = (folder / "standings.csv").read_text(encoding="utf-8")
    assert "'=SUM(A1)" in text and "'+1" in text


def test_deck_csv_neutralises_and_round_trips(tmp_path, cli):
    from draft.decks import Deck, DeckLine, Zone
    from draft.formats import FileFormat, parse, write
    from draft.formats.csv_deck import neutral, restored

    for value in DANGEROUS:
        assert neutral(value)[0] == "'" and restored(neutral(value)) == value
    assert neutral("Sol Ring") == "Sol Ring" and restored("'quoted") == "'quoted"
    deck = tmp_path / "deck.txt"
    deck.write_text("1 Arcane Signet\n", encoding="utf-8")  # a card of the set: an unknown one stops a conversion
    out = tmp_path / "deck.csv"
    assert cli("deck", "convert", deck, out).exit_code == 0
    from sets.card_index import card_index

    card = card_index(["CMR"]).find("Arcane Signet")
    named = Deck((DeckLine(card, 1, Zone.MAIN),), (), '=HYPERLINK("x")')
    text = write(named, FileFormat.CSV)
    assert "=HYPERLINK" not in text.replace("'=HYPERLINK", "")
    entries = parse(text, FileFormat.CSV).entries
    assert [e.name for e in entries] == ["Arcane Signet"]


# --- 8. numbers ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("points", ["nan,nan", "inf,0", "1e3,0", "1_0,0", "３,0", "-1,0", "\u00a05,0"])
def test_points_must_be_plain_finite_numbers(points, cli, tmp_path):
    err = one_line(cli("event", "new", "X", "--points", points, "--db", tmp_path / "db.json"), 2)
    assert "--points" in err and "from 0 to 1000" in err
    assert not (tmp_path / "db.json").exists()


@pytest.mark.parametrize("minutes", ["٣", "５０", "1_0", "nan", "inf", "1e2"])
def test_minutes_are_read_strictly(minutes, cli, friday):
    one_line(cli("event", "clock", "1", "--minutes", minutes, "--db", friday, "--json"), 2)


def test_minutes_out_of_range_name_the_real_range(cli, friday):
    err = one_line(cli("event", "clock", "1", "--minutes", "0.0001", "--db", friday, "--json"), 2)
    assert "between 1 and 1440" in err and "0.0001" in err


def test_timer_seconds_zero_is_refused_not_sixty(cli, friday):
    err = one_line(cli("event", "timer", "1", "--seconds", "0", "--db", friday), 2)
    assert "--seconds must be at least 1" in err


@pytest.mark.parametrize(
    ("args", "limit"),
    [
        (("packs", "--count", "999999999999999999"), "100,000"),
        (("packs", "audit", "--count", "1000001"), "1,000,000"),
        (("sealed", "--players", "1025"), "1,024"),
        (("sealed", "--boosters", "37"), "36"),
        (("sim", "--drafts", "100001"), "100,000"),
        (("sim", "--drafts", "2", "--jobs", "65"), "64"),
        (("sim", "--pipers", "1001"), "1,000"),
        (("deck", "suggest", "x", "--top", "1001"), "1,000"),
        (("play", "--timer", "3601"), "3,600"),
    ],
)
def test_every_count_has_a_documented_maximum(args, limit, cli):
    start = time.monotonic()
    err = one_line(cli(*args), 2)
    assert f"at most {limit}" in err or f"to {limit}" in err or f"(at most {limit})" in err
    assert time.monotonic() - start < 20
    limits = (ROOT / "docs" / "storage-and-safety.md").read_text(encoding="utf-8").split("## Limits", 1)[1]
    assert limit in limits


def test_a_5000_character_set_code_is_one_line(cli):
    err = one_line(cli("sets", "show", "A" * 5000), 2)
    assert len(err) < 300


def test_a_pool_typed_in_latin1_is_refused_naming_the_byte(friday):
    """In a process of its own: bytes that are not UTF-8 on a real process's standard input."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LC_ALL": "C.UTF-8"}
    before = friday.read_bytes()
    result = subprocess.run(
        [sys.executable, "-m", "events", "event", "pool", "1", "Ann", "--replace", "--db", str(friday)],
        input=b"1 Arcane Signet\n1 Jos\xe9\n",
        capture_output=True,
        timeout=60,
        cwd=ROOT,
        env=env,
    )
    err = result.stderr.decode()
    assert result.returncode == 2 and "0xe9" in err and "line 2" in err and err.count("\n") == 1, err
    assert friday.read_bytes() == before


def test_a_typed_line_that_is_not_utf8_is_asked_again():
    import io

    from rich.console import Console

    from events.screens.terminal import Terminal

    shown = io.StringIO()
    stream = io.TextIOWrapper(io.BytesIO(b"Jos\xe9\n3 7\n"), encoding="utf-8", errors="surrogateescape")
    assert Terminal(Console(file=shown, width=100), stream).ask("> ") == "3 7"
    assert "byte 0xe9" in shown.getvalue()


def pytest_generate_tests(metafunc):
    if "bad_kind" in metafunc.fixturenames:
        metafunc.parametrize("bad_kind", bad_database_kinds())
    if "sweep_input" in metafunc.fixturenames:
        _, inputs = _sweep_world()
        sample = [
            pytest.param(n, id=f"{n:04d} {inputs[n].label}", marks=KNOWN_DEFECTS.get(inputs[n].label, ()))
            for n in range(0, len(inputs), SWEEP_EVERY)
        ]
        metafunc.parametrize("sweep_input", sample)


def test_a_sample_of_the_hostile_sweep_finds_nothing(sweep_input, monkeypatch):
    """Every 12th input of ``python -m tests.hostile``, each on the database as the sweep made it."""
    from tests.hostile import Tally, fresh_database, run_case

    work, inputs = _sweep_world()
    assert len(inputs) > 1200
    fresh_database(work)
    monkeypatch.chdir(work)
    tally = Tally()
    run_case(inputs[sweep_input], tally, work / "db")
    assert tally.tried == 1
    assert (tally.tracebacks, tally.wrong_exits, tally.hangs, tally.changed) == ([], [], [], [])


def test_the_sweep_can_disagree(tmp_path):
    """A planted fault: a case whose allowed exit the command can't give is counted as a wrong exit,
    and a changed database folder as data changed."""
    from tests.hostile import Case, Tally, run_case

    watched = tmp_path / "db"
    watched.mkdir()
    tally = Tally()
    run_case(Case(["packs", "--count", "abc"], (0,), "planted wrong exit"), tally, watched)
    (watched / "x").write_text("changed")
    case = Case(["packs", "--count", "abc"], (2,), "planted change")
    before = tally.changed[:]
    import tests.hostile as hostile

    real = hostile.snapshot
    calls = iter([{}, {"x": b"changed"}])
    hostile.snapshot = lambda folder: next(calls)
    try:
        run_case(case, tally, watched)
    finally:
        hostile.snapshot = real
    assert len(tally.wrong_exits) == 1 and tally.changed == [*before, "planted change"]


def test_the_practice_export_refuses_a_folder_with_files_unless_forced_and_never_a_database(tmp_path):
    from draft.decks import Deck
    from draft.engine import DraftConfig
    from events.sessions.activities import export_practice
    from events.storage.draft_files import TableSession
    from sets.errors import InputError

    store = Store(tmp_path / "practice.json")
    session = TableSession.create(
        store, kind="practice", seed=3, config=DraftConfig(seats=2), humans=[0], names=["You", "Bot"]
    )
    folder = tmp_path / "out"
    written = export_practice(session, Deck((), (), "x"), folder).written
    assert written and all(path.exists() for path in written)
    assert (
        export_practice(session, Deck((), (), "x"), folder).written == written
    )  # again in the same run: its own files
    from events.outputs.written import new_run

    new_run()
    with pytest.raises(InputError, match="not empty"):
        export_practice(session, Deck((), (), "x"), folder)
    assert export_practice(session, Deck((), (), "x"), folder, force=True).written == written
    with pytest.raises(InputError, match="holds the open database"):
        export_practice(session, Deck((), (), "x"), tmp_path, force=True)


def test_nothing_is_saved_that_the_next_read_would_refuse(friday, cli):
    """Found by the sweep: a 5,000-character event name was saved, and the database then read as damaged."""
    from sets.errors import StorageError

    before = friday.read_bytes()
    assert "keep it to 200" in one_line(cli("event", "new", "a" * 5000, "--db", friday), 2)
    with pytest.raises(
        StorageError, match="refused to save .*'name' is 5000 characters long .at most 500.; nothing was changed"
    ):
        with Store(friday).write() as db:  # a planted fault: a record no check would let through
            db.table("events").insert({**db.table("events").get(doc_id=1), "name": "a" * 5000})
    assert friday.read_bytes() == before
    assert cli("event", "list", "--db", friday).exit_code == 0


def test_a_lone_surrogate_in_an_argument_is_refused_before_anything_is_saved(friday, cli):
    """Found by the sweep: a name holding U+D800 (a broken UTF-16 argument) was saved, and every screen then failed."""
    before = friday.read_bytes()
    err = one_line(cli("event", "player", "add", "1", "Ann\ud800", "--db", friday), 2)
    assert "U+D800" in err and "not a character" in err
    assert friday.read_bytes() == before


def _core_refusal(call) -> LimitError:
    with pytest.raises(LimitError) as caught:
        call()
    return caught.value


@pytest.mark.parametrize(
    ("args", "option", "core_call"),
    [
        (("packs", "--count", "100001"), "--count", lambda db: check_opened(100_001)),
        (("packs", "audit", "--count", "0"), "--count", lambda db: open_and_audit(booster_spec("CMR"), 0, 1)),
        (
            ("packs", "audit", "--count", "1000001"),
            "--count",
            lambda db: open_and_audit(booster_spec("CMR"), 1_000_001, 1),
        ),
        (("sealed", "--boosters", "37"), "--boosters", lambda db: sealed_pool(booster_spec("CMR"), Random(1), 37)),
        (("sealed", "--players", "1025"), "--players", lambda db: check_sealed(1_025, 6)),
        (("sim", "--drafts", "100001"), "--drafts", lambda db: pod_seeds(1, 100_001)),
        (("sim", "--drafts", "2", "--jobs", "65"), "--jobs", lambda db: check_runs(2, 65)),
        (("deck", "suggest", "x", "--top", "1001"), "--top", lambda db: rank_commanders({}, 1_001)),
        (("event", "new", "X", "--timer", "3601"), "--timer", lambda db: Night(Store(db)).create("X", timer=3_601)),
        (
            ("event", "new", "X", "--piper-stock", "1001"),
            "--piper-stock/--stock",
            lambda db: Night(Store(db)).create("X", piper_stock=1_001),
        ),
    ],
)
def test_the_core_refuses_a_value_beyond_its_limit_as_the_command_line_does(args, option, core_call, cli, tmp_path):
    """The maximum is kept in the core: a caller of the core is refused the same range, and the command line says
    so naming its option; nothing is saved either way."""
    db = tmp_path / "db.json"
    refusal = _core_refusal(lambda: core_call(db))
    err = one_line(cli(*args, "--db", db) if args[0] == "event" else cli(*args), 2)
    assert err == f"cmdraft: error: {option_refusal(refusal, option)}\n"
    assert f"{refusal.high:,}" in err
    assert not db.exists() or Night(Store(db)).snapshot(1) is None


def test_the_piper_stock_of_an_event_is_limited_in_the_ledger(cli, tmp_path):
    db = tmp_path / "db.json"
    event_id = Night(Store(db)).create("X", piper_stock=3)
    refusal = _core_refusal(lambda: Night(Store(db)).set_pipers(event_id, stock=1_001))
    assert (refusal.low, refusal.high, refusal.value) == (0, 1_000, 1_001)
    err = one_line(cli("event", "pipers", str(event_id), "--stock", "1001", "--db", db), 2)
    assert err == "cmdraft: error: --stock must be from 0 to 1,000, not 1,001\n"
    assert Night(Store(db)).piper_ledger(event_id).stock == 3


@pytest.mark.parametrize("seconds", [3, 3_601, -1])
def test_a_practice_timer_is_refused_by_the_draft_as_by_play(seconds, cli, tmp_path):
    db = tmp_path / "db.json"
    config = DraftConfig(seats=4, set_code="CMR")
    names = ["Ann", "Bot 2", "Bot 3", "Bot 4"]
    refusal = _core_refusal(
        lambda: TableSession.create(
            Store(db), kind="practice", seed=1, config=config, humans=[0], names=names, timer=seconds
        )
    )
    assert (refusal.low, refusal.high) == (5, 3_600)
    err = one_line(cli("play", "--timer", str(seconds), "--db", db), 2)
    assert (
        err == f"cmdraft: error: --timer must be 0 (no timer) or at least 5 seconds (at most 3,600), not {seconds:,}\n"
    )
