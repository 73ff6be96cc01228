"""Cards and decks for the deck tests, picked from the bundled set by what they are."""

from __future__ import annotations

from draft.decks import PIPER, Deck, DeckLine, Zone
from sets.basics import basic_land
from sets.card_index import card_index
from sets.cards import Face, Layout
from sets.catalog import load_set
from sets.colors import Color, ColorIdentity
from sets.identity import make_card
from sets.type_line import parse_type_line


def cmr_card(name):
    return next(card for card in load_set("CMR") if card.name == name)


def legend(identity: str, partner: bool | None = None):
    """A CMR legendary creature of exactly this identity (with or without partner).

    Every mono-colored CMR legend has partner, so one without partner is a fixture card.
    """
    wanted = ColorIdentity.parse(identity)
    for card in load_set("CMR"):
        if card.front.is_legendary_creature and card.identity == wanted and not card.chooses_color and card.main_set:
            if partner is None or card.has_partner == partner:
                return card
    cost = "{1}" + "".join("{" + letter + "}" for letter in identity)
    return fixture(f"Solo Legend {identity}", "Legendary Creature — Human", "", cost)


def spells(identity: str, count: int, exclude=()):
    """``count`` different nonland, nonlegendary CMR cards whose deck colors are exactly ``identity``."""
    wanted = ColorIdentity.parse(identity)
    found = [
        card
        for card in load_set("CMR")
        if card.deck_colors == wanted and not card.is_land and not card.is_legendary and card not in exclude
    ]
    return found[:count]


def fixture(name: str, type_line: str, text: str = "", cost: str = "", layout=Layout.NORMAL, extra_faces=()):
    supertypes, types, subtypes = parse_type_line(type_line)
    faces = [Face(name, cost, type_line, supertypes, types, subtypes, text), *extra_faces]
    return make_card(faces, layout, set_code="TST", number=name)


def basics(letter: str, count: int):
    return {basic_land(letter): count}


def with_mtgo_ids(deck):
    """The deck with an MTGO catalog id on every card (made up, stable per name), as an imported MTGJSON file gives them."""
    import zlib
    from dataclasses import replace

    from draft.decks import Deck, DeckLine

    def card_with_id(card):
        return card if card.mtgo_id else replace(card, mtgo_id=zlib.crc32(card.name.encode()) % 900_000 + 100_000)

    lines = tuple(DeckLine(card_with_id(l.card), l.count, l.zone, l.foil, l.etched) for l in deck.lines)
    return Deck(lines, deck.piper_colors, deck.name)


WHITE = [
    "Akroma's Will",
    "Alharu, Solemn Ritualist",
    "Ancestral Blade",
    "Angel of the Dawn",
    "Angelic Gift",
    "Anointer of Valor",
    "Archon of Coronation",
    "Ardenn, Intrepid Archaeologist",
    "Armored Skyhunter",
    "Austere Command",
    "Benevolent Blessing",
]


def sample_deck(colors=(Color.U,)):
    piper, akroma = cmr_card(PIPER), cmr_card("Akroma, Vision of Ixidor")
    najeela = next(card for card in card_index(["CMR"]) if card.name == "Najeela, the Blade-Blossom")
    lines = [DeckLine(piper, 1, Zone.COMMANDER), DeckLine(akroma, 1, Zone.COMMANDER)]
    lines += [
        DeckLine(card, 2 if i == 0 else 1, Zone.MAIN, foil=(i == 1))
        for i, card in enumerate(spells("W", 10) + spells("U", 10))
    ]
    lines += [DeckLine(basic_land("W"), 19, Zone.MAIN), DeckLine(basic_land("U"), 18, Zone.MAIN)]
    lines += [
        DeckLine(najeela, 1, Zone.SIDEBOARD, foil=True, etched=True),
        DeckLine(spells("B", 1)[0], 3, Zone.SIDEBOARD),
    ]
    return Deck(tuple(lines), tuple(colors), "Piper & Akroma")
