"""Our deck files loaded by other tools' rules, and those tools' files read by us.

The readers in tests.helpers.tool_readers follow Cockatrice's, Forge's, XMage's and MTG Arena's own parsing rules
(as their public source has them); the cards are real (tests/fixtures/real_probe.json), with their MTGJSON layouts.
"""

from __future__ import annotations

import json

import pytest

from draft.decks import Deck, DeckLine, Zone
from draft.formats import FileFormat, parse, resolve, write
from sets.basics import basic_lands
from sets.card_index import CardIndex
from sets.importers import read_card_file
from tests.helpers.decks import with_mtgo_ids
from tests.helpers.paths import FIXTURES
from tests.helpers.tool_readers import (
    arena_text,
    cockatrice_cod,
    cockatrice_names,
    cockatrice_plain,
    forge_dck,
    mtgo_dek_lines,
    xmage_txt,
)

FIXTURE = FIXTURES / "real_probe.json"


@pytest.fixture(scope="module")
def rpb() -> CardIndex:
    return CardIndex([*read_card_file(FIXTURE).card_sets(), basic_lands()])


@pytest.fixture(scope="module")
def cockatrice_database() -> set[str]:
    """Every card name Cockatrice's database would hold for the fixture's cards (its oracle importer's rules)."""
    cards = json.loads(FIXTURE.read_text(encoding="utf-8"))["data"]["cards"]
    return {name for card in cards for name in cockatrice_names(card["name"], card["layout"])}


MULTI_FACED = [
    "Fire // Ice",  # split
    "Cut // Ribbons",  # aftermath
    "Bonecrusher Giant",  # adventure
    "Westvale Abbey",  # transform
    "Esika, God of the Tree",  # modal DFC
    "Erayo, Soratami Ascendant",  # flip
    "Urza, Lord Protector",  # meld
    "Nazgûl",
    "Lim-Dûl the Necromancer",
]


def _deck(rpb) -> Deck:
    return Deck.build(
        [rpb.find("Esika, God of the Tree")],
        {rpb.find(name): 1 for name in MULTI_FACED[:4] + MULTI_FACED[5:]},
        {rpb.find("Murder"): 2},
        name="Tool test",
    )


# The main deck's cards by their full names: as Forge reads them back, and as XMage and Cockatrice read back plain
# text, which names them as MTGO's text does (MTGO refuses "Fire // Ice", wanting "Fire/Ice", and names a card with
# faces by its front face: "Fire/Ice" is "Fire // Ice" to both readers, and a front face finds its card).
MAIN_NAMES = [
    "Fire // Ice",
    "Cut // Ribbons",
    "Bonecrusher Giant",
    "Westvale Abbey",
    "Erayo, Soratami Ascendant",
    "Urza, Lord Protector",
    "Nazgûl",
    "Lim-Dûl the Necromancer",
]


def test_cockatrice_finds_every_card_of_our_cod_in_its_database(rpb, cockatrice_database):
    """Cockatrice keeps split, aftermath and adventure cards as one card named "A // B" (its oracle importer
    merges their faces), and every other multi-faced card under each face's name: a .cod naming an adventure
    card by its front face names no card Cockatrice knows."""
    name, cards = cockatrice_cod(write(_deck(rpb), FileFormat.COCKATRICE))
    assert name == "Tool test"
    assert [card.name for card in cards if card.name not in cockatrice_database] == []
    assert "Bonecrusher Giant // Stomp" in {card.name for card in cards}
    side = {card.name: card.count for card in cards if card.zone == "side"}
    assert side == {"Esika, God of the Tree": 1, "Murder": 2}
    assert {card.zone for card in cards} == {"main", "side"}


def test_a_cockatrice_deck_with_an_adventure_card_reads_back(rpb):
    text = write(_deck(rpb), FileFormat.COCKATRICE)
    deck, problems = resolve(parse(text), rpb)
    assert problems == []
    assert "Bonecrusher Giant // Stomp" in {line.card.name for line in deck.zone(Zone.MAIN)}
    assert [card.name for card in deck.commanders] == ["Esika, God of the Tree // The Prismatic Bridge"]


def test_forge_reads_our_dck_by_its_card_request_rules(rpb):
    deck = Deck.build(
        [rpb.find("Esika, God of the Tree")], {rpb.find(name): 1 for name in MULTI_FACED[:4] + MULTI_FACED[5:]}
    )
    sections = forge_dck(write(deck, FileFormat.FORGE))
    assert [(card.count, card.name, card.set_code) for card in sections["commander"]] == [
        (1, "Esika, God of the Tree", "RPB")
    ]
    assert {card.name for card in sections["main"]} == set(MAIN_NAMES)
    assert all(card.set_code == "RPB" and not card.foil for card in sections["main"])


