"""The event's pure rules without a database: table sizes, draft pods, pairing order, placement
points, tie-breakers, the Piper ledger's arithmetic and number text.

Every expected figure is worked out by hand from the rules written in the modules' docstrings
(events/night/rounds.py, events/night/standings.py, events/night/pipers.py), not from the code.  Records are the
record types (``events.storage.records``), made here without a database.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction

import msgspec
import pytest

from draft.decks import PIPER
from events.night.finishing_orders import split_order
from events.night.pipers import Request, ledger
from events.night.registration import parse_points
from events.night.rounds import game_table_sizes, meetings, pair_by_points
from events.night.schema import exact, number_text
from events.night.seating import draft_pod_sizes
from events.night.shown import standing_row
from events.night.snapshot import PlayerRow
from events.night.standings import (
    Standing,
    placement_points,
    point_totals,
    rank_standings,
    standings_of,
    tie_breaker_figure,
    tie_breaker_text,
)
from events.outputs.standings_sheets import standings_csv
from events.storage.records import DeckLine, DeckList, Event, Pod, Result, Round
from sets.errors import InputError, StateError

# --- table sizes ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "size", "tables"),
    [
        (8, 4, [4, 4]),
        (9, 4, [5, 4]),  # 9/4 is nearest 2 tables; 5 + 4
        (7, 4, [4, 3]),
        (6, 4, [3, 3]),
        (11, 4, [4, 4, 3]),  # 11/4 is nearest 3 tables
        (13, 4, [5, 4, 4]),  # 13/4 is nearest 3 tables; the extra seat goes to the first
        (5, 4, [5]),  # one table of five rather than a table of two
        (3, 4, [3]),
        (2, 4, [2]),  # two players can only play each other
        (10, 3, [4, 3, 3]),
        (12, 5, [4, 4, 4]),  # 12/5 is nearest 2 tables, but a table holds at most 5: 3 tables
    ],
)
def test_game_tables_hold_three_to_five_as_near_the_size_as_that_allows(players, size, tables):
    assert game_table_sizes(players, size) == tables


BASE_EVENT = {
    "name": "Logic",
    "date": "2026-01-01",
    "set": "CMR",
    "mode": "draft",
    "style": "physical",
    "pod_size": 8,
    "game_size": 4,
    "one_v_one": False,
    "timer": 0,
    "points": [3, 2, 1, 0],
    "piper_stock": 0,
    "status": "playing",
    "seed": 1,
}


def an_event(**fields) -> Event:
    """An event record for the pure rules (only the fields a rule reads matter)."""
    return msgspec.convert({**BASE_EVENT, **fields}, Event)


def a_player(**fields) -> PlayerRow:
    base = {"event": 1, "late": False, "bot": False, "pod": None, "seat": None, "number": fields.get("id", 1)}
    return msgspec.convert({**base, **fields}, PlayerRow)


def a_pod(**fields) -> Pod:
    return msgspec.convert({"event": 1, **fields}, Pod)


def rounds_of(*tables: list[list[int]]) -> list[Round]:
    """Rounds numbered from 1, each with its tables."""
    return [Round(event=1, number=n, tables=seats, status="closed") for n, seats in enumerate(tables, start=1)]


def test_every_count_of_players_fills_tables_of_three_to_five():
    for players in range(3, 41):
        sizes = game_table_sizes(players)
        assert sum(sizes) == players and all(3 <= s <= 5 for s in sizes), players
        assert max(sizes) - min(sizes) <= 1, players


def test_one_v_one_pairs_with_one_table_of_three_when_odd():
    assert game_table_sizes(6, one_v_one=True) == [2, 2, 2]
    assert game_table_sizes(7, one_v_one=True) == [3, 2, 2]


def test_a_round_needs_two_players():
    with pytest.raises(StateError):
        game_table_sizes(1)


@pytest.mark.parametrize(
    ("players", "most", "pods"),
    [
        (8, 8, [8]),
        (9, 8, [5, 4]),
        (16, 8, [8, 8]),
        (17, 8, [6, 6, 5]),
        (13, 6, [5, 4, 4]),
        (2, 8, [2]),
    ],
)
def test_draft_pods_are_balanced_and_never_over_the_pod_size(players, most, pods):
    assert draft_pod_sizes(players, most) == pods


# --- pairing by points ----------------------------------------------------------------------------------


def test_meetings_count_each_shared_table_both_ways():
    met = meetings(rounds_of([[1, 2, 3]], [[1, 2], [3, 4]]))
    assert met[(1, 2)] == met[(2, 1)] == 2
    assert met[(1, 3)] == met[(3, 4)] == met[(4, 3)] == 1
    assert met[(1, 4)] == 0 and met[(1, 1)] == 0


def test_tables_fill_from_the_top_when_nobody_has_met():
    totals = Counter({pid: 9 - pid for pid in range(1, 9)})  # player 1 leads, 8 is last
    assert pair_by_points(list(range(8, 0, -1)), totals, Counter(), [4, 4], random.Random(1)) == [
        [1, 2, 3, 4],
        [5, 6, 7, 8],
    ]


def test_a_seat_goes_to_the_nearest_candidate_who_has_met_the_table_least():
    totals = Counter({pid: 9 - pid for pid in range(1, 9)})
    # 1 has met 2 twice and 3 once; 2 and 3 have met once.  Table one: 1, then among 2-5 the least
    # met is 4 (first of 4 and 5); then among 2, 3, 5, 6: 5; then among 2, 3, 6, 7: 6.  Table two: 2,
    # then among 3, 7, 8 one who hasn't met 2: 7; then 8 before 3, who has.
    met = meetings(rounds_of([[1, 2, 3]], [[1, 2]]))
    assert pair_by_points(list(range(1, 9)), totals, met, [4, 4], random.Random(1)) == [[1, 4, 5, 6], [2, 7, 8, 3]]


def test_only_the_next_few_are_candidates():
    totals = Counter({pid: 9 - pid for pid in range(1, 9)})
    # 1 has met 2, 3, 4 and 5: the four candidates are equal, so 2 (the highest) sits; then 6, who
    # has met neither 1 nor 2, comes in from the window 3-6; then 7 from 3, 4, 5, 7.
    met = meetings(rounds_of(*([[1, other]] for other in (2, 3, 4, 5))))
    assert pair_by_points(list(range(1, 9)), totals, met, [4, 4], random.Random(1)) == [[1, 2, 6, 7], [3, 4, 5, 8]]


def test_players_equal_on_points_are_ordered_by_the_seeded_draw():
    totals = Counter({pid: 1 for pid in range(1, 7)})
    first = pair_by_points(list(range(1, 7)), totals, Counter(), [3, 3], random.Random(7))
    assert first == pair_by_points(list(range(1, 7)), totals, Counter(), [3, 3], random.Random(7))
    assert sorted(pid for table in first for pid in table) == list(range(1, 7))


# --- results and placement points -------------------------------------------------------------------------


def test_a_finishing_order_splits_into_places_and_draws():
    assert split_order("Ann > Bo = Cy > Di") == [["Ann"], ["Bo", "Cy"], ["Di"]]
    assert split_order('"A > B" > O\'Brien') == [["A > B"], ["O'Brien"]]
    with pytest.raises(InputError):
        split_order("Ann > > Bo")


def test_tied_players_share_the_average_of_the_places_they_cover():
    event = an_event(**{"points": [3, 2, 1, 0]})
    assert placement_points(event, [[1], [2, 3], [4]]) == {1: 3, 2: Fraction(3, 2), 3: Fraction(3, 2), 4: 0}
    assert placement_points(event, [[1, 2, 3, 4]]) == {pid: Fraction(3, 2) for pid in (1, 2, 3, 4)}
    # A fifth place is beyond the scheme: it gets the scheme's last figure.
    assert placement_points(event, [[1], [2], [3], [4], [5]]) == {1: 3, 2: 2, 3: 1, 4: 0, 5: 0}


def test_points_are_exact_fractions():
    event = an_event(**{"points": [0.3, 0.2, 0.1]})
    assert placement_points(event, [[1, 2, 3]]) == {pid: Fraction(1, 5) for pid in (1, 2, 3)}
    assert exact(0.1) == Fraction(1, 10)


def test_a_points_scheme_is_best_first_and_never_rising():
    assert parse_points("3, 2,1,0") == [3, 2, 1, 0]
    for bad in ("1,2", "3", "3,x"):
        with pytest.raises(InputError):
            parse_points(bad)


# --- standings ----------------------------------------------------------------------------------------------


def night() -> tuple[Event, list[PlayerRow], list[Result], list[Round]]:
    """Four players at one table twice, a bot that only drafted, and a late player who hasn't played."""
    event = an_event(**{"points": [3, 2, 1, 0]})
    players = [
        a_player(id=pid, name=name, status="active", bot=name == "Bot", requested=0)
        for pid, name in enumerate(["Ann", "Bo", "Cy", "Di", "Bot", "Eve"], start=1)
    ]
    rounds = rounds_of([[1, 2, 3, 4]], [[1, 2, 3, 4]])
    results = [
        Result(event=1, round=1, table=1, order=[[1], [2], [3], [4]]),
        Result(event=1, round=2, table=1, order=[[4], [2, 3], [1]]),
    ]
    return event, players, results, rounds


