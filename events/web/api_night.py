"""The rest of the night in the browser: a player's table, results their table confirms, dropping, the tracker from
the table, standings, the room display (no token) and the desk's night actions (behind the desk token).

Every action is the core's use case (``events.night.table_reports``: the same transaction and history entry as
the desk's command, logged as ``browser NAME``); a player acts only for their own seat and table (the seat token
names the player; the core refuses a report for another table).  The room's data holds no code and nothing a
player keeps hidden.  After each change every connected browser is pushed its new state.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import segno
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from events.night.round_clock import start_clock, toggle_pause
from events.night.rounds import Rounds
from events.night.standings import winner_line
from events.night.table_reports import NotYourTable, TableReports
from events.night.table_views import TableViews, standing_json
from events.night.undo import Undo
from events.web.api_common import ApiError, Served, read_json, whole

STATIC = Path(__file__).with_name("static")
STATIC_ROOM = "room.html"
STATIC_DECKLISTS = "decklists.html"
JSON_WHOLE = 10**15  # a number the page can send at all; the ranges of life and damage are the core's (games.py)


def order_of(value: Any, what: str = "order") -> list[list[int]]:
    """A finishing order from JSON: places best first, each a list of player ids (several: a draw)."""
    if not isinstance(value, list) or not value or len(value) > 64:
        raise ApiError(400, "bad-field", f"{what} must be a list of places, each a list of player ids: [[4], [2, 7]]")
    groups = []
    for group in value:
        if not isinstance(group, list) or not group or len(group) > 64:
            raise ApiError(400, "bad-field", f"each place of {what} is a list of player ids")
        groups.append([whole(pid, "a player id", 1, 10**9) for pid in group])
    return groups


def table_state(served: Served, player_id: int) -> dict[str, Any]:
    """The player's table view (in the core thread); what ``GET /api/table`` answers and the stream carries."""
    return TableViews(served.store).table_view(served.event_id, player_id, now=served.wall())


def _guard(function, *args, **kwargs):
    """A core call: a refusal for another table is 403, other cmdraft errors as ``Served.run`` words them."""
    try:
        return function(*args, **kwargs)
    except NotYourTable as error:
        raise ApiError(403, "not-your-table", str(error)) from None


