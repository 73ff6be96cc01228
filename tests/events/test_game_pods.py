"""Game pods after the draft, as a tournament organizer checks them: how many tables of what size for every count of
players, the odd tables (a 3 or a 5 among tables of 4) rotating over the rounds as a bye does, and the standings
with their tie-breakers worked out by hand from the rules (docs/store-night.md, "Game pods" and "Standings")."""

from __future__ import annotations

import csv
import json
import random
from collections import Counter
from fractions import Fraction as F

import pytest

from events.night.pairing import game_table_sizes, pair_by_points
from events.night.table_reports import TableReports
from events.storage.store import Store
from sets.errors import InputError
from tests.helpers.night import Night


@pytest.fixture
def events(tmp_path):
    return Night(Store(tmp_path / "event.json"))


def bots_seated(events, name: str, players: list[str], seed: int) -> int:
    """A bots event of ``players`` seated and drafted, without decks (its rounds are paired with ``force``)."""
    event_id: int = events.create(name, style="bots", seed=seed)
    for player in players:
        events.add_player(event_id, player)
    events.seat(event_id)
    events.start_draft(event_id)
    return event_id


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


def test_in_1v1_the_table_of_three_rotates_too():
    # 7 players in a 1v1 event: 3 + 2 + 2.  1, 2 and 3 played the table of three: it takes, from the top, the
    # players with none yet, 4, 5 and 6; the pairs are filled from the top with the rest: 1-2, 3-7.
    totals = {pid: 8 - pid for pid in range(1, 8)}
    sat_at = Counter({(1, 3): 1, (2, 3): 1, (3, 3): 1})
    tables = pair_by_points(
        list(range(1, 8)), totals, Counter(), [3, 2, 2], random.Random(1), game_size=2, sat_at=sat_at
    )
    assert tables == [[4, 5, 6], [1, 2], [3, 7]]


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
    event_id = bots_seated(events, "Rotation", names, seed=11)
    seats: Counter[str] = Counter()
    for number in range(1, 5):
        pairing = events.new_round(event_id, force=True)
        for table, seated in enumerate(pairing.tables, start=1):
            seats.update(name for name in seated if len(seated) == odd)
            events.record_result(event_id, number, table, " > ".join(seated))
    assert sum(seats.values()) == 4 * odd  # one odd table a round
    assert max(seats.values()) <= 2, seats


# --- a night's standings, worked out by hand --------------------------------------------------------------------------


def table_of(rows) -> list[tuple[int, str, F, F, F | None, int, bool]]:
    return [(r.rank, r.name, r.points, r.opponents_average, r.average_place, r.rounds, r.dropped) for r in rows]


