"""Real terminals and processes: ``cmdraft`` in a pseudo-terminal (pexpect), and the event worker
(``python -m tests.event_worker``) in processes of its own."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pexpect

from tests.helpers.paths import ROOT

PICK = re.compile(r"Take (\d) cards? \(numbers or names")


def spawn(args, home: Path, timeout=30):
    env = dict(os.environ, CMDRAFT_HOME=str(home), COLUMNS="120", LINES="50", NO_COLOR="1", TERM="xterm")
    return pexpect.spawn(
        sys.executable,
        ["-m", "events", *args, *(["--plain", "--confirm"] if args[:1] == ["play"] else [])],
        env=env,
        encoding="utf-8",
        timeout=timeout,
        dimensions=(50, 120),
    )


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


def worker(
    *args: str,
    kill: str | None = None,
    start_at: float | None = None,
    step: float = 0.0,
    offsets: list[float] | None = None,
) -> subprocess.Popen:
    env = dict(os.environ)
    env.pop("WORKER_KILL", None)
    if kill:
        env["WORKER_KILL"] = kill
    if start_at is not None:
        env["WORKER_START_AT"], env["WORKER_STEP"] = str(start_at), str(step)
        env["WORKER_OFFSETS"] = ",".join(map(str, offsets or []))
    return subprocess.Popen(
        [sys.executable, "-m", "tests.event_worker", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def acks(output: str) -> set[tuple[int, int, int]]:
    found = set()
    for line in output.splitlines():
        if line.startswith("ACK"):
            _, _, player, pack, pick = line.split()
            found.add((int(player), int(pack), int(pick)))
    return found
