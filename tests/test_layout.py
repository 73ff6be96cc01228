"""The layout keeps the architecture: no import circles, the application apart from the terminal.

Imports are read with ``ast`` (lazy imports inside functions count too), so a
circle or a wrong direction is caught before anything runs.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sets", "draft", "events")
# The application: storage and use cases. The terminal (typer commands, rich screens) lives in these two.
PRESENTATION = ("events.cli", "events.screens", "events.__main__")  # __main__: `python -m events` runs the CLI
UI_LIBRARIES = {"typer", "click", "rich", "textual"}
# Textual only in the full-screen app's screens, never where `cmdraft --help` passes (its __init__ imports them lazily).
FULL_SCREEN = "events.screens.app"


def module_files(root: Path) -> dict[str, Path]:
    """Every module of the three packages by dotted name (a package by its own name)."""
    modules = {}
    for package in PACKAGES:
        for path in (root / package).rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            modules[name] = path
    return modules


def imported_names(path: Path) -> set[str]:
    """Every absolute module name a file imports, anywhere in it (``from a import b`` gives a and a.b)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def import_graph(root: Path) -> dict[str, set[str]]:
    modules = module_files(root)
    return {name: {other for other in imported_names(path) if other in modules and other != name}
            for name, path in modules.items()}


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return circles


def is_presentation(module: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in PRESENTATION)


def test_no_import_circles_anywhere():
    assert import_circles(import_graph(ROOT)) == []


def test_the_application_never_imports_the_terminal():
    offenders = {}
    for name, path in module_files(ROOT).items():
        if not name.startswith("events") or is_presentation(name):
            continue
        imported = imported_names(path)
        bad = {m for m in imported if m.split(".")[0] in UI_LIBRARIES or is_presentation(m)}
        if bad:
            offenders[name] = sorted(bad)
    assert offenders == {}


def test_every_layer_imports_only_downwards():
    allowed = {"sets": {"sets"}, "draft": {"sets", "draft"}, "events": {"sets", "draft", "events"}}
    for name, targets in import_graph(ROOT).items():
        layer = name.split(".")[0]
        assert {t.split(".")[0] for t in targets} <= allowed[layer], name


def test_every_package_folder_is_installed():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    folders = {".".join(p.parent.relative_to(ROOT).parts) for package in PACKAGES for p in (ROOT / package).rglob("__init__.py")}
    assert folders <= listed


@pytest.fixture
def planted_tree(tmp_path: Path) -> Path:
    """A tiny tree with the faults the checks must catch."""
    files = {
        "sets/__init__.py": "",
        "sets/a.py": "from sets.b import thing\n",
        "sets/b.py": "def f():\n    from sets.c import other\n",  # a lazy import closes the circle
        "sets/c.py": "import sets.a\n",
        "draft/__init__.py": "",
        "events/__init__.py": "",
        "events/store.py": "import rich\n",
        "events/cli/__init__.py": "",
    }
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def test_a_planted_circle_is_found(planted_tree: Path):
    assert import_circles(import_graph(planted_tree)) == [["sets.a", "sets.b", "sets.c"]]


def test_a_planted_two_module_circle_and_a_clean_tree():
    assert import_circles({"x": {"y"}, "y": {"x"}, "z": {"x"}}) == [["x", "y"]]
    assert import_circles({"x": {"y"}, "y": {"z"}, "z": set()}) == []


def test_a_planted_terminal_import_in_the_application_is_seen(planted_tree: Path):
    store = module_files(planted_tree)["events.store"]
    assert "rich" in imported_names(store)
    assert not is_presentation("events.store") and is_presentation("events.cli") and is_presentation("events.screens.render")


def textual_outside_the_app(root: Path) -> list[str]:
    """Modules that import Textual but are not one of the app's screen modules."""
    return sorted(name for name, path in module_files(root).items()
                  if any(m.split(".")[0] == "textual" for m in imported_names(path)) and not name.startswith(FULL_SCREEN + "."))


def test_textual_is_imported_only_by_the_app_screens(tmp_path: Path):
    assert textual_outside_the_app(ROOT) == []
    assert any(m.startswith("textual") for m in imported_names(ROOT / "events/screens/app/table.py"))
    # a planted fault: a Textual import where the command line loads it
    for name, text in {"events/__init__.py": "", "events/screens/__init__.py": "", "events/screens/practice.py": "import textual\n",
                       "events/screens/app/__init__.py": "", "events/screens/app/table.py": "from textual.app import App\n"}.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert textual_outside_the_app(tmp_path) == ["events.screens.practice"]
