"""A desk that forgives mistakes (issue 22, items 1-4) on real database files: re-seat and late players,
corrections and undo, the audit log after every kind of change, check-in and names that are the same
name.  Expected figures come from the rules (pod sizes, points, who meets whom), never from the code."""

from __future__ import annotations

import json
import re
import shlex

import pytest

from events.night.history import DESK
from events.storage.store import Store
from sets.errors import InputError, StateError
from tests.helpers.night import Night, bots_drafted

SIXTEEN = [f"Player {n:02d}" for n in range(1, 17)]


@pytest.fixture
def events(tmp_path):
    return Night(Store(tmp_path / "friday.json"))


def last_entry(events, event_id, what=None):
    entries = events.history(event_id)
    if what is not None:
        entries = [e for e in entries if e.what == what]
    assert entries, f"no {what} entry in the history"
    entry = entries[-1]
    assert entry.who == DESK and entry.at
    return entry


def physical(events, names, **options):
    event_id = events.create("Friday", style="physical", seed=5, **options)
    for name in names:
        events.add_player(event_id, name)
    return event_id


def pods_of(events, event_id):
    snap = events.snapshot(event_id)
    names = {p.id: p.name for p in snap.players}
    return [[names[pid] for pid in pod.players] for pod in snap.pods]


# --- item 4: the same name, check-in, no-shows, drops --------------------------------------------------------


@pytest.mark.parametrize(
    "again", ["ann", "ANN", " Ann ", "Ann\u00a0", "Ａｎｎ", "A\u200bnn".replace("\u200b", ""), "ann  "]
)
def test_a_name_equal_to_another_after_folding_is_refused_showing_the_player(events, again):
    event_id = physical(events, ["Ann", "Bo"])
    with pytest.raises(InputError, match=r"same name as player #1 'Ann'"):
        events.add_player(event_id, again)
    assert [p.name for p in events.snapshot(event_id).players] == ["Ann", "Bo"]


@pytest.mark.parametrize(
    ("first", "second"),
    [("Jo ", "Jo"), ("José", "Jose\u0301"), ("ﬁona", "Fiona"), ("Mary  Jane", "mary jane"), ("STRASSE", "straße")],
)
def test_unicode_forms_spaces_and_case_make_the_same_name(events, cli, first, second):
    event_id = physical(events, [first])
    result = cli("event", "player", "add", event_id, second, "--db", events.store.path)
    assert result.exit_code == 2 and "same name as player #1" in result.stderr
    rename = cli("event", "player", "add", event_id, "Other", "--db", events.store.path)
    assert rename.exit_code == 0
    clash = cli("event", "player", "rename", event_id, "Other", second, "--db", events.store.path)
    assert clash.exit_code == 2 and "same name as player #1" in clash.stderr


@pytest.mark.parametrize(
    ("names", "refusal"),
    [
        (["A1", "A2", "x" * 81, "A3"], r"player name 'x{24}…' is 81 characters; keep it to 80; none of the 4 names"),
        (["A1", "Ann", "A3"], r"'Ann' is the same name as player #1 'Ann'.*; none of the 3 names"),
        (["A1", "B", "a1"], r"'a1' is the same name as 'A1', given before it.*; none of the 3 names"),
    ],
)
def test_adding_several_players_is_all_or_nothing(events, cli, names, refusal):
    event_id = physical(events, ["Ann"])
    with pytest.raises(InputError, match=refusal):
        events.add_players(event_id, names)
    result = cli("event", "player", "add", event_id, *names, "--db", events.store.path)
    assert result.exit_code == 2 and "none of the" in result.stderr and len(result.stderr.splitlines()) == 1
    assert [p.name for p in events.snapshot(event_id).players] == ["Ann"]
    assert [e.what for e in events.history(event_id)].count("player add") == 1
    again = cli("event", "player", "add", event_id, "A1", "A2", "A3", "--db", events.store.path)
    assert again.exit_code == 0
    assert [p.name for p in events.snapshot(event_id).players] == ["Ann", "A1", "A2", "A3"]


