"""What a script meets at the command line's outputs: a refused output writes nothing, not even the files the
command would have written before the one it refuses (docs/storage-and-safety.md, "Output files")."""

from __future__ import annotations

import json
import shutil

from events.storage.store import OPEN_DATABASES


def files_of(folder):
    return {path.name: path.read_bytes() if path.is_file() else None for path in sorted(folder.iterdir())}


def test_an_export_refused_at_its_database_copy_writes_none_of_its_other_files(cli, tmp_path):
    db = tmp_path / "night.json"
    assert cli("event", "new", "Friday", "--style", "bots", "--db", db).exit_code == 0
    assert cli("event", "player", "add", "1", "Ann", "Bo", "Cy", "--db", db).exit_code == 0
    out = tmp_path / "out"
    out.mkdir()
    (out / "standings.csv").write_text("mine", encoding="utf-8")
    shutil.copy(db, out / "database.json")  # a cmdraft database: never written over, --force or not
    before = files_of(out)
    refused = cli("event", "export", "1", "--out", out, "--force", "--db", db)
    assert refused.exit_code == 2 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1 and "holds a cmdraft database" in refused.stderr
    assert files_of(out) == before  # before: standings.csv replaced and 30 files written, then the refusal


def test_a_sim_out_refused_at_a_database_writes_none_of_the_seats_files(cli, tmp_path):
    db = tmp_path / "night.json"
    assert cli("event", "new", "Friday", "--db", db).exit_code == 0
    out = tmp_path / "pod"
    out.mkdir()
    shutil.copy(db, out / "pod.json")
    before = files_of(out)
    refused = cli("sim", "--seed", "2", "--players", "3", "--out", out, "--force", "--json")
    assert refused.exit_code == 2 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1 and "holds a cmdraft database" in refused.stderr
    assert files_of(out) == before  # before: every seat's pool, deck and log was written, then the refusal


def test_an_empty_database_file_says_its_two_ways_out_in_one_sentence(cli, tmp_path):
    db = tmp_path / "night.json"
    db.write_bytes(b"")
    refused = cli("event", "list", "--db", db, "--json")
    assert refused.exit_code == 4 and refused.stdout == ""
    # before: "...; remove it to start a new one, or there is no backup of it; choose another --db or move ..."
    assert refused.stderr == (
        f"cmdraft: error: '{db}' is empty, so it is not a cmdraft database; remove it to start a new one, "
        "or choose another --db (there is no backup of it)\n"
    )
    assert db.read_bytes() == b""


def ascii_cli(*args):
    """``cmdraft ARGS`` in-process with a stdout that carries ASCII only (a C locale, PYTHONIOENCODING=ascii)."""
    from click.testing import CliRunner

    from tests.helpers.cliapp import command

    return CliRunner(charset="ascii").invoke(command(), [str(a) for a in args], catch_exceptions=False)


def accented_set(tmp_path):
    """An MTGJSON set file (code TST) whose first legend is named with an accent."""
    from tests.helpers.cardfiles import mtgjson_set

    data = mtgjson_set()
    data["data"]["cards"][0]["name"] = "Alpha Légende"
    path = tmp_path / "tst.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_json_lines_on_an_ascii_stdout_are_escaped_never_replaced(cli, tmp_path):
    """docs/storage-and-safety.md: on a stream that can't show a character, --json uses \\u escapes. Before,
    'identity --json' and 'packs --json' wrote their lines as typed: 'Alpha L?gende' at a terminal, an error here."""
    card_file = accented_set(tmp_path)
    lines = ascii_cli("identity", card_file, "--json").stdout.splitlines()
    assert lines[0] == '{"name": "Alpha L\\u00e9gende", "color_identity": ["W", "U"], "deck_colors": ["W", "U"]}'
    assert json.loads(lines[0])["name"] == "Alpha Légende"
    assert cli("sets", "import", card_file).exit_code == 0
    opened = ascii_cli("packs", "--set", "TST", "--count", "40", "--seed", "1", "--json")
    boosters = [json.loads(line) for line in opened.stdout.splitlines()]
    assert opened.exit_code == 0 and len(boosters) == 40 and opened.stdout.isascii()
    assert "Alpha Légende" in {card["name"] for booster in boosters for card in booster["cards"]}


def drafted_night(cli, db):
    """A bots-style event of three, drafted: every pool recorded."""
    assert cli("event", "new", "Friday", "--style", "bots", "--db", db).exit_code == 0
    assert cli("event", "player", "add", "1", "Ann", "Bo", "Cy", "--db", db).exit_code == 0
    for step in ("seat", "draft"):
        assert cli("event", step, "1", "--db", db).exit_code == 0


