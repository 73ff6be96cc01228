"""A deck being built and not registered yet survives the server (or terminal) going away: every change the
builder acknowledged is kept on disk beside the database (``NAME.building/``) and taken back by the next builder,
unless a deck was registered for the player since or registration closed (then the registered deck stands).

Before: the build lived in the server's memory only, so a restart showed the registered deck again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from events.night.decks import Decks
from events.sessions.activities import EventDeck
from events.storage.building_files import building_folder
from events.storage.store import Store, belongs_to_database
from tests.helpers.night import Night
from tests.helpers.served import ORIGIN
from tests.helpers.tables import FOUR, app_of, drafted_four, four, ok  # noqa: F401  (fixtures)
from tests.helpers.tables import table_phone as phone


def shown_deck(state: dict[str, Any]) -> tuple[Any, ...]:
    """What a deck state says the deck is: commanders, Piper colors, main deck, size, registered or not."""
    main = sorted((line["card"]["name"], line["count"]) for line in state["main"])
    return (sorted(c["name"] for c in state["commanders"]), state["pipers"], main, state["size"], state["registered"])


def restarted(db: Path, event_id: int, clock: Any, code: str) -> dict[str, Any]:
    """Ann's deck as a new server over the same database (as after a restart) shows it to her phone."""
    app = app_of(db, event_id, clock)
    with TestClient(app, headers=ORIGIN):
        return ok(phone(app, event_id, "Ann", code).get("/api/deck"))


def built_unregistered(db: Path, event_id: int, clock: Any, code: str) -> dict[str, Any]:
    """Ann, on her phone, takes a card out of her registered deck and sets her Islands to 3, without registering:
    the deck state the server answered last."""
    app = app_of(db, event_id, clock)
    with TestClient(app, headers=ORIGIN):
        ann = phone(app, event_id, "Ann", code)
        spell = next(line for line in ok(ann.get("/api/deck"))["main"] if "Land" not in line["card"]["type"])
        assert ok(ann.post("/api/deck", json={"action": "remove", "cards": [[spell["card"]["id"], 1]]}))
        state = ok(ann.post("/api/deck", json={"action": "basics", "color": "U", "count": 3}))
    assert state["registered"] is False
    return state


def test_a_deck_built_on_a_phone_and_not_registered_is_the_same_deck_after_the_server_restarts(four, manual_clock):  # noqa: F811
    db, event_id, codes = four
    answered = built_unregistered(db, event_id, manual_clock, codes["Ann"])
    assert shown_deck(restarted(db, event_id, manual_clock, codes["Ann"])) == shown_deck(answered)
    (kept,) = building_folder(db).glob("*.json")
    lines = json.loads(kept.read_text())["deck"]["main"]
    drafted = [line for line in lines if line["name"] not in ("Plains", "Island", "Swamp", "Mountain", "Forest")]
    assert drafted and all(line.get("set") and line.get("number") for line in drafted)  # as stored decks name them


def test_a_deck_registered_since_drops_the_build_in_progress(four, manual_clock):  # noqa: F811
    db, event_id, codes = four
    answered = built_unregistered(db, event_id, manual_clock, codes["Ann"])
    assert shown_deck(restarted(db, event_id, manual_clock, codes["Ann"])) == shown_deck(answered)
    elsewhere = EventDeck(Night(Store(db)), event_id, "Ann")  # Ann at a terminal registers another deck
    elsewhere.session.set_basics("U", 0)
    elsewhere.session.save()
    registered = elsewhere.session.deck()
    after = restarted(db, event_id, manual_clock, codes["Ann"])
    assert after["registered"] is True and after["size"] == registered.size
    assert shown_deck(after) != shown_deck(answered)


def test_closed_registration_drops_the_build_in_progress_and_shows_the_registered_deck(four, manual_clock, cli):  # noqa: F811
    db, event_id, codes = four
    answered = built_unregistered(db, event_id, manual_clock, codes["Ann"])
    assert shown_deck(restarted(db, event_id, manual_clock, codes["Ann"])) == shown_deck(answered)
    assert cli("event", "round", event_id, "--db", db).exit_code == 0  # round 1 paired: registration closes
    after = restarted(db, event_id, manual_clock, codes["Ann"])
    assert after["closed"] and after["registered"] is True and after["size"] == 60


