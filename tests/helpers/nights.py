"""Events made and seated for a test, at the desk's command line or through the night's phases, and what a test
reads back from their database (seats, seat codes)."""

from __future__ import annotations

import json
from pathlib import Path

from events.storage.store import Store
from tests.helpers.night import Night

EXIT_STATE = 3


def terminal_night(
    cli, db: Path, *humans: str, bots: int = 0, timer: int = 0, codes: bool = True, seed: int = 5, name: str = "Trust"
) -> int:
    """A terminal-style event made, filled and seated at the desk's command line."""
    made = cli(
        "event",
        "new",
        name,
        "--style",
        "terminal",
        "--timer",
        timer,
        "--seed",
        seed,
        *([] if codes else ["--no-codes"]),
        "--db",
        db,
        "--json",
    )
    assert made.exit_code == 0, made.output
    event_id = json.loads(made.stdout)["id"]
    assert cli("event", "player", "add", event_id, *humans, "--db", db).exit_code == 0
    for number in range(bots):
        assert cli("event", "player", "add", event_id, f"Bot {number + 1}", "--bot", "--db", db).exit_code == 0
    assert cli("event", "seat", event_id, "--db", db).exit_code == 0
    return event_id


def seat_of(db: Path, event_id: int, name: str) -> tuple[int, int]:
    """(pod number, seat index) of a player."""
    events = Night(Store(db))
    player = next(p for p in events.snapshot(event_id).players if p.name == name)
    return player.pod, player.seat


def start(cli, db: Path, event_id: int) -> None:
    assert cli("event", "draft", event_id, "--db", db, "--json").exit_code == 0


def codes_of(db: Path, event_id: int) -> dict[str, str]:
    with Store(db).read() as handle:
        return {
            p["name"]: p.get("code") for p in handle.table("players").all() if p["event"] == event_id and not p["bot"]
        }


NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo"]


def terminal_event(db: Path, humans=("Ann", "Bo", "Cy"), bots=("Dot",)) -> int:
    events = Night(Store(db))
    event_id = events.create("Terminal", style="terminal", seed=11)
    for name in humans:
        events.add_player(event_id, name)
    for name in bots:
        events.add_player(event_id, name, bot=True)
    events.seat(event_id)
    events.start_draft(event_id)
    return event_id


def physical_event(events, names, **options):
    """A physical event of ``names``, seated (``options``: ``Night.create``'s, e.g. ``pod_size``)."""
    event_id = events.create("Pipers", style="physical", seed=4, **options)
    for name in names:
        events.add_player(event_id, name)
    events.seat(event_id)
    return event_id


def record(events, event_id, name, text):
    from draft.formats import parse

    events.record_pool(event_id, name, parse(text))


def draft_to_the_end(db: Path, event_id: int, *, settle: bool = True) -> Night:
    """Every pod of a started draft picked to the end, each seat taking its suggested pick, and its pools recorded
    (the builder opens; ``settle`` False: left unrecorded, as a terminal that left after the last pick leaves
    them); the night, to go on with."""
    night = Night(Store(db))
    for pod in night.snapshot(event_id).pods:
        session = night.draft_session(event_id, pod.number)
        while not session.draft.finished:
            for seat in session.waiting_humans():
                session.pick(session.suggested_pick(seat))
        if settle:
            night.after_picks(event_id, pod.number, session)
    return night


def draft_first_pod_by_hint(db: Path, event_id: int):
    """The event's first pod drafted to the end, every human pick the hint's, its pools recorded: that pod."""
    night = Night(Store(db))
    pod = night.snapshot(event_id).pods[0]
    session = night.draft_session(event_id, pod.number)
    while not session.draft.finished:
        for seat in session.waiting_humans():
            session.pick(session.suggested_pick(seat))
    night.after_picks(event_id, pod.number, session)
    return pod
