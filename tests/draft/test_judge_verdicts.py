"""A judge's audit of deck verdicts on decks the other tests never build (made-up cards of real shapes in an
MTGJSON set file, tests/helpers/judge_set.py).  Each expected verdict comes from the Comprehensive Rules (CR 903.3
commanders, CR 702.124 partner abilities, CR 903.4-903.5 color identity, CR 903.13 Commander draft) and RULES.md,
never from the code under test."""

from __future__ import annotations

import re
import tempfile
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from draft.deck_rules import validate
from draft.decks import PIPER, Deck, DeckFormat, is_free_basic
from draft.formats import parse, resolve
from sets.colors import Color
from tests.helpers.decks import cmr_card
from tests.helpers.judge_set import (
    BACKGROUND,
    BLUE_SPELL,
    CHOOSER,
    GREEN_SPELL,
    PLAIN_LEGEND,
    RED_SPELL,
    TYPED_LAND,
    judge_index,
    judge_set_file,
)


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


# --- every problem names its cards and its rule, and says what to do ------------------------------------------

_ACTION = re.compile(r"(?:^|[:;] )(?:take|move|add|lead|give|keep|choose)\b")


def said(report, code: str) -> str:
    found = [problem for problem in report.problems if problem.code == code]
    assert len(found) == 1, (code, report.problems)
    return found[0].message


def _cases():
    """(deck, pool, format, colors, code, the names its message must hold), by the problem a judge gives: the pool holds
    the deck's cards but the free basics, less ``short`` (copies it lacks)."""
    c = JUDGE.find
    chooser, background, legend = c(CHOOSER), c(BACKGROUND), c(PLAIN_LEGEND)
    red, green, blue, typed = c(RED_SPELL), c(GREEN_SPELL), c(BLUE_SPELL), c(TYPED_LAND)
    piper = cmr_card(PIPER)
    swamp, forest, snow = c("Swamp"), c("Forest"), c("Snow-Covered Forest")
    pair = [chooser, background]
    constructed = DeckFormat.COMMANDER

    def case(name, commanders, main, code, names, *, fmt=DeckFormat.COMMANDER_DRAFT, short=(), colors=None):
        deck = Deck.build(commanders, main)
        pool = Counter(line.card for line in deck.lines for _ in range(line.count) if not is_free_basic(line.card))
        pool -= Counter(short)
        return pytest.param(deck, pool if fmt is not constructed else None, fmt, colors, code, names, id=name)

    return [
        case("three", [chooser, background, legend], {swamp: 57}, "too-many-commanders", [CHOOSER, PLAIN_LEGEND]),
        case("not-legendary", [red], {swamp: 59}, "not-a-commander", [RED_SPELL]),
        case("background-alone", [background], {swamp: 59}, "not-a-commander", [BACKGROUND]),
        case("no-pair", [legend, chooser], {forest: 58}, "illegal-pair", [PLAIN_LEGEND, CHOOSER]),
        case("59-cards", pair, {swamp: 57}, "deck-too-small", []),
        case("off-color", pair, {green: 1, swamp: 57}, "outside-identity", [GREEN_SPELL]),
        case("basic-type", pair, {typed: 1, swamp: 57}, "basic-type-outside-identity", [TYPED_LAND]),
        case("snow-basic", pair, {snow: 1, swamp: 57}, "not-in-pool", ["Snow-Covered Forest"], short=[snow]),
        case("copies", pair, {red: 2, swamp: 56}, "too-many-copies", [RED_SPELL], short=[red]),
        case("piper-main", pair, {piper: 1, swamp: 57}, "piper-not-commander", [PIPER], short=[piper]),
        case("three-pipers", [piper] * 3, {forest: 57}, "too-many-pipers", [PIPER], short=[piper] * 3),
        case("color-extra", pair, {swamp: 58}, "piper-color-extra", [], colors=[Color.U]),
        case("no-color", [piper], {red: 1, blue: 1, forest: 57}, "piper-color-missing", [PIPER], short=[piper]),
        case("singleton", [legend], {green: 2, forest: 97}, "too-many-copies", [GREEN_SPELL], fmt=constructed),
        case("99-cards", [legend], {forest: 98}, "deck-too-small", [], fmt=constructed),
    ]


JUDGE = judge_index(Path(tempfile.mkdtemp(prefix="cmdraft-jdg-")))


@pytest.mark.parametrize(("deck", "pool", "fmt", "colors", "code", "names"), _cases())
def test_each_problem_names_its_cards_and_rule_and_says_what_to_do(deck, pool, fmt, colors, code, names):
    """A judge's ruling names the cards, the rule (CR 903.3, 702.124, 903.4b, 903.5a-d, 903.13e-f) and what the player
    does about it (take a card out, move it, add cards, lead otherwise, give a color): the words every face shows."""
    message = said(validate(deck, pool, fmt, colors), code)
    assert all(name in message for name in names), message
    assert "(CR " in message and _ACTION.search(message), message


def test_cr_702_124k_two_backgrounds_are_told_a_background_pairs_with_a_chooser():
    """Two Backgrounds (or two legends that choose one) share a side of CR 702.124k: the reason says so rather than
    that "the pair doesn't meet what the ability asks"."""
    background = JUDGE.find(BACKGROUND)
    other = replace(background, name="Second Wyrm Tutor", number="99")
    message = said(validate(Deck.build([background, other], {JUDGE.find("Mountain"): 58})), "illegal-pair")
    assert (
        'two cards of the same side never pair: a Background pairs with a card that has "Choose a Background"'
        in message
    )
    assert "doesn't meet what the ability asks" not in message


def test_rules_md_3_a_snow_basic_missing_from_the_pool_is_told_which_basics_are_free():
    """RULES.md 3: the organizer gives Plains, Island, Swamp, Mountain and Forest; Wastes and snow-covered basics come
    from the pool.  The refusal names the five, not "basic lands" (a snow-covered Forest is one)."""
    lead = JUDGE.find(PLAIN_LEGEND)
    deck = Deck.build([lead], {JUDGE.find("Snow-Covered Forest"): 1, JUDGE.find("Forest"): 58})
    message = said(validate(deck, Counter([lead])), "not-in-pool")
    assert "Plains, Island, Swamp, Mountain, Forest" in message and "besides basic lands" not in message


def test_deck_check_reads_a_background_pair_set_apart_by_a_blank_line_as_legal(cli, tmp_path):
    """The same deck through ``deck check`` over the imported set: legal, exit 0 (CR 702.124k)."""
    assert cli("sets", "import", judge_set_file(tmp_path)).exit_code == 0
    deck = tmp_path / "wyrms.txt"
    deck.write_text(f"1 {CHOOSER}\n1 {BACKGROUND}\n\n29 Swamp\n29 Mountain\n", encoding="utf-8")
    result = cli("deck", "check", deck)
    assert result.exit_code == 0, result.output
    assert f"{CHOOSER} + {BACKGROUND}" in " ".join(result.stdout.split())
