"""The stall benchmark's simulation (tests/stall_bench.py, ``python -m tests.benchmarks stalls``) can tell: drafts
with phones that vanish finish with no pack held past its time while the server's watchdog runs, and the same
drafts stall when the watchdog is planted dead."""

from __future__ import annotations

import pytest

from events.web.live import Watcher
from tests import stall_bench


@pytest.fixture
def vanishing(monkeypatch):
    """Every phone is one that vanishes at a random pick (and the timer must pick for it from then on)."""
    monkeypatch.setattr(stall_bench, "KINDS", ("vanishing",))


def test_drafts_whose_phones_vanish_finish_without_a_stall(vanishing):
    row = stall_bench.stalls(drafts=3, seed=4)
    assert row["stalls"] == 0 and row["phones"]["vanishing"] >= 6
    assert row["timed_out"] > 0  # the timer picked for the phones that were gone
    assert row["longest_hold_share"] <= 1 + 2 * stall_bench.POLL / 5  # never past its time and two looks


def test_with_the_watchdog_planted_dead_the_same_drafts_stall(vanishing, monkeypatch):
    monkeypatch.setattr(Watcher, "_tick", lambda self: (set(), {}))
    row = stall_bench.stalls(drafts=3, seed=4)
    assert row["stalls"] >= 3  # each draft stops at a vanished phone's pack
