"""What a player whose pick's time ran out takes (``draft.timeout``): the cards they had marked still in the pack,
then the suggestion's for the rest.  Each expected pick is worked out from that rule by hand, on a small pack whose
suggestion is given: ``A B C D E`` with the suggestion ``[C, A]`` (C first)."""

from __future__ import annotations

import pytest

from draft.timeout import Marks, timed_out_positions
from sets.booster import Printing
from sets.catalog import load_set

AT = (1, 3)  # the pack and pick in front of the seat
SUGGESTED = [2, 0]  # C, then A


@pytest.fixture(scope="module")
def pack() -> list[Printing]:
    cards = list(load_set("CMR"))[:5]
    return [Printing(card) for card in cards]  # A B C D E


def marked(pack: list[Printing], *places: int, at: tuple[int, int] = AT) -> Marks:
    return Marks(*at, tuple(pack[i] for i in places))


@pytest.mark.parametrize(
    ("places", "expected"),
    [
        ((), [2, 0]),  # nothing marked: the suggestion, C then A
        ((3,), [3, 2]),  # D marked: D, then the suggestion's best, C
        ((2,), [2, 0]),  # C marked (the suggestion's own first): C, then the next suggested, A
        ((0,), [0, 2]),  # A marked: A, then C
        ((4, 1), [4, 1]),  # E and B marked: exactly those, in the order marked
        ((1, 3), [1, 3]),  # two marked outside the suggestion: those, none of it
    ],
)
def test_the_marked_cards_are_taken_and_the_suggestion_completes_the_pick(pack, places, expected):
    assert timed_out_positions(pack, AT, 2, marked(pack, *places), SUGGESTED) == expected


def test_no_marks_known_is_the_suggestion(pack):
    assert timed_out_positions(pack, AT, 2, None, SUGGESTED) == [2, 0]


def test_a_mark_on_a_card_no_longer_in_the_pack_counts_for_nothing(pack):
    gone = Printing(pack[0].card)  # an equal card, but not one of this pack's: a copy taken meanwhile
    marks = Marks(*AT, (gone, pack[3]))
    assert timed_out_positions(pack, AT, 2, marks, SUGGESTED) == [3, 2]  # D, then C: the other mark is void


def test_marks_on_a_pack_that_moved_on_count_for_nothing(pack):
    earlier = marked(pack, 3, 4, at=(1, 2))
    assert timed_out_positions(pack, AT, 2, earlier, SUGGESTED) == [2, 0]


def test_two_copies_of_a_card_stay_apart(pack):
    twin = [*pack, Printing(pack[3].card)]  # a second D at position 5
    marks = Marks(*AT, (twin[5],))
    assert timed_out_positions(twin, AT, 2, marks, SUGGESTED) == [5, 2]  # the very copy marked, not the first D


def test_no_more_marked_cards_than_the_pick_takes(pack):
    assert timed_out_positions(pack, AT, 1, marked(pack, 4, 1), [2]) == [4]  # a pick of one: the first marked
