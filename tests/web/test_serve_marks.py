"""The cards a phone shows marked (the page tells its stream as the player taps them): when the pick's time runs out
the server's timer takes them, and the strong bot's pick for the rest, as a terminal's marks are taken."""

from __future__ import annotations

import contextlib

from events.night.serving import serving
from events.sessions.table import DraftTable
from events.storage.store import Store
from events.web.live import Watcher
from tests.helpers.night import Night
from tests.helpers.nights import codes_of
from tests.helpers.served import client, phone, served_night


@contextlib.contextmanager
def ann_marking(cli, db, manual_clock):
    """A served pod of Ann, Bo and two bots with a 60-second pick timer; Ann's stream open: (web, served, stream,
    Ann's draft as first shown, the strong bot's pick for her)."""
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2, timer=60)
    with client(db, event_id, manual_clock, watch=False) as web:
        served = web.app.state.server.served
        ann = phone(web, event_id, "Ann", codes_of(db, event_id)["Ann"])
        with web.websocket_connect(f"/api/stream?token={ann.token}") as stream:
            shown = stream.receive_json()["seat"]["draft"]
            with served.locked(shown["pod"]):
                suggested = served.table(shown["pod"]).suggested_positions(shown["seat"] - 1)
            yield web, served, stream, shown, suggested, ann


def heard(stream) -> None:
    """What was sent on the stream before this is read by the server (its answer to a ping comes after)."""
    stream.send_json({"type": "ping"})
    while stream.receive_json()["type"] != "pong":
        pass


def timed_out(served, shown, manual_clock) -> tuple:
    """The clock past Ann's deadline and the server's watcher looking: her pick at pack 1 pick 1 and who made it."""
    manual_clock.advance(shown["deadline"] - manual_clock.now() + 0.5)
    Watcher(served, hub=None)._tick()  # type: ignore[arg-type]  # the watcher's look alone: nobody to push to
    with served.locked(shown["pod"]):
        session = served.table(shown["pod"])
        made = next(p for p in session.draft.log if p.seat == shown["seat"] - 1 and (p.pack, p.pick) == (1, 1))
        return made, session.taken_by(made)


def test_a_phone_that_tapped_one_card_gets_it_and_the_strong_bots_best_when_the_clock_runs_out(
    tmp_path, cli, manual_clock
):
    with ann_marking(cli, tmp_path / "marks.json", manual_clock) as (_, served, stream, shown, suggested, _):
        tapped = next(i for i in range(len(shown["cards"])) if i not in suggested)
        stream.send_json({"type": "marks", "pack": 1, "pick": 1, "cards": [tapped]})
        heard(stream)
        made, by = timed_out(served, shown, manual_clock)
    assert set(made.positions) == {tapped, suggested[0]} and by == "timer"


def test_a_phone_that_tapped_two_cards_gets_exactly_those(tmp_path, cli, manual_clock):
    with ann_marking(cli, tmp_path / "marks.json", manual_clock) as (_, served, stream, shown, suggested, _):
        tapped = [i for i in range(len(shown["cards"])) if i not in suggested][:2]
        stream.send_json({"type": "marks", "pack": 1, "pick": 1, "cards": [tapped[0]]})
        stream.send_json({"type": "marks", "pack": 1, "pick": 1, "cards": tapped})  # the page's second tap
        heard(stream)
        made, _ = timed_out(served, shown, manual_clock)
    assert set(made.positions) == set(tapped)


def test_marks_on_another_pack_or_a_stream_opened_again_are_not_taken(tmp_path, cli, manual_clock):
    """Marks naming a pack the seat doesn't hold change nothing; a stream opened again starts with none marked (a page
    loaded again shows none), until its page tells them again."""
    with ann_marking(cli, tmp_path / "marks.json", manual_clock) as (web, served, stream, shown, suggested, ann):
        tapped = next(i for i in range(len(shown["cards"])) if i not in suggested)
        stream.send_json({"type": "marks", "pack": 1, "pick": 2, "cards": [tapped]})
        heard(stream)
        with served.locked(shown["pod"]):
            assert served.table(shown["pod"]).timed_out_positions(shown["seat"] - 1) == suggested
        stream.send_json({"type": "marks", "pack": 1, "pick": 1, "cards": [tapped]})
        heard(stream)
        with web.websocket_connect(f"/api/stream?token={ann.token}") as again:
            again.receive_json()
            heard(again)
            made, _ = timed_out(served, shown, manual_clock)
    assert set(made.positions) == set(suggested)


def test_marks_out_of_the_limits_are_refused_on_the_stream(tmp_path, cli, manual_clock):
    with ann_marking(cli, tmp_path / "marks.json", manual_clock) as (_, served, stream, shown, suggested, _):
        for forged in ([-1], ["1"], [True], list(range(40))):
            stream.send_json({"type": "marks", "pack": 1, "pick": 1, "cards": forged})
            answer = stream.receive_json()
            assert (answer["type"], answer["status"]) == ("error", 400), (forged, answer)
        stream.send_json({"type": "marks", "pack": 1, "pick": 1, "cards": [0], "seat": 2})
        assert stream.receive_json()["error"]["code"] == "unknown-field"
        with served.locked(shown["pod"]):
            assert served.table(shown["pod"]).timed_out_positions(shown["seat"] - 1) == suggested


def test_a_terminal_that_looks_first_leaves_a_phones_overdue_pick_to_the_server_with_its_taps(
    tmp_path, cli, manual_clock
):
    """While ``cmdraft serve`` serves the event, the desk's draft screen or a terminal reaching the draft after Ann's
    deadline doesn't make her pick (it doesn't know what she tapped); the server does, with her tapped card."""
    db = tmp_path / "marks.json"
    with ann_marking(cli, db, manual_clock) as (_, served, stream, shown, suggested, _):
        tapped = next(i for i in range(len(shown["cards"])) if i not in suggested)
        stream.send_json({"type": "marks", "pack": 1, "pick": 1, "cards": [tapped]})
        heard(stream)
        event_id = served.event_id
        with serving(db, event_id, "http://127.0.0.1:8000"):
            manual_clock.advance(shown["deadline"] - manual_clock.now() + 0.5)
            desk: DraftTable = Night(Store(db)).draft_session(event_id, shown["pod"])
            desk.apply_timeout()  # the desk's screen looks first
            assert not [p for p in desk.draft.log if p.seat == shown["seat"] - 1]  # Ann's pick is not made
            made, by = timed_out(served, shown, manual_clock)
    assert set(made.positions) == {tapped, suggested[0]} and by == "timer"
