"""TinyDB storage that loses nothing.

- Every write goes to a temporary file in the same folder, is fsynced, and
  replaces the database with an atomic rename (then the folder is fsynced):
  a crash or power cut leaves either the old file or the new one.
- Every change runs in a transaction that holds an exclusive file lock, reads
  the file once and writes it once: two terminals on the same database never
  lose each other's updates, and an error inside a transaction writes nothing.
- The database carries a schema version; older files are migrated (after a
  backup), newer or foreign ones are refused with a clear error, never reset.
- ``backup`` keeps rotating copies (``NAME.bak.1`` newest … ``NAME.bak.5``).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.storages import Storage

from sets.catalog import user_home
from sets.errors import StorageError

SCHEMA = 1
META = "_meta"
KEEP_BACKUPS = 5
LOCK_TIMEOUT = 30.0
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}


def default_path() -> Path:
    return user_home() / "cmdraft.json"


def _meta_doc() -> dict[str, Any]:
    return {"app": "cmdraft", "schema": SCHEMA}


def check_data(data: Any, path: Path) -> dict[str, Any]:
    """The database's tables, or ``StorageError`` for anything that is not a cmdraft database."""
    hint = f"restore a backup ({path.name}.bak.1) with 'cmdraft event restore FILE' or choose another --db"
    if not isinstance(data, dict) or not all(isinstance(t, dict) for t in data.values()):
        raise StorageError(f"{path} is not a cmdraft database (unexpected JSON shape); {hint}")
    meta = next(iter(data.get(META, {}).values()), None)
    if not isinstance(meta, dict) or meta.get("app") != "cmdraft" or not isinstance(meta.get("schema"), int):
        raise StorageError(f"{path} is not a cmdraft database (no cmdraft schema record); {hint}")
    if meta["schema"] > SCHEMA:
        raise StorageError(f"{path} was written by a newer cmdraft (schema {meta['schema']}); upgrade cmdraft to open it")
    return data


