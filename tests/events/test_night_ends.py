"""The night's ends: the final table's winner named wherever standings are shown (the desk's command, the room's
screen, the phones, the desk's page, the printouts), `event top` saying how it settled every tie on points, and a
dropped player's decklist printed, marked dropped."""

from __future__ import annotations

import csv
import io
import json
import re
from fractions import Fraction
from typing import Any

import msgspec
import pytest

from events.night.standings import Standing, tie_breaks
from events.night.table_reports import TableReports
from events.night.table_views import TableViews
from events.storage.store import Store
from tests.helpers.night import Night, bots_drafted

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
SCHEME = (Fraction(3), Fraction(2), Fraction(1), Fraction(0))  # the default placement points (docs: Standings)


def as_seen(value: object) -> Any:
    """A view as every face receives it: its JSON form."""
    return msgspec.to_builtins(value)


@pytest.fixture
def played(tmp_path):
    """Eight players, two rounds each table in seating order (first to last); nothing more."""
    events = Night(Store(tmp_path / "event.json"))
    event_id = bots_drafted(events, "Friday <b>", NAMES, seed=5)
    orders = []
    for number in (1, 2):
        for table, names in enumerate(events.new_round(event_id).tables, start=1):
            events.record_result(event_id, number, table, " > ".join(names))
            orders.append(names)
    return events, event_id, orders


def points_from(orders: list[list[str]]) -> dict[str, Fraction]:
    """Each player's points from finishing orders with no draws, by the scheme alone."""
    totals = dict.fromkeys(NAMES, Fraction(0))
    for names in orders:
        for place, name in enumerate(names):
            totals[name] += SCHEME[min(place, len(SCHEME) - 1)]
    return totals


def seat_final(events, event_id: int, size: int, order: list[int]) -> tuple[list[str], int]:
    """Seat the top ``size`` and record the final table's result in ``order`` (indices into the seated players;
    a nested list is a draw)."""
    final = TableReports(events.store).top(event_id, size)
    names = final.players
    text = " > ".join(
        " = ".join(names[i] for i in place) if isinstance(place, list) else names[place] for place in order
    )
    events.record_result(event_id, final.round, 1, text)
    return names, final.round


def test_the_winner_of_the_final_table_is_named_on_every_face(played, cli):
    events, event_id, _ = played
    db = str(events.store.path)
    names, _ = seat_final(events, event_id, 4, [2, 0, 1, 3])  # the third seat wins the final
    winner = names[2]
    line = f"Winner: {winner} (first at the final table)"

    shown = cli("event", "standings", str(event_id), "--db", db)
    assert shown.exit_code == 0 and line in shown.stdout
    rows = json.loads(cli("event", "standings", str(event_id), "--db", db, "--json").stdout)
    assert {row["player"]: row["final_place"] for row in rows if row["final_place"]} == {
        names[2]: 1,
        names[0]: 2,
        names[1]: 3,
        names[3]: 4,
    }
    views = TableViews(events.store)
    room = as_seen(views.room_view(event_id))
    assert room["winner"] == line
    assert [s["name"] for s in room["standings"] if s["final_place"] == 1] == [winner]
    ids = {p.name: p.id for p in events.players(event_id)}
    loser = next(name for name in NAMES if name not in names)
    assert views.table_view(event_id, ids[loser]).winner == line  # every phone, not only the finalists'
    assert as_seen(views.desk_view(event_id))["winner"] == line

    sheet = cli("event", "print", str(event_id), "standings", "--db", db)
    assert line in sheet.stdout and "1st: winner" in sheet.stdout
    html = cli("event", "print", str(event_id), "standings", "--format", "html", "--db", db).stdout
    assert line in html
    table = list(
        csv.DictReader(
            io.StringIO(cli("event", "print", str(event_id), "standings", "--format", "csv", "--db", db).stdout)
        )
    )
    assert {r["player"]: r["final_place"] for r in table if r["final_place"]} == {
        n: str(p) for n, p in zip([names[2], names[0], names[1], names[3]], (1, 2, 3, 4), strict=True)
    }
    results = cli("event", "print", str(event_id), "results", "--db", db).stdout
    assert "Final table (round 3, finished)" in results


