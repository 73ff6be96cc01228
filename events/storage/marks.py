"""The marks a stored record's field carries beside its msgspec ``Meta`` (``events.storage.records``), read by
the checks (``events.storage.record_checks``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Ref:
    """A field naming another record: of ``table`` by its number (or by ``field`` within the same
    event), and, with ``same_event``, a record of the same event as the one that names it."""

    table: str
    field: str = ""
    same_event: bool = False
    words: str = ""


@dataclass(frozen=True)
class Within:
    """A whole number in ``low``-``high`` where those are beyond what msgspec's own bounds hold (64 bits)."""

    low: int
    high: int
