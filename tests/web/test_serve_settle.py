"""Pods whose drafts end together have their pools recorded together (issue 41): one write of the database, and one
look at it by every stream, however many pods of a big room ended within moments of each other."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import events.storage.store as store_module
from events.web.app import create_app
from events.web.pick_writer import PickWriter
from events.web.settings import WebSettings
from tests.helpers.night import Night
from tests.helpers.nights import start, terminal_night


def test_two_pods_whose_drafts_ended_get_their_pools_in_one_write_of_the_database(
    tmp_path, cli, manual_clock, monkeypatch
):
    db = tmp_path / "two-pods.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=14)
    start(cli, db, event_id)
    served = create_app(db, event_id, clock=manual_clock.monotonic, wall=manual_clock.now).state.server.served
    pods = [pod.number for pod in served.snapshot().pods]
    assert len(pods) == 2
    for number in pods:
        with served.locked(number):
            session = served.table(number)
            while not session.draft.finished:
                for seat in session.waiting_humans():
                    session.pick(session.suggested_pick(seat))
    written: list[Any] = []
    real = store_module.atomic_write

    def counted(path: Any, *args: Any) -> None:
        written.append(path)
        real(path, *args)

    monkeypatch.setattr(store_module, "atomic_write", counted)
    served.settle_pods(pods)
    assert written == [served.night.path]  # one write for both pods
    snap = Night(served.night.store).snapshot(event_id)
    assert snap.event.status == "building"  # every pod's pools recorded: the night moves on
    drafted = {
        player: len(served.tables[pod.number].draft.pools[seat])
        for pod in snap.pods
        for seat, player in enumerate(pod.players)
    }
    assert {player: snap.player(player).pool_size for player in drafted} == drafted  # each seat's drafted pool
    served.settle_pods(pods)  # once: settling again writes nothing
    assert written == [served.night.path]
    served.close()


@dataclass
class FakeServed:
    """What ``PickWriter._settle`` asks of the served event: its settings, the pods it records and the pods left
    to it (``deferred``)."""

    settings: WebSettings = field(default_factory=WebSettings)
    deferred: set[int] = field(default_factory=set)
    recorded: list[set[int]] = field(default_factory=list)

    async def run(self, function: Any, *args: Any) -> Any:
        return function(*args)

    def settle_pods(self, pods: set[int]) -> None:
        self.recorded.append(set(pods))


@dataclass
class FakeHub:
    pushed: list[set[int]] = field(default_factory=list)

    async def push_pods(self, pods: set[int]) -> None:
        self.pushed.append(set(pods))


def test_pods_ending_while_picks_are_still_being_written_are_recorded_together_once_it_is_quiet():
    async def scenario() -> tuple[FakeServed, FakeHub, PickWriter]:
        served, hub = FakeServed(deferred={1, 2, 3}), FakeHub()
        writer = PickWriter(served, hub, None)  # type: ignore[arg-type]  # stand-ins for the served night and hub, no stream: the writer calls only what they define
        writer.busy.add(3)  # pod 3's picks are being written: not quiet
        writer._settle_later(1)
        await asyncio.sleep(0)
        writer._settle_later(2)  # ends while pod 1 waits for a quiet moment
        await asyncio.sleep(0.05)
        assert served.recorded == []  # nothing recorded while picks are written
        writer.busy.discard(3)
        while writer.settling:
            await asyncio.sleep(0.01)
        writer._settle_later(3)  # a pod ending later: a write of its own
        while writer.settling:
            await asyncio.sleep(0.01)
        return served, hub, writer

    served, hub, writer = asyncio.run(asyncio.wait_for(scenario(), 30))
    assert served.recorded == [{1, 2}, {3}] and hub.pushed == [{1, 2}, {3}]
    assert served.deferred == set() and writer.ended == set()  # the watcher may look at them again
