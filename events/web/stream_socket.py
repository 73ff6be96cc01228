"""The phones' streams on the wire: a lean WebSocket protocol (RFC 6455) that uvicorn runs for every upgrade
(``uvicorn.Config(ws=StreamSocket)``), in place of its own, whose frames pass through the ``websockets`` library's
generators, an ``asyncio.Queue`` a message and a task per frame written (issue 41: a fifth of the server's time a
pick at 64-256 phones).

uvicorn's HTTP protocol reads the request's head, hands the connection over and replays the head here.  This class
answers the handshake itself (400 to a bad one), runs the ASGI app once for the connection (``websocket.accept``:
101; ``websocket.close`` before it: 403; ``websocket.http.response.*``: that response), reads the client's frames
with plain byte arithmetic and gives each message to ``receive`` from a deque, and writes each message the app sends
as one frame with one ``transport.write``.  A client that breaks the protocol is closed with the code RFC 6455 gives
(1002, 1007 for text that is not UTF-8, 1009 for a message over ``ws_max_size``); the app's messages wait in
``send`` only while the socket's buffer is full, and the client's stop being read while ``ws_max_queue`` of them
wait for the app.  Nothing a client sends is logged.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import email.utils
import hashlib
import logging
import os
from collections import deque
from collections.abc import Callable
from http import HTTPStatus
from typing import Any, cast
from urllib.parse import unquote

from uvicorn.config import Config
from uvicorn.protocols.utils import ClientDisconnected, get_local_addr, get_remote_addr, is_ssl
from uvicorn.server import ServerState

log = logging.getLogger("uvicorn.error")

Message = dict[str, Any]


def python_mask(data: bytes | bytearray, mask: bytes) -> bytes:
    """``data`` XOR ``mask`` repeated (RFC 6455 5.3), as one big integer: the fallback without ``websockets``."""
    size = len(data)
    key = (mask * (size // 4 + 1))[:size]
    return (int.from_bytes(data, "big") ^ int.from_bytes(key, "big")).to_bytes(size, "big")


apply_mask: Callable[[bytes | bytearray, bytes], bytes]
try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - websockets comes with uvicorn[standard]
    apply_mask = python_mask

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455 1.3: what the client's key is hashed with
CONT, TEXT, BINARY, CLOSE, PING, PONG = 0, 1, 2, 8, 9, 10
CLOSE_TIMEOUT = 10.0  # seconds the client has to answer our close frame before the connection is dropped
MAX_HEAD = 65536  # bytes of a request's head (uvicorn's HTTP protocol has read it whole already)
# close codes a client may send (RFC 6455 7.4.1 and IANA's registry; 3000-4999 are the applications')
CLIENT_CODES = frozenset((1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014))
# the states of a connection
HANDSHAKE, CONNECTING, OPEN, RESPONDING, CLOSED = range(5)
STATUSES = frozenset(status.value for status in HTTPStatus)


def frame(opcode: int, payload: bytes) -> bytes:
    """One whole, unmasked frame as the server sends it (RFC 6455 5.2)."""
    size = len(payload)
    if size < 126:
        return bytes((0x80 | opcode, size)) + payload
    if size < 65536:
        return bytes((0x80 | opcode, 126)) + size.to_bytes(2, "big") + payload
    return bytes((0x80 | opcode, 127)) + size.to_bytes(8, "big") + payload


def close_frame(code: int, reason: str = "") -> bytes:
    """A close frame: ``code`` and as much of ``reason`` as fits in 123 bytes (whole characters); 1005 (no code)
    has no payload."""
    if code == 1005:
        return frame(CLOSE, b"")
    said = reason.encode()[:123].decode(errors="ignore").encode()
    return frame(CLOSE, code.to_bytes(2, "big") + said)


def http_head(status: int, headers: list[tuple[bytes, bytes]]) -> bytes:
    """A response's status line and headers; a header with a line break in it is refused (no header injection)."""
    phrase = HTTPStatus(status).phrase if status in STATUSES else ""
    lines = [b"HTTP/1.1 %d %s" % (status, phrase.encode())]
    for name, value in headers:
        if any(c in name + value for c in b"\r\n\0") or b":" in name:
            raise RuntimeError("a response header has a line break, a NUL or a colon in its name")
        lines.append(name + b": " + value)
    return b"\r\n".join(lines) + b"\r\n\r\n"