def test_registering_the_build_removes_it_and_the_registered_deck_comes_back(four, manual_clock):  # noqa: F811
    db, event_id, codes = four
    answered = built_unregistered(db, event_id, manual_clock, codes["Ann"])
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        ann = phone(app, event_id, "Ann", codes["Ann"])
        assert shown_deck(ok(ann.get("/api/deck"))) == shown_deck(answered)
        assert ok(ann.post("/api/deck/register", json={}))["registered"] is True
    assert not list(building_folder(db).glob("*.json"))
    again = restarted(db, event_id, manual_clock, codes["Ann"])
    assert shown_deck(again)[:4] == shown_deck(answered)[:4] and again["registered"] is True


def test_a_build_file_that_cannot_be_read_is_ignored_and_the_registered_deck_shown(four, manual_clock):  # noqa: F811
    db, event_id, codes = four
    answered = built_unregistered(db, event_id, manual_clock, codes["Ann"])
    assert shown_deck(restarted(db, event_id, manual_clock, codes["Ann"])) == shown_deck(answered)
    (kept,) = building_folder(db).glob("*.json")
    whole = kept.read_text()
    for damaged in (
        whole[: len(whole) // 2],  # half written
        whole.replace('"cmdraft-building/1"', '"cmdraft-building/9"'),  # another version's
        whole.replace('"count":', '"count":"many","was":'),  # hand-edited
        json.dumps({**json.loads(whole), "deck": {"main": [{"name": "Black Lotus", "count": 1}]}}),  # not the pool's
        "[]",
    ):
        kept.write_text(damaged)
        after = restarted(db, event_id, manual_clock, codes["Ann"])
        assert after["registered"] is True and after["size"] == 60, damaged


def test_the_terminal_builder_takes_back_the_build_in_progress_and_says_so(four):  # noqa: F811
    db, event_id, _ = four
    building = EventDeck(Night(Store(db)), event_id, "Ann", resume=True)
    card = next(iter(building.session.main))
    building.session.remove([(card, 1)])
    left = building.session.deck()
    reopened = EventDeck(Night(Store(db)), event_id, "Ann")  # the terminal closed and the command typed again
    assert reopened.session.deck().main == left.main and reopened.session.deck().commanders == left.commanders
    assert any("deck in progress is back" in notice for notice in reopened.notices)


def test_no_output_file_may_replace_a_deck_being_built(tmp_path):
    """The builds in progress are the database's own files, as its drafts' journals are."""
    database = tmp_path / "night.json"
    assert belongs_to_database(building_folder(database) / "1-1.json", database)
    assert belongs_to_database(building_folder(database), database)
    assert not belongs_to_database(tmp_path / "decks" / "1-1.json", database)


def test_a_deck_registered_elsewhere_just_after_this_builders_own_is_not_taken_for_its_own(four, monkeypatch):  # noqa: F811
    """Before: a builder registered its deck, then read the registration that stands in another transaction and
    took it for its own; a terminal's registration landing in between was taken for this builder's, so the builder
    went on showing (and keeping on disk, built on that registration) a deck that was not the registered one."""
    db, event_id, _ = four
    building = EventDeck(Night(Store(db)), event_id, "Ann", resume=True)
    card = next(iter(building.session.main))
    building.session.remove([(card, 1)])
    own = Decks.register_deck

    def and_a_terminal_just_after(self, *args, **options):
        registered = own(self, *args, **options)
        monkeypatch.setattr(Decks, "register_deck", own)
        elsewhere = EventDeck(Night(Store(db)), event_id, "Ann", resume=True)  # Ann's terminal, just then
        elsewhere.session.set_basics("W", 3)  # registers the deck with 3 Plains
        elsewhere.session.save()
        return registered

    monkeypatch.setattr(Decks, "register_deck", and_a_terminal_just_after)
    building.session.save()
    registered = Night(Store(db)).deck_of(event_id, Night(Store(db)).player(event_id, "Ann").id)
    assert registered is not None and building.session.deck().main == registered.main  # the deck that stands
    assert any("registered for 'Ann' elsewhere" in notice for notice in building.notices)
