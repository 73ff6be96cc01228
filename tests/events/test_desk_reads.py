"""What the desk reads during a night, on real database files: no-shows apart from the standings, undo that
asks before taking back a round or a seating, a late player told their seat, code slips several to a sheet,
the final standings, the Piper ledger, the history's rows in words."""

from __future__ import annotations

import csv
import json
import re
import shlex

import pytest

from events.storage.store import Store
from sets.errors import StateError
from tests.helpers.night import Night

FIVE = ["Ann", "Bo", "Cy", "Di", "Eve"]


@pytest.fixture
def events(tmp_path):
    return Night(Store(tmp_path / "desk.json"))


def bots_night(events, names, present, **pipers):
    """A bots draft where only ``present`` checked in: the rest are no-shows; decks registered (``pipers``: the
    ledger's settings, set before the decks are registered, as requests are made)."""
    event_id = events.create("Desk", style="bots", seed=9)
    for name in names:
        events.add_player(event_id, name)
    events.check_in(event_id, present)
    events.seat(event_id)
    events.start_draft(event_id)
    if pipers:
        events.set_pipers(event_id, **pipers)
    for name in present:
        events.register_deck(event_id, name, auto=True)
    return event_id


def play_round(events, event_id):
    rnd = events.new_round(event_id)
    number = len(events.snapshot(event_id).rounds)
    for table, names in enumerate(rnd.tables, start=1):
        events.record_result(event_id, number, table, " > ".join(f'"{n}"' for n in names))


# --- no-shows ------------------------------------------------------------------------------------------------------


def test_a_no_show_is_left_out_of_the_standings_and_listed_apart_as_did_not_play(events, cli, tmp_path):
    event_id = bots_night(events, FIVE, FIVE[:4])  # Eve registered, never checked in: never seated, never played
    play_round(events, event_id)
    assert "Eve" not in [row.name for row in events.standings(event_id)]
    assert len(events.standings(event_id)) == 4
    assert events.did_not_play(event_id) == ["Eve"]
    db = events.store.path
    shown = cli("event", "standings", event_id, "--db", db)
    assert shown.exit_code == 0
    ranked, _, apart = shown.stdout.partition("Did not play")
    assert "Eve" not in ranked and "Eve" in apart
    as_json = json.loads(cli("event", "standings", event_id, "--json", "--db", db).stdout)
    assert [row["player"] for row in as_json if row["player"] == "Eve"] == []
    sheet = cli("event", "print", event_id, "standings", "--db", db).stdout
    ranked, _, apart = sheet.partition("Did not play")
    assert "Eve" not in ranked and "Eve" in apart
    out = tmp_path / "export"
    assert cli("event", "export", event_id, "--out", out, "--db", db).exit_code == 0
    rows = list(csv.DictReader((out / "standings.csv").open(encoding="utf-8")))
    assert sorted(r["player"] for r in rows) == sorted(FIVE[:4])


def test_a_player_dropped_after_playing_stays_in_the_standings_marked_dropped(events):
    event_id = bots_night(events, FIVE, FIVE)
    play_round(events, event_id)
    events.drop_player(event_id, "Eve")
    assert {row.name: row.dropped for row in events.standings(event_id)}["Eve"] is True
    assert events.did_not_play(event_id) == []


# --- what the desk reads ---------------------------------------------------------------------------------------------


def test_a_finished_events_standings_say_final_standings(events, cli):
    event_id = bots_night(events, FIVE, FIVE)
    play_round(events, event_id)
    db = events.store.path
    assert "STANDINGS AFTER ROUND 1" in cli("event", "print", event_id, "standings", "--db", db).stdout
    assert "Final standings" not in cli("event", "standings", event_id, "--db", db).stdout
    events.finish(event_id)
    sheet = cli("event", "print", event_id, "standings", "--db", db).stdout
    assert "FINAL STANDINGS" in sheet and "after round" not in sheet
    assert "Final standings" in cli("event", "standings", event_id, "--db", db).stdout


