"""The command line's own edges: usage errors as one line, help text, --version, progress on long work."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from importlib.metadata import version

import click
import pexpect
import pytest
from rich.console import Console

from events.screens.progress import LongWork
from tests.helpers.cliapp import invoke


def run(*args: str, env=None):
    return subprocess.run([sys.executable, "-m", "events", *args], capture_output=True, text=True, env=env, timeout=60)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["packs", "--count", "abc"],
            "cmdraft: error: Invalid value for '--count': 'abc' is not a valid integer (see 'cmdraft packs --help')",
        ),
        (["frobnicate"], "cmdraft: error: No such command 'frobnicate' (see 'cmdraft --help')"),
        (["sets", "import"], "cmdraft: error: Missing argument 'FILE' (see 'cmdraft sets import --help')"),
        (["sim", "--nope"], "cmdraft: error: No such option"),
        (["play", "--json"], "cmdraft: error: --json goes with --list"),
    ],
)
@pytest.mark.slow
def test_usage_errors_are_one_line_and_exit_2(args, message):
    result = run(*args)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(message), result.stderr
    assert "Traceback" not in result.stderr and "Usage:" not in result.stderr and result.stdout == ""
    assert all(arg in result.stderr for arg in args if arg.startswith("--n") or arg == "frobnicate")


def test_usage_errors_in_process_too(cli):
    result = cli("packs", "--count", "abc")
    assert result.exit_code == 2 and result.stderr.startswith("cmdraft: error: Invalid value for '--count'")


def all_command_paths(command: click.Command, path=()):
    yield path
    for name, sub in getattr(command, "commands", {}).items():
        yield from all_command_paths(sub, (*path, name))


def test_help_shows_no_escaped_brackets(cli):
    import typer

    from events.cli import app

    paths = list(all_command_paths(typer.main.get_command(app)))
    assert len(paths) > 25
    for path in paths:
        result = cli(*path, "--help")
        assert result.exit_code == 0, path
        assert "\\" not in result.stdout, (path, result.stdout)
    assert "[required]" in cli("sets", "import", "--help").stdout


def test_version(cli):
    result = cli("--version")
    assert result.exit_code == 0 and result.stdout == f"cmdraft {version('cmdraft')}\n"


def test_play_json_needs_list(cli, tmp_path):
    result = cli("play", "--json", "--db", tmp_path / "db.json")
    assert result.exit_code == 2 and "--json goes with --list" in result.stderr
    assert not (tmp_path / "db.json").exists()


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def terminal():
    return Console(file=io.StringIO(), force_terminal=True, width=80)


def test_short_work_shows_no_bar():
    console, clock = terminal(), Clock()
    with LongWork(console, 10, "opening 10 boosters", clock=clock) as work:
        for _ in range(10):
            clock.now += 0.09
            work.advance()
    assert console.file.getvalue() == ""


def test_work_past_a_second_shows_a_bar_on_a_terminal_only():
    console, clock = terminal(), Clock()
    with LongWork(console, 10, "opening 10 boosters", clock=clock) as work:
        for _ in range(10):
            clock.now += 0.3
            work.advance()
            if work.done == 3:
                assert work.progress is None  # 0.9 s: not yet
    assert work.progress is not None and "opening 10 boosters" in console.file.getvalue()
    plain, clock = Console(file=io.StringIO(), force_terminal=False), Clock()
    with LongWork(plain, 10, "opening", clock=clock) as work:
        for _ in range(10):
            clock.now += 0.3
            work.advance()
    assert plain.file.getvalue() == ""


@pytest.mark.slow
@pytest.mark.parametrize(
    "args", [["packs", "--count", "400", "--seed", "1"], ["sealed", "--players", "60", "--seed", "1"]], ids=str
)
def test_long_packs_and_sealed_show_progress_in_a_real_terminal(tmp_path, args):
    """A real terminal (a pseudo-terminal, the command in a process of its own): the progress bar shows only on a terminal, after a second of real work."""
    env = dict(os.environ, CMDRAFT_HOME=str(tmp_path), COLUMNS="100", LINES="40", TERM="xterm")
    child = pexpect.spawn(
        sys.executable, ["-m", "events", *args], env=env, encoding="utf-8", timeout=120, dimensions=(40, 100)
    )
    child.expect(r"opening (400 boosters|60 sealed pools)")
    child.close(force=True)  # seen: the boosters' thousands of lines after it are not what this test reads


def counted_in_parentheses(source: str) -> list[str]:
    """The strings of a Python source that count in "word(s)" ("27 card(s)": read aloud, it is "card s")."""
    import re
    import tokenize

    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.STRING and re.search(r"[A-Za-z]\(s\)", token.string):
            found.append(token.string)
    return found


def test_every_message_says_one_card_or_two_cards_never_card_s():
    from tests.helpers.paths import ROOT

    found = {
        str(path.relative_to(ROOT)): counted_in_parentheses(path.read_text(encoding="utf-8"))
        for package in ("sets", "draft", "events")
        for path in sorted((ROOT / package).rglob("*.py"))
    }
    assert {path: strings for path, strings in found.items() if strings} == {}
    assert counted_in_parentheses('raise InputError(f"{n} card(s) have none")\n') == ['f"{n} card(s) have none"']


@pytest.mark.parametrize("value", ["-2+3", "-Ａ", "-2", "-\u202eAnn"])
def test_a_value_starting_with_a_dash_is_shown_how_to_give_it(value, cli, tmp_path):
    db = tmp_path / "e.json"
    assert cli("event", "new", "Friday", "--style", "physical", "--db", db).exit_code == 0
    result = cli("event", "player", "add", "1", "--db", db, value)
    line = result.stderr.strip()
    assert result.exit_code == 2 and "\n" not in line and "\u202e" not in line
    assert "No such option" in line and "put it after '--' (after every option): -- " in line, line
    assert cli("event", "player", "add", "1", "--db", db, "--", value).exit_code == 0  # as the error says


def test_a_mistyped_short_option_gets_no_advice_about_values(cli):
    result = cli("packs", "-z")
    assert result.exit_code == 2 and "No such option" in result.stderr and "after '--'" not in result.stderr


@pytest.mark.parametrize(("args", "meant"), [(["evnt"], "event"), (["event", "rond", "1"], "round")])
def test_a_mistyped_command_is_answered_with_one_suggestion(args, meant):
    """Docs (Commands): usage errors are one line naming the --help to read.  click and typer each suggest a near
    name; the line says it once."""
    result = invoke(args)
    assert result.exit_code == 2
    assert result.stderr.count("Did you mean") == 1 and f"Did you mean '{meant}'?" in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize("typed", ["--piper-stock", "--stock"])
def test_a_stock_out_of_range_names_the_option_by_both_its_names(cli, tmp_path, typed):
    """'event new --stock 5000' was told "--piper-stock must be ...": a name the organizer never typed."""
    result = cli("event", "new", "Friday", typed, "5000", "--db", tmp_path / "event.json")
    assert result.exit_code == 2
    assert result.stderr == "cmdraft: error: --piper-stock/--stock must be from 0 to 1,000, not 5,000\n"