def test_four_rounds_of_every_ending_with_a_correction_a_drop_and_a_late_player(events, tmp_path, cli):
    # Five players: one table of 5 (size 4, 5 players), so every table is known without the seeded draw.
    # Points 3/2/1/0; a fifth place gets the last figure, 0.  Draws share the points of the places they cover and
    # each takes the best of those places.
    event_id = bots_seated(events, "Hand", ["Ann", "Bo", "Cy", "Di", "Ed"], seed=5)

    # Round 1: Bo wins, Ann and Cy are eliminated together (a draw for 2nd-3rd), Ed left mid-game (last).  Typed
    # wrong first, then corrected.
    assert sorted(events.new_round(event_id, force=True).tables[0]) == ["Ann", "Bo", "Cy", "Di", "Ed"]
    events.record_result(event_id, 1, 1, "Ann > Bo > Cy > Di > Ed")
    fixed = events.record_result(event_id, 1, 1, "Bo > Ann = Cy > Di > Ed", replace=True)
    assert fixed.corrected and fixed.points == {"Bo": 3, "Ann": F(3, 2), "Cy": F(3, 2), "Di": 0, "Ed": 0}
    # Bo 3, Ann 3/2, Cy 3/2, Di 0, Ed 0.  Opponents' average: the others' points over their one round:
    # Ann (3 + 3/2 + 0 + 0) / 4 = 9/8, Cy the same; Di (3 + 3/2 + 3/2 + 0) / 4 = 3/2, Ed the same.
    # Ann and Cy equal on all three (place 2 each): rank 2 shared.  Di and Ed: place 4 against 5, Di first.
    assert table_of(events.standings(event_id)) == [
        (1, "Bo", 3, F(3, 4), 1, 1, False),  # (3/2 + 3/2 + 0 + 0) / 4
        (2, "Ann", F(3, 2), F(9, 8), 2, 1, False),
        (2, "Cy", F(3, 2), F(9, 8), 2, 1, False),
        (4, "Di", 0, F(3, 2), 4, 1, False),
        (5, "Ed", 0, F(3, 2), 5, 1, False),
    ]
    events.drop_player(event_id, "Ed")

    # Round 2: Ann, Bo, Cy, Di; the game timed out: a draw among all four, (3 + 2 + 1 + 0) / 4 = 3/2 each.
    assert sorted(events.new_round(event_id, force=True).tables[0]) == ["Ann", "Bo", "Cy", "Di"]
    events.record_result(event_id, 2, 1, "Ann = Bo = Cy = Di")
    # Points: Ann 3, Bo 9/2, Cy 3, Di 3/2, Ed 0; per round: Ann 3/2, Bo 9/4, Cy 3/2, Di 3/4, Ed 0.
    # Ann met Bo, Cy, Di twice and Ed once: (2*9/4 + 2*3/2 + 2*3/4 + 0) / 7 = 9/7; Cy the same.
    # Bo: (2*3/2 + 2*3/2 + 2*3/4 + 0) / 7 = 15/14.  Di: (2*9/4 + 2*3/2 + 2*3/2 + 0) / 7 = 3/2.
    # Ed (dropped, still ranked): (9/4 + 3/2 + 3/2 + 3/4) / 4 = 3/2.
    assert table_of(events.standings(event_id)) == [
        (1, "Bo", F(9, 2), F(15, 14), 1, 2, False),
        (2, "Ann", 3, F(9, 7), F(3, 2), 2, False),
        (2, "Cy", 3, F(9, 7), F(3, 2), 2, False),
        (4, "Di", F(3, 2), F(3, 2), F(5, 2), 2, False),
        (5, "Ed", 0, F(3, 2), 5, 1, True),
    ]

    # Flo arrives late (a sealed pool) and plays from round 3.  Round 3: Di concedes first (last), Bo and Cy are
    # eliminated together (3rd-4th: (1 + 0) / 2 = 1/2 each), Ann second, Flo wins.
    events.add_player(event_id, "Flo", sealed=True)
    assert sorted(events.new_round(event_id, force=True).tables[0]) == ["Ann", "Bo", "Cy", "Di", "Flo"]
    events.record_result(event_id, 3, 1, "Flo > Ann > Bo = Cy > Di")
    # Points: Ann 5, Bo 5, Cy 7/2, Di 3/2, Ed 0, Flo 3; per round: Ann 5/3, Bo 5/3, Cy 7/6, Di 1/2, Ed 0, Flo 3.
    # Ann: Bo, Cy, Di three times, Ed and Flo once: (3*5/3 + 3*7/6 + 3*1/2 + 0 + 3) / 11 = 13/11; Bo the same.
    # Places: Ann 2, 1, 2 and Bo 1, 1, 3: 5/3 both: equal on all three, rank 1 shared.
    # Cy: (3*5/3 + 3*5/3 + 3*1/2 + 0 + 3) / 11 = 29/22.  Flo: (5/3 + 5/3 + 7/6 + 1/2) / 4 = 5/4.
    # Di: (5 + 5 + 7/2 + 0 + 3) / 11 = 3/2.  Ed: round 1's four, (5/3 + 5/3 + 7/6 + 1/2) / 4 = 5/4.
    assert table_of(events.standings(event_id)) == [
        (1, "Ann", 5, F(13, 11), F(5, 3), 3, False),
        (1, "Bo", 5, F(13, 11), F(5, 3), 3, False),
        (3, "Cy", F(7, 2), F(29, 22), 2, 3, False),
        (4, "Flo", 3, F(5, 4), 1, 1, False),
        (5, "Di", F(3, 2), F(3, 2), F(10, 3), 3, False),
        (6, "Ed", 0, F(5, 4), 5, 1, True),
    ]

    # Round 4: Di wins, Flo and Cy draw for 2nd-3rd ((2 + 1) / 2 = 3/2 each), Ann 4th, Bo 5th (0 each).
    events.new_round(event_id, force=True)
    events.record_result(event_id, 4, 1, "Di > Flo = Cy > Ann > Bo")
    # Points: Ann 5, Bo 5, Cy 5, Di 9/2, Flo 9/2, Ed 0; per round: Ann, Bo, Cy 5/4, Di 9/8, Flo 9/4, Ed 0.
    # Ann: four meetings each with Bo, Cy, Di, one with Ed, two with Flo: (5 + 5 + 9/2 + 0 + 9/2) / 15 = 19/15;
    # Bo and Cy the same.  Tie-breaker 2 settles them: Cy 2, 1, 3, 2 = 2; Ann 2, 1, 2, 4 = 9/4; Bo 1, 1, 3, 5 = 5/2.
    # Di and Flo on 9/2: tie-breaker 1, Di (5 + 5 + 5 + 0 + 9/2) / 15 = 13/10 ahead of Flo
    # (2*5/4 + 2*5/4 + 2*5/4 + 2*9/8) / 8 = 39/32.  Ed: (5/4 + 5/4 + 5/4 + 9/8) / 4 = 39/32.
    final = [
        (1, "Cy", 5, F(19, 15), 2, 4, False),
        (2, "Ann", 5, F(19, 15), F(9, 4), 4, False),
        (3, "Bo", 5, F(19, 15), F(5, 2), 4, False),
        (4, "Di", F(9, 2), F(13, 10), F(11, 4), 4, False),  # places 4, 1, 5, 1: 11/4
        (5, "Flo", F(9, 2), F(39, 32), F(3, 2), 2, False),  # places 1, 2
        (6, "Ed", 0, F(39, 32), 5, 1, True),
    ]
    assert table_of(events.standings(event_id)) == final
    events.finish(event_id)

    # The export as a script reads it (--json) and as a spreadsheet does (CSV): the same rows, figures rounded.
    db = str(events.store.path)
    rows = json.loads(cli("event", "standings", str(event_id), "--json", "--db", db).stdout)
    assert [(r["rank"], r["name"], r["points_exact"], r["dropped"]) for r in rows] == [
        (rank, name, str(F(points)), dropped) for rank, name, points, _, _, _, dropped in final
    ]
    assert [r["opponents_average"] for r in rows] == [round(float(row[3]), 4) for row in final]
    out = tmp_path / "standings.csv"
    assert (
        cli("event", "print", str(event_id), "standings", "--format", "csv", "--out", str(out), "--db", db).exit_code
        == 0
    )
    with out.open(newline="", encoding="utf-8") as handle:
        sheet = list(csv.DictReader(handle))
    assert [(row["rank"], row["player"], row["dropped"]) for row in sheet] == [
        (str(rank), name, str(int(dropped))) for rank, name, _, _, _, _, dropped in final
    ]
    assert [float(row["points"]) for row in sheet] == [float(row[2]) for row in final]
    assert [float(row["opponents_average"]) for row in sheet] == [round(float(row[3]), 4) for row in final]
    assert [float(row["average_place"]) for row in sheet] == [round(float(row[4]), 4) for row in final]


