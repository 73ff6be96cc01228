"""The rest of the night from the players' tables (no web): reports, confirmations, disputes the desk settles,
dropping oneself, late results, the tracker from the table, live standings, the room's data and the final table."""

from __future__ import annotations

import json
from collections import defaultdict
from fractions import Fraction
from typing import Any

import msgspec
import pytest
from msgspec import UnsetType

from draft.formats import parse
from events.night.room_shown import room_views
from events.night.round_clock import start_clock
from events.night.shown import standing_row
from events.night.table_reports import Confirmed, NotYourTable, TableReports
from events.night.table_views import TableViews
from events.screens.boards import deck_board
from events.storage.store import Store
from sets.colors import Color
from sets.errors import InputError, StateError
from tests.helpers.night import Night, bots_drafted, drafted_by_bots
from tests.helpers.nights import codes_of, start, terminal_night

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu", "Mo"]
START = 1_800_000_000.0
MINUTES = 50


def as_seen(value: object) -> Any:
    """A view as every face receives it: its JSON form."""
    return msgspec.to_builtins(value)


@pytest.fixture
def night(tmp_path):
    events = Night(Store(tmp_path / "event.json"))
    event_id = bots_drafted(events, "Friday", NAMES, seed=11)
    return events, event_id, TableReports(events.store), TableViews(events.store)


def ids(events, event_id):
    return {p.name: p.id for p in events.players(event_id)}


def expected_standings(points_scheme, players, tables, results):
    """Standings recomputed from the rules alone (README "Standings"): placement points with draws sharing the
    average of the places they cover; then the average per-round points of every opponent met (each meeting);
    then the average finishing place, lower first; names break exact ties.  ``results`` maps (round, table) to
    groups of names; ``tables`` maps (round, table) to the names seated there."""
    scheme = [Fraction(str(p)) for p in points_scheme]
    points = defaultdict(Fraction)
    played = defaultdict(int)
    places = defaultdict(list)
    for groups in results.values():
        place = 0
        for group in groups:
            covered = [scheme[min(i, len(scheme) - 1)] for i in range(place, place + len(group))]
            for name in group:
                points[name] += sum(covered) / len(covered)
                played[name] += 1
                places[name].append(place + 1)
            place += len(group)
    per_round = {n: points[n] / played[n] if played[n] else Fraction(0) for n in players}
    rows = []
    for name in players:
        met = [o for key in results for o in tables[key] if name in tables[key] and o != name]
        opp = sum((per_round[o] for o in met), Fraction(0)) / len(met) if met else Fraction(0)
        avg = Fraction(sum(places[name]), len(places[name])) if places[name] else None
        rows.append((-points[name], -opp, avg is None, avg or 0, name.casefold(), name))
    return [row[-1] for row in sorted(rows)]


PRIVATE = {"code", "codes", "commanders", "cards", "pool", "deck", "main", "sideboard", "token"}


