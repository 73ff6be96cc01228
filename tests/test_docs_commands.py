"""Every ``cmdraft`` command the README and the site's pages show is run, in a data folder of the test's own, on the
bundled data, without the network: a download is served from this machine (``http.server``), ``serve`` runs as a
process of its own and is stopped as a person stops it (Ctrl-C).

A page's commands run as scenes: each scene is one store's data folder (one database, the commands' event 1), its
steps in an order a desk would type them, with the steps the page leaves to the reader (the other players, a pool
file, the backup's real name) done by the scene too.  A documented step names the command exactly as the page
shows it (``DOC``), so a command added to a page, or changed, fails ``test_every_command_of_the_docs_is_a_step``
until a scene runs it.  Every ``python -m`` command they show runs too, small (``MODULE_RUNS``, ``PROCESS_RUNS``,
the data commands when ../shared/data is there); ``python -m tests.sweeps`` (every sweep in full) runs with the two
sweeps it starts answered, as each of them runs small on its own.
"""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.helpers.cliapp import invoke
from tests.helpers.docs import doc_files, shell_blocks
from tests.helpers.paths import ROOT

FIXTURES = ROOT / "tests" / "fixtures"


def shown_commands(text: str) -> list[str]:
    """Every ``cmdraft …`` command a Markdown text's shell blocks show, as written (a ``#`` after a space starts a
    comment; ``a ; b`` and ``a && b`` are two commands)."""
    found = []
    for block in shell_blocks(text):
        for line in block.splitlines():
            line = re.split(r"(?:^|\s)#", line, maxsplit=1)[0].strip()
            for part in re.split(r"\s(?:;|&&)\s", line):
                part = part.strip()
                if part.startswith("cmdraft "):
                    found.append(part)
    return found


def documented() -> dict[str, list[str]]:
    """The commands each page shows (README.md, ARCHITECTURE.md, CONTRIBUTING.md, docs/*.md), by the page's path."""
    pages = {}
    for path in doc_files(ROOT):
        commands = shown_commands(path.read_text(encoding="utf-8"))
        if commands:
            pages[path.relative_to(ROOT).as_posix()] = commands
    return pages


SHOWN = documented()


def runnable(command: str, full: bool = False, **places: str) -> list[str]:
    """A shown command as words to run: ``[optional parts]`` left out (or, ``full``, kept: the first of each
    ``[a | b]``), ``…`` left out, the first of ``a|b|c``, and the placeholders (ROUND, TABLE, FILE, DIR, NAME …) as
    ``places`` gives them."""
    words: list[str] = []
    depth = 0
    skipping = False  # past the first alternative of an optional part
    for word in shlex.split(command)[1:]:
        opened = depth > 0 or word.startswith("[")
        depth += word.count("[") - word.count("]")
        if word == "…" or opened and not full:
            continue
        if opened:
            if word == "|":
                skipping = True
            if skipping or word == "|":
                skipping = skipping and depth > 0
                continue
            word = word.strip("[]")
            if not word:
                continue
        if re.fullmatch(r"\w+(\|\w+)+", word):
            word = word.split("|")[0]
        for name, value in places.items():
            word = re.sub(rf"\b{name}\b", value, word)
        words.append(word)
    return words


@dataclass
class Step:
    """One command of a scene: ``doc`` the page's own words (or None for a step the page leaves to the reader),
    ``args`` when the words to run differ (placeholders filled), what to type, the exit code and a text the output
    must hold."""

    doc: str | None
    args: list[str] | None = None
    input: str | None = None
    code: int = 0
    says: str = ""
    places: dict[str, str] = field(default_factory=dict)
    typed: Callable[[Path], str] | None = None  # what to type, worked out in the data folder (a seat code)
    full: bool = False  # with the optional parts the page shows in brackets

    def words(self) -> list[str]:
        if self.args is not None:
            return self.args
        assert self.doc is not None
        return runnable(self.doc, self.full, **self.places)


