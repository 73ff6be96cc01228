"""Who is asking: joining a seat with its code, the seat's token (an HttpOnly cookie for the page, a bearer token
for scripts), the desk's token, the same-origin check on state changes, and the per-client rate limits.

A wrong code is refused at once (the server never sleeps on it): guessing is held back by the seat's lockout
after five wrong codes (the desk resets the code) and by a limit of wrong codes per client address.
"""

from __future__ import annotations

import hmac
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection

from events.night import browser_seats
from events.night.seat_codes import check_code, failures
from events.web.api_common import ApiError, Served, file_signature, web_words
from sets.errors import CmdraftError, InputError

SEAT_COOKIE, DESK_COOKIE = "cmdraft_seat", "cmdraft_desk"
LOCKOUT = 5  # wrong codes in a row for one seat before only the desk can open it again
WRONG_CODES_PER_MINUTE = 10  # per client address, over all seats


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
    """Per-client limits: requests (per token, else per address) and wrong codes (per address)."""

    clock: Callable[[], float]
    rate: float = 20.0
    burst: float = 60.0
    requests: dict[str, Bucket] = field(default_factory=dict)
    wrong: dict[str, Bucket] = field(default_factory=dict)

    def request(self, client: str) -> None:
        self._take(self.requests, client, self.rate, self.burst, "too many requests")

    def before_code(self, address: str) -> None:
        bucket = self.wrong.get(address)
        if bucket is not None and bucket.level >= 0:
            now = self.clock()
            level = min(bucket.burst, bucket.level + (now - bucket.at) * bucket.rate)
            if level < 1:
                wait = math.ceil((1 - level) / bucket.rate)
                raise ApiError(429, "slow-down", f"too many wrong codes from here: try again in {wait} s")

    def wrong_code(self, address: str) -> None:
        bucket = self.wrong.setdefault(address, Bucket(WRONG_CODES_PER_MINUTE / 60, WRONG_CODES_PER_MINUTE))
        bucket.take(self.clock())

    def _take(self, table: dict[str, Bucket], key: str, rate: float, burst: float, what: str) -> None:
        if len(table) > 10_000:
            table.clear()  # a flood of new clients: start over rather than grow without end
        bucket = table.setdefault(key, Bucket(rate, burst))
        wait = bucket.take(self.clock())
        if wait:
            raise ApiError(429, "slow-down", f"{what}: try again in {math.ceil(wait)} s")


def client_address(conn: HTTPConnection) -> str:
    return conn.client.host if conn.client else "unknown"


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
    query = conn.query_params.get("token") if conn.scope["type"] == "websocket" else None
    return query or None, False


def same_origin(conn: HTTPConnection) -> None:
    """A request carrying a cookie must come from a page of this server (Origin, else Referer, names this host)."""
    host = conn.headers.get("host", "")
    source = conn.headers.get("origin") or conn.headers.get("referer")
    if not source or source == "null" or urlsplit(source).netloc != host:
        raise ApiError(403, "cross-origin", "refused: the request did not come from this server's page")


def seat_holder(served: Served, token: str | None) -> int:
    """The player a seat token stands for (in the core thread)."""
    if not token or len(token) > 200:
        raise ApiError(401, "no-seat", "join with your seat code first")
    signature = file_signature(served.store.path)
    player = browser_seats.holder(served.drafting, served.event_id, token)
    if player is not None:
        if len(served.holders) > 10_000:
            served.holders.clear()
        served.holders[token] = (signature, player)  # as the database was before it was read
    if player is None:
        raise ApiError(401, "no-seat", "this browser's seat binding ended (new code, or joined elsewhere): join again")
    return player


def desk_allowed(conn: HTTPConnection, desk_token: str) -> bool:
    given = bearer(conn) or conn.cookies.get(DESK_COOKIE) or ""
    return hmac.compare_digest(given.encode(), desk_token.encode())


def wrong_streaks(entries: list[dict[str, Any]]) -> dict[str, int]:
    """Wrong codes typed for each player (by name) since their code was last reset or given right: read from
    the event's history, where every wrong code, reset, browser join and seat lock is written."""
    streaks: dict[str, int] = {}
    for entry in entries:
        what, new = entry["what"], str(entry["new"])
        if what in ("seat code reset", "browser joined"):
            streaks[new] = 0
        elif what == "wrong seat code":
            streaks[new] = streaks.get(new, 0) + 1
        elif what == "seat locked":  # a core that counts the tries itself logs the lock: "NAME: 5 wrong codes"
            name = new.rpartition(":")[0]
            streaks[name] = max(streaks.get(name, 0), LOCKOUT)
    return streaks


def wrong_count(found: Any) -> int:
    """Wrong codes in ``failures``' entry for a player: their times, or already a count."""
    if isinstance(found, int):
        return found
    return len(found or ())


def in_a_row(streak: int, counted: Any) -> int:
    """Wrong codes in a row: the history's streak, or the core's own count where it keeps one (a count since the
    code was given, where ``failures`` gives numbers rather than times)."""
    return max(streak, counted) if isinstance(counted, int) else streak


def wrong_codes_in_a_row(served: Served, player_id: int, name: str) -> int:
    streak = wrong_streaks(served.drafting.history(served.event_id)).get(name, 0)
    return in_a_row(streak, failures(served.drafting, served.event_id).get(player_id))


def join(served: Served, body: dict[str, Any], address: str) -> tuple[str, int]:
    """Check the code and bind the seat to a new token (in the core thread); (token, player id)."""
    event = body["event"]
    if isinstance(event, bool) or not isinstance(event, int) or event != served.event_id:
        raise ApiError(404, "no-event", f"this server serves event {served.event_id} only")
    who = body["player"]
    if isinstance(who, bool) or isinstance(who, int) and not 1 <= who <= 1_000_000:
        raise ApiError(404, "no-player", "no such player number")
    code = body["code"]
    if len(code) > 40 or isinstance(who, str) and not 0 < len(who) <= 200:
        raise ApiError(400, "bad-field", "the player's name and the code are a few characters long")
    try:
        player = served.drafting.player(served.event_id, f"#{who}" if isinstance(who, int) else who)
    except InputError as error:
        raise ApiError(404, "no-player", web_words(str(error), "check the name on your seating slip")) from None
    if player.pod is None or player.bot or player.status != "active":
        raise ApiError(409, "not-seated", f"{player.name} has no seat to pick at (not seated yet, or dropped)")
    if wrong_codes_in_a_row(served, player.id, player.name) >= LOCKOUT:
        raise ApiError(423, "locked", "too many wrong codes for this seat: ask the desk for a new code")
    try:
        right = check_code(
            served.drafting, served.event_id, player.id, code, delay=0, by=browser_seats.browser(player.name)
        )
    except CmdraftError as error:  # a seat the core locked after too many wrong codes
        raise ApiError(423, "locked", str(error)) from None
    if not right:
        left = max(0, LOCKOUT - wrong_codes_in_a_row(served, player.id, player.name))
        if left == 0:
            raise ApiError(423, "locked", "too many wrong codes for this seat: ask the desk for a new code")
        raise ApiError(
            401, "wrong-code", f"wrong code: {left} tr{'y' if left == 1 else 'ies'} left before the seat locks"
        )
    return browser_seats.bind(served.drafting, served.event_id, player.id), player.id
