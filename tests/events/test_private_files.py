"""The files that hold an event's secrets are the desk's alone, and they are saved whole on Windows and macOS too.

- The database, its backups and the drafts' own files are made owner-only (0600); a file that exists keeps
  the mode it has; `event new` / `event seat` say when a terminal event's file can be read by others.
- Windows and macOS can't run here: each platform feature is switched off (or on) in ``events.portable``,
  as tests/test_portable.py does, and the store is run through it on real files.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from events import portable
from events.storage.store import Store
from tests.helpers.night import Night

pytestmark = pytest.mark.skipif(os.name != "posix", reason="permission bits are POSIX's")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def usual_umask():
    """The umask most accounts have (022: new files readable by everyone), whatever the test runner's is."""
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def terminal_event(db: Path, *names: str) -> tuple[Night, int]:
    night = Night(Store(db))
    event_id = night.create("Private", style="terminal", seed=3)
    for name in names:
        night.add_player(event_id, name)
    return night, event_id


def test_the_database_its_backups_and_the_drafts_files_are_made_owner_only(tmp_path, usual_umask):
    db = tmp_path / "night.json"
    night, event_id = terminal_event(db, "Ann", "Bo")
    assert mode(db) == 0o600
    night.seat(event_id)  # a phase change: a backup first
    night.start_draft(event_id)
    session = night.draft_session(event_id, 1)
    session.pick(session.suggested_pick(session.waiting_humans()[0]))
    backups = sorted(tmp_path.glob("night.json.bak.*"))
    journals = sorted((tmp_path / "night.json.drafts").glob("*.json"))
    assert backups and journals
    assert {path.name: mode(path) for path in [db, *backups, *journals]} == {
        path.name: 0o600 for path in [db, *backups, *journals]
    }
    assert not list(tmp_path.glob("**/.*.tmp"))


def test_every_file_a_write_flushes_is_owner_only(tmp_path, usual_umask, monkeypatch):
    """The temporary files of the writes (database, backups, the draft's file) are private when their bytes go
    to the disk, before any rename makes them the real file."""
    modes = []
    real = portable.flush_to_disk

    def seen(descriptor: int) -> None:
        modes.append(stat.S_IMODE(os.fstat(descriptor).st_mode))
        real(descriptor)

    monkeypatch.setattr(portable, "flush_to_disk", seen)
    night, event_id = terminal_event(tmp_path / "flushed.json", "Ann", "Bo")
    night.seat(event_id)
    night.start_draft(event_id)
    session = night.draft_session(event_id, 1)
    session.pick(session.suggested_pick(session.waiting_humans()[0]))
    assert len(modes) >= 6 and set(modes) == {0o600}


def test_an_existing_database_keeps_its_mode_when_rewritten(tmp_path, usual_umask):
    db = tmp_path / "shared.json"
    night, event_id = terminal_event(db, "Ann")
    db.chmod(0o640)  # the desk shares it with a group on purpose
    night.add_player(event_id, "Bo")
    assert mode(db) == 0o640
    journal_store = Store(tmp_path / "other.json")
    Night(journal_store).create("Other", seed=1)
    (tmp_path / "other.json").chmod(0o604)
    Night(journal_store).create("Third", seed=2)
    assert mode(tmp_path / "other.json") == 0o604


def test_event_new_and_seat_say_when_a_terminal_events_file_is_readable_by_others(tmp_path, cli, monkeypatch):
    db = tmp_path / "open.json"
    made = cli("event", "new", "Night", "--style", "terminal", "--db", db)
    assert made.exit_code == 0 and "note" not in made.stderr  # owner-only: nothing to say
    db.chmod(0o644)
    again = cli("event", "new", "Friday", "--style", "terminal", "--db", db)
    assert again.exit_code == 0
    assert "can be read by other accounts" in again.stderr and "0644" in again.stderr and "chmod 600" in again.stderr
    assert cli("event", "player", "add", "2", "Ann", "Bo", "--db", db).exit_code == 0
    seated = cli("event", "seat", "2", "--db", db)
    assert seated.exit_code == 0 and "can be read by other accounts" in seated.stderr
    physical = cli("event", "new", "Paper", "--style", "physical", "--db", db)
    assert "can be read" not in physical.stderr  # no codes or terminal packs to keep
    db.chmod(0o600)
    assert "can be read" not in cli("event", "seat", "2", "--again", "--db", db).stderr
    monkeypatch.setattr(portable, "HAS_POSIX_MODES", False)  # Windows: bits don't say who reads a file
    db.chmod(0o644)
    assert "can be read" not in cli("event", "new", "Win", "--style", "terminal", "--db", db).stderr


# --- Windows: no os.fchmod before Python 3.13 ------------------------------------------------------------------------


def test_without_fchmod_writes_set_the_mode_by_path(tmp_path, monkeypatch, usual_umask):
    monkeypatch.setattr(portable, "HAS_FCHMOD", False)
    monkeypatch.delattr(os, "fchmod")  # as on Windows with Python 3.11 and 3.12
    db = tmp_path / "win.json"
    night, event_id = terminal_event(db, "Ann", "Bo")
    night.seat(event_id)
    night.start_draft(event_id)
    session = night.draft_session(event_id, 1)
    session.pick(session.suggested_pick(session.waiting_humans()[0]))
    db.chmod(0o640)
    night.add_player(event_id, "Late", sealed=True)
    assert mode(db) == 0o640  # kept on rewrite, set by path
    assert {mode(path) for path in (tmp_path / "win.json.drafts").glob("*.json")} == {0o600}
    assert [p.name for p in night.snapshot(event_id).players] == ["Ann", "Bo", "Late"]