def test_json_is_refused_with_the_commands_that_work_at_the_terminal(cli, tmp_path):
    """Before: 'event deck --build --json' and 'event pool --edit --json' ran the builder or the line editor and
    wrote its screens on stdout (exit 0, no JSON); 'event draft --player --json' asked for a seat code on stdout."""
    from tests.helpers.nights import terminal_night

    db = tmp_path / "night.json"
    drafted_night(cli, db)
    for args, what in (
        (("event", "deck", "1", "Ann", "--build"), "--json goes without --build"),
        (("event", "pool", "1", "Ann", "--edit"), "--json goes without --edit"),
    ):
        refused = cli(*args, "--db", db, "--json", input="\n")
        assert refused.exit_code == 2 and refused.stdout == "", args
        assert refused.stderr.count("\n") == 1 and what in refused.stderr, args
    both = cli("event", "deck", "1", "Ann", "--auto", "--build", "--db", db)
    assert both.exit_code == 2 and both.stdout == "" and "leave out --auto" in both.stderr
    terminal = tmp_path / "terminal.json"
    event_id = terminal_night(cli, terminal, "Ann", "Bo", bots=1)
    waiting = cli("event", "draft", event_id, "--player", "Ann", "--db", terminal, "--json", input="quit\n")
    assert waiting.exit_code == 2 and waiting.stdout == ""
    assert f"'cmdraft event show {event_id} --json' gives the draft's state" in waiting.stderr
    assert cli("event", "draft", event_id, "--db", terminal).exit_code == 0  # the desk starts it
    drafting = cli("event", "draft", event_id, "--player", "Ann", "--db", terminal, "--json", input="quit\n")
    assert drafting.exit_code == 2 and drafting.stdout == ""  # before: the event's snapshot, and no pick made


def test_deck_close_reads_its_time_with_the_strict_number_parser(cli, tmp_path):
    """docs/commands.md: every number typed is read by one strict parser ('٣' or '3_000' refused). Before,
    '--close ٣:٠٠' closed registration at 03:00 and '--close 1_2:0' at 12:00."""
    db = tmp_path / "night.json"
    drafted_night(cli, db)
    for typed in ("٣:٠٠", "1_2:0", "+1:00", "1:2:3"):
        refused = cli("event", "deck", "1", "--close", typed, "--db", db, "--json")
        assert refused.exit_code == 2 and refused.stdout == "", typed
        assert "is not a time: write 'now', HH:MM (today) or an ISO time" in refused.stderr, typed
    closed = cli("event", "deck", "1", "--close", "23:59", "--db", db, "--json")
    assert closed.exit_code == 0 and "T23:59:00" in json.loads(closed.stdout)["decks_close"]


RESTORE_KEYS = {
    "restored",
    "saved",
    "saved_at",
    "all",
    "event",
    "replaced",
    "backup",
    "damaged",
    "stopped_drafts",
    "discarded_picks",
    "left_out",
}


def test_event_restore_json_has_the_same_keys_with_all_or_without(cli, tmp_path):
    """Before: one event's restore had no 'damaged' and a whole restore no 'event' or 'replaced'."""
    db = tmp_path / "night.json"
    assert cli("event", "new", "Friday", "--db", db).exit_code == 0
    assert cli("event", "export", "1", "--out", tmp_path / "out", "--db", db).exit_code == 0
    copy = tmp_path / "out" / "database.json"
    one = cli("event", "restore", copy, "--db", tmp_path / "other.json", "--json")
    whole = cli("event", "restore", copy, "--all", "--db", tmp_path / "third.json", "--json")
    assert one.exit_code == 0 and whole.exit_code == 0
    one_report, whole_report = json.loads(one.stdout), json.loads(whole.stdout)
    assert set(one_report) == set(whole_report) == RESTORE_KEYS
    assert one_report["event"] == 1 and one_report["damaged"] is None
    assert whole_report["all"] is True and whole_report["event"] is None and whole_report["replaced"] is None


def test_a_deck_registration_names_the_player_as_name_with_the_same_keys_for_every_deck(cli, tmp_path):
    """docs/store-night.md: player lists name each player ``name``. Before, 'event deck ID NAME --json' had only
    'player', and 'pipers_note' only when there was one."""
    db = tmp_path / "night.json"
    drafted_night(cli, db)
    auto = cli("event", "deck", "1", "Ann", "--auto", "--db", db, "--json")
    assert cli("event", "export", "1", "--out", tmp_path / "out", "--db", db).exit_code == 0
    from_file = cli("event", "deck", "1", "Bo", tmp_path / "out" / "002-Bo-pool.txt", "--db", db, "--json")
    assert auto.exit_code == 0 and from_file.exit_code == 1  # a whole pool is no legal deck: registered, exit 1
    auto_report, file_report = json.loads(auto.stdout), json.loads(from_file.stdout)
    assert set(auto_report) == set(file_report)
    assert auto_report["name"] == auto_report["player"] == "Ann" and file_report["name"] == "Bo"
    assert file_report["valid"] is False and file_report["pipers_note"] is None