# --- undo that asks before moving players ----------------------------------------------------------------------------


def test_undoing_a_round_pairing_needs_yes_away_from_a_terminal_and_list_says_what_comes_next(events, cli):
    event_id = bots_night(events, FIVE, FIVE)
    events.new_round(event_id)
    db = events.store.path
    listed = cli("event", "undo", event_id, "--list", "--db", db)
    assert listed.exit_code == 0 and "next to undo: the pairing of round 1" in listed.stdout
    assert "can be undone" in listed.stdout and "asks first" in listed.stdout
    # its time as every face writes one, to the minute in UTC, not the stored ISO text
    assert re.search(r"\(\d{4}-\d\d-\d\d \d\d:\d\d UTC\)", listed.stdout) and "+00:00" not in listed.stdout
    assert len(events.snapshot(event_id).rounds) == 1  # --list undid nothing
    refused = cli("event", "undo", event_id, "--db", db)
    assert refused.exit_code == 2 and "--yes" in refused.stderr and "pairing of round 1" in refused.stderr
    assert len(events.snapshot(event_id).rounds) == 1
    done = cli("event", "undo", event_id, "--yes", "--db", db)
    assert done.exit_code == 0 and "undid: round 1" in done.stdout and not events.snapshot(event_id).rounds
    listed = cli("event", "undo", event_id, "--list", "--db", db)  # next: a deck registration, not undoable
    assert "next to undo: deck" in listed.stdout and listed.stdout.count("can't be undone") == 1  # said once


def test_undoing_a_seating_needs_yes_but_a_name_is_undone_without_asking(events, cli):
    event_id = events.create("Desk", style="bots", seed=9)
    for name in FIVE:
        events.add_player(event_id, name)
    events.seat(event_id)
    db = events.store.path
    assert cli("event", "undo", event_id, "--db", db).exit_code == 2
    assert events.snapshot(event_id).event.status == "seated"
    assert cli("event", "undo", event_id, "--yes", "--db", db).exit_code == 0
    assert events.snapshot(event_id).event.status == "registration"
    events.rename_player(event_id, "Eve", "Eva")
    assert cli("event", "undo", event_id, "--db", db).exit_code == 0
    assert "Eve" in [p.name for p in events.snapshot(event_id).players]


def test_undo_list_and_undo_print_json_for_scripts_with_their_fields_in_order(events, cli):
    """``event undo --list --json``: the next entry's number, what, its words, when, whether it asks, why not;
    ``event undo --json``: what was undone and the old and new value; a change that can't be undone says why."""
    event_id = events.create("Desk", style="bots", seed=9)
    events.add_player(event_id, "Eve")
    events.rename_player(event_id, "Eve", "Eva")
    db = events.store.path
    entry = events.history(event_id)[-1]
    listed = cli("event", "undo", event_id, "--list", "--json", "--db", db).stdout
    coming = {"entry": entry.id, "what": "rename", "text": "rename: Eva", "at": entry.at, "asks": False}
    assert listed == json.dumps({**coming, "refused": None}) + "\n"
    done = json.loads(cli("event", "undo", event_id, "--json", "--db", db).stdout)
    assert list(done) == ["undid", "entry", "what", "old", "new"] and done["undid"].startswith("rename")
    assert (done["entry"], done["what"], done["old"], done["new"]) == (entry.id, "rename", "Eve", "Eva")
    other = events.create("Empty", style="bots", seed=9)
    refused = json.loads(cli("event", "undo", other, "--list", "--json", "--db", db).stdout)  # 'event new'
    assert refused["what"] == "event new" and "can't be undone" in refused["refused"]


