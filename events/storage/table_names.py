"""The names of the store's tables (one TinyDB table each) that more than one module names: the records' types
(``events.storage.records.TABLES``), an event's copy between databases (``events.storage.transfer``) and the
night's history (``events.night.history``) agree on them here, below the night."""

from __future__ import annotations

EVENTS = "events"
PLAYERS = "players"
CODE_FAILURES = "code_failures"
PODS = "pods"
POOLS = "pools"
DECKS = "decks"
ROUNDS = "rounds"
RESULTS = "results"
GAMES = "games"
REPORTS = "reports"
HISTORY = "history"
