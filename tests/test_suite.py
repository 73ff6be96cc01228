"""The suite's own promises (README "Tests"): parallel by default, sweeps sampled and full on demand."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

from tests.sweeps import examples

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_command_runs_in_parallel_with_the_test_extras():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    options = project["tool"]["pytest"]["ini_options"]["addopts"].split()
    assert options[options.index("-n") + 1] == "auto" and "--dist" in options
    extras = " ".join(project["project"]["optional-dependencies"]["test"])
    assert "pytest-xdist" in extras and "pytest-cov" in extras


def test_ci_shows_the_slowest_tests_and_checks_the_users_folder_is_left_alone():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'PYTEST_ADDOPTS="--durations=15"' in ci
    assert "chmod -R a-w" in ci and "CMDRAFT_HOME=" in ci and "XDG_DATA_HOME=" in ci and "diff" in ci


def test_fuzzers_try_a_quarter_here_and_every_example_on_demand():
    """In a process of its own: the full count is read from the environment when the module is first imported."""
    assert examples(60) == 15 and examples(8) == 5
    shown = subprocess.run(
        [sys.executable, "-c", "from tests.sweeps import examples; print(examples(60))"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "CMDRAFT_FULL_SWEEPS": "1"},
        timeout=60,
    )
    assert shown.stdout.strip() == "60", shown.stderr


def test_the_readme_lists_the_full_sweeps():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "`python -m tests.sweeps`" in readme and "python -m tests.hostile" in readme
