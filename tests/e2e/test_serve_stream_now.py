"""A pick on a seat's stream taken in as it arrives (``stream.pick_now``: ``cmdraft serve``'s own WebSocket protocol
hands it over without waking the stream's task) is answered exactly as the stream's task answers it
(``stream.message``, which an in-process client reaches): the same picks taken, the same refusals in the same
words, the same rate limit."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from events.timing import ManualClock
from events.web import stream
from events.web.app import create_app
from events.web.settings import WebSettings
from tests.helpers.nights import codes_of
from tests.helpers.serve_thread import serve_in_thread
from tests.helpers.served import ORIGIN, client, draft_log, served_night

# each message a phone sends, after the seat's first state: a pick of the pack shown (its pack and pick filled in)
SCRIPT: list[dict[str, Any] | str] = [
    {"type": "pick", "id": 1, "cards": [0, 1]},
    {"type": "pick", "id": 2, "cards": [0, 1], "stale": True},  # the pick just made, again
    {"type": "pick", "id": 3, "cards": [0]},  # one card where two are due
    {"type": "pick", "id": 4, "cards": [0, 0]},  # the same card twice
    {"type": "pick", "id": 5, "cards": [0, 99]},  # a place past the pack's end
    {"type": "pick", "id": 6, "cards": [0, 1], "pack": 7},  # a pack that isn't there
    {"type": "ping"},
    {"type": "pick", "cards": [2, 3]},  # no id
    '{"type": "pick", "id": 8, "pack": "one"}',  # a field of the wrong type
    "not json",
    {"type": "pick", "id": 9, "cards": [0, 1]},
]


def without_times(value: Any) -> Any:
    """An answer with the server's clock left out (the two servers run at different moments)."""
    if isinstance(value, dict):
        return {key: without_times(item) for key, item in value.items() if key not in ("server_time", "time")}
    if isinstance(value, list):
        return [without_times(item) for item in value]
    return value


def played(send: Any, receive: Any) -> list[Any]:
    """The script played on a stream whose first state has been read into ``receive``'s first answer."""
    answers: list[Any] = []
    shown = receive()["seat"]["draft"]
    last = (shown["pack"], shown["pick"])
    for step in SCRIPT:
        if isinstance(step, str):
            send(step)
        else:
            message = dict(step)
            stale = message.pop("stale", False)
            at = last if stale else (shown["pack"], shown["pick"])
            message.setdefault("pack", at[0])
            message.setdefault("pick", at[1])
            send(json.dumps(message))
        answer = receive()
        while answer.get("type") == "seat" and step != {"type": "seat"}:  # a push (the pack passed): not an answer
            answer = receive()
        answers.append(without_times(answer))
        seat = answer.get("seat") or {}
        if answer.get("type") == "picked" and seat.get("draft"):
            last = (shown["pack"], shown["pick"])
            shown = seat["draft"]
    return answers


def night(cli: Any, folder: Path) -> tuple[Path, int, dict[str, str]]:
    folder.mkdir()
    db = folder / "night.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=6)
    return db, event_id, codes_of(db, event_id)


@contextlib.contextmanager
def serving(db: Path, event_id: int, clock: Any, apps: list[Any] | None = None) -> Iterator[str]:
    """The app on a real uvicorn as ``cmdraft serve`` runs it, in a thread of this process (so what it calls can be
    counted here); its address (``apps``: the app put there)."""
    app = create_app(db, event_id, WebSettings(watch=False), clock=clock.monotonic, wall=clock.now, desk_token="d")
    if apps is not None:
        apps.append(app)
    with serve_in_thread(app) as address:
        yield address


def streamed(address: str, event_id: int, code: str) -> Any:
    joined = httpx.post(f"http://{address}/api/join", json={"event": event_id, "player": "Ann", "code": code})
    return connect(f"ws://{address}/api/stream?token={joined.json()['token']}", origin=ORIGIN["origin"])


def test_a_pick_taken_as_it_arrives_is_answered_as_the_streams_task_answers_it(
    tmp_path, cli, manual_clock, monkeypatch
):
    at_once_db, event_id, codes = night(cli, tmp_path / "at-once")
    shutil.copytree(tmp_path / "at-once", tmp_path / "by-task")  # the same night, served the other way
    by_task_db = tmp_path / "by-task" / at_once_db.name
    taken: list[bool] = []
    real_pick_now = stream.pick_now

    def counted(*args: Any) -> bool:
        taken.append(real_pick_now(*args))
        return taken[-1]

    monkeypatch.setattr(stream, "pick_now", counted)
    with serving(at_once_db, event_id, manual_clock) as address, streamed(address, event_id, codes["Ann"]) as ws:
        at_once = played(ws.send, lambda: json.loads(ws.recv(timeout=10)))
    picks_taken_at_once = taken.count(True)
    with client(by_task_db, event_id, manual_clock) as web:  # no taker in-process: the task reads them all
        token = web.post("/api/join", json={"event": event_id, "player": "Ann", "code": codes["Ann"]}).json()["token"]
        web.cookies.clear()
        with web.websocket_connect(f"/api/stream?token={token}") as ws:
            by_task = played(ws.send_text, ws.receive_json)
    assert picks_taken_at_once >= 7 and taken.count(True) == picks_taken_at_once  # the in-process client: none
    assert [answer.get("type") for answer in at_once][:2] == ["picked", "refused"]
    assert at_once == by_task
    assert draft_log(at_once_db, event_id) == draft_log(by_task_db, event_id)


