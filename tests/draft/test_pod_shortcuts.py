"""More of the pod path's shortcuts give what the long way gives, to the last bit (issue 41): a pool's leader options
kept as its cards arrive, the pair search's quick answer, the deck builder's card tests kept per card, the basics that
meet every need given at once, and the colors of an identity read from a table.  Each check is shown able to fail by a
planted fault."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from itertools import combinations

import pytest

from draft.bot_leaders import PoolLeaders, lead_strength, plan_worth
from draft.bot_pairs import best_pair, can_pair, lead_gain, pair_hunted, pair_need, plain_pair
from draft.bots import Bot, BotStyle
from draft.commanders import added_card_options, may_ever_pair
from draft.deck_spells import benched_wipe, cheap_ramp, is_rock, ramp_cut, real_wipe
from draft.decks import is_piper
from draft.manabase import basics_for_needs, source_needs
from draft.products import added_card
from draft.sim import run_pod
from draft.traits import COLOR_INDEXES, card_traits
from sets.basics import basic_land
from sets.cards import CommanderAbility
from sets.catalog import load_set
from sets.colors import Color, ColorIdentity, identity_from_mask
from sets.userdata import one_reading
from tests.helpers.products import CLB, CMM

# --- a pool's leader options, kept as its cards arrive ----------------------------------------------------------------


def options_anew(leaders: PoolLeaders) -> list:
    """``PoolLeaders.options`` made from scratch of the pool's legends and Backgrounds, the way it was made before it
    kept its entries: every pair asked again, sorted by the places of its cards, each worth summed again."""
    legends, backgrounds = leaders._legends, leaders._backgrounds
    options = [(card.identity.mask, (card,)) for card in legends]
    pairs = [(i, j) for j, b in enumerate(legends) if may_ever_pair(b) for i in range(j) if can_pair(legends[i], b)]
    options += [
        (legends[i].identity.mask | legends[j].identity.mask, (legends[i], legends[j])) for i, j in sorted(pairs)
    ]
    with_background = [(i, j) for i, a in enumerate(legends) for j, b in enumerate(backgrounds) if can_pair(a, b)]
    options += [
        (legends[i].identity.mask | backgrounds[j].identity.mask, (legends[i], backgrounds[j]))
        for i, j in sorted(with_background)
    ]
    options += added_card_options(options, backgrounds, added_card(leaders.product()))
    return [(mask, group, sum(map(plan_worth, group))) for mask, group in options]


def held_anew(leaders: PoolLeaders) -> list:
    seen, held = set(), []
    for _mask, group, _worth in options_anew(leaders):
        if group not in seen:
            seen.add(group)
            colors = 0
            for card in group:
                colors |= card.identity.mask
            held.append((colors, group, lead_strength(group)))
    return sorted(held, key=lambda entry: entry[2], reverse=True)


def leader_pools(count: int) -> list[list]:
    """Pools of each product's legends and Backgrounds (with spells among them), in a random order each."""
    rng = random.Random(41)
    pools = []
    for cards in (list(load_set("CMR")), list(CLB.values()), list(CMM.values())):
        leads = [c for c in cards if c.can_be_commander or CommanderAbility.BACKGROUND in c.abilities]
        spells = [c for c in cards if not c.can_be_commander][:40]
        pools += [rng.sample(leads, 14) + rng.sample(spells, 6) + rng.sample(leads, 4) for _ in range(count)]
    return pools


def leaders_mismatch(pools: list[list], add: Callable[[PoolLeaders, object], None]) -> list[str]:
    """Where a pool's kept options, their held leads or its halves differ from what making them anew gives, each
    asked between the cards' arrivals (so a kept answer is asked again after the pool changed)."""
    found = []
    for pool in pools:
        leaders = PoolLeaders()
        for at, card in enumerate(pool):
            add(leaders, card)
            if at % 3 == 0:
                continue  # some cards arrive unasked: two leaders may come between two questions
            halves = [c for c in leaders._legends + leaders._backgrounds if may_ever_pair(c)]
            if leaders.options() != options_anew(leaders):
                found.append(f"options after {card.name}")
            if leaders.held() != held_anew(leaders):
                found.append(f"held after {card.name}")
            if leaders.halves() != halves:
                found.append(f"halves after {card.name}")
            if leaders.own() != leaders.options()[: len(leaders.own())]:
                found.append(f"own after {card.name}")
    return found


def test_a_pools_kept_leader_options_are_what_making_them_anew_gives():
    pools = leader_pools(12)
    assert sum(len(filled(pool).options()) for pool in pools) > 300  # pairs and added options among them
    assert leaders_mismatch(pools, arrived) == []

    def stale_halves(leaders: PoolLeaders, card) -> None:  # the planted fault: halves kept past a leader's arrival
        kept = leaders._halves
        arrived(leaders, card)
        leaders._halves = kept

    assert leaders_mismatch(pools, stale_halves)


