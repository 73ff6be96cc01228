"""One event in and out of a database: ``event export`` writes a database file holding only that
event; ``event restore`` adds that event to another database, or replaces the same event there,
and leaves every other event alone.

An event is the same event in two databases when its ``uid`` matches (events created before
uids existed: same name, date, creation time and seed).  Records are copied with new document
numbers where needed; every reference (event, players, drafts) is renumbered with them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from events.night.base import EventBase
from events.night.history import DESK, HISTORY, log_change
from events.night.schema import DECKS, EVENTS, GAMES, PLAYERS, PODS, POOLS, REPORTS, RESULTS, ROUNDS
from events.storage.database_file import META, SCHEMA, check_data, migrated, newest_backup, schema_of
from events.storage.draft_records import DRAFTS, current, read_journal, self_contained, stop_live_draft
from events.storage.store import Store, phase_change
from sets.errors import CmdraftError, InputError, StateError, StorageError
from sets.files import DATABASE_LIMIT, FileProblem, loads, read_bytes

PICKS = "picks"  # one row per pick (schema 1); later schemas keep the picks in the draft record

# Tables whose records carry ``e`` (the event's number); any other table with ``e`` is copied as is.
EVENT_TABLES = (PLAYERS, PODS, POOLS, DECKS, ROUNDS, RESULTS, GAMES, REPORTS)


def identity(event: dict[str, Any]) -> tuple:
    if event.get("uid"):
        return ("uid", event["uid"])
    return ("old", event.get("name"), event.get("date"), event.get("created"), event.get("seed"))


def read_database_file(path: Path) -> dict[str, Any]:
    """A cmdraft database or event export from a file the user names (errors are bad input: exit 2)."""
    try:
        raw = read_bytes(path, DATABASE_LIMIT)
    except FileProblem as problem:
        hint = "give a database backup (NAME.bak.N) or the database.json of an export"
        raise InputError(f"{str(path)!r} {problem.reason}: {hint}") from None
    try:
        data = loads(raw)
    except (ValueError, UnicodeDecodeError) as error:
        reason = "not UTF-8 text" if isinstance(error, UnicodeDecodeError) else str(error)
        raise InputError(
            f"{str(path)!r} is not a cmdraft database ({reason}); give a backup or an export's database.json"
        ) from None
    try:
        data = check_data(data, path)
        if schema_of(data) != SCHEMA:
            data = migrated(data, path)  # every record checked once migrated
    except CmdraftError as error:
        raise InputError(str(error).split("; restore the newest")[0].split("; there is no backup")[0]) from None
    return data


def _event_records(tables: dict[str, dict[str, Any]], event_id: int) -> dict[str, dict[str, Any]]:
    """Every record of one event, by table, keyed by document number (as text)."""
    found: dict[str, dict[str, Any]] = {}
    for name, docs in tables.items():
        if name in (META, EVENTS, DRAFTS, PICKS) or not isinstance(docs, dict):
            continue
        mine = {key: doc for key, doc in docs.items() if isinstance(doc, dict) and doc.get("event") == event_id}
        if mine:
            found[name] = mine
    drafts = {str(pod["draft"]) for pod in found.get(PODS, {}).values() if pod.get("draft")}
    found[DRAFTS] = {key: doc for key, doc in tables.get(DRAFTS, {}).items() if key in drafts}
    found[PICKS] = {key: row for key, row in tables.get(PICKS, {}).items() if str(row.get("d")) in drafts}
    return found


def export_tables(events: EventBase, event_id: int) -> dict[str, Any]:
    """A database (same schema record) holding only ``event_id`` and its records; a live draft's
    picks are all in its record (the copy never reads this database's journal files).

    Until the event is finished its secrets stay out: the packs' secret (the event's ``secret``, the
    drafts' seeds), the seat codes, and the boosters of every draft still being picked (its record is
    kept with its picks, marked ``withheld``: it can't be drafted on from the export).  After
    ``finish`` the export holds them all, so every draft can be replayed."""

    with events.store.read() as db:
        events._event(db, event_id)
        tables = db.storage.read() or {}
    event = dict(tables[EVENTS][str(event_id)])
    running = event.get("status") != "finished"
    if running:
        event.pop("secret", None)
    out = {META: tables[META], EVENTS: {str(event_id): event}}
    for name, docs in _event_records(tables, event_id).items():
        if name == DRAFTS:
            docs = {key: self_contained(events.store, int(key), doc) for key, doc in docs.items()}
            if running:
                docs = {key: withhold(doc) for key, doc in docs.items()}
        elif name == PLAYERS and running:
            docs = {key: {k: v for k, v in doc.items() if k != "code"} for key, doc in docs.items()}
        if docs:
            out[name] = docs
    return out


def withhold(doc: dict[str, Any]) -> dict[str, Any]:
    """A draft record for an export made before the event is finished: never its seed; while it is still
    being picked, not its boosters either (they are the packs still to come)."""
    state = dict(doc["state"], seed=None)
    if doc["status"] != "drafting":
        return dict(doc, state=state)
    return dict(doc, state=dict(state, boosters=[]), withheld=True)


def fill_withheld(data: dict[str, Any], target: dict[str, Any], which: int | None = None) -> dict[str, Any]:
    """``data`` with the boosters of each draft exported while it was being picked (``withheld``) put back
    from the same event's draft in the database restored into (the same event and pod deal the same
    packs); ``InputError`` when that database doesn't hold them: such a draft can't go on from the file."""
    drafts = dict(data.get(DRAFTS, {}))
    events = data.get(EVENTS, {})
    theirs = {identity(doc): int(key) for key, doc in target.get(EVENTS, {}).items()}
    for pod in data.get(PODS, {}).values():
        key = str(pod.get("draft")) if pod.get("draft") else None
        record = drafts.get(key) if key else None
        if record is None or not record.get("withheld") or (which is not None and pod.get("event") != which):
            continue
        event = events.get(str(pod.get("event")), {})
        mine = theirs.get(identity(event))
        same = next(
            (
                target.get(DRAFTS, {}).get(str(other.get("draft")))
                for other in target.get(PODS, {}).values()
                if mine is not None and other.get("event") == mine and other.get("number") == pod.get("number")
            ),
            None,
        )
        if same is None or same.get("withheld") or same["state"]["config"] != record["state"]["config"]:
            raise InputError(
                f"the file was exported while pod {pod['number']} of {event.get('name', '?')!r} was drafting, so it "
                "holds no boosters for that draft (an export keeps the packs secret until 'event finish'), and this "
                "database doesn't hold that draft; restore it into the database it came from, or restore a backup "
                "of that database (NAME.bak.N, with --event ID for one event)"
            )
        drafts[key] = {k: v for k, v in record.items() if k != "withheld"} | {"state": same["state"]}
    return dict(data, **({DRAFTS: drafts} if drafts else {}))


# --- live drafts under a restore ----------------------------------------------------------------------------------


def live_drafts(
    store: Store, tables: dict[str, Any], only: tuple | None = None
) -> dict[tuple, tuple[int, dict[str, Any], int]]:
    """Drafts still being picked: ``(event identity, pod number) -> (draft id, record, picks so far)``."""
    found = {}
    events = tables.get(EVENTS, {})
    for pod in tables.get(PODS, {}).values():
        event = events.get(str(pod.get("event")))
        record = tables.get(DRAFTS, {}).get(str(pod.get("draft"))) if pod.get("draft") else None
        if event is None or record is None or (only is not None and identity(event) != only):
            continue
        doc = current(record, read_journal(store, int(pod["draft"]), record))
        if doc["status"] == "drafting":
            found[(identity(event), pod["number"])] = (int(pod["draft"]), record, len(doc["picks"]))
    return found


def pod_picks(tables: dict[str, Any], only: tuple | None = None) -> dict[tuple, int]:
    """Picks each pod's draft record holds (records made self-contained): ``(event identity, pod) -> picks``."""
    events = tables.get(EVENTS, {})
    found = {}
    for pod in tables.get(PODS, {}).values():
        event = events.get(str(pod.get("event")))
        record = tables.get(DRAFTS, {}).get(str(pod.get("draft"))) if pod.get("draft") else None
        if event is not None and record is not None and (only is None or identity(event) == only):
            found[(identity(event), pod["number"])] = len(record["picks"])
    return found


