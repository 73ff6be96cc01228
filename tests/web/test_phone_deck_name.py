"""A deck built and registered on a phone is the player's deck by name: the registered deck, the files the phone
downloads and the files ``event export`` writes name it after the player (as ``event deck --auto`` does), never
"Practice draft 1/4" (an event deck is no practice draft).

Before: the phone's builder (the event's ``EventDeck``) named every deck "Practice draft EVENT/PLAYER", which the
Cockatrice, Forge and JSON files of a store night then carried."""

from __future__ import annotations

from starlette.testclient import TestClient

from events.storage.store import Store
from tests.helpers.night import Night
from tests.helpers.served import ORIGIN
from tests.helpers.tables import FOUR, app_of, drafted_four, four, ok  # noqa: F401  (fixtures)
from tests.helpers.tables import table_phone as phone


def test_a_deck_registered_from_a_phone_is_named_after_its_player(four, manual_clock):  # noqa: F811
    db, event_id, codes = four
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        bo = phone(app, event_id, "Bo", codes["Bo"])
        assert ok(bo.post("/api/deck", json={"action": "auto"}))
        assert ok(bo.post("/api/deck/register", json={}))["registered"]
        dck = bo.get("/api/export/deck?format=dck")
        assert dck.status_code == 200, dck.text
    assert "Name=Bo\n" in dck.text and "Practice draft" not in dck.text
    night = Night(Store(db))
    deck = night.deck_of(event_id, night.player_id(event_id, "Bo"))
    assert deck is not None and deck.name == "Bo"
