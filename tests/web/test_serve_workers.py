"""The server's worker pool is sized to the work (issue 41): a thread for each live pod, whose writes wait on the
disk without holding the interpreter, and one for the answers that only read."""

from __future__ import annotations

import asyncio
import threading

from events.deferred import Deferred
from events.web import cards_shown
from events.web.api_common import workers_for
from events.web.app import create_app
from events.web.settings import WebSettings
from tests.helpers.nights import codes_of, start, terminal_night
from tests.helpers.served import client, phone, served_night


def test_the_pool_has_a_thread_for_each_live_pod_and_one_more(tmp_path, cli, manual_clock):
    db = tmp_path / "pool.json"
    event_id = terminal_night(cli, db, *(f"Player {n}" for n in range(1, 19)), bots=6)
    start(cli, db, event_id)
    served = create_app(db, event_id, clock=manual_clock.monotonic, wall=manual_clock.now).state.server.served
    served.warm()
    assert len(served.live_pods()) == 3 and served.workers == 4
    names = asyncio.run(asyncio.wait_for(_names_of_threads(served, 8), 30))
    assert len(names) == 4 and all(name.startswith("cmdraft-core") for name in names)  # four side by side
    served.close()


async def _names_of_threads(served, jobs: int) -> set[str]:
    """The threads that ran ``jobs`` jobs held at a barrier as long as the pool lets them run side by side."""
    gate = threading.Barrier(min(jobs, served.workers or 1), timeout=5)

    def job() -> str:
        gate.wait()
        return threading.current_thread().name

    return set(await asyncio.gather(*(served.run(job) for _ in range(min(jobs, served.workers or 1)))))


def test_the_pool_keeps_its_bounds():
    settings = WebSettings(workers=2, max_workers=32)
    assert [workers_for(n, settings) for n in (0, 1, 2, 7, 31, 200)] == [2, 2, 3, 8, 32, 32]
    assert workers_for(7, WebSettings(workers=3, max_workers=4)) == 4


def test_a_starting_server_makes_its_first_write_of_each_draft_file_and_knows_every_packs_cards(
    tmp_path, cli, manual_clock
):
    """``Served.warm``: a draft file another process wrote is rewritten once now (so the first pick on the event
    loop appends instead of going to a worker), and every booster of every round has its cards worked out before
    its pack opens."""
    db = tmp_path / "warm.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:  # another server before: the file is made
        assert phone(web, event_id, "Ann", codes["Ann"]).pick_first()
    (path,) = (tmp_path / "warm.json.drafts").glob("*.json")
    before = path.stat().st_ino
    served = create_app(db, event_id, clock=manual_clock.monotonic, wall=manual_clock.now).state.server.served
    cards_shown.forget_cards()
    served.warm()
    assert path.stat().st_ino != before  # rewritten whole, once
    session = served.tables[1]
    printings = [p for round_ in session.draft.boosters for booster in round_ for p in booster.printings]
    assert len(printings) == 3 * 4 * 20 and all(cards_shown._PRINTED[id(p)][0] is p for p in printings)
    after = path.stat().st_ino
    synced = Deferred()
    seat = session.waiting_humans()[0]
    session.pick_many([(session.suggested_pick(seat), None)], synced)  # on the loop: appended, no WouldWait
    synced.sync()
    assert path.stat().st_ino == after
    served.close()


def test_a_pick_from_a_player_seated_elsewhere_now_is_written_in_a_worker_which_works_out_their_state(
    tmp_path, cli, manual_clock
):
    """The event loop never waits for a pod's lock: a batch whose picker the snapshot seats in another pod (the desk
    moved them since the pick was placed) is not written on the loop (``WouldWait``, nothing changed) but in a
    worker, which gives the picker the state of the seat they hold now."""
    import pytest

    from events.web.api_draft import Waiting, seat_state, write_picks
    from sets.errors import WouldWait

    db = tmp_path / "moved.json"
    event_id = terminal_night(cli, db, *[f"P{n}" for n in range(1, 11)])  # two pods
    start(cli, db, event_id)
    served = create_app(db, event_id, clock=manual_clock.monotonic, wall=manual_clock.now).state.server.served
    served.warm()
    first, second = served.snapshot().pods[:2]
    stranger = second.players[0]  # seated in the second pod, but placed as if in the first
    pack, pick = served.table(first.number).draft.at(0)
    waiting = Waiting(stranger, first.number, 0, "token", (pack, pick + 1), [0, 1])  # (a pick not reached: refused)
    picks = len(served.table(first.number).draft.log)
    with pytest.raises(WouldWait):
        write_picks(served, first.number, [waiting], deferred=Deferred())
    assert len(served.table(first.number).draft.log) == picks  # nothing written on the loop
    write_picks(served, first.number, [waiting])  # the way a worker writes it: refused, and the state worked out
    assert waiting.refusal is not None and len(served.table(first.number).draft.log) == picks
    assert waiting.state is not None and waiting.state.draft is not None
    assert waiting.state.draft.pod == second.number  # the seat the picker holds now
    assert waiting.state.player == seat_state(served, stranger).player
