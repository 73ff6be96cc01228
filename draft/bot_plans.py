"""Where a bot is heading (``draft.bots``): the commander options its pool offers, valued, and the Pipers it may
lead with.

A plan is an identity and the commanders that give it.  Every option the pool offers (a legend, a partner pair, a
legend with a Background, a partner that could take a Piper for its missing color) is valued by the ratings of the
pool cards it makes playable, less a castability cost for each color past two; two Pipers in the pool's two deepest
colors are the option when no legend leads better.  Two Pipers are sure at a draft without a store, where anyone may
add the product's most; a seat at a store night counts on what the stock sures it (``Bot.pipers``,
``AddedOption.sure_from``): with one, a Piper leads a deck of one color; with none, only the pool's own legends
lead, and a pool that has none wants a card that leads above all (``lead_urgency``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from draft.bot_leaders import LeaderOption
from draft.deckbuild import THIN_COLOR_COST
from draft.traits import Traits, card_traits
from sets.booster import Printing
from sets.cards import Card
from sets.colors import Color

# What a bot keeps of its best plan: (sums, options, style, (sure Pipers, hope, identities seen)) and the plan they give.
KeptPlan = tuple[
    list[float],
    list[LeaderOption],
    object,
    tuple[int | None, float, int],
    tuple[int, tuple[Card, ...], float, int, bool, bool],
]


@dataclass
class Plan:
    """Where a bot is heading: an identity and the commanders that give it."""

    mask: int = 31
    commanders: tuple[Card, ...] = ()
    strength: float = 0.0
    depth: int = 0  # playable spells of the pool inside the plan's colors
    # No added card (Piper) is sure and the pool can't lead a deck yet: a card that can lead is what it needs most.
    leaderless: bool = False
    # No added card is sure and the pool's legends lead other colors than the plan's (its two deepest), or one of them
    # only (its legends are then the plan's commanders): a legend of the plan's colors that adds a color to what its
    # commanders lead is wanted, while the pool's own stay the way to a legal deck.
    unled: bool = False


# The additions of ``_subset_sums`` in their order: for each color bit, every mask holding it takes the sum of the
# mask without it.
_SUBSET_STEPS = tuple((mask, mask ^ (1 << bit)) for bit in range(5) for mask in range(32) if mask & (1 << bit))
# The masks inside each mask (itself included), in order.
INSIDE = tuple(tuple(inner for inner in range(32) if inner & ~mask == 0) for mask in range(32))
# For each color (0-4, WUBRG), the masks that hold it, in order.
HOLDING = tuple(tuple(mask for mask in range(32) if mask >> index & 1) for index in range(5))


def _subset_sums(by_mask: list[float]) -> list[float]:
    """For every identity mask, the total of the values of cards whose colors fit inside it."""
    sums = list(by_mask)
    for mask, without in _SUBSET_STEPS:
        sums[mask] += sums[without]
    return sums


def _straight_subset_sums() -> Callable[[list[float]], list[float]]:
    """``_subset_sums`` as straight-line code (``subset_sums``): the same additions in the same order, a third of the time (a bot asks
    at every pick).  Made from ``_SUBSET_STEPS`` here, the way ``dataclasses`` makes its methods."""
    names = ", ".join(f"s{mask}" for mask in range(32))
    lines = [f"    {names} = by_mask", *(f"    s{mask} += s{without}" for mask, without in _SUBSET_STEPS)]
    namespace: dict[str, Callable[[list[float]], list[float]]] = {}
    exec("def subset_sums(by_mask):\n" + "\n".join([*lines, f"    return [{names}]"]), namespace)
    return namespace["subset_sums"]


subset_sums = _straight_subset_sums()


PAIR_MASKS = tuple(a.bit | b.bit for a, b in combinations(Color, 2))
MONO_MASKS = tuple(color.bit for color in Color)
WIDE = frozenset(mask for mask in range(32) if mask.bit_count() > 2)  # identities of three colors or more
# Each color past three costs the plan what the deck builder charges a color its deck can't carry (``THIN_COLOR_COST``):
# basic lands split four or five ways give each color five or six sources of 25, and a draft offers few fixers.
# Counted like a third color (``width_cost``), a scattered pool that took a five-color legend (Morophon, the Boundless,
# rated 1.5, at the last pick of pack 1) planned all five colors from then on: it never committed, and built five colors
# of basics (CMM, 5 seats of 320 planned four or five colors at some pick; none now).
PAST_THREE = THIN_COLOR_COST
# Cards past this many in a pool's identity don't make a deck better: a deck plays about 36 spells.
DECK_SPELLS = 36
# The plan leads with two added cards (Pipers) when no legend leads better: sure at a draft without a store, where
# anyone may add the product's most (two).  A seat that can count on fewer (a store's stock, ``Bot.pipers``) plans with
# what it has: one Piper leads a deck of one color, none leaves the pool's own legends.
SURE_PIPERS = 2
# What a card that would give a leaderless pool its first lead gains (no Piper to count on): nothing at the first
# picks, while every pack still holds legends, then ``LEADLESS_RISE`` a whole draft from ``LEADLESS_FROM`` on, up to
# ``LEADLESS_MOST`` before the last pack: more than any card is worth (ratings run 0-5, and what fit adds or an
# off-color card loses is less than five), so there a seat takes the first card that leads that it is offered.
LEADLESS_FROM = 0.2
LEADLESS_RISE = 25.0
LEADLESS_MOST = 10.0
PIPER_LEAD = 0.8  # a drafted Piper leads a deck of one color: worth that share of what a legend gains
# A pool that leads only in other colors than its deepest two gains this share for a legend of those two.
UNLED_SHARE = 0.3
# Cards that could lead (a legend with a color, a Piper) in a fresh pack, before a seat has seen one; a pack's share
# of them falls as it goes round (to none at its last pick), and this share of them leads inside two given colors.
FRESH_LEADS = 2.0
FIT_SHARE = 0.05
# With no Piper sure, a pool whose legends lead one color drafts a pair of colors holding it while a lead that adds the
# second is at least this likely to come (``lead_hope``: through the second pack); past that, its one color.  A draft
# pool doesn't fill a deck of one color: at a store with no Pipers to give, 10 of 240 CMR seats built one before
# (Anara and Gilanra, two green partners, led 30 lands and 29 spells), 4 now.
WIDEN_HOPE = 0.45


DEPTH_FROM = 0.3  # from this far into the draft a seat counts the playables of its plan's colors
DEPTH_TARGET = 44  # playables in the plan's colors wanted by the end of the draft (a deck plays about 36 spells)


def depth_need(plan: Plan, progress: float) -> float:
    """A playable in the plan's colors is worth more while the pool has fewer than a deck's share of them."""
    if plan.mask == 31 or progress < DEPTH_FROM:
        return 0.0
    expected = DEPTH_TARGET * progress
    return 1.0 * max(0.0, 1.0 - plan.depth / expected) if expected else 0.0


def leads_to_come(progress: float, boosters: int, picks: int, fresh: float) -> float:
    """The cards that could lead a seat is still likely to be offered after this pick, ``progress`` (0 to 1) into a
    draft of ``boosters`` packs of ``picks`` picks, a fresh pack holding ``fresh`` of them: each pack it will see holds
    the share of a fresh pack's that its picks left say (all at its first pick, a tenth at its last of ten)."""
    at = progress * boosters
    current = min(boosters - 1, int(at + 1e-9))
    pick = int(round((at - current) * picks)) + 1  # this pick's number in its pack
    shares = [(picks - number + 1) / picks for number in range(1, picks + 1)]
    return fresh * (sum(shares[pick:]) + (boosters - current - 1) * sum(shares))


