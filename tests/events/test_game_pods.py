"""Game pods after the draft, as a tournament organizer checks them: how many tables of what size for every count of
players, the odd tables (a 3 or a 5 among tables of 4) rotating over the rounds as a bye does, and the standings
with their tie-breakers worked out by hand from the rules (docs/store-night.md, "Game pods" and "Standings")."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from events.night.pairing import game_table_sizes, pair_by_points
from events.storage.store import Store
from tests.helpers.night import Night


@pytest.fixture
def events(tmp_path):
    return Night(Store(tmp_path / "event.json"))


# --- table sizes ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "tables"),
    [
        # n / 4 is an exact half: 2.5, 3.5, 4.5, 5.5 tables.  "As near n/size as that allows" has two answers; the
        # rule takes the fewer tables every time, as 10 players (pinned: 5 + 5) always had.
        (10, [5, 5]),
        (14, [5, 5, 4]),  # 3 tables: 14 = 5 + 5 + 4 (was 4 + 4 + 3 + 3: Python's round() halves to even)
        (18, [5, 5, 4, 4]),  # 4 tables
        (22, [5, 5, 4, 4, 4]),  # 5 tables (was 4 + 4 + 4 + 4 + 3 + 3)
    ],
)
def test_an_exact_half_of_tables_gives_the_fewer_tables_at_every_count(players, tables):
    assert game_table_sizes(players, 4) == tables


def test_every_count_from_3_to_23_as_the_rule_makes_it():
    # Worked from the rule: tables = n/4 to the nearest whole number (a half down), kept between ceil(n/5) and
    # floor(n/3); the players spread evenly, the extra seats at the first tables.
    expected = {
        3: [3], 4: [4], 5: [5], 6: [3, 3], 7: [4, 3], 8: [4, 4], 9: [5, 4], 10: [5, 5], 11: [4, 4, 3],
        12: [4, 4, 4], 13: [5, 4, 4], 14: [5, 5, 4], 15: [4, 4, 4, 3], 16: [4, 4, 4, 4], 17: [5, 4, 4, 4],
        18: [5, 5, 4, 4], 19: [4, 4, 4, 4, 3], 20: [4] * 5, 21: [5, 4, 4, 4, 4], 22: [5, 5, 4, 4, 4],
        23: [4, 4, 4, 4, 4, 3],
    }  # fmt: skip
    assert {n: game_table_sizes(n, 4) for n in range(3, 24)} == expected


# --- the odd tables rotate ------------------------------------------------------------------------------------------


def test_a_short_table_goes_to_the_lowest_players_who_have_not_sat_at_one():
    # 7 players, 1 the best, 7 the worst; 5, 6 and 7 played round 1 at the table of 3.  Filling from the top
    # would seat them there again; the table of 3 takes instead, from the bottom, the players with the fewest
    # seats at a table of 3: 4, 3, 2 (none yet), and 1, 5, 6, 7 fill the table of 4.
    totals = {pid: 8 - pid for pid in range(1, 8)}
    sat_at = Counter({(5, 3): 1, (6, 3): 1, (7, 3): 1, (1, 4): 1, (2, 4): 1, (3, 4): 1, (4, 4): 1})
    tables = pair_by_points(list(range(1, 8)), totals, Counter(), [4, 3], random.Random(1), game_size=4, sat_at=sat_at)
    assert tables == [[1, 5, 6, 7], [2, 3, 4]]


def test_a_long_table_goes_to_the_highest_players_who_have_not_sat_at_one():
    # 9 players: a table of 5 and one of 4.  1 to 5 sat at the table of 5 in round 1: it takes, from the top,
    # the players with the fewest seats at a table of 5: 6, 7, 8, 9 (none yet), then 1 (the highest with one).
    totals = {pid: 10 - pid for pid in range(1, 10)}
    sat_at = Counter({(pid, 5): 1 for pid in range(1, 6)})
    tables = pair_by_points(list(range(1, 10)), totals, Counter(), [5, 4], random.Random(1), game_size=4, sat_at=sat_at)
    assert tables == [[1, 6, 7, 8, 9], [2, 3, 4, 5]]


def test_no_rotation_is_needed_when_the_top_down_filling_already_shares_the_odd_seats():
    totals = {pid: 8 - pid for pid in range(1, 8)}
    sat_at = Counter({(1, 3): 1, (2, 3): 1, (3, 3): 1})  # the top three had the table of 3: the bottom three now
    tables = pair_by_points(list(range(1, 8)), totals, Counter(), [4, 3], random.Random(1), game_size=4, sat_at=sat_at)
    assert tables == [[1, 2, 3, 4], [5, 6, 7]]


@pytest.mark.parametrize(("players", "odd"), [(11, 3), (13, 5)])
def test_over_four_rounds_nobody_sits_at_an_odd_table_more_often_than_they_must(events, players, odd):
    # 11 players: tables 4 + 4 + 3, so 3 seats a round at the table of 3, 12 over four rounds among 11 players:
    # nobody needs more than 2 (ceil(12 / 11)).  13 players: 5 + 4 + 4, 20 seats at the table of 5 among 13: at
    # most 2 (ceil(20 / 13)).  Every result is the seat order (the first seated wins), so points pile up at the top
    # and the same players would keep the odd table without the rotation.
    names = [f"P{n:02d}" for n in range(1, players + 1)]
    event_id = events.create("Rotation", style="bots", seed=11)
    for name in names:
        events.add_player(event_id, name)
    events.seat(event_id)
    events.start_draft(event_id)
    seats: Counter[str] = Counter()
    for number in range(1, 5):
        pairing = events.new_round(event_id, force=True)
        for table, seated in enumerate(pairing.tables, start=1):
            seats.update(name for name in seated if len(seated) == odd)
            events.record_result(event_id, number, table, " > ".join(seated))
    assert sum(seats.values()) == 4 * odd  # one odd table a round
    assert max(seats.values()) <= 2, seats
