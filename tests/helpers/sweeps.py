"""How many examples a fuzzer marked ``sweep`` tries: a quarter in the suite, every one under ``python -m
tests.sweeps`` (which sets ``CMDRAFT_FULL_SWEEPS=1`` for the pytest it starts)."""

from __future__ import annotations

import os

FULL = os.environ.get("CMDRAFT_FULL_SWEEPS") == "1"


def examples(full: int) -> int:
    """How many examples a fuzzer marked ``sweep`` tries: ``full`` under ``python -m tests.sweeps``, else a quarter."""
    return full if FULL else max(5, full // 4)
