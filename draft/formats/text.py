"""Arena-style and plain text deck lists, with Moxfield and Archidekt markings."""

from __future__ import annotations

import re
from collections.abc import Callable

from draft.decks import Deck, DeckLine, Zone
from draft.formats.draft_log import looks_like_draft_log, parse_draft_log
from draft.formats.model import (
    COLLECTOR_NUMBER,
    MAX_COPIES,
    DeckFile,
    Entry,
    FileFormat,
    LineError,
    arena_set_code,
    card_line_text,
    category_zone,
    front_face_name,
    line_printing,
    merged_lines,
    ordered_lines,
    plain_spaces,
)
from draft.formats.mtgo import mtgo_name
from sets.cards import CONTROL, card_name_problem
from sets.visible import quoted

_SECTION = re.compile(
    r"^(?://+|#+)?\s*(?P<section>commanders?|command zone|deck|main|mainboard|maindeck|main deck|sideboard|side|companion|"
    r"maybeboard|considering|tokens?|about)\s*(?:\(\d+\))?\s*:?\s*$",
    re.IGNORECASE,
)


# A card-type group's header (MTGGoldfish, TappedOut, sites' "copy as text"): "Creatures (20)", "Lands:". No card is
# named so (XMage's text reader skips the same words); the command zone ends at one.
_GROUP_HEADER = re.compile(
    r"^(?:creatures?|lands?|instants?|sorcery|sorceries|artifacts?|enchantments?|planeswalkers?|battles?|"
    r"other spells|spells|other|nonlands?|non-lands?)\s*(?:\(\d+\))?\s*:?\s*$",
    re.IGNORECASE,
)


_SECTION_ZONES = {
    "commander": Zone.COMMANDER,
    "commanders": Zone.COMMANDER,
    "command zone": Zone.COMMANDER,
    "deck": Zone.MAIN,
    "main": Zone.MAIN,
    "mainboard": Zone.MAIN,
    "maindeck": Zone.MAIN,
    "main deck": Zone.MAIN,
    "sideboard": Zone.SIDEBOARD,
    "side": Zone.SIDEBOARD,
    "companion": Zone.SIDEBOARD,
    "maybeboard": Zone.SIDEBOARD,
    "considering": Zone.SIDEBOARD,
}


_COUNT = re.compile(r"^(\d+)\s*[xX]?\s+(.+)$", re.ASCII)


# "(SET) NUMBER": Scryfall's collector numbers carry marks (1494★, 4†, 413Φ, 123p, C21-263); any run of characters
# that are no space, bracket, marker star or tag sign is one.
_SET_NUMBER = re.compile(r"\s+\((?P<set>[A-Za-z0-9]{2,6})\)(?:\s+(?P<number>" + COLLECTOR_NUMBER + r"+))?$")


_MARKER = re.compile(r"\s+\*(?P<marker>[A-Za-z]+)\*$")


_CATEGORY = re.compile(r"\s+\[(?P<category>[^\]]*)\]$")


# From the first ' #' on, a line is tags (Moxfield's '#removal') or a comment (deckstats.net's '2 Murder # text', which
# XMage reads the same); deckstats.net marks a commander '#!Commander'.
_COMMENT = re.compile(r"\s+#.*$")
_COMMANDER_MARK = re.compile(r"#!\s*commander\b", re.IGNORECASE)


# mtg.wtf writes a card's printing in brackets after its name: "1 Day of Judgment [FDN:140] *F*".
_BRACKET_PRINTING = re.compile(r"(?P<set>[A-Za-z0-9]{2,6}):(?P<number>[^\s()\[\]{}*^#:,]+)")


_CARET_TAG = re.compile(r"\s+\^[^^]*\^$")


# XMage's own .dck: "N [SET:NUMBER] Name", "SB: N [SET:NUMBER] Name", and NAME:, AUTHOR: and LAYOUT lines; Magic
# Workstation's "N [SET] Name" the same without the number.
_XMAGE_PRINTING = re.compile(r"^\[(?P<set>[^\]:\s]+)(?::(?P<number>[^\]:\s]*))?\]\s*")
_XMAGE_LINE = re.compile(r"^(?:SB:\s*)?\d+\s*\[[^\]:\s]+:[^\]:\s]*\]", re.IGNORECASE)
_XMAGE_META = ("author:", "layout ")


# Magic Workstation's .mwDeck names its deck in a comment: "// NAME : Piper and Akroma" (and "// CREATOR : ...").
_MWS_NAME = re.compile(r"^//\s*NAME\s*:(?P<name>.*\S.*)$")


