"""Store events on real files: a whole night end to end, crashes, concurrency, bad databases, every out-of-order step."""

from __future__ import annotations

import json
import os
import random
import re
import shlex
from collections import Counter

import pytest

from events.night.rounds import game_table_sizes, pair_by_points
from events.night.schema import card_from_ref, card_ref
from events.night.seating import draft_pod_sizes
from events.storage.store import Store
from sets.errors import InputError, StateError
from tests.helpers.night import Night
from tests.helpers.nights import NAMES, terminal_event


@pytest.fixture
def events(tmp_path):
    return Night(Store(tmp_path / "event.json"))


def bots_event(events, names=NAMES, **options):
    event_id = events.create("Friday", style="bots", seed=7, **options)
    for name in names:
        events.add_player(event_id, name)
    return event_id


def play_rounds(events, event_id, rounds=3, draw_first=False):
    for number in range(1, rounds + 1):
        result = events.new_round(event_id)
        for table, names in enumerate(result.tables, start=1):
            order = " > ".join(names)
            if draw_first and table == 1:
                order = names[0] + " = " + " > ".join(names[1:])
            events.record_result(event_id, number, table, order)


def test_whole_event_with_ten_players_in_two_pods(events, tmp_path, cli):
    event_id = bots_event(events)
    pods = events.seat(event_id)
    assert sorted(len(pod) for pod in pods) == [5, 5] and sorted(n for pod in pods for n in pod) == sorted(NAMES)
    events.start_draft(event_id)
    snap = events.snapshot(event_id)
    assert snap.event.status == "building" and all(p.pool_size == 60 for p in snap.players)
    assert all(pod.opened is not None for pod in snap.pods)
    for name in NAMES:
        assert events.register_deck(event_id, name, auto=True).valid
    play_rounds(events, event_id, draw_first=True)
    standings = events.standings(event_id)
    assert len(standings) == 10 and all(row.rounds == 3 for row in standings)
    assert [row.points for row in standings] == sorted((row.points for row in standings), reverse=True)
    events.finish(event_id)
    with pytest.raises(StateError, match="finished"):
        events.record_result(event_id, 3, 1, "Ann > Bo")
    out = tmp_path / "export"
    result = cli("event", "export", str(event_id), "--out", out, "--db", events.store.path)
    assert result.exit_code == 0
    files = {p.name for p in out.iterdir()}
    assert "standings.csv" in files and "database.json" in files and "pod1-draft.json" in files
    assert (
        sum(name.endswith("-deck.cod") for name in files) == 10
        and sum(name.endswith("-draftlog.txt") for name in files) == 10
    )
    rows = (out / "standings.csv").read_text().splitlines()
    assert rows[0].startswith("rank,player,points") and len(rows) == 11
    board = json.loads(cli("event", "show", str(event_id), "--db", events.store.path, "--json").stdout)
    assert board["event"]["status"] == "finished" and len(board["rounds"]) == 3


def test_game_tables_are_pods_of_four_or_three_to_five():
    assert game_table_sizes(8) == [4, 4]
    assert game_table_sizes(5) == [5]
    assert game_table_sizes(6) == [3, 3]
    assert game_table_sizes(7) == [4, 3]
    assert game_table_sizes(10) == [5, 5]
    assert game_table_sizes(13) == [5, 4, 4]
    assert game_table_sizes(7, one_v_one=True) == [3, 2, 2]
    for players in range(3, 60):
        assert all(3 <= size <= 5 for size in game_table_sizes(players)) and sum(game_table_sizes(players)) == players


def test_draft_pods_are_balanced_and_at_most_eight():
    assert draft_pod_sizes(10) == [5, 5] and draft_pod_sizes(17) == [6, 6, 5] and draft_pod_sizes(64) == [8] * 8
    for players in range(2, 100):
        sizes = draft_pod_sizes(players)
        assert max(sizes) <= 8 and max(sizes) - min(sizes) <= 1 and sum(sizes) == players


def test_later_rounds_avoid_repeat_opponents_where_possible():
    ids = list(range(8))
    met = Counter()
    for a, b in [(0, 1), (1, 0), (0, 2), (2, 0), (0, 3), (3, 0), (1, 2), (2, 1), (1, 3), (3, 1), (2, 3), (3, 2)]:
        met[(a, b)] += 1
    totals = Counter({0: 3, 1: 3, 2: 3, 3: 3})
    tables = pair_by_points(ids, totals, met, [4, 4], random.Random(1), window=8)
    assert all(sum(met[(a, b)] for a in table for b in table if a != b) < 12 for table in tables)


def test_draws_share_the_points_of_the_places_they_cover(events):
    event = events.event(events.create("Points", points="3,2,1,0"))
    assert events.placement_points(event, [[1], [2, 3], [4]]) == {1: 3, 2: 1.5, 3: 1.5, 4: 0}
    assert events.placement_points(event, [[1, 2, 3, 4]]) == {1: 1.5, 2: 1.5, 3: 1.5, 4: 1.5}


