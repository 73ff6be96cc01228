"""The night part of the ``serve`` benchmark: 64 phones on their streams receive a new pairing and clock changes.

A terminal event of 64 players is drafted to the end in-process (each seat takes the suggested pick) and every
deck registered; ``cmdraft serve`` runs in a process of its own on loopback; 64 simulated phones join with their
seat codes and keep the stream open.  The desk (a script with the desk's token) then pairs round one, starts the
clock and pauses it.  Figure: from the desk's request being sent to each phone's stream carrying the change (its
``table`` with the new round, a clock, a paused clock), median and p99 over every phone and change.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import websockets

from events.storage.store import Store
from tests.helpers.cliapp import invoke
from tests.helpers.nights import draft_to_the_end
from tests.serve_bench import cpu_seconds, peak_rss_mb, percentile, start_serve

PHONES = 64


def drafted_event(db: Path, players: int) -> tuple[int, dict[str, str]]:
    """A terminal event with seat codes, drafted to the end and every deck registered."""

    def run(*args: object) -> str:
        result = invoke([*args, "--db", db])
        if result.exit_code != 0:
            raise SystemExit(f"benchmark setup failed: {args}: {result.output}")
        return result.stdout

    # the store's stock as 'event new' leaves it (none): every seat's suggestions plan with the Pipers the stock sures
    # it (none here, docs/bots.md), so each pool ends with a legend of its own and --auto registers a legal deck
    event_id = json.loads(run("event", "new", "Night", "--style", "terminal", "--seed", 9, "--json"))["id"]
    names = [f"Phone {n:02d}" for n in range(1, players + 1)]
    run("event", "player", "add", event_id, *names)
    run("event", "seat", event_id)
    run("event", "draft", event_id, "--json")
    events = draft_to_the_end(db, event_id)
    for name in names:
        events.register_deck(event_id, name, auto=True)
    with Store(db).read() as handle:
        codes = {p["name"]: p["code"] for p in handle.table("players").all() if p["event"] == event_id}
    return event_id, codes


class Waits:
    """Each phone's wait for the change the desk just made: (test on the table state, when it was sent)."""

    def __init__(self) -> None:
        self.test: Callable[[dict], bool] | None = None
        self.sent = 0.0
        self.seen: set[str] = set()
        self.latencies: list[float] = []
        self.all_seen = asyncio.Event()
        self.phones = 0

    def expect(self, test: Callable[[dict], bool]) -> None:
        self.test, self.seen = test, set()
        self.all_seen = asyncio.Event()
        self.sent = time.perf_counter()

    def arrived(self, name: str, table: dict | None) -> None:
        if self.test is None or name in self.seen or table is None or not self.test(table):
            return
        self.latencies.append(time.perf_counter() - self.sent)
        self.seen.add(name)
        if len(self.seen) == self.phones:
            self.all_seen.set()


async def phone(url: str, event_id: int, name: str, code: str, waits: Waits, ready: list, stop: asyncio.Event):
    async with httpx.AsyncClient(base_url=url, timeout=120) as web:  # 256 phones joining at once wait their turn
        while True:  # one address for every phone here: the server's per-address limit spaces the joins out
            joined = await web.post("/api/join", json={"event": event_id, "player": name, "code": code})
            if joined.status_code != 429:
                break
            await asyncio.sleep(1)
        joined.raise_for_status()
        token = joined.json()["token"]
    ws_url = url.replace("http://", "ws://") + f"/api/stream?token={token}"
    async with websockets.connect(ws_url, max_size=2**22, open_timeout=60) as stream:
        await stream.recv()  # the seat's state on connecting
        ready.append(name)
        while not stop.is_set():
            try:
                message = json.loads(await asyncio.wait_for(stream.recv(), 0.5))
            except TimeoutError:
                continue
            if message.get("type") == "seat":
                waits.arrived(name, message["seat"].get("table"))


async def drive(url: str, desk_token: str, event_id: int, codes: dict[str, str]) -> Waits:
    waits = Waits()
    waits.phones = len(codes)
    ready: list[str] = []
    stop = asyncio.Event()
    tasks = [
        asyncio.create_task(phone(url, event_id, name, code, waits, ready, stop))
        for name, code in sorted(codes.items())
    ]
    until = time.monotonic() + 120
    while len(ready) < len(codes):
        failed = [t for t in tasks if t.done() and not t.cancelled() and t.exception() is not None]
        if time.monotonic() > until or failed:
            for task in tasks:
                task.cancel()
            reason = f": {failed[0].exception()!r}" if failed else f" in 120 s ({len(ready)} of {len(codes)})"
            raise SystemExit(f"the phones did not all connect{reason}")
        await asyncio.sleep(0.05)
    desk = {"authorization": f"Bearer {desk_token}"}
    changes = [
        ("/api/desk/round", {}, lambda t: (t.get("round") or {}).get("number") == 1),
        ("/api/desk/clock", {"minutes": 50}, lambda t: bool((t.get("round") or {}).get("clock"))),
        ("/api/desk/clock", {"pause": True}, lambda t: bool(((t.get("round") or {}).get("clock") or {}).get("paused"))),
    ]
    async with httpx.AsyncClient(base_url=url, timeout=30) as web:
        for path, body, test in changes:
            waits.expect(test)
            answer = await web.post(path, json=body, headers=desk)
            if answer.is_error:
                raise SystemExit(f"the desk's {path} answered {answer.status_code}: {answer.text[:300]}")
            await asyncio.wait_for(waits.all_seen.wait(), 60)
    stop.set()
    await asyncio.gather(*tasks)
    return waits


def night(phones: int = PHONES) -> dict[str, float | int]:
    with tempfile.TemporaryDirectory(prefix="cmdraft-serve-night-bench-") as folder:
        os.environ["CMDRAFT_HOME"] = str(Path(folder) / "home")
        db = Path(folder) / "night.json"
        event_id, codes = drafted_event(db, phones)
        process = start_serve(db, event_id, phones)
        try:
            lines = [process.stdout.readline()]
            while lines[-1] and "/desk?token=" not in lines[-1] and len(lines) < 200:
                lines.append(process.stdout.readline())
            found = re.search(r"at (http://127\.0\.0\.1:\d+)", lines[0])
            desk = re.search(r"/desk\?token=(\S+)", lines[-1])
            if not found or not desk:
                raise SystemExit(f"cmdraft serve did not start: {''.join(lines)}{process.stderr.read()}")
            cpu_before = cpu_seconds(process.pid)
            waits = asyncio.run(drive(found.group(1), desk.group(1), event_id, codes))
            rss = peak_rss_mb(process.pid)
            server_cpu = cpu_seconds(process.pid) - cpu_before
        finally:
            process.terminate()
            process.wait(timeout=30)
        return {
            "phones": phones,
            "changes": 3,
            "received": len(waits.latencies),
            "push_p50_ms": round(statistics.median(waits.latencies) * 1000, 1),
            "push_p99_ms": round(percentile(waits.latencies, 0.99) * 1000, 1),
            "server_peak_mb": round(rss, 1),
            "server_cpu_s": round(server_cpu, 2),
            "load_average": round(os.getloadavg()[0], 1),
        }


if __name__ == "__main__":
    print(json.dumps(night(int(sys.argv[1]) if len(sys.argv) > 1 else PHONES)))
