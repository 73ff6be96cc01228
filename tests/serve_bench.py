"""The ``serve`` benchmark (``python -m tests.benchmarks serve``): 64 simulated phones over real sockets on
loopback, in 8 pods of 8, picking as fast as the server lets them, against ``cmdraft serve`` in a process of
its own (so its memory is its own).

Every phone joins with its seat code and opens its stream (``tests.lean_socket``, the echo's clients' too: as
little of the machine as a client can take, each phone being a device of its own at a real table); then all start at once, each picking the first cards of every pack the moment
it arrives.  Figures: pick → own next state (the pick's answer, which carries it), pick → the next seat's new
pack (from the pick that completed a round in a pod to each seat of that pod getting its next pack on the
stream), median and p99; picks lost or made twice (the drafts' own files against the picks acknowledged);
the server's peak memory (VmHWM; its CPU and memory count its sync helper process too).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import msgspec

from tests.helpers.cliapp import invoke
from tests.lean_socket import LeanSocket

PLAYERS = 64
PICKS = 30  # 3 packs of 20, two cards a pick
encode = msgspec.json.Encoder().encode


class DraftSeen(msgspec.Struct):
    """What a phone reads of a state's draft (the rest of a message is skipped unread, as a light client does)."""

    pod: int
    pack: int
    pick: int
    take: int
    done: bool
    cards: msgspec.Raw  # only whether the pack has cards: not decoded


class SeatSeen(msgspec.Struct):
    draft: DraftSeen | None = None


class Message(msgspec.Struct):
    type: str = ""
    id: int | None = None
    seat: SeatSeen | None = None


decode = msgspec.json.Decoder(Message).decode


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def make_event(db: Path, players: int) -> tuple[int, dict[str, str]]:
    """A terminal event with seat codes, ``players`` humans seated in pods of 8, its draft started."""

    def run(*args: object) -> str:
        result = invoke([*args, "--db", db])
        if result.exit_code != 0:
            raise SystemExit(f"benchmark setup failed: {args}: {result.output}")
        return result.stdout

    made = json.loads(run("event", "new", "Bench", "--style", "terminal", "--timer", 0, "--seed", 7, "--json"))
    event_id = made["id"]
    names = [f"Phone {n:02d}" for n in range(1, players + 1)]
    run("event", "player", "add", event_id, *names)
    run("event", "seat", event_id)
    run("event", "draft", event_id, "--json")
    from events.storage.store import Store

    with Store(db).read() as handle:
        codes = {p["name"]: p["code"] for p in handle.table("players").all() if p["event"] == event_id}
    return event_id, codes


class Figures:
    def __init__(self) -> None:
        self.own: list[float] = []  # pick sent -> its answer (the seat's next state)
        self.own_next: list[float] = []  # pick sent -> the seat's next pack on its stream (answer or push)
        self.passed: list[float] = []  # round's last pick sent in a pod -> a seat's new pack on the stream
        self.acknowledged: dict[str, int] = {}
        self.refused = 0
        self.round_sent: dict[tuple[int, int, int], float] = {}  # (pod, pack, pick) -> latest pick sent
        self.cpu_at_start = 0.0
        self.cpu_at_end = 0.0  # the server's CPU when the last phone was done
        self.phones_cpu = 0.0  # the phones' own (this process's) CPU over the same time
        self.echo_before: list[float] = []  # the echo's round trips just before the draft
        self.echo_after: list[float] = []  # and just after it
        self.rounds: dict[tuple[int, int], list[float]] = {}  # (pack, pick) -> each pick's own latency
        self.received = 0  # bytes of the messages the phones' streams received while picking

    def answered(self, at: tuple[int, int], seconds: float) -> None:
        self.own.append(seconds)
        self.rounds.setdefault(at, []).append(seconds)


