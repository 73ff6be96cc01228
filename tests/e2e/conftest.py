"""The end-to-end tests: real terminals, processes and browsers.  Every test in this folder is marked ``slow``
(tests/conftest.py), so ``pytest -m "not slow"`` leaves them out; the browser tests share these fixtures."""

from __future__ import annotations

import os
import shutil

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.helpers.browsers import ARGS, CHROMIUM, SCRIPT_NAME, SIX_PLAYERS, Served
from tests.helpers.nights import draft_to_the_end, start, terminal_night
from tests.helpers.served import drafted_night


@pytest.fixture
def pod(tmp_path, cli):
    """A terminal-style event with seat codes: three people and five bots seated, the draft started, a 5-minute
    pick timer; the store's stock holds Pipers to add (a builder leads with two)."""
    db = tmp_path / "serve.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", SCRIPT_NAME, bots=5, timer=300)
    assert cli("event", "pipers", event_id, "--stock", "6", "--db", db).exit_code == 0
    start(cli, db, event_id)
    return db, event_id


@pytest.fixture
def server(pod):
    served = Served(*pod)
    yield served
    served.stop()


@pytest.fixture
def two_drafting(tmp_path, cli):
    """Ann and Bo beside each other among six bots, the draft started, a 5-minute pick timer, served:
    (database, event, server)."""
    db = tmp_path / "drafting.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=6, timer=300)
    start(cli, db, event_id)
    served = Served(db, event_id)
    yield db, event_id, served
    served.stop()


@pytest.fixture
def building(tmp_path, cli):
    """Ann and Bo among six bots, the draft picked to the end (the builder opens), served: (database, event,
    server)."""
    db = tmp_path / "building.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=6)
    assert cli("event", "pipers", event_id, "--stock", "6", "--db", db).exit_code == 0
    start(cli, db, event_id)
    draft_to_the_end(db, event_id)
    served = Served(db, event_id)
    yield db, event_id, served
    served.stop()


@pytest.fixture
def night_server(tmp_path, cli):
    """The night after a draft of ``SIX_PLAYERS`` (``drafted_night``), served: (database, event, server)."""
    db = tmp_path / "night.json"
    event_id = drafted_night(cli, db, SIX_PLAYERS)
    served = Served(db, event_id)
    yield db, event_id, served
    served.stop()


@pytest.fixture(scope="session")
def chromium():
    """One chromium for a worker's browser tests (launching one costs about a second of the processor's time, and
    a worker runs several browser modules).  Between its calls the sync Playwright API leaves its own event loop
    marked as the thread's running one, which the in-process async tests (Textual's pilot) and ``asyncio.run`` must
    not find: tests/conftest.py sets the mark aside around every test that uses no browser.  Closed when the
    session finishes (``pytest_sessionfinish`` below), after the last test has put the mark back."""
    # The suite runs two workers per core: on a loaded machine an answer may take longer than expect's 5 s (never
    # forever), so each expectation waits up to 20 s.
    expect.set_options(timeout=20_000)
    if not LAUNCHED:
        playwright = sync_playwright().start()
        LAUNCHED.append((playwright, playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)))
    return LAUNCHED[0][1]


LAUNCHED: list = []  # (playwright, its chromium): the worker's, once a test asks for it


def pytest_sessionfinish():
    for playwright, launched in LAUNCHED:
        launched.close()
        playwright.stop()
    LAUNCHED.clear()


@pytest.fixture
def browser(chromium):
    """The worker's chromium; the pages a test opened are closed when it ends, so none goes on polling, ticking or
    reconnecting to a server that has stopped while later tests run."""
    yield chromium
    for context in chromium.contexts:
        context.close()


@pytest.fixture
def shots(tmp_path):
    """Where the screenshots go; copied to $CMDRAFT_SCREENSHOTS (when set) at the end, to look at."""
    folder = tmp_path / "screenshots"
    folder.mkdir()
    yield folder
    target = os.environ.get("CMDRAFT_SCREENSHOTS")
    if target:
        shutil.copytree(folder, target, dirs_exist_ok=True)
