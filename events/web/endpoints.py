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
handler typed; the type a route answers (``returns``, an ``answers`` type) is what its handler gives back, encoded
at the edge (``Json``; a handler that sets a cookie or sends a file gives its own ``Response``).  ``api_table``
writes docs/api.md's table from these declarations: the body's fields and the answer's.
"""

from __future__ import annotations

import re
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
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

from events.night.games import GameBoard
from events.night.shown import Clock, StandingRow
from events.night.table_shown import DecklistLine, ReportShown, TableState
from events.web import auth
from events.web.answers import Card, DeckState, Failure, SeatState
from events.web.answers import answer_shape as shape_of
from events.web.answers import types_table as types_of
from events.web.api_common import ApiError, Json
from events.web.bodies import Body, body_shape, read_body, read_json
from events.web.desk_answers import DeskSeat
from events.web.settings import DEFAULT, WebSettings

if TYPE_CHECKING:
    from events.web.server import Server

B = TypeVar("B", bound=Body)
D = TypeVar("D", bound=Struct)  # a body a decoder of its own reads
R = TypeVar("R", bound=Struct)  # what a route answers


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
    """A seat's stream, opened with a token that holds the seat (the stream is accepted by the handler): Starlette's
    ``socket`` to accept and close it, and the ASGI ``receive`` and ``send`` under it for its messages (each message
    one call, with no layer of Starlette's between: a room's streams carry thousands a minute)."""

    server: Server
    socket: WebSocket
    player: int
    token: str
    receive: Receive
    send: Send


Call = Callable[["Server", Request], Awaitable[Response]]
Stream = Callable[["Server", WebSocket, Receive, Send], Awaitable[None]]  # a stream's handler: the ASGI calls too

# shown by name in the API page's table, their fields listed under it
NAMED: tuple[type[Struct], ...] = (
    SeatState,
    DeckState,
    TableState,
    GameBoard,
    Card,
    Clock,
    ReportShown,
    StandingRow,
    DeskSeat,
    DecklistLine,
    Failure,
)


def answer_shape(kind: type[Struct]) -> str:
    """An answer type as the API page's table writes it (``answers.answer_shape``, the ``NAMED`` types by name)."""
    return shape_of(kind, NAMED)


def types_table() -> str:
    """The ``NAMED`` answer types with their fields, as the API page lists them under its table."""
    return types_of(NAMED)


def encoded(answer: Struct | Response) -> Response:
    """A handler's answer as the response: its type encoded (``Json``), or the response it made itself."""
    return answer if isinstance(answer, Response) else Json(answer)


@dataclass(frozen=True)
class Endpoint:
    """One route: its method and path, who may ask, the body it takes, what it answers (as docs/api.md says: the
    types it ``returns`` and the words in ``answer``), and the handler already wrapped in its audience's check
    (``call``; ``stream`` for a web socket)."""

    method: str
    path: str
    audience: Audience
    answer: str
    body: str = ""  # the body's shape, written from its type (``bodies.body_shape``)
    query: str = ""
    returns: tuple[type[Struct], ...] = ()  # the answer's types (several: the messages of a stream); none: a file
    call: Call | None = None
    stream: Stream | None = None
    files: Path | None = None
    documented: bool = True

    def bind(self, server: Server) -> BaseRoute:
        """The Starlette route serving this endpoint over ``server``."""
        if self.files is not None:
            return Mount(self.path, StaticFiles(directory=self.files, check_dir=False))
        if self.stream is not None:
            return WebSocketRoute(self.path, SocketApp(server, self.stream))
        call = self.call
        assert call is not None

        async def endpoint(request: Request) -> Response:
            return await call(server, request)

        return Route(self.path, endpoint, methods=[self.method])


class SocketApp:
    """A stream's route as an ASGI app of its own (Starlette gives an app, not a function, the ASGI calls as they
    come): its handler is given Starlette's ``WebSocket`` and the ``receive`` and ``send`` under it."""

    def __init__(self, server: Server, stream: Stream) -> None:
        self.server, self.stream = server, stream

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.stream(self.server, WebSocket(scope, receive, send), receive, send)


# --- the groups -----------------------------------------------------------------------------------------------------


def page(path: str, handler: Callable[[Server, Request], Awaitable[Response]], answer: str = "") -> Endpoint:
    """A page or a file anyone may ask for."""
    return Endpoint("GET", path, Audience.PAGE, answer, call=handler, documented=bool(answer))


