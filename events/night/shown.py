"""The night's values as every face receives them, typed (msgspec structs): the base of the types the core's views
give the faces (``table_shown``, ``table_reports``) and that the web encodes as they are, a table's clock and a row
of the standings.  Fields are declared in the order the faces show them; a field that is ``UNSET`` is left out of
the JSON."""

from __future__ import annotations

from msgspec import Struct

from events.night.standings import Standing, ordinal, tie_breaker_text
from events.storage.records import Event

Number = int | float  # a figure the core gives as it has it (a whole number stays whole)


class Answer(Struct, forbid_unknown_fields=True):
    """A value the core answers a face with, as a JSON object: only these fields, in this order."""


class ClockWords(Answer):
    """What a clock says, in the core's words (``round_clock``), for a face that counts down by itself: once the
    time is up, while it is paused, and the table's extra time ("" when it has none)."""

    time_up: str
    paused: str
    extra: str


class Clock(Answer):
    """A table's clock at one moment: the round's length and this table's extra time (seconds), the time left,
    whether it is paused, when it ends (epoch seconds; None while paused), whether the time is up, and its words."""

    length: Number
    extra: Number
    remaining: Number
    paused: bool
    deadline: Number | None
    over: bool
    words: ClockWords


class StandingRow(Answer):
    """A row of the standings as the faces show it: the rank and name, points (rounded, and exact), the tie-breaks,
    whether the player dropped and their place at the final table."""

    rank: int
    rank_text: str  # the rank as every face writes it ("1st": ``Standing.rank_text``)
    name: str
    points: Number
    points_exact: str
    opponents_average: Number | None  # None before the player has played (``Standing.opponents_shown``)
    average_place: Number | None
    rounds: int
    dropped: bool
    final_place: int | None
    final_place_text: str | None  # the place at the final table as every face writes it ("2nd": ``ordinal``)
    tie_breakers: str  # the tie-breakers' figures in the core's words: "Opp. avg 1.50 · Avg place 2.00"


def standing_row(row: Standing) -> StandingRow:
    """A row of the standings as the faces show it (``Standing.to_json``'s figures, named)."""
    return StandingRow(
        rank=row.rank,
        rank_text=row.rank_text,
        name=row.name,
        points=round(float(row.points), 4),
        points_exact=str(row.points),
        opponents_average=None if row.opponents_shown is None else round(float(row.opponents_shown), 4),
        average_place=None if row.average_place is None else round(float(row.average_place), 4),
        rounds=row.rounds,
        dropped=row.dropped,
        final_place=row.final_place,
        final_place_text=None if row.final_place is None else ordinal(row.final_place),
        tie_breakers=tie_breaker_text(row),
    )


def decklists_public(event: Event) -> bool:
    """Whether everyone's decklists are public now: once the event is finished, where the desk publishes them."""
    return event.status == "finished" and event.publish_decklists
