"""The suite's own promises (CONTRIBUTING.md): parallel by default, sweeps sampled and full on demand."""

from __future__ import annotations

import ast
import io
import os
import re
import subprocess
import sys
import tokenize
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests import conftest, long_first
from tests.helpers.paths import ROOT
from tests.helpers.sweeps import examples
from tests.helpers.syntax import nodes, syntax


def test_the_readme_command_runs_in_parallel_with_the_test_extras():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    options = project["tool"]["pytest"]["ini_options"]["addopts"].split()
    assert options[options.index("-n") + 1] == "auto" and "--dist" in options
    extras = " ".join(project["project"]["optional-dependencies"]["test"])
    assert "pytest-xdist" in extras and "pytest-cov" in extras


def test_two_workers_per_core_unless_told_otherwise(monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert conftest.pytest_xdist_auto_num_workers(None) == 2 * cores
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "3")
    assert conftest.pytest_xdist_auto_num_workers(None) is None  # pytest-xdist's own hook reads the number


class FolderCache:
    """pytest's cache as the bytecode folder uses it: ``mkdir(name)`` gives a folder of its own."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def mkdir(self, name: str) -> Path:
        folder = self.root / "d" / name
        folder.mkdir(parents=True, exist_ok=True)
        return folder


@pytest.mark.slow
def test_without_bytecode_beside_the_sources_the_processes_share_it_in_pytests_cache(tmp_path):
    """In a process of its own: a module imported where PYTHONDONTWRITEBYTECODE is set leaves its bytecode in the
    cache's folder, none beside its source, and the next process reads it from there."""
    cache = FolderCache(tmp_path / "cache")
    # The main process of a run where no bytecode may be written (this test itself may run in a worker of one).
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPYCACHEPREFIX", "PYTEST_XDIST_WORKER")}
    environ["PYTHONDONTWRITEBYTECODE"] = "1"
    folder = conftest.shared_bytecode(environ, True, cache)
    assert folder == str(tmp_path / "cache" / "d" / "bytecode")
    assert environ["PYTHONPYCACHEPREFIX"] == folder and "PYTHONDONTWRITEBYTECODE" not in environ
    source = tmp_path / "src"
    source.mkdir()
    (source / "plain_module.py").write_text("VALUE = 7\n", encoding="utf-8")
    run = [sys.executable, "-c", "import plain_module, sys; print(plain_module.VALUE, plain_module.__cached__)"]
    for _ in range(2):
        done = subprocess.run(run, capture_output=True, text=True, cwd=source, env=environ, timeout=60)
        assert done.returncode == 0, done.stderr
        value, cached = done.stdout.split()
        assert value == "7" and cached.startswith(folder) and Path(cached).is_file()
    assert not (source / "__pycache__").exists()
    # Nothing to do where bytecode may be written, where a folder is already chosen, or in a worker.
    assert conftest.shared_bytecode({}, False, cache) is None
    assert conftest.shared_bytecode({"PYTHONPYCACHEPREFIX": "/elsewhere"}, True, cache) is None
    assert conftest.shared_bytecode({"PYTEST_XDIST_WORKER": "gw1"}, True, cache) is None