async def join(web: httpx.AsyncClient, event_id: int, name: str, code: str) -> str:
    while True:  # one address for every phone here: the server's per-address limit spaces the joins out
        joined = await web.post("/api/join", json={"event": event_id, "player": name, "code": code})
        if joined.status_code != 429:
            break
        await asyncio.sleep(1)
    joined.raise_for_status()
    web.cookies.clear()
    return joined.json()["token"]


class Connection:
    """A phone's own keep-alive HTTP/1.1 connection, as light as a client can be (so the phones' process takes
    as little of the machine as it can from the server's)."""

    def __init__(self, host: str, port: int, token: str) -> None:
        self.host, self.port, self.token = host, port, token
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: dict) -> int:
        """The answer's status.  A connection the server closed while idle (its keep-alive timeout, as a
        browser meets it too) is opened again and the request sent once more, as browsers do: the server never
        read it (and a pick it had taken would come back refused as stale, and count as made twice)."""
        for attempt in (1, 2):
            if self.writer is None or self.reader.at_eof():
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            data = json.dumps(body).encode()
            self.writer.write(
                f"POST {path} HTTP/1.1\r\nhost: {self.host}:{self.port}\r\nauthorization: Bearer {self.token}\r\n"
                f"content-type: application/json\r\ncontent-length: {len(data)}\r\n\r\n".encode()
                + data
            )
            try:
                line = await self.reader.readline()
            except ConnectionError:
                line = b""
            if line or attempt == 2:
                break
            self.writer.close()
            self.writer = None
        status = int(line.split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        await self.reader.readexactly(length)
        return status


class Opening:
    """Clients opening their streams: ``opened`` once all of them have (``one`` as each does)."""

    def __init__(self, clients: int) -> None:
        self.left = clients
        self.opened = asyncio.Event()
        if clients <= 0:
            self.opened.set()

    def one(self) -> None:
        self.left -= 1
        if self.left <= 0:
            self.opened.set()

    async def wait(self, clients: list[asyncio.Task]) -> None:
        """Until every stream is open, or a client ended first (its error is raised where it is gathered)."""
        opened = asyncio.create_task(self.opened.wait())
        await asyncio.wait([opened, *clients], return_when=asyncio.FIRST_COMPLETED)
        opened.cancel()


async def phone(
    url: str,
    web: httpx.AsyncClient,
    token: str,
    name: str,
    figures: Figures,
    go: asyncio.Event,
    post: bool,
    opening: Opening,
) -> None:
    """One phone: picks the first cards of each pack the moment it arrives, over its stream as the page does
    (``post``: with ``POST /api/pick`` on its own connection, as a script does)."""
    host, _, port = url.removeprefix("http://").partition(":")
    own = Connection(host, int(port), token)
    figures.acknowledged[name] = 0
    ws_url = url.replace("http://", "ws://") + f"/api/stream?token={token}"
    stream = await LeanSocket.connect(ws_url)  # the echo's clients are the same (``echo_phone``)
    opening.one()
    try:
        await go.wait()
        picked: set[tuple[int, int]] = set()
        asked: dict[int, tuple[tuple[int, int], float]] = {}  # pick id -> (pack, pick), when it was sent
        last_sent: float | None = None  # the seat's last pick, until its next pack arrives
        while True:
            text = await stream.recv()
            figures.received += len(text)
            message = decode(text)  # only what a phone reads of it (the phones take less of the machine)
            kind = message.type
            if kind in ("picked", "refused"):  # the answer to a pick over the stream: the seat's new state
                at, sent = asked.pop(message.id or 0)
                figures.answered(at, time.perf_counter() - sent)
                if kind == "picked":
                    figures.acknowledged[name] += 1
                else:
                    figures.refused += 1
            elif kind != "seat":
                continue
            arrived = time.perf_counter()
            draft = message.seat.draft if message.seat is not None else None
            if draft is None:
                continue
            if draft.done:
                break
            at = (draft.pack, draft.pick)
            if bytes(draft.cards) == b"[]" or at in picked:
                continue
            if last_sent is not None:
                figures.own_next.append(arrived - last_sent)
            before = figures.round_sent.get((draft.pod, *previous(at)))
            if before is not None and at != (1, 1):
                figures.passed.append(arrived - before)
            picked.add(at)
            sent = last_sent = time.perf_counter()
            key = (draft.pod, *at)
            figures.round_sent[key] = max(figures.round_sent.get(key, 0.0), sent)
            body = {"pack": at[0], "pick": at[1], "cards": list(range(draft.take))}
            if not post:
                asked[len(picked)] = (at, sent)
                stream.send(encode({"type": "pick", "id": len(picked), **body}))
                continue
            status = await own.post("/api/pick", body)
            figures.answered(at, time.perf_counter() - sent)
            if status == 200:
                figures.acknowledged[name] += 1
            else:
                figures.refused += 1
    finally:
        stream.close()


def slowest(figures: Figures) -> dict[str, int]:
    """Where the slowest 1% of picks were made: how many at each pack and pick ("1.1": pack 1, pick 1)."""
    cut = percentile(figures.own, 0.99)
    counts = {f"{pack}.{pick}": sum(1 for x in values if x >= cut) for (pack, pick), values in figures.rounds.items()}
    return {at: n for at, n in sorted(counts.items()) if n}


def previous(at: tuple[int, int]) -> tuple[int, int]:
    pack, pick = at
    return (pack, pick - 1) if pick > 1 else (pack - 1, 10)


def process_tree(pid: int) -> list[int]:
    """The process and every process it started, still running (the server and its sync helper)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        try:
            tasks = list(Path(f"/proc/{current}/task").iterdir())
        except OSError:
            continue
        for task in tasks:
            try:
                todo.extend(int(child) for child in (task / "children").read_text().split())
            except OSError:
                pass
    return found


def cpu_seconds(pid: int) -> float:
    """User and system CPU time a process and the processes it started have used so far."""
    total = 0.0
    for member in process_tree(pid):
        try:
            fields = Path(f"/proc/{member}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            if member == pid:
                return float("nan")
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def peak_rss_mb(pid: int) -> float:
    """The peak memory of a process and the processes it started, added up."""
    total = 0.0
    for member in process_tree(pid):
        try:
            status = Path(f"/proc/{member}/status").read_text()
        except OSError:
            if member == pid:
                return float("nan")
            continue
        found = re.search(r"VmHWM:\s+(\d+) kB", status)
        total += int(found.group(1)) / 1024 if found else 0.0
    return total


async def drive(
    url: str, event_id: int, codes: dict[str, str], figures: Figures, pid: int, post: bool, echo_url: str
) -> float:
    """Every phone joins, opens its stream, then all pick at once; the seconds the draft took.  The bare echo is
    timed with as many clients just before the draft and again just after it, once the server is quiet (its
    baseline brackets the draft in time: a machine whose speed changes while it runs slows both alike)."""
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=httpx.Limits(max_connections=200)) as web:
        tokens = {name: await join(web, event_id, name, code) for name, code in sorted(codes.items())}
        go = asyncio.Event()
        opening = Opening(len(tokens))
        phones = [
            asyncio.create_task(phone(url, web, token, name, figures, go, post, opening))
            for name, token in tokens.items()
        ]
        await opening.wait(phones)  # the streams are open
        await quiet(pid)  # and the server done with the seats' first states: the echo is timed on a quiet server
        figures.echo_before = await echo_drive(echo_url, len(tokens))
        figures.cpu_at_start = cpu_seconds(pid)
        start, phones_start = time.perf_counter(), time.process_time()
        go.set()
        await asyncio.gather(*phones)
        seconds = time.perf_counter() - start
        figures.phones_cpu = time.process_time() - phones_start
        figures.cpu_at_end = cpu_seconds(pid)
        await quiet(pid)  # the pools the draft's end left to record, recorded
        figures.echo_after = await echo_drive(echo_url, len(tokens))
        return seconds


async def quiet(pid: int, still: float = 0.3, most: float = 20.0) -> None:
    """Until the server (its helper too) has used next to no CPU for ``still`` seconds, or ``most`` seconds passed."""
    before, waited = cpu_seconds(pid), 0.0
    while waited < most:
        await asyncio.sleep(still)
        waited += still
        now = cpu_seconds(pid)
        if now - before <= 0.011:  # a clock tick's worth (the watcher looks at the files four times a second)
            return
        before = now


def serve_command(db: Path, event_id: int, phones: int) -> list[str]:
    """``cmdraft serve`` for ``phones`` phones on loopback: a phone holds its stream and a request at once, so the
    connections allowed grow with the phones (the default 200 turns the 101st phone away)."""
    return [sys.executable, "-m", "events", "serve", str(event_id), "--db", str(db), "--port", "0"] + [
        "--max-connections",
        str(max(200, 2 * phones)),
    ]


def start_serve(db: Path, event_id: int, phones: int) -> subprocess.Popen[str]:
    """``cmdraft serve`` started for the benchmark (``serve_command``), its output read line by line as it comes."""
    return subprocess.Popen(
        serve_command(db, event_id, phones),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )


def serve(players: int = PLAYERS, post: bool = False) -> dict[str, float | int]:
    with tempfile.TemporaryDirectory(prefix="cmdraft-serve-bench-") as folder:
        os.environ["CMDRAFT_HOME"] = str(Path(folder) / "home")
        db = Path(folder) / "bench.json"
        event_id, codes = make_event(db, players)
        echo_process, echo_url = start_echo()
        running = [echo_process]  # each ended below, however the run ends
        try:
            process = start_serve(db, event_id, players)
            running.append(process)
            first = process.stdout.readline()
            found = re.search(r"at (http://127\.0\.0\.1:\d+)", first)
            if not found:
                raise SystemExit(f"cmdraft serve did not start: {first}{process.stderr.read()}")
            figures = Figures()
            seconds = asyncio.run(drive(found.group(1), event_id, codes, figures, process.pid, post, echo_url))
            rss = peak_rss_mb(process.pid)
            server_cpu = figures.cpu_at_end - figures.cpu_at_start
        finally:
            for started in running:
                started.terminate()
                started.wait(timeout=30)
        from events.storage.store import Store
        from tests.helpers.night import Night

        events = Night(Store(db))
        snap = events.snapshot(event_id)
        names = snap.names()
        in_files: dict[str, int] = {}
        for pod in snap.pods:
            draft = events.draft_session(event_id, pod.number).draft
            for seat, player_id in enumerate(pod.players):
                in_files[names[player_id]] = len(draft.picks_of(seat))
        lost = sum(max(0, n - in_files.get(name, 0)) for name, n in figures.acknowledged.items())
        # A pick in the file the phone saw no answer to (the draft ended first: the phone stops at ``done``) is
        # unanswered, not made twice; a seat with more picks than the draft has made one twice.
        unanswered = sum(max(0, min(in_files[name], PICKS) - figures.acknowledged.get(name, 0)) for name in in_files)
        twice = sum(max(0, n - PICKS) for n in in_files.values())
        return {
            "phones": players,
            "picks": sum(figures.acknowledged.values()),
            "refused": figures.refused,
            "seconds": round(seconds, 2),
            "own_p50_ms": round(statistics.median(figures.own) * 1000, 1),
            "own_p99_ms": round(percentile(figures.own, 0.99) * 1000, 1),
            "next_p50_ms": round(statistics.median(figures.passed) * 1000, 1),
            "next_p99_ms": round(percentile(figures.passed, 0.99) * 1000, 1),
            "own_next_p50_ms": round(statistics.median(figures.own_next) * 1000, 1),
            "own_next_p99_ms": round(percentile(figures.own_next, 0.99) * 1000, 1),
            "lost": lost,
            "twice": twice,
            "unanswered": unanswered,
            "server_cpu_per_pick_ms": round(server_cpu / max(1, sum(figures.acknowledged.values())) * 1000, 3),
            "received_per_pick_kb": round(figures.received / max(1, sum(figures.acknowledged.values())) / 1024, 2),
            "unfinished": sum(1 for n in in_files.values() if n != PICKS),
            "server_peak_mb": round(rss, 1),
            "slowest_picks": slowest(figures),
            "server_cpu_s": round(server_cpu, 2),
            "phones_cpu_s": round(figures.phones_cpu, 2),
            "load_average": round(os.getloadavg()[0], 1),
            **echo_figures(figures.echo_before, figures.echo_after),
        }


def rounds_median(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Several drafts' figures as one: the draft whose median ratio to its echo is the median of theirs, with the
    median of each ratio and of the server's CPU per pick, the highest of its peak memory, the picks lost, made
    twice or unfinished and the unanswered ones added up over every draft, and each draft's own figures
    (``rounds``).  A draft takes a fifth of a second: one alone is at the mercy of a moment's hiccup of the
    machine, and so is each echo run (their medians vary by a quarter from one run to the next, on a quiet
    machine)."""
    for run in runs:
        run["p50_ratio"] = round(run["own_next_p50_ms"] / run["echo_p50_ms"], 3)
        run["p99_ratio"] = round(run["own_next_p99_ms"] / run["echo_p99_ms"], 3)
    middle = sorted(runs, key=lambda run: run["p50_ratio"])[(len(runs) - 1) // 2]
    return {
        **middle,
        "p50_ratio": statistics.median(run["p50_ratio"] for run in runs),
        "p99_ratio": statistics.median(run["p99_ratio"] for run in runs),
        "server_cpu_per_pick_ms": statistics.median(run["server_cpu_per_pick_ms"] for run in runs),
        "server_peak_mb": max(run["server_peak_mb"] for run in runs),
        "wrong": sum(run["lost"] + run["twice"] + run["unfinished"] for run in runs),
        "unanswered": sum(run["unanswered"] for run in runs),
        "rounds": [dict(run) for run in runs],
    }


async def echo_phone(url: str, figures: list[float], go: asyncio.Event, opening: Opening) -> None:
    """One client of the bare echo: ``PICKS`` round trips of a pick-sized message, each as soon as the last came back."""
    stream = await LeanSocket.connect(url)  # the phones' own client (``phone``)
    opening.one()
    try:
        await go.wait()
        message = encode({"type": "pick", "id": 1, "pack": 1, "pick": 1, "cards": [0, 1]})
        for _ in range(PICKS):
            sent = time.perf_counter()
            stream.send(message)
            await stream.recv()
            figures.append(time.perf_counter() - sent)
    finally:
        stream.close()


async def echo_drive(url: str, clients: int) -> list[float]:
    figures: list[float] = []
    go = asyncio.Event()
    opening = Opening(clients)
    tasks = [asyncio.create_task(echo_phone(url, figures, go, opening)) for _ in range(clients)]
    await opening.wait(tasks)  # every client's stream is open
    go.set()
    await asyncio.gather(*tasks)
    return figures


def start_echo() -> tuple[subprocess.Popen[str], str]:
    """The bare Starlette/uvicorn WebSocket echo (the baseline of issue 41) in a process of its own, and its address."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.echo_server"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    first = process.stdout.readline() if process.stdout is not None else ""
    found = re.search(r"at http://(127\.0\.0\.1:\d+)", first)
    if not found:
        process.terminate()
        raise SystemExit(f"the echo server did not start: {first}{process.communicate(timeout=30)[1]}")
    return process, f"ws://{found.group(1)}/echo"


def echo_figures(before: list[float], after: list[float]) -> dict[str, float]:
    """The echo's round trips timed before and after the draft, together (the baseline), and each run's median."""
    both = before + after
    return {
        "echo_p50_ms": round(statistics.median(both) * 1000, 2),
        "echo_p99_ms": round(percentile(both, 0.99) * 1000, 2),
        "echo_before_p50_ms": round(statistics.median(before) * 1000, 2),
        "echo_after_p50_ms": round(statistics.median(after) * 1000, 2),
    }
