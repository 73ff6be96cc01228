"""The seat a face holds at a draft table (``events.sessions.seat``), on a real draft file: marks, the pick on
the pack that was shown, the last cards, the clock (injected, moved by the test), and that a face with no
terminal library at all (a browser's) can drive a seat and a deck with it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from draft.advice import seat_advice
from draft.engine import DraftConfig
from events.sessions.seat import Mark, Refused, SeatSession, Taken
from events.storage.draft_files import TableSession
from events.storage.store import Store
from tests.helpers.paths import ROOT


class Clock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def table_at(db: Path, *, players: int = 4, timer: int | None = None, kind: str = "practice") -> TableSession:
    return TableSession.create(
        Store(db),
        kind=kind,
        seed=7,
        config=DraftConfig(seats=players),
        humans=[0],
        names=[f"P{i}" for i in range(players)],
        timer=timer,
    )


def test_marks_stop_at_the_cards_the_pick_takes_and_enter_marks_the_highlighted_one(tmp_path):
    seat = SeatSession(table_at(tmp_path / "d.json"), 0)
    seat.show()
    assert seat.due == 2
    assert seat.toggle_mark(3) is Mark.MARKED and seat.toggle_mark(5) is Mark.MARKED
    assert seat.toggle_mark(7) is Mark.FULL and seat.marked == [3, 5]
    assert seat.toggle_mark(3) is Mark.UNMARKED and not seat.ready(None)
    assert seat.ready(9) and seat.marked == [5, 9]
    seat.show()  # the next pack on the screen starts unmarked
    assert seat.marked == []


def test_a_pick_names_the_pack_shown_and_is_refused_once_another_terminal_took_it(tmp_path):
    db = tmp_path / "d.json"
    table = table_at(db)
    here = SeatSession(table, 0)
    here.show()
    there = SeatSession(TableSession.load(Store(db), table.draft_id), 0)  # the same seat at another terminal
    there.show()
    assert isinstance(there.pick([0, 1]), Taken)
    refused = here.pick([2, 3])
    assert isinstance(refused, Refused) and "already made" in refused.reason
    assert [p.positions for p in TableSession.load(Store(db), table.draft_id).draft.picks_of(0)] == [(0, 1)]
    here.show()
    assert isinstance(here.pick([0, 1]), Taken) and len(here.draft.picks_of(0)) == 2


def test_the_practice_clock_starts_when_the_pack_is_shown_and_time_up_takes_the_hint(tmp_path):
    clock = Clock()
    seat = SeatSession(table_at(tmp_path / "d.json", timer=20), 0, clock=clock)
    seat.show()
    assert seat.seconds_left() == 20 and not seat.expired()  # a full pack: the whole time
    clock.now += 19.2
    assert seat.seconds_left() == 1
    expected = seat_advice(seat.draft, 0).positions
    clock.now += 1
    assert seat.expired()
    taken = seat.time_up()
    assert taken is not None and list(taken.pick.positions) == expected and "your colors" in taken.why


def test_an_event_clock_is_the_drafts_own_deadline_and_its_timeout_is_applied_once(tmp_path):
    wall, clock = Clock(0.0), Clock(500.0)
    table = table_at(tmp_path / "d.json", timer=30, kind="event")
    at = table.deadline()
    assert at is not None
    wall.now = at - 10
    seat = SeatSession(table, 0, clock=clock, wall=wall)
    seat.show()
    assert seat.seconds_left() == 10  # what is left of the draft's deadline, not a fresh 30 s
    assert seat.time_up() is None  # not due yet by the draft's clock: nothing taken
    wall.now = at + 1
    expected = table.suggested_positions(0)
    taken = seat.time_up()
    assert taken is not None and list(taken.pick.positions) == expected and "every terminal" in taken.why


def test_the_last_cards_of_a_pack_are_taken_without_choosing(tmp_path):
    seat = SeatSession(table_at(tmp_path / "d.json", players=2), 0)
    while not seat.last_cards_due:
        seat.show()
        seat.pick([0, 1])
    last = [p.card.name for p in seat.pack]
    assert len(last) <= seat.due
    taken = seat.take_last_cards()
    assert isinstance(taken, Taken) and [p.card.name for p in taken.pick.taken] == last


BROWSER_LIKE = """
import sys
from pathlib import Path
from draft import deck_actions as act
from draft.engine import DraftConfig
from events.sessions.activities import PracticeDeck
from events.sessions.seat import SeatSession
from events.storage.draft_files import TableSession
from events.storage.store import Store

