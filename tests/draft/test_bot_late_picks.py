"""Finding 8 of the drafter's review: once its deck is settled (the last pack), a bot drafts for the deck its builder
will make, not for a wider plan the builder won't play.  The figures are counted by our reference grades
(``draft.reference``) over seeded pods of each product, never by the bots' own ratings; each test catches a planted
fault."""

from __future__ import annotations

from collections import defaultdict

import pytest

from draft import bots, reference
from draft.bots import Bot, BotStyle
from draft.engine import DraftConfig
from draft.sim import run_pod
from draft.traits import card_traits
from sets.booster import Printing
from sets.catalog import load_set
from tests.helpers.products import import_products, is_background

SEEDS = range(1, 13)


@pytest.fixture
def imported(cli) -> None:
    import_products(cli)


def _cmr_spells(cards: dict, code: str, count: int) -> list:
    found = [
        c
        for c in cards.values()
        if c.identity.code == code and not c.can_be_commander and not c.is_land and card_traits(c).rating >= 1.8
    ]
    return sorted(found, key=lambda c: c.name)[:count]


@pytest.mark.parametrize(
    "fault",
    [
        pytest.param((Bot, "_built_lead", lambda self: (0, ())), id="the-feature-switched-off"),
        pytest.param((bots, "quick_build", lambda *args, **kwargs: None), id="the-builder-never-asked"),
    ],
)
def test_in_the_last_pack_a_bot_takes_a_card_of_its_decks_colors_over_a_better_one_of_a_color_the_builder_drops(
    fault, monkeypatch
):
    # The pool: Zur (white-blue-black, a legend too weak to be worth leading over two Pipers) and deep white and blue
    # but four black spells: the builder plays white-blue (a color of so few spells doesn't pay for its mana), so in
    # the last pack a black card is one the deck won't play.
    cards = {c.name: c for c in load_set("CMR").cards}
    white, blue, black = _cmr_spells(cards, "W", 17), _cmr_spells(cards, "U", 18), _cmr_spells(cards, "B", 30)
    black_card = max(black[4:], key=lambda c: card_traits(c).rating)
    pool = [cards["Zur the Enchanter"], *white, *blue, *black[:4]]
    on_color = [
        c
        for c in _cmr_spells(cards, "W", 99)
        if c not in white and card_traits(c).rating < card_traits(black_card).rating
    ]
    white_card = max(on_color, key=lambda c: card_traits(c).rating)  # a near tie, a little below the black card
    assert card_traits(black_card).rating - card_traits(white_card).rating <= 0.5
    pack = [Printing(black_card), Printing(white_card)]

    def taken() -> str:
        bot = Bot(BotStyle.STRONG, 1)
        bot.remember(pool)
        return pack[bot.choose(pack, 1, 2 / 3)[0]].card.name

    assert taken() == white_card.name
    # The planted fault: the last-pack plan is not narrowed to the built deck (``Bot._built_lead`` answers nothing,
    # or the builder it asks answers nothing); every other rule of the bot stands.
    monkeypatch.setattr(*fault)
    assert taken() == black_card.name


def _spare_background(card, held: list, mask: int) -> bool:
    """A Background the deck can't use: a copy of one held, or one past the two of the deck's colors held (one leads,
    the main deck plays one more at most: the deck rules of docs/bots.md)."""
    if not is_background(card):
        return False
    inside = {c for c in held if is_background(c) and not c.identity.mask & ~mask}
    return card in inside or len(inside) >= 2


def _off_deck_picks(code: str) -> tuple[int, int]:
    """Over seeded pods: (pack-3 cards taken, those outside the seat's final deck colors taken while the pack held a
    card of its colors that would have made its deck: graded above its weakest main-deck spell, and not a Background
    the deck can't use)."""
    picks = off = 0
    for seed in SEEDS:
        result = run_pod(seed, DraftConfig(seats=8, set_code=code))
        masks = [seat.report.color_identity.mask for seat in result.seats]
        weakest = [
            min((reference.grade(c) or 0.0 for c in seat.deck.main if not c.is_land), default=0.0)
            for seat in result.seats
        ]
        pools: dict[int, list] = defaultdict(list)
        for pick in result.draft.log:
            mask, taken = masks[pick.seat], [p.card for p in pick.taken]
            held = pools[pick.seat]
            pools[pick.seat] = held + taken
            if pick.pack != 3:
                continue
            left = [p.card for p in pick.offered]
            for card in taken:
                left.remove(card)
            deckable = any(
                not c.identity.mask & ~mask
                and not c.is_land
                and (reference.grade(c) or 0.0) > weakest[pick.seat]
                and not _spare_background(c, held, mask)
                for c in left
            )
            picks += len(taken)
            off += sum(1 for c in taken if c.identity.mask & ~mask and deckable)
    return picks, off


@pytest.mark.parametrize("code", ["CMR", "CLB", "CMM"])
def test_last_pack_picks_match_the_deck_built_and_a_bot_ignoring_its_plan_is_caught(code, imported, monkeypatch):
    """A guard, not the test of the last-pack narrowing (``Bot._built_lead``; the hand-made pool above is): a settled
    drafter takes a card that makes its deck over one of a color its deck won't play, at most one pick in fifty (a
    bomb may still be taken from the table).  The bots met it before the narrowing too: over these 12 pods of each
    product, off-deck picks with the narrowing switched off (the rest of the code as it stands) CMR 20, CLB 31, CMM 12
    of 1920 (1.04%, 1.61%, 0.62%); with it 17, 31, 10 (0.89%, 1.61%, 0.52%); at its parent commit 61d32c0 20, 30, 9.
    A gap of a few picks in 1920 (none for CLB) is too small for a figure to tell them apart, so this guards colour
    discipline as a whole: its planted fault is a bot whose plan's colors count for nothing.  A Background the deck
    can't use (a third of its colors: ``_spare_background``) makes no deck, so it isn't counted as one: since the bots
    value it so (tests/draft/test_bot_backgrounds.py) they take a strong off-color card over it, 38 such CLB picks
    that counting it would call off-deck; not counting it, CLB's figure is 27 before that change and 25 after."""
    picks, off = _off_deck_picks(code)
    assert picks >= 1800 and off <= 0.02 * picks, (picks, off)
    monkeypatch.setattr(bots, "OFF_COLOR", -1.0)  # the fault: the plan's colors count for nothing
    picks, off = _off_deck_picks(code)
    assert off > 0.02 * picks, (picks, off)
