"""Picks sent over the seat's stream (what the player's page does while its stream is open): checked and written
exactly as ``POST /api/pick`` is, answered on the same stream, and never pushed there a second time."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import threading
import time
from dataclasses import replace

import msgspec
import pytest
from starlette.websockets import WebSocketDisconnect

from draft.engine import Draft, DraftConfig
from events.deferred import Deferred
from events.sessions.seat import SeatSession, Taken
from events.storage.store import Store
from events.web import live, pick_writer
from events.web.answers import SeatMessage, SeatState
from events.web.api_common import file_signature
from events.web.api_draft import prepare_pick, seat_state
from events.web.bodies import PickBody
from events.web.cards_shown import card_bytes, card_json, pack_json, printings_json
from events.web.live import Connection
from sets.cards import Rarity
from sets.catalog import load_set
from tests.helpers.journals import refused_sync
from tests.helpers.night import Night
from tests.helpers.nights import codes_of, start, terminal_night
from tests.helpers.served import client, draft_log, phone, served_night


def refusal(answer: dict) -> tuple:
    """A refused pick's answer on the stream, as (type, id, status, error code)."""
    return answer["type"], answer["id"], answer["status"], answer["error"]["code"]


@contextlib.contextmanager
def ann_streaming(cli, db, manual_clock):
    """A served pod of Ann, Bo and two bots; Ann joined, her stream open and its first state read."""
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        with web.websocket_connect(f"/api/stream?token={ann.token}") as stream:
            stream.receive_json()
            yield web, event_id, ann, stream


def test_a_pick_over_the_stream_is_checked_written_and_answered_there_once(tmp_path, cli, manual_clock):
    db = tmp_path / "stream.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann, bo = (phone(web, event_id, name, codes[name]) for name in ("Ann", "Bo"))
        with web.websocket_connect(f"/api/stream?token={ann.token}") as stream:
            first = stream.receive_json()["seat"]["draft"]
            assert (first["pack"], first["pick"], len(first["cards"])) == (1, 1, 20)
            before = draft_log(db, event_id)
            for forged in ([0], [0, 0], [0, 20], [0, -1], [0, 1, 2], [0, "1"], [0, 1.5], [True, 0]):
                stream.send_json({"type": "pick", "id": 1, "pack": 1, "pick": 1, "cards": forged})
                answer = stream.receive_json()
                assert (answer["type"], answer["id"], answer["status"]) == ("refused", 1, 400), (forged, answer)
                assert answer["error"]["code"] in ("wrong-count", "bad-field") and "seat" not in answer
            stream.send_json({"type": "pick", "pack": 1, "pick": 1, "cards": [0, 1], "seat": 2})
            unknown = stream.receive_json()
            assert unknown["status"] == 400 and unknown["error"]["code"] == "unknown-field"
            assert draft_log(db, event_id) == before

            stream.send_json({"type": "pick", "id": 7, "pack": 1, "pick": 1, "cards": [3, 4]})
            answer = stream.receive_json()
            assert (answer["type"], answer["id"]) == ("picked", 7)
            after = answer["seat"]["draft"]
            assert (after["pick"], len(after["cards"])) == (2, 18)  # the pack a bot passed her waited already
            assert [card["name"] for card in answer["seat"]["pool"]] == [c["name"] for c in first["cards"][3:5]]
            seat, *_ = draft_log(db, event_id)[-1]
            assert draft_log(db, event_id)[len(before) :] == [(seat, 1, 1, [c["name"] for c in first["cards"][3:5]])]

            stream.send_json({"type": "pick", "id": 8, "pack": 1, "pick": 1, "cards": [0, 1]})  # a second tap
            stale = stream.receive_json()  # the next message: the state the answer carried was not pushed again
            assert refusal(stale) == ("refused", 8, 409, "stale")
            assert stale["seat"]["draft"]["pick"] == 2
            assert bo.pick_first()  # Bo's pack goes on through the bots to Ann: pushed to her stream
            pushed = stream.receive_json()
            assert pushed["type"] == "seat" and pushed["seat"]["draft"]["queued"] == after["queued"] + 1
        made = [row[0] for row in draft_log(db, event_id)[len(before) :]]
        assert made.count(seat) == 1 and len(made) >= 2  # Ann's, Bo's, and the bots' it let happen


