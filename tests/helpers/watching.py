"""A served pod with work for the server's watcher: a pack left at a bot seat (a fault planted), a pick made at a
terminal (another process's write of the pod's draft file)."""

from __future__ import annotations

from events.storage.store import Store
from events.web.app import create_app
from tests.helpers.night import Night


def planted_stuck_pod(db, event_id: int, manual_clock):
    """The served pod with a fault planted: the player's pick saved without the bots' picks it allowed, so the
    table waits on bot seats (a hand-off lost)."""
    served = create_app(db, event_id, clock=manual_clock.monotonic, wall=manual_clock.now).state.server.served
    number = served.live_pods()[0]
    session = served.table(number)
    human = session.humans[0]
    with session._journal().write() as entry:
        before = len(session.draft.log)
        session.draft.pick(human, list(range(session.draft.picks_due(human))))
        session._save(entry, before)
    assert any(seat in session.bots for seat in session.draft.waiting())
    return served, number


def terminal_pick(db, event_id: int, name: str) -> None:
    """``name`` picks the suggested cards at a terminal (another process's write of the pod's draft file)."""
    night = Night(Store(db))
    pod = night.snapshot(event_id).pods[0]
    session = night.draft_session(event_id, pod.number)
    seat = [night.snapshot(event_id).names()[p] for p in pod.players].index(name)
    assert seat in session.waiting_humans()
    session.pick(session.suggested_pick(seat))
