"""A seat's phone: joining with the seat code, the seat's state and its picks (a request or the stream), the deck
built after the draft and the player's own files, and the night at the player's table (results, dropping, the
tracker).  Every route but joining is the ``seat`` group's: the handler is given the player the token stands for.
"""

from __future__ import annotations

import logging

from starlette.requests import Request
from starlette.responses import Response

from events.night.games import GameBoard, damage_typed
from events.night.table_shown import TableState
from events.web import auth
from events.web.answers import (
    DeckState,
    Joined,
    Picked,
    Pong,
    Registered,
    SeatMessage,
    SeatState,
    StreamError,
    StreamRefusal,
)
from events.web.api_common import ApiError, Json, core_read, whole
from events.web.api_deck import act, deck_state, export, register
from events.web.api_draft import claim_if_free, seat_state
from events.web.api_night import in_core, order_of, table_state
from events.web.bodies import (
    ConfirmBody,
    DeckAction,
    DropBody,
    Empty,
    GameBody,
    JoinBody,
    PickBody,
    ResultBody,
    StreamPick,
    deck_action,
    deck_shape,
)
from events.web.endpoints import (
    Endpoint,
    Seat,
    door,
    seat_file,
    seat_get,
    seat_post,
    seat_post_decoded,
    seat_stream,
)
from events.web.server import Server
from events.web.settings import DEFAULT
from events.web.stream import picked, stream

log = logging.getLogger("cmdraft.serve")

# --- the seat and its picks -------------------------------------------------------------------------------------------


async def join(server: Server, request: Request, body: JoinBody) -> Response:
    """A seat joined with its code: ``Joined``, and the seat's cookie set."""
    address = auth.client_address(request)
    key = auth.join_key(request, body, server.settings.max_name)
    if key is not None:  # each join binds the seat anew: a write of the database, the draft's file, the history
        server.joins.request(key)
    token, player = await server.served.run(auth.join, server.served, body, address)
    server.knows(token)
    state = await server.served.run(seat_state, server.served, player)
    response = Json(Joined(token, state))
    server.seat_cookie(response, token)
    await server.hub.push([player])
    return response


async def get_seat(seat: Seat) -> SeatState:
    served = seat.server.served

    def claimed_state() -> SeatState:
        claim_if_free(served, seat.player, seat.token)  # a draft that started after the browser joined
        return seat_state(served, seat.player)

    return await served.run(claimed_state)


async def post_pick(seat: Seat, body: PickBody) -> SeatState:
    return await picked(seat.server, seat.player, seat.token, body)


# --- the deck and the player's files ---------------------------------------------------------------------------------


async def get_deck(seat: Seat) -> DeckState:
    served = seat.server.served
    return await served.run(served.one_at_a_time, deck_state, served, seat.player)


async def post_deck(seat: Seat, action: DeckAction) -> DeckState:
    served = seat.server.served
    return await served.run(served.one_at_a_time, act, served, seat.player, action)


async def post_register(seat: Seat, body: Empty) -> Registered:
    served = seat.server.served
    done: Registered = await served.run(served.one_at_a_time, register, served, seat.player)
    await seat.server.hub.push([seat.player])
    return done


async def get_export(seat: Seat) -> Response:
    served = seat.server.served
    kind = seat.request.path_params.get("kind")
    if kind not in ("pool", "deck"):
        raise ApiError(404, "not-found", "export the pool or the deck")
    file_format = seat.request.query_params.get("format", "txt")
    filename, text = await served.run(served.one_at_a_time, export, served, seat.player, kind, file_format)
    return Response(
        text,
        media_type="application/octet-stream",
        headers={"content-disposition": f'attachment; filename="{filename}"'},
    )


# --- the night at the player's table ------------------------------------------------------------------------------


async def table_changed(seat: Seat) -> TableState:
    """The player's table after a change, every phone pushed (new results, standings, clock)."""
    state = await in_core(seat.server.served, table_state, seat.server.served, seat.player)
    await seat.server.hub.push()
    return state


async def get_table(seat: Seat) -> TableState:
    return await in_core(seat.server.served, table_state, seat.server.served, seat.player)


async def post_result(seat: Seat, body: ResultBody) -> TableState:
    served = seat.server.served
    order = order_of(body.order, served.settings)
    await in_core(served, served.reports.report, served.event_id, seat.player, order, now=served.wall())
    return await table_changed(seat)


