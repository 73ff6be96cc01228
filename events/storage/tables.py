"""The store's tables as their record types: where the use cases meet TinyDB.

``records_of(db, Player)`` is the players table of the transaction ``db`` (``with store.write() as db``), read and
written as ``Player`` records (``events.storage.records``): ``find(event=3)`` the records whose fields equal
those values, ``get(7)`` one by its number, ``insert(record)`` a new one (its number back), ``update(7,
status="dropped")`` only the fields named (the fields a later release added are left as they are), ``remove(7)``.
The dicts TinyDB keeps stay in here; everything above it passes records.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, MutableMapping
from typing import Any, Generic, TypeVar

import msgspec
from tinydb import Query, TinyDB
from tinydb.queries import QueryInstance

from events.storage.records import TABLE_OF, Record, typed

R = TypeVar("R", bound=Record)
_Q = Query()


def _plain(value: Any) -> Any:
    """A value as TinyDB stores it (a record or struct as its plain fields)."""
    return msgspec.to_builtins(value) if isinstance(value, msgspec.Struct | list | tuple | dict) else value


def _where(equal: dict[str, Any]) -> QueryInstance | None:
    condition: QueryInstance | None = None
    for field, value in equal.items():
        test = _Q[field] == value
        condition = test if condition is None else condition & test
    return condition


class Table(Generic[R]):
    """One table of a transaction, as records of ``kind``."""

    def __init__(self, db: TinyDB, kind: type[R], name: str | None = None) -> None:
        self.kind = kind
        self.name = name if name is not None else TABLE_OF[kind]
        self._table = db.table(self.name)

    def _record(self, doc: Any) -> R:
        return typed(self.kind, doc)

    def get(self, record_id: int | None) -> R | None:
        """The record numbered ``record_id`` (None when there is none, or no number was given)."""
        if record_id is None:
            return None
        doc = self._table.get(doc_id=record_id)
        return None if doc is None else self._record(doc)

    def as_saved(self, record_id: int, *path: str, default: Any = None) -> Any:
        """A field's value exactly as it was saved, for a payload shown as written (a deck's problems and lines
        carry keys their types don't list): ``as_saved(7, "deck", "commanders")`` the field ``commanders`` of
        record 7's ``deck``; ``default`` when the record, a field on the way or the field itself is not there."""
        found: Any = self._table.get(doc_id=record_id)
        for field in path:
            if not isinstance(found, dict) or field not in found:
                return default
            found = found[field]
        return default if found is None and not path else found

    def all(self) -> list[R]:
        """Every record, in the order of their numbers."""
        return sorted((self._record(doc) for doc in self._table.all()), key=lambda record: record.id)

    def find(self, where: QueryInstance | None = None, /, **equal: Any) -> list[R]:
        """The records matching ``where`` and whose fields equal ``equal``'s values, in the order of their numbers."""
        condition = _where(equal)
        if where is not None:
            condition = where if condition is None else condition & where
        docs = self._table.all() if condition is None else self._table.search(condition)
        return sorted((self._record(doc) for doc in docs), key=lambda record: record.id)

    def first(self, where: QueryInstance | None = None, /, **equal: Any) -> R | None:
        """The first record (by number) that ``find`` would give, or None."""
        found = self.find(where, **equal)
        return found[0] if found else None

    def values(self, field: str, /, **equal: Any) -> list[Any]:
        """The saved value of ``field`` (None where it is not saved) of every record whose fields equal ``equal``'s
        values, in the order of their numbers; ``field`` ``"id"``: their numbers.  Nothing is read as its type,
        so a question about a wide table costs little (the records passed their checks when they were read)."""
        stored: dict[str, Any] = self._table._read_table()  # as saved: TinyDB's documents copy each record
        found = [
            (int(key), int(key) if field == "id" else doc.get(field))
            for key, doc in stored.items()
            if all(name in doc and doc[name] == value for name, value in equal.items())
        ]
        return [value for _, value in sorted(found, key=lambda pair: pair[0])]

    def count(self, where: QueryInstance | None = None, /, **equal: Any) -> int:
        condition = _where(equal)
        if where is not None:
            condition = where if condition is None else condition & where
        return len(self._table) if condition is None else self._table.count(condition)

    def insert(self, record: R) -> int:
        """Save a new record (its ``id`` is ignored); its number back."""
        doc = msgspec.to_builtins(record)
        doc.pop("id", None)
        return self._table.insert(doc)

    def insert_fields(self, **fields: Any) -> int:
        """Save a new record given as its fields (exactly those, as a release before this type wrote them)."""
        return self._table.insert({field: _plain(value) for field, value in fields.items()})

    def update(self, record_ids: int | Iterable[int], /, **changes: Any) -> None:
        """Change only the fields named, of the records numbered ``record_ids``."""
        ids = [record_ids] if isinstance(record_ids, int) else list(record_ids)
        if ids:
            self._table.update({field: _plain(value) for field, value in changes.items()}, doc_ids=ids)

    def update_where(self, changes: dict[str, Any], where: QueryInstance | None = None, /, **equal: Any) -> None:
        """Change the fields in ``changes`` of every record ``find`` would give."""
        self.update([record.id for record in self.find(where, **equal)], **changes)

    def transform(self, record_id: int, change: Callable[[MutableMapping[str, Any]], None]) -> None:
        """Change a record in place through ``change`` (for a field that goes away: TinyDB's ``delete``)."""
        self._table.update(change, doc_ids=[record_id])

    def drop_field(self, record_id: int, field: str) -> None:
        """Remove one field from a record (it reads as its default again)."""

        def drop(doc: MutableMapping[str, Any]) -> None:
            doc.pop(field, None)

        self._table.update(drop, doc_ids=[record_id])

    def remove(self, record_ids: int | Iterable[int], /) -> None:
        ids = [record_ids] if isinstance(record_ids, int) else list(record_ids)
        if ids:
            self._table.remove(doc_ids=ids)

    def remove_where(self, where: QueryInstance | None = None, /, **equal: Any) -> None:
        self.remove([record.id for record in self.find(where, **equal)])


def records_of(db: TinyDB, kind: type[R]) -> Table[R]:
    """The table of ``kind``'s records in the transaction ``db``."""
    return Table(db, kind)
