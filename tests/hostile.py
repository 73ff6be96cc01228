"""A hostile-input sweep against the real command line: ``python -m tests.hostile [--every N] [--json]``.

Tries hundreds of inputs a careless or hostile user (or disk) can give: numbers in every odd form
for every numeric option, names that are markup, formulas, control characters or huge, deck,
pool, restore and import files that are nested, huge, of the wrong types, not text or not files
at all, output paths that point at the database, and the bad databases of
``tests.helpers.damaged.bad_databases``.  Each input runs the real CLI (in this process, or in a
process of its own where a hang is possible: FIFOs, devices, terminals) and is counted as

- a traceback (any exception escaping, or "Traceback" on stderr),
- a wrong exit (not one the README's exit-code rule allows for it, or an error that isn't one line),
- a hang (no answer within the time limit),
- data changed (the database folder differs afterwards when the command was refused or only read).

The expected exits come from the README's rule (2 bad input, 3 not now, 4 the database), never
from running the code.  ``--every N`` runs every Nth input (the test suite runs a sample).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 20.0  # seconds before a command counts as hanging


@dataclass
class Case:
    args: list[str | bytes]
    exits: tuple[int, ...]  # what the exit-code rule allows
    label: str
    process: bool = False  # run in a process of its own (it might block)
    keep: bool = True  # the database folder must be unchanged afterwards
    db: Path | None = None  # the database the case works on


@dataclass
class Tally:
    tried: int = 0
    tracebacks: list[str] = field(default_factory=list)
    wrong_exits: list[str] = field(default_factory=list)
    hangs: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, int]:
        return {
            "inputs": self.tried,
            "tracebacks": len(self.tracebacks),
            "wrong_exits": len(self.wrong_exits),
            "hangs": len(self.hangs),
            "data_changed": len(self.changed),
        }


def snapshot(folder: Path) -> dict[str, bytes]:
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink() and not path.name.endswith((".lock", ".queue")):
            try:
                found[str(path.relative_to(folder))] = path.read_bytes()
            except OSError:
                found[str(path.relative_to(folder))] = b"<unreadable>"
    return found


def build(work: Path) -> dict[str, Path]:
    """The database and files the sweep uses."""
    from events.storage.store import Store

    sys.path.insert(0, str(ROOT))
    from tests.helpers.damaged import bad_databases, playing_event

    dbdir = work / "db"
    dbdir.mkdir()
    db = dbdir / "friday.json"
    playing_event(db)
    Store(db).backup()
    files = work / "files"
    files.mkdir()
    paths = {"db": db, "dbdir": dbdir, "files": files}
    contents: dict[str, bytes] = {
        "nested.json": b'{"main": ' + b"[" * 50_000 + b"]" * 50_000 + b"}",
        "nested-list.json": b"[" * 100_000 + b"]" * 100_000,
        "digits.json": b'{"main": [{"name": "Arcane Signet", "count": ' + b"9" * 5000 + b"}]}",
        "nan.json": b'{"main": [{"name": "Arcane Signet", "count": NaN}]}',
        "types.json": b'{"name": 5, "main": "Arcane Signet"}',
        "types2.json": b'{"main": [{"name": ["x"], "count": {"a": 1}}], "piper_colors": 7}',
        "types3.json": b'{"main": [{"name": "Arcane Signet", "set": {"x": 1}, "number": [1]}]}',
        "schema-true.json": b'{"_meta": {"1": {"app": "cmdraft", "schema": true}}, "events": {}}',
        "binary.bin": bytes(range(256)) * 64,
        "latin1.txt": "1 Jos\xe9 card\n".encode("latin-1"),
        "cp1252-hole.txt": b"1 Arcane Signet\n1 \x81\x8d card\n",
        "utf16-nobom.txt": "1 Arcane Signet\n".encode("utf-16-le"),
        "long-line.txt": b"1 " + b"A" * 2_000_000 + b"\n",
        "many-lines.txt": b"".join(b"1 Arcane Signet\n" for _ in range(20_000)),
        "empty.txt": b"",
        "csv-formula.csv": b"count,name\n1,=SUM(A1)\n1,'=cmd|' /C calc'!A0\n",
        "csv-broken.csv": b'count,name\n1,"unterminated\n',
        "cod-bad.cod": b"<?xml version='1.0'?><cockatrice_deck><zone name='main'><card number='x' name='Arcane Signet'/></zone>",
        "dek-bad.dek": b"<?xml version='1.0'?><Deck><Cards CatID='1' Quantity='-5' Sideboard='maybe' Name='Arcane Signet'/></Deck>",
        "dek-entity.dek": b"<?xml version='1.0'?><!DOCTYPE d [<!ENTITY a '"
        + b"x" * 1000
        + b"'>]><Deck>&a;&a;&a;</Deck>",
        "dck-bad.dck": b"[metadata]\nName=x\n[Main]\n99999999999999999999 Arcane Signet\n",
        "import-types.json": b'{"data": {"cards": [{"name": 5, "number": [], "setCode": 3}]}}',
        "import-list.json": b'{"object": "list", "data": [{"name": null}]}',
        "import-cards.json": b'{"cards": [{"number": "1", "name": "X", "colors": "W", "type": 4}]}',
    }
    good = json.loads(db.read_text())
    for number, (_kind, content) in enumerate(bad_databases(good).items()):
        contents[f"baddb-{number:02d}.json"] = content
    for name, content in contents.items():
        (files / name).write_bytes(content)
    shutil.copy(db, files / "copy.json")  # a cmdraft database that isn't open: never an output
    big = files / "big.txt"
    with open(big, "wb") as stream:
        stream.truncate(11 * 1024 * 1024)
    fifo = files / "fifo"
    os.mkfifo(fifo)
    loop_a, loop_b = files / "loop-a", files / "loop-b"
    loop_a.symlink_to(loop_b)
    loop_b.symlink_to(loop_a)
    locked = files / "mode000.txt"
    locked.write_text("1 Arcane Signet\n")
    os.chmod(locked, 0)
    (files / "folder").mkdir()
    link = work / "link.json"
    link.symlink_to(db)
    paths.update(fifo=fifo, loop=loop_a, locked=locked, big=big, link=link)
    return paths


NUMBERS = [
    "",
    " ",
    "abc",
    "٣",
    "５０",
    "²",
    "1_0",
    "1e3",
    "nan",
    "inf",
    "-inf",
    "+",
    "-",
    "--5",
    "0x10",
    "0",
    "-1",
    "9" * 5000,
    "99999999999999999999",
    "0.0001",
    "1.5",
    "1,5",
    "١٠",
    "\u00a05",
    "5\x00",
]
NAMES = [
    "=SUM(A1)",
    "=cmd|' /C calc'!A0",
    "+1",
    "-1",
    "@x",
    "\ttab",
    "\rcr",
    "[bold red]Friday[/]",
    "\x1b[31mred",
    "李小龍",
    "José",
    "a" * 5000,
    "#1",
    "#999",
    "3",
    " ",
    "",
    "Ann",
    "ann",
    "a\nb",
    "\u202eevil",
    "'\"quoted\"'",
    "a > b",
    "a = b",
    "a, b",
    "\ud800",
]


def cases(p: dict[str, Path]) -> list[Case]:
    db, files = str(p["db"]), p["files"]
    out: list[Case] = []
    add = out.append

    # numbers in every odd form for every numeric option (all of them refused: 2)
    numeric = [
        (["packs", "--count"], []),
        (["packs", "audit", "--count"], []),
        (["sealed", "--players"], []),
        (["sealed", "--boosters"], []),
        (["sim", "--players"], []),
        (["sim", "--drafts"], []),
        (["deck", "suggest", str(files / "many-lines.txt"), "--top"], []),
        (["play", "--list", "--players"], []),
        (["event", "new", "X", "--pod-size"], ["--db", db]),
        (["event", "new", "X", "--game-size"], ["--db", db]),
        (["event", "new", "X", "--timer"], ["--db", db]),
        (["event", "new", "X", "--piper-stock"], ["--db", db]),
        (["event", "new", "X", "--points"], ["--db", db]),
        (["event", "new", "X", "--seed"], ["--db", db]),
        (["event", "timer", "1", "--seconds"], ["--db", db]),
        (["event", "clock", "1", "--json", "--minutes"], ["--db", db]),
        (["event", "show"], ["--db", db]),
        (["event", "result", "1"], ["1", "Ann > Bo", "--db", db]),
        (["event", "game", "1", "1", "1", "--life"], ["--db", db]),
        (["event", "pipers", "1", "--stock"], ["--db", db]),
        (["event", "pipers", "1", "--opened"], ["--db", db]),
    ]
    for head, tail in numeric:
        for value in NUMBERS:
            typed = value
            if head[-1] == "--life":
                typed = f"Ann={value}"
            elif head[-1] == "--opened":
                typed = f"1={value}"
            elif head[-1] == "--points":
                typed = f"{value},0"
            allowed = (2,)
            if value in ("0",) and head[-1] in ("--timer", "--piper-stock", "--seed", "--stock", "--opened", "--life"):
                allowed = (0, 2, 3)  # 0 is a real value there
            if value in ("-1",) and head[-1] in ("--seed", "--life"):
                allowed = (0, 2, 3)
            if value == "1.5" and head[-1] in ("--minutes", "--points"):
                allowed = (0, 2, 3)
            if value == "0" and head[-1] == "--points":
                allowed = (0, 2)
            if value == "0.0001" and head[-1] == "--points":
                allowed = (0, 2)
            if head[:1] == ["play"]:
                allowed = (0, 2)  # --list shows saved drafts; a table size is not read there
            interactive = head[:2] == ["event", "timer"] or head[:1] == ["play"]
            add(
                Case(
                    [*head, typed, *tail],
                    allowed,
                    f"number {head[-1]} {value[:12]!r}",
                    process=interactive,
                    keep=allowed == (2,),
                )
            )

    # names: registered or refused as bad input, never a traceback; shown everywhere
    for name in NAMES:
        add(Case(["event", "player", "add", "1", name, "--db", db], (0, 2, 3), f"name {name[:12]!r}", keep=False))
        add(
            Case(
                ["event", "player", "rename", "1", "Ann", name, "--db", db],
                (0, 2, 3),
                f"rename {name[:12]!r}",
                keep=False,
            )
        )
        add(Case(["event", "new", name, "--db", db], (0, 2), f"event name {name[:12]!r}", keep=False))
        add(Case(["card", name], (0, 2), f"card {name[:12]!r}"))
        add(Case(["sets", "show", name], (0, 2), f"set {name[:12]!r}"))
    add(
        Case(
            ["event", "player", "add", "1", "Jos\udce9".encode("utf-8", "surrogateescape"), "--db", db],
            (2,),
            "latin-1 name",
            process=True,
        )
    )
    for what in ("show", "standings", "list"):
        add(Case(["event", what, *(["1"] if what != "list" else []), "--db", db], (0,), f"after names: {what}"))
    for what in ("standings", "pairings", "results", "seatings", "slips", "decklists"):
        for fmt in ("text", "html", "csv"):
            add(Case(["event", "print", "1", what, "--format", fmt, "--db", db], (0, 2, 3), f"print {what} {fmt}"))

    # hostile input files, for every command that reads one
    readers = [
        (["deck", "check"], [], (1, 2)),
        (["deck", "suggest"], [], (0, 2)),
        (["deck", "convert"], [str(files / "out-{n}.txt")], (0, 2)),
        (["event", "pool", "1", "Ann"], ["--replace", "--db", db], (0, 2, 3)),
        (["event", "deck", "1", "Ann"], ["--db", db], (0, 1, 2, 3)),
        (["sets", "import"], [], (0, 2)),
        (["identity"], [], (0, 2)),
        (["event", "restore"], ["--db", db], (0, 2)),
    ]
    names = sorted(p.name for p in files.iterdir() if not p.name.startswith("out-"))
    special = [
        str(p["fifo"]),
        str(p["loop"]),
        str(p["locked"]),
        str(p["big"]),
        "/dev/zero",
        "/dev/null",
        str(files / "folder"),
        str(files / "missing.txt"),
        str(files / "empty.txt") + "/x",
        "",
        "-",
    ]
    for number, (head, tail, allowed) in enumerate(readers):
        for item in [str(files / n) for n in names] + special:
            if item in (str(p["fifo"]), str(p["loop"])) and Path(item).name not in names:
                pass
            extra = [part.replace("{n}", f"{number}-{len(out)}") for part in tail]
            # a process of its own only where the read may block (a FIFO, an endless device, standard input): an
            # ordinary file, even a hostile one, runs in this process like every other input
            blocking = item in (str(p["fifo"]), "/dev/zero", "-")
            keep = head[:2] in (["deck", "check"], ["deck", "suggest"], ["identity"]) or item in special
            good_restore = head[1:2] == ["restore"] and item.endswith(("friday.json", ".bak.1"))
            add(
                Case(
                    [*head, item, *extra],
                    allowed,
                    f"{' '.join(head[:2])} {Path(item).name or repr(item)}",
                    process=blocking,
                    keep=keep and not good_restore,
                )
            )

    # outputs that would replace inputs: every one refused (2), nothing changed
    deck = str(files / "many-lines.txt")
    targets = [
        db,
        str(p["link"]),
        db + ".bak.1",
        db + ".lock",
        db + ".drafts/x.json",
        str(p["dbdir"]),
        "",
        " ",
        "/",
        str(p["fifo"]),
        "/dev/null",
        str(files / "copy.json"),
        str(p["dbdir"] / ".." / "db" / "friday.json"),
    ]
    for target in targets:
        for force in ([], ["--force"]):
            add(
                Case(
                    ["event", "print", "1", "standings", "--out", target, "--db", db, *force],
                    (2,),
                    f"print --out {target[-20:]!r} {force}",
                    process=target == str(p["fifo"]),
                )
            )
            add(
                Case(
                    ["event", "export", "1", "--out", target, "--db", db, *force],
                    (2,),
                    f"export --out {target[-20:]!r} {force}",
                    process=target == str(p["fifo"]),
                )
            )
            add(
                Case(
                    ["deck", "convert", deck, target, *force],
                    (2,),
                    f"convert to {target[-20:]!r} {force}",
                    process=target == str(p["fifo"]),
                )
            )
            add(
                Case(
                    ["sim", "--seed", "1", "--players", "3", "--out", target, *force],
                    (2,),
                    f"sim --out {target[-20:]!r}",
                    process=target == str(p["fifo"]),
                )
            )

    # bad databases: each refused (4) by every command, reading or writing, and left as it was
    for path in sorted(files.glob("baddb-*.json")):
        for args in (
            ["event", "list"],
            ["event", "show", "1"],
            ["event", "standings", "1"],
            ["event", "export", "1", "--out", str(files / f"out-{path.stem}")],
            ["event", "new", "X"],
            ["event", "player", "add", "1", "Zed"],
            ["event", "seat", "1"],
        ):
            add(Case([*args, "--db", str(path)], (4,), f"{path.name} {' '.join(args[:2])}", db=path))
    # odd database paths
    for target in (
        p["fifo"],
        p["loop"],
        p["locked"],
        files / "folder",
        files / "empty.txt" / "x",
        "/dev/zero",
        "/dev/null",
    ):
        for args in (["event", "list"], ["event", "new", "X"]):
            add(Case([*args, "--db", str(target)], (4,), f"db at {Path(target).name} {args[1]}", process=True))
    return out


def run_case(case: Case, tally: Tally, watched: Path) -> None:
    before = snapshot(watched)
    db_before = case.db.read_bytes() if case.db and case.db.exists() else None
    tally.tried += 1
    if case.process and any("\x00" in a for a in case.args if isinstance(a, str)):
        case.process = False  # no process can be given a NUL in its arguments: only in-process reaches it
    if case.process:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        try:
            done = subprocess.run(
                [sys.executable, "-m", "events", *case.args],
                capture_output=True,
                timeout=LIMIT,
                cwd=watched.parent,
                env=env,
                stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired:
            tally.hangs.append(case.label)
            return
        code, err = done.returncode, done.stderr.decode("utf-8", "replace")
    else:
        from tests.helpers.cliapp import invoke

        start = time.monotonic()
        result = invoke([a if isinstance(a, str) else os.fsdecode(a) for a in case.args], catch_exceptions=True)
        if time.monotonic() - start > LIMIT:
            tally.hangs.append(case.label)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            tally.tracebacks.append(f"{case.label}: {type(result.exception).__name__}: {str(result.exception)[:120]}")
            return
        code, err = result.exit_code, result.stderr
    lines = [line for line in err.splitlines() if line.strip()]
    if "Traceback" in err:
        tally.tracebacks.append(f"{case.label}: {lines[-1][:160] if lines else ''}")
    elif code not in case.exits:
        tally.wrong_exits.append(f"{case.label}: exit {code} (allowed {case.exits}): {err.strip()[:160]}")
    elif code != 0 and code != 1 and not (len([l for l in lines if l.startswith("cmdraft: error")]) == 1):
        tally.wrong_exits.append(f"{case.label}: not one error line: {err.strip()[:160]}")
    if case.keep and (code != 0 or case.exits == (2,)) and snapshot(watched) != before:
        tally.changed.append(case.label)
    if case.db is not None and db_before is not None and case.db.read_bytes() != db_before:
        tally.changed.append(f"{case.label} (bad database rewritten)")


def prepare(work: Path) -> tuple[dict[str, Path], list[Case]]:
    """The sweep's files and database in ``work`` (a data folder of its own beside them), and every input."""
    saved = os.environ.get("CMDRAFT_HOME")
    os.environ["CMDRAFT_HOME"] = str(work / "home")
    try:
        paths = build(work)
    finally:
        if saved is None:
            os.environ.pop("CMDRAFT_HOME")
        else:
            os.environ["CMDRAFT_HOME"] = saved
    shutil.copytree(paths["dbdir"], work / "pristine-db", symlinks=True)
    return paths, cases(paths)