table = TableSession.create(Store(Path(sys.argv[1])), kind="practice", seed=4, config=DraftConfig(seats=2),
                            humans=[0], names=["You", "Bot"])
seat = SeatSession(table, 0)
while not seat.draft.finished:
    seat.show()
    outcome = seat.take_last_cards() if seat.last_cards_due else seat.pick(seat.hint().positions)
deck = PracticeDeck(table, Path(sys.argv[1]).parent)
deck.session.apply(act.Complete())
done = deck.session.apply(act.FinishDeck())
loaded = sorted(m.split(".")[0] for m in sys.modules if m.split(".")[0] in ("rich", "textual", "typer", "click"))
print(done.saved, loaded)
"""


@pytest.mark.slow
def test_a_face_with_no_terminal_library_drives_a_seat_and_a_deck(tmp_path):
    """What a browser face will do: the whole practice draft and its deck through the sessions alone,
    with neither rich nor Textual (nor the command line's libraries) loaded."""
    result = subprocess.run(
        [sys.executable, "-c", BROWSER_LIKE, str(tmp_path / "web.json")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "[]"]


def test_from_the_second_pick_the_hint_the_timers_pick_and_a_bot_seat_read_the_same_pool_and_packs(tmp_path):
    """Issue 43: the hint, the timer's pick and the pick a bot makes in the seat's place are one choice, made with
    the picks so far (the pool and the packs seen) from pick 2 on, not the first pack's view again."""
    from draft.bots import Bot, BotStyle

    clock = Clock()
    table = table_at(tmp_path / "d.json", timer=20)
    seat = SeatSession(table, 0, clock=clock)
    for _ in range(3):  # three picks in: the pool holds six cards, three packs were seen
        seat.show()
        seat.pick([0, 1])
    seat.show()
    draft = seat.draft
    assert draft.at(0) == (1, 4) and len(draft.pools[0]) == 6
    bot = Bot(BotStyle.STRONG, 0)
    for pick in draft.picks_of(0):
        bot.observe(pick.offered, pick.pick)
    bot.remember([p.card for p in draft.pools[0]])
    progress = (draft.round + (draft.at(0)[1] - 1) / draft.picks_per_pack) / draft.config.boosters
    in_its_place = bot.choose(draft.pack(0), draft.picks_due(0), progress)
    hint = seat_advice(draft, 0).positions
    assert hint == table.suggested_positions(0) == list(in_its_place)
    clock.now += 21
    taken = seat.time_up()
    assert taken is not None and list(taken.pick.positions) == hint


def test_a_pick_on_the_pack_a_seat_still_waits_for_is_not_called_already_made():
    """``POST /api/pick`` (and every face) naming the seat's next pick while its pack hasn't been passed to it yet.
    Before: 'that pack has moved on: your pack 1 pick 2 is already made; your next pick is pack 1 pick 2 (waiting
    for a pack)', which says the pick was made and is still to make."""
    from events.sessions.seat import stale_words

    waiting = stale_words((1, 2), (1, 2), picked=True, packs=3, picks=10)
    assert waiting == (
        "that pack hasn't reached you: your pack 1 pick 2 is not reached yet; "
        "your next pick is pack 1 pick 2 (waiting for a pack)"
    )
    made = stale_words((1, 1), (1, 2), picked=False, packs=3, picks=10)
    assert (
        made
        == "that pack has moved on: your pack 1 pick 1 is already made; the pack in front of you is now pack 1 pick 2"
    )


def test_a_pick_once_the_seats_picks_of_a_pack_or_of_the_draft_are_made_names_no_pick_past_the_last():
    """A CMR draft: 3 packs of 20 cards, 10 picks of two each.  A pick sent after the draft is over said 'the pack in
    front of you is now pack 4 pick 1' (there is no pack 4); after the seat's last pick of pack 1, 'your next pick
    is pack 1 pick 11' (there is no pick 11): the seat's next pick is pack 2 pick 1, or none after the last pack."""
    from events.sessions.seat import stale_words

    over = stale_words((3, 10), (4, 1), picked=False, packs=3, picks=10)
    assert over == "that pack has moved on: your pack 3 pick 10 is already made; the draft is over: every pick is made"
    between = stale_words((1, 10), (1, 11), picked=True, packs=3, picks=10)
    assert between.endswith("; your next pick is pack 2 pick 1, once every seat has finished pack 1")
    early = stale_words((2, 1), (1, 11), picked=True, packs=3, picks=10)
    assert early.startswith("that pack hasn't reached you: your pack 2 pick 1 is not reached yet; ")
    last = stale_words((3, 10), (3, 11), picked=True, packs=3, picks=10)
    assert last.endswith("; your picks are all made: the others are finishing the last pack")


def marked_and_due(tmp_path: Path, marks: int) -> tuple[TableSession, SeatSession, list[int], list[int]]:
    """An event's timed draft with the seat's pack shown and ``marks`` cards marked outside the strong bot's pick,
    its clock past the deadline: the table, the seat, the marked positions and the bot's pick."""
    table = table_at(tmp_path / "d.json", timer=30, kind="event")
    at = table.deadline()
    assert at is not None
    wall = Clock(at + 1)
    seat = SeatSession(table, 0, wall=wall)
    seat.show()
    suggested = table.suggested_positions(0)
    chosen = [i for i in range(len(seat.pack)) if i not in suggested][:marks]
    for index in chosen:
        assert seat.toggle_mark(index) is Mark.MARKED
    return table, seat, chosen, suggested


def test_time_running_out_takes_the_one_card_marked_and_the_strong_bots_best_for_the_other(tmp_path):
    _, seat, chosen, suggested = marked_and_due(tmp_path, 1)
    taken = seat.time_up()
    assert taken is not None
    assert set(taken.pick.positions) == {chosen[0], suggested[0]}
    assert taken.why == "the card you had chosen, and the strong bot's pick for the rest"


def test_time_running_out_takes_exactly_the_two_cards_marked(tmp_path):
    _, seat, chosen, _ = marked_and_due(tmp_path, 2)
    taken = seat.time_up()
    assert taken is not None and set(taken.pick.positions) == set(chosen) and taken.why == "the cards you had chosen"


def test_a_mark_taken_off_again_is_not_taken(tmp_path):
    _, seat, chosen, suggested = marked_and_due(tmp_path, 1)
    assert seat.toggle_mark(chosen[0]) is Mark.UNMARKED
    taken = seat.time_up()
    assert taken is not None and set(taken.pick.positions) == set(suggested) and "every terminal" in taken.why


def test_marks_live_in_the_program_showing_them_another_copy_times_out_with_the_strong_bots_pick(tmp_path):
    """The desk's screen (another copy of the draft, in another program) reaching the draft first knows no marks."""
    table, seat, _, suggested = marked_and_due(tmp_path, 2)
    desk = TableSession.load(table.store, table.draft_id)
    [made] = desk.apply_timeout(seat.wall())
    assert set(made.positions) == set(suggested)
    taken = seat.time_up()
    assert taken is not None and set(taken.pick.positions) == set(suggested)


def test_marks_on_a_pack_that_moved_on_are_not_taken_from_the_next(tmp_path):
    """Marks made on one pack, the seat then picking it by hand: the next pack's timeout takes the bot's pick."""
    wall = Clock(0.0)
    table = table_at(tmp_path / "d.json", timer=30, kind="event")
    seat = SeatSession(table, 0, wall=wall)
    seat.show()
    seat.toggle_mark(3)
    seat.toggle_mark(4)
    assert isinstance(seat.pick([3, 4]), Taken)
    while 0 not in table.waiting_humans():
        table.hand_to_bot(None)
    at = table.deadline(0)
    assert at is not None
    wall.now = at + 1
    suggested = table.suggested_positions(0)
    [made] = table.apply_timeout(wall.now)
    assert set(made.positions) == set(suggested)
