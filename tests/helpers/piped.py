"""``cmdraft`` in a process of its own whose standard input and output are pipes, not a terminal (a script's way)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def piped(*args: str, home: Path, input: str, timeout: int = 120, **env: str) -> subprocess.CompletedProcess[str]:
    """``cmdraft ARGS`` fed ``input`` on a pipe, its output read from pipes; ``home`` its data folder, ``env`` more
    of its environment (``LINES="24"``)."""
    return subprocess.run(
        [sys.executable, "-m", "events", *args],
        input=input,
        capture_output=True,
        text=True,
        env={**os.environ, "CMDRAFT_HOME": str(home), **env},
        timeout=timeout,
    )
