"""What this run has read and written: the output files and folders it created or filled, which it may write
again without ``--force`` (README, "Output files").

Kept apart from the guard (which reads the store) so that the command line's root can start a run
without loading storage (``cmdraft --help`` stays light).
"""

from __future__ import annotations

from pathlib import Path

WRITTEN: set[Path] = set()  # real paths of the files and folders this run created or filled
READ: set[Path] = set()  # real paths of the input files this run was given: never an output, --force or not


def new_run() -> None:
    """Forget what earlier runs in this process wrote (each CLI invocation is one run)."""
    WRITTEN.clear()
    READ.clear()
