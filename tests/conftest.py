"""Shared fixtures: a fixed terminal width, a private CMDRAFT_HOME (tests/isolation.py), the shared data folder."""

from __future__ import annotations

import asyncio
import gc
import os
import random
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path

import pytest

from tests.helpers import syntax
from tests.helpers.paths import GOLDEN, ROOT, SHARED_DATA, TESTS  # noqa: F401 (ROOT, SHARED_DATA: the names older tests import)

os.environ["COLUMNS"] = "160"
os.environ.setdefault("NO_COLOR", "1")

# Every test's own data folder, and the guard that no test touches the user's own (tests/isolation.py); the longest
# tests first, spread over the workers (tests/long_first.py).
pytest_plugins = ["tests.isolation", "tests.long_first"]


def flush_nothing(descriptor: int) -> None:
    """``os.fsync`` in the suite's own processes (the main one and its workers): the file's bytes are not pushed on
    to the storage device.  Only a power cut could tell the difference, and no test makes one: the tests of the
    durable writes check that the flush is asked for, at its place in the write (they spy on
    ``events.portable.flush_to_disk`` or on ``os.fsync`` itself), and a process killed mid-write leaves its written
    bytes in the system's cache either way.  The flushes cost the suite a tenth of its time (measured on tests/events:
    56-64 against 46-53 CPU-seconds of the machine), the more so as its workers write side by side.  Every process a
    test starts (``cmdraft serve``, the terminals, the crash tests' killed servers) flushes for real.  A descriptor
    that is not open still fails, as fsync would."""
    os.fstat(descriptor)


os.fsync = flush_nothing


def shared_bytecode(environ, dont_write: bool, cache) -> str | None:
    """Where Python may not write bytecode beside the sources (``PYTHONDONTWRITEBYTECODE``, as in many containers),
    every process of the suite (each worker, and each of the hundreds of ``cmdraft`` processes and terminals the
    tests start) compiled the package, its libraries and the tests from source again.  The run keeps their bytecode
    in pytest's own cache folder instead (``.pytest_cache``, through ``PYTHONPYCACHEPREFIX``; a temporary folder when
    the cache is off): nothing is written beside the sources, and Python checks each file against its source as
    always.  Returns the folder, or None where nothing needs doing (bytecode allowed, a folder already chosen, or a
    worker, which inherits the main process's)."""
    if environ.get("PYTEST_XDIST_WORKER") or environ.get("PYTHONPYCACHEPREFIX") or not dont_write:
        return None
    folder = str(cache.mkdir("bytecode")) if cache is not None else tempfile.mkdtemp(prefix="cmdraft-bytecode-")
    environ["PYTHONPYCACHEPREFIX"] = folder
    environ.pop("PYTHONDONTWRITEBYTECODE", None)
    return folder


def seed_bytecode(folder: str, libraries: list[str]) -> int:
    """Where the bytecode folder is new (a fresh clone: CI), every process would compile the standard library and
    the installed packages into it from source again, though their bytecode lies beside them already (installers
    write it).  A link in the folder to each ``__pycache__`` file under ``libraries`` lets them read that instead;
    Python checks each against its source as always, and a stale one is replaced in the folder, not followed.
    Returns how many links it made (none the second time: a marker says it is done)."""
    marker = Path(folder) / "seeded"
    if marker.exists():
        return 0
    tag = f".{sys.implementation.cache_tag}.pyc"
    roots = sorted({os.path.abspath(path) for path in libraries if os.path.isdir(path)})
    made = 0
    for root in roots:
        for where, folders, files in os.walk(root):
            # Each root once; another interpreter's packages (the base one's site-packages under a venv's standard
            # library) and the libraries' own tests are never imported here.
            folders[:] = [
                name
                for name in folders
                if name not in ("site-packages", "dist-packages", "test", "tests")
                and os.path.join(where, name) not in roots
            ]
            if os.path.basename(where) != "__pycache__":
                continue
            into = os.path.join(folder, os.path.dirname(where).lstrip(os.sep))
            os.makedirs(into, exist_ok=True)
            for name in files:
                if name.endswith(tag) and name.count(".") == 2:  # not the optimized ones (name.opt-1.cpython-311.pyc)
                    try:
                        os.symlink(os.path.join(where, name), os.path.join(into, name))
                        made += 1
                    except FileExistsError:
                        pass
    marker.write_text(f"{made} links\n", encoding="utf-8")
    return made


