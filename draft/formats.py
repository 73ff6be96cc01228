"""Deck and pool files in the formats other tools read and write.

Read: Arena-style text (``Commander`` / ``Deck`` / ``Sideboard``), plain text
(``1 Name``, ``1x Name``, bare names) with Moxfield and Archidekt markings
(``*F*``, ``*E*``, ``*CMDR*``, ``#tags``, ``[Category]``, ``SB:``), Cockatrice
``.cod``, Forge ``.dck``, MTGO ``.dek``, our lossless JSON and CSV.
Write: the same, except that plain text is written as Arena-style text.

Reading never drops a line silently: every line that is not a card, a section
or a comment comes back as a ``LineError`` with its line number, and names no
loaded set knows become ``unknown-card`` problems with suggestions.
"""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from enum import StrEnum, unique
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

from draft.decks import Deck, DeckLine, Problem, Zone, can_pair
from sets.cards import Card
from sets.catalog import CardIndex
from sets.colors import Color
from sets.errors import ColorError, InputError, quoted_list

MAX_COPIES = 9999


@unique
class FileFormat(StrEnum):
    ARENA = "arena"
    TEXT = "text"
    COCKATRICE = "cod"
    FORGE = "dck"
    MTGO = "dek"
    JSON = "json"
    CSV = "csv"

    @classmethod
    def parse(cls, text: str) -> FileFormat:
        key = text.strip().lower().lstrip(".")
        aliases = {"cockatrice": cls.COCKATRICE, "forge": cls.FORGE, "mtgo": cls.MTGO, "txt": cls.ARENA,
                   "plain": cls.TEXT, "moxfield": cls.ARENA, "mtga": cls.ARENA}
        if key in aliases:
            return aliases[key]
        for fmt in cls:
            if fmt.value == key:
                return fmt
        raise InputError(f"unknown deck file format {text!r}: use one of {', '.join(f.value for f in cls)}")

    @classmethod
    def for_path(cls, path: str | Path) -> FileFormat:
        suffix = Path(path).suffix.lower().lstrip(".")
        return {"cod": cls.COCKATRICE, "dck": cls.FORGE, "dek": cls.MTGO, "json": cls.JSON, "csv": cls.CSV}.get(suffix, cls.ARENA)


@dataclass(frozen=True, slots=True)
class Entry:
    """One card line as the file gave it, before names are looked up."""

    name: str
    count: int = 1
    zone: Zone = Zone.MAIN
    set_code: str | None = None
    number: str | None = None
    foil: bool = False
    etched: bool = False
    color: Color | None = None
    line: int = 0
    block: int = 0


@dataclass(frozen=True, slots=True)
class LineError:
    line: int
    text: str
    reason: str

    def __str__(self) -> str:
        shown = self.text if len(self.text) <= 60 else self.text[:57] + "..."
        return f"line {self.line}: {self.reason}: {shown!r}"


@dataclass
class DeckFile:
    """What a file said: entries, unreadable lines, and the deck's name and chosen colors."""

    format: FileFormat
    entries: list[Entry] = field(default_factory=list)
    errors: list[LineError] = field(default_factory=list)
    name: str = ""
    piper_colors: list[Color] = field(default_factory=list)
    commander_names: list[str] = field(default_factory=list)


# --- text ---------------------------------------------------------------------------------

_SECTION = re.compile(
    r"^(?://+|#+)?\s*(?P<section>commanders?|command zone|deck|main|mainboard|maindeck|main deck|sideboard|side|companion|"
    r"maybeboard|considering|tokens?|about)\s*(?:\(\d+\))?\s*:?\s*$",
    re.IGNORECASE,
)
_SECTION_ZONES = {
    "commander": Zone.COMMANDER, "commanders": Zone.COMMANDER, "command zone": Zone.COMMANDER,
    "deck": Zone.MAIN, "main": Zone.MAIN, "mainboard": Zone.MAIN, "maindeck": Zone.MAIN, "main deck": Zone.MAIN,
    "sideboard": Zone.SIDEBOARD, "side": Zone.SIDEBOARD, "companion": Zone.SIDEBOARD, "maybeboard": Zone.SIDEBOARD,
    "considering": Zone.SIDEBOARD,
}
_COUNT = re.compile(r"^(\d+)\s*[xX]?\s+(.+)$")
_SET_NUMBER = re.compile(r"\s+\((?P<set>[A-Za-z0-9]{2,6})\)(?:\s+(?P<number>[A-Za-z0-9★†\-]+))?$")
_MARKER = re.compile(r"\s+\*(?P<marker>[A-Za-z]+)\*$")
_CATEGORY = re.compile(r"\s+\[(?P<category>[^\]]*)\]$")
_TAGS = re.compile(r"(?:\s+#\S+)+$")
_CARET_TAG = re.compile(r"\s+\^[^^]*\^$")
_BARE_COUNT = re.compile(r"^\d+\s*[xX]?$")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ufffd]")


