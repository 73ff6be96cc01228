"""The pick value of the styles that aren't ``strong`` (``commander-first``, ``best-card``), on planted pools and
packs: a colorless card earns little for fitting (it fits every deck), a mediocre partner counts as a pair's half by
the weaker half's worth leading, and to a hunter in the last pack a card of another color is a hate pick over on-color
filler (docs/bots.md, "Styles")."""

from __future__ import annotations

import pytest

from draft.bots import Bot, BotStyle
from draft.traits import card_rating
from sets.booster import Printing
from sets.catalog import load_set


@pytest.fixture(scope="module")
def cmr():
    return {c.name: c for c in load_set("CMR").cards}


def _taken(bot: Bot, cards: list, progress: float) -> str:
    pack = [Printing(card) for card in cards]
    return pack[bot.choose(pack, 1, progress)[0]].card.name


def _pool(cmr, colors: str, size: int) -> list:
    """``size`` playable nonlegendary cards of exactly ``colors``, best first."""
    cards = [
        c
        for c in cmr.values()
        if c.deck_colors.code == colors and not c.is_legendary and not c.is_land and card_rating(c) >= 1.8
    ]
    return sorted(cards, key=lambda c: (-card_rating(c), c.name))[:size]


@pytest.mark.parametrize("style", [BotStyle.COMMANDER_FIRST, BotStyle.BEST_CARD])
def test_a_colorless_card_earns_little_for_fitting_a_committed_pool(cmr, style):
    # A red pool at mid draft: Arcane Signet (2.0, colorless) against Valakut Invoker (1.9, red). Before,
    # the colorless card gained the whole bonus for fitting the plan's colors and went first; it fits every deck, so
    # fitting is little merit (a fifth of the bonus, as to a strong seat), and the on-color card's fit outweighs the
    # small gap.
    red = cmr["Valakut Invoker"]
    bot = Bot(style, 1)
    bot.remember(_pool(cmr, "R", 24))
    assert _taken(bot, [cmr["Arcane Signet"], red], 0.5) == red.name
    # with the pool's colors decided the other way round, the red card is off color and the Signet goes first
    blue = Bot(style, 1)
    blue.remember(_pool(cmr, "U", 24))
    assert _taken(blue, [cmr["Arcane Signet"], red], 0.5) == "Arcane Signet"


def test_a_commander_hunter_holding_a_good_partner_values_a_mediocre_partner_by_the_pair_it_makes(cmr):
    # A green pool led by Kamahl, Heart of Krosa (a partner worth leading); offered Halana, Kessig Ranger (a mediocre
    # partner, graded 2.5: every pack holds one) and Sifter Wurm (rated higher as a card). Before, Halana earned the
    # hunter's floor of the pair bonus (0.55 of it) beside Kamahl and went first; a pair is worth what its weaker half
    # leads (``pair_hunted``, as two taken together are weighed), so the better card goes first.
    bot = Bot(BotStyle.COMMANDER_FIRST, 1)
    bot.remember([cmr["Kamahl, Heart of Krosa"], *_pool(cmr, "G", 12)])
    assert bot.plan(0.4).commanders[0].name == "Kamahl, Heart of Krosa"
    assert _taken(bot, [cmr["Halana, Kessig Ranger"], cmr["Sifter Wurm"]], 0.4) == "Sifter Wurm"


def test_in_the_last_pack_a_hunter_takes_a_bomb_of_another_color_as_a_hate_pick_over_on_color_filler(cmr):
    # A red pool in the last pack, offered Sphinx of the Second Sun (blue, graded 4: premium) beside a red filler card
    # (Rummaging Goblin, 1.1) or a red playable (Valakut Invoker, 1.9). Before, a hunter committed hard took the filler
    # and let the bomb go round to a seat that plays it; now the bomb is a hate pick over filler, and still comes
    # after an on-color card the deck would play, as to a strong seat.
    bot = Bot(BotStyle.COMMANDER_FIRST, 1)
    bot.remember(_pool(cmr, "R", 40))
    sphinx = cmr["Sphinx of the Second Sun"]
    assert _taken(bot, [sphinx, cmr["Rummaging Goblin"]], 0.85) == sphinx.name
    assert _taken(bot, [sphinx, cmr["Valakut Invoker"]], 0.85) == "Valakut Invoker"
    # A pool that could no longer hold a deck's spells in its colors with the cards still to come (10 red playables
    # and 40 colorless cards of no use, 10 cards to come) keeps its on-color filler: its deck may need it rather than
    # a 27th land (at a store with no Pipers, hunters' decks of 27 lands or more rose by a quarter without this).
    thin = Bot(BotStyle.COMMANDER_FIRST, 1)
    thin.remember([*_pool(cmr, "R", 10), *[cmr["Prophetic Prism"]] * 40])
    assert _taken(thin, [sphinx, cmr["Rummaging Goblin"]], 0.85) == "Rummaging Goblin"
