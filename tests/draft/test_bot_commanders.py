"""Bots draft toward the commander that will lead their deck: a bomb legend is worth building around, as the deck
builder counts it (``draft.bot_leaders.plan_worth``, ``draft.deck_spells.leader_value``)."""

from __future__ import annotations

import pytest

from draft import reference
from draft.bots import Bot, BotStyle
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