def test_a_dropped_player_coming_back_is_told_why_not_and_what_the_desk_can_do(events, cli):
    event_id = bots_seated(events, "Back", ["Ann", "Bo", "Cy", "Di"], seed=5)
    events.new_round(event_id, force=True)
    events.record_result(event_id, 1, 1, "Ann > Bo > Cy > Di")
    events.drop_player(event_id, "Di")
    said = (
        "'di' is player #4 'Di', who dropped after round 1: a dropped player isn't registered again; "
        f"'cmdraft event undo {event_id} --db {events.store.path}' takes the drop back while it is the desk's last change and no round has been "
        "paired without them; else they play on only as a new player, under another name"
    )
    with pytest.raises(InputError) as refused:
        events.add_player(event_id, "di")
    assert str(refused.value) == said
    # the desk's terminal: the same words on one line, exit 2 (bad input), nobody registered
    result = cli("event", "player", "add", str(event_id), "di", "--db", str(events.store.path))
    assert (result.exit_code, result.stderr) == (2, f"cmdraft: error: {said}\n")
    assert [p.name for p in events.snapshot(event_id).players] == ["Ann", "Bo", "Cy", "Di"]
    # and the undo it names does take her back while the drop is the desk's last change
    events.undo(event_id)
    events.new_round(event_id, force=True)
    assert events.standings(event_id)[-1].name == "Di" and not events.standings(event_id)[-1].dropped


