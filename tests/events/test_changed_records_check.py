"""A write checks the records it changed (``check_changed``), not the whole database, and refuses the same faults
with the same words as the whole check (``check_tables``).

Each fault below is planted by a transaction on a small database whose records were all written by hand; the words
expected are the schema's (``events.storage.records``: its field types, bounds, references and rules), written out
here, and the whole check run on the same data must say the same.  A transaction that removes a record others refer
to, changes the fields a reference finds a record by, or changes the data some way the tables don't name is checked
whole, so a record it didn't touch is checked too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tinydb import TinyDB
from tinydb.table import Document

from events.storage import record_checks, safe_files, store
from events.storage.records import Player, Pool
from events.storage.store import Store
from events.storage.tables import records_of
from sets.errors import StorageError

EVENT = {
    "name": "Friday",
    "date": "2026-12-04",
    "set": "CMR",
    "mode": "draft",
    "style": "bots",
    "pod_size": 8,
    "game_size": 4,
    "one_v_one": False,
    "timer": 0,
    "points": [3.0, 2.0, 1.0, 0.0],
    "piper_stock": 0,
    "status": "playing",
    "seed": 5,
}
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]


def player(event: int, number: int, name: str, pod: int | None) -> dict[str, Any]:
    seat = number - 1 if pod is not None else None
    fields = {"status": "active", "late": False, "bot": False, "requested": 0}
    return {"event": event, "name": name, **fields, "pod": pod, "seat": seat, "number": number}


DRAFT = {
    "kind": "event",
    "state": {"config": {"seats": 5, "boosters": 3, "picks_per_turn": 2, "set": "CMR"}, "sheets": [], "boosters": []},
    "humans": [0],
    "names": NAMES,
    "styles": ["human"] + ["bot"] * 4,
    "status": "done",
    "picks": [[0, 1, 2]],
    "journal": None,
    "event": 1,
    "pod": 1,
}


@pytest.fixture
def night(tmp_path: Path) -> Path:
    """Event 1 (players 1-5 in pod 1, its draft, pools, a deck, a round, a game) and event 2 (player 6)."""
    db = tmp_path / "night.json"
    with Store(db).write() as handle:
        handle.table("events").insert(EVENT)
        handle.table("events").insert({**EVENT, "name": "Saturday", "status": "registration"})
        for number, name in enumerate(NAMES, 1):
            handle.table("players").insert(player(1, number, name, 1))
        handle.table("players").insert(player(2, 1, "Fay", None))
        handle.table("drafts").insert(DRAFT)
        handle.table("pods").insert({"event": 1, "number": 1, "players": [1, 2, 3, 4, 5], "draft": 1})
        for number in range(1, 6):
            handle.table("pools").insert({"event": 1, "player": number, "cards": ["60", "1"], "source": "draft"})
        deck = {"name": "Ann", "commanders": [{"name": "The Prismatic Piper", "set": "CMR", "number": "1"}]}
        handle.table("decks").insert({"event": 1, "player": 1, "deck": deck, "valid": True, "problems": []})
        handle.table("rounds").insert({"event": 1, "number": 1, "tables": [[1, 2, 3, 4, 5]], "status": "open"})
        life = {str(n): 40 for n in range(1, 6)}
        handle.table("games").insert({"event": 1, "round": 1, "table": 1, "life": life})
    return db


class Checks:
    """The checks a commit ran: which, and what each said (the incremental one beside the whole one's words)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.ran: list[str] = []
        self.whole_said: list[str | None] = []
        changed, whole = record_checks.check_changed, record_checks.check_tables

        def spy_changed(data: dict[str, Any], numbers: dict[str, set[str]]) -> str | None:
            self.ran.append("changed")
            self.whole_said.append(whole(data))
            return changed(data, numbers)

        def spy_whole(data: dict[str, Any]) -> str | None:
            self.ran.append("whole")
            return whole(data)

        monkeypatch.setattr(store, "check_changed", spy_changed)
        monkeypatch.setattr(store, "check_tables", spy_whole)


def update(table: str, record: int, **fields: Any) -> Callable[[TinyDB], object]:
    return lambda db: db.table(table).update(fields, doc_ids=[record])


def change(table: str, record: int, how: Callable[[dict[str, Any]], object]) -> Callable[[TinyDB], object]:
    return lambda db: db.table(table).update(how, doc_ids=[record])


def insert(table: str, doc: dict[str, Any]) -> Callable[[TinyDB], object]:
    return lambda db: db.table(table).insert(doc)


REPORT = {"event": 1, "round": 1, "table": 1, "by": 1, "order": [[1], [2, 3]], "status": "waiting"}

# (the fault, how a transaction plants it, the schema's words for it): each checked from the records it touched
CHANGED_FAULTS: list[tuple[str, Callable[[TinyDB], object], str]] = [
    ("a required field removed", change("events", 1, lambda d: d.pop("name")), "events record 1 has no name"),
    (
        "text that is a number",
        update("events", 1, name=5),
        "events record 1: 'name' should be text, not a whole number",
    ),
    ("a name of only spaces", update("events", 1, name="  "), "events record 1: 'name' is empty"),
    (
        "a value of no choice",
        update("events", 1, status="party"),
        "events record 1: 'status' is 'party', not one of registration, seated, drafting, building, playing, finished",
    ),
    (
        "a number that is true",
        update("events", 1, pod_size=True),
        "events record 1: 'pod_size' should be a whole number, not true/false",
    ),
    (
        "a number over its bound",
        update("events", 1, pod_size=10**6),
        "events record 1: 'pod_size' is 1000000, more than 64",
    ),
    ("a number under its bound", update("events", 1, timer=-1), "events record 1: 'timer' is -1, less than 0"),
    (
        "a number beyond 64 bits' range",
        update("events", 1, seed=2**64 + 1),
        "events record 1: 'seed' is 18446744073709551617, more than 18446744073709551616",
    ),
    (
        "an empty list that needs items",
        update("events", 1, points=[]),
        "events record 1: 'points' holds 0 items (at least 1)",
    ),
    (
        "a list item of the wrong type",
        update("pools", 1, cards=[1, 2]),
        "pools record 1: 'cards' item 1 should be text, not a whole number",
    ),
    (
        "a record field that is text",
        update("decks", 1, deck="Sol Ring"),
        "decks record 1: 'deck' should be a record, not text",
    ),
    (
        "a new record naming no event",
        insert("players", player(99, 7, "Gus", None)),
        "players record 7: 'event' names no event (99)",
    ),
    (
        "a player in no pod of their event",
        update("players", 1, pod=9),
        "players record 1: 'pod' names no pod (9) of its event",
    ),
    (
        "a pod naming no player",
        change("pods", 1, lambda d: d["players"].append(999)),
        "pods record 1: 'players' item 6 names no player (999)",
    ),
    ("a pod naming no draft", update("pods", 1, draft=999), "pods record 1: 'draft' names no draft (999)"),
    ("a pool of no player", update("pools", 1, player=999), "pools record 1: 'player' names no player (999)"),
    (
        "a pool of another event's player",
        update("pools", 1, player=6),
        "pools record 1: 'player' names player 6 of another event",
    ),
    (
        "a round table naming no player",
        change("rounds", 1, lambda d: d["tables"][0].append(999)),
        "rounds record 1: 'tables' item 1 item 6 names no player (999)",
    ),
    (
        "a game's life for no player",
        change("games", 1, lambda d: d["life"].update({"999": 40})),
        "games record 1: 'life' names no player (999)",
    ),
    ("a rule across fields", update("drafts", 1, humans=[40]), "drafts record 1: a seat number is beyond its 5 seats"),
    ("a duplicate", insert("reports", {**REPORT, "confirmed": [2, 2]}), "reports record 1: a player confirmed twice"),
    (
        "a record numbered 0",
        lambda db: db.table("history").insert(Document({"event": 1, "at": "", "who": "", "what": ""}, doc_id=0)),
        "history has a record numbered '0', not a number 1 or more",
    ),
]


def drop_players(db: TinyDB) -> None:
    db.drop_table("players")


def behind_the_tables(db: TinyDB) -> None:
    data = db.storage.read()
    data["events"]["1"] = ["not", "a", "record"]
    db.storage.write(data)


# Faults in records the transaction did not touch: it removed what they name, or moved it, or changed the data
# without the tables: checked whole.
WHOLE_FAULTS: list[tuple[str, Callable[[TinyDB], object], str]] = [
    (
        "the event its players name removed",
        lambda db: db.table("events").remove(doc_ids=[1]),
        "players record 1: 'event' names no event (1)",
    ),
    (
        "a player a pod names removed",
        lambda db: db.table("players").remove(doc_ids=[1]),
        "pods record 1: 'players' item 1 names no player (1)",
    ),
    (
        "the draft its pod names removed",
        lambda db: db.table("drafts").remove(doc_ids=[1]),
        "pods record 1: 'draft' names no draft (1)",
    ),
    (
        "the pod its players are in renumbered",
        update("pods", 1, number=2),
        "players record 1: 'pod' names no pod (1) of its event",
    ),
    (
        "a player a pod names moved to another event",
        update("players", 1, event=2, pod=None, seat=None),
        "pods record 1: 'players' item 1 names player 1 of another event",
    ),
    (
        "the players truncated",
        lambda db: db.table("players").truncate(),
        "pods record 1: 'players' item 1 names no player (1)",
    ),
    ("the players table dropped", drop_players, "pods record 1: 'players' item 1 names no player (1)"),
    ("a record replaced behind the tables' back", behind_the_tables, "events record 1 is not a record"),
]


def refused(db: Path, plant: Callable[[TinyDB], object]) -> StorageError:
    before = db.read_bytes()
    with pytest.raises(StorageError) as refusal, Store(db).write() as handle:
        plant(handle)
    assert db.read_bytes() == before
    return refusal.value


@pytest.mark.parametrize(("fault", "plant", "words"), CHANGED_FAULTS, ids=[f[0] for f in CHANGED_FAULTS])
def test_a_fault_in_a_changed_record_is_refused_in_the_whole_checks_words(night, monkeypatch, fault, plant, words):
    checks = Checks(monkeypatch)
    error = refused(night, plant)
    assert str(error) == f"refused to save '{night}': {words}; nothing was changed"
    assert error.exit_code == 4
    assert checks.ran == ["changed"]
    assert checks.whole_said == [words]


@pytest.mark.parametrize(("fault", "plant", "words"), WHOLE_FAULTS, ids=[f[0] for f in WHOLE_FAULTS])
def test_a_fault_in_a_record_not_touched_is_found_by_the_whole_check(night, monkeypatch, fault, plant, words):
    checks = Checks(monkeypatch)
    error = refused(night, plant)
    assert str(error) == f"refused to save '{night}': {words}; nothing was changed"
    assert error.exit_code == 4
    assert checks.ran == ["whole"]


def test_the_planted_faults_cover_every_kind_of_problem_the_whole_check_words():
    """Each way ``check_tables`` words a problem (its record, msgspec's words, references, ranges, rules) is among
    the faults planted above."""
    said = " | ".join(words for _, _, words in CHANGED_FAULTS)
    for kind in (
        "has a record numbered",
        " has no ",
        "should be",
        "is empty",
        "not one of",
        "more than",
        "less than",
        "holds 0 items",
        "names no event",
        "names no player",
        "names no pod",
        "names no draft",
        "of another event",
        "confirmed twice",
        "beyond its",
    ):
        assert kind in said, kind


def test_of_several_faults_the_first_in_the_whole_checks_order_is_named(night, monkeypatch):
    checks = Checks(monkeypatch)

    def plant(db: TinyDB) -> None:
        db.table("pools").update({"player": 999}, doc_ids=[3])
        db.table("pools").update({"player": 998}, doc_ids=[2])
        db.table("players").update({"pod": 9}, doc_ids=[4])
        db.table("games").update({"table": 0}, doc_ids=[1])

    error = refused(night, plant)
    # records are read table by table, in the tables' order, before any reference is looked up
    assert str(error).startswith(f"refused to save '{night}': games record 1: 'table' is 0, less than 1;")
    db_after_games = checks.whole_said[0]
    assert db_after_games == "games record 1: 'table' is 0, less than 1"

    def references_only(db: TinyDB) -> None:
        db.table("pools").update({"player": 999}, doc_ids=[3])
        db.table("pools").update({"player": 998}, doc_ids=[2])
        db.table("players").update({"pod": 9}, doc_ids=[4])

    error = refused(night, references_only)
    assert "players record 4: 'pod' names no pod (9) of its event;" in str(error)
    assert checks.whole_said[1] == "players record 4: 'pod' names no pod (9) of its event"


def test_a_good_write_is_checked_by_what_it_changed_and_saved(night, monkeypatch):
    checks = Checks(monkeypatch)
    with Store(night).write() as handle:
        handle.table("players").update({"checked_in": True}, doc_ids=[2])
        handle.table("pools").insert({"event": 2, "player": 6, "cards": ["1"], "source": "draft"})
        handle.table("pods").update({"opened": 2}, doc_ids=[1])  # its event and number stay: checked by itself
    assert checks.ran == ["changed"] and checks.whole_said == [None]
    saved = json.loads(night.read_text())
    assert saved["players"]["2"]["checked_in"] is True and saved["pools"]["6"]["player"] == 6


def test_a_record_removed_that_nothing_refers_to_is_checked_by_what_changed(night, monkeypatch):
    checks = Checks(monkeypatch)
    with Store(night).write() as handle:
        handle.table("games").remove(doc_ids=[1])
        handle.table("history").insert({"event": 1, "at": "", "who": "desk", "what": "game removed"})
    assert checks.ran == ["changed"]
    assert "1" not in json.loads(night.read_text())["games"]


def test_after_a_refusal_the_next_write_starts_from_the_file(night):
    kept = Store(night)
    with pytest.raises(StorageError), kept.write() as handle:
        handle.table("players").update({"pod": 9}, doc_ids=[1])
        handle.table("players").update({"name": "Anna"}, doc_ids=[2])
    with kept.write() as handle:
        handle.table("players").update({"checked_in": True}, doc_ids=[3])
    players = json.loads(night.read_text())["players"]
    assert players["1"]["pod"] == 1 and players["2"]["name"] == "Bo" and players["3"]["checked_in"] is True
    with kept.read() as handle:
        assert handle.table("players").get(doc_id=2)["name"] == "Bo"


def test_a_file_another_process_changed_is_checked_whole_before_the_next_write(night):
    kept = Store(night)
    with kept.write() as handle:  # this process has read and written the file
        handle.table("players").update({"checked_in": True}, doc_ids=[1])
    data = json.loads(night.read_text())
    data["pools"]["4"]["player"] = 999  # another tool's write plants a fault in a record this process won't touch
    night.write_text(json.dumps(data))
    with pytest.raises(StorageError) as refusal, kept.write() as handle:
        handle.table("players").update({"checked_in": True}, doc_ids=[2])
    assert str(refusal.value).startswith(f"'{night}' is damaged: pools record 4: 'player' names no player (999);")
    assert refusal.value.exit_code == 4


def test_a_read_transaction_cannot_change_what_the_next_write_saves(night):
    kept = Store(night)
    with pytest.raises(RuntimeError, match="read transaction"), kept.read() as handle:
        handle.table("players").update({"pod": 9}, doc_ids=[1])
    with kept.write() as handle:
        handle.table("players").update({"checked_in": True}, doc_ids=[2])
    assert json.loads(night.read_text())["players"]["1"]["pod"] == 1


@pytest.mark.parametrize("name", ["Zoë 🐉 Ölund", "half a pair \udc80"])
def test_any_text_a_record_holds_is_saved_and_read_back(night, name):
    with Store(night).write() as handle:
        handle.table("players").update({"name": name}, doc_ids=[2])
    with Store(night).read() as handle:
        assert handle.table("players").get(doc_id=2)["name"] == name


def test_values_reads_one_field_of_the_records_asked_for_in_number_order(night):
    with Store(night).write() as handle:
        handle.table("players").update({"status": "dropped"}, doc_ids=[3])
        handle.table("players").update({"code": "K7"}, doc_ids=[4])
    with Store(night).read() as handle:
        players = records_of(handle, Player)
        assert players.values("id", event=1, status="active") == [1, 2, 4, 5]
        assert players.values("name", event=1) == NAMES
        assert players.values("code", event=1) == [None, None, None, "K7", None]  # a field not saved: None
        assert players.values("name", event=2) == ["Fay"]
        assert players.values("id", event=3) == []
        assert records_of(handle, Pool).values("player", event=1) == [1, 2, 3, 4, 5]


# --- what other threads of the process read meanwhile ------------------------------------------------------------


def test_a_read_during_a_write_sees_what_was_committed(night):
    kept = Store(night)
    with kept.write() as handle:
        handle.table("players").update({"name": "Anna"}, doc_ids=[1])
        handle.table("rounds").update(lambda doc: doc["tables"][0].reverse(), doc_ids=[1])
        with kept.read() as reading:  # as a request in another thread would, while this one is being written
            assert reading.table("players").get(doc_id=1)["name"] == "Ann"
            assert reading.table("rounds").get(doc_id=1)["tables"] == [[1, 2, 3, 4, 5]]
    with kept.read() as reading:
        assert reading.table("players").get(doc_id=1)["name"] == "Anna"
        assert reading.table("rounds").get(doc_id=1)["tables"] == [[5, 4, 3, 2, 1]]


def test_a_refused_write_leaves_nothing_a_read_sees(night):
    kept = Store(night)
    with kept.read():
        pass
    with pytest.raises(StorageError), kept.write() as handle:
        handle.table("players").update({"name": "Anna"}, doc_ids=[1])
        handle.table("players").update({"pod": 9}, doc_ids=[2])
    with kept.read() as reading:
        assert reading.table("players").get(doc_id=1)["name"] == "Ann"


def test_a_read_while_the_new_file_is_renamed_into_place_needs_no_new_parse(night, monkeypatch):
    """Between the rename and the write's end (the folder's fsync) a read in another thread sees the new file: it is
    the data the write just saved, so it is not read and checked again."""
    kept = Store(night)
    with kept.read():
        pass
    parsed: list[Path] = []
    seen: list[str] = []
    real_read_file, real_fsync = store.read_file, safe_files._fsync_folder

    def counted(path: Path) -> Any:
        parsed.append(path)
        return real_read_file(path)

    def reading_then_fsync(folder: Path) -> None:
        with kept.read() as reading:
            seen.append(reading.table("players").get(doc_id=1)["name"])
        real_fsync(folder)

    monkeypatch.setattr(store, "read_file", counted)
    monkeypatch.setattr(safe_files, "_fsync_folder", reading_then_fsync)
    with kept.write() as handle:
        handle.table("players").update({"name": "Anna"}, doc_ids=[1])
    assert seen == ["Anna"]
    assert parsed == []