def test_picks_taken_as_they_arrive_count_toward_the_rate_limit_in_the_same_words(tmp_path, cli, manual_clock):
    """The token's limit (60 at once, the stream's opening one of them; the clock stands still here) counts a pick
    taken at once as the task does."""
    db, event_id, codes = night(cli, tmp_path / "limit")
    answers: dict[str, list[dict[str, Any]]] = {}
    with serving(db, event_id, manual_clock) as address, streamed(address, event_id, codes["Ann"]) as ws:
        shown = json.loads(ws.recv(timeout=10))["seat"]["draft"]
        stale = {"type": "pick", "pack": shown["pack"], "pick": shown["pick"] + 5, "cards": [0, 1]}
        for n in range(62):
            ws.send(json.dumps({**stale, "id": n}))
        answers["at once"] = [json.loads(ws.recv(timeout=10)) for _ in range(62)]
    with client(db, event_id, manual_clock) as web:
        token = web.post("/api/join", json={"event": event_id, "player": "Bo", "code": codes["Bo"]}).json()["token"]
        web.cookies.clear()
        with web.websocket_connect(f"/api/stream?token={token}") as ws:
            ws.receive_json()
            for n in range(62):
                ws.send_text(json.dumps({**stale, "id": n}))
            answers["by task"] = [ws.receive_json() for _ in range(62)]
    for way, said in answers.items():
        said.sort(key=lambda answer: answer["id"])  # a refusal's answer may overtake a pick's (answered once synced)
        assert [answer["status"] for answer in said] == [409] * 59 + [429] * 3, way  # the stream's opening counted
    assert answers["at once"][59]["error"] == answers["by task"][59]["error"]


def masked_text_frame(payload: bytes) -> bytes:
    """A client's text frame (RFC 6455 5.2: masked), for a payload under 126 bytes."""
    mask = os.urandom(4)
    return bytes((0x81, 0x80 | len(payload))) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class Hurried(ManualClock):
    """A clock a second later each time it is read: no rate limit ever holds a client back."""

    def monotonic(self) -> float:
        self.advance(1.0)
        return super().monotonic()


@pytest.mark.parametrize("limited", [True, False], ids=["rate-limited", "never-limited"])
def test_a_client_that_sends_picks_and_never_reads_is_read_no_more_once_its_answers_wait(tmp_path, cli, limited):
    """Picks taken as they arrive never get around the stream's back-pressure: once the client stops reading, its
    answers wait, the stream's task waits for them (the picks it hands over, the refusals it sends), its messages
    queue (``ws_max_queue``) and the server stops reading it, so the answers kept for it stay few (its memory can't
    be grown by sending); whether its picks are refused by the rate limit (a clock that stands still) or never."""
    db, event_id, codes = night(cli, tmp_path / "flood")
    apps: list[Any] = []
    clock = ManualClock() if limited else Hurried()
    with serving(db, event_id, clock, apps) as address:
        joined = httpx.post(
            f"http://{address}/api/join", json={"event": event_id, "player": "Ann", "code": codes["Ann"]}
        )
        host, port = address.split(":")
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a client that reads nothing
        raw.connect((host, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        raw.sendall(
            f"GET /api/stream?token={joined.json()['token']} HTTP/1.1\r\nHost: {address}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Origin: {ORIGIN['origin']}\r\n\r\n".encode()
        )
        time.sleep(0.3)
        stale = json.dumps({"type": "pick", "id": 1, "pack": 1, "pick": 9, "cards": [0, 1]}).encode()
        flood = masked_text_frame(stale) * 60_000  # 4 MiB: more than the sockets' buffers hold
        raw.settimeout(3)
        sent = 0
        with contextlib.suppress(TimeoutError):
            while sent < len(flood):
                sent += raw.send(flood[sent : sent + 65536])
        time.sleep(1)
        kept = [len(c.outbox) for found in apps[0].state.server.hub.connections.values() for c in found]
        raw.close()
    assert kept and max(kept) <= 100
