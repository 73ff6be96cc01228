"""A sync the device refuses, of picks written on the server's event loop: those picks are answered 503, and the
pod's next write rewrites its draft file whole and syncs it before its picks are answered (never appended after
lines the device may not hold: ``Journal.unsynced``)."""

from __future__ import annotations

from events.deferred import Deferred
from tests.helpers.nights import codes_of
from tests.helpers.served import client, phone, served_night


def test_after_a_refused_sync_the_pods_next_pick_is_answered_once_its_file_is_rewritten_whole(
    tmp_path, cli, manual_clock, monkeypatch
):
    db = tmp_path / "unsynced.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)

    def failing(self: Deferred, *how) -> None:
        self.close()
        raise OSError(5, "Input/output error")

    with client(db, event_id, manual_clock, watch=False, sync_helper=False) as web:
        ann, bo = (phone(web, event_id, name, codes[name]) for name in ("Ann", "Bo"))
        assert ann.pick_first()  # the pod's first write: the file rewritten whole (a resume), then appended to
        served = web.app.state.server.served
        path = served.table(1).draft_file()
        draft = bo.seat()["draft"]
        monkeypatch.setattr(Deferred, "sync", failing)
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
