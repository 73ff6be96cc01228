"""``event new`` refuses options that would be stored and never used, one line naming the option, exit 2, and
writes no event: a timer for a sealed event or a bots draft, no seat codes for a night that has none, a game size for 1v1."""

from __future__ import annotations

import pytest

from events.storage.store import Store
from sets.errors import InputError
from tests.helpers.night import Night


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--sealed", "--timer", "30"), "a sealed event has no picks to time"),
        (("--style", "bots", "--timer", "30"), "a bots draft has no player's picks to time"),
        (("--style", "physical", "--no-codes"), "seat codes are only for a draft at the players' terminals"),
        (("--style", "bots", "--no-codes"), "seat codes are only for a draft at the players' terminals"),
        (("--style", "terminal", "--sealed", "--no-codes"), "seat codes are only for a draft at the players'"),
        (("--1v1", "--game-size", "4"), "a 1v1 event's games are of two players: leave out the game pod size (4)"),
    ],
)
def test_an_option_the_event_would_never_use_is_refused_and_no_event_written(cli, tmp_path, args, words):
    db = tmp_path / "night.json"
    assert cli("event", "new", "Thursday", "--db", db).exit_code == 0  # a database with one event in it
    before = db.read_bytes()
    refused = cli("event", "new", "Friday", *args, "--db", db)
    assert refused.exit_code == 2
    assert words in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    assert "Traceback" not in refused.output
    assert db.read_bytes() == before  # no event written, nothing else changed


@pytest.mark.parametrize(
    "args",
    [("--1v1",), ("--game-size", "3"), ("--style", "terminal", "--no-codes"), ("--timer", "60"), ("--sealed",)],
)
def test_the_options_an_event_uses_are_still_taken(cli, tmp_path, args):
    made = cli("event", "new", "Friday", *args, "--db", tmp_path / "night.json", "--json")
    assert made.exit_code == 0, made.output


def test_the_core_refuses_them_whoever_asks(tmp_path):
    events = Night(Store(tmp_path / "event.json"))
    with pytest.raises(InputError, match="no picks to time"):
        events.create("Friday", mode="sealed", timer=45)
    with pytest.raises(InputError, match="games are of two players"):
        events.create("Friday", one_v_one=True, game_size=3)
    duel = events.create("Duels", one_v_one=True)
    assert events.create("Pods") != duel