def could_lead(item: Card | Printing) -> bool:
    """A card that would give a pool with no Piper to count on a deck of some color: a legend with a color, a Piper."""
    traits = card_traits(item.card if isinstance(item, Printing) else item)
    return traits.piper or (traits.leader and bool(traits.identity_mask))


def note_leads(seen: set[int], offered: Sequence[Printing | Card]) -> None:
    """Add to ``seen`` the identities of the cards of a pack passed that could lead or pair (legends, Backgrounds)."""
    for item in offered:
        traits = card_traits(item.card if isinstance(item, Printing) else item)
        if (traits.leader or traits.half) and traits.identity_mask not in seen:
            seen.add(traits.identity_mask)


def lead_hope(to_come: float) -> float:
    """The chance a legend of two given colors is still offered, ``to_come`` cards that could lead still to come."""
    return 1.0 - math.exp(-to_come * FIT_SHARE)


def lead_urgency(progress: float) -> float:
    """What a card that would give a leaderless pool its first lead gains, ``progress`` (0 to 1) into the draft."""
    return min(LEADLESS_MOST, LEADLESS_RISE * max(0.0, progress - LEADLESS_FROM))


def lead_gain(plan: Plan, progress: float) -> Callable[[Traits], float]:
    """What a card gains for the lead it would give the pool: a pool that can't lead yet, with no Piper to count on
    (``Plan.leaderless``), gains ``lead_urgency`` for a legend with a color (a drafted Piper: ``PIPER_LEAD`` of it, a
    deck of one color); one that leads only other colors than the plan's, or one of them (``Plan.unled``), a share of
    it for a legend of the plan's colors that adds one to what the plan's commanders lead.  Nothing otherwise."""
    if not (plan.leaderless or plan.unled):
        return _no_gain
    urgent = lead_urgency(progress) if plan.leaderless else 0.0
    inside = lead_urgency(progress) * UNLED_SHARE if plan.unled else 0.0
    outside = ~plan.mask
    led = 0
    for card in plan.commanders:
        led |= card.identity.mask

    def gain(traits: Traits) -> float:
        if traits.piper:
            return urgent * PIPER_LEAD
        if not traits.leader or not traits.identity_mask:
            return 0.0
        if urgent:
            return urgent
        return inside if traits.identity_mask & outside == 0 and traits.identity_mask & ~led else 0.0

    return gain