def test_check_in_seats_only_those_present_and_lists_no_shows(events, cli):
    event_id = physical(events, SIXTEEN[:10])
    result = cli("event", "player", "checkin", event_id, "Player 01", "Player 02", "--db", events.store.path)
    assert result.exit_code == 0 and "checked in: Player 01 / Player 02" in result.stdout
    assert last_entry(events, event_id, "checkin").new == ["Player 01", "Player 02"]
    for name in SIXTEEN[2:8]:
        events.check_in(event_id, [name])
    again = cli("event", "player", "checkin", event_id, "Player 01", "--db", events.store.path)
    assert again.exit_code == 3 and "already checked in" in again.stderr
    seated = cli("event", "seat", event_id, "--db", events.store.path)
    assert seated.exit_code == 0 and "No-shows (not seated): Player 09 / Player 10" in seated.stdout
    snap = events.snapshot(event_id)
    assert sum(len(pod.players) for pod in snap.pods) == 8  # the eight present, one pod of 8
    assert {p.name: p.status for p in snap.players}["Player 09"] == "no-show"
    assert last_entry(events, event_id, "seat").new == pods_of(events, event_id)


def test_check_in_all_then_everyone_is_seated(events, cli):
    event_id = physical(events, SIXTEEN[:5])
    result = cli("event", "player", "checkin", event_id, "--all", "--db", events.store.path)
    assert result.exit_code == 0
    events.seat(event_id)
    assert sorted(n for pod in pods_of(events, event_id) for n in pod) == SIXTEEN[:5]


def test_a_dropped_player_gets_no_further_pairings_and_the_board_says_so(events, cli):
    event_id = events.create("Drops", style="bots", seed=2)
    for name in SIXTEEN[:8]:
        events.add_player(event_id, name)
    events.seat(event_id)
    events.start_draft(event_id)
    for name in SIXTEEN[:8]:
        events.register_deck(event_id, name, auto=True)
    first = events.new_round(event_id)
    for number, table in enumerate(first.tables, start=1):
        events.record_result(event_id, 1, number, " > ".join(f'"{n}"' for n in table))
    result = cli("event", "player", "drop", event_id, "Player 03", "--db", events.store.path)
    assert result.exit_code == 0
    assert last_entry(events, event_id, "drop").old == "Player 03: active"
    second = events.new_round(event_id)
    assert "Player 03" not in [n for table in second.tables for n in table]
    assert sum(len(t) for t in second.tables) == 7
    board = cli("event", "show", event_id, "--db", events.store.path).stdout
    assert "Player 03" in board and "dropped after round 1: not paired again" in board


# --- item 1: re-seat and late players --------------------------------------------------------------------------


def test_seat_again_redraws_pods_after_a_backup_with_the_old_seating_in_the_log(events, cli):
    event_id = physical(events, SIXTEEN)
    events.seat(event_id)
    before = pods_of(events, event_id)
    assert [len(pod) for pod in before] == [8, 8]
    backups = set(events.store.path.parent.glob("friday.json.bak.*"))
    result = cli("event", "seat", event_id, "--again", "--db", events.store.path)
    assert result.exit_code == 0, result.output
    after = pods_of(events, event_id)
    assert after != before and sorted(sum(after, [])) == sorted(sum(before, []))
    assert set(events.store.path.parent.glob("friday.json.bak.*")) > backups  # a backup first
    entry = last_entry(events, event_id, "reseat")
    assert entry.old == before and entry.new == after
    seats = {(p.pod, p.seat) for p in events.snapshot(event_id).players}
    assert len(seats) == 16  # nobody shares a seat


def test_a_seventeenth_player_gets_a_reseat_offer_then_three_pods(events, cli):
    event_id = physical(events, SIXTEEN)
    events.seat(event_id)
    late = cli("event", "player", "add", event_id, "Late Larry", "--db", events.store.path)
    assert late.exit_code == 0
    assert f"cmdraft event seat {event_id} --again" in late.stdout and "6 / 6 / 5" in late.stdout.replace(", ", " / ")
    start = cli("event", "draft", event_id, "--db", events.store.path)
    assert start.exit_code == 3 and "Late Larry" in start.stderr and "--again" in start.stderr
    events.seat(event_id, again=True)
    assert sorted(len(pod) for pod in pods_of(events, event_id)) == [5, 6, 6]  # 17 in balanced pods of at most 8


