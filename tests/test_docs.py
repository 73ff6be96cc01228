"""The documentation keeps its promises: every command it shows exists with the options it shows (its help runs),
the README's own paths run for real in order, every link resolves, and the README stays a short front page."""

from __future__ import annotations

import ast
import json
import re
import shlex
import unicodedata
from pathlib import Path

import click
import pytest

from tests.helpers.cliapp import command, invoke
from tests.helpers.docs import doc_files, shell_blocks
from tests.helpers.paths import ROOT
from tests.helpers.syntax import nodes


def cmdraft_commands(text: str) -> list[list[str]]:
    """Every ``cmdraft …`` command in the text's shell blocks, as words (comments dropped; ``a ; b`` and ``a && b``
    are two commands)."""
    found = []
    for block in shell_blocks(text):
        for line in block.splitlines():
            words = shlex.split(re.split(r"(?:^|\s)#", line, maxsplit=1)[0])  # a '#' after a space starts a comment
            command_words: list[str] = []
            for word in [*words, ";"]:
                if word in (";", "&&"):
                    if command_words[:1] == ["cmdraft"]:
                        found.append(command_words)
                    command_words = []
                else:
                    command_words.append(word)
    return found


def resolve(words: list[str], root: click.Command) -> tuple[list[str], click.Command, list[str]]:
    """The command path the words name, the command, and the problems: an unknown command, an unknown option."""
    path, cmd, problems = [], root, []
    rest = words[1:]
    while isinstance(cmd, click.Group) and rest and not rest[0].startswith("-"):
        sub = cmd.get_command(click.Context(cmd), rest[0])
        if sub is None:
            problems.append(f"no command {' '.join(['cmdraft', *path, rest[0]])!r}")
            return path, cmd, problems
        path.append(rest.pop(0))
        cmd = sub
    if isinstance(cmd, click.Group) and not cmd.invoke_without_command:
        problems.append(f"{' '.join(['cmdraft', *path])!r} is a group, not a command")
    options = {opt for param in cmd.params for opt in (*param.opts, *param.secondary_opts)}
    for word in rest:
        for option in re.findall(r"(?:^|[\[|])(--?[A-Za-z][\w-]*)", word):
            if option not in options and option != "--help":
                problems.append(f"{' '.join(['cmdraft', *path])}: no option {option}")
    return path, cmd, problems


def command_problems(root_folder: Path) -> list[str]:
    problems = []
    for path in doc_files(root_folder):
        for words in cmdraft_commands(path.read_text(encoding="utf-8")):
            problems += [f"{path.relative_to(root_folder).as_posix()}: {p}" for p in resolve(words, command())[2]]
    return problems


def test_every_command_in_the_docs_exists_with_the_options_it_shows():
    assert command_problems(ROOT) == []


