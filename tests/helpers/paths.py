"""Where the suite finds the project, its own fixture files and the shared data folder (which may be absent)."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
FIXTURES = TESTS / "fixtures"
GOLDEN = TESTS / "golden"
SHARED_DATA = ROOT.parent / "shared" / "data"
