"""Records travel typed: a TinyDB dict is read by key (``row["name"]``, ``row.get("name")``) and a table is
opened raw (``db.table("players")``, ``db.storage.read()``) only where the store reads and writes it
(``events/storage``).  Everywhere else in ``events/`` the use cases pass record types (``events.storage.records``,
``records_of(db, Player)``) and read their fields as attributes, so the count of those look-ups outside the store
may only go down.

Each file that keeps look-ups for a real reason (a JSON file a user gives, a payload from a browser) is listed
with the reason (a file whose ``.get("key")`` calls read such dicts, with how many it holds: one more is caught);
the ceiling counts the rest."""

from __future__ import annotations

import ast
import functools
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Look-ups by key outside the store, not yet typed (issue #39): the ceiling only goes down.
CEILING = 0
# events/web is reshaped by its own change (issue #39, items 3 and 6): its count, kept apart, only goes down too.
WEB_CEILING = 0

# Files whose look-ups of every kind read dicts that are not the store's records, with the reason.  (An export file a
# user gives is read, copied and renumbered as plain tables by the store: events/storage/transfer.py.)
ALLOWED: dict[str, str] = {
    "events/web/stream_socket.py": "the ASGI messages an app sends its WebSocket protocol are plain dicts by the ASGI spec",
}

# Files whose ``x.get("key")`` calls read dicts that are not the store's records: how many calls each holds (its own
# ceiling, so a new read of a record by key in the same file is caught; it only goes down), with the reason.
GET_ALLOWED: dict[str, tuple[int, str]] = {
    "events/night/serving.py": (
        4,
        "serve's marker file (its address, process number, whether it holds its lock) is a small JSON file any "
        "process may have left half written: read by key and checked before it is believed",
    ),
    "events/web/app.py": (
        4,
        "the ASGI scope and messages Starlette hands the middleware are plain dicts by the ASGI spec",
    ),
    "events/web/guard.py": (1, "the ASGI scope the host guard reads is a plain dict by the ASGI spec"),
    "events/web/stream.py": (
        5,
        "a browser's stream message (the ASGI receive event and its JSON text) is untrusted data, "
        "read by key and checked before anything believes it; the ASGI scope's extensions are a plain dict",
    ),
    "events/web/answers.py": (1, "a msgspec type's metadata (``Meta.extra``), read to print the API table's shapes"),
}
GET_CEILINGS = {name: most for name, (most, _) in GET_ALLOWED.items()}

# A request's own mappings (Starlette's headers, query and path parameters): never the store's rows.
REQUEST_MAPPINGS = frozenset({"headers", "query_params", "path_params"})


@functools.cache
def parsed(source: str) -> ast.Module:
    """A module's syntax tree, parsed once per test process for each text (every kind of look-up, in each check,
    walks every module of ``events/``; a file that changes is parsed again).  Read-only: no count changes a tree."""
    return ast.parse(source)


def _literal_type(node: ast.Subscript) -> bool:
    """``Literal["pick"]`` (or ``typing.Literal["pick"]``): a type, not a look-up."""
    value = node.value
    return (isinstance(value, ast.Name) and value.id == "Literal") or (
        isinstance(value, ast.Attribute) and value.attr == "Literal"
    )


def key_lookups(source: str) -> int:
    """How many ``x["key"]`` subscripts (a string constant as the key) a module's source holds, but for a type's
    ``Literal["key"]``."""
    return sum(
        1
        for node in ast.walk(parsed(source))
        if isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
        and not _literal_type(node)
    )


def get_lookups(source: str) -> int:
    """How many ``x.get("key")`` calls (a string constant as the key) a module's source holds, but for those on a
    request's own mappings (``request.headers.get("host")``)."""
    return sum(
        1
        for node in ast.walk(parsed(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
        and not (isinstance(node.func.value, ast.Attribute) and node.func.value.attr in REQUEST_MAPPINGS)
    )


def _opens_table(node: ast.Call) -> bool:
    """``db.table(...)`` (a transaction is ``db`` throughout) or ``anything.table("players")`` (a table by name);
    ``served.table(3)``, a served night's pod, is not the store's."""
    func = node.func
    assert isinstance(func, ast.Attribute)
    named = bool(node.args) and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
    return func.attr == "table" and ((isinstance(func.value, ast.Name) and func.value.id == "db") or named)


def raw_tables(source: str) -> int:
    """How many raw openings of the store a module's source holds: ``db.table(...)`` and ``db.storage.read()``."""
    return sum(
        1
        for node in ast.walk(parsed(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and (
            _opens_table(node)
            or (
                node.func.attr == "read"
                and isinstance(node.func.value, ast.Attribute)
                and node.func.value.attr == "storage"
            )
        )
    )


# Each kind of look-up: how it is counted, and how many each file may hold besides ALLOWED's (GET_ALLOWED's).
KINDS: dict[str, tuple[Callable[[str], int], Mapping[str, int]]] = {
    'x["key"]': (key_lookups, {}),
    'x.get("key")': (get_lookups, GET_CEILINGS),
    "db.table()/db.storage.read()": (raw_tables, {}),
}


def lookups_by_file(root: Path, count: Callable[[str], int] = key_lookups) -> Counter[str]:
    """Look-ups (as ``count`` counts them) in every module of ``root/events`` outside ``events/storage``, by path
    (``events/...``)."""
    found: Counter[str] = Counter()
    for path in sorted((root / "events").rglob("*.py")):
        name = path.relative_to(root).as_posix()
        if name.startswith("events/storage/"):
            continue
        number = count(path.read_text(encoding="utf-8"))
        if number:
            found[name] = number
    return found


def over_ceiling(
    found: Counter[str],
    ceiling: int,
    web: bool,
    allowed: Mapping[str, str] = ALLOWED,
    kind: str = 'x["key"]',
    per_file: Mapping[str, int] | None = None,
) -> str | None:
    """What is wrong with ``found`` against ``ceiling`` (the web's files or the rest), or None; a file of
    ``allowed`` is left out, one of ``per_file`` counts only what it holds beyond its own ceiling there."""
    own = per_file or {}
    counted = {
        name: count - own.get(name, 0)
        for name, count in found.items()
        if name not in allowed and name.startswith("events/web/") == web and count > own.get(name, 0)
    }
    total = sum(counted.values())
    if total <= ceiling:
        return None
    worst = ", ".join(f"{name} {count}" for name, count in sorted(counted.items(), key=lambda item: -item[1])[:8])
    return (
        f"{total} {kind} look-ups outside events/storage, more than {ceiling}: pass the record types "
        f"(events.storage.records, records_of) and read their fields, or list the file with its reason ({worst})"
    )


def test_use_cases_read_records_by_field_not_by_key() -> None:
    for kind, (count, per_file) in KINDS.items():
        assert over_ceiling(lookups_by_file(ROOT, count), CEILING, False, ALLOWED, kind, per_file) is None


def test_web_reads_records_by_field_not_by_key() -> None:
    for kind, (count, per_file) in KINDS.items():
        assert over_ceiling(lookups_by_file(ROOT, count), WEB_CEILING, True, ALLOWED, kind, per_file) is None


def test_every_allowed_file_still_exists_and_says_why() -> None:
    reasons = {**ALLOWED, **{name: reason for name, (_, reason) in GET_ALLOWED.items()}}
    for name, reason in reasons.items():
        assert (ROOT / name).is_file(), name
        assert len(reason.split()) >= 4, name


def test_every_allowed_file_still_needs_it() -> None:
    """A file listed for every kind of look-up that no longer makes any comes off the list."""
    found = [lookups_by_file(ROOT, count) for count, _ in KINDS.values()]
    assert [name for name in ALLOWED if not any(counted[name] for counted in found)] == []


def test_every_get_allowed_ceiling_is_what_its_file_holds() -> None:
    """A file listed for ``.get("key")`` holds exactly as many as its ceiling says: one that reads fewer now has its
    ceiling lowered (one that reads none comes off the list), so the next new read is caught."""
    found = lookups_by_file(ROOT, get_lookups)
    assert {name: found[name] for name in GET_CEILINGS} == GET_CEILINGS


def plant(root: Path, where: str, source: str, kept: str) -> None:
    """A tree of two modules under ``root``: ``events/WHERE/planted.py`` holding ``source``, and the store's own
    ``events/storage/kept.py`` holding ``kept`` (which the counts must leave out)."""
    for folder, name, text in ((where, "planted.py", source), ("storage", "kept.py", kept)):
        (root / "events" / folder).mkdir(parents=True, exist_ok=True)
        (root / "events" / folder / name).write_text(text, encoding="utf-8")


def test_a_planted_lookup_is_caught(tmp_path: Path) -> None:
    """A dict read by key in a use case counts; the same in the store, a number as the key and a ``Literal["key"]``
    type do not."""
    plant(
        tmp_path,
        "night",
        'def name(row) -> Literal["name"]:\n    return row["name"] + row.name + str(row[0]) + typing.Literal["x"]\n',
        'def name(row):\n    return row["name"]\n',
    )
    found = lookups_by_file(tmp_path)
    assert found == Counter({"events/night/planted.py": 1})
    assert over_ceiling(found, 1, web=False) is None
    problem = over_ceiling(found, 0, web=False)
    assert problem is not None and "events/night/planted.py 1" in problem
    assert over_ceiling(found, 0, web=True) is None  # a use case's look-up is not the web's


def test_a_planted_get_by_key_is_caught(tmp_path: Path) -> None:
    """A row read with ``.get("key")`` in a use case counts; a request's header, a ``.get(number)`` and the store's
    own do not."""
    plant(
        tmp_path,
        "night",
        "def code(row, request, found):\n"
        '    return row.get("code"), request.headers.get("host"), found.get(3), row.get("seat", 0)\n',
        'def code(row):\n    return row.get("code")\n',
    )
    found = lookups_by_file(tmp_path, get_lookups)
    assert found == Counter({"events/night/planted.py": 2})
    problem = over_ceiling(found, 0, False, ALLOWED, 'x.get("key")')
    assert problem is not None and "events/night/planted.py 2" in problem
    assert over_ceiling(found, 0, False, {"events/night/planted.py": "a planted reason"}) is None


def test_a_new_get_by_key_in_a_file_with_its_own_ceiling_is_caught(tmp_path: Path) -> None:
    """A file listed with its own ceiling of ``.get("key")`` calls passes at that many; one more read by key in the
    same file is caught, and counted as the one over."""
    reads = ['    scope.get("type")\n', '    scope.get("path")\n', '    row.get("name")\n']
    plant(tmp_path, "web", "def handle(scope, row):\n" + "".join(reads[:2]), "")
    found = lookups_by_file(tmp_path, get_lookups)
    assert over_ceiling(found, 0, True, ALLOWED, 'x.get("key")', {"events/web/planted.py": 2}) is None
    plant(tmp_path, "web", "def handle(scope, row):\n" + "".join(reads), "")
    found = lookups_by_file(tmp_path, get_lookups)
    problem = over_ceiling(found, 0, True, ALLOWED, 'x.get("key")', {"events/web/planted.py": 2})
    assert problem is not None and problem.startswith("1 ") and "events/web/planted.py 1" in problem


def test_a_planted_raw_table_is_caught(tmp_path: Path) -> None:
    """Opening a table raw (``db.table``) or reading the whole file (``db.storage.read``) in a face counts; the
    store's own and a ``records_of`` do not."""
    plant(
        tmp_path,
        "cli",
        "def players(db, store, served):\n"
        '    return db.table(PLAYERS), store.table("players"), db.storage.read(), served.table(3), path.read()\n',
        'def players(db):\n    return db.table("players")\n',
    )
    found = lookups_by_file(tmp_path, raw_tables)
    assert found == Counter({"events/cli/planted.py": 3})
    problem = over_ceiling(found, 0, False, ALLOWED, "db.table()")
    assert problem is not None and "events/cli/planted.py 3" in problem
