"""A judge's audit of deck verdicts on decks the other tests never build (made-up cards of real shapes in an
MTGJSON set file, tests/helpers/judge_set.py).  Each expected verdict comes from the Comprehensive Rules (CR 903.3
commanders, CR 702.124 partner abilities, CR 903.4-903.5 color identity, CR 903.13 Commander draft) and RULES.md,
never from the code under test."""

from __future__ import annotations

import pytest

from draft.deck_rules import validate
from draft.decks import DeckFormat
from draft.formats import parse, resolve
from tests.helpers.judge_set import BACKGROUND, CHOOSER, judge_index


@pytest.fixture(scope="module")
def jdg(tmp_path_factory):
    return judge_index(tmp_path_factory.mktemp("jdg"))


@pytest.mark.parametrize(
    "text",
    [
        f"1 {CHOOSER}\n1 {BACKGROUND}\n\n29 Swamp\n29 Mountain\n",  # commanders first, set apart by a blank line
        f"29 Swamp\n29 Mountain\n\n1 {CHOOSER}\n1 {BACKGROUND}\n",  # or last, as some sites export them
        f"NAME:Wyrms\n29 [JDG:0] Swamp\n29 [JDG:0] Mountain\nSB: 1 [JDG:1] {CHOOSER}\nSB: 1 [JDG:2] {BACKGROUND}\n",
    ],
    ids=["text-first", "text-last", "xmage-sideboard"],
)
def test_cr_702_124k_a_background_pair_set_apart_in_a_file_is_read_as_the_commanders(jdg, text):
    """A legend with "Choose a Background" and a legendary Background lead together (CR 702.124k), though the
    Background alone can't lead: a file that sets the two apart (a blank line, XMage's sideboard) names them as the
    commanders, as it does any other pair.  Before, only two cards that could each lead alone were taken for a pair,
    so the deck had no commander and every colored card was outside a colorless identity."""
    deck, problems = resolve(parse(text), jdg)
    assert problems == []
    assert [card.name for card in deck.commanders] == [CHOOSER, BACKGROUND]
    report = validate(deck, fmt=DeckFormat.COMMANDER_DRAFT)
    assert report.valid, report.problems
    assert str(report.color_identity) == "BR" and report.size == 60
