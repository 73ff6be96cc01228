"""A server started again mid-draft: no phone could pick while it was down, so the pick timers start over (each
player holding a pack has that pack's whole time again) instead of handing every overdue pick to the timer."""

from __future__ import annotations

import pytest

from tests.helpers.nights import codes_of
from tests.helpers.served import Phone, client, phone, served_night


def test_a_server_started_again_gives_each_player_holding_a_pack_its_whole_time_again(tmp_path, cli, manual_clock):
    db = tmp_path / "restarted.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2, timer=60)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        bo = phone(web, event_id, "Bo", codes["Bo"])
        before = ann.seat()["draft"]
        assert before["deadline"] == pytest.approx(manual_clock.now() + 60, abs=1)  # a full pack's time
    manual_clock.advance(90)  # the server is down past every deadline: no phone can pick meanwhile

    again = client(db, event_id, manual_clock, watch=False)
    server = again.app.state.server
    server.served.warm()  # what 'cmdraft serve' does as it starts, before it answers anyone
    with again:
        again.portal.call(server.watcher.step)  # the server's first look: nothing is overdue now
        ann, bo = Phone(again, ann.token), Phone(again, bo.token)
        state = ann.seat()["draft"]
        assert (state["pack"], state["pick"], len(state["cards"])) == (before["pack"], before["pick"], 20)
        assert state["deadline"] == pytest.approx(manual_clock.now() + 60, abs=1)
        assert ann.pick_first()  # Ann's own pick, made once the server is back
        assert ann.seat()["draft"]["last"]["why"] is None
        # The timer still runs: Bo, who never comes back, is picked for once his new time is up, not before.
        bo_deadline = bo.seat()["draft"]["deadline"]
        assert bo_deadline == pytest.approx(manual_clock.now() + 60, abs=1)
        manual_clock.advance(bo_deadline - manual_clock.now() - 1)
        again.portal.call(server.watcher.step)
        assert bo.seat()["draft"]["last"] is None
        manual_clock.advance(2)
        again.portal.call(server.watcher.step)
        assert "time ran out" in bo.seat()["draft"]["last"]["why"]
