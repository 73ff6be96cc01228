"""The layout keeps the architecture: no import circles, the application apart from the terminal.

Imports are read with ``ast`` (lazy imports inside functions count too), so a
circle or a wrong direction is caught before anything runs.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT
from tests.helpers.syntax import nodes, syntax, walk

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
    for node in nodes(path, ast.Import, ast.ImportFrom):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def import_graph(root: Path) -> dict[str, set[str]]:
    modules = module_files(root)
    return {
        name: {other for other in imported_names(path) if other in modules and other != name}
        for name, path in modules.items()
    }


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
    folders = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for package in PACKAGES
        for p in (ROOT / package).rglob("__init__.py")
    }
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
        "events/storage/store.py": "import rich\n",
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
    store = module_files(planted_tree)["events.storage.store"]
    assert "rich" in imported_names(store)
    assert (
        not is_presentation("events.storage.store")
        and is_presentation("events.cli")
        and is_presentation("events.screens.render")
    )


def textual_outside_the_app(root: Path) -> list[str]:
    """Modules that import Textual but are not one of the app's screen modules."""
    return sorted(
        name
        for name, path in module_files(root).items()
        if any(m.split(".")[0] == "textual" for m in imported_names(path)) and not name.startswith(FULL_SCREEN + ".")
    )


def test_textual_is_imported_only_by_the_app_screens(tmp_path: Path):
    assert textual_outside_the_app(ROOT) == []
    assert any(m.startswith("textual") for m in imported_names(ROOT / "events/screens/app/table.py"))
    # a planted fault: a Textual import where the command line loads it
    for name, text in {
        "events/__init__.py": "",
        "events/screens/__init__.py": "",
        "events/screens/practice.py": "import textual\n",
        "events/screens/app/__init__.py": "",
        "events/screens/app/table.py": "from textual.app import App\n",
    }.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert textual_outside_the_app(tmp_path) == ["events.screens.practice"]


# Function-local imports between application modules hide what a module needs; one is allowed only
# where it keeps `cmdraft --help` fast (the reason is said in a comment at the import). The command line
# needs none: its groups are loaded lazily instead (events/cli/root.py), each importing at its top.
LOCAL_IMPORT_ALLOWLIST: set[tuple[str, str]] = set()
# The line prompt and the app's screens still import some modules where they are used.
LAZY_FACES = ("events.screens", "events.__main__")


def local_imports(path: Path, modules: set[str]) -> set[str]:
    """The modules of ``modules`` a file imports inside a function (``from a import b`` gives a, or a.b when that is a module)."""
    found: set[str] = set()
    for node in nodes(path, ast.FunctionDef, ast.AsyncFunctionDef):
        for inner in ast.walk(node):
            if isinstance(inner, ast.Import):
                found |= {alias.name for alias in inner.names if alias.name in modules}
            elif isinstance(inner, ast.ImportFrom) and inner.module and not inner.level and inner.module in modules:
                found.add(inner.module)
    return found


def function_local_imports(root: Path) -> dict[str, list[str]]:
    """For each module of ``events`` (the command line included, the screens not), the modules of the
    three packages it imports inside a function."""
    modules = module_files(root)
    offenders = {}
    for name, path in modules.items():
        if not name.startswith("events") or any(name == f or name.startswith(f + ".") for f in LAZY_FACES):
            continue
        bad = {m for m in local_imports(path, set(modules)) if (name, m) not in LOCAL_IMPORT_ALLOWLIST}
        if bad:
            offenders[name] = sorted(bad)
    return offenders


def test_the_application_and_the_command_line_import_their_modules_at_the_top():
    assert function_local_imports(ROOT) == {}