def _strip_decorations(text: str, zone: Zone) -> tuple[str, Zone, bool, bool, str | None, str | None]:
    """Peel markers, categories, tags and ``(SET) NUMBER`` off the end of a card line."""
    foil = etched = False
    set_code = card_number = None
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
            if found:
                category = found.group("category").lower()
                if "commander" in category:
                    zone = Zone.COMMANDER
                elif any(word in category for word in ("sideboard", "maybeboard", "considering")):
                    zone = Zone.SIDEBOARD
        elif last == "^":
            found = _CARET_TAG.search(text)
        if found is None and " #" in text:
            found = _TAGS.search(text)
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


def _parse_card_line(raw: str, number: int, zone: Zone, block: int = 0) -> Entry | LineError:
    text = raw.strip()
    if text[:3].upper() == "SB:":
        zone, text = Zone.SIDEBOARD, text[3:].strip()
    elif text[:5].upper() == "CMDR:":
        zone, text = Zone.COMMANDER, text[5:].strip()
    count = 1
    if text[:1].isdigit():
        match = _COUNT.match(text)
        if match:
            count, text = int(match.group(1)), match.group(2).strip()
        elif _BARE_COUNT.match(text):
            return LineError(number, raw, "a count without a card name")
    text, zone, foil, etched, set_code, card_number = _strip_decorations(text, zone)
    if not text:
        return LineError(number, raw, "no card name")
    if len(text) > 150 or _CONTROL.search(text):
        return LineError(number, raw, "not a card line")
    if count <= 0 or count > MAX_COPIES:
        return LineError(number, raw, f"count must be 1 to {MAX_COPIES}")
    return Entry(text, count, zone, set_code, card_number, foil, etched, None, number, block)


def parse_text(text: str) -> DeckFile:
    """Arena-style or plain text, with Moxfield and Archidekt markings."""
    result = DeckFile(FileFormat.TEXT)
    zone = Zone.MAIN
    skipping = False  # inside an Arena "About" block or a tokens section
    block = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            skipping = False
            if result.entries and result.entries[-1].block == block:
                block += 1
            continue
        section = _SECTION.match(line)
        if section:
            key = section.group("section").lower()
            result.format = FileFormat.ARENA
            skipping = key in ("about", "token", "tokens")
            zone = _SECTION_ZONES.get(key, zone)
            continue
        if skipping:
            if line.lower().startswith("name "):
                result.name = line[5:].strip()
            continue
        if line.startswith(("//", "#")):
            continue
        parsed = _parse_card_line(line, number, zone, block)
        (result.errors if isinstance(parsed, LineError) else result.entries).append(parsed)
    return result


# --- Forge .dck ------------------------------------------------------------------------------


def parse_forge(text: str) -> DeckFile:
    result = DeckFile(FileFormat.FORGE)
    zone: Zone | None = Zone.MAIN
    in_metadata = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
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
                result.piper_colors = _colors_from_note(value)
            continue
        name_part, *rest = line.split("|")
        parsed = _parse_card_line(name_part, number, zone or Zone.MAIN)
        if isinstance(parsed, LineError):
            result.errors.append(LineError(number, raw, parsed.reason))
            continue
        set_code = rest[0].strip().upper() if rest and rest[0].strip() else None
        result.entries.append(Entry(parsed.name, parsed.count, parsed.zone, set_code, None, parsed.foil, parsed.etched, None, number))
    return result


_NOTE = re.compile(r"piper colou?rs?:\s*(?P<colors>[A-Za-z ,]+)", re.IGNORECASE)


