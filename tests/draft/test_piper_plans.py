"""The bots and the suggestions plan with the Pipers a seat can count on (docs/bots.md, "Pipers a seat can count on"):
with two sure a pod drafts exactly as without a store; with one a Piper leads a deck of one color; with none a seat
that follows the suggestions ends with a legal commander (draft.deck_rules.validate, adding no Piper) whenever the
packs offered one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from draft.bots import Bot, BotStyle
from draft.deck_rules import validate
from draft.deckbuild import build_deck
from draft.decks import is_piper
from draft.engine import Draft, DraftConfig
from draft.hint import explain_pick
from draft.products import product
from draft.sim import piper_card, pod_seeds, run_pod
from sets.booster import Printing
from sets.cards import Card
from sets.catalog import load_set, save_imported
from sets.importers import read_card_file
from sets.userdata import one_reading
from tests.helpers.products import CLB_FILE, CMM_FILE

MOST = 2  # Pipers a Commander Legends deck may add after the draft (docs/rules.md)


@pytest.fixture
def clb():
    """Battle for Baldur's Gate's test set imported into the test's data folder (as 'cmdraft sets import' does): one
    legend and one Background a booster, so its pools lack a legend more often than CMR's."""
    for card_set in read_card_file(CLB_FILE).card_sets():
        save_imported(card_set)
    return load_set("CLB")


@pytest.mark.parametrize(
    ("stock", "players", "sure"),
    [
        (16, 8, 2),  # two for each of the eight
        (15, 8, 1),  # seven others took two: one is left
        (14, 8, 0),
        (8, 8, 0),  # one a player, first come first served: nobody is sure of one
        (0, 8, 0),
        (1000, 8, 2),  # a deck adds two at most
        (1, 1, 1),
        (2, 1, 2),
        (5, 3, 1),
        (4, 3, 0),
    ],
)
def test_a_seat_is_sure_of_what_the_stock_leaves_after_every_other_player_took_two(stock, players, sure):
    assert product("CMR").added.sure_from(stock, players) == sure


def test_what_a_seat_is_sure_of_is_there_in_any_order_the_decks_register():
    option = product("CMR").added
    for players in range(1, 13):
        for stock in range(0, 30):
            sure = option.sure_from(stock, players)
            left = stock
            for _ in range(players - 1):  # every other deck registers first and adds all it may
                left -= min(MOST, left)
            assert left >= sure  # there for the last deck
            assert sure == MOST or left < sure + 1  # and no more could be promised


def pod_picks(seed: int, style: BotStyle, pipers: int | None) -> list[list[int]]:
    return [[pick.seat, *pick.positions] for pick in run_pod(seed, styles=style, pipers=pipers).draft.log]


@pytest.mark.parametrize("style", list(BotStyle))
def test_with_two_pipers_sure_a_pod_drafts_as_without_a_store(style):
    for seed in pod_seeds(41, 3):
        without = pod_picks(seed, style, None)
        assert pod_picks(seed, style, 2) == without
        assert pod_picks(seed, style, 5) == without


def follow(draft: Draft, pipers: int | None) -> Iterator[tuple[int, list[int], list[int]]]:
    """Every seat takes the suggested pick (``explain_pick``, the hint and the timer's pick) until the draft ends;
    yields each pick's seat, its suggestion and the one a seat without a store would get (until one differs: the
    suggestion itself from then on)."""
    passed: dict[int, list] = {seat: [] for seat in range(draft.config.seats)}
    differed = pipers is None  # the suggestion without a store is asked until one differs
    with one_reading():
        while not draft.finished:
            for seat in draft.waiting():
                pack, pool = draft.pack(seat), [p.card for p in draft.pools[seat]]
                progress = (draft.round + (draft.at(seat)[1] - 1) / draft.picks_per_pack) / draft.config.boosters
                asked = dict(progress=progress, count=draft.picks_due(seat), picks=passed[seat])
                positions = explain_pick(pack, pool, pipers=pipers, **asked).positions
                without = positions if differed else explain_pick(pack, pool, **asked).positions
                differed = differed or without != positions
                record = draft.pick(seat, positions)
                passed[seat].append((record.offered, record.pick))
                yield seat, positions, without


def could_lead(card: Card) -> bool:
    """A card that leads a deck of some color on its own (a Piper chooses one)."""
    return is_piper(card) or (card.can_be_commander and bool(card.identity))


