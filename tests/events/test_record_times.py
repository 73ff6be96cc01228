"""Every time a record keeps is read from the application's clock (``events.timing``), as the deadlines are: an
event's creation and date, a deck's registration, the changes in its history and a draft log's time all follow a
clock the test sets, and no module reads the machine's wall clock behind it."""

from __future__ import annotations

import ast
import datetime as dt
import json
from pathlib import Path

from events.storage.store import Store
from tests.helpers.night import Night, bots_drafted
from tests.helpers.paths import ROOT

# ManualClock's start, 1,800,000,000 seconds after the epoch: 2027-01-15 08:00:00 UTC, a date no run of the suite is on
CLOCK_STAMP = "2027-01-15T08:00:00+00:00"

# Where the machine's own clock is the right one: the clock itself, and a temporary file's age against its
# modification time (which the file system stamps with the machine's clock).
MACHINE_CLOCK_READERS = {"events/timing.py", "events/portable.py"}
WALL_CLOCK_CALLS = {
    ("time", "time"),
    ("time", "time_ns"),
    ("datetime", "now"),
    ("datetime", "utcnow"),
    ("datetime", "today"),
    ("date", "today"),
}
# these read the clock when given no time of their own (``time.strftime(FORMAT)``, ``time.localtime()``)
NOW_WITHOUT_A_TIME = {"strftime": 1, "localtime": 0, "gmtime": 0, "ctime": 0, "asctime": 0}


def wall_clock_reads(source: str) -> list[int]:
    """The lines of ``source`` that read the wall clock: ``time.time()``, ``datetime.now()``, ``date.today()``,
    ``time.strftime(FORMAT)``, ``time.localtime()`` and the like, or ``time()`` imported from ``time``."""
    tree = ast.parse(source)
    bare = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "time"
        for alias in node.names
        if alias.name in ("time", "time_ns", *NOW_WITHOUT_A_TIME)
    }
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func, arguments = node.func, len(node.args) + len(node.keywords)
        if isinstance(func, ast.Name) and func.id in bare:
            found.append(node.lineno)
        elif isinstance(func, ast.Attribute):
            owner = func.value
            name = owner.attr if isinstance(owner, ast.Attribute) else owner.id if isinstance(owner, ast.Name) else ""
            if (name, func.attr) in WALL_CLOCK_CALLS or (
                name == "time" and NOW_WITHOUT_A_TIME.get(func.attr, -1) == arguments
            ):
                found.append(node.lineno)
    return sorted(found)


def test_no_module_reads_the_wall_clock_behind_the_applications_clock():
    reads = {}
    for package in ("sets", "draft", "events"):
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            lines = wall_clock_reads(path.read_text(encoding="utf-8"))
            if lines and relative not in MACHINE_CLOCK_READERS:
                reads[relative] = lines
    assert reads == {}


def test_the_scan_sees_each_way_of_reading_the_wall_clock():
    planted = "import datetime as dt\nimport time\nfrom datetime import date\nfrom time import time as clock\n"
    planted += "a = dt.datetime.now(dt.UTC)\nb = time.time()\nc = date.today()\nd = dt.datetime.utcnow()\n"
    planted += "e = time.strftime('%Y')\nf = time.localtime()\ng = time.ctime()\nh = clock()\n"
    assert wall_clock_reads(planted) == [5, 6, 7, 8, 9, 10, 11, 12]
    # waiting is not a time kept, and a time given is converted, not read
    assert wall_clock_reads("import time\nx = time.monotonic()\ny = time.strftime('%Y', time.gmtime(0))\n") == []


def times_kept(saved: dict) -> dict[str, set[str]]:
    """Every time the database keeps, by table: each record's ``at`` and ``created``."""
    return {
        table: {doc[key] for doc in docs.values() for key in ("at", "created") if key in doc}
        for table, docs in saved.items()
        if not table.startswith("_")
    }


def test_an_events_records_keep_the_applications_time(tmp_path, manual_clock):
    events = Night(Store(tmp_path / "night.json"))
    event_id = bots_drafted(events, "Clocked", ["Ann", "Bo"], seed=3)  # (each registered with a deck)
    saved = json.loads(Path(events.store.path).read_text(encoding="utf-8"))
    kept = times_kept(saved)
    assert {table for table, times in kept.items() if times} >= {"events", "decks", "history"}
    assert set().union(*kept.values()) == {CLOCK_STAMP}
    (event,) = saved["events"].values()
    assert event["date"] == dt.datetime.fromtimestamp(manual_clock.now()).date().isoformat()  # its local date

    manual_clock.advance(3600)
    events.register_deck(event_id, "Ann", auto=True)
    saved = json.loads(Path(events.store.path).read_text(encoding="utf-8"))
    ann = events.player_id(event_id, "Ann")
    assert [deck["at"] for deck in saved["decks"].values() if deck["player"] == ann] == ["2027-01-15T09:00:00+00:00"]
