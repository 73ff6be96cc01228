"""The server behind every route: the served event, its live hub, the settings, and the checks of who asks (a seat's
token, the desk's), which the route groups of ``endpoints`` run before any handler."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from events.night import desk_link
from events.web import auth
from events.web.api_common import ApiError, Served, file_signature
from events.web.live import Hub, Watcher
from events.web.pick_writer import PickWriter
from events.web.settings import WebSettings
from sets.userdata import db_option

Signature = tuple[int, int, int] | None


class Server:
    """The served event, its hub, its limits and who asked last; ``seat`` and ``desk`` check a request's token."""

    def __init__(self, served: Served, clock: Callable[[], float], settings: WebSettings) -> None:
        self.served, self.settings = served, settings
        self._desk: tuple[Signature, str | None] | None = None  # (database signature, the desk secret's hash)
        self.seen: dict[int, float] = {}  # player id -> when their browser last asked (wall time)
        self.started = served.wall()  # when this server started: ``seen`` holds only what it heard since
        self.known: OrderedDict[str, None] = OrderedDict()  # seat tokens that stood for a seat here
        self.hub = Hub(served)
        self.watcher = Watcher(served, self.hub, settings.poll)
        self.writer = PickWriter(served, self.hub, self.watcher)
        self.limits = auth.Limits(clock, settings.rate, settings.burst, settings.max_clients)
        # joins of one seat from one address of the network (``auth.join_key``): each binds the seat anew (the
        # database, the draft's file, the history), so a phone joining its own seat over and over can't make every
        # write of the night slower, and the phones of a room behind one router's address each join at once
        self.joins = auth.Limits(
            clock, settings.join_rate, settings.join_burst, settings.max_clients, "too many joins from this address"
        )
        # a seat's changes written to the database (a registration, a report, the tracker), whatever its token
        self.writes = auth.Limits(
            clock, settings.write_rate, settings.write_burst, settings.max_clients, "too many changes from this seat"
        )

    # --- a seat -------------------------------------------------------------------------------------------------

    async def seat(self, request: Request, *, changing: bool = False) -> tuple[int, str]:
        """The player a request's seat token stands for, and the token (401 without one that holds a seat; 403 for a
        cookie's change from another page)."""
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
        while len(self.known) > self.settings.max_clients:
            self.known.popitem(last=False)

    async def holder(self, token: str | None, mark: Signature = None) -> int:
        """The player the token stands for now (401 once the binding ended: a new code, a seat taken elsewhere);
        ``mark``: the database's signature the caller just took (``Served.database_mark``)."""
        player = self.served.cached_holder(token, mark) if token else None
        if player is None:
            player = await self.served.run(auth.seat_holder, self.served, token)
        if token:
            self.knows(token)
        return player

    def seat_cookie(self, response: Response, token: str) -> None:
        """The seat's token as a cookie, and beside it for as long the mark the page reads (``HOLDS_SEAT_COOKIE``)."""
        self._cookie(response, auth.SEAT_COOKIE, token, self.settings.seat_cookie_age)
        self.holds_seat_mark(response)

    def holds_seat_mark(self, response: Response) -> None:
        """The mark the page reads (``HOLDS_SEAT_COOKIE``): set beside a seat's token, and on the player's page for a
        browser that brings a token without it (one that joined before the mark was set: it is asked as before)."""
        self._cookie(response, auth.HOLDS_SEAT_COOKIE, "1", self.settings.seat_cookie_age, secret=False)

    def _cookie(self, response: Response, name: str, token: str, age: int, secret: bool = True) -> None:
        """A token's cookie: script can't read it (a ``secret``), sent only from this server's own pages, over
        HTTPS when set."""
        response.set_cookie(
            name, token, httponly=secret, samesite="strict", secure=self.settings.secure_cookies, path="/", max_age=age
        )

    # --- the desk -----------------------------------------------------------------------------------------------

    def desk(self, request: Request, *, changing: bool = False) -> None:
        """A request is the desk's (401 ``not-desk`` else; 403 for a cookie's change from another page)."""
        self.limits.request("desk " + auth.client_address(request))
        if not self.is_desk(auth.desk_given(request)):
            raise ApiError(
                401,
                "not-desk",
                "the desk's link is needed: the one 'cmdraft serve' printed, or a new one from "
                f"'cmdraft serve {self.served.event_id}{db_option(self.served.night.path)} --new-desk-link'",
            )
        if changing and not auth.bearer(request):
            auth.same_origin(request)

    def is_desk(self, given: str | None) -> bool:
        """Whether ``given`` is the desk's secret as the database keeps it now (read again when the file changed:
        a new desk link made elsewhere ends this one at once)."""
        signature = file_signature(self.served.night.path)
        if self._desk is None or self._desk[0] != signature or signature is None:
            self._desk = (signature, desk_link.stored_hash(self.served.drafting, self.served.event_id))
        return desk_link.is_desk(self._desk[1], given)

    def desk_cookie(self, response: Response, token: str) -> None:
        self._cookie(response, auth.DESK_COOKIE, token, self.settings.desk_cookie_age)