def test_a_planted_function_local_import_in_the_application_or_the_command_line_is_caught(tmp_path: Path):
    files = {
        "sets/__init__.py": "",
        "sets/cards.py": "",
        "draft/__init__.py": "",
        "events/__init__.py": "",
        "events/night/schema.py": "EVENTS = 'events'\n",
        "events/night/rounds.py": "import json\n\n\ndef f():\n    from events.night.schema import EVENTS\n    import json\n    return EVENTS\n",
        "events/night/games.py": "from events.night.schema import EVENTS\n\n\nclass G:\n    def g(self):\n        import sets.cards\n",
        "events/cli/__init__.py": "def c():\n    from events.night.rounds import f\n",
        "events/cli/event/rounds.py": "from events.night.rounds import f\n\n\ndef c():\n    return f()\n",
        "events/screens/terminal.py": "def t():\n    from events.night.rounds import f\n",  # the screens still may
    }
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert function_local_imports(tmp_path) == {
        "events.cli": ["events.night.rounds"],
        "events.night.games": ["sets.cards"],
        "events.night.rounds": ["events.night.schema"],
    }


def unmapped_modules(root: Path) -> list[str]:
    """The package's modules that ARCHITECTURE.md's layout map doesn't name in the row of their own folder
    (a row whose first cell is `` `sets/` ``, `` `draft/FOLDER/` ``, `` `events/FOLDER/` `` …)."""
    architecture = (root / "ARCHITECTURE.md").read_text(encoding="utf-8")
    layout = architecture.split("## Layout", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in layout.splitlines():
        cells = line.split("|")
        if len(cells) > 2 and cells[1].strip().startswith(tuple(f"`{package}" for package in PACKAGES)):
            folder = cells[1].strip().split("`")[1]
            rows[folder] = rows.get(folder, "") + line
    missing = []
    for path in sorted(p for package in PACKAGES if (root / package).is_dir() for p in (root / package).rglob("*.py")):
        if path.name in ("__init__.py", "__main__.py"):
            continue
        folder = path.parent.relative_to(root).as_posix() + "/"
        if f"`{path.name}`" not in rows.get(folder, ""):
            missing.append(path.relative_to(root).as_posix())
    return missing


def test_the_layout_map_names_every_module_in_its_folders_row():
    assert unmapped_modules(ROOT) == []


def test_a_module_missing_from_the_layout_map_or_named_in_another_folders_row_is_seen(tmp_path: Path):
    for name in ("events/__init__.py", "events/night/rounds.py", "events/night/ledger.py", "events/cli/event.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    (tmp_path / "ARCHITECTURE.md").write_text(
        "# x\n\n## Layout\n\n| where | what |\n|---|---|\n| `events/night/` | `rounds.py` pairs |\n"
        "| `events/` | `event.py` |\n\n## Next\n\n`ledger.py`\n",
        encoding="utf-8",
    )
    assert unmapped_modules(tmp_path) == ["events/cli/event.py", "events/night/ledger.py"]


def test_a_module_of_sets_or_draft_missing_from_the_layout_map_is_seen(tmp_path: Path):
    for name in ("sets/__init__.py", "sets/cards.py", "sets/card_facts.py", "draft/formats/model.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    (tmp_path / "ARCHITECTURE.md").write_text(
        "# x\n\n## Layout\n\n| where | what |\n|---|---|\n| `sets/` | the card (`cards.py`) |\n"
        "| `draft/formats/` | files (`model`) |\n",
        encoding="utf-8",
    )
    assert unmapped_modules(tmp_path) == ["draft/formats/model.py", "sets/card_facts.py"]


# --- no module over 450 lines (issue: a tree a newcomer can read) ----------------------------------------------

MAX_MODULE_LINES = 450
# Modules allowed over the limit: none.  Never add a module here to make the check pass; split it by meaning.
OVER_LENGTH_ALLOWLIST: set[str] = set()


def long_modules(
    root: Path, limit: int = MAX_MODULE_LINES, allowed: set[str] | frozenset[str] = frozenset()
) -> list[str]:
    """The package's modules over ``limit`` lines (those ``allowed`` left out), as ``path (lines)``."""
    found = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            name = path.relative_to(root).as_posix()
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > limit and name not in allowed:
                found.append(f"{name} ({lines})")
    return found


def test_no_module_of_the_package_is_over_450_lines():
    assert long_modules(ROOT, allowed=OVER_LENGTH_ALLOWLIST) == []


def test_the_over_length_allowlist_names_only_modules_that_are_over_length():
    """An allowlisted module that has been split must leave the list (so the list only ever shrinks)."""
    over = {entry.split(" (")[0] for entry in long_modules(ROOT)}
    assert sorted(OVER_LENGTH_ALLOWLIST - over) == []


def test_a_planted_long_module_is_seen(tmp_path: Path):
    files = {
        "sets/cards.py": "x = 1\n" * 451,
        "draft/decks.py": "x = 1\n" * 450,  # exactly at the limit: allowed
        "events/night/rounds.py": "\n" * 600,
        "events/storage/store.py": "x = 1\n" * 500,  # allowlisted
    }
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert long_modules(tmp_path, allowed={"events/storage/store.py"}) == [
        "sets/cards.py (451)",
        "events/night/rounds.py (600)",
    ]


def facade_users(root: Path) -> list[str]:
    """The terminal's modules that import ``events.night.event`` (every use case in one object) instead of a phase module."""
    return sorted(
        name
        for name, path in module_files(root).items()
        if is_presentation(name) and {"events.night.event", "events.night.event.Events"} & imported_names(path)
    )


def test_the_terminal_imports_the_phase_it_needs_not_the_whole_night():
    assert facade_users(ROOT) == []


def test_a_planted_facade_import_in_the_terminal_is_seen(tmp_path: Path):
    files = {
        "sets/__init__.py": "",
        "draft/__init__.py": "",
        "events/__init__.py": "",
        "events/night/event.py": "",
        "events/night/rounds.py": "",
        "events/cli/__init__.py": "",
        "events/cli/event.py": "def core():\n    from events.night.event import Events\n",
        "events/screens/__init__.py": "",
        "events/screens/board.py": "from events.night.rounds import x\n",
    }
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert facade_users(tmp_path) == ["events.cli.event"]


# --- the faces use only the core's public names ----------------------------------------------------------------

FACES = ("events.cli", "events.screens")


def is_face(name: str) -> bool:
    return any(name == face or name.startswith(face + ".") for face in FACES)


def core_private_names(root: Path) -> set[str]:
    """Private names (``_x``, not dunder) that the core's modules define: functions, methods, classes and
    attributes set on ``self`` (the core: every module of ``events`` outside the faces, ``sets``, ``draft``)."""
    names: set[str] = set()
    for name, path in module_files(root).items():
        if is_face(name) or name == "events.__main__":
            continue
        for node in walk(path):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                found = node.name
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                found = node.attr
            else:
                continue
            if found.startswith("_") and not found.startswith("__"):
                names.add(found)
    return names


def private_core_uses(root: Path) -> list[str]:
    """Where a face reaches into the core: ``obj._name`` for a private name the core defines (``self`` and
    ``cls`` are the face's own), or ``from <core module> import _name``."""
    modules = module_files(root)
    private = core_private_names(root)
    found = []
    for name, path in sorted(modules.items()):
        if not is_face(name):
            continue
        for node in walk(path):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                if node.module in modules and not is_face(node.module):
                    found += [
                        f"{name}:{node.lineno} imports {node.module}.{alias.name}"
                        for alias in node.names
                        if alias.name.startswith("_") and not alias.name.startswith("__")
                    ]
            elif isinstance(node, ast.Attribute) and node.attr in private:
                owner = node.value
                if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                    continue
                found.append(f"{name}:{node.lineno} uses .{node.attr}")
    return found


def test_the_faces_use_only_public_names_of_the_core():
    assert private_core_uses(ROOT) == []


def test_a_planted_private_look_up_in_a_face_is_seen(tmp_path: Path):
    files = {
        "sets/__init__.py": "",
        "draft/__init__.py": "",
        "events/__init__.py": "",
        "events/night/__init__.py": "",
        "events/night/base.py": "class EventBase:\n    def _event(self, db, n):\n        self._index = None\n",
        "events/cli/__init__.py": "",
        "events/cli/event.py": "def show(events, db):\n    return events._event(db, 1)\n",
        "events/screens/__init__.py": "",
        "events/screens/board.py": "from events.night.base import _secret\n\n\nclass Board:\n    def _event(self):\n        return self._index\n",
        "events/screens/other.py": "def draw(board):\n    return board.public()\n",
    }
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert private_core_uses(tmp_path) == [
        "events.cli.event:2 uses ._event",
        "events.screens.board:1 imports events.night.base._secret",
    ]


def multiple_inheritance(root: Path) -> list[str]:
    """Classes of the core built on more than one base class (the night's phases are composed, never mixed)."""
    found = []
    for name, path in sorted(module_files(root).items()):
        if not name.startswith("events."):
            continue
        for node in walk(path):
            if isinstance(node, ast.ClassDef) and len(node.bases) > 1:
                found.append(f"{name}.{node.name}")
    return found


def test_no_class_of_the_application_mixes_several_bases():
    assert multiple_inheritance(ROOT) == []


def test_a_planted_class_of_two_phases_is_seen(tmp_path: Path):
    path = tmp_path / "events" / "night" / "event.py"
    path.parent.mkdir(parents=True)
    (tmp_path / "events" / "__init__.py").write_text("", encoding="utf-8")
    path.write_text("class Events(Registration, Rounds):\n    pass\n", encoding="utf-8")
    assert multiple_inheritance(tmp_path) == ["events.night.event.Events"]


# --- faces stay thin: each holds a session, none reaches into another ----------------------------------------


def face_modules(root: Path) -> dict[str, Path]:
    return {name: path for name, path in module_files(root).items() if is_presentation(name)}


def private_name(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def face_private_attributes(root: Path) -> set[str]:
    """The private names the faces' own classes define: methods and ``self._x`` they set."""
    found: set[str] = set()
    for path in face_modules(root).values():
        for node in walk(path):
            if isinstance(node, ast.ClassDef):
                for item in ast.walk(node):
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and private_name(item.name):
                        found.add(item.name)
                    if (
                        isinstance(item, ast.Attribute)
                        and isinstance(item.ctx, ast.Store)
                        and isinstance(item.value, ast.Name)
                        and item.value.id == "self"
                        and private_name(item.attr)
                    ):
                        found.add(item.attr)
    return found


def faces_reaching_into_faces(root: Path) -> list[str]:
    """Where a face module imports another face module's private name (``from events.screens.x import _y``) or
    uses a face object's private member from outside it (``ui._available`` with ``ui`` not ``self``)."""
    faces = face_modules(root)
    private = face_private_attributes(root)
    found = []
    for name, path in sorted(faces.items()):
        for node in walk(path):
            if isinstance(node, ast.ImportFrom) and node.module in faces and node.module != name:
                found += [f"{name}: {node.module}.{a.name}" for a in node.names if private_name(a.name)]
            elif (
                isinstance(node, ast.Attribute)
                and node.attr in private
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls", "super"))
                and not (isinstance(node.value, ast.Call) and getattr(node.value.func, "id", "") == "super")
            ):
                found.append(f"{name}: {ast.unparse(node)} (line {node.lineno})")
    return sorted(found)


def test_no_face_reaches_into_another_face():
    assert faces_reaching_into_faces(ROOT) == []


def test_a_planted_private_import_and_a_private_call_on_a_face_object_are_seen(tmp_path: Path):
    files = {
        "sets/__init__.py": "",
        "draft/__init__.py": "",
        "events/__init__.py": "",
        "events/night/base.py": "class Core:\n    def _player_id(self):\n        return 1\n",
        "events/screens/__init__.py": "",
        "events/screens/builder.py": (
            "class Prompt:\n    def _available(self, card):\n        return self._count\n\n"
            "    def show(self):\n        self._count = 1\n        return self._available(None)\n"
        ),
        "events/screens/app/__init__.py": "",
        "events/screens/app/builder.py": (
            "from events.screens.builder import Prompt, _helper\n\n\n"
            "def refresh(ui, core):\n    core._player_id()\n    return ui._available(None), ui._count\n"
        ),
    }
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert faces_reaching_into_faces(tmp_path) == [
        "events.screens.app.builder: events.screens.builder._helper",
        "events.screens.app.builder: ui._available (line 6)",
        "events.screens.app.builder: ui._count (line 6)",
    ]


def simple_namespaces(root: Path) -> list[str]:
    """Package modules that use ``types.SimpleNamespace`` (an untyped stand-in where a real type belongs)."""
    found = []
    for name, path in sorted(module_files(root).items()):
        for node in walk(path):
            named = (isinstance(node, ast.Name) and node.id == "SimpleNamespace") or (
                isinstance(node, ast.Attribute) and node.attr == "SimpleNamespace"
            )
            imported = isinstance(node, ast.ImportFrom) and any(a.name == "SimpleNamespace" for a in node.names)
            if named or imported:
                found.append(f"{name} (line {node.lineno})")
    return found


def test_no_simple_namespace_in_package_code():
    assert simple_namespaces(ROOT) == []


def test_a_planted_simple_namespace_is_seen(tmp_path: Path):
    files = {
        "sets/__init__.py": "",
        "draft/__init__.py": "import types\n\nFAKE = types.SimpleNamespace(pools=[])\n",
        "events/__init__.py": "",
        "events/screens/pool.py": "def f():\n    from types import SimpleNamespace\n\n    return SimpleNamespace(doc={})\n",
    }
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert simple_namespaces(tmp_path) == [
        "draft (line 3)",
        "events.screens.pool (line 2)",
        "events.screens.pool (line 4)",
    ]


# --- a name is imported from the module that defines it ------------------------------------------------------

# A module that imports a name only passes it on; importing it from there hides where it lives. A package's
# __init__ may gather its modules' names (draft.formats does).
PASSED_ON_ALLOWLIST: set[tuple[str, str, str]] = set()


def imports_of_passed_on_names(root: Path) -> list[str]:
    """``from M import name`` where M is a module (not a package's __init__) that itself imports ``name``."""
    modules = module_files(root)
    trees = {name: syntax(path) for name, path in modules.items()}
    passed_on: dict[str, dict[str, str]] = {}
    for name, tree in trees.items():
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module in modules and not node.level:
                for alias in node.names:
                    passed_on.setdefault(name, {})[alias.asname or alias.name] = node.module
    found = []
    for name, _ in sorted(trees.items()):
        for node in nodes(modules[name], ast.ImportFrom):
            if not (isinstance(node, ast.ImportFrom) and node.module in passed_on and not node.level):
                continue
            if modules[node.module].name == "__init__.py":
                continue
            for alias in node.names:
                origin = passed_on[node.module].get(alias.name)
                if origin and (name, node.module, alias.name) not in PASSED_ON_ALLOWLIST:
                    found.append(f"{name} imports {alias.name} from {node.module} (defined in {origin})")
    return found


def test_every_name_is_imported_from_the_module_that_defines_it():
    assert imports_of_passed_on_names(ROOT) == []


def test_a_planted_import_through_a_passing_module_is_seen(tmp_path: Path):
    files = {
        "sets/__init__.py": "",
        "sets/cards.py": "class Card:\n    pass\n",
        "sets/catalog.py": "from sets.cards import Card\n\n\ndef load(): ...\n",
        "draft/__init__.py": "from draft.decks import Deck\n",  # a package gathering its names: allowed
        "draft/decks.py": "from sets.catalog import Card, load\n\n\nclass Deck:\n    pass\n",
        "events/__init__.py": "",
        "events/cli.py": "from draft import Deck\nfrom sets.cards import Card\n",
    }
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert imports_of_passed_on_names(tmp_path) == [
        "draft.decks imports Card from sets.catalog (defined in sets.cards)"
    ]


# --- storage below the night: the store never imports the night's use cases ----------------------------------------


def storage_imports_of_the_night(root: Path) -> dict[str, list[str]]:
    """The modules of events/storage that import a module of events/night (the night's use cases build on storage,
    never the other way round)."""
    found = {}
    for name, targets in import_graph(root).items():
        if name == "events.storage" or name.startswith("events.storage."):
            night = sorted(t for t in targets if t == "events.night" or t.startswith("events.night."))
            if night:
                found[name] = night
    return found


def test_storage_never_imports_the_night():
    assert storage_imports_of_the_night(ROOT) == {}


def test_a_planted_import_of_the_night_in_storage_is_seen(tmp_path: Path):
    files = {
        "events/__init__.py": "",
        "events/night/__init__.py": "",
        "events/night/history.py": "from events.storage.store import Store\n",
        "events/storage/__init__.py": "",
        "events/storage/store.py": "import json\n",
        "events/storage/transfer.py": "from events.night.history import log_change\nfrom events.storage import store\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert storage_imports_of_the_night(tmp_path) == {"events.storage.transfer": ["events.night.history"]}


# --- the faces ask the core: never the storage below it ----------------------------------------------------------

# The faces: the terminal's (typer commands, rich and Textual screens, ``python -m events``) and the browser's.
ALL_FACES = (*PRESENTATION, "events.web")


def face_imports_of_storage(root: Path) -> dict[str, list[str]]:
    """The modules of the faces that import a module of ``events.storage`` (anywhere in the file): a face asks
    ``events.night``, ``events.sessions`` or ``events.outputs``, which take what they need from storage."""
    found = {}
    for name, path in module_files(root).items():
        if not any(name == face or name.startswith(face + ".") for face in ALL_FACES):
            continue
        storage = sorted(m for m in imported_names(path) if m == "events.storage" or m.startswith("events.storage."))
        if storage:
            found[name] = storage
    return found


def test_the_faces_never_import_storage():
    assert face_imports_of_storage(ROOT) == {}


def test_a_planted_import_of_storage_in_each_face_is_seen(tmp_path: Path):
    files = {
        "events/__init__.py": "",
        "events/storage/__init__.py": "",
        "events/storage/store.py": "class Store:\n    pass\n",
        "events/night/__init__.py": "from events.storage.store import Store\n",  # the core may pass it on
        "events/cli/__init__.py": "",
        "events/cli/common.py": "from events.night import Store\n",
        "events/cli/play.py": "def f():\n    import events.storage.store\n",
        "events/screens/__init__.py": "",
        "events/screens/render.py": "from events.storage import store\n",
        "events/web/__init__.py": "",
        "events/web/app.py": "from events.storage.store import Store\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert face_imports_of_storage(tmp_path) == {
        "events.cli.play": ["events.storage.store"],
        "events.screens.render": ["events.storage", "events.storage.store"],
        "events.web.app": ["events.storage.store", "events.storage.store.Store"],
    }


# --- the faces hold the core's handles: no storage object even through a re-export --------------------------------

# The records are the typed values the night's use cases answer with (issue 39: use cases take and return them): a
# face shows them and may name them.  Everything else defined in events/storage (the store, the draft's file and its
# session, a pool's build, the journal, the checks) stays below the core.
RECORD_MODULES = ("events.storage.records", "events.storage.record_parts")


def is_storage(module: str) -> bool:
    return module == "events.storage" or module.startswith("events.storage.")


def top_level_bindings(tree: ast.Module) -> dict[str, tuple[str, str | None]]:
    """What a module's own names are (at its top, or under an ``if`` such as ``TYPE_CHECKING``): ``name -> (module,
    attribute)``, an import ``from M import a as name`` being ``(M, "a")``, ``import M as name`` ``(M, None)``; a
    name the module defines itself is left out."""
    bound: dict[str, tuple[str, str | None]] = {}
    nodes = list(tree.body)
    while nodes:
        node = nodes.pop(0)
        if isinstance(node, ast.If):
            nodes += [*node.body, *node.orelse]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                bound[alias.asname or alias.name] = (node.module, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    bound[alias.asname] = (alias.name, None)
    return bound


def origin_of(module: str, name: str, modules: dict[str, Path], seen: frozenset[str] = frozenset()) -> str:
    """The module that defines ``name`` as ``module`` offers it, following every re-export (``from M import name``
    in ``module``, its ``__init__`` or not) to the module that really defines it; a submodule of that name gives
    the submodule itself; a name from outside the three packages gives the outside module."""
    if f"{module}.{name}" in modules and name not in top_level_bindings(syntax(modules[module])):
        return f"{module}.{name}"
    if module not in modules or module in seen:
        return module
    bound = top_level_bindings(syntax(modules[module])).get(name)
    if bound is None:
        return module  # defined here
    source, attribute = bound
    return source if attribute is None else origin_of(source, attribute, modules, seen | {module})


def storage_names_in_faces(root: Path) -> list[str]:
    """Every name a face imports (anywhere in the file) or reads off an imported module (``night.Store``) that is
    defined in ``events.storage`` outside the records, however many modules passed it on: ``face: name (origin)``."""
    modules = module_files(root)
    found = []
    for name, path in sorted(modules.items()):
        if not any(name == face or name.startswith(face + ".") for face in ALL_FACES):
            continue
        named: set[tuple[str, str]] = set()  # (module offering it, name)
        aliases: dict[str, str] = {}  # a local name of a module of the packages -> that module
        for node in nodes(path, ast.ImportFrom, ast.Import):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    named.add((node.module, alias.name))
                    if f"{node.module}.{alias.name}" in modules:
                        aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    aliases[alias.asname or alias.name.split(".")[0]] = (
                        alias.asname and alias.name or alias.name.split(".")[0]
                    )
        for node in nodes(path, ast.Attribute):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
                named.add((aliases[node.value.id], node.attr))
        for module, attribute in sorted(named):
            origin = origin_of(module, attribute, modules)
            if is_storage(origin) and origin not in RECORD_MODULES and f"{module}.{attribute}" != origin:
                found.append(f"{name}: {attribute} ({origin})")
    return found


def test_no_face_names_a_storage_object_even_through_a_re_export():
    assert storage_names_in_faces(ROOT) == []


def test_a_planted_storage_name_reaching_a_face_through_re_exports_is_seen(tmp_path: Path):
    files = {
        "events/__init__.py": "",
        "events/storage/__init__.py": "",
        "events/storage/store.py": "class Store:\n    pass\n",
        "events/storage/records.py": "class Event:\n    pass\n",
        "events/storage/draft_files.py": "class TableSession:\n    pass\n\n\ndef journal_file():\n    pass\n",
        "events/night/__init__.py": "from events.storage.records import Event\nfrom events.storage.store import Store\n",
        "events/night/base.py": "from events.storage.store import Store\n\n\nclass EventBase:\n    pass\n",
        "events/sessions/__init__.py": "from events.sessions.relay import Table as DraftTable\n",
        "events/sessions/relay.py": "from events.storage.draft_files import TableSession as Table, journal_file\n",
        "events/sessions/table.py": "from typing import Protocol\n\n\nclass DraftTable(Protocol):\n    pass\n",
        "events/cli/__init__.py": "",
        "events/cli/common.py": "from events.night import Event, Store\nfrom events.night.base import EventBase\n",
        "events/screens/__init__.py": "",
        "events/screens/practice.py": (
            "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from events.sessions import DraftTable\n"
            "from events.sessions.table import DraftTable as Table\n"
        ),
        "events/web/__init__.py": "",
        "events/web/api_common.py": "from events.sessions import relay\nimport events.night as night\n\n\n"
        "def f():\n    return relay.journal_file(), night.Store, night.Event\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert storage_names_in_faces(tmp_path) == [
        "events.cli.common: Store (events.storage.store)",
        "events.screens.practice: DraftTable (events.storage.draft_files)",
        "events.web.api_common: Store (events.storage.store)",
        "events.web.api_common: journal_file (events.storage.draft_files)",
    ]


def store_reads_in_faces(root: Path) -> list[str]:
    """Where a face reads the store behind a phase of the night (``events.store``, ``self.drafting.store``): a face
    asks the phase (``EventBase.path``, ``EventBase.phase``) instead."""
    found = []
    for name, path in sorted(module_files(root).items()):
        if any(name == face or name.startswith(face + ".") for face in ALL_FACES):
            found += [
                f"{name}:{node.lineno} {ast.unparse(node)}"
                for node in walk(path)
                if isinstance(node, ast.Attribute) and node.attr == "store"
            ]
    return found


def test_no_face_reads_the_store_behind_a_phase():
    assert store_reads_in_faces(ROOT) == []


def test_a_planted_read_of_the_store_behind_a_phase_is_seen(tmp_path: Path):
    files = {
        "events/__init__.py": "",
        "events/night/base.py": "class EventBase:\n    def __init__(self, store):\n        self.store = store\n",
        "events/cli/__init__.py": "",
        "events/cli/serve.py": "def serve(events):\n    return events.path, events.store.path\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert store_reads_in_faces(tmp_path) == ["events.cli.serve:2 events.store"]


# --- every route of the web declares who may ask --------------------------------------------------------------------

# Starlette's route classes and the declaration itself: made only by events/web/endpoints.py's group helpers (page,
# public, door, seat_get, seat_post, seat_stream, desk_get, desk_post …), each wrapping its handler in its audience's check.
ROUTE_MAKERS = {"Route", "WebSocketRoute", "Mount", "Host", "Router", "Endpoint"}
ROUTE_GROUPS = "events.web.endpoints"


def undeclared_routes(root: Path) -> list[str]:
    """Where a module of ``events.web`` other than the group helpers' builds a route itself (``Route(...)``,
    ``Endpoint(...)``, ``app.add_route``, ``@app.route``): a route whose authentication nobody declared."""
    found = []
    for name, path in sorted(module_files(root).items()):
        if not name.startswith("events.web") or name == ROUTE_GROUPS:
            continue
        for node in walk(path):
            if not isinstance(node, ast.Call):
                continue
            called = node.func
            label = (
                called.id if isinstance(called, ast.Name) else called.attr if isinstance(called, ast.Attribute) else ""
            )
            if label in ROUTE_MAKERS or label in (
                "add_route",
                "add_websocket_route",
                "route",
                "websocket_route",
                "mount",
            ):
                found.append(f"{name}:{node.lineno} {label}")
    return found


def test_every_route_of_the_web_is_made_by_a_group_that_declares_its_authentication():
    assert undeclared_routes(ROOT) == []
    assert "Route(" in (ROOT / "events/web/endpoints.py").read_text(encoding="utf-8")  # the helpers do build them


def test_a_planted_route_without_declared_authentication_is_seen(tmp_path: Path):
    files = {
        "events/__init__.py": "",
        "events/web/__init__.py": "",
        "events/web/endpoints.py": "from starlette.routing import Route\n\n\ndef seat_get(path, handler):\n    return Route(path, handler)\n",
        "events/web/desk.py": (
            "from starlette.routing import Route\n\nfrom events.web.endpoints import desk_get\n\n\n"
            "ENDPOINTS = [\n    desk_get('/api/desk', get_desk),\n    Route('/api/desk/secret', secret),\n]\n"
        ),
        "events/web/app.py": "def create_app(app):\n    app.add_route('/api/open', handler)\n",
        "events/web/room.py": "from events.web.endpoints import Endpoint\n\nROOM = Endpoint('GET', '/api/room', None, '')\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert undeclared_routes(tmp_path) == [
        "events.web.app:2 add_route",
        "events.web.desk:8 Route",
        "events.web.room:3 Endpoint",
    ]


# --- one owner: a function is defined once ----------------------------------------------------------------------


def functions_defined_twice(root: Path) -> list[list[str]]:
    """Top-level functions of the three packages whose code is the same, docstring aside, defined in more than one
    place (``module.name``): the same rule with two owners, which drift apart the day one of them changes."""
    found: dict[str, list[str]] = {}
    for module, path in sorted(module_files(root).items()):
        for node in syntax(path).body:
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                body = body[1:]
            shape = ast.dump(node.args) + "".join(ast.dump(statement) for statement in body)
            found.setdefault(f"{node.name}:{shape}", []).append(f"{module}.{node.name}")
    return [places for places in found.values() if len(places) > 1]


def test_no_function_is_defined_twice():
    assert functions_defined_twice(ROOT) == []


def test_a_planted_second_definition_is_seen(tmp_path: Path):
    files = {
        "events/__init__.py": "",
        "events/storage/__init__.py": "",
        "events/storage/database_file.py": 'def db_option(path):\n    return f" --db {path}"\n',
        "events/night/__init__.py": "",
        "events/night/opening.py": 'def db_option(path):\n    """The --db to type again."""\n    return f" --db {path}"\n',
        "events/night/other.py": 'def db_option(path):\n    return f" --database {path}"\n',
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert functions_defined_twice(tmp_path) == [
        ["events.night.opening.db_option", "events.storage.database_file.db_option"]
    ]
