"""Decklists copied from web pages carry invisible format characters (a zero-width space, a soft hyphen, a byte
order mark mid-file where two lists were pasted together): no card name holds one, so they never make a card
unknown."""

from __future__ import annotations

import pytest

from draft.formats import FileFormat, parse, resolve, write
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


# A deck's name with a zero-width joiner (an emoji family) and a zero-width non-joiner (the Persian "mi-xâham"): the
# user's own characters, which reading a file kept out as if they were pasted-in noise.
JOINED_NAME = "Family \U0001f469\u200d\U0001f469\u200d\U0001f467 \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"


@pytest.mark.parametrize(
    ("fmt", "text"),
    [
        (FileFormat.FORGE, f"[metadata]\nName={JOINED_NAME}\n[Main]\n1 Murder\n"),
        (FileFormat.TEXT, f"// {JOINED_NAME}\n\n1 Murder\n"),
        (FileFormat.TEXT, f"NAME:{JOINED_NAME}\n1 [CMR:134] Murder\n"),
    ],
    ids=["dck-Name=", "text-comment", "xmage-NAME:"],
)
def test_a_deck_names_joiners_are_kept_through_a_round_trip(idx, fmt, text):
    """Joiners are no pasted noise: a deck's name keeps them, read and written again; its card lines still read."""
    deck, problems = resolve(parse(text, fmt), idx)
    assert problems == []
    assert deck.name == JOINED_NAME
    assert [line.card.name for line in deck.lines] == ["Murder"]
    again, problems = resolve(parse(write(deck, FileFormat.JSON), FileFormat.JSON), idx)
    assert problems == [] and again.name == JOINED_NAME


def test_a_bidi_mark_before_a_card_lines_count_is_read_past(idx):
    deck, problems = resolve(parse("\u200e2 Murder\n1 Arcane\u200c Signet\n", FileFormat.TEXT), idx)
    assert problems == []
    assert {(line.card.name, line.count) for line in deck.lines} == {("Murder", 2), ("Arcane Signet", 1)}
