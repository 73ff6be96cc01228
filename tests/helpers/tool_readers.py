"""Small readers of deck files that follow other tools' own rules, written from reading those tools' public
source (never the code under test), so that tests can load cmdraft's files as those tools would.

- ``cockatrice_cod``: Cockatrice's ``DeckList::loadFromXml`` (root ``cockatrice_deck``, ``<zone name=...>`` holding
  ``<card number= name= setShortName= collectorNumber=/>``; a missing or bad ``number`` reads as 0).
- ``cockatrice_names``: the names Cockatrice's card database (its ``oracle`` importer) gives a card from its MTGJSON
  layout: split, aftermath and adventure cards are one card under the full ``A // B`` name; every other
  multi-faced card is one card per face, under the face's own name.
- ``forge_dck``: Forge's ``.dck`` (``[section]`` headers, ``#`` and ``;`` comments, ``CardPool.processCardList``'s
  ``((\\d+)\\s+)?(.*?)``, then ``CardDb.CardRequest.fromString``: ``NAME[+]|SET|ART|[NUMBER]|#flags`` by position).
- ``mtgo_dek_lines``: XMage's ``DekDeckImporter``, which reads an MTGO ``.dek`` a line at a time, skips lines
  without ``<Cards ``, and takes each attribute from the text after ``Name="`` up to the next ``"``.
- ``draftmancer_mtgo_log``: Draftmancer's import of an MTGO draft log (``parseMTGOLog``): lines split at any line
  end; after ``Pack N pick M:``, the lines up to the next empty one are the pack, and the card picked is the last
  one marked ``--> `` (one card a pick).
- ``arena_text``: MTG Arena's import text (``Commander`` / ``Deck`` / ``Sideboard`` / ``Companion`` headers,
  ``N NAME (SET) NUMBER``); XMage's ``MtgaImporter`` reads it the same way.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass

COCKATRICE_SPLIT_LAYOUTS = ("split", "aftermath", "adventure")


@dataclass(frozen=True)
class ToolCard:
    zone: str
    count: int
    name: str
    set_code: str = ""
    number: str = ""
    foil: bool = False
    flags: str = ""


def cockatrice_names(mtgjson_name: str, layout: str) -> set[str]:
    """The card names Cockatrice's database holds for one MTGJSON card (oracle importer's rules)."""
    if layout in COCKATRICE_SPLIT_LAYOUTS or " // " not in mtgjson_name:
        return {mtgjson_name}
    return set(mtgjson_name.split(" // "))


def cockatrice_cod(text: str) -> tuple[str, list[ToolCard]]:
    """(deck name, cards by zone) as Cockatrice loads a ``.cod``; raises ValueError where Cockatrice refuses it."""
    root = ElementTree.fromstring(text)
    if root.tag != "cockatrice_deck":
        raise ValueError(f"Cockatrice refuses a root <{root.tag}>")
    cards = []
    for zone in root.findall("zone"):
        for card in zone.iter("card"):
            count = card.get("number", "")
            cards.append(
                ToolCard(
                    zone.get("name", ""),
                    int(count) if count.isdigit() else 0,
                    card.get("name", ""),
                    card.get("setShortName", ""),
                    card.get("collectorNumber", ""),
                )
            )
    return (root.findtext("deckname") or ""), cards


_FORGE_LINE = re.compile(r"((\d+)\s+)?(.*?)")


def forge_dck(text: str) -> dict[str, list[ToolCard]]:
    """Forge's sections (lower-cased names) and their card requests."""
    sections: dict[str, list[ToolCard]] = {}
    current = None
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1].strip().lower()
            sections.setdefault(current, [])
            continue
        if current is None or current == "metadata" or not line or line.startswith((";", "#")):
            continue
        found = _FORGE_LINE.fullmatch(line)
        if found is None or not found.group(3).strip():
            continue
        count = int(found.group(2)) if found.group(2) else 1
        sections[current].append(_forge_request(current, count, found.group(3)))
    return sections


