"""A pairing refusal is one readable line however big the night (docs/commands.md: one clear line naming the input
and what to do): it names the first three players without a deck, or tables without a result, and counts the rest.
Before: a 27-player night without decks was refused in one line of 27 names (over 800 characters)."""

from __future__ import annotations

import pytest

from events.storage.store import Store
from sets.errors import StateError
from tests.helpers.night import Night, drafted_by_bots

NAMES = [f"Player {n} of a long night" for n in range(1, 28)]


def night_without_decks(tmp_path) -> tuple[Night, int]:
    events = Night(Store(tmp_path / "night.json"))
    return events, drafted_by_bots(events, "Big", NAMES, seed=4)


def test_pairing_without_decks_names_three_players_and_counts_the_rest(tmp_path):
    events, event_id = night_without_decks(tmp_path)
    with pytest.raises(StateError) as refused:
        events.new_round(event_id)
    said = str(refused.value)
    assert said == (
        "no legal deck registered for 'Player 1 of a long night', 'Player 2 of a long night', "
        "'Player 3 of a long night' and 24 more; register them first, or pair the round anyway"
    )


def test_pairing_before_the_round_has_results_names_three_tables_and_counts_the_rest(tmp_path):
    events, event_id = night_without_decks(tmp_path)
    events.new_round(event_id, force=True)  # 27 players: 7 tables
    with pytest.raises(StateError, match=r"^round 1 still has tables without results \(tables 1 / 2 / 3 and 4 more\)"):
        events.new_round(event_id, force=True)


def test_a_final_table_refused_says_what_to_do(tmp_path):
    """Before: 'the final table is already seated', or the tables still waiting, were said without what to do."""
    from events.night.table_reports import TableReports

    events, event_id = night_without_decks(tmp_path)
    final = TableReports(events.store)
    with pytest.raises(StateError, match=r"^can't seat a final table: no round has been paired yet$"):
        final.top(event_id, 4)
    events.new_round(event_id, force=True)
    with pytest.raises(StateError) as waiting:
        final.top(event_id, 4)
    assert str(waiting.value) == (
        "every table of the last round needs its result before the final table "
        "(round 1: tables 1 / 2 / 3 and 4 more): record them first"
    )
    for number, table in enumerate(events.snapshot(event_id).rounds[0].tables, start=1):
        events.record_result(
            event_id, 1, number, " > ".join(f"#{events.player(event_id, pid).number}" for pid in table)
        )
    final.top(event_id, 4)
    with pytest.raises(
        StateError, match=r"^the final table is already seated: take it back with undo to seat another$"
    ):
        final.top(event_id, 4)
