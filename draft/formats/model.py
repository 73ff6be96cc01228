"""What every deck file format shares: the format names, what a file said (entries and
unreadable lines), and small helpers for reading and writing lines.
"""

from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum, unique
from pathlib import Path
from xml.parsers import expat

from draft.decks import Deck, DeckLine, Zone, is_piper
from draft.products import default_product, product_of, products
from sets.cards import CONTROL, Card, Layout
from sets.colors import Color
from sets.errors import ColorError, InputError
from sets.numbers import is_number
from sets.visible import quoted

# The invisible characters a list copied from a web page carries: a zero-width space, a word joiner, a soft hyphen, a
# byte order mark (mid-file where two lists were pasted together).  Other format characters are a name's own: a
# zero-width joiner in an emoji sequence, a zero-width non-joiner in a Persian or Hindi word.
_PASTED = dict.fromkeys(map(ord, "\u200b\u2060\u00ad\ufeff"))


def plain_spaces(line: str) -> str:
    """A deck or pool line (a deck's name too) with every Unicode space (a no-break space after the count, as some
    sites copy it; an ideographic or thin space; a tab) read as an ASCII space, and without the invisible characters
    text copied from a web page carries (``_PASTED``); a card line loses every other format character too
    (``card_line_text``)."""
    if line.isascii() and "\t" not in line:
        return line
    return "".join(" " if ch.isspace() else ch for ch in line.translate(_PASTED))


def card_line_text(line: str) -> str:
    """A card line as ``plain_spaces`` reads it, without any format character (a bidi mark before the count): no
    card's name holds one."""
    line = plain_spaces(line)
    return line if line.isascii() else "".join(ch for ch in line if unicodedata.category(ch) != "Cf")


MAX_COPIES = 9999


def front_face_name(card: Card) -> str:
    """The name MTG Arena and Forge know a card by: a double-faced, adventure, flip or meld card's
    front face (Arena refuses "Murderous Rider // Swift End"), a split card's halves joined by " // "."""
    if len(card.faces) > 1 and card.layout is not Layout.SPLIT:
        return card.front.name
    return card.name


def cockatrice_name(card: Card) -> str:
    """The name Cockatrice's card database knows a card by: its oracle importer keeps split, aftermath and
    adventure cards as one card under the full "Bonecrusher Giant // Stomp", and every other card with faces
    (double-faced, flip, meld) as one card per face, so under its front face's name."""
    if len(card.faces) > 1 and card.layout not in (Layout.SPLIT, Layout.ADVENTURE):
        return card.front.name
    return card.name


# Categories as Archidekt writes them, "[Commander{top}]", "[Maybeboard{noDeck}{noPrice},Removal]" (a flag in braces
# after a name), and the zone words of other tools' CSV columns.
_CATEGORY_FLAGS = re.compile(r"\{(?P<flag>[^{}]*)\}")
_COMMAND_CATEGORIES = ("commander", "commanders", "command zone")
_OUTSIDE_CATEGORIES = ("sideboard", "side", "maybeboard", "maybe", "considering", "companion", "companions")


def category_zone(categories: str, zone: Zone) -> Zone:
    """The zone a card's categories put it in: a category named Commander is the command zone; one named
    Sideboard, Maybeboard or Considering, or flagged ``{noDeck}`` (Archidekt's mark of a category kept out of the
    deck), is outside the deck; other categories are the user's own (``Commander Synergy`` too) and change nothing."""
    for category in categories.split(","):
        flags = {flag.lower() for flag in _CATEGORY_FLAGS.findall(category)}
        name = _CATEGORY_FLAGS.sub("", category).strip().lower()
        if name in _COMMAND_CATEGORIES:
            return Zone.COMMANDER
        if name in _OUTSIDE_CATEGORIES or "nodeck" in flags:
            zone = Zone.SIDEBOARD
    return zone


# The codes MTG Arena gives sets whose own code it can't use: Dominaria is DAR there (Arena's exports, and
# Draftmancer's and XMage's for Arena, write it; Arena's importer wants it).
ARENA_SET_CODES = {"DOM": "DAR"}
_FROM_ARENA = {arena: code for code, arena in ARENA_SET_CODES.items()}


