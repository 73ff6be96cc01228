"""TinyDB storage that loses nothing.

- Every write goes to a temporary file in the same folder, is fsynced, and
  replaces the database with an atomic rename (then the folder is fsynced):
  a crash or power cut leaves either the old file or the new one.  The new
  file keeps the old one's permissions; temporary files left by killed
  processes are removed by the next write.
- Every change runs in a transaction that holds an exclusive file lock, reads
  the file once and writes it once: two terminals on the same database never
  lose each other's updates, and an error inside a transaction writes nothing.
  Waiting writers sleep in the kernel and pass a turnstile before the lock,
  so they are served in turn (see ``FileLock`` in ``events.storage.safe_files``).
- Reading takes no lock: a rename replaces the whole file at once, so a reader
  always sees one committed state.  A read-only database can be read (even in
  a read-only folder); writing to it is refused and the file is left as it is.
- The database carries a schema version; older files are migrated (after a
  backup) by the first write, and read through the same migration in memory;
  newer, unknown or foreign files are refused with a clear error, never reset.
- ``backup`` keeps rotating copies (``NAME.bak.1`` newest … ``NAME.bak.5``);
  a transaction marked with ``phase_change`` backs the database up before it
  writes.
- Each live draft keeps its picks in a journal file of its own
  (``NAME.drafts/ID-TOKEN.json``, see ``events.storage.journal``): a pick appends a line to
  that file alone, under that file's own lock, so its cost does not grow with the event.
"""

from __future__ import annotations

import copy
import os
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.queries import QueryLike
from tinydb.storages import Storage
from tinydb.table import Table

from events import portable
from events.storage.database_file import META, SCHEMA, _meta_doc, default_path, encoded, migrated, read_file, schema_of
from events.storage.journal import Journal
from events.storage.record_checks import KEYS, REFERRED, check_changed, check_tables
from events.storage.safe_files import (
    PRIVATE,
    FileLock,
    _fsync_folder,
    atomic_write,
    copy_private,
    read_only,
    remove_stale_temporaries,
)
from sets.errors import InputError, StorageError

KEEP_BACKUPS = 5
LOCK_TIMEOUT = 30.0


class _TransactionStorage(Storage):
    """Reads the file once per transaction and keeps changes in memory until commit.

    It also keeps what the transaction changed, as ``_TrackedTable`` tells it: the numbers of the records
    added or changed, by table (``changed``), or ``whole`` when the commit must check every record (a record
    others refer to was removed or changed how it is found, or a change came some other way)."""

    def __init__(self, path: Path, data: dict[str, Any] | None):
        self.path = path
        self.data = data
        self.dirty = False
        self.backup = False
        self.changed: dict[str, set[str]] = {}
        self.whole = False
        self.telling = 0  # inside a change a ``_TrackedTable`` names

    def read(self) -> dict[str, Any] | None:
        return self.data

    def write(self, data: dict[str, Any]) -> None:
        self.data = data
        self.dirty = True
        if not self.telling:
            self.whole = True


class _ReadStorage(_TransactionStorage):
    """A read-only view of what this process keeps of the file, shared by every reader: a change is refused
    (``_ReadTable`` refuses it before it starts; any other way, what the process kept is forgotten)."""

    def __init__(self, path: Path, data: dict[str, Any] | None, forget: Callable[[], None]):
        super().__init__(path, data)
        self.forget = forget

    def read(self) -> dict[str, Any] | None:
        return None if self.data is None else dict(self.data)  # a table dropped from it is dropped from a copy

    def write(self, data: dict[str, Any]) -> None:
        self.forget()
        raise _read_only(self.path)


def _read_only(path: Path) -> RuntimeError:
    return RuntimeError(f"a read transaction of {path} cannot change it; use Store.write()")


class _ReadTable(Table):
    """A table of a read transaction: a change is refused before it touches a record."""

    def _update_table(self, updater: Callable[[dict[int, Mapping[str, Any]]], None]) -> None:
        raise _read_only(typing.cast(_ReadStorage, self._storage).path)


class _ReadDB(TinyDB):
    table_class = _ReadTable


