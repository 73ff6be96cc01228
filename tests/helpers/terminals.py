"""Real terminals and processes: ``cmdraft`` in a pseudo-terminal (pexpect), and the event worker
(``python -m tests.event_worker``) in processes of its own."""

from __future__ import annotations

import atexit
import functools
import multiprocessing
import os
import re
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pexpect

from tests.helpers.paths import ROOT
from tests.helpers.shared_clock import SharedClock

PICK = re.compile(r"Take (\d) cards? \(numbers or names")


def spawn(args, home: Path, timeout=30, clock: SharedClock | None = None):
    """``cmdraft ARGS`` in a pseudo-terminal; on ``clock`` (the test's, ``SharedClock``) when given."""
    env = dict(os.environ, CMDRAFT_HOME=str(home), COLUMNS="120", LINES="50", NO_COLOR="1", TERM="xterm")
    child = pexpect.spawn(
        sys.executable,
        [
            *(["-m", "events"] if clock is None else clock.command()),
            *args,
            *(["--plain", "--confirm"] if args[:1] == ["play"] else []),
        ],
        env=env if clock is None else clock.env(env),
        encoding="utf-8",
        timeout=timeout,
        dimensions=(50, 120),
    )
    # No pause before each line sent (pexpect's 50 ms, for programs that flush what was typed while they set their
    # terminal up): the tests send after the prompt is shown, and the screens set their modes before showing it.
    child.delaybeforesend = None
    return child


def ctrl_c_reaches_it() -> None:
    """In the started process: Ctrl-C stops it even when the suite itself runs with SIGINT ignored (a background
    job), which a process would otherwise inherit."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn_keys(args, home: Path, timeout=30):
    env = dict(os.environ, CMDRAFT_HOME=str(home), COLUMNS="120", LINES="40", NO_COLOR="1", TERM="xterm")
    return pexpect.spawn(
        sys.executable,
        ["-m", "events", *args],
        env=env,
        encoding="utf-8",
        timeout=timeout,
        dimensions=(40, 120),
        preexec_fn=ctrl_c_reaches_it,
    )


class Worker:
    """A worker process (``worker``), read as ``subprocess.Popen`` is: ``communicate``, ``returncode``, ``pid``."""

    def __init__(self, process: Any, out: Any, err: Any, args: list[str]) -> None:
        self.process, self.args = process, args
        self.pid: int = process.pid
        self._pipes = {out.fileno(): out, err.fileno(): err}
        self._read: dict[int, bytearray] = {out.fileno(): bytearray(), err.fileno(): bytearray()}
        self._out, self._err = out.fileno(), err.fileno()

    @property
    def returncode(self) -> int | None:
        return self.process.exitcode  # negative: the signal that ended it, as Popen's

    def communicate(self, timeout: float | None = None) -> tuple[str, str]:
        """Everything it writes, to its end (``subprocess.TimeoutExpired`` after ``timeout`` seconds)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            for fd in self._pipes:
                selector.register(fd, selectors.EVENT_READ)
            while selector.get_map():
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise subprocess.TimeoutExpired(self.args, timeout or 0)
                for key, _ in selector.select(left):
                    chunk = os.read(key.fd, 65536)
                    if chunk:
                        self._read[key.fd] += chunk
                    else:
                        selector.unregister(key.fd)
                        self._pipes.pop(key.fd).close()
        self.process.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
        if self.process.exitcode is None:
            raise subprocess.TimeoutExpired(self.args, timeout or 0)
        return self._read[self._out].decode("utf-8"), self._read[self._err].decode("utf-8")

    def kill(self) -> None:
        self.process.kill()


@functools.cache
def forks() -> Any:
    """Workers are forked from one server process that has imported ``tests.event_worker`` (and the whole store
    and night with it) once: each worker is still a process of its own, started from scratch as far as the
    database, its locks and its files go, and killed for real, without paying an interpreter's start and imports
    (about 0.2 s of CPU each, hundreds of times a run)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["tests.event_worker"])
    # Stopped and waited for as this process ends, so its workers' CPU is counted in this process's children, as a
    # worker's own process was (the suite's CPU figures: issue 41).
    atexit.register(multiprocessing.forkserver._forkserver._stop)
    return context


def worker(
    *args: str,
    kill: str | None = None,
    start_at: float | None = None,
    step: float = 0.0,
    offsets: list[float] | None = None,
) -> Worker:
    """``python -m tests.event_worker ARGS`` in a process of its own (forked warm: ``forks``), with these
    ``WORKER_*`` settings."""
    env = dict(os.environ)
    env.pop("WORKER_KILL", None)
    if kill:
        env["WORKER_KILL"] = kill
    if start_at is not None:
        env["WORKER_START_AT"], env["WORKER_STEP"] = str(start_at), str(step)
        env["WORKER_OFFSETS"] = ",".join(map(str, offsets or []))
    context = forks()
    out_read, out_write = context.Pipe(duplex=False)
    err_read, err_write = context.Pipe(duplex=False)
    from tests.event_worker import forked

    process = context.Process(target=forked, args=(list(args), env, str(ROOT), out_write, err_write), daemon=True)
    process.start()
    out_write.close()
    err_write.close()
    return Worker(process, out_read, err_read, ["tests.event_worker", *args])


def acks(output: str) -> set[tuple[int, int, int]]:
    found = set()
    for line in output.splitlines():
        if line.startswith("ACK"):
            _, _, player, pack, pick = line.split()
            found.add((int(player), int(pack), int(pick)))
    return found
