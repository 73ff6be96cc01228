"""Every format in one table, and the one way in and out: ``parse``/``read_file`` and ``write``.

Adding a format: a module with its parser and writer, its name in ``FileFormat``,
and one line in ``FORMATS``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from draft.decks import Deck, DeckLine, Zone
from draft.formats.cockatrice import looks_like_cockatrice, parse_cockatrice, write_cockatrice
from draft.formats.csv_deck import looks_like_csv, parse_csv, write_csv
from draft.formats.draft_log import looks_like_draft_log
from draft.formats.forge import looks_like_forge, parse_forge, write_forge
from draft.formats.json_deck import parse_json, write_json
from draft.formats.model import DeckFile, FileFormat
from draft.formats.mtgo import parse_mtgo, write_mtgo
from draft.formats.text import parse_text, write_arena, write_text
from sets.cards import Card
from sets.errors import InputError
from sets.files import DECK_LIMIT, read_input


def decode(data: bytes, label: str = "deck") -> str:
    """Text from bytes in the encoding a deck file came in: UTF-16 with its byte-order mark, UTF-8,
    else Windows-1252 (what older Windows tools write).  Bytes none of them can read are refused,
    naming the first one and where it is."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return _utf16(data, label)
    try:
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return data.decode("cp1252")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise InputError(
            f"{label}: byte 0x{data[error.start]:02x} on line {line} is not text in UTF-8, UTF-16 or "
            "Windows-1252; save the file as UTF-8"
        ) from None


def _utf16(data: bytes, label: str) -> str:
    """A file that starts with a UTF-16 byte-order mark, read as UTF-16; one whose rest isn't UTF-16 (an odd number
    of bytes, a broken pair, or no zero byte at all, as a deck's digits, spaces and line ends in UTF-16 always
    have) is refused as what it looks like: UTF-16 saved wrongly, or other text behind a stray mark."""
    mark = " ".join(f"0x{byte:02x}" for byte in data[:2])
    words = (
        f"{label}: starts with a UTF-16 byte-order mark ({mark}) but the rest is not UTF-16 text; "
        "save the file as UTF-8 (or whole as UTF-16)"
    )
    if b"\x00" not in data[2:] and len(data) > 2:
        raise InputError(words)
    try:
        return data.decode("utf-16")
    except UnicodeDecodeError:
        raise InputError(words) from None


@dataclass(frozen=True)
class Format:
    """How one file format is read, sniffed and written."""

    parse: Callable[[str, str], DeckFile]
    write: Callable[[Deck], str]
    extension: str
    sniff: Callable[[str], bool] | None = None  # does this text look like the format? (None: only when asked for)
    holds_sideboard: bool = True  # False: a deck's sideboard is left out (it belongs in the pool file): .dek, text


# Sniffing tries these in order; text that matches none is read as plain text.
FORMATS: dict[FileFormat, Format] = {
    FileFormat.COCKATRICE: Format(parse_cockatrice, write_cockatrice, "cod", looks_like_cockatrice),
    FileFormat.MTGO: Format(parse_mtgo, write_mtgo, "dek", lambda text: text.startswith("<"), holds_sideboard=False),
    FileFormat.JSON: Format(parse_json, write_json, "json", lambda text: text.startswith("{")),
    FileFormat.FORGE: Format(lambda text, label: parse_forge(text), write_forge, "dck", looks_like_forge),
    FileFormat.CSV: Format(parse_csv, write_csv, "csv", looks_like_csv),
    FileFormat.ARENA: Format(lambda text, label: parse_text(text), write_arena, "txt"),
    FileFormat.TEXT: Format(lambda text, label: parse_text(text), write_text, "txt", holds_sideboard=False),
}
WRITERS = {fmt: spec.write for fmt, spec in FORMATS.items()}
EXTENSIONS = {fmt: spec.extension for fmt, spec in FORMATS.items()}
EXPORT_FORMATS = (
    FileFormat.ARENA,
    FileFormat.COCKATRICE,
    FileFormat.FORGE,
    FileFormat.MTGO,
    FileFormat.JSON,
    FileFormat.CSV,
)


def sniff(text: str) -> FileFormat:
    """The format deck text is in, judged from its content: an MTGO draft log is text first (its ``Event #:`` line
    holds the event's name, which a comma, semicolon or tab in it would make a CSV header)."""
    if looks_like_draft_log(text.splitlines()):
        return FileFormat.TEXT
    return next((fmt for fmt, spec in FORMATS.items() if spec.sniff and spec.sniff(text)), FileFormat.TEXT)


def parse(text: str, fmt: FileFormat | None = None, label: str = "deck") -> DeckFile:
    """Read deck text; the format is sniffed from the content unless given."""
    # Lone surrogates can't be encoded anywhere downstream (XML, files): replace them.
    text = text.encode("utf-8", "replace").decode("utf-8")
    stripped = text.lstrip("\ufeff \t\r\n")
    return FORMATS[fmt or sniff(stripped)].parse(stripped, label)


def read_file(path: str | Path, fmt: FileFormat | None = None) -> DeckFile:
    """A deck or pool file: a regular file of at most ``DECK_LIMIT`` bytes (10 MiB)."""
    path = Path(path)
    data = read_input(path, DECK_LIMIT)
    text = decode(data, str(path))
    suffix = path.suffix.lower().lstrip(".")
    if fmt is None and suffix == "json":
        fmt = (
            FileFormat.JSON
        )  # a .json file is JSON whatever it starts with: an array is refused as no deck, not read as lines
    elif fmt is None and suffix in ("cod", "dek"):
        # An XML deck file is the format its extension names, as Cockatrice and MTGO open them: a .cod with another
        # root, or a .dek that is no XML at all (text lines), says so rather than being read as something else.
        fmt = FileFormat.COCKATRICE if suffix == "cod" else FileFormat.MTGO
    return parse(text, fmt, str(path))


def named_after(deck: Deck, path: str | Path) -> Deck:
    """The deck, named after its file (the file's name without its extension) when the file gave it no name, as an
    Arena list without ``About`` or a plain list: a converted deck is never written nameless."""
    return deck if deck.name.strip() else Deck(deck.lines, deck.piper_colors, Path(path).stem)


def write(deck: Deck, fmt: FileFormat) -> str:
    return FORMATS[fmt].write(deck)


def deck_pool(deck: Deck) -> Deck:
    """Every card of a deck (commanders, main deck and sideboard) as a pool file's deck."""
    return pool_as_deck([line for line in deck.lines for _ in range(line.count)], f"{deck.name} pool".strip())


def pool_as_deck(cards: Any, name: str = "") -> Deck:
    """A pool (cards or printings) as a deck with everything in the main zone, for writing pool files."""
    lines: dict[tuple[Card, bool, bool, tuple[str, str] | None], int] = {}
    for item in cards:
        card = getattr(item, "card", item)
        key = (
            card,
            bool(getattr(item, "foil", False)),
            bool(getattr(item, "etched", False)),
            getattr(item, "printed", None),
        )
        lines[key] = lines.get(key, 0) + 1
    return Deck(
        tuple(
            DeckLine(card, n, Zone.MAIN, foil, etched, printed) for (card, foil, etched, printed), n in lines.items()
        ),
        (),
        name,
    )