def read_file(path: Path) -> dict[str, Any] | None:
    """The checked contents of a database file; None when it does not exist yet (or is empty)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise StorageError(f"cannot read database {path}: {error.strerror or error}") from None
    if not raw.strip():
        return None
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise StorageError(
            f"{path} is damaged ({error}); restore a backup ({path.name}.bak.1) with 'cmdraft event restore FILE'"
        ) from None
    return check_data(data, path)


def dumps(tables: dict[str, Any]) -> str:
    """Compact JSON; the data are plain trees, so the circular-reference check is skipped (twice as fast)."""
    return json.dumps(tables, separators=(",", ":"), check_circular=False)


def atomic_write(path: Path, text: str) -> None:
    """Write a file so that a crash leaves the old or the new content, never a mix (raises ``OSError``)."""
    folder = path.parent
    temporary = folder / f".{path.name}.{os.getpid()}.tmp"
    try:
        with open(temporary, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)
        raise
    if hasattr(os, "O_DIRECTORY"):
        descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def _write_database(path: Path, tables: dict[str, Any]) -> None:
    try:
        atomic_write(path, dumps(tables))
    except OSError as error:
        raise StorageError(f"cannot write database {path}: {error.strerror or error}; nothing was changed") from None


class _TransactionStorage(Storage):
    """Reads the file once per transaction and keeps changes in memory until commit."""

    def __init__(self, path: Path, data: dict[str, Any] | None):
        self.path = path
        self.data = data
        self.dirty = False

    def read(self) -> dict[str, Any] | None:
        return self.data

    def write(self, data: dict[str, Any]) -> None:
        self.data = data
        self.dirty = True


class _FileLock:
    """An exclusive or shared lock on ``NAME.lock`` beside the database."""

    def __init__(self, path: Path):
        self.path = path.with_name(path.name + ".lock")
        self.handle: Any = None

    def acquire(self, exclusive: bool, timeout: float) -> None:
        try:
            self.handle = open(self.path, "a+b")
        except OSError as error:
            raise StorageError(f"cannot open lock file {self.path}: {error.strerror or error}; check the folder is writable") from None
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not POSIX: one process at a time via the lock file's existence
            return
        mode = fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(self.handle.fileno(), mode | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() > deadline:
                    self.handle.close()
                    raise StorageError(f"the database is busy (locked by another cmdraft for {timeout:.0f}s); try again") from None
                time.sleep(0.005)

    def release(self) -> None:
        if self.handle is not None:
            self.handle.close()  # closing drops the flock
            self.handle = None


class Store:
    """The cmdraft database: ``with store.write() as db`` / ``with store.read() as db``."""

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path is not None else default_path()
        # The last contents this process read or wrote, with the file's identity then: a file
        # that is still the same (same inode, size and mtime) needs no new parse.
        self._cache: tuple[tuple[int, int, int], dict[str, Any]] | None = None

    def _signature(self) -> tuple[int, int, int] | None:
        try:
            stat = self.path.stat()
        except FileNotFoundError:
            return None
        return (stat.st_ino, stat.st_size, stat.st_mtime_ns)

    def _load(self) -> dict[str, Any] | None:
        signature = self._signature()
        if signature is not None and self._cache is not None and self._cache[0] == signature:
            return self._cache[1]
        data = read_file(self.path)
        self._cache = (signature, data) if data is not None and signature is not None else None
        return data

    def _ensure_folder(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StorageError(f"cannot create folder for database {self.path}: {error.strerror or error}") from None
        if self.path.is_dir():
            raise StorageError(f"{self.path} is a folder, not a database file; give a file path with --db")

    @contextmanager
    def _transaction(self, exclusive: bool) -> Iterator[TinyDB]:
        if not exclusive and not self.path.exists():
            # Reading a database that does not exist yet creates nothing on disk.
            if self.path.is_dir():
                raise StorageError(f"{self.path} is a folder, not a database file; give a file path with --db")
            yield TinyDB(storage=lambda: _TransactionStorage(self.path, None))
            return
        self._ensure_folder()
        lock = _FileLock(self.path)
        lock.acquire(exclusive, LOCK_TIMEOUT)
        try:
            data = self._load()
            if data is not None and exclusive:
                data = self._migrate(data)
            storage = _TransactionStorage(self.path, data)
            db = TinyDB(storage=lambda: storage)
            yield db
            if exclusive and storage.dirty:
                tables = storage.data or {}
                tables[META] = {"1": _meta_doc()}
                _write_database(self.path, tables)
                signature = self._signature()
                self._cache = (signature, tables) if signature is not None else None
        except BaseException:
            self._cache = None  # the transaction may have changed the cached data in memory
            raise
        finally:
            lock.release()

    def write(self) -> Any:
        """A read-write transaction: all or nothing, one write at the end."""
        return self._transaction(exclusive=True)

    def read(self) -> Any:
        """A read-only view of a consistent state."""
        return self._transaction(exclusive=False)

    def _migrate(self, data: dict[str, Any]) -> dict[str, Any]:
        schema = next(iter(data[META].values()))["schema"]
        if schema == SCHEMA:
            return data
        self._rotate_backups()
        while schema < SCHEMA:
            data = MIGRATIONS[schema](data)
            schema += 1
        return data

    def _rotate_backups(self) -> Path | None:
        if not self.path.exists():
            return None
        for index in range(KEEP_BACKUPS - 1, 0, -1):
            older = self.path.with_name(f"{self.path.name}.bak.{index}")
            if older.exists():
                os.replace(older, self.path.with_name(f"{self.path.name}.bak.{index + 1}"))
        newest = self.path.with_name(f"{self.path.name}.bak.1")
        shutil.copy2(self.path, newest)
        return newest

    def backup(self) -> Path | None:
        """Rotate the backups and copy the database to ``NAME.bak.1``."""
        self._ensure_folder()
        lock = _FileLock(self.path)
        lock.acquire(True, LOCK_TIMEOUT)
        try:
            return self._rotate_backups()
        finally:
            lock.release()

    def restore(self, source: Path) -> None:
        """Replace the database with a checked copy of ``source`` (the current one is backed up first)."""
        data = read_file(source)
        if data is None:
            raise StorageError(f"{source} is empty or missing; give a database or backup file")
        self._ensure_folder()
        lock = _FileLock(self.path)
        lock.acquire(True, LOCK_TIMEOUT)
        try:
            self._rotate_backups()
            _write_database(self.path, data)
            self._cache = None
        finally:
            lock.release()
