"""A store event, one module per step of the night: registration, seating, drafting, pools, Pipers, decks, rounds, standings, the game tracker, undo, the history and seat codes.

The faces (``events.cli``, ``events.screens``, ``events.web``) never import ``events.storage`` and hold no storage
object: they open the night's database through ``events.night.opening`` (a phase of the night at a path) and ask the
phases.  The records the phases answer with are values the faces show; the two a face names in its types are here.
"""

from events.storage.records import Event, Pod

__all__ = ["Event", "Pod"]