def test_points_add_up_over_the_results():
    event, _, results, _ = night()
    # Round 1: 3, 2, 1, 0.  Round 2: Di 3, Bo and Cy share 2nd and 3rd (3/2 each), Ann 0.
    assert point_totals(event, results) == {1: 3, 2: Fraction(7, 2), 3: Fraction(5, 2), 4: 3}


def test_standings_by_points_then_opponents_then_place_with_shared_ranks():
    event, players, results, rounds = night()
    rows = standings_of(event, players, results, rounds)
    # Per round: Ann 3/2, Bo 7/4, Cy 5/4, Di 3/2.  Everyone met the other three twice, so the
    # opponents' average is the mean of the other three: Ann (7/4+5/4+3/2)/3 = 3/2, Bo 17/12,
    # Cy 19/12, Di 3/2.  Places: Ann 1 and 4, Bo 2 and 2, Cy 3 and 2, Di 4 and 1.
    table = [(r.rank, r.name, r.points, r.opponents_average, r.average_place, r.rounds) for r in rows]
    assert table == [
        (1, "Bo", Fraction(7, 2), Fraction(17, 12), Fraction(2), 2),
        (2, "Ann", Fraction(3), Fraction(3, 2), Fraction(5, 2), 2),  # Ann and Di equal on all three: same rank, by name
        (2, "Di", Fraction(3), Fraction(3, 2), Fraction(5, 2), 2),
        (4, "Cy", Fraction(5, 2), Fraction(19, 12), Fraction(5, 2), 2),
        (5, "Eve", Fraction(0), Fraction(0), None, 0),  # hasn't played; the bot has no standing
    ]