def test_standings_tie_breaker_is_opponents_average(events):
    event_id = bots_event(events, names=["A", "B", "C", "D", "E", "F", "G", "H"])
    events.seat(event_id)
    events.start_draft(event_id)
    rnd = events.new_round(event_id, force=True)
    first, second = rnd.tables
    events.record_result(event_id, 1, 1, " > ".join(first))
    events.record_result(event_id, 1, 2, " > ".join(second))
    rows = events.standings(event_id)
    winners = [row for row in rows if row.points == 3]
    assert len(winners) == 2 and winners[0].opponents_average >= winners[1].opponents_average


@pytest.mark.parametrize(
    ("steps", "error", "message"),
    [
        (["seat", "seat"], StateError, "seat players"),
        (["start_draft"], StateError, "start the draft"),
        (["seat", "new_round"], StateError, "start a round"),
        (["seat", "start_draft", "new_round"], StateError, "no legal deck registered"),
        (["seat", "start_draft", "drop", "deck"], StateError, "has dropped"),
        (["seat", "start_draft", "round", "round"], StateError, "still has tables without results"),
        (["seat", "start_draft", "round", "results", "results"], StateError, "round 1 is finished"),
        (
            ["seat", "start_draft", "round", "results", "round", "old_result"],
            StateError,
            "is finished: a result changes now only as a correction",
        ),
        (["seat", "start_draft", "round", "bad_result"], InputError, "must name every player"),
        (["seat", "start_draft", "drop", "drop"], StateError, "already dropped"),
    ],
)
def test_steps_out_of_order(events, steps, error, message):
    event_id = bots_event(events, names=NAMES[:4])
    actions = {
        "seat": lambda: events.seat(event_id),
        "start_draft": lambda: events.start_draft(event_id),
        "new_round": lambda: events.new_round(event_id),
        "round": lambda: events.new_round(event_id, force=True),
        "drop": lambda: events.drop_player(event_id, "Ann"),
        "deck": lambda: events.register_deck(event_id, "Ann", auto=True),
        "results": lambda: [
            events.record_result(event_id, 1, t + 1, " > ".join(names))
            for t, names in enumerate(events.snapshot_tables(event_id, 1))
        ],
        "old_result": lambda: events.record_result(event_id, 1, 1, " > ".join(events.snapshot_tables(event_id, 1)[0])),
        "bad_result": lambda: events.record_result(event_id, 1, 1, "Ann > Bo"),
    }
    with pytest.raises(error, match=message):
        for step in steps:
            actions[step]()


def test_late_add_joins_the_smallest_pod(events):
    event_id = bots_event(events, names=NAMES[:9])
    events.seat(event_id)
    player = events.add_player(event_id, "Late Larry")
    snap = events.snapshot(event_id)
    larry = next(p for p in snap.players if p.id == player)
    assert larry.late and larry.pod is not None
    assert sorted(len(pod.players) for pod in snap.pods) == [5, 5]


def test_piper_ledger_warns_of_a_shortfall_and_names_lenders(events):
    event_id = bots_event(events, names=NAMES[:8])
    events.seat(event_id)
    events.start_draft(event_id)
    ledger = events.piper_ledger(event_id)
    held = ledger.held_in_pools
    owners = [lender.player for lender in ledger.lenders]
    asking = [name for name in NAMES[:8] if name not in owners][:4]
    events.set_pipers(event_id, stock=0, requests={name: 2 for name in asking})
    forecast = events.piper_ledger(event_id).forecast  # requests before deck building: a forecast
    assert forecast.requested == 2 * len(asking) and forecast.available == held
    assert forecast.shortfall == max(0, 2 * len(asking) - held)
    events.set_pipers(event_id, stock=20)
    assert events.piper_ledger(event_id).forecast.shortfall == 0
    with pytest.raises(InputError, match="0 to 2 Pipers"):
        events.set_pipers(event_id, requests={"Ann": 3})


def test_physical_draft_pools_typed_and_imported(events, cli, tmp_path):
    event_id = events.create("Physical", style="physical", seed=3)
    for name in ("Ann", "Bo"):
        events.add_player(event_id, name)
    events.seat(event_id)
    db = events.store.path
    assert cli("event", "draft", str(event_id), "--db", db).exit_code == 0
    typed = cli(
        "event", "pool", str(event_id), "Ann", "--db", db, input="2 Murder\nAkroma, Vision of Ixidor\n45 Plains\n\n"
    )
    assert typed.exit_code == 0 and "48 cards" in typed.stdout
    bad = cli("event", "pool", str(event_id), "Bo", "--db", db, input="1 Sol Rnig\n\n")
    assert bad.exit_code == 2 and "unknown card 'Sol Rnig'" in bad.stderr
    pool_file = tmp_path / "bo.txt"
    pool_file.write_text("1 The Prismatic Piper\n3 Murder\n")
    assert cli("event", "pool", str(event_id), "Bo", pool_file, "--db", db).exit_code == 0
    again = cli("event", "pool", str(event_id), "Bo", pool_file, "--db", db)
    assert again.exit_code == 3 and "--replace" in again.stderr
    assert events.snapshot(event_id).event.status == "building"
    ledger = json.loads(
        cli("event", "pipers", str(event_id), "--opened", "1=1", "--request", "Ann=1", "--db", db, "--json").stdout
    )
    assert ledger["pods"] == [{"pod": 1, "opened": 1, "pools_recorded": 2, "seats": 2, "typed": 1, "disagrees": False}]
    assert ledger["lenders"][0]["player"] == "Bo"


