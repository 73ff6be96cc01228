"""MTGO ``.dek`` XML: cards with a quantity and a sideboard flag.

MTGO keeps a Commander deck's commanders, and only them, in the sideboard; so
this writer puts the commanders there and leaves the rest of the pool out (it
belongs in the pool file), and the reader takes the sideboard as the command
zone (see ``resolve``).
"""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

from draft.decks import Deck, Zone
from draft.formats.model import DeckFile, FileFormat, merged_lines, ordered_lines, xml_entries, xml_root

# Most copies a sideboard can hold and still be only commanders (two partners, or two Pipers).
MOST_COMMANDERS = 2


def parse_mtgo(text: str, label: str = "deck") -> DeckFile:
    root = xml_root(text, label)
    result = DeckFile(FileFormat.MTGO)
    cards = [(card, Zone.SIDEBOARD if (card.get("Sideboard") or "false").lower() == "true" else Zone.MAIN) for card in root.iter("Cards")]
    xml_entries(result, cards, "Name", "Quantity")
    return result


def write_mtgo(deck: Deck) -> str:
    """The main deck, and the commanders in the sideboard; the deck's own sideboard is not written."""
    out = ['<?xml version="1.0" encoding="utf-8"?>',
           '<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
           "  <NetDeckID>0</NetDeckID>", "  <PreconstructedDeckID>0</PreconstructedDeckID>"]
    for zone, side in ((Zone.MAIN, "false"), (Zone.COMMANDER, "true")):
        for line in merged_lines(ordered_lines(deck, zone)):
            cat = f' CatID="{line.card.mtgo_id}"' if line.card.mtgo_id else ""
            out.append(f'  <Cards{cat} Quantity="{line.count}" Sideboard="{side}" Name={quoteattr(line.card.name)} Annotation="0" />')
    out.append("</Deck>")
    return "\n".join(out) + "\n"
