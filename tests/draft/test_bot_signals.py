"""Signals a strong drafter reads (``draft.bot_signals``): a color is open when its good cards keep coming later than a
fresh booster's share of them says, not when the set simply has more of them; a seat passed an open color in the
first pack moves into it."""

from __future__ import annotations

import random

import pytest

import draft.bots
from draft.bot_signals import fresh_shares, read_signals
from draft.bots import Bot, BotStyle
from draft.traits import card_rating, card_traits
from sets.booster import booster_spec
from sets.cards import Card, Face, Rarity
from sets.catalog import load_set
from sets.identity import make_card
from sets.mana import ManaCost
from sets.type_line import parse_type_line

BLACK = 2  # WUBRG places


def average_booster(boosters: int = 1000) -> list[Card]:
    """What ``boosters`` fresh CMR draft boosters hold on average, as one big pack: every card of every sheet as many
    times as its weight and its slots give it (the set's booster definition, nothing of the bots)."""
    spec = booster_spec(load_set("CMR"))
    pack: list[Card] = []
    for variant in spec.variants:
        for name, count in variant.contents:
            sheet = spec.sheets[name]
            for printing, weight in zip(sheet.printings, sheet.weights, strict=True):
                share = boosters * variant.weight * count * weight / (spec.total_weight * sheet.total)
                pack += [printing.card] * round(share)
    return pack


@pytest.fixture(scope="module")
def average() -> list[Card]:
    return average_booster()


def test_the_sets_colors_are_not_equally_deep_so_raw_depth_would_favor_one(average):
    """The premise: CMR's good cards are not spread evenly, so a seat that summed what it saw would read the deep
    color as open whatever the seats upstream take."""
    good = [0.0] * 5
    for card in average:
        traits = card_traits(card)
        if card_rating(card) > 1.8 and len(traits.color_indexes) == 1:
            good[traits.color_indexes[0]] += card_rating(card) - 1.8
    assert max(good) > 1.5 * min(good), good


def test_a_pack_holding_what_a_fresh_booster_holds_says_no_color_is_open(average):
    """Nothing was taken out of the average booster: every color arrived as expected, however deep."""
    signals = [0.0] * 5
    read_signals(signals, average, 5, fresh_shares(average[0]))
    scale = sum(card_rating(card) for card in average) / 100  # a tolerance of 1% of the pack's ratings
    assert all(abs(value) < scale for value in signals), signals


def test_a_color_taken_upstream_reads_closed_and_the_others_open_even_the_deepest(average):
    """Upstream seats took half the black cards worth a pick: black is short of its share, every other color above."""
    black_good = [c for c in average if card_traits(c).color_indexes == (BLACK,) and card_rating(c) >= 2.5]
    pack = list(average)
    for card in black_good[::2]:
        pack.remove(card)
    signals = [0.0] * 5
    read_signals(signals, pack, 5, fresh_shares(pack[0]))
    assert signals[BLACK] < 0 and all(value > 0 for i, value in enumerate(signals) if i != BLACK), signals


def _bear(color: str, number: int) -> Card:
    cost = "{1}{" + color + "}"
    face = Face(f"Bear {color}{number}", cost, "Creature — Bear", *parse_type_line("Creature — Bear"), "",
                ManaCost.parse(cost).colors, power=2, toughness=2)  # fmt: skip
    return make_card([face], name=face.name, set_code="TST", number=f"{color}{number}", rarity=Rarity.COMMON)


def open_color_share(trials: int = 120) -> float:
    """The planted open color: a strong seat holds the same three bears in each of three colors and one more in a
    color other than X (its pool leans one card away from X); the first pack's CMR boosters reach it after seats
    upstream took the best cards, valuing X's half a point less (they draft other colors).  The share of seeded trials
    in which its plan after the first pack includes X."""
    spec = booster_spec(load_set("CMR"))
    moved = 0
    for trial in range(trials):
        rng = random.Random(trial)
        three = rng.sample("WUBRG", 3)
        x = "WUBRG".index(three[0])
        bot = Bot(BotStyle.STRONG, seed=trial)
        bot.remember([_bear(color, i) for color in three for i in range(3)] + [_bear(three[1], 9)])
        boosters = spec.open_many(rng, 10)
        bot.observe(boosters[0].printings, 1)
        for pick in range(2, 11):
            pack = list(boosters[pick - 1].printings)
            wanted = sorted(
                pack,
                key=lambda p: -(card_rating(p.card) - 0.5 * (card_traits(p.card).mask >> x & 1)) + 0.3 * rng.random(),
            )
            for printing in wanted[: 2 * (pick - 1)]:
                pack.remove(printing)
            bot.observe(pack, pick)
        moved += bool(bot.plan(0.3).mask >> x & 1)
    return moved / trials


def test_a_seat_passed_an_open_color_in_the_first_pack_moves_into_it():
    """A strong drafter takes the open color over one more card of a color the seats upstream are taking: most of
    the time (here 80% and more; without reading the flow it would follow its pool, under half the time)."""
    assert open_color_share() >= 0.8


def test_the_open_color_audit_catches_a_seat_that_reads_no_signals(monkeypatch):
    """The planted fault: what the packs say is never read (the old reading changed next to nothing in pods)."""
    monkeypatch.setattr(draft.bots, "read_signals", lambda *args: None)
    assert open_color_share() < 0.6


def test_signals_are_read_in_the_first_pack_only_and_a_rebuilt_seat_reads_the_same():
    """The second pack passes the other way and by the last the deck is set: a seat reads the first pack's flow."""
    spec = booster_spec(load_set("CMR"))
    rng = random.Random(5)
    bot, again = Bot(BotStyle.STRONG, seed=1), Bot(BotStyle.STRONG, seed=1)
    for round_index in range(3):
        boosters = spec.open_many(rng, 10)
        for pick in range(1, 11):
            pack = boosters[pick - 1].printings[2 * (pick - 1) :]
            before = list(bot.signals)
            bot.learn(pack, [], pick)
            again.learn(pack, [], pick)
            if round_index and pick > 1:
                assert bot.signals == before
    assert any(bot.signals) and bot.signals == again.signals
