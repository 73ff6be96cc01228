"""One event's records copied between two databases as the files hold them: the raw half of ``event export`` and
``event restore``.  What is withheld, what a restore refuses and what the history says is the night's
(``events.night.transfer``); this module reads, copies and renumbers the tables.

A database, a backup or an export's ``database.json`` is read whole as its plain tables (``Tables``).  An event is
the same event in two databases when its ``uid`` matches (events created before uids existed: same name, date,
creation time and seed).  Its records are those naming it in their ``event`` field, with the drafts its pods name;
they are copied with new document numbers where needed, and every reference (event, players, drafts) is renumbered
with them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tinydb import TinyDB, where
from tinydb.table import Document

from events.storage.database_file import META, SCHEMA, check_data, migrated, schema_of, written_at
from events.storage.draft_records import (
    DRAFTS,
    current,
    read_journal,
    resume_stopped_draft,
    self_contained,
    stop_live_draft,
)
from events.storage.store import KeptDatabase, Store
from events.storage.table_names import (
    CODE_FAILURES,
    DECKS,
    EVENTS,
    GAMES,
    HISTORY,
    PLAYERS,
    PODS,
    POOLS,
    REPORTS,
    RESULTS,
    ROUNDS,
)
from sets.errors import CmdraftError, InputError, StorageError
from sets.files import DATABASE_LIMIT, FileProblem, loads, read_bytes
from sets.visible import quoted

PICKS = "picks"  # one row per pick (schema 1); later schemas keep the picks in the draft record

# An event's identity across databases, and one of its pods: ``(identity, pod number)``.
Identity = tuple[object, ...]
PodKey = tuple[Identity, int]


def identity(event: dict[str, Any]) -> Identity:
    if event.get("uid"):
        return ("uid", event["uid"])
    return ("old", event.get("name"), event.get("date"), event.get("created"), event.get("seed"))


class Tables:
    """A whole database as plain JSON tables, ``{table: {document number as text: record}}``: a file a user gives,
    or the store's own in a transaction (``of``); ``written``: when the file was written (its time stamp), for a file
    a user gives."""

    def __init__(self, data: dict[str, Any], written: float | None = None) -> None:
        self.data = data
        self.written = written

    @classmethod
    def of(cls, db: TinyDB) -> Tables:
        """The tables of the transaction ``db`` as they stand."""
        return cls(db.storage.read() or {})

    def left_out(self, here: Tables) -> list[tuple[int, str]]:
        """The events of ``here`` (number, name) these tables don't hold: what restoring them whole takes away."""
        mine = {identity(doc) for doc in self.data.get(EVENTS, {}).values()}
        events = here.data.get(EVENTS, {}).items()
        return [(int(key), str(doc.get("name", ""))) for key, doc in events if identity(doc) not in mine]

    def event_numbers(self) -> list[int]:
        """The numbers of the events the tables hold, in the file's order."""
        return [int(key) for key in self.data.get(EVENTS, {})]

    def text(self) -> str:
        """The tables as compact JSON text (an export's ``database.json``)."""
        return json.dumps(self.data, ensure_ascii=False, separators=(",", ":"))

    def event_records(self, event_id: int) -> dict[str, dict[str, Any]]:
        """Every record of one event but the event's own, by table, keyed by document number (as text)."""
        found: dict[str, dict[str, Any]] = {}
        for name, docs in self.data.items():
            if name in (META, EVENTS, DRAFTS, PICKS) or not isinstance(docs, dict):
                continue
            mine = {key: doc for key, doc in docs.items() if isinstance(doc, dict) and doc.get("event") == event_id}
            if mine:
                found[name] = mine
        drafts = {str(pod["draft"]) for pod in found.get(PODS, {}).values() if pod.get("draft")}
        found[DRAFTS] = {key: doc for key, doc in self.data.get(DRAFTS, {}).items() if key in drafts}
        found[PICKS] = {key: row for key, row in self.data.get(PICKS, {}).items() if str(row.get("d")) in drafts}
        return found

    def event_copy(self, event_id: int) -> EventCopy:
        """One event of the tables with every record of it."""
        return EventCopy(event_id, self.data[EVENTS][str(event_id)], self.event_records(event_id))

    def filled(self, target: Tables, which: int | None = None) -> Tables:
        """The tables with the boosters of each draft exported while it was being picked (``withheld``) put back
        from the same event's draft in ``target``, the database restored into (the same event and pod deal the same
        packs); only event ``which``'s when given.  ``InputError`` when ``target`` doesn't hold them: such a draft
        can't go on from the file."""
        data, theirs_tables = self.data, target.data
        drafts = dict(data.get(DRAFTS, {}))
        events = data.get(EVENTS, {})
        theirs = {identity(doc): int(key) for key, doc in theirs_tables.get(EVENTS, {}).items()}
        for pod in data.get(PODS, {}).values():
            key = str(pod.get("draft")) if pod.get("draft") else None
            record = drafts.get(key) if key else None
            if record is None or not record.get("withheld") or (which is not None and pod.get("event") != which):
                continue
            assert key is not None  # a record was found under it
            event = events.get(str(pod.get("event")), {})
            mine = theirs.get(identity(event))
            same = next(
                (
                    theirs_tables.get(DRAFTS, {}).get(str(other.get("draft")))
                    for other in theirs_tables.get(PODS, {}).values()
                    if mine is not None and other.get("event") == mine and other.get("number") == pod.get("number")
                ),
                None,
            )
            if same is None or same.get("withheld") or same["state"]["config"] != record["state"]["config"]:
                raise InputError(
                    f"the file was exported while pod {pod['number']} of {quoted(event.get('name', '?'))} was drafting, so "
                    "it holds no boosters for that draft (an export keeps the packs secret until 'event finish'), and "
                    "this database doesn't hold that draft; restore it into the database it came from, or restore a "
                    "backup of that database (NAME.bak.N, with --event ID for one event)"
                )
            drafts[key] = {k: v for k, v in record.items() if k != "withheld"} | {"state": same["state"]}
        return Tables(dict(data, **({DRAFTS: drafts} if drafts else {}))).secrets_back(target, which)

    def secrets_back(self, target: Tables, which: int | None = None) -> Tables:
        """The tables with what an export made before ``event finish`` leaves out put back from the same event in
        ``target``: the packs' secret, and each seat code of a player in the same seat there (the code on the slip
        that player holds); only event ``which``'s when given.  Nothing comes from another event."""
        events, players = dict(self.data.get(EVENTS, {})), dict(self.data.get(PLAYERS, {}))
        theirs = {identity(doc): int(key) for key, doc in target.data.get(EVENTS, {}).items()}
        for key, event in self.data.get(EVENTS, {}).items():
            mine = theirs.get(identity(event))
            if mine is None or (which is not None and int(key) != which):
                continue
            if event.get("secret") is None and target.data[EVENTS][str(mine)].get("secret") is not None:
                events[key] = dict(event, secret=target.data[EVENTS][str(mine)]["secret"])
            seats = {
                (p.get("number"), p.get("pod"), p.get("seat")): p["code"]
                for p in target.data.get(PLAYERS, {}).values()
                if p.get("event") == mine and p.get("code")
            }
            for number, player in self.data.get(PLAYERS, {}).items():
                seat = (player.get("number"), player.get("pod"), player.get("seat"))
                if player.get("event") == int(key) and not player.get("code") and seat in seats:
                    players[number] = dict(player, code=seats[seat])
        kept = {name: table for name, table in ((EVENTS, events), (PLAYERS, players)) if table}
        return Tables(dict(self.data, **kept), self.written)

    def self_contained(self, store: Store) -> Tables:
        """The tables with every draft record self-contained under a fresh journal token."""
        tables = dict(self.data)
        tables[DRAFTS] = {
            key: self_contained(store, int(key), doc, damaged_ok=True) for key, doc in tables.get(DRAFTS, {}).items()
        }
        return Tables(tables)

    def pod_picks(self, only: Identity | None = None) -> dict[PodKey, int]:
        """Picks each pod's draft record holds (records made self-contained), of every event or only of ``only``."""
        events = self.data.get(EVENTS, {})
        found = {}
        for pod in self.data.get(PODS, {}).values():
            event = events.get(str(pod.get("event")))
            record = self.data.get(DRAFTS, {}).get(str(pod.get("draft"))) if pod.get("draft") else None
            if event is not None and record is not None and (only is None or identity(event) == only):
                found[(identity(event), pod["number"])] = len(record["picks"])
        return found


