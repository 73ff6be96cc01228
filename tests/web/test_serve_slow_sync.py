"""A disk slow to sync a pod's picks (failing, full, hung): the server's log says so once the write has waited
``WebSettings.slow_sync`` seconds (its players wait with it), once a write, and again when the picks reach the disk
(the pick is answered once they do) or the disk refuses them."""

from __future__ import annotations

import asyncio
import errno
import logging
import threading

from events.deferred import Deferred
from tests.helpers.nights import codes_of
from tests.helpers.served import client, phone, served_night


def test_a_write_the_disk_holds_up_is_said_in_the_log_once_and_again_when_it_reaches_the_disk(
    tmp_path, cli, manual_clock, monkeypatch, caplog
):
    db = tmp_path / "slow.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    held = threading.Event()
    real = Deferred.sync

    def slow(self: Deferred) -> None:
        held.wait(10)  # the disk takes its time
        real(self)

    with client(db, event_id, manual_clock, watch=False, sync_helper=False, slow_sync=0.1) as web:
        ann, bo = (phone(web, event_id, name, codes[name]) for name in ("Ann", "Bo"))
        assert ann.pick_first()  # the pod's first write (a resume): synced in a worker
        picker = ann if ann.seat()["draft"]["cards"] else bo  # (Ann may wait for Bo's pack)
        monkeypatch.setattr(Deferred, "sync", slow)
        with (
            caplog.at_level(logging.WARNING, logger="cmdraft.serve"),
            web.websocket_connect(f"/api/stream?token={picker.token}") as stream,
        ):
            draft = stream.receive_json()["seat"]["draft"]
            stream.send_json({"type": "pick", "id": 1, "pack": draft["pack"], "pick": draft["pick"], "cards": [0, 1]})
            web.portal.call(asyncio.sleep, 0.5)  # a few of the server's looks at its writes
            said = [r.getMessage() for r in caplog.records if "waited" in r.getMessage()]
            assert len(said) == 1 and said[0].startswith("pod 1's picks have waited")
            held.set()
            answered = stream.receive_json()
            while answered["type"] != "picked":
                answered = stream.receive_json()
            assert answered["id"] == 1
    assert any("pod 1's picks reached the disk after" in r.getMessage() for r in caplog.records)


def test_a_write_the_disk_holds_up_then_refuses_is_said_to_have_failed_not_to_have_reached_it(
    tmp_path, cli, manual_clock, monkeypatch, caplog
):
    db = tmp_path / "refused.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    held = threading.Event()

    def slow_then_refused(self: Deferred) -> None:
        held.wait(10)
        self.close()
        raise OSError(errno.EIO, "Input/output error")

    with client(db, event_id, manual_clock, watch=False, sync_helper=False, slow_sync=0.1) as web:
        ann, bo = (phone(web, event_id, name, codes[name]) for name in ("Ann", "Bo"))
        assert ann.pick_first()
        picker = ann if ann.seat()["draft"]["cards"] else bo
        monkeypatch.setattr(Deferred, "sync", slow_then_refused)
        with (
            caplog.at_level(logging.WARNING, logger="cmdraft.serve"),
            web.websocket_connect(f"/api/stream?token={picker.token}") as stream,
        ):
            draft = stream.receive_json()["seat"]["draft"]
            stream.send_json({"type": "pick", "id": 1, "pack": draft["pack"], "pick": draft["pick"], "cards": [0, 1]})
            web.portal.call(asyncio.sleep, 0.5)
            held.set()
            answered = stream.receive_json()
            while answered.get("id") != 1:
                answered = stream.receive_json()
        monkeypatch.undo()
    assert answered["status"] == 503
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("pod 1's picks")]
    assert not any("reached the disk" in line for line in said)
    assert any("could not be synced after" in line and "Input/output error" in line for line in said)