def test_sealed_event(events):
    event_id = events.create("Sealed", mode="sealed", seed=5)
    for name in NAMES[:3]:
        events.add_player(event_id, name)
    with pytest.raises(StateError, match="sealed event has no draft seating"):
        events.seat(event_id)
    events.start_draft(event_id)
    assert all(p.pool_size == 120 for p in events.snapshot(event_id).players)
    for name in NAMES[:3]:
        assert events.register_deck(event_id, name, auto=True).valid
    (table,) = events.new_round(event_id).tables
    assert sorted(table) == sorted(NAMES[:3])


def test_deck_registration_from_a_file_is_checked_against_the_pool(events, tmp_path, cli):
    event_id = bots_event(events, names=NAMES[:3])
    events.seat(event_id)
    events.start_draft(event_id)
    deck_file = tmp_path / "deck.txt"
    deck_file.write_text("Commander\n1 Akroma, Vision of Ixidor\n\nDeck\n59 Plains\n")
    result = json.loads(
        cli("event", "deck", str(event_id), "Ann", deck_file, "--db", events.store.path, "--json").stdout
    )
    codes = {p["code"] for p in result["problems"]}
    assert result["valid"] is False and ("not-in-pool" in codes or "too-many-copies" in codes)
    board = cli("event", "deck", str(event_id), "--db", events.store.path)
    assert "illegal" in board.stdout and "missing" in board.stdout


def test_card_refs_round_trip(cmr):
    from sets.booster import Printing

    for printing in (
        Printing(cmr.card("186")),
        Printing(cmr.card("514"), "etched_foil", True, True),
        Printing(cmr.card("3"), "", True),
    ):
        back = card_from_ref(card_ref(printing, "CMR"), "CMR")
        assert (back.card, back.foil, back.etched) == (printing.card, printing.foil, printing.etched)


PIPERS_DECK = "Commander\n1 The Prismatic Piper\n1 The Prismatic Piper\n\nDeck\n1 Plains\n"
ONE_PIPER_DECK = "Commander\n1 The Prismatic Piper\n\nDeck\n1 Plains\n"
AKROMA_DECK = "Commander\n1 Akroma, Vision of Ixidor\n\nDeck\n1 Plains\n"


def tracker_event(events):
    """Ann, Bo, Cy, Di at one table; Bo has two Pipers as commanders, Cy one, Di Akroma, Ann no deck."""
    from draft.formats import parse

    event_id = bots_event(events, names=NAMES[:4])
    events.seat(event_id)
    events.start_draft(event_id)
    for name, text in (("Bo", PIPERS_DECK), ("Cy", ONE_PIPER_DECK), ("Di", AKROMA_DECK)):
        events.register_deck(event_id, name, parse(text))
    events.new_round(event_id, force=True)
    return event_id


def test_game_tracker(events):
    event_id = tracker_event(events)
    board = events.game(
        event_id,
        1,
        1,
        life={"Ann": -5},
        damage=[("Bo", "Di", "Akroma", 21)],
        casts=[("Di", "Akroma"), ("Di", "Akroma")],
    )
    players = {p.player: p for p in board.players}
    assert players["Ann"].life == 35 and not players["Ann"].lost
    assert [(h.from_, h.commander, h.amount) for h in players["Bo"].commander_damage] == [
        ("Di", "Akroma, Vision of Ixidor", 21)
    ] and players["Bo"].lost
    assert [(t.commander, t.tax) for t in players["Di"].tax] == [("Akroma, Vision of Ixidor", 4)]
    again = events.game(event_id, 1, 1)
    assert {p.player: p.life for p in again.players}["Ann"] == 35