def refuse_live(live: dict[tuple, tuple[int, dict[str, Any], int]], kept: dict[tuple, int]) -> None:
    """``StateError`` naming the live drafts a restore would stop and the picks it would discard."""
    pods = ", ".join(
        f"pod {pod} at {picks} picks" for (_, pod), (_, _, picks) in sorted(live.items(), key=lambda kv: kv[0][1])
    )
    lost = sum(max(0, picks - kept.get(key, 0)) for key, (_, _, picks) in live.items())
    raise StateError(
        f"the event has a live draft ({pods}): restoring now would stop it and discard {lost} "
        f"pick{'s' if lost != 1 else ''} made since the file was written; let the draft finish, or "
        "restore with --force to stop it first"
    )


def stop_drafts(store: Store, live: dict[tuple, tuple[int, dict[str, Any], int]]) -> dict[tuple, int]:
    """Stop every live draft (terminals on it are told so); returns the picks each held when stopped."""
    return {key: stop_live_draft(store, draft_id, record) for key, (draft_id, record, _) in live.items()}


def fresh_drafts(store: Store, tables: dict[str, Any]) -> dict[str, Any]:
    """``tables`` with every draft record self-contained under a fresh journal token."""
    tables = dict(tables)
    tables[DRAFTS] = {key: self_contained(store, int(key), doc) for key, doc in tables.get(DRAFTS, {}).items()}
    return tables