def test_the_stream_takes_only_pings_and_picks_within_the_limits_and_while_the_seat_is_held(
    tmp_path, cli, manual_clock
):
    db = tmp_path / "stream-limits.json"
    with ann_streaming(cli, db, manual_clock) as (web, event_id, ann, stream):
        stream.send_text('{"type": "ping"}')
        assert stream.receive_json() == {"type": "pong", "server_time": manual_clock.now()}
        for text in (
            "hello",
            "[1, 2]",
            '{"type": "deck"}',
            "{" * 5000,
            json.dumps({"type": "pick", "x": "y" * 2000}),
        ):
            stream.send_text(text)
            answer = stream.receive_json()
            assert answer["type"] == "error" and answer["error"]["code"] in ("bad-message", "too-large"), text[:20]
        before = draft_log(db, event_id)
        statuses = []
        for _ in range(70):  # picks as fast as a script can send them: the request limit holds
            stream.send_json({"type": "pick", "id": 1, "pack": 1, "pick": 9, "cards": [0, 1]})
            statuses.append(stream.receive_json()["status"])
        # a burst of 60 messages a token, less what this stream took so far: its opening, the ping and the
        # three bad messages short enough to read (the clock stands still)
        assert statuses == [409] * 55 + [429] * 15
        manual_clock.advance(10)
        reset = web.post(
            "/api/desk/reset-code",
            json={"player": ann.seat()["player"]["number"]},
            headers={"authorization": "Bearer desk-secret"},
        )
        assert reset.status_code == 200
        with pytest.raises(WebSocketDisconnect) as closed:  # this stream's token holds the seat no more
            stream.send_json({"type": "pick", "id": 2, "pack": 1, "pick": 1, "cards": [0, 1]})
            stream.receive_json()
        assert closed.value.code == 4401
        assert draft_log(db, event_id) == before


def test_a_pick_over_the_stream_refused_by_its_revoked_token_and_binary_frames_get_one_line(
    tmp_path, cli, manual_clock
):
    db = tmp_path / "stream-revoked.json"
    with ann_streaming(cli, db, manual_clock) as (web, event_id, ann, stream):
        stream.send_bytes(b'{"type": "ping"}')
        assert stream.receive_json()["error"]["code"] == "bad-message"
        # the code reset in another process (the desk's terminal): the server has not looked at the files yet
        assert cli("event", "player", "code", event_id, "Ann", "--reset", "--db", db).exit_code == 0
        stream.send_json({"type": "pick", "id": 3, "pack": 1, "pick": 1, "cards": [0, 1]})
        ended = stream.receive_json()
        assert refusal(ended) == ("refused", 3, 401, "no-seat")
        web.portal.call(web.app.state.server.watcher.step)  # its look at the files closes the stream
        with pytest.raises(WebSocketDisconnect) as closed:
            stream.receive_json()
        assert closed.value.code == 4401


def test_a_stream_opening_while_its_pod_is_written_gets_the_pack_the_write_brought(tmp_path, cli, manual_clock):
    """The write works out the states of the players connected after it, so a phone waking up meanwhile (its
    opening state worked out in the other worker before the write) gets its new pack."""
    db = tmp_path / "stream-race.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann, bo = (phone(web, event_id, name, codes[name]) for name in ("Ann", "Bo"))
        assert bo.pick_first()  # Bo waits for Ann
        shown = ann.seat()["draft"]
        server = web.app.state.server
        served, bo_id = server.served, server.served.cached_holder(bo.token)
        bo_phone = Connection(None, bo_id, bo.token)  # Bo's stream: what it is to be sent next is ``pending``

        async def ann_picks_as_bo_wakes() -> None:
            def write(served_, pod, batch, *rest):  # Bo's stream opens now: its first state is worked out first
                server.hub.add(bo_phone)
                bo_phone.offer(seat_state(served_, bo_id))
                return original(served_, pod, batch, *rest)

            pick_writer.write_picks = write
            try:
                body = PickBody(shown["pack"], shown["pick"], [0, 1])
                ann_id = served.cached_holder(ann.token)
                await server.writer.submit(await served.run(prepare_pick, served, ann_id, ann.token, body))
            finally:
                pick_writer.write_picks = original

        original = pick_writer.write_picks
        web.portal.call(ann_picks_as_bo_wakes)
        assert bo_phone.pending is not None and bo_phone.pending.draft is not None
        shown_to_bo = bo_phone.pending.draft
        assert (shown_to_bo.pick, len(msgspec.json.decode(shown_to_bo.cards))) == (2, 18), shown_to_bo


