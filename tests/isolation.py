"""The suite never reads or writes the user's own data folder (a pytest plugin, loaded by conftest).

Before any test runs, the folders cmdraft would use for a real person are noted: ``$CMDRAFT_HOME``
as the shell gave it, and the platform's user data folder under the real ``HOME``/``XDG_DATA_HOME``.
Then every test gets its own empty ``CMDRAFT_HOME``, ``HOME`` and ``XDG_*`` folders (session-scoped
fixtures get one of their own too, made before them), so a process a test starts finds them as well.
An audit hook sees every file opened and every folder listed in this process; a test that touches a
noted folder fails, naming the path.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

USER_LEVEL = ("HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR")
_WATCHED_EVENTS = {
    "open",
    "os.listdir",
    "os.scandir",
    "os.remove",
    "os.rename",
    "os.mkdir",
    "os.chmod",
    "shutil.rmtree",
}


def real_data_folders() -> tuple[str, ...]:
    """The data folders of the person running the suite, as cmdraft would find them without the suite."""
    from platformdirs import user_data_path

    found = {os.path.realpath(user_data_path("cmdraft", appauthor=False))}
    given = os.environ.get("CMDRAFT_HOME")
    if given:
        found.add(os.path.realpath(os.path.expanduser(given)))
    return tuple(sorted(found))


REAL_FOLDERS = real_data_folders()
touched: list[str] = []


def _inside(path: object) -> str | None:
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if not isinstance(path, str | os.PathLike):
        return None
    text = os.path.abspath(os.fspath(path))
    for folder in REAL_FOLDERS:
        if text == folder or text.startswith(folder + os.sep):
            return text
    return None


def _audit(event: str, args: tuple) -> None:
    if event in _WATCHED_EVENTS and args:
        hit = _inside(args[0])
        if hit is not None:
            touched.append(f"{event} {hit}")


sys.addaudithook(_audit)


def _private_folders(base: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = base / "cmdraft-home"
    home.mkdir()
    monkeypatch.setenv("CMDRAFT_HOME", str(home))
    for name in USER_LEVEL:
        folder = base / name.lower()
        folder.mkdir(mode=0o700)
        monkeypatch.setenv(name, str(folder))
    return home


@pytest.fixture(scope="session", autouse=True)
def private_session_folders(tmp_path_factory):
    """Folders of the session's own, set before any session-scoped fixture (they read set data too)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        yield _private_folders(tmp_path_factory.mktemp("session-user"), monkeypatch)


@pytest.fixture(scope="session")
def users_folder(tmp_path_factory) -> Path:
    """Where the tests' own data folders are made: one folder of the session's."""
    return tmp_path_factory.mktemp("users")


FAILED = pytest.StashKey[bool]()  # a phase of the test failed: its folders are kept to look at


@pytest.fixture(autouse=True)
def cmdraft_home(request, users_folder, monkeypatch):
    """The test's own empty data folder (``CMDRAFT_HOME``), with its own ``HOME`` and ``XDG_*`` folders.  Made by
    ``mkdtemp`` in the session's folder: pytest's ``mktemp`` reads every folder it made before to number a new one,
    a cost that grows with each test a worker has run.  Removed as the test ends by the rule pytest removes its
    ``tmp_path`` by (``tmp_path_retention_policy``: pyproject's "failed" keeps a failed test's, "all" keeps
    every one): left to the end, the whole suite's folders (eight each) were removed by the main process alone
    after the last test, seconds with every worker done."""
    base = Path(tempfile.mkdtemp(prefix="user", dir=users_folder))
    yield _private_folders(base, monkeypatch)
    policy = request.config.getini("tmp_path_retention_policy")
    if policy == "none" or policy == "failed" and not request.node.stash.get(FAILED, False):
        shutil.rmtree(base, ignore_errors=True)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed:
        item.stash[FAILED] = True
    return report


def _blame(item: pytest.Item, before: int) -> None:
    if len(touched) > before:
        found = touched[before:]
        del touched[before:]
        pytest.fail(
            f"{item.nodeid} touched the user's own data folder ({len(found)} times; first: {found[0]}): "
            "use the test's CMDRAFT_HOME",
            pytrace=False,
        )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    before = len(touched)
    result = yield
    _blame(item, before)
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    before = len(touched)
    result = yield
    _blame(item, before)
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    before = len(touched)
    result = yield
    _blame(item, before)
    return result