def test_a_number_with_more_digits_than_any_allowed_says_so_not_that_it_is_no_integer(cli):
    """Before: '--count 99999999999999999999' was "not a valid integer", which it is."""
    for args in (("packs", "--count", "9" * 20), ("packs", "--seed", "-" + "9" * 19), ("event", "show", "1" * 21)):
        refused = cli(*args, "--json")
        assert refused.exit_code == 2 and refused.stdout == "" and refused.stderr.count("\n") == 1, args
        assert f"'{args[-1]}' has too many digits: give a whole number of at most 18" in refused.stderr, args
    assert "'abc' is not a valid integer" in cli("packs", "--count", "abc").stderr
    for typed in ("+-5", "-+5", "--5"):  # two signs are no number, however few its digits
        said = cli("packs", f"--seed={typed}", "--json").stderr
        assert f"'{typed}' is not a valid integer" in said and "too many digits" not in said, typed


def test_every_command_refuses_an_empty_db_as_bad_input_and_creates_nothing(cli, tmp_path, monkeypatch):
    """Before: '--db ""' was the current folder: exit 4, "/the/cwd is a folder, not a database file"."""
    import click
    import typer

    from events.cli import app

    monkeypatch.chdir(tmp_path)
    root = typer.main.get_command(app)
    stack, checked = [((), root)], []
    while stack:
        path, command = stack.pop()
        if isinstance(command, click.Group):
            stack += [((*path, name), command.get_command(click.Context(command), name)) for name in command.commands]
        elif any("--db" in p.opts for p in command.params):
            arguments = [p for p in command.params if isinstance(p, click.Argument) and p.required]
            refused = cli(*path, *["1"] * len(arguments), "--db", "")
            assert refused.exit_code == 2 and refused.stdout == "", path
            assert refused.stderr.count("\n") == 1 and "an empty path would mean the current folder" in refused.stderr
            checked.append(path)
    assert {("event", "new"), ("play",), ("serve",), ("event", "restore")} <= set(checked)
    assert list(tmp_path.iterdir()) == []


def test_deck_close_with_a_player_is_refused_not_read_as_closing_for_everyone(cli, tmp_path):
    """Before: 'event deck 1 Ann --close now' closed registration for every player and registered nothing."""
    db = tmp_path / "night.json"
    drafted_night(cli, db)
    for extra in (("Ann",), ("Ann", "--auto"), ("--auto",)):
        refused = cli("event", "deck", "1", *extra, "--close", "now", "--db", db, "--json")
        assert refused.exit_code == 2 and refused.stdout == "" and "leave out the player" in refused.stderr, extra
    assert cli("event", "deck", "1", "Ann", "--auto", "--db", db).exit_code == 0  # registration still open


def test_the_round_clock_json_keeps_its_types_and_report_with_confirm_is_refused(cli, tmp_path):
    """Before: 'event clock --json' gave "length": 3000 (the default) but 1800.0 for '--minutes 30', '--restart'
    went back to 50 minutes from a round set to 30, and '--report ORDER --confirm' said nothing was reported yet."""
    db = tmp_path / "night.json"
    drafted_night(cli, db)
    for name in ("Ann", "Bo", "Cy"):
        assert cli("event", "deck", "1", name, "--auto", "--db", db).exit_code == 0
    assert cli("event", "round", "1", "--db", db).exit_code == 0
    lengths = []
    for extra in ((), ("--restart", "--minutes", "30"), ("--restart",)):
        shown = cli("event", "clock", "1", *extra, "--db", db, "--json")
        assert shown.exit_code == 0, extra
        lengths.append(json.loads(shown.stdout)["length"])
    assert lengths == [3000.0, 1800.0, 1800.0] and all(isinstance(length, float) for length in lengths)
    both = cli("event", "table", "1", "--player", "Ann", "--report", "Ann > Bo > Cy", "--confirm", "--db", db)
    assert both.exit_code == 2 and "--confirm and --report can't go together" in both.stderr


def test_deck_check_banlist_without_format_commander_is_refused_not_ignored(cli, tmp_path):
    """Before: '--banlist FILE' with the default format was never read: exit 0 even for a file not there."""
    made = cli("sim", "--seed", "2", "--players", "3", "--out", tmp_path / "pod")
    assert made.exit_code == 0
    deck = tmp_path / "pod" / "seat1-Bot-1-deck.txt"
    refused = cli("deck", "check", deck, "--banlist", tmp_path / "missing.txt", "--json")
    assert refused.exit_code == 2 and refused.stdout == ""
    assert refused.stderr == (
        "cmdraft: error: --banlist is for --format commander; a Commander draft deck has no banned list\n"
    )
    missing = cli("deck", "check", deck, "--format", "commander", "--banlist", tmp_path / "missing.txt", "--json")
    assert missing.exit_code == 2 and "missing.txt" in missing.stderr  # read with the format it belongs to