def files(path: str, folder: Path) -> Endpoint:
    """The pages' own files (scripts, styles), anyone's."""
    return Endpoint("GET", path, Audience.PAGE, "", files=folder, documented=False)


def public(
    path: str, handler: Callable[[Server, Request], Awaitable[R]], returns: type[R], answer: str = ""
) -> Endpoint:
    """Public data: anyone, counted against the address's limit."""

    async def call(server: Server, request: Request) -> Response:
        server.limits.request("public:" + auth.client_address(request))
        return encoded(await handler(server, request))

    return Endpoint("GET", path, Audience.PUBLIC, answer, call=call, returns=(returns,))


def door(
    path: str,
    body: type[B],
    handler: Callable[[Server, Request, B], Awaitable[R | Response]],
    returns: type[R],
    answer: str = "",
) -> Endpoint:
    """Joining with a code: anyone but a page of another site (a browser names it in ``Origin``: it would type
    codes in the name of the phone that opened it, whose address then waits), counted against the address's limit;
    the handler proves who it is (and counts the join against its own limit: ``auth.join_key``)."""

    async def call(server: Server, request: Request) -> Response:
        if request.cookies.get(auth.SEAT_COOKIE) or "origin" in request.headers:
            auth.same_origin(request)  # before it counts: another site's page spends nothing of the phone's
        server.limits.request("address " + auth.client_address(request))
        return encoded(await handler(server, request, await read_body(request, body, server.settings.max_body)))

    return Endpoint("POST", path, Audience.DOOR, answer, body=body_shape(body), call=call, returns=(returns,))


def seat_get(
    path: str, handler: Callable[[Seat], Awaitable[R]], returns: type[R], answer: str = "", query: str = ""
) -> Endpoint:
    """What a seat reads: its token checked, the handler given the seat."""

    async def call(server: Server, request: Request) -> Response:
        player, token = await server.seat(request)
        return encoded(await handler(Seat(server, request, player, token)))

    return Endpoint("GET", path, Audience.SEAT, answer, query=query, call=call, returns=(returns,))


def seat_file(path: str, handler: Callable[[Seat], Awaitable[Response]], answer: str, query: str = "") -> Endpoint:
    """A seat's own file: its token checked, the handler given the seat, a file (not JSON) in answer."""

    async def call(server: Server, request: Request) -> Response:
        player, token = await server.seat(request)
        return await handler(Seat(server, request, player, token))

    return Endpoint("GET", path, Audience.SEAT, answer, query=query, call=call)


def seat_post(
    path: str,
    body: type[B],
    handler: Callable[[Seat, B], Awaitable[R]],
    returns: type[R],
    answer: str = "",
    *,
    writes: bool = False,
) -> Endpoint:
    """What a seat changes: its token checked (a cookie's request from this server's page only), then its body.
    ``writes``: each request is written to the database (a record, a line of history), so it counts against the
    seat's own limit of changes too (``Server.writes``): a seat can't make the night's database grow without end."""

    async def call(server: Server, request: Request) -> Response:
        player, token = await server.seat(request, changing=True)
        if writes:
            server.writes.request(f"seat {player}")
        taken = await read_body(request, body, server.settings.max_body)
        return encoded(await handler(Seat(server, request, player, token), taken))

    return Endpoint("POST", path, Audience.SEAT, answer, body=body_shape(body), call=call, returns=(returns,))


def seat_post_decoded(
    path: str,
    decode: Callable[[object], D],
    shown: str,
    handler: Callable[[Seat, D], Awaitable[R]],
    returns: type[R],
    answer: str = "",
) -> Endpoint:
    """``seat_post`` for a body that ``decode`` reads from the JSON (its shape as ``shown``, written from its types)."""

    async def call(server: Server, request: Request) -> Response:
        player, token = await server.seat(request, changing=True)
        taken = decode(await read_json(request, server.settings.max_body))
        return encoded(await handler(Seat(server, request, player, token), taken))

    return Endpoint("POST", path, Audience.SEAT, answer, body=shown, call=call, returns=(returns,))