def test_an_undo_confirmed_for_one_change_never_takes_back_another_made_meanwhile(events):
    event_id = bots_night(events, FIVE, FIVE)
    events.new_round(event_id)
    coming = events.next_change(event_id)
    events.rename_player(event_id, "Eve", "Eva")  # another desk changes something while the first one is asked
    with pytest.raises(StateError, match="another change was made meanwhile"):
        events.undo(event_id, expect=coming.entry)
    assert len(events.snapshot(event_id).rounds) == 1 and "Eva" in [p.name for p in events.snapshot(event_id).players]


@pytest.mark.slow
def test_at_a_terminal_undo_of_a_round_asks_and_no_keeps_it(events, tmp_path):
    import pexpect

    from tests.helpers.terminals import spawn_keys as spawn

    event_id = bots_night(events, FIVE, FIVE)
    events.new_round(event_id)
    args = ["event", "undo", str(event_id), "--db", str(events.store.path)]
    child = spawn(args, tmp_path)
    child.expect(r"Take back the pairing of round 1\? Players may be sitting at those tables \(y/N\)")
    child.sendline("")  # the default is no
    child.expect("nothing undone")
    child.expect(pexpect.EOF)
    assert len(events.snapshot(event_id).rounds) == 1
    child = spawn(args, tmp_path)
    child.expect(r"\(y/N\)")
    child.sendline("y")
    child.expect("undid: round 1")
    child.expect(pexpect.EOF)
    assert not events.snapshot(event_id).rounds


# --- a late player -----------------------------------------------------------------------------------------------------


def test_a_late_player_after_seating_is_told_the_pod_the_seat_and_that_a_code_slip_is_needed(events, cli):
    event_id = events.create("Desk", style="terminal", seed=9)
    for name in FIVE:
        events.add_player(event_id, name)
    events.seat(event_id)  # five players: one pod of five (pods hold up to 8)
    db = events.store.path
    added = cli("event", "player", "add", event_id, "Zed Late", "--db", db)
    assert added.exit_code == 0, added.output
    zed = events.player(event_id, "Zed Late")
    assert (zed.pod, zed.seat) == (1, 5)  # the sixth seat of pod 1
    assert "registered 'Zed Late' as player #6: pod 1, seat 6" in added.stdout
    assert f"needs a seat code slip: 'cmdraft event player code {event_id} 'Zed Late''" in added.stdout
    code = cli("event", "player", "code", event_id, "Zed Late", "--db", db)  # the command it names works
    assert code.exit_code == 0 and zed.code in code.stdout


def test_a_late_player_in_an_event_without_codes_is_told_the_seat_only(events, cli):
    event_id = events.create("Desk", style="bots", seed=9)
    for name in FIVE:
        events.add_player(event_id, name)
    events.seat(event_id)
    added = cli("event", "player", "add", event_id, "Zed", "--db", events.store.path)
    assert "as player #6: pod 1, seat 6" in added.stdout and "code" not in added.stdout


# --- seat-code slips -----------------------------------------------------------------------------------------------------

