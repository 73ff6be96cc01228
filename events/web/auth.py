"""Who is asking: joining a seat with its code, the seat's token (an HttpOnly cookie for the page, a bearer token
for scripts), the desk's token, the same-origin check on state changes, and the per-client rate limits.

A wrong code is refused at once (the server never sleeps on it): guessing is held back where it comes from, by
the core's rule for every face (``seat_codes.check_code``: the client's address waits longer after each wrong code),
never by locking the seat, so a stranger guessing shuts nobody out.  A request without a token the server already
knows counts against the client's address (forged tokens share their sender's limit), and the table of limits
is bounded by forgetting the clients that are least held back, never by starting everyone over.
"""

from __future__ import annotations

import functools
import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket

from events.night import browser_seats, history, joining
from events.night.joining import NotHere
from events.night.refusals import WrongCode
from events.night.seat_codes import check_code
from events.sessions.seat import SEAT_LOST
from events.web.api_common import ApiError, Served, core_error, file_signature, web_words
from events.web.bodies import JoinBody
from events.web.settings import DEFAULT
from events.web.settings import from_elsewhere as elsewhere
from sets.errors import InputError
from sets.names import name_key

SEAT_COOKIE, DESK_COOKIE = "cmdraft_seat", "cmdraft_desk"
# Beside the seat's token, a mark script may read, holding no secret: a page that never joined asks nothing of a
# seat (a fresh phone logs no 401), one that holds a seat asks for it at once (page.js ``holdsSeat``).
HOLDS_SEAT_COOKIE = "cmdraft_holds_seat"


@dataclass
class Bucket:
    """A token bucket: ``rate`` a second, at most ``burst`` at once."""

    rate: float
    burst: float
    level: float = -1.0
    at: float = 0.0

    def take(self, now: float) -> float:
        """0 when allowed now; else the seconds to wait."""
        if self.level < 0:
            self.level, self.at = self.burst, now
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level >= 1:
            self.level -= 1
            return 0.0
        return (1 - self.level) / self.rate