def test_before_the_final_result_no_winner_is_named(played, cli):
    events, event_id, _ = played
    TableReports(events.store).top(event_id, 4)
    views = TableViews(events.store)
    assert as_seen(views.room_view(event_id))["winner"] is None
    assert all(row.final_place is None for row in events.standings(event_id))
    shown = cli("event", "standings", str(event_id), "--db", str(events.store.path))
    assert "Winner" not in shown.stdout and "Final table" not in shown.stdout


def test_a_draw_for_first_at_the_final_table_names_both(played):
    events, event_id, _ = played
    names, _ = seat_final(events, event_id, 4, [[1, 3], 0, 2])
    room = as_seen(TableViews(events.store).room_view(event_id))
    assert room["winner"] == f"Winners: {names[1]} and {names[3]} (shared first place at the final table)"
    places = {s["name"]: s["final_place"] for s in room["standings"] if s["final_place"]}
    assert places == {names[1]: 1, names[3]: 1, names[0]: 3, names[2]: 4}


def standing(name: str, points: int, opp: Fraction, place: Fraction | None, rank: int) -> Standing:
    return Standing(0, name, Fraction(points), opp, place, 2, False, rank)


@pytest.mark.parametrize(
    ("rows", "seated", "said"),
    [
        (  # equal points, told apart by the opponents' average
            [standing("Ann", 5, Fraction(3, 2), Fraction(2), 1), standing("Bo", 5, Fraction(1), Fraction(1), 2)],
            1,
            [
                "'Ann' takes the last seat ahead of 'Bo' (both 5 points) on tie-breaker 1, opponents' average (1.50 to 1.00)"
            ],
        ),
        (  # equal points and opponents' average: the average place (lower first)
            [
                standing("Cy", 4, Fraction(1), Fraction(3, 2), 1),
                standing("Ann", 4, Fraction(1), Fraction(5, 2), 2),
                standing("Bo", 1, Fraction(1), Fraction(3), 3),
            ],
            2,
            [
                "'Cy' sits ahead of 'Ann' (both 4 points) on tie-breaker 2, average place (1.50 to 2.50; lower is better)"
            ],
        ),
        (  # equal on everything: by name, a shared rank
            [standing("Ann", 4, Fraction(1), Fraction(2), 1), standing("Bo", 4, Fraction(1), Fraction(2), 1)],
            1,
            [
                "'Ann' takes the last seat ahead of 'Bo' (both 4 points) by name: equal on points and both tie-breakers, "
                "they share rank 1"
            ],
        ),
        (  # figures apart only in the third decimal are shown with it
            [standing("Ann", 4, Fraction(1001, 1000), Fraction(2), 1), standing("Bo", 4, Fraction(1), Fraction(2), 2)],
            1,
            [
                "'Ann' takes the last seat ahead of 'Bo' (both 4 points) on tie-breaker 1, opponents' average "
                "(1.001 to 1.000)"
            ],
        ),
        (  # points apart: nothing to say
            [standing("Ann", 6, Fraction(1), Fraction(2), 1), standing("Bo", 4, Fraction(2), Fraction(1), 2)],
            1,
            [],
        ),
    ],
)
def test_tie_breaks_say_which_tie_breaker_settled_each_tie(rows, seated, said):
    assert tie_breaks(rows, seated) == said


