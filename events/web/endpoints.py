"""Every route of ``cmdraft serve`` declared with who may ask, once per group: an ``Endpoint`` is made only by a group
helper of this module, which wraps its handler in that audience's check, so a handler can't forget it.

- ``page``: anyone, nothing asked (the pages, their files, card images, the room's QR code);
- ``public``: anyone, counted against the address's rate limit (standings, the room display, published decklists);
- ``door``: anyone, counted against the address's limit, proving who they are by what they send (a seat code, the
  desk's link): the handler gets no seat and no desk until that proof holds;
- ``seat``: a seat's token (cookie or bearer; a cookie's change must come from this server's page): the handler is
  given the player the token stands for now (``Seat``), never a token it must check itself;
- ``desk``: the desk's token (bearer or cookie; the same origin rule): the handler is given a ``Desk``.

A body type given to a helper is decoded at the edge (``bodies.read_body``) after the check and handed to the
handler typed.  ``api_table`` writes docs/api.md's table from these declarations.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from msgspec import Struct
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from events.web import auth
from events.web.api_common import ApiError
from events.web.bodies import Body, body_shape, read_body, read_json

if TYPE_CHECKING:
    from events.web.server import Server

B = TypeVar("B", bound=Body)
D = TypeVar("D", bound=Struct)  # a body a decoder of its own reads


class Audience(StrEnum):
    PAGE = "page"
    PUBLIC = "public"
    DOOR = "door"
    SEAT = "seat"
    DESK = "desk"


WHO = {
    Audience.PAGE: "anyone",
    Audience.PUBLIC: "anyone (rate-limited)",
    Audience.DOOR: "anyone, with a code or link",
    Audience.SEAT: "seat token",
    Audience.DESK: "desk token",
}


@dataclass(frozen=True)
class Seat:
    """A request from a seat's page or script, its token checked: the player it stands for now."""

    server: Server
    request: Request
    player: int
    token: str


@dataclass(frozen=True)
class Desk:
    """A request from the desk, its token checked."""

    server: Server
    request: Request


@dataclass(frozen=True)
class SeatSocket:
    """A seat's stream, opened with a token that holds the seat (the stream is accepted by the handler)."""

    server: Server
    socket: WebSocket
    player: int
    token: str


Call = Callable[["Server", Request], Awaitable[Response]]


@dataclass(frozen=True)
class Endpoint:
    """One route: its method and path, who may ask, the body it takes, what it answers (as docs/api.md says), and the
    handler already wrapped in its audience's check (``call``; ``stream`` for a web socket)."""

    method: str
    path: str
    audience: Audience
    answer: str
    body: str = ""  # the body's shape, written from its type (``bodies.body_shape``)
    query: str = ""
    call: Call | None = None
    stream: Callable[[Server, WebSocket], Awaitable[None]] | None = None
    files: Path | None = None
    documented: bool = True

    def bind(self, server: Server) -> BaseRoute:
        """The Starlette route serving this endpoint over ``server``."""
        if self.files is not None:
            return Mount(self.path, StaticFiles(directory=self.files, check_dir=False))
        if self.stream is not None:
            stream = self.stream

            async def socket_endpoint(socket: WebSocket) -> None:
                await stream(server, socket)

            return WebSocketRoute(self.path, socket_endpoint)
        call = self.call
        assert call is not None

        async def endpoint(request: Request) -> Response:
            return await call(server, request)

        return Route(self.path, endpoint, methods=[self.method])


# --- the groups -----------------------------------------------------------------------------------------------------


def page(path: str, handler: Callable[[Server, Request], Awaitable[Response]], answer: str = "") -> Endpoint:
    """A page or a file anyone may ask for."""
    return Endpoint("GET", path, Audience.PAGE, answer, call=handler, documented=bool(answer))


def files(path: str, folder: Path) -> Endpoint:
    """The pages' own files (scripts, styles), anyone's."""
    return Endpoint("GET", path, Audience.PAGE, "", files=folder, documented=False)


def public(path: str, handler: Callable[[Server, Request], Awaitable[Response]], answer: str) -> Endpoint:
    """Public data: anyone, counted against the address's limit."""

    async def call(server: Server, request: Request) -> Response:
        server.limits.request("public:" + auth.client_address(request))
        return await handler(server, request)

    return Endpoint("GET", path, Audience.PUBLIC, answer, call=call)


def door(
    path: str, body: type[B], handler: Callable[[Server, Request, B], Awaitable[Response]], answer: str
) -> Endpoint:
    """Joining with a code: anyone, counted against the address's limit; the handler proves who it is."""

    async def call(server: Server, request: Request) -> Response:
        server.limits.request("address " + auth.client_address(request))
        if request.cookies.get(auth.SEAT_COOKIE):
            auth.same_origin(request)
        return await handler(server, request, await read_body(request, body, server.settings.max_body))

    return Endpoint("POST", path, Audience.DOOR, answer, body=body_shape(body), call=call)


