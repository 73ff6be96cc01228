"""A saved draft's records: the ``drafts`` record in the database and its journal (the live draft's
own small file), read together as the draft stands now (``current``), folded into one when the draft is
over (``fold``), made self-contained for a copy, stopped by a restore, and listed (``list_drafts``).  The
draft being picked (``TableSession``) is in ``events.storage.draft_files``.

Drafts kept in the store: solo practice and event pods share these records.

A draft is one ``drafts`` record in the database: config, seed and every
booster (once), who is human, and ``picks`` — ``[seat, *positions]`` rows,
replayed on load.  While the draft is being picked, new picks don't touch the
database: they go to the draft's own small file (its *journal*,
``NAME.drafts/ID-TOKEN.json``, holding the picks made since the record was
written, who is human and the status; ``events.storage.journal``).  Each human
pick and the bot picks it lets happen are one transaction on that file alone,
one line appended and fsynced, so a pick costs the same in a pod of a
1,000-player event as in a practice draft, and an acknowledged pick is on disk.  When the draft is over its picks are folded into the record
(``fold``), in the same transaction that records the pod's pools; the journal
file stays, so an older backup that still points at it keeps every pick.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import msgspec
from tinydb import TinyDB

from draft.engine import Draft
from draft.picks import Pick
from events import timing
from events.storage.journal import Journal
from events.storage.store import Store
from sets.errors import InputError, LimitError, StateError, StorageError

DRAFTS = "drafts"
REPLACED = "replaced"  # the status of a live draft that a restore stopped
MIN_PICK_SECONDS = 5.0
MAX_TIMER = 3_600  # seconds for a full pack: the most any pick timer takes (README "Limits")


def check_timer(seconds: int, what: str = "a pick timer", low: int = 0) -> int:
    """A pick timer's seconds for a full pack: ``low`` to ``MAX_TIMER`` (``LimitError`` otherwise)."""
    return LimitError.check(seconds, "timer", what, low, MAX_TIMER, "seconds")


def check_practice_timer(seconds: int | None) -> int | None:
    """A practice draft's pick timer: none, or ``MIN_PICK_SECONDS`` to ``MAX_TIMER`` seconds for a full pack."""
    return None if seconds is None else check_timer(seconds, "a practice pick timer", int(MIN_PICK_SECONDS))


class DraftReplacedError(StateError):
    """The draft this terminal is on was replaced (``event restore --force``): it can't go on here."""


class DraftBehindError(DraftReplacedError):
    """A write of this process's copy of the draft failed after the copy took its picks (never acknowledged: the
    file was cut back, or its sync failed), so the copy may hold what the file does not.  The copy can't go on:
    the draft is opened again from its file, which is what was kept (``DraftFields.check_fresh``)."""


def pick_seconds(base: float | None, cards_left: int, pack_size: int) -> float | None:
    """A pick's time: ``base`` seconds for a full pack, less as it empties (never under 5 s); None without a timer."""
    if not base:
        return None
    return max(MIN_PICK_SECONDS, base * cards_left / max(1, pack_size))


def due_seats(doc: dict[str, Any], now: float | None = None) -> list[int]:
    """The players' seats of a draft record as it stands (``current``) whose pick's time is up (a draft saved with one
    deadline for the whole table: every player's, when it is up)."""
    deadline = doc.get("deadline")
    now = timing.now() if now is None else now
    if doc.get("status") != "drafting" or doc.get("kind") == "practice" or not doc.get("timer") or deadline is None:
        return []
    if now < deadline["at"]:
        return []
    humans = list(doc["humans"])
    if "seats" not in deadline:
        return humans
    return [seat for seat in humans if (entry := deadline["seats"].get(str(seat))) and now >= entry["at"]]


RESET_MARK = "reset:"
"""How a seat's claim starts once a new seat code unbound it (``DraftFile.release``): no token's hash starts so."""


@lru_cache(maxsize=4096)  # a server checks the same few hundred tokens on every pick
def token_hash(token: str) -> str:
    """What a draft file keeps of a terminal's binding token (the token itself stays at the terminal)."""
    return hashlib.sha256(token.encode()).hexdigest()[:32]


def pick_rows(picks: Sequence[Pick]) -> list[list[int]]:
    return [[pick.seat, *pick.positions] for pick in picks]


