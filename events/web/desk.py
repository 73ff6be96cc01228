"""The desk in the browser, behind the desk's token (printed by ``cmdraft serve``): every seat's state, the terminal
desk's actions for a draft (a new seat code, a seat handed to a bot and back, a new desk link) and for the night's
rounds (settle a result, extra time, pair, the clock, undo, the final table, the tracker, decklists, finish).

Every route but the page is the ``desk`` group's: its token is checked before the handler runs.  Each action is the
core's use case, as the desk's command runs it; after a change every connected browser is pushed its new state.
"""

from __future__ import annotations

from typing import TypeVar

from msgspec import Struct
from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response

from events.night import browser_seats, desk_link
from events.night.pipers import Pipers
from events.night.registration import Registration
from events.night.round_clock import start_clock, toggle_pause
from events.night.seat_codes import reset_code
from events.night.table_reports import ExtraTime
from events.night.table_shown import DeskNight
from events.web import auth
from events.web.answers import typed
from events.web.api_common import STATIC, ApiError, Json, whole
from events.web.api_desk import seat_rows
from events.web.api_night import in_core, order_of
from events.web.bodies import (
    BotBody,
    ClockBody,
    Empty,
    ExtraTimeBody,
    PlayerBody,
    RoundBody,
    SettleBody,
    SwitchBody,
    TopBody,
    UndoBody,
)
from events.web.desk_answers import (
    DeskDropped,
    DeskLink,
    DeskSeats,
    FinalTable,
    Finished,
    HandedSeat,
    NewCode,
    Paired,
    PiperLedger,
    Published,
    RoundClock,
    Settled,
    Tracker,
    Undone,
    UndoPreview,
)
from events.web.endpoints import Desk, Endpoint, desk_door, desk_get, desk_post
from events.web.server import Server

A = TypeVar("A", bound=Struct)


async def desk_page(server: Server, request: Request) -> Response:
    """The desk's page; with ``?token=`` (the desk link) the token is checked and becomes the desk's cookie."""
    token = request.query_params.get("token")
    if token is not None:
        server.limits.request("desk " + auth.client_address(request))
        if not server.is_desk(token):
            raise ApiError(401, "not-desk", "that desk link is not (or no longer) the desk's: use the newest one")
        response = RedirectResponse("/desk", status_code=303)  # the token leaves the address bar
        server.desk_cookie(response, token)
        return response
    page = STATIC / "desk.html"
    return FileResponse(page if page.exists() else STATIC / "index.html", media_type="text/html")


async def changed(desk: Desk, answer: A) -> A:
    await desk.server.hub.push()  # every phone: new results, standings, clock, seats
    return answer


def player_ref(desk: Desk, number: int) -> str:
    return f"#{whole(number, 'player', 1, desk.server.settings.max_player_number)}"


# --- the draft's desk ---------------------------------------------------------------------------------------------


async def get_desk(desk: Desk) -> DeskSeats:
    server = desk.server
    connected = set(server.hub.connections)
    return await server.served.run(seat_rows, server.served, connected, dict(server.seen), server.started)


async def post_reset(desk: Desk, body: PlayerBody) -> NewCode:
    served = desk.server.served
    name, code = await served.run(reset_code, served.drafting, served.event_id, player_ref(desk, body.player))
    await desk.server.hub.push()
    return NewCode(body.player, name, code)


async def post_drop(desk: Desk, body: PlayerBody) -> DeskDropped:
    served = desk.server.served
    who = player_ref(desk, body.player)
    done = await in_core(served, served.night.phase(Registration).drop_player, served.event_id, who)
    recorded = [(result.round, result.table) for result in done.recorded]
    return await changed(desk, DeskDropped(body.player, done.player.name, recorded))


