"""One pod whose draft file can't be read (damaged, a disk gone) stops no other pod: the server's watcher still makes
the other pods' timed-out picks, and their seats are still pushed (the watcher once stopped its look at the first
pod that failed, so every pod after it waited on its timer and bots until the file was mended)."""

from __future__ import annotations

import logging

from events.web.app import create_app
from events.web.live import Hub, Watcher
from tests.helpers.nights import start, terminal_night


def two_timed_pods(tmp_path, cli, manual_clock):
    db = tmp_path / "damaged.json"
    event_id = terminal_night(cli, db, *(f"P{n}" for n in range(1, 11)), timer=60)  # two pods of five
    start(cli, db, event_id)
    served = create_app(db, event_id, clock=manual_clock.monotonic, wall=manual_clock.now).state.server.served
    served.warm()  # each live pod's file written (a server starting)
    first, second = sorted(served.live_pods())
    return served, first, second


def damage(served, number: int) -> None:
    """A line that is not JSON in the middle of the pod's draft file (what a disk's fault leaves)."""
    path = served.table(number)._journal().path
    with open(path, "ab") as stream:
        stream.write(b"\x00\x00 not a pick\n{}\n")


def test_a_pod_whose_file_is_damaged_stops_no_other_pods_timer_and_is_said_once(tmp_path, cli, manual_clock, caplog):
    served, first, second = two_timed_pods(tmp_path, cli, manual_clock)
    watcher = Watcher(served, hub=None)  # type: ignore[arg-type]  # no phone is connected: nothing is pushed
    watcher._tick({first, second})  # both read
    picks = len(served.table(second).draft.log)
    damage(served, first)  # the first pod looked at in order
    manual_clock.advance(served.table(second).deadline() - manual_clock.now() + 1)
    with caplog.at_level(logging.WARNING, logger="cmdraft.serve"):
        watcher._tick({first, second})
        watcher._tick({first, second})
    assert len(served.table(second).draft.log) > picks  # the timer picked at the other pod
    said = [r.getMessage() for r in caplog.records if f"pod {first} can't be looked at" in r.getMessage()]
    assert len(said) == 1 and "damaged" in said[0]  # why, in the log, once for the same problem
    assert first in watcher._due()  # and the damaged pod is looked at again at every look, till it is mended


def test_seats_of_other_pods_are_pushed_while_one_pods_file_is_damaged(tmp_path, cli, manual_clock):
    served, first, second = two_timed_pods(tmp_path, cli, manual_clock)
    pods = {pod.number: pod.players for pod in served.snapshot().pods}
    damage(served, first)
    hub = Hub(served)
    wanted = [pods[first][0], pods[second][0]]
    assert set(hub._states(wanted)) == {pods[second][0]}  # the damaged pod's seat left out, the other's state there


def test_a_fault_of_the_codes_own_at_one_pod_is_logged_with_its_traceback_and_the_other_pods_go_on(
    tmp_path, cli, manual_clock, caplog, monkeypatch
):
    served, first, second = two_timed_pods(tmp_path, cli, manual_clock)
    watcher = Watcher(served, hub=None)  # type: ignore[arg-type]  # no phone is connected: nothing is pushed
    watcher._tick({first, second})
    real = Watcher._to_settle

    def broken(self, session, number: int) -> bool:
        if number == first:
            raise KeyError("a planted fault")
        return real(self, session, number)

    monkeypatch.setattr(Watcher, "_to_settle", broken)
    picks = len(served.table(second).draft.log)
    manual_clock.advance(served.table(second).deadline() - manual_clock.now() + 1)
    with caplog.at_level(logging.WARNING, logger="cmdraft.serve"):
        watcher._tick({first, second})
    assert len(served.table(second).draft.log) > picks
    (said,) = [r for r in caplog.records if f"pod {first} can't be looked at" in r.getMessage()]
    assert said.exc_info is not None and "a planted fault" in caplog.text