def test_a_seventeenth_player_after_check_in_is_seated_by_the_reseat_it_offers(events, cli):
    """Check-in used, 16 seated, a 17th registered at the desk: they are here, so the re-seat the desk is
    offered seats all 17 (6 / 6 / 5), never leaves the late player out as a no-show."""
    event_id = physical(events, SIXTEEN)
    assert cli("event", "player", "checkin", event_id, "--all", "--db", events.store.path).exit_code == 0
    events.seat(event_id)
    late = cli("event", "player", "add", event_id, "Late Larry", "--db", events.store.path)
    assert late.exit_code == 0 and "all 17 players" in late.stdout
    again = cli("event", "seat", event_id, "--again", "--db", events.store.path)
    assert again.exit_code == 0, again.output
    assert "No-shows" not in again.stdout
    assert sorted(len(pod) for pod in pods_of(events, event_id)) == [5, 6, 6]
    assert any("Late Larry" in pod for pod in pods_of(events, event_id))
    larry = next(p for p in events.snapshot(event_id).players if p.name == "Late Larry")
    assert larry.status == "active"


def test_a_late_player_joins_a_pod_with_room(events):
    event_id = physical(events, SIXTEEN[:15])
    events.seat(event_id)
    assert sorted(len(pod) for pod in pods_of(events, event_id)) == [7, 8]
    events.add_player(event_id, "Late")
    pods = pods_of(events, event_id)
    assert sorted(len(pod) for pod in pods) == [8, 8] and any("Late" in pod for pod in pods)
    assert last_entry(events, event_id, "player add").new.startswith("Late (pod ")


def test_after_the_draft_starts_a_late_player_joins_sealed_or_is_told_why_not(events, cli):
    event_id = physical(events, SIXTEEN[:4])
    events.seat(event_id)
    events.start_draft(event_id)
    refused = cli("event", "player", "add", event_id, "Late", "--db", events.store.path)
    assert refused.exit_code == 3 and "the draft has started" in refused.stderr and "--sealed" in refused.stderr
    joined = cli("event", "player", "add", event_id, "Late", "--sealed", "--db", events.store.path)
    assert joined.exit_code == 0, joined.output
    assert len(events.pool(event_id, "Late")) == 120  # six CMR draft boosters of 20 (rules: sealed opens six)
    late = next(p for p in events.snapshot(event_id).players if p.name == "Late")
    assert late.pool_warning is None  # a sealed pool in a draft event is held to the sealed size
    assert last_entry(events, event_id, "player add").new == "Late (sealed pool)"


def test_seating_again_after_the_draft_started_is_refused(events):
    event_id = physical(events, SIXTEEN[:4])
    events.seat(event_id)
    events.start_draft(event_id)
    from draft.formats import parse

    events.record_pool(event_id, "Player 01", parse("10 Murder\n"))  # physical: the first pool means drafting
    with pytest.raises(StateError, match="draft has started"):
        events.seat(event_id, again=True)


# --- item 2: corrections and undo -------------------------------------------------------------------------------


def one_v_one(events):
    """Four players, 1v1, decks registered: round 1 is random, round 2 pairs winners with winners."""
    return bots_drafted(events, "Duels", ["Ann", "Bo", "Cy", "Di"], seed=8, one_v_one=True)


def test_a_result_is_correctable_after_the_next_round_and_says_which_tables_it_would_change(events, cli):
    event_id = one_v_one(events)
    first = events.new_round(event_id).tables
    (a, b), (c, d) = first
    events.record_result(event_id, 1, 1, f"{a} > {b}")
    events.record_result(event_id, 1, 2, f"{c} > {d}")
    second = events.new_round(event_id).tables
    assert sorted(map(sorted, second)) == sorted([sorted([a, c]), sorted([b, d])])  # winners meet winners
    # The same result again changes nothing; the loser winning instead would have paired both tables differently.
    same = events.record_result(event_id, 1, 2, f"{c} > {d}", replace=True)
    assert same.would_change == []
    result = cli("event", "result", event_id, "1", "1", f"{b} > {a}", "--replace", "--db", events.store.path)
    assert result.exit_code == 0, result.output
    assert "would have changed tables 1 / 2 of round 2" in result.stdout
    said = " ".join(result.stdout.split())  # (wrapped at the terminal's width)
    assert f"'cmdraft event round {event_id} --again --db {events.store.path}' pairs the current round again" in said
    entry = last_entry(events, event_id, "result")
    assert entry.old == f"{a} > {b}" and entry.new == f"{b} > {a}"
    points = {row.name: row.points for row in events.standings(event_id)}
    assert points[b] == 3 and points[a] == 2  # the standings follow the correction (3,2,1,0: 3 for 1st, 2 for 2nd)


