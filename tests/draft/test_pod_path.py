"""The pod path's shortcuts give what the long way gives: a bot that keeps what its pool's values gave (its plan,
its color shares, its leaders' need) ranks every pack exactly as a bot rebuilt from the same picks, and the deck
builder that leaves unbuilt the options that can't come first picks the ranking's first (issue 41)."""

from __future__ import annotations

from collections import Counter

import pytest

import draft.deckbuild as deckbuild
from draft.bots import Bot, BotStyle
from draft.commanders import can_pair, may_ever_lead, may_ever_pair
from draft.deck_ceilings import Ceilings
from draft.deck_spells import WIDTH_COST
from draft.deckbuild import _best, best_product_build, build_deck, quick_build, rank_commanders, ranked_builds
from draft.decks import Zone
from draft.engine import Draft, DraftConfig
from draft.hint import seat_advice, seat_pick
from draft.products import added_card, default_product
from draft.sim import pod_seeds, run_pod
from sets.basics import basic_land, basic_lands
from sets.catalog import load_set
from sets.userdata import one_reading
from tests.helpers.products import CLB, CMM


def rebuilt(style: BotStyle, seed: int, history: list) -> Bot:
    """A bot that never answered anything: the picks replayed into a new one."""
    bot = Bot(style, seed)
    for offered, taken, number in history:
        bot.learn(offered, taken, number)
    return bot


@pytest.mark.parametrize("style", list(BotStyle))
def test_a_bot_reusing_what_its_pool_gave_ranks_every_pack_as_a_rebuilt_bot(style):
    result = run_pod(5, styles=style)
    draft = result.draft
    total = float(draft.config.boosters)
    compared = 0
    for seat in range(draft.config.seats):
        kept = Bot(style, seat)
        history: list = []
        for pick in draft.picks_of(seat):
            progress = (pick.pack - 1 + (pick.pick - 1) / draft.picks_per_pack) / total
            pack = list(pick.offered)
            again = kept._ranked(pack, progress)  # asked twice: the second answer comes from what was kept
            assert kept._ranked(pack, progress) == again
            assert rebuilt(style, seat, history)._ranked(pack, progress) == again
            assert kept.plan(progress) == rebuilt(style, seat, history).plan(progress)
            taken = [p.card for p in pick.taken]
            kept.learn(pick.offered, taken, pick.pick)
            history.append((pick.offered, taken, pick.pick))
            compared += 1
    assert compared == draft.config.seats * len(draft.picks_of(0))


@pytest.mark.parametrize("style", list(BotStyle))
def test_the_deck_builder_picks_the_rankings_first_option_and_deck(style):
    for seed in pod_seeds(41, 4):
        for seat in run_pod(seed, styles=style).seats:
            pool = Counter(p.card for p in seat.pool)
            ranking = ranked_builds(pool, None)
            assert _best(pool, None) == ranking[0]


@pytest.mark.parametrize("pipers", [None, 1])
def test_a_bots_quick_build_is_the_quick_rankings_first(pipers):
    """What a bot asks in the last pack (``quick_build``: the best estimate and the best two of two colors, the rest
    unbuilt where their ceiling can't win) is the first of the quick ranking that builds them all."""
    product = default_product()
    for seed in pod_seeds(43, 4):
        for seat in run_pod(seed, pipers=pipers).seats:
            pool = Counter(p.card for p in seat.pool[: product.booster_size * (product.boosters - 1)])
            ranking = ranked_builds(pool, added_card(product), 1, product, pipers)
            assert quick_build(pool, added_card(product), 1, product, pipers) == ranking[0]


@pytest.mark.parametrize(("seed", "seat"), [(10, 0), (13, 2)])
def test_every_list_of_commander_choices_starts_the_longer_one_and_leads_with_the_deck_auto_builds(seed, seat):
    # Pools where the end of a practice draft (five choices), 'suggest' (eight) and 'auto' disagreed: each list built
    # only its own count of options, and 'auto' its best four by estimate, missing the deck 'suggest' put first.
    pool = Counter(p.card for p in run_pod(seed).seats[seat].pool)
    piper = added_card(default_product())  # as the practice builder and `deck suggest` pass it
    longest = rank_commanders(pool, 10, piper=piper)
    assert [rank_commanders(pool, n, piper=piper) for n in range(1, 10)] == [longest[:n] for n in range(1, 10)]
    deck = build_deck(list(pool.elements()), piper)
    assert tuple(line.card.name for line in deck.lines if line.zone is Zone.COMMANDER) == longest[0].commanders


def ceiling_breaches(ceiling, pools) -> list[tuple[float, float]]:
    """(built value, ceiling) of every commander option of ``pools`` whose built deck is worth more than ``ceiling``
    says any build of it can be: a bound the deck builder may leave an option unbuilt by must never be beaten."""
    found = []
    for pool in pools:
        ranked = deckbuild._ranked(pool)
        rows, wastes = deckbuild._spell_rows(ranked), deckbuild._pool_wastes(pool)
        for _, leaders, _colors, _added, identity in deckbuild._options(pool, None, None, rows, None):
            value = deckbuild._build(ranked, leaders, identity, wastes).value
            bound = ceiling(rows, leaders, identity)
            if value > bound:
                found.append((value, bound))
    return found


def pods_pools(seeds: int) -> list[Counter]:
    return [
        Counter(p.card for p in seat.pool)
        for style in BotStyle
        for seed in pod_seeds(43, seeds)
        for seat in run_pod(seed, styles=style).seats
    ]