def test_event_top_says_how_every_tie_on_points_was_settled(played, cli):
    events, event_id, orders = played
    db = str(events.store.path)
    points = points_from(orders)
    shown = cli("event", "top", str(event_id), "4", "--db", db)
    assert shown.exit_code == 0, shown.output
    seated = [line.split("│")[2].strip() for line in shown.stdout.splitlines() if line.count("│") == 3]
    assert len(seated) == 4
    still_in = sorted(NAMES, key=lambda n: -points[n])  # only the points: which neighbours tie doesn't need more
    ranked = seated + [n for n in still_in if n not in seated]
    ties = [(a, b) for a, b in zip(ranked[:4], ranked[1:5], strict=True) if points[a] == points[b]]
    assert ties, "the two rounds leave no tie on points: choose another seed"
    told = [line for line in shown.stdout.splitlines() if " ahead of " in line]
    assert len(told) == len(ties)
    for (upper, lower), line in zip(ties, told, strict=True):
        assert line.startswith(f"'{upper}' ") and f" ahead of '{lower}' (both {points[upper]} points) " in line
        assert "tie-breaker 1" in line or "tie-breaker 2" in line or "by name" in line


def test_a_dropped_players_decklist_is_printed_marked_dropped(played, cli):
    events, event_id, _ = played
    db = str(events.store.path)
    events.drop_player(event_id, "Cy")
    text = cli("event", "print", str(event_id), "decklists", "--db", db).stdout
    assert "DECKLIST · Cy (dropped)" in text
    assert "DROPPED after round 2: this deck was registered and played" in text
    assert text.count("DECKLIST · ") == len(NAMES)  # the others' lists as before
    assert "DECKLIST · Ann\n" in text


def test_a_correction_after_the_final_table_is_seated_says_it_would_seat_another_and_the_advice_runs(tmp_path, cli):
    """Docs (Corrections): the desk is told which tables a correction would have paired differently; for a final
    table that is who the top N are.  The advice it gives must run: `round --again` refuses a final table."""
    events = Night(Store(tmp_path / "event.json"))
    event_id = bots_drafted(events, "Duels", ["Ann", "Bo", "Cy", "Di"], seed=8, one_v_one=True)
    (a, b), (c, d) = events.new_round(event_id).tables
    events.record_result(event_id, 1, 1, f"{a} > {b}")
    events.record_result(event_id, 1, 2, f"{c} > {d}")
    assert set(TableReports(events.store).top(event_id, 2).players) == {a, c}  # the two winners
    db = str(events.store.path)
    same = events.record_result(event_id, 1, 2, f"{c} > {d}", replace=True)
    assert same.next_round == 2 and same.would_change == []
    corrected = cli("event", "result", str(event_id), "1", "1", f"{b} > {a}", "--replace", "--db", db)
    assert corrected.exit_code == 0, corrected.output
    said = " ".join(corrected.stdout.split())
    assert "would have seated a different final table" in said, said
    assert "--again" not in said  # pairing again is refused for a final table
    advice = re.findall(r"'cmdraft ([^']*)'", said)
    assert advice == [f"event undo {event_id} --db {db}", f"event top {event_id} 2 --db {db}"], said
    # Follow it: undo this correction, the one before it, then the final table; correct again; seat it again.
    assert "undid: result of round 1 table 1" in cli("event", "undo", str(event_id), "--db", db).stdout
    assert "undid: result of round 1 table 2" in cli("event", "undo", str(event_id), "--db", db).stdout
    assert "round 2" in cli("event", "undo", str(event_id), "--list", "--db", db).stdout
    assert "undid: round 2" in cli("event", "undo", str(event_id), "--yes", "--db", db).stdout
    assert cli("event", "result", str(event_id), "1", "1", f"{b} > {a}", "--replace", "--db", db).exit_code == 0
    again = cli("event", "top", str(event_id), "2", "--db", db, "--json")
    assert again.exit_code == 0, again.output
    assert set(json.loads(again.stdout)["players"]) == {b, c}


