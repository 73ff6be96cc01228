"""Run by the crash and concurrency tests in a subprocess: picks or registrations through the store.

    python -m tests.event_worker picks DB EVENT PLAYER...   pick for these players until their drafts end, printing ACK n
    python -m tests.event_worker players DB EVENT PREFIX N  register N players, printing ACK n
"""

from __future__ import annotations

import sys
import time

from events.event import Events
from events.store import Store


def picks(db: str, event_id: int, names: list[str]) -> None:
    events = Events(Store(db))
    snap = events.snapshot(event_id)
    ids = {events._player_id(event_id, name) for name in names}
    pods = [pod for pod in snap["pods"] if ids & set(pod["players"])]
    sessions = {pod["number"]: (pod, events.draft_session(event_id, pod["number"])) for pod in pods}
    count = 0
    while not all(session.draft.finished for _, session in sessions.values()):
        progressed = False
        for number, (pod, session) in sessions.items():
            session.refresh()
            for seat in session.waiting_humans():
                if pod["players"][seat] not in ids:
                    continue
                record = session.pick(seat, session.suggested_pick(seat))
                count += 1
                progressed = True
                print(f"ACK {count} {pod['players'][seat]} {record.pack} {record.pick}", flush=True)
                events.after_picks(event_id, number, session)
        if not progressed:
            time.sleep(0.01)  # the other terminal's turn: don't hold the lock in a tight loop
    print("DONE", flush=True)


def players(db: str, event_id: int, prefix: str, count: int) -> None:
    events = Events(Store(db))
    for i in range(count):
        events.add_player(event_id, f"{prefix}{i}")
        print(f"ACK {i + 1}", flush=True)
    print("DONE", flush=True)


if __name__ == "__main__":
    kind, db, event = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if kind == "picks":
        picks(db, event, sys.argv[4:])
    else:
        players(db, event, sys.argv[4], int(sys.argv[5]))
