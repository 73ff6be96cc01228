"""``cmdraft serve`` in a process of its own on a free loopback port (what it prints, its console on stderr, Ctrl-C),
and raw sockets to it."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.helpers.terminals import ctrl_c_reaches_it


@contextlib.contextmanager
def serve_process(db: Path, event_id: int, *options: str) -> Iterator[tuple[Any, str]]:
    """``cmdraft serve`` in its own process on a free loopback port: (the process, its printed address); what it
    printed before listening is ``process.printed``."""
    process: Any = subprocess.Popen(
        [sys.executable, "-m", "events", "serve", str(event_id), "--db", str(db), "--port", "0", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
        preexec_fn=ctrl_c_reaches_it,
    )
    try:
        lines: list[str] = []
        while not any("Ctrl-C stops" in line for line in lines):
            line = process.stdout.readline()
            assert line, process.stderr.read()
            lines.append(line)
        process.printed = "".join(lines)
        yield process, re.search(r"at (http://127\.0\.0\.1:\d+)", lines[0]).group(1)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def stop(process: subprocess.Popen) -> str:
    """Ctrl-C the server; what it wrote on stderr."""
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    return err


def raw(url: str) -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=10)