def arena_set_code(code: str) -> str:
    return ARENA_SET_CODES.get(code, code)


# A set code as files write them (CMR, PLST, PMPS08): two to six letters and digits.
SET_CODE = re.compile(r"[A-Z0-9]{2,6}")


def edition_code(value: str, *, column_says_code: bool = False) -> str | None:
    """A CSV's set or edition cell as a set code (upper case), or None when it holds a set's name: collection CSVs
    (Deckbox's ``Edition``) give ``Commander 2021`` or ``Ixalan`` there.  A word of six letters is a name
    (Ixalan, Mirage, Portal, Theros, Exodus) unless the column says it holds codes (``Set Code``); a code is at
    most five characters or holds a digit (CMR, PLST, PMPS08)."""
    code = value.strip().upper()
    if not SET_CODE.fullmatch(code):
        return None
    return code if column_says_code or len(code) <= 5 or any(ch.isdigit() for ch in code) else None


def set_code_read(code: str, loaded: set[str]) -> str:
    """A set code as a file gives it, as the sets know it: Arena's DAR is Dominaria's DOM (unless a set DAR is
    loaded)."""
    code = code.upper()
    return code if code in loaded else _FROM_ARENA.get(code, code)


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
        aliases = {
            "cockatrice": cls.COCKATRICE,
            "forge": cls.FORGE,
            "mtgo": cls.MTGO,
            "txt": cls.ARENA,
            "plain": cls.TEXT,
            "moxfield": cls.ARENA,
            "mtga": cls.ARENA,
        }
        if key in aliases:
            return aliases[key]
        for fmt in cls:
            if fmt.value == key:
                return fmt
        raise InputError(f"unknown deck file format {quoted(text)}: use one of {', '.join(f.value for f in cls)}")

    @classmethod
    def for_path(cls, path: str | Path) -> FileFormat:
        suffix = Path(path).suffix.lower().lstrip(".")
        return {"cod": cls.COCKATRICE, "dck": cls.FORGE, "dek": cls.MTGO, "json": cls.JSON, "csv": cls.CSV}.get(
            suffix, cls.ARENA
        )


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
    # The MTGO catalog id a .dek line gives (its CatID): a card's foil id there marks the copies foil.
    catalog_id: int | None = None


@dataclass(frozen=True, slots=True)
class LineError:
    line: int
    text: str
    reason: str

    def __str__(self) -> str:
        shown = self.text if len(self.text) <= 60 else self.text[:57] + "..."
        # line 0: the whole file, or a part of it that has no line (a .cod without zones, a JSON key)
        where = f"line {self.line}: " if self.line > 0 else ""
        return f"{where}{self.reason}: {quoted(shown)}"


@dataclass
class DeckFile:
    """What a file said: entries, unreadable lines, and the deck's name and chosen colors."""

    format: FileFormat
    entries: list[Entry] = field(default_factory=list)
    errors: list[LineError] = field(default_factory=list)
    name: str = ""
    piper_colors: list[Color] = field(default_factory=list)
    commander_names: list[str] = field(default_factory=list)
    # The line of the comment the chosen colors came from ("Piper colors: U"), 0 when the card lines gave them.
    colors_line: int = 0
    # The sideboard holds the commanders when it holds no more than a deck can lead with (XMage's own .dck).
    commanders_in_sideboard: bool = False


def count_or_error(value: str | None, number: int, what: str, result: DeckFile) -> int | None:
    count = int(value or "1") if is_number(value or "1") else -1
    if not 0 < count <= MAX_COPIES:
        # the count as the file gave it: '1.0' or 'lots' beside a card's name says which cell to correct
        given = (value or "").strip()
        result.errors.append(LineError(number, what, f"count must be 1 to {MAX_COPIES}, not {quoted(given[:20])}"))
        return None
    return count


# "Piper colors: W U", "Faceless One colors: W" (the product's added card), or "Chosen colors: ...".
_NOTE = re.compile(
    r"(?:" + "|".join(re.escape(p.added.word) for p in products().values()) + r"|chosen) colou?rs?:[ \t]*"
    r"(?P<colors>[A-Za-z ,\t]*)",
    re.IGNORECASE,
)

