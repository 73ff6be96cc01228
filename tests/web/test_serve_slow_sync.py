"""A disk slow to sync a pod's picks (failing, full, hung): the server's log says so once the write has waited
``WebSettings.slow_sync`` seconds (its players wait with it), once a write, and again when the picks reach the disk
(the pick is answered once they do) or the disk refuses them."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable

from events.deferred import Deferred
from tests.helpers.journals import refused_sync
from tests.helpers.nights import codes_of
from tests.helpers.served import client, phone, served_night


def pick_the_disk_holds(tmp_path, cli, manual_clock, monkeypatch, caplog, then: Callable[[Deferred], None]):
    """A pick on the stream whose sync the disk holds half a second (``slow_sync``: 0.1 s), then ``then`` does;
    the pick's answer, and what the log said meanwhile and after, of pod 1's picks."""
    db = tmp_path / "slow.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    held = threading.Event()

    def slow(self: Deferred) -> None:
        held.wait(10)  # the disk takes its time
        then(self)

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
            meanwhile = [r.getMessage() for r in caplog.records if r.getMessage().startswith("pod 1's picks")]
            held.set()
            answered = stream.receive_json()
            while answered.get("id") != 1:
                answered = stream.receive_json()
        monkeypatch.undo()
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("pod 1's picks")]
    return answered, meanwhile, said[len(meanwhile) :]


def test_a_write_the_disk_holds_up_is_said_in_the_log_once_and_again_when_it_reaches_the_disk(
    tmp_path, cli, manual_clock, monkeypatch, caplog
):
    real = Deferred.sync
    answered, meanwhile, after = pick_the_disk_holds(tmp_path, cli, manual_clock, monkeypatch, caplog, real)
    assert len(meanwhile) == 1 and meanwhile[0].startswith("pod 1's picks have waited")
    assert answered["type"] == "picked"
    assert len(after) == 1 and after[0].startswith("pod 1's picks reached the disk after")


def test_a_write_the_disk_holds_up_then_refuses_is_said_to_have_failed_not_to_have_reached_it(
    tmp_path, cli, manual_clock, monkeypatch, caplog
):
    answered, meanwhile, after = pick_the_disk_holds(tmp_path, cli, manual_clock, monkeypatch, caplog, refused_sync)
    assert len(meanwhile) == 1 and answered["status"] == 503
    assert len(after) == 1 and "could not be synced after" in after[0] and "Input/output error" in after[0]
