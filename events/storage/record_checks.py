"""The checks a database's records must pass, run from their types (``events.storage.records``).

``check_tables`` reads every record of every table it knows as its type: msgspec checks the
types, ranges and lengths the type declares, the type's ``problem()`` a rule across its fields,
and every field marked ``Ref`` must name a record that exists (of the same event when the mark
says so).  The first problem comes back in words, naming the table, the record and the field:
``"players record 4: 'event' names no event (9)"``, ``"events record 1: 'pod_size' is 1000000,
more than 64"``.
"""

from __future__ import annotations

import math
import re
import types
import typing
from collections.abc import Callable, Collection, Iterator, Mapping
from functools import cache
from typing import Any

import msgspec

from events.storage.marks import Ref, Within
from events.storage.records import TABLES, Pod, Record
from sets.visible import quoted

Walk = Callable[[Any, str], Iterator[tuple[Any, Any, str]]]  # (the Ref or Within mark, the value, where)
_KEY = re.compile(r"[1-9][0-9]{0,9}", re.ASCII)
_KINDS = {
    "int": "a whole number",
    "float": "a number",
    "str": "text",
    "bool": "true/false",
    "array": "a list",
    "object": "a record",
    "null": "null",
    "bytes": "bytes",
}


def check_tables(data: dict[str, Any]) -> str | None:
    """The first problem of a database's records (or of a draft's own file), or None."""
    records: dict[str, dict[str, Record]] = {}
    for table in TABLES:
        docs = data.get(table)
        if not docs:
            continue
        checked = records[table] = {}
        for key in docs:
            problem, record = _record(table, key, docs[key])
            if record is None:
                return problem
            checked[key] = record
    return _references(records, _Typed(records))


def check_changed(data: dict[str, Any], changed: Mapping[str, Collection[str]]) -> str | None:
    """What ``check_tables(data)`` would say, at the cost of the records that changed.

    For a database that passed ``check_tables`` before a transaction in which only the records named in
    ``changed`` (their numbers, by table) were added or changed, and none was removed from a table others
    refer to nor changed a field others find it by (``referred``): then only those records can
    hold a problem, so they are the ones checked, in ``check_tables``'s order (the first problem is the same),
    their references looked up in ``data`` as it is.  A record named but no longer there was removed again."""
    records: dict[str, dict[str, Record]] = {}
    for table in TABLES:
        docs, numbers = data.get(table), changed.get(table)
        if not docs or not numbers:
            continue
        checked = records[table] = {}
        in_order = [key for key in docs if key in numbers] if len(numbers) > 1 else [k for k in numbers if k in docs]
        for key in in_order:
            problem, record = _record(table, key, docs[key])
            if record is None:
                return problem
            checked[key] = record
    return _references(records, _Stored(data))


def _record(table: str, key: str, doc: Any) -> tuple[str | None, Record | None]:
    """One stored record as its type, or the first problem with it."""
    if not _KEY.fullmatch(key):
        return f"{table} has a record numbered {_short(key)}, not a number 1 or more", None
    if not isinstance(doc, dict):
        return f"{table} record {key} is not a record", None
    try:
        record = msgspec.convert({**doc, "id": int(key)}, TABLES[table])
    except msgspec.ValidationError as error:
        return f"{table} record {key}{_words(str(error), doc, TABLES[table])}", None
    problem = record.problem()
    if problem:
        return f"{table} record {key}: {problem}", None
    return None, record


# --- references and wide ranges -------------------------------------------------------------------------------------------------


class _Found:
    """Where the records a reference names are looked up."""

    def event(self, number: Any) -> bool:
        raise NotImplementedError

    def draft(self, number: Any) -> bool:
        raise NotImplementedError

    def pod(self, event: Any, number: Any) -> bool:
        raise NotImplementedError

    def player(self, number: Any) -> tuple[bool, Any]:
        """Whether the player is there, and their event."""
        raise NotImplementedError


class _Typed(_Found):
    """In the records ``check_tables`` read, every one of them checked."""

    def __init__(self, records: dict[str, dict[str, Record]]) -> None:
        self.events = records.get("events", {})
        self.players = records.get("players", {})
        self.drafts = records.get("drafts", {})
        self.pods = {(pod.event, pod.number) for pod in records.get("pods", {}).values() if isinstance(pod, Pod)}

    def event(self, number: Any) -> bool:
        return str(number) in self.events

    def draft(self, number: Any) -> bool:
        return str(number) in self.drafts

    def pod(self, event: Any, number: Any) -> bool:
        return (event, number) in self.pods

    def player(self, number: Any) -> tuple[bool, Any]:
        player = self.players.get(str(number))
        return player is not None, getattr(player, "event", None)