@dataclass
class Limits:
    """Per-client request limits: per seat token the server knows, else per address (``rate`` a second, bursts
    of ``burst``).  At most ``max_clients`` are kept (``make_room``: past it, those least held back are forgotten
    first); the figures are ``WebSettings``'."""

    clock: Callable[[], float]
    rate: float = DEFAULT.rate
    burst: float = DEFAULT.burst
    max_clients: int = DEFAULT.max_clients
    refusal: str = "too many requests"  # what the 429 says was too many
    requests: OrderedDict[str, Bucket] = field(default_factory=OrderedDict)

    def request(self, client: str) -> None:
        table = self.requests
        bucket = table.get(client)
        if bucket is None:
            if len(table) >= self.max_clients:
                self.make_room()
            bucket = table[client] = Bucket(self.rate, self.burst)
        else:
            table.move_to_end(client)
        wait = bucket.take(self.clock())
        if wait:
            raise ApiError(
                429, "slow-down", f"{self.refusal}: try again in {math.ceil(wait)} s", retry_after=math.ceil(wait)
            )

    def make_room(self) -> None:
        """Forget a tenth of the clients: every one whose bucket has filled up again (as a new client's), then the
        fullest; a client being held back (an empty bucket) is forgotten last."""
        now = self.clock()
        levels = sorted(
            (
                (min(b.burst, b.level + (now - b.at) * b.rate) if b.level >= 0 else b.burst, key)
                for key, b in self.requests.items()
            ),
            reverse=True,
        )
        room = max(1, len(levels) // 10)
        for level, key in levels:
            if room <= 0 and level < self.burst:
                break
            del self.requests[key]
            room -= 1


def client_address(conn: HTTPConnection) -> str:
    return conn.client.host if conn.client else "unknown"


def from_elsewhere(conn: HTTPConnection) -> bool:
    """Whether a request comes from another machine: not from this one's loopback, nor from the address it was
    sent to (the desk's own machine asking at the address ``serve`` printed; ``HostCheck`` allows no other)."""
    return elsewhere(client_address(conn), conn.url.hostname)


def join_key(conn: HTTPConnection, body: JoinBody, longest: int = DEFAULT.max_name) -> str | None:
    """What a join counts against (``Server.joins``): its address and the seat it names, its number or its name
    as the core matches names (so the phones of a room behind one router's address each join their own seat at
    once, and one phone joining its seat over and over is held back however it types the name); a name over
    ``longest`` characters (refused as no name) counts as one seat, so the keys kept stay short; None for this
    machine's own (the desk's), which joins as often as it likes."""
    if not from_elsewhere(conn):
        return None
    who = body.player
    text = " ".join(who.split()) if isinstance(who, str) else f"#{who}"
    if text.isascii() and text.isdigit():  # digits typed at the join form are the player's number
        text = f"#{text}"
    number = text[1:].strip()
    if isinstance(who, str) and len(who) > longest:
        seat = "(a name too long)"
    elif text.startswith("#") and number.isascii() and number.isdigit() and len(number) < 20:
        seat = f"#{int(number)}"
    else:
        seat = name_key(text)
    return f"{client_address(conn)} {seat}"


def bearer(conn: HTTPConnection) -> str | None:
    value = conn.headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def seat_token(conn: HTTPConnection) -> tuple[str | None, bool]:
    """The seat token sent, and whether it came in the cookie (a page, so the origin is checked)."""
    token = bearer(conn)
    if token:
        return token, False
    cookie = conn.cookies.get(SEAT_COOKIE)
    if cookie:
        return cookie, True
    query = conn.query_params.get("token") if isinstance(conn, WebSocket) else None
    return query or None, False


def same_origin(conn: HTTPConnection) -> None:
    """A request carrying a cookie must come from a page of this server (Origin, else Referer, names this host)."""
    host = conn.headers.get("host", "")
    source = conn.headers.get("origin") or conn.headers.get("referer")
    if not source or source == "null" or urlsplit(source).netloc != host:
        raise ApiError(403, "cross-origin", "refused: the request did not come from this server's page")


def seat_holder(served: Served, token: str | None) -> int:
    """The player a seat token stands for (in the core thread)."""
    if not token or len(token) > served.settings.max_token:
        raise ApiError(401, "no-seat", "join with your seat code first")
    signature = file_signature(served.night.path)
    player = browser_seats.holder(served.drafting, served.event_id, token)
    if player is not None:
        if len(served.holders) > served.settings.max_clients:  # the tokens known, bounded as the limits are
            served.holders.clear()
        served.holders[token] = (signature, player)  # as the database was before it was read
    if player is None:
        raise ApiError(401, "no-seat", SEAT_LOST[browser_seats.code_reset(served.drafting, served.event_id, token)])
    return player


def desk_given(conn: HTTPConnection) -> str | None:
    """The desk secret a request sends: a bearer token (scripts) or the desk page's cookie."""
    return bearer(conn) or conn.cookies.get(DESK_COOKIE) or None


def join(served: Served, body: JoinBody, address: str) -> tuple[str, int]:
    """Check the code typed at ``address`` and bind the seat to a new token (in the core thread); (token, player
    id).  What was typed is read by the core (``events.night.joining``), in its words: nothing typed or no number
    is 400, another event or a player not in it 404, a player with no seat 409."""
    try:
        joining.served_event(body.event, served.event_id)
    except NotHere as error:
        raise ApiError(404, "no-event", str(error), field=error.about) from None
    who = joining.player_asked(body.player)
    code = joining.code_typed(body.code)
    limits = served.settings
    if len(code) > limits.max_code or len(who) > limits.max_name:
        raise ApiError(
            400,
            "bad-field",
            "the player's name and the code are a few characters long",
            field=joining.PLAYER if len(who) > limits.max_name else joining.CODE,
        )
    try:
        player = joining.player_found(functools.partial(served.drafting.player, served.event_id), who)
    except InputError as error:
        said = web_words(str(error), "check the name on your seating slip")
        raise ApiError(404, "no-player", said, field=error.about) from None
    joining.may_join(player)
    # too many wrong codes from this address: the core's SlowDown, answered 429 with retry_after (the seat takes
    # the right code from anywhere else)
    right = check_code(
        served.drafting,
        served.event_id,
        player.id,
        code,
        delay=0,
        by=history.browser(player.name),
        source=f"address {address}",
    )
    if not right:
        raise core_error(WrongCode())  # the core's words, as the terminal says them
    token = browser_seats.bind(served.drafting, served.event_id, player.id)
    served.holders[token] = (file_signature(served.night.path), player.id)  # known from its first request
    return token, player.id