def DOC(  # noqa: N802 - a step in the page's own words
    command: str,
    *,
    args: list[str] | None = None,
    input: str | None = None,
    code: int = 0,
    says: str = "",
    places: dict[str, str] | None = None,
    typed: Callable[[Path], str] | None = None,
    full: bool = False,
) -> Step:
    return Step(command, args, input, code, says, places or {}, typed, full)


def RUN(*args: str, input: str | None = None, code: int = 0, says: str = "") -> Step:  # noqa: N802
    """A step the page leaves to the reader (the other players, the final table's result)."""
    return Step(None, list(args), input, code, says)


Prep = Callable[[Path], None]  # a file the page leaves to the reader, made in the data folder


def run_scene(home: Path, steps: list[Step | Prep]) -> list[str]:
    """The steps in order, in the data folder ``home`` (the working folder too); each ends with its exit code and
    says its text.  Their outputs."""
    home.mkdir(parents=True, exist_ok=True)
    outputs = []
    here = Path.cwd()
    os.chdir(home)
    try:
        for step in steps:
            if not isinstance(step, Step):
                step(home)
                continue
            words = step.words()
            typed = step.input if step.typed is None else step.typed(home)
            result = invoke(words, input=typed, env={"CMDRAFT_HOME": str(home)})
            said = result.stdout + result.stderr
            assert result.exit_code == step.code, (words, said[-2000:])
            assert step.says in said, (words, said[-2000:])
            if step.code:  # a refusal is one line, no traceback
                assert result.stderr.count("\n") == 1 and "Traceback" not in said, (words, said)
            outputs.append(said)
    finally:
        os.chdir(here)
    return outputs


# --- the files a scene makes ---------------------------------------------------------------------------------------


def write_pool(home: Path, name: str, seed: int) -> None:
    """A pool as the desk types it from a player's cards: three boosters' cards (``cmdraft packs``), one per line."""
    packs = [
        json.loads(line)
        for line in invoke(["packs", "--count", "3", "--seed", str(seed), "--json"]).stdout.splitlines()
    ]
    (home / name).write_text(
        "".join(f"1 {card['name']}\n" for pack in packs for card in pack["cards"]), encoding="utf-8"
    )


def deck_file(player: str, name: str) -> Prep:
    """The deck file a player hands in: the deck ``event deck --auto`` builds from their pool, as the export writes
    it in the file's format."""

    def make(home: Path) -> None:
        env = {"CMDRAFT_HOME": str(home)}
        assert invoke(["event", "deck", "1", player, "--auto"], env=env).exit_code == 0
        assert invoke(["event", "export", "1", "--out", str(home / "made")], env=env).exit_code == 0
        made = next(
            p
            for p in (home / "made").rglob(f"*{Path(name).suffix}")
            if player.lower() in p.name.lower() and "deck" in p.name
        )
        (home / name).write_bytes(made.read_bytes())

    return make


def two_pipers(name: str) -> Prep:
    """A deck led by two Prismatic Pipers (white and blue, as ``--piper W --piper U`` names them), basics besides."""

    def make(home: Path) -> None:
        text = "Commander\n2 The Prismatic Piper\n\nDeck\n29 Plains\n29 Island\n"
        (home / name).write_text(text, encoding="utf-8")

    return make


def one_piper(name: str) -> Prep:
    """A deck led by one Prismatic Piper, islands besides (its color: ``--piper U``)."""

    def make(home: Path) -> None:
        (home / name).write_text("Commander\n1 The Prismatic Piper\n\nDeck\n59 Island\n", encoding="utf-8")

    return make


def pool_files(names: tuple[str, ...]) -> Prep:
    def make(home: Path) -> None:
        for seed, name in enumerate(names, start=1):
            write_pool(home, "pool.txt" if name == "Ann" else f"{name}.txt", seed)

    return make


FOUR = ("Ann", "Bo", "Cy", "Di")  # one table of four: the page's result and tracker name them


# --- the store night (docs/store-night.md) ---------------------------------------------------------------------------