@dataclass(frozen=True)
class EventCopy:
    """One event of a database's tables (its number there, its record) and its records by table."""

    number: int
    event: dict[str, Any]
    records: dict[str, dict[str, Any]]

    @property
    def identity(self) -> Identity:
        return identity(self.event)

    @property
    def name(self) -> str | None:
        return self.event.get("name")

    def tables(self) -> Tables:
        """The event and its records as a database's tables."""
        return Tables({EVENTS: {str(self.number): self.event}, **self.records})

    def self_contained(self, store: Store) -> EventCopy:
        """The copy with its draft records holding every pick so far (those of this database's journal files too),
        each live one under a fresh journal token."""
        drafts = {
            key: self_contained(store, int(key), doc, damaged_ok=True)
            for key, doc in self.records.get(DRAFTS, {}).items()
        }
        return EventCopy(self.number, self.event, {**self.records, DRAFTS: drafts})


def read_tables(path: Path) -> Tables:
    """A cmdraft database or event export from a file the user names (errors are bad input: exit 2)."""
    try:
        raw = read_bytes(path, DATABASE_LIMIT)
    except FileProblem as problem:
        hint = "give a database backup (NAME.bak.N) or the database.json of an export"
        raise InputError(f"{quoted(str(path))} {problem.reason}: {hint}") from None
    try:
        data = loads(raw)
    except (ValueError, UnicodeDecodeError) as error:
        reason = "not UTF-8 text" if isinstance(error, UnicodeDecodeError) else str(error)
        raise InputError(
            f"{quoted(str(path))} is not a cmdraft database ({reason}); give a backup or an export's database.json"
        ) from None
    try:
        data = check_data(data, path)
        if schema_of(data) != SCHEMA:
            data = migrated(data, path)  # every record checked once migrated
    except CmdraftError as error:
        hints = ("; restore the newest", "; there is no backup", "; none of its backups")
        raise InputError(min((str(error).split(hint)[0] for hint in hints), key=len)) from None
    return Tables(data, written_at(path))


