"""Forge ``.dck`` files: ``[metadata]``, ``[Commander]``, ``[Main]``, ``[Sideboard]``."""

from __future__ import annotations

import re

from draft.decks import Deck, DeckLine, Zone
from draft.formats.model import (
    ColorNote,
    DeckFile,
    Entry,
    FileFormat,
    LineError,
    color_note,
    colors_note,
    commander_colors,
    front_face_name,
    line_printing,
    merged_lines,
    one_color,
    ordered_lines,
    plain_spaces,
)
from draft.formats.text import parse_card_line
from sets.colors import Color
from sets.visible import visible

# The comment lines Forge skips (``parse_forge``), which may come before the file's first section too.
_LEADING_COMMENTS = re.compile(r"^(?:[ \t]*(?:[;#]|//)[^\n]*\n|[ \t]*\r?\n)*")


def looks_like_forge(text: str) -> bool:
    start = _LEADING_COMMENTS.match(text)
    body = text[start.end() if start else 0 :].lstrip()
    return re.match(r"^\[(metadata|main|commander|sideboard)\]", body, re.IGNORECASE) is not None


# Forge's deck sections (forge-core DeckSection): the commander, main deck and sideboard are the deck and the pool;
# Avatar (Vanguard), Planes, Schemes and Conspiracy hold cards played outside the deck, which no Commander draft's
# sets hold: their lines are skipped.  Another section's cards are kept in the sideboard.
_SECTIONS = {"commander": Zone.COMMANDER, "main": Zone.MAIN, "sideboard": Zone.SIDEBOARD}
_OUTSIDE_SECTIONS = ("avatar", "planes", "schemes", "conspiracy")


def parse_forge(text: str) -> DeckFile:
    result = DeckFile(FileFormat.FORGE)
    zone: Zone | None = Zone.MAIN
    in_metadata = False
    note = color_note("")
    marked_lines = False  # a commander's line marks a color, even a wrong one
    for number, raw in enumerate(text.splitlines(), start=1):
        line = plain_spaces(raw).strip()
        if not line or line.startswith(("#", "//", ";")):  # Forge's CardPool skips ';' and '#' lines
            continue
        header = re.match(r"^\[(?P<name>[^\]]+)\]$", line)
        if header:
            name = header.group("name").strip().lower()
            in_metadata = name == "metadata"
            zone = None if in_metadata or name in _OUTSIDE_SECTIONS else _SECTIONS.get(name, Zone.SIDEBOARD)
            continue
        if in_metadata:
            key, _, value = line.partition("=")
            if key.strip().lower() == "name":
                result.name = value.strip()
            elif key.strip().lower() == "comment":
                note = color_note(value, number)
            continue
        if zone is None:
            continue
        name_part, *rest = line.split("|")
        foil = name_part.rstrip().endswith(FOIL_SUFFIX)
        parsed = parse_card_line(name_part.rstrip().removesuffix(FOIL_SUFFIX), number, zone)
        if isinstance(parsed, LineError):
            result.errors.append(LineError(number, raw, parsed.reason))
            continue
        set_code, card_number, marked = _request_parts(rest)
        # A commander's marked color is its chosen one (a Piper's): exactly one color, or the line is refused.
        color = one_color(marked, number) if marked and parsed.zone is Zone.COMMANDER else None
        marked_lines |= color is not None
        if isinstance(color, LineError):
            result.errors.append(color)
            color = None
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
    _chosen_colors(result, note, marked_lines)
    return result


def _chosen_colors(result: DeckFile, note: ColorNote, marked_lines: bool) -> None:
    """The commanders' chosen colors: the marked colors of their card lines, which Forge reads and updates when the
    player changes one; only when no line has one, the ``Comment=`` note (Forge shows it and keeps it as it was
    written, so it goes stale)."""
    if marked_lines:
        result.piper_colors = [e.color for e in result.entries if e.zone is Zone.COMMANDER and e.color is not None]
        return
    if note.error is not None:
        result.errors.append(note.error)
    result.piper_colors = list(note.colors)
    result.colors_line = note.line if note.colors else 0


# Forge's card request after the name: |SET, |ART (an art index of one or two digits), |[NUMBER] (the collector
# number in brackets) and |#{key=value<TAB>...} flags, or the older |#W#B form of the marked colors flag, which holds
# the color a commander such as The Prismatic Piper was given.  A name ending in '+' is a foil.
FOIL_SUFFIX = "+"
_MARKED = re.compile(r"markedColors=(?P<colors>[^\t}]*)", re.IGNORECASE)


def _request_parts(parts: list[str]) -> tuple[str | None, str | None, str | None]:
    """(set code, collector number, the marked colors as written) of a Forge card request's segments after the
    name: ``#{markedColors=U}``, or the older ``#U`` (``#W#B`` for two, as Forge reads it: ColorSet.fromNames)."""
    set_code = card_number = marked = None
    for part in (p.strip() for p in parts):
        if part.startswith("#{"):
            found = _MARKED.search(part)
            marked = found.group("colors").strip() if found else marked
        elif part.startswith("#"):
            marked = " ".join(word for word in part.split("#") if word.strip())
        elif part.startswith("[") and part.endswith("]"):
            card_number = part[1:-1].strip() or None
        elif part and not part.isdigit() and set_code is None:
            set_code = part.upper()
    return set_code, card_number, marked or None


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
            out += [_request(line) for line in merged_lines(lines, _card_request)]
    return "\n".join(out) + "\n"


def _request(line: DeckLine, color: Color | None = None) -> str:
    """A card line as Forge writes its card request: ``N NAME|SET``, and for a commander given a color (a Piper)
    ``N NAME|SET|[NUMBER]|#{markedColors=U}``, the flags Forge reads a card's marked color from (its own
    ``CardRequest.compose``: the flags come after the set and number, which Forge reads by their place); a foil's
    name ends with '+'."""
    return f"{line.count} {_card_request(line, color)}"


def _card_request(line: DeckLine, color: Color | None = None) -> str:
    """A card request without its count: lines whose requests are the same are one line in a .dck (Forge keeps a
    card's name, finish and set, and an etched card is a foil to it)."""
    text = f"{front_face_name(line.card)}{FOIL_SUFFIX if line.foil or line.etched else ''}"
    printed = line_printing(line)
    if printed is None:
        return text if color is None else f"{text}||#{{markedColors={color.value}}}"
    text += f"|{printed[0]}"
    return text if color is None else f"{text}|[{printed[1]}]|#{{markedColors={color.value}}}"
