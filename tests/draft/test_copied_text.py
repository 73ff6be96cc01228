"""Decklists copied from web pages carry invisible format characters (a zero-width space, a soft hyphen, a byte
order mark mid-file where two lists were pasted together): no card name holds one, so they never make a card
unknown."""

from __future__ import annotations

import pytest

from draft.formats import FileFormat, parse, resolve
from sets.card_index import card_index


@pytest.fixture(scope="module")
def idx():
    return card_index(["CMR"])


def test_format_characters_in_a_text_list_are_read_past(idx):
    text = "\u200b1 Murder\n1 \u200bArcane Signet\n1 Ances\u00adtral Blade\n\ufeff1 Jeska,\u200b Thrice Reborn\n"
    deck, problems = resolve(parse(text, FileFormat.TEXT), idx)
    assert problems == []
    assert sorted(line.card.name for line in deck.lines) == [
        "Ancestral Blade",
        "Arcane Signet",
        "Jeska, Thrice Reborn",
        "Murder",
    ]


def test_format_characters_in_a_csv_cell_are_read_past(idx):
    deck, problems = resolve(parse("Count,Name\n1,\u200bMurder\n2,Arcane\u2060 Signet\n", FileFormat.CSV), idx)
    assert problems == []
    assert {(line.card.name, line.count) for line in deck.lines} == {("Murder", 1), ("Arcane Signet", 2)}
