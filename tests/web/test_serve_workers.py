"""The server's worker pool is sized to the work (issue 41): a thread for each live pod, whose writes wait on the
disk without holding the interpreter, and one for the answers that only read."""

from __future__ import annotations

import asyncio
import threading

from events.web.api_common import workers_for
from events.web.app import create_app
from events.web.settings import WebSettings
from tests.helpers.nights import start, terminal_night


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
