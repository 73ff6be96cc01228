"""One shape for one thing across every command's ``--json`` (docs/commands.md, docs/store-night.md): a deck's
commanders by name, a player row named ``name`` with its ``id`` and ``number``, written with the names people type
(quotes, a tab, right-to-left text, an emoji)."""

from __future__ import annotations

import json

NAMES = ['Ann "the Ace" O\'Neil', "Bo\tTab", "سارا", "🧙 Dee"]
SHOWN = ['Ann "the Ace" O\'Neil', "Bo Tab", "سارا", "🧙 Dee"]  # a tab typed is a space


def paired_night(cli, db):
    assert cli("event", "new", "Friday", "--style", "bots", "--seed", "3", "--db", db).exit_code == 0
    assert cli("event", "player", "add", "1", *NAMES, "--db", db).exit_code == 0
    for step in ("seat", "draft"):
        assert cli("event", step, "1", "--db", db).exit_code == 0
    registered = {}
    for number in range(1, len(NAMES) + 1):
        deck = cli("event", "deck", "1", f"#{number}", "--auto", "--db", db, "--json")
        assert deck.exit_code == 0, deck.stderr
        registered[json.loads(deck.stdout)["name"]] = json.loads(deck.stdout)
    assert cli("event", "round", "1", "--db", db).exit_code == 0
    return registered


def test_a_deck_s_commanders_are_names_in_event_show_and_event_deck_as_in_its_registration(cli, tmp_path):
    """Before: 'event show --json' and 'event deck ID --json' gave each commander as an object of its saved line
    ({"name", "count", "set", "number"}) where the registration and 'deck check' give names."""
    db = tmp_path / "night.json"
    registered = paired_night(cli, db)
    board = json.loads(cli("event", "show", "1", "--db", db, "--json").stdout)
    listed = json.loads(cli("event", "deck", "1", "--db", db, "--json").stdout)
    for rows in (board["players"], listed):
        decks = {row["name"]: row["deck"] for row in rows}
        assert set(decks) == set(SHOWN)
        for name, deck in registered.items():
            assert decks[name]["commanders"] == deck["commanders"], name
            assert decks[name]["piper_colors"] == deck["piper_colors"], name


def test_a_game_board_names_each_player_as_event_show_does(cli, tmp_path):
    """Before: a row of 'event game --json' had the name as 'player' only: no 'name', no 'id' or 'number' to
    match it with 'event show --json' or the web's game requests, which name players by id."""
    db = tmp_path / "night.json"
    paired_night(cli, db)
    board = json.loads(cli("event", "show", "1", "--db", db, "--json").stdout)
    players = {row["id"]: (row["number"], row["name"]) for row in board["players"]}
    game = cli("event", "game", "1", "1", "1", "--life", "#2=-5", "--db", db, "--json")
    assert game.exit_code == 0 and game.stderr == ""
    rows = json.loads(game.stdout)["players"]
    assert sorted(row["name"] for row in rows) == sorted(SHOWN)
    for row in rows:
        assert players[row["id"]] == (row["number"], row["name"]) and row["player"] == row["name"]
    assert next(row["life"] for row in rows if row["number"] == 2) == 35


def test_event_seat_gives_each_pod_as_event_show_does(cli, tmp_path):
    """Before: 'event seat --json' gave the pods as bare lists of names, 'event show --json' as objects."""
    db = tmp_path / "night.json"
    assert cli("event", "new", "Friday", "--style", "bots", "--seed", "3", "--db", db).exit_code == 0
    assert cli("event", "player", "add", "1", *NAMES, "--db", db).exit_code == 0
    seated = cli("event", "seat", "1", "--db", db, "--json")
    assert seated.exit_code == 0 and seated.stderr == ""
    board = json.loads(cli("event", "show", "1", "--db", db, "--json").stdout)
    assert json.loads(seated.stdout)["pods"] == [{"pod": p["pod"], "players": p["players"]} for p in board["pods"]]
    assert sorted(json.loads(seated.stdout)["pods"][0]["players"]) == sorted(SHOWN)
