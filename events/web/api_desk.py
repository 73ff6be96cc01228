"""The desk in the browser, behind the desk's token (printed by ``cmdraft serve``): every seat's state, and the
terminal desk's actions for a draft — a new seat code, a seat handed to a bot and back.

The desk sees who is connected, picking or waiting and the time left, never a pack, a pool or a code (a new code
is shown once, to the desk that asked for it, as ``event player code --reset`` prints it).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from events.night import browser_seats, desk_link, presence
from events.night.seat_codes import reset_code, source_waits
from events.web.api_common import Json, Served, read_json, whole


def seat_rows(served: Served, connected: set[int], seen: dict[int, float] | None = None) -> dict[str, Any]:
    """Every seat as the desk sees it; ``connected``: the players whose page has a stream open now, ``seen``: when
    each player's browser last asked this server."""
    snap = served.snapshot()
    held = presence.of_event(served.drafting, served.event_id)
    rows = []
    for pod in snap.pods:
        if pod.draft:
            with served.locked(pod.number):
                rows += pod_rows(served, pod, served.table(pod.number), connected)
        else:
            rows += pod_rows(served, pod, None, connected)
    for row in rows:
        row.update(holding(row, held.get(row.pop("id")), row["connected"], (seen or {}).get(row["player_id"])))
        del row["player_id"]
    event = snap.event
    return {
        "event": {"id": served.event_id, "name": event.name, "status": event.status},
        "server_time": served.wall(),
        "seats": rows,
        "code_sources": source_waits(served.drafting, served.event_id),
    }


def pod_rows(served: Served, pod, session, connected: set[int]) -> list[dict[str, Any]]:
    """The desk's rows of one pod's seats (its draft's lock held)."""
    snap = served.snapshot()
    rows = []
    for seat, player_id in enumerate(pod.players):
        player = snap.player(player_id)
        state, deadline = "waiting", None
        if player.bot:
            state = "bot"
        elif session is not None:
            draft = session.draft
            deadline = session.deadline(seat)
            if draft.finished:
                state = "done"
            elif seat not in session.humans:
                state = "bot"
            elif seat in draft.waiting():
                state = "picking"
        rows.append(
            {
                "id": player_id,
                "player_id": player_id,
                "player": player.number,
                "name": player.name,
                "pod": pod.number,
                "seat": seat + 1,
                "connected": player_id in connected,
                "state": state,
                "deadline": deadline,
                "queued": 0 if session is None or player.bot else session.draft.queued(seat),
                "wrong_codes": player.wrong_codes,
                "wrong_code_last": player.wrong_code_last,
                "wrong_code_from": player.wrong_code_from,
                "bot_player": player.bot,  # a bot by registration (not a person whose seat a bot holds for now)
            }
        )
    return rows


def holding(row: dict[str, Any], held: presence.Presence | None, browser_open: bool, asked: float | None) -> dict:
    """Who holds a seat and whether they are there: ``holder`` "phone", "terminal", "bot" or None (nobody has
    joined with the code), ``connected`` (a phone's page open now; a terminal that still runs), and ``last_seen``
    (wall time: a phone's last request or when its seat was taken up; a terminal's end, or when it took the seat)."""
    if row["bot_player"] or row["state"] == "bot":
        return {"holder": "bot", "connected": browser_open, "last_seen": asked}
    if held is None:
        return {"holder": None, "connected": browser_open, "last_seen": asked}
    if held.via == "terminal":
        running = held.terminal_running()
        return {"holder": "terminal", "connected": running, "last_seen": None if running else held.left or held.at}
    return {"holder": "phone", "connected": browser_open, "last_seen": max(held.at, asked or 0.0)}


def player_ref(body: dict[str, Any]) -> str:
    return f"#{whole(body['player'], 'player', 1, 1_000_000)}"


def routes(server: Any) -> list[Route]:
    served: Served = server.served

    async def get_desk(request: Request) -> Response:
        server.desk(request)
        return Json(await served.run(seat_rows, served, set(server.hub.connections), dict(server.seen)))

    async def post_reset(request: Request) -> Response:
        server.desk(request, changing=True)
        body = await read_json(request, {"player": int}, ("player",))
        name, code = await served.run(reset_code, served.drafting, served.event_id, player_ref(body))
        await server.hub.push()
        return Json({"player": body["player"], "name": name, "code": code})

    async def post_bot(request: Request) -> Response:
        server.desk(request, changing=True)
        body = await read_json(request, {"player": int, "bot": bool}, ("player", "bot"))
        changed = await served.run(
            browser_seats.hand_seat, served.drafting, served.event_id, player_ref(body), body["bot"]
        )
        await server.hub.push()
        return Json({"player": body["player"], "bot": body["bot"], "changed": changed})

    async def post_new_link(request: Request) -> Response:
        server.desk(request, changing=True)
        await read_json(request, {})
        token = await served.run(desk_link.renew, served.drafting, served.event_id)
        response = Json({"link": f"/desk?token={token}"})
        server.desk_cookie(response, token)  # this desk goes on; every other desk session ends
        return response

    return [
        Route("/api/desk", get_desk),
        Route("/api/desk/new-link", post_new_link, methods=["POST"]),
        Route("/api/desk/reset-code", post_reset, methods=["POST"]),
        Route("/api/desk/bot", post_bot, methods=["POST"]),
    ]