def test_a_planted_unknown_command_or_option_in_the_docs_is_seen(tmp_path: Path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text(
        "# x\n\n```sh\ncmdraft event sit 1   # seat\ncmdraft sim --seed 1 && cmdraft packs --cuont 2\n```\n",
        encoding="utf-8",
    )
    (tmp_path / "docs" / "night.md").write_text(
        "```sh\ncmdraft event seat 1 [--agian] ; cmdraft event seat 1 --again\ncmdraft event\n```\n", encoding="utf-8"
    )
    assert command_problems(tmp_path) == [
        "README.md: no command 'cmdraft event sit'",
        "README.md: cmdraft packs: no option --cuont",
        "docs/night.md: cmdraft event seat: no option --agian",
        "docs/night.md: 'cmdraft event' is a group, not a command",
    ]


def documented_paths() -> list[tuple[str, ...]]:
    paths = set()
    for path in doc_files(ROOT):
        for words in cmdraft_commands(path.read_text(encoding="utf-8")):
            paths.add(tuple(resolve(words, command())[0]))
    return sorted(paths)


def test_the_help_of_every_command_the_docs_show_runs():
    paths = documented_paths()
    assert ("event", "new") in paths and ("serve",) in paths and ("play",) in paths
    for path in paths:
        result = invoke([*path, "--help"])
        assert result.exit_code == 0 and f"{' '.join(path)} [OPTIONS]" in result.stdout, (path, result.output)


def readme_section(title: str) -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return readme.split(f"\n## {title}", 1)[1].split("\n## ", 1)[0]


def run_block(block: str, input: str | None = None) -> list[str]:
    """Run every command of a shell block in order, in this process; each must succeed. Their outputs."""
    return [output for _, output in run_commands(block, input)]


def run_commands(block: str, input: str | None = None) -> list[tuple[str, str]]:
    """Run every command of a shell block in order, in this process; each must succeed. Each command (its words
    after ``cmdraft``, joined) with its output."""
    outputs = []
    for words in cmdraft_commands(f"```sh\n{block}```\n"):
        result = invoke(words[1:], input=input)
        assert result.exit_code == 0, (words, result.output)
        outputs.append((" ".join(words[1:]), result.stdout))
    return outputs


def test_the_readmes_practice_path_runs(monkeypatch, tmp_path: Path):
    """Not a terminal here, so `cmdraft play` asks at the line prompt; `quit` leaves it saved to resume."""
    monkeypatch.chdir(tmp_path)
    blocks = shell_blocks(readme_section("Practise a draft (a player)"))
    assert [words[:2] for block in blocks for words in cmdraft_commands(f"```sh\n{block}```")] == [
        ["cmdraft", "play"],
        ["cmdraft", "play"],
    ]
    started, resumed = (run_block(block, input="quit\n")[0] for block in blocks)
    assert "draft 1 (seed 3)" in started and "Take 2 cards" in started
    assert "Resume with: cmdraft play --resume 1" in started and "Take 2 cards" in resumed


def test_the_readmes_store_night_runs_in_order(monkeypatch, tmp_path: Path):
    monkeypatch.chdir(tmp_path)
    desk, phones = shell_blocks(readme_section("Run a store night (an organizer)"))
    outputs = dict(run_commands(desk))
    assert "ROUND 1 PAIRINGS" in outputs["event print 1 pairings"]
    standings = outputs["event standings 1"]
    assert standings.index("Ann") < standings.index("Bo") and "Cy" in standings
    shown = json.loads(invoke(["event", "show", "1", "--json"]).stdout)
    assert shown["event"]["status"] == "finished"
    # The phones: a terminal-style event with seat codes; the server itself is run by tests/e2e and tests/web.
    lines = phones.splitlines()
    assert lines[0].startswith("cmdraft serve 1 --lan")
    made = invoke(["event", "new", "Phones", "--style", "terminal", "--json"])
    event_id = json.loads(made.stdout)["id"]
    assert event_id == 2
    for words in (["event", "player", "add", "2", "Ann", "Bo"], ["event", "seat", "2"]):
        assert invoke(words).exit_code == 0
    run_block(lines[1].replace("event print 1 ", "event print 2 ") + "\n")
    assert "http://192.168.1.20:8000/join?event=2" in (tmp_path / "slips.html").read_text(encoding="utf-8")


def test_the_readmes_script_path_runs(monkeypatch, tmp_path: Path):
    monkeypatch.chdir(tmp_path)
    run_block('cmdraft event new "Friday CMR" --style bots\n')
    (tmp_path / "deck.txt").write_text(
        "Commander\n1 Akroma, Vision of Ixidor\n\nDeck\n1 Fyndhorn Elves\n", encoding="utf-8"
    )
    sim, packs, converted, shown = run_block(shell_blocks(readme_section("Script it (a script writer)"))[0])
    assert json.loads(sim)["seed"] == 1 and len(json.loads(sim)["players"]) == 8
    assert len(packs.splitlines()) == 2 and all(json.loads(line) for line in packs.splitlines())
    assert "<cockatrice_deck" in (tmp_path / "deck.cod").read_text(encoding="utf-8")
    assert json.loads(shown)["event"]["name"] == "Friday CMR"


def anchor(heading: str) -> str:
    """A heading's anchor as MkDocs (and GitHub) make it: lower case, punctuation dropped, spaces to hyphens."""
    text = unicodedata.normalize("NFKD", heading).lower()
    text = re.sub(r"[^\w\s-]", "", text)
    return re.sub(r"[\s]+", "-", text.strip())


def broken_links(root: Path) -> list[str]:
    """Relative links of the README, ARCHITECTURE.md and CONTRIBUTING.md (MkDocs checks the site's own pages) that
    name no file, or no heading of it."""
    broken = []
    for name in ("README.md", "ARCHITECTURE.md", "CONTRIBUTING.md"):
        path = root / name
        if not path.is_file():
            continue
        text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.M | re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)|src=\"([^\"]+)\"", text):
            target = target[0] or target[1]
            if re.match(r"[a-z]+:", target):
                continue
            file, _, fragment = target.partition("#")
            linked = (path.parent / file) if file else path
            if not linked.is_file():
                broken.append(f"{name}: {target}")
            elif fragment:
                headings = re.findall(r"^#+ (.+)$", linked.read_text(encoding="utf-8"), re.M)
                if fragment not in {anchor(h) for h in headings}:
                    broken.append(f"{name}: {target}")
    return broken


