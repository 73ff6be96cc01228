"""CSV deck files: ours, and the headers other tools use."""

from __future__ import annotations

import csv
import io
import re

from draft.decks import Deck, DeckLine, Zone
from draft.formats.model import (
    DeckFile,
    Entry,
    FileFormat,
    LineError,
    category_zone,
    commander_colors,
    count_or_error,
    edition_code,
    line_printing,
    one_color,
)
from sets.cards import CONTROL
from sets.errors import InputError, quoted_list
from sets.visible import quoted

# A cell a spreadsheet would run as a formula (OWASP "CSV injection"): = + - @ tab CR first,
# after any quotes already there.  Written with one more ' in front; read back without it.
_FORMULA = re.compile(r"'*[=+\-@\t\r]")


def neutral(value: object) -> object:
    """A cell as written to any CSV: a text cell a spreadsheet would take for a formula gets a leading '."""
    return "'" + value if isinstance(value, str) and _FORMULA.match(value) else value


def restored(value: str) -> str:
    """A cell as read from a CSV this program wrote: the ' that ``neutral`` added is taken off."""
    return value[1:] if value.startswith("'") and _FORMULA.match(value[1:]) else value


_CSV_COLUMNS = {
    "count": ("count", "quantity", "qty", "amount"),
    "name": ("name", "card name", "card"),
    # a column that says it holds codes first: one that may hold a set's name (Deckbox's "Edition") beside it
    "set": ("set code", "edition code", "set", "edition"),
    "number": ("number", "collector number", "collector_number", "card number"),
    "zone": ("zone", "board", "section", "categories", "category"),
    # Dragon Shield's and TCGplayer's "Printing" column says "Foil" or "Normal"
    "foil": ("foil", "finish", "printing"),
    "etched": ("etched",),
    # Only a column that says it holds a chosen color: collection CSVs (Moxfield, ManaBox) give the card's own
    # colors under "Color", which is no choice and is not read.
    "chosen_color": ("piper_color", "piper color", "chosen_color", "chosen color"),
}
# The set columns whose header says they hold codes: a six-letter word there is a code (``edition_code``).
_CODE_COLUMNS = ("set code", "edition code")


# Excel's separator line, which some tools' CSVs start with (Dragon Shield's '"sep=,"'): not the header, but the
# character the cells are separated by.
_SEPARATOR_LINE = re.compile(r'^"?sep=(?P<sep>[^"\r\n])"?[ \t]*(?:\r\n|\r|\n|$)', re.IGNORECASE)
# What separates a header's cells where no such line says: a comma, else a semicolon (a spreadsheet saved as CSV
# where the comma is the decimal mark) or a tab.
_SEPARATORS = (",", ";", "\t")
_KNOWN_HEADERS = {alias for aliases in _CSV_COLUMNS.values() for alias in aliases}


def _names_a_column(line: str, delimiter: str) -> bool:
    """Whether a line split by ``delimiter`` is a header: one of its cells names a column read here."""
    if delimiter not in line:
        return False
    try:
        cells = next(csv.reader([line], delimiter=delimiter))
    except csv.Error:
        return False
    return any(cell.strip().lower() in _KNOWN_HEADERS for cell in cells)


def _first_line(text: str) -> str:
    """The file's first line, whatever ends it: CRLF, LF, or a lone CR as Excel's "CSV (Macintosh)" writes."""
    return re.split(r"\r\n|\r|\n", text, maxsplit=1)[0]


def _separator(text: str) -> tuple[str, str, int]:
    """(the cells' separator, the text from the header on, the lines before the header): a first line
    ``sep=;`` names the separator and is no part of the table; else the header's cells are split by the first of
    ``_SEPARATORS`` that makes one of them a column's name."""
    found = _SEPARATOR_LINE.match(text)
    if found:
        return found.group("sep"), text[found.end() :], 1
    first = _first_line(text)
    return next((sep for sep in _SEPARATORS if _names_a_column(first, sep)), ","), text, 0