def test_mtgo_dek_read_line_by_line_as_xmage_does(rpb):
    deck = with_mtgo_ids(_deck(rpb))
    cards = mtgo_dek_lines(write(deck, FileFormat.MTGO))
    assert {card.name for card in cards if card.zone == "side"} == {"Esika, God of the Tree"}
    assert {card.name for card in cards} >= {"Fire // Ice", "Cut // Ribbons", "Bonecrusher Giant", "Nazgûl"}
    assert all(card.flags.isdigit() for card in cards)


def test_mtg_arena_reads_every_line_of_our_arena_text(rpb):
    cards = arena_text(write(_deck(rpb), FileFormat.ARENA))
    assert [(card.zone, card.name) for card in cards if card.zone == "commander"] == [
        ("commander", "Esika, God of the Tree")
    ]
    assert {card.name for card in cards if card.zone == "main"} >= {"Bonecrusher Giant", "Fire // Ice"}
    assert all(card.set_code == "RPB" and card.number for card in cards)


@pytest.mark.parametrize("reader", [cockatrice_plain, xmage_txt], ids=["cockatrice", "xmage"])
def test_plain_text_puts_the_commander_where_plain_text_readers_keep_it(rpb, reader):
    """MTGO's text layout, which Cockatrice's and XMage's plain-text readers follow: the main deck, one blank
    line, then the sideboard, which is where those programs (and MTGO) keep a Commander deck's commanders.
    Section headers would be read as cards, and the blank line before the main deck would make it the sideboard."""
    cards = reader(write(_deck(rpb), FileFormat.TEXT))
    side = {card.name: card.count for card in cards if card.zone == "side"}
    main = {card.name: card.count for card in cards if card.zone == "main"}
    assert side == {"Esika, God of the Tree": 1}
    assert main == {name: 1 for name in MAIN_NAMES}


def test_plain_text_names_cards_as_mtgo_does(rpb):
    text = write(_deck(rpb), FileFormat.TEXT)
    assert "1 Fire/Ice\n" in text and "1 Cut/Ribbons\n" in text and "1 Westvale Abbey\n" in text
    assert text.endswith("\n\n1 Esika, God of the Tree\n")
    deck, problems = resolve(parse(text), rpb)
    assert problems == [] and [card.name for card in deck.commanders] == [
        "Esika, God of the Tree // The Prismatic Bridge"
    ]


def test_convert_to_plain_text_writes_the_pool_beside_it(cli, tmp_path):
    deck = tmp_path / "deck.json"
    deck.write_text(
        '{"commanders": [{"name": "Akroma, Vision of Ixidor"}], "main": [{"name": "Murder", "count": 1}],'
        ' "sideboard": [{"name": "Murder", "count": 2}]}',
        encoding="utf-8",
    )
    result = cli("deck", "convert", deck, tmp_path / "deck.txt", "--to", "text")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "deck.txt").read_text(encoding="utf-8") == "1 Murder\n\n1 Akroma, Vision of Ixidor\n"
    pool = (tmp_path / "deck-pool.txt").read_text(encoding="utf-8")
    assert sorted(pool.splitlines()) == ["1 Akroma, Vision of Ixidor", "3 Murder"]


def test_forge_reads_a_foil_of_our_dck_as_foil(rpb):
    """Forge's card request ends a foil's name with '+' (CardRequest.fromString): a foil copy stays a foil."""
    murder, plains = rpb.find("Murder"), rpb.find("Plains")
    deck = Deck(
        (
            DeckLine(rpb.find("Esika, God of the Tree"), 1, Zone.COMMANDER, foil=True),
            DeckLine(murder, 1, Zone.MAIN, foil=True),
            DeckLine(murder, 2, Zone.MAIN),
            DeckLine(plains, 30, Zone.MAIN),
        ),
        (),
        "Foils",
    )
    sections = forge_dck(write(deck, FileFormat.FORGE))
    assert [(card.name, card.count, card.foil) for card in sections["commander"]] == [
        ("Esika, God of the Tree", 1, True)
    ]
    assert sorted((card.name, card.count, card.foil) for card in sections["main"]) == [
        ("Murder", 1, True),
        ("Murder", 2, False),
        ("Plains", 30, False),
    ]
    again, problems = resolve(parse(write(deck, FileFormat.FORGE)), rpb)
    assert problems == [] and sorted((l.card.name, l.count, l.foil) for l in again.lines) == sorted(
        (l.card.name, l.count, l.foil) for l in deck.lines
    )
