"""Forge ``.dck`` files: ``[metadata]``, ``[Commander]``, ``[Main]``, ``[Sideboard]``."""

from __future__ import annotations

import re

from draft.decks import Deck, Zone
from draft.formats.model import (
    DeckFile,
    Entry,
    FileFormat,
    LineError,
    colors_from_note,
    colors_note,
    front_face_name,
    has_printing,
    merged_lines,
    ordered_lines,
    plain_spaces,
)
from draft.formats.text import parse_card_line
from sets.visible import visible


def looks_like_forge(text: str) -> bool:
    return re.match(r"^\[(metadata|main|commander|sideboard)\]", text, re.IGNORECASE) is not None


def parse_forge(text: str) -> DeckFile:
    result = DeckFile(FileFormat.FORGE)
    zone: Zone | None = Zone.MAIN
    in_metadata = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = plain_spaces(raw).strip()
        if not line or line.startswith(("#", "//")):
            continue
        header = re.match(r"^\[(?P<name>[^\]]+)\]$", line)
        if header:
            name = header.group("name").strip().lower()
            in_metadata = name == "metadata"
            zone = {"commander": Zone.COMMANDER, "main": Zone.MAIN, "sideboard": Zone.SIDEBOARD}.get(name)
            if zone is None and not in_metadata:
                zone = Zone.SIDEBOARD  # other Forge zones (planes, schemes, avatar) are outside the deck
            continue
        if in_metadata:
            key, _, value = line.partition("=")
            if key.strip().lower() == "name":
                result.name = value.strip()
            elif key.strip().lower() == "comment":
                result.piper_colors = colors_from_note(value)
            continue
        name_part, *rest = line.split("|")
        parsed = parse_card_line(name_part, number, zone or Zone.MAIN)
        if isinstance(parsed, LineError):
            result.errors.append(LineError(number, raw, parsed.reason))
            continue
        set_code = rest[0].strip().upper() if rest and rest[0].strip() else None
        result.entries.append(
            Entry(parsed.name, parsed.count, parsed.zone, set_code, None, parsed.foil, parsed.etched, None, number)
        )
    return result


def write_forge(deck: Deck) -> str:
    # As Forge writes a deck's name, empty too: it reads back the same.  Control and format characters are written
    # out (``visible``): a line break can't add a line to the file, a bidi override can't turn the name around.
    out = ["[metadata]", f"Name={visible(deck.name)}"]
    if deck.piper_colors:
        out.append(f"Comment={colors_note(deck.piper_colors, deck.commanders)}")
    for zone, title in ((Zone.COMMANDER, "Commander"), (Zone.MAIN, "Main"), (Zone.SIDEBOARD, "Sideboard")):
        lines = ordered_lines(deck, zone)
        if lines:
            out.append(f"[{title}]")
            out += [
                f"{line.count} {front_face_name(line.card)}"
                + (f"|{line.card.set_code}" if has_printing(line.card) else "")
                for line in merged_lines(lines)
            ]
    return "\n".join(out) + "\n"