STATUSES = frozenset(status.value for status in HTTPStatus)


class StreamSocket(asyncio.Protocol):
    """One WebSocket connection, from the replayed handshake to the close (see the module's docstring)."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        if not config.loaded:
            config.load()  # pragma: no cover - uvicorn loads it before it serves
        self.config, self.app, self.app_state = config, config.loaded_app, app_state
        self.loop = _loop or asyncio.get_event_loop()
        self.connections, self.tasks = server_state.connections, server_state.tasks
        self.server_state = server_state
        self.max_size, self.max_queue = config.ws_max_size, max(1, config.ws_max_queue)
        self.transport: asyncio.Transport = None  # type: ignore[assignment]  # set by connection_made, first
        self.state = HANDSHAKE
        self.head = b""  # the request's head as it arrives (uvicorn replays it whole)
        self.buffer = bytearray()  # the client's bytes not yet a whole frame
        self.fragments: list[bytes] = []  # a fragmented message's frames so far
        self.fragments_size = 0
        self.fragmented = 0  # the fragmented message's opcode (TEXT or BINARY), 0 when none
        self.messages: deque[Message] = deque()  # for the app's receive, in order
        self.waiter: asyncio.Future[None] | None = None  # the receive waiting for a message
        self.ended: Message | None = None  # the disconnect given to the app, once there is one
        self.read_paused = False
        self.drained: asyncio.Future[None] | None = None  # while the transport's buffer is full: resume_writing
        self.close_sent = False
        self.close_timer: asyncio.TimerHandle | None = None
        self.response: tuple[int, list[tuple[bytes, bytes]], list[bytes]] | None = None  # websocket.http.response
        self.ping_interval, self.ping_timeout = config.ws_ping_interval, config.ws_ping_timeout
        self.ping_timer: asyncio.TimerHandle | None = None
        self.pong_timer: asyncio.TimerHandle | None = None
        self.ping_payload: bytes | None = None
        self.ping_sent = 0.0
        self.rtt = 0.0

    # --- the transport's calls ----------------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport = cast(asyncio.Transport, transport)  # uvloop's is one, though no subclass
        self.connections.add(self)  # type: ignore[arg-type]  # uvicorn's set is typed with its own protocols
        self.server = get_local_addr(transport)
        self.client = get_remote_addr(transport)
        self.scheme = "wss" if is_ssl(transport) else "ws"

    def connection_lost(self, exc: Exception | None) -> None:
        self.stop_keepalive()
        if self.close_timer is not None:
            self.close_timer.cancel()
            self.close_timer = None
        self.end(1006)  # unless the app has its disconnect already (a close frame, either way)
        self.state = CLOSED
        self.connections.discard(self)
        if self.drained is not None and not self.drained.done():
            self.drained.set_result(None)  # a lost transport never resumes writing: send learns it is gone

    def eof_received(self) -> None:
        pass

    def pause_writing(self) -> None:
        if self.drained is None or self.drained.done():
            self.drained = self.loop.create_future()

    def resume_writing(self) -> None:
        if self.drained is not None and not self.drained.done():
            self.drained.set_result(None)

    def shutdown(self) -> None:
        """The server is stopping: an open stream is closed with 1012 (service restart), a handshake in progress
        answered 500."""
        self.stop_keepalive()
        if self.state == OPEN and not self.close_sent:
            self.end(1012)
            self.transport.write(close_frame(1012))
        elif self.state == CONNECTING:
            self.reject(500)
        self.close_sent = True
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self.state == HANDSHAKE:
            self.head += data
            end = self.head.find(b"\r\n\r\n")
            if end < 0:
                if len(self.head) > MAX_HEAD:
                    self.refuse()
                return
            head, data = self.head[:end], self.head[end + 4 :]
            self.head = b""
            if not self.handshake(head):
                return
        if self.state == CLOSED or not data or self.transport.is_closing():
            return
        if self.buffer:  # the rest of a frame begun before
            self.buffer += data
            del self.buffer[: self.parse(self.buffer)]
        else:  # mostly whole frames: read where they came
            used = self.parse(data)
            if used < len(data):
                self.buffer += data[used:]

    # --- the handshake ------------------------------------------------------------------------------------------

    def handshake(self, head: bytes) -> bool:
        """Reads the request's head and starts the app, or answers 400 to a request that is no WebSocket opening
        handshake (RFC 6455 4.2.1)."""
        lines = head.split(b"\r\n")
        parts = lines[0].split(b" ")
        headers: list[tuple[bytes, bytes]] = []
        for line in lines[1:]:
            name, colon, value = line.partition(b":")
            if not colon or not name or name != name.strip():
                return self.refuse()
            headers.append((name.lower(), value.strip(b" \t")))
        named: dict[bytes, list[bytes]] = {}
        for name, value in headers:
            named.setdefault(name, []).append(value)

        def tokens(name: bytes) -> set[bytes]:
            return {token.strip().lower() for value in named.get(name, []) for token in value.split(b",")}

        keys = named.get(b"sec-websocket-key", [])
        try:
            key_ok = len(keys) == 1 and len(base64.b64decode(keys[0], validate=True)) == 16
            target = parts[1].decode("ascii") if len(parts) == 3 else ""
        except (binascii.Error, UnicodeDecodeError):
            return self.refuse()
        if not (
            key_ok
            and parts[0] == b"GET"
            and parts[2] == b"HTTP/1.1"
            and target.startswith("/")
            and b"websocket" in tokens(b"upgrade")
            and b"upgrade" in tokens(b"connection")
            and named.get(b"sec-websocket-version") == [b"13"]
        ):
            return self.refuse()
        self.accept_key = base64.b64encode(hashlib.sha1(keys[0] + GUID).digest())
        raw_path, _, query = target.partition("?")
        root = self.config.root_path
        self.scope: Message = {
            "type": "websocket",
            "asgi": {"version": self.config.asgi_version, "spec_version": "2.4"},
            "http_version": "1.1",
            "scheme": self.scheme,
            "server": self.server,
            "client": self.client,
            "root_path": root,
            "path": root + unquote(raw_path),
            "raw_path": root.encode("ascii") + raw_path.encode("ascii"),
            "query_string": query.encode("ascii"),
            "headers": headers,
            "subprotocols": [
                token.strip().decode("latin-1")
                for value in named.get(b"sec-websocket-protocol", [])
                for token in value.split(b",")
                if token.strip()
            ],
            "state": self.app_state.copy(),
            "extensions": {"websocket.http.response": {}},
        }
        self.state = CONNECTING
        self.messages.append({"type": "websocket.connect"})
        task = self.loop.create_task(self.run_asgi())
        task.add_done_callback(self.tasks.discard)
        self.tasks.add(task)
        return True

    def refuse(self) -> bool:
        """A request that is no opening handshake: 400, and the connection closed."""
        body = b"Failed to open a WebSocket connection: invalid request.\n"
        self.write_response(400, [(b"content-type", b"text/plain; charset=utf-8")], body)
        self.state = CLOSED
        return False

    def write_response(self, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
        """An HTTP response in place of the upgrade, then the connection closed."""
        names = {name.lower() for name, _ in headers}
        defaults = [
            (b"date", email.utils.formatdate(usegmt=True).encode()),
            (b"connection", b"close"),
            (b"content-length", str(len(body)).encode()),
            (b"content-type", b"text/plain; charset=utf-8"),
        ]
        headers = headers + [(name, value) for name, value in defaults if name not in names]
        self.close_sent = True
        self.transport.write(http_head(status, headers) + body)
        self.transport.close()

    def reject(self, status: int) -> None:
        if self.state == CONNECTING:
            self.state = CLOSED
            self.end(1006)
            self.write_response(status, [], b"")

    # --- the client's frames ------------------------------------------------------------------------------------

    def parse(self, buffer: bytes | bytearray) -> int:
        """Every whole frame in ``buffer``, in order; how many bytes they took.  A frame that would make a message
        longer than ``ws_max_size`` is refused from its header, before its payload is waited for."""
        size, at = len(buffer), 0
        while size - at >= 2 and self.state != CLOSED:
            first, second = buffer[at], buffer[at + 1]
            opcode, length, start = first & 0x0F, second & 0x7F, at + 2
            if length == 126:
                if size - at < 4:
                    break
                length, start = int.from_bytes(buffer[at + 2 : at + 4], "big"), at + 4
            elif length == 127:
                if size - at < 10:
                    break
                length, start = int.from_bytes(buffer[at + 2 : at + 10], "big"), at + 10
            if first & 0x70 or not second & 0x80:
                self.fail(1002, "reserved bits set" if first & 0x70 else "frame not masked")
                return size
            if opcode >= 8:
                if opcode > PONG or length > 125 or not first & 0x80:
                    self.fail(1002, "bad control frame")
                    return size
            elif opcode > BINARY or (opcode == CONT) != bool(self.fragmented):
                self.fail(1002, "bad data frame")
                return size
            elif self.fragments_size + length > self.max_size:
                self.fail(1009, "message too big")
                return size
            end = start + 4 + length
            if size < end:
                break
            payload = apply_mask(buffer[start + 4 : end], bytes(buffer[start : start + 4]))
            at = end
            if opcode >= 8:
                self.control(opcode, payload)
            elif first & 0x80 and not self.fragmented:
                self.deliver(opcode, payload)
            else:
                self.fragmented = self.fragmented or opcode
                self.fragments.append(payload)
                self.fragments_size += length
                if first & 0x80:
                    whole, kind = b"".join(self.fragments), self.fragmented
                    self.fragments, self.fragments_size, self.fragmented = [], 0, 0
                    self.deliver(kind, whole)
        return at

    def deliver(self, opcode: int, payload: bytes) -> None:
        if self.close_sent:
            return  # the app closed: what still comes before the client's close is dropped
        if opcode == TEXT:
            try:
                message: Message = {"type": "websocket.receive", "text": payload.decode()}
            except UnicodeDecodeError:
                return self.fail(1007, "text is not UTF-8")
        else:
            message = {"type": "websocket.receive", "bytes": payload}
        self.put(message)
        if len(self.messages) >= self.max_queue and not self.read_paused:
            self.read_paused = True
            self.transport.pause_reading()

    def control(self, opcode: int, payload: bytes) -> None:
        if opcode == PING:
            if not self.close_sent:
                self.transport.write(frame(PONG, payload))
        elif opcode == PONG:
            if payload == self.ping_payload and self.pong_timer is not None:
                self.rtt = self.loop.time() - self.ping_sent
                self.ping_payload = None
                self.pong_timer.cancel()
                self.pong_timer = None
                self.schedule_ping()
        elif self.close_sent:  # the client's answer to our close: the closing handshake is done
            self.state = CLOSED
            self.transport.close()
        else:
            code, reason = 1005, ""
            if len(payload) == 1:
                return self.fail(1002, "bad close frame")
            if payload:
                code = int.from_bytes(payload[:2], "big")
                if code not in CLIENT_CODES and not 3000 <= code <= 4999:
                    return self.fail(1002, "bad close code")
                try:
                    reason = payload[2:].decode()
                except UnicodeDecodeError:
                    return self.fail(1007, "close reason is not UTF-8")
            self.stop_keepalive()
            self.end(code, reason)
            self.transport.write(close_frame(code))
            self.close_sent = True
            self.state = CLOSED
            self.transport.close()

    def fail(self, code: int, reason: str) -> None:
        """The client broke the protocol: the close frame with ``code`` (RFC 6455 7.1.7), and the connection closed
        at once."""
        self.stop_keepalive()
        self.end(code, reason)
        if not self.close_sent:
            self.transport.write(close_frame(code, reason))
        self.close_sent = True
        self.state = CLOSED
        self.transport.close()

    # --- to the app ---------------------------------------------------------------------------------------------

    def put(self, message: Message) -> None:
        self.messages.append(message)
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    def end(self, code: int, reason: str = "") -> None:
        """The app's ``websocket.disconnect``, once, after the messages before it."""
        if self.ended is None:
            self.ended = {"type": "websocket.disconnect", "code": code, "reason": reason}
            self.put(self.ended)

    async def receive(self) -> Message:
        while not self.messages:
            if self.ended is not None:
                return self.ended  # asked again after the disconnect: the same answer
            self.waiter = self.loop.create_future()
            await self.waiter
        message = self.messages.popleft()
        if self.read_paused and not self.messages:
            self.read_paused = False
            self.transport.resume_reading()
        return message

    async def send(self, message: Message) -> None:
        if self.drained is not None and not self.drained.done():
            await self.drained
        kind = message["type"]
        if self.state == OPEN and not self.close_sent:
            if kind == "websocket.send":
                text, data = message.get("text"), message.get("bytes")
                if data is not None:
                    self.transport.write(frame(BINARY, data))
                elif text is not None:
                    self.transport.write(frame(TEXT, text.encode()))
                else:
                    raise RuntimeError("'websocket.send' has neither 'text' nor 'bytes'")
            elif kind == "websocket.close":
                code, reason = message.get("code") or 1000, message.get("reason") or ""
                self.stop_keepalive()
                self.end(code, reason)
                self.transport.write(close_frame(code, reason))
                self.close_sent = True
                if self.read_paused:  # the client's close must still be read
                    self.read_paused = False
                    self.transport.resume_reading()
                self.close_timer = self.loop.call_later(CLOSE_TIMEOUT, self.transport.close)
            else:
                raise RuntimeError(f"Expected 'websocket.send' or 'websocket.close', got {kind!r}")
        elif self.state == CLOSED or self.transport.is_closing():
            raise ClientDisconnected()
        elif self.state == CONNECTING:
            self.opening(message)
        elif self.state == RESPONDING and kind == "websocket.http.response.body" and self.response is not None:
            self.response[2].append(message.get("body", b""))
            if not message.get("more_body", False):
                self.state = CLOSED
                self.end(1006)
                self.write_response(self.response[0], self.response[1], b"".join(self.response[2]))
        else:
            raise RuntimeError(f"Unexpected ASGI message {kind!r} after the stream was closed or answered")

    def opening(self, message: Message) -> None:
        """The app's answer to the handshake: accept (101), close (403) or its own HTTP response."""
        kind = message["type"]
        if kind == "websocket.accept":
            headers = [
                (b"upgrade", b"websocket"),
                (b"connection", b"Upgrade"),
                (b"sec-websocket-accept", self.accept_key),
                *self.server_state.default_headers,
                *((name.lower(), value) for name, value in message.get("headers") or ()),
            ]
            if message.get("subprotocol"):
                headers.append((b"sec-websocket-protocol", message["subprotocol"].encode()))
            self.transport.write(http_head(101, headers))
            self.state = OPEN
            if self.ping_interval:
                self.schedule_ping()
        elif kind == "websocket.close":
            self.reject(403)
        elif kind == "websocket.http.response.start":
            status = message["status"]
            if not 100 <= status < 600:
                raise RuntimeError(f"Invalid HTTP status code '{status}' in response.")
            self.response = (status, [(n.lower(), v) for n, v in message.get("headers") or ()], [])
            self.state = RESPONDING
        else:
            raise RuntimeError(
                f"Expected 'websocket.accept', 'websocket.close' or 'websocket.http.response.start', got {kind!r}"
            )

    async def run_asgi(self) -> None:
        """The app, once: an exception before it answered the handshake is a 500, after it a close with 1011."""
        try:
            result = await self.app(self.scope, self.receive, self.send)
        except ClientDisconnected:
            pass
        except BaseException:
            log.exception("Exception in ASGI application\n")
            self.abort()
        else:
            if self.state in (CONNECTING, RESPONDING):
                log.error("ASGI callable returned without completing handshake.")
                self.abort()
            elif result is not None:
                log.error("ASGI callable should return None, but returned a %s.", type(result).__name__)
        if self.state == OPEN and not self.close_sent:  # returned without closing: a normal close
            self.close_sent = True
            self.transport.write(close_frame(1000))
        if self.close_timer is None:
            self.transport.close()

    def abort(self) -> None:
        if self.state in (CONNECTING, RESPONDING):
            self.state = CONNECTING
            self.reject(500)
        elif self.state == OPEN and not self.close_sent:
            self.fail(1011, "")

    # --- keepalive ----------------------------------------------------------------------------------------------

    def schedule_ping(self) -> None:
        if self.ping_interval:
            self.ping_timer = self.loop.call_later(max(0.0, self.ping_interval - self.rtt), self.ping)

    def ping(self) -> None:
        self.ping_timer = None
        if self.close_sent or self.transport.is_closing():
            return
        self.ping_payload = os.urandom(4)
        self.ping_sent = self.loop.time()
        self.transport.write(frame(PING, self.ping_payload))
        if self.ping_timeout is not None:
            self.pong_timer = self.loop.call_later(self.ping_timeout, self.fail, 1011, "keepalive ping timeout")
        else:
            self.schedule_ping()

    def stop_keepalive(self) -> None:
        for timer in (self.ping_timer, self.pong_timer):
            if timer is not None:
                timer.cancel()
        self.ping_timer = self.pong_timer = None
        self.ping_payload = None
