"""events/portable.py: the one home of platform calls, and its portable fallbacks run on Linux by
turning the platform's features off (what Windows lacks: an interval timer, select() on input,
termios, a harmless signal-0 probe)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import threading
import time

import pytest

from events import portable
from events.storage.safe_files import remove_stale_temporaries
from events.storage.store import Store
from tests.helpers.night import Night
from tests.helpers.paths import ROOT

PLATFORM_CALLS = ("fcntl", "termios", "tty", "msvcrt", "select")


def test_no_module_but_portable_makes_a_platform_call():
    offenders = []
    for path in [*ROOT.glob("events/**/*.py"), *ROOT.glob("sets/**/*.py"), *ROOT.glob("draft/**/*.py")]:
        if path.name == "portable.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module.split(".")[0]]
            offenders += [f"{path.relative_to(ROOT)}: {name}" for name in names if name in PLATFORM_CALLS]
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "kill":
                offenders.append(f"{path.relative_to(ROOT)}: os.kill")
    assert offenders == []


def test_the_planted_fault_is_seen(tmp_path):
    """The scan above can disagree: a module that imports fcntl is found."""
    planted = tmp_path / "bad.py"
    planted.write_text("import fcntl\n", encoding="utf-8")
    tree = ast.parse(planted.read_text())
    assert any(isinstance(n, ast.Import) and n.names[0].name in PLATFORM_CALLS for n in ast.walk(tree))


@pytest.fixture(params=["kernel queue", "polling", "portalocker alone"])
def lock_mode(request, monkeypatch):
    """How a lock is waited for; "portalocker alone": without the direct ``flock`` that takes a free lock at once
    (``HAS_FLOCK``), as where there is none."""
    if request.param == "polling":
        monkeypatch.setattr(portable, "HAS_ALARM", False)
    if request.param == "portalocker alone":
        monkeypatch.setattr(portable, "HAS_FLOCK", False)
    return request.param


@pytest.mark.slow
def test_the_lock_excludes_and_times_out_in_both_modes(tmp_path, lock_mode):
    """In a process of its own: the lock is held by another process (the kernel's lock is per process), and the timeout bounds a real wait."""
    path = tmp_path / "x.lock"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import sys, time, portalocker\n"
                f"f = open({str(path)!r}, 'a+b'); portalocker.lock(f, portalocker.LockFlags.EXCLUSIVE)\n"
                "print('held', flush=True); sys.stdin.readline()\n"
            ),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with open(path, "a+b") as mine:
            start = time.monotonic()
            with pytest.raises(portable.LockTimeout):
                portable.lock(mine, 0.3)  # the holder holds on until told: only the timeout ends this wait
            assert time.monotonic() - start > 0.25  # it waited; how quickly it gives up is no unit test's to time
            assert holder.poll() is None  # given up while the lock was still held
            holder.stdin.write("let go\n")
            holder.stdin.flush()
            portable.lock(mine, 10)  # taken once the holder lets go (a LockTimeout here would fail the test)
            portable.unlock(mine)
    finally:
        holder.stdin.close()
        holder.wait(timeout=10)


def test_the_store_works_with_the_polling_lock_and_no_folder_fsync(tmp_path, monkeypatch):
    monkeypatch.setattr(portable, "HAS_ALARM", False)
    monkeypatch.setattr(portable, "HAS_FOLDER_FSYNC", False)
    events = Night(Store(tmp_path / "db.json"))
    event_id = events.create("Night", seed=1)
    errors = []

    def add(name: str) -> None:
        try:
            Night(Store(tmp_path / "db.json")).add_player(event_id, name)
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=add, args=(f"P{i}",)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(p.name for p in events.snapshot(event_id).players) == sorted(f"P{i}" for i in range(8))


def test_without_a_process_probe_a_temporary_file_is_stale_after_an_hour(tmp_path, monkeypatch):
    monkeypatch.setattr(portable, "HAS_KILL_PROBE", False)
    alive_pid = os.getppid()  # a running process: the probe would keep its file
    old = tmp_path / f".db.json.{alive_pid}.tmp"
    fresh = tmp_path / f".db.json.{alive_pid + 1}.tmp"
    for path in (old, fresh):
        path.write_text("x")
    past = time.time() - portable.STALE_AFTER - 60
    os.utime(old, (past, past))
    assert remove_stale_temporaries(tmp_path) == [old]
    assert fresh.exists()