# Why a chosen color a file gives is refused: a Piper (or Faceless One) chooses one color (CR 903.4b), so two ('WU'),
# none ('C') or a word that names none ('purple') is no choice; said in no product's word for the card.
NOT_ONE_COLOR = "not one color (a commander that chooses a color chooses one: W, U, B, R or G; CR 903.4b)"


def one_color(text: str, line: int) -> Color | LineError:
    """A commander's chosen color as a file gives it (a letter or a word, ``U`` or ``blue``): exactly one color, else
    the line's error naming the value."""
    try:
        return Color.parse(text)
    except ColorError:
        return LineError(line, text.strip(), NOT_ONE_COLOR)


@dataclass(frozen=True, slots=True)
class ColorNote:
    """The chosen colors a deck's comment names ("Piper colors: U R"), one for each commander that chooses one, in
    order; ``line`` is the file's line that says them, ``error`` the word that names no color (then no colors)."""

    colors: tuple[Color, ...] = ()
    line: int = 0
    error: LineError | None = None


def color_note(text: str, first_line: int = 1) -> ColorNote:
    """The colors note in a comment whose text starts on ``first_line`` of the file: every word after the colon,
    up to the line's end (or a '.', ';' or digit), must be one color."""
    found = _NOTE.search(text or "")
    if not found:
        return ColorNote()
    line = first_line + text.count("\n", 0, found.start())
    words = [word for word in re.split(r"[\s,]+", found.group("colors")) if word]
    colors = [one_color(word, line) for word in words]
    wrong = next((color for color in colors if isinstance(color, LineError)), None)
    if wrong is not None:
        return ColorNote((), line, LineError(line, found.group("colors").strip(), NOT_ONE_COLOR))
    return ColorNote(tuple(color for color in colors if isinstance(color, Color)), line)


def colors_note(colors: tuple[Color, ...], commanders: Sequence[Card] = ()) -> str:
    """The chosen colors as a deck file's note, in the words of the added card leading (by default "Piper")."""
    word = next((product_of([card]).added.word for card in commanders if is_piper(card)), default_product().added.word)
    return f"{word} colors: " + " ".join(color.value for color in colors) if colors else ""


def xml_root(text: str, label: str) -> ElementTree.Element:
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        raise InputError(f"{label}: XML with a DOCTYPE or entities is not accepted; export the deck again")
    try:
        return ElementTree.fromstring(text)
    except ElementTree.ParseError as error:
        raise InputError(f"{label}: broken XML ({error}); export the deck again") from None


def element_lines(root: ElementTree.Element, text: str) -> dict[int, int]:
    """The line of ``text`` each element of ``root`` starts on, by ``id``: what an error names, as a person opens
    the file (ElementTree keeps no lines, so expat reads the text again, in the same document order)."""
    starts: list[int] = []
    parser = expat.ParserCreate()
    parser.StartElementHandler = lambda name, attributes: starts.append(parser.CurrentLineNumber)
    try:
        parser.Parse(text, True)
    except expat.ExpatError:
        return {}  # ElementTree read it: this can't happen, and the elements' positions stand in
    return {id(element): line for element, line in zip(root.iter(), starts, strict=False)}


def xml_deck_root(text: str, label: str, tag: str, what: str) -> ElementTree.Element:
    """The root element of an XML deck file when it is ``tag``; else a one-line error naming the file and what it
    holds: text that isn't XML at all (``1 Murder`` saved as ``.dek``), or another root element."""
    if not text.startswith("<"):
        raise InputError(
            f"{label}: not {what}, which is XML (<{tag}>...): this is text; export the deck again, or save a text "
            "deck list as .txt"
        )
    root = xml_root(text, label)
    if root.tag != tag:
        raise InputError(
            f"{label}: the root element is <{root.tag}>, not <{tag}>: this is not {what}; "
            "export the deck again, or name the file with its format's extension (.cod for Cockatrice, .dek for MTGO)"
        )
    return root