def store_night_desk(home: Path) -> list[Step]:
    """A physical draft from its seating to the end of the night: pools recorded at the desk, decks handed in,
    rounds, results, the tracker, the final table, the export and the restores."""
    pools = [RUN("event", "pool", "1", name, f"{name}.txt") for name in (*FOUR[1:], "Late")]
    return [
        DOC(SHOWN["docs/store-night.md"][0]),  # event new … --style physical
        DOC('cmdraft event player add 1 "Ann" "Bo" …'),
        RUN("event", "player", "add", "1", *FOUR[2:]),
        DOC('cmdraft event player checkin 1 "Ann" "Bo" …'),
        RUN("event", "player", "checkin", "1", *FOUR[2:]),
        DOC("cmdraft event seat 1"),
        DOC('cmdraft event player add 1 "Late"'),
        DOC("cmdraft event seat 1 --again"),
        DOC("cmdraft event print 1 seatings --format html --out seatings.html", says="seatings.html"),
        DOC("cmdraft event draft 1"),
        DOC("cmdraft event timer 1", input="q\n"),
        pool_files((*FOUR, "Late")),
        DOC("cmdraft event pool 1 Ann pool.txt"),
        *pools,
        DOC("cmdraft event pool 1 Ann --edit", input="\n"),
        DOC("cmdraft event pipers 1 [--opened 1=3] [--stock 2] [--request Bo=2]"),
        DOC("cmdraft event pipers 1 [--opened 1=3] [--stock 2] [--request Bo=2]", full=True),
        deck_file("Ann", "deck.cod"),
        DOC("cmdraft event deck 1 Ann deck.cod [--piper U]"),
        one_piper("piper.txt"),  # Ann hands in a deck led by a Piper, as a Cockatrice file
        RUN("deck", "convert", "piper.txt", "deck.cod", "--force"),
        DOC("cmdraft event deck 1 Ann deck.cod [--piper U]", full=True, says="legal"),
        two_pipers("bo.txt"),  # the page's tracker line: Bo leads with two Pipers
        RUN("event", "deck", "1", "Bo", "bo.txt", "--piper", "W", "--piper", "U"),
        *[RUN("event", "deck", "1", name, "--auto") for name in FOUR[2:]],
        RUN("event", "player", "drop", "1", "Late"),  # Late goes home: the four play at one table
        DOC("cmdraft event deck 1"),
        DOC("cmdraft event deck 1 --close 19:30"),
        DOC("cmdraft event print 1 decklists --format html --out decklists.html"),
        DOC("cmdraft event round 1 [--force]"),
        DOC("cmdraft event round 1 --again", says="Round 1"),  # nothing played yet: paired again
        DOC('cmdraft event deck 1 Ann deck.cod --reason "a basic was missing"'),
        DOC("cmdraft event print 1 pairings"),
        DOC("cmdraft event print 1 slips --format html --out slips.html"),
        DOC("cmdraft event clock 1 [--minutes 50]", input="q\n"),
        DOC("cmdraft event clock 1 [--minutes 50]", input="q\n", full=True),
        DOC(
            "cmdraft event game 1 ROUND TABLE --life Ann=-5 --damage Ann=Bo:Piper#2:7 --cast Bo=Piper#1",
            places={"ROUND": "1", "TABLE": "1"},
        ),
        DOC("cmdraft event undo 1"),
        DOC(
            'cmdraft event table 1 --player Di [--report "Ann > Bo = Cy > Di" | --confirm | --dispute]',
            input="\n",
        ),
        DOC(
            'cmdraft event table 1 --player Di [--report "Ann > Bo = Cy > Di" | --confirm | --dispute]',
            input="\n",
            full=True,
        ),
        DOC('cmdraft event result 1 ROUND TABLE "Ann > Bo = Cy > Di"', places={"ROUND": "1", "TABLE": "1"}),
        DOC("cmdraft event log 1 [--json]"),
        DOC("cmdraft event log 1 [--json]", full=True),
        DOC("cmdraft event standings 1"),
        DOC("cmdraft event top 1 4"),
        RUN("event", "result", "1", "2", "1", "Bo > Ann > Cy > Di"),  # the final table's own result
        DOC("cmdraft event finish 1"),
        DOC("cmdraft event export 1 --out DIR", places={"DIR": "export"}),
        DOC("cmdraft event restore DIR/database.json", places={"DIR": "export"}),
        DOC("cmdraft event restore NAME.bak.2 --all", places={"NAME": str(home / "cmdraft.json")}),
    ]