class _TrackedTable(Table):
    """A TinyDB table that tells the transaction which records each change touched.

    A record is changed in a copy of its own (``_own``): the records the process keeps of the file, which reads
    in other threads share, stay as they were committed until the transaction's file replaces them."""

    def _storage_of(self) -> _TransactionStorage:
        return typing.cast(_TransactionStorage, self._storage)

    @contextmanager
    def _telling(self) -> Iterator[_TransactionStorage]:
        storage = self._storage_of()
        storage.telling += 1
        try:
            yield storage
        finally:
            storage.telling -= 1

    def _touched(self, storage: _TransactionStorage, doc_ids: Iterable[int]) -> None:
        storage.changed.setdefault(self.name, set()).update(map(str, doc_ids))

    def _found_by(self, doc_ids: Iterable[int] | None) -> dict[str, tuple[Any, ...]]:
        """The fields by which other records find this table's (``KEYS``), per record (of ``doc_ids``, or all)."""
        fields = KEYS.get(self.name)
        if fields is None:
            return {}
        table = self._read_table()
        keys = table.keys() if doc_ids is None else [str(doc_id) for doc_id in doc_ids if str(doc_id) in table]
        return {key: tuple(table[key].get(field) for field in fields) for key in keys}

    def insert(self, document: Mapping[str, Any]) -> int:
        with self._telling() as storage:
            doc_id = super().insert(document)
            self._touched(storage, [doc_id])
        return doc_id

    def insert_multiple(self, documents: Iterable[Mapping[str, Any]]) -> list[int]:
        with self._telling() as storage:
            doc_ids = super().insert_multiple(documents)
            self._touched(storage, doc_ids)
        return doc_ids

    def _own(self, doc_ids: Iterable[int], deep: bool) -> None:
        """The records ``doc_ids`` replaced by copies the transaction may change (``deep``: a function will change
        them, perhaps inside a list; else fields are replaced, so a copy of the record's top suffices).  The
        table's dict itself is the transaction's own (``Store._write`` copied it, and every change makes a new one)."""
        table = self._read_table()
        for doc_id in doc_ids:
            doc = table.get(str(doc_id))
            if doc is not None:
                table[str(doc_id)] = copy.deepcopy(doc) if deep else dict(doc)

    def update(
        self,
        fields: Mapping[str, Any] | Callable[[MutableMapping[str, Any]], None],
        cond: QueryLike | None = None,
        doc_ids: Iterable[int] | None = None,
    ) -> list[int]:
        with self._telling() as storage:
            if doc_ids is None:  # the records the query matches, found first (then each is changed in a copy)
                doc_ids = [int(key) for key, doc in self._read_table().items() if cond is None or cond(doc)]
            doc_ids = list(doc_ids)
            self._own(doc_ids, deep=callable(fields))
            before = self._found_by(doc_ids)
            doc_ids = super().update(fields, doc_ids=doc_ids)
            self._touched(storage, doc_ids)
            self._compare(storage, before, doc_ids)
        return doc_ids

    def update_multiple(
        self, updates: Iterable[tuple[Mapping[str, Any] | Callable[[MutableMapping[str, Any]], None], QueryLike]]
    ) -> list[int]:
        with self._telling() as storage:
            self._own([int(key) for key in self._read_table()], deep=True)
            before = self._found_by(None)
            doc_ids = super().update_multiple(updates)
            self._touched(storage, doc_ids)
            self._compare(storage, before, doc_ids)
        return doc_ids

    def _compare(self, storage: _TransactionStorage, before: dict[str, tuple[Any, ...]], doc_ids: list[int]) -> None:
        if before:
            after = self._found_by(doc_ids)
            storage.whole = storage.whole or any(before.get(str(i)) != after.get(str(i)) for i in doc_ids)

    def upsert(self, *args: Any, **kwargs: Any) -> list[int]:
        with self._telling():
            return super().upsert(*args, **kwargs)  # through ``update`` and ``insert`` above

    def remove(self, *args: Any, **kwargs: Any) -> list[int]:
        with self._telling() as storage:
            doc_ids = super().remove(*args, **kwargs)
            storage.whole = storage.whole or (bool(doc_ids) and self.name in REFERRED)
        return doc_ids

    def truncate(self) -> None:
        with self._telling() as storage:
            storage.whole = storage.whole or (self.name in REFERRED and bool(self._read_table()))
            super().truncate()


class _TrackedDB(TinyDB):
    table_class = _TrackedTable


def phase_change(db: TinyDB) -> None:
    """Mark a write transaction as a step that changes an event's phase: the database is backed up first."""
    typing.cast(_TransactionStorage, db.storage).backup = True  # every transaction's storage is one


# The databases this process opened: no output file may replace one of them or their own files.
OPEN_DATABASES: set[Path] = set()