def xml_entries(
    result: DeckFile,
    cards: Iterable[tuple[ElementTree.Element, Zone]],
    name_key: str,
    count_key: str,
    printing: Callable[[ElementTree.Element], tuple[str | None, str | None]] = lambda card: (None, None),
    positions: list[int] | None = None,
    catalog_id: Callable[[ElementTree.Element], int | None] = lambda card: None,
) -> None:
    """Entries from XML card elements with their zones; bad elements become line errors."""
    for index, (card, zone) in enumerate(cards):
        position = positions[index] if positions is not None else index + 1
        name = (card.get(name_key) or "").strip()
        if not name or CONTROL.search(name):
            result.errors.append(
                LineError(position, ElementTree.tostring(card, encoding="unicode")[:80], "a card without a name")
            )
            continue
        count = count_or_error(card.get(count_key), position, name, result)
        if count is not None:
            set_code, number = printing(card)
            result.entries.append(
                Entry(name, count, zone, set_code, number, line=position, catalog_id=catalog_id(card))
            )


def ordered_lines(deck: Deck, zone: Zone) -> list[DeckLine]:
    lines = deck.zone(zone)
    if zone is Zone.COMMANDER:
        return lines
    return sorted(lines, key=lambda l: (l.card.is_land, l.card.is_basic_land, l.card.mana_value, l.card.name))


def merged_lines(lines: list[DeckLine], written: Callable[[DeckLine], Hashable]) -> list[DeckLine]:
    """One line for the copies a format writes alike, copies added up, in the order they first come: ``written`` is
    what the format writes of a line beside its count (plain text a card's name alone, Arena text its name and
    printing, a .dck its name, finish and set), so that Arcane Signets of C21, CMR and PLST are ``3 Arcane Signet``
    in plain text and three lines in Arena text."""
    merged: dict[Hashable, DeckLine] = {}
    for line in lines:
        key = written(line)
        old = merged.get(key)
        merged[key] = line if old is None else replace(old, count=old.count + line.count)
    return list(merged.values())


def xml_attribute(value: str) -> str:
    """An XML attribute value, quoted as MTGO and Cockatrice write theirs: always in double quotes (a double quote
    inside as &quot;), so that readers that look for name=" line by line (XMage's .dek reader) find it."""
    from xml.sax.saxutils import quoteattr  # here: it imports urllib.request and http.client, which reading never needs

    return quoteattr(value, {'"': "&quot;"})


# A collector number as the text reader reads one after "(SET)" (``text._SET_NUMBER``): Scryfall's numbers carry marks
# (1494★, 4†, 123p, C21-263), but never a space, a bracket, a marker star or a tag sign.
COLLECTOR_NUMBER = r"[^\s()\[\]{}*^#]"
# A collector number a file may write back: that shape, not a '|' (Forge's reader splits a card request there), and
# 1 to 20 characters (what a registered deck keeps: ``events.storage.records.DeckLine``).
_WRITABLE_NUMBER = re.compile(r"[^\s()\[\]{}*^#|]{1,20}")


def writable_number(number: str) -> bool:
    """Whether a collector number a file gave can be written back in every format and read back as it was: a line
    break in it would add a line (``1 Black Lotus``), a ')' or ']' would end the printing early."""
    return _WRITABLE_NUMBER.fullmatch(number) is not None


def has_printing(card: Card) -> bool:
    """Whether the card has a real printing (set and number) worth writing."""
    return card.set_code not in ("", "BASIC") and bool(card.number)


def line_printing(line: DeckLine) -> tuple[str, str] | None:
    """The printing a line is written with: the one its file named (``DeckLine.printed``) when its number can be
    written back (``writable_number``), else its card's own when it has a real one, else None."""
    if line.printed is not None and writable_number(line.printed[1]):
        return line.printed
    return (line.card.set_code, line.card.number) if has_printing(line.card) else None


def commander_colors(deck: Deck) -> list[Color | None]:
    colors = iter(deck.piper_colors)
    return [next(colors, None) if line.card.chooses_color else None for line in deck.zone(Zone.COMMANDER)]