def seat_code(name: str, then: str = "") -> Callable[[Path], str]:
    """The player's seat code as the desk reads it out (``event player code``), then ``then``."""

    def typed(home: Path) -> str:
        shown = invoke(["event", "player", "code", "1", name, "--json"], env={"CMDRAFT_HOME": str(home)})
        return json.loads(shown.stdout)["code"] + "\n" + then

    return typed


def store_night_terminals(home: Path) -> list[Step]:
    """A terminal draft: a name fixed, the seat codes' slips, the desk's start, a player's own terminal, a late
    sealed player."""
    return [
        RUN("event", "new", "Friday CMR", "--style", "terminal"),
        RUN("event", "player", "add", "1", "Ann", "Bob", "Cy", "Di"),
        DOC('cmdraft event player rename 1 "Bob" "Bo"'),
        RUN("event", "seat", "1"),
        DOC("cmdraft event print 1 seatings --codes --format html --out codes.html", says="codes.html"),
        DOC("cmdraft event player code 1 Ann [--reset]", says="seat code of 'Ann'"),
        DOC("cmdraft event player code 1 Ann [--reset]", full=True),
        DOC("cmdraft event draft 1"),
        DOC("cmdraft event draft 1 --player Ann", typed=seat_code("Ann", "quit\n")),
        DOC("cmdraft event player bot 1 Bo [--back]", says="a bot picks for 'Bo' now"),
        DOC("cmdraft event player bot 1 Bo [--back]", full=True, says="'Bo' has the seat back"),
        DOC('cmdraft event player add 1 "Later" --sealed'),
        DOC(
            "cmdraft event print 1 seatings --codes --player Later --format html --out slip-Later.html",
            says="slip-Later.html",
        ),
    ]


def store_night_phones(home: Path) -> list[Step]:
    """The slips for phones: each with its join address and QR code."""
    return [
        RUN("event", "new", "Friday CMR", "--style", "terminal"),
        RUN("event", "player", "add", "1", *FOUR),
        RUN("event", "seat", "1"),
        DOC(
            "cmdraft event print 1 seatings --codes --url http://192.168.1.20:8000 --format html --out codes.html",
            says="codes.html",
        ),
    ]


# --- sets, products and phones (docs/commands.md, docs/products.md, docs/phones.md, docs/index.md) ----------------