def test_a_card_corrected_or_given_its_text_shows_as_it_is_now():
    """The cards' JSON is kept between states, but never for a card that changed since (a set read again)."""
    card = load_set("CMR").cards[0]
    first = card_json(card, 3)
    assert card_json(card, 3) is first  # kept
    moved = card_json(card, 5)  # the same card at another place in its pack: its own id, the same facts
    assert moved.id == 5 and msgspec.structs.replace(moved, id=3) == first and card_json(card, 5) is moved
    corrected = replace(card, rarity=Rarity.MYTHIC, mana_value=card.mana_value + 9)
    assert card_json(corrected, 3).rarity == "M" and card_json(corrected, 3).mana_value == card.mana_value + 9
    texted = replace(corrected, faces=tuple(replace(face, text="Test text: draw a card.") for face in card.faces))
    assert card_json(texted, 3).text == ["Test text: draw a card."] * len(card.faces)


def test_a_packs_cards_are_encoded_once_for_the_pack_as_it_stands_and_anew_after_a_pick():
    """A pack's cards are kept encoded between the states that show it, as working them out anew encodes them; a
    pick gives the pack its own new list of cards, which is encoded anew (never the cards taken from it)."""
    draft = Draft.new(DraftConfig(seats=4), seed=3)
    held = draft.held(0)
    assert held is not None
    shown = pack_json(held.cards)
    assert bytes(shown) == msgspec.json.encode(printings_json(held.cards))  # the JSON a state would carry
    assert pack_json(held.cards) is shown  # kept for the next state showing this pack
    assert pack_json(list(held.cards)) is not shown  # another list (of the same cards): worked out for itself
    taken = draft.pick(0, [0, 1])
    after = pack_json(held.cards)
    assert after is not shown and draft.held(1) is not None and draft.queued(1) == 2  # passed on, behind seat 1's
    names = [card["name"] for card in msgspec.json.decode(after)]
    assert names == [printing.card.name for printing in taken.offered[2:]]  # the cards left, the first two taken


def test_an_unforeseen_error_taking_a_stream_pick_is_one_line_and_the_stream_goes_on(
    tmp_path, cli, manual_clock, monkeypatch, caplog
):
    def full_disk(*args):
        raise OSError(28, "No space left on device")

    with ann_streaming(cli, tmp_path / "stream-error.json", manual_clock) as (web, event_id, ann, stream):
        monkeypatch.setattr(pick_writer, "write_picks", full_disk)
        stream.send_json({"type": "pick", "id": 4, "pack": 1, "pick": 1, "cards": [0, 1]})
        failed = stream.receive_json()
        assert refusal(failed) == ("refused", 4, 500, "internal")
        assert "Traceback" not in json.dumps(failed)
        assert "No space left on device" in caplog.text  # the error in the server's log
        stream.send_json({"type": "ping"})
        assert stream.receive_json()["type"] == "pong"  # the stream goes on


def seat_at(version: int, server_time: float, pick: int, cards: int) -> SeatState:
    """A seat's state at pack 1, ``pick``, with ``cards`` cards in front of it (their ids their places)."""
    card = {"name": "Card", "cost": "", "mana_value": 0, "type": "Instant", "rarity": "C", "identity": "", "colors": ""}
    draft = {
        **{"pod": 1, "seat": 1, "seats": 8, "pack": 1, "packs": 3, "pick": pick, "picks": 10, "take": 2},
        **{"direction": "left", "waiting_for": 0, "waiting_on": [], "queued": 1, "deadline": None, "done": False},
        **{"bot": False, "last": None, "news": "", "waiting": ""},
        "cards": msgspec.Raw(
            msgspec.json.encode([{**card, "text": None, "id": index, "foil": False} for index in range(cards)])
        ),
    }
    event, player = {"id": 1, "name": "Friday", "assist": False}, {"number": 1, "name": "Ann", "has_deck": False}
    state = {"version": version, "server_time": server_time, "event": event, "player": player, "phase": "drafting"}
    return msgspec.convert(
        {
            **state,
            "connection_note": None,
            "waiting": None,
            "no_builder": None,
            "draft": draft,
            "pool": msgspec.Raw(b"[]"),
            "pool_from": 0,
            "pool_size": 0,
            "table": None,
        },
        SeatState,
    )