def arrived(leaders: PoolLeaders, card) -> None:
    """A card the pool took, as a bot's pool takes it: a leader or a Background has its options made again."""
    leaders.add(card)
    traits = card_traits(card)
    if (traits.leader or traits.half) and not traits.piper:
        leaders.forget_options()


def filled(pool: list) -> PoolLeaders:
    leaders = PoolLeaders()
    for card in pool:
        arrived(leaders, card)
    return leaders


def test_a_new_leader_makes_a_new_options_list_that_a_bots_kept_plan_is_not_read_from():
    card_set = load_set("CMR")
    legends = [c for c in card_set if c.can_be_commander and not is_piper(c)][:3]
    leaders = PoolLeaders()
    arrived(leaders, legends[0])
    first = leaders.options()
    assert leaders.options() is first  # asked again: the same list
    arrived(leaders, legends[1])
    assert leaders.options() is not first and len(leaders.options()) > len(first)


# --- the pair search's quick loop ----------------------------------------------------------------------------------


def best_pair_in_full(pack, plan, scored, progress, leaders, strong, fit: float = 0.2) -> tuple[int, int]:
    """``best_pair`` as it was, with no quick loop: every pair of the six best weighed with every step."""
    mask = plan.mask
    top = []
    for value, i in scored[:6]:
        traits = card_traits(pack[i].card)
        top.append((value, i, pack[i].card, traits, traits.leader or traits.half, (traits.mask | mask) == mask))
    best, best_value = (top[0][1], top[1][1]), float("-inf")
    gain = lead_gain(plan, progress) if plan.leaderless or plan.unled else None
    for (sa, ia, a, ta, la, xa), (sb, ib, b, tb, lb, xb) in combinations(top, 2):
        value = sa + sb
        if gain is not None:
            value -= min(gain(ta), gain(tb))
        if la and lb and a is not b and can_pair(a, b):
            value += 0.8 * (pair_need(a, b, leaders) if strong else pair_hunted(a, b))
        if xa and xb:
            value += fit
        if value > best_value:
            best, best_value = (ia, ib), value
    return best


def pair_mismatches(search: Callable[..., tuple[int, int]]) -> tuple[int, int, int]:
    """(picks where ``search`` and the full loop differ, picks the quick loop answered, picks in all) over pods of
    every style and Piper count."""
    differ = quick = total = 0
    for style, pipers in [(BotStyle.STRONG, None), (BotStyle.COMMANDER_FIRST, 0), (BotStyle.BEST_CARD, 1)]:
        result = run_pod(11, styles=style, pipers=pipers)
        draft = result.draft
        for seat in range(draft.config.seats):
            bot = Bot(style, seat, pipers=pipers)
            for pick in draft.picks_of(seat):
                progress = (pick.pack - 1 + (pick.pick - 1) / draft.picks_per_pack) / draft.config.boosters
                pack = list(pick.offered)
                if len(pack) > 2:
                    plan, scored = bot._ranked(pack, progress)
                    args = (pack, plan, scored, progress, bot._leaders, style is BotStyle.STRONG)
                    tops = [card_traits(pack[i].card) for _, i in scored[:6]]
                    quick += not (plan.leaderless or plan.unled) and sum(t.leader or t.half for t in tops) < 2
                    differ += search(*args) != best_pair_in_full(*args)
                    total += 1
                bot.learn(pick.offered, [p.card for p in pick.taken], pick.pick)
    return differ, quick, total


def test_the_pair_searchs_quick_loop_takes_the_pair_the_full_loop_takes():
    differ, quick, total = pair_mismatches(best_pair)
    assert differ == 0 and 0 < quick < total  # both loops were asked

    def unfitted(*args):  # the planted fault: the quick answer forgets the plan's colors
        return best_pair_in_full(*args, fit=0.0)

    assert pair_mismatches(unfitted)[0] > 0


def plain_pair_by_loop(top) -> tuple[int, int]:
    best, best_value = (top[0][1], top[1][1]), float("-inf")
    for (sa, ia, *_, xa), (sb, ib, *_, xb) in combinations(top, 2):
        value = sa + sb
        if xa and xb:
            value += 0.2
        if value > best_value:
            best, best_value = (ia, ib), value
    return best


