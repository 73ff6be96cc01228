"""The transactions of a store (``events.storage.store``) as TinyDB sees them: the storage a transaction reads and
writes in memory, and the tables that tell it what each change touched.

- ``TransactionStorage`` holds a transaction's tables until its commit, with the numbers of the records it added or
  changed by table (``changed``), or ``whole`` when the commit must check every record: a record others refer to
  was removed or changed the fields they find it by (``events.storage.record_checks.referred``), or
  the data changed some way the tables did not name.
- ``TrackedTable`` changes a record in a copy of its own, so the records the process keeps of the file (which
  reads in other threads share) stay as they were committed until the transaction's file replaces them.
- ``ReadDB`` is a read transaction: a change is refused before it touches a record.
"""

from __future__ import annotations

import copy
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.queries import QueryLike
from tinydb.storages import Storage
from tinydb.table import Table

from events.storage.record_checks import referred


class TransactionStorage(Storage):
    """Reads the file once per transaction and keeps changes in memory until commit.

    It also keeps what the transaction changed, as ``TrackedTable`` tells it: the numbers of the records
    added or changed, by table (``changed``), or ``whole`` when the commit must check every record (a record
    others refer to was removed or changed how it is found, or a change came some other way)."""

    def __init__(self, path: Path, data: dict[str, Any] | None):
        self.path = path
        self.data = data
        self.dirty = False
        self.backup = False
        self.changed: dict[str, set[str]] = {}
        self.whole = False
        self.telling = 0  # inside a change a ``TrackedTable`` names

    def read(self) -> dict[str, Any] | None:
        return self.data

    def write(self, data: dict[str, Any]) -> None:
        self.data = data
        self.dirty = True
        if not self.telling:
            self.whole = True


class ReadStorage(TransactionStorage):
    """A read-only view of what this process keeps of the file, shared by every reader: a change is refused
    (``ReadTable`` refuses it before it starts; any other way, what the process kept is forgotten)."""

    def __init__(self, path: Path, data: dict[str, Any] | None, forget: Callable[[], None]):
        super().__init__(path, data)
        self.forget = forget

    def read(self) -> dict[str, Any] | None:
        return None if self.data is None else dict(self.data)  # a table dropped from it is dropped from a copy

    def write(self, data: dict[str, Any]) -> None:
        self.forget()
        raise read_only_change(self.path)


def read_only_change(path: Path) -> RuntimeError:
    return RuntimeError(f"a read transaction of {path} cannot change it; use Store.write()")


class ReadTable(Table):
    """A table of a read transaction: a change is refused before it touches a record."""

    def _update_table(self, updater: Callable[[dict[int, Mapping[str, Any]]], None]) -> None:
        raise read_only_change(typing.cast(ReadStorage, self._storage).path)


class ReadDB(TinyDB):
    table_class = ReadTable


class TrackedTable(Table):
    """A TinyDB table that tells the transaction which records each change touched.

    A record is changed in a copy of its own (``_own``): the records the process keeps of the file, which reads
    in other threads share, stay as they were committed until the transaction's file replaces them."""

    def _storage_of(self) -> TransactionStorage:
        return typing.cast(TransactionStorage, self._storage)

    @contextmanager
    def _telling(self) -> Iterator[TransactionStorage]:
        storage = self._storage_of()
        storage.telling += 1
        try:
            yield storage
        finally:
            storage.telling -= 1

    def _touched(self, storage: TransactionStorage, doc_ids: Iterable[int]) -> None:
        storage.changed.setdefault(self.name, set()).update(map(str, doc_ids))

    def _found_by(self, doc_ids: Iterable[int] | None) -> dict[str, tuple[Any, ...]]:
        """The fields by which other records find this table's (``referred``), per record (of ``doc_ids``, or all)."""
        fields = referred()[1].get(self.name)
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

    def _compare(self, storage: TransactionStorage, before: dict[str, tuple[Any, ...]], doc_ids: list[int]) -> None:
        if before:
            after = self._found_by(doc_ids)
            storage.whole = storage.whole or any(before.get(str(i)) != after.get(str(i)) for i in doc_ids)

    def upsert(self, *args: Any, **kwargs: Any) -> list[int]:
        with self._telling():
            return super().upsert(*args, **kwargs)  # through ``update`` and ``insert`` above

    def remove(self, *args: Any, **kwargs: Any) -> list[int]:
        with self._telling() as storage:
            doc_ids = super().remove(*args, **kwargs)
            storage.whole = storage.whole or (bool(doc_ids) and self.name in referred()[0])
        return doc_ids

    def truncate(self) -> None:
        with self._telling() as storage:
            storage.whole = storage.whole or (self.name in referred()[0] and bool(self._read_table()))
            super().truncate()


class TrackedDB(TinyDB):
    table_class = TrackedTable
