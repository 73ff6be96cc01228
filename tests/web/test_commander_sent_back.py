"""A legend leading when the deck takes the Piper (or Faceless One) it can't pair with goes back to the pool, and
every face says why in the words the phone's crown refuses the pair with (before: the terminal said only "Back to
your pool", the phone nothing)."""

from __future__ import annotations

from starlette.testclient import TestClient

from draft.commanders import can_pair
from draft.decks import is_piper
from draft.formats import parse
from draft.sim import piper_card
from events.storage.store import Store
from sets.catalog import load_set
from tests.helpers.night import Night
from tests.helpers.served import ORIGIN
from tests.helpers.tables import app_of, drafted_four, four, ok  # noqa: F401  (fixtures)
from tests.helpers.tables import table_phone as phone


def lone_legend():
    """A CMR legend with no partner ability: it can't lead beside the Piper."""
    piper = piper_card("CMR")
    return next(
        c for c in load_set("CMR").cards if c.is_legendary and "Creature" in c.type_line and not can_pair(c, piper)
    )


def pool_text(legend) -> str:
    commons = [c for c in load_set("CMR").cards if c.rarity.letter == "C" and not c.is_legendary and not is_piper(c)]
    return "\n".join(f"1 {c.name}" for c in [legend, *commons[:40]])


def test_a_legend_sent_back_for_the_piper_is_told_why_at_the_terminal_and_the_phone_in_the_crowns_words(
    four,  # noqa: F811
    manual_clock,
    cli,
):
    db, event_id, codes = four
    legend = lone_legend()
    Night(Store(db)).record_pool(event_id, "Ann", parse(pool_text(legend)), replace=True)
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        ann = phone(app, event_id, "Ann", codes["Ann"])
        deck = ok(ann.get("/api/deck"))
        legend_id = next(line["card"]["id"] for line in deck["pool"] if line["card"]["name"] == legend.name)
        ok(ann.post("/api/deck", json={"action": "commanders", "cards": [legend_id]}))
        led = ok(ann.post("/api/deck", json={"action": "pipers", "colors": ["U"]}))
        assert [c["name"] for c in led["commanders"]] == ["The Prismatic Piper"]
        crowned = ann.post("/api/deck", json={"action": "commanders", "cards": [led["commanders"][0]["id"], legend_id]})
    assert crowned.status_code == 400
    refusal = crowned.json()["error"]["message"].removesuffix(" — the commanders are unchanged")
    assert refusal.startswith(f"The Prismatic Piper and {legend.name} can't be commanders together: ")
    assert led["said"] == f"Back to your pool: {legend.name} ({refusal})"  # the phone: the crown's words, as why
    terminal = cli(
        "event", "deck", event_id, "Ann", "--build", "--db", db, input=f"commander {legend.name}\npiper U\nquit\n"
    )
    assert led["said"] in " ".join(terminal.stdout.split())  # the terminal: the same line
