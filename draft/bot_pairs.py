"""How well cards lead together, as a bot weighs them (``draft.bots``): a commander's or a pair's strength, and what
a card adds as a leader or as the other half of a pair its pool could field.

Which two cards may lead together is ``draft.commanders.can_pair``'s answer (Partner, Partner with NAME,
Partner—GROUP and Friends forever, Choose a Background beside a legendary Background, Doctor's companion beside a
Time Lord Doctor, a product's grant); how strong a pair leads is ``draft.bot_leaders.lead_strength``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

from draft.bot_leaders import BLANK_HALF, WEAK_LEADER, PoolLeaders, is_half, lead_strength
from draft.bot_plans import Plan, lead_gain
from draft.commanders import can_pair, may_ever_pair
from draft.traits import Kept, Traits, card_traits
from sets.booster import Printing
from sets.cards import Card

HAPPY = 2.8  # a leader rated this or more is one a strong drafter is happy to play: more legends add little
# What a card adds as the other half of a commander the pool holds counts in full from this much better a lead; two
# halves taken together, from twice as much (both are a gamble still, and the packs offer pairs every round).
HALF_SPAN = 0.5
PAIR_SPAN = 1.0


def held_best(leaders: PoolLeaders, mask: int, card: Card | None = None, inside: bool = False) -> float:
    """The strength of the best lead the pool holds that shares a color with ``mask`` (``inside``: whose colors are
    all ``mask``'s) and that ``card`` is no part of, 0 when it holds none."""
    for colors, group, value in leaders.held():  # the best first
        if (colors & ~mask == 0 if inside else colors & mask) and (card is None or card not in group):
            return value
    return 0.0


def _lead_quality(card: Card) -> float:
    base = BLANK_HALF if is_half(card) else WEAK_LEADER
    return min(1.0, max(0.0, (card_traits(card).rating - base) / (HAPPY - WEAK_LEADER)))


lead_quality: Callable[[Card], float] = Kept(_lead_quality).__getitem__
"""0 to 1: how good a commander ``card`` is (alone, or as the other half of a pair): nothing for a legend that leads no
better than the Pipers anyone may add (``WEAK_LEADER``; a Background no better than a blank, ``BLANK_HALF``), in full
from one a strong drafter is happy to play (``HAPPY``).  Worked out once a card."""


# Of a hunter's bonus for a legend (``hunted``), what every legend earns: a mediocre one (rated 2.5, and every pack
# holds one) then comes short of a strong card (rated 3.2 and up): a hunter takes it over an average card, not a strong
# one.
HUNT_FLOOR = 0.55


def hunted(card: Card) -> float:
    """0 to 1: the share of its bonus for a legend that a style hunting commanders (``commander-first``) gives ``card``:
    the square of its ``lead_quality``, and at least ``HUNT_FLOOR``: a legend worth leading earns it all."""
    return max(HUNT_FLOOR, lead_quality(card) ** 2)


def pair_hunted(first: Card, second: Card) -> float:
    """0 to 1: what two cards that lead together are worth as a pair to a style that isn't ``strong``: the square of
    the weaker half's ``lead_quality`` (a pair of mediocre legends is in every pack, like the legend alone)."""
    return min(lead_quality(first), lead_quality(second)) ** 2


def leader_need(card: Card, leaders: PoolLeaders) -> float:
    """0 to 1: how much a pool still wants ``card`` as a leader.  A legend adds what it leads beyond the commanders
    already held that share its colors: nothing once one of them (alone, or with a partner it may pair with) is a
    commander worth playing (``HAPPY``), and the less the nearer the held leaders come to this card.  A weak legend
    adds little even to an empty pool: every pack holds two."""
    own = card_traits(card)
    quality = lead_quality(card)
    held = held_best(leaders, own.identity_mask, card)
    if held >= HAPPY:
        return 0.0
    return quality * min(1.0, max(0.0, own.rating - held) / (HAPPY - WEAK_LEADER))


def half_need(card: Card, leaders: PoolLeaders, outside: int) -> float:
    """0 to 1: what ``card`` adds as the other half of a pair with a legend or Background the pool holds, inside the
    plan's colors (none of ``outside``): the best such pair's strength over the best lead the pool holds inside its
    colors, ``HALF_SPAN`` and more counting 1.  A copy of a half the pool holds, or one no better, adds nothing."""
    if not may_ever_pair(card):
        return 0.0  # it pairs with no card
    best = 0.0
    for other in leaders.halves():
        if other is card or not can_pair(other, card):
            continue
        mask = other.identity.mask | card.identity.mask
        if mask & outside:
            continue
        gain = lead_strength((other, card)) - held_best(leaders, mask, inside=True)
        if gain > best:
            best = gain
    return min(1.0, best / HALF_SPAN)


def pair_need(first: Card, second: Card, leaders: PoolLeaders) -> float:
    """0 to 1: what two cards that may pair, taken together, add as a pair: its strength over the better of what
    the pool holds in its colors, what either leads alone and what the packs commonly offer (``HAPPY``: mediocre
    legends that pair are common, e.g. every mono-colored one in Commander Masters), ``PAIR_SPAN`` and more
    counting 1."""
    alone = max(
        (card_traits(card).rating for card in (first, second) if not is_half(card)),
        default=0.0,
    )
    bar = max(HAPPY, alone, held_best(leaders, first.identity.mask | second.identity.mask))
    return min(1.0, max(0.0, lead_strength((first, second)) - bar) / PAIR_SPAN)


def plain_pair(top: list[tuple[float, int, Card, Traits, bool, bool]]) -> tuple[int, int]:
    """``best_pair``'s answer where no lead is to gain and no two of the six may lead together: a pair is worth its
    two scores, and 0.2 more when both cards are inside the plan's colors.  ``top``: ``best_pair``'s six (score,
    place, card, traits, may lead, inside the plan), best first."""
    # The scores fall down the list, and a sum of two never rises as either falls: the first two are the best pair
    # without the 0.2, the first two inside the plan the best pair with it, and each is the first of its equals in the
    # loop's order (every pair in turn, the first best kept), where the first two come first of all.
    first, second = top[0], top[1]
    inside = [entry for entry in top if entry[5]][:2]
    if len(inside) < 2 or inside[0] is first and inside[1] is second:
        return first[1], second[1]
    if inside[0][0] + inside[1][0] + 0.2 > first[0] + second[0]:
        return inside[0][1], inside[1][1]
    return first[1], second[1]


def best_pair(
    pack: Sequence[Printing],
    plan: Plan,
    scored: list[tuple[float, int]],
    progress: float,
    leaders: PoolLeaders,
    strong: bool,
) -> tuple[int, int]:
    """The two cards of ``pack`` a bot takes together: the best pair among its six best ``scored`` (score, position),
    best first: a pair that leads together is worth more as far as it leads better than the pool and the packs would
    (``pair_need``; for a style that isn't ``strong``, as far as the weaker half is worth leading: ``pair_hunted``), two
    cards inside the plan's colors a little more, and a second card that would give a pool with no lead its first gains
    nothing for that (``lead_gain``)."""
    mask = plan.mask
    # Each of the six: its score, place, card and traits, whether it may lead or be a pair's half (``is_half``), and
    # whether its colors are the plan's (two cards' colors are the plan's when each one's are).
    top = []
    leading = 0  # of the six, the cards that may lead or be a pair's half
    for value, i in scored[:6]:
        card = pack[i].card
        traits = card_traits(card)
        lead = traits.leader or traits.half
        leading += lead
        top.append((value, i, card, traits, lead, (traits.mask | mask) == mask))
    best, best_value = (top[0][1], top[1][1]), float("-inf")
    gain = lead_gain(plan, progress) if plan.leaderless or plan.unled else None
    if gain is None and leading < 2:
        return plain_pair(top)  # most picks
    for (sa, ia, a, ta, la, xa), (sb, ib, b, tb, lb, xb) in combinations(top, 2):
        value = sa + sb
        if gain is not None:
            # One card that leads gives the pool its lead: the second gains nothing more for it.
            value -= min(gain(ta), gain(tb))
        if la and lb and a is not b and can_pair(a, b):
            # Two cards that lead together (the Piper is none): worth more only as far as they lead better
            # than the pool and the packs would (``pair_need``); to another style, as far as the weaker half is
            # worth leading (``pair_hunted``).
            value += 0.8 * (pair_need(a, b, leaders) if strong else pair_hunted(a, b))
        if xa and xb:
            value += 0.2
        if value > best_value:
            best, best_value = (ia, ib), value
    return best