def _no_gain(traits: Traits) -> float:
    return 0.0


def best_option(
    sums: list[float],
    options: list[LeaderOption],
    strong: bool,
    added: int | None = None,
    hope: float = 1.0,
    seen: frozenset[int] = frozenset(),
) -> Plan:
    """The best of the ``options`` (identity mask, leaders, their worth leading) by ``sums`` (the pool's values inside each
    identity), or two Pipers in the two deepest colors; ``added``: the Pipers the seat is sure of when fewer than
    ``SURE_PIPERS`` (``short_option``, with ``seen``), None when two are."""
    if added is not None:
        return short_option(sums, options, strong, added, hope, seen)
    best_mask, best_leaders, best_value = best_led(sums, options, strong, colored=False)
    # No legend (or a weak one): the two deepest colors, led by two Pipers added after the draft.
    pair = max(zip(map(sums.__getitem__, PAIR_MASKS), PAIR_MASKS))
    piper_value = pair[0] * 0.9 - (1.0 if strong else 0.0)
    if not best_leaders or piper_value > best_value:
        return Plan(pair[1], (), piper_value)
    return Plan(best_mask, best_leaders, best_value)


def best_led(
    sums: list[float], options: list[LeaderOption], strong: bool, colored: bool
) -> tuple[int, tuple[Card, ...], float]:
    """The option a legend leads best: its identity, its leaders and its value (the pool's spells of those colors,
    capped, plus the leaders' own; a wide identity costs); ``colored``: a colorless identity is no option (it allows
    no basic land: no deck of sixty cards to lead).  (31, (), -inf) when there is none."""
    best_leaders: tuple[Card, ...] = ()
    best_mask, best_value = 31, float("-inf")
    width_cost = 1.2 if strong else 0.6
    cap = DECK_SPELLS * 2.2
    for mask, leaders, leading in options:
        if colored and not mask:
            continue
        spells = sums[mask]
        value = (spells if spells <= cap else cap) + leading
        if mask in WIDE:
            colors = mask.bit_count()
            value -= width_cost * (colors - 2) + PAST_THREE * (colors - 3 if colors > 3 else 0)
        if value > best_value:
            best_mask, best_leaders, best_value = mask, leaders, value
    return best_mask, best_leaders, best_value


def short_option(
    sums: list[float],
    options: list[LeaderOption],
    strong: bool,
    added: int,
    hope: float = 1.0,
    seen: frozenset[int] = frozenset(),
) -> Plan:
    """``best_option`` for a seat sure of fewer than two added cards (Pipers; ``options`` are then the pool's own
    when it is sure of none).  One Piper leads a deck of its one color: the deepest color, when no legend leads
    better.  None: the pool's legends with a colored identity, or its two deepest colors (valued as two Pipers
    would lead them) and a legend of theirs wanted (``Plan.unled``); while it has none, those colors and any
    legend wanted (``Plan.leaderless``).  Legends that lead one color only: while a lead that adds a second is
    likely to come (``WIDEN_HOPE``), the deepest pair holding that color that a card of the packs passed (``seen``:
    the identities of the cards that could lead or pair, ``Bot.observe``) would lead or complete."""
    best_mask, best_leaders, best_value = best_led(sums, options, strong, colored=True)
    if added:
        mono = max(zip(map(sums.__getitem__, MONO_MASKS), MONO_MASKS))
        piper_value = mono[0] * 0.9 - (1.0 if strong else 0.0)
        if not best_leaders or piper_value > best_value:
            return Plan(mono[1], (), piper_value)
    else:
        pair = max(zip(map(sums.__getitem__, PAIR_MASKS), PAIR_MASKS))
        pair_value = pair[0] * 0.9 - (1.0 if strong else 0.0)
        if not best_leaders:
            return Plan(pair[1], (), pair_value, leaderless=True)
        if pair_value * hope > best_value:  # while a legend of those colors is still likely to come
            return Plan(pair[1], (), pair_value, unled=True)
        if best_mask in MONO_MASKS and hope >= WIDEN_HOPE:
            # A draft pool doesn't fill a deck of one color: while a lead that adds a second is still likely to come,
            # the seat drafts the deepest pair of colors holding its legends' that the packs show such a lead in, and
            # keeps its legends as its commanders.
            pairs = [
                (sums[mask], mask)
                for mask in PAIR_MASKS
                if mask & best_mask and any(inner & ~best_mask and inner in seen for inner in INSIDE[mask])
            ]
            if pairs:
                return Plan(max(pairs)[1], best_leaders, best_value, unled=True)
    return Plan(best_mask, best_leaders, best_value)
