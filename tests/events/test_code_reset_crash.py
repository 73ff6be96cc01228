"""A seat code reset writes two files (the database's new code, the draft file's unbound seat): a crash between
them must never leave a new code in force while the old terminal still holds the seat."""

from __future__ import annotations

import os

import pytest

from events.night.seat_codes import reset_code
from events.storage import journal
from events.storage.store import Store
from tests.helpers.night import Night
from tests.helpers.nights import codes_of, seat_of, start, terminal_night

TOKEN = "the-old-terminal"


class Killed(BaseException):
    """The process dying at a commit (nothing after it runs, as with SIGKILL)."""


def kill_after_commit(monkeypatch: pytest.MonkeyPatch, target: int) -> None:
    """Die right after the ``target``-th commit: a file renamed into place or a journal line appended."""
    real_replace, real_appended = os.replace, journal.appended
    done = [0]

    def counted(result: object) -> object:
        done[0] += 1
        if done[0] == target:
            raise Killed
        return result

    def replace(src, dst, *args, **kwargs):
        if ".bak." in os.fspath(dst):
            return real_replace(src, dst, *args, **kwargs)  # a backup copy is not a commit
        return counted(real_replace(src, dst, *args, **kwargs))

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(journal, "appended", lambda *args, **kwargs: counted(real_appended(*args, **kwargs)))


def old_terminal_holds_the_seat(db, event_id: int) -> bool:
    pod, seat = seat_of(db, event_id, "Ann")
    return Night(Store(db)).draft_session(event_id, pod).bound_exactly(seat, TOKEN)


@pytest.mark.parametrize("commit", [1, 2])
def test_a_code_reset_killed_between_its_two_files_never_leaves_a_new_code_with_the_old_terminal_holding_the_seat(
    tmp_path, cli, monkeypatch, commit
):
    db = tmp_path / "reset.json"
    event_id = terminal_night(cli, db, "Ann", "Bo")
    start(cli, db, event_id)
    pod, seat = seat_of(db, event_id, "Ann")
    Night(Store(db)).draft_session(event_id, pod).claim(seat, TOKEN)
    old = codes_of(db, event_id)["Ann"]
    assert old_terminal_holds_the_seat(db, event_id)

    with monkeypatch.context() as patched:
        kill_after_commit(patched, commit)
        with pytest.raises(Killed):
            reset_code(Night(Store(db)), event_id, "Ann")

    changed = codes_of(db, event_id)["Ann"] != old
    assert not (changed and old_terminal_holds_the_seat(db, event_id))
    name, new = reset_code(Night(Store(db)), event_id, "Ann")  # the desk runs it again: the reset is whole
    assert name == "Ann" and codes_of(db, event_id)["Ann"] == new != old
    assert not old_terminal_holds_the_seat(db, event_id)


def test_an_old_terminal_claiming_the_seat_while_a_reset_runs_doesnt_hold_it_once_the_new_code_is_saved(
    tmp_path, cli, monkeypatch
):
    # Between the seat unbound and the new code saved, the old code is still in force: a terminal or phone that
    # holds it may bind the free seat again (a phone's pick binds a free seat): the reset leaves it unbound all the same.
    from events.night import seat_codes

    db = tmp_path / "race.json"
    event_id = terminal_night(cli, db, "Ann", "Bo")
    start(cli, db, event_id)
    pod, seat = seat_of(db, event_id, "Ann")
    Night(Store(db)).draft_session(event_id, pod).claim(seat, TOKEN)
    real_new_code = seat_codes.new_code

    def claimed_meanwhile() -> str:
        Night(Store(db)).draft_session(event_id, pod).claim(seat, TOKEN)  # the old terminal, in the window
        return real_new_code()

    monkeypatch.setattr(seat_codes, "new_code", claimed_meanwhile)
    reset_code(Night(Store(db)), event_id, "Ann")
    assert not old_terminal_holds_the_seat(db, event_id)
