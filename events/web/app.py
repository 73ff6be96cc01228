"""The web application of ``cmdraft serve``: the player's page, the desk's page, the room's and the JSON API they use.

``create_app`` builds it over one event of one database, from the routes of its three audiences: a seat's phone
(``phone``), the desk (``desk``) and the public room (``room``), each route declared with who may ask
(``endpoints``: the check runs before the handler, which can't forget it).  It keeps no state of its own beyond
parse caches and the decks being built in browsers (``api_common.Served``): every answer is read from the database
and the drafts' files, which terminals and the desk change too.  Every error is JSON, ``{"error": {"code",
"message"}}`` with a 4xx; nothing a client sends can make a 500 (an unforeseen error is logged and answered in the
same JSON shape).  Pages get a strict Content-Security-Policy: scripts and styles from this server only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from events import timing
from events.night import desk_link
from events.night.base import EventBase
from events.night.opening import open_night
from events.web import desk, guard, phone, room
from events.web.api_common import ApiError, Served, error_response
from events.web.cards_shown import forget_cards
from events.web.endpoints import Endpoint, api_page
from events.web.server import Server
from events.web.settings import DEFAULT, WebSettings
from events.web.stream import internal_error

log = logging.getLogger("cmdraft.serve")
SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "x-frame-options": "DENY",
    "cache-control": "no-store",
}
# Every route, by audience (a seat's phone, the desk, the public room); the pages' own files last (a mount answers every path under it).
ENDPOINTS: list[Endpoint] = sorted(
    [*phone.ENDPOINTS, *desk.ENDPOINTS, *room.ENDPOINTS], key=lambda endpoint: endpoint.files is not None
)


class SecurityHeaders:
    """Every HTTP answer gets the security headers (an ASGI middleware)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http":  # the ASGI connection's kind
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message.get("type") == "http.response.start":
                present = {key.lower() for key, _ in message.get("headers", [])}
                extra = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items() if k.encode() not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


def add_headers(response: Response) -> Response:
    for key, value in SECURITY_HEADERS.items():
        response.headers.setdefault(key, value)
    return response


async def api_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, ApiError)
    return add_headers(error.response())


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    codes = {404: "not-found", 405: "method-not-allowed"}
    return add_headers(error_response(error.status_code, codes.get(error.status_code, "bad-request"), error.detail))


async def unforeseen(request: Request, error: Exception) -> Response:
    log.exception("unforeseen error answering %s %s", request.method, request.url.path)
    return add_headers(internal_error().response())


def create_app(
    db_path: str | Path,
    event_id: int,
    settings: WebSettings = DEFAULT,
    *,
    clock: Callable[[], float] = timing.monotonic,
    wall: Callable[[], float] = timing.now,
    desk_token: str | None = None,
    make_desk_link: bool = True,
) -> Starlette:
    """The app serving ``event_id`` of the database at ``db_path`` by ``settings`` (every limit and address).
    ``clock`` (seconds that only go forward) times the rate limits, ``wall`` (the time of day) is the server's time
    in every state and decides when a pick's time is up; ``desk_token`` becomes the desk's secret (``desk_link``; by
    default the one the database keeps, made on the first start: ``app.state.desk_token`` is it when it was made
    now, else None; ``make_desk_link`` False: none is made here, ``cmdraft serve`` makes it once it listens and
    can print it)."""
    served = Served(open_night(db_path, EventBase), event_id, wall, settings)
    served.check()
    forget_cards()  # a new server looks for card images (downloaded since) anew
    if desk_token is not None:
        desk_link.keep(served.drafting, event_id, desk_token)
    made = desk_token
    if desk_token is None and make_desk_link:
        made = desk_link.ensure(served.drafting, event_id)
    server = Server(served, clock, settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(server.watcher.run()) if settings.watch else None
        server.writer.syncer.start()
        try:
            yield
        finally:
            for running in [task, *server.writer.tasks]:
                if running is not None:
                    running.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await running
            # the writes taken by the syncer synced and called back (each releases its pod's lock)
            await asyncio.get_running_loop().run_in_executor(None, server.writer.syncer.stop, 5.0)
            await asyncio.sleep(0)
            served.close()

    hosts = settings.hosts
    app = Starlette(
        routes=[endpoint.bind(server) for endpoint in ENDPOINTS],
        lifespan=lifespan,
        middleware=[
            *([] if hosts is None else [Middleware(guard.HostCheck, allowed=hosts)]),
            Middleware(SecurityHeaders),
        ],
        exception_handlers={
            ApiError: api_error,
            HTTPException: http_error,
            guard.ClientDisconnect: guard.quiet_disconnect,
            Exception: unforeseen,
        },
    )
    app.state.server = server
    app.state.desk_token = made
    return app


def write_api_page(path: str | Path) -> None:
    """Write docs/api.md's table of the API again from the routes' declarations (``endpoints.api_table``)."""
    page = Path(path)
    page.write_text(api_page(page.read_text(encoding="utf-8"), ENDPOINTS), encoding="utf-8")