def _forge_request(zone: str, count: int, request: str) -> ToolCard:
    info = request.split("|")
    name, foil = info[0], False
    if name.strip().endswith("+"):
        name, foil = name.strip()[:-1], True
    index, set_code, number, flags = 1, "", "", ""
    if len(info) > index and not info[index].isdigit():
        set_code, index = info[index], index + 1
    if len(info) > index and info[index].isdigit() and len(info[index]) <= 2:
        index += 1
    if len(info) > index and info[index].startswith("[") and info[index].endswith("]"):
        number, index = info[index][1:-1], index + 1
    if len(info) > index and info[index].startswith("#"):
        flags = info[index][1:]
    return ToolCard(zone, count, name, set_code, number, foil, flags)


def forge_metadata(text: str) -> dict[str, str]:
    """The ``[metadata]`` section's ``key=value`` lines."""
    out: dict[str, str] = {}
    current = None
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1].lower()
        elif current == "metadata" and "=" in line:
            key, value = line.split("=", 1)
            out[key.strip()] = value.strip()
    return out


def _dek_attribute(line: str, name: str) -> str:
    key = f'{name}="'
    start = line.index(key) + len(key)
    return line[start : line.index('"', start)]


def mtgo_dek_lines(text: str) -> list[ToolCard]:
    """An MTGO ``.dek`` read as XMage reads it, line by line; a split card's ``Fire/Ice`` becomes ``Fire // Ice``."""
    cards = []
    for line in text.splitlines():
        if "<Cards " not in line:
            continue
        name = _dek_attribute(line, "Name")
        if "//" not in name and "/" in name:
            name = name.replace("/", " // ")
        side = "side" if _dek_attribute(line, "Sideboard") == "true" else "main"
        cards.append(ToolCard(side, int(_dek_attribute(line, "Quantity")), name, flags=_dek_attribute(line, "CatID")))
    return cards


_ARENA_LINE = re.compile(r"(\d+) (.+?)(?: \((\w+)\)(?: (\S+))?)?")
ARENA_SECTIONS = {"commander": "commander", "deck": "main", "sideboard": "side", "companion": "side", "about": ""}


def arena_text(text: str) -> list[ToolCard]:
    """MTG Arena's import text; a line that is neither a header nor ``N NAME (SET) NUMBER`` raises ValueError."""
    cards, zone = [], "main"
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.lower() in ARENA_SECTIONS:
            zone = ARENA_SECTIONS[line.lower()]
            continue
        found = _ARENA_LINE.fullmatch(line)
        if found is None:
            raise ValueError(f"MTG Arena can't read {line!r}")
        cards.append(ToolCard(zone, int(found.group(1)), found.group(2), found.group(3) or "", found.group(4) or ""))
    return cards


_COCKATRICE_CARD_LINE = re.compile(r"^\s*[\w\[\(\{].*$")
_COCKATRICE_EMPTY = re.compile(r"^\s*$")
_COCKATRICE_SB_MARK = re.compile(r"^\s*sb:\s*(.+)", re.IGNORECASE)
_COCKATRICE_SB_COMMENT = re.compile(r"^sideboard\b.*$", re.IGNORECASE)
_COCKATRICE_DECK_COMMENT = re.compile(r"^((main)?deck(list)?|mainboard)\b", re.IGNORECASE)
_COCKATRICE_MULTIPLIER = re.compile(r"^[xX\(\[]*(\d+)[xX\*\)\]]* ?(.+)")


def _first(lines: list[str], pattern: re.Pattern[str], start: int = 0) -> int:
    return next((i for i in range(max(start, 0), len(lines)) if pattern.search(lines[i])), -1)


