"""An MTGO draft log read as the pool it records: the cards its player took.

MTGO's log (and cmdraft's, ``draft.log``) opens with ``Event #:``, names the players (``--> `` before the log's own),
then each pick as a block: ``Pack 1 pick 1:`` and the cards the pack held, ``--> `` before the card taken (one a
block as MTGO writes them; logs cmdraft wrote before marked both cards of a pick of two in one block).  Those marked
cards are the player's pool; every other line is the log's, not a card.
"""

from __future__ import annotations

import re

from draft.decks import Zone
from draft.formats.model import DeckFile, Entry, FileFormat, plain_spaces

_PICK = re.compile(r"^pack\s+\d+\s+pick\s+\d+\s*:$", re.IGNORECASE)
_TAKEN = "-->"


def looks_like_draft_log(lines: list[str]) -> bool:
    """A log opens with ``Event #:`` and holds a ``Pack N pick M:`` block."""
    first = next((plain_spaces(line).strip() for line in lines if line.strip()), "")
    return first.lower().startswith("event #:") and any(_PICK.match(plain_spaces(line).strip()) for line in lines)


def parse_draft_log(lines: list[str]) -> DeckFile:
    """The cards marked taken under each pick, one entry a card with its line; the player the log is for (marked
    among the players) names the pool."""
    result = DeckFile(FileFormat.TEXT)
    in_players = in_pick = False
    for number, raw in enumerate(lines, start=1):
        line = plain_spaces(raw).strip()
        if not line:
            in_players = in_pick = False
            continue
        if _PICK.match(line):
            in_players, in_pick = False, True
            continue
        if line.lower() == "players:":
            in_players = True
            continue
        if not line.startswith(_TAKEN):
            continue
        name = line[len(_TAKEN) :].strip()
        if in_players and not result.name:
            result.name = name
        elif in_pick and name:
            result.entries.append(Entry(name, 1, Zone.MAIN, line=number))
    return result