def test_a_player_who_has_not_played_shows_a_dash_for_both_tie_breakers_on_every_face():
    event, players, results, rounds = night()
    rows = {r.name: r for r in standings_of(event, players, results, rounds)}
    eve, bo = rows["Eve"], rows["Bo"]
    assert eve.opponents_shown is None and bo.opponents_shown == Fraction(17, 12)
    assert tie_breaker_figure(eve.opponents_shown) == tie_breaker_figure(eve.average_place) == "–"
    assert "0.00" not in tie_breaker_text(eve) and tie_breaker_text(eve).startswith("Opp. avg – · Avg place –")
    assert standing_row(eve).opponents_average is None and standing_row(bo).opponents_average == 1.4167
    csv = {row[1]: row for row in standings_csv(list(rows.values())).rows}
    assert csv["Eve"][3:5] == ("", "") and csv["Bo"][3] == "1.4167"


def test_the_top_cuts_explanation_says_a_player_has_no_game_played_never_their_0_00():
    """A player on 0 points after a last place tied with a late player who has not played: "opponents' average
    (1.42 to 0.00)" showed the figure every other face writes as a dash."""
    from events.night.standings import tie_breaks

    last = Standing(1, "Ann", Fraction(0), Fraction(17, 12), Fraction(4), 1, False)
    late = Standing(2, "Late", Fraction(0), Fraction(0), None, 0, False)
    (line,) = tie_breaks([last, late], 1)
    assert "on tie-breaker 1: 'Late' has no game played" in line and "0.00" not in line


def test_tie_breakers_in_their_order():
    def row(name, points, opponents, place):
        return Standing(
            0, name, Fraction(points), Fraction(opponents), None if place is None else Fraction(place), 1, False
        )

    rows = [
        row("Xa", 3, 1, 2),
        row("Yo", 3, 1, Fraction(3, 2)),
        row("Zed", 3, 2, 3),
        row("Wu", 3, 1, None),
        row("Top", 4, 0, 4),
    ]
    ranked = rank_standings(rows)
    # Points first (Top), then the opponents' average (Zed), then the lower average place (Yo before
    # Xa), and a player without a place after those with one (Wu).
    assert [(r.rank, r.name) for r in ranked] == [(1, "Top"), (2, "Zed"), (3, "Yo"), (4, "Xa"), (5, "Wu")]


# --- the Piper ledger ------------------------------------------------------------------------------------------


