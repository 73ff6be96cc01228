"""Bots draft toward the commander that will lead their deck: a bomb legend is worth building around, as the deck
builder counts it (``draft.bot_leaders.plan_worth``, ``draft.deck_spells.leader_value``)."""

from __future__ import annotations

import pytest

from draft import reference
from draft.bots import Bot, BotStyle
from sets.booster import Printing
from sets.catalog import load_set
from sets.colors import ColorIdentity


@pytest.fixture(scope="module")
def cmr():
    return list(load_set("CMR"))


def _playables(cards, code, count):
    """``count`` non-legendary cards of one color that our reference grades a plain playable (2.0): the filler a
    deck plays, picked without the bots' rating."""
    found = [c for c in cards if c.deck_colors.code == code and not c.is_legendary and reference.grade(c) == 2.0]
    assert len(found) >= count, code
    return found[:count]


def _bomb(cards):
    return next(c for c in cards if c.name == "Xenagos, God of Revels")


def test_a_bomb_legend_opened_early_in_pack_two_leads_the_plan_over_a_few_more_playables(cmr):
    """First pick of pack 2: fourteen plain playables in white and blue, four in red and green, and Xenagos (a legend
    our reference grades a bomb, 4+).  A strong drafter moves in: forty cards are still to come, and a bomb commander
    is there every game, worth far more than a few filler cards' head start (counted as one more card, the plan
    stayed in white-blue and the legend ended in the sideboard)."""
    xenagos = _bomb(cmr)
    assert reference.grade(xenagos) >= 4.0
    bot = Bot(BotStyle.STRONG, 1)
    pool = [*_playables(cmr, "W", 7), *_playables(cmr, "U", 7), *_playables(cmr, "R", 2), *_playables(cmr, "G", 2)]
    bot.remember([*pool, xenagos])
    plan = bot.plan(1 / 3)
    assert plan.commanders == (xenagos,) and plan.mask == ColorIdentity.parse("RG").mask


def test_late_in_the_draft_a_deep_pool_keeps_its_colors_over_a_bomb_legend_of_others(cmr):
    """Two thirds in, thirty playables in white and blue against four in red and green: the deck is made; a bomb of
    other colors can't gather a deck any more, so the plan stays."""
    bot = Bot(BotStyle.STRONG, 1)
    pool = [*_playables(cmr, "W", 15), *_playables(cmr, "U", 15), *_playables(cmr, "R", 2), *_playables(cmr, "G", 2)]
    bot.remember([*pool, _bomb(cmr)])
    plan = bot.plan(0.7)
    assert plan.mask == ColorIdentity.parse("WU").mask


def test_a_scattered_pool_with_a_five_color_legend_commits_to_two_colors(cmr):
    """Pick 11: four plain playables of each color and Najeela (a five-color legend).  Five colors of basic lands
    cast little on time and a draft offers few fixers: a strong drafter commits to two colors (and keeps the legend as
    a hate pick or a spare), not to all five (planned so, the seat never committed and built five colors of basics)."""
    najeela = next(c for c in cmr if c.name == "Najeela, the Blade-Blossom")
    assert len(najeela.identity) == 5
    bot = Bot(BotStyle.STRONG, 1)
    bot.remember([*(card for code in "WUBRG" for card in _playables(cmr, code, 4)), najeela])
    assert bot.plan(1 / 3).mask.bit_count() <= 3


def test_a_pool_leaning_to_two_colors_keeps_them_beside_a_five_color_legend(cmr):
    """Pick 11: six plain playables in white and six in blue, two in each other color, and Najeela: the seat drafts
    white-blue, the colors its pool leans to, not the five its legend would need."""
    najeela = next(c for c in cmr if c.name == "Najeela, the Blade-Blossom")
    bot = Bot(BotStyle.STRONG, 1)
    lean = [*_playables(cmr, "W", 6), *_playables(cmr, "U", 6)]
    bot.remember([*lean, *(card for code in "BRG" for card in _playables(cmr, code, 2)), najeela])
    assert bot.plan(1 / 3).mask == ColorIdentity.parse("WU").mask


def _committed(cmr):
    bot = Bot(BotStyle.STRONG, 1)
    bot.remember([*_playables(cmr, "W", 14), *_playables(cmr, "U", 14)])
    return bot


def test_in_the_last_pack_a_set_deck_takes_its_playable_over_a_better_card_of_another_color(cmr):
    """First pick of pack 3, a white-blue pool of 28 playables: a black card our reference grades a point and a
    half better than a white playable is a hate pick at most, the playable makes the deck."""
    huntmaster = next(c for c in cmr if c.name == "Exquisite Huntmaster")
    playable = _playables(cmr, "W", 15)[14]
    assert reference.grade(huntmaster) >= reference.grade(playable) + 1.5
    pack = [Printing(huntmaster), Printing(playable)]
    assert pack[_committed(cmr).choose(pack, 1, 2 / 3)[0]].card is playable


def test_before_the_last_pack_a_much_better_card_of_another_color_still_goes_first(cmr):
    """Mid pack 2 the pool isn't settled yet: a strong drafter still takes the clearly better card."""
    huntmaster = next(c for c in cmr if c.name == "Exquisite Huntmaster")
    pack = [Printing(huntmaster), Printing(_playables(cmr, "W", 15)[14])]
    assert pack[_committed(cmr).choose(pack, 1, 0.45)[0]].card is huntmaster


def test_in_the_last_pack_a_hate_pick_still_beats_filler_of_the_decks_colors(cmr):
    """The last pack's rule is for playables: on-color filler (graded 1.5 or less) makes no deck better, so the
    strong card of another color (a hate pick) goes first."""
    cast_down = next(c for c in cmr if c.name == "Cast Down")
    filler = next(c for c in cmr if c.deck_colors.code in ("W", "U") and reference.grade(c) == 1.0)
    pack = [Printing(filler), Printing(cast_down)]
    assert pack[_committed(cmr).choose(pack, 1, 2 / 3)[0]].card is cast_down
