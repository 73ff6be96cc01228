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
- Nothing is saved that the next command would refuse.  A file is checked whole
  when this process reads it (another process or tool wrote it, an older
  release, a crash left it); a write checks the records it added or changed and
  what they refer to (``check_changed``), or the whole database when it removed
  a record others refer to or changed how they find it
  (``events.storage.transactions``).  A refusal names the same problem either way.
- Reading takes no lock: a rename replaces the whole file at once, so a reader
  always sees one committed state (a write changes copies of its records, never
  what readers in other threads hold).  A read-only database can be read (even in
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

import os
import shlex
import typing
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tinydb import TinyDB

from events import portable, timing
from events.storage.building_files import building_folder
from events.storage.database_file import META, SCHEMA, _meta_doc, encoded, migrated, read_file, schema_of
from events.storage.journal import Journal
from events.storage.record_checks import check_changed, check_tables
from events.storage.safe_files import (
    PRIVATE,
    FileLock,
    _fsync_folder,
    atomic_write,
    copy_private,
    full_disk,
    read_only,
    remove_stale_temporaries,
)
from events.storage.transactions import ReadDB, ReadStorage, TrackedDB, TransactionStorage
from sets.errors import InputError, MissingDatabaseError, StorageError
from sets.userdata import default_path
from sets.visible import quoted

KEEP_BACKUPS = 5
LOCK_TIMEOUT = 30.0


def phase_change(db: TinyDB) -> None:
    """Mark a write transaction as a step that changes an event's phase: the database is backed up first."""
    typing.cast(TransactionStorage, db.storage).backup = True  # every transaction's storage is one


# The databases this process opened: no output file may replace one of them or their own files.
OPEN_DATABASES: set[Path] = set()


def belongs_to_database(target: Path, database: Path) -> bool:
    """Whether ``target`` (a real path) is the database, one of its backups, locks or temporary
    files, its drafts folder or a journal in it, its builds in progress, or a hard link to the database file."""
    own_folders = (database.with_name(database.name + ".drafts"), building_folder(database))
    if target == database or any(folder in (target, *target.parents) for folder in own_folders):
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
        self.given = path is not None  # a path typed (``--db``), not the user's default database
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

    def check_exists(self) -> None:
        """Refuse a database file that is not there (``MissingDatabaseError``: where it was looked for, and what to do),
        before anything would create it: a command that reads or changes what a database holds never starts a new one
        under a mistyped name."""
        if os.path.lexists(self.path):
            return
        folder = next(parent for parent in self.path.parents if os.path.lexists(parent))
        if not folder.is_dir():
            raise StorageError(
                f"{quoted(str(self.path))} can't be a database: a part of the path is a file, not a folder; choose another --db"
            )
        if self.given:
            raise MissingDatabaseError(
                f"no database file {quoted(str(self.path))}: check the --db path; to start a new database there, create an event "
                f"with 'cmdraft event new NAME --db {shlex.quote(str(self.path))}'"
            )
        raise MissingDatabaseError(
            f"no cmdraft database yet at {quoted(str(self.path))}: create an event with 'cmdraft event new NAME'"
        )

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

    def let_go_of_draft(self, draft_id: int) -> None:
        """The journal this process kept for a draft whose picks are folded into its record: closed and dropped (a
        file another process folded and removed is held open no longer)."""
        if not self._drafts:
            return
        prefix = f"{draft_id}-"
        for name in [name for name in self._drafts if name.startswith(prefix)]:
            self._drafts.pop(name).close()

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
        # A folder to make inside a read-only one (the data folder's parent marked read-only, say) is refused like a
        # write to a read-only folder: its permission bits are the owner's intent, root's too, who could make it.
        existing = next((folder for folder in (self.path.parent, *self.path.parent.parents) if folder.exists()), None)
        if existing is not None and existing != self.path.parent and existing.is_dir() and read_only(existing):
            raise StorageError(
                f"cannot create the folder for database {quoted(str(self.path))}: the folder {existing} is read-only; "
                "nothing was changed (make it writable, or choose another --db)"
            )
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise StorageError(
                f"{quoted(str(self.path))} can't be a database: a part of the path is a file, not a folder; choose another --db"
            ) from None
        except OSError as error:
            raise StorageError(
                f"cannot create the folder for database {quoted(str(self.path))}: {error.strerror or error}; "
                "nothing was changed (check the folder is writable, or choose another --db)"
            ) from None
        if self.path.is_dir():
            raise StorageError(f"{quoted(str(self.path))} is a folder, not a database file; give a file path with --db")

    @contextmanager
    def _read(self) -> Iterator[TinyDB]:
        if self.path.is_dir():
            raise StorageError(f"{quoted(str(self.path))} is a folder, not a database file; give a file path with --db")
        data, _ = self._load()  # no lock: a committed file is always whole
        yield ReadDB(storage=lambda: ReadStorage(self.path, data, self._forget))

    def _check_writable(self) -> None:
        """Refuse a write the file's or folder's permission bits don't allow, root or not."""
        if read_only(self.path):
            raise StorageError(
                f"{quoted(str(self.path))} is read-only; nothing was changed (make it writable to change it)"
            )
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
            # The transaction's own tables (a shallow copy: ``TrackedTable`` copies a record before it changes it),
            # so reads in other threads keep seeing what was committed, and a refused write leaves nothing behind.
            own = None if data is None else {name: dict(table) for name, table in data.items()}
            storage = TransactionStorage(self.path, own)
            db = TrackedDB(storage=lambda: storage)
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
                    raise StorageError(f"refused to save {quoted(str(self.path))}: {problem}; nothing was changed")
                if storage.backup or outdated:
                    self._rotate_backups()
                remove_stale_temporaries(self.path.parent)
                remove_stale_temporaries(self.drafts_folder)

                def coming(written: os.stat_result) -> None:
                    self._coming = ((written.st_ino, written.st_size, written.st_mtime_ns), tables)

                try:
                    mode = PRIVATE if stat is None else stat.st_mode & 0o7777
                    atomic_write(self.path, encoded(tables), mode, coming)
                except OSError as error:
                    raise StorageError(
                        f"cannot write database {quoted(str(self.path))}: {error.strerror or error}; nothing was changed"
                        f"{full_disk(error)}"
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

        def move_up() -> None:
            for index in range(KEEP_BACKUPS - 1, 0, -1):
                older = self.path.with_name(f"{self.path.name}.bak.{index}")
                if older.exists():
                    portable.replace(older, self.path.with_name(f"{self.path.name}.bak.{index + 1}"))

        return self._copy_to(newest, f"cannot back up database {quoted(str(self.path))}", move_up)

    def _copy_to(self, target: Path, failure: str, before_rename: Callable[[], None] | None = None) -> Path:
        """The database copied owner-only to ``target``: whole and fsynced under a temporary name, then renamed
        into place (``before_rename`` run just before), the folder synced; a refusal removes the temporary and
        changes nothing (``failure``: what the error says could not be done)."""
        temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        try:
            copy_private(self.path, temporary)
            if before_rename is not None:
                before_rename()
            portable.replace(temporary, target)
            _fsync_folder(self.path.parent)
        except OSError as error:
            temporary.unlink(missing_ok=True)
            raise StorageError(f"{failure}: {error.strerror or error}; nothing was changed{full_disk(error)}") from None
        return target

    def backup(self) -> Path | None:
        """Rotate the backups and copy the database to ``NAME.bak.1``."""
        self._ensure_folder()
        lock = FileLock(self.path)
        lock.acquire(LOCK_TIMEOUT)
        try:
            return self._rotate_backups()
        finally:
            lock.release()

    def _keep_damaged(self) -> Path:
        """Copy a database this cmdraft can't read aside, as ``NAME.damaged-TIMESTAMP`` (never into the backups'
        places: a later restore would be pointed at it, and it would push a good backup out)."""
        stamp = timing.local().strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        number = 1
        while os.path.lexists(aside):
            number += 1
            aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}-{number}")
        return self._copy_to(aside, f"cannot keep the damaged database {quoted(str(self.path))} aside")

    def _readable(self) -> bool:
        """Whether the database file is there and a cmdraft database this release can read."""
        self._forget()
        try:
            return self._load()[0] is not None
        except StorageError:
            return False

    def restore(
        self,
        source: Path,
        transform: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
        first: Callable[[], None] | None = None,
    ) -> KeptDatabase | None:
        """Replace the database with a checked copy of ``source`` (passed through ``transform``); returns where the
        database it replaced was kept (None when there was none).  A damaged database can be replaced too: it is kept
        aside under a name of its own (``NAME.damaged-TIMESTAMP``), never among the backups.  ``first``: run under
        the lock before ``transform``."""
        data = read_file(source)
        if data is None:
            raise InputError(f"{quoted(str(source))} does not exist; give a database or backup file")
        if schema_of(data) != SCHEMA:
            data = migrated(data, source)
        self._ensure_folder()
        self._check_writable()
        lock = FileLock(self.path)
        lock.acquire(LOCK_TIMEOUT)
        try:
            if first is not None:
                first()
            if transform is not None:
                data = transform(data)
            data[META] = {"1": _meta_doc()}
            if self._readable():
                backup = self._rotate_backups()
                kept = None if backup is None else KeptDatabase(backup, damaged=False)
            else:
                kept = KeptDatabase(self._keep_damaged(), damaged=True) if self.path.is_file() else None
            try:
                before = self.path.stat().st_mode & 0o7777 if self.path.is_file() else PRIVATE
                atomic_write(self.path, encoded(data), before)
            except OSError as error:
                raise StorageError(
                    f"cannot write database {quoted(str(self.path))}: {error.strerror or error}; nothing was changed"
                    f"{full_disk(error)}"
                ) from None
            self._cache = None
        finally:
            lock.release()
        return kept


@dataclass(frozen=True)
class KeptDatabase:
    """Where a restore kept the database it replaced: a backup (``NAME.bak.1``), or, for a database this release
    can't read, a file aside (``NAME.damaged-TIMESTAMP``)."""

    path: Path
    damaged: bool