def test_a_state_worked_out_before_a_newer_one_never_replaces_it_on_the_way_to_the_phone():
    """The lost hand-off of issue 41: the watcher works a pod's states out in one worker while a pick's write in the
    other brings a seat its next pack; the write's state is offered first, the watcher's older one (worked out
    before the write) after it, and it replaced the newer one still waiting to be sent: the phone never got its
    pack and nothing changed any more to send it again.  An older state (a lower version) never replaces a newer
    one, waiting or sent; one as new or newer does."""
    waiting = seat_at(100_039, 1.0, pick=4, cards=0)
    its_pack = seat_at(100_040, 2.0, pick=5, cards=1)
    phone = Connection(None, 1)
    phone.offer(its_pack)
    phone.offer(waiting)  # the watcher's state, worked out before the write
    assert phone.pending == its_pack
    phone.pending, phone.sent = None, its_pack  # sent
    phone.offer(waiting)
    assert phone.pending is None
    later = seat_at(100_041, 2.0, pick=5, cards=0)
    phone.offer(later)
    assert phone.pending == later


def test_a_pick_written_on_the_event_loop_is_answered_only_once_its_sync_is_done(tmp_path, cli, manual_clock):
    """The event loop appends the pick and the sync thread fsyncs it (``syncer.Syncer``): while that sync has not
    returned, neither the picker's answer nor the next seat's pack is sent, and the sync covers the pod's file."""
    db = tmp_path / "synced.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    entered, release = threading.Event(), threading.Event()
    said: list[str] = []
    real_sync, real_send, real_post = Deferred.sync, Connection.send, Connection.post

    def sync(self: Deferred, *how) -> None:
        said.append("sync")
        entered.set()
        release.wait(10)
        real_sync(self, *how)
        said.append("synced")

    async def send(self: Connection, message, whole: bool = False) -> None:
        said.append(type(message).__name__)
        await real_send(self, message, whole)

    def post(self: Connection, message) -> None:
        said.append(type(message).__name__)
        real_post(self, message)

    with client(db, event_id, manual_clock, watch=False, sync_helper=False) as web:
        ann, bo = (phone(web, event_id, name, codes[name]) for name in ("Ann", "Bo"))
        assert bo.pick_first()  # the server's first write of the pod: the file rewritten whole, in a worker
        with web.websocket_connect(f"/api/stream?token={ann.token}") as stream:
            shown = stream.receive_json()["seat"]["draft"]
            spies = ((Deferred, "sync", sync), (Connection, "send", send), (Connection, "post", post))
            for owner, name, spy in spies:  # put back below
                setattr(owner, name, spy)
            try:
                stream.send_json(
                    {"type": "pick", "id": 9, "pack": shown["pack"], "pick": shown["pick"], "cards": [0, 1]}
                )
                assert entered.wait(10)
                time.sleep(0.2)  # time enough for an answer sent too early to be sent
                assert said == ["sync"]
                release.set()
                answer = stream.receive_json()
            finally:
                release.set()
                for owner, name, real in (
                    (Deferred, "sync", real_sync),
                    (Connection, "send", real_send),
                    (Connection, "post", real_post),
                ):
                    setattr(owner, name, real)
    assert answer["type"] == "picked" and answer["id"] == 9
    assert said[:3] == ["sync", "synced", "Picked"]
    assert len([row for row in draft_log(db, event_id)]) >= 2


class SlowSocket:
    """A stand-in socket whose first message waits until ``go`` is set (a phone slow to take it)."""

    def __init__(self) -> None:
        self.sent: list[int] = []
        self.go: asyncio.Event | None = None

    async def send_text(self, text: str) -> None:
        if self.go is not None and not self.sent:
            await self.go.wait()
        self.sent.append(msgspec.json.decode(text)["seat"]["version"])


def test_messages_given_while_the_socket_is_slow_go_out_after_it_in_the_order_given_and_their_givers_go_on():
    """While one task writes to a slow socket, another task's message waits behind it (never before it) and that
    task is not held up: the writing task puts it on the socket after its own."""
    socket = SlowSocket()
    stream = Connection(socket, player=1)  # type: ignore[arg-type]  # a stand-in socket: the stream calls only send_text

    async def both() -> tuple[bool, list[int], list[int]]:
        socket.go = asyncio.Event()
        first = asyncio.create_task(stream.send(SeatMessage(seat_at(100_001, 1.0, pick=1, cards=3))))
        await asyncio.sleep(0)  # the first message is on its way, the socket slow to take it
        second = asyncio.create_task(stream.send(SeatMessage(seat_at(100_002, 2.0, pick=2, cards=1))))
        await asyncio.sleep(0)
        given, meanwhile = second.done(), list(socket.sent)
        socket.go.set()
        await asyncio.gather(first, second)
        return given, meanwhile, socket.sent

    given, meanwhile, sent = asyncio.run(both())
    assert given and meanwhile == [] and sent == [100_001, 100_002]


