"""``event export`` into a folder it wrote before (docs/storage-and-safety.md, "Output files"): a run stopped after
its copy of the database was in, before its mark went, is finished by the same command without ``--force``; a
finished export's folder is refused in one line that offers no ``--force`` (its ``database.json`` is never
replaced, ``--force`` or not)."""

from __future__ import annotations

from events.outputs.guard import UNFINISHED

GONE = 2**22 + 1  # past the largest process id Linux gives (PID_MAX_LIMIT): no process has it


def exported(cli, tmp_path):
    db, out = tmp_path / "night.json", tmp_path / "out"
    assert cli("event", "new", "Friday", "--style", "bots", "--db", db).exit_code == 0
    assert cli("event", "player", "add", "1", "Ann", "Bo", "Cy", "--db", db).exit_code == 0
    assert cli("event", "export", "1", "--out", out, "--db", db).exit_code == 0
    return db, out


def test_an_export_stopped_after_its_database_copy_is_finished_without_force(cli, tmp_path):
    db, out = exported(cli, tmp_path)
    (out / UNFINISHED).write_text("a cmdraft run was writing this folder\n", encoding="utf-8")  # killed there
    (out / "standings.csv").unlink()
    again = cli("event", "export", "1", "--out", out, "--db", db, "--json")
    assert again.exit_code == 0, again.stderr  # before: refused, 'database.json' holds a cmdraft database
    assert again.stderr == "" and (out / "standings.csv").is_file() and not (out / UNFINISHED).exists()


def test_a_finished_export_folder_is_refused_without_offering_force_that_would_fail(cli, tmp_path):
    db, out = exported(cli, tmp_path)
    for extra in ((), ("--force",)):
        refused = cli("event", "export", "1", "--out", out, "--db", db, *extra)
        assert refused.exit_code == 2 and refused.stdout == ""
        assert refused.stderr.count("\n") == 1 and "--force neither" in refused.stderr, refused.stderr
        assert "'database.json'" in refused.stderr and "choose a new folder" in refused.stderr


def event_and_folder(cli, tmp_path):
    """An event of three players, and an empty folder made for its export: (database, folder)."""
    db, out = tmp_path / "night.json", tmp_path / "out"
    assert cli("event", "new", "Friday", "--style", "bots", "--db", db).exit_code == 0
    assert cli("event", "player", "add", "1", "Ann", "Bo", "Cy", "--db", db).exit_code == 0
    out.mkdir()
    return db, out


def test_an_export_killed_while_writing_its_mark_is_finished_without_force(cli, tmp_path):
    """Killed before any file was in: the folder holds only the temporary of its mark (``.NAME.PID.tmp`` of a
    process that is gone); the same command run again fills it and removes that temporary."""
    db, out = event_and_folder(cli, tmp_path)
    left = out / f".{UNFINISHED}.{GONE}.tmp"
    left.write_text("a cmdraft run was wri", encoding="utf-8")
    again = cli("event", "export", "1", "--out", out, "--db", db, "--json")
    assert again.exit_code == 0, again.stderr  # before: refused, the folder is not empty
    assert again.stderr == "" and (out / "database.json").is_file()
    assert not left.exists() and not (out / UNFINISHED).exists()


def test_another_programs_temporary_keeps_a_folder_from_counting_as_empty(cli, tmp_path):
    """Only the temporary of the mark a killed run was writing makes a folder count as empty: another program's
    temporary named the same way (``.notes.PID.tmp`` of a process that is gone) is the folder's, so the export
    asks for --force as for any folder that holds files."""
    db, out = event_and_folder(cli, tmp_path)
    theirs = out / f".notes.txt.{GONE}.tmp"
    theirs.write_text("half a note", encoding="utf-8")
    refused = cli("event", "export", "1", "--out", out, "--db", db)
    assert refused.exit_code == 2 and "--force" in refused.stderr and refused.stderr.count("\n") == 1
    assert theirs.read_text(encoding="utf-8") == "half a note" and sorted(p.name for p in out.iterdir()) == [
        theirs.name
    ]