def test_the_plain_pair_is_the_loops_first_best_pair_ties_and_all():
    rng = random.Random(3)
    tops = []
    for _ in range(5000):
        size = rng.randrange(2, 7)
        # scores on a coarse grid (ties, and pairs 0.2 apart) or anywhere, best first as ``scored`` gives them
        scores = sorted((rng.choice((rng.randrange(8) / 10, rng.random() * 5)) for _ in range(size)), reverse=True)
        tops.append([(score, place, None, None, False, rng.random() < 0.5) for place, score in enumerate(scores)])
    assert [plain_pair(top) for top in tops] == [plain_pair_by_loop(top) for top in tops]

    def inside_on_a_tie(top):  # the planted fault: the pair inside the plan taken where it only ties the first two
        inside = [entry for entry in top if entry[5]][:2]
        if len(inside) == 2 and inside[0][0] + inside[1][0] + 0.2 >= top[0][0] + top[1][0]:
            return inside[0][1], inside[1][1]
        return top[0][1], top[1][1]

    assert any(inside_on_a_tie(top) != plain_pair_by_loop(top) for top in tops)


# --- the deck builder's card tests and basics ----------------------------------------------------------------------


def test_the_deck_builders_card_tests_kept_per_card_are_their_definitions():
    cards = [*load_set("CMR"), *CLB.values(), *CMM.values()]
    for card in cards:
        traits = card_traits(card)
        assert cheap_ramp(card) == ("ramp" in traits.roles and traits.mana_value <= 3)
        assert real_wipe(card) == ("wipe" in traits.roles and traits.rating >= 1.4)
        assert is_rock(card) == (traits.source and not traits.land)
        assert card.chooses_color == (CommanderAbility.CHOOSES_COLOR in card.abilities)
    # a card made again with other abilities (``dataclasses.replace``, as an import does) reads them anew
    piper = next(card for card in cards if card.chooses_color)
    assert not replace(piper, abilities=frozenset()).chooses_color
    assert replace(cards[0], abilities=frozenset({CommanderAbility.CHOOSES_COLOR})).chooses_color
    ramp = [c for c in cards if cheap_ramp(c)]
    assert ramp_cut(ramp[:2]) == 0 and ramp_cut(ramp[:3]) == 1 and ramp_cut(ramp[:6]) == 2
    wipes = [c for c in cards if real_wipe(c)]
    assert benched_wipe([], wipes[:1]) == 1 and benched_wipe(wipes[:1], wipes[:1]) == 0
    white = ColorIdentity.parse("W")
    shown = [c for c in cards if card_traits(c).cost_mask == Color.W.bit][:2]
    assert list(source_needs([], shown, white)) == [Color.W]


def basics_by_loop(spells, identity, count, needs, have) -> tuple[Counter, int]:
    """``basics_for_needs`` as it was: every basic that meets a need given one at a time, most missing first."""
    colors = list(identity)
    held = [have[color] for color in colors]
    shares = [0] * len(colors)
    missing = [max(0, needs.get(color, 0) - n) for color, n in zip(colors, held, strict=True)]
    budget = count
    while budget and any(missing):
        at = missing.index(max(missing))
        shares[at] += 1
        missing[at] -= 1
        budget -= 1
    weights = [
        float(sum(card_traits(card).symbols[index] for card in spells)) for index in COLOR_INDEXES[identity.mask]
    ]
    ratios = [(weights[at] + 1.0) / (1 + shares[at] + held[at]) for at in range(len(colors))]
    for _ in range(budget):
        at = ratios.index(max(ratios))
        shares[at] += 1
        ratios[at] = (weights[at] + 1.0) / (1 + shares[at] + held[at])
    return Counter({basic_land(color.value): n for color, n in zip(colors, shares, strict=True) if n}), sum(missing)


def test_basics_that_meet_every_need_at_once_are_the_ones_given_one_at_a_time():
    rng = random.Random(5)
    spells = [c for c in load_set("CMR") if not c.is_basic_land]
    met = short = 0
    with one_reading():
        for _ in range(400):
            identity = identity_from_mask(rng.randrange(1, 32))
            needs = {color: rng.choice((0, 6, 8, 10, 12, 14)) for color in identity}
            have = Counter({color: rng.randrange(0, 9) for color in identity})
            count = rng.randrange(0, 26)
            deck = rng.sample(spells, 30)
            found = basics_for_needs(deck, identity, count, needs, have)
            assert found[:2] == basics_by_loop(deck, identity, count, needs, have) and found[2] == 0  # no shares asked
            met += found[1] == 0
            short += found[1] > 0
    assert met and short  # both ways taken


# --- an identity's colors from a table -----------------------------------------------------------------------------


@pytest.mark.parametrize("mask", range(32))
def test_an_identity_lists_its_colors_in_wubrg_order_and_each_color_its_bit(mask):
    identity = ColorIdentity.of(color for index, color in enumerate(Color) if mask >> index & 1)
    assert identity.mask == mask
    assert list(identity) == [color for color in Color if identity.mask & (1 << list(Color).index(color))]
    assert [color.bit for color in Color] == [1, 2, 4, 8, 16]
    assert list(identity) == list(identity)  # asked again: the same colors
