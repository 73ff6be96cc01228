"""What ``cmdraft serve`` holds at the door, before a request reaches the app: the names it answers to (``HostCheck``:
a page of another site whose name was pointed at this machine, DNS rebinding, is refused), how many connections
it keeps, from one address and in all, and how long a request may take to arrive, its headers and its body
(``GuardedHttp``: slowloris, one phone holding every connection), and a client that hangs up in the middle of its
request (``quiet_disconnect``: nothing to answer, nothing to log).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterable
from typing import Any

from starlette.requests import ClientDisconnect, HTTPConnection
from starlette.responses import Response
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from events.web.api_common import error_response
from events.web.settings import DEFAULT, WebSettings, from_elsewhere
from events.web.stream_socket import StreamSocket

log = logging.getLogger("cmdraft.serve")


def host_name(header: str) -> str:
    """The name in a ``Host`` header, without its port, in lower case (``[::1]:8000`` -> ``[::1]``)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header.partition("]")[0] + "]"
    return header.rpartition(":")[0] if header.count(":") == 1 else header


class HostCheck:
    """An ASGI middleware: a request whose ``Host`` names none of ``allowed`` (the addresses ``serve`` printed,
    and this machine's loopback names) gets 421 ``wrong-host`` (a stream is closed), before anything is read."""

    def __init__(self, app: Any, allowed: Iterable[str]) -> None:
        self.app = app
        self.allowed = {name.lower() for name in allowed}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        kind = scope.get("type")  # the ASGI connection's kind
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = HTTPConnection(scope).headers.get("host", "")
        if host_name(host) in self.allowed:
            await self.app(scope, receive, send)
            return
        if kind == "websocket":
            await send({"type": "websocket.close", "code": 4421, "reason": "wrong host"})
            return
        message = "this server answers only to the address 'cmdraft serve' printed; open that address"
        await error_response(421, "wrong-host", message)(scope, receive, send)


def loopback_names() -> tuple[str, ...]:
    return ("127.0.0.1", "localhost", "[::1]")


async def quiet_disconnect(request: Any, error: Exception) -> Response:
    """A client hung up before its request's body arrived: nobody is left to answer, and nothing went wrong here."""
    log.debug("client hung up during %s %s", request.method, request.url.path)
    return Response(status_code=400)


def refusal(status: str, code: str, message: str) -> bytes:
    """An answer the door gives before the app is asked (``status``: ``429 Too Many Requests``), in the one error
    shape, with the connection closed after it."""
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    head = (
        f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\nretry-after: 5\r\n\r\n"
    )
    return head.encode() + body


def too_many_from(limit: int) -> bytes:
    """The answer to a connection over its address's limit: 429, then closed."""
    message = (
        f"this address has {limit} connections open to the server already: close other pages of it, "
        "or wait a few seconds, and try again"
    )
    return refusal("429 Too Many Requests", "too-many-connections", message)


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol, with a deadline for each request to arrive, its headers and its body (a connection
    that sends nothing, or trickles its headers or its body, is closed after ``header_timeout`` seconds), a cap on
    open connections (one more is answered 503 and closed at once) and a smaller one for each address (its streams
    too: one more is answered 429 and closed), so one phone can't hold the connections every other phone needs,
    and a bound on a request's head (``max_head`` bytes: more is answered 431 and closed).
    This machine's own connections (loopback, the address it listens on: the desk's) have no cap of their own.
    ``guarded`` makes one with other figures."""

    header_timeout: float = DEFAULT.header_timeout  # seconds a connection has to send a request, head and body
    max_connections: int = DEFAULT.max_connections  # open connections at once; more are answered 503 and closed
    max_per_address: int = DEFAULT.max_per_address  # open connections from one address; more: 429 and closed
    max_head: int = DEFAULT.max_head  # bytes of a request's head (its line and headers); more: 431 and closed

    @classmethod
    def guarded(cls, settings: WebSettings) -> type[GuardedHttp]:
        """The protocol with the door's figures of ``settings``."""
        figures = {
            "header_timeout": settings.header_timeout,
            "max_connections": settings.max_connections,
            "max_per_address": settings.max_per_address,
            "max_head": settings.max_head,
        }
        return type("GuardedHttp", (cls,), figures)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # uvicorn narrows asyncio's BaseTransport to Transport the same way
        self.header_deadline: asyncio.TimerHandle | None = None
        self.in_head, self.head_bytes = True, 0  # a request's head is arriving; its bytes so far
        self.heads_ended = 0  # the requests whose head has ended on this connection
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            transport.write(
                b"HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\nretry-after: 5\r\n\r\n"
            )
            transport.close()
            return
        address = self.client[0] if self.client else None
        if address is not None and self.from_elsewhere(address) and self.held_by(address) > self.max_per_address:
            transport.write(too_many_from(self.max_per_address))
            transport.close()
            return
        self.arm()

    def from_elsewhere(self, address: str) -> bool:
        """Whether a connection comes from another machine (this one's loopback and its own address aside)."""
        return from_elsewhere(address, None if self.server is None else self.server[0])

    def held_by(self, address: str) -> int:
        """The connections open from ``address``, this one and its streams included (every connection of the
        server is in ``connections``, with the ``client`` it came from)."""
        held = 0
        for connection in self.connections:
            client = getattr(connection, "client", None)
            if client and client[0] == address:
                held += 1
        return held

    def arm(self) -> None:
        if self.header_deadline is None:
            self.header_deadline = self.loop.call_later(self.header_timeout, self.too_slow)

    def disarm(self) -> None:
        if self.header_deadline is not None:
            self.header_deadline.cancel()
            self.header_deadline = None

    def too_slow(self) -> None:
        self.header_deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        """The parser reads what came; a head that is still not whole past ``max_head`` bytes is refused (the parser
        would keep a header of any length, growing it piece by piece, for as long as the deadline lets it come).
        A piece in which a head ended holds that request's body too (a whole request often comes in one piece): it
        counts for no head, and the next request's head is counted from the next piece on."""
        counting, heads = self.in_head, self.heads_ended
        super().data_received(data)
        if not (counting and self.in_head) or heads != self.heads_ended or self.transport.is_closing():
            return
        self.head_bytes += len(data)
        if self.head_bytes > self.max_head:
            message = f"the request's headers are over {self.max_head // 1024} KiB"
            self.transport.write(refusal("431 Request Header Fields Too Large", "too-large", message))
            self.transport.close()

    def on_headers_complete(self) -> None:
        self.in_head, self.head_bytes = False, 0
        self.heads_ended += 1
        super().on_headers_complete()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.arm()  # a new request on a kept-alive connection: its headers have the same time

    def on_message_complete(self) -> None:
        self.disarm()  # the whole request arrived, its body too: answering it may take as long as it takes
        self.in_head = True  # what comes next is the next request's head
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self.disarm()  # a stream's opening has no body: the stream's own pings watch it from now
        super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        self.disarm()
        super().connection_lost(exc)


def stream_options(settings: WebSettings) -> dict[str, Any]:
    """uvicorn's options for the streams: their own protocol (``stream_socket``), and the most a message may reach,
    its fragments together, before its stream is closed with 1009 (``max_stream_message``: the server holds no more
    for one client)."""
    return {"ws": StreamSocket, "ws_max_size": settings.max_stream_message}


__all__ = [
    "ClientDisconnect",
    "GuardedHttp",
    "HostCheck",
    "host_name",
    "loopback_names",
    "quiet_disconnect",
    "stream_options",
]
