"""A sync the device refuses, of picks written on the server's event loop: those picks are answered 503, and the
pod's next write rewrites its draft file whole and syncs it before its picks are answered (never appended after
lines the device may not hold: ``Journal.unsynced``); a pick whose own append failed is made again on the draft
as its file holds it."""

from __future__ import annotations

import errno

from events.deferred import Deferred
from events.storage import journal as journal_module
from events.storage.journal import Journal
from tests.helpers.journals import refused_sync
from tests.helpers.nights import codes_of
from tests.helpers.served import client, phone, served_night


def test_after_a_refused_sync_the_pods_next_pick_is_answered_once_its_file_is_rewritten_whole(
    tmp_path, cli, manual_clock, monkeypatch
):
    db = tmp_path / "unsynced.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)

    with client(db, event_id, manual_clock, watch=False, sync_helper=False) as web:
        ann, bo = (phone(web, event_id, name, codes[name]) for name in ("Ann", "Bo"))
        assert ann.pick_first()  # the pod's first write: the file rewritten whole (a resume), then appended to
        served = web.app.state.server.served
        path = served.table(1).draft_file()
        draft = bo.seat()["draft"]
        monkeypatch.setattr(Deferred, "sync", refused_sync)
        body = {"pack": draft["pack"], "pick": draft["pick"], "cards": list(range(draft["take"]))}
        refused = bo.post("/api/pick", body)
        monkeypatch.undo()
        assert refused.status_code == 503 and "Input/output error" in refused.json()["error"]["message"]
        inode = path.stat().st_ino
        after = ann.seat()["draft"]
        if not after["cards"]:  # Ann waits for Bo's pack: Bo's next one (the refused pick was made in memory)
            ann, after = bo, bo.seat()["draft"]
        body = {"pack": after["pack"], "pick": after["pick"], "cards": list(range(after["take"]))}
        assert ann.post("/api/pick", body).status_code == 200
        assert path.stat().st_ino != inode  # rewritten whole (a new file renamed in place), not appended to
        assert path.read_bytes().count(b"\n") == 1


def test_after_a_pick_whose_append_failed_the_same_pick_sent_again_is_taken_not_refused_as_made(
    tmp_path, cli, manual_clock, monkeypatch
):
    """The copy that took the refused pick is stale: the server's next write of the pod is made in a worker, on the
    draft opened again from its file (the loop once checked the pick against the stale copy: 409 "already made",
    with the refused cards shown in the pool)."""
    db = tmp_path / "append.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)

    def full(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    with client(db, event_id, manual_clock, watch=False, sync_helper=False) as web:
        ann, bo = (phone(web, event_id, name, codes[name]) for name in ("Ann", "Bo"))
        assert ann.pick_first()  # the resume: rewritten whole in a worker; the next ones append on the loop
        picker = bo if bo.seat()["draft"]["cards"] else ann
        served = web.app.state.server.served
        path = served.table(1).draft_file()
        kept = Journal(path).state()["picks"]
        draft = picker.seat()["draft"]
        body = {"pack": draft["pack"], "pick": draft["pick"], "cards": list(range(draft["take"]))}
        monkeypatch.setattr(journal_module.os, "write", full)
        failed = picker.post("/api/pick", body)
        monkeypatch.undo()
        assert failed.status_code >= 500 and Journal(path).state()["picks"] == kept  # the file holds none of it
        again = picker.post("/api/pick", body)  # the very same pick, sent again
        assert again.status_code == 200, again.text
        assert Journal(path).state()["picks"][: len(kept)] == kept and len(Journal(path).state()["picks"]) > len(kept)
