"""Packs pass like paper at a real draft file (issue 41): the pick timer runs per pack held, a seat's deadline is
its own, and drafts saved while the table passed its packs in lockstep still resume (their picks, their pools,
their one deadline for the whole table)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from draft.engine import DraftConfig
from events.storage.draft_files import TableSession
from events.storage.draft_records import DRAFTS, journal_file, load_draft
from events.storage.pick_clock import seat_deadline
from events.storage.store import Store
from tests.helpers.paths import ROOT

TIMER = 60  # seconds for a full pack of 20


def event_table(db: Path) -> TableSession:
    """Four seats, players at 0 and 1, bots at 2 and 3; pack 1 passes left, so the two bots pass their packs on
    to seat 0 at once, and seat 1 waits on seat 0."""
    return TableSession.create(
        Store(db),
        kind="event",
        seed=3,
        config=DraftConfig(seats=4),
        humans=[0, 1],
        names=["Ann", "Bo", "Bot 1", "Bot 2"],
        timer=TIMER,
    )


def test_each_player_has_a_deadline_for_the_pack_in_front_of_them_and_keeps_it_while_others_pick(
    tmp_path, manual_clock
):
    start = manual_clock.now()
    table = event_table(tmp_path / "d.json")
    assert table.draft.queued(0) == 3 and table.draft.queued(1) == 1  # her own pack and the two bots'
    assert table.deadline(0) == table.deadline(1) == round(start + TIMER, 3)
    manual_clock.advance(20)
    table.pick(table.suggested_pick(1))  # Bo's pack goes round the bots to Ann: she holds four now
    assert table.draft.queued(0) == 4 and table.draft.queued(1) == 0
    assert table.deadline(0) == round(start + TIMER, 3)  # the pack in front of her is the same: the same deadline
    assert table.deadline(1) is None  # no pack, no clock


def test_time_up_takes_one_pick_from_the_pack_held_and_the_next_pack_gets_its_own_time(tmp_path, manual_clock):
    start = manual_clock.now()
    table = event_table(tmp_path / "d.json")
    front = table.draft.held(0)
    assert front is not None
    manual_clock.advance(TIMER + 1)
    taken = TableSession.load(table.store, table.draft_id).apply_timeout()
    # Ann's time ran out with three packs waiting: the timer takes one pick, from the pack in front of her; Bo's
    # time ran out too (his own pack). Each pick goes on to the next seat.
    assert sorted((p.seat, p.pack, p.pick) for p in taken) == [(0, 1, 1), (1, 1, 1)]
    later = TableSession.load(table.store, table.draft_id)
    assert later.draft.at(0) == (1, 2)
    next_pack = later.draft.held(0)
    assert next_pack is not None and next_pack is not front
    # the next pack's time starts now, for the cards it holds (the pack the bot at seat 3 passed: 18 cards)
    assert later.deadline(0) == round(start + TIMER + 1 + TIMER * 18 / 20, 3)
    assert later.deadline(1) == round(start + TIMER + 1 + TIMER * 18 / 20, 3)  # Ann's timed-out pack reached Bo


def test_a_clock_set_back_gives_a_pick_no_more_than_its_whole_time(tmp_path, manual_clock):
    """The machine's clock set back an hour mid-pick (a wrong time corrected): the next look at the draft stamps
    each player's deadline anew, at most a whole pick's time away, and the timer takes the pick once that is up
    (before: the pack stayed an hour and a minute, and the pod waited with it)."""
    table = event_table(tmp_path / "d.json")
    manual_clock.advance(20)
    manual_clock.wall -= 3600
    look = TableSession.load(table.store, table.draft_id)
    assert look.apply_timeout() == []  # nothing due yet
    again = TableSession.load(table.store, table.draft_id)
    assert again.deadline(0) == again.deadline(1) == round(manual_clock.now() + TIMER, 3)
    manual_clock.advance(TIMER + 1)
    taken = TableSession.load(table.store, table.draft_id).apply_timeout()
    assert sorted((p.seat, p.pack, p.pick) for p in taken) == [(0, 1, 1), (1, 1, 1)]


def lockstep_night(folder: Path) -> Path:
    """The schema-2 fixture (written by a release whose table passed packs only when every seat had picked)."""
    db = folder / "two.json"
    fixture = ROOT / "tests" / "fixtures" / "schema2.json"
    shutil.copy(fixture, db)
    shutil.copytree(fixture.with_name("schema2.json.drafts"), folder / "two.json.drafts")
    return db


def test_a_finished_lockstep_draft_replays_to_the_pools_that_were_recorded(tmp_path):
    db = lockstep_night(tmp_path)
    saved = json.loads(db.read_text(encoding="utf-8"))
    store = Store(db)
    with store.read() as handle:
        draft, _ = load_draft(store, handle, 1)
    assert draft.finished and len(draft.log) == 4 * 3 * 10
    players = saved["pods"]["1"]["players"]
    for seat, player in enumerate(players):
        recorded = next(pool["cards"] for pool in saved["pools"].values() if pool["p"] == player)
        replayed = [p.card.number + ("*f" if p.foil else "") for p in draft.pools[seat]]
        assert sorted(replayed) == sorted(recorded), seat


def test_a_lockstep_draft_with_the_old_one_deadline_resumes_with_its_clock(tmp_path, manual_clock):
    db = lockstep_night(tmp_path)
    store = Store(db)
    with store.write() as handle:
        handle.table(DRAFTS).update({"timer": TIMER}, doc_ids=[2])  # a timed night, as an older release kept it
        record = dict(handle.table(DRAFTS).get(doc_id=2))
    due = manual_clock.now() + 30
    journal = journal_file(store, 2, record)
    assert journal is not None
    with journal.write() as entry:  # the whole table's one deadline, for pack 1 pick 2, as the file kept it
        entry.save({"deadline": {"pack": 1, "pick": 2, "at": due}}, [], compact=True)
    table = TableSession.load(store, 2)
    # two seats, each picked once (lockstep): each holds the other's pack, at pick 2, under the table's deadline
    assert [table.draft.at(seat) for seat in (0, 1)] == [(1, 2), (1, 2)]
    assert [table.draft.queued(seat) for seat in (0, 1)] == [1, 1]
    assert table.deadline(0) == table.deadline(1) == due
    assert seat_deadline(table.doc["deadline"], 1) == {"pack": 1, "pick": 2, "at": due}
    table.pick(table.suggested_pick(0))  # picking on saves the new form: seat 1 keeps the deadline it had
    again = TableSession.load(store, 2)
    assert again.deadline(1) == due and again.draft.at(0) == (1, 3)
    assert "seats" in again.doc["deadline"]
    manual_clock.advance(31)
    taken = again.apply_timeout()
    assert [(p.seat, p.pack, p.pick) for p in taken] == [(1, 1, 2)]