ELEVEN = ["Ann", "Bo", "Cy", "Di", "Eve", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kim O'Hara"]


def terminal_event(events, names):
    event_id = events.create("Codes", style="terminal", seed=3)
    for name in names:
        events.add_player(event_id, name)
    events.seat(event_id)
    return event_id


def test_seat_code_slips_print_five_to_a_sheet_with_cut_lines_each_with_the_players_own_command(events, cli):
    event_id = terminal_event(events, ELEVEN)
    text = cli("event", "print", event_id, "seatings", "--codes", "--db", events.store.path).stdout
    papers = text.split("\f")
    assert len(papers) == 3  # 11 slips: five on each of two sheets of paper, one on the third
    assert [paper.count("✂") for paper in papers] == [4, 4, 0]  # a cut line between slips on one sheet
    assert "--player NAME" not in text
    for player in events.snapshot(event_id).players:
        quoted = "'Kim O'\"'\"'Hara'" if player.name == "Kim O'Hara" else player.name
        assert f"cmdraft event draft {event_id} --player {quoted} " in text.replace("\n", " ")
        assert player.code in text
        assert f"SEATING SLIP · {player.name}\n" in text  # the name as typed, never upper-cased


# --- the Piper ledger once every deck is registered ----------------------------------------------------------------------


def two_pools(events, ann: str, bo: str) -> int:
    """A physical event of Ann and Bo, seated, these pools recorded (deck text): its id."""
    from draft.formats import parse

    event_id = events.create("Pipers", style="physical", seed=4)
    for name in ("Ann", "Bo"):
        events.add_player(event_id, name)
    events.seat(event_id)
    events.record_pool(event_id, "Ann", parse(ann))
    events.record_pool(event_id, "Bo", parse(bo))
    return event_id


def test_the_piper_forecast_is_shown_until_every_deck_is_registered(events, cli):
    from draft.formats import parse
    from sets.colors import Color

    event_id = two_pools(events, ann="1 The Prismatic Piper\n10 Murder\n", bo="10 Murder\n")
    events.set_pipers(event_id, requests={"Bo": 2})  # two requested, one could be lent: a forecast shortfall
    db = events.store.path
    assert "Forecast" in cli("event", "pipers", event_id, "--db", db).stdout
    # Bo's deck is registered adding none: it says what he adds now, his request is spent
    events.register_deck(event_id, "Bo", parse("Commander\n\nDeck\n5 Murder\n"))
    one_left = cli("event", "pipers", event_id, "--db", db).stdout  # Ann's deck isn't registered yet
    assert "Forecast" in one_left and re.search(r"Requested +none", one_left) and "forecast short" not in one_left
    events.register_deck(
        event_id, "Ann", parse("Commander\n1 The Prismatic Piper\nDeck\n5 Murder\n"), piper_colors=[Color.parse("B")]
    )
    ledger = events.piper_ledger(event_id)
    assert ledger.forecast.spent and ledger.forecast.shortfall == 0
    screen = cli("event", "pipers", event_id, "--db", db).stdout
    assert "Forecast" not in screen and "Requested" not in screen and "forecast" not in screen
    assert "Piper forecast" not in cli("event", "show", event_id, "--db", db).stdout


def test_a_shortfall_the_registered_decks_make_is_not_told_again_as_the_forecasts(events, cli):
    """The forecast counts what the registered decks add beside the requests still open: with no request open it
    is the decks' own shortfall, told once, not again as "forecast short ... if the requests hold"."""
    from draft.formats import parse
    from sets.colors import Color

    event_id = two_pools(events, ann="10 Murder\n", bo="1 The Prismatic Piper\n10 Murder\n")
    deck = parse("Commander\n2 The Prismatic Piper\nDeck\n5 Murder\n")
    events.register_deck(event_id, "Ann", deck, piper_colors=[Color.parse("B")] * 2)
    ledger = events.piper_ledger(event_id)
    assert (ledger.shortfall, ledger.forecast.shortfall, ledger.forecast.spent) == (1, 1, False)
    screen = cli("event", "pipers", event_id, "--db", events.store.path).stdout
    assert "Forecast" in screen and "forecast short" not in screen
    events.set_pipers(event_id, requests={"Bo": 1})  # Bo plans to add one, his own one lent: 2 short if he does
    screen = cli("event", "pipers", event_id, "--db", events.store.path).stdout
    assert "forecast short      2 Pipers, if the requests hold" in screen


# --- the event's history in words -------------------------------------------------------------------------------------------


def table_rows(text: str) -> list[list[str]]:
    """The rows of a boxed table as printed, each cell's wrapped lines joined by a space (a row starts where
    its first cell has text)."""
    rows: list[list[list[str]]] = []
    for line in text.splitlines():
        if not line.startswith("│"):
            continue
        cells = [cell.strip() for cell in line.strip("│").split("│")]
        if cells[0] or not rows:
            rows.append([[cell] if cell else [] for cell in cells])
        else:
            for parts, cell in zip(rows[-1], cells, strict=True):
                parts.extend([cell] if cell else [])
    return [[" ".join(parts) for parts in row] for row in rows]


def test_event_log_names_each_results_round_and_table_and_shows_rounds_and_ledgers_in_words(events, cli):
    event_id = bots_night(events, FIVE, FIVE, stock=2, requests={"Bo": 1})
    rnd = events.new_round(event_id)  # five players: one table of five
    events.record_result(event_id, 1, 1, " > ".join(f'"{n}"' for n in rnd.tables[0]))
    events.undo(event_id)  # the result taken back: the log says what came back, in words too
    db = events.store.path
    log = cli("event", "log", event_id, "--db", db)
    assert log.exit_code == 0
    rows = {row[3]: row for row in table_rows(log.stdout)}
    assert rows["result, round 1 table 1"][5] == " > ".join(rnd.tables[0])
    assert rows["round"][5] == "round 1: table 1: " + " / ".join(rnd.tables[0])
    assert rows["pipers"][5] == "store stock 2; requests: Bo 1"
    assert rows["undo (of #19)"][4] == " > ".join(rnd.tables[0])
    assert "{" not in log.stdout and '"tables"' not in log.stdout  # no raw JSON anywhere
    entries = json.loads(cli("event", "log", event_id, "--json", "--db", db).stdout)  # scripts keep the values
    assert any(e["what"] == "round" and e["new"]["tables"] == rnd.tables for e in entries)


def test_the_seat_code_hint_after_seating_keeps_its_command_on_one_line(events, cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    event_id = events.create("Codes", style="terminal", seed=3)
    for name in FIVE:
        events.add_player(event_id, name)
    seated = cli("event", "seat", event_id, "--db", events.store.path)
    assert seated.exit_code == 0
    lines = [line for line in seated.stdout.splitlines() if "cmdraft event print" in line]
    assert len(lines) == 1
    command = lines[0].strip()
    assert command.startswith("cmdraft event print") and command.endswith("--out slips.html")
    printed = cli(*shlex.split(command)[1:])  # the command works as copied
    assert printed.exit_code == 0 and "Seat code" in (tmp_path / "slips.html").read_text(encoding="utf-8")


def test_event_log_json_is_each_history_entry_as_written_then_its_number(events, cli):
    """``event log --json`` prints the entries exactly as the database file holds them (same keys, same order, an
    undo note only where one was written), each followed by its number: read here from the file itself."""
    event_id = bots_night(events, FIVE, FIVE, stock=2, requests={"Bo": 1})
    rnd = events.new_round(event_id)
    events.record_result(event_id, 1, 1, " > ".join(f'"{n}"' for n in rnd.tables[0]))
    events.undo(event_id)
    printed = cli("event", "log", event_id, "--json", "--db", events.store.path).stdout
    saved = json.loads(events.store.path.read_text(encoding="utf-8"))["history"]
    expected = [
        {**doc, "entry": int(number), "id": int(number)} for number, doc in saved.items() if doc["event"] == event_id
    ]
    assert printed == json.dumps(expected, ensure_ascii=False) + "\n"
    result = next(entry for entry in expected if entry["what"] == "result")
    assert result["undo"]["order"] is None and result["undo"]["closed"] is False  # defaults written are printed too


def test_the_boards_draft_column_says_done_once_the_pod_has_drafted_as_the_room_does(events, cli):
    """The pod's draft record moves on to its own "building" once the pools are recorded; the desk's board says the
    draft is done (the room display's word), not "building" while the rounds are played."""
    event_id = bots_night(events, ["Ann", "Bo", "Cy", "Di"], ["Ann", "Bo", "Cy", "Di"])
    play_round(events, event_id)
    board = cli("event", "show", event_id, "--db", events.store.path)
    pods = board.stdout.split("Draft pods")[1].split("Round 1")[0]
    assert board.exit_code == 0 and "done" in pods and "building" not in pods, pods