def routes(server: Any) -> list[Route]:
    """The night's routes over the app's ``Server`` (its ``seat``/``desk`` checks, its served event and hub)."""
    served: Served = server.served
    reports = TableReports(served.store)
    views = TableViews(served.store)
    event_id = served.event_id

    async def run(function, *args, **kwargs):
        return await served.run(lambda: _guard(function, *args, **kwargs))

    async def changed(answer: Any) -> Response:
        await server.hub.push()  # every phone: new results, standings, clock
        return JSONResponse(answer)

    # --- a player's own table -----------------------------------------------------------------------------------

    async def get_table(request: Request) -> Response:
        player, _ = await server.seat(request)
        return JSONResponse(await run(table_state, served, player))

    async def post_result(request: Request) -> Response:
        player, _ = await server.seat(request, changing=True)
        body = await read_json(request, {"order": list}, ("order",))
        await run(reports.report, event_id, player, order_of(body["order"]), now=served.wall())
        return await changed(await run(table_state, served, player))

    async def post_confirm(request: Request) -> Response:
        player, _ = await server.seat(request, changing=True)
        body = await read_json(request, {"report": int, "agree": bool, "order": list}, ("report", "agree"))
        order = order_of(body["order"], "your order") if body.get("order") else None
        report = whole(body["report"], "report", 1, 10**9)
        await run(reports.confirm, event_id, player, report, body["agree"], order, now=served.wall())
        return await changed(await run(table_state, served, player))

    async def post_drop(request: Request) -> Response:
        player, _ = await server.seat(request, changing=True)
        body = await read_json(request, {"confirm": bool}, ("confirm",))
        if body["confirm"] is not True:
            raise ApiError(400, "confirm-needed", 'dropping leaves the event for good: send {"confirm": true}')
        await run(reports.drop_self, event_id, player)
        return await changed(await run(table_state, served, player))

    async def post_game(request: Request) -> Response:
        player, _ = await server.seat(request, changing=True)
        body = await read_json(request, {"life": list, "damage": list, "cast": list, "undo": bool})
        life: dict[int, int] = {}
        for row in body.get("life", []):
            if not isinstance(row, list) or len(row) != 2:
                raise ApiError(400, "bad-field", "life is a list of [player id, change]")
            pid = whole(row[0], "a player id", 1, 10**9)
            life[pid] = life.get(pid, 0) + whole(row[1], "a life change", -JSON_WHOLE, JSON_WHOLE)  # the core's limit
        damage = []
        for row in body.get("damage", []):
            if not isinstance(row, list) or len(row) != 4 or not isinstance(row[2], str) or len(row[2]) > 200:
                raise ApiError(400, "bad-field", "damage is a list of [victim id, source id, commander, amount]")
            damage.append(
                (
                    whole(row[0], "a player id", 1, 10**9),
                    whole(row[1], "a player id", 1, 10**9),
                    row[2],
                    whole(row[3], "damage", -JSON_WHOLE, JSON_WHOLE),  # the core keeps its range
                )
            )
        casts = []
        for row in body.get("cast", []):
            if not isinstance(row, list) or len(row) != 2 or not isinstance(row[1], str) or len(row[1]) > 200:
                raise ApiError(400, "bad-field", "cast is a list of [player id, commander]")
            casts.append((whole(row[0], "a player id", 1, 10**9), row[1]))
        if not (life or damage or casts or body.get("undo")):
            raise ApiError(400, "bad-field", "send life, damage, cast or undo")
        board = await run(
            reports.track, event_id, player, life=life, damage=damage, casts=casts, undo=bool(body.get("undo"))
        )
        await server.hub.push()
        return JSONResponse(board)

    # --- public: standings and the room display ----------------------------------------------------------------

    async def get_standings(request: Request) -> Response:
        server.limits.request("public:" + (request.client.host if request.client else "unknown"))
        rows = await run(Rounds(served.store).standings, event_id)
        return JSONResponse(
            {
                "server_time": served.wall(),
                "standings": [standing_json(row) for row in rows],
                "winner": winner_line(rows),
            }
        )

    async def get_decklists(request: Request) -> Response:
        server.limits.request("public:" + (request.client.host if request.client else "unknown"))
        return JSONResponse({"decklists": await run(views.public_decklists, event_id)})

    async def room_page(request: Request) -> Response:
        return FileResponse(STATIC / STATIC_ROOM, media_type="text/html")

    async def decklists_page(request: Request) -> Response:
        return FileResponse(STATIC / STATIC_DECKLISTS, media_type="text/html")

    async def get_room(request: Request) -> Response:
        server.limits.request("public:" + (request.client.host if request.client else "unknown"))
        room = await run(views.room_view, event_id, now=served.wall())
        room["join"] = join_url(request, event_id)
        return JSONResponse(room)

    async def get_room_qr(request: Request) -> Response:
        return Response(qr_image(join_url(request, event_id)), media_type="image/svg+xml")

    # --- the desk ----------------------------------------------------------------------------------------------

    async def desk_night(request: Request) -> Response:
        server.desk(request)
        return JSONResponse(await run(views.desk_view, event_id, now=served.wall()))

    async def desk_settle(request: Request) -> Response:
        server.desk(request, changing=True)
        body = await read_json(
            request, {"round": int, "table": int, "order": (list, str), "replace": bool}, ("round", "table", "order")
        )
        order = body["order"] if isinstance(body["order"], str) else order_of(body["order"])
        if isinstance(order, str) and not 0 < len(order) <= 4000:
            raise ApiError(400, "bad-field", "the order is 'Ann > Bo = Cy > Di'")
        done = await run(
            reports.settle,
            event_id,
            whole(body["round"], "round", 1, 10**6),
            whole(body["table"], "table", 1, 10**6),
            order,
            bool(body.get("replace")),
        )
        return await changed({**done, "points": {k: round(float(v), 4) for k, v in done["points"].items()}})

    async def desk_publish(request: Request) -> Response:
        server.desk(request, changing=True)
        body = await read_json(request, {"on": bool}, ("on",))
        return await changed({"publish_decklists": await run(reports.set_publish_decklists, event_id, body["on"])})

    async def desk_finish(request: Request) -> Response:
        server.desk(request, changing=True)
        await read_json(request, {})
        await run(Rounds(served.store).finish, event_id)
        return await changed({"finished": True})

    async def desk_extra(request: Request) -> Response:
        server.desk(request, changing=True)
        body = await read_json(request, {"table": int, "minutes": int}, ("table", "minutes"))
        return await changed(
            await run(reports.extra_time, event_id, whole(body["table"], "table", 1, 10**6), body["minutes"])
        )

    async def desk_round(request: Request) -> Response:
        server.desk(request, changing=True)
        body = await read_json(request, {"force": bool, "again": bool})
        if body.get("again"):
            return await changed(await run(reports.repair, event_id, bool(body.get("force"))))
        return await changed(await run(Rounds(served.store).new_round, event_id, bool(body.get("force"))))

    async def desk_clock(request: Request) -> Response:
        server.desk(request, changing=True)
        body = await read_json(request, {"minutes": int, "restart": bool, "pause": bool})
        minutes = body.get("minutes")
        number, clock = await run(
            start_clock, reports, event_id, minutes, now=served.wall(), restart=bool(body.get("restart"))
        )
        if body.get("pause"):
            clock = await run(toggle_pause, reports, event_id, number, now=served.wall())
        return await changed({"round": number, **clock.to_json(), "remaining": clock.remaining(served.wall())})

    async def desk_undo(request: Request) -> Response:
        server.desk(request, changing=True)
        await read_json(request, {})
        return await changed(await run(Undo(served.store).undo, event_id))

    async def desk_top(request: Request) -> Response:
        server.desk(request, changing=True)
        body = await read_json(request, {"size": int}, ("size",))
        return await changed(await run(reports.top, event_id, whole(body["size"], "size", 2, 8)))

    async def desk_tracker(request: Request) -> Response:
        server.desk(request, changing=True)
        body = await read_json(request, {"on": bool}, ("on",))
        return await changed({"tracker": await run(reports.set_table_tracker, event_id, body["on"])})

    return [
        Route("/api/table", get_table),
        Route("/api/result", post_result, methods=["POST"]),
        Route("/api/result/confirm", post_confirm, methods=["POST"]),
        Route("/api/drop", post_drop, methods=["POST"]),
        Route("/api/game", post_game, methods=["POST"]),
        Route("/api/standings", get_standings),
        Route("/api/decklists", get_decklists),
        Route("/decklists", decklists_page),
        Route("/room", room_page),
        Route("/api/room", get_room),
        Route("/api/room/qr.svg", get_room_qr),
        Route("/api/desk/night", desk_night),
        Route("/api/desk/settle", desk_settle, methods=["POST"]),
        Route("/api/desk/extra-time", desk_extra, methods=["POST"]),
        Route("/api/desk/round", desk_round, methods=["POST"]),
        Route("/api/desk/clock", desk_clock, methods=["POST"]),
        Route("/api/desk/undo", desk_undo, methods=["POST"]),
        Route("/api/desk/top", desk_top, methods=["POST"]),
        Route("/api/desk/tracker", desk_tracker, methods=["POST"]),
        Route("/api/desk/publish", desk_publish, methods=["POST"]),
        Route("/api/desk/finish", desk_finish, methods=["POST"]),
    ]


def qr_image(url: str) -> bytes:
    """The QR code of ``url`` as an SVG document of its own (with its namespace and size, as an <img> needs)."""
    out = io.BytesIO()
    segno.make(url, error="m", micro=False).save(out, kind="svg", scale=10, border=4, xmldecl=False)
    return out.getvalue()


def join_url(request: Request, event_id: int) -> str:
    """Where a player opens the page (what the room's QR code carries): this server and event, no seat, no code."""
    return str(request.base_url).rstrip("/") + f"/join?event={event_id}"