def _colors_from_note(text: str) -> list[Color]:
    found = _NOTE.search(text or "")
    if not found:
        return []
    colors = []
    for word in re.split(r"[\s,]+", found.group("colors").strip()):
        if not word:
            continue
        try:
            colors.append(Color.parse(word))
        except ColorError:
            break
    return colors


def _colors_note(colors: tuple[Color, ...]) -> str:
    return "Piper colors: " + " ".join(color.value for color in colors) if colors else ""


# --- XML: Cockatrice .cod and MTGO .dek ---------------------------------------------------------------


def _xml_root(text: str, label: str) -> ElementTree.Element:
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        raise InputError(f"{label}: XML with a DOCTYPE or entities is not accepted; export the deck again")
    try:
        return ElementTree.fromstring(text)
    except ElementTree.ParseError as error:
        raise InputError(f"{label}: broken XML ({error}); export the deck again") from None


def _positive(value: str | None, number: int, what: str, result: DeckFile) -> int | None:
    try:
        count = int(value or "1")
    except ValueError:
        count = -1
    if not 0 < count <= MAX_COPIES:
        result.errors.append(LineError(number, what, f"count must be 1 to {MAX_COPIES}"))
        return None
    return count


def parse_cockatrice(text: str, label: str = "deck") -> DeckFile:
    root = _xml_root(text, label)
    result = DeckFile(FileFormat.COCKATRICE)
    result.name = (root.findtext("deckname") or "").strip()
    comments = root.findtext("comments") or ""
    result.piper_colors = _colors_from_note(comments)
    found = re.search(r"commanders?:\s*(?P<names>[^\n]+)", comments, re.IGNORECASE)
    if found:
        result.commander_names = [n.strip() for n in found.group("names").split(";") if n.strip()]
    zones = list(root.iter("zone"))
    if not zones:
        result.errors.append(LineError(0, label, "no <zone> elements"))
    # Cockatrice's "tokens" zone lists tokens the deck makes: not cards of the deck.
    cards = [(card, Zone.MAIN if (zone.get("name") or "main").lower() == "main" else Zone.SIDEBOARD)
             for zone in zones if (zone.get("name") or "").lower() != "tokens" for card in zone.iter("card")]
    _xml_entries(result, cards, "name", "number", lambda card: (card.get("setShortName") or None, card.get("collectorNumber") or None))
    return result


def _xml_entries(result: DeckFile, cards, name_key: str, count_key: str, printing=lambda card: (None, None)) -> None:
    """Entries from XML card elements with their zones; bad elements become line errors."""
    for position, (card, zone) in enumerate(cards, start=1):
        name = (card.get(name_key) or "").strip()
        if not name or _CONTROL.search(name):
            result.errors.append(LineError(position, ElementTree.tostring(card, encoding="unicode")[:80], "a card without a name"))
            continue
        count = _positive(card.get(count_key), position, name, result)
        if count is not None:
            set_code, number = printing(card)
            result.entries.append(Entry(name, count, zone, set_code, number, line=position))


def parse_mtgo(text: str, label: str = "deck") -> DeckFile:
    root = _xml_root(text, label)
    result = DeckFile(FileFormat.MTGO)
    cards = [(card, Zone.SIDEBOARD if (card.get("Sideboard") or "false").lower() == "true" else Zone.MAIN) for card in root.iter("Cards")]
    _xml_entries(result, cards, "Name", "Quantity")
    return result


# --- JSON and CSV ------------------------------------------------------------------------------------


def parse_json(text: str, label: str = "deck") -> DeckFile:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"{label}: not valid JSON (line {error.lineno}: {error.msg})") from None
    if not isinstance(data, dict) or not any(key in data for key in ("main", "commanders", "sideboard")):
        raise InputError(f"{label}: not a cmdraft deck JSON file (it needs 'commanders', 'main' or 'sideboard')")
    result = DeckFile(FileFormat.JSON, name=str(data.get("name") or ""))
    position = 0
    for key, zone in (("commanders", Zone.COMMANDER), ("main", Zone.MAIN), ("sideboard", Zone.SIDEBOARD)):
        items = data.get(key) or []
        if isinstance(items, dict):  # {"Name": count}
            items = [{"name": name, "count": count} for name, count in items.items()]
        if not isinstance(items, list):
            result.errors.append(LineError(0, key, "expected a list of cards"))
            continue
        for item in items:
            position += 1
            if isinstance(item, str):
                item = {"name": item}
            if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"].strip():
                result.errors.append(LineError(position, str(item)[:80], "a card without a name"))
                continue
            count = _positive(str(item.get("count", 1)), position, item["name"], result)
            if count is None:
                continue
            color = None
            if item.get("color"):
                try:
                    color = Color.parse(str(item["color"]))
                except ColorError:
                    result.errors.append(LineError(position, str(item["color"]), "not a color"))
            result.entries.append(Entry(item["name"].strip(), count, zone, item.get("set"), item.get("number"),
                                        bool(item.get("foil")), bool(item.get("etched")), color, position))
    for letter in data.get("piper_colors") or []:
        try:
            result.piper_colors.append(Color.parse(str(letter)))
        except ColorError:
            result.errors.append(LineError(0, str(letter), "not a color in piper_colors"))
    return result