def restore_all(
    night: EventBase, path: Path, data: dict[str, Any], force: bool = False
) -> tuple[Path | None, int, int]:
    """Replace the whole database of ``night`` with the file; a live draft is refused unless ``force`` stops it
    first.  Returns (backup of the replaced database, live drafts stopped, picks discarded)."""
    store = night.store
    try:
        with store.read() as db:
            tables = db.storage.read() or {}
    except StorageError:
        tables = {}  # a damaged database can be replaced whole: it has no draft to stop
    data = fill_withheld(data, tables)
    live = live_drafts(store, tables)
    kept = pod_picks(fresh_drafts(store, data))
    if live and not force:
        refuse_live(live, kept)
    stopped = stop_drafts(store, live)
    backup = store.restore(path, transform=lambda restored: fresh_drafts(store, fill_withheld(restored, tables)))
    return backup, len(stopped), sum(max(0, picks - kept.get(key, 0)) for key, picks in stopped.items())


def _renumber(
    name: str, doc: dict[str, Any], event_id: int, players: dict[int, int], drafts: dict[int, int]
) -> dict[str, Any]:
    doc = json.loads(json.dumps(doc))
    pid = lambda old: players.get(int(old), int(old))  # noqa: E731
    if "event" in doc:
        doc["event"] = event_id
    if name == PODS:
        doc["players"] = [pid(p) for p in doc.get("players", [])]
        if doc.get("draft"):
            doc["draft"] = drafts.get(doc["draft"], doc["draft"])
    elif name in (POOLS, DECKS, "code_failures"):
        doc["player"] = pid(doc["player"])
    elif name == ROUNDS:
        doc["tables"] = [[pid(p) for p in table] for table in doc.get("tables", [])]
        if "first" in doc:
            doc["first"] = [pid(p) for p in doc["first"]]
    elif name == RESULTS:
        doc["order"] = [[pid(p) for p in group] for group in doc.get("order", [])]
    elif name == REPORTS:
        doc["by"] = pid(doc["by"])
        doc["order"] = [[pid(p) for p in group] for group in doc.get("order", [])]
        doc["confirmed"] = [pid(p) for p in doc.get("confirmed", [])]
        for dispute in doc.get("disputes", []):
            dispute["player"] = pid(dispute["player"])
            dispute["order"] = [[pid(p) for p in group] for group in dispute.get("order", [])]
    elif name == GAMES:
        doc["life"] = {str(pid(k)): v for k, v in doc.get("life", {}).items()}
        for hit in doc.get("hits", []):
            hit["to"] = pid(hit["to"])
            if hit.get("from") is not None:
                hit["from"] = pid(hit["from"])
        for cast in doc.get("casts", []):
            cast["player"] = pid(cast["player"])
        for entry in doc.get("entries", []):  # the tracker's undo entries
            if entry.get("by") is not None:
                entry["by"] = pid(entry["by"])
            entry["life"] = {str(pid(k)): v for k, v in entry.get("life", {}).items()}
            entry["hits"] = [[pid(to), pid(frm), *rest] for to, frm, *rest in entry.get("hits", [])]
            entry["casts"] = [[pid(p), *rest] for p, *rest in entry.get("casts", [])]
        for old in ("damage", "tax"):
            if old in doc:
                doc[old] = {str(pid(k)): v for k, v in doc[old].items()}
    elif name == HISTORY:
        doc.pop("undo", None)  # a restored event's history is a record; 'event undo' never reaches behind a restore
        doc.pop("undoes", None)
    elif name == PICKS:
        doc["d"] = drafts.get(doc["d"], doc["d"])
    elif name == DRAFTS and "event" in doc:
        doc["event"] = event_id
    return doc


