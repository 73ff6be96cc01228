"""A pod's draft at a table as the faces and the seats hold it (``DraftTable``): the draft, who sits where, the
pick timer, the seats' bindings to terminals, and the picks, handovers and timeouts, each saved as it is made.

``events.storage.draft_files.TableSession`` keeps it (in the database's record and the draft's own file); the faces
never name that class: what opens a draft hands it out as a ``DraftTable`` (``events.sessions.practice`` for a
practice draft, ``events.night.drafting.Drafting.draft_session`` for an event's pod), and mypy checks that a face
asks only what is said here.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from draft.bots import Bot
from draft.engine import Draft
from draft.picks import Pick, PickRequest
from draft.timeout import Marks
from events.deferred import Deferred
from events.storage.draft_records import DraftReplacedError

Signature = tuple[int, int, int] | None  # a file's (inode, size, modification time); None when not known


class DraftTable(Protocol):
    """A draft in progress with some human seats; bots take the others."""

    # --- the draft and its seats ---------------------------------------------------------------------------

    @property
    def draft_id(self) -> int: ...

    @property
    def draft(self) -> Draft: ...

    @property
    def humans(self) -> list[int]: ...

    @property
    def names(self) -> list[str]: ...

    @property
    def styles(self) -> list[str]:
        """Each seat's bot style as saved (``BotStyle`` values)."""
        ...

    @property
    def bots(self) -> Mapping[int, Bot]: ...

    @property
    def pipers(self) -> int | None:
        """The Pipers each seat can count on after the draft (a store night's share of its stock); None: the
        product's most."""
        ...

    @property
    def kind(self) -> str:
        """``practice`` or ``event``: what the draft was made for."""
        ...

    @property
    def assist(self) -> bool:
        """Whether an event's draft offers the hint, signals and "Can lead"."""
        ...

    @property
    def saved_deck(self) -> Any:
        """The deck saved from this draft's pool, as saved (None before one is)."""
        ...

    @property
    def database(self) -> Path:
        """The database file the draft is kept in (a command that opens it again names it)."""
        ...

    def waiting_humans(self) -> list[int]:
        """The players' seats that have a pack in front of them now."""
        ...

    def taken_by(self, pick: Pick) -> str:
        """Who made a pick for a human seat: ``timer``, ``desk`` or ``terminal``."""
        ...

    def suggested_positions(self, seat: int) -> list[int]:
        """The cards the strong bot style would take for this seat (the same cards whoever asks)."""
        ...

    def mark(self, seat: int, marks: Marks) -> None:
        """The cards a face shows marked on the seat's pack, kept in this copy only, for the timer's pick."""
        ...

    def timed_out_positions(self, seat: int) -> list[int]:
        """The cards the seat takes when its pick's time runs out: those marked on its pack in this copy, then the
        strong bot's pick (``draft.timeout``)."""
        ...

    # --- the pick's clock ----------------------------------------------------------------------------------

    @property
    def timer(self) -> int | None:
        """The seconds a full pack allows, as saved (None: no timer)."""
        ...

    @property
    def timed(self) -> bool:
        """Whether the draft keeps its own pick deadlines (event drafts with a timer)."""
        ...

    def pick_seconds(self, cards_left: int) -> float | None: ...

    def deadline(self, seat: int | None = None) -> float | None:
        """Wall-clock time the seat's pick ends; without a seat, the earliest of the players'."""
        ...

    def set_timer(self, seconds: int | None) -> None:
        """A new pick timer for the rest of the draft (seconds for a full pack)."""
        ...

    @property
    def confirm(self) -> bool:
        """Whether the player asks to confirm each pick, as saved (a practice draft's ``--confirm``)."""
        ...

    def set_confirm(self, confirm: bool) -> None:
        """Ask (or stop asking) to confirm each pick, for the rest of the draft."""
        ...

    def apply_timeout(self, now: float | None = None) -> list[Pick]:
        """Apply the current pick's timeout if it is due; the picks it made for the players."""
        ...

    def clock_set_back(self, now: float) -> bool:
        """Whether the clock was set back since a deadline was stamped (``apply_timeout`` stamps them anew)."""
        ...

    # --- seats bound to terminals --------------------------------------------------------------------------

    @property
    def claims(self) -> Mapping[str, object]:
        """Which terminal token holds each seat (by seat number as text), as saved."""
        ...

    def claim(self, seat: int, token: str, take_over: bool = True) -> None:
        """Bind a seat to the terminal holding ``token``; without ``take_over``, only a seat nobody holds (checked
        in the transaction that binds it)."""
        ...

    def bound(self, seat: int, token: str | None) -> bool:
        """Whether ``token`` may pick for the seat (it holds it, or nobody does)."""
        ...

    def bound_exactly(self, seat: int, token: str) -> bool:
        """Whether the seat is claimed by this very token (not merely unclaimed)."""
        ...

    def code_reset(self, seat: int) -> bool:
        """Whether the seat was unbound by a new seat code (``release``), not yet given anywhere."""
        ...

    # --- picks, handovers and the deck ----------------------------------------------------------------------

    def pick_many(
        self, requests: Sequence[tuple[PickRequest, str | None]], deferred: Deferred | None = None
    ) -> list[Pick | Exception]:
        """Several seats' picks and the bot picks they allow, in one transaction; a refused one comes back as its
        error.  ``deferred``: written without waiting, synced by it (``events.deferred.Deferred``)."""
        ...

    def hand_to_bot(self, seat: int | None) -> list[Pick]:
        """A human seat becomes a bot seat and the bots catch up at once (``None``: only the bots' own picks)."""
        ...

    def refresh(self) -> None:
        """Catch up with picks made at other terminals."""
        ...

    def resume_file(self, restart_clock: float | None = None, seats: Collection[int] = ()) -> None:
        """The draft's own file made ready for this process's writes now (a server starting), where there is one;
        ``restart_clock``: each of ``seats`` holding a pack has its whole time again from then."""
        ...

    def save_deck(self, deck_json: dict[str, object], legal: bool, final: bool = True) -> None:
        """Keep the deck (its JSON form); ``final`` marks a legal deck's draft done."""
        ...

    # --- the draft's own file -------------------------------------------------------------------------------

    def draft_file(self) -> Path | None:
        """The live draft's own file (None once its picks are folded into the database)."""
        ...

    def known_signature(self) -> Signature:
        """The draft file's signature as this process last read or wrote it, without looking at the file."""
        ...

    @property
    def stale(self) -> bool:
        """Whether a write of this copy failed after the copy changed: it is to be opened again from its file."""
        ...

    def unsynced(self) -> None:
        """The sync of the draft file's last appended lines failed: its next write rewrites it whole and syncs it."""
        ...


def caught_up(table: DraftTable) -> bool:
    """Catch ``table`` up with the picks made elsewhere (``DraftTable.refresh``); False when its draft was replaced
    meanwhile (``event restore --force`` stopped it: the pod's new draft is to be opened instead), or a write of
    this copy failed after it changed (``DraftBehindError``): the draft is opened again from its file."""
    try:
        table.refresh()
    except DraftReplacedError:
        return False
    return True