_CSV_COLUMNS = {
    "count": ("count", "quantity", "qty", "amount"),
    "name": ("name", "card name", "card"),
    "set": ("set", "edition", "set code", "edition code"),
    "number": ("number", "collector number", "collector_number", "card number"),
    "zone": ("zone", "board", "section", "categories", "category"),
    "foil": ("foil", "finish"),
    "etched": ("etched",),
    "color": ("piper_color", "chosen color", "chosen_color", "color"),
}


def parse_csv(text: str, label: str = "deck") -> DeckFile:
    result = DeckFile(FileFormat.CSV)
    reader = csv.reader(io.StringIO(text))
    try:
        header = [h.strip().lower() for h in next(reader)]
    except (StopIteration, csv.Error):
        raise InputError(f"{label}: empty CSV file") from None
    columns = {key: next((header.index(a) for a in aliases if a in header), None) for key, aliases in _CSV_COLUMNS.items()}
    if columns["name"] is None:
        raise InputError(f"{label}: CSV needs a 'name' column (found {', '.join(header) or 'none'})")

    def cell(row: list[str], key: str) -> str:
        index = columns[key]
        return row[index].strip() if index is not None and index < len(row) else ""

    try:
        for number, row in enumerate(reader, start=2):
            if not any(c.strip() for c in row):
                continue
            name = cell(row, "name")
            if not name or _CONTROL.search(name):
                result.errors.append(LineError(number, ",".join(row)[:80], "no card name"))
                continue
            count = _positive(cell(row, "count") or "1", number, name, result)
            if count is None:
                continue
            zone_text = cell(row, "zone").lower()
            zone = (Zone.COMMANDER if "commander" in zone_text else
                    Zone.SIDEBOARD if any(w in zone_text for w in ("side", "maybe")) else Zone.MAIN)
            finish = cell(row, "foil").lower()
            etched = cell(row, "etched").lower() in ("1", "true", "yes", "etched") or finish == "etched"
            foil = finish in ("1", "true", "yes", "foil", "etched") or etched
            color = None
            if cell(row, "color"):
                try:
                    color = Color.parse(cell(row, "color"))
                except ColorError:
                    result.errors.append(LineError(number, cell(row, "color"), "not a color"))
            result.entries.append(Entry(name, count, zone, cell(row, "set").upper() or None, cell(row, "number") or None,
                                        foil, etched, color, number))
    except csv.Error as error:
        result.errors.append(LineError(reader.line_num, "", f"broken CSV ({error})"))
    result.piper_colors = [e.color for e in result.entries if e.zone is Zone.COMMANDER and e.color is not None]
    return result


# --- reading ------------------------------------------------------------------------------------------