def without_commander(draft: Draft, may_add: int) -> list[int]:
    """The seats whose automatic deck, adding at most ``may_add`` Pipers, is not legal by the deck rules or adds
    more Pipers than that."""
    piper = piper_card(draft.config.set_code)
    found = []
    for seat in range(draft.config.seats):
        pool = draft.pools[seat]
        deck = build_deck(pool, piper, "", may_add)
        added = sum(1 for c in deck.commanders if is_piper(c)) - sum(1 for p in pool if is_piper(p.card))
        offered = any(could_lead(p.card) for pick in draft.picks_of(seat) for p in pick.offered)
        assert offered, "every seat of these pods is offered a legend"
        if not validate(deck, [p.card for p in pool]).valid or added > may_add:
            found.append(seat)
    return found


def test_with_two_pipers_sure_the_suggestions_are_the_ones_without_a_store():
    draft = Draft.new(DraftConfig(seats=4), 17)
    picks = list(follow(draft, 2))
    assert all(positions == without for _, positions, without in picks)


@pytest.mark.parametrize(("code", "seed", "pods"), [("CMR", 5, 2), ("CLB", 3, 4)])
def test_following_the_suggestions_at_a_store_with_no_pipers_ends_with_a_legal_commander(request, code, seed, pods):
    if code == "CLB":
        request.getfixturevalue("clb")
    differed = 0
    for pod_seed in pod_seeds(seed, pods):
        draft = Draft.new(DraftConfig(seats=8, set_code=code), pod_seed)
        differed += sum(positions != without for _, positions, without in follow(draft, 0))
        assert without_commander(draft, 0) == []
    assert differed  # the seats planned for what the store gives, not for two added Pipers


def test_the_plan_for_two_added_pipers_leaves_seats_without_a_commander_at_a_store_with_none(clb):
    """The check above can fail: the same CLB pods, the suggestions counting on two Pipers as a draft without a store
    does, end with seats whose automatic deck without a Piper has no legal commander."""
    lost = 0
    for pod_seed in pod_seeds(3, 4):
        draft = Draft.new(DraftConfig(seats=8, set_code="CLB"), pod_seed)
        for _ in follow(draft, None):
            pass
        lost += len(without_commander(draft, 0))
        if lost:  # one such seat shows it (the check above would fail on these pods): the later pods add nothing
            break
    assert lost


def test_bots_at_a_store_with_no_pipers_build_legal_decks_without_one(clb):
    for pod_seed in pod_seeds(3, 4):
        result = run_pod(pod_seed, DraftConfig(seats=8, set_code="CLB"), pipers=0)
        assert without_commander(result.draft, 0) == []
        assert all(seat.report.valid for seat in result.seats)


def no_legend_pool(cmr) -> list[Card]:
    """Forty blue and red commons and uncommons, none legendary and no Piper: nothing of its own leads it."""
    cards = [
        c
        for c in cmr
        if c.rarity.letter in "CU" and not c.is_legendary and c.deck_colors.code in ("U", "R", "UR") and c.mana_value
    ]
    return cards[:40]


def test_one_sure_piper_plans_a_deck_of_one_color_and_none_wants_a_legend(cmr):
    pool = no_legend_pool(cmr)
    plans = {}
    for pipers in (None, 1, 0):
        bot = Bot(BotStyle.STRONG, 0, pipers=pipers)
        bot.remember(pool)
        plans[pipers] = bot.plan(0.7)
    assert plans[None].mask.bit_count() == 2 and not plans[None].leaderless  # two Pipers in its two colors
    assert plans[1].mask.bit_count() == 1 and not plans[1].leaderless  # one Piper: one color
    assert plans[0].mask == plans[None].mask and plans[0].leaderless  # none: its colors, and a legend wanted
    drafted = Bot(BotStyle.STRONG, 0, pipers=0)
    drafted.remember([*pool, next(c for c in cmr if is_piper(c))])
    assert drafted.sure_pipers() == 1 and not drafted.plan(0.7).leaderless  # a Piper it drafted is its own


def packs_of_the_last_pack(seeds: int) -> list[list]:
    """The packs bots were passed in the last round of their draft, in simulated CMR pods."""
    packs = []
    for seed in pod_seeds(7, seeds):
        draft = run_pod(seed).draft
        packs += [
            list(pick.offered) for pick in draft.log if pick.pack == draft.config.boosters and len(pick.offered) > 2
        ]
    return packs