def test_event_undo_takes_back_the_desks_last_change_and_says_what(events, cli):
    event_id = one_v_one(events)
    (a, b), (c, d) = events.new_round(event_id).tables
    events.record_result(event_id, 1, 1, f"{a} > {b}")
    events.rename_player(event_id, c, "Cyril")
    undo = cli("event", "undo", event_id, "--db", events.store.path)
    assert undo.exit_code == 0 and "undid: rename" in undo.stdout and f"'Cyril' back to '{c}'" in undo.stdout
    assert c in [p.name for p in events.snapshot(event_id).players]
    undo = cli("event", "undo", event_id, "--db", events.store.path)
    assert undo.exit_code == 0 and "undid: result of round 1 table 1" in undo.stdout
    assert not [r for r in events.snapshot(event_id).results if r.table == 1]
    assert last_entry(events, event_id, "undo").undoes
    undo = cli("event", "undo", event_id, "--yes", "--db", events.store.path)  # the round pairing: needs --yes
    assert undo.exit_code == 0 and "undid: round 1" in undo.stdout and not events.snapshot(event_id).rounds
    unsafe = cli("event", "undo", event_id, "--db", events.store.path)  # deck registration: register again instead
    assert unsafe.exit_code == 3 and "can't be undone" in unsafe.stderr


def test_game_tracker_entries_can_be_undone(events, cli):
    event_id = one_v_one(events)
    (a, b), _ = events.new_round(event_id).tables
    commander = events.snapshot(event_id).players[[p.name for p in events.snapshot(event_id).players].index(b)]
    names = [c["name"] for c in commander.deck.commanders]
    # The packs come from the event's secret (new each run): a deck may lead with two Pipers, named apart.
    name = names[0] if names.count(names[0]) == 1 else f"{names[0]}#1"
    events.game(event_id, 1, 1, life={a: -5})
    board = events.game(event_id, 1, 1, damage=[(a, b, name, 7)])
    assert board.players[0].life == 40 - 5 - 7  # rules: life starts at 40, damage lowers it
    result = cli("event", "game", event_id, "1", "1", "--undo", "--db", events.store.path)
    assert result.exit_code == 0
    board = events.game(event_id, 1, 1)
    assert board.players[0].life == 35 and board.players[0].commander_damage == []
    assert last_entry(events, event_id, "game undo").old
    events.game(event_id, 1, 1, undo=True)
    assert events.game(event_id, 1, 1).players[0].life == 40
    with pytest.raises(StateError, match="nothing to undo"):
        events.game(event_id, 1, 1, undo=True)


# --- item 3: the log and the export ---------------------------------------------------------------------------------


def test_event_log_shows_every_change_and_the_export_carries_it(events, cli, tmp_path):
    event_id = physical(events, ["Ann", "Bo", "Cy"])
    events.rename_player(event_id, "Cy", "Cyd")
    shown = cli("event", "log", event_id, "--db", events.store.path)
    assert shown.exit_code == 0 and "rename" in shown.stdout and "Cyd" in shown.stdout and "desk" in shown.stdout
    entries = json.loads(cli("event", "log", event_id, "--json", "--db", events.store.path).stdout)
    assert [e["what"] for e in entries] == ["event new", "player add", "player add", "player add", "rename"]
    assert entries[-1]["old"] == "Cy" and entries[-1]["new"] == "Cyd"
    assert all(set(e) >= {"at", "who", "what", "old", "new"} for e in entries)
    out = tmp_path / "out"
    assert cli("event", "export", event_id, "--out", out, "--db", events.store.path).exit_code == 0
    data = json.loads((out / "database.json").read_text(encoding="utf-8"))
    assert len(data["history"]) == len(entries)
    assert (out / "history.csv").read_text(encoding="utf-8").count("\n") == len(entries) + 1


