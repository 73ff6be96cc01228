"""The phones' streams on the wire: a lean WebSocket protocol (RFC 6455) that uvicorn runs for every upgrade
(``uvicorn.Config(ws=StreamSocket)``) in place of its own, whose frames pass through the ``websockets`` library's
generators and an ``asyncio.Queue`` a message (issue 41: a fifth of the server's time a pick at 64-256 phones).

uvicorn's HTTP protocol hands the connection over and replays the request's head here: this class answers the
handshake (400 to a bad one), runs the ASGI app once (``websocket.accept``: 101; ``websocket.close`` before it: 403;
``websocket.http.response.*``: that response), reads frames with byte arithmetic into a deque for ``receive``, and
writes each message ``send`` is given as one frame.  A client breaking the protocol is closed with RFC 6455's code
(1002; 1007: text not UTF-8; 1009: over ``ws_max_size``); ``send`` waits only while the socket's buffer is full; the
client is not read while ``ws_max_queue`` messages wait.  Nothing a client sends is logged.
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
from typing import Any, cast
from urllib.parse import unquote

from uvicorn.config import Config
from uvicorn.protocols.utils import ClientDisconnected, get_local_addr, get_remote_addr, is_ssl
from uvicorn.server import ServerState

from events.web.frames import (
    BINARY,
    CLIENT_CODES,
    CLOSE,
    CONT,
    GUID,
    PING,
    PONG,
    TEXT,
    Headers,
    apply_mask,
    close_frame,
    frame,
    http_head,
)

log = logging.getLogger("uvicorn.error")

Message = dict[str, Any]
WRITE_NOW = "cmdraft.write_text"  # the scope's extension an app writes a text message with at once (``write_text``)
TAKE_NOW = "cmdraft.take_texts"  # the scope's extension an app takes text messages at once with (``take_texts``)
CLOSE_TIMEOUT = 10.0  # seconds the client has to answer our close frame before the connection is dropped
HANDSHAKE, CONNECTING, OPEN, RESPONDING, CLOSED = range(5)  # a connection's states
TEXT_TYPE = b"text/plain; charset=utf-8"
UPGRADE = [(b"upgrade", b"websocket"), (b"connection", b"Upgrade")]


class StreamSocket(asyncio.Protocol):
    """One WebSocket connection, from the replayed handshake to the close (see the module's docstring)."""

    def __init__(self, config: Config, server_state: ServerState, app_state: dict[str, Any], _loop: Any = None) -> None:
        if not config.loaded:
            config.load()  # pragma: no cover - uvicorn loads it before it serves
        self.config, self.app, self.app_state, self.server_state = config, config.loaded_app, app_state, server_state
        self.loop: asyncio.AbstractEventLoop = _loop or asyncio.get_event_loop()
        self.max_size, self.max_queue = config.ws_max_size, max(1, config.ws_max_queue)
        self.transport: asyncio.Transport = None  # type: ignore[assignment]  # set by connection_made, first
        self.state = HANDSHAKE
        self.buffer = bytearray()  # the client's bytes not yet a whole frame
        self.fragments: list[bytes] = []  # a fragmented message's frames so far, their size, its opcode
        self.fragments_size = self.fragmented = 0
        self.messages: deque[Message] = deque()  # for the app's receive, in order
        self.waiter: asyncio.Future[None] | None = None  # the receive waiting for a message
        self.ended: Message | None = None  # the disconnect given to the app, once there is one
        self.taker: Callable[[str], bool] | None = None  # what takes a text message at once (``take_texts``)
        self.read_paused = self.close_sent = False
        self.drained: asyncio.Future[None] | None = None  # while the transport's buffer is full: resume_writing
        self.close_timer: asyncio.TimerHandle | None = None
        self.response: tuple[int, Headers, list[bytes]] | None = None  # websocket.http.response's, as it comes
        self.ping_interval, self.ping_timeout = config.ws_ping_interval, config.ws_ping_timeout
        self.ping_timer: asyncio.TimerHandle | None = None  # the next ping, then the deadline for its pong
        self.pong_timer: asyncio.TimerHandle | None = None
        self.ping_payload: bytes | None = None
        self.ping_sent = self.rtt = 0.0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport = cast(asyncio.Transport, transport)  # uvloop's is one, though no subclass
        self.server_state.connections.add(self)  # type: ignore[arg-type]  # the set is typed with uvicorn's own
        self.server, self.client = get_local_addr(transport), get_remote_addr(transport)
        self.scheme = "wss" if is_ssl(transport) else "ws"

    def connection_lost(self, exc: Exception | None) -> None:
        self.stop_timers()
        self.end(1006)  # unless the app has its disconnect already (a close frame, either way)
        self.state = CLOSED
        self.server_state.connections.discard(self)
        self.resume_writing()  # a lost transport never resumes writing: a waiting send learns it is gone

    def pause_writing(self) -> None:
        if self.drained is None or self.drained.done():
            self.drained = self.loop.create_future()

    def resume_writing(self) -> None:
        if self.drained is not None and not self.drained.done():
            self.drained.set_result(None)

    def shutdown(self) -> None:
        """The server is stopping: an open stream is closed with 1012 (service restart), a handshake answered 500."""
        if self.state == OPEN and not self.close_sent:
            self.fail(1012)
        self.reject(500)
        self.stop_timers()
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self.state == HANDSHAKE:  # uvicorn replays the request's whole head in one call
            head, end, data = data.partition(b"\r\n\r\n")
            if not (self.handshake(head) if end else self.refuse()):
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

    def handshake(self, head: bytes) -> bool:
        """Reads the request's head and starts the app, or answers 400 to a request that is no WebSocket opening
        handshake (RFC 6455 4.2.1)."""
        lines = head.split(b"\r\n")
        parts = lines[0].split(b" ")
        method, target, version = parts if len(parts) == 3 else (b"", b"", b"")
        headers: Headers = []
        named: dict[bytes, list[bytes]] = {}
        for line in lines[1:]:
            name, colon, value = line.partition(b":")
            if not colon or not name or name != name.strip():
                return self.refuse()
            headers.append((name.lower(), value.strip(b" \t")))
            named.setdefault(name.lower(), []).append(headers[-1][1])

        def tokens(name: bytes) -> list[bytes]:
            return [token.strip() for value in named.get(name, []) for token in value.split(b",") if token.strip()]

        keys = named.get(b"sec-websocket-key", [])
        try:
            key_ok = len(keys) == 1 and len(base64.b64decode(keys[0], validate=True)) == 16
            raw_path, _, query = target.decode("ascii").partition("?")
        except (binascii.Error, UnicodeDecodeError):
            return self.refuse()
        if not (
            key_ok
            and (method, version) == (b"GET", b"HTTP/1.1")
            and raw_path.startswith("/")
            and b"websocket" in [token.lower() for token in tokens(b"upgrade")]
            and b"upgrade" in [token.lower() for token in tokens(b"connection")]
            and named.get(b"sec-websocket-version") == [b"13"]
        ):
            return self.refuse()
        self.accept_key = base64.b64encode(hashlib.sha1(keys[0] + GUID).digest())
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
            "subprotocols": [token.decode("latin-1") for token in tokens(b"sec-websocket-protocol")],
            "state": self.app_state.copy(),
            "extensions": {"websocket.http.response": {}, WRITE_NOW: self.write_text, TAKE_NOW: self.take_texts},
        }
        self.state = CONNECTING
        self.messages.append({"type": "websocket.connect"})
        task = self.loop.create_task(self.run_asgi())
        task.add_done_callback(self.server_state.tasks.discard)
        self.server_state.tasks.add(task)
        return True

    def refuse(self) -> bool:
        """A request that is no opening handshake: 400, and the connection closed."""
        self.state = CLOSED
        self.respond(400, [], b"Failed to open a WebSocket connection: invalid request.\n")
        return False

    def respond(self, status: int, headers: Headers, body: bytes) -> None:
        """An HTTP response in place of the upgrade, then the connection closed."""
        date, size = email.utils.formatdate(usegmt=True).encode(), str(len(body)).encode()
        defaults = [(b"date", date), (b"connection", b"close"), (b"content-length", size), (b"content-type", TEXT_TYPE)]
        headers += [default for default in defaults if default[0] not in {name for name, _ in headers}]
        self.close_sent = True
        self.transport.write(http_head(status, headers) + body)
        self.transport.close()

    def reject(self, status: int) -> None:
        """The app refused the handshake (403), or failed before it answered (500)."""
        if self.state in (CONNECTING, RESPONDING):
            self.state = CLOSED
            self.end(1006)
            self.respond(status, [], b"")

    def parse(self, buffer: bytes | bytearray) -> int:
        """Every whole frame in ``buffer``, in order; how many bytes they took.  A frame that would make a message
        longer than ``ws_max_size`` is refused from its header, before its payload is waited for."""
        size, at = len(buffer), 0
        while size - at >= 2 and self.state != CLOSED:
            first, second = buffer[at], buffer[at + 1]
            opcode, length, start = first & 0x0F, second & 0x7F, at + 2
            if length >= 126:
                start += 2 if length == 126 else 8
                if size < start:
                    break
                length = int.from_bytes(buffer[at + 2 : start], "big")
            if first & 0x70 or not second & 0x80:
                self.fail(1002, "reserved bits set" if first & 0x70 else "frame not masked")
            elif opcode >= 8 and (opcode > PONG or length > 125 or not first & 0x80):
                self.fail(1002, "bad control frame")
            elif opcode < 8 and (opcode > BINARY or (opcode == CONT) != bool(self.fragmented)):
                self.fail(1002, "bad data frame")
            elif opcode < 8 and self.fragments_size + length > self.max_size:
                self.fail(1009, "message too big")
            if self.state == CLOSED or size < start + 4 + length:
                break
            at = start + 4 + length
            payload = apply_mask(buffer[start + 4 : at], bytes(buffer[start : start + 4]))
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
        try:
            text = payload.decode() if opcode == TEXT else None
        except UnicodeDecodeError:
            return self.fail(1007, "text is not UTF-8")
        if text is not None and self.taker is not None and self.app_waits() and self.taken(text):
            return
        self.put({"type": "websocket.receive", "text": text, "bytes": None if opcode == TEXT else payload})
        if len(self.messages) >= self.max_queue and not self.read_paused:
            self.read_paused = True
            self.transport.pause_reading()

    def control(self, opcode: int, payload: bytes) -> None:
        if opcode == PING and not self.close_sent:
            self.transport.write(frame(PONG, payload))
        elif opcode == PONG and payload == self.ping_payload and self.pong_timer is not None:
            self.rtt = self.loop.time() - self.ping_sent
            self.stop_timers(close_too=False)
            self.schedule_ping()
        elif opcode == CLOSE and self.close_sent:  # the client's answer to our close: the closing handshake is done
            self.state = CLOSED
            self.transport.close()
        elif opcode == CLOSE:
            code = int.from_bytes(payload[:2], "big") if payload else 1005
            if len(payload) == 1 or (payload and code not in CLIENT_CODES):
                return self.fail(1002, "bad close frame")
            try:
                self.end(code, payload[2:].decode())  # the app hears the client's code and reason
            except UnicodeDecodeError:
                return self.fail(1007, "close reason is not UTF-8")
            self.fail(code)  # and the code goes back (RFC 6455 5.5.1)

    def fail(self, code: int, reason: str = "") -> None:
        """The close frame with ``code`` (the client's own, or the protocol error it made: RFC 6455 7.1.7), then our
        side shut: closing with the client's bytes unread would reset the connection, and the reset can reach the
        client before it has read the frame.  What still comes is dropped; the client's end, or the timer, closes."""
        self.stop_timers()
        self.end(code, reason)
        if not self.close_sent:
            self.transport.write(close_frame(code, reason))
        self.close_sent, self.state = True, CLOSED
        if not self.transport.is_closing():  # (uvloop refuses to shut a transport already closing)
            self.transport.write_eof()
        self.read_again()  # read (and dropped) to the client's end
        self.close_timer = self.loop.call_later(CLOSE_TIMEOUT, self.transport.close)

    def take_texts(self, taker: Callable[[str], bool] | None) -> None:
        """``taker`` given each text message as it arrives while the app waits for one with nothing queued: True, it
        took the message (its ``receive`` never sees it); False, ``receive`` gives it as usual (None: no taker)."""
        self.taker = taker

    def app_waits(self) -> bool:
        """The app waits for a message with none queued, and the client takes what is written to it (a client that
        doesn't read gets its messages queued, so reading it stops at ``ws_max_queue`` as without a taker)."""
        writing = self.drained is None or self.drained.done()
        return writing and not self.messages and self.waiter is not None and not self.waiter.done()

    def taken(self, text: str) -> bool:
        assert self.taker is not None
        try:
            return self.taker(text)
        except Exception:  # the app's own error: its receive gets the message, as it would without a taker
            log.exception("taking a message at once failed")
            return False

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
        if not self.messages:
            self.read_again()
        return message

    def read_again(self) -> None:
        if self.read_paused:
            self.read_paused = False
            self.transport.resume_reading()

    def write_text(self, data: bytes) -> bool:
        """A text message (``data``: UTF-8 already) on the socket now as one frame, when the stream is open and its
        buffer has room; else False (``send`` then waits for the room, or says the stream is gone)."""
        if self.state != OPEN or self.close_sent or (self.drained is not None and not self.drained.done()):
            return False
        self.transport.write(frame(TEXT, data))
        return True

    async def send(self, message: Message) -> None:
        if self.drained is not None and not self.drained.done():
            await self.drained
        kind = message["type"]
        if self.state == OPEN and not self.close_sent:
            if kind == "websocket.send":
                data, text = message.get("bytes"), message.get("text")
                if data is not None:
                    self.transport.write(frame(BINARY, data))
                elif text is not None:
                    self.transport.write(frame(TEXT, text.encode()))
                else:
                    raise RuntimeError("'websocket.send' has neither 'text' nor 'bytes'")
            elif kind == "websocket.close":
                code, reason = message.get("code") or 1000, message.get("reason") or ""
                self.stop_timers()
                self.end(code, reason)
                self.transport.write(close_frame(code, reason))
                self.close_sent = True
                self.read_again()  # the client's close must still be read
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
                self.respond(self.response[0], self.response[1], b"".join(self.response[2]))
        else:
            raise RuntimeError(f"Unexpected ASGI message {kind!r} after the stream was closed or answered")

    def opening(self, message: Message) -> None:
        """The app's answer to the handshake: accept (101), close (403) or its own HTTP response."""
        kind = message["type"]
        if kind == "websocket.accept":
            headers = [*UPGRADE, (b"sec-websocket-accept", self.accept_key), *self.server_state.default_headers]
            headers += [(name.lower(), value) for name, value in message.get("headers") or ()]
            if message.get("subprotocol"):
                headers.append((b"sec-websocket-protocol", message["subprotocol"].encode()))
            self.transport.write(http_head(101, headers))
            self.state = OPEN
            self.schedule_ping()
        elif kind == "websocket.close":
            self.reject(403)
        elif kind == "websocket.http.response.start":
            if not 100 <= message["status"] < 600:
                raise RuntimeError(f"Invalid HTTP status code '{message['status']}' in response.")
            self.response = (message["status"], [(n.lower(), v) for n, v in message.get("headers") or ()], [])
            self.state = RESPONDING
        else:
            raise RuntimeError(f"Expected 'websocket.accept', 'websocket.close' or an HTTP response, got {kind!r}")

    async def run_asgi(self) -> None:
        """The app, once: an exception before it answered the handshake is a 500, after it a close with 1011."""
        try:
            result = await self.app(self.scope, self.receive, self.send)
        except ClientDisconnected:
            pass
        except BaseException:
            log.exception("Exception in ASGI application\n")
            self.reject(500)
            if self.state == OPEN and not self.close_sent:
                self.fail(1011)
        else:
            if self.state in (CONNECTING, RESPONDING):
                log.error("ASGI callable returned without completing handshake.")
                self.reject(500)
            elif result is not None:
                log.error("ASGI callable should return None, but returned a %s.", type(result).__name__)
        if self.state == OPEN and not self.close_sent:  # returned without closing: a normal close
            self.close_sent = True
            self.transport.write(close_frame(1000))
        if self.close_timer is None:
            self.transport.close()

    def schedule_ping(self) -> None:
        if self.ping_interval:
            self.ping_timer = self.loop.call_later(max(0.0, self.ping_interval - self.rtt), self.ping)

    def ping(self) -> None:
        """A ping with a payload of its own; without its pong in ``ws_ping_timeout`` seconds, a close with 1011."""
        self.ping_timer = None
        if self.close_sent or self.transport.is_closing():
            return
        self.ping_payload, self.ping_sent = os.urandom(4), self.loop.time()
        self.transport.write(frame(PING, self.ping_payload))
        if self.ping_timeout is not None:
            self.pong_timer = self.loop.call_later(self.ping_timeout, self.fail, 1011, "keepalive ping timeout")
        else:
            self.schedule_ping()

    def stop_timers(self, close_too: bool = True) -> None:
        for timer in (self.ping_timer, self.pong_timer, self.close_timer if close_too else None):
            if timer is not None:
                timer.cancel()
        self.ping_timer = self.pong_timer = self.ping_payload = None