def journal_file(store: Store, draft_id: int, doc: dict[str, Any]) -> Journal | None:
    """The live draft's own file (None once its picks are folded into the record)."""
    token = doc.get("journal")
    if not token:
        store.let_go_of_draft(draft_id)  # folded, maybe by another process: a journal kept for it is closed
        return None
    return store.draft_file(f"{draft_id}-{token}")


def read_journal(store: Store, draft_id: int, doc: dict[str, Any]) -> dict[str, Any] | None:
    """The journal of a live draft: ``{"humans", "status", "picks"}`` (None before its first pick)."""
    journal = journal_file(store, draft_id, doc)
    return None if journal is None else journal.state()


def current(doc: dict[str, Any], journal: dict[str, Any] | None) -> dict[str, Any]:
    """The draft record as it stands now: the record with its journal's picks, humans and status."""
    doc = dict(doc)
    if journal is not None:
        doc.update(picks=doc["picks"] + journal["picks"], humans=journal["humans"], status=journal["status"])
        for key in ("deadline", "claims", "timed_out"):
            if key in journal:
                doc[key] = journal[key]
    return doc


def self_contained(store: Store, draft_id: int, record: dict[str, Any], damaged_ok: bool = False) -> dict[str, Any]:
    """A draft record holding every pick so far; a live draft gets a fresh journal token, so the copy
    never reads this database's journal file (a stopped draft is live again in the copy).  ``damaged_ok`` (a
    restore, the way out of a damaged draft file): a journal that can't be read leaves the picks its record holds."""
    try:
        doc = current(record, read_journal(store, draft_id, record))
    except StorageError:
        if not damaged_ok:
            raise
        doc = dict(record)
    if doc["status"] == REPLACED:
        doc["status"] = "drafting"
    return dict(doc, journal=secrets.token_hex(6) if doc["status"] == "drafting" else None)


def stop_live_draft(store: Store, draft_id: int, record: dict[str, Any]) -> int:
    """Mark a live draft's journal ``replaced`` under its lock (terminals on it stop); returns its picks."""
    journal = journal_file(store, draft_id, record)
    if journal is None:
        return len(record["picks"])
    with journal.write() as entry:
        saved = entry.state
        entry.save({"humans": record["humans"], "status": REPLACED} if saved is None else {"status": REPLACED}, [])
        return len(record["picks"]) + (0 if saved is None else len(saved["picks"]))


def resume_stopped_draft(store: Store, draft_id: int, record: dict[str, Any]) -> bool:
    """Take back ``stop_live_draft`` for a restore that never replaced the database (killed, or refused): the journal
    is ``drafting`` again, every pick kept (its terminals start the draft command again).  False: it wasn't stopped."""
    journal = journal_file(store, draft_id, record)
    if journal is None:
        return False
    with journal.write() as entry:
        if entry.state is None or entry.state["status"] != REPLACED:
            return False
        entry.save({"status": "drafting"}, [])
    return True


def resume_stopped(store: Store, db: TinyDB, draft_id: int) -> bool:
    """Inside a database transaction: ``resume_stopped_draft`` for the draft the database names now (one a restore
    replaced has a fresh journal there: nothing to do)."""
    record = db.table(DRAFTS).get(doc_id=draft_id)
    if record is None or record.get("journal") is None:
        return False
    return resume_stopped_draft(store, draft_id, dict(record))


def load_draft(store: Store, db: TinyDB, draft_id: int) -> tuple[Draft, dict[str, Any]]:
    """The draft with every pick made so far (``db``: an open transaction on ``store``)."""
    saved = db.table(DRAFTS).get(doc_id=draft_id)
    if saved is None:
        raise InputError(f"no draft {draft_id} in the database: see 'cmdraft play --list'")
    doc = current(saved, read_journal(store, draft_id, saved))
    return Draft.from_json(dict(doc["state"], picks=doc["picks"])), doc


def fold(store: Store, db: TinyDB, draft_id: int) -> Draft | None:
    """Inside a database transaction: if the draft is over, move its journal's picks into its record.

    Returns the finished draft (None while it is still being picked).  Folding twice is harmless.
    """
    draft, doc = load_draft(store, db, draft_id)
    if not draft.finished:
        return None
    record = db.table(DRAFTS).get(doc_id=draft_id)
    assert record is not None  # load_draft found it in this transaction
    if record.get("journal") is not None or record["status"] == "drafting":
        status = "building" if record["status"] == "drafting" else record["status"]
        db.table(DRAFTS).update(
            {"picks": doc["picks"], "humans": doc["humans"], "status": status, "journal": None}, doc_ids=[draft_id]
        )
    return draft


