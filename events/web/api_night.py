"""The night's use cases as the web face calls them: a player's table view, a finishing order read from JSON, and a
core call that answers a report for another table 403 (``routes``: ``phone`` for a player's table, ``desk`` for the
desk's night actions, ``room`` for the standings and the room display).

Every action is the core's use case (``events.night.table_reports``: the same transaction and history entry as
the desk's command, logged as ``browser NAME``); a player acts only for their own seat and table (the seat token
names the player; the core refuses a report for another table).  The room's data holds no code and nothing a
player keeps hidden.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from events.night.table_reports import NotYourTable
from events.night.table_shown import TableState
from events.web.api_common import ApiError, Served, whole
from events.web.settings import WebSettings

T = TypeVar("T")


def order_of(value: list[list[int]], settings: WebSettings, what: str = "order") -> list[list[int]]:
    """A finishing order from JSON: places best first, each a list of player ids (several: a draw).  An empty one
    (Confirm before anyone is placed) goes to the core, which names every player it misses."""
    if len(value) > settings.max_places:
        raise ApiError(400, "bad-field", f"{what} must be a list of places, each a list of player ids: [[4], [2, 7]]")
    groups = []
    for group in value:
        if not group or len(group) > settings.max_place_size:
            raise ApiError(400, "bad-field", f"each place of {what} is a list of player ids")
        groups.append([whole(pid, "a player id", 1, settings.max_player_id) for pid in group])
    return groups


def table_state(served: Served, player_id: int) -> TableState:
    """The player's table view (in the core thread), the core's own type: what ``GET /api/table`` answers and the
    stream carries."""
    return served.views.table_view(served.event_id, player_id, now=served.wall())


async def in_core(served: Served, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """A night's use case in a worker thread: a refusal for another table is 403, other cmdraft errors as
    ``Served.run`` words them."""

    def call() -> T:
        try:
            return function(*args, **kwargs)
        except NotYourTable as error:
            raise ApiError(403, "not-your-table", str(error)) from None

    return await served.run(call)