def test_every_kind_of_change_appends_to_the_history_in_order(events, cli, tmp_path):
    """A whole physical night at the desk; after each change the history's newest entry is that change."""
    from draft.formats import parse

    def check(what, old=..., new=...):
        entry = events.history(event_id)[-1]
        assert entry.what == what and entry.who == DESK, (what, entry)
        if old is not ...:
            assert entry.old == old, (what, entry)
        if new is not ...:
            assert entry.new == new, (what, entry)

    event_id = events.create("Whole night", style="physical", seed=21)
    check("event new", None, "Whole night")
    for name in ("Ann", "Bo", "Cy", "Di", "Ed"):
        events.add_player(event_id, name)
        check("player add", None, name)
    events.check_in(event_id, ["Ann", "Bo", "Cy", "Di"])
    check("checkin", None, ["Ann", "Bo", "Cy", "Di"])
    events.seat(event_id)
    check("seat", None, pods_of(events, event_id))
    first = pods_of(events, event_id)
    events.seat(event_id, again=True)
    check("reseat", first, pods_of(events, event_id))
    events.rename_player(event_id, "Di", "Dee")
    check("rename", "Di", "Dee")
    events.start_draft(event_id)
    check("draft start")
    pool = tmp_path / "pool.txt"
    for name in ("Ann", "Bo", "Cy", "Dee"):
        events.record_pool(event_id, name, parse("1 The Prismatic Piper\n20 Murder\n"))
        if name != "Dee":
            check("pool", None, f"{name}: 21 cards")
    last, moved = events.history(event_id)[-2:]  # the last pool moves the event on: cmdraft says so itself
    assert (last.what, last.new) == ("pool", "Dee: 21 cards")
    assert (moved.what, moved.who, moved.new) == ("drafting done", "cmdraft", "building")
    pool.write_text("22 Murder\n", encoding="utf-8")
    assert (
        cli("event", "pool", event_id, "Ann", "--edit", "--db", events.store.path, input="1 Plains\n\n").exit_code == 0
    )
    check("pool", "21 cards", "Ann: 22 cards")
    events.set_pipers(event_id, stock=2)
    check("pipers")
    for name in ("Ann", "Bo", "Cy", "Dee"):
        events.register_deck(event_id, name, parse("1 Murder\n"))
        check("deck", None)
    tables = events.new_round(event_id, force=True).tables
    check("round", None, {"round": 1, "tables": tables})
    table = tables[0]
    from events.night.round_clock import start_clock, toggle_pause

    start_clock(events, event_id, 30)
    check("clock", None, "round 1: 30 minutes from now")
    toggle_pause(events, event_id, 1)
    check("clock", "round 1: running", "round 1: paused")
    events.game(event_id, 1, 1, life={table[0]: -3})
    check("game", "round 1 table 1", f"life {table[0]} -3")
    events.game(event_id, 1, 1, undo=True)
    check("game undo", f"life {table[0]} -3", "round 1 table 1")
    order = " > ".join(table)
    events.record_result(event_id, 1, 1, order)
    check("result", None, order)
    events.undo(event_id)
    check("undo", order, None)
    events.record_result(event_id, 1, 1, order)
    events.drop_player(event_id, "Cy")
    check("drop", "Cy: active", "Cy: dropped")
    events.finish(event_id)
    check("finish", "playing", "finished")
    assert events.snapshot(event_id).players[4].status == "no-show"  # Ed never checked in


def test_a_drop_names_its_player_in_the_log_and_in_what_undo_would_take_back(events, cli):
    """Docs (History): every change is kept with what it was and its old and new value; `event undo --list` shows
    what would be undone next.  A drop says whose; undoing it puts them back as they were."""
    event_id = physical(events, ["Ann", "Bo", "Cy", "Di"])
    events.check_in(event_id, ["Ann", "Bo", "Cy"])
    events.seat(event_id)  # Di: a no-show
    db = events.store.path
    assert cli("event", "player", "drop", event_id, "Di", "--db", db).exit_code == 0
    entry = last_entry(events, event_id, "drop")
    assert (entry.old, entry.new) == ("Di: no-show", "Di: dropped")
    log = json.loads(cli("event", "log", event_id, "--json", "--db", db).stdout)
    assert (log[-1]["what"], log[-1]["old"], log[-1]["new"]) == ("drop", "Di: no-show", "Di: dropped")
    coming = cli("event", "undo", event_id, "--list", "--db", db)
    assert "next to undo: drop: Di: dropped" in coming.stdout, coming.stdout
    undone = cli("event", "undo", event_id, "--db", db)
    assert undone.exit_code == 0 and "drop of 'Di': back in the event" in undone.stdout
    assert {p.name: p.status for p in events.players(event_id)}["Di"] == "no-show"


