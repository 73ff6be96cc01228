"""The command tree: the root lists every command from its table without importing one, each group's
module is imported only when that group runs or shows its help, and every command resolves with help."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import click
import pytest
import typer

from events.cli import app
from events.cli.event import EVENT_COMMANDS, PLAYER_COMMANDS
from events.cli.root import COMMANDS, LazyCommand
from tests.helpers.paths import ROOT

GROUP_MODULES = sorted({entry.target.partition(":")[0] for entry in COMMANDS})
EVENT_MODULES = sorted({e.target.partition(":")[0] for e in EVENT_COMMANDS + PLAYER_COMMANDS} - {"events.cli.event"})


def modules_loaded_by(*args: str) -> tuple[str, set[str]]:
    """What ``cmdraft ARGS`` prints, and the modules it has imported by the end (in a fresh process)."""
    code = (
        "import sys\nfrom events.cli import main\n"
        f"try:\n    main({list(args)!r})\nexcept SystemExit:\n    pass\n"
        "print('MODULES', ' '.join(sorted(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    shown, _, modules = done.stdout.rpartition("MODULES ")
    return shown, set(modules.split())


@pytest.mark.slow
def test_the_root_help_lists_every_command_without_importing_one():
    shown, modules = modules_loaded_by("--help")
    listed = shown.split("Commands:\n", 1)[1]
    assert [line.split()[0] for line in listed.splitlines() if line.strip()] == [entry.name for entry in COMMANDS]
    assert not modules & set(GROUP_MODULES), modules & set(GROUP_MODULES)
    assert not {m for m in modules if m.split(".")[0] in ("rich", "tinydb", "textual", "draft")}
    assert "events.cli.common" not in modules and "events.storage.store" not in modules


@pytest.mark.slow
def test_a_group_loads_its_own_module_and_no_other_groups():
    shown, modules = modules_loaded_by("event", "--help")
    assert "cmdraft event [OPTIONS] COMMAND" in shown
    assert "events.cli.event" in modules
    assert not modules & (set(GROUP_MODULES) - {"events.cli.event"}), modules & set(GROUP_MODULES)
    assert not modules & set(EVENT_MODULES), modules & set(EVENT_MODULES)  # its list comes from the table
    assert not {m for m in modules if m.split(".")[0] == "textual"}
    listed = shown.split("Commands:\n", 1)[1]
    assert [line.split()[0] for line in listed.splitlines() if line.strip()] == [e.name for e in EVENT_COMMANDS]
    _, modules = modules_loaded_by("sim", "--help")
    assert "events.cli.sim" in modules and "events.cli.event" not in modules


@pytest.mark.slow
def test_an_event_command_loads_its_own_module_and_nothing_it_does_not_need():
    """Before: ``events/cli/event/__init__.py`` imported every event command, so ``cmdraft event list`` imported
    the terminal draft, the deck builder and the rest of the screens."""
    shown, modules = modules_loaded_by("event", "list")
    assert "No events yet" in shown
    assert "events.cli.event.registration" in modules
    assert not modules & (set(EVENT_MODULES) - {"events.cli.event.registration"}), modules & set(EVENT_MODULES)
    unneeded = {"events.screens.builder", "events.screens.event_draft", "events.screens.review", "events.web"}
    assert not modules & unneeded, modules & unneeded
    assert not {m for m in modules if m.split(".")[0] in ("textual", "starlette", "uvicorn", "jinja2")}
    # libraries a command pays for only where it uses them: a lock waited for, a QR code, text measured, XML written
    heavy = {"asyncio", "portalocker", "segno", "wcwidth", "urllib.request", "xml.sax.saxutils", "draft.deck_actions"}
    assert not modules & heavy, modules & heavy
    shown, modules = modules_loaded_by("event", "player", "add", "--help")
    assert "Register players" in shown
    assert not modules & (set(EVENT_MODULES) - {"events.cli.event.registration"}), modules & set(EVENT_MODULES)
    assert "typer.rich_utils" not in modules  # plain help needs none of typer's rich helpers (markdown, pygments)


@pytest.mark.slow
def test_opening_packs_loads_no_deck_builder_and_no_bots():
    """Before: 'packs' shared its module with 'sealed --build' (the builder, play, the deck commands), and the
    shared options imported the bots."""
    shown, modules = modules_loaded_by("packs", "--count", "1", "--seed", "1", "--json")
    assert '"seed": 1' in shown
    unneeded = {"events.cli.build", "events.cli.play", "events.cli.deck", "events.screens.builder", "draft.bots"}
    assert not modules & unneeded, modules & unneeded


def test_the_event_groups_list_says_what_each_command_says():
    assert help_mismatches(EVENT_COMMANDS) == [] and help_mismatches(PLAYER_COMMANDS) == []
    planted = (*PLAYER_COMMANDS[:2], LazyCommand("drop", PLAYER_COMMANDS[2].target, "Drop a player."))
    assert help_mismatches(planted) == ["drop"]


def test_the_root_has_the_commands_readme_lists():
    page = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    table = page.split("# Commands", 1)[1].split("\n## ", 1)[0]
    rows = [row for row in table.splitlines() if row.startswith("| `cmdraft")]
    named = {name for row in rows for name in re.findall(r"`cmdraft (\w+)", row)}
    assert named == {entry.name for entry in COMMANDS}


def help_mismatches(table: tuple[LazyCommand, ...]) -> list[str]:
    """The commands whose help in the table is not the first paragraph of their own help."""
    wrong = []
    for entry in table:
        own = entry.load().help or ""
        if entry.help != " ".join(own.split("\n\n", 1)[0].split()):
            wrong.append(entry.name)
    return wrong


def test_the_roots_list_says_what_each_command_says():
    assert help_mismatches(COMMANDS) == []
    planted = (*COMMANDS[:3], LazyCommand("sim", "events.cli.sim:sim", "Simulate a pod."), *COMMANDS[4:])
    assert help_mismatches(planted) == ["sim"]


def walk(command: click.Command, ctx: click.Context, path: tuple[str, ...] = ()):
    """Every command under ``command``, found as click finds them (list_commands, then get_command)."""
    yield path, command
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            assert sub is not None, (*path, name)
            yield from walk(sub, click.Context(sub, info_name=name, parent=ctx), (*path, name))


def test_every_command_resolves_with_help_and_plain_help_text():
    root = typer.main.get_command(app)
    found = dict(walk(root, click.Context(root, info_name="cmdraft")))
    assert {path[0] for path in found if path} == {entry.name for entry in COMMANDS}
    assert {("event", "player", "add"), ("packs", "audit"), ("deck", "suggest"), ("sets", "download")} <= set(found)
    for path, command in found.items():
        assert (command.help or "").strip(), path
        assert command.context_class.__name__ == "PlainContext", path  # help without rich's escaped brackets


def test_every_command_that_prints_data_takes_json_and_the_docs_name_the_others():
    """Before: docs/commands.md said every command that prints data takes --json; 'event finish' had none."""
    root = typer.main.get_command(app)
    found = dict(walk(root, click.Context(root, info_name="cmdraft")))
    without = {
        path
        for path, command in found.items()
        if not isinstance(command, click.Group) and not any("--json" in p.opts for p in command.params)
    }
    assert without == {("build",), ("serve",), ("event", "timer"), ("event", "print")}
    said = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    assert all(f"`{' '.join(path)}`" in said.split("\n\n")[1] for path in without)


def test_event_finish_says_what_it_changed_as_json(cli, tmp_path):
    db = tmp_path / "night.json"
    assert cli("event", "new", "Friday", "--style", "bots", "--db", db).exit_code == 0
    finished = cli("event", "finish", "1", "--db", db, "--json")
    assert finished.exit_code == 3  # nothing to finish yet (registration): the refusal as without --json
    assert cli("event", "player", "add", "1", "Ann", "Bo", "Cy", "--db", db).exit_code == 0
    for step in (("seat",), ("draft",)):
        assert cli("event", *step, "1", "--db", db).exit_code == 0
    finished = cli("event", "finish", "1", "--db", db, "--json")
    assert finished.exit_code == 0 and json.loads(finished.stdout) == {
        "event": 1,
        "status": "finished",
        "was": "building",
    }


@pytest.mark.slow
def test_an_unknown_command_is_matched_against_every_name_without_loading_them(cli):
    result = cli("evnt")
    assert result.exit_code == 2 and "Did you mean 'event'?" in result.stderr
    _, modules = modules_loaded_by("evnt")
    assert not modules & set(GROUP_MODULES)


# The commands that may start a database where there is none: a new event, a restore, a practice draft or a build
# (their saves are the database's first records). Every other command with --db reads or changes one that is there.
MAY_CREATE = {("event", "new"), ("event", "restore"), ("play",), ("build",), ("sealed",)}


def test_every_command_with_db_refuses_a_database_file_that_is_not_there_and_creates_nothing(cli, tmp_path):
    root = typer.main.get_command(app)
    found = dict(walk(root, click.Context(root, info_name="cmdraft")))
    with_db = {path: command for path, command in found.items() if any("--db" in p.opts for p in command.params)}
    assert MAY_CREATE <= set(with_db)  # the exceptions are commands with --db (a renamed one is noticed)
    missing = tmp_path / "sub" / "TYPO.json"
    checked = []
    for path, command in sorted(with_db.items()):
        if path in MAY_CREATE:
            continue
        arguments = [p for p in command.params if isinstance(p, click.Argument)]
        options = [
            word for p in command.params if isinstance(p, click.Option) and p.required for word in (p.opts[0], "x")
        ]
        result = cli(*path, *["1"] * len(arguments), *options, "--db", str(missing))
        assert result.exit_code == 6, (path, result.output)
        assert result.stderr.strip() == (
            f"cmdraft: error: no database file '{missing}': check the --db path; to start a new database there, "
            f"create an event with 'cmdraft event new NAME --db {missing}'"
        ), path
        assert not missing.parent.exists(), path  # no file, no lock, not even its folder
        checked.append(path)
    assert {("event", "show"), ("event", "list"), ("event", "player", "add"), ("serve",)} <= set(checked)
    for args in (["play", "--list"], ["play", "--resume"]):  # play starts a database, but lists or resumes none
        result = cli(*args, "--db", str(missing))
        assert result.exit_code == 6 and "no database file" in result.stderr and not missing.parent.exists()


def test_a_command_at_the_default_database_before_any_event_says_there_is_none_yet(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("CMDRAFT_HOME", str(tmp_path / "home"))
    shown = cli("event", "show", "1")
    assert shown.exit_code == 6 and "no cmdraft database yet at" in shown.stderr
    assert "create an event with 'cmdraft event new NAME'" in shown.stderr
    listed = cli("event", "list")  # the list of a database not there yet is empty, not an error
    assert listed.exit_code == 0 and "No events yet" in listed.stdout
    assert not (tmp_path / "home" / "cmdraft.json").exists()
