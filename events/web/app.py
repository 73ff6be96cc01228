"""The web application of ``cmdraft serve``: the player's page, the desk's page and the JSON API they use.

``create_app`` builds it over one event of one database; it keeps no state of its own beyond parse caches
and the decks being built in browsers (``api_common.Served``): every answer is read from the database and the
drafts' files, which terminals and the desk change too.  Every error is JSON, ``{"error": {"code", "message"}}``
with a 4xx; nothing a client sends can make a 500 (an unforeseen error is logged and answered in the same
JSON shape).  Pages get a strict Content-Security-Policy: scripts and styles from this server only.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from events import timing
from events.night import Store, desk_link
from events.web import api_deck, api_desk, api_night, auth, guard
from events.web.api_common import ApiError, Json, Served, checked, error_response, file_signature, read_json
from events.web.api_draft import answer, claim_if_free, forget_cards, prepare_pick, seat_state
from events.web.live import Connection, Hub, PickWriter, Watcher
from sets.images import FILE_NAME, images_dir
from sets.importers import valid_set_code

STATIC = Path(__file__).with_name("static")
PICK_FIELDS: dict[str, type] = {"pack": int, "pick": int, "cards": list}
log = logging.getLogger("cmdraft.serve")
IMAGE_CACHE = "public, max-age=604800"  # a card's image doesn't change: a week in the browser's cache
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


class Server:
    """The handlers, over the served event, its live hub and the limits."""

    def __init__(self, served: Served, clock: Callable[[], float], secure_cookies: bool) -> None:
        self.served, self.secure = served, secure_cookies
        self._desk: tuple[Any, str | None] | None = None  # (database signature, the desk secret's hash)
        self.seen: dict[int, float] = {}  # player id -> when their browser last asked (wall time)
        self.known: OrderedDict[str, None] = OrderedDict()  # seat tokens that stood for a seat here
        self.hub = Hub(served)
        self.watcher = Watcher(served, self.hub)
        self.writer = PickWriter(served, self.hub, self.watcher)
        self.limits = auth.Limits(clock)

    # --- who asks -------------------------------------------------------------------------------------------

    async def seat(self, request: Request, *, changing: bool = False) -> tuple[int, str]:
        token, by_cookie = auth.seat_token(request)
        self.count(request, token)
        if changing and by_cookie:
            auth.same_origin(request)
        player = await self.holder(token)
        self.seen[player] = self.served.wall()
        return player, token or ""

    def count(self, conn: HTTPConnection, token: str | None) -> None:
        """A request toward its client's limit: the seat token's when the server knows it, else the address's (a
        forged or stale token gets no bucket of its own)."""
        known = token is not None and token in self.known
        self.limits.request("seat " + token if known and token else "address " + auth.client_address(conn))

    def knows(self, token: str) -> None:
        """A token that stood for a seat here: its requests count on its own limit from now (the newest kept)."""
        self.known[token] = None
        self.known.move_to_end(token)
        while len(self.known) > auth.MAX_CLIENTS:
            self.known.popitem(last=False)

    async def holder(self, token: str | None) -> int:
        """The player the token stands for now (401 once the binding ended: a new code, a seat taken elsewhere)."""
        player = self.served.cached_holder(token) if token else None
        if player is None:
            player = await self.served.run(auth.seat_holder, self.served, token)
        if token:
            self.knows(token)
        return player

    def desk(self, request: Request, *, changing: bool = False) -> None:
        self.limits.request("desk " + auth.client_address(request))
        if not self.is_desk(auth.desk_given(request)):
            raise ApiError(
                401,
                "not-desk",
                "the desk's link is needed: the one 'cmdraft serve' printed, or a new one from "
                "'cmdraft serve ID --new-desk-link'",
            )
        if changing and not auth.bearer(request):
            auth.same_origin(request)

    def is_desk(self, given: str | None) -> bool:
        """Whether ``given`` is the desk's secret as the database keeps it now (read again when the file changed:
        a new desk link made elsewhere ends this one at once)."""
        signature = file_signature(self.served.store.path)
        if self._desk is None or self._desk[0] != signature or signature is None:
            self._desk = (signature, desk_link.stored_hash(self.served.drafting, self.served.event_id))
        return desk_link.is_desk(self._desk[1], given)

    def desk_cookie(self, response: Response, token: str) -> None:
        response.set_cookie(
            auth.DESK_COOKIE, token, httponly=True, samesite="strict", secure=self.secure, path="/", max_age=86_400 * 7
        )

    # --- pages ----------------------------------------------------------------------------------------------

    async def page(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def desk_page(self, request: Request) -> Response:
        token = request.query_params.get("token")
        if token is not None:
            self.limits.request("desk " + auth.client_address(request))
            if not self.is_desk(token):
                raise ApiError(401, "not-desk", "that desk link is not (or no longer) the desk's: use the newest one")
            response = RedirectResponse("/desk", status_code=303)  # the token leaves the address bar
            self.desk_cookie(response, token)
            return response
        page = STATIC / "desk.html"
        return FileResponse(page if page.exists() else STATIC / "index.html", media_type="text/html")

    async def image(self, request: Request) -> Response:
        """A card image kept by ``cmdraft sets download CODE --images``: only a file its set's index names."""
        code, name = request.path_params["code"], request.path_params["name"]
        if not valid_set_code(code) or not FILE_NAME.match(name):
            raise ApiError(404, "not-found", "no such image")
        path = images_dir(code) / name
        try:
            with open(path, "rb") as file:
                head = file.read(8)
        except OSError:
            raise ApiError(404, "not-found", "no such image") from None
        media = "image/png" if head.startswith(b"\x89PNG") else "image/jpeg"
        return FileResponse(path, media_type=media, headers={"cache-control": IMAGE_CACHE})

    # --- the seat -------------------------------------------------------------------------------------------

    async def join(self, request: Request) -> Response:
        address = auth.client_address(request)
        self.limits.request("address " + address)
        if request.cookies.get(auth.SEAT_COOKIE):
            auth.same_origin(request)
        body = await read_json(request, {"event": int, "player": (int, str), "code": str}, ("event", "player", "code"))
        token, player = await self.served.run(auth.join, self.served, body, address)
        self.knows(token)
        state = await self.served.run(seat_state, self.served, player)
        response = Json({"token": token, "seat": state})
        response.set_cookie(
            auth.SEAT_COOKIE, token, httponly=True, samesite="strict", secure=self.secure, path="/", max_age=86_400 * 3
        )
        await self.hub.push([player])
        return response

    async def get_seat(self, request: Request) -> Response:
        player, token = await self.seat(request)
        return Json(await self.served.run(self._claimed_state, player, token))

    def _claimed_state(self, player: int, token: str) -> dict[str, Any]:
        claim_if_free(self.served, player, token)  # a draft that started after the browser joined
        return seat_state(self.served, player)

    async def pick(self, request: Request) -> Response:
        player, token = await self.seat(request, changing=True)
        body = await read_json(request, PICK_FIELDS, ("pack", "pick", "cards"))
        return Json(await self.picked(player, token, body))

    async def picked(self, player: int, token: str, body: dict[str, Any], connection: Connection | None = None):
        """A pick written with the others arriving at its pod (the pod's browsers pushed) and the seat's new
        state; ``connection``: the stream it came over, which the answer reaches (so it isn't pushed there too)."""
        snap = self.served.fresh_snapshot()  # most picks: placed at once, with no trip to a worker thread
        waiting = None if snap is None else prepare_pick(self.served, player, token, body, snap)
        if waiting is None:
            waiting = await self.served.run(prepare_pick, self.served, player, token, body)
        waiting.connection = connection
        await self.writer.submit(waiting)
        return answer(self.served, waiting)  # the state worked out with the write

    async def stream(self, socket: WebSocket) -> None:
        token, by_cookie = auth.seat_token(socket)
        try:
            if by_cookie:
                auth.same_origin(socket)
            self.count(socket, token)
            player = await self.served.run(auth.seat_holder, self.served, token)
            self.knows(token or "")
        except ApiError as error:
            await socket.close(code=4401 if error.status == 401 else 4403, reason=error.message[:120])
            return
        await socket.accept()
        connection = Connection(socket, player, token or "")
        self.hub.add(connection)
        sender = asyncio.create_task(connection.sender())
        try:
            await self.hub.push([player])
            while True:
                received = await socket.receive()
                if received["type"] == "websocket.disconnect":
                    break
                text = received.get("text")
                if text is None:  # a binary frame
                    await connection.send({"type": "error", "error": {"code": "bad-message", "message": "send text"}})
                    continue
                await connection.send(await self.message(text, token or "", connection))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            self.seen[player] = self.served.wall()  # the desk sees when the page went away
            self.hub.remove(connection)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender

    async def message(self, text: str, token: str, connection: Connection) -> dict[str, Any]:
        """The answer to one message a browser sent on its stream: ``ping`` (the server's time), or ``pick``
        (the pick as ``POST /api/pick`` takes it, checked and written the same way, answered ``picked`` with
        the seat's new state, or ``refused`` with the error and, when the pack moved on, the new state).  The
        stream's own origin was checked when it opened; every message counts toward the token's rate limit,
        and a pick is taken only while the token still holds the seat."""
        if len(text) > 1024:
            return {"type": "error", "error": {"code": "too-large", "message": "a message is at most 1 KiB"}}
        try:
            data = json.loads(text)
            kind = data.get("type") if isinstance(data, dict) else None
        except (ValueError, RecursionError):
            kind = None
        ask = data.get("id") if kind == "pick" else None
        ask = ask if isinstance(ask, int) and not isinstance(ask, bool) else None
        try:
            self.limits.request("seat " + token)
        except ApiError as error:
            return reply("refused" if kind == "pick" else "error", ask, error)
        if kind == "ping":
            return {"type": "pong", "server_time": self.served.wall()}
        if kind != "pick":
            return {"type": "error", "error": {"code": "bad-message", "message": 'send a "ping" or a "pick"'}}
        try:
            body = checked(data, {"type": str, "id": int, **PICK_FIELDS}, ("pack", "pick", "cards"))
            player = await self.holder(token)
            state = await self.picked(player, token, {k: body[k] for k in PICK_FIELDS}, connection)
        except ApiError as error:
            return reply("refused", ask, error)
        except Exception:  # as POST /api/pick answers it: said in one line, and in the server's log
            log.exception("unforeseen error taking a pick over the stream")
            return reply("refused", ask, internal_error())
        return {"type": "picked", "id": ask, "seat": state}


