"""The night every printable is made from: ten players (one name in another script, one that looks like markup),
a bots draft, two rounds played (one a draw) and a third paired."""

from __future__ import annotations

from pathlib import Path

from events.storage.store import Store
from tests.helpers.night import Night

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "李小龍 [/b]"]


def printed_night(folder: Path) -> tuple[Night, int]:
    """A 10-player bots draft, two rounds played (one draw), a third paired: every printable has content."""
    events = Night(Store(folder / "event.json"))
    event_id = events.create(
        "Friday <CMR> & co", date="2026-01-16", style="bots", seed=11, secret=11, piper_stock=20
    )  # a stock: the Pipers the auto decks add
    for name in NAMES:
        events.add_player(event_id, name)
    events.seat(event_id)
    events.start_draft(event_id)
    for name in NAMES:
        events.register_deck(event_id, name, auto=True)
    for number in (1, 2):
        rnd = events.new_round(event_id)
        for table, names in enumerate(rnd.tables, start=1):
            order = " > ".join(f'"{n}"' for n in names)
            if number == 1 and table == 1:
                order = f'"{names[0]}" = "{names[1]}" > ' + " > ".join(f'"{n}"' for n in names[2:])
            events.record_result(event_id, number, table, order)
    events.new_round(event_id)
    return events, event_id
