"""Deck and pool files in the formats other tools read and write.

Read: Arena-style text (``Commander`` / ``Deck`` / ``Sideboard``), plain text
(``1 Name``, ``1x Name``, ``Name x1``, bare names) with Moxfield and Archidekt markings
(``*F*``, ``*E*``, ``*CMDR*``, ``#tags``, ``[Category]``, ``SB:``), Cockatrice
``.cod``, Forge ``.dck``, MTGO ``.dek``, our lossless JSON and CSV.
Write: the same; plain text (``--to text``) as MTGO writes a Commander deck's text: the main deck, a
blank line, the commanders (where MTGO, XMage and Cockatrice keep them), no sideboard.

Reading never drops a line silently: every line that is not a card, a section
or a comment comes back as a ``LineError`` with its line number, and names no
loaded set knows become ``unknown-card`` problems with suggestions.

One module per format (``text``, ``forge``, ``cockatrice``, ``mtgo``,
``json_deck``, ``csv_deck``); ``registry`` joins them behind ``parse``,
``read_file`` and ``write``; ``resolve`` turns names into cards.
"""

from draft.formats.json_deck import parse_json, write_json
from draft.formats.model import DeckFile, FileFormat, LineError
from draft.formats.registry import (
    EXPORT_FORMATS,
    EXTENSIONS,
    FORMATS,
    deck_pool,
    decode,
    parse,
    pool_as_deck,
    read_file,
    write,
)
from draft.formats.resolve import resolve

__all__ = [
    "EXPORT_FORMATS",
    "EXTENSIONS",
    "FORMATS",
    "DeckFile",
    "FileFormat",
    "LineError",
    "decode",
    "deck_pool",
    "parse",
    "parse_json",
    "pool_as_deck",
    "read_file",
    "resolve",
    "write",
    "write_json",
]
