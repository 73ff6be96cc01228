"""What the desk reads during a night, on real database files: no-shows apart from the standings, undo that
asks before taking back a round or a seating, a late player told their seat, code slips several to a sheet,
the final standings, the Piper ledger, the history's rows in words."""

from __future__ import annotations

import csv
import json

import pytest

from events.storage.store import Store
from tests.night import Night

FIVE = ["Ann", "Bo", "Cy", "Di", "Eve"]


@pytest.fixture
def events(tmp_path):
    return Night(Store(tmp_path / "desk.json"))


def bots_night(events, names, present):
    """A bots draft where only ``present`` checked in: the rest are no-shows; decks registered."""
    event_id = events.create("Desk", style="bots", seed=9)
    for name in names:
        events.add_player(event_id, name)
    events.check_in(event_id, present)
    events.seat(event_id)
    events.start_draft(event_id)
    for name in present:
        events.register_deck(event_id, name, auto=True)
    return event_id


def play_round(events, event_id):
    rnd = events.new_round(event_id)
    number = len(events.snapshot(event_id).rounds)
    for table, names in enumerate(rnd["tables"], start=1):
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