def reply(kind: str, ask: int | None, error: ApiError) -> dict[str, Any]:
    """A refusal on the stream: the error as ``POST /api/pick`` answers it, with its status and the pick's id."""
    return {"type": kind, "id": ask, "status": error.status, **error.body()}


def internal_error() -> ApiError:
    return ApiError(500, "internal", "something went wrong here; it is in the server's log")


class SecurityHeaders:
    """Every HTTP answer gets the security headers (an ASGI middleware)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                present = {key.lower() for key, _ in message.get("headers", [])}
                extra = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items() if k.encode() not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


def add_headers(response: Response) -> Response:
    for key, value in SECURITY_HEADERS.items():
        response.headers.setdefault(key, value)
    return response


def create_app(
    db_path: str | Path,
    event_id: int,
    *,
    clock: Callable[[], float] = timing.monotonic,
    wall: Callable[[], float] = timing.now,
    desk_token: str | None = None,
    secure_cookies: bool = False,
    watch: bool = True,
    hosts: Sequence[str] | None = None,
) -> Starlette:
    """The app serving ``event_id`` of the database at ``db_path``.  ``clock`` (seconds that only go forward) times
    the rate limits, ``wall`` (the time of day) is the server's time in every state and decides when a pick's
    time is up; ``desk_token`` becomes the desk's secret (``desk_link``; by default the one the database keeps, made
    on the first start: ``app.state.desk_token`` is it when it was made now, else None);
    ``watch``: run the background task that pushes changes and applies timeouts; ``hosts``: the only names a
    request's ``Host`` may give (``guard.HostCheck``; any when None, as in-process tests send their own)."""
    served = Served(Store(db_path), event_id, wall)
    served.check()
    forget_cards()  # a new server looks for card images (downloaded since) anew
    if desk_token is not None:
        desk_link.keep(served.drafting, event_id, desk_token)
    made = desk_token if desk_token is not None else desk_link.ensure(served.drafting, event_id)
    server = Server(served, clock, secure_cookies)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        task = asyncio.create_task(server.watcher.run()) if watch else None
        try:
            yield
        finally:
            for running in [task, *server.writer.tasks]:
                if running is not None:
                    running.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await running
            served.close()

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

    routes = [
        Route("/", server.page),
        Route("/join", server.page),
        Route("/desk", server.desk_page),
        Route("/images/{code}/{name}", server.image),
        Route("/api/join", server.join, methods=["POST"]),
        Route("/api/seat", server.get_seat),
        Route("/api/pick", server.pick, methods=["POST"]),
        WebSocketRoute("/api/stream", server.stream),
        *api_deck.routes(server),
        *api_desk.routes(server),
        *api_night.routes(server),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False)),
    ]
    app = Starlette(
        routes=routes,
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