# --- Windows: a file held open can't be replaced for a moment -------------------------------------------------------


class HeldOpen:
    """``os.replace`` as Windows answers it while another process has the target open: PermissionError for the
    first ``times`` tries (a terminal polling the file), then the real rename."""

    def __init__(self, times: int):
        self.times, self.tries = times, 0

    def __call__(self, source, target) -> None:
        self.tries += 1
        if self.tries <= self.times:
            raise PermissionError(13, "The process cannot access the file because it is being used by another process")
        os.replace(source, target)


def test_a_replace_refused_for_a_moment_is_tried_again_on_the_clock(tmp_path, monkeypatch, manual_clock):
    assert (portable.REPLACE_PAUSE, portable.REPLACE_PATIENCE) == (0.02, 2.0)  # the README's figures
    monkeypatch.setattr(portable, "RETRY_REPLACE", True)
    held = HeldOpen(times=5)
    monkeypatch.setattr(portable, "_rename", held)
    db = tmp_path / "busy.json"
    night = Night(Store(db))
    event_id = night.create("Busy", seed=1)
    assert held.tries == 6 and [p for p in manual_clock.slept] == [portable.REPLACE_PAUSE] * 5
    assert night.event(event_id).name == "Busy"
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_replace_refused_too_long_fails_in_one_line_and_changes_nothing(tmp_path, monkeypatch, manual_clock, cli):
    db = tmp_path / "held.json"
    Night(Store(db)).create("Held", seed=1)
    before = db.read_bytes()
    monkeypatch.setattr(portable, "RETRY_REPLACE", True)
    held = HeldOpen(times=10**9)
    monkeypatch.setattr(portable, "_rename", held)
    result = cli("event", "player", "add", "1", "Ann", "--db", db)
    assert result.exit_code == 4
    assert result.stderr.count("\n") == 1 and "being used by another process" in result.stderr
    assert "nothing was changed" in result.stderr and "Traceback" not in result.stderr
    assert sum(manual_clock.slept) == pytest.approx(portable.REPLACE_PATIENCE, abs=portable.REPLACE_PAUSE * 2)
    assert db.read_bytes() == before and not list(tmp_path.glob(".*.tmp"))


def test_on_posix_a_refused_replace_is_not_retried(tmp_path, monkeypatch, manual_clock):
    monkeypatch.setattr(portable, "RETRY_REPLACE", False)
    held = HeldOpen(times=1)
    monkeypatch.setattr(portable, "_rename", held)
    with pytest.raises(Exception, match="being used"):
        Night(Store(tmp_path / "x.json")).create("X", seed=1)
    assert held.tries == 1 and manual_clock.slept == []


# --- macOS: fsync does not reach the device -------------------------------------------------------------------------


class Recorder:
    """``fcntl`` as macOS has it: records the ``F_FULLFSYNC`` calls (``fails``: the file system refuses them)."""

    F_FULLFSYNC = 51  # its number on macOS

    def __init__(self, fails: bool = False):
        self.calls: list[int] = []
        self.fails = fails

    def fcntl(self, descriptor: int, command: int, *args):
        assert command == self.F_FULLFSYNC
        self.calls.append(descriptor)
        if self.fails:
            raise OSError(45, "Operation not supported")
        return 0


@pytest.fixture
def fsyncs(monkeypatch):
    calls: list[int] = []
    real = os.fsync

    def counted(descriptor: int) -> None:
        calls.append(descriptor)
        real(descriptor)

    monkeypatch.setattr(os, "fsync", counted)
    return calls


def write_night(db: Path) -> None:
    night, event_id = terminal_event(db, "Ann", "Bo")
    night.seat(event_id)  # a backup
    night.start_draft(event_id)
    session = night.draft_session(event_id, 1)
    session.pick(session.suggested_pick(session.waiting_humans()[0]))  # a draft's own file


def test_with_full_fsync_every_file_is_flushed_to_the_device(tmp_path, monkeypatch, fsyncs):
    fcntl = Recorder()
    monkeypatch.setattr(portable, "_fcntl", fcntl)
    monkeypatch.setattr(portable, "F_FULLFSYNC", Recorder.F_FULLFSYNC)
    monkeypatch.setattr(portable, "HAS_FULLFSYNC", True)
    folder_syncs = []
    monkeypatch.setattr(portable, "fsync_folder", lambda folder: folder_syncs.append(folder))
    write_night(tmp_path / "mac.json")
    writes = 4 + 1 + 2 + 1  # event and players, the seating's backup and write, the draft start (backup, write), a pick
    assert (
        len(fcntl.calls) >= writes and fsyncs == []
    )  # never the plain fsync, which leaves the bytes in the drive's cache


def test_where_full_fsync_is_refused_or_absent_fsync_is_used(tmp_path, monkeypatch, fsyncs):
    fcntl = Recorder(fails=True)  # a network share refuses F_FULLFSYNC
    monkeypatch.setattr(portable, "_fcntl", fcntl)
    monkeypatch.setattr(portable, "F_FULLFSYNC", Recorder.F_FULLFSYNC)
    monkeypatch.setattr(portable, "HAS_FULLFSYNC", True)
    write_night(tmp_path / "share.json")
    assert fcntl.calls and len(fsyncs) >= len(fcntl.calls)
    monkeypatch.setattr(portable, "HAS_FULLFSYNC", False)  # Linux, Windows
    fcntl.calls.clear()
    fsyncs.clear()
    write_night(tmp_path / "linux.json")
    assert fcntl.calls == [] and fsyncs