def test_the_ledger_counts_holders_needs_lenders_and_the_forecast():
    event = an_event(**{"piper_stock": 0})
    players = [  # the Piper is card 1 of the event's set; TST:1 is another set's card 1
        {"id": 1, "name": "Ann", "status": "active", "requested": 0, "pod": 1},
        {"id": 2, "name": "Bo", "status": "active", "requested": 2, "pod": 1},
        {"id": 3, "name": "Cy", "status": "dropped", "requested": 0, "pod": 1},
        {"id": 4, "name": "Di", "status": "active", "requested": 1, "pod": 1},
    ]
    players = [a_player(**row) for row in players]
    pools = {1: ["1", "1*f", "TST:1", "5"], 2: ["5"], 3: ["1"]}
    decks = {
        1: DeckList(commanders=[DeckLine(PIPER, 1)]),
        2: DeckList(commanders=[DeckLine(PIPER)], main=[DeckLine(PIPER, 1), DeckLine("Forest", 30)]),
    }
    pods = [a_pod(**row) for row in [{"number": 1, "players": [1, 2, 3, 4], "draft": None, "opened_typed": 2}]]
    book = ledger(event, players, pods, pools, decks, "1")
    # Ann holds 2 and uses 1: 1 spare.  Bo holds none and uses 2: adds 2.  Cy dropped: her 1 is spare.
    assert book.held_in_pools == 3
    assert book.to_json()["decks"] == [
        {"player": "Ann", "owned": 2, "used": 1, "added": 0, "name": "Ann"},
        {"player": "Bo", "owned": 0, "used": 2, "added": 2, "name": "Bo"},
    ]
    assert (book.needed, book.unused, book.available, book.shortfall) == (2, 2, 2, 0)
    assert book.to_json()["lenders"] == [
        {"player": "Ann", "pod": 1, "spare": 1, "deck_registered": True, "dropped": False, "name": "Ann"},
        {"player": "Cy", "pod": 1, "spare": 1, "deck_registered": False, "dropped": True, "name": "Cy"},
    ]
    # Three pools recorded hold 3 Pipers; the 2 typed by hand disagree.
    assert book.to_json()["pods"] == [
        {"pod": 1, "opened": 3, "pools_recorded": 3, "seats": 4, "typed": 2, "disagrees": True}
    ]
    # Forecast: Di's request of 1 (Bo's deck is registered: it adds 2, and his request no longer counts), so 1 + 2
    # needed from others; spare by then: Ann 2 - 1 used, Cy's 1: 2 available, so 1 short.
    assert book.to_json()["forecast"] == {
        "requested": 1,
        "needed_from_others": 3,
        "available": 2,
        "shortfall": 1,
        "requests": [{"player": "Di", "requested": 1, "name": "Di"}],
        "spent": False,  # not every active player's deck is registered: the forecast still counts
    }
    # ``event pipers --json`` prints the fields in this order (scripts and diffs of saved output rely on it)
    printed = json.loads(json.dumps(book.to_json()))
    assert list(printed) == [
        *("card", "word", "words", "pods", "held_in_pools", "stock", "decks", "needed", "unused", "available"),
        *("shortfall", "lenders", "forecast"),
    ]
    assert list(printed["forecast"]) == [
        "requested",
        "needed_from_others",
        "available",
        "shortfall",
        "spent",
        "requests",
    ]
    assert list(printed["pods"][0]) == ["pod", "opened", "pools_recorded", "seats", "typed", "disagrees"]
    assert list(printed["lenders"][0]) == ["player", "pod", "spare", "deck_registered", "dropped", "name"]


