"""The watcher pushes a pod's seats only for what this server's own writes didn't show them (issue 41: at 256 phones
its looks worked every connected seat of a busy pod out again, four times a second, for nothing): a pick written
here is pushed by its write, so the watcher's next look finds nothing; a pick made at a terminal is found, also
when a pick here caught the draft up with it first."""

from __future__ import annotations

from tests.helpers.nights import codes_of
from tests.helpers.served import client, phone, served_night
from tests.helpers.watching import terminal_pick


def looked(watcher) -> set[int]:
    """The pods one look of the watcher finds changed (the database aside)."""
    changed, watcher.database = watcher._tick()
    return {key for key in changed if key != "db"}


def test_the_watcher_finds_only_the_changes_this_servers_writes_did_not_push(tmp_path, cli, manual_clock):
    db = tmp_path / "watched.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo", "Cy"), bots=1)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        watcher = web.app.state.server.watcher
        ann, bo = (phone(web, event_id, name, codes[name]) for name in ("Ann", "Bo"))
        looked(watcher)  # the first look: every file is new to it
        assert looked(watcher) == set()
        assert ann.pick_first() and bo.pick_first()  # written here: each write pushed what it changed
        assert looked(watcher) == set()

        terminal_pick(db, event_id, "Cy")  # written elsewhere: found
        assert looked(watcher) == {1}
        assert looked(watcher) == set()

        terminal_pick(db, event_id, "Cy")
        assert bo.pick_first()  # this write caught up with Cy's pick first: the watcher still finds it
        assert looked(watcher) == {1}
        assert looked(watcher) == set()
