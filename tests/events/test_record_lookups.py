"""Records travel typed: a TinyDB dict is read by key (``row["name"]``) only where the store reads and writes it
(``events/storage``).  Everywhere else in ``events/`` the use cases pass record types (``events.storage.records``)
and read their fields as attributes, so the count of ``x["key"]`` look-ups outside the store may only go down.

Each file that keeps look-ups for a real reason (a JSON file a user gives, a payload from a browser) is listed
with the reason; the ceiling counts the rest."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Look-ups by key outside the store, not yet typed (issue #39): the ceiling only goes down.
CEILING = 0
# events/web is reshaped by its own change (issue #39, items 3 and 6): its count, kept apart, only goes down too.
WEB_CEILING = 0

# Files whose look-ups read dicts that are not the store's records, with the reason.
ALLOWED: dict[str, str] = {
    "events/night/transfer.py": "an export file, which a user gives to 'event restore', is whole tables of plain JSON: "
    "read, renumbered and checked as it lies before the store's checks read it as records",
    "events/web/bodies.py": 'a type, not a look-up: the stream\'s pick is ``Literal["pick"]``',
}


def key_lookups(source: str) -> int:
    """How many ``x["key"]`` subscripts (a string constant as the key) a module's source holds."""
    return sum(
        1
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
    )


def lookups_by_file(root: Path) -> Counter[str]:
    """Look-ups by key in every module of ``root/events`` outside ``events/storage``, by path (``events/...``)."""
    found: Counter[str] = Counter()
    for path in sorted((root / "events").rglob("*.py")):
        name = path.relative_to(root).as_posix()
        if name.startswith("events/storage/"):
            continue
        count = key_lookups(path.read_text(encoding="utf-8"))
        if count:
            found[name] = count
    return found


def over_ceiling(found: Counter[str], ceiling: int, web: bool) -> str | None:
    """What is wrong with ``found`` against ``ceiling`` (the web's files or the rest), or None."""
    counted = {
        name: count for name, count in found.items() if name not in ALLOWED and name.startswith("events/web/") == web
    }
    total = sum(counted.values())
    if total <= ceiling:
        return None
    worst = ", ".join(f"{name} {count}" for name, count in sorted(counted.items(), key=lambda item: -item[1])[:8])
    return (
        f"{total} look-ups by key outside events/storage, more than {ceiling}: pass the record types "
        f"(events.storage.records) and read their fields, or list the file in ALLOWED with its reason ({worst})"
    )


def test_use_cases_read_records_by_field_not_by_key() -> None:
    assert over_ceiling(lookups_by_file(ROOT), CEILING, web=False) is None


def test_web_reads_records_by_field_not_by_key() -> None:
    assert over_ceiling(lookups_by_file(ROOT), WEB_CEILING, web=True) is None


def test_every_allowed_file_still_exists_and_says_why() -> None:
    for name, reason in ALLOWED.items():
        assert (ROOT / name).is_file(), name
        assert len(reason.split()) >= 4, name


def test_a_planted_lookup_is_caught(tmp_path: Path) -> None:
    """A dict read by key in a use case counts; the same in the store does not."""
    (tmp_path / "events" / "night").mkdir(parents=True)
    (tmp_path / "events" / "storage").mkdir(parents=True)
    (tmp_path / "events" / "night" / "planted.py").write_text(
        'def name(row):\n    return row["name"] + row.name + str(row[0])\n', encoding="utf-8"
    )
    (tmp_path / "events" / "storage" / "kept.py").write_text('def name(row):\n    return row["name"]\n')
    found = lookups_by_file(tmp_path)
    assert found == Counter({"events/night/planted.py": 1})
    assert over_ceiling(found, 1, web=False) is None
    problem = over_ceiling(found, 0, web=False)
    assert problem is not None and "events/night/planted.py 1" in problem
    assert over_ceiling(found, 0, web=True) is None  # a use case's look-up is not the web's