async def post_confirm(seat: Seat, body: ConfirmBody) -> TableState:
    served = seat.server.served
    order = order_of(body.order, served.settings, "your order") if body.order else None
    report = whole(body.report, "report", 1, served.settings.max_report)
    reports = served.reports
    await in_core(served, reports.confirm, served.event_id, seat.player, report, body.agree, order, now=served.wall())
    return await table_changed(seat)


async def post_drop(seat: Seat, body: DropBody) -> TableState:
    if body.confirm is not True:
        raise ApiError(400, "confirm-needed", 'dropping leaves the event for good: send {"confirm": true}')
    await in_core(seat.server.served, seat.server.served.reports.drop_self, seat.server.served.event_id, seat.player)
    return await table_changed(seat)


async def post_game(seat: Seat, body: GameBody) -> GameBoard:
    limits = seat.server.settings
    most, ids, name = (
        limits.max_whole,
        limits.max_player_id,
        limits.max_name,
    )  # the ranges of life and damage: the core's
    life: dict[int, int] = {}
    for pid, change in body.life:
        pid = whole(pid, "a player id", 1, ids)
        life[pid] = life.get(pid, 0) + whole(change, "a life change", -most, most)
    damage = []
    for victim, source, commander, amount in body.damage:
        if len(commander) > name:
            raise ApiError(400, "bad-field", "damage is a list of [victim id, source id, commander, amount]")
        damage.append(
            (
                whole(victim, "a player id", 1, ids),
                whole(source, "a player id", 1, ids),
                commander,
                whole(core_read(damage_typed, amount), "damage", -most, most),  # the range: the core's
            )
        )
    casts = []
    for pid, commander in body.cast:
        if len(commander) > name:
            raise ApiError(400, "bad-field", "cast is a list of [player id, commander]")
        casts.append((whole(pid, "a player id", 1, ids), commander))
    if not (life or damage or casts or body.undo):
        raise ApiError(400, "bad-field", "send life, damage, cast or undo")
    served = seat.server.served
    board = await in_core(
        served,
        served.reports.track,
        served.event_id,
        seat.player,
        life=life,
        damage=damage,
        casts=casts,
        undo=body.undo,
    )
    await seat.server.hub.push()
    return board


