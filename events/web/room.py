"""The public room: the pages and their files, card images, and what anyone in the store may read — the standings,
the room display (with the QR code players scan to join) and, once the desk publishes them, the decklists.

Nothing here holds a code, a pack or anything a player keeps hidden; the data routes are the ``public`` group's
(counted against the asking address's rate limit), the pages and files the ``page`` group's.
"""

from __future__ import annotations

import functools
import io
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import FileResponse, Response

from events.night.browser_seats import join_heading
from events.night.shown import standing_row
from events.night.standings import winner_line
from events.web import auth
from events.web.api_common import STATIC, ApiError
from events.web.api_night import in_core
from events.web.cards_shown import image_json
from events.web.desk_answers import Decklists, JoinHeading, RoomState, Standings
from events.web.endpoints import Endpoint, files, page, public
from events.web.server import Server
from sets.cards import Card, valid_set_code
from sets.images import FILE_NAME, images_dir, is_image

STATIC_ROOM = "room.html"
STATIC_DECKLISTS = "decklists.html"


async def index_page(server: Server, request: Request) -> Response:
    page = FileResponse(STATIC / "index.html", media_type="text/html")
    if request.cookies.get(auth.SEAT_COOKIE) and not request.cookies.get(auth.HOLDS_SEAT_COOKIE):
        server.holds_seat_mark(page)  # a token from before the mark: the page asks for its seat, as it did then
    return page


async def room_page(server: Server, request: Request) -> Response:
    return FileResponse(STATIC / STATIC_ROOM, media_type="text/html")


async def decklists_page(server: Server, request: Request) -> Response:
    return FileResponse(STATIC / STATIC_DECKLISTS, media_type="text/html")


async def favicon(server: Server, request: Request) -> Response:
    """The pages' icon (``/favicon.ico``, where browsers look for it first): our own small SVG, shipped with them."""
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


async def image(server: Server, request: Request) -> Response:
    """A card image kept by ``cmdraft sets download CODE --images``: only a file its set's index names."""
    code, name = str(request.path_params.get("code")), str(request.path_params.get("name"))
    if not valid_set_code(code) or not FILE_NAME.match(name):
        raise ApiError(404, "not-found", "no such image")
    path = images_dir(code) / name
    try:
        with open(path, "rb") as file:
            head = file.read(8)
    except OSError:
        raise ApiError(404, "not-found", "no such image") from None
    if not is_image(head):  # damaged (a power cut, a bad disk): the page draws the card as text
        raise ApiError(404, "not-found", "no such image")
    media = "image/png" if head.startswith(b"\x89PNG") else "image/jpeg"
    return FileResponse(path, media_type=media, headers={"cache-control": server.settings.image_cache})


async def get_standings(server: Server, request: Request) -> Standings:
    served = server.served
    rows = await in_core(served, served.rounds.standings, served.event_id)
    return Standings(served.wall(), [standing_row(row) for row in rows], winner_line(rows))


async def get_join(server: Server, request: Request) -> JoinHeading:
    """The join form's heading for the player its link names (``?player=N``, a number or a name; another event's
    link, or none: by the night alone)."""
    served = server.served
    event, who = (
        request.query_params.get("event", ""),
        request.query_params.get("player", "")[: server.settings.max_name],
    )
    mine = event.strip() in ("", str(served.event_id))
    snap = await served.run(served.snapshot)
    return JoinHeading(join_heading(snap, who if mine else ""))


async def get_decklists(server: Server, request: Request) -> Decklists:
    served = server.served
    decklists = await in_core(served, served.views.public_decklists, served.event_id, decklist_facts)
    return Decklists(decklists)


def decklist_facts(card: Card) -> dict[str, Any]:
    """What a decklist's line shows of its card besides name and count: the cost and type as text, and the kept
    image (``cmdraft sets download CODE --images``) when there is one."""
    return {"cost": card.mana_cost, "type": card.type_line, **image_json(card)}


async def get_room(server: Server, request: Request) -> RoomState:
    served = server.served
    room = await in_core(served, served.views.room_view, served.event_id, now=served.wall())
    return RoomState(**msgspec.structs.asdict(room), join=join_url(request, served.event_id))


async def get_room_qr(server: Server, request: Request) -> Response:
    return Response(qr_image(join_url(request, server.served.event_id)), media_type="image/svg+xml")


@functools.lru_cache(maxsize=8)  # the server's few addresses: a code is made once (milliseconds of the event loop)
def qr_image(url: str) -> bytes:
    """The QR code of ``url`` as an SVG document of its own (with its namespace and size, as an <img> needs)."""
    import segno  # here: its writers import urllib.request, http.client and email (``events.outputs.sheet_writers``)

    out = io.BytesIO()
    segno.make(url, error="m", micro=False).save(out, kind="svg", scale=10, border=4, xmldecl=False)
    return out.getvalue()


def join_url(request: Request, event_id: int) -> str:
    """Where a player opens the page (what the room's QR code carries): this server and event, no seat, no code."""
    return str(request.base_url).rstrip("/") + f"/join?event={event_id}"


ENDPOINTS: list[Endpoint] = [
    page("/", index_page),
    page("/join", index_page),
    page("/favicon.ico", favicon),
    page("/images/{code}/{name}", image),
    public("/api/standings", get_standings, Standings, "the standings"),
    public(
        "/api/join",
        get_join,
        JoinHeading,
        "`?event=E&player=N` as a join link has them: what the join form is headed with, what the player joins now "
        "(their draft, their deck, from a sealed pool, their table)",
    ),
    public(
        "/api/decklists",
        get_decklists,
        Decklists,
        "once the event is finished, where the desk publishes them: everyone's decklist by standing (a line's cost, "
        "type and image where the set's index has the card, the image where it was downloaded)",
    ),
    page("/decklists", decklists_page),
    page("/room", room_page, "the room display's page"),
    public("/api/room", get_room, RoomState, "the room display's data"),
    page("/api/room/qr.svg", get_room_qr, "the room display's QR code (the page's address for this event)"),
    files("/static", STATIC),
]