_COMMANDER_PREFIX = re.compile(r"^commanders?\s*:", re.IGNORECASE)
_NEGATIVE = re.compile(r"^[-−–]\s*\d+\s*[xX]?(\s|$)", re.ASCII)
_BARE_COUNT = re.compile(r"^\d+\s*[xX]?$", re.ASCII)
# a count after the name, as some lists write it ("Sol Ring x1", "Forest x 30", "Forest ×30"): no card's name ends so
_TRAILING_COUNT = re.compile(r"\s+[xX×]\s*([0-9]{1,4})$")


def _strip_decorations(text: str, zone: Zone) -> tuple[str, Zone, bool, bool, str | None, str | None]:
    """Peel markers, categories, tags and ``(SET) NUMBER`` off the end of a card line."""
    foil = etched = False
    set_code = card_number = None
    comment = _COMMENT.search(text)
    if comment:
        zone = Zone.COMMANDER if _COMMANDER_MARK.search(comment.group()) else zone
        text = text[: comment.start()].rstrip()
    while text:
        last = text[-1]
        found = None
        if last == "*":
            found = _MARKER.search(text)
            if found:
                marker = found.group("marker").upper()
                foil |= marker == "F"
                etched |= marker == "E"
                zone = Zone.COMMANDER if marker == "CMDR" else zone
        elif last == "]":
            found = _CATEGORY.search(text)
            printed = _BRACKET_PRINTING.fullmatch(found.group("category")) if found else None
            if printed and set_code is None:  # mtg.wtf's "[FDN:140]"
                set_code, card_number = printed.group("set").upper(), printed.group("number")
            elif found:
                zone = category_zone(found.group("category"), zone)
        elif last == "^":
            found = _CARET_TAG.search(text)
        if found is None and set_code is None and "(" in text:
            found = _SET_NUMBER.search(text)
            if found and found.start() > 0:
                set_code, card_number = found.group("set").upper(), found.group("number")
            else:
                found = None
        if found is None:
            break
        text = text[: found.start()].rstrip()
    return text, zone, foil or etched, etched, set_code, card_number


def parse_card_line(raw: str, number: int, zone: Zone, block: int = 0) -> Entry | LineError:
    text = card_line_text(raw).strip()
    if text[:3].upper() == "SB:":
        zone, text = Zone.SIDEBOARD, text[3:].strip()
    elif text[:5].upper() == "CMDR:":
        zone, text = Zone.COMMANDER, text[5:].strip()
    elif prefix := _COMMANDER_PREFIX.match(text):  # "Commander: NAME" on one line (no card name has that colon)
        zone, text = Zone.COMMANDER, text[prefix.end() :].strip()
    count, counted = 1, False
    if _NEGATIVE.match(text):
        return LineError(number, raw, f"a count below 1: count must be 1 to {MAX_COPIES}")
    if text[:1].isascii() and text[:1].isdigit():
        match = _COUNT.match(text)
        if match:
            count, text, counted = int(match.group(1)), match.group(2).strip(), True
        elif _BARE_COUNT.match(text):
            return LineError(number, raw, "a count without a card name")
    printed = _XMAGE_PRINTING.match(text)
    if printed:
        text = text[printed.end() :]
    text, zone, foil, etched, set_code, card_number = _strip_decorations(text, zone)
    trailing = None if counted else _TRAILING_COUNT.search(text)
    if trailing:
        count, text = int(trailing.group(1)), text[: trailing.start()].rstrip()
    if printed and set_code is None:
        set_code, card_number = printed.group("set").upper(), printed.group("number") or None
    if not text:
        return LineError(number, raw, "no card name")
    if card_name_problem(text):
        return LineError(number, raw, "not a card line")
    if count <= 0 or count > MAX_COPIES:
        return LineError(number, raw, f"count must be 1 to {MAX_COPIES}, not {quoted(str(count))}")
    return Entry(text, count, zone, set_code, card_number, foil, etched, None, number, block)


def _comment_name(lines: list[str]) -> str:
    """The deck's name as Cockatrice's text export writes it: a first comment line with a blank line after it
    ("// Piper and Akroma"), which Cockatrice reads back as the name; a section or a count ("// 60 Maindeck") is
    none."""
    first = next((i for i, raw in enumerate(lines) if raw.strip()), None)
    if first is None:
        return ""
    line = plain_spaces(lines[first]).strip()
    name = line[2:].strip() if line.startswith("//") else ""
    followed_by_blank = first + 1 >= len(lines) or not lines[first + 1].strip()
    if not name or not followed_by_blank or name[:1].isdigit() or _SECTION.match(line) or _GROUP_HEADER.match(name):
        return ""
    return _kept_name(name)


