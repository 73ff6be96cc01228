"""Wrong seat codes: one counter per seat, and after five the seat takes no code until the desk resets it.

Real database files; the wrong-code delay runs on the tests' clock (``manual_clock``)."""

from __future__ import annotations

import json
import threading

import pytest

from events.night.schema import LOCK_AFTER
from events.night.seat_codes import WRONG_CODE_DELAY, SeatLocked, check_code
from events.storage.store import Store
from tests.helpers.night import Night
from tests.helpers.nights import EXIT_STATE, codes_of, seat_of, start, terminal_night


def ann_of(db, event_id) -> tuple[Night, int]:
    night = Night(Store(db))
    return night, next(p.id for p in night.snapshot(event_id).players if p.name == "Ann")


def test_five_wrong_codes_lock_the_seat_until_the_desk_resets_its_code(tmp_path, cli, manual_clock):
    db = tmp_path / "lock.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2)
    start(cli, db, event_id)
    night, ann = ann_of(db, event_id)
    right = codes_of(db, event_id)["Ann"]
    assert LOCK_AFTER == 5  # the README's figure
    for _ in range(LOCK_AFTER - 1):
        assert check_code(night, event_id, ann, "WRONG1") is False
    with pytest.raises(SeatLocked, match=rf"locked after 5 wrong seat codes.*event player code {event_id} Ann --reset"):
        check_code(night, event_id, ann, "WRONG5")
    assert manual_clock.slept == [WRONG_CODE_DELAY] * LOCK_AFTER  # the locking try waited like the others
    with pytest.raises(SeatLocked):
        check_code(night, event_id, ann, right)  # not even the right code now
    assert manual_clock.slept == [WRONG_CODE_DELAY] * LOCK_AFTER  # a locked seat answers at once: nothing to guess
    board = json.loads(cli("event", "show", event_id, "--db", db, "--json").stdout)
    rows = {p["name"]: (p["wrong_codes"], p["locked"]) for p in board["players"] if not p["bot"]}
    assert rows == {"Ann": (5, True), "Bo": (0, False)}
    text = " ".join(cli("event", "show", event_id, "--db", db).stdout.split())  # as read, not as wrapped
    assert (
        "Ann: 5 wrong seat codes typed" in text
        and "LOCKED" in text
        and f"event player code {event_id} #1 --reset" in text
    )
    # a terminal at the seat is told and leaves with exit 3 ("out of order"), nothing picked
    terminal = cli("event", "draft", event_id, "--player", "Ann", "--db", db, input=f"{right}\n")
    assert terminal.exit_code == EXIT_STATE and "locked" in terminal.stderr and "--reset" in terminal.stderr
    assert "Traceback" not in terminal.output
    reset = cli("event", "player", "code", event_id, "Ann", "--reset", "--db", db, "--json")
    new = json.loads(reset.stdout)["code"]
    assert check_code(night, event_id, ann, new) is True
    board = json.loads(cli("event", "show", event_id, "--db", db, "--json").stdout)
    assert [(p["wrong_codes"], p["locked"]) for p in board["players"] if p["name"] == "Ann"] == [(0, False)]


def test_a_seat_already_bound_keeps_picking_while_it_is_locked(tmp_path, cli, manual_clock):
    db = tmp_path / "bound.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2)
    start(cli, db, event_id)
    night, ann = ann_of(db, event_id)
    pod, seat = seat_of(db, event_id, "Ann")
    session = night.draft_session(event_id, pod)
    assert check_code(night, event_id, ann, codes_of(db, event_id)["Ann"])
    session.claim(seat, "token-of-anns-terminal")
    for _ in range(LOCK_AFTER - 1):
        check_code(night, event_id, ann, "GUESS1")  # someone else guessing at another terminal
    with pytest.raises(SeatLocked):
        check_code(night, event_id, ann, "GUESS5")
    taken = session.pick(session.suggested_pick(seat), "token-of-anns-terminal")
    assert taken.seat == seat and len(night.draft_session(event_id, pod).draft.picks_of(seat)) == 1


def test_a_wrong_code_adds_no_row_to_the_event_file(tmp_path, cli, manual_clock):
    db = tmp_path / "rows.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2)
    start(cli, db, event_id)
    night, ann = ann_of(db, event_id)
    check_code(night, event_id, ann, "WRONG0")  # the counter's fields exist from here on
    before = json.loads(db.read_text())
    size = db.stat().st_size
    for _ in range(LOCK_AFTER - 2):
        check_code(night, event_id, ann, "WRONG1")
    after = json.loads(db.read_text())
    assert {table: len(rows) for table, rows in after.items()} == {table: len(rows) for table, rows in before.items()}
    assert "code_failures" not in after
    assert db.stat().st_size - size < 10  # the counter's digits and its time, rewritten in place
    with pytest.raises(SeatLocked):
        check_code(night, event_id, ann, "WRONG5")
    history = [row["what"] for row in json.loads(db.read_text())["history"].values()]
    assert history.count("seat locked") == 1 and "wrong seat code" not in history


def test_terminals_typing_at_once_get_no_more_than_five_tries(tmp_path, cli):
    """Eight threads, each its own store and transactions on the real file, race at the limit."""
    db = tmp_path / "race.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2)
    start(cli, db, event_id)
    _, ann = ann_of(db, event_id)
    answers: list[str] = []

    def guess() -> None:
        night = Night(Store(db))
        for _ in range(3):
            try:
                answers.append("refused" if check_code(night, event_id, ann, "WRONG", delay=0) is False else "taken")
            except SeatLocked:
                answers.append("locked")

    threads = [threading.Thread(target=guess) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers).count("refused") == LOCK_AFTER - 1 and answers.count("locked") == 24 - (LOCK_AFTER - 1)
    board = json.loads(cli("event", "show", event_id, "--db", db, "--json").stdout)
    assert [p["wrong_codes"] for p in board["players"] if p["name"] == "Ann"] == [LOCK_AFTER]