def belongs_to_database(target: Path, database: Path) -> bool:
    """Whether ``target`` (a real path) is the database, one of its backups, locks or temporary
    files, its drafts folder or a journal in it, or a hard link to the database file."""
    if target == database or database.with_name(database.name + ".drafts") in (target, *target.parents):
        return True
    if target.parent == database.parent and (
        target.name.startswith(database.name + ".") or target.name.startswith("." + database.name + ".")
    ):
        return True
    try:
        mine, theirs = os.stat(target), os.stat(database)
    except OSError:
        return False
    return (mine.st_dev, mine.st_ino) == (theirs.st_dev, theirs.st_ino)


class Store:
    """A cmdraft database file: ``with store.write() as db`` / ``with store.read() as db``; its live drafts'
    journals (``draft_file``)."""

    def __init__(self, path: str | Path | None = None):
        # A symbolic link is followed to the real file: writes replace that file (never the link)
        # and its lock and backups sit beside it, so every way of naming it shares one lock.
        given = Path(path).expanduser() if path is not None else default_path()
        try:
            self.path = Path(os.path.realpath(given))
        except (OSError, ValueError):
            self.path = given
        OPEN_DATABASES.add(self.path)
        # The last contents this process read or wrote, with the file's identity then: a file
        # that is still the same (same inode, size and mtime) needs no new parse.
        self._cache: tuple[tuple[int, int, int], dict[str, Any], bool] | None = None
        # What a write of this process is renaming into place, with its file's identity (the same once renamed):
        # a read in another thread that sees the new file meanwhile needs no new parse either.
        self._coming: tuple[tuple[int, int, int], dict[str, Any]] | None = None
        self._drafts: dict[str, Journal] = {}

    # --- the drafts' own files ----------------------------------------------------------------------

    @property
    def drafts_folder(self) -> Path:
        return self.path.with_name(self.path.name + ".drafts")

    def draft_file(self, name: str) -> Journal:
        """The journal of one live draft (kept open, so what it read is reused between picks)."""
        journal = self._drafts.get(name)
        if journal is None:
            journal = self._drafts[name] = Journal(self.drafts_folder / f"{name}.json")
        return journal

    # --- transactions ---------------------------------------------------------------------------------

    def _signature(self) -> tuple[int, int, int] | None:
        try:
            stat = self.path.stat()
        except OSError:
            return None
        return (stat.st_ino, stat.st_size, stat.st_mtime_ns)

    def _load(self) -> tuple[dict[str, Any] | None, bool]:
        """The file's data at the current schema, and whether the file itself is of an older schema."""
        signature, cache, coming = self._signature(), self._cache, self._coming
        if signature is not None and cache is not None and cache[0] == signature:
            return cache[1], cache[2]
        if signature is not None and coming is not None and coming[0] == signature:
            return coming[1], False  # a write of this process renamed its file into place a moment ago
        data = read_file(self.path)
        outdated = data is not None and schema_of(data) != SCHEMA
        if outdated and data is not None:
            data = migrated(data, self.path)  # read through the migration; the first write saves it
        self._cache = (signature, data, outdated) if data is not None and signature is not None else None
        return data, outdated

    def _forget(self) -> None:
        self._cache = None

    def _ensure_folder(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise StorageError(
                f"{self.path} can't be a database: a part of the path is a file, not a folder; choose another --db"
            ) from None
        except OSError as error:
            raise StorageError(f"cannot create folder for database {self.path}: {error.strerror or error}") from None
        if self.path.is_dir():
            raise StorageError(f"{self.path} is a folder, not a database file; give a file path with --db")

    @contextmanager
    def _read(self) -> Iterator[TinyDB]:
        if self.path.is_dir():
            raise StorageError(f"{self.path} is a folder, not a database file; give a file path with --db")
        data, _ = self._load()  # no lock: a committed file is always whole
        yield _ReadDB(storage=lambda: _ReadStorage(self.path, data, self._forget))

    def _check_writable(self) -> None:
        """Refuse a write the file's or folder's permission bits don't allow, root or not."""
        if read_only(self.path):
            raise StorageError(f"{self.path} is read-only; nothing was changed (make it writable to change it)")
        if read_only(self.path.parent):
            raise StorageError(
                f"the folder {self.path.parent} is read-only; nothing was changed "
                "(make it writable, or choose another --db)"
            )

    @contextmanager
    def _write(self) -> Iterator[TinyDB]:
        self._ensure_folder()
        self._check_writable()
        lock = FileLock(self.path)
        lock.acquire(LOCK_TIMEOUT)
        try:
            data, outdated = self._load()
            stat = self.path.stat() if data is not None else None
            # The transaction's own tables (a shallow copy: ``_TrackedTable`` copies a record before it changes it),
            # so reads in other threads keep seeing what was committed, and a refused write leaves nothing behind.
            own = None if data is None else {name: dict(table) for name, table in data.items()}
            storage = _TransactionStorage(self.path, own)
            db = _TrackedDB(storage=lambda: storage)
            yield db
            if storage.dirty or outdated:
                tables = storage.data or {}
                tables[META] = {"1": _meta_doc()}
                # The same checks as every read: nothing is saved that the next command would refuse.  What this
                # process read or wrote passed them, so only what the transaction changed is checked again; a file
                # of an older schema, or a change the tables didn't name, is checked whole.
                if outdated or storage.whole:
                    problem = check_tables(tables)
                else:
                    problem = check_changed(tables, storage.changed)
                if problem:
                    raise StorageError(f"refused to save {self.path}: {problem}; nothing was changed")
                if storage.backup or outdated:
                    self._rotate_backups()
                remove_stale_temporaries(self.path.parent)
                remove_stale_temporaries(self.drafts_folder)

                def coming(written: os.stat_result) -> None:
                    self._coming = ((written.st_ino, written.st_size, written.st_mtime_ns), tables)

                try:
                    mode = PRIVATE if stat is None else stat.st_mode & 0o7777
                    atomic_write(self.path, encoded(tables), mode, before_rename=coming)
                except OSError as error:
                    raise StorageError(
                        f"cannot write database {self.path}: {error.strerror or error}; nothing was changed"
                    ) from None
                signature = self._signature()
                self._cache = (signature, tables, False) if signature is not None else None
                self._coming = None
        except BaseException:
            self._cache = self._coming = None  # read the file again (a change may have reached what was kept)
            raise
        finally:
            lock.release()

    def write(self) -> Any:
        """A read-write transaction: all or nothing, one write at the end."""
        return self._write()

    def read(self) -> Any:
        """A read-only view of a consistent state."""
        return self._read()

    def writable(self) -> bool:
        """Whether a write could be tried at all (a read-only file or folder can't take one)."""
        return not read_only(self.path) and not read_only(self.path.parent)

    # --- backups --------------------------------------------------------------------------------------

    def _rotate_backups(self) -> Path | None:
        """Copy the database to ``NAME.bak.1``, the older copies moving up (five kept).

        The copy is made whole and fsynced under a temporary name first; only then do the older
        backups move up and the copy take its place, so a full disk costs no backup (the partial
        copy is removed) and the refusal changes nothing."""
        if not self.path.exists():
            return None
        newest = self.path.with_name(f"{self.path.name}.bak.1")
        temporary = newest.with_name(f".{newest.name}.{os.getpid()}.tmp")
        try:
            copy_private(self.path, temporary)
            for index in range(KEEP_BACKUPS - 1, 0, -1):
                older = self.path.with_name(f"{self.path.name}.bak.{index}")
                if older.exists():
                    portable.replace(older, self.path.with_name(f"{self.path.name}.bak.{index + 1}"))
            portable.replace(temporary, newest)
            _fsync_folder(self.path.parent)
        except OSError as error:
            temporary.unlink(missing_ok=True)
            raise StorageError(
                f"cannot back up database {self.path}: {error.strerror or error}; nothing was changed"
            ) from None
        return newest

    def backup(self) -> Path | None:
        """Rotate the backups and copy the database to ``NAME.bak.1``."""
        self._ensure_folder()
        lock = FileLock(self.path)
        lock.acquire(LOCK_TIMEOUT)
        try:
            return self._rotate_backups()
        finally:
            lock.release()

    def restore(self, source: Path, transform: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> Path | None:
        """Replace the database with a checked copy of ``source`` (passed through ``transform``); returns
        the backup of the database it replaced (None when there was none).  A damaged database can be replaced too."""
        data = read_file(source)
        if data is None:
            raise InputError(f"{source} does not exist; give a database or backup file")
        if schema_of(data) != SCHEMA:
            data = migrated(data, source)
        if transform is not None:
            data = transform(data)
        data[META] = {"1": _meta_doc()}
        self._ensure_folder()
        self._check_writable()
        lock = FileLock(self.path)
        lock.acquire(LOCK_TIMEOUT)
        try:
            kept = self._rotate_backups()
            try:
                before = self.path.stat().st_mode & 0o7777 if self.path.is_file() else PRIVATE
                atomic_write(self.path, encoded(data), before)
            except OSError as error:
                raise StorageError(
                    f"cannot write database {self.path}: {error.strerror or error}; nothing was changed"
                ) from None
            self._cache = None
        finally:
            lock.release()
        return kept