def parse_csv(text: str, label: str = "deck") -> DeckFile:
    result = DeckFile(FileFormat.CSV)
    delimiter, text, skipped = _separator(text)
    # newline="": the reader sees every line end as the file has it, a lone CR too (Excel's "CSV (Macintosh)")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = [h.strip().lower() for h in next(reader)]
    except (StopIteration, csv.Error):
        raise InputError(f"{label}: empty CSV file") from None
    columns = {
        key: next((header.index(a) for a in aliases if a in header), None) for key, aliases in _CSV_COLUMNS.items()
    }
    if columns["name"] is None:
        found = quoted_list([cell for cell in header if cell]) or "none"
        raise InputError(
            f"{label}: a CSV deck needs a card name column (found {found}); name that column 'name', 'card name' or "
            "'card' in the first line, or give the deck as text lines ('1 Sol Ring')"
        )

    def cell(row: list[str], key: str) -> str:
        index = columns[key]
        return restored(row[index].strip()) if index is not None and index < len(row) else ""

    said_code = columns["set"] is not None and header[columns["set"]] in _CODE_COLUMNS
    try:
        for number, row in enumerate(reader, start=2 + skipped):
            if not any(c.strip() for c in row):
                continue
            if any(c.strip() for c in row[len(header) :]):  # a comma of a name outside quotes split the cell
                result.errors.append(
                    LineError(
                        number,
                        delimiter.join(row)[:80],
                        f"{len(row)} cells where the header names {len(header)}: a cell with {separator_words(delimiter)} "
                        "in it goes between double quotes"
                        + (" (a name such as Akroma, Vision of Ixidor)" if delimiter == "," else ""),
                    )
                )
                continue
            name = cell(row, "name")
            if not name or CONTROL.search(name):
                result.errors.append(LineError(number, delimiter.join(row)[:80], "no card name"))
                continue
            count = count_or_error(cell(row, "count") or "1", number, name, result)
            if count is None:
                continue
            zone = category_zone(cell(row, "zone"), Zone.MAIN)
            finish = cell(row, "foil").lower()
            etched = cell(row, "etched").lower() in ("1", "true", "yes", "etched") or finish == "etched"
            foil = finish in ("1", "true", "yes", "foil", "etched") or etched
            color = one_color(chosen, number) if (chosen := cell(row, "chosen_color")) else None
            if isinstance(color, LineError):
                result.errors.append(color)
                color = None
            result.entries.append(
                Entry(
                    name,
                    count,
                    zone,
                    edition_code(cell(row, "set"), column_says_code=said_code),
                    cell(row, "number") or None,
                    foil,
                    etched,
                    color,
                    number,
                )
            )
    except csv.Error as error:
        result.errors.append(LineError(reader.line_num + skipped, "", f"broken CSV ({error})"))
    result.piper_colors = [e.color for e in result.entries if e.zone is Zone.COMMANDER and e.color is not None]
    return result


_SEPARATOR_WORDS = {",": "a comma", ";": "a semicolon", "\t": "a tab", " ": "a space"}


def separator_words(separator: str) -> str:
    """A CSV's separator in words: 'a comma', 'a tab'; one a ``sep=`` line names otherwise, quoted and visible."""
    return _SEPARATOR_WORDS.get(separator) or quoted(separator)


def looks_like_csv(text: str) -> bool:
    """A CSV deck starts with a header row: column names separated by commas (or semicolons, or tabs), one of them
    a column read here (a card name, a count, a set...), after Excel's separator line if the file has one.  A text
    list whose first card has a comma in its name (``1 Jeska, Thrice Reborn``) names no column: it is text.  A
    header without a name column is a CSV all the same, refused for the column it lacks (``parse_csv``), never read
    as card lines."""
    delimiter, text, _ = _separator(text)
    return _names_a_column(_first_line(text), delimiter)


def _set_number(line: DeckLine) -> tuple[str, str]:
    return line_printing(line) or ("", "")


class _NeutralWriter:
    def __init__(self, buffer: io.StringIO):
        self.writer = csv.writer(buffer, lineterminator="\n")

    def writerow(self, row: list[object]) -> None:
        self.writer.writerow([neutral(cell) for cell in row])


def write_csv(deck: Deck) -> str:
    buffer = io.StringIO()
    writer = _NeutralWriter(buffer)
    writer.writerow(["count", "name", "set", "number", "zone", "foil", "etched", "piper_color"])
    colors = commander_colors(deck)
    for i, line in enumerate(deck.zone(Zone.COMMANDER)):
        writer.writerow(
            [
                line.count,
                line.card.name,
                *_set_number(line),
                "commander",
                int(line.foil),
                int(line.etched),
                color.value if (color := colors[i]) else "",
            ]
        )
    for zone in (Zone.MAIN, Zone.SIDEBOARD):
        for line in deck.zone(zone):
            writer.writerow(
                [line.count, line.card.name, *_set_number(line), zone.value, int(line.foil), int(line.etched), ""]
            )
    return buffer.getvalue()
