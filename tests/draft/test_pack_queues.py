"""Packs pass like paper (issue 41): each seat has a queue of packs, a pick hands its pack to the next seat at once,
and the next round opens when the whole table has finished the one before."""

from __future__ import annotations

import random

import pytest

from draft.bots import Bot, BotStyle
from draft.engine import Draft, DraftConfig, IllegalPickError, PickRequest, StalePickError
from draft.sim import run_bots


def pick_first(draft: Draft, seat: int) -> None:
    draft.pick(seat, list(range(draft.picks_due(seat))))


def test_a_pick_hands_the_pack_to_the_next_seat_at_once():
    draft = Draft.new(DraftConfig(seats=4), seed=1)
    opened = draft.pack(0)
    pick_first(draft, 0)
    assert draft.queued(0) == 0 and draft.queued(1) == 2  # its own pack, then seat 1's
    pick_first(draft, 1)
    assert draft.pack(1) == opened[2:] and draft.at(1) == (1, 2)  # the pack from seat 1, at its second pick


def test_a_fast_seat_waits_only_for_its_upstream_neighbour():
    draft = Draft.new(DraftConfig(seats=4), seed=2)
    pick_first(draft, 0)  # seat 1 and seat 2 race ahead; seats 3 and 4 never pick
    pick_first(draft, 1)
    pick_first(draft, 1)  # seat 1's second pick: the pack seat 1 passed, without waiting for seats 3 and 4
    assert draft.at(0) == (1, 2) and draft.waiting_on(0) == [3]  # seat 1 waits for seat 4's pack
    assert draft.queued(2) == 3  # seat 3 holds its own pack and the two seat 2 passed on


def test_the_next_round_opens_only_when_every_pack_of_the_round_is_empty():
    draft = Draft.new(DraftConfig(seats=3), seed=3)
    for _ in range(100):  # seats 1 and 2 pick whenever they can, seat 3 only when nobody else can
        if draft.at(0)[1] > draft.picks_per_pack:
            break
        pick_first(draft, next((seat for seat in (0, 1) if draft.pack(seat)), 2))
    assert draft.round == 0 and draft.at(0) == (1, draft.picks_per_pack + 1)  # seat 1 made every pick of pack 1
    assert draft.waiting() == [2] and draft.waiting_on(0) == [2]  # and waits for seat 3 to finish it
    while draft.round == 0:
        pick_first(draft, draft.waiting()[0])
    assert [draft.queued(seat) for seat in range(3)] == [1, 1, 1] and draft.at(0) == (2, 1)


def interleaved(seed: int, order_seed: int) -> Draft:
    """A table of bots picking in an order drawn from ``order_seed``: any seat holding a pack may go next."""
    draft = Draft.new(DraftConfig(seats=6), seed=seed)
    bots = {seat: Bot(BotStyle.STRONG, seat) for seat in range(6)}
    order = random.Random(order_seed)
    while not draft.finished:
        seat = order.choice(draft.waiting())
        progress = (draft.round + (draft.at(seat)[1] - 1) / draft.picks_per_pack) / 3
        record = draft.pick(seat, bots[seat].choose(draft.pack(seat), draft.picks_due(seat), progress))
        bots[seat].learn(record.offered, [p.card for p in record.taken], record.pick)
    return draft


def test_the_same_pickers_end_with_the_same_pools_whatever_the_timing():
    lockstep = interleaved(5, 0)
    for order_seed in (1, 2, 3):
        other = interleaved(5, order_seed)
        assert [seat for seat, *_ in other.to_json()["picks"]] != [seat for seat, *_ in lockstep.to_json()["picks"]]
        assert other.pools == lockstep.pools


def test_a_log_replays_to_the_same_draft_in_the_order_it_was_made():
    draft = interleaved(6, 9)
    again = Draft.from_json(draft.to_json())
    assert again.to_json() == draft.to_json() and again.pools == draft.pools
    assert [(p.seat, p.pack, p.pick) for p in again.log] == [(p.seat, p.pack, p.pick) for p in draft.log]