def decode(data: bytes) -> str:
    """Text from bytes in whatever encoding a deck file came in; never fails."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def parse(text: str, fmt: FileFormat | None = None, label: str = "deck") -> DeckFile:
    """Read deck text; the format is sniffed from the content unless given."""
    # Lone surrogates can't be encoded anywhere downstream (XML, files): replace them.
    text = text.encode("utf-8", "replace").decode("utf-8")
    stripped = text.lstrip("\ufeff \t\r\n")
    if fmt is None:
        if stripped.startswith("<"):
            fmt = FileFormat.COCKATRICE if "cockatrice_deck" in stripped[:400] else FileFormat.MTGO
        elif stripped.startswith("{"):
            fmt = FileFormat.JSON
        elif re.match(r"^\[(metadata|main|commander|sideboard)\]", stripped, re.IGNORECASE):
            fmt = FileFormat.FORGE
        elif _looks_like_csv(stripped):
            fmt = FileFormat.CSV
        else:
            fmt = FileFormat.TEXT
    if fmt is FileFormat.COCKATRICE:
        return parse_cockatrice(stripped, label)
    if fmt is FileFormat.MTGO:
        return parse_mtgo(stripped, label)
    if fmt is FileFormat.JSON:
        return parse_json(stripped, label)
    if fmt is FileFormat.FORGE:
        return parse_forge(stripped)
    if fmt is FileFormat.CSV:
        return parse_csv(stripped, label)
    return parse_text(stripped)


def _looks_like_csv(text: str) -> bool:
    first = text.split("\n", 1)[0].lower()
    return "," in first and any(name in [c.strip().strip('"') for c in first.split(",")] for name in _CSV_COLUMNS["name"])


def read_file(path: str | Path, fmt: FileFormat | None = None) -> DeckFile:
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InputError(f"cannot read {str(path)!r}: {error.strerror or error}; check the path") from None
    return parse(decode(data), fmt, str(path))


# --- resolving names -------------------------------------------------------------------------------------


def resolve(deck_file: DeckFile, index: CardIndex) -> tuple[Deck, list[Problem]]:
    """Look the entries up; unknown names and unreadable lines become problems."""
    problems = [Problem("unreadable-line", str(error), ()) for error in deck_file.errors]
    lines: list[DeckLine] = []
    blocks: list[int] = []
    for entry in deck_file.entries:
        card = _lookup(entry, index)
        if card is None:
            suggestions = index.suggest(entry.name)
            hint = f" (did you mean {quoted_list(suggestions)}?)" if suggestions else ""
            problems.append(Problem("unknown-card", f"line {entry.line}: unknown card {entry.name!r}{hint}", (entry.name,)))
            continue
        lines.append(DeckLine(card, entry.count, entry.zone, entry.foil, entry.etched))
        blocks.append(entry.block)
    lines = _place_commanders(lines, deck_file, blocks)
    colors = list(deck_file.piper_colors) or [e.color for e in deck_file.entries if e.zone is Zone.COMMANDER and e.color]
    return Deck(tuple(_expand_commanders(lines)), tuple(c for c in colors if c is not None), deck_file.name), problems


def _lookup(entry: Entry, index: CardIndex) -> Card | None:
    card = index.get(entry.name)
    if card is None or not entry.set_code or not entry.number:
        return card
    for card_set in index.sets:
        if card_set.code == entry.set_code.upper():
            printed = card_set.by_number.get(entry.number)
            if printed is not None and printed.name == card.name:
                return printed
    return card


def _expand_commanders(lines: list[DeckLine]) -> list[DeckLine]:
    """Commander lines one copy each, so that two Pipers read as two commanders."""
    out = []
    for line in lines:
        if line.zone is Zone.COMMANDER and line.count > 1:
            out += [DeckLine(line.card, 1, Zone.COMMANDER, line.foil, line.etched)] * line.count
        else:
            out.append(line)
    return out


def _leads(cards: list[Card]) -> bool:
    return (len(cards) == 1 and cards[0].can_be_commander) or (
        len(cards) == 2 and can_pair(cards[0], cards[1]) and all(c.can_be_commander for c in cards))


def _place_commanders(lines: list[DeckLine], deck_file: DeckFile, blocks: list[int] | None = None) -> list[DeckLine]:
    """Find commanders that a file keeps outside a command zone.

    Cockatrice and MTGO keep them in the sideboard (written first there); plain
    lists without sections often set them apart by a blank line, first or last.
    """
    if any(l.zone is Zone.COMMANDER for l in lines):
        return lines
    if deck_file.format is FileFormat.TEXT and blocks is not None and len(set(blocks)) > 1:
        for edge in (min(blocks), max(blocks)):
            group = [line for line, block in zip(lines, blocks, strict=True) if block == edge]
            cards = [line.card for line in group for _ in range(line.count)]
            if _leads(cards):
                return [DeckLine(l.card, l.count, Zone.COMMANDER, l.foil, l.etched) if any(l is g for g in group) else l
                        for l in lines]
        return lines
    if deck_file.format not in (FileFormat.COCKATRICE, FileFormat.MTGO):
        return lines
    side = [line for line in lines if line.zone is Zone.SIDEBOARD]
    if deck_file.commander_names:
        wanted = {name.casefold() for name in deck_file.commander_names}
        chosen = [line for line in side if line.card.name.casefold() in wanted]
    else:
        # Commanders are written first in the side zone; take the leading one or two that can lead.
        chosen = []
        for size in (2, 1):
            leading = side[:size]
            if _leads([line.card for line in leading for _ in range(line.count)]):
                chosen = leading
                break
    return [DeckLine(l.card, l.count, Zone.COMMANDER, l.foil, l.etched) if l in chosen else l for l in lines]


# --- writing ------------------------------------------------------------------------------------------------


def _ordered(deck: Deck, zone: Zone) -> list[DeckLine]:
    lines = deck.zone(zone)
    if zone is Zone.COMMANDER:
        return lines
    return sorted(lines, key=lambda l: (l.card.is_land, l.card.is_basic_land, l.card.mana_value, l.card.name))


def _printed(card: Card) -> bool:
    """Whether the card has a real printing (set and number) worth writing."""
    return card.set_code not in ("", "BASIC") and bool(card.number)


def _printing(card: Card) -> str:
    return f" ({card.set_code}) {card.number}" if _printed(card) else ""


def _sections(deck: Deck, line_text) -> str:
    out = []
    for zone, title in ((Zone.COMMANDER, "Commander"), (Zone.MAIN, "Deck"), (Zone.SIDEBOARD, "Sideboard")):
        lines = _ordered(deck, zone)
        if not lines:
            continue
        out.append(title)
        out += [line_text(line) for line in _merged(lines)]
        out.append("")
    return "\n".join(out)


def write_arena(deck: Deck) -> str:
    """MTG Arena's import text: sections, then ``count name (SET) number``."""
    return _sections(deck, lambda line: f"{line.count} {line.card.name}{_printing(line.card)}")


