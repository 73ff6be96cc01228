"""What a script meets at the command line's outputs: a refused output writes nothing, not even the files the
command would have written before the one it refuses (docs/storage-and-safety.md, "Output files")."""

from __future__ import annotations

import shutil


def files_of(folder):
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


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
        f"cmdraft: error: {db} is empty, so it is not a cmdraft database; remove it to start a new one, "
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
    import json

    from tests.helpers.cardfiles import mtgjson_set

    data = mtgjson_set()
    data["data"]["cards"][0]["name"] = "Alpha Légende"
    path = tmp_path / "tst.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_json_lines_on_an_ascii_stdout_are_escaped_never_replaced(cli, tmp_path):
    """docs/storage-and-safety.md: on a stream that can't show a character, --json uses \\u escapes. Before,
    'identity --json' and 'packs --json' wrote their lines as typed: 'Alpha L?gende' at a terminal, an error here."""
    import json

    card_file = accented_set(tmp_path)
    lines = ascii_cli("identity", card_file, "--json").stdout.splitlines()
    assert lines[0] == '{"name": "Alpha L\\u00e9gende", "color_identity": ["W", "U"], "deck_colors": ["W", "U"]}'
    assert json.loads(lines[0])["name"] == "Alpha Légende"
    assert cli("sets", "import", card_file).exit_code == 0
    opened = ascii_cli("packs", "--set", "TST", "--count", "40", "--seed", "1", "--json")
    boosters = [json.loads(line) for line in opened.stdout.splitlines()]
    assert opened.exit_code == 0 and len(boosters) == 40 and opened.stdout.isascii()
    assert "Alpha Légende" in {card["name"] for booster in boosters for card in booster["cards"]}