def test_player_numbers_count_per_event(events, cli):
    first = physical(events, ["Ann", "Bo"])
    second = physical(events, ["Cy", "Di"])
    numbers = {p.name: p.number for e in (first, second) for p in events.snapshot(e).players}
    assert numbers == {"Ann": 1, "Bo": 2, "Cy": 1, "Di": 2}
    shown = cli("event", "player", "add", second, "Ed", "--db", events.store.path).stdout
    assert "as player #3" in shown
    assert "Di" in cli("event", "player", "rename", second, "#2", "Dee", "--db", events.store.path).stdout
    assert "#2" in cli("event", "show", second, "--db", events.store.path).stdout


def test_a_no_show_who_comes_after_all_is_checked_in_and_seated_late(events, cli):
    event_id = physical(events, SIXTEEN[:6])
    events.check_in(event_id, SIXTEEN[:5])
    events.seat(event_id)
    assert events.no_shows(event_id) == ["Player 06"]
    result = cli("event", "player", "checkin", event_id, "Player 06", "--db", events.store.path)
    assert result.exit_code == 0 and "Player 06 (pod 1, seat 6)" in result.stdout
    snap = events.snapshot(event_id)
    assert {p.name: p.status for p in snap.players}["Player 06"] == "active" and len(snap.pods[0].players) == 6
    assert last_entry(events, event_id, "checkin").new == ["Player 06 (pod 1, seat 6)"]


def test_the_history_travels_with_an_export_and_undo_never_reaches_behind_a_restore(events, cli, tmp_path):
    event_id = physical(events, ["Ann", "Bo"])
    events.rename_player(event_id, "Bo", "Bob")
    out = tmp_path / "out"
    assert cli("event", "export", event_id, "--out", out, "--db", events.store.path).exit_code == 0
    other = Night(Store(tmp_path / "other.json"))
    assert cli("event", "restore", out / "database.json", "--db", other.store.path).exit_code == 0
    restored = other.history(1)
    assert [e.what for e in restored] == ["event new", "player add", "player add", "rename", "restore"]
    refused = cli("event", "undo", "1", "--db", other.store.path)
    assert refused.exit_code == 3 and "can't be undone" in refused.stderr
    assert [p.name for p in other.snapshot(1).players] == ["Ann", "Bob"]


def test_a_restored_events_log_still_names_each_results_round_and_table(events, cli, tmp_path):
    """Docs (History): `event log` names a result's round and table.  A restore dropped what undo keeps, and with it
    the round and table: the restored log said "result" for every table, which the desk can't tell apart."""
    event_id = one_v_one(events)
    (a, b), (c, d) = events.new_round(event_id).tables
    events.record_result(event_id, 1, 1, f"{a} > {b}")
    events.record_result(event_id, 1, 2, f"{c} > {d}")
    out = tmp_path / "out"
    assert cli("event", "export", event_id, "--out", out, "--db", events.store.path).exit_code == 0
    other = Night(Store(tmp_path / "other.json"))
    assert cli("event", "restore", out / "database.json", "--db", other.store.path).exit_code == 0
    said = [e.what_text for e in other.history(1) if e.what == "result"]
    assert said == ["result, round 1 table 1", "result, round 1 table 2"], said
    log = cli("event", "log", "1", "--db", other.store.path)
    assert "result, round 1 table 2" in " ".join(log.stdout.split()), log.stdout
    refused = cli("event", "undo", "1", "--db", other.store.path)  # undo still never reaches behind the restore
    assert refused.exit_code == 3 and "can't be undone" in refused.stderr


def test_a_round_paired_after_a_correction_follows_the_corrected_points(events):
    event_id = one_v_one(events)
    (a, b), (c, d) = events.new_round(event_id).tables
    events.record_result(event_id, 1, 1, f"{a} > {b}")
    events.record_result(event_id, 1, 2, f"{c} > {d}")
    events.record_result(event_id, 1, 1, f"{b} > {a}", replace=True)  # the slip was read the wrong way round
    second = events.new_round(event_id).tables
    # Round 2 sorts by points: the two winners (now b and c) meet, and so do the two losers.
    assert sorted(map(sorted, second)) == sorted([sorted([b, c]), sorted([a, d])])