@pytest.fixture
def mtgjson(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """MTGJSON on this machine (``CMDRAFT_MTGJSON_URL``): the products' set files with their SHA-256 beside them."""
    folder = tmp_path / "www"
    folder.mkdir()
    for code, name in (("CLB", "clb_set.json"), ("CMM", "cmm_set.json")):
        body = (FIXTURES / name).read_bytes()
        (folder / f"{code}.json").write_bytes(body)
        (folder / f"{code}.json.sha256").write_text(hashlib.sha256(body).hexdigest() + "\n", encoding="utf-8")
    handler = functools.partial(Quiet, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    monkeypatch.setenv("CMDRAFT_MTGJSON_URL", f"http://127.0.0.1:{httpd.server_address[1]}")
    yield folder
    httpd.shutdown()
    httpd.server_close()


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def closed_port() -> str:
    """An address on this machine where nothing listens: a download from it is a download without a network."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


def sets_offline(home: Path) -> list[Step]:
    """The set commands: CMR's download and its images without a network (one line, exit 2, nothing kept), and an
    import of a file at hand."""
    return [
        DOC("cmdraft sets download CMR", code=2, says="no network"),
        DOC("cmdraft sets download CMR --images", code=2, says="no network"),
        DOC("cmdraft sets import FILE", places={"FILE": str(FIXTURES / "clb_set.json")}, says="CLB"),
    ]


def products_practice(home: Path) -> list[Step]:
    """A practice draft of each product, its set downloaded first (from this machine)."""
    return [
        DOC("cmdraft sets download CLB", says="SHA-256 checked"),
        DOC("cmdraft play --product CLB --seed 8", input="quit\n", says="Take 2 cards"),
        DOC("cmdraft sets download CMM", says="SHA-256 checked"),
        DOC("cmdraft play --product CMM --seed 3", input="quit\n", says="Take 2 cards"),
        DOC("cmdraft sim --seed 1"),  # docs/index.md's first command, as the README's
    ]


NOT_DRAFTED = "can't start a round: not every pod has drafted yet"  # a step the page shows after the draft, refused before it in one line


def products_nights(home: Path) -> list[Step]:
    """CLB's night up to its draft at the phones, then its ledger, board and round (refused in one line until the
    pods have drafted)."""
    return [
        RUN("sets", "download", "CLB"),
        DOC('cmdraft event new "Friday CLB" --product CLB --style terminal --stock 3'),
        DOC('cmdraft event player add 1 "Ann" "Bo" "Cy" "Di"'),
        DOC("cmdraft event seat 1"),
        DOC(
            "cmdraft event print 1 seatings --codes --url http://192.168.1.20:8000 --format html --out codes.html",
            args=[
                *runnable("cmdraft event print 1 seatings --codes --url http://192.168.1.20:8000 --format html"),
                "--out",
                "clb.html",
            ],
        ),
        DOC("cmdraft event draft 1"),
        DOC("cmdraft event pipers 1", says="Faceless One stock"),
        DOC("cmdraft event deck 1"),
        DOC("cmdraft event round 1", code=3, says=NOT_DRAFTED),
    ]


def products_cmm_night(home: Path) -> list[Step]:
    return [
        RUN("sets", "download", "CMM"),
        DOC('cmdraft event new "Saturday CMM" --product CMM --style terminal --stock 2'),
        DOC('cmdraft event player add 1 "Ann" "Bo" "Cy" "Di" "Ed" "Flo" "Gus" "Hal"'),
        DOC("cmdraft event seat 1"),  # shown as 'event seat 1 && event draft 1'
        DOC("cmdraft event draft 1"),
        DOC("cmdraft event draft 1 --player Ann", typed=seat_code("Ann", "quit\n")),
        two_pipers("deck.txt"),
        DOC("cmdraft event deck 1 Ann deck.txt", code=3, says="the event is drafting"),
        DOC("cmdraft event pipers 1", says="Piper stock"),
    ]


def phones_night(home: Path) -> list[Step]:
    """docs/phones.md's desk, up to the draft's start (``serve`` itself runs in ``test_serve_as_the_pages_show_it``)."""
    return [
        DOC('cmdraft event new "Friday CMR" --style terminal --timer 90'),
        DOC('cmdraft event player add 1 "Ann" "Bo" …'),
        DOC("cmdraft event seat 1"),
        DOC("cmdraft event print 1 seatings --codes --url http://192.168.1.20:8000 --format html --out slips.html"),
        DOC("cmdraft event draft 1"),
    ]


def store_night_options(home: Path) -> list[Step]:
    """The new event with every option the page shows."""
    return [DOC(SHOWN["docs/store-night.md"][0], full=True)]


SCENES = {
    "store-night-options": store_night_options,
    "store-night-desk": store_night_desk,
    "store-night-terminals": store_night_terminals,
    "store-night-phones": store_night_phones,
    "sets-offline": sets_offline,
    "products-practice": products_practice,
    "products-clb-night": products_nights,
    "products-cmm-night": products_cmm_night,
    "phones-night": phones_night,
}


@pytest.mark.parametrize("scene", sorted(SCENES))
def test_the_docs_commands_run(scene: str, tmp_path: Path, mtgjson: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("CMDRAFT_SCRYFALL_URL", closed_port())
    if scene == "sets-offline":
        monkeypatch.setenv("CMDRAFT_MTGJSON_URL", closed_port())
    home = tmp_path / "home"
    run_scene(home, SCENES[scene](home))


# --- serve, as a person runs and stops it ----------------------------------------------------------------------------

SERVE = "cmdraft serve 1 --lan"


@pytest.mark.slow
def test_serve_as_the_pages_show_it(tmp_path: Path):
    """``cmdraft serve 1 --lan`` in a process of its own: it prints where it serves and the desk's link, and Ctrl-C
    stops it with its goodbye (exit 0); on a machine with no local network it says so in one line (exit 2)."""
    home = tmp_path / "home"
    run_scene(
        home, [RUN("event", "new", "Friday CMR", "--style", "terminal"), RUN("event", "player", "add", "1", *FOUR)]
    )
    env = {**os.environ, "CMDRAFT_HOME": str(home), "COLUMNS": "100"}
    words = runnable(SERVE)
    child = subprocess.Popen(
        [sys.executable, "-m", "events", *words, "--port", "0"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    first = child.stdout.readline()
    if first.startswith("Serving event 1 ('Friday CMR') at http://"):
        shown = first
        while "Ctrl-C stops" not in shown:
            line = child.stdout.readline()
            assert line, shown
            shown += line
        assert "/desk?token=" in shown
        time.sleep(2)  # uvicorn takes Ctrl-C over once it runs (no request: its address is not this machine's loopback)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
        assert "Traceback" not in err and err.count("\n") <= 1, err
        # stopped as it runs (its goodbye), or while it was still warming up (Ctrl-C's exit code, nothing said)
        assert (child.returncode, "Stopped serving" in out) in ((0, True), (130, False)), (child.returncode, out, err)
    else:
        out, err = child.communicate(timeout=60)
        assert child.returncode == 2 and "no local network address for --lan" in err and err.count("\n") == 1


# --- every command shown is a step ---------------------------------------------------------------------------------

# The README's own paths run in tests/test_docs.py (practice, the store night, the script), all but its 'serve'.
README_RUN_ELSEWHERE = "README.md"


def scene_commands() -> list[str]:
    """The page's words of every documented step of every scene, and ``serve``'s."""
    found = [SERVE]
    for make in SCENES.values():
        found += [step.doc for step in make(Path("home")) if isinstance(step, Step) and step.doc is not None]
    return found


def unrun_commands(shown: dict[str, list[str]], run: list[str], elsewhere: set[str]) -> list[str]:
    """The commands a page shows that no scene runs (the README's, but its serve, run by tests/test_docs.py), and
    the scenes' documented steps that no page shows (a page changed)."""
    missing = [
        f"{page}: {command}"
        for page, commands in shown.items()
        for command in commands
        if command not in run and not (page in elsewhere and command != SERVE)
    ]
    every = {command for commands in shown.values() for command in commands}
    stale = [f"no page shows: {command}" for command in run if command not in every]
    return missing + stale


def test_every_command_of_the_docs_is_a_step():
    assert unrun_commands(SHOWN, scene_commands(), {README_RUN_ELSEWHERE}) == []
    assert sum(len(commands) for commands in SHOWN.values()) >= 80


def test_a_planted_command_no_scene_runs_or_a_step_no_page_shows_is_seen():
    shown = {"docs/night.md": ["cmdraft event seat 1", "cmdraft event sit 1"], "README.md": ["cmdraft sim", SERVE]}
    assert unrun_commands(shown, ["cmdraft event seat 1", "cmdraft event seat 1 --again"], {"README.md"}) == [
        "docs/night.md: cmdraft event sit 1",
        "README.md: cmdraft serve 1 --lan",
        "no page shows: cmdraft event seat 1 --again",
    ]


SHARED_DATA = ROOT.parent / "shared" / "data"


def shown_python_commands(text: str) -> list[str]:
    """Every ``python -m`` command of the project's own modules a Markdown text shows, in a shell block or in
    running text (a code span, which may wrap), with its words on one line."""
    lines = [re.split(r"(?:^|\s)#", line, maxsplit=1)[0] for block in shell_blocks(text) for line in block.splitlines()]
    spans = re.findall(r"`([^`]+)`", re.sub(r"^```.*?^```", "", text, flags=re.M | re.S))
    found = [" ".join(part.split()) for part in lines + spans]
    return [command for command in found if re.match(r"python -m (tests|sets|draft|events)\.", command)]


def least_form(command: str) -> str:
    """A shown command without its optional parts (``[--count 50000]``)."""
    return " ".join(re.sub(r"\[[^\]]*\]", " ", command).split())


def run_module(module: str, argv: list[str]) -> tuple[int, str]:
    """``python -m MODULE ARGV`` in this process: its exit code and what it printed."""
    import contextlib
    import importlib
    import io

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = importlib.import_module(module).main(argv)
    return code, printed.getvalue()


# How the suite runs each ``python -m`` command the pages show (by its least form), small: the benchmarks' groups
# with their documented size options at their least (the figures are not checked, only that the group runs and
# reports), the quickest group where the page says ``[group]``.
MODULE_RUNS: dict[str, tuple[str, list[str], str]] = {
    "python -m tests.benchmarks": ("tests.benchmarks", ["stalls", "--drafts", "2"], "== stalls"),
    "python -m tests.benchmarks NAME --help": ("tests.benchmarks", ["bots", "--help"], "--pods"),
    "python -m tests.benchmarks bots": ("tests.benchmarks", ["bots", "--pods", "1"], "== bots"),
    "python -m tests.collation_figures": ("tests.collation_figures", ["--count", "200", "--old", "--audit"], "obs/exp"),
}
# The ones that start processes (terminals, a server) run as the reader runs them, in a process, small.
PROCESS_RUNS: dict[str, tuple[list[str], str]] = {
    "python -m tests.benchmarks event_store": (
        ["tests.benchmarks", "event_store", "--players", "8", "--terminals", "1", "--limit", "8", "--json"],
        '"lost": 0',
    ),
    "python -m tests.benchmarks practice": (
        ["tests.benchmarks", "practice", "--picks", "2"],
        "timed: 2 picks at the line prompt, 2 in the app",
    ),
    "python -m tests.benchmarks serve": (
        ["tests.benchmarks", "serve", "--phones", "8", "--rounds", "1", "--json"],
        '"night_phones": 8',
    ),
    "python -m tests.hostile": (["tests.hostile", "--every", "400", "--json"], '"tracebacks": 0'),
}
# Shown and run by the suite in its parts: every sweep in full starts two commands the suite runs small (the
# fuzzers marked ``sweep`` with a sample of their examples, ``tests.hostile --every 400`` above); the test below
# runs ``tests.sweeps`` with those two answered, to see that it starts them in full and reads their answers.
RUN_IN_PARTS = {"python -m tests.sweeps"}
DATA_RUNS = {
    "python -m sets.build_cmr ../shared/data/cmr",
    "python -m draft.rating_build ../shared/data/cmr/cards.json > draft/data/cmr_ratings.json",
}


def test_every_python_command_the_pages_show_has_a_way_to_run():
    shown = {least_form(c) for path in doc_files(ROOT) for c in shown_python_commands(path.read_text("utf-8"))}
    assert shown - set(MODULE_RUNS) - set(PROCESS_RUNS) - RUN_IN_PARTS - DATA_RUNS == set(), (
        "a page shows a command no test runs"
    )
    assert set(MODULE_RUNS) | set(PROCESS_RUNS) | DATA_RUNS <= shown, "a way to run a command no page shows any more"


def test_a_planted_python_command_in_running_text_or_a_shell_block_is_found():
    text = "Run `python -m tests.benchmarks\nbots [--pods N]` or:\n\n```sh\npython -m tests.newtool --x  # note\n```\n"
    assert [least_form(c) for c in shown_python_commands(text)] == [
        "python -m tests.newtool --x",
        "python -m tests.benchmarks bots",
    ]


@pytest.mark.parametrize("shown", sorted(MODULE_RUNS))
def test_the_python_commands_the_pages_show_run(shown: str):
    module, argv, says = MODULE_RUNS[shown]
    code, printed = run_module(module, argv)
    assert code == 0 and says in printed, printed[-2000:]


@pytest.mark.slow
@pytest.mark.parametrize("shown", sorted(PROCESS_RUNS))
def test_the_python_commands_that_start_processes_run(shown: str, tmp_path: Path):
    """In a process, as the page shows them, with their documented size options at their least."""
    argv, says = PROCESS_RUNS[shown]
    done = subprocess.run(
        [sys.executable, "-m", *argv], capture_output=True, text=True, cwd=ROOT, timeout=300, check=False
    )
    assert done.returncode == 0 and says in done.stdout, done.stdout[-2000:] + done.stderr[-2000:]


def hostile_summary(**wrong: list[str]) -> str:
    """The hostile sweep's summary line as ``tests.hostile`` prints it, for 40 inputs with ``wrong`` found."""
    from tests.hostile import Tally

    return " ".join(f"{k}={v}" for k, v in Tally(40, **wrong).summary().items())


@pytest.mark.parametrize(
    ("fuzzers", "summary", "code"),
    [
        (0, hostile_summary(), 0),
        (1, hostile_summary(), 1),  # a fuzzer failed
        (0, hostile_summary(tracebacks=["x"]), 1),
        (0, hostile_summary(changed=["db"]), 1),
    ],
)
def test_the_full_sweeps_start_both_sweeps_in_full_and_fail_on_either(fuzzers: int, summary: str, code: int):
    import tests.sweeps

    started: list[tuple[list[str], dict[str, str]]] = []

    def run(argv: list[str], **options):
        started.append((argv[1:], options["env"]))
        hostile = argv[2] == "tests.hostile"
        return SimpleNamespace(returncode=0 if hostile else fuzzers, stdout=summary + "\n" if hostile else None)

    assert tests.sweeps.main(run) == code
    assert [argv for argv, _ in started] == [
        ["-m", "pytest", "-m", "sweep", "-p", "no:cacheprovider"],
        ["-m", "tests.hostile", "--show"],
    ]
    assert all(env["CMDRAFT_FULL_SWEEPS"] == "1" for _, env in started)


@pytest.mark.skipif(not (SHARED_DATA / "cmr" / "cards.json").exists(), reason="needs ../shared/data (reference data)")
def test_the_data_commands_architecture_shows_remake_the_committed_files(tmp_path, monkeypatch):
    """``sets.build_cmr`` writes into a folder of the test's (never the sources); ``draft.rating_build``'s output
    is the committed ratings file."""
    from importlib import resources

    import sets.build_cmr

    monkeypatch.setattr(sets.build_cmr, "build", functools.partial(sets.build_cmr.build, out=tmp_path))
    code, _ = run_module("sets.build_cmr", [str(SHARED_DATA / "cmr")])
    assert code == 0
    for name in ("cmr.json", "cmr-boosters.json"):
        committed = resources.files("sets").joinpath("data", name).read_text(encoding="utf-8")
        assert json.loads((tmp_path / name).read_text(encoding="utf-8")) == json.loads(committed)
    code, printed = run_module("draft.rating_build", [str(SHARED_DATA / "cmr" / "cards.json")])
    assert code == 0
    assert json.loads(printed) == json.loads((ROOT / "draft" / "data" / "cmr_ratings.json").read_text("utf-8"))