def test_the_tracker_prints_and_saves_each_game_as_plain_fields_in_their_order(events, cli):
    """``event game --json`` prints the board with its keys in this order, and the store keeps the game as plain
    fields: life by player number, damage and casts per commander, each entry as typed (a phone's marked ``by``)."""
    from events.night.table_reports import TableReports

    event_id = tracker_event(events)
    ids = {p.name: p.id for p in events.snapshot(event_id).players}
    seated = [name for pid in events.snapshot(event_id).rounds[0].tables[0] for name, i in ids.items() if i == pid]
    akroma = "Akroma, Vision of Ixidor"
    printed = cli(
        *("event", "game", event_id, "1", "1", "--life", "Ann=-5", "--damage", "Bo=Di:Akroma:21"),
        *("--cast", "Di=Akroma", "--cast", "Di=Akroma", "--json", "--db", events.store.path),
    ).stdout
    life = {"Ann": 35, "Bo": 40 - 21, "Cy": 40, "Di": 40}  # 21 commander damage is life lost too (CR 903.10a)
    hit = {"from": "Di", "commander": akroma, "copy": 1, "amount": 21, "label": f"Di: {akroma}"}
    tax = {"commander": akroma, "copy": 1, "casts": 2, "tax": 4, "label": akroma}  # {2} per earlier cast (CR 903.8)
    board = {
        "round": 1,
        "table": 1,
        "players": [
            {
                "id": ids[name],
                "number": ids[name],  # (the event's only: numbers and ids agree)
                "name": name,
                "player": name,
                "life": life[name],
                "lost": name == "Bo",
                "commander_damage": [hit] if name == "Bo" else [],
                "tax": [tax] if name == "Di" else [],
            }
            for name in seated
        ],
    }
    assert printed == json.dumps(board, ensure_ascii=False) + "\n"
    phones = TableReports(events.store)
    phones.set_table_tracker(event_id, True)
    phones.track(event_id, ids["Cy"], life={"Cy": 2})
    saved = json.loads(events.store.path.read_text(encoding="utf-8"))["games"]
    (game,) = saved.values()
    expected = {
        "event": event_id,
        "round": 1,
        "table": 1,
        "life": {str(ids[name]): life[name] + (2 if name == "Cy" else 0) for name in seated},
        "hits": [{"to": ids["Bo"], "from": ids["Di"], "commander": akroma, "copy": 1, "amount": 21}],
        "casts": [{"player": ids["Di"], "commander": akroma, "copy": 1, "count": 2}],
        "entries": [
            {
                "life": {str(ids["Ann"]): -5},
                "hits": [[ids["Bo"], ids["Di"], akroma, 1, 21]],
                "casts": [[ids["Di"], akroma, 1], [ids["Di"], akroma, 1]],
            },
            {"life": {str(ids["Cy"]): 2}, "hits": [], "casts": [], "by": ids["Cy"]},
        ],
    }
    assert json.dumps(game) == json.dumps(expected)


def test_commander_damage_is_counted_per_commander_not_per_card_name(events):
    """CR 903.10a: 21 from one commander.  Bo's Piper 11 + Cy's Piper 10 is two commanders, no loss."""
    event_id = tracker_event(events)
    board = events.game(event_id, 1, 1, damage=[("Ann", "Bo", "Piper#1", 11), ("Ann", "Cy", "Piper", 10)])
    ann = next(p for p in board.players if p.player == "Ann")
    assert ann.life == 19 and not ann.lost
    assert sorted((h.from_, h.copy, h.amount) for h in ann.commander_damage) == [
        ("Bo", 1, 11),
        ("Cy", 1, 10),
    ]
    # Bo's other Piper is another commander too; only one commander reaching 21 loses the game.
    board = events.game(event_id, 1, 1, damage=[("Ann", "Bo", "Piper#2", 10)])
    assert not next(p for p in board.players if p.player == "Ann").lost
    board = events.game(event_id, 1, 1, damage=[("Ann", "Bo", "The Prismatic Piper#1", 10)])
    assert next(p for p in board.players if p.player == "Ann").lost


def test_commander_tax_is_counted_per_commander(events):
    """CR 903.8: {2} more for each earlier cast of that commander.  Each of Bo's Pipers cast once: {2} each."""
    event_id = tracker_event(events)
    board = events.game(event_id, 1, 1, casts=[("Bo", "Piper#1"), ("Bo", "Piper#2"), ("Cy", "Piper")])
    players = {p.player: p for p in board.players}
    assert sorted((t.copy, t.tax) for t in players["Bo"].tax) == [(1, 2), (2, 2)]
    assert [t.tax for t in players["Cy"].tax] == [2]


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (("Ann", "Bo", "Akroma", 3), "'Bo' has no commander 'Akroma'"),
        (("Ann", "Bo", "Piper", 3), "say which"),
        (("Ann", "Bo", "Piper#3", 3), "not a #3"),
        (("Ann", "Cy", "Piper#2", 3), "not a #2"),
        (("Bo", "Ann", "Piper", 3), "'Ann' has no registered deck"),
    ],
)
def test_a_commander_the_source_player_does_not_have_is_refused(events, damage, message):
    event_id = tracker_event(events)
    before = events.store.path.read_bytes()
    with pytest.raises(InputError, match=message):
        events.game(event_id, 1, 1, damage=[damage])
    assert events.store.path.read_bytes() == before