def test_the_database_is_looked_at_once_a_turn_of_the_event_loop_and_again_at_the_next(tmp_path, cli, manual_clock):
    """The messages an event-loop turn takes share one look at the database; a change made meanwhile (another
    process: the desk) is seen from the loop's next turn on, and a worker thread always looks itself."""
    db = tmp_path / "turns.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    with client(db, event_id, manual_clock, watch=False) as web:
        served = web.app.state.server.served

        def touched() -> None:  # the file changed by another process: a new modification time
            stat = os.stat(db)
            os.utime(db, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))

        async def looks() -> tuple[object, object, object]:
            first = served.database_mark()
            touched()
            same_turn = served.database_mark()
            await asyncio.sleep(0)
            return first, same_turn, served.database_mark()

        first, same_turn, next_turn = web.portal.call(looks)
        assert same_turn == first and next_turn != first and next_turn == file_signature(db)
        touched()
        assert served.database_mark() == file_signature(db) != next_turn  # not on the loop: a look of its own


def test_a_terminals_picks_made_since_the_servers_last_look_are_caught_up_by_the_next_pick_written_on_the_loop(
    tmp_path, cli, manual_clock
):
    """Another process (a terminal at the desk) may write the pod's file at any moment: the event loop's write looks
    at the file under its lock, takes in what the terminal appended before its own pick is checked and appended
    after it, so the terminal's pick is seen (and kept), and a pick the terminal made for the same seat meanwhile
    refuses the stream's (409 ``stale``, the pick made once)."""
    db = tmp_path / "terminal.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    synced: list[int] = []  # the files each loop write's sync covered (a worker's write is no Deferred's)

    with client(db, event_id, manual_clock, watch=False) as web:
        syncer = web.app.state.server.writer.syncer
        real_submit = syncer.submit

        def submit(deferred: Deferred, done) -> None:
            synced.append(len(deferred.files))
            real_submit(deferred, done)

        ann, bo = (phone(web, event_id, name, codes[name]) for name in ("Ann", "Bo"))
        with web.websocket_connect(f"/api/stream?token={ann.token}") as stream:
            shown = stream.receive_json()["seat"]["draft"]
            ann_seat = shown["seat"] - 1
            stream.send_json({"type": "pick", "id": 1, "pack": 1, "pick": 1, "cards": [0, 1]})
            first = stream.receive_json()  # the server's first write of the pod: the file rewritten, in a worker
            assert first["type"] == "picked" and first["seat"]["draft"]["pick"] == 2
            bo_seat = bo.seat()["draft"]["seat"] - 1
            syncer.submit = submit  # a spy, put back below
            try:
                queued = Night(Store(db)).draft_session(event_id, 1).draft.queued(ann_seat)
                terminal = Night(Store(db)).draft_session(event_id, 1)  # the terminal's own copy of the draft
                at_terminal = SeatSession(terminal, bo_seat, token=bo.token)
                at_terminal.show()
                assert isinstance(at_terminal.pick(range(at_terminal.due)), Taken)
                assert Night(Store(db)).draft_session(event_id, 1).draft.queued(ann_seat) == queued + 1  # Bo's pack
                stream.send_json({"type": "pick", "id": 2, "pack": 1, "pick": 2, "cards": [0, 1]})
                answer = stream.receive_json()
                assert synced == [1]  # written on the loop, its sync covering the pod's file
                assert answer["type"] == "picked"
                draft = answer["seat"]["draft"]
                assert (draft["pick"], draft["queued"]) == (3, queued)  # one pack picked, Bo's from the terminal come
                log = draft_log(db, event_id)
                assert answer["seat"]["version"] == 100_000 + len(log)  # the draft as the file holds it
                assert [(seat, pick) for seat, _, pick, _ in log if seat in (ann_seat, bo_seat)] == [
                    (ann_seat, 1),
                    (bo_seat, 1),
                    (ann_seat, 2),
                ]

                terminal.refresh()  # the terminal sees Ann's pick 2, and takes her pick 3 itself
                at_ann_terminal = SeatSession(terminal, ann_seat, token=ann.token)
                at_ann_terminal.show()
                assert isinstance(at_ann_terminal.pick([2, 3]), Taken)
                stream.send_json({"type": "pick", "id": 3, "pack": 1, "pick": 3, "cards": [0, 1]})
                stale = stream.receive_json()
            finally:
                syncer.submit = real_submit  # the real one back
    assert refusal(stale) == ("refused", 3, 409, "stale")
    assert "your pack 1 pick 3 is already made" in stale["error"]["message"]
    assert [row for row in draft_log(db, event_id) if row[0] == ann_seat and row[2] == 3] == [
        (ann_seat, 1, 3, [c["name"] for c in draft["cards"][2:4]])
    ]