def test_event_undo_takes_back_each_kind_of_safe_change(events):
    event_id = physical(events, SIXTEEN[:6])
    events.add_player(event_id, "Zed")
    assert events.undo(event_id).undid.startswith("player add of 'Zed'")
    assert "Zed" not in [p.name for p in events.snapshot(event_id).players]
    events.check_in(event_id, SIXTEEN[:5])
    events.undo(event_id)
    assert not any(p.checked_in for p in events.snapshot(event_id).players)
    events.seat(event_id)
    events.undo(event_id)
    snap = events.snapshot(event_id)
    assert snap.event.status == "registration" and not snap.pods and all(p.pod is None for p in snap.players)
    events.seat(event_id)
    before = pods_of(events, event_id)
    events.seat(event_id, again=True)
    assert pods_of(events, event_id) != before
    events.undo(event_id)
    assert pods_of(events, event_id) == before
    events.drop_player(event_id, SIXTEEN[0])
    events.undo(event_id)
    assert events.snapshot(event_id).players[0].status == "active"
    taken = [e.undoes for e in events.history(event_id) if e.what == "undo"]
    assert len(taken) == len(set(taken)) == 5  # each undo took back a different entry


def test_starting_serve_for_the_phones_leaves_the_seating_undoable(events, cli):
    """README (phones) and Corrections: the desk seats, starts `cmdraft serve` (its first start makes the desk's
    link, a history entry) and may still take the seating back before the draft: the link is no change to undo."""
    from events.night import desk_link

    event_id = events.create("Phones", style="terminal", seed=3)
    for name in ("Ann", "Bo", "Cy"):
        events.add_player(event_id, name)
    events.seat(event_id)
    assert desk_link.ensure(events, event_id) is not None  # what the first `cmdraft serve ID` does
    desk_link.renew(events, event_id)  # and --new-desk-link
    coming = cli("event", "undo", event_id, "--list", "--db", events.store.path)
    assert "next to undo: the draft seating" in coming.stdout, coming.stdout
    undone = cli("event", "undo", event_id, "--yes", "--db", events.store.path)
    assert undone.exit_code == 0 and "undid: seat" in undone.stdout, undone.output
    assert events.snapshot(event_id).event.status == "registration"
    assert [e.what for e in events.history(event_id)][-3:] == ["desk link made", "desk link renewed", "undo"]


def test_a_round_clock_or_a_closing_time_that_cant_be_undone_is_refused_naming_a_command_that_runs(events, cli):
    """Corrections: a change undo doesn't take back is refused (3) saying what to do instead, a command that
    exists and runs (not "make the change again the other way")."""
    from events.night.round_clock import start_clock

    event_id = one_v_one(events)
    db = str(events.store.path)
    events.close_decks(event_id, at=4_000_000_000.0)  # a closing time later tonight
    refused = cli("event", "undo", event_id, "--db", db)
    assert refused.exit_code == 3 and "other way" not in refused.stderr, refused.stderr
    (advice,) = re.findall(r"'cmdraft ([^']*)'", refused.stderr)
    assert advice == f"event deck {event_id} --close HH:MM --db {db}"
    assert cli(*shlex.split(advice.replace("HH:MM", "23:59"))).exit_code == 0
    events.new_round(event_id)
    start_clock(events, event_id, 30)
    refused = cli("event", "undo", event_id, "--db", db)
    assert refused.exit_code == 3 and "other way" not in refused.stderr, refused.stderr
    (advice,) = re.findall(r"'cmdraft ([^']*)'", refused.stderr)
    assert advice == f"event clock {event_id} --restart --db {db}"
    assert cli(*shlex.split(advice), input="q").exit_code == 0


def test_an_undo_that_is_not_safe_is_refused_and_nothing_changes(events, cli):
    event_id = one_v_one(events)
    (a, b), (c, d) = events.new_round(event_id).tables
    events.record_result(event_id, 1, 1, f"{a} > {b}")
    events.record_result(event_id, 1, 2, f"{c} > {d}")
    events.finish(event_id)
    entries = len(events.history(event_id))
    refused = cli("event", "undo", event_id, "--db", events.store.path)
    assert (
        refused.exit_code == 3 and "(finish: finished) can't be undone" in refused.stderr and "backup" in refused.stderr
    )
    assert len(events.history(event_id)) == entries and events.snapshot(event_id).event.status == "finished"
    # A drop while drafting handed the seat to a bot: taking it back is not safe.
    drafting = physical(events, SIXTEEN[:4])
    events.seat(drafting)
    events.start_draft(drafting)
    events.drop_player(drafting, SIXTEEN[0])
    with pytest.raises(StateError, match="a bot took their draft seat"):
        events.undo(drafting)
    assert events.snapshot(drafting).players[0].status == "dropped"