# --- an event out ------------------------------------------------------------------------------------------------


def withhold(doc: dict[str, Any]) -> dict[str, Any]:
    """A draft record for an export made before the event is finished: never its seed; while it is still
    being picked, not its boosters either (they are the packs still to come)."""
    state = dict(doc["state"], seed=None)
    if doc["status"] != "drafting":
        return dict(doc, state=state)
    return dict(doc, state=dict(state, boosters=[]), withheld=True)


def event_export(store: Store, tables: Tables, event_id: int, *, secrets: bool) -> Tables:
    """A database (``tables``' schema record) holding only ``event_id`` and its records; a live draft's picks are all
    in its record (the copy never reads this database's journal files).

    Without ``secrets`` the packs' secret (the event's ``secret``, the drafts' seeds), the seat codes, and the
    boosters of every draft still being picked stay out (its record is kept with its picks, marked ``withheld``)."""
    event = dict(tables.data[EVENTS][str(event_id)])
    if not secrets:
        event.pop("secret", None)
    out = {META: tables.data[META], EVENTS: {str(event_id): event}}
    for name, docs in tables.event_records(event_id).items():
        if name == DRAFTS:
            docs = {key: self_contained(store, int(key), doc) for key, doc in docs.items()}
            if not secrets:
                docs = {key: withhold(doc) for key, doc in docs.items()}
        elif name == PLAYERS and not secrets:
            docs = {key: {k: v for k, v in doc.items() if k != "code"} for key, doc in docs.items()}
        if docs:
            out[name] = docs
    return Tables(out)


# --- live drafts under a restore ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class LiveDraft:
    """A draft still being picked in the database restored into: its number, its record, the picks made so far, and
    its event's name."""

    draft: int
    record: dict[str, Any]
    picks: int
    event: str = ""
    number: int = 0  # its event's number in that database


def live_drafts(store: Store, tables: Tables, only: Identity | None = None) -> dict[PodKey, LiveDraft]:
    """Drafts still being picked, by pod, of every event or only of ``only``."""
    found = {}
    events = tables.data.get(EVENTS, {})
    for pod in tables.data.get(PODS, {}).values():
        event = events.get(str(pod.get("event")))
        record = tables.data.get(DRAFTS, {}).get(str(pod.get("draft"))) if pod.get("draft") else None
        if event is None or record is None or (only is not None and identity(event) != only):
            continue
        try:
            doc = current(record, read_journal(store, int(pod["draft"]), record))
        except StorageError:
            continue  # its file is damaged: nobody can pick in it, and the restore is the way out
        if doc["status"] == "drafting":
            found[(identity(event), pod["number"])] = LiveDraft(
                int(pod["draft"]), record, len(doc["picks"]), str(event.get("name", "")), int(pod["event"])
            )
    return found


def stop_drafts(store: Store, live: dict[PodKey, LiveDraft]) -> dict[PodKey, int]:
    """Stop every live draft (terminals on it are told so); returns the picks each held when stopped."""
    return {key: stop_live_draft(store, draft.draft, draft.record) for key, draft in live.items()}