def test_a_push_goes_on_the_socket_at_once_and_one_that_must_wait_finishes_in_a_task_of_its_own():
    """``live.start_now``: a work that never waits is done before ``start_now`` returns (a push on a socket that
    takes it: no task's turn); one that waits goes on once what it waits for is done, with its value or its error,
    and a cancelled one is cancelled inside."""
    said: list[str] = []

    async def at_once() -> None:
        said.append("sent")

    ended: list[str] = []

    async def waits(future: asyncio.Future) -> None:
        said.append("before")
        try:
            said.append(f"got {await future}")
            await asyncio.sleep(0)
            said.append("after")
        except asyncio.CancelledError:
            said.append("cancelled")
            raise
        finally:
            ended.append("ended")

    async def run() -> None:
        live.start_now(at_once())
        assert said == ["sent"]
        future = asyncio.get_running_loop().create_future()
        live.start_now(waits(future))
        assert said == ["sent", "before"]
        await asyncio.sleep(0.01)
        future.set_result(7)
        await asyncio.sleep(0.01)
        assert said == ["sent", "before", "got 7", "after"]
        never = asyncio.get_running_loop().create_future()
        live.start_now(waits(never))
        (task,) = live._STARTED
        await asyncio.sleep(0)
        task.cancel()
        await asyncio.sleep(0.01)
        assert said[-2:] == ["before", "cancelled"] and not live._STARTED
        work = waits(asyncio.get_running_loop().create_future())  # held here: only closing it ends it
        live.start_now(work)
        (task,) = live._STARTED
        task.cancel()  # before its first turn: the work is closed (its ``finally`` blocks run)
        await asyncio.sleep(0.01)
        assert said[-1] == "before" and not live._STARTED
        assert ended == ["ended"] * 3

    asyncio.run(run())


def test_a_cards_encoding_kept_is_its_facts_encoded_whole_without_a_place():
    """``card_bytes`` is a pack's or a pool's card encoded once and kept: byte for byte what encoding its facts
    gives, for every card of a set, foil or not, and for a text that says ``"id":0,`` itself; no ``id`` in it (a
    card's place is its index in the list)."""
    cards = list(load_set("CMR").cards)
    tricky = replace(
        cards[0], faces=tuple(replace(face, text='A "quoted" ,"id":0, text \\ here') for face in cards[0].faces)
    )
    for card in [*cards, tricky]:
        for foil in (False, True):
            encoded = card_bytes(card, foil)
            assert encoded == msgspec.json.encode(card_json(card, None, foil)), card.name
            assert "id" not in msgspec.json.decode(encoded), card.name


def test_every_pack_of_a_draft_is_encoded_as_its_cards_at_their_places_foils_and_all():
    """``pack_json`` finds each printing's card once, in the pack's order: byte for byte the cards encoded whole,
    for every pack at every pick of a draft (foil and etched printings among them)."""
    draft = Draft.new(DraftConfig(seats=8), seed=11)
    finishes = set()
    while not draft.finished:
        for seat in draft.waiting():
            held = draft.held(seat)
            assert held is not None
            finishes.update((p.foil, p.etched) for p in held.cards)
            assert bytes(pack_json(held.cards)) == msgspec.json.encode(printings_json(held.cards))
            draft.pick(seat, list(range(draft.picks_due(seat))))
    assert (True, False) in finishes or (False, True) in finishes  # a foil or an etched printing was shown


