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
