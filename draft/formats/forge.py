"""Forge ``.dck`` files: ``[metadata]``, ``[Commander]``, ``[Main]``, ``[Sideboard]``."""

from __future__ import annotations

import re

from draft.decks import Deck, DeckLine, Zone
from draft.formats.model import (
    DeckFile,
    Entry,
    FileFormat,
    LineError,
    colors_from_note,
    colors_note,
    commander_colors,
    front_face_name,
    has_printing,
    ordered_lines,
    plain_spaces,
)
from draft.formats.text import parse_card_line
from sets.colors import Color
from sets.errors import ColorError
from sets.visible import visible

# The comment lines Forge skips (``parse_forge``), which may come before the file's first section too.
_LEADING_COMMENTS = re.compile(r"^(?:[ \t]*(?:[;#]|//)[^\n]*\n|[ \t]*\r?\n)*")


def looks_like_forge(text: str) -> bool:
    start = _LEADING_COMMENTS.match(text)
    body = text[start.end() if start else 0 :].lstrip()
    return re.match(r"^\[(metadata|main|commander|sideboard)\]", body, re.IGNORECASE) is not None


def parse_forge(text: str) -> DeckFile:
    result = DeckFile(FileFormat.FORGE)
    zone: Zone | None = Zone.MAIN
    in_metadata = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = plain_spaces(raw).strip()
        if not line or line.startswith(("#", "//", ";")):  # Forge's CardPool skips ';' and '#' lines
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
        foil = name_part.rstrip().endswith(FOIL_SUFFIX)
        parsed = parse_card_line(name_part.rstrip().removesuffix(FOIL_SUFFIX), number, zone or Zone.MAIN)
        if isinstance(parsed, LineError):
            result.errors.append(LineError(number, raw, parsed.reason))
            continue
        set_code, card_number, color = _request_parts(rest)
        result.entries.append(
            Entry(
                parsed.name,
                parsed.count,
                parsed.zone,
                set_code,
                card_number,
                parsed.foil or foil,
                parsed.etched,
                color,
                number,
            )
        )
    return result


# Forge's card request after the name: |SET, |ART (an art index of one or two digits), |[NUMBER] (the collector
# number in brackets) and |#{key=value<TAB>...} flags, or the older |#W#B form of the marked colors flag, which holds
# the color a commander such as The Prismatic Piper was given.  A name ending in '+' is a foil.
FOIL_SUFFIX = "+"
_MARKED = re.compile(r"markedColors=(?P<colors>[^\t}]*)", re.IGNORECASE)


def _request_parts(parts: list[str]) -> tuple[str | None, str | None, Color | None]:
    """(set code, collector number, the one marked color) of a Forge card request's segments after the name."""
    set_code = card_number = None
    colors: list[Color] = []
    for part in (p.strip() for p in parts):
        if part.startswith("#"):
            found = _MARKED.search(part)
            words = found.group("colors") if found else part.replace("#", " ")
            colors = _marked_colors(words)
        elif part.startswith("[") and part.endswith("]"):
            card_number = part[1:-1].strip() or None
        elif part and not part.isdigit() and set_code is None:
            set_code = part.upper()
    return set_code, card_number, colors[0] if len(colors) == 1 else None


def _marked_colors(words: str) -> list[Color]:
    """Colors written as letters ('U', 'WB') or words ('blue'); nothing when any part is no color."""
    parts = words.replace(",", " ").split()
    if len(parts) == 1 and parts[0].upper() != "C" and all(ch in "WUBRG" for ch in parts[0].upper()):
        return [Color(ch) for ch in parts[0].upper()]
    try:
        return [Color.parse(part) for part in parts]
    except ColorError:
        return []


def write_forge(deck: Deck) -> str:
    # As Forge writes a deck's name, empty too: it reads back the same.  Control and format characters are written
    # out (``visible``): a line break can't add a line to the file, a bidi override can't turn the name around.
    out = ["[metadata]", f"Name={visible(deck.name)}"]
    if deck.piper_colors:
        out.append(f"Comment={colors_note(deck.piper_colors, deck.commanders)}")
    commanders = [(line, color) for line, color in zip(deck.zone(Zone.COMMANDER), commander_colors(deck), strict=True)]
    if commanders:
        out.append("[Commander]")
        out += [_request(line, color) for line, color in commanders]
    for zone, title in ((Zone.MAIN, "Main"), (Zone.SIDEBOARD, "Sideboard")):
        lines = ordered_lines(deck, zone)
        if lines:
            out.append(f"[{title}]")
            out += [_request(line) for line in _by_finish(lines)]
    return "\n".join(out) + "\n"


def _by_finish(lines: list[DeckLine]) -> list[DeckLine]:
    """One line per card and finish, copies added up: Forge keeps foils (an etched card is a foil to it)."""
    merged: dict[tuple[object, bool], DeckLine] = {}
    for line in lines:
        key = (line.card, line.foil or line.etched)
        old = merged.get(key)
        merged[key] = (
            line if old is None else DeckLine(old.card, old.count + line.count, old.zone, old.foil, old.etched)
        )
    return list(merged.values())


def _request(line: DeckLine, color: Color | None = None) -> str:
    """A card line as Forge writes its card request: ``N NAME|SET``, and for a commander given a color (a Piper)
    ``N NAME|SET|[NUMBER]|#{markedColors=U}``, the flags Forge reads a card's marked color from (its own
    ``CardRequest.compose``: the flags come after the set and number, which Forge reads by their place); a foil's
    name ends with '+'."""
    text = f"{line.count} {front_face_name(line.card)}{FOIL_SUFFIX if line.foil or line.etched else ''}"
    if not has_printing(line.card):
        return text if color is None else f"{text}||#{{markedColors={color.value}}}"
    text += f"|{line.card.set_code}"
    return text if color is None else f"{text}|[{line.card.number}]|#{{markedColors={color.value}}}"
