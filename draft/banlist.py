"""The Commander banned list (constructed Commander): named cards and the kinds of cards it bans, as data.

The bundled list (``draft/data/commander-banlist.json``) says the date of the announcement it follows and its
sources; ``read_banlist`` reads a list of one's own, one card name a line (``deck check --banlist FILE``), which
replaces the bundled one whole.  Basic lands are never banned.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from sets.card_index import CardIndex
from sets.cards import Card, names_of, normalize_name
from sets.visible import quoted

_ANTE = re.compile(r"\bante\b", re.IGNORECASE)
TYPO_CUTOFF = 0.85  # how close a name unknown here must be to a card's to be taken for a typo of it


@dataclass(frozen=True)
class BannedList:
    """Banned card names (as ``normalize_name`` folds them) with why each is banned, and banned kinds of cards."""

    names: dict[str, str] = field(default_factory=dict)  # folded name -> why
    banned_types: frozenset[str] = frozenset()
    ante: bool = False  # every card that refers to playing for ante
    as_of: str = ""
    sources: tuple[str, ...] = ()
    source_file: str = ""
    listed: tuple[str, ...] = ()  # a list of one's own: its names as written (``misspelled``)

    def reason(self, card: Card) -> str | None:
        """Why ``card`` is banned, in words a player reads; None when it isn't."""
        if card.is_basic_land:
            return None
        for name in names_of(card):
            why = self.names.get(normalize_name(name))
            if why is not None:
                return why
        for card_type in sorted(self.banned_types):
            if any(card_type in face.types for face in card.faces):
                return f"it is a {card_type} card, and every {card_type} card is banned{self._dated()}"
        if self.ante and any(_ANTE.search(face.text) for face in card.faces):
            return f"it refers to playing for ante, and every such card is banned{self._dated()}"
        return None

    def _dated(self) -> str:
        if self.source_file:
            return f" ({self.source_file})"
        return f" (the banned list as of {self.as_of})" if self.as_of else ""


def read_banlist(text: str, source_file: str) -> BannedList:
    """A list of one's own: one card name a line, ``#`` comments and blank lines skipped."""
    names = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return BannedList(
        {normalize_name(name): f"it is on the banned list {quoted(source_file)}" for name in names},
        source_file=source_file,
        listed=tuple(names),
    )


def misspelled(banned: BannedList, index: CardIndex) -> list[str]:
    """Notes for the names of a list of one's own that no card answers to but one nearly does (a typo: it bans
    nothing).  A name merely unknown here is no note: a banned list names many cards of sets not loaded."""
    known = {
        normalize_name(name): name for card_set in index.sets for card in card_set.cards for name in names_of(card)
    }
    notes = []
    for name in banned.listed:
        key = normalize_name(name)
        if key in known:
            continue
        close = difflib.get_close_matches(key, known, n=1, cutoff=TYPO_CUTOFF)
        if close:
            notes.append(
                f"the banned list {quoted(banned.source_file)} names {quoted(name)}, which no card here is called: did you "
                f"mean {quoted(known[close[0]])}? As written it bans nothing"
            )
    return notes


@cache
def commander_banlist() -> BannedList:
    """The bundled Commander banned list."""
    data = json.loads(resources.files("draft").joinpath("data", "commander-banlist.json").read_text(encoding="utf-8"))
    as_of = data["as_of"]
    names = {normalize_name(name): f"it is on the banned list as of {as_of}" for name in data["cards"]}
    names.update(
        {
            normalize_name(name): f"Wizards of the Coast removed it from every format (banned list as of {as_of})"
            for name in data["removed_from_constructed"]
        }
    )
    names.update(
        {
            normalize_name(
                name
            ): f"it refers to playing for ante, and every such card is banned (banned list as of {as_of})"
            for name in data["ante_cards"]
        }
    )
    return BannedList(names, frozenset(data["banned_types"]), True, as_of, tuple(data["sources"]))


NO_BANS = BannedList()