def test_every_link_of_the_readme_and_the_contributors_pages_resolves():
    assert broken_links(ROOT) == []


def test_a_planted_broken_link_or_anchor_is_seen(tmp_path: Path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rules.md").write_text("# Rules implemented\n\n## `packs audit`\n", encoding="utf-8")
    (tmp_path / "README.md").write_text(
        "[a](docs/rules.md) [b](docs/rules.md#packs-audit) [c](docs/missing.md) [d](docs/rules.md#nowhere)"
        " [e](https://example.org/x.md)\n```sh\n[f](inside-code.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links(tmp_path) == ["README.md: docs/missing.md", "README.md: docs/rules.md#nowhere"]


def test_the_readme_is_a_short_front_page_for_each_reader():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    assert "shared/RULES.md" not in readme  # a clone has no ../shared
    titles = re.findall(r"^## (.+)$", readme, re.M)
    assert titles[:3] == [
        "Practise a draft (a player)",
        "Run a store night (an organizer)",
        "Script it (a script writer)",
    ]


def test_every_page_of_the_docs_is_in_the_sites_navigation_and_ci_builds_it_strictly():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    listed = set(re.findall(r":\s*([\w-]+\.md)\s*$", nav, re.M))
    assert listed == {path.name for path in (ROOT / "docs").glob("*.md")}
    assert "mkdocs build --strict" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "words", [["cmdraft", "sim", "--seed", "1"], ["cmdraft", "event", "new", "X", "--style", "bots"]]
)
def test_a_documented_command_resolves_to_its_path(words):
    path, cmd, problems = resolve(words, command())
    assert problems == [] and path == words[1 : 1 + len(path)] and cmd.name == path[-1]


def documented_options(path: tuple[str, ...]) -> set[str]:
    """The options the docs show with one command (``("event", "round")``)."""
    found = set()
    for doc in doc_files(ROOT):
        for words in cmdraft_commands(doc.read_text(encoding="utf-8")):
            if tuple(resolve(words, command())[0]) == path:
                found |= {o for word in words[1:] for o in re.findall(r"(?:^|[\[|])(--?[A-Za-z][\w-]*)", word)}
    return found


def test_the_option_the_rounds_refusal_names_is_documented_with_event_round_and_does_what_it_says(tmp_path, cli):
    from tests.helpers.nights import draft_to_the_end, start, terminal_night

    db = tmp_path / "night.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", "Cy", "Di")
    start(cli, db, event_id)
    draft_to_the_end(db, event_id)  # drafted, no deck registered
    refused = cli("event", "round", event_id, "--db", db)
    assert refused.exit_code == 3 and "no legal deck registered for" in refused.stderr
    named = set(re.findall(r"--[a-z][\w-]*", refused.stderr))
    assert named == {"--force"} and named <= documented_options(("event", "round"))
    assert cli("event", "round", event_id, "--force", "--db", db).exit_code == 0


def message_commands(root: Path) -> list[tuple[str, list[str]]]:
    """Every ``cmdraft …`` command a message of the package names (a string after a quote, a backquote or ``: ``,
    as in "see 'cmdraft event show 1'" or "Continue with: cmdraft event draft 1"; docstrings are not messages),
    each with where it is; a value put into an f-string is left out (an ID, a ``--db PATH``)."""
    found = []
    for path in sorted(root.glob("*/**/*.py")):
        if path.relative_to(root).parts[0] in ("tests", ".venv", "build") or ".venv" in path.parts:
            continue
        skipped = {  # docstrings, and the pieces of an f-string (the whole is read)
            id(node.body[0].value)
            for node in nodes(path, ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
            if node.body and isinstance(node.body[0], ast.Expr)
        }
        skipped |= {id(part) for node in nodes(path, ast.JoinedStr) for part in node.values}
        for node in nodes(path, ast.JoinedStr, ast.Constant):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.JoinedStr):
                text = "".join(v.value if isinstance(v, ast.Constant) else "" for v in node.values)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
            else:
                continue
            for said in re.findall(r"(?:['`]|: )(cmdraft [a-z][^'`\n]*)", text):  # (not a pattern: 'cmdraft [^']')
                found.append((node.lineno, f"{path.relative_to(root).as_posix()}:{node.lineno}", said.split()))
    return [(where, words) for _, where, words in sorted(found, key=lambda f: (f[1].split(":")[0], f[0]))]


