"""--json at a real terminal: a pool typed for ``event pool --json`` is read as lines, with no prompts on stdout."""

from __future__ import annotations

import json

import pexpect

from tests.helpers.terminals import spawn


def test_event_pool_json_at_a_terminal_reads_the_lines_without_prompts(cli, tmp_path):
    """Before: at a terminal, 'event pool ID NAME --json' ran the line editor, its help and prompts on stdout
    before the JSON."""
    db = tmp_path / "night.json"
    assert cli("event", "new", "Friday", "--style", "physical", "--db", db).exit_code == 0
    assert cli("event", "player", "add", "1", "Ann", "Bo", "Cy", "--db", db).exit_code == 0
    for step in ("seat", "draft"):
        assert cli("event", step, "1", "--db", db).exit_code == 0
    child = spawn(["event", "pool", "1", "Ann", "--json", "--db", str(db)], tmp_path / "home")
    child.sendline("2 Command Tower")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    shown = [line for line in child.before.splitlines() if line.strip() and line.strip() != "2 Command Tower"]
    assert child.exitstatus == 0 and len(shown) == 1, child.before  # the typed lines echoed, then one JSON line
    assert json.loads(shown[0])["cards"] == 2


def test_event_pool_json_at_a_terminal_is_refused_before_any_typing_when_the_pool_is_recorded(cli, tmp_path):
    """Before: the person typed every line, and only the empty line that ends them brought the refusal."""
    db = tmp_path / "night.json"
    assert cli("event", "new", "Friday", "--style", "physical", "--db", db).exit_code == 0
    assert cli("event", "player", "add", "1", "Ann", "Bo", "Cy", "--db", db).exit_code == 0
    for step in ("seat", "draft"):
        assert cli("event", step, "1", "--db", db).exit_code == 0
    assert cli("event", "pool", "1", "Ann", "--db", db, input="2 Command Tower\n\n").exit_code == 0
    child = spawn(["event", "pool", "1", "Ann", "--json", "--db", str(db)], tmp_path / "home")
    child.expect(pexpect.EOF)  # nothing typed: the refusal comes first
    child.close()
    assert child.exitstatus == 3 and "--replace" in child.before, child.before
