"""A script's view of ``--json``: what it reads is the same thing said the same way everywhere, with no path of this
machine the user didn't type (docs/commands.md, "Script it" in the README)."""

from __future__ import annotations

import json
import os
import shutil
import time


def bots_night(cli, *names: str, db: list[str] | None = None) -> None:
    """A bots event (number 1) with ``names`` seated and drafted, in the default database unless ``db``."""
    where = db or []
    assert cli("event", "new", "Friday", "--style", "bots", *where).exit_code == 0
    assert cli("event", "player", "add", "1", *names, *where).exit_code == 0
    assert cli("event", "seat", "1", *where).exit_code == 0
    assert cli("event", "draft", "1", *where).exit_code == 0


def test_an_undo_refused_in_the_default_database_names_no_db_option(cli, cmdraft_home):
    """The commands an undo's refusal suggests carry ``--db`` only for a database other than the default one, as
    every other suggested command does.  Before: '... --event 1 --db /home/.../cmdraft.json' in ``refused`` of
    ``event undo --list --json`` and on stderr, a path of this machine the user never typed."""
    bots_night(cli, "Ann", "Bo", "Cy")
    listed = cli("event", "undo", "1", "--list", "--json")
    refused = json.loads(listed.stdout)["refused"]
    assert "cmdraft event restore " in refused and "--event 1'" in refused
    assert "--db" not in refused
    undone = cli("event", "undo", "1", "--json")
    assert undone.exit_code == 3 and undone.stdout == ""
    assert "cmdraft event restore " in undone.stderr and "--db" not in undone.stderr


def test_an_undo_refused_in_another_database_still_names_it(cli, tmp_path):
    db = tmp_path / "night one.json"
    bots_night(cli, "Ann", "Bo", "Cy", db=["--db", str(db)])
    refused = json.loads(cli("event", "undo", "1", "--list", "--json", "--db", db).stdout)["refused"]
    assert f"--event 1 --db '{db}''" in refused  # the command quoted, its path quoted in it


def test_an_export_lists_its_files_under_the_folder_as_typed(cli, tmp_path, monkeypatch):
    """``event export --json`` names the files it wrote under the folder as typed, as ``deck convert --json`` names
    its file and ``event restore --json`` the file it restored.  Before: each was the folder's real, absolute path
    ('/home/ann/…/night/standings.csv'), a path of this machine the user didn't type."""
    monkeypatch.chdir(tmp_path)
    bots_night(cli, "Ann", "Bo", "Cy")
    printed = cli("event", "export", "1", "--out", "night", "--json")
    assert printed.exit_code == 0, printed.stderr
    written = json.loads(printed.stdout)["written"]
    assert written[:2] == ["night/standings.csv", "night/results.csv"] and "night/database.json" in written
    assert all(path.startswith("night/") and (tmp_path / path).is_file() for path in written)


def test_a_suggestion_names_its_color_identity_as_every_other_command_does(cli, tmp_path):
    """``deck suggest --json`` gives ``color_identity``, the key of ``card``, ``identity``, ``deck check`` and
    ``event deck``, with the same letters; ``identity`` stays for the scripts that read it.  Before: only
    ``identity``, so a script reading ``color_identity`` everywhere found nothing here."""
    pool = tmp_path / "pool.txt"
    pool.write_text("1 Akroma, Vision of Ixidor\n1 Sengir, the Dark Baron\n1 Murder\n1 Ghastly Demise\n", "utf-8")
    suggestions = json.loads(cli("deck", "suggest", pool, "--json").stdout)["suggestions"]
    alone = next(s for s in suggestions if s["commanders"] == ["Sengir, the Dark Baron"])
    card = json.loads(cli("card", "Sengir, the Dark Baron", "--json").stdout)
    assert alone["color_identity"] == card["color_identity"] == ["B"]
    assert all(s["color_identity"] == s["identity"] for s in suggestions)


def test_a_recorded_pool_names_its_player_as_every_other_command_does(cli):
    """``event pool --json`` gives the player as ``event deck NAME --json`` does (``name``, and ``player`` the same
    name) and as ``event show --json`` numbers them (``id``, ``number``).  Before: ``player`` was the row id, the
    only ``player`` that was no name, and not the player's number either in a database's second event (4, not #1)."""
    assert cli("event", "new", "Thursday", "--style", "bots").exit_code == 0
    assert cli("event", "player", "add", "1", "Di", "Ed", "Flo").exit_code == 0
    assert cli("event", "new", "Friday", "--style", "physical").exit_code == 0
    assert cli("event", "player", "add", "2", "Ann", "Bo").exit_code == 0
    for step in ("seat", "draft"):
        assert cli("event", step, "2").exit_code == 0
    recorded = cli("event", "pool", "2", "#1", "--json", input="2 Command Tower\n\n")
    assert recorded.exit_code == 0, recorded.stderr
    shown = next(p for p in json.loads(cli("event", "show", "2", "--json").stdout)["players"] if p["name"] == "Ann")
    pool = json.loads(recorded.stdout)
    assert (pool["name"], pool["player"], pool["number"], pool["id"]) == ("Ann", "Ann", 1, shown["id"])
    assert pool["cards"] == 2 and pool["warnings"]