def test_a_correction_of_an_earlier_round_after_the_final_table_is_seated_speaks_of_the_final_table(tmp_path, cli):
    """Docs (Corrections): after `event top`, a correction says whether it would have seated another final table,
    also when it corrects a round before the last one (it spoke of round 2 only, with `round --again` advice that
    can't re-pair a final table, while the final table it changed stayed unmentioned)."""
    events = Night(Store(tmp_path / "event.json"))
    event_id = bots_drafted(events, "Duels", ["Ann", "Bo", "Cy", "Di"], seed=8, one_v_one=True)
    (a, b), (c, d) = events.new_round(event_id).tables
    events.record_result(event_id, 1, 1, f"{a} > {b}")  # 1v1 at 3/2/1/0: a 3, b 2
    events.record_result(event_id, 1, 2, f"{c} > {d}")  # c 3, d 2
    tables = events.new_round(event_id).tables  # the two on 3 points meet, as do the two on 2
    assert sorted(map(sorted, tables)) == sorted([sorted([a, c]), sorted([b, d])])
    winners = (c, b)  # c 6, a 5 (opponents b 2.5 and c 3), b 5 (opponents a 2.5 and d 2), d 4
    for table, names in enumerate(tables, start=1):
        loser = next(name for name in names if name not in winners)
        winner = next(name for name in names if name in winners)
        events.record_result(event_id, 2, table, f"{winner} > {loser}")
    assert set(TableReports(events.store).top(event_id, 2).players) == {c, a}
    db = str(events.store.path)
    # b wins round 1 after all: b 3 + 3 = 6, c 6, a 2 + 2 = 4, d 4: the top two are b and c.
    corrected = cli("event", "result", str(event_id), "1", "1", f"{b} > {a}", "--replace", "--db", db)
    assert corrected.exit_code == 0, corrected.output
    said = " ".join(corrected.stdout.split())
    assert "would have seated a different final table" in said, said
    assert "--again" not in said, said
    assert f"event top {event_id} 2" in said, said
    as_json = cli("event", "result", str(event_id), "1", "1", f"{b} > {a}", "--replace", "--db", db, "--json")
    answer = json.loads(as_json.stdout)
    assert answer["next_round"] == 3 and answer["would_change"] == [1], answer


def test_the_final_standings_are_by_points_then_the_tie_breakers_on_every_face(played, cli):
    """Docs (Standings, the final table): the final table's result names the winner and stays out of the points and
    the tie-breakers, so the final standings keep the order of points, then the tie-breakers, on every face: the
    terminal, --json, the printed sheet and its CSV, the room display and every phone; the winner (here the final
    table's fourth seat) is named above them, not moved to the top."""
    events, event_id, orders = played
    db = str(events.store.path)
    names, _ = seat_final(events, event_id, 4, [3, 0, 1, 2])
    events.finish(event_id)
    rows = events.standings(event_id)
    ranked = [row.name for row in sorted(rows, key=lambda row: row.tie_key())]
    assert [row.name for row in rows] == ranked and ranked[0] != names[3]  # the winner stands where points put them
    points = points_from(orders)
    assert [points[name] for name in ranked] == sorted(points.values(), reverse=True)
    terminal = cli("event", "standings", str(event_id), "--db", db).stdout
    assert "Final standings" in terminal.replace("FINAL STANDINGS", "Final standings")
    table_rows = [
        line.split("│")[2].strip() for line in terminal.splitlines() if re.match(r"^│ *\d+(st|nd|rd|th) ", line)
    ]
    assert table_rows == ranked, terminal
    assert [
        row["name"] for row in json.loads(cli("event", "standings", str(event_id), "--db", db, "--json").stdout)
    ] == ranked
    printed = cli("event", "print", str(event_id), "standings", "--format", "csv", "--db", db).stdout
    assert [row["player"] for row in csv.DictReader(io.StringIO(printed))] == ranked
    views = TableViews(events.store)
    room = as_seen(views.room_view(event_id))
    assert room["standings_title"] == "Final standings" and [s["name"] for s in room["standings"]] == ranked
    ids = {p.name: p.id for p in events.players(event_id)}
    phone = as_seen(views.table_view(event_id, ids[names[3]]))
    assert phone["standing"]["name"] == names[3] and phone["standing"]["final_place"] == 1
