"""A database's practice drafts as a face asks for them: the saved ones listed, a new one started, one resumed, and the
practice pick timer's range a command checks before it opens anything.

The face holds what these give (a ``DraftTable``, ``SavedDraft`` rows), never the store they are kept in.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from draft.bots import BotStyle
from draft.engine import DraftConfig
from events.sessions.table import DraftTable
from events.storage.draft_files import TableSession
from events.storage.draft_records import SavedDraft, check_practice_timer, list_drafts
from events.storage.store import Store


def practice_timer(seconds: int | None) -> int | None:
    """A practice draft's pick timer: none, or its range of seconds for a full pack (``LimitError`` otherwise, with
    the range); what ``start`` and ``DraftTable.set_timer`` check again."""
    return check_practice_timer(seconds)


class Practices:
    """The practice drafts kept in the database ``db`` (the user's default one when None)."""

    def __init__(self, db: Path | None) -> None:
        self._store = Store(db)

    @property
    def path(self) -> Path:
        """The database file the drafts are kept in."""
        return self._store.path

    def check_given(self) -> None:
        """Refuse a database named with ``--db`` that is not there (``MissingDatabaseError``), creating nothing: listing
        or resuming drafts reads one that is (the default database not there yet simply holds no drafts)."""
        if self._store.given:
            self._store.check_exists()

    def saved(self) -> list[SavedDraft]:
        """The saved practice drafts, oldest first."""
        return list_drafts(self._store, "practice")

    def resume(self, draft_id: int) -> DraftTable:
        """The saved practice draft ``draft_id`` (one of ``saved``), caught up with its file."""
        return TableSession.load(self._store, draft_id)

    def start(
        self,
        *,
        seed: int,
        config: DraftConfig,
        humans: Sequence[int],
        names: Sequence[str],
        styles: Sequence[BotStyle] | None = None,
        timer: int | None = None,
        confirm: bool = False,
    ) -> DraftTable:
        """A new practice draft, saved, with the bots' first picks made; a seat's name out of its range or a timer
        out of ``practice_timer``'s is a ``LimitError`` before anything is saved."""
        return TableSession.create(
            self._store,
            kind="practice",
            seed=seed,
            config=config,
            humans=humans,
            names=names,
            styles=styles,
            timer=timer,
            extra={"confirm": True} if confirm else None,
        )