def write_text(deck: Deck) -> str:
    """Plain ``count name`` lines, in sections."""
    return _sections(deck, lambda line: f"{line.count} {line.card.name}")


def write_forge(deck: Deck) -> str:
    out = ["[metadata]", f"Name={deck.name or 'cmdraft deck'}"]
    if deck.piper_colors:
        out.append(f"Comment={_colors_note(deck.piper_colors)}")
    for zone, title in ((Zone.COMMANDER, "Commander"), (Zone.MAIN, "Main"), (Zone.SIDEBOARD, "Sideboard")):
        lines = _ordered(deck, zone)
        if lines:
            out.append(f"[{title}]")
            out += [f"{line.count} {line.card.name}" + (f"|{line.card.set_code}" if _printed(line.card) else "")
                    for line in _merged(lines)]
    return "\n".join(out) + "\n"


def write_cockatrice(deck: Deck) -> str:
    commanders = deck.commanders
    notes = []
    if commanders:
        notes.append("Commanders: " + "; ".join(card.name for card in commanders))
    if deck.piper_colors:
        notes.append(_colors_note(deck.piper_colors))
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<cockatrice_deck version="1">',
           f"    <deckname>{_xml_text(deck.name)}</deckname>", f"    <comments>{_xml_text(chr(10).join(notes))}</comments>"]
    for zone_name, zones in (("main", (Zone.MAIN,)), ("side", (Zone.COMMANDER, Zone.SIDEBOARD))):
        lines = [line for zone in zones for line in _ordered(deck, zone)]
        if not lines:
            continue
        out.append(f"    <zone name={quoteattr(zone_name)}>")
        for line in _merged(lines):
            extra = (f" setShortName={quoteattr(line.card.set_code)} collectorNumber={quoteattr(line.card.number)}"
                     if _printed(line.card) else "")
            out.append(f"        <card number=\"{line.count}\" name={quoteattr(line.card.name)}{extra}/>")
        out.append("    </zone>")
    out.append("</cockatrice_deck>")
    return "\n".join(out) + "\n"


def _merged(lines: list[DeckLine]) -> list[DeckLine]:
    """One line per card, copies added up (the formats that use it write no finish per line)."""
    merged: dict[Card, DeckLine] = {}
    for line in lines:
        old = merged.get(line.card)
        merged[line.card] = line if old is None else DeckLine(old.card, old.count + line.count, old.zone, old.foil, old.etched)
    return list(merged.values())


