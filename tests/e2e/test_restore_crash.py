"""A restore killed after it stopped a live draft and before it replaced the database (real processes, SIGKILL at
a chosen commit): the next command lets the draft go on with every pick, never stranded half restored.  Before:
the draft stayed stopped (``replaced``) under a database that was never restored, its terminals told to open "the
restored draft" that didn't exist, the pod stuck for good."""

from __future__ import annotations

import signal

import pytest

from events.storage.store import Store
from tests.helpers.night import Night
from tests.helpers.nights import terminal_event
from tests.helpers.terminals import worker


def picks_made(db, event_id) -> tuple[str, int]:
    session = Night(Store(db)).draft_session(event_id, 1)
    return session.doc["status"], len(session.draft.log)


# commit 1: the live draft stopped (its journal rewritten); commit 2: the database renamed into place
@pytest.mark.parametrize("kill", ["write:1:after", "write:2:before"])
@pytest.mark.parametrize("whole", [True, False], ids=["all", "one-event"])
def test_a_restore_killed_after_stopping_a_live_draft_leaves_the_draft_going_with_every_pick(
    tmp_path, cli, kill, whole
):
    db = tmp_path / "night.json"
    event_id = terminal_event(db, humans=("Ann", "Bo"), bots=())
    backup = db.with_name(db.name + ".bak.1")  # taken before the draft started
    night = Night(Store(db))
    session = night.draft_session(event_id, 1)
    for _ in range(3):
        for seat in session.waiting_humans():
            session.pick(session.suggested_pick(seat))
    before = picks_made(db, event_id)
    assert before == ("drafting", 6)
    process = worker("restore", str(db), str(backup), *([] if whole else [str(event_id)]), kill=kill)
    _, errors = process.communicate(timeout=120)
    assert process.returncode == -signal.SIGKILL, errors
    assert cli("event", "show", event_id, "--db", db).exit_code == 0  # the next command finishes what was left
    assert picks_made(db, event_id) == before
    rest = worker("picks", str(db), str(event_id), "Ann", "Bo")
    output, errors = rest.communicate(timeout=120)
    assert "DONE" in output, errors
    assert Night(Store(db)).snapshot(event_id).event.status == "building"