def test_an_old_lockstep_log_still_replays():
    """A log saved when every seat picked once before the packs moved (seat order within a step): the same picks."""
    draft = Draft.new(DraftConfig(seats=4), seed=8)
    rows = []
    rng = random.Random(2)
    for _ in range(3 * draft.picks_per_pack):  # step by step, each seat once, as the lockstep table took them
        picks = {draft.at(seat) for seat in range(4)}
        assert len(picks) == 1  # every seat at the same pick, as at the lockstep table
        for seat in range(4):
            positions = rng.sample(range(len(draft.pack(seat))), draft.picks_due(seat))
            rows.append([seat, *positions])
            draft.pick(seat, positions)
    saved = dict(draft.to_json(), picks=rows)
    assert Draft.from_json(saved).to_json() == draft.to_json() and draft.finished


def test_a_request_on_a_pack_the_seat_no_longer_holds_is_stale():
    draft = Draft.new(DraftConfig(seats=3), seed=4)
    seen = draft.request(0, [0, 1])
    draft.pick(0, [2, 3])
    with pytest.raises(StalePickError, match="pack 1 pick 1 is already made; its next pick is pack 1 pick 2"):
        draft.take(seen)
    ahead = PickRequest(1, 1, 2, tuple(draft.queues[1][1].cards[:2]))  # the pack behind the one in front
    with pytest.raises(StalePickError, match="not reached"):
        draft.take(ahead)
    with pytest.raises(IllegalPickError):
        draft.pick(0, [0, 1])


def test_bots_pick_as_soon_as_a_pack_reaches_them():
    draft = Draft.new(DraftConfig(seats=4), seed=7)
    bots = {seat: Bot(BotStyle.STRONG, seat) for seat in (1, 2, 3)}
    run_bots(draft, bots)
    assert draft.waiting() == [0] and draft.queued(0) == 4  # every pack went round to the one human seat
    pick_first(draft, 0)
    run_bots(draft, bots)
    assert draft.waiting() == [0] and draft.at(0) == (1, 2)


def test_a_requests_places_are_only_a_hint_the_printings_it_names_are_what_is_taken():
    """``PickRequest.places`` is where the printings lay when the pick was made: tried first, never trusted alone. A
    hint pointing at other cards (the pack changed since, or a wrong one) still takes exactly the printings named."""
    draft = Draft.new(DraftConfig(seats=4), seed=5)
    hand = draft.pack(0)
    named = (hand[3], hand[7])
    taken = draft.take(PickRequest(0, 1, 1, named, (0, 1)))
    assert taken.taken == named and taken.positions == (3, 7)
    hand = draft.pack(1)
    taken = draft.take(PickRequest(1, 1, 1, (hand[2], hand[5]), (2, 5)))
    assert taken.taken == (hand[2], hand[5]) and taken.positions == (2, 5)


def test_a_seats_view_is_what_each_of_its_questions_answers_at_every_step_of_a_draft():
    """``Draft.view`` works out together what ``held``, ``at``, ``picks_due``, ``queued`` and ``waiting_on`` say
    one by one: the same at every pick of a draft whose seats pick at different speeds, and once it is over."""
    draft = Draft.new(DraftConfig(seats=5), seed=9)
    rng = random.Random(4)
    while True:
        for seat in range(5):
            assert tuple(draft.view(seat)) == (
                draft.held(seat),
                draft.at(seat),
                draft.picks_due(seat),
                draft.queued(seat),
                draft.waiting_on(seat),
            )
        if draft.finished:
            break
        seat = rng.choice(draft.waiting())
        draft.pick(seat, list(range(draft.picks_due(seat))))


def test_a_seats_last_pick_is_the_logs_last_of_that_seat_at_every_step_and_after_a_replay():
    """``Draft.last_pick`` (what a phone's state shows as its last pick, asked for every state) keeps up with the log
    without going through it: the same as the log's last pick of the seat, seats picking at different speeds."""
    draft = Draft.new(DraftConfig(seats=5), seed=10)
    rng = random.Random(5)

    def from_the_log(seat: int):
        return next((pick for pick in reversed(draft.log) if pick.seat == seat), None)

    while not draft.finished:
        assert [draft.last_pick(seat) for seat in range(5)] == [from_the_log(seat) for seat in range(5)]
        seat = rng.choice(draft.waiting())
        draft.pick(seat, list(range(draft.picks_due(seat))))
    again = Draft.from_json(draft.to_json())
    assert [again.last_pick(seat) for seat in range(5)] == [from_the_log(seat) for seat in range(5)]
    assert again.last_pick(4) is again.log[max(i for i, pick in enumerate(again.log) if pick.seat == 4)]