def test_a_restore_gives_the_files_time_with_its_zone(cli, tmp_path):
    """``event restore --json`` gives the file's time as every other time in ``--json`` is written (the history's
    ``at``, a deck registration's ``decks_close``, ``play --list``'s ``created``): ISO 8601 in UTC, in ``saved_at``;
    ``saved`` stays the local minute the message says.  Before: only ``saved``, a local time with no zone
    ('2023-11-14 23:13'), which a script on another machine can't place."""
    db = tmp_path / "night.json"
    bots_night(cli, "Ann", "Bo", "Cy", db=["--db", str(db)])
    backup = tmp_path / "saved.json"  # a backup set aside: each restore makes backups of its own
    shutil.copy(tmp_path / "night.json.bak.1", backup)
    os.utime(backup, (1_700_000_000, 1_700_000_000))
    local = time.strftime("%Y-%m-%d %H:%M", time.localtime(1_700_000_000))
    for how in (["--event", "1"], ["--all"]):
        report = json.loads(cli("event", "restore", backup, *how, "--db", db, "--json", "--force").stdout)
        assert report["saved_at"] == "2023-11-14T22:13:20+00:00" and report["saved"] == local, how


def test_the_round_clock_has_the_same_keys_at_the_terminal_and_in_the_api(cli, tmp_path):
    """``event clock --json`` and the desk's ``POST /api/desk/clock`` start the same clock and answer it with the same
    keys (one owner, ``RoundClock.shown``).  Before: the terminal gave ``paused`` but no ``paused_at`` or
    ``paused_total``, the API those two but no ``paused``."""
    from events.web.desk_answers import RoundClock

    db = tmp_path / "night.json"
    bots_night(cli, "Ann", "Bo", "Cy", db=["--db", str(db)])
    for name in ("Ann", "Bo", "Cy"):
        assert cli("event", "deck", "1", name, "--auto", "--db", db).exit_code == 0
    assert cli("event", "round", "1", "--db", db).exit_code == 0
    shown = json.loads(cli("event", "clock", "1", "--minutes", "30", "--db", db, "--json").stdout)
    assert list(shown) == list(RoundClock.__struct_fields__)
    assert shown["length"] == 1800.0 and shown["paused"] is False and shown["paused_at"] is None


def test_a_registration_gives_each_name_as_stored(cli):
    """``event player add --json`` gives each player's name as registered, beside the ids and numbers: the name a
    later command is given (``event deck 1 NAME``) and every other command prints.  Before: ids and numbers only, so
    a script that typed 'Eve<TAB>Tab' never learnt that 'Eve Tab' was the name kept."""
    assert cli("event", "new", "Friday", "--style", "bots").exit_code == 0
    added = json.loads(cli("event", "player", "add", "1", "Ann", "Eve\tTab", "Dü  🐉", "--json").stdout)
    shown = json.loads(cli("event", "show", "1", "--json").stdout)["players"]
    assert added["names"] == ["Ann", "Eve Tab", "Dü 🐉"] == [p["name"] for p in shown]
    assert added["players"] == [p["id"] for p in shown] and added["numbers"] == [1, 2, 3]


def test_the_piper_ledger_names_each_player_as_every_player_list_does(cli):
    """``event pipers --json`` (and ``event show --json``'s ``pipers``): each deck, lender and request names its player
    ``name``, as the standings, the decks and ``event show`` do, and keeps ``player``.  Before: ``player`` only."""
    bots_night(cli, "Ann", "Bo", "Cy", "Di", "Ed")
    assert cli("event", "pipers", "1", "--stock", "2", "--request", "Ann=1").exit_code == 0
    for name in ("Bo", "Cy", "Di", "Ed"):
        assert cli("event", "deck", "1", name, "--auto").exit_code == 0
    ledger = json.loads(cli("event", "pipers", "1", "--json").stdout)
    shown = json.loads(cli("event", "show", "1", "--json").stdout)["pipers"]
    rows = [*ledger["decks"], *ledger["lenders"], *ledger["forecast"]["requests"]]
    assert ledger["forecast"]["requests"] and rows and ledger == shown
    assert all(row["name"] == row["player"] for row in rows)


def test_a_sealed_booster_is_named_by_its_seed_and_index_as_packs_names_it(cli):
    """``sealed --json`` numbers each booster by its place in the whole run, as ``packs --json`` does with the same
    seed: the booster a seed and an index name is the same booster in both.  Before: every player's boosters were
    numbered 0 to 5, so player 2's 'seed 3, index 0' was a different booster from ``packs --seed 3``'s index 0 (its
    cards were index 6's)."""
    sealed = json.loads(cli("sealed", "--players", "2", "--seed", "3", "--json").stdout)
    opened = [json.loads(line) for line in cli("packs", "--count", "12", "--seed", "3", "--json").stdout.splitlines()]
    boosters = [booster for player in sealed["players"] for booster in player["boosters"]]
    assert [b["index"] for b in boosters] == list(range(12))
    assert boosters == opened


def test_event_show_is_the_snapshot_with_the_piper_ledger_beside_it(cli):
    """docs/storage-and-safety.md: ``event show --json`` is the snapshot's JSON and the Piper ledger under ``pipers``,
    the ledger exactly as ``event pipers --json`` prints it.  Before, the page named the snapshot alone."""
    bots_night(cli, "Ann", "Bo", "Cy")
    shown = json.loads(cli("event", "show", "1", "--json").stdout)
    assert list(shown) == ["event", "players", "pods", "rounds", "pipers"]
    assert shown["pipers"] == json.loads(cli("event", "pipers", "1", "--json").stdout)