def test_game_tracker_cli_spelling_and_refusals(events, cli):
    event_id = tracker_event(events)
    db = events.store.path
    ok = cli(
        "event", "game", event_id, 1, 1, "--damage", "Ann=Bo:Piper#2:7", "--cast", "Bo=Piper#1", "--db", db, "--json"
    )
    assert ok.exit_code == 0, ok.stderr
    ann = next(p for p in json.loads(ok.stdout)["players"] if p["player"] == "Ann")
    assert [(h["from"], h["copy"], h["amount"]) for h in ann["commander_damage"]] == [("Bo", 2, 7)]
    ids = {name: events.player_id(event_id, name) for name in ("Ann", "Bo")}
    by_number = cli(
        "event", "game", event_id, 1, 1, "--damage", f"#{ids['Ann']}=#{ids['Bo']}:Piper#2:1", "--db", db, "--json"
    )
    ann = next(p for p in json.loads(by_number.stdout)["players"] if p["player"] == "Ann")
    assert [(h["from"], h["copy"], h["amount"]) for h in ann["commander_damage"]] == [("Bo", 2, 8)]
    shown = cli("event", "game", event_id, 1, 1, "--db", db)
    assert "Bo: The Prismatic Piper #2 8" in shown.stdout and "The Prismatic Piper #1 +{2}" in shown.stdout
    # the log says which of Bo's two Pipers, "#1" as well as "#2"; Cy's one Piper and Di's Akroma need no number
    assert cli("event", "game", event_id, 1, 1, "--cast", "Cy=Piper", "--cast", "Di=Akroma", "--db", db).exit_code == 0
    logged = cli("event", "log", event_id, "--db", db).stdout
    assert "damage Ann=Bo:The Prismatic Piper#2 7; cast Bo=The Prismatic Piper#1" in logged
    assert "cast Cy=The Prismatic Piper; cast Di=Akroma, Vision of Ixidor" in logged
    assert cli("event", "game", event_id, 1, 1, "--cast", "Bo=Piper#1", "--db", db).exit_code == 0
    undone = cli("event", "undo", event_id, "--yes", "--db", db)  # its words name the copy as the log does
    assert undone.exit_code == 0 and "cast Bo=The Prismatic Piper#1" in undone.stdout, undone.output
    for args in (
        ["--damage", "Ann=Bo:Akroma:7"],
        ["--damage", "Ann=Bo:Piper:7"],
        ["--cast", "Cy=Akroma"],
        ["--damage", "Ann=Piper:7"],
    ):
        bad = cli("event", "game", event_id, 1, 1, *args, "--db", db)
        assert bad.exit_code == 2 and bad.stderr.startswith("cmdraft: error: ") and bad.stderr.count("\n") == 1, (
            args,
            bad.stderr,
        )


def test_old_tracker_records_still_open(events):
    """A game saved before per-commander tracking (damage and tax keyed by card name) still shows and updates."""
    event_id = tracker_event(events)
    with events.store.read() as db:
        ids = {p["name"]: p.doc_id for p in db.table("players").all()}
    with events.store.write() as db:
        db.table("games").insert(
            {
                "event": event_id,
                "round": 1,
                "table": 1,
                "life": {str(ids[n]): 40 for n in ("Ann", "Bo", "Cy", "Di")} | {str(ids["Ann"]): 29},
                "damage": {str(ids["Ann"]): {"Akroma": 11}},
                "tax": {str(ids["Di"]): {"Akroma": 2}},
            }
        )
    board = events.game(event_id, 1, 1)
    players = {p.player: p for p in board.players}
    assert players["Ann"].life == 29 and [h.amount for h in players["Ann"].commander_damage] == [11]
    assert players["Ann"].commander_damage[0].from_ is None and [t.tax for t in players["Di"].tax] == [4]
    board = events.game(event_id, 1, 1, damage=[("Ann", "Di", "Akroma", 10)])
    ann = next(p for p in board.players if p.player == "Ann")
    assert ann.life == 19 and not ann.lost and sorted(h.amount for h in ann.commander_damage) == [10, 11]


def test_names_with_any_characters_are_safe(events, tmp_path, cli):
    names = ["[bold red]X[/]", "../../evil", "Zoë 🦄", "a/b\\c", "   "]
    event_id = events.create("Names", style="bots", seed=1)
    for name in names[:-1]:
        events.add_player(event_id, name)
    with pytest.raises(InputError, match="needs a name"):
        events.add_player(event_id, names[-1])
    events.seat(event_id)
    events.start_draft(event_id)
    out = tmp_path / "out"
    cli("event", "export", str(event_id), "--out", out, "--db", events.store.path)
    written = [p for p in out.rglob("*")]
    assert written and all(p.parent == out for p in written)
    show = cli("event", "show", str(event_id), "--db", events.store.path)
    assert "[bold red]X[/]" in show.stdout and "Zoë 🦄" in show.stdout


EVIL = "Evil\u202eName"  # a right-to-left override: quoted, it is written out and can't turn the message around


def test_messages_that_show_a_player_name_quote_it(events, cli):
    """Before: "Late Larry is not at this table", "missing Evil\u202eName", "Ann has no seat code yet"."""
    event_id = events.create("Quotes", style="bots", seed=3)
    for name in ("Ann", "Bo", "Cy", "Di", "Late Larry", EVIL):
        events.add_player(event_id, name)
    events.seat(event_id)
    events.start_draft(event_id)
    for name in ("Ann", "Bo", "Cy", "Di"):
        events.register_deck(event_id, name, auto=True)
    with pytest.raises(StateError, match=r"^no legal deck registered for 'Late Larry', 'Evil\\u202eName'; register"):
        events.new_round(event_id)
    tables = events.new_round(event_id, force=True).tables  # 6 players: two tables of 3
    other = tables[1][0]
    with pytest.raises(InputError, match=rf"^'{other}' is not at this table \(it seats '"):
        events.record_result(event_id, 1, 1, " > ".join([*tables[0][:2], other]).replace(EVIL, f"#{6}"))
    shown = {name: ("#6" if name == EVIL else name) for name in tables[0]}
    left_out = tables[0][-1]
    missing = left_out.replace(EVIL, "Evil\\u202eName")
    with pytest.raises(InputError, match=rf"; missing '{missing}'$"):
        events.record_result(event_id, 1, 1, " > ".join(shown[name] for name in tables[0][:-1]))
    events.drop_player(event_id, "Late Larry")
    again = cli("event", "player", "drop", event_id, "Late Larry", "--db", events.store.path)
    assert again.exit_code == 3 and again.stderr.strip().endswith("'Late Larry' has already dropped")
    terminal = events.create("Codes", style="terminal", seed=1)
    events.add_player(terminal, "Ann")
    code = cli("event", "player", "code", terminal, "Ann", "--db", events.store.path)
    assert code.exit_code == 3 and "'Ann' has no seat yet: codes are given at seating" in code.stderr