def fresh_database(work: Path) -> None:
    """The database folder as ``prepare`` left it, so each input meets the same database whatever ran before."""
    dbdir = work / "db"
    shutil.rmtree(dbdir)
    shutil.copytree(work / "pristine-db", dbdir, symlinks=True)


def release(work: Path) -> None:
    """Remove the sweep's folder (its mode-000 file and read-only parts included)."""
    for path in work.rglob("*"):
        try:
            if not path.is_symlink():
                os.chmod(path, 0o755)
        except OSError:
            pass
    shutil.rmtree(work, ignore_errors=True)


def sweep(every: int = 1) -> Tally:
    """Every ``every``-th input, one after another on one database (``python -m tests.hostile``)."""
    work = Path(tempfile.mkdtemp(prefix="cmdraft-hostile-"))
    old = os.getcwd()
    try:
        os.chdir(work)
        paths, inputs = prepare(work)
        os.environ["CMDRAFT_HOME"] = str(work / "home")
        tally = Tally()
        for number, case in enumerate(inputs):
            if number % every == 0:
                run_case(case, tally, paths["dbdir"])
        return tally
    finally:
        os.chdir(old)
        release(work)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=1, help="run every Nth input only")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--show", action="store_true", help="list every failing input")
    options = parser.parse_args()
    tally = sweep(options.every)
    if options.json:
        print(
            json.dumps(
                {
                    **tally.summary(),
                    "failures": {
                        "tracebacks": tally.tracebacks,
                        "wrong_exits": tally.wrong_exits,
                        "hangs": tally.hangs,
                        "data_changed": tally.changed,
                    },
                }
            )
        )
        return
    print(" ".join(f"{k}={v}" for k, v in tally.summary().items()))
    if options.show:
        for kind in ("tracebacks", "wrong_exits", "hangs", "changed"):
            for line in getattr(tally, kind):
                print(f"{kind}: {line}")


if __name__ == "__main__":
    main()