def test_in_the_last_pack_a_leaderless_seat_takes_the_first_legend_it_is_offered(cmr):
    pool = no_legend_pool(cmr)
    offered = [pack for pack in packs_of_the_last_pack(2) if any(could_lead(p.card) for p in pack)]
    assert len(offered) > 20
    without_store = 0
    for pack in offered:
        advice = explain_pick(pack, pool, pipers=0, progress=2 / 3)
        assert any(could_lead(card.card) for card in advice.cards), [p.card.name for p in pack]
        without_store += not any(could_lead(c.card) for c in explain_pick(pack, pool, progress=2 / 3).cards)
    assert without_store  # counting on two Pipers, the same seat passes some of them


def test_the_suggestion_says_why_a_legend_matters_at_a_store_with_no_pipers(cmr):
    legend = next(c for c in cmr if c.can_be_commander and not is_piper(c) and c.identity.code == "U")
    filler = [c for c in no_legend_pool(cmr) if c.rarity.letter == "C"][:5]
    advice = explain_pick([legend, *filler], no_legend_pool(cmr), pipers=0, progress=2 / 3)
    reasons = {card.card.name: card.reason for card in advice.cards}
    assert "your pool has no commander yet and the store's stock can't promise you Pipers" in reasons[legend.name]
    piper = next(c for c in cmr if is_piper(c))
    advice = explain_pick([piper, *filler], no_legend_pool(cmr), pipers=0, progress=2 / 3)
    taken = {card.card.name: card.reason for card in advice.cards}
    assert "this one can lead a deck of one color" in taken[piper.name]  # with none to give, a drafted one leads
    assert piper not in [c.card for c in explain_pick([piper, *filler], no_legend_pool(cmr), progress=2 / 3).cards]


# --- a plan counts only commanders that may lead together -------------------------------------------------------


def legal_leads(pool: list[Card], code: str, may_add: int | None) -> set[tuple[frozenset[str], int]]:
    """(the pool's own commanders by name, identity mask) of every commander choice the deck rules let the pool field
    (``usable_options``: partners, Partner with, a Background beside a legend that chooses one, the product's added
    card beside what it pairs with or alone, two of it only where two pair), adding at most ``may_add``."""
    from collections import Counter

    from draft.commanders import commander_identity, usable_options

    found = set()
    for commanders, colors, _added in usable_options(Counter(pool), piper_card(code), may_add=may_add):
        own = frozenset(c.name for c in commanders if not is_piper(c))
        found.add((own, commander_identity(commanders, colors).mask))
    return found


def planned(plan) -> tuple[frozenset[str], int]:
    return frozenset(c.name for c in plan.commanders), plan.mask


@pytest.mark.parametrize(("code", "pipers"), [("CMR", None), ("CLB", None), ("CLB", 0), ("CMM", None), ("CMM", 1)])
def test_every_plan_a_bot_makes_is_a_commander_choice_the_deck_rules_allow(request, code, pipers):
    """At every pick of every seat, the plan (its commanders and identity, with what the Pipers it counts on add) is
    one the deck rules would accept for the pool it has then (a plan that still wants a legend aside: it leads
    nothing yet)."""
    if code != "CMR":
        for card_set in read_card_file(CLB_FILE if code == "CLB" else CMM_FILE).card_sets():
            save_imported(card_set)
    checked = 0
    for pod_seed in pod_seeds(11, 2):
        with one_reading():
            draft = Draft.new(DraftConfig(seats=8, set_code=code), pod_seed)
            bots = {seat: Bot(BotStyle.STRONG, pod_seed * 1009 + seat, pipers=pipers) for seat in range(8)}
            while not draft.finished:
                for seat in draft.waiting():
                    bot, pack = bots[seat], draft.pack(seat)
                    progress = (draft.round + (draft.at(seat)[1] - 1) / draft.picks_per_pack) / draft.config.boosters
                    plan = bot.plan(max(progress, 0.5))  # committed: the plan's own identity, not "still open"
                    if bot.pool and not (plan.leaderless or plan.unled):
                        assert planned(plan) in legal_leads(bot.pool, code, pipers), (seat, plan)
                        checked += 1
                    record = draft.pick(seat, bot.choose(pack, draft.picks_due(seat), progress))
                    bot.learn(record.offered, [p.card for p in record.taken], record.pick)
    assert checked > 200


