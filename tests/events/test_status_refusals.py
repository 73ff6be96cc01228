"""A step out of order is refused (exit 3) in words that read for every status: "can't finish the event: the event is
already finished", never "while the event is finished; it needs to be playing or building".  Every caller of
``_require`` is listed with its statuses, and each status it refuses is said."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

import pytest

from events.night.base import EventBase, status_refusal
from events.night.schema import STATUSES
from events.storage.store import Store
from sets.errors import StateError
from tests.helpers.night import Night

NIGHT = Path(__file__).parents[2] / "events" / "night"

# every ``_require`` in the core: what is refused, and the statuses it needs (as its call names them)
CALLERS = {
    "open sealed pools": ("registration",),
    "start the draft": ("seated",),
    "add a player": ("registration", "seated", "drafting", "building", "playing"),
    "check players in": ("registration", "seated"),
    "drop a player": STATUSES[:-1],
    "pair a round again": ("playing",),
    "seat a final table": ("playing",),
    "change the ledger": STATUSES[:-1],
    "start a round": ("building", "playing"),
    "finish the event": ("playing", "building"),
    "seat players": ("registration",),
    "record a pool": ("drafting", "building", "seated", "registration", "playing"),
}

# each caller's refusal in each status it refuses, as the desk reads it
SAID = {
    ("open sealed pools", "seated"): "the players are already seated",
    ("open sealed pools", "drafting"): "the draft has already started",
    ("open sealed pools", "building"): "the decks are already being built",
    ("open sealed pools", "playing"): "the rounds have already started",
    ("open sealed pools", "finished"): "the event is already finished",
    ("start the draft", "registration"): "the players aren't seated yet",
    ("start the draft", "drafting"): "the draft has already started",
    ("start the draft", "building"): "the decks are already being built",
    ("start the draft", "playing"): "the rounds have already started",
    ("start the draft", "finished"): "the event is already finished",
    ("add a player", "finished"): "the event is already finished",
    ("check players in", "drafting"): "the draft has already started",
    ("check players in", "building"): "the decks are already being built",
    ("check players in", "playing"): "the rounds have already started",
    ("check players in", "finished"): "the event is already finished",
    ("drop a player", "finished"): "the event is already finished",
    ("pair a round again", "registration"): "no round has been paired yet",
    ("pair a round again", "seated"): "no round has been paired yet",
    ("pair a round again", "drafting"): "no round has been paired yet",
    ("pair a round again", "building"): "no round has been paired yet",
    ("pair a round again", "finished"): "the event is already finished",
    ("seat a final table", "registration"): "no round has been paired yet",
    ("seat a final table", "seated"): "no round has been paired yet",
    ("seat a final table", "drafting"): "no round has been paired yet",
    ("seat a final table", "building"): "no round has been paired yet",
    ("seat a final table", "finished"): "the event is already finished",
    ("change the ledger", "finished"): "the event is already finished",
    ("start a round", "registration"): "not every pod has drafted yet",
    ("start a round", "seated"): "not every pod has drafted yet",
    ("start a round", "drafting"): "not every pod has drafted yet",
    ("start a round", "finished"): "the event is already finished",
    ("finish the event", "registration"): "not every pod has drafted yet",
    ("finish the event", "seated"): "not every pod has drafted yet",
    ("finish the event", "drafting"): "not every pod has drafted yet",
    ("finish the event", "finished"): "the event is already finished",
    ("seat players", "seated"): "the players are already seated",
    ("seat players", "drafting"): "the draft has already started",
    ("seat players", "building"): "the decks are already being built",
    ("seat players", "playing"): "the rounds have already started",
    ("seat players", "finished"): "the event is already finished",
    ("record a pool", "finished"): "the event is already finished",
}


def require_calls() -> dict[str, tuple[str, ...]]:
    """Each ``_require`` call in events/night: its ``doing`` and the statuses it names (``*STATUSES[:-1]``: every
    status but finished)."""
    found: dict[str, tuple[str, ...]] = {}
    for path in NIGHT.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "_require"):
                continue
            doing = next(k.value for k in node.keywords if k.arg == "doing")
            assert isinstance(doing, ast.Constant), f"{path.name}: a _require's doing is a plain string"
            statuses: tuple[str, ...] = ()
            for arg in node.args[1:]:
                statuses += (arg.value,) if isinstance(arg, ast.Constant) else STATUSES[:-1]
            found[doing.value] = statuses
    return found


def test_every_caller_of_require_is_listed_with_its_statuses():
    assert require_calls() == CALLERS


@pytest.mark.parametrize("doing", sorted(CALLERS))
def test_each_caller_says_each_status_it_refuses_in_plain_words(doing):
    statuses = CALLERS[doing]
    for status in STATUSES:
        event = SimpleNamespace(status=status)  # all _require reads
        if status in statuses:
            EventBase._require(event, *statuses, doing=doing)  # type: ignore[arg-type]  # a stand-in event; allowed: nothing said
            continue
        with pytest.raises(StateError) as refused:
            EventBase._require(event, *statuses, doing=doing)  # type: ignore[arg-type]  # a stand-in event
        assert str(refused.value) == f"can't {doing}: {SAID[doing, status]}"
        assert status_refusal(status, statuses, doing) == str(refused.value)


def test_seating_twice_and_finishing_twice_say_it_is_already_done(tmp_path, cli):
    """Before: "can't seat players (…) while the event is seated; it needs to be registration" and "can't finish
    the event while the event is finished; it needs to be playing or building"."""
    events = Night(Store(tmp_path / "night.json"))
    event_id = events.create("Friday", style="bots", seed=7)
    for name in ("Ann", "Bo", "Cy", "Di"):
        events.add_player(event_id, name)
    db = str(events.store.path)
    assert cli("event", "seat", str(event_id), "--db", db).exit_code == 0
    again = cli("event", "seat", str(event_id), "--db", db)
    assert again.exit_code == 3
    assert again.stderr.strip() == (
        f"cmdraft: error: can't seat players: the players are already seated (to draw the pods again: 'cmdraft event seat "
        f"{event_id} --again')"
    )
    events.start_draft(event_id)
    events.finish(event_id)
    finished = cli("event", "finish", str(event_id), "--db", db)
    assert finished.exit_code == 3
    assert finished.stderr.strip() == "cmdraft: error: can't finish the event: the event is already finished"
    checkin = cli("event", "player", "checkin", str(event_id), "Ann", "--db", db)
    assert checkin.exit_code == 3
    assert checkin.stderr.strip() == (
        "cmdraft: error: can't check players in: the event is already finished (check-in comes before the draft)"
    )


def test_a_round_asked_before_every_pod_drafted_says_what_to_do_first_where_the_event_stands(tmp_path, cli):
    """Before: "can't start a round: not every pod has drafted yet", whatever the event lacked, and nothing to do."""
    from tests.helpers.nights import start, terminal_night

    db = tmp_path / "night.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2)  # seated: the draft not started
    seated = cli("event", "round", event_id, "--db", db)
    assert seated.exit_code == 3 and seated.stderr.count("\n") == 1
    assert f"(start the draft with 'cmdraft event draft {event_id}')" in seated.stderr
    start(cli, db, event_id)
    drafting = cli("event", "round", event_id, "--db", db)
    assert drafting.exit_code == 3 and f"('cmdraft event show {event_id}' shows the pods still drafting)" in (
        drafting.stderr
    )
    events = Night(Store(db))
    fresh = events.create("Next week", style="bots", seed=1)
    with pytest.raises(StateError, match=rf"seat the players with 'cmdraft event seat {fresh}', then start the draft"):
        events.new_round(fresh)
