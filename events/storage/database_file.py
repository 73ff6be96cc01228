"""A database file as it lies on disk: its schema, the migrations of older schemas, and reading
and checking one (``read_file``), without locks or transactions (``events.storage.store`` has those).

- The file carries a schema version (``META``); older files are read through ``MIGRATIONS`` in
  memory (``migrated``) and saved migrated by the first write; a newer, unknown or foreign file is
  refused in one line (``StorageError``), never reset.
- Every record of a current file is checked against its type (``events.storage.records``).
"""

from __future__ import annotations

import hashlib
import json
import shlex
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import msgspec

from events import timing
from events.storage.record_checks import check_tables
from events.storage.table_names import EVENTS, HISTORY
from sets.errors import StorageError
from sets.files import DATABASE_LIMIT, FileProblem, loads, read_bytes
from sets.userdata import db_option
from sets.visible import quoted

SCHEMA = 3
META = "_meta"


def _migrate_1_to_2(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 2: a draft's picks live in its record (``picks``: ``[seat, *positions]`` rows), and a
    draft still being picked names its own journal file (``journal``: a random token)."""
    data = dict(data)
    rows = sorted(((int(key), row) for key, row in data.pop("picks", {}).items()), key=lambda item: item[0])
    by_draft: dict[int, list[list[int]]] = {}
    for _, row in rows:
        by_draft.setdefault(row["d"], []).append([row["s"], *row["p"]])
    drafts = {}
    for key, doc in data.get("drafts", {}).items():
        doc = {k: v for k, v in doc.items() if k != "n"}
        doc["picks"] = by_draft.get(int(key), [])
        # The token is derived from the record, not drawn: a schema-1 file read (and picked into)
        # several times before its first write must name the same journal every time.
        seed = json.dumps([key, doc.get("created"), doc.get("state", {}).get("seed")], sort_keys=True)
        doc["journal"] = hashlib.sha256(seed.encode()).hexdigest()[:12] if doc.get("status") == "drafting" else None
        drafts[key] = doc
    if drafts:
        data["drafts"] = drafts
    return data


# Schema 3: readable field names.  Every record of an event names it as ``event`` (was ``e``), a
# record of one player names them as ``player`` (was ``p``; a commander cast's too), a wrong seat
# code names the process that typed it as ``process`` (was ``pid``), and every player has a number.
RENAMED_3 = {"e": "event", "p": "player", "pid": "process"}
EVENT_TABLES_3 = ("players", "code_failures", "pods", "pools", "decks", "rounds", "results", "games", "history")


def _renamed(doc: Any) -> Any:
    if not isinstance(doc, dict):
        return doc  # the records' checks name what is wrong with it
    return {RENAMED_3.get(key, key): value for key, value in doc.items()}


def _migrate_2_to_3(data: dict[str, Any]) -> dict[str, Any]:
    data = dict(data)
    for table in EVENT_TABLES_3:
        if table in data:
            data[table] = {key: _renamed(doc) for key, doc in data[table].items()}
    for key, doc in data.get("players", {}).items():
        if (
            isinstance(doc, dict) and not doc.get("number") and key.isdecimal() and key.isascii()
        ):  # a player from before numbers per event: their row number
            doc["number"] = int(key)
    for doc in data.get("games", {}).values():
        if isinstance(doc, dict) and isinstance(doc.get("casts"), list):
            doc["casts"] = [_renamed(cast) for cast in doc["casts"]]
    return data


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _migrate_1_to_2, 2: _migrate_2_to_3}


def _meta_doc() -> dict[str, Any]:
    return {"app": "cmdraft", "schema": SCHEMA}


def newest_backup(path: Path) -> Path | None:
    newest = path.with_name(f"{path.name}.bak.1")
    return newest if newest.is_file() else None


def backups(path: Path) -> list[Path]:
    """The database's backups (``NAME.bak.N``), newest first."""
    prefix = f"{path.name}.bak."
    try:
        names = [p.name for p in path.parent.iterdir() if p.name.startswith(prefix)]
    except OSError:
        return []
    numbers = sorted(int(n[len(prefix) :]) for n in names if n[len(prefix) :].isdecimal())
    return [path.with_name(f"{prefix}{number}") for number in numbers]


def readable_data(path: Path) -> dict[str, Any] | None:
    """The file's tables at the current schema, or None when it is not a readable cmdraft database (or not there)."""
    try:
        data = read_file(path)
        return None if data is None else (data if schema_of(data) == SCHEMA else migrated(data, path))
    except StorageError:
        return None


def written_at(path: Path) -> float | None:
    """When a file was last written (a backup's copy time: the database as it stood); None when it can't be read."""
    try:
        return path.stat().st_mtime
    except OSError:
        return None


def local_minute(stamp: float | None) -> str:
    """A file's time as people read it: local time to the minute (``at an unknown time`` for None)."""
    if stamp is None:
        return "at an unknown time"
    return datetime.fromtimestamp(stamp).astimezone().strftime("%Y-%m-%d %H:%M")


def utc_time(stamp: float | None) -> str | None:
    """A file's time as every time in ``--json`` and the history is written: ISO 8601 in UTC to the second."""
    return None if stamp is None else timing.stamp(stamp)


def saved_at(path: Path) -> str:
    """When a file was last written, in local time to the minute (a backup's copy time: the database as it stood)."""
    return local_minute(written_at(path))


def newest_readable_backup(path: Path, holds: Callable[[dict[str, Any]], bool] | None = None) -> Path | None:
    """The newest backup of ``path`` that is a readable cmdraft database (and, with ``holds``, whose tables pass it)."""
    for backup in backups(path):
        data = readable_data(backup)
        if data is not None and (holds is None or holds(data)):
            return backup
    return None


def backup_before_change(path: Path, event_id: int, change: int, at: str) -> Path | None:
    """The newest readable backup taken before an event's history entry ``change`` (made ``at``): it holds the
    event and not that entry."""

    def before(data: dict[str, Any]) -> bool:
        logged = data.get(HISTORY, {}).get(str(change))
        return str(event_id) in data.get(EVENTS, {}) and not (isinstance(logged, dict) and logged.get("at") == at)

    return newest_readable_backup(path, before)


def restore_hint(path: Path) -> str:
    """What to do about a damaged database: the newest backup that can be read, with its time, if there is one."""
    backup = newest_readable_backup(path)
    if backup is not None:
        command = f"cmdraft event restore {shlex.quote(str(backup))} --all{db_option(path)}"
        return (
            f"restore the newest backup that can be read, {quoted(str(backup))} (saved {saved_at(backup)}; changes made after "
            f"that are not in it), with '{command}' (the damaged file is kept aside), or choose another --db"
        )
    if backups(path):
        return "none of its backups is a readable cmdraft database; choose another --db or move the file away"
    return "there is no backup of it; choose another --db or move the file away"


def damaged_draft(journal: Path, why: str) -> StorageError:
    """A draft's own file (``NAME.drafts/...``) that can't be read: what is wrong, and the way out (its database
    restored from a backup: a draft whose file is damaged stops no restore)."""
    database = journal.parent.with_name(journal.parent.name.removesuffix(".drafts"))
    return StorageError(f"{quoted(str(journal))} is damaged ({why}); the draft can't be read: {restore_hint(database)}")


def schema_of(data: dict[str, Any]) -> int:
    return next(iter(data[META].values()))["schema"]


def check_data(data: Any, path: Path) -> dict[str, Any]:
    """The database's tables, or ``StorageError`` for anything that is not a usable cmdraft database."""
    if not isinstance(data, dict) or not all(isinstance(t, dict) for t in data.values()):
        raise StorageError(
            f"{quoted(str(path))} is not a cmdraft database (unexpected JSON shape); {restore_hint(path)}"
        )
    meta = next(iter(data.get(META, {}).values()), None)
    if not isinstance(meta, dict) or meta.get("app") != "cmdraft" or type(meta.get("schema")) is not int:
        raise StorageError(
            f"{quoted(str(path))} is not a cmdraft database (no cmdraft schema record); {restore_hint(path)}"
        )
    schema = meta["schema"]
    if schema > SCHEMA:
        raise StorageError(
            f"{quoted(str(path))} was written by a newer cmdraft (schema {schema}); upgrade cmdraft to open it"
        )
    if schema != SCHEMA and schema not in MIGRATIONS:
        raise StorageError(
            f"{quoted(str(path))} has schema {schema}, which no cmdraft release wrote; {restore_hint(path)}"
        )
    if schema == SCHEMA:
        check_records(data, path)
    return data


def check_records(data: dict[str, Any], path: Path) -> None:
    """Every record's fields, types, ranges and references (``events.storage.records``); the first problem
    is a damaged database."""
    problem = check_tables(data)
    if problem:
        raise StorageError(f"{quoted(str(path))} is damaged: {problem}; {restore_hint(path)}")


def read_file(path: Path) -> dict[str, Any] | None:
    """The checked contents of a database file; None only when no file is there.

    Only a regular file is read (a FIFO or a device is refused before it is opened, so nothing
    hangs), at most ``DATABASE_LIMIT`` bytes; a file without read permission bits is refused."""
    try:
        raw = read_bytes(path, DATABASE_LIMIT)
    except FileProblem as problem:
        if problem.missing and "part of the path" in problem.reason:
            raise StorageError(
                f"{quoted(str(path))} can't be a database: a part of the path is a file, not a folder; choose another --db"
            ) from None
        if problem.missing:
            return None
        if "a folder" in problem.reason:
            raise StorageError(
                f"{quoted(str(path))} is a folder, not a database file; give a file path with --db"
            ) from None
        raise StorageError(
            f"cannot use database {quoted(str(path))}: it {problem.reason}; nothing was changed"
        ) from None
    if not raw.strip():
        hint = restore_hint(path)
        if not hint.startswith("restore"):  # no backup to restore: the two ways out, as one sentence
            hint = f"choose another --db ({hint.partition(';')[0]})"
        raise StorageError(
            f"{quoted(str(path))} is empty, so it is not a cmdraft database; remove it to start a new one, or {hint}"
        )
    try:
        data = loads(raw)
    except (ValueError, UnicodeDecodeError) as error:
        reason = "not UTF-8 text" if isinstance(error, UnicodeDecodeError) else str(error)
        raise StorageError(f"{quoted(str(path))} is damaged ({reason}); {restore_hint(path)}") from None
    return check_data(data, path)


def migrated(data: dict[str, Any], path: Path) -> dict[str, Any]:
    """The data brought to the current schema (a new dict; ``data`` is left alone)."""
    schema = schema_of(data)
    while schema < SCHEMA:
        try:
            data = MIGRATIONS[schema](data)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            reason = f"no field {quoted(error.args[0])}" if isinstance(error, KeyError) else "unexpected value"
            raise StorageError(
                f"{quoted(str(path))} is damaged (a schema-{schema} record can't be read: {reason}); {restore_hint(path)}"
            ) from None
        schema += 1
    data = dict(data)
    data[META] = {"1": _meta_doc()}
    check_records(data, path)
    return data


def encoded(tables: dict[str, Any]) -> bytes:
    """Compact JSON in UTF-8 (msgspec's encoder: about nine times as fast as ``json.dumps`` on a night's database,
    which every write saves whole).  Text UTF-8 can't hold (a lone surrogate some JSON file escaped) is escaped
    as ``json.dumps`` escapes it."""
    try:
        return msgspec.json.encode(tables)
    except UnicodeEncodeError:
        return json.dumps(tables, separators=(",", ":"), check_circular=False).encode()


def dumps(tables: dict[str, Any]) -> str:
    """``encoded`` as text."""
    return encoded(tables).decode()
