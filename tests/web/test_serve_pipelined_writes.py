"""A pod's picks don't wait for its last write's sync (``pick_writer.PickWriter``): picks arriving while a write of
their pod is being synced are written at once, after it in the pod's file; every pick is still answered only once
a sync made after it is done, in the order the writes were made, and no worker shows the pod meanwhile."""

from __future__ import annotations

import threading
import time

from events.deferred import Deferred
from events.web.answers import Picked
from events.web.live import Connection
from tests.helpers.nights import codes_of
from tests.helpers.served import client, draft_log, phone, served_night


def answer_on(stream) -> dict:
    """The next answer to a pick on the stream (a push of the seat's state before it passed over)."""
    while (message := stream.receive_json())["type"] == "seat":
        pass
    return message


def test_a_pick_arriving_while_its_pods_last_write_syncs_is_written_at_once_and_answered_after_it(
    tmp_path, cli, manual_clock
):
    db = tmp_path / "pipelined.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    entered, release = threading.Event(), threading.Event()
    answered: list[int] = []
    real_sync, real_post = Deferred.sync, Connection.post

    def sync(self: Deferred, *how) -> None:
        entered.set()
        release.wait(10)  # the first write's sync held: every later one waits behind it in the sync thread
        real_sync(self, *how)

    def post(self: Connection, message) -> None:
        if isinstance(message, Picked):
            answered.append(message.id)
        real_post(self, message)

    with client(db, event_id, manual_clock, watch=False, sync_helper=False) as web:
        ann, bo = (phone(web, event_id, name, codes[name]) for name in ("Ann", "Bo"))
        assert ann.pick_first() and bo.pick_first()  # the pod's first writes (the file rewritten whole), unheld
        before = len(draft_log(db, event_id))
        with (
            web.websocket_connect(f"/api/stream?token={ann.token}") as ann_stream,
            web.websocket_connect(f"/api/stream?token={bo.token}") as bo_stream,
        ):
            shown = {name: s.receive_json()["seat"]["draft"] for name, s in (("Ann", ann_stream), ("Bo", bo_stream))}
            Deferred.sync, Connection.post = sync, post  # put back below
            seen_by_a_worker: list[int] = []
            try:
                at = shown["Ann"]
                ann_stream.send_json({"type": "pick", "id": 1, "pack": at["pack"], "pick": at["pick"], "cards": [0, 1]})
                assert entered.wait(10)
                at = shown["Bo"]
                bo_stream.send_json({"type": "pick", "id": 2, "pack": at["pack"], "pick": at["pick"], "cards": [0, 1]})
                deadline = time.monotonic() + 10
                while len(draft_log(db, event_id)) < before + 2 and time.monotonic() < deadline:
                    time.sleep(0.02)
                # Bo's pick is in the pod's file, after Ann's, though Ann's write is not synced yet
                assert [seat for seat, *_ in draft_log(db, event_id)[before:]][:2] == [0, 1]
                # a worker asked for the pod (Ann's seat, over HTTP) waits for the syncs: it never shows them early
                asking = threading.Thread(target=lambda: seen_by_a_worker.append(ann.seat()["version"]))
                asking.start()
                time.sleep(0.3)  # time enough for an answer sent too early to be sent
                assert answered == [] and seen_by_a_worker == []
                release.set()
                first, second = answer_on(ann_stream), answer_on(bo_stream)
                asking.join(10)
            finally:
                release.set()
                Deferred.sync, Connection.post = real_sync, real_post
    assert (first["type"], first["id"], second["type"], second["id"]) == ("picked", 1, "picked", 2)
    assert answered == [1, 2]  # answered in the order the writes were made
    assert seen_by_a_worker and seen_by_a_worker[0] >= second["seat"]["version"]  # the worker saw both picks