def test_a_report_that_waits_only_for_a_player_who_left_mid_game_is_the_result_once_they_drop(events, cli):
    # Ann reports the table's order from her phone, Bo and Cy confirm; Di left mid-game without confirming and the
    # desk drops her: nobody is left to confirm, so the report is the table's result in the drop's transaction,
    # as the last confirmation would have made it (before, it waited for nobody, and the round could not close).
    event_id = bots_seated(events, "Left", ["Ann", "Bo", "Cy", "Di"], seed=5)
    events.new_round(event_id, force=True)
    ids = {p.name: p.id for p in events.snapshot(event_id).players}
    tables = TableReports(events.store)
    report = tables.report(event_id, ids["Ann"], [[ids["Ann"]], [ids["Cy"]], [ids["Bo"]], [ids["Di"]]], now=0.0)
    for name in ("Bo", "Cy"):
        assert not tables.confirm(event_id, ids[name], report.report, True, now=0.0).recorded
    dropped = cli("event", "player", "drop", str(event_id), "Di", "--db", str(events.store.path))
    assert dropped.exit_code == 0
    # Ann 3, Cy 2, Bo 1, Di 0: the round is closed and the next may be paired
    assert [(r.name, r.points) for r in events.standings(event_id)] == [("Ann", 3), ("Cy", 2), ("Bo", 1), ("Di", 0)]
    assert events.new_round(event_id, force=True).round == 2
    assert dropped.stdout.splitlines() == [
        "'Di' dropped",
        "Round 1 table 1: the report that waited only for them is its result now",
    ]


def test_a_drop_after_the_desk_recorded_the_table_over_a_waiting_report_keeps_the_desks_result(events):
    # The desk typed table 1's result from the paper while a phone's report there still waited for its last player;
    # that player then drops while another table plays on: the drop goes through and the desk's result stands
    # (the report waiting for them is no result to record over it).
    event_id = bots_seated(events, "Paper", ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"], seed=5)
    first, _ = events.new_round(event_id, force=True).tables
    ids = {p.name: p.id for p in events.snapshot(event_id).players}
    tables = TableReports(events.store)
    report = tables.report(event_id, ids[first[0]], [[ids[name]] for name in first], now=0.0)
    for name in first[1:3]:
        assert not tables.confirm(event_id, ids[name], report.report, True, now=0.0).recorded
    events.record_result(event_id, 1, 1, " > ".join(reversed(first)))  # the paper says otherwise
    dropped = events.drop_player(event_id, first[3])
    assert dropped.recorded == ()
    points = {row.name: row.points for row in events.standings(event_id)}
    assert [points[name] for name in reversed(first)] == [3, 2, 1, 0]


def test_a_drop_taken_back_takes_back_the_result_it_recorded_and_the_report_waits_for_the_player_again(events, cli):
    # The desk dropped Di by mistake while Ann's report waited only for her: the drop recorded it.  Undoing the drop
    # puts Di back at a table whose result she never confirmed: the result goes, the report waits for her again.
    event_id = bots_seated(events, "Mistake", ["Ann", "Bo", "Cy", "Di"], seed=5)
    events.new_round(event_id, force=True)
    ids = {p.name: p.id for p in events.snapshot(event_id).players}
    tables = TableReports(events.store)
    order = [[ids["Ann"]], [ids["Cy"]], [ids["Bo"]], [ids["Di"]]]
    report = tables.report(event_id, ids["Ann"], order, now=0.0)
    for name in ("Bo", "Cy"):
        tables.confirm(event_id, ids[name], report.report, True, now=0.0)
    assert events.drop_player(event_id, "Di").recorded
    undone = cli("event", "undo", str(event_id), "--db", str(events.store.path))
    assert undone.exit_code == 0, undone.output
    assert "round 1 table 1's report waits for their confirmation again" in " ".join(undone.stdout.split())
    assert [row.points for row in events.standings(event_id)] == [0, 0, 0, 0]  # no result: the round is open
    assert tables.confirm(event_id, ids["Di"], report.report, False, now=0.0).status == "disputed"  # hers to say