def _kept_name(name: str) -> str:
    """A deck's name a comment gives, kept: its first 150 characters, or none when it holds a control character."""
    return "" if CONTROL.search(name) else name[:150]


def parse_text(text: str) -> DeckFile:
    """Arena-style or plain text, with Moxfield and Archidekt markings; an MTGO draft log is the pool it records."""
    zone = Zone.MAIN
    skipping = False  # inside an Arena "About" block or a tokens section
    block = 0
    lines = text.splitlines()
    if looks_like_draft_log(lines):  # an MTGO draft log: the pool it records
        return parse_draft_log(lines)
    result = DeckFile(FileFormat.TEXT)
    # XMage keeps a Commander deck's commanders in the sideboard (as MTGO does), and so do the lists that mark
    # sideboard cards "SB:" (Cockatrice's text export, deckstats.net): none of them has a command zone.
    xmage = any(_XMAGE_LINE.match(plain_spaces(raw).strip()) for raw in lines)
    result.commanders_in_sideboard = xmage or any(plain_spaces(raw).strip()[:3].upper() == "SB:" for raw in lines)
    result.name = _comment_name(lines)
    for number, raw in enumerate(lines, start=1):
        line = plain_spaces(raw).strip()
        if not line:
            skipping = False
            if result.entries and result.entries[-1].block == block:
                block += 1
            continue
        if xmage and line[:5].lower() == "name:":
            result.name = line[5:].strip()
            continue
        if xmage and line.lower().startswith(_XMAGE_META):
            continue
        section = _SECTION.match(line)
        if section:
            key = section.group("section").lower()
            result.format = FileFormat.ARENA
            skipping = key in ("about", "token", "tokens")
            zone = _SECTION_ZONES.get(key, zone)
            continue
        if _GROUP_HEADER.match(line):
            zone = Zone.MAIN if zone is Zone.COMMANDER else zone
            continue
        if skipping:
            if line.lower().startswith("name "):
                result.name = line[5:].strip()
            continue
        if line.startswith(("//", "#")):
            named = _MWS_NAME.match(line)
            if named and not result.name:
                result.name = _kept_name(named.group("name").strip())
            continue
        parsed = parse_card_line(line, number, zone, block)
        if isinstance(parsed, LineError):
            result.errors.append(parsed)
        else:
            result.entries.append(parsed)
    return result


def _printing(line: DeckLine) -> str:
    printed = line_printing(line)
    return f" ({arena_set_code(printed[0])}) {printed[1]}" if printed is not None else ""


def _sections(deck: Deck, line_text: Callable[[DeckLine], str]) -> str:
    """The zones under their titles, each line ``count`` and ``line_text`` (copies written alike on one line)."""
    out = []
    for zone, title in ((Zone.COMMANDER, "Commander"), (Zone.MAIN, "Deck"), (Zone.SIDEBOARD, "Sideboard")):
        lines = ordered_lines(deck, zone)
        if not lines:
            continue
        out.append(title)
        out += [f"{line.count} {line_text(line)}" for line in merged_lines(lines, line_text)]
        out.append("")
    return "\n".join(out)


def _arena_text(line: DeckLine) -> str:
    return f"{front_face_name(line.card)}{_printing(line)}"


def write_arena(deck: Deck) -> str:
    """MTG Arena's import text: sections, then ``count name (SET) number`` (names as Arena knows them)."""
    return _sections(deck, _arena_text)


def write_text(deck: Deck) -> str:
    """Plain ``count name`` lines as MTGO writes a Commander deck's text, cards named as MTGO names them
    (``mtgo_name``: MTGO refuses "Fire // Ice"): the main deck, one blank line, the commanders.  MTGO's, XMage's and Cockatrice's plain-text readers take the lines after that blank line as the
    sideboard, which is where those programs keep a Commander deck's commanders (section headers would be read
    as card names); the deck's own sideboard has no place here (``deck convert`` writes the pool beside it)."""
    blocks = [
        [f"{line.count} {mtgo_name(line.card)}" for line in merged_lines(lines, lambda line: mtgo_name(line.card))]
        for lines in (ordered_lines(deck, Zone.MAIN), deck.zone(Zone.COMMANDER))
        if lines
    ]
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"
