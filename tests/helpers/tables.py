"""A small drafted night for the tests of who may do what and when (issue 38): four players at a terminal event with
seat codes, drafted to registered decks (made once a module, copied for each test), the served app over it on the
tests' clock, a phone joined to it, and a seat's draft session."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from events.storage.draft_files import TableSession
from events.storage.store import Store
from events.web.app import create_app
from events.web.settings import WebSettings
from tests.helpers.cliapp import invoke
from tests.helpers.night import Night
from tests.helpers.nights import codes_of, seat_of
from tests.helpers.served import ORIGIN, drafted_night

FOUR = ["Ann", "Bo", "Cy", "Di"]


@pytest.fixture(scope="module")
def drafted_four(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    db = tmp_path_factory.mktemp("four") / "drafted.json"
    return db, drafted_night(lambda *args, input=None: invoke(args, input=input), db, FOUR)


@pytest.fixture
def four(drafted_four: tuple[Path, int], tmp_path: Path) -> tuple[Path, int, dict[str, str]]:
    """The drafted night of four, copied for this test: (database, event id, seat codes by name)."""
    source, event_id = drafted_four
    db = tmp_path / "night.json"
    db.write_bytes(source.read_bytes())
    return db, event_id, codes_of(db, event_id)


def app_of(db: Path, event_id: int, clock: Any) -> Any:
    settings = WebSettings(watch=False)
    return create_app(db, event_id, settings, clock=clock.monotonic, wall=clock.now, desk_token="desk-secret")


def table_phone(app: Any, event_id: int, name: str, code: str) -> TestClient:
    """A phone joined to its seat with its code (the cookie holds the seat)."""
    web = TestClient(app, headers=ORIGIN)
    answer = web.post("/api/join", json={"event": event_id, "player": name, "code": code})
    assert answer.status_code == 200, answer.text
    return web


def ok(answer: Any) -> Any:
    assert answer.status_code == 200, answer.text
    return answer.json()


def session_of(db: Path, event_id: int, name: str) -> tuple[TableSession, int]:
    """The player's pod's draft, and their seat in it."""
    pod, seat = seat_of(db, event_id, name)
    return Night(Store(db)).draft_session(event_id, pod), seat


def terminal_report(cli: Any, db: Path, event_id: int, codes: dict[str, str], name: str, order: str) -> Any:
    """``name`` reports their table's finishing order at a terminal (their seat code typed), after the round is
    paired: the command's result."""
    assert cli("event", "round", event_id, "--db", db).exit_code == 0
    reported = cli(
        "event", "table", event_id, "--player", name, "--report", order, "--db", db, input=codes[name] + "\n"
    )
    assert reported.exit_code == 0, reported.output
    return reported
