"""The phone's deck builder shows each commander's chosen color beside that commander, wherever it stands: the server
says it (``chosen`` in ``DeckState``, the core's pairing of colors to the commanders that choose one).

Before: a Piper added after the draft (not in the pool) had no id (-1), so "Lead with Piper" then ♛ on a partner legend,
or ✕ on the legend beside it, was refused (400, "a card id must be a whole number"); the core refused an added Piper
among the commanders named; a color chosen for the Piper was replaced by the builder's own once a legend joined it; and
the page, assuming the Pipers lead last, drew the Piper's "as G" beside the legend."""

from __future__ import annotations

from starlette.testclient import TestClient

from sets.cards import CommanderAbility
from sets.catalog import load_set
from tests.helpers.served import ORIGIN
from tests.helpers.tables import FOUR, app_of, drafted_four, four, ok  # noqa: F401  (fixtures)
from tests.helpers.tables import table_phone as phone


def test_a_piper_chosen_before_a_partner_legend_keeps_its_color_beside_it(four, manual_clock):  # noqa: F811
    db, event_id, codes = four
    partner = {c.name for c in load_set("CMR").cards if CommanderAbility.PARTNER in c.abilities}
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        for name in FOUR:
            seat = phone(app, event_id, name, codes[name])
            state = ok(seat.get("/api/deck"))
            partners = [line["card"] for line in state["pool"] if line["card"]["name"] in partner]
            if partners:
                break
        assert ok(seat.post("/api/deck", json={"action": "commanders", "cards": []}))["chosen"] == []
        state = ok(seat.post("/api/deck", json={"action": "pipers", "colors": ["G"]}))
        assert state["chosen"] == ["G"]
        piper = state["commanders"][0]["id"]
        state = ok(seat.post("/api/deck", json={"action": "commanders", "cards": [piper, partners[0]["id"]]}))
        assert [c["name"] for c in state["commanders"]] == ["The Prismatic Piper", partners[0]["name"]]
        assert state["chosen"] == ["G", None]  # the color the player chose, beside the Piper; none beside the legend
        alone = ok(seat.post("/api/deck", json={"action": "commanders", "cards": [piper]}))  # the legend's ✕
    assert [c["name"] for c in alone["commanders"]] == ["The Prismatic Piper"] and alone["chosen"] == ["G"]