async def post_bot(desk: Desk, body: BotBody) -> HandedSeat:
    served = desk.server.served
    hand = browser_seats.hand_seat
    changed_seat = await served.run(hand, served.drafting, served.event_id, player_ref(desk, body.player), body.bot)
    await desk.server.hub.push()
    return HandedSeat(body.player, body.bot, changed_seat)


async def post_new_link(desk: Desk, body: Empty) -> Response:
    served = desk.server.served
    token = await served.run(desk_link.renew, served.drafting, served.event_id)
    response = Json(DeskLink(f"/desk?token={token}"))
    desk.server.desk_cookie(response, token)  # this desk goes on; every other desk session ends
    return response


# --- the night's desk -------------------------------------------------------------------------------------------------


async def get_night(desk: Desk) -> DeskNight:
    served = desk.server.served
    return await in_core(served, served.views.desk_view, served.event_id, now=served.wall())


async def post_settle(desk: Desk, body: SettleBody) -> Settled:
    served = desk.server.served
    limits = served.settings
    order = body.order if isinstance(body.order, str) else order_of(body.order, limits)
    if isinstance(order, str) and len(order) > limits.max_order_text:  # an empty one is the core's to refuse
        raise ApiError(
            400, "bad-field", f"the order is at most {limits.max_order_text} characters: 'Ann > Bo = Cy > Di'"
        )
    most = limits.max_round_number
    round_number, table = whole(body.round, "round", 1, most), whole(body.table, "table", 1, most)
    done = await in_core(served, served.reports.settle, served.event_id, round_number, table, order, body.replace)
    # the points rounded to 4 places, as 'event result --json' gives them
    return await changed(desk, typed(done.to_json(), Settled))


async def post_publish(desk: Desk, body: SwitchBody) -> Published:
    served = desk.server.served
    return await changed(
        desk, Published(await in_core(served, served.reports.set_publish_decklists, served.event_id, body.on))
    )


async def post_finish(desk: Desk, body: Empty) -> Finished:
    served = desk.server.served
    await in_core(served, served.rounds.finish, served.event_id)
    return await changed(desk, Finished(True))


async def post_extra(desk: Desk, body: ExtraTimeBody) -> ExtraTime:
    served = desk.server.served
    table = whole(body.table, "table", 1, served.settings.max_round_number)
    return await changed(desk, await in_core(served, served.reports.extra_time, served.event_id, table, body.minutes))


async def post_round(desk: Desk, body: RoundBody) -> Paired:
    served = desk.server.served
    pair = served.reports.repair if body.again else served.rounds.new_round
    return await changed(desk, typed(await in_core(served, pair, served.event_id, body.force), Paired))


async def post_clock(desk: Desk, body: ClockBody) -> RoundClock:
    served = desk.server.served
    minutes = body.minutes if isinstance(body.minutes, int) else None
    restart = body.restart
    number, clock = await in_core(
        served, start_clock, served.reports, served.event_id, minutes, now=served.wall(), restart=restart
    )
    if body.pause:
        clock = await in_core(served, toggle_pause, served.reports, served.event_id, number, now=served.wall())
    return await changed(desk, typed(clock.shown(number, served.wall()), RoundClock))


async def get_pipers(desk: Desk) -> PiperLedger:
    served = desk.server.served
    return typed(await in_core(served, served.night.phase(Pipers).piper_ledger, served.event_id), PiperLedger)


async def get_undo(desk: Desk) -> UndoPreview:
    served = desk.server.served
    return typed({"next": await in_core(served, served.undo.next_change, served.event_id)}, UndoPreview)


async def post_undo(desk: Desk, body: UndoBody) -> Undone:
    served = desk.server.served
    undone = await in_core(served, served.undo.undo, served.event_id, body.expect)
    return await changed(desk, typed(undone, Undone))


async def post_top(desk: Desk, body: TopBody) -> FinalTable:
    served = desk.server.served
    top = await in_core(served, served.reports.top, served.event_id, body.size)
    return await changed(desk, typed(top, FinalTable))