def message_command_problems(said: list[tuple[str, list[str]]]) -> list[str]:
    """What is wrong with the commands ``message_commands`` found: no such command, or an option it doesn't take."""
    return [f"{where}: {problem}" for where, words in said for problem in resolve(words, command())[2]]


def test_every_command_a_message_names_exists_with_the_options_it_shows():
    """A message that says "run X" or "use --force" names a command this cmdraft has, with options it takes."""
    said = message_commands(ROOT)
    assert len(said) > 30 and ["cmdraft", "event", "show"] in [words[:3] for _, words in said]
    assert message_command_problems(said) == []  # (the package's files read once)


def test_a_planted_message_naming_an_unknown_command_or_option_is_seen(tmp_path: Path):
    (tmp_path / "events").mkdir()
    (tmp_path / "events" / "planted.py").write_text(
        '"""A docstring naming cmdraft nothing is not a message."""\n'
        "def refuse(event_id, db):\n"
        "    raise ValueError(f\"see 'cmdraft event shwo {event_id}{db}'\")\n"
        "NOTE = \"register them or run 'cmdraft event round 1 --forse'; Continue with: cmdraft event draft 1\"\n",
        encoding="utf-8",
    )
    assert message_command_problems(message_commands(tmp_path)) == [
        "events/planted.py:3: no command 'cmdraft event shwo'",
        "events/planted.py:4: cmdraft event round: no option --forse",
    ]


def inline_command_problems(root_folder: Path) -> list[str]:
    """The ``cmdraft …`` commands the pages name in their running text (a code span, outside the shell blocks) whose
    command words name no command: the words up to the first that is not a command's (an argument, an option, a
    placeholder such as ``ID`` or ``…``), or up to a command that is no group."""
    problems = []
    for path in doc_files(root_folder):
        text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.M | re.S)
        for span in re.findall(r"`(cmdraft [^`]+)`", text):
            cmd: click.Command = command()
            for word in span.split()[1:]:
                if not isinstance(cmd, click.Group) or not re.fullmatch(r"[a-z][a-z-]*", word):
                    break
                sub = cmd.get_command(click.Context(cmd), word)
                if sub is None:
                    problems.append(f"{path.relative_to(root_folder).as_posix()}: no command in {span!r}")
                    break
                cmd = sub
    return problems


def test_every_command_the_pages_name_in_their_text_exists():
    """docs/phones.md sent the desk to `cmdraft event decks ID` for the registration board: no such command (it is
    `cmdraft event deck ID`, with no name); the checks above read only the shell blocks."""
    assert inline_command_problems(ROOT) == []


def test_a_planted_unknown_command_in_a_pages_text_is_seen(tmp_path: Path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "night.md").write_text(
        "Run `cmdraft event decks ID`, `cmdraft event deck ID`, `cmdraft play --resume [ID]` or `cmdraft event …`.\n"
        "```sh\n`cmdraft event sit 1`\n```\n",
        encoding="utf-8",
    )
    assert inline_command_problems(tmp_path) == ["docs/night.md: no command in 'cmdraft event decks ID'"]


def test_the_readme_names_every_exit_code_the_commands_page_lists():
    """A script writer reads the README's "Script it" first: it names every exit code of docs/commands.md's table.
    Before: 0 to 4 only, so a script met 6 (no database file where it looked) or 5 (not the desk's command)
    unannounced."""
    table = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8").split("\n## Exit codes", 1)[1]
    codes = re.findall(r"^\| (\d+) \|", table.split("\n## ", 1)[0], re.M)
    said = " ".join(readme_section("Script it (a script writer)").split())
    assert codes == ["0", "1", "2", "3", "4", "5", "6", "130"]
    assert [code for code in codes if not re.search(rf"(?:code: |, ){code} \w", said)] == []
