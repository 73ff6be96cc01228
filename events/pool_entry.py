"""Typing a pool line by line: each line read on its own, so one typo never costs the good lines.

The terminal loop lives in ``events.screens.pool_entry``; this module only reads a line.
"""

from __future__ import annotations

from dataclasses import dataclass

from draft.formats import FileFormat, parse, resolve
from sets.catalog import CardIndex
from sets.errors import CmdraftError


@dataclass(frozen=True)
class PoolLine:
    text: str  # the line as typed
    cards: int  # copies it adds (0 when unreadable or not a card line)
    names: tuple[str, ...] = ()  # the cards it names (for the echo)
    problem: str | None = None
    suggestions: tuple[str, ...] = ()  # card names close to an unknown one

    @property
    def ok(self) -> bool:
        return self.problem is None


def read_pool_line(text: str, index: CardIndex) -> PoolLine:
    """One typed line: ``2 Murder``, ``Murder``, ``1 Akroma (CMR) 2 *F*`` …"""
    try:
        deck_file = parse(text, FileFormat.TEXT, label="typed line")
    except CmdraftError as error:
        return PoolLine(text, 0, problem=str(error))
    deck, problems = resolve(deck_file, index)
    if problems:
        unknown = [entry.name for entry in deck_file.entries if index.get(entry.name) is None]
        suggestions = tuple(index.suggest(unknown[0])) if unknown else ()
        message = problems[0].message.split(": ", 1)[-1] if problems[0].message.startswith("line ") else problems[0].message
        return PoolLine(text, 0, problem=message, suggestions=suggestions)
    return PoolLine(text, sum(line.count for line in deck.lines), tuple(line.card.name for line in deck.lines))


def with_suggestion(line: PoolLine, suggestion: str) -> str:
    """The line again with an unknown card name replaced by a suggested one (its count kept)."""
    entries = parse(line.text, FileFormat.TEXT, label="typed line").entries
    count = entries[0].count if entries else 1
    return f"{count} {suggestion}"
