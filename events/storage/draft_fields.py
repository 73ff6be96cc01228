"""What a draft's saved header says (its kind, timer, assistance, the seats' claims, the deck saved from its pool),
read as fields, and where the draft is kept (its database, its own file): ``TableSession`` keeps the header as the
dict ``doc`` the store reads and writes; the use cases above read these."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from events.storage.draft_records import journal_file
from events.storage.store import Store


class DraftFields:
    """The fields of a draft's saved header ``doc``, for a class that keeps one (with its ``store``, its number and
    its database ``record``, whose token names the draft's own file)."""

    doc: dict[str, Any]
    store: Store
    draft_id: int
    record: dict[str, Any]

    @property
    def kind(self) -> str:
        """``practice`` or ``event``: what the draft was made for."""
        return str(self.doc.get("kind") or "")

    @property
    def timer(self) -> int | None:
        """The seconds a full pack allows, as saved (None: no timer)."""
        timer = self.doc.get("timer")
        return timer if isinstance(timer, int) else None

    @property
    def assist(self) -> bool:
        """Whether an event's draft offers the hint, signals and "Can lead" (``event new --assist``)."""
        return bool(self.doc.get("assist"))

    @property
    def pipers(self) -> int | None:
        """The Pipers each seat can count on after the draft, as saved when it started (an event's share of the
        store's stock, ``AddedOption.sure_from``); None: the product's most (a practice draft, or one saved before)."""
        pipers = self.doc.get("pipers")
        return pipers if isinstance(pipers, int) else None

    @property
    def claims(self) -> dict[str, Any]:
        """Which terminal token holds each seat (by seat number as text), as saved."""
        return dict(self.doc.get("claims") or {})

    @property
    def saved_deck(self) -> Any:
        """The deck saved from this draft's pool, as saved (None before one is)."""
        return self.doc.get("deck")

    @property
    def database(self) -> Path:
        """The database file the draft is kept in."""
        return self.store.path

    def draft_file(self) -> Path | None:
        """The live draft's own file (None once its picks are folded into the database)."""
        journal = journal_file(self.store, self.draft_id, self.record)
        return None if journal is None else journal.path

    def known_signature(self) -> tuple[int, int, int] | None:
        """The draft file's (inode, size, mtime) as this process last read or wrote it, without looking at the file
        again (None: the draft is over, or its file is not read yet or is to be read again)."""
        journal = journal_file(self.store, self.draft_id, self.record)
        return None if journal is None else journal.known_signature()