def test_an_undo_refused_after_finish_names_the_real_backup_and_its_command_works(events, cli):
    """'event undo' after 'event finish' can't take it back; the refusal names this database's own backup
    (no NAME placeholder to guess) in a command that, run as shown, brings the event back to playing."""
    import shlex

    event_id = one_v_one(events)
    (a, b), (c, d) = events.new_round(event_id).tables
    events.record_result(event_id, 1, 1, f"{a} > {b}")
    events.record_result(event_id, 1, 2, f"{c} > {d}")
    events.finish(event_id)
    refused = cli("event", "undo", event_id, "--db", events.store.path)
    assert refused.exit_code == 3 and "NAME" not in refused.stderr
    command = refused.stderr.split("'cmdraft ", 1)[1].split("')", 1)[0].split("' if", 1)[0]
    args = shlex.split(command)
    assert args[:2] == ["event", "restore"] and str(events.store.path) + ".bak.1" in args
    restored = cli(*args)
    assert restored.exit_code == 0, restored.output
    assert events.snapshot(event_id).event.status == "playing"


def test_an_undo_refused_after_finish_advises_restoring_that_one_event_from_the_backup_taken_before_it(events, cli):
    """The advice restores one event (--event ID, never --all: other events stay as they are), from the newest
    readable backup taken before the finish (not a backup another event's step made since), and says its time."""
    import shlex

    event_id = one_v_one(events)
    (a, b), (c, d) = events.new_round(event_id).tables
    events.record_result(event_id, 1, 1, f"{a} > {b}")
    events.record_result(event_id, 1, 2, f"{c} > {d}")
    events.finish(event_id)
    other = events.create("Saturday", style="bots", seed=3)
    for name in ("Eve", "Fay"):
        events.add_player(other, name)
    events.seat(other)  # a backup that holds the finish
    listed = cli("event", "undo", event_id, "--list", "--db", events.store.path)
    assert listed.exit_code == 0 and "--all" not in listed.stdout and "saved " in listed.stdout
    args = shlex.split(listed.stdout.split("'cmdraft ", 1)[1].split("'", 1)[0])
    assert args[:2] == ["event", "restore"] and args[args.index("--event") + 1] == str(event_id)
    assert args[2] == str(events.store.path) + ".bak.2"
    assert cli(*args).exit_code == 0
    assert events.snapshot(event_id).event.status == "playing"
    assert [p.name for p in events.snapshot(other).players] == ["Eve", "Fay"]
    assert events.snapshot(other).event.status == "seated"


def test_an_undo_confirmed_after_another_change_names_the_undo_to_run_again(events, cli):
    """`event undo` asks first for a round or a seating; a change made meanwhile is not undone in its place, and
    the refusal names the command that takes back the change now last (it runs as typed)."""
    from events.night.undo import Undo

    event_id = physical(events, ["Ann", "Bo", "Cy"])
    events.seat(event_id)
    asked = Undo(events.store).next_change(event_id)  # the seating: the desk is asked (y/N) ...
    events.rename_player(event_id, "Cy", "Cyd")  # ... while another terminal renames a player
    with pytest.raises(StateError) as refused:
        Undo(events.store).undo(event_id, expect=asked.entry)
    said = str(refused.value)
    assert "another change was made meanwhile" in said and "nothing undone" in said
    (advice,) = re.findall(r"'cmdraft ([^']*)'", said)
    assert advice == f"event undo {event_id} --db {events.store.path}"
    again = cli(*shlex.split(advice))
    assert again.exit_code == 0 and "'Cyd' back to 'Cy'" in again.stdout


def test_what_undo_would_take_back_is_said_in_the_logs_words_never_as_raw_data(events):
    """Corrections: `event undo --list` (and the desk page's question before an undo) names the change as
    `event log` does: a check-in's players joined, the ledger's settings named; no Python list or dict."""
    event_id = events.create("Words", style="physical", seed=3)
    for name in ("Ann", "Bo", "Cy"):
        events.add_player(event_id, name)
    events.check_in(event_id, ["Ann", "Bo"])
    assert events.next_change(event_id).text == "checkin: Ann / Bo"
    events.set_pipers(event_id, stock=2)
    coming = events.next_change(event_id)
    assert coming.text == "pipers: store stock 2"
    assert coming.refused is not None and "{" not in coming.refused and "Piper" not in coming.refused