def pytest_configure(config):
    """Set in the main process, before the workers start, so they and the processes they start inherit it."""
    quick_idle()
    cache = getattr(config, "cache", None)
    folder = shared_bytecode(os.environ, sys.flags.dont_write_bytecode, cache)
    if folder is not None:
        paths = sysconfig.get_paths()
        seed_bytecode(folder, [paths["stdlib"], paths["platstdlib"], paths["purelib"], paths["platlib"]])
        if cache is None:
            config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


def quick_idle() -> None:
    """Textual's pilot waits for the app to go idle after every key and pause by sleeping 20 ms at a time until a
    sleep passes with under a millisecond of the processor's time (``textual._wait``): a test of a hundred keys slept
    most of its time (21 of 22 s in the builder's cursor test, half of tests/screens).  A 2 ms sleep asks the same
    question more often.  What a key sets off through the event loop is waited for as before (the pilot also drains
    every widget's messages); a test that waits for a timer, a refresh or a resize waits for what it needs
    (``settle`` in tests/helpers/practice.py)."""
    import textual._wait

    assert hasattr(textual._wait, "SLEEP_GRANULARITY"), "textual's pilot no longer waits this way: see quick_idle"
    textual._wait.SLEEP_GRANULARITY = 0.002


def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (pyproject's addopts): two workers per core.  Many tests wait on a process, a terminal or a
    browser rather than on the CPU, and a second worker per core works meanwhile (measured on 2 cores: 4 workers
    beat 2, 3 and 6).  ``PYTEST_XDIST_AUTO_NUM_WORKERS=N`` (pytest-xdist's own) or ``-n N`` sets another number."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist reads it
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return 2 * cores


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session):
    """Each worker collects the whole suite: hundreds of thousands of objects made, hardly any garbage, which the
    garbage collector scanned all over again each time a few thousand more were made (a tenth of a worker's
    collecting; most of it where the rewritten test modules' bytecode is not kept, as with ``-n 0`` under
    ``PYTHONDONTWRITEBYTECODE``).  It waits until collecting ends."""
    gc.disable()


def pytest_collection_finish(session):
    """What collecting made (every test module, the libraries they import, the test items) lives to the end of the
    run: once what collecting left as garbage is gone, it is set aside from the garbage collector (``gc.freeze``), so
    each of its full passes walks only what the tests make, not the whole collected suite again."""
    gc.collect()
    gc.freeze()
    gc.enable()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """A worker's chromium lives as long as the worker (tests/e2e/conftest.py), and between its calls the sync
    Playwright API leaves its event loop marked as the thread's running one.  Around a test that uses no browser the
    mark is set aside, so Textual's pilot and ``asyncio.run`` find no loop running, and put back after it."""
    if "chromium" in getattr(item, "fixturenames", ()):
        return (yield)
    playwrights = asyncio._get_running_loop()
    asyncio._set_running_loop(None)
    try:
        return (yield)
    finally:
        asyncio._set_running_loop(playwrights)


@pytest.fixture(autouse=True)
def databases_of_the_test():
    """Each test is a run of its own as to the databases it opened: the process's list of them
    (``events.storage.store.OPEN_DATABASES``: no output may replace one) forgets them as the test ends.  A worker
    runs hundreds of tests, and every output checked stats every database in the list."""
    from events.storage.store import OPEN_DATABASES

    before = set(OPEN_DATABASES)
    yield
    OPEN_DATABASES.intersection_update(before)


END_TO_END = TESTS / "e2e"


def is_end_to_end(path: Path) -> bool:
    """A test in tests/e2e: a real terminal, process or browser."""
    return path.is_relative_to(END_TO_END)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items) -> None:
    """Every end-to-end test is ``slow`` (before ``-m`` selects): ``pytest -m "not slow"`` is the fast loop."""
    for item in items:
        if is_end_to_end(Path(item.path)):
            item.add_marker(pytest.mark.slow)