# --- storage that loses nothing ----------------------------------------------------------------------------


@pytest.mark.slow
def test_two_terminals_picking_in_one_draft_lose_nothing(tmp_path):
    """Crash safety: real processes, killed or racing, on a real database file; two terminals picking in one draft."""
    from tests.helpers.terminals import worker

    db = tmp_path / "two.json"
    event_id = terminal_event(db)
    first = worker("picks", str(db), str(event_id), "Ann", "Bo")
    second = worker("picks", str(db), str(event_id), "Cy")
    out1, err1 = first.communicate(timeout=180)
    out2, err2 = second.communicate(timeout=180)
    assert "DONE" in out1 and "DONE" in out2, (err1, err2)
    assert out1.count("ACK") == 60 and out2.count("ACK") == 30
    events = Night(Store(db))
    session = events.draft_session(event_id, 1)
    assert session.draft.finished and len(session.draft.log) == 4 * 30
    assert Counter(p.seat for p in session.draft.log) == {0: 30, 1: 30, 2: 30, 3: 30}


@pytest.mark.slow
def test_two_processes_registering_players_lose_nothing(tmp_path):
    """Crash safety: real processes, killed or racing, on a real database file; two processes writing the same database at once."""
    from tests.helpers.terminals import worker

    db = tmp_path / "reg.json"
    event_id = Night(Store(db)).create("Busy", seed=1)
    first = worker("players", str(db), str(event_id), "A", "40")
    second = worker("players", str(db), str(event_id), "B", "40")
    assert "DONE" in first.communicate(timeout=120)[0] and "DONE" in second.communicate(timeout=120)[0]
    names = {p.name for p in Night(Store(db)).snapshot(event_id).players}
    assert names == {f"A{i}" for i in range(40)} | {f"B{i}" for i in range(40)}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "is damaged"),
        (b'{"_default": {"1": {"a": 1}}}', "not a cmdraft database"),
        (b"[1, 2, 3]", "not a cmdraft database"),
        (b'{"_meta": {"1": {"app": "cmdraft", "schema": 99}}}', "newer cmdraft"),
    ],
)
def test_corrupt_or_foreign_database_is_a_clear_error_and_untouched(tmp_path, cli, content, message):
    db = tmp_path / "db.json"
    db.write_bytes(content)
    result = cli("event", "list", "--db", db)
    assert result.exit_code == 4 and message in result.stderr and "Traceback" not in result.stderr
    result = cli("event", "new", "X", "--db", db)
    assert result.exit_code == 4
    assert db.read_bytes() == content


def test_failed_transaction_writes_nothing(events):
    event_id = bots_event(events, names=NAMES[:3])
    before = events.store.path.read_bytes()
    with pytest.raises(RuntimeError):
        with events.store.write() as db:
            db.table("players").insert({"event": event_id, "name": "ghost", "status": "active"})
            raise RuntimeError("boom")
    assert events.store.path.read_bytes() == before


def test_backups_rotate_and_restore(tmp_path, cli):
    db = tmp_path / "db.json"
    store = Store(db)
    events = Night(store)
    for i in range(7):
        events.create(f"Event {i}", seed=i)
        store.backup()
    backups = sorted(p.name for p in tmp_path.glob("db.json.bak.*"))
    assert backups == [f"db.json.bak.{i}" for i in range(1, 6)]
    oldest_kept = tmp_path / "db.json.bak.5"
    several = cli("event", "restore", oldest_kept, "--db", db)
    assert several.exit_code == 2 and "--all" in several.stderr and len(events.list_events()) == 7
    result = cli("event", "restore", oldest_kept, "--all", "--db", db)
    assert result.exit_code == 0
    assert len(events.list_events()) == 3
    foreign = tmp_path / "foreign.json"
    foreign.write_text('{"x": 1}')
    bad = cli("event", "restore", foreign, "--all", "--db", db)
    # The file the user names is the input at fault (2); the database itself is untouched.
    assert bad.exit_code == 2 and "not a cmdraft database" in bad.stderr and len(events.list_events()) == 3


def test_records_are_compact(events):
    event_id = bots_event(events, names=NAMES[:8])
    events.seat(event_id)
    events.start_draft(event_id)
    size = events.store.path.stat().st_size
    assert size < 60_000, size  # boosters once, picks as small rows, pools as card numbers


# --- CLI wiring -------------------------------------------------------------------------------------------------


