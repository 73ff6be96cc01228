"""A whole night's phases over one store, for tests that drive an event from start to finish.

``Night(store)`` holds one object of each phase (composition: ``Night`` inherits from none of
them) and hands an attribute to the first phase that has it, in the order the night runs.
The command line and screens never use it: each builds the phase it needs.
"""

from __future__ import annotations

from typing import Any

from events.night.base import EventBase
from events.night.decks import Decks
from events.night.drafting import Drafting
from events.night.games import Games
from events.night.pipers import Pipers
from events.night.registration import Registration
from events.night.rounds import Rounds
from events.night.seating import Seating
from events.night.undo import Undo
from events.storage.store import Store

PHASES = (Registration, Seating, Drafting, Decks, Pipers, Rounds, Games, Undo)


class Night:
    def __init__(self, store: Store):
        self.store = store
        self.phases: tuple[EventBase, ...] = tuple(phase(store) for phase in PHASES)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        for phase in self.phases:
            if hasattr(type(phase), name) or name in vars(phase):
                return getattr(phase, name)
        raise AttributeError(f"no phase of the night offers {name!r}")


def drafted_by_bots(events: Night, name: str, players: list[str], seed: int, one_v_one: bool = False) -> int:
    """An event of ``players`` (1v1 games with ``one_v_one``) seated and drafted by the bots, no deck registered yet.
    The event's id."""
    event_id: int = events.create(name, style="bots", seed=seed, one_v_one=one_v_one)
    for player in players:
        events.add_player(event_id, player)
    events.seat(event_id)
    events.start_draft(event_id)
    return event_id


def bots_drafted(events: Night, name: str, players: list[str], seed: int, one_v_one: bool = False) -> int:
    """An event of ``players`` (1v1 games with ``one_v_one``) seated, drafted by the bots and each registered with an
    automatic (legal) deck: the night as it stands when round 1 may be paired.  The event's id."""
    event_id = drafted_by_bots(events, name, players, seed, one_v_one)
    for player in players:
        assert events.register_deck(event_id, player, auto=True).valid, player
    return event_id