@dataclass(frozen=True)
class RestoredEvent:
    """One event restored: its number here and name, whether it replaced the same event, the database's backup
    made before (None: none kept), and the live drafts the restore stopped and the picks it discarded."""

    event: int
    name: str | None
    replaced: bool
    backup: str | None
    stopped: int
    discarded_picks: int


def restore_event(
    events: EventBase, data: dict[str, Any], which: int | None = None, force: bool = False
) -> RestoredEvent:
    """Add one event of ``data`` to the database, or replace the same event there; others are untouched.

    Replacing an event whose draft is live is refused (``StateError``) unless ``force``: then the
    live draft is stopped first (its terminals are told), and the result says how many picks the
    restore discarded."""
    from tinydb.table import Document

    sources = {int(key): doc for key, doc in data.get(EVENTS, {}).items()}
    if not sources:
        raise InputError("the file holds no event")
    if which is None:
        if len(sources) > 1:
            raise InputError(
                f"the file holds {len(sources)} events ({', '.join(map(str, sorted(sources)))}): "
                "choose one with --event ID, or restore the whole database with --all"
            )
        which = next(iter(sources))
    if which not in sources:
        raise InputError(f"the file has no event {which}; it holds {', '.join(map(str, sorted(sources)))}")
    event = sources[which]
    with events.store.write() as db:
        phase_change(db)
        data = fill_withheld(data, db.storage.read() or {}, which)
        records = _event_records(data, which)
        live = live_drafts(events.store, db.storage.read() or {}, only=identity(event))
        if live and not force:
            refuse_live(live, pod_picks(fresh_drafts(events.store, {EVENTS: {str(which): event}, **records})))
        stopped = stop_drafts(events.store, live)
        # A live draft of a backup of this very database has its later picks in this database's
        # journal file: the restored record holds them all (read after the stop), under a fresh journal token.
        records[DRAFTS] = {
            key: self_contained(events.store, int(key), doc) for key, doc in records.get(DRAFTS, {}).items()
        }
        kept = pod_picks({EVENTS: {str(which): event}, **records})
        discarded = sum(max(0, picks - kept.get(key, 0)) for key, picks in stopped.items())
        existing = next((doc for doc in db.table(EVENTS).all() if identity(doc) == identity(event)), None)
        if existing is not None:
            target = existing.doc_id
            current = db.storage.read() or {}
            for name, docs in _event_records(current, target).items():
                if docs:
                    db.table(name).remove(doc_ids=[int(key) for key in docs])
            db.table(EVENTS).remove(doc_ids=[target])
            db.table(EVENTS).insert(Document(dict(event), doc_id=target))
        else:
            target = db.table(EVENTS).insert(dict(event))
        players = {
            int(key): db.table(PLAYERS).insert(_renumber(PLAYERS, doc, target, {}, {}))
            for key, doc in sorted(records.get(PLAYERS, {}).items(), key=lambda kv: int(kv[0]))
        }
        drafts = {
            int(key): db.table(DRAFTS).insert(_renumber(DRAFTS, doc, target, players, {}))
            for key, doc in sorted(records.get(DRAFTS, {}).items(), key=lambda kv: int(kv[0]))
        }
        for name, docs in records.items():
            if name in (PLAYERS, DRAFTS) or not docs:
                continue
            db.table(name).insert_multiple(
                _renumber(name, doc, target, players, drafts)
                for _, doc in sorted(docs.items(), key=lambda kv: int(kv[0]))
            )
        log_change(db, target, DESK, "restore", "replaced" if existing is not None else None, event.get("name"))
        if stopped:
            log_change(
                db,
                target,
                DESK,
                "restore stopped the live draft",
                f"{sum(stopped.values())} picks",
                f"{discarded} picks discarded",
            )
    backup = newest_backup(events.store.path)
    return RestoredEvent(
        target,
        event.get("name"),
        existing is not None,
        str(backup) if backup is not None else None,
        len(stopped),
        discarded,
    )
