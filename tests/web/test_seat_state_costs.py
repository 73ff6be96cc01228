"""What a pick costs the server's event loop (issue 41: the loop's CPU a pick sets the phones' median): the parts of a
seat's state that only the event's snapshot decides are worked out once a snapshot."""

from __future__ import annotations

from events.web.api_draft import seat_state
from events.web.app import create_app
from tests.helpers.nights import start, terminal_night


def _served(tmp_path, cli, manual_clock, name: str):
    db = tmp_path / f"{name}.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", "Cy", "Dee", bots=4)
    start(cli, db, event_id)
    served = create_app(db, event_id, clock=manual_clock.monotonic, wall=manual_clock.now).state.server.served
    served.warm()
    return served


def _player(served, name: str) -> int:
    return next(player.id for player in served.snapshot().players if player.name == name)


def test_states_worked_out_from_one_snapshot_share_its_event_and_player_parts(tmp_path, cli, manual_clock):
    served = _served(tmp_path, cli, manual_clock, "frame")
    ann = _player(served, "Ann")
    first, again = seat_state(served, ann), seat_state(served, ann)
    assert first.event is again.event and first.player is again.player  # not made again for every state
    assert (first.phase, first.waiting, first.event.name) == ("drafting", None, again.event.name)
    assert first.player.name == "Ann" and first.player.has_deck is False
    served.close()


def test_a_drafting_pool_is_encoded_from_its_printings_kept_parts_not_a_card_kept_at_every_place(
    tmp_path, cli, manual_clock
):
    """A pool grows by a pick's cards with every state: they are added from the encoding each printing keeps for
    its packs (``cards_shown.shown_cards``), not encoded and kept once more for every place a pool puts a card at;
    the JSON is the same as the cards encoded one by one (no ``id``: a card's place is its index)."""
    import msgspec

    from events.web import cards_shown
    from events.web.api_draft import pool_json

    served = _served(tmp_path, cli, manual_clock, "pool")
    session = served.tables[served.snapshot().pods[0].number]
    printings = [p for booster in session.draft.boosters[0] for p in booster.printings][:40]
    pool: list = []
    for first in range(0, 40, 2):
        pool.extend(printings[first : first + 2])
        encoded = bytes(pool_json(served, 1, 0, pool))
    expected = [cards_shown.card_json(p.card, None, p.foil or p.etched) for p in pool]
    assert encoded == msgspec.json.encode(expected) and b'"id"' not in encoded
    assert not any(kept.placed for kept in cards_shown._CARDS_JSON.values())
    served.close()
