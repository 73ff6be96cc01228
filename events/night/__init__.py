"""A store event, one module per step of the night: registration, seating, drafting, pools, Pipers, decks, rounds, standings, the game tracker, undo, the history and seat codes.

The faces (``events.cli``, ``events.screens``, ``events.web``) never import ``events.storage``: what they need of the
event database (opening it, where it lives by default and the ``--db`` a command typed again needs, an event's and a
pod's records, the pick timer's range) they take from here.
"""

from events.storage.database_file import db_option, default_path
from events.storage.draft_records import check_timer
from events.storage.records import Event, Pod
from events.storage.store import Store

__all__ = ["Event", "Pod", "Store", "check_timer", "db_option", "default_path"]
