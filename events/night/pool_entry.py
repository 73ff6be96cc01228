"""Typing or editing a pool line by line: each line read on its own, so one typo never costs the good lines.

``PoolEntry`` is the pool being typed: its readable lines, the unreadable ones set aside (asked
again when the pool is finished, so a line typed ahead is never taken as a retyped one), and an
undo of the last change.  Names follow the pick prompt's rules: the whole name, or a unique start
of it (``2 Murd`` is Murder when no other card starts so).  The terminal loop lives in
``events.screens.pool_entry``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from dataclasses import replace as dc_replace

from draft.deck_state import plural
from draft.formats import FileFormat, parse, resolve
from sets.booster import Printing
from sets.card_index import CardIndex
from sets.errors import CmdraftError, InputError
from sets.numbers import is_number, parse_int
from sets.visible import quoted


@dataclass(frozen=True)
class PoolLine:
    text: str  # the line as kept: count and full card name (``2 Murder``), or as typed when unreadable
    cards: int  # copies it adds (0 when unreadable or not a card line)
    names: tuple[str, ...] = ()  # the cards it names (for the echo)
    problem: str | None = None
    suggestions: tuple[str, ...] = ()  # card names close to an unknown one

    @property
    def ok(self) -> bool:
        return self.problem is None


def _finish_marks(foil: bool, etched: bool) -> str:
    return " *E*" if etched else (" *F*" if foil else "")


def read_pool_line(text: str, index: CardIndex) -> PoolLine:
    """One typed line: ``2 Murder``, ``Murder``, ``2 murd`` (a unique start), ``1 Akroma (CMR) 2 *F*`` …"""
    try:
        deck_file = parse(text, FileFormat.TEXT, label="typed line")
    except CmdraftError as error:
        return PoolLine(text, 0, problem=str(error))
    entries = []
    for entry in deck_file.entries:
        if index.get(entry.name) is None:
            starts = index.starting(entry.name)
            if len(starts) == 1:  # a unique start of a name is enough, as at the pick prompt
                entry = dc_replace(entry, name=starts[0], set_code=None, number=None)
        entries.append(entry)
    deck_file = dc_replace(deck_file, entries=entries)
    deck, problems = resolve(deck_file, index)
    if problems:
        message = (
            problems[0].message.split(": ", 1)[-1] if problems[0].message.startswith("line ") else problems[0].message
        )
        unknown = [entry.name for entry in deck_file.entries if index.get(entry.name) is None]
        suggestions: tuple[str, ...] = ()
        if unknown:
            starts = index.starting(unknown[0])
            if len(starts) > 1:  # the start of several names: say so, and offer them
                message = f"{quoted(unknown[0])} starts {len(starts)} card names: type more of it"
                suggestions = tuple(starts[:3])
            else:
                suggestions = tuple(index.suggest(unknown[0]))
        return PoolLine(text, 0, problem=message, suggestions=suggestions)
    kept = "\n".join(f"{line.count} {line.card.name}{_finish_marks(line.foil, line.etched)}" for line in deck.lines)
    return PoolLine(kept or text, sum(line.count for line in deck.lines), tuple(line.card.name for line in deck.lines))


def with_suggestion(line: PoolLine, suggestion: str) -> str:
    """The line again with an unknown card name replaced by a suggested one (its count kept)."""
    try:
        entries = parse(line.text, FileFormat.TEXT, label="typed line").entries
    except CmdraftError:
        entries = []
    count = entries[0].count if entries else 1
    return f"{count} {suggestion}"


@dataclass
class PoolEntry:
    """A pool being typed or edited: kept lines, lines set aside to fix, and an undo of the last change."""

    index: CardIndex
    lines: list[PoolLine] = field(default_factory=list)
    set_aside: list[PoolLine] = field(default_factory=list)
    _undo: list[tuple[str, list[PoolLine], list[PoolLine]]] = field(default_factory=list)

    @classmethod
    def of(cls, index: CardIndex, texts: list[str]) -> PoolEntry:
        """An entry that starts from lines already recorded (``event pool --edit``)."""
        entry = cls(index)
        for text in texts:
            line = read_pool_line(text, index)
            (entry.lines if line.ok else entry.set_aside).append(line)
        return entry

    @property
    def cards(self) -> int:
        return sum(line.cards for line in self.lines)

    def texts(self) -> list[str]:
        return [line.text for line in self.lines]

    def _remember(self, what: str) -> None:
        self._undo.append((what, list(self.lines), list(self.set_aside)))

    def add(self, text: str) -> PoolLine:
        """A typed line: kept when readable, set aside (to fix when the pool is finished) when not."""
        line = read_pool_line(text, self.index)
        if line.ok and not line.cards:
            return line  # not a card line (a heading, a comment): nothing changes
        self._remember(f"+ {line.text}" if line.ok else f"set aside {text}")
        (self.lines if line.ok else self.set_aside).append(line)
        return line

    def take_suggestion(self, number: int) -> PoolLine:
        """Fix the newest set-aside line with its suggestion ``number`` (from 1)."""
        if not self.set_aside:
            raise InputError(f"no line is set aside, so there is no suggestion {number}; type a card line")
        line = self.set_aside[-1]
        if not 1 <= number <= len(line.suggestions):
            raise InputError(
                f"{quoted(line.text)} has {plural(len(line.suggestions), 'suggestion')}, not a number {number}"
            )
        fixed = read_pool_line(with_suggestion(line, line.suggestions[number - 1]), self.index)
        self._remember(f"fix {line.text} as {fixed.text}")
        self.set_aside.pop()
        self.lines.append(fixed)
        return fixed

    def fix(self, line: PoolLine, text: str) -> PoolLine:
        """Replace a set-aside line with ``text`` (or a suggestion number); an unreadable reply leaves it set aside."""
        if is_number(text) and 1 <= int(text) <= len(line.suggestions):
            text = with_suggestion(line, line.suggestions[int(text) - 1])
        fixed = read_pool_line(text, self.index)
        if fixed.ok and fixed.cards:
            self._remember(f"fix {line.text} as {fixed.text}")
            self.set_aside.remove(line)
            self.lines.append(fixed)
        return fixed

    def leave_out(self, line: PoolLine) -> None:
        self._remember(f"leave out {line.text}")
        self.set_aside.remove(line)

    def remove(self, text: str) -> PoolLine:
        """Take out kept line number ``text`` (as ``list`` numbers them)."""
        number = parse_int(text, "line number in 'remove N'")
        if not 1 <= number <= len(self.lines):
            raise InputError(f"there is no line {number}: the pool has lines 1 to {len(self.lines)} (see 'list')")
        line = self.lines[number - 1]
        self._remember(f"- {line.text}")
        del self.lines[number - 1]
        return line

    def undo(self) -> str:
        """Take back the last change; says what it was."""
        if not self._undo:
            raise InputError("nothing to undo yet")
        what, self.lines, self.set_aside = self._undo.pop()
        return what


def pool_lines(printings: Iterable[Printing]) -> list[str]:
    """A recorded pool as typed lines, one per card and finish, in the order first recorded (``2 Murder``)."""
    counts: dict[tuple[str, bool, bool], int] = {}
    for printing in printings:
        key = (printing.card.name, bool(printing.foil and not printing.etched), bool(printing.etched))
        counts[key] = counts.get(key, 0) + 1
    return [f"{count} {name}{_finish_marks(foil, etched)}" for (name, foil, etched), count in counts.items()]
