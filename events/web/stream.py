"""A seat's stream (``/api/stream``): its state pushed on every change, and the messages its page sends on it
(a pick, written and answered as ``POST /api/pick`` is; the cards the page shows marked, for the pick's timer; a
``seat`` asked for whole; a ``ping``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from functools import partial
from typing import Any, Literal

import msgspec
from msgspec import UNSET
from starlette.websockets import WebSocketDisconnect

from events.night.shown import Answer
from events.web.answers import ErrorInfo, Picked, Pong, SeatMessage, SeatState, StreamError, StreamRefusal
from events.web.api_common import ApiError, Signature
from events.web.api_draft import Waiting, answer, prepare_pick, seat_place, seat_state
from events.web.bodies import PickBody, StreamMarks, StreamPick, checked
from events.web.endpoints import SeatSocket
from events.web.live import IN_FLIGHT, Connection
from events.web.seat_marks import mark_cards, stream_opened
from events.web.server import Server
from events.web.stream_socket import TAKE_NOW, WRITE_NOW

log = logging.getLogger("cmdraft.serve")
decode = msgspec.json.Decoder().decode  # a message on a stream: any JSON (its kind read from it)
decode_pick = msgspec.json.Decoder(StreamPick).decode  # a pick on a stream, all its fields of their types


async def placed(
    server: Server,
    player: int,
    token: str,
    body: PickBody,
    connection: Connection | None = None,
    mark: Signature = None,
) -> Waiting:
    """A pick read and placed at its pod, to be written with the others arriving there; ``connection``: the
    stream it came over, which the answer reaches (so it isn't pushed there too); ``mark``: the database's
    signature the caller took for its checks (``Served.database_mark``)."""
    served = server.served
    snap = served.fresh_snapshot(mark)  # most picks: placed at once, with no trip to a worker thread
    waiting = None if snap is None else prepare_pick(served, player, token, body, snap)
    if waiting is None:
        waiting = await served.run(prepare_pick, served, player, token, body)
    if waiting is None:  # only a snapshot given may leave the pick unplaced
        raise ApiError(409, "no-draft", "your pod's draft hasn't started")
    waiting.connection = connection
    return waiting


async def picked(server: Server, player: int, token: str, body: PickBody) -> SeatState:
    """A pick written with the others arriving at its pod (the pod's browsers pushed) and the seat's new state."""
    waiting = await placed(server, player, token, body)
    await server.writer.submit(waiting)
    return answer(server.served, waiting)  # the state worked out with the write


async def stream(seat: SeatSocket) -> None:
    server, socket, player, token = seat.server, seat.socket, seat.player, seat.token
    await socket.accept()
    extensions = socket.scope.get("extensions") or {}  # our own protocol's (``StreamSocket``), where it runs
    connection = Connection(socket, player, token, seat.send, eager=True, write_now=extensions.get(WRITE_NOW))
    server.hub.add(connection)
    sender = asyncio.create_task(connection.sender())
    receive = seat.receive  # each message straight from the server (no layer of Starlette's a message)
    take_texts = extensions.get(TAKE_NOW)
    if take_texts is not None:  # the usual pick taken as it arrives, this task not woken for it (``pick_now``)
        take_texts(partial(pick_now, server, token, connection))
    try:
        with contextlib.suppress(ApiError):  # the seat bound here now, not at its first pick (a damaged file: then)
            await server.served.run(stream_opened, server.served, player, token)
        await server.hub.push([player])
        while True:
            await connection.caught_up()  # a browser slow to take its answers is read no further meanwhile
            received = await receive()
            if received.get("type") != "websocket.receive":  # websocket.disconnect
                break
            text = received.get("text")
            if text is None:  # a binary frame
                await connection.send(StreamError(ErrorInfo("bad-message", "send text")))
                continue
            said = await message(server, text, token, connection)
            if said is not None:  # a pick is answered once written (``answered``), the stream reading on meanwhile
                await connection.send(said, whole=isinstance(said, SeatMessage))  # asked for: the whole pool
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        if take_texts is not None:
            take_texts(None)
        server.seen[player] = server.served.wall()  # the desk sees when the page went away
        server.hub.remove(connection)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


async def message(server: Server, text: str, token: str, connection: Connection) -> Answer | None:
    """The answer to one message a browser sent on its stream: ``ping`` (the server's time), or ``pick``
    (the pick as ``POST /api/pick`` takes it, checked and written the same way, answered ``picked`` with
    the seat's new state, or ``refused`` with the error and, when the pack moved on, the new state).  The
    stream's own origin was checked when it opened; every message counts toward the token's rate limit,
    and a pick is taken only while the token still holds the seat.  A pick placed at its pod is answered once
    written (None here: ``answered`` sends it), so the stream's task is not woken for it."""
    limit = server.settings.max_message
    if len(text) > limit:
        return StreamError(ErrorInfo("too-large", f"a message is at most {limit // 1024} KiB"))
    data: Any = None
    sent: StreamPick | None = None
    kind: str | None
    ask: int | None
    try:
        sent = decode_pick(text)  # most messages: a pick as the page sends it, read in one go
        kind, ask = "pick", None if sent.id is UNSET else sent.id
    except msgspec.DecodeError:  # another message, or a pick to be checked field by field (``checked``)
        try:
            data = decode(text)
            kind = data.get("type") if isinstance(data, dict) else None
        except msgspec.DecodeError:
            kind = None
        ask = data.get("id") if kind == "pick" else None
        ask = ask if isinstance(ask, int) and not isinstance(ask, bool) else None
    try:
        server.limits.request("seat " + token)
    except ApiError as error:
        return reply("refused" if kind == "pick" else "error", ask, error)
    if kind == "ping":
        return Pong(server.served.wall())
    if kind == "seat":
        return await whole_seat(server, token, connection)
    if kind == "marks":  # answered only when refused
        try:
            player = await server.holder(token, server.served.database_mark())
            await server.served.run(mark_cards, server.served, player, token, checked(data, StreamMarks))
        except ApiError as error:
            return reply("error", None, error)
        return None
    if kind != "pick":
        return StreamError(ErrorInfo("bad-message", 'send a "ping", a "pick", "marks" or a "seat"'))
    try:
        sent = checked(data, StreamPick) if sent is None else sent
        mark = server.served.database_mark()  # one look at the database for the token's and the pick's checks
        player = await server.holder(token, mark)
        pick = PickBody(sent.pack, sent.pick, sent.cards)
        hand_over(server, connection, ask, await placed(server, player, token, pick, connection, mark))
    except Exception as error:
        return refused(ask, error)
    return None


def pick_now(server: Server, token: str, connection: Connection, text: str) -> bool:
    """A pick on the stream taken in as it arrives, on the event loop, when nothing about it needs a wait (the
    token's holder and the event's snapshot known for the database as it is, the seat's draft in it): checked,
    counted and placed as ``message`` does, and answered once written (``answered``).  False (nothing done): the
    stream's task reads it (``message``)."""
    served = server.served
    if len(text) > server.settings.max_message or connection.writing or connection.in_flight >= IN_FLIGHT:
        return False  # (a stream with answers waiting: the task's way, which waits for them: ``caught_up``)
    try:
        sent = decode_pick(text)
    except msgspec.DecodeError:
        return False
    mark = served.database_mark()
    player = served.cached_holder(token, mark)
    snap = served.fresh_snapshot(mark)
    if player is None or snap is None:
        return False
    place = seat_place(snap, player)
    if place is None or place[2] is None:  # (the seat's draft in the snapshot: the pick is placed without a read)
        return False
    ask = None if sent.id is UNSET else sent.id
    try:
        server.limits.request("seat " + token)
        server.knows(token)
        waiting = prepare_pick(served, player, token, PickBody(sent.pack, sent.pick, sent.cards), snap, place)
        if waiting is None:  # (the snapshot has its draft: ``place``)
            raise ApiError(409, "no-draft", "your pod's draft hasn't started")
        hand_over(server, connection, ask, waiting)
    except Exception as error:
        connection.post(refused(ask, error))
    return True


def hand_over(server: Server, connection: Connection, ask: int | None, waiting: Waiting) -> None:
    """A pick placed at its pod, written with the others arriving there and answered on the stream once written
    (``answered``)."""
    waiting.connection = connection
    connection.handed_over()
    server.writer.submit_then(waiting, partial(answered, server, connection, ask, waiting))


def answered(
    server: Server, connection: Connection, ask: int | None, waiting: Waiting, error: BaseException | None
) -> None:
    """A pick from the stream written (or refused), or failed (``error``): its answer sent on the stream at once."""
    connection.answered_back()
    try:
        if error is not None:
            raise error
        said: Answer = Picked(ask, answer(server.served, waiting))
    except Exception as error:
        said = refused(ask, error)
    connection.post(said)


def refused(ask: int | None, error: Exception) -> StreamRefusal:
    """A pick refused on the stream: in the core's or the server's words (``ApiError``), else, as ``POST /api/pick``
    answers it, said in one line and the error in the server's log."""
    if isinstance(error, ApiError):
        return reply("refused", ask, error)
    log.error("unforeseen error taking a pick over the stream", exc_info=error)
    return reply("refused", ask, internal_error())


async def whole_seat(server: Server, token: str, connection: Connection) -> Answer:
    """The seat's state asked for on the stream (``seat``: the page misses pool cards), answered with its whole
    pool while the token holds the seat (``error`` 401 ``no-seat`` once it doesn't)."""
    try:
        player = await server.holder(token, server.served.database_mark())
        state = await server.served.run(seat_state, server.served, player)
    except ApiError as error:
        return reply("error", None, error)
    connection.answered(state)
    return SeatMessage(state)


def reply(kind: Literal["refused", "error"], ask: int | None, error: ApiError) -> StreamRefusal:
    """A refusal on the stream: the error as ``POST /api/pick`` answers it, with its status and the pick's id."""
    info = ErrorInfo(error.code, error.message)
    return StreamRefusal(type=kind, id=ask, status=error.status, error=info, **error.extra)


def internal_error() -> ApiError:
    return ApiError(500, "internal", "something went wrong here; it is in the server's log")
