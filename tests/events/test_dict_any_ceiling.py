"""Use cases take and answer typed values: a plain ``dict[str, Any]`` in the night's use cases, the sessions and the
outputs (``events/night``, ``events/sessions``, ``events/outputs``) is a shape no type checker reads, so the count
of lines naming one may only go down (issue #39, item 1).  What is left is mostly a value's JSON form
(``to_json``); an export file's plain tables are the store's (``events/storage/transfer.py``)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("events/night", "events/sessions", "events/outputs")

# Lines naming ``dict[str, Any]`` in FOLDERS: 64 before the core's views were typed, 45 before an export file's tables
# moved into the store, 28 before ``log_change`` took a typed undo note; the ceiling only goes down.
CEILING = 27


def dict_any_lines(root: Path) -> Counter[str]:
    """How many lines name ``dict[str, Any]`` in each module of FOLDERS under ``root``, by path."""
    found: Counter[str] = Counter()
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            count = sum("dict[str, Any]" in line for line in path.read_text(encoding="utf-8").splitlines())
            if count:
                found[path.relative_to(root).as_posix()] = count
    return found


def over_ceiling(found: Counter[str], ceiling: int) -> str | None:
    """What is wrong with ``found`` against ``ceiling``, or None."""
    total = sum(found.values())
    if total <= ceiling:
        return None
    worst = ", ".join(f"{name} {count}" for name, count in found.most_common(8))
    return (
        f"{total} lines with dict[str, Any] in the use cases, more than {ceiling}: take and answer a record or a "
        f"small value type (msgspec struct or frozen dataclass) instead ({worst})"
    )


def test_use_cases_take_and_answer_typed_values_not_plain_dicts() -> None:
    assert over_ceiling(dict_any_lines(ROOT), CEILING) is None


def test_a_planted_plain_dict_is_caught(tmp_path: Path) -> None:
    """A use case answering ``dict[str, Any]`` counts (once a line); the same in the web or the store does not."""
    for folder in ("events/night", "events/web", "events/storage"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "planted.py").write_text(
            "from typing import Any\n\n\ndef view() -> dict[str, Any]:\n    shown: dict[str, Any] = {}\n"
            "    return shown\n",
            encoding="utf-8",
        )
    found = dict_any_lines(tmp_path)
    assert found == Counter({"events/night/planted.py": 2})
    assert over_ceiling(found, 2) is None
    problem = over_ceiling(found, 1)
    assert problem is not None and "events/night/planted.py 2" in problem
