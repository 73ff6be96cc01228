"""The audit log on real database files: every change appended in its own transaction, with who,
when, what, old and new; an undo names what it takes back; export and restore carry the history."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from events.night.history import DESK, history, last_undoable, log_change
from events.storage.store import Store
from tests.helpers.night import Night
from tests.helpers.paths import FIXTURES


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


# The undo note each kind of change writes, field by field in the order written (``event log --json`` prints it as
# written): what a schema-2 file of an older release holds (tests/fixtures/schema2.json) for the kinds it has.
UNDO_FIELDS = {
    "player add": ["player"],
    "rename": ["player"],
    "checkin": ["players"],
    "seat": ["pods", "no_shows", "seatings"],
    "round": ["round", "status"],
    "game": ["round", "table", "entries"],
    "result": ["round", "table", "order", "new", "closed"],
    "drop": ["player", "rounds", "event_status"],
}


def test_each_kind_of_change_writes_its_undo_note_whole_as_an_older_release_wrote_it(tmp_path):
    older = json.loads((FIXTURES / "schema2.json").read_text(encoding="utf-8"))["history"]
    kept = {doc["what"]: list(doc["undo"]) for doc in older.values() if "undo" in doc}
    assert len(kept) == 5 and {what: UNDO_FIELDS[what] for what in kept} == kept
    events = Night(Store(tmp_path / "notes.json"))
    event_id = events.create("Undo notes", style="bots", seed=9)
    for name in ("Ann", "Bo", "Cy", "Di", "Eve"):
        events.add_player(event_id, name)
    events.rename_player(event_id, "Eve", "Eva")
    events.check_in(event_id, ["Ann", "Bo", "Cy", "Di"])
    events.seat(event_id)
    events.start_draft(event_id)
    for name in ("Ann", "Bo", "Cy", "Di"):
        events.register_deck(event_id, name, auto=True)
    table = events.new_round(event_id).tables[0]
    events.game(event_id, 1, 1, life={table[0]: 37})
    events.record_result(event_id, 1, 1, " > ".join(f'"{name}"' for name in table))
    events.drop_player(event_id, "Di")
    saved = json.loads(events.store.path.read_text(encoding="utf-8"))["history"]
    notes = {doc["what"]: doc["undo"] for doc in saved.values() if "undo" in doc}
    assert {what: list(note) for what, note in notes.items()} == UNDO_FIELDS
    assert notes["result"]["order"] is None and notes["result"]["closed"] is False  # a default is written too
    assert notes["seat"] == {"pods": None, "no_shows": [5], "seatings": 0}