ENDPOINTS: list[Endpoint] = [
    door(
        "/api/join",
        JoinBody,
        join,
        Joined,
        "the seat's token, and its cookie `cmdraft_seat` set (HttpOnly, SameSite=Strict), and beside it "
        "`cmdraft_holds_seat=1` for the page to read (no secret). The fields as typed: the core reads them. A number, "
        "or digits, is the player's number (`#4`). 400 `bad-input` (nothing typed, or an event number that is no "
        "number: the core's words, as the terminal's), 404 `no-event`/`no-player`, 401 `wrong-code` (the message says what to check), 429 `limit` with "
        "`retry_after` (seconds: this address typed too many wrong codes; the seat is not locked), 429 `slow-down` "
        f"with `retry_after` (this seat was joined too often from this address of the network: {DEFAULT.join_burst:g} "
        f"joins at once, then one every {1 / DEFAULT.join_rate:g} s; each seat behind one router's address has its "
        "own), "
        "403 `cross-origin` (a page of another site), 409 `not-seated`. A refusal of what was typed names the field "
        "it is about, as the core says it, in `error.field`: `event`, `player` or `code` (the page puts the cursor "
        "there)",
    ),
    seat_get("/api/seat", get_seat, SeatState),
    seat_post(
        "/api/pick",
        PickBody,
        post_pick,
        SeatState,
        "the new state; `cards` are positions in `draft.cards` of the state the page showed. 409 `stale` with "
        '`"seat": SeatState` when that pack has moved on (another tab, a terminal, the timer) or has not reached the '
        "seat yet, 400 `wrong-count` "
        "(wrong count, a position not in the pack, a card twice), 409 `bot-seat`, 401 `not-your-seat` (the seat was "
        "opened on another device or terminal, or the desk gave it a new code). The pick goes through the seat's `SeatSession` as a terminal's "
        "does: the same checks and the same words as the prompt and the app (`take exactly 2 cards from this pack, "
        "not 3`)",
    ),
    seat_stream(
        "/api/stream",
        stream,
        "the messages the server sends. `seat` on connecting and on every change, whoever made it (this server, a "
        "terminal, the desk, the timer). The first state on a stream carries the whole pool; each later one only the "
        "cards added since the stream's last state (`pool_from`: the place of the first, `pool_size`: the whole "
        "pool's count; the page keeps its first `pool_from` cards and appends them), or the whole pool when it "
        'changed otherwise; send `{"type": "seat"}` for a `seat` with the whole pool (what the page does when it '
        'misses cards), `{"type": "ping"}` for a `pong`, and `{"type": "marks", "pack": int, "pick": int, "cards": '
        "[int, …]}` (what the page does as the player taps cards) for the cards the page shows marked on that pack: "
        "when the pick's time runs out the timer takes them, at most the pick's count, and the strong bot's pick for "
        "the rest; this server keeps them in memory only (a stream that opens starts with none), marks on a pack the "
        "seat no longer holds change nothing, and they are answered only when refused (`error`, 400 `bad-field`). "
        "Closed with 4401 when the token is no "
        "good (join again): on opening, and once the server sees the seat held elsewhere (a new code, the seat "
        "joined in another browser). The body shown is a pick sent on the open stream (what the page does; it posts "
        "`/api/pick` only when it has no stream): checked, rate-limited and written exactly as `POST /api/pick`, "
        "answered on the stream with `picked` (its `id` the pick's) or `refused` (the same statuses and codes; "
        "`seat` where the POST's answer has it, 401 `no-seat` once the token no longer holds the seat). The state a "
        "`picked` answer carries is not pushed on that stream again. Every message counts toward the token's rate "
        "limit (429 `slow-down`, answered `error` with its status when the message was no pick). Any other message "
        "gets an `error` with the code `bad-message` (over 1 KiB: `too-large`; a binary frame: `bad-message`). The "
        "page waits 15 s for an answer; then it closes the stream, asks for its seat again (the pick shows if it "
        "arrived) and reconnects",
        StreamPick,
        (SeatMessage, Pong, Picked, StreamRefusal, StreamError),
    ),
    seat_get(
        "/api/deck",
        get_deck,
        DeckState,
        "`main` and `sideboard` are the deck's cards with their counts; `pool` the pool's different cards, "
        "then the free basics (a card's `id` in the deck API is its place here); `closed` is null while registration "
        "is open for this player's deck (a player with no deck yet registers a first one after it closes); after round 1 is paired or the desk's `--close` time, the line saying so and that only the desk can "
        "change the deck: the page then shows the registered deck read-only; `correction` is the desk's reason when "
        "it corrected the deck",
    ),
    seat_post_decoded(
        "/api/deck",
        deck_action,
        deck_shape(),
        post_deck,
        DeckState,
        "a refused change is 400 `deck-refused` with the deck as it was. 409 `not-building` before every pod has "
        "drafted; 409 `phase-over` once registration is closed (the terminal's words)",
    ),
    seat_post(
        "/api/deck/register",
        Empty,
        post_register,
        Registered,
        "`event deck`'s own registration (same checks against the recorded pool, same transaction, same report, its "
        "problems in the order and words the desk shows; the history says `browser NAME`); 409 `phase-over` once "
        "registration is closed",
        writes=True,
    ),
    seat_file(
        "/api/export/{kind}",
        get_export,
        "the player's own pool (`kind`: `pool`) or deck (`deck`) as a file (`arena`/`txt`, `json`, `csv`, `cod`, "
        "`dck`, `dek`)",
        query="?format=F",
    ),
    seat_get(
        "/api/table",
        get_table,
        TableState,
        "the player's round, table, players (ids, names, commanders, who goes first), the table's clock "
        "(`deadline`, `remaining`, `paused`, `extra`, `over`), its result or the report waiting (with `waiting_for`: "
        "who still has to confirm, a terminal player too, who confirms with `cmdraft event table ID --player NAME "
        "--confirm`), their standing (`null` until the night's first result)",
    ),
    seat_post(
        "/api/result",
        ResultBody,
        post_result,
        TableState,
        "report the finishing order: places best first, player ids, a place of several is a draw; the table's state",
        writes=True,
    ),
    seat_post(
        "/api/result/confirm",
        ConfirmBody,
        post_confirm,
        TableState,
        'confirm, or `"agree": false` with an optional `"order"`: dispute; the table\'s state',
        writes=True,
    ),
    seat_post(
        "/api/drop",
        DropBody,
        post_drop,
        TableState,
        "drop oneself (`confirm` must be true); the table's state",
        writes=True,
    ),
    seat_post(
        "/api/game",
        GameBody,
        post_game,
        GameBoard,
        "the tracker from the table (when the desk allows it): life changes `[id, -3]`, commander damage `[victim, "
        'source, "Commander", 7]`, casts `[id, "Commander"]`, or `undo`; a life change or damage out of the core\'s '
        "range is 400 `limit` with `event game`'s words (the same range as the desk's)",
        writes=True,
    ),
]