@pytest.mark.slow
def test_a_new_bytecode_folder_links_the_installed_packages_bytecode_and_python_reads_it(tmp_path):
    """In a process of its own: a library module whose bytecode lies beside it (as installers leave it) is read
    through the folder's link, not compiled again; its optimized bytecode is left out; a second seeding does
    nothing."""
    library = tmp_path / "site-packages"
    (library / "installed_package").mkdir(parents=True)
    source = library / "installed_package" / "__init__.py"
    source.write_text("VALUE = 11\n", encoding="utf-8")
    import py_compile

    # Where an installer writes it (named outright: this process may itself keep its bytecode in a folder).
    tag = sys.implementation.cache_tag
    beside = source.parent / "__pycache__" / f"__init__.{tag}.pyc"
    py_compile.compile(str(source), cfile=str(beside), doraise=True)
    py_compile.compile(str(source), cfile=str(beside.with_name(f"__init__.{tag}.opt-1.pyc")), doraise=True, optimize=1)
    folder = tmp_path / "bytecode"
    folder.mkdir()
    assert conftest.seed_bytecode(str(folder), [str(library), str(library / "installed_package")]) == 1
    link = folder / str(beside.parent.parent).lstrip(os.sep) / beside.name
    assert link.is_symlink() and link.resolve() == beside.resolve()
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    environ |= {"PYTHONPYCACHEPREFIX": str(folder), "PYTHONPATH": str(library)}
    run = [sys.executable, "-c", "import installed_package as p, sys; print(p.VALUE, p.__cached__)"]
    done = subprocess.run(run, capture_output=True, text=True, env=environ, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["11", str(link)]
    assert link.is_symlink()  # read, not written again (a stale one would have been replaced by a file)
    assert conftest.seed_bytecode(str(folder), [str(library)]) == 0


def test_a_passed_tests_folder_goes_when_it_ends_and_a_failed_ones_stays():
    """Each passed test's tmp_path is removed as it ends, in its worker; a fully passed run leaves no folder for a
    later run to delete at its exit (pytest removes all but the last three runs' folders there, which held some 25,000
    files each and took 15-65 s on a busy disk after the summary line)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["tool"]["pytest"]["ini_options"]["tmp_path_retention_policy"] == "failed"


def test_ci_shows_the_slowest_tests_and_checks_the_users_folder_is_left_alone():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'PYTEST_ADDOPTS="--durations=15"' in ci
    assert "chmod -R a-w" in ci and "CMDRAFT_HOME=" in ci and "XDG_DATA_HOME=" in ci and "diff" in ci


@pytest.mark.slow
def test_fuzzers_try_a_quarter_here_and_every_example_on_demand():
    """In a process of its own: the full count is read from the environment when the module is first imported."""
    assert examples(60) == 15 and examples(8) == 5
    shown = subprocess.run(
        [sys.executable, "-c", "from tests.helpers.sweeps import examples; print(examples(60))"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "CMDRAFT_FULL_SWEEPS": "1"},
        timeout=60,
    )
    assert shown.stdout.strip() == "60", shown.stderr


def test_the_contributors_guide_lists_the_full_sweeps():
    guide = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert "`python -m tests.sweeps`" in guide and "python -m tests.hostile" in guide


def imports_of_test_modules(root: Path) -> list[str]:
    """``file: module`` for every import, anywhere under ``root``'s tests/, of a test module (``test_*``): what tests
    share lives in tests/helpers or in a conftest.py, never in another test file."""
    found = []
    for path in sorted((root / "tests").rglob("*.py")):
        for node in nodes(path, ast.Import, ast.ImportFrom):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            names += [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            found += [
                f"{path.relative_to(root).as_posix()}: {name}"
                for name in names
                if any(part.startswith("test_") for part in name.split("."))
            ]
    return found


def test_no_test_file_imports_another():
    assert imports_of_test_modules(ROOT) == []


def test_a_planted_import_of_a_test_module_is_seen(tmp_path: Path):
    (tmp_path / "tests" / "web").mkdir(parents=True)
    (tmp_path / "tests" / "helpers.py").write_text("from tests.helpers.night import Night\n", encoding="utf-8")
    (tmp_path / "tests" / "web" / "test_a.py").write_text(
        "import json\nfrom tests.events.test_store import acks\n", encoding="utf-8"
    )
    (tmp_path / "tests" / "test_b.py").write_text("import tests.test_layout\n", encoding="utf-8")
    assert imports_of_test_modules(tmp_path) == [
        "tests/test_b.py: tests.test_layout",
        "tests/web/test_a.py: tests.events.test_store",
    ]


def test_the_end_to_end_folder_is_the_slow_one():
    assert conftest.is_end_to_end(ROOT / "tests" / "e2e" / "test_play.py")
    assert not conftest.is_end_to_end(ROOT / "tests" / "events" / "test_store.py")
    assert not conftest.is_end_to_end(ROOT / "tests" / "test_e2e_like_name.py")


@pytest.mark.slow
def test_not_slow_leaves_out_every_end_to_end_test():
    """In a process of its own: pytest collects with ``-m "not slow"`` as a contributor's fast loop does, the whole
    end-to-end folder and a module beside it that holds a test marked ``slow`` by hand (collecting every other module
    too took seconds and could show nothing more: the mark comes from a test's folder or its own decorator)."""
    modules = ["tests/e2e", "tests/events/test_store.py"]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-n",
            "0",
            "-p",
            "no:cacheprovider",
            "-m",
            "not slow",
            *modules,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    ids = [line for line in done.stdout.splitlines() if "::" in line]
    assert ids and not [i for i in ids if i.startswith("tests/e2e/")]
    assert int(re.search(r"(\d+) deselected", done.stdout)[1]) > 300  # the end-to-end tests were there to leave out
    assert "tests/events/test_store.py::test_random_kills_never_corrupt_stick_or_lose_a_pick" not in ids


def test_ci_checks_the_types_of_sets_and_draft_strictly_before_the_tests():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mypy = project["tool"]["mypy"]
    assert {"sets", "draft"} <= set(mypy["files"])
    assert (
        mypy["check_untyped_defs"]
        and mypy["disallow_untyped_defs"]
        and "ignore-without-code" in mypy["enable_error_code"]
    )
    core = [o for o in mypy.get("overrides", []) if {"sets.*", "draft.*"} <= set(o["module"])]
    assert core and core[0]["disallow_any_generics"]  # the core's generics name what they hold
    assert [dep for dep in project["project"]["optional-dependencies"]["test"] if dep.startswith("mypy==")]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert ci.index("mypy") < next(i for i, line in enumerate(ci) if "python -m pytest" in line)


IGNORE = re.compile(r"type:\s*ignore\b(?P<code>\[[^\]]+\])?(?P<rest>.*)")


def ignores_without_reason(source: str) -> list[int]:
    """The lines of a module's source whose ``type: ignore`` comment does not name its error code AND say why on
    the same line (``# type: ignore[override]  # uvicorn narrows ...``): a reason on the line above is not beside
    the ignore it explains.  Comments only: a string that mentions an ignore is not one."""
    lines: list[int] = []
    if not IGNORE.search(source):  # no such comment anywhere: nothing to tokenize
        return lines
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        found = IGNORE.search(token.string) if token.type == tokenize.COMMENT else None
        if found is None:
            continue
        reason = found["rest"].strip()
        if not found["code"] or not reason.startswith("#") or len(reason.lstrip("# ").split()) < 3:
            lines.append(token.start[0])
    return lines


def test_every_type_ignore_names_its_code_and_says_why_beside_it():
    """CONTRIBUTING.md: every ``type: ignore`` names its error code and says why, on its own line."""
    missing = [
        f"{path.relative_to(ROOT).as_posix()}:{line}"
        for top in ("sets", "draft", "events", "tests")
        for path in sorted((ROOT / top).rglob("*.py"))
        for line in ignores_without_reason(path.read_text(encoding="utf-8"))
    ]
    assert missing == []


def test_an_ignore_without_its_reason_beside_it_is_caught():
    planted = (
        "a: int = f()  # type: ignore[assignment]  # the planted value is a number by contract\n"
        "b: int = f()  # type: ignore[assignment]\n"
        "# the reason on the line above\n"
        "c: int = f()  # type: ignore[assignment]\n"
        "d: int = f()  # type: ignore  # a reason but no code\n"
        "e: int = f()  # type: ignore[assignment]  # ok\n"
        "text = '# type: ignore'\n"
    )
    assert ignores_without_reason(planted) == [2, 4, 5, 6]


@pytest.mark.slow
def test_the_type_check_refuses_an_untyped_def_an_ignore_without_its_code_and_a_bare_generic_in_the_core(
    tmp_path: Path,
):
    """In a process of its own: mypy with the project's configuration, on modules with the three faults planted."""
    planted = tmp_path / "planted.py"
    planted.write_text("def untyped(x):\n    return x\n\n\nvalue: int = 'text'  # type: ignore\n", encoding="utf-8")
    (tmp_path / "sets").mkdir()
    (tmp_path / "sets" / "__init__.py").write_text("", encoding="utf-8")
    bare = tmp_path / "sets" / "bare.py"  # the core's generics name what they hold
    bare.write_text("def first(rows: list) -> object:\n    return rows[0]\n", encoding="utf-8")
    config = ["--config-file", str(ROOT / "pyproject.toml"), "--no-incremental"]
    done = subprocess.run(
        [sys.executable, "-m", "mypy", *config, str(planted), "sets/bare.py"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "[no-untyped-def]" in done.stdout and "[ignore-without-code]" in done.stdout
    assert 'bare.py:1: error: Missing type arguments for generic type "list"  [type-arg]' in done.stdout


PROCESS_NAMES = frozenset(
    {"subprocess", "Popen", "pexpect", "playwright", "sync_playwright", "multiprocessing", "ProcessPoolExecutor"}
    | {"pty", "openpty", "fork", "forkpty"}
)  # what starts a process, a terminal or a browser


def names_in(node: ast.AST) -> set[str]:
    """Every name, attribute and imported module (its first part) under ``node``, in one walk of it."""
    names: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            names.add(n.id)
        elif isinstance(n, ast.Attribute):
            names.add(n.attr)
        elif isinstance(n, ast.Import | ast.ImportFrom):
            names.update(alias.name.split(".")[0] for alias in n.names)
            if isinstance(n, ast.ImportFrom):
                names.add((n.module or "").split(".")[0])
    return names


def marked_slow(decorators: list[ast.expr]) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr == "slow" for d in decorators for n in ast.walk(d))


def top_level_names(tree: ast.Module) -> dict[str, set[str]]:
    """The names each top-level function and class of a module uses (``names_in``)."""
    return {s.name: names_in(s) for s in tree.body if isinstance(s, ast.FunctionDef | ast.ClassDef)}


def process_users(tree: ast.Module, imported: set[str], defs: dict[str, set[str]] | None = None) -> set[str]:
    """The module's top-level functions and classes that start a process (directly, through one another, or
    through a name imported from a test module that does); ``defs``: its ``top_level_names``, when known."""
    defs = top_level_names(tree) if defs is None else defs
    found = {name for name, names in defs.items() if names & (PROCESS_NAMES | imported)}
    while more := {name for name, names in defs.items() if name not in found and names & found}:
        found |= more
    return found


def unmarked_process_tests(root: Path) -> list[str]:
    """Tests outside tests/e2e that start a process, a terminal or a browser (directly, through a function of
    their module or of a test helper, or through a fixture of a conftest) and are not marked ``slow``."""
    tests = root / "tests"
    trees = {path: syntax(path) for path in sorted(tests.rglob("*.py"))}
    walked = {id(s): names_in(s) for tree in trees.values() for s in tree.body}  # each walked once, read often
    defs = {
        path: {s.name: walked[id(s)] for s in tree.body if isinstance(s, ast.FunctionDef | ast.ClassDef)}
        for path, tree in trees.items()
    }
    users: dict[str, set[str]] = {}  # module name -> its process-starting names
    for _ in range(3):  # helpers importing helpers
        for path, tree in trees.items():
            imported = {
                alias.asname or alias.name
                for s in tree.body
                if isinstance(s, ast.ImportFrom) and s.module in users
                for alias in s.names
                if alias.name in users[s.module]
            }
            users[".".join(path.relative_to(root).with_suffix("").parts)] = process_users(tree, imported, defs[path])
    fixtures = {
        name
        for path in trees
        if path.name == "conftest.py"
        for name in users[".".join(path.relative_to(root).with_suffix("").parts)]
    }
    unmarked = []
    for path, tree in trees.items():
        relative = path.relative_to(root)
        if not path.name.startswith("test_") or relative.parts[1] == "e2e":
            continue
        module = ".".join(relative.with_suffix("").parts)
        module_slow = any(
            isinstance(s, ast.Assign) and "pytestmark" in names_in(s) and marked_slow([s.value]) for s in tree.body
        )
        imported = {
            alias.asname or alias.name
            for s in tree.body
            if isinstance(s, ast.ImportFrom) and s.module in users
            for alias in s.names
            if alias.name in users[s.module]
        }
        starting = PROCESS_NAMES | users[module] | imported
        for node in tree.body:
            tests_here = (
                [node] if isinstance(node, ast.FunctionDef) else node.body if isinstance(node, ast.ClassDef) else []
            )
            class_slow = isinstance(node, ast.ClassDef) and marked_slow(node.decorator_list)
            for test in tests_here:
                if not isinstance(test, ast.FunctionDef) or not test.name.startswith("test"):
                    continue
                if module_slow or class_slow or marked_slow(test.decorator_list):
                    continue
                arguments = {a.arg for a in test.args.args}
                used = walked[id(test)] if test is node else names_in(test)
                if used & starting or arguments & fixtures:
                    unmarked.append(f"{relative.as_posix()}::{test.name}")
    return unmarked


def test_every_test_that_starts_a_process_a_terminal_or_a_browser_is_slow_or_end_to_end():
    """CONTRIBUTING.md: a test that starts a terminal or a process outside tests/e2e is marked ``slow``."""
    assert unmarked_process_tests(ROOT) == []


def test_the_slow_marker_check_sees_a_process_started_directly_through_a_helper_or_through_a_fixture(tmp_path):
    tests = tmp_path / "tests"
    for folder in ("helpers", "web", "e2e"):
        (tests / folder).mkdir(parents=True)
    (tests / "helpers" / "spawning.py").write_text(
        "import subprocess\n\n\ndef start():\n    return subprocess.Popen(['true'])\n", encoding="utf-8"
    )
    (tests / "conftest.py").write_text(
        "import pexpect\nimport pytest\n\n\n@pytest.fixture\ndef shell():\n    return pexpect.spawn('sh')\n",
        encoding="utf-8",
    )
    (tests / "web" / "test_planted.py").write_text(
        "import subprocess\nimport pytest\nfrom tests.helpers.spawning import start\n\n\n"
        "def test_direct():\n    subprocess.run(['true'])\n\n\n"
        "def test_through_a_helper():\n    start()\n\n\n"
        "def test_through_a_fixture(shell):\n    pass\n\n\n"
        "@pytest.mark.slow\ndef test_marked():\n    subprocess.run(['true'])\n\n\n"
        "def test_in_process():\n    assert 1 + 1 == 2\n",
        encoding="utf-8",
    )
    (tests / "web" / "test_all_slow.py").write_text(
        "import subprocess\nimport pytest\n\npytestmark = pytest.mark.slow\n\n\n"
        "def test_direct():\n    subprocess.run(['true'])\n",
        encoding="utf-8",
    )
    (tests / "e2e" / "test_terminal.py").write_text(
        "import pexpect\n\n\ndef test_terminal():\n    pexpect.spawn('sh')\n", encoding="utf-8"
    )
    assert unmarked_process_tests(tmp_path) == [
        "tests/web/test_planted.py::test_direct",
        "tests/web/test_planted.py::test_through_a_helper",
        "tests/web/test_planted.py::test_through_a_fixture",
    ]


def test_the_contributors_guide_names_every_top_level_test_file():
    guide = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    unnamed = [p.name for p in sorted((ROOT / "tests").glob("test_*.py")) if f"`tests/{p.name}`" not in guide]
    assert unnamed == [], "CONTRIBUTING.md's list of the top-level test files misses these"


def unknown_long_tests(root: Path, names) -> list[str]:
    """The names in tests/long_first.py's list that name no module, no test function of it, or a parameter its
    source does not hold."""
    unknown = []
    for name in names:
        module, _, test = name.partition("::")
        path = root / module
        if not path.is_file():
            unknown.append(name)
            continue
        function, _, parameter = test.partition("[")
        defined = {n.name for n in syntax(path).body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
        if function and function not in defined or parameter and parameter[:-1] not in path.read_text("utf-8"):
            unknown.append(name)
    return unknown


def test_every_test_the_suite_starts_first_exists():
    assert unknown_long_tests(ROOT, long_first.LONG_FIRST) == []
    assert unknown_long_tests(ROOT, long_first.WAITING) == []
    assert not set(long_first.LONG_FIRST) & set(long_first.WAITING)  # one list or the other
    runs = "tests/test_docs_commands.py::test_the_python_commands_that_start_processes_run"
    planted = [
        "tests/test_gone.py",
        "tests/test_suite.py::test_gone",
        "tests/test_suite.py::test_two_workers_per_core",  # a test's name cut short
        f"{runs}[python -m tests.gone]",
    ]
    known = ["tests/test_suite.py", "tests/test_suite.py::test_two_workers_per_core_unless_told_otherwise"]
    assert unknown_long_tests(ROOT, [*planted, *known, f"{runs}[python -m tests.hostile]"]) == planted


def test_the_long_tests_start_each_workers_share_and_every_test_runs_once():
    items = [SimpleNamespace(nodeid=f"tests/test_{m}.py::test_{n}") for m in "abcd" for n in range(5)]
    long = {"tests/test_b.py::test_3": 9.0, "tests/test_c.py": 20.0, "tests/test_d.py::test_4": 5.0}
    ordered = [item.nodeid for item in long_first.long_first(items, 2, long)]
    assert sorted(ordered) == sorted(item.nodeid for item in items)  # the same tests, each once
    assert long_first.shares(len(items), 2) == [10, 10]
    first, second = ordered[:10], ordered[10:]
    assert first[:5] == [f"tests/test_c.py::test_{n}" for n in range(5)]  # the longest, whole, in its order
    assert second[:2] == ["tests/test_b.py::test_3", "tests/test_d.py::test_4"]  # the next, to the other share
    rest = [n for n in ordered if long_first.listed_under(n, long) is None]
    assert rest == [i.nodeid for i in items if long_first.listed_under(i.nodeid, long) is None]  # in pytest's order


def test_the_tests_that_mostly_wait_start_one_workers_share_together_and_the_long_ones_go_to_the_others():
    items = [SimpleNamespace(nodeid=f"tests/test_{m}.py::test_{n}") for m in "abcd" for n in range(6)]
    long = {"tests/test_b.py::test_3": 9.0, "tests/test_c.py::test_1": 8.0, "tests/test_d.py::test_4": 5.0}
    waiting = {"tests/test_a.py::test_5": 15.0, "tests/test_d.py::test_0": 14.0}
    ordered = [item.nodeid for item in long_first.long_first(items, 3, long, waiting)]
    assert sorted(ordered) == sorted(item.nodeid for item in items)
    assert long_first.shares(len(items), 3) == [8, 8, 8]
    first, second, third = ordered[:8], ordered[8:16], ordered[16:]
    assert third[:2] == ["tests/test_a.py::test_5", "tests/test_d.py::test_0"]  # the waiting ones, together
    assert first[0] == "tests/test_b.py::test_3"  # the longest, to a share with nothing yet
    assert second[:2] == ["tests/test_c.py::test_1", "tests/test_d.py::test_4"]  # then to the least loaded
    assert not {"tests/test_b.py::test_3", "tests/test_c.py::test_1", "tests/test_d.py::test_4"} & set(third)


@pytest.fixture(scope="module")
def module_night_secrets() -> list[int]:
    """Two packs' secrets drawn as a module-scoped fixture draws them (a night drafted once for a module)."""
    from events.night import packs_secret, registration

    return [registration.new_secret(), packs_secret.new_secret()]


def test_a_module_fixtures_events_deal_the_same_packs_in_every_run(module_night_secrets, request):
    # Not the operating system's draw: the module's name seeds it, whichever of its tests asks first.
    import random
    import zlib

    seeded = random.Random(zlib.crc32(request.node.module.__name__.replace(".", "/").encode() + b".py"))
    assert module_night_secrets == [seeded.getrandbits(128), seeded.getrandbits(128)]