def test_event_cli_flow(cli, tmp_path):
    db = tmp_path / "cli.json"
    new = json.loads(cli("event", "new", "CLI night", "--style", "bots", "--seed", "4", "--db", db, "--json").stdout)
    event_id = str(new["id"])
    assert cli("event", "player", "add", event_id, "Ann", "Bo", "Cy", "Di", "--db", db).exit_code == 0
    assert cli("event", "seat", event_id, "--db", db, "--json").exit_code == 0
    assert cli("event", "draft", event_id, "--db", db).exit_code == 0
    for name in ("Ann", "Bo", "Cy", "Di"):
        assert cli("event", "deck", event_id, name, "--auto", "--db", db).exit_code == 0
    rnd = json.loads(cli("event", "round", event_id, "--db", db, "--json").stdout)
    (table,) = rnd["tables"]
    board = json.loads(cli("event", "show", event_id, "--db", db, "--json").stdout)
    commander = next(p for p in board["players"] if p["name"] == table[0])["deck"]["commanders"][0]
    game = json.loads(
        cli(
            "event",
            "game",
            event_id,
            "1",
            "1",
            "--damage",
            f"{table[1]}={table[0]}:{commander}:21",
            "--db",
            db,
            "--json",
        ).stdout
    )
    assert [p["player"] for p in game["players"] if p["lost"]] == [table[1]]
    assert cli("event", "result", event_id, "1", "1", " > ".join(table), "--db", db).exit_code == 0
    standings = json.loads(cli("event", "standings", event_id, "--db", db, "--json").stdout)
    assert standings[0]["points"] == 3 and standings[0]["rank"] == 1
    assert "Standings" in cli("event", "standings", event_id, "--db", db).stdout
    assert cli("event", "finish", event_id, "--db", db).exit_code == 0


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("event", "show", "99"), 2, "no event 99"),
        (("event", "new", "X", "--style", "telepathy"), 2, "unknown draft style"),
        (("event", "new", "X", "--date", "tomorrow"), 2, "bad date"),
        (("event", "new", "X", "--points", "1,2,3"), 2, "bad points scheme"),
        (("event", "new", "X", "--set", "NOPE"), 2, "unknown set"),
        (("event", "seat", "1"), 3, "at least 2 players"),
        (("event", "round", "1"), 3, "start a round"),
        (("event", "pipers", "1", "--request", "nobody"), 2, "write NAME=NUMBER"),
        (("event", "game", "1", "1", "1", "--damage", "x"), 2, "write VICTIM=SOURCE:COMMANDER:N"),
    ],
)
def test_event_cli_errors(cli, tmp_path, args, code, message):
    db = tmp_path / "err.json"
    cli("event", "new", "Night", "--db", db)
    result = cli(*args, "--db", db)
    assert result.exit_code == code and message in result.stderr and "Traceback" not in result.stderr


def test_timer_schedule_shrinks():
    from events.screens.timer import schedule

    slots = list(schedule(3, 20, 2, 60))
    assert len(slots) == 30 and [s.direction for s in slots[::10]] == ["LEFT ←", "RIGHT →", "LEFT ←"]
    firsts = [s.seconds for s in slots[:10]]
    assert firsts[0] == 60 and firsts == sorted(firsts, reverse=True) and firsts[-1] >= 5


def test_timer_screen_runs_and_takes_keys(tmp_path):
    import io

    from rich.console import Console

    from events.screens.timer import run_timer, schedule

    read_end, write_end = os.pipe()
    os.write(write_end, b"\n\npp\nq")  # keys act at once: Enter, Enter, pause, resume, Enter, quit
    os.close(write_end)
    console = Console(file=io.StringIO(), width=80, force_terminal=True)
    with os.fdopen(read_end) as stream:
        done = run_timer(console, list(schedule(3, 20, 2, 30)), stream=stream)
    assert done == 3 and "PACK 1" in console.file.getvalue() and "ROUND" not in console.file.getvalue()


def test_timer_cli(cli, tmp_path):
    db = tmp_path / "t.json"
    cli("event", "new", "Physical", "--timer", "40", "--db", db)
    result = cli("event", "timer", "1", "--db", db, input="\n\nq\n")
    assert result.exit_code == 0 and "PACK 1" in result.stdout and "PASS LEFT" in result.stdout


@pytest.mark.slow
def test_terminal_draft_at_two_real_terminals(tmp_path):
    """Two terminals share one event database, each picking for its own player; a bot fills the third seat."""
    import pexpect

    from tests.helpers.terminals import PICK, spawn

    db = tmp_path / "terminal.json"
    events = Night(Store(db))
    event_id = events.create("Two screens", style="terminal", seed=21)
    for name in ("Ann", "Bo"):
        events.add_player(event_id, name)
    events.add_player(event_id, "Robo", bot=True)
    events.seat(event_id)
    events.start_draft(event_id)
    with events.store.read() as handle:
        codes = {p["name"]: p.get("code") for p in handle.table("players").all()}
    (tmp_path / "ann").mkdir(), (tmp_path / "bo").mkdir()
    first = spawn(["event", "draft", str(event_id), "--player", "Ann", "--db", str(db)], tmp_path / "ann", timeout=60)
    second = spawn(["event", "draft", str(event_id), "--player", "Bo", "--db", str(db)], tmp_path / "bo", timeout=60)
    for child, name in ((first, "Ann"), (second, "Bo")):  # each terminal is bound to its player's seat by the code
        child.expect(f"Seat code for {name}")
        child.sendline(codes[name])
    finished = {"first": False, "second": False}
    while not all(finished.values()):
        for key, child in (("first", first), ("second", second)):
            if finished[key]:
                continue
            index = child.expect([PICK, "Draft over for these players", "Waiting for", pexpect.TIMEOUT], timeout=0.5)
            if index == 0:
                child.sendline("1 2")
                child.expect(r"\[Y/n\]")
                child.sendline("y")
            elif index == 1:
                finished[key] = True
    for child in (first, second):
        child.expect(pexpect.EOF)
    snap = events.snapshot(event_id)
    assert snap.event.status == "building" and [p.pool_size for p in snap.players] == [60, 60, 60]