def _xml_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write_mtgo(deck: Deck) -> str:
    out = ['<?xml version="1.0" encoding="utf-8"?>',
           '<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
           "  <NetDeckID>0</NetDeckID>", "  <PreconstructedDeckID>0</PreconstructedDeckID>"]
    for zone, side in ((Zone.MAIN, "false"), (Zone.COMMANDER, "true"), (Zone.SIDEBOARD, "true")):
        for line in _merged(_ordered(deck, zone)):
            cat = f' CatID="{line.card.mtgo_id}"' if line.card.mtgo_id else ""
            out.append(f'  <Cards{cat} Quantity="{line.count}" Sideboard="{side}" Name={quoteattr(line.card.name)} Annotation="0" />')
    out.append("</Deck>")
    return "\n".join(out) + "\n"


def _set_number(card: Card) -> tuple[str, str]:
    return (card.set_code, card.number) if _printed(card) else ("", "")


def _line_json(line: DeckLine, color: Color | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"name": line.card.name, "count": line.count}
    if _printed(line.card):
        data["set"], data["number"] = line.card.set_code, line.card.number
    if line.foil:
        data["foil"] = True
    if line.etched:
        data["etched"] = True
    if color is not None:
        data["color"] = color.value
    return data


def _commander_colors(deck: Deck) -> list[Color | None]:
    colors = iter(deck.piper_colors)
    return [next(colors, None) if line.card.chooses_color else None for line in deck.zone(Zone.COMMANDER)]


def write_json(deck: Deck) -> str:
    commanders = [_line_json(line, color) for line, color in zip(deck.zone(Zone.COMMANDER), _commander_colors(deck), strict=True)]
    data = {
        "format": "cmdraft-deck/1",
        "name": deck.name,
        "commanders": commanders,
        "main": [_line_json(line) for line in deck.zone(Zone.MAIN)],
        "sideboard": [_line_json(line) for line in deck.zone(Zone.SIDEBOARD)],
        "piper_colors": [color.value for color in deck.piper_colors],
    }
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def write_csv(deck: Deck) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["count", "name", "set", "number", "zone", "foil", "etched", "piper_color"])
    colors = _commander_colors(deck)
    for i, line in enumerate(deck.zone(Zone.COMMANDER)):
        writer.writerow([line.count, line.card.name, *_set_number(line.card), "commander",
                         int(line.foil), int(line.etched), colors[i].value if colors[i] else ""])
    for zone in (Zone.MAIN, Zone.SIDEBOARD):
        for line in deck.zone(zone):
            writer.writerow([line.count, line.card.name, *_set_number(line.card), zone.value,
                             int(line.foil), int(line.etched), ""])
    return buffer.getvalue()


WRITERS = {
    FileFormat.ARENA: write_arena,
    FileFormat.TEXT: write_text,
    FileFormat.COCKATRICE: write_cockatrice,
    FileFormat.FORGE: write_forge,
    FileFormat.MTGO: write_mtgo,
    FileFormat.JSON: write_json,
    FileFormat.CSV: write_csv,
}
EXTENSIONS = {FileFormat.ARENA: "txt", FileFormat.TEXT: "txt", FileFormat.COCKATRICE: "cod", FileFormat.FORGE: "dck",
              FileFormat.MTGO: "dek", FileFormat.JSON: "json", FileFormat.CSV: "csv"}
EXPORT_FORMATS = (FileFormat.ARENA, FileFormat.COCKATRICE, FileFormat.FORGE, FileFormat.MTGO, FileFormat.JSON, FileFormat.CSV)


def write(deck: Deck, fmt: FileFormat) -> str:
    return WRITERS[fmt](deck)


def pool_as_deck(cards: Any, name: str = "") -> Deck:
    """A pool (cards or printings) as a deck with everything in the main zone, for writing pool files."""
    lines: dict[tuple, int] = {}
    for item in cards:
        card = getattr(item, "card", item)
        key = (card, bool(getattr(item, "foil", False)), bool(getattr(item, "etched", False)))
        lines[key] = lines.get(key, 0) + 1
    return Deck(tuple(DeckLine(card, n, Zone.MAIN, foil, etched) for (card, foil, etched), n in lines.items()), (), name)