def seat_get(path: str, handler: Callable[[Seat], Awaitable[Response]], answer: str, query: str = "") -> Endpoint:
    """What a seat reads: its token checked, the handler given the seat."""

    async def call(server: Server, request: Request) -> Response:
        player, token = await server.seat(request)
        return await handler(Seat(server, request, player, token))

    return Endpoint("GET", path, Audience.SEAT, answer, query=query, call=call)


def seat_post(path: str, body: type[B], handler: Callable[[Seat, B], Awaitable[Response]], answer: str) -> Endpoint:
    """What a seat changes: its token checked (a cookie's request from this server's page only), then its body."""

    async def call(server: Server, request: Request) -> Response:
        player, token = await server.seat(request, changing=True)
        taken = await read_body(request, body, server.settings.max_body)
        return await handler(Seat(server, request, player, token), taken)

    return Endpoint("POST", path, Audience.SEAT, answer, body=body_shape(body), call=call)


def seat_post_decoded(
    path: str, decode: Callable[[object], D], shown: str, handler: Callable[[Seat, D], Awaitable[Response]], answer: str
) -> Endpoint:
    """``seat_post`` for a body that ``decode`` reads from the JSON (its shape as ``shown``, written from its types)."""

    async def call(server: Server, request: Request) -> Response:
        player, token = await server.seat(request, changing=True)
        taken = decode(await read_json(request, server.settings.max_body))
        return await handler(Seat(server, request, player, token), taken)

    return Endpoint("POST", path, Audience.SEAT, answer, body=shown, call=call)


def seat_stream(path: str, handler: Callable[[SeatSocket], Awaitable[None]], answer: str, body: type[Body]) -> Endpoint:
    """A seat's stream: a token that holds the seat (a cookie's from this server's page), else closed with 4401
    (no seat) or 4403 (another page) before it is accepted."""

    async def stream(server: Server, socket: WebSocket) -> None:
        token, by_cookie = auth.seat_token(socket)
        try:
            if by_cookie:
                auth.same_origin(socket)
            server.count(socket, token)
            player = await server.served.run(auth.seat_holder, server.served, token)
            server.knows(token or "")
        except ApiError as error:
            await socket.close(code=4401 if error.status == 401 else 4403, reason=error.message[:120])
            return
        await handler(SeatSocket(server, socket, player, token or ""))

    return Endpoint("WS", path, Audience.SEAT, answer, body=body_shape(body), stream=stream)


def desk_get(path: str, handler: Callable[[Desk], Awaitable[Response]], answer: str) -> Endpoint:
    """What the desk reads: its token checked."""

    async def call(server: Server, request: Request) -> Response:
        server.desk(request)
        return await handler(Desk(server, request))

    return Endpoint("GET", path, Audience.DESK, answer, call=call)


def desk_post(path: str, body: type[B], handler: Callable[[Desk, B], Awaitable[Response]], answer: str) -> Endpoint:
    """What the desk changes: its token checked (a cookie's request from this server's page only), then its body."""

    async def call(server: Server, request: Request) -> Response:
        server.desk(request, changing=True)
        return await handler(Desk(server, request), await read_body(request, body, server.settings.max_body))

    return Endpoint("POST", path, Audience.DESK, answer, body=body_shape(body), call=call)


def desk_door(path: str, handler: Callable[[Server, Request], Awaitable[Response]]) -> Endpoint:
    """The desk's page: anyone gets it; a desk link (``?token=``) is checked, counted against the address's limit,
    and traded for the desk's cookie."""
    return Endpoint("GET", path, Audience.DOOR, "", call=handler, documented=False)


# --- the API page ---------------------------------------------------------------------------------------------------


def api_table(endpoints: Sequence[Endpoint]) -> str:
    """docs/api.md's table of the API, written from the declarations (a test fails when the page drifts)."""
    rows = ["| request | who | body | answer |", "|---|---|---|---|"]
    for endpoint in endpoints:
        if not endpoint.documented:
            continue
        body = f"`{endpoint.body}`" if endpoint.body else ""
        request = f"`{endpoint.method} {endpoint.path}{endpoint.query}`"
        rows.append(f"| {request} | {WHO[endpoint.audience]} | {body} | {endpoint.answer} |")
    return "\n".join(rows) + "\n"


TABLE_START, TABLE_END = "<!-- api-table: generated by events/web/endpoints.py -->", "<!-- end of api-table -->"


def with_table(page_text: str, table: str) -> str:
    """The API page with its generated table (between the two markers) replaced by ``table``."""
    head, _, rest = page_text.partition(TABLE_START)
    _, _, tail = rest.partition(TABLE_END)
    return f"{head}{TABLE_START}\n\n{table}\n{TABLE_END}{tail}"