def keys_of(value) -> set[str]:
    """Every key of a JSON value, at any depth."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_of(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_of(v)}
    return set()


def report_and_confirm(reports, event_id, by, groups, pid, now):
    """One player reports, every other player at the table confirms."""
    order = [[pid[name] for name in group] for group in groups]
    done = reports.report(event_id, pid[by], order, now=now)
    last = None
    for name in [n for group in groups for n in group if n != by]:
        last = reports.confirm(event_id, pid[name], done.report, True, now=now)
    return done.report, last


def test_a_whole_night_of_thirteen_players_from_their_tables(night):
    events, event_id, reports, views = night
    pid = ids(events, event_id)
    room = as_seen(views.room_view(event_id, now=START))
    assert [len(pod["players"]) for pod in room["seatings"]] == [7, 6]
    assert room["standings"] == []  # no result yet: not thirteen rows all "1." with no game played
    assert sorted(n for pod in room["seatings"] for n in pod["players"]) == sorted(NAMES)

    seated: dict[tuple[int, int], list[str]] = {}
    recorded: dict[tuple[int, int], list[list[str]]] = {}
    disputed_once = dropped_once = late_once = False
    for number in (1, 2, 3):
        paired = events.new_round(event_id)
        start_clock(events, event_id, MINUTES, now=START + number * 10_000)
        begun = START + number * 10_000
        for table, names in enumerate(paired.tables, start=1):
            seated[(number, table)] = names
        # Every player's phone shows their table, the others there with commanders, and who goes first.
        for table, names in enumerate(paired.tables, start=1):
            for name in names:
                view = views.table_view(event_id, pid[name], now=begun + 60)
                assert view.round is not None
                at = view.round
                assert at.number == number and at.table == table
                assert [p.name for p in at.players] == names
                assert all(p.commanders for p in at.players)
                assert at.first == paired.first[table - 1]
                assert at.clock is not None and at.clock.remaining == MINUTES * 60 - 60
        for table, names in enumerate(paired.tables, start=1):
            groups = [[n] for n in names]
            if table == 1:
                groups = [names[1:3], *[[n] for n in names[3:]], [names[0]]]  # a draw for first
            if number == 1 and table == 2 and not disputed_once:
                # One player disputes with their own version; the desk sees both and settles.
                other = [[names[1]], [names[0]], *[[n] for n in names[2:]]]
                report = reports.report(event_id, pid[names[0]], [[pid[n] for n in g] for g in groups], now=begun)
                reports.confirm(event_id, pid[names[2]], report.report, True, now=begun)
                answer = reports.confirm(
                    event_id, pid[names[1]], report.report, False, [[pid[n] for n in g] for g in other], now=begun
                )
                assert answer == Confirmed(
                    report.report, "disputed", False, f"{names[1]} disputed the result: the desk settles it"
                )
                desk = as_seen(views.desk_view(event_id, now=begun + 100))
                row = desk["round"]["tables"][table - 1]
                assert row["status"] == "disputed" and row["result"] is None
                assert row["report"]["waiting_for"] == names[3:]  # neither the reporter, a confirmer nor the disputer
                assert [[p["name"] for p in g] for g in row["report"]["order"]] == groups
                assert row["report"]["disputes"] == [
                    {
                        "player": names[1],
                        "order": [[{"id": pid[n], "name": n} for n in g] for g in other],
                        "words": f"{names[1]} disputes it, with this version:",
                    }
                ]
                # Nobody else's confirmation records a disputed result.
                for name in names[3:]:
                    assert not reports.confirm(event_id, pid[name], report.report, True, now=begun).recorded
                reports.settle(event_id, number, table, " > ".join(" = ".join(g) for g in other))
                recorded[(number, table)] = other
                disputed_once = True
                continue
            if number == 2 and table == len(paired.tables) and not late_once:
                # A result reported after the clock ran out: the desk sees the table waiting, then it is confirmed.
                after = begun + MINUTES * 60 + 30
                report = reports.report(event_id, pid[names[-1]], [[pid[n] for n in g] for g in groups], now=after)
                assert as_seen(views.desk_view(event_id, now=after))["round"]["tables"][table - 1]["status"] == "desk"
                for name in names[:-1]:
                    reports.confirm(event_id, pid[name], report.report, True, now=after)
                recorded[(number, table)] = groups
                with events.store.read() as db:
                    assert db.table("reports").get(doc_id=report.report)["late"] is True
                late_once = True
                continue
            report_id, last = report_and_confirm(reports, event_id, names[0], groups, pid, now=begun + 600)
            assert last.recorded and last.status == "recorded"
            recorded[(number, table)] = groups
        # Standings are live, in the order of the rules recomputed independently.
        live = [row.name for row in events.standings(event_id)]
        assert live == expected_standings(events.event(event_id).points, NAMES, seated, recorded)
        assert [row["name"] for row in as_seen(views.room_view(event_id, now=begun))["standings"]] == live
        if number == 1 and not dropped_once:
            # A player drops themselves between rounds: the next round pairs the other twelve.
            dropped_player = live[-1]
            events_dropped = reports.drop_self(event_id, pid[dropped_player])
            assert events_dropped.player.status == "dropped"
            assert events.history(event_id)[-1].who == f"browser {dropped_player}"
            assert dropped_player in [d["name"] for d in as_seen(views.desk_view(event_id))["dropped"]]
            dropped_once = True
    assert disputed_once and dropped_once and late_once
    assert sum(len(t) for (r, _), t in seated.items() if r == 2) == 12
    # Every result from a table is in the history as the reporter's, exactly as 'event result' logs it.
    logged = [e for e in events.history(event_id) if e.what == "result"]
    assert len(logged) == len(recorded)
    assert sum(e.who == "desk" for e in logged) == 1
    assert all(e.who.startswith("browser ") for e in logged if e.who != "desk")
    assert {e.new for e in logged} == {" > ".join(" = ".join(g) for g in groups) for groups in recorded.values()}

    before = [msgspec.to_builtins(standing_row(row)) for row in events.standings(event_id)]
    final = reports.top(event_id, 4)
    assert final.players == [row["name"] for row in before if not row["dropped"]][:4]
    assert final.first == final.players[0]
    view = views.table_view(event_id, pid[final.players[2]], now=START + 50_000)
    assert view.round is not None and view.round.final and view.round.table == 1
    order = [[pid[n]] for n in reversed(final.players)]
    report = reports.report(event_id, pid[final.players[3]], order, now=START + 50_000)
    for name in final.players[:3]:
        reports.confirm(event_id, pid[name], report.report, True, now=START + 50_000)
    with events.store.read() as db:
        assert db.table("results").get(lambda d: d["round"] == final.round)["order"] == order
    after = [msgspec.to_builtins(standing_row(row)) for row in events.standings(event_id)]
    # the final's result is its own: the standings stay as they were, and only name each finalist's place there
    assert [{k: v for k, v in row.items() if not k.startswith("final_place")} for row in after] == [
        {k: v for k, v in row.items() if not k.startswith("final_place")} for row in before
    ]
    places = {row["name"]: row["final_place"] for row in after if row["final_place"] is not None}
    assert places == {name: 4 - i for i, name in enumerate(final.players)}  # the order reported: last seat won
    words = {row["name"]: row["final_place_text"] for row in after if row["final_place"] is not None}
    assert words == dict(zip(final.players, ["4th", "3rd", "2nd", "1st"], strict=True))  # as every face writes them
    events.finish(event_id)


def test_a_player_acts_only_for_their_own_table(night):
    events, event_id, reports, views = night
    pid = ids(events, event_id)
    paired = events.new_round(event_id)
    one, two = paired.tables[0], paired.tables[1]
    report = reports.report(event_id, pid[one[0]], [[pid[n]] for n in one], now=START)
    with pytest.raises(NotYourTable, match="another table"):
        reports.confirm(event_id, pid[two[0]], report.report, True, now=START)
    with pytest.raises(InputError, match="not at this table"):
        reports.report(event_id, pid[two[0]], [[pid[n]] for n in one], now=START)
    with pytest.raises(InputError, match="every player at the table"):
        reports.report(event_id, pid[one[0]], [[pid[n]] for n in one[:-1]], now=START)
    with pytest.raises(InputError, match="list of places"):
        reports.report(event_id, pid[one[0]], [[str(pid[n])] for n in one], now=START)
    # A new report replaces the waiting one: confirming the old one is refused.
    again = reports.report(event_id, pid[one[1]], [[pid[n]] for n in reversed(one)], now=START)
    with pytest.raises(StateError, match="replaced"):
        reports.confirm(event_id, pid[one[2]], report.report, True, now=START)
    for name in one[:1] + one[2:]:
        reports.confirm(event_id, pid[name], again.report, True, now=START)
    with pytest.raises(StateError, match="already has its result"):
        reports.report(event_id, pid[one[0]], [[pid[n]] for n in one], now=START)
    # The room's data holds no seat code and nothing but names, tables, the clock and standings.
    text = msgspec.json.encode(views.room_view(event_id, now=START)).decode()
    for player in events.players(event_id):
        assert not player.code or player.code not in text
    assert not keys_of(as_seen(views.room_view(event_id, now=START))) & PRIVATE


def test_pairings_on_the_room_display_are_by_name_and_the_clock_has_each_tables_extra_time(night):
    events, event_id, reports, views = night
    paired = events.new_round(event_id)
    start_clock(events, event_id, MINUTES, now=START)
    reports.extra_time(event_id, 2, 5)
    room = as_seen(views.room_view(event_id, now=START + 60))
    names = [row["name"] for row in room["round"]["pairings"]]
    assert names == sorted(NAMES, key=str.casefold)
    assert {row["name"]: row["table"] for row in room["round"]["pairings"]} == {
        name: table for table, names in enumerate(paired.tables, start=1) for name in names
    }
    assert room["round"]["clock"]["remaining"] == MINUTES * 60 - 60
    desk = as_seen(views.desk_view(event_id, now=START + MINUTES * 60 + 1))
    assert [row["status"] for row in desk["round"]["tables"]] == ["desk", "playing", "desk"]
    assert desk["round"]["tables"][1]["clock"]["remaining"] == 5 * 60 - 1
    assert events.history(event_id)[-1].what == "extra time"


def test_the_tracker_from_the_table_is_optional_and_undoes_only_ones_own_entry(night):
    events, event_id, reports, views = night
    pid = ids(events, event_id)
    table = events.new_round(event_id).tables[0]
    a, b = table[0], table[1]
    with pytest.raises(StateError, match="kept at the desk"):
        reports.track(event_id, pid[a], life={a: -3})
    reports.set_table_tracker(event_id, True)
    reports.track(event_id, pid[a], life={a: -3})
    at_b = views.table_view(event_id, pid[b]).round
    assert at_b is not None
    commander = at_b.players[1].commanders[0]
    taxed = reports.track(event_id, pid[b], life={b: -7}, casts=[(b, commander)])
    assert taxed.players[1].tax[0].tax == 2  # one cast from the command zone: {2} more next time
    board = reports.track(event_id, pid[a], undo=True)
    life = {row.player: row.life for row in board.players}
    assert life[a] == 40 and life[b] == 33  # a's own entry taken back, b's kept
    assert board.players[1].tax[0].casts == 1
    with pytest.raises(StateError, match="that you entered"):
        reports.track(event_id, pid[a], undo=True)
    assert [e.who for e in events.history(event_id)[-3:]] == [f"browser {a}", f"browser {b}", f"browser {a}"]
    at_table = views.table_view(event_id, pid[a]).round
    assert at_table is not None and not isinstance(at_table.game, UnsetType) and at_table.game.players[1].life == 33


def test_a_final_table_needs_closed_rounds_and_seats_one_commander_pod(night):
    """Before: 2 to 8 at a game size of 4 (2 and 8 make no commander pod); RULES 1: pods of 3 to 5, 1v1 allowed."""
    events, event_id, reports, views = night
    with pytest.raises(StateError):
        reports.top(event_id, 4)
    events.new_round(event_id)
    with pytest.raises(StateError, match="needs its result"):
        reports.top(event_id, 4)
    for size in (2, 6, 8, 9):
        with pytest.raises(InputError, match=rf"a final table seats 3 to 5 players \(one commander pod\), not {size}$"):
            reports.top(event_id, size)
    duel = events.create("Duels", style="bots", one_v_one=True, seed=1)
    for size in (3, 4):
        with pytest.raises(InputError, match=rf"a final table seats 2 players in a 1v1 event, not {size}$"):
            reports.top(duel, size)
    with pytest.raises(StateError):  # the size is right; the event isn't playing yet
        reports.top(duel, 2)


def test_event_top_prints_the_final_table_and_its_result_is_recorded_as_any_other(night, cli):
    events, event_id, reports, views = night
    db = str(events.store.path)
    for number in (1, 2):
        for table, names in enumerate(events.new_round(event_id).tables, start=1):
            events.record_result(event_id, number, table, " > ".join(names))
    before = cli("event", "standings", str(event_id), "--db", db, "--json")
    ranked = [row["name"] for row in json.loads(before.stdout)]
    shown = cli("event", "top", str(event_id), "5", "--db", db)
    assert shown.exit_code == 0, shown.output
    assert "Final table: round 3, table 1" in shown.stdout and f"{ranked[0]} goes first" in shown.stdout
    assert [line.split("│")[2].strip() for line in shown.stdout.splitlines() if line.count("│") == 3] == ranked[:5]
    again = cli("event", "top", str(event_id), "5", "--db", db)
    assert again.exit_code == 3 and "already seated" in again.stderr
    board = cli("event", "show", str(event_id), "--db", db).stdout  # the desk's board names it as the sheets do
    assert "Final table (round 3, open)" in board and "Round 3 (open)" not in board
    # the desk takes the final table back (a round's pairing: confirmed with --yes off a terminal), and seats it again
    undone = cli("event", "undo", str(event_id), "--yes", "--db", db)
    assert undone.exit_code == 0 and "its pairing is taken back" in undone.stdout
    assert cli("event", "top", str(event_id), "5", "--db", db).exit_code == 0
    order = " > ".join(reversed(ranked[:5]))
    assert cli("event", "result", str(event_id), "3", "1", order, "--db", db).exit_code == 0
    after = json.loads(cli("event", "standings", str(event_id), "--db", db, "--json").stdout)
    assert [{**row, "final_place": None, "final_place_text": None} for row in after] == json.loads(before.stdout)
    assert [row["name"] for row in after if row["final_place"] == 1] == [ranked[4]]
    assert cli("event", "round", str(event_id), "--db", db).exit_code == 3
    assert cli("event", "finish", str(event_id), "--db", db).exit_code == 0
    with pytest.raises(StateError, match="where the desk publishes"):
        as_seen(views.public_decklists(event_id))  # finished, but not published
    reports.set_publish_decklists(event_id, True)
    lists = as_seen(views.public_decklists(event_id))
    assert [d["name"] for d in lists] == ranked and all(d["commanders"] for d in lists)


@pytest.mark.parametrize(
    "pipers",
    ["1 The Prismatic Piper\n1 The Prismatic Piper", "2 The Prismatic Piper"],
    ids=["two lines", "one line of 2"],
)
def test_a_published_decklist_says_the_color_chosen_for_each_piper_leading_it(night, pipers):
    """RULES: each Piper added as a commander takes a color of its own; the published decklist (the room's page)
    says which, in the order they were chosen, as the printed sheet does, however the file wrote the two; no other
    line has a color."""
    events, event_id, reports, views = night
    two = parse(f"Commander\n{pipers}\n\nDeck\n58 Swamp\n")
    events.register_deck(event_id, NAMES[0], two, piper_colors=[Color.B, Color.R])
    for number in (1, 2):
        for table, names in enumerate(events.new_round(event_id).tables, start=1):
            events.record_result(event_id, number, table, " > ".join(names))
    events.finish(event_id)
    reports.set_publish_decklists(event_id, True)
    lists = {d["name"]: d for d in as_seen(views.public_decklists(event_id))}
    commanders = lists[NAMES[0]]["commanders"]
    assert [(c["name"], c.get("chosen_color")) for c in commanders] == [
        ("The Prismatic Piper", "black"),
        ("The Prismatic Piper", "red"),
    ]
    others = [(d["name"], part, line) for d in lists.values() for part in ("commanders", "main") for line in d[part]]
    colored = [(name, part, line["name"]) for name, part, line in others if "chosen_color" in line]
    # Only a Piper leading a deck has a color: this player's two, and any a bot's deck leads with.
    assert all(part == "commanders" and card == "The Prismatic Piper" for _, part, card in colored), colored
    assert sum(1 for name, _, _ in colored if name == NAMES[0]) == 2


def test_the_table_shows_each_of_two_pipers_with_the_color_chosen_for_it(night):
    """RULES: each Piper leading a deck takes a color of its own; at the table (a player's phone) each Piper is named
    with its color, in the order the colors were chosen, so the others see what each can cast; another commander,
    or a player without a deck, has none."""
    events, event_id, reports, views = night
    two = parse("Commander\n1 The Prismatic Piper\n1 The Prismatic Piper\n\nDeck\n58 Swamp\n")
    events.register_deck(event_id, NAMES[0], two, piper_colors=[Color.B, Color.R])
    pipers_table = next(table for table in events.new_round(event_id).tables if NAMES[0] in table)
    others = [name for name in pipers_table if name != NAMES[0]]
    viewer = ids(events, event_id)[others[0]]
    seated = {p["name"]: p for p in as_seen(views.table_view(event_id, viewer))["round"]["players"]}
    assert seated[NAMES[0]]["commanders"] == ["The Prismatic Piper", "The Prismatic Piper"]
    assert seated[NAMES[0]]["colors"] == ["black", "red"]
    assert any(seated[name]["commanders"] for name in others)  # their own commanders (bots_drafted registers decks)
    for name in others:
        assert len(seated[name]["colors"]) == len(seated[name]["commanders"])
        assert all(color is None for color in seated[name]["colors"])


def test_the_desk_sees_who_has_registered_a_deck_in_the_deck_boards_words(tmp_path):
    """While decks are registered the desk's page says who has one, who registered one with problems and who has
    none yet, in the words the terminal's deck board says (its caption); a dropped player registers none; once round
    1 is paired and every player has a deck it says nothing more."""
    events = Night(Store(tmp_path / "event.json"))
    event_id = drafted_by_bots(events, "Friday", NAMES, seed=11)
    views = TableViews(events.store)
    assert views.desk_view(event_id).decks == f"0 of 13 decks registered; not yet: {', '.join(NAMES)}"
    assert events.register_deck(event_id, "Ann", auto=True).valid
    small = parse("Commander\n1 The Prismatic Piper\n\nDeck\n10 Swamp\n")
    assert not events.register_deck(event_id, "Cy", small, piper_colors=[Color.B]).valid
    events.drop_player(event_id, "Mo")
    words = "2 of 12 decks registered, 1 with problems (Cy); not yet: " + ", ".join(
        name for name in NAMES if name not in ("Ann", "Cy", "Mo")
    )
    assert views.desk_view(event_id).decks == words
    assert str(deck_board(events.snapshot(event_id)).caption) == words
    for name in NAMES[1:12]:
        if name != "Cy":
            events.register_deck(event_id, name, auto=True)
    view = views.desk_view(event_id)
    assert view.decks == "12 of 12 decks registered, 1 with problems (Cy)" and "pair-anyway" in view.actions
    with pytest.raises(StateError, match="^no legal deck registered for 'Cy'"):
        events.new_round(event_id)
    events.new_round(event_id, force=True)
    assert views.desk_view(event_id).decks is None


def test_the_room_shows_each_pods_draft_progress_and_nothing_of_the_packs(tmp_path, cli):
    db = tmp_path / "drafting.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", "Cy", bots=1)
    start(cli, db, event_id)
    events = Night(Store(db))
    session = events.draft_session(event_id, 1)
    picked = session.waiting_humans()[:2]
    for seat in picked:
        session.pick(session.suggested_pick(seat))
    (bot,) = set(range(4)) - set(session.humans)
    room = as_seen(TableViews(events.store).room_view(event_id, now=START))
    # 4 seats, 3 packs of 20 cards taken two at a time: 4 * 3 * 10 picks in all; bots pick at once.
    (pod,) = room["drafts"]
    assert (pod["pod"], pod["pack"], pod["packs"], pod["picks_total"]) == (1, 1, 3, 120)
    # the two picks made here, the bot's first, and the bot's pick of a pack passed on to it (pack 1 passes left;
    # a bot takes a pack as soon as it reaches it)
    assert pod["picks_made"] == 3 + sum(1 for seat in picked if (seat + 1) % 4 == bot)
    assert room["seatings"] == [
        {"pod": 1, "players": [p.name for p in sorted((p for p in events.players(event_id)), key=lambda p: p.seat)]}
    ]
    assert room["views"] == ["drafts", "join", "seatings"]  # the screen's cycle, the core's (before: the page's)
    text = json.dumps(room)
    assert all(code not in text for code in codes_of(db, event_id).values())
    assert not keys_of(room) & PRIVATE


@pytest.mark.parametrize(
    ("status", "round_open", "seatings", "drafts", "standings", "views"),
    [
        ("registration", None, False, False, False, ["join"]),
        ("seated", None, True, False, False, ["join", "seatings"]),
        ("drafting", None, True, False, False, ["drafts", "join", "seatings"]),  # the progress first, even at 0
        ("building", None, True, True, False, ["drafts", "join"]),
        ("building", None, True, False, True, ["join", "standings"]),  # a sealed night: no drafts
        ("playing", True, True, True, False, ["pairings"]),
        ("playing", True, True, True, True, ["pairings", "standings"]),  # the open round's tables first
        ("playing", False, True, True, True, ["standings", "pairings"]),  # a closed round's after
        ("finished", False, True, True, True, ["standings"]),
        ("playing", None, True, True, False, []),  # nothing to show yet: the screen waits
    ],
)
def test_the_rooms_cycle_of_views_is_the_cores_for_each_state_of_the_night(
    status, round_open, seatings, drafts, standings, views
):
    assert room_views(status, round_open, seatings, drafts, standings) == views


def test_the_desk_pairs_a_round_again_with_the_players_in_the_event_now_until_a_table_reports(night):
    events, event_id, reports, views = night
    pid = ids(events, event_id)
    first = events.new_round(event_id)
    gone = first.tables[0][0]
    events.drop_player(event_id, gone)
    again = reports.repair(event_id)
    assert again.round == 1 and sorted(n for t in again.tables for n in t) == sorted(set(NAMES) - {gone})
    assert [len(t) for t in again.tables] == [4, 4, 4]
    assert [e.what for e in events.history(event_id)[-2:]] == ["round again", "round"]
    table = again.tables[0]
    reports.report(event_id, pid[table[0]], [[pid[n]] for n in table], now=START)
    with pytest.raises(StateError, match="already has results, reports or games"):
        reports.repair(event_id)
    paired_now = [list(t) for t in events.snapshot(event_id).rounds[-1].tables]
    assert paired_now == [[pid[n] for n in t] for t in again.tables]


def test_a_players_own_dispute_is_said_to_them_as_you_and_to_the_others_by_name(night):
    """The disputing player's phone read "Cy disputes it" of their own dispute; the one looking is "you" there, as
    in "Still to confirm: you"; the others and the desk read the name."""
    events, event_id, reports, views = night
    pid = ids(events, event_id)
    table = events.new_round(event_id).tables[0]
    report = reports.report(event_id, pid[table[0]], [[pid[n]] for n in table], now=START)
    reports.confirm(event_id, pid[table[1]], report.report, False, [[pid[n]] for n in reversed(table)], now=START)
    own = as_seen(views.table_view(event_id, pid[table[1]], now=START))["round"]["report"]
    assert own["disputes"][0]["words"] == "you dispute it, with this version:"
    other = as_seen(views.table_view(event_id, pid[table[0]], now=START))["round"]["report"]
    assert other["disputes"][0]["words"] == f"{table[1]} disputes it, with this version:"
    desk = as_seen(views.desk_view(event_id, now=START))["round"]["tables"][0]["report"]
    assert desk["disputes"][0]["words"] == f"{table[1]} disputes it, with this version:"


def test_a_waiting_report_and_a_phones_tracker_entry_travel_with_an_export_to_other_player_numbers(
    night, cli, tmp_path
):
    events, event_id, reports, views = night
    pid = ids(events, event_id)
    table = events.new_round(event_id).tables[0]
    report = reports.report(event_id, pid[table[0]], [[pid[n]] for n in table], now=START)
    reports.confirm(event_id, pid[table[1]], report.report, False, [[pid[n]] for n in reversed(table)], now=START)
    reports.set_table_tracker(event_id, True)
    reports.track(event_id, pid[table[2]], life={table[2]: -6})
    out = tmp_path / "export"
    assert cli("event", "export", str(event_id), "--out", out, "--db", events.store.path).exit_code == 0
    target = Night(Store(tmp_path / "target.json"))
    other = target.create("Elsewhere", style="bots", seed=2)
    for name in ("Xa", "Yu", "Zed"):  # player numbers 1-3 are taken here: the restored event's are renumbered
        target.add_player(other, name)
    restored = cli("event", "restore", out / "database.json", "--db", target.store.path, "--json")
    assert restored.exit_code == 0, restored.output
    new_id = json.loads(restored.stdout)["event"]
    moved = {p.name: p.id for p in target.players(new_id)}
    assert moved != pid  # really renumbered
    view = as_seen(TableViews(target.store).desk_view(new_id, now=START))["round"]["tables"][0]
    assert view["status"] == "disputed"
    assert [[p["name"] for p in g] for g in view["report"]["order"]] == [[n] for n in table]
    assert view["report"]["disputes"] == [
        {
            "player": table[1],
            "order": [[{"id": moved[n], "name": n}] for n in reversed(table)],
            "words": f"{table[1]} disputes it, with this version:",
        }
    ]
    mover = TableReports(target.store)
    board = mover.track(new_id, moved[table[2]], undo=True)  # the entry is still theirs after the move
    assert {row.player: row.life for row in board.players}[table[2]] == 40


def test_a_player_dropped_after_a_pairing_the_desk_then_makes_again_without_them_dropped_after_the_round_before(
    night,
):
    events, event_id, reports, views = night
    pid = ids(events, event_id)
    for table_number, table in enumerate(events.new_round(event_id).tables, start=1):
        events.record_result(event_id, 1, table_number, " > ".join(table))
    gone = events.new_round(event_id).tables[0][0]
    events.drop_player(event_id, gone)
    assert {p.name: p.dropped_after for p in events.players(event_id)}[gone] == 2  # still at a round-2 table
    reports.repair(event_id)
    assert pid[gone] not in {n for t in events.snapshot(event_id).rounds[-1].tables for n in t}
    assert {p.name: p.dropped_after for p in events.players(event_id)}[gone] == 1
    assert {"name": gone, "after_round": 1} in as_seen(views.desk_view(event_id))["dropped"]


def test_a_player_who_dropped_from_their_table_is_dropped_after_the_round_before_once_the_desk_undoes_its_pairing(
    night,
):
    """The player's own drop is no desk change, so 'event undo' takes back the pairing behind it: the round they
    were in is gone, and so is 'dropped after' it (before: 'dropped after round 2', a round they never played)."""
    from events.night.undo import Undo

    events, event_id, reports, views = night
    pid = ids(events, event_id)
    for table_number, table in enumerate(events.new_round(event_id).tables, start=1):
        events.record_result(event_id, 1, table_number, " > ".join(table))
    gone = events.new_round(event_id).tables[0][0]
    reports.drop_self(event_id, pid[gone])
    assert "2: its pairing is taken back" in Undo(events.store).undo(event_id).undid
    assert {p.name: p.dropped_after for p in events.players(event_id)}[gone] == 1
    assert {"name": gone, "after_round": 1} in as_seen(views.desk_view(event_id))["dropped"]


def test_a_result_the_desk_records_over_a_waiting_report_settles_it_so_no_player_is_told_to_replace_it(night):
    """Before: `event result` left the phone's report waiting; the next confirmation then failed with the desk's
    words ("already has a result; use --replace to correct it"), and the phones still showed it as waiting."""
    events, event_id, reports, views = night
    pid = ids(events, event_id)
    table = events.new_round(event_id).tables[0]
    report = reports.report(event_id, pid[table[0]], [[pid[n]] for n in table], now=START)
    assert as_seen(views.table_view(event_id, pid[table[1]], now=START))["round"]["report"] is not None
    events.record_result(event_id, 1, 1, " > ".join(reversed(table)))  # the desk's `event result`
    seen = as_seen(views.table_view(event_id, pid[table[1]], now=START))["round"]
    assert seen["report"] is None and seen["status"] == "recorded", seen
    with pytest.raises(StateError) as refused:
        reports.confirm(event_id, pid[table[1]], report.report, True, now=START)
    assert "--replace" not in str(refused.value) and "settled" in str(refused.value)
    order = [row.order for row in events.snapshot(event_id).results if (row.round, row.table) == (1, 1)]
    assert order == [[[pid[n]] for n in reversed(table)]]  # the desk's result stands
