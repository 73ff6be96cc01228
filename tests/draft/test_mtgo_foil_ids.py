"""MTGO gives a foil printing a catalog id of its own (MTGJSON's ``identifiers.mtgoFoilId``, Scryfall's
``mtgo_foil_id``): a foil card written to a .dek carries that id, MTGO's way of saying the copy is foil, and a .dek
read back knows the copy by it."""

from __future__ import annotations

import json
from dataclasses import replace
from xml.etree import ElementTree

from draft.decks import Deck, DeckLine, Zone
from draft.formats import FileFormat, parse, resolve, write
from sets.basics import basic_land
from sets.card_index import CardIndex
from sets.cards import CardSet
from sets.catalog import load_set
from sets.mtgjson import read_mtgjson_set
from sets.scryfall import read_scryfall
from sets.set_json import card_from_json, card_to_json
from tests.helpers.cardfiles import mtgjson_card


def _set() -> CardSet:
    cards = [
        mtgjson_card("u1", "Jeska, Thrice Reborn", "186", "{2}{R}", "Legendary Planeswalker — Jeska", colors="R"),
        mtgjson_card("u2", "Murder", "134", "{1}{B}{B}", "Instant", colors="B"),
    ]
    cards[0]["identifiers"] = {"mtgoId": "84120", "mtgoFoilId": "84121"}
    cards[1]["identifiers"] = {"mtgoId": "84068", "mtgoFoilId": "84069"}
    result = read_mtgjson_set({"data": {"code": "TST", "name": "Test", "cards": cards}}, "test.json", False)
    return CardSet("TST", "Test", tuple(result.cards))


def test_mtgjson_and_scryfall_give_the_foil_id_and_the_set_file_keeps_it():
    jeska = _set().cards[0]
    assert (jeska.mtgo_id, jeska.mtgo_foil_id) == (84120, 84121)
    assert card_from_json(card_to_json(jeska), "TST").mtgo_foil_id == 84121
    scryfall = [
        {
            "object": "card",
            "name": "Murder",
            "set": "tst",
            "collector_number": "134",
            "mana_cost": "{1}{B}{B}",
            "type_line": "Instant",
            "colors": ["B"],
            "color_identity": ["B"],
            "rarity": "common",
            "layout": "normal",
            "mtgo_id": 84068,
            "mtgo_foil_id": 84069,
        }
    ]
    murder = read_scryfall(scryfall, "cards.json").cards[0]
    assert (murder.mtgo_id, murder.mtgo_foil_id) == (84068, 84069)


def test_a_foil_card_in_a_dek_carries_the_foil_id_and_reads_back_foil():
    card_set = _set()
    jeska, murder = card_set.cards
    deck = Deck(
        (
            DeckLine(jeska, 1, Zone.COMMANDER, foil=True),
            DeckLine(murder, 2, Zone.MAIN),
            DeckLine(murder, 1, Zone.MAIN, foil=True),
        )
    )
    text = write(deck, FileFormat.MTGO)
    lines = {
        (c.get("CatID"), c.get("Quantity"), c.get("Sideboard")) for c in ElementTree.fromstring(text).iter("Cards")
    }
    assert lines == {("84121", "1", "true"), ("84068", "2", "false"), ("84069", "1", "false")}
    again, problems = resolve(parse(text, FileFormat.MTGO), CardIndex([card_set]))
    assert problems == []
    assert {(l.card.name, l.count, l.zone, l.foil) for l in again.lines} == {
        ("Jeska, Thrice Reborn", 1, Zone.COMMANDER, True),
        ("Murder", 2, Zone.MAIN, False),
        ("Murder", 1, Zone.MAIN, True),
    }


def test_a_foil_without_a_foil_id_is_written_with_the_cards_id():
    """A card file that gives no foil id (or a card MTGO has no foil of) still loads: the card's own id."""
    jeska, _ = _set().cards
    plain = replace(jeska, mtgo_foil_id=None)
    text = write(Deck((DeckLine(plain, 1, Zone.COMMANDER, foil=True),)), FileFormat.MTGO)
    assert [c.get("CatID") for c in ElementTree.fromstring(text).iter("Cards")] == ["84120"]


def test_bundled_cmr_cards_and_basic_lands_take_foil_ids_from_an_imported_file(cli, tmp_path):
    """CMR ships without MTGO ids: an imported file gives them, the foil's too, by printing or by name, as it does
    the basic lands'."""
    murder = next(c for c in load_set("CMR") if c.name == "Murder")
    assert (murder.mtgo_id, murder.mtgo_foil_id) == (None, None)
    cards = [
        mtgjson_card("c1", "Murder", murder.number, "{1}{B}{B}", "Instant", colors="B"),
        mtgjson_card("c2", "Swamp", "300", "", "Basic Land — Swamp", identity="B"),
    ]
    cards[0]["identifiers"] = {"mtgoId": "84068", "mtgoFoilId": "84069"}
    cards[1]["identifiers"] = {"mtgoId": "84500", "mtgoFoilId": "84501"}
    path = tmp_path / "cmr-ids.json"
    path.write_text(json.dumps({"meta": {}, "data": {"code": "CMR", "name": "Commander Legends", "cards": cards}}))
    assert cli("sets", "import", path).exit_code == 0
    murder = next(c for c in load_set("CMR") if c.name == "Murder")
    swamp = basic_land("B")
    assert (murder.mtgo_id, murder.mtgo_foil_id) == (84068, 84069)
    assert (swamp.mtgo_id, swamp.mtgo_foil_id) == (84500, 84501)
    deck = Deck((DeckLine(murder, 1, Zone.MAIN, foil=True), DeckLine(swamp, 2, Zone.MAIN, foil=True)))
    text = write(deck, FileFormat.MTGO)
    assert sorted(c.get("CatID") for c in ElementTree.fromstring(text).iter("Cards")) == ["84069", "84501"]