def cockatrice_plain(text: str) -> list[ToolCard]:
    """Plain text as Cockatrice's ``DeckList::loadFromStream_Plain`` reads it: without ``SB:`` marks, the lines
    after a ``Sideboard`` line, else after the one blank line inside the list, are the side zone (where
    Cockatrice players keep a Commander deck's commanders)."""
    lines = text.strip().split("\n")
    start = _first(lines, _COCKATRICE_CARD_LINE)
    start = max(max((i for i in range(start) if _COCKATRICE_EMPTY.search(lines[i])), default=-1), 0)
    side_start = -1
    if _first(lines, _COCKATRICE_SB_MARK, start) == -1:
        side_start = _first(lines, _COCKATRICE_SB_COMMENT, start)
        if side_start == -1:
            side_start = _first(lines, _COCKATRICE_EMPTY, start + 1)
            if side_start == -1:
                side_start = len(lines)
            next_card = _first(lines, _COCKATRICE_CARD_LINE, side_start + 1)
            if _first(lines, _COCKATRICE_EMPTY, next_card + 1) != -1:
                side_start = len(lines)
    index = start
    while index < len(lines) and _COCKATRICE_EMPTY.search(lines[index]):
        index += 1
    if index < len(lines) and _COCKATRICE_DECK_COMMENT.search(lines[index]):
        index += 1
    cards = []
    for number in range(index, len(lines)):
        if not _COCKATRICE_CARD_LINE.search(lines[number]):
            continue
        name = " ".join(lines[number].split())
        if side_start < 0:
            marked = _COCKATRICE_SB_MARK.search(name)
            side = marked is not None
            name = marked.group(1) if marked else name
        elif number == side_start:
            continue
        else:
            side = number > side_start
        counted = _COCKATRICE_MULTIPLIER.search(name)
        count, name = (int(counted.group(1)), counted.group(2)) if counted else (1, name)
        name = re.sub(r" ?[|/]+ ?", " // ", name)  # its CardNameNormalizer: "Fire/Ice" is "Fire // Ice"
        cards.append(ToolCard("side" if side else "main", count, name))
    return cards


def xmage_txt(text: str) -> list[ToolCard]:
    """A ``.txt`` deck as XMage's ``TxtDeckImporter`` reads it (MTGO's text): ``//`` lines are comments
    (``//sideboard`` switches), and unless a line says ``//sideboard`` or ``SB:``, the cards after the first
    blank line are the sideboard, where XMage and MTGO keep a Commander deck's commanders."""
    lowered = [line.strip().lower() for line in text.splitlines()]
    by_blank_line = not any(line.startswith(("//sideboard", "sb: ")) for line in lowered)
    cards, side, seen_cards = [], False, False
    for raw in text.splitlines():
        line = raw.strip()
        if line.lower().startswith("//"):
            side = side or line.lower().startswith("//sideboard")
            continue
        line = line.split("#", 1)[0].strip()
        if not line:
            if seen_cards and by_blank_line:
                side = True
            continue
        marked = line.startswith("SB:")
        line = line.replace("SB:", "").strip()
        words = line.split(" ", 1)
        digits = "".join(ch for ch in words[0] if ch.isdigit())
        count, name = (int(digits), words[1].strip()) if len(words) > 1 and digits else (1, line)
        name = re.sub(r"(?<=[^/])\s*/\s*(?=[^/])", " // ", name, count=1) if " // " not in name else name
        seen_cards = True
        cards.append(ToolCard("side" if side or marked else "main", count, name))
    return cards


_LOG_PICK = re.compile(r"Pack (\d+) pick (\d+):")


def draftmancer_mtgo_log(text: str) -> list[tuple[int, list[str], str]]:
    """(pack, the pack's cards, the card picked) for each pick block, as Draftmancer reads an MTGO draft log."""
    lines = re.split(r"\r?\n|\r", text)
    picks, i = [], 0
    while i < len(lines):
        found = _LOG_PICK.match(lines[i]) if lines[i].startswith("Pack ") else None
        i += 1
        if found is None:
            continue
        pack, picked = [], 0
        while i < len(lines) and lines[i] != "":
            if lines[i].startswith("--> "):
                picked = len(pack)
            pack.append(lines[i].removeprefix("--> ").strip())
            i += 1
        picks.append((int(found.group(1)), pack, pack[picked]))
    return picks
