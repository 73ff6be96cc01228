"""What a draft's saved header says (its seats and who holds them, its kind, timer, confirmation, assistance, who made a pick for a
player, the deck saved from its pool),
read as fields, and where the draft is kept (its database, its own file): ``TableSession`` keeps the header as the
dict ``doc`` the store reads and writes; the use cases above read these."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from draft.picks import Pick
from events.deferred import Deferred
from events.storage.draft_records import (
    DRAFTS,
    RESET_MARK,
    DraftBehindError,
    DraftReplacedError,
    journal_file,
    token_hash,
)
from events.storage.journal import Journal, JournalWrite
from events.storage.store import Store
from sets.errors import StateError, WouldWait


class DraftFields:
    """The fields of a draft's saved header ``doc``, for a class that keeps one (with its ``store``, its number and
    its database ``record``, whose token names the draft's own file)."""

    doc: dict[str, Any]
    store: Store
    draft_id: int
    record: dict[str, Any]
    stale = False  # a write of this copy failed after the copy changed: it is to be opened again from its file

    @property
    def humans(self) -> list[int]:
        return list(self.doc["humans"])

    @property
    def names(self) -> list[str]:
        return list(self.doc["names"])

    @property
    def styles(self) -> list[str]:
        """Each seat's bot style as saved (``BotStyle`` values; a human seat's is the style it was given)."""
        return list(self.doc["styles"])

    @property
    def timed(self) -> bool:
        """Whether the draft keeps its own pick deadlines (event drafts with a timer; practice timers are local)."""
        return bool(self.doc.get("timer")) and self.doc.get("kind") != "practice"

    def bound(self, seat: int, token: str | None) -> bool:
        claim = (self.doc.get("claims") or {}).get(str(seat))
        return claim is None or (token is not None and claim == token_hash(token))

    def bound_exactly(self, seat: int, token: str) -> bool:
        """Whether the seat is claimed by this very token (not merely unclaimed)."""
        return (self.doc.get("claims") or {}).get(str(seat)) == token_hash(token)

    def code_reset(self, seat: int) -> bool:
        """Whether the seat was unbound by a new seat code (``release``'s mark), not yet given anywhere."""
        return str((self.doc.get("claims") or {}).get(str(seat)) or "").startswith(RESET_MARK)

    def taken_by(self, pick: Pick) -> str:
        """Who made a pick for a human seat: ``timer`` (its time ran out), ``desk`` (the player was dropped and
        a bot picks for the seat) or ``terminal`` (a terminal picking for the seat: another one than the asker)."""
        if [pick.seat, pick.pack, pick.pick] in (self.doc.get("timed_out") or []):
            return "timer"
        return "desk" if pick.seat not in self.doc["humans"] else "terminal"  # (read, not copied: ``humans``)

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
    def confirm(self) -> bool:
        """Whether the player asks to confirm each pick (``play --confirm``), as saved: a resumed draft keeps it."""
        return bool(self.doc.get("confirm"))

    def set_confirm(self, confirm: bool) -> None:
        """Ask (or stop asking) to confirm each pick, for the rest of the draft."""
        self.doc["confirm"] = confirm
        with self.store.write() as db:
            db.table(DRAFTS).update({"confirm": confirm}, doc_ids=[self.draft_id])

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

    def unsynced(self) -> None:
        """The sync of what was last appended to the draft's file failed: its next write rewrites it whole
        (``Journal.unsynced``), and this copy, which holds those picks, is opened again from the file first."""
        journal = journal_file(self.store, self.draft_id, self.record)
        if journal is not None:
            journal.unsynced()
        self.stale = True

    def _journal(self) -> Journal:
        journal = journal_file(self.store, self.draft_id, self.record)
        if journal is None:
            raise StateError(f"draft {self.draft_id} is over; no more picks")
        return journal

    @contextmanager
    def _writing(self, journal: Journal | None = None, deferred: Deferred | None = None) -> Iterator[JournalWrite]:
        """A transaction on the draft's file (``Journal.write``).  One that fails once this copy may have changed
        (a write the disk refused, after the copy took its picks) leaves the copy stale: whatever looks at it
        next is told ``DraftBehindError`` (``check_fresh``), and a server opens the draft again from its file."""
        journal = self._journal() if journal is None else journal
        try:
            with journal.write(deferred) as entry:
                yield entry
        except (WouldWait, DraftReplacedError):
            raise  # before anything changed (a replaced draft is opened anew all the same)
        except BaseException:
            self.stale = True
            raise

    def check_fresh(self, deferred: Deferred | None = None) -> None:
        """``DraftBehindError`` when a write of this copy failed after the copy changed (``WouldWait`` with
        ``deferred``: on a server's event loop, where the draft can't be opened again)."""
        if self.stale:
            if deferred is not None:
                raise WouldWait(f"draft {self.draft_id} is to be opened again from its file")
            raise DraftBehindError(
                f"a write of draft {self.draft_id} failed after this copy took its picks: open the draft again "
                "(its file holds what was kept)"
            )
