"""The serve benchmark's WebSocket client (RFC 6455), for its phones and for the echo's clients alike: as light as a
client can be, so that the simulated phones take as little as possible of the two cores they share with the server
(at a real table each phone is a device of its own).

A message is one frame each way (the servers measured send no fragments): a text frame sent in one write, masked
with the all-zero key (the RFC asks a client to mask every frame; a zero key leaves the bytes as they are, so
nothing is copied), and each frame received parsed from a buffer as its bytes arrive.  A ping is answered with its
pong, a close ends ``recv`` with ``ConnectionError``.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
from collections import deque

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
TEXT, CLOSE, PING, PONG = 0x1, 0x8, 0x9, 0xA


def frame(opcode: int, payload: bytes) -> bytes:
    """One client frame: FIN, the opcode, the mask bit and the zero key, then the payload unchanged."""
    size = len(payload)
    if size < 126:
        head = bytes((0x80 | opcode, 0x80 | size))
    elif size < 1 << 16:
        head = bytes((0x80 | opcode, 0x80 | 126)) + size.to_bytes(2, "big")
    else:
        head = bytes((0x80 | opcode, 0x80 | 127)) + size.to_bytes(8, "big")
    return head + b"\0\0\0\0" + payload


class LeanSocket(asyncio.Protocol):
    """One connection: ``await LeanSocket.connect(url)``, then ``send`` and ``await recv()`` (a message's bytes)."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.messages: deque[bytes] = deque()
        self.waiter: asyncio.Future[None] | None = None
        self.handshake: asyncio.Future[bytes] | None = None
        self.closed = False

    @classmethod
    async def connect(cls, url: str) -> LeanSocket:
        """Opened at ``ws://HOST:PORT/PATH?QUERY``, its upgrade answered 101 (else ``ConnectionError``)."""
        rest = url.removeprefix("ws://")
        address, _, path = rest.partition("/")
        host, _, port = address.partition(":")
        loop = asyncio.get_running_loop()
        _, socket = await loop.create_connection(cls, host, int(port))
        key = base64.b64encode(os.urandom(16))
        socket.handshake = loop.create_future()
        assert socket.transport is not None
        socket.transport.write(
            f"GET /{path} HTTP/1.1\r\nhost: {address}\r\nupgrade: websocket\r\nconnection: Upgrade\r\n"
            f"sec-websocket-key: {key.decode()}\r\nsec-websocket-version: 13\r\n\r\n".encode()
        )
        head = await socket.handshake
        accept = base64.b64encode(hashlib.sha1(key + GUID).digest())
        if not head.startswith(b"HTTP/1.1 101") or accept not in head:
            socket.transport.close()
            raise ConnectionError(f"the server refused the stream: {head.splitlines()[0].decode(errors='replace')}")
        return socket

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if self.handshake is not None and not self.handshake.done():
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            self.handshake.set_result(bytes(self.buffer[: end + 4]))
            del self.buffer[: end + 4]
        self._frames()

    def _frames(self) -> None:
        buffer, at, woke = self.buffer, 0, False
        while len(buffer) - at >= 2:
            opcode, size = buffer[at] & 0x0F, buffer[at + 1] & 0x7F
            start = at + 2
            if size == 126:
                size, start = int.from_bytes(buffer[start : start + 2], "big"), start + 2
            elif size == 127:
                size, start = int.from_bytes(buffer[start : start + 8], "big"), start + 8
            if len(buffer) < start + size:
                break
            payload = bytes(buffer[start : start + size])
            at = start + size
            if opcode == TEXT:
                self.messages.append(payload)
                woke = True
            elif opcode == PING and self.transport is not None:
                self.transport.write(frame(PONG, payload))
            elif opcode == CLOSE:
                self.closed = woke = True
        del buffer[:at]
        if woke and self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.handshake is not None and not self.handshake.done():
            self.handshake.set_exception(ConnectionError("the server closed the connection"))
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    def send(self, text: str | bytes) -> None:
        assert self.transport is not None
        self.transport.write(frame(TEXT, text.encode() if isinstance(text, str) else text))

    async def recv(self) -> bytes:
        """The next message; ``ConnectionError`` once the stream is closed and every message was read."""
        while not self.messages:
            if self.closed:
                raise ConnectionError("the stream is closed")
            self.waiter = asyncio.get_running_loop().create_future()
            await self.waiter
        return self.messages.popleft()

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(frame(CLOSE, (1000).to_bytes(2, "big")))
            self.transport.close()