def test_deck_options_for_one_player_without_a_player_are_refused_not_read_as_the_board(cli, tmp_path):
    """Before: 'event deck 1 --auto --json' printed the registration board and registered nothing (exit 0), and
    '--build' dropped '--piper' and '--reason' unread (a correction after the close was then refused for want of
    the reason it was given)."""
    db = tmp_path / "night.json"
    drafted_night(cli, db)
    before = db.read_bytes()
    for extra in (("--auto",), ("--build",), ("--piper", "U"), ("--reason", "late")):
        refused = cli("event", "deck", "1", *extra, "--db", db)
        assert refused.exit_code == 2 and refused.stdout == "", extra
        assert refused.stderr.count("\n") == 1 and "give the player ('cmdraft event deck 1 NAME --auto')" in (
            refused.stderr
        ), extra
    for extra in (("--piper", "U"), ("--reason", "late")):
        refused = cli("event", "deck", "1", "Ann", "--build", *extra, "--db", db, input="quit\n")
        assert refused.exit_code == 2 and refused.stdout == "", extra
        assert refused.stderr.count("\n") == 1 and "leave out --piper and --reason" in refused.stderr, extra
        # said on every product's night: no Pipers at a CLB night (Faceless One), only the option's name
        assert "chooses the commanders and their colors" in refused.stderr and "Pipers" not in refused.stderr
    assert db.read_bytes() == before
    assert cli("event", "deck", "1", "--db", db, "--json").exit_code == 0  # the board, as ever


def test_the_files_of_a_database_this_run_did_not_open_are_never_written_over_even_with_force(cli, tmp_path):
    """A server holds ``night.json`` (its lock by inode): ``deck convert ... night.json.lock --force`` would have put
    a new lock file in its place, and a second writer would lock that one while the server held the old."""
    db = tmp_path / "night.json"
    assert cli("event", "new", "Friday", "--db", db).exit_code == 0
    deck = tmp_path / "deck.txt"
    deck.write_text("Commander\n1 Kamahl, Heart of Krosa\n\nDeck\n59 Forest\n", encoding="utf-8")
    (tmp_path / "night.json.drafts").mkdir()
    opened = set(OPEN_DATABASES)
    OPEN_DATABASES.clear()  # as another run would: this one never opened the database
    try:
        convert_beside(cli, tmp_path, db, deck)
    finally:
        OPEN_DATABASES.update(opened)


def convert_beside(cli, tmp_path, db, deck):
    targets = [
        "night.json.lock",
        "night.json.queue",
        "night.json.bak.1",
        ".night.json.x.tmp",
        "night.json.drafts/1.json",
    ]
    for name in targets:
        before = files_of(tmp_path)
        refused = cli("deck", "convert", deck, tmp_path / name, "--force")
        assert refused.exit_code == 2 and refused.stderr.count("\n") == 1, name
        assert f"it is the database '{db}' or one of its files" in refused.stderr, name
        assert files_of(tmp_path) == before and not any((tmp_path / "night.json.drafts").iterdir()), name
    written = cli("deck", "convert", deck, tmp_path / "night.txt", "--force")  # a name beside it, not one of its files
    assert written.exit_code == 0, written.output


def test_a_banned_lists_name_nearly_a_cards_is_noted_as_banning_nothing_and_unknown_ones_are_not(cli, tmp_path):
    """A judge's own list with 'Arcane Signett' banned nothing without a word.  A name nearly a card's here is said to
    ban nothing as written, with the card it likely means; a name no card here comes near (a card of a set not
    loaded: 'Black Lotus', 'Flash') is no note, as a real banned list names many."""
    bans = tmp_path / "bans.txt"
    bans.write_text("# my list\nArcane Signett\nBlack Lotus\nFlash\nJeweled Lotus\n", encoding="utf-8")
    deck = tmp_path / "deck.txt"
    deck.write_text("Commander\n1 Kamahl, Heart of Krosa\n\nDeck\n1 Arcane Signet\n98 Forest\n", encoding="utf-8")
    checked = cli("deck", "check", deck, "--format", "commander", "--banlist", bans, "--json")
    report = json.loads(checked.stdout)
    assert checked.exit_code == 0 and report["valid"], checked.output  # the Signet is not banned as written
    assert report["notes"] == [
        f"the banned list '{bans}' names 'Arcane Signett', which no card here is called: did you mean 'Arcane Signet'? "
        "As written it bans nothing"
    ]