@pytest.mark.slow
def test_with_the_probe_a_live_process_keeps_its_file_and_a_dead_one_loses_it(tmp_path):
    """In a process of its own: a process that has ended, for the process probe."""
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    gone = tmp_path / f".db.json.{int(dead.stdout)}.tmp"
    kept = tmp_path / f".db.json.{os.getppid()}.tmp"
    for path in (gone, kept):
        path.write_text("x")
    assert remove_stale_temporaries(tmp_path) == [gone] and kept.exists()


@pytest.mark.parametrize("select_input", [True, False])
def test_waiting_for_a_typed_line_with_and_without_select(select_input, monkeypatch):
    monkeypatch.setattr(portable, "HAS_SELECT_INPUT", select_input)
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "r") as stream, os.fdopen(write_end, "w") as writer:
        reader = portable.LineReader(stream)
        start = time.monotonic()
        assert reader.wait(0.2) is False and time.monotonic() - start >= 0.15
        writer.write("3 7\n")
        writer.flush()
        assert reader.wait(2) is True
        assert reader.readline() == "3 7\n"
        writer.write("quit\n")
        writer.flush()
        assert reader.wait(2) and reader.readline() == "quit\n"


def test_a_terminal_without_select_still_reads_picks(monkeypatch):
    from rich.console import Console

    from events.screens.terminal import Quit, Terminal

    monkeypatch.setattr(portable, "HAS_SELECT_INPUT", False)
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "r") as stream, os.fdopen(write_end, "w") as writer:
        terminal = Terminal(Console(file=open(os.devnull, "w")), stream)
        assert terminal.wait(0.1) is None
        writer.write("1 2\n")
        writer.flush()
        assert terminal.ask("> ", deadline=time.monotonic() + 5) == "1 2"
        assert terminal.ask("> ", deadline=time.monotonic() + 0.2) is None  # the timer ran out
        writer.close()
        with pytest.raises(Quit):
            terminal.ask("> ", deadline=time.monotonic() + 5)


@pytest.mark.parametrize("termios", [True, False])
@pytest.mark.slow
def test_single_keys_with_and_without_termios_and_select(termios, monkeypatch):
    import pty

    monkeypatch.setattr(portable, "HAS_TERMIOS", termios)
    monkeypatch.setattr(portable, "HAS_SELECT_INPUT", termios)
    leader, follower = pty.openpty()
    with os.fdopen(follower, "r") as stream:
        with portable.KeyMode(stream) as keys:
            assert keys.read(0.1) is None
            os.write(leader, b"p\n" if not termios else b"p")
            assert keys.read(2) == "p"
        os.close(leader)


@pytest.mark.parametrize("termios", [True, False])
@pytest.mark.slow
def test_discarding_what_was_typed_with_and_without_termios(termios, monkeypatch):
    import pty

    monkeypatch.setattr(portable, "HAS_TERMIOS", termios)
    leader, follower = pty.openpty()
    try:
        with os.fdopen(follower, "r", closefd=False) as stream:
            os.write(leader, b"half a lin")
            time.sleep(0.1)
            portable.discard_typed(stream)  # without termios: nothing to call, and no error
            os.write(leader, b"e\nnext\n")
            line = stream.readline()
            assert line == ("e\n" if termios else "half a line\n")
    finally:
        os.close(leader)
        os.close(follower)


@pytest.mark.slow
def test_a_line_typed_before_the_keys_are_read_one_at_a_time_is_kept():
    """A fast player types the pick (or 'quit') as the pack is drawn, before the timed prompt puts the terminal in
    cbreak mode: entering the mode must not flush it (``tty.setcbreak``'s default does, and the line was lost)."""
    import pty

    leader, follower = pty.openpty()
    try:
        with os.fdopen(follower, "r", closefd=False) as stream:
            os.write(leader, b"quit\n")
            time.sleep(0.1)  # in the terminal's input queue before the mode changes
            with portable.KeyMode(stream) as keys:
                typed = "".join(iter(lambda: keys.read(1) or "", ""))[:5]
            assert typed == "quit\n"
    finally:
        os.close(leader)
        os.close(follower)