class SavedDraft(msgspec.Struct, frozen=True):
    """A saved draft as ``play --list`` shows it; ``picks`` counts the players' own picks (not the bots'), as the
    player counts them, ``humans`` are the players' names."""

    id: int
    kind: str | None
    created: str | None
    status: str | None
    seed: int | None
    seats: int
    set_code: str = msgspec.field(name="set")
    picks: int = 0
    humans: list[str] = []

    def to_json(self) -> dict[str, Any]:
        """The row ``play --list --json`` prints."""
        listed: dict[str, Any] = msgspec.to_builtins(self)
        return listed


def list_drafts(store: Store, kind: str | None = None) -> list[SavedDraft]:
    """The saved drafts (of ``kind``, or all), oldest first, with their journals' picks counted."""
    with store.read() as db:
        records = [(doc.doc_id, doc) for doc in db.table(DRAFTS).all() if kind is None or doc.get("kind") == kind]
    out = []
    for draft_id, record in records:
        doc = current(record, read_journal(store, draft_id, record))
        config = doc["state"]["config"]
        out.append(
            SavedDraft(
                id=draft_id,
                kind=doc.get("kind"),
                created=doc.get("created"),
                status=doc.get("status"),
                seed=doc["state"].get("seed"),
                seats=config["seats"],
                set_code=config["set"],
                picks=sum(1 for row in doc["picks"] if row[0] in doc["humans"]),
                humans=[doc["names"][s] for s in doc["humans"]],
            )
        )
    return out


def draft_statuses(store: Store, db: TinyDB, draft_ids: list[int]) -> dict[int, str | None]:
    """Each draft's status with its journal's picks read (None: the record is gone), by draft number."""
    statuses: dict[int, str | None] = {}
    for draft_id in draft_ids:
        record = db.table(DRAFTS).get(doc_id=draft_id)
        statuses[draft_id] = (
            None if record is None else current(record, read_journal(store, draft_id, record))["status"]
        )
    return statuses


def rename_seat(db: TinyDB, draft_id: int, seat: int, name: str) -> None:
    """Inside a database transaction: the draft's seat ``seat`` shows ``name`` (a player renamed)."""
    record = db.table(DRAFTS).get(doc_id=draft_id)
    if record is not None:
        names = list(record["names"])
        names[seat] = name
        db.table(DRAFTS).update({"names": names}, doc_ids=[draft_id])


def live_state(store: Store, db: TinyDB, draft_id: int) -> tuple[list[int], list[int], dict[str, Any], str] | None:
    """A draft's human seats, those whose pick's time has run out, who holds each seat (its claims) and its status,
    its journal read (None: the record is gone)."""
    record = db.table(DRAFTS).get(doc_id=draft_id)
    if record is None:
        return None
    doc = current(record, read_journal(store, draft_id, record))
    return list(doc["humans"]), due_seats(doc), dict(doc.get("claims") or {}), doc["status"]


def draft_progress(store: Store, db: TinyDB, drafts: dict[int, int]) -> dict[int, dict[str, Any]]:
    """How far each pod's draft is (``drafts``: draft number by pod number): picks made of all picks and the
    pack being passed (no cards), by pod number; a draft whose record is gone is left out."""
    shown: dict[int, dict[str, Any]] = {}
    for pod, draft_id in drafts.items():
        record = db.table(DRAFTS).get(doc_id=draft_id)
        if record is None:
            continue
        now = current(record, read_journal(store, draft_id, record))
        config = now["state"]["config"]
        boosters = now["state"]["boosters"]
        pack_size = len(boosters[0][0]["cards"]) if boosters and boosters[0] else 0
        turns = -(-pack_size // config["picks_per_turn"]) if pack_size else 0
        made = len(now["picks"])
        per_pack = config["seats"] * turns
        shown[pod] = {
            "status": now["status"],
            "picks_made": made,
            "picks_total": config["seats"] * config["boosters"] * turns,
            "pack": min(config["boosters"], made // per_pack + 1) if per_pack else 0,
            "packs": config["boosters"],
        }
    return shown