async def post_tracker(desk: Desk, body: SwitchBody) -> Tracker:
    served = desk.server.served
    return await changed(
        desk, Tracker(await in_core(served, served.reports.set_table_tracker, served.event_id, body.on))
    )


ENDPOINTS: list[Endpoint] = [
    desk_door("/desk", desk_page),
    desk_get(
        "/api/desk",
        get_desk,
        DeskSeats,
        "every seat (`holder` null: nobody has joined with the code; `before_restart`: a phone this server has not "
        "heard from since it started then, last seen before it; `stalled`: the seat holds packs with nobody there, "
        "in the core's words); `stalled`: how many such seats, in words, or null; `code_sources`: the addresses and "
        "terminals that typed wrong codes in the last hour, and the seconds before their next try",
    ),
    desk_post(
        "/api/desk/new-link",
        Empty,
        post_new_link,
        DeskLink,
        "the new desk link (`/desk?token=…`), shown once, and this browser's desk cookie set to it; the old link and "
        "every other desk session end",
    ),
    desk_post("/api/desk/reset-code", PlayerBody, post_reset, NewCode, "the new code (shown once, to the desk)"),
    desk_post("/api/desk/bot", BotBody, post_bot, HandedSeat, "the seat to a bot or back"),
    desk_post(
        "/api/desk/drop",
        PlayerBody,
        post_drop,
        DeskDropped,
        "`event player drop` (a seat's `drop`: the desk may drop its player now); `recorded`: the tables whose "
        "report waited only for them, recorded as their result in the same change",
    ),
    desk_get(
        "/api/desk/night",
        get_night,
        DeskNight,
        "every table of the round (result, or the report with every version, time left), who dropped, and the "
        "desk's `actions` now (the core's answer: `pair`, `pair-anyway`, `clock`, `pair-again`, `settle`, `undo`, "
        "`top`, `tracker`, `finish`, `publish`)",
    ),
    desk_post(
        "/api/desk/settle",
        SettleBody,
        post_settle,
        Settled,
        "settle a table's result (`correction`: after a later round was paired, the words the terminal says of "
        "it, which of its tables it would have paired differently; else null)",
    ),
    desk_post("/api/desk/extra-time", ExtraTimeBody, post_extra, ExtraTime, "extra time for a table"),
    desk_post(
        "/api/desk/round",
        RoundBody,
        post_round,
        Paired,
        "pair the next round (`again`: pair the current round again with the players in the event now, while none "
        "of its tables has a result, report or tracker entry)",
    ),
    desk_post("/api/desk/clock", ClockBody, post_clock, RoundClock, "start, restart or pause the round's clock"),
    desk_get(
        "/api/desk/pipers",
        get_pipers,
        PiperLedger,
        "the Piper ledger, as `event pipers --json` prints it (opened per pod, what the registered decks add, unused "
        "in pools, the stock, the shortfall, who could lend; the forecast from requests until every deck is in)",
    ),
    desk_get(
        "/api/desk/undo",
        get_undo,
        UndoPreview,
        "what `POST /api/desk/undo` would take back next (`event undo --list`), or null: `asks` (a round's pairing "
        "or a seating: players may sit at those tables) and `refused` (why it can't be undone, or null)",
    ),
    desk_post(
        "/api/desk/undo",
        UndoBody,
        post_undo,
        Undone,
        "`event undo`; `expect`: the change the desk confirmed (`GET /api/desk/undo`'s `entry`): another change made "
        "meanwhile is refused, not undone in its place",
    ),
    desk_post("/api/desk/top", TopBody, post_top, FinalTable, "the final table"),
    desk_post("/api/desk/tracker", SwitchBody, post_tracker, Tracker, "the tracker from phones on or off"),
    desk_post("/api/desk/publish", SwitchBody, post_publish, Published, "decklists public after the event, or not"),
    desk_post("/api/desk/finish", Empty, post_finish, Finished, "`event finish`"),
]
