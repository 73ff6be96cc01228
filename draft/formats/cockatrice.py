"""Cockatrice ``.cod`` XML: a main zone and a side zone (commanders written first there), cards named as
Cockatrice's card database names them (``cockatrice_name``)."""

from __future__ import annotations

import re

from draft.decks import Deck, Zone
from draft.formats.model import (
    DeckFile,
    FileFormat,
    LineError,
    cockatrice_name,
    color_note,
    colors_note,
    element_lines,
    line_printing,
    merged_lines,
    ordered_lines,
    xml_attribute,
    xml_deck_root,
    xml_entries,
)
from sets.visible import visible


def looks_like_cockatrice(text: str) -> bool:
    return text.startswith("<") and "cockatrice_deck" in text[:400]


def parse_cockatrice(text: str, label: str = "deck") -> DeckFile:
    root = xml_deck_root(text, label, "cockatrice_deck", "a Cockatrice .cod deck")
    result = DeckFile(FileFormat.COCKATRICE)
    result.name = (root.findtext("deckname") or "").strip()
    lines = element_lines(root, text)
    comments_element = root.find("comments")
    comments = (comments_element.text if comments_element is not None else None) or ""
    note = color_note(comments, lines.get(id(comments_element), 1))
    result.piper_colors, result.colors_line = list(note.colors), note.line if note.colors else 0
    if note.error is not None:
        result.errors.append(note.error)
    found = re.search(r"commanders?:\s*(?P<names>[^\n]+)", comments, re.IGNORECASE)
    if found:
        result.commander_names = [n.strip() for n in found.group("names").split(";") if n.strip()]
    zones = list(root.iter("zone"))
    if not zones:
        result.errors.append(LineError(0, label, "no <zone> elements"))
    # Cockatrice's "tokens" zone lists tokens the deck makes: not cards of the deck.
    cards = [
        (card, Zone.MAIN if (zone.get("name") or "main").lower() == "main" else Zone.SIDEBOARD)
        for zone in zones
        if (zone.get("name") or "").lower() != "tokens"
        for card in zone.iter("card")
    ]
    xml_entries(
        result,
        cards,
        "name",
        "number",
        lambda card: (card.get("setShortName") or None, card.get("collectorNumber") or None),
        positions=[lines.get(id(card), position) for position, (card, _) in enumerate(cards, start=1)],
    )
    return result


def _xml_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write_cockatrice(deck: Deck) -> str:
    commanders = deck.commanders
    notes = []
    if commanders:
        notes.append("Commanders: " + "; ".join(cockatrice_name(card) for card in commanders))
    if deck.piper_colors:
        notes.append(colors_note(deck.piper_colors, deck.commanders))
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<cockatrice_deck version="1">',
        # the name written out as on every face (``visible``; XML 1.0 can't hold most control characters either)
        f"    <deckname>{_xml_text(visible(deck.name))}</deckname>",
        f"    <comments>{_xml_text(chr(10).join(notes))}</comments>",
    ]
    for zone_name, zones in (("main", (Zone.MAIN,)), ("side", (Zone.COMMANDER, Zone.SIDEBOARD))):
        lines = [line for zone in zones for line in ordered_lines(deck, zone)]
        if not lines:
            continue
        out.append(f"    <zone name={xml_attribute(zone_name)}>")
        for line in merged_lines(lines, lambda line: (cockatrice_name(line.card), line_printing(line))):
            printed = line_printing(line)
            extra = (
                f" setShortName={xml_attribute(printed[0])} collectorNumber={xml_attribute(printed[1])}"
                if printed is not None
                else ""
            )
            out.append(f'        <card number="{line.count}" name={xml_attribute(cockatrice_name(line.card))}{extra}/>')
        out.append("    </zone>")
    out.append("</cockatrice_deck>")
    return "\n".join(out) + "\n"