def test_the_forecast_counts_every_requested_piper_as_added():
    """``--request NAME=N``: the Pipers a player plans to add.  Worked by hand:

    Ann holds 2 Pipers and asks to add 2; Bo holds 1, asked for 1, then registered a deck leading with his own (it
    adds none: his deck says so, his request no longer counts); Cy holds 1 and asks for nothing; Di dropped holding
    1 and asking 2 (a dropped player's request doesn't count); the store has 1.
    Requested: Ann 2, all added, so 2 are needed from others (not 2 - Ann's own 2 = 0), + 0 Bo's deck adds.
    Could be lent: Ann 2 (no deck yet) + Bo 0 (his 1 is in his deck) + Cy 1 + Di 1 = 4 unused, + 1 stock = 5.
    Short: 2 - 5 < 0, so 0.  With no stock and Cy's pool not recorded: 3 unused, still enough; with only Bo's
    and Di's pools: 1 unused, 1 short.
    """
    players = [
        {"id": 1, "name": "Ann", "status": "active", "requested": 2, "pod": 1},
        {"id": 2, "name": "Bo", "status": "active", "requested": 1, "pod": 1},
        {"id": 3, "name": "Cy", "status": "active", "requested": 0, "pod": 1},
        {"id": 4, "name": "Di", "status": "dropped", "requested": 2, "pod": 1},
    ]
    players = [a_player(**row) for row in players]
    pools = {1: ["1", "1"], 2: ["1", "7"], 3: ["1*f"], 4: ["1"]}
    decks = {2: DeckList(commanders=[DeckLine(PIPER, 1)])}
    book = ledger(an_event(**{"piper_stock": 1}), players, [], pools, decks, "1")
    forecast = book.forecast
    assert (forecast.requested, forecast.needed_from_others, forecast.available, forecast.shortfall) == (
        2,
        2,
        5,
        0,
    )
    assert forecast.requests == [Request(player="Ann", requested=2, name="Ann")]
    without_cy = {k: v for k, v in pools.items() if k != 3}
    no_cy = ledger(an_event(**{"piper_stock": 0}), players, [], without_cy, decks, "1").forecast
    assert (no_cy.needed_from_others, no_cy.available, no_cy.shortfall) == (2, 3, 0)
    few = ledger(an_event(**{"piper_stock": 0}), players, [], {2: pools[2], 4: pools[4]}, decks, "1").forecast
    assert (few.needed_from_others, few.available, few.shortfall) == (2, 1, 1)


def test_the_forecast_counts_what_registered_decks_add_beside_the_requests_still_open():
    """Before: the forecast counted requests alone.  Ann registered a deck adding 2 Pipers with no request, Bo asks
    to add 2, Cy holds 3 in his pool and plays none, the store has none: 4 will be added and 3 can be lent, 1
    short, but the forecast said 2 requested against 3, nothing short, and the ledger itself (2 needed) nothing
    either, so the desk was warned of nothing until Bo's deck came in."""
    players = [
        a_player(id=1, name="Ann", status="active", requested=0, pod=1),
        a_player(id=2, name="Bo", status="active", requested=2, pod=1),
        a_player(id=3, name="Cy", status="active", requested=0, pod=1),
    ]
    pools = {1: ["5"], 2: ["5"], 3: ["1", "1", "1"]}
    decks = {1: DeckList(commanders=[DeckLine(PIPER, 2)])}
    book = ledger(an_event(**{"piper_stock": 0}), players, [], pools, decks, "1")
    assert (book.needed, book.available, book.shortfall) == (2, 3, 0)
    forecast = book.forecast
    assert (forecast.requested, forecast.needed_from_others, forecast.available, forecast.shortfall) == (2, 4, 3, 1)
    assert forecast.requests == [Request(player="Bo", requested=2, name="Bo")] and not forecast.spent


def test_the_store_stock_covers_a_shortfall():
    event = an_event(**{"piper_stock": 1})
    players = [a_player(id=1, name="Ann", status="active", requested=0, pod=None)]
    book = ledger(event, players, [], {1: []}, {1: DeckList(commanders=[DeckLine(PIPER, 2)])}, "1")
    assert (book.needed, book.available, book.shortfall) == (2, 1, 1)


# --- numbers for people ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(7, 3), "2.33"),
        (Fraction(5, 2), "2.5"),
        (3, "3"),
        (None, ""),
        (Fraction(-1, 3), "-0.33"),
        (Fraction(1, 8), "0.12"),  # 12.5 hundredths: half to even
        (Fraction(3, 8), "0.38"),  # 37.5 hundredths: half to even
    ],
)
def test_number_text(value, text):
    assert number_text(value) == text


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (Fraction(9, 8), "1.13"),  # 1.125: an exact half, rounded up as a judge does by hand (a float said 1.12)
        (Fraction(1, 8), "0.13"),
        (Fraction(17, 12), "1.42"),
        (Fraction(2, 3), "0.67"),
        (Fraction(3), "3.00"),
        (Fraction(0), "0.00"),
        (Fraction(1, 400), "0.00"),  # 0.0025: under a half of a hundredth
        (Fraction(1, 200), "0.01"),  # 0.005: the half
    ],
)
def test_a_tie_breaker_is_shown_to_two_decimals_an_exact_half_rounded_up(value, shown):
    assert tie_breaker_figure(value) == shown
