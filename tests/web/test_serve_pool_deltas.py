"""The pool on the seat's stream (issue 41): the first state a stream sends carries the whole pool, each later one
only the cards added since the stream's last state (``pool_from``: where they start), so a pick's answer carries
the one or two cards it took instead of the whole pool again; a new stream (a reconnect) and a ``seat`` message
get the whole pool, and a pool that changed otherwise than by growing is sent whole."""

from __future__ import annotations

import asyncio

import msgspec
import pytest
from msgspec.structs import replace
from starlette.websockets import WebSocketDisconnect

from events.web.answers import SeatMessage, SeatState
from events.web.live import Connection
from tests.helpers.nights import codes_of
from tests.helpers.served import client, phone, served_night


def held(pool: list[dict], seat: dict) -> list[dict]:
    """The pool as the page holds it after a state (docs/api.md): its first ``pool_from`` cards, then the state's."""
    assert len(pool) >= seat["pool_from"], "the stream sent cards after a place the page never reached"
    whole = pool[: seat["pool_from"]] + seat["pool"]
    assert len(whole) == seat["pool_size"]
    return whole


def test_a_stream_carries_the_whole_pool_first_then_only_the_cards_each_pick_took(tmp_path, cli, manual_clock):
    db = tmp_path / "deltas.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann, bo = (phone(web, event_id, name, codes[name]) for name in ("Ann", "Bo"))
        with web.websocket_connect(f"/api/stream?token={ann.token}") as stream:
            first = stream.receive_json()["seat"]
            assert (first["pool"], first["pool_from"], first["pool_size"]) == ([], 0, 0)
            pool: list[dict] = []
            taken_so_far: list[str] = []
            for number in range(1, 8):
                draft = ann.seat()["draft"]
                while not draft["cards"]:  # Ann waits for Bo's pack: Bo picks, its state is pushed to Ann
                    assert bo.pick_first()
                    pushed = stream.receive_json()["seat"]
                    assert pushed["pool"] == [] and pushed["pool_from"] == len(pool)  # no card added: none sent
                    pool = held(pool, pushed)
                    draft = pushed["draft"]
                positions = [0, draft["take"] - 1]
                taken = [draft["cards"][i]["name"] for i in positions]
                stream.send_json(
                    {"type": "pick", "id": number, "pack": draft["pack"], "pick": draft["pick"], "cards": positions}
                )
                answer = stream.receive_json()
                assert (answer["type"], answer["id"]) == ("picked", number)
                seat = answer["seat"]
                taken_so_far += taken
                if number > 1:  # only the two cards this pick took, after the ones the stream sent before
                    assert [card["name"] for card in seat["pool"]] == taken
                    assert seat["pool_from"] == len(taken_so_far) - 2
                pool = held(pool, seat)
                assert [card["name"] for card in pool] == taken_so_far
                assert pool == ann.seat()["pool"]  # the whole pool a request answers, ids and all
                assert ann.seat()["pool_from"] == 0
        with web.websocket_connect(f"/api/stream?token={ann.token}") as again:  # a reconnect: the whole pool
            whole = again.receive_json()["seat"]
            assert whole["pool_from"] == 0 and whole["pool"] == pool and whole["pool_size"] == len(pool) == 14
            again.send_json({"type": "seat"})  # asked for on the stream: the whole pool again
            asked = again.receive_json()
            assert asked["type"] == "seat" and asked["seat"]["pool_from"] == 0 and asked["seat"]["pool"] == pool


def test_asking_for_the_seat_on_the_stream_needs_the_seat_held(tmp_path, cli, manual_clock):
    db = tmp_path / "ask.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        with web.websocket_connect(f"/api/stream?token={ann.token}") as stream:
            stream.receive_json()
            number = ann.seat()["player"]["number"]
            reset = web.post(
                "/api/desk/reset-code", json={"player": number}, headers={"authorization": "Bearer desk-secret"}
            )
            assert reset.status_code == 200
            with pytest.raises(WebSocketDisconnect) as closed:  # the token holds the seat no more: no state
                stream.send_json({"type": "seat"})
                while True:
                    answer = stream.receive_json()
                    assert (answer["type"], answer["status"]) == ("error", 401) and "seat" not in answer
            assert closed.value.code == 4401


def state(version: int, cards: list[str]) -> SeatState:
    """A drafting seat's state whose pool holds cards named ``cards`` (their ids their places)."""
    pool = [{"name": name, "id": index} for index, name in enumerate(cards)]
    event, player = {"id": 1, "name": "Friday", "assist": False}, {"number": 1, "name": "Ann", "has_deck": False}
    shown = {"version": version, "server_time": 0.0, "event": event, "player": player, "phase": "drafting"}
    return msgspec.convert(
        shown
        | {"connection_note": None, "waiting": None, "no_builder": None, "draft": None, "table": None}
        | {"pool": msgspec.Raw(msgspec.json.encode(pool)), "pool_from": 0, "pool_size": len(cards)},
        SeatState,
    )


class Socket:
    def __init__(self) -> None:
        self.sent: list[dict] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(msgspec.json.decode(text)["seat"])


def test_a_pool_that_changed_otherwise_than_by_growing_is_sent_whole():
    socket = Socket()
    stream = Connection(socket, player=1)  # type: ignore[arg-type]  # a stand-in socket: the stream calls only send_text
    pools = [
        ["A", "B"],  # the first: whole
        ["A", "B", "C"],  # grew: C
        ["A", "B", "C"],  # the same: nothing
        ["A", "Bx", "C", "D"],  # a card held changed: whole
        ["A", "Bx", "C"],  # shrank (another pool): whole
        ["A", "Bx", "C", "E", "F"],  # grew by two
        ["A", "Bx"],  # shorter again, its cards the first ones held: whole all the same
    ]
    for version, cards in enumerate(pools):
        asyncio.run(stream.send(SeatMessage(state(version, cards))))
    sent = [([card["name"] for card in seat["pool"]], seat["pool_from"], seat["pool_size"]) for seat in socket.sent]
    assert sent == [
        (["A", "B"], 0, 2),
        (["C"], 2, 3),
        ([], 3, 3),
        (["A", "Bx", "C", "D"], 0, 4),
        (["A", "Bx", "C"], 0, 3),
        (["E", "F"], 3, 5),
        (["A", "Bx"], 0, 2),
    ]
    asyncio.run(stream.send(SeatMessage(state(9, ["A", "Bx", "G"])), whole=True))  # the page asked: whole
    assert socket.sent[-1]["pool_from"] == 0 and len(socket.sent[-1]["pool"]) == 3


def test_a_held_card_shown_otherwise_now_sends_the_pool_whole():
    """A card the page holds that is shown with more now (its image kept meanwhile): the pool goes whole."""
    socket = Socket()
    stream = Connection(socket, player=1)  # type: ignore[arg-type]  # a stand-in socket: the stream calls only send_text
    asyncio.run(stream.send(SeatMessage(state(1, ["A", "B"]))))
    longer = state(2, ["A", "B"])
    held_text = bytes(longer.pool)
    grown = msgspec.Raw(held_text[:-2] + b',"foil":true}' + b"]")  # the last card's object goes on
    asyncio.run(stream.send(SeatMessage(replace(longer, pool=grown, pool_size=2))))
    assert socket.sent[-1]["pool_from"] == 0 and socket.sent[-1]["pool"][-1] == {"name": "B", "id": 1, "foil": True}
