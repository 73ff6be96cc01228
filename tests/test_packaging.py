"""The installed package: a wheel carries the bundled data; imports flow one way; no heavy imports at start."""

from __future__ import annotations

import ast
import subprocess
import sys
import zipfile

import pytest

from tests.helpers.paths import ROOT
from tests.helpers.syntax import nodes


@pytest.mark.slow
def test_wheel_carries_the_bundled_data(tmp_path):
    """In a process of its own: pip builds the real wheel."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = tmp_path.glob("cmdraft-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    data = {p.relative_to(ROOT).as_posix() for p in (ROOT / "sets" / "data").iterdir()}
    assert data and data <= names
    assert any(name.endswith("entry_points.txt") for name in names)


def _imports(package: str) -> set[str]:
    found = set()
    for path in (ROOT / package).rglob("*.py"):
        for node in nodes(path, ast.Import, ast.ImportFrom):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
    return found


def test_imports_flow_one_way():
    assert not _imports("sets") & {"draft", "events", "typer", "rich", "tinydb", "click"}
    assert not _imports("draft") & {"events", "typer", "rich", "tinydb", "click"}


@pytest.mark.slow
def test_help_does_not_import_the_heavy_parts():
    """In a process of its own: what a fresh interpreter imports for ``--help``."""
    code = "import sys; from events import cli; print(sorted(m for m in ('tinydb', 'draft.bots', 'sets.booster') if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert done.stdout.strip() == "[]"


def test_readme_opens_with_the_two_commands_and_ci_runs_the_second():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [block.split("```", 1)[0].strip() for block in readme.split("```sh\n")[1:3]]
    assert blocks[0].startswith("python -m pip install .") and "cmdraft sim" in blocks[0]
    assert "[test]" in blocks[1] and "pytest" in blocks[1]
    assert blocks[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