def test_the_plan_check_catches_a_pair_that_cannot_lead_together(cmr):
    """The check above can fail: two legends without a partner ability, or a Piper-less pool's two-color identity
    with no legend, are no commander choice at a store with no Pipers."""
    alone = [c for c in cmr if c.can_be_commander and not c.has_partner and c.identity][:2]
    pool = [*alone, *no_legend_pool(cmr)]
    legal = legal_leads(pool, "CMR", 0)
    assert (frozenset(c.name for c in alone), alone[0].identity.mask | alone[1].identity.mask) not in legal
    assert (frozenset(), 0b00110) not in legal  # blue and black led by nothing the pool holds
    assert (frozenset({alone[0].name}), alone[0].identity.mask) in legal


def test_a_product_whose_added_card_cannot_pair_with_itself_plans_one_of_it(cmr, monkeypatch):
    """Two added cards lead one deck only where they pair (the Piper has partner): were the added card a legend
    without a partner ability, a pool with no legend plans a deck of one color, as with one Piper sure."""
    import draft.bot_leaders

    pool = no_legend_pool(cmr)
    loner = next(c for c in cmr if c.can_be_commander and not c.has_partner)
    monkeypatch.setattr(draft.bot_leaders, "added_card", lambda _product: loner)
    bot = Bot(BotStyle.STRONG, 0)
    bot.remember(pool)
    assert bot.sure_pipers() == 1
    assert bot.plan(0.7).mask.bit_count() == 1


# --- a pick needs one card that leads ----------------------------------------------------------------------------


def test_a_leaderless_seat_takes_one_weak_legend_and_the_strong_card_not_two_weak_legends(cmr):
    """At a store with no Pipers, a pool with no legend wants a card that leads, but one gives it its lead: offered
    two weak partner legends (graded 2.5 or less by our reference) and a strong card of its colors (3.5 or more),
    it takes one legend and the strong card, early in pack 2 as late in the draft."""
    from draft import reference

    pool = no_legend_pool(cmr)
    colors = {c.deck_colors.code for c in pool}
    weak = [
        c
        for c in cmr
        if c.has_partner and not is_piper(c) and c.identity and (reference.grade(c) or 5.0) <= reference.WEAK_LEGEND
    ]
    strong = [
        c
        for c in cmr
        if (reference.grade(c) or 0.0) >= reference.STRONG and c.deck_colors.code in colors and not c.is_legendary
    ]
    assert len(weak) >= 4 and len(strong) >= 3
    filler = [Printing(c) for c in pool if (reference.grade(c) or 0.0) <= 1.5][:4]
    for first, second in ((weak[0], weak[1]), (weak[2], weak[3])):
        for card in strong[:3]:
            pack = [Printing(first), Printing(second), Printing(card), *filler]
            for progress in (0.34, 0.5, 0.7):
                bot = Bot(BotStyle.STRONG, 0, pipers=0)
                bot.remember(pool[:30])
                taken = {pack[i].card for i in bot.choose(pack, 2, progress)}
                assert card in taken and len(taken & {first, second}) == 1, (progress, [c.name for c in taken])


def test_a_pool_led_only_in_other_colors_keeps_its_two_deepest_while_a_legend_of_theirs_may_still_come(cmr):
    """At a store with no Pipers, a pool of red and green cards whose only legend is blue drafts red and green while
    many packs are still to come (a legend of theirs likely among them), and its legend's colors when few picks are
    left: a red-green deck with no legend of its own can't be played."""
    red_green = [
        c for c in cmr if c.rarity.letter in "CU" and not c.is_legendary and c.deck_colors.code in ("R", "G", "RG")
    ][:20]
    blue = next(c for c in cmr if c.can_be_commander and not is_piper(c) and c.identity.code == "U")
    plans = {}
    for progress in (0.3, 0.9):
        bot = Bot(BotStyle.STRONG, 0, pipers=0)
        bot.remember([blue, *red_green])
        plans[progress] = bot.plan(progress)
    assert plans[0.3].unled and not plans[0.3].commanders  # still hoping for a legend of its deepest colors
    assert not plans[0.9].unled and plans[0.9].commanders == (blue,) and plans[0.9].mask == blue.identity.mask