def seeded_secrets(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """An event made in-process draws its packs' secret (events/night/packs_secret.py) from a generator seeded by
    ``name``, not from the operating system."""
    import zlib

    from events.night import packs_secret, registration

    rng = random.Random(zlib.crc32(name.encode()))
    draw = lambda: rng.getrandbits(128)  # noqa: E731
    monkeypatch.setattr(registration, "new_secret", draw)  # an event made
    monkeypatch.setattr(packs_secret, "new_secret", draw)  # one given later (``packs_secret.packs_secret``)


@pytest.fixture(autouse=True, scope="module")
def seeded_module_pack_secrets(request):
    """The same for a module's shared fixtures (a night drafted once for the module's tests): autouse fixtures
    come first in their scope, so a module-scoped fixture's event is dealt from the module's name, the same packs
    in every run whichever of its tests asks first (else two Pipers could lead one deck in one run, not another)."""
    with pytest.MonkeyPatch.context() as patch:
        seeded_secrets(patch, request.node.nodeid)
        yield


@pytest.fixture(autouse=True, scope="module")
def parsed_files_let_go():
    """The static checks' parsed files (tests/helpers/syntax.py) are kept for their module only."""
    yield
    syntax.forget()


@pytest.fixture(autouse=True)
def seeded_pack_secrets(request, monkeypatch):
    """An event's packs come from a secret the operating system draws (events/night/packs_secret.py); in a
    test made in-process it comes from a generator seeded by the test's name, so every run of a test deals
    the same packs (a process a test starts still draws its own)."""
    seeded_secrets(monkeypatch, request.node.nodeid)


@pytest.fixture
def golden(file_regression):
    """Compare text with tests/golden/NAME (pytest-regressions shows the diff; ``--force-regen`` rewrites it)."""
    folder = GOLDEN

    def check(name: str, text: str) -> None:
        file_regression.check(text, fullpath=folder / name, newline="", encoding="utf-8")

    return check


@pytest.fixture
def manual_clock():
    """The application's clock, moved only by the test (``advance``; a sleep moves it at once)."""
    from events import timing

    clock = timing.ManualClock()
    previous = timing.use(clock)
    yield clock
    timing.use(previous)


@pytest.fixture
def shared_clock(tmp_path):
    """The application's clock here and in the processes started on it (``spawn(..., clock=shared_clock)``): the
    machine's time until the test moves it forward (``advance``), for all of them at once."""
    from events import timing
    from tests.helpers.shared_clock import SharedClock

    clock = SharedClock(tmp_path)
    previous = timing.use(clock)
    yield clock
    timing.use(previous)


@pytest.fixture(scope="session")
def cmr():
    from sets.catalog import load_set

    return load_set("CMR")


@pytest.fixture(scope="session")
def index():
    from sets.card_index import card_index

    return card_index(["CMR"])


@pytest.fixture
def cli():
    """Run the CLI in-process; returns click's Result (exit_code, stdout, stderr)."""
    from tests.helpers.cliapp import invoke

    def run(*args: str, input: str | None = None):
        return invoke(args, input=input)

    return run


# Property tests replay the same examples on every run (and write no example database), with no deadline and no
# slowness check: a time limit per example is a timing bound in a unit test, which fails on a busy machine.
from hypothesis import HealthCheck as _HealthCheck  # noqa: E402
from hypothesis import settings as _settings  # noqa: E402

_settings.register_profile(
    "cmdraft", derandomize=True, database=None, deadline=None, suppress_health_check=[_HealthCheck.too_slow]
)
_settings.load_profile("cmdraft")
