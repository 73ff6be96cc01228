"""Store events: every step of a Commander Legends draft night as a use case, in one object.

Lifecycle: ``registration`` → ``seated`` → ``drafting`` → ``building`` →
``playing`` → ``finished`` (sealed events skip seating and drafting).  Each
use case runs in one store transaction and checks that its step is in order;
``StateError`` (exit 3) says what to do first.

The use cases live in one module per phase of the night (``registration``,
``seating``, ``drafting``, ``pools``, ``pipers``, ``decks``, ``rounds``,
``games``, ``undo``; pure points and tie-breakers in ``standings``; the records in
``schema``).  ``Events`` puts every phase together for callers that want the
whole night, such as the tests; the command line and screens use the phase
they need.  The names below are the ones this module has always offered.
"""

from __future__ import annotations

from events.night.base import EventBase
from events.night.decks import Decks
from events.night.drafting import Drafting
from events.night.games import Games
from events.night.pipers import Pipers
from events.night.pools import Pools
from events.night.registration import Registration, parse_points
from events.night.rounds import Rounds, game_table_sizes, meetings, pair_by_points, split_order
from events.night.schema import (
    COMMANDER_DAMAGE_LOSS,
    DECKS,
    DRAFT_BOOSTERS,
    DRAFT_STYLES,
    EVENTS,
    GAMES,
    MAX_POD,
    PLAYERS,
    PODS,
    POOLS,
    RESULTS,
    ROUNDS,
    SEALED_BOOSTERS,
    STARTING_LIFE,
    STATUSES,
    Q,
    card_from_ref,
    card_ref,
    exact,
    expected_pool_size,
    number_text,
    pool_warning,
)
from events.night.seating import Seating, draft_pod_sizes
from events.night.standings import Standing, placement_points, point_totals, rank_standings, standings_of
from events.night.undo import Undo

__all__ = [
    "COMMANDER_DAMAGE_LOSS",
    "DECKS",
    "DRAFT_BOOSTERS",
    "DRAFT_STYLES",
    "EVENTS",
    "GAMES",
    "MAX_POD",
    "PLAYERS",
    "PODS",
    "POOLS",
    "RESULTS",
    "ROUNDS",
    "SEALED_BOOSTERS",
    "STARTING_LIFE",
    "STATUSES",
    "Decks",
    "Drafting",
    "EventBase",
    "Events",
    "Games",
    "Pipers",
    "Pools",
    "Q",
    "Registration",
    "Rounds",
    "Seating",
    "Standing",
    "card_from_ref",
    "card_ref",
    "draft_pod_sizes",
    "exact",
    "expected_pool_size",
    "game_table_sizes",
    "meetings",
    "number_text",
    "pair_by_points",
    "parse_points",
    "placement_points",
    "point_totals",
    "pool_warning",
    "rank_standings",
    "split_order",
    "standings_of",
    "Undo",
]


class Events(Registration, Seating, Drafting, Decks, Pipers, Rounds, Games, Undo):
    """Every use case of the night over one store (``Decks`` brings ``Pools``; all share ``EventBase``)."""
