"""The long sweeps in full: ``python -m tests.sweeps``.

The suite keeps a sample of each (and a planted fault that shows its check can disagree): the
hostile-input sweep runs every 12th input, the fuzzers marked ``sweep`` a quarter of their
examples (``tests.helpers.sweeps.examples``). This runs every input of ``tests.hostile`` and the marked fuzzers with all their examples.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def main(run: Callable[..., Any] = subprocess.run) -> int:
    """Both sweeps in full (``run`` starts each, as ``subprocess.run``): 0 when the fuzzers pass and the hostile
    sweep's summary line counts nothing wrong."""
    env = {**os.environ, "CMDRAFT_FULL_SWEEPS": "1"}
    fuzzers = run([sys.executable, "-m", "pytest", "-m", "sweep", "-p", "no:cacheprovider"], cwd=ROOT, env=env)
    hostile = run([sys.executable, "-m", "tests.hostile", "--show"], cwd=ROOT, env=env, capture_output=True, text=True)
    print(hostile.stdout, end="")
    clean = hostile.returncode == 0 and all(
        part.endswith("=0") for part in hostile.stdout.split("\n", 1)[0].split()[1:]
    )
    return 0 if fuzzers.returncode == 0 and clean else 1


if __name__ == "__main__":
    sys.exit(main())
