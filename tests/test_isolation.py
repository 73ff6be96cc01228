"""The suite runs in folders of its own: a user's data folder is never read, written or listed by a test."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sets.catalog import load_set
from sets.userdata import user_home
from tests.helpers.paths import ROOT
from tests.isolation import REAL_FOLDERS, USER_LEVEL

pytest_plugins = ["pytester"]
SIGNET_TEXT = "{T}: Add one mana of any color."  # a user's imported text, as `cmdraft sets import` keeps it


def test_each_test_has_its_own_empty_data_folder(cmdraft_home, tmp_path_factory):
    assert user_home() == cmdraft_home and list(cmdraft_home.iterdir()) == []
    base = tmp_path_factory.getbasetemp()
    for name in USER_LEVEL:
        assert Path(os.environ[name]).is_relative_to(base), name
    assert not any(Path(os.environ["CMDRAFT_HOME"]).is_relative_to(folder) for folder in REAL_FOLDERS)


def test_session_fixtures_load_sets_without_the_users_text(cmr):
    # `cmr` is made once per session, before any test's own folder: it must not see what a user imported.
    assert not any(face.text for card in cmr.cards for face in card.faces)


def _users_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "the users data"
    (folder / "texts").mkdir(parents=True)
    (folder / "texts" / "CMR.json").write_text(json.dumps({"cards": {"Arcane Signet": [SIGNET_TEXT]}, "mtgo_ids": {}}))
    return folder


def _inner_suite(pytester: pytest.Pytester, users: Path, body: str) -> pytest.RunResult:
    pytester.makeconftest('pytest_plugins = ["tests.isolation"]\n')
    pytester.makepyfile(test_inner=body)
    env = {"CMDRAFT_HOME": str(users), "PYTHONPATH": str(ROOT)}
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env.items():
            patch.setenv(name, value)
        return pytester.runpytest_subprocess("-p", "no:cacheprovider", "-q")


@pytest.mark.slow
def test_the_guard_fails_a_test_that_reads_the_users_data_folder(pytester, tmp_path):
    """A planted fault: a test reading the user's texts fails, naming the file; its neighbours still pass."""
    users = _users_folder(tmp_path)
    body = f"""
from pathlib import Path
import pytest
from sets.catalog import load_set

REAL = Path({str(users)!r})

@pytest.fixture(scope="session")
def cmr():
    return load_set("CMR")

def test_reads_the_real_folder():
    (REAL / "texts" / "CMR.json").read_text()

def test_lists_the_real_folder():
    list(REAL.iterdir())

def test_stays_in_its_own(cmr):
    assert not any(face.text for card in cmr.cards if card.name == "Arcane Signet" for face in card.faces)
"""
    result = _inner_suite(pytester, users, body)
    result.assert_outcomes(passed=1, failed=2)
    result.stdout.fnmatch_lines(["*test_reads_the_real_folder touched the user's own data folder*CMR.json*"])
    result.stdout.fnmatch_lines(["*test_lists_the_real_folder touched the user's own data folder*"])


def test_the_users_text_would_change_what_the_judge_sees(tmp_path, monkeypatch):
    """Why the guard matters: the same set loaded from a user's folder carries their text."""
    monkeypatch.setenv("CMDRAFT_HOME", str(_users_folder(tmp_path)))
    signet = next(card for card in load_set("CMR").cards if card.name == "Arcane Signet")
    assert signet.faces[0].text == SIGNET_TEXT


@pytest.mark.slow
def test_a_passed_tests_own_folders_are_removed_as_it_ends_and_a_failed_ones_kept(pytester, tmp_path):
    """Each test's own data folders go when it passes (not all at the session's end), and stay to be looked at when
    it fails, as pytest's retention policy says for ``tmp_path`` (kept whatever happened with "all", never with
    "none"); a test still sees its folder to the end of its own teardown."""
    noted = tmp_path / "noted"
    noted.mkdir()
    body = f"""
import os
from pathlib import Path
import pytest

NOTED = Path({str(noted)!r})

@pytest.fixture
def last_look():
    yield
    assert Path(os.environ["CMDRAFT_HOME"], "deck.txt").exists()

def _note(name):
    home = Path(os.environ["CMDRAFT_HOME"])
    (home / "deck.txt").write_text("1 Sol Ring")
    (NOTED / name).write_text(str(home))

def test_passes(last_look):
    _note("passed")

def test_fails():
    _note("failed")
    assert False
"""
    users = _users_folder(tmp_path)
    for policy, kept in (("failed", {"failed"}), ("all", {"passed", "failed"}), ("none", set())):
        pytester.makeini(f"[pytest]\ntmp_path_retention_policy = {policy}\n")
        result = _inner_suite(pytester, users, body)
        result.assert_outcomes(passed=1, failed=1)
        homes = {name: Path((noted / name).read_text()) for name in ("passed", "failed")}
        assert {name for name, home in homes.items() if (home / "deck.txt").exists()} == kept, policy
        assert {name for name, home in homes.items() if home.parent.exists()} == kept, policy
