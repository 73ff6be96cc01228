"""The streams' own WebSocket protocol (``events.web.stream_socket.StreamSocket``) under a real uvicorn on loopback:
the handshake, messages both ways, the close codes of RFC 6455, back-pressure both ways, a client that vanishes and
an app that raises.  Clients: the ``websockets`` library, and raw sockets for what no library sends."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import os
import queue
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from events.cli.serve import server_config
from events.web import frames, stream_socket
from events.web.frames import python_mask
from events.web.stream_socket import StreamSocket

MAX_SIZE = 64 * 1024  # the test server's ws_max_size
MAX_QUEUE = 4
FLOOD = 600  # messages of MAX_SIZE /flood sends: 38 MiB, more than loopback's socket buffers hold


class App:
    """An ASGI app whose path says what it does; ``seen`` gets each connection's disconnect and counts."""

    def __init__(self) -> None:
        self.seen: queue.Queue[tuple[str, int, Any]] = queue.Queue()  # what, the client's port, what it was
        self.sent = 0  # messages /flood has sent so far

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        path, port = scope["path"], scope["client"][1]
        assert (await receive())["type"] == "websocket.connect"
        if path == "/deny":
            await send({"type": "websocket.close", "code": 4403})
            return
        if path == "/boom-before":
            raise ValueError("before accept")
        if path == "/teapot":
            await send({"type": "websocket.http.response.start", "status": 418, "headers": [(b"x-tea", b"yes")]})
            await send({"type": "websocket.http.response.body", "body": b"short ", "more_body": True})
            await send({"type": "websocket.http.response.body", "body": b"and stout"})
            return
        self.seen.put(
            ("scope", port, {key: scope[key] for key in ("path", "raw_path", "query_string", "subprotocols")})
        )
        await send({"type": "websocket.accept", "subprotocol": (scope["subprotocols"] or [None])[0]})
        if path == "/boom-after":
            raise ValueError("after accept")
        if path == "/close":
            await send({"type": "websocket.close", "code": 4000, "reason": "bye"})
            self.seen.put(("after close", port, await receive()))
            return
        if path == "/flood":
            for n in range(FLOOD):
                await send({"type": "websocket.send", "bytes": n.to_bytes(4, "big") * (MAX_SIZE // 4)})
                self.sent = n + 1
            return
        if path == "/idle":  # reads nothing for a second, then everything
            await asyncio.sleep(1)
            texts = []
            while (message := await receive())["type"] != "websocket.disconnect":
                texts.append(message["text"])
            self.seen.put(("idle read", port, texts))
            return
        while True:  # /echo
            message = await receive()
            if message["type"] == "websocket.disconnect":
                self.seen.put(("disconnect", port, message))
                return
            await send({"type": "websocket.send", "text": message.get("text"), "bytes": message.get("bytes")})

    def next(self, kind: str, port: int | None, timeout: float = 5) -> Any:
        """What the app saw of ``kind`` on the connection from ``port`` (None: any; others' are skipped)."""
        while True:
            seen, client, what = self.seen.get(timeout=timeout)
            if seen == kind and port in (None, client):
                return what


@contextlib.contextmanager
def running(app: App, **figures: Any) -> Iterator[tuple[str, uvicorn.Server]]:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    options = dict(ws_max_size=MAX_SIZE, ws_max_queue=MAX_QUEUE, ws_ping_interval=None, log_level="critical")
    config = uvicorn.Config(app, ws=StreamSocket, lifespan="off", **(options | figures))
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.01)
        yield f"127.0.0.1:{listener.getsockname()[1]}", server
    finally:
        server.should_exit = True
        thread.join(10)
        listener.close()


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, App, uvicorn.Server]]:
    app = App()
    with running(app) as (address, server):
        yield address, app, server


@pytest.fixture
def address(served) -> str:
    return served[0]


@pytest.fixture
def app(served) -> App:
    return served[1]


# --- a raw client: frames built and read here from RFC 6455 5.2 ------------------------------------------------------