def test_no_built_deck_beats_the_ceiling_its_option_may_be_left_unbuilt_by():
    pools = pods_pools(2)

    def unraised(rows, leaders, identity):  # the planted fault: filler lands' worth forgotten, rows in pool order
        slots = deckbuild.DRAFT_MIN_SIZE - len(leaders) - (deckbuild.LANDS[0] if identity else 0)
        fitting = [max(0.0, rating) for mask, rating in rows if not mask & ~identity.mask][:slots]
        leading = sum(deckbuild.card_rating(c) for c in leaders if not deckbuild.is_piper(c))
        return sum(fitting) + leading - WIDTH_COST * max(0, len(identity) - 2) + 1e-6

    def ceiling(rows, leaders, identity):
        return Ceilings(rows).of(leaders, identity, deckbuild.FILLER_LANDS)

    def bound(rows, leaders, identity):  # kept per identity and count of leaders, asked before the ceiling
        return Ceilings(rows).bound(leaders, identity, deckbuild.FILLER_LANDS)

    assert ceiling_breaches(ceiling, pools) == []
    assert ceiling_breaches(bound, pools) == []
    assert ceiling_breaches(unraised, pools)


@pytest.mark.parametrize("may_add", [None, 0, 1])
def test_the_hints_plan_is_the_rankings_first_option_with_the_products_added_card(may_add):
    product = default_product()
    for seed in pod_seeds(29, 2):
        for seat in run_pod(seed).seats:
            pool = Counter(p.card for p in seat.pool)
            ranking = ranked_builds(pool, added_card(product), None, product, may_add)
            assert best_product_build(pool, product, may_add) == (ranking[0] if ranking else None)


def test_a_timers_pick_is_the_hints_cards_without_building_the_deck_its_reasons_name(monkeypatch):
    """A seat whose time ran out takes the strong bot's cards (the server's watcher asks ``seat_pick``): the same
    cards the hint shows, but not its reasons, so no commander option is built beyond the bot's own last-pack plan
    (three builds at most); the hint itself builds what the deck builder's search builds, not every option."""
    import draft.deckbuild as deckbuild

    calls = []
    real = deckbuild._build
    monkeypatch.setattr(deckbuild, "_build", lambda *args: calls.append(1) or real(*args))
    product = default_product()
    draft = Draft.new(DraftConfig(), seed=8)
    timed = hinted = searched = every = asked = 0
    while not draft.finished:
        for seat in range(draft.config.seats):
            if not draft.pack(seat):
                continue
            calls.clear()
            positions = seat_pick(draft, seat)
            timed += len(calls)
            if draft.round == 2:  # the last pack: the hint names the pool's best deck
                calls.clear()
                assert seat_advice(draft, seat).positions == positions
                hinted += len(calls)
                pool = Counter(p.card for p in draft.pools[seat])
                calls.clear()
                best_product_build(pool, product, None)
                searched += len(calls)
                calls.clear()
                ranked_builds(pool, added_card(product), None, product)
                every += len(calls)
                asked += 1
            draft.pick(seat, positions)
    assert timed <= 3 * asked, (timed, asked)
    assert searched <= hinted <= searched + 3 * asked < every / 4, (hinted, searched, every)


def test_the_deck_builder_leaves_unbuilt_the_options_that_cannot_come_first(monkeypatch):
    import draft.deckbuild as deckbuild

    calls = []
    real = deckbuild._build
    monkeypatch.setattr(deckbuild, "_build", lambda *args: calls.append(1) or real(*args))
    full = pruned = 0
    for seed in pod_seeds(7, 3):
        for seat in run_pod(seed, DraftConfig()).seats:
            pool = Counter(p.card for p in seat.pool)
            calls.clear()
            ranked_builds(pool, None)
            full += len(calls)
            calls.clear()
            _best(pool, None)
            pruned += len(calls)
    assert pruned < full


def test_inside_one_reading_the_basic_lands_are_looked_up_once(monkeypatch):
    import sets.userdata as userdata

    looked: list[str] = []
    real = userdata._read_kept
    monkeypatch.setattr(userdata, "_read_kept", lambda code: looked.append(code) or real(code))
    with one_reading():
        lands = [basic_land(letter) for letter in "WUBRG" * 20]
        assert basic_lands() is basic_lands()
    assert looked == ["BASIC"] and {land.name for land in lands} == {"Plains", "Island", "Swamp", "Mountain", "Forest"}
    basic_land("W")
    basic_land("U")
    assert looked == ["BASIC", "BASIC", "BASIC"]  # outside a block, each asks the file again


def test_the_straight_line_subset_sums_are_the_loops_to_the_last_bit():
    import random

    from draft.bot_plans import _subset_sums
    from draft.bot_plans import subset_sums as _fast_subset_sums

    rng = random.Random(41)
    for _ in range(500):
        values = [rng.random() * rng.choice((0.01, 1.0, 7.0)) for _ in range(32)]
        assert _fast_subset_sums(values) == _subset_sums(values)
    # what the sums are, from their meaning: the values of every mask inside each mask
    values = [float(1 << mask) for mask in range(32)]
    assert _fast_subset_sums(values) == [
        sum(values[inner] for inner in range(32) if inner & ~mask == 0) for mask in range(32)
    ]


def test_a_card_that_may_never_pair_pairs_with_no_card_of_any_product():
    """``may_ever_pair`` lets the pair searches skip a card: every pair ``can_pair`` allows among the CMR, CLB and CMM
    cards that can lead (each product's own rules, and a grant's across products) has both cards ``may_ever_pair``;
    and it says False of some legends (a gold legend with no partner ability), so it skips some."""
    cards = [
        card
        for source in (list(load_set("CMR")), list(CLB.values()), list(CMM.values()))
        for card in source
        if may_ever_lead(card)
    ]
    never = [card for card in cards if not may_ever_pair(card)]
    assert never
    for first in cards:
        for second in never:
            assert not can_pair(first, second) and not can_pair(second, first), (first, second)
