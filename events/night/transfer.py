"""One event in and out of a database: ``event export`` writes a database file holding only that
event; ``event restore`` adds that event to another database, or replaces the same event there,
and leaves every other event alone.

The night decides what an export withholds (the packs' secrets and the seat codes until ``event finish``), which
event a restore takes, when it refuses (a live draft it would stop, unless ``--force``) and what the event's
history says; the tables themselves are read, copied and renumbered by ``events.storage.transfer``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from draft.deck_state import plural
from events.night.base import EventBase
from events.night.history import DESK, log_change
from events.storage.database_file import local_minute, newest_backup, utc_time, written_at
from events.storage.store import phase_change
from events.storage.table_names import EVENTS
from events.storage.transfer import (
    Identity,
    LiveDraft,
    PodKey,
    Tables,
    event_export,
    identity,
    live_drafts,
    place_event,
    read_tables,
    replace_database,
    resume_drafts,
    stop_drafts,
)
from sets.errors import InputError, StateError, StorageError
from sets.visible import quoted


def read_database_file(path: Path) -> Tables:
    """A cmdraft database or event export from a file the user names (errors are bad input: exit 2)."""
    return read_tables(path)


def export_tables(events: EventBase, event_id: int) -> Tables:
    """A database (same schema record) holding only ``event_id`` and its records; a live draft's
    picks are all in its record (the copy never reads this database's journal files).

    Until the event is finished its secrets stay out: the packs' secret (the event's ``secret``, the
    drafts' seeds), the seat codes, and the boosters of every draft still being picked (its record is
    kept with its picks, marked ``withheld``: it can't be drafted on from the export).  After
    ``finish`` the export holds them all, so every draft can be replayed."""

    with events.store.read() as db:
        event = events._event(db, event_id)
        tables = Tables.of(db)
    return event_export(events.store, tables, event_id, secrets=event.status == "finished")


def refuse_live(live: dict[PodKey, LiveDraft], kept: dict[PodKey, int], held: set[Identity] | None = None) -> None:
    """``StateError`` naming the live drafts a restore would stop, each by its event, and the picks it would discard;
    ``held``: the events the file holds (a whole restore takes the others away, and says so)."""
    events = {key[0]: f"event {draft.number} ({quoted(draft.event)})" for key, draft in live.items()}
    where = "; ".join(
        f"{name} has a live draft ("
        + ", ".join(
            f"pod {pod} at {plural(draft.picks, 'pick')}"
            for (event, pod), draft in sorted(live.items(), key=lambda kv: kv[0][1])
            if event == key
        )
        + (") and is not in the file, which takes it away" if held is not None and key not in held else ")")
        for key, name in events.items()
    )
    lost = sum(max(0, draft.picks - kept.get(key, 0)) for key, draft in live.items())
    them = "it" if len(live) == 1 else "them"
    raise StateError(
        f"{where}: restoring now would stop {them} and discard {plural(lost, 'pick')} the file doesn't hold; let "
        f"the draft{'s' if len(live) > 1 else ''} finish, or restore with --force to stop {them} first"
    )


def discarded_picks(stopped: dict[PodKey, int], kept: dict[PodKey, int]) -> int:
    """The picks the stopped drafts held that the restored records don't."""
    return sum(max(0, picks - kept.get(key, 0)) for key, picks in stopped.items())


@dataclass(frozen=True)
class RestoredAll:
    """A whole database restored: when the file was saved (``saved`` in local time to the minute, as people read it;
    ``saved_at`` as every time in ``--json``: ISO 8601 in UTC, None when unknown), where the database it replaced was
    kept (``backup``: its newest backup; ``damaged``: a database this release couldn't read, kept aside, never among
    the backups), and the live drafts the restore stopped and the picks it discarded."""

    saved: str
    saved_at: str | None
    backup: str | None
    damaged: str | None
    stopped: int
    discarded_picks: int
    left_out: list[tuple[int, str]]


def restore_all(night: EventBase, path: Path, data: Tables, force: bool = False) -> RestoredAll:
    """Replace the whole database of ``night`` with the file; a live draft is refused unless ``force`` stops it
    first."""
    store = night.store
    try:
        with store.read() as db:
            here = Tables.of(db)
    except StorageError:
        here = Tables({})  # a damaged database can be replaced whole: it has no draft to stop
    written = data.written if data.written is not None else written_at(path)
    data = data.filled(here)
    left_out = data.left_out(here)
    live = live_drafts(store, here)
    kept = data.self_contained(store).pod_picks()
    if live and not force:
        refuse_live(live, kept, {identity(doc) for doc in data.data.get(EVENTS, {}).values()})
    stopped: dict[PodKey, int] = {}
    halted: dict[PodKey, LiveDraft] = {}

    def stop() -> None:  # under the database's lock, so no other command finds them stopped before the restore saves
        halted.update(live)  # (before the stop: a stop cut short is taken back too)
        stopped.update(stop_drafts(store, live))

    try:
        replaced = replace_database(store, path, here, first=stop)
    except BaseException:
        resume_drafts(store, halted)  # nothing was saved: the drafts go on
        raise
    where = None if replaced is None else str(replaced.path)
    damaged = replaced is not None and replaced.damaged
    return RestoredAll(
        local_minute(written),
        utc_time(written),
        None if damaged else where,
        where if damaged else None,
        len(stopped),
        discarded_picks(stopped, kept),
        left_out,
    )


@dataclass(frozen=True)
class RestoredEvent:
    """One event restored: its number here and name, whether it replaced the same event, the database's backup
    made before (None: none kept), when the file was saved (``saved`` and ``saved_at`` as ``RestoredAll`` has them),
    and the live drafts the restore stopped and the picks it discarded."""

    event: int
    name: str | None
    replaced: bool
    backup: str | None
    saved: str
    saved_at: str | None
    stopped: int
    discarded_picks: int


def restore_event(events: EventBase, data: Tables, which: int | None = None, force: bool = False) -> RestoredEvent:
    """Add one event of ``data`` to the database, or replace the same event there; others are untouched.

    Replacing an event whose draft is live is refused (``StateError``) unless ``force``: then the
    live draft is stopped first (its terminals are told), and the result says how many picks the
    restore discarded."""
    sources = data.event_numbers()
    if not sources:
        raise InputError("the file holds no event")
    if which is None:
        if len(sources) > 1:
            raise InputError(
                f"the file holds {len(sources)} events ({', '.join(map(str, sorted(sources)))}): "
                "choose one with --event ID, or restore the whole database with --all"
            )
        which = sources[0]
    if which not in sources:
        raise InputError(f"the file has no event {which}; it holds {', '.join(map(str, sorted(sources)))}")
    halted: dict[PodKey, LiveDraft] = {}
    try:  # the drafts stopped go on when nothing was saved
        return _restore_event(events, data, which, force, halted)
    except BaseException:
        resume_drafts(events.store, halted)
        raise


def _restore_event(
    events: EventBase, data: Tables, which: int, force: bool, halted: dict[PodKey, LiveDraft]
) -> RestoredEvent:
    with events.store.read() as db:  # a file this database can't take is refused before anything is made
        data.filled(Tables.of(db), which)
    with events.store.write() as db:
        phase_change(db)
        copy = data.filled(Tables.of(db), which).event_copy(which)
        live = live_drafts(events.store, Tables.of(db), only=copy.identity)
        if live and not force:
            refuse_live(live, copy.tables().self_contained(events.store).pod_picks())
        halted.update(live)  # (before the stop: a stop cut short is taken back too)
        stopped = stop_drafts(events.store, live)
        # A live draft of a backup of this very database has its later picks in this database's
        # journal file: the restored record holds them all (read after the stop), under a fresh journal token.
        copy = copy.self_contained(events.store)
        discarded = discarded_picks(stopped, copy.tables().pod_picks())
        placed = place_event(db, copy)
        log_change(db, placed.event, DESK, "restore", "replaced" if placed.replaced else None, copy.name)
        if stopped:
            log_change(
                db,
                placed.event,
                DESK,
                "restore stopped the live draft",
                f"{sum(stopped.values())} picks",
                f"{discarded} picks discarded",
            )
    backup = newest_backup(events.store.path)
    return RestoredEvent(
        placed.event,
        copy.name,
        placed.replaced,
        str(backup) if backup is not None else None,
        local_minute(data.written),
        utc_time(data.written),
        len(stopped),
        discarded,
    )