def masked(opcode: int, payload: bytes, fin: bool = True, mask: bytes = b"\x01\x02\x03\x04", rsv: int = 0) -> bytes:
    head = bytes([(0x80 if fin else 0) | rsv | opcode])
    size = len(payload)
    if size < 126:
        head += bytes([0x80 | size])
    elif size < 65536:
        head += bytes([0x80 | 126]) + size.to_bytes(2, "big")
    else:
        head += bytes([0x80 | 127]) + size.to_bytes(8, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def unmasked(opcode: int, payload: bytes) -> bytes:
    return bytes([0x80 | opcode, len(payload)]) + payload


KEY = base64.b64encode(b"sixteen byte key").decode()


def upgrade(path: str = "/echo", **headers: str) -> bytes:
    fields = {"Host": "127.0.0.1", "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": KEY}
    fields["Sec-WebSocket-Version"] = "13"
    fields.update({name.replace("_", "-"): value for name, value in headers.items()})
    lines = [f"GET {path} HTTP/1.1"] + [f"{name}: {value}" for name, value in fields.items() if value]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


class Raw:
    def __init__(self, address: str, request: bytes | None = None) -> None:
        host, port = address.split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=5)
        self.port = self.sock.getsockname()[1]
        self.data = b""
        if request is not None:
            self.sock.sendall(request)

    def head(self) -> bytes:
        while b"\r\n\r\n" not in self.data:
            self.read()
        head, _, self.data = self.data.partition(b"\r\n\r\n")
        return head

    def read(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise EOFError
        self.data += chunk

    def frame(self) -> tuple[int, bytes]:
        while True:
            if len(self.data) >= 10 or (len(self.data) >= 2 and self.data[1] & 0x7F < 126):
                size, at = self.data[1] & 0x7F, 2
                if size == 126:
                    size, at = int.from_bytes(self.data[2:4], "big"), 4
                elif size == 127:
                    size, at = int.from_bytes(self.data[2:10], "big"), 10
                if len(self.data) >= at + size:
                    opcode, payload = self.data[0] & 0x0F, self.data[at : at + size]
                    assert not self.data[1] & 0x80, "a server's frame is never masked"
                    self.data = self.data[at + size :]
                    return opcode, payload
            self.read()

    def closed_with(self) -> int:
        """The code of the server's close frame (after any other frames), then the connection's end."""
        opcode, payload = self.frame()
        while opcode != 8:
            opcode, payload = self.frame()
        with contextlib.suppress(EOFError, ConnectionResetError):
            while True:
                self.read()
        return int.from_bytes(payload[:2], "big")

    def close(self) -> None:
        self.sock.close()


def opened(address: str, path: str = "/echo") -> Raw:
    raw = Raw(address, upgrade(path))
    assert raw.head().startswith(b"HTTP/1.1 101 ")
    return raw


# --- the handshake ---------------------------------------------------------------------------------------------------


def test_the_handshake_answers_101_with_the_key_hashed_as_rfc_6455_says(address, app):
    raw = Raw(address, upgrade("/echo/caf%C3%A9?x=1", Sec_WebSocket_Protocol="one, two"))
    lines = raw.head().split(b"\r\n")
    assert lines[0].startswith(b"HTTP/1.1 101")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(b":") for line in lines[1:])}
    # RFC 6455 1.3's own example: key "dGhlIHNhbXBsZSBub25jZQ==" -> "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
    assert base64.b64encode(hashlib.sha1(b"dGhlIHNhbXBsZSBub25jZQ==" + frames.GUID).digest()) == (
        b"s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
    )
    expected = base64.b64encode(hashlib.sha1(KEY.encode() + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
    assert headers[b"sec-websocket-accept"] == expected
    assert headers[b"upgrade"].lower() == b"websocket" and headers[b"sec-websocket-protocol"] == b"one"
    assert app.next("scope", raw.port) == {
        "path": "/echo/café",
        "raw_path": b"/echo/caf%C3%A9",
        "query_string": b"x=1",
        "subprotocols": ["one", "two"],
    }
    raw.close()


@pytest.mark.parametrize(
    ("request_bytes", "status"),
    [
        (upgrade(Sec_WebSocket_Key=""), b"400"),
        (upgrade(Sec_WebSocket_Key="c2hvcnQ="), b"400"),  # 5 bytes, not 16
        (upgrade(Sec_WebSocket_Key="not base64 at all!!!!!!!"), b"400"),
        (upgrade().replace(b"\r\n\r\n", f"\r\nSec-WebSocket-Key: {KEY}\r\n\r\n".encode()), b"400"),
        (upgrade(Sec_WebSocket_Version="8"), b"400"),
        (upgrade().replace(b"GET ", b"POST ", 1), b"400"),
        (upgrade(Connection="keep-alive, Upgrade"), b"101"),  # as Firefox asks: a list of tokens
    ],
    ids=["no key", "short key", "key not base64", "two keys", "version 8", "POST", "connection token list"],
)
def test_a_bad_upgrade_is_answered_400_and_closed(address, request_bytes, status):
    raw = Raw(address, request_bytes)
    assert raw.head().split(b" ")[1] == status
    if status == b"400":
        with pytest.raises(EOFError):
            raw.read()
    raw.close()


def test_a_close_before_accept_is_403_and_an_http_response_is_sent_as_given(address):
    with pytest.raises(InvalidStatus) as denied:
        connect(f"ws://{address}/deny", open_timeout=5)
    assert denied.value.response.status_code == 403
    with pytest.raises(InvalidStatus) as teapot:
        connect(f"ws://{address}/teapot", open_timeout=5)
    response = teapot.value.response
    assert (response.status_code, response.headers["x-tea"], response.body) == (418, "yes", b"short and stout")


# --- messages --------------------------------------------------------------------------------------------------------


def test_text_and_binary_messages_of_every_length_field_round_trip(address, app):
    with connect(f"ws://{address}/echo", max_size=None) as ws:
        for size in (0, 1, 125, 126, 65535, MAX_SIZE):
            text = "é" * (size // 2) + "x" * (size % 2)
            ws.send(text)
            assert ws.recv(timeout=5) == text
            data = os.urandom(size)
            ws.send(data)
            assert ws.recv(timeout=5) == data
        port = ws.local_address[1]
    assert app.next("disconnect", port)["code"] == 1000


def test_a_fragmented_message_is_reassembled_with_a_ping_between_its_fragments(address):
    raw = opened(address)
    word = "fragmenté".encode()
    raw.sock.sendall(masked(1, word[:4], fin=False) + masked(9, b"hi") + masked(0, word[4:9], fin=False))
    raw.sock.sendall(masked(0, word[9:]))
    assert raw.frame() == (10, b"hi")  # the pong, with the ping's payload
    assert raw.frame() == (1, word)
    raw.close()


def test_pongs_are_ignored_and_the_client_close_is_echoed_with_its_code(address, app):
    raw = opened(address)
    raw.sock.sendall(masked(10, b"unasked") + masked(8, (4001).to_bytes(2, "big") + b"done"))
    assert raw.closed_with() == 4001
    assert app.next("disconnect", raw.port) == {"type": "websocket.disconnect", "code": 4001, "reason": "done"}


def test_the_app_closing_after_accept_sends_its_code_and_gets_the_clients(address, app):
    with connect(f"ws://{address}/close") as ws:
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=5)
    assert (ws.close_code, ws.close_reason) == (4000, "bye")
    assert app.next("after close", None)  # the only test on /close["type"] == "websocket.disconnect"


# --- a client that breaks the protocol --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("frames", "code"),
    [
        (masked(1, b"\xff\xfe"), 1007),
        (masked(1, "é".encode()[:1], fin=False) + masked(0, b"x"), 1007),
        (masked(2, b"x" * (MAX_SIZE + 1)), 1009),
        (masked(2, b"x" * MAX_SIZE, fin=False) + masked(0, b"x"), 1009),
        (unmasked(1, b"hello"), 1002),
        (masked(9, b"p" * 126), 1002),
        (masked(9, b"p", fin=False), 1002),
        (masked(1, b"x", rsv=0x40), 1002),
        (masked(3, b"x"), 1002),
        (masked(0, b"x"), 1002),
        (masked(1, b"a", fin=False) + masked(1, b"b"), 1002),
        (masked(8, b"\x03"), 1002),
        (masked(8, (999).to_bytes(2, "big")), 1002),
    ],
    ids=[
        "invalid utf-8",
        "utf-8 split bad",
        "oversized",
        "oversized in fragments",
        "unmasked",
        "long ping",
        "fragmented ping",
        "rsv bit",
        "reserved opcode",
        "continuation of nothing",
        "new message inside a fragmented one",
        "one-byte close",
        "close code 999",
    ],
)
def test_a_protocol_error_closes_with_its_code(address, app, frames, code):
    raw = opened(address)
    raw.sock.sendall(frames)
    assert raw.closed_with() == code
    assert app.next("disconnect", raw.port)["code"] == code


def test_an_oversized_frame_is_refused_from_its_header_without_waiting_for_the_payload(address):
    raw = opened(address)
    raw.sock.sendall(bytes([0x82, 0x80 | 127]) + (2**40).to_bytes(8, "big") + b"mask")
    assert raw.closed_with() == 1009


def test_a_client_that_vanishes_mid_message_is_a_disconnect_1006(address, app):
    raw = opened(address)
    raw.sock.sendall(masked(1, b"half of it", fin=False) + masked(0, b"0123456789")[:8])
    raw.close()
    assert app.next("disconnect", raw.port)["code"] == 1006


# --- the app's errors ------------------------------------------------------------------------------------------------


def test_an_app_raising_before_accept_is_a_500_and_after_accept_a_close_1011(address):
    with pytest.raises(InvalidStatus) as failed:
        connect(f"ws://{address}/boom-before", open_timeout=5)
    assert failed.value.response.status_code == 500
    raw = opened(address, "/boom-after")
    assert raw.closed_with() == 1011


# --- back-pressure ---------------------------------------------------------------------------------------------------


def stream_of(server: uvicorn.Server, path: str) -> StreamSocket:
    for _ in range(100):
        found = [c for c in server.server_state.connections if isinstance(c, StreamSocket) and c.scope["path"] == path]
        if found:
            return found[0]
        time.sleep(0.02)
    raise AssertionError(f"no stream on {path}")


def test_a_client_that_does_not_read_holds_the_apps_send_with_nothing_lost(served):
    address, app, server = served
    raw = opened(address, "/flood")
    stream = stream_of(server, "/flood")
    time.sleep(0.5)
    held = app.sent
    assert held < FLOOD  # the app's send waits while the client reads nothing
    time.sleep(0.3)
    assert app.sent == held
    assert stream.transport.get_write_buffer_size() <= 2 * MAX_SIZE + 65536  # the high water mark and one message
    for n in range(FLOOD):  # then every message comes, whole and in order
        assert raw.frame() == (2, n.to_bytes(4, "big") * (MAX_SIZE // 4))
    raw.close()


def test_messages_the_app_does_not_read_stop_the_reading_past_max_queue(served):
    address, app, server = served
    raw = opened(address, "/idle")
    stream = stream_of(server, "/idle")
    for n in range(50):  # one read each (or a few): the reading stops once MAX_QUEUE wait
        raw.sock.sendall(masked(1, b"%d" % n))
        time.sleep(0.005)
    assert stream.read_paused and len(stream.messages) < 50
    raw.sock.sendall(masked(8, (1000).to_bytes(2, "big")))
    assert raw.closed_with() == 1000  # read once the app read what waited
    assert app.next("idle read", raw.port) == [str(n) for n in range(50)]


# --- keepalive and shutdown ------------------------------------------------------------------------------------------


def test_keepalive_pings_close_1011_a_client_that_never_answers():
    app = App()
    with running(app, ws_ping_interval=0.2, ws_ping_timeout=0.3) as (address, _):
        with connect(f"ws://{address}/echo") as answering:  # the library answers pings
            silent = opened(address)
            opcode, payload = silent.frame()
            assert opcode == 9 and len(payload) == 4
            assert silent.closed_with() == 1011
            answering.send("still here")
            assert answering.recv(timeout=5) == "still here"


def test_a_stopping_server_closes_its_streams_with_1012():
    app = App()
    with running(app) as (address, server):
        raw = opened(address)
        server.should_exit = True
        assert raw.closed_with() == 1012


# --- the parts -------------------------------------------------------------------------------------------------------


def test_the_pure_python_mask_is_the_xor_of_rfc_6455():
    data, mask = os.urandom(1001), os.urandom(4)
    assert python_mask(data, mask) == bytes(b ^ mask[i % 4] for i, b in enumerate(data))
    assert python_mask(b"", mask) == b""


def test_a_planted_fault_in_the_unmasking_is_caught_by_the_round_trip(address, monkeypatch):
    monkeypatch.setattr(stream_socket, "apply_mask", lambda data, mask: bytes(data))
    with connect(f"ws://{address}/echo") as ws:
        ws.send(b"\x00\x00\x00\x00")
        assert ws.recv(timeout=5) != b"\x00\x00\x00\x00"  # the mask itself came back: the check sees it


def test_serve_runs_the_streams_through_stream_socket_with_messages_up_to_64_kib():
    config = server_config(None)  # docs/phones.md: a message over 64 KiB is closed with 1009
    assert config.ws is StreamSocket and config.ws_max_size == 64 * 1024
