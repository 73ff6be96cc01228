"""MTGO ``.dek`` XML: cards with a quantity and a sideboard flag.

MTGO keeps a Commander deck's commanders, and only them, in the sideboard; so
this writer puts the commanders there and leaves the rest of the pool out (it
belongs in the pool file), and the reader takes the sideboard as the command
zone (see ``resolve``).
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from dataclasses import replace

from draft.deck_state import plural
from draft.decks import Deck, DeckLine, Zone
from draft.formats.model import (
    DeckFile,
    FileFormat,
    LineError,
    element_lines,
    ordered_lines,
    xml_attribute,
    xml_deck_root,
    xml_entries,
)
from sets.cards import Card, Layout
from sets.errors import InputError
from sets.visible import quoted

# Most copies a sideboard can hold and still be only commanders (two partners, or two Pipers).
MOST_COMMANDERS = 2


class MissingMtgoIdError(InputError):
    """Cards without an MTGO catalog id: MTGO can't load a .dek line without its CatID."""

    def __init__(self, names: list[str]):
        self.names = names
        shown = ", ".join(quoted(name) for name in names[:3]) + (
            f" and {len(names) - 3} more" if len(names) > 3 else ""
        )
        super().__init__(
            f"no MTGO .dek written: MTGO needs a catalog id (CatID) for every card, and {plural(len(names), 'card')} "
            f"{'has' if len(names) == 1 else 'have'} none ({shown}); import an MTGJSON file that has them ('cmdraft sets import FILE', "
            "identifiers.mtgoId), or use another format"
        )


def mtgo_name(card: Card) -> str:
    """The name MTGO gives a card: a split card's halves joined by '/' (Fire/Ice), else the front face's name."""
    if card.layout is Layout.SPLIT and len(card.faces) > 1:
        return "/".join(face.name for face in card.faces)
    return card.front.name if len(card.faces) > 1 else card.name


def _zone(card: ElementTree.Element, position: int, result: DeckFile) -> Zone | None:
    side = card.get("Sideboard")
    if side is None or side.strip().lower() == "false":
        return Zone.MAIN
    if side.strip().lower() == "true":
        return Zone.SIDEBOARD
    result.errors.append(LineError(position, f'Sideboard="{side}"', "Sideboard must be true or false"))
    return None


def parse_mtgo(text: str, label: str = "deck") -> DeckFile:
    root = xml_deck_root(text, label, "Deck", "an MTGO .dek file")
    result = DeckFile(FileFormat.MTGO)
    lines = element_lines(root, text)
    placed = [(lines.get(id(card), position), card) for position, card in enumerate(root.iter("Cards"), start=1)]
    zoned = [(line, card, _zone(card, line, result)) for line, card in placed]
    xml_entries(
        result,
        [(card, zone) for _, card, zone in zoned if zone is not None],
        "Name",
        "Quantity",
        positions=[line for line, _, zone in zoned if zone is not None],
        catalog_id=_catalog_id,
    )
    return result


def _catalog_id(card: ElementTree.Element) -> int | None:
    value = (card.get("CatID") or "").strip()
    return int(value) if value.isascii() and value.isdigit() else None


def catalog_id(line: DeckLine) -> int | None:
    """The catalog id MTGO loads a line's copies by: a foil's own id (MTGO gives foils one of their own) when the
    card file gave it, else the card's."""
    if (line.foil or line.etched) and line.card.mtgo_foil_id:
        return line.card.mtgo_foil_id
    return line.card.mtgo_id


def missing_ids(deck: Deck) -> list[str]:
    """Names of the written cards that have no MTGO id, in deck order."""
    return list(
        dict.fromkeys(
            line.card.name for zone in (Zone.MAIN, Zone.COMMANDER) for line in deck.zone(zone) if not line.card.mtgo_id
        )
    )


def _by_catalog_id(lines: list[DeckLine]) -> list[DeckLine]:
    """One line per catalog id, copies added up: a card's foil copies on a line of their own."""
    merged: dict[int | None, DeckLine] = {}
    for line in lines:
        key = catalog_id(line)
        old = merged.get(key)
        merged[key] = line if old is None else replace(old, count=old.count + line.count)
    return list(merged.values())


def write_mtgo(deck: Deck) -> str:
    """The main deck, and the commanders in the sideboard; the deck's own sideboard is not written.

    Every line carries its card's CatID; without one for every card, ``MissingMtgoIdError`` is raised
    and nothing is written.
    """
    missing = missing_ids(deck)
    if missing:
        raise MissingMtgoIdError(missing)
    out = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
        "  <NetDeckID>0</NetDeckID>",
        "  <PreconstructedDeckID>0</PreconstructedDeckID>",
    ]
    for zone, side in ((Zone.MAIN, "false"), (Zone.COMMANDER, "true")):
        for line in _by_catalog_id(ordered_lines(deck, zone)):
            out.append(
                f'  <Cards CatID="{catalog_id(line)}" Quantity="{line.count}" Sideboard="{side}" '
                f'Name={xml_attribute(mtgo_name(line.card))} Annotation="0" />'
            )
    out.append("</Deck>")
    return "\n".join(out) + "\n"