class _Stored(_Found):
    """In the stored records of a database whose records passed their checks (read as stored: a checked
    record's fields hold exactly the values of its type)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self._pods: set[tuple[Any, Any]] | None = None

    def event(self, number: Any) -> bool:
        return str(number) in self.data.get("events", {})

    def draft(self, number: Any) -> bool:
        return str(number) in self.data.get("drafts", {})

    def pod(self, event: Any, number: Any) -> bool:
        if self._pods is None:
            self._pods = {(doc.get("event"), doc.get("number")) for doc in self.data.get("pods", {}).values()}
        return (event, number) in self._pods

    def player(self, number: Any) -> tuple[bool, Any]:
        player = self.data.get("players", {}).get(str(number))
        return player is not None, player.get("event") if player is not None else None


def _references(records: dict[str, dict[str, Record]], found: _Found) -> str | None:
    for table, docs in records.items():
        walk = _walk_of(TABLES[table])
        if walk is None:
            continue
        for key, record in docs.items():
            for ref, value, where in walk(record, ""):
                if isinstance(ref, Within):
                    if not ref.low <= value <= ref.high:
                        side = "less than" if value < ref.low else "more than"
                        bound = ref.low if value < ref.low else ref.high
                        return f"{table} record {key}: {where} is {_short(value)}, {side} {bound}"
                    continue
                event = getattr(record, "event", None)
                if ref.table == "events":
                    there = found.event(value)
                elif ref.table == "drafts":
                    there = found.draft(value)
                elif ref.table == "pods":
                    there = found.pod(event, value)
                else:
                    there, of_event = found.player(value)
                    if there and ref.same_event and of_event != event:
                        return f"{table} record {key}: {where} names player {value} of another event"
                if not there:
                    of_event = " of its event" if ref.field else ""
                    return f"{table} record {key}: {where} names no {ref.words} ({_short(value)}){of_event}"
    return None


def _marks(kind: Any) -> Iterator[Ref | Within]:
    """Every mark in a type, however deep."""
    for arg in typing.get_args(kind):
        if isinstance(arg, (Ref, Within)):
            yield arg
        elif not isinstance(arg, (str, int, float, msgspec.Meta)):
            yield from _marks(arg)
    if isinstance(kind, type) and issubclass(kind, msgspec.Struct):
        for hint in typing.get_type_hints(kind, include_extras=True).values():
            yield from _marks(hint)


@cache
def referred() -> tuple[frozenset[str], dict[str, tuple[str, ...]]]:
    """The tables other records refer to, and the fields by which a reference finds a record beside its number (a
    pod by its event and number; a player of the same event by their event): removing such a record, or changing
    those fields, can break a record that was not touched, so such a transaction is checked whole.  Worked out from
    the types when a transaction first asks (reading every type's hints costs a command that only reads)."""
    refs = [mark for kind in TABLES.values() for mark in _marks(kind) if isinstance(mark, Ref)]
    keys: dict[str, tuple[str, ...]] = {}
    for ref in refs:
        fields = ("event", ref.field) if ref.field else ("event",) if ref.same_event else ()
        keys[ref.table] = tuple(dict.fromkeys((*keys.get(ref.table, ()), *fields)))
    return frozenset(ref.table for ref in refs), {table: fields for table, fields in keys.items() if fields}


@cache
def _walk_of(kind: Any) -> Walk | None:
    """How to find the references in a value of type ``kind`` (None: it holds none)."""
    origin = typing.get_origin(kind)
    if origin is typing.Annotated:
        inner, *marks = typing.get_args(kind)
        ref = next((mark for mark in marks if isinstance(mark, (Ref, Within))), None)
        if ref is not None:
            return lambda value, where: iter([(ref, value, where)])
        return _walk_of(inner)
    if origin in (typing.Union, types.UnionType):
        walks = [walk for arg in typing.get_args(kind) if arg is not type(None) if (walk := _walk_of(arg)) is not None]
        if not walks:
            return None
        only = walks[0]
        return lambda value, where: iter(()) if value is None else only(value, where)
    if origin in (list, tuple):
        args = typing.get_args(kind)
        item = _walk_of(args[0]) if args else None
        if item is None:
            return None
        return lambda value, where: (
            found for position, element in enumerate(value) for found in item(element, f"{where} item {position + 1}")
        )
    if origin is dict:
        key_kind, value_kind = typing.get_args(kind)
        keys, values = _walk_of(key_kind), _walk_of(value_kind)
        if keys is None and values is None:
            return None

        def walk_dict(value: dict, where: str) -> Iterator[tuple[Ref, Any, str]]:
            for name, element in value.items():
                if keys is not None:
                    yield from ((ref, int(found), place) for ref, found, place in keys(name, where))
                if values is not None:
                    yield from values(element, where)

        return walk_dict
    if isinstance(kind, type) and issubclass(kind, msgspec.Struct):
        hints = typing.get_type_hints(kind, include_extras=True)
        names = dict(zip(kind.__struct_fields__, kind.__struct_encode_fields__))
        fields = [(name, walk) for name in kind.__struct_fields__ if (walk := _walk_of(hints[name])) is not None]
        if not fields:
            return None

        def walk_struct(value: Any, where: str) -> Iterator[tuple[Ref, Any, str]]:
            for name, walk in fields:
                yield from walk(getattr(value, name), f"{where} '{names[name]}'".strip())

        return walk_struct
    return None


# --- msgspec's words into ours --------------------------------------------------------------------------------

_MISSING = re.compile(r"Object missing required field `(?P<field>[^`]+)`(?: - at `(?P<path>[^`]+)`)?$")
_EXPECTED = re.compile(r"Expected `(?P<want>[^`]+)`, got `(?P<got>[^`]+)`(?: - at `(?P<path>[^`]+)`)?$")
_BOUND = re.compile(r"Expected `(?P<want>int|float)` (?P<op>[<>]=?) (?P<bound>\S+)(?: - at `(?P<path>[^`]+)`)?$")
_LENGTH = re.compile(
    r"Expected `(?P<want>str|array|object)` of length (?P<op>[<>]=?) (?P<bound>\d+)(?: - at `(?P<path>[^`]+)`)?$"
)
_REGEX = re.compile(r"Expected `str` matching regex .*?(?: - at `(?P<path>[^`]+)`)?$")
_ENUM = re.compile(r"Invalid enum value (?P<value>.+?)(?: - at `(?P<path>[^`]+)`)?$")
_STEP = re.compile(r"\.(\w+)|\[(\d+)\]|\[\.\.\.\]")


def _words(message: str, doc: dict[str, Any], kind: type[Record]) -> str:
    """``": 'pod_size' is 1000000, more than 64"`` for msgspec's ``Expected `int` <= 64 - at `$.pod_size```."""
    if match := _MISSING.match(message):
        path = match["path"]
        if not path or path == "$":
            return f" has no {match['field']}"
        return f": {_place(path)} has no {quoted(match['field'])}"
    if match := _EXPECTED.match(message):
        want = " or ".join(_KINDS.get(part.strip(), part.strip()) for part in match["want"].split("|"))
        return f": {_place(match['path'])} should be {want}, not {_KINDS.get(match['got'], match['got'])}"
    if match := _BOUND.match(message):
        value = _value(doc, match["path"])
        if isinstance(value, float) and not math.isfinite(value):
            return f": {_place(match['path'])} is {value}, not a finite number"
        side = "less than" if match["op"].startswith(">") else "more than"
        return f": {_place(match['path'])} is {_short(value)}, {side} {_bound(match['bound'])}"
    if match := _LENGTH.match(message):
        value, most = _value(doc, match["path"]), match["op"].startswith("<")
        size = len(value) if isinstance(value, (str, list, dict)) else "?"
        if match["want"] == "str":
            if not most and size == 0:
                return f": {_place(match['path'])} is empty"
            return f": {_place(match['path'])} is {size} characters long (at {'most' if most else 'least'} {match['bound']})"
        return f": {_place(match['path'])} holds {size} items (at {'most' if most else 'least'} {match['bound']})"
    if match := _REGEX.match(message):
        path = match["path"] or ""
        if path.startswith("key` in `"):
            return f": {_place(path[9:])} names no player ({_short(_bad_key(doc, path[9:]))})"
        return f": {_place(path)} is empty"
    if match := _ENUM.match(message):
        choices = typing.get_args(typing.get_type_hints(kind).get(_top(match["path"]), None))
        known = f"not one of {', '.join(map(str, choices))}" if choices else "not a known value"
        return f": {_place(match['path'])} is {match['value']}, {known}"
    return f": {message.replace('`$.', '`')}"


def _steps(path: str | None) -> list[str | int | None]:
    return [name if name else (int(index) if index else None) for name, index in _STEP.findall(path or "")]


def _place(path: str | None) -> str:
    """``$.deck.main[0].count`` as ``'deck' 'main' item 1 'count'`` (``[...]``: a value in a record of its own)."""
    words: list[str] = []
    for step in _steps(path):
        if step is None:
            words[-1:] = [f"a value of {words[-1]}" if words else "a value"]
        else:
            words.append(f"'{step}'" if isinstance(step, str) else f"item {step + 1}")
    return " ".join(words) or "the record"


def _top(path: str | None) -> str:
    steps = _steps(path)
    return steps[0] if steps and isinstance(steps[0], str) else ""


def _value(doc: Any, path: str | None) -> Any:
    value = doc
    for step in _steps(path):
        try:
            value = value[step]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def _bad_key(doc: Any, path: str) -> Any:
    table = _value(doc, path)
    return next((key for key in table if not re.fullmatch(r"[1-9][0-9]{0,9}", key)), None) if table else None


def _bound(text: str) -> str:
    number = float(text)
    return str(int(number)) if number.is_integer() else text


def _short(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."
