"""A deck's problems in the same order and words on the phone's builder and at the desk (``event deck``): the
judge's order (``events.outputs.deck_problems.judge_order``), several cards outside the commanders' color identity
said in one line with its rule (CR 903.5c) and what to do."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from events.outputs.deck_problems import OUTSIDE
from sets.colors import ColorIdentity
from tests.helpers.served import ORIGIN
from tests.helpers.tables import app_of, drafted_four, four, ok  # noqa: F401  (fixtures)
from tests.helpers.tables import table_phone as night_phone


def test_the_phone_says_a_decks_problems_in_the_desks_order_and_words(four, manual_clock, cli, tmp_path: Path):  # noqa: F811
    db, event_id, codes = four
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        ann = night_phone(app, event_id, "Ann", codes["Ann"])
        pool = ok(ann.get("/api/deck"))["pool"]
        legend = next(
            line["card"]
            for line in pool
            if line["card"]["type"].startswith("Legendary Creature") and len(line["card"]["identity"]) == 1
        )
        lead = ColorIdentity.parse(legend["identity"])
        outside = [
            line["card"]["id"]
            for line in pool
            if line["card"]["identity"] and not ColorIdentity.parse(line["card"]["identity"]) <= lead
        ][:3]
        assert len(outside) == 3
        ok(ann.post("/api/deck", json={"action": "commanders", "cards": [legend["id"]]}))
        state = ok(ann.post("/api/deck", json={"action": "add", "cards": [[card, 1] for card in outside]}))
        phone = [problem["message"] for problem in state["problems"]]
        assert [problem["code"] for problem in state["problems"]].count(OUTSIDE) == 1  # the cards outside: one line
        assert any(" cards outside the commanders' color identity " in message for message in phone), phone
        exported = ann.get("/api/export/deck", params={"format": "json"})
        assert exported.status_code == 200
    deck = tmp_path / "ann.json"
    deck.write_text(exported.text, encoding="utf-8")
    desk = cli("event", "deck", event_id, "Ann", deck, "--db", db)
    assert desk.exit_code == 1, desk.output
    said = " ".join(desk.stdout.split())
    assert "NOT legal: " + "; ".join(phone) in said  # the same problems, in the same order and words


def test_the_phone_warns_of_what_the_terminals_builder_warns_of_in_its_words(four, manual_clock):  # noqa: F811
    """The terminal's builder warned of a color short of sources and of a deck mostly lands; the phone's deck said
    only "Legal" (Auto build on a pool thin in the commander's colors gave a phone 36 basics and no word of it)."""
    from events.screens.deck_tables import stats_lines
    from events.storage.store import Store
    from events.web.api_deck import deck_of
    from tests.helpers.night import Night

    db, event_id, codes = four
    app = app_of(db, event_id, manual_clock)
    ann_id = next(p.id for p in Night(Store(db)).snapshot(event_id).players if p.name == "Ann")
    with TestClient(app, headers=ORIGIN):
        ann = night_phone(app, event_id, "Ann", codes["Ann"])
        state = ok(ann.get("/api/deck"))  # the deck Ann registered: legal, its colors' sources enough
        assert state["legal"] and state["cautions"] == []
        color = state["commanders"][0]["identity"][0]
        state = ok(ann.post("/api/deck", json={"action": "basics", "color": color, "count": 0}))  # its basics out
        session = deck_of(app.state.server.served, ann_id).session
        terminal = " ".join(str(line) for line in stats_lines(session.stats()))
    assert state["cautions"] and state["cautions"][0].startswith("colors short of sources: ")
    for caution in state["cautions"]:
        assert "⚠ " + caution in terminal  # the same words as the terminal's figures


def test_a_registered_deck_holding_a_card_no_set_here_has_is_refused_to_the_phone_in_the_cores_words(
    four,  # noqa: F811
    manual_clock,
):
    """The phone's builder opened the registered deck without the card (and registering there stored it so), and its
    download left the card out, without a word."""
    from events.storage.store import Store

    db, event_id, codes = four
    store = Store(db)
    with store.write() as handle:
        deck = handle.table("decks").all()[0]
        main = [*deck["deck"]["main"], {"name": "Nonexistent Card", "count": 1, "set": "CMR", "number": "9998"}]
        handle.table("decks").update({"deck": {**deck["deck"], "main": main}}, doc_ids=[deck.doc_id])
        name = handle.table("players").get(doc_id=deck["player"])["name"]
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        phone = night_phone(app, event_id, name, codes[name])
        answer = phone.get("/api/deck")
        assert answer.status_code == 409, answer.text
        assert answer.json()["error"]["message"].startswith(
            "the registered deck holds a card no set here has now ('Nonexistent Card'): import the set's file"
        )
    with store.read() as handle:
        assert handle.table("decks").get(doc_id=deck.doc_id)["deck"]["main"] == main  # nothing saved over the deck