def test_a_packs_end_is_compacted_once_the_pod_went_a_while_without_a_pick(tmp_path, cli, manual_clock):
    """A pack that ends in a write on the event loop leaves the pod's file appended to while its players pick on
    (never held up for a rewrite); once the pod went ``compact_idle`` seconds without a pick, the file is rewritten
    as one snapshot, and the draft reads the same."""
    db = tmp_path / "compact.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False, compact_idle=0.5) as web:
        ann, bo = (phone(web, event_id, name, codes[name]) for name in ("Ann", "Bo"))
        while ann.seat()["draft"]["pack"] == 1 or bo.seat()["draft"]["pack"] == 1:
            ann.pick_first()
            bo.pick_first()
        (path,) = (tmp_path / "compact.json.drafts").glob("*.json")
        for _ in range(12):  # a pick every tenth of a second, for over twice the idle time: never compacted
            assert len(path.read_bytes().splitlines()) > 1
            ann.pick_first()
            bo.pick_first()
            time.sleep(0.1)
        log = draft_log(db, event_id)
        deadline = time.monotonic() + 10
        while len(path.read_bytes().splitlines()) > 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(path.read_bytes().splitlines()) == 1  # one snapshot line
        assert draft_log(db, event_id) == log
        assert ann.pick_first() or bo.pick_first()  # and the pod picks on, appending again


def test_a_stream_opening_binds_its_seat_in_a_live_draft_so_its_first_pick_needs_no_write_of_its_own(
    tmp_path, cli, manual_clock
):
    """A phone that joined before the draft started holds no seat in the draft yet; opening its stream binds it
    there (as asking for the seat does), so the first pick is written with the others on the event loop."""
    db = tmp_path / "bind.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])  # seated, before the draft starts
        start(cli, db, event_id)
        served = web.app.state.server.served
        ann_id = next(p.id for p in served.snapshot().players if p.name == "Ann")
        seat = served.snapshot().pods[0].players.index(ann_id)
        assert Night(Store(db)).draft_session(event_id, 1).bound(seat, None)  # nobody holds it in the draft
        with web.websocket_connect(f"/api/stream?token={ann.token}") as stream:
            stream.receive_json()
            session = Night(Store(db)).draft_session(event_id, 1)
            assert not session.bound(seat, None) and session.bound(seat, ann.token)  # Ann's, in the draft's file


def test_a_pick_whose_sync_failed_is_refused_and_the_pods_seats_are_shown_the_file_again(
    tmp_path, cli, manual_clock, monkeypatch
):
    """The device refusing the sync of a write made on the event loop: its picks are refused 503 (never answered as
    taken), and the pod's seats are not taken as shown that write: the watcher's next look shows them the file as it
    is (a next seat's pack the write handed over is not left unshown)."""
    db = tmp_path / "unsynced.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)

    with client(db, event_id, manual_clock, watch=False, sync_helper=False) as web:
        ann, bo = (phone(web, event_id, name, codes[name]) for name in ("Ann", "Bo"))
        assert bo.pick_first()  # the pod's first write
        served = web.app.state.server.served
        with web.websocket_connect(f"/api/stream?token={ann.token}") as stream:
            shown = stream.receive_json()["seat"]["draft"]
            web.portal.call(web.app.state.server.watcher.step)  # the server's look: the pod's seats shown its file
            assert 1 in served.shown
            monkeypatch.setattr(Deferred, "sync", refused_sync)
            stream.send_json({"type": "pick", "id": 5, "pack": shown["pack"], "pick": shown["pick"], "cards": [0, 1]})
            failed = stream.receive_json()
            monkeypatch.undo()
    assert refusal(failed) == ("refused", 5, 503, "unavailable")
    assert "Input/output error" in failed["error"]["message"]
    assert 1 not in served.shown


def test_a_picks_outcome_told_at_once_is_told_once_and_one_failing_answer_stops_no_other(caplog):
    """A stream's pick is told its write's outcome by a call at once (``pick_writer.Told``, no future between): once,
    whatever tells it again, and an answer that raises is logged while the batch's other picks are still told."""
    told: list[object] = []

    def failing(error: BaseException | None) -> None:
        raise RuntimeError("the answer broke")

    first, second = pick_writer.Told(failing), pick_writer.Told(told.append)
    refusal = RuntimeError("the disk is gone")
    pick_writer._fail([(None, first), (None, second)], refusal)  # type: ignore[list-item]  # no Waiting is read
    second.set_result(None)  # told already: not again
    assert told == [refusal] and first.done() and second.done()
    assert "answering a pick failed" in caplog.text and "the answer broke" in caplog.text