@pytest.mark.slow
def test_build_a_deck_at_the_terminal_registers_it(tmp_path):
    """A real terminal (a pseudo-terminal, the command in a process of its own): the deck builder's prompts at a terminal, to the registered deck."""
    import pexpect

    from tests.helpers.terminals import spawn

    db = tmp_path / "build.json"
    events = Night(Store(db))
    event_id = bots_event(events, names=NAMES[:3])
    events.seat(event_id)
    events.start_draft(event_id)
    child = spawn(["event", "deck", str(event_id), "Ann", "--build", "--db", str(db)], tmp_path)
    child.expect("deck> ")
    child.sendline("review")
    child.expect("event export")
    child.expect("deck> ")
    child.sendline("auto")
    child.expect("deck> ")
    child.sendline("done")
    child.expect("deck registered for 'Ann' \\([^)]*60 cards\\): legal")
    child.expect(pexpect.EOF)
    ann = next(p for p in events.snapshot(event_id).players if p.name == "Ann")
    assert ann.deck.valid
    entry = events.history(event_id)[-1]  # the history says the deck came from Ann's terminal, not the desk
    assert entry.what == "deck" and entry.who.startswith("terminal Ann (/dev/")


def test_board_warns_of_a_piper_shortfall(events, cli):
    event_id = bots_event(events, names=NAMES[:4])
    events.seat(event_id)
    events.start_draft(event_id)
    events.set_pipers(event_id, requests={name: 2 for name in NAMES[:4]})
    shown = cli("event", "show", str(event_id), "--db", events.store.path)
    ledger = events.piper_ledger(event_id)
    assert ledger.forecast.shortfall > 0 and "Piper forecast" in shown.stdout


def test_a_player_who_drops_mid_draft_is_replaced_by_a_bot(tmp_path):
    db = tmp_path / "drop.json"
    event_id = terminal_event(db, humans=("Ann", "Bo"), bots=())
    events = Night(Store(db))
    session = events.draft_session(event_id, 1)
    pod = events.snapshot(event_id).pods[0]
    ann_seat = pod.players.index(events.player_id(event_id, "Ann"))
    bo_seat = 1 - ann_seat
    session.pick(session.suggested_pick(ann_seat))
    events.drop_player(event_id, "Ann")
    session = events.draft_session(event_id, 1)
    assert session.humans == [bo_seat]
    while not session.draft.finished:
        session.pick(session.suggested_pick(bo_seat))
    events.after_picks(event_id, 1)
    snap = events.snapshot(event_id)
    assert snap.event.status == "building"
    assert {p.name: p.pool_size for p in snap.players} == {"Ann": 60, "Bo": 60}


def test_starting_a_draft_again_after_an_interruption_reuses_started_pods(tmp_path):
    db = tmp_path / "again.json"
    events = Night(Store(db))
    event_id = events.create("Again", style="terminal", seed=2)
    for name in NAMES:
        events.add_player(event_id, name)
    events.seat(event_id)
    first_ids = events.start_draft(event_id)
    with events.store.write() as handle:  # as if the process died before the status was saved
        handle.table("events").update({"status": "seated"}, doc_ids=[event_id])
    assert events.start_draft(event_id) == first_ids
    with events.store.read() as handle:
        assert len(handle.table("drafts")) == 2


def test_a_draft_of_one_player_is_refused_naming_the_sealed_event_that_takes_one(cli, tmp_path):
    """The refusal's other way, a sealed event, is a command that runs: there is no command that makes an event
    sealed once it is made, so it names the one that makes a sealed event, which opens a pool for one player."""
    db = tmp_path / "one.json"
    cli("event", "new", "Night", "--db", db)
    cli("event", "player", "add", "1", "Ann", "--db", db)
    refused = cli("event", "seat", "1", "--db", db)
    assert refused.exit_code == 3 and "at least 2 players, not 1" in refused.stderr
    (advice,) = re.findall(r"'cmdraft ([^']*)'", refused.stderr)
    made = cli(*shlex.split(advice.replace("NAME", "Solo")), "--json")
    assert made.exit_code == 0, made.output
    event_id = json.loads(made.stdout)["id"]
    cli("event", "player", "add", event_id, "Ann", "--db", db)
    assert cli("event", "draft", event_id, "--db", db).exit_code == 0  # one sealed pool opened
