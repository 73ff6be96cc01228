"""Exports compared with golden files (``pytest --force-regen`` rewrites them after an intended change)."""

from __future__ import annotations

import datetime as dt

import pytest

from draft.engine import DraftConfig
from draft.formats import FileFormat, write
from draft.log import mtgo_log
from draft.sim import run_pod
from tests.helpers.decks import sample_deck, with_mtgo_ids


@pytest.mark.parametrize("fmt", list(FileFormat), ids=str)
def test_deck_exports_match_their_golden_files(golden, fmt):
    deck = with_mtgo_ids(sample_deck()) if fmt is FileFormat.MTGO else sample_deck()  # MTGO needs every card's id
    golden(f"deck.{fmt.value}", write(deck, fmt))


def test_mtgo_draft_log_matches_its_golden_file(golden):
    result = run_pod(3, DraftConfig(seats=3))
    text = mtgo_log(result.draft, 0, [seat.name for seat in result.seats], when=dt.datetime(2020, 11, 20, 20, 0, 0))
    golden("draftlog.txt", text)
