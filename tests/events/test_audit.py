"""The audit log on real database files: every change appended in its own transaction, with who,
when, what, old and new; an undo names what it takes back; export and restore carry the history."""

from __future__ import annotations

import datetime as dt

import pytest

from events.night.history import DESK, history, last_undoable, log_change
from events.storage.store import Store


def test_a_change_and_its_entry_are_written_together_or_not_at_all(tmp_path):
    store = Store(tmp_path / "log.json")
    with store.write() as db:
        log_change(db, 1, DESK, "rename", "Bob", "Bo")
    with pytest.raises(RuntimeError):
        with store.write() as db:
            log_change(db, 1, DESK, "rename", "Bo", "Bob")
            raise RuntimeError("the change failed")
    with store.read() as db:
        entries = history(db, 1)
    assert [(e.who, e.what, e.old, e.new) for e in entries] == [(DESK, "rename", "Bob", "Bo")]
    at = dt.datetime.fromisoformat(entries[0].at)
    assert at.tzinfo is not None and abs((dt.datetime.now(dt.UTC) - at).total_seconds()) < 60


def test_the_last_undoable_change_skips_undone_entries_and_other_terminals(tmp_path):
    store = Store(tmp_path / "log.json")
    with store.write() as db:
        first = log_change(db, 1, DESK, "checkin", None, "Ann")
        second = log_change(db, 1, DESK, "checkin", None, "Bo")
        log_change(db, 1, "terminal Cy", "pick", None, "Murder")
        log_change(db, 2, DESK, "checkin", None, "Other event")
    with store.read() as db:
        assert last_undoable(db, 1).id == second
    with store.write() as db:
        log_change(db, 1, DESK, "undo", "Bo checked in", "not checked in", undoes=second)
    with store.read() as db:
        assert last_undoable(db, 1).id == first
        assert [e.what for e in history(db, 1)] == ["checkin", "checkin", "pick", "undo"]