def resume_drafts(store: Store, live: dict[PodKey, LiveDraft]) -> None:
    """The drafts ``stop_drafts`` stopped go on, when the restore that stopped them saved nothing (the database still
    names their journals)."""
    if not live:
        return
    with store.read() as db:
        records = {draft.draft: db.table(DRAFTS).get(doc_id=draft.draft) for draft in live.values()}
    for draft in live.values():
        record = records[draft.draft]
        if record is not None and record.get("journal") == draft.record.get("journal"):
            resume_stopped_draft(store, draft.draft, dict(record))


# --- an event in, or the whole database ----------------------------------------------------------------------------


def replace_database(
    store: Store, path: Path, here: Tables, first: Callable[[], None] | None = None
) -> KeptDatabase | None:
    """Replace the whole database with the file at ``path``, withheld boosters filled from ``here`` (the database as
    it was) and every draft self-contained; returns where the database replaced was kept (None: nothing kept).
    ``first``: run under the database's lock before anything is read for the copy (stopping live drafts)."""
    return store.restore(
        path, transform=lambda restored: Tables(restored).filled(here).self_contained(store).data, first=first
    )


def _renumber(
    name: str, doc: dict[str, Any], event_id: int, players: dict[int, int], drafts: dict[int, int]
) -> dict[str, Any]:
    doc = json.loads(json.dumps(doc))

    def pid(old: Any) -> int:
        return players.get(int(old), int(old))

    if "event" in doc:
        doc["event"] = event_id
    if name == PODS:
        doc["players"] = [pid(p) for p in doc.get("players", [])]
        if doc.get("draft"):
            doc["draft"] = drafts.get(doc["draft"], doc["draft"])
    elif name in (POOLS, DECKS, CODE_FAILURES):
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
        # A restored event's history is a record: 'event undo' never reaches behind a restore, so what it needs goes;
        # a result keeps its round and table only, which the log names it by (its undo would find it changed).
        undo = doc.pop("undo", None)
        doc.pop("undoes", None)
        if (
            doc.get("what") == "result"
            and isinstance(undo, dict)
            and None not in (undo.get("round"), undo.get("table"))
        ):
            doc["undo"] = {"round": undo["round"], "table": undo["table"]}
    elif name == PICKS:
        doc["d"] = drafts.get(doc["d"], doc["d"])
    elif name == DRAFTS and "event" in doc:
        doc["event"] = event_id
    return doc


@dataclass(frozen=True)
class Placed:
    """Where a copied event went: its number in this database, and whether it replaced the same event there."""

    event: int
    replaced: bool


def place_event(db: TinyDB, copy: EventCopy) -> Placed:
    """Inside the transaction ``db``: the copied event replaces the same event (its records removed, its number
    kept), or is added as a new one; its records are inserted renumbered."""
    event = copy.event
    existing = next((doc for doc in db.table(EVENTS).all() if identity(doc) == copy.identity), None)
    ids: dict[int, int] = {}  # a player's number in the event: their record's number, kept by the same player
    if existing is not None:
        target = existing.doc_id
        ids = {doc["number"]: doc.doc_id for doc in db.table(PLAYERS).search(where("event") == target)}
        for name, docs in Tables.of(db).event_records(target).items():
            if docs:
                db.table(name).remove(doc_ids=[int(key) for key in docs])
        db.table(EVENTS).remove(doc_ids=[target])
        db.table(EVENTS).insert(Document(dict(event), doc_id=target))
    else:
        target = db.table(EVENTS).insert(dict(event))
    records, kept = copy.records, {}  # kept: a copied player's key, the id it keeps (one player a number keeps one)
    for key, doc in sorted(records.get(PLAYERS, {}).items(), key=lambda kv: int(kv[0])):
        if (old := ids.pop(doc.get("number"), None)) is not None:
            kept[key] = old
    copied = sorted(records.get(PLAYERS, {}).items(), key=lambda kv: (kv[0] not in kept, int(kv[0])))
    players = {  # those keeping their ids first: a new id never takes one of theirs
        int(key): db.table(PLAYERS).insert(Document(doc, doc_id=kept[key]) if key in kept else doc)
        for key, doc in ((key, _renumber(PLAYERS, doc, target, {}, {})) for key, doc in copied)
    }
    drafts = {
        int(key): db.table(DRAFTS).insert(_renumber(DRAFTS, doc, target, players, {}))
        for key, doc in sorted(records.get(DRAFTS, {}).items(), key=lambda kv: int(kv[0]))
    }
    for name, docs in records.items():
        if name in (PLAYERS, DRAFTS) or not docs:
            continue
        db.table(name).insert_multiple(
            _renumber(name, doc, target, players, drafts) for _, doc in sorted(docs.items(), key=lambda kv: int(kv[0]))
        )
    return Placed(target, existing is not None)