def seat_stream(
    path: str,
    handler: Callable[[SeatSocket], Awaitable[None]],
    answer: str,
    body: type[Body],
    messages: tuple[type[Struct], ...],
) -> Endpoint:
    """A seat's stream: a token that holds the seat (a cookie's from this server's page), else closed with 4401
    (no seat) or 4403 (another page) before it is accepted."""

    async def stream(server: Server, socket: WebSocket, receive: Receive, send: Send) -> None:
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
        await handler(SeatSocket(server, socket, player, token or "", receive, send))

    return Endpoint("WS", path, Audience.SEAT, answer, body=body_shape(body), stream=stream, returns=messages)


def desk_get(path: str, handler: Callable[[Desk], Awaitable[R]], returns: type[R], answer: str = "") -> Endpoint:
    """What the desk reads: its token checked."""

    async def call(server: Server, request: Request) -> Response:
        server.desk(request)
        return encoded(await handler(Desk(server, request)))

    return Endpoint("GET", path, Audience.DESK, answer, call=call, returns=(returns,))


def desk_post(
    path: str,
    body: type[B],
    handler: Callable[[Desk, B], Awaitable[R | Response]],
    returns: type[R],
    answer: str = "",
) -> Endpoint:
    """What the desk changes: its token checked (a cookie's request from this server's page only), then its body."""

    async def call(server: Server, request: Request) -> Response:
        server.desk(request, changing=True)
        taken = await read_body(request, body, server.settings.max_body)
        return encoded(await handler(Desk(server, request), taken))

    return Endpoint("POST", path, Audience.DESK, answer, body=body_shape(body), call=call, returns=(returns,))


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
        rows.append(f"| {request} | {WHO[endpoint.audience]} | {body} | {answer_cell(endpoint)} |")
    return "\n".join(rows) + "\n"


def answer_cell(endpoint: Endpoint) -> str:
    """A route's answer as the table shows it: its types' fields (a type named below by its name), then its words."""
    shapes = " or ".join(f"`{kind.__name__ if kind in NAMED else answer_shape(kind)}`" for kind in endpoint.returns)
    return ": ".join(part for part in (shapes, endpoint.answer) if part)


TABLE_START, TABLE_END = "<!-- api-table: generated by events/web/endpoints.py -->", "<!-- end of api-table -->"
TYPES_START, TYPES_END = "<!-- api-types: generated by events/web/answers.py -->", "<!-- end of api-types -->"


def with_table(page_text: str, table: str, start: str = TABLE_START, end: str = TABLE_END) -> str:
    """The API page with its generated table (between the two markers) replaced by ``table``."""
    head, _, rest = page_text.partition(start)
    _, _, tail = rest.partition(end)
    return f"{head}{start}\n\n{table}\n{end}{tail}"


FIGURE = re.compile(r"<!-- setting: (\w+) -->(.*?)<!-- /setting -->", re.S)


def settings_figures(settings: WebSettings = DEFAULT) -> dict[str, str]:
    """The limits the API page's prose states, by their setting's name, as the page writes them."""
    return {
        "max_body": f"{settings.max_body // 1024} KiB",
        "rate": f"{settings.rate:g} requests a second",
        "burst": f"bursts of {settings.burst:g}",
        "max_clients": f"{settings.max_clients:,}",
        "write_limit": f"{settings.write_burst:g} at once, then one every {1 / settings.write_rate:g} s",
    }


def with_figures(page_text: str, settings: WebSettings = DEFAULT) -> str:
    """The API page with each figure its prose marks (``<!-- setting: NAME -->…<!-- /setting -->``) written
    again from ``settings``; a mark naming no setting is an error."""
    figures = settings_figures(settings)

    def figure(match: re.Match[str]) -> str:
        if match.group(1) not in figures:
            raise KeyError(f"docs/api.md marks a figure of no setting: {match.group(1)}")
        return f"<!-- setting: {match.group(1)} -->{figures[match.group(1)]}<!-- /setting -->"

    return FIGURE.sub(figure, page_text)


def page_figures(page_text: str) -> dict[str, str]:
    """The figures the API page's prose states, by their setting's name, as it writes them now."""
    return {match.group(1): match.group(2) for match in FIGURE.finditer(page_text)}


def api_page(page_text: str, endpoints: Sequence[Endpoint]) -> str:
    """The API page with both generated tables written again (the routes', and the named answer types'), and the
    figures its prose states from the web's settings."""
    tables = with_table(with_table(page_text, api_table(endpoints)), types_table(), TYPES_START, TYPES_END)
    return with_figures(tables)
