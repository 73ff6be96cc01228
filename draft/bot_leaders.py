"""What a bot knows of its pool's leaders (``draft.bots``): every way the pool's legends and Backgrounds can lead,
kept as the cards arrive.

A pool only grows, so each card is looked at once when it comes: a legend (the Piper aside) or a Background that
can't lead alone joins its list with the cards already there it may lead beside, and the pool's product votes are
counted (``ProductVotes``).  The options are made again only when asked after a leader arrived; what they give is
what looking at the whole pool again gives.
"""

from __future__ import annotations

from collections.abc import Callable

from draft.commanders import added_card_options, can_pair, may_ever_pair
from draft.deck_spells import BOMB_LEAD, COMMAND_ZONE, LEAD_BAR
from draft.decks import is_piper
from draft.products import Product, ProductVotes, added_card
from draft.traits import Kept, card_traits
from sets.cards import Card, CommanderAbility

LeaderOption = tuple[int, tuple[Card, ...], float]  # (identity mask, the leaders, their worth leading: ``plan_worth``)
_BACKGROUND = CommanderAbility.BACKGROUND  # read once: Python 3.11 reads an Enum member off its class slowly
WEAK_LEADER = 1.8  # a legend rated this or less leads no better than the Pipers anyone may add
BLANK_HALF = 1.0  # a Background rated this adds nothing to the legend beside it
HALF_SHARE = 0.5  # the share of the other half's worth (above its free stand-in) that a pair leads by
# The Backgrounds a deck can use: one leads beside its legend, and the main deck plays one more at most (it reaches only
# commanders, draft.cardtext.commander_only): a pool holding this many in a plan's colors gets nothing from one more
# but a better lead.
USABLE_BACKGROUNDS = 2


# What each rating point of a commander above ``LEAD_BAR`` (a legend worth building around) adds to a plan beside its
# rating: what the deck builder adds for it (``draft.deck_spells.leader_value``), so that the plan drafts toward the
# deck that will be built.  A bomb commander is there every game; counted as one more card, a pool a little deeper in
# other colors buried it in the sideboard (CLB seed 100, seat 7: Minsc & Boo and Ancient Bronze Dragon at pick 11).
BOMB_PLAN = COMMAND_ZONE + BOMB_LEAD


def _plan_worth(card: Card) -> float:
    rating = card_traits(card).rating
    return rating + BOMB_PLAN * (rating - LEAD_BAR) if rating > LEAD_BAR else rating


plan_worth: Callable[[Card], float] = Kept(_plan_worth).__getitem__
"""What a leader adds to the plan it leads: its rating, and ``BOMB_PLAN`` for each point above ``LEAD_BAR`` (a mediocre
legend, every pack holds one, counts no more than its rating: the Pipers anyone may add lead as well)."""


def is_half(card: Card) -> bool:
    """A card that leads only beside another: a Background (never a card that may lead alone)."""
    return _BACKGROUND in card.abilities and not card.can_be_commander


def lead_strength(leaders: tuple[Card, ...]) -> float:
    """How well ``leaders`` (one card, or two that may pair: ``can_pair``) lead: the better half's rating (beside a
    Background, the legend's: the one that can lead alone) and ``HALF_SHARE`` of what the other adds above the half
    anyone gets for free: for a partner a Prismatic Piper (``WEAK_LEADER``); a Background has no free stand-in
    (Faceless One chooses a Background, it is none), so it counts above a blank (``BLANK_HALF``)."""
    if len(leaders) == 1:  # a Background alone leads beside an added Faceless One, a free leader like a Piper
        traits = card_traits(leaders[0])
        rating = traits.rating
        return WEAK_LEADER + HALF_SHARE * max(0.0, rating - BLANK_HALF) if traits.half else rating
    first, second = map(card_traits, leaders)  # ``is_half`` is their ``half``
    a, b, other_half = first.rating, second.rating, second.half
    if first.half or (not second.half and b > a):
        a, b, other_half = b, a, first.half  # the one that leads first
    return a + HALF_SHARE * max(0.0, b - (BLANK_HALF if other_half else WEAK_LEADER))


def _option(leaders: tuple[Card, ...]) -> LeaderOption:
    """The option of these leaders: their identity, them, and their worth leading (``plan_worth``, added up)."""
    mask = 0
    for card in leaders:
        mask |= card.identity.mask
    return mask, leaders, sum(map(plan_worth, leaders))


class PoolLeaders:
    """A pool's legends, Backgrounds and the ways they lead, kept as cards arrive."""

    __slots__ = (
        "_background_pairs",
        "_backgrounds",
        "_distinct",
        "_halves",
        "_held",
        "_legend_pairs",
        "_legends",
        "_options",
        "_own",
        "_own_count",
        "_singles",
        "_strengths",
        "_together",
        "_votes",
    )

    def __init__(self) -> None:
        self._distinct: dict[Card, None] = {}  # the pool's cards once each, in the order they came
        self._votes = ProductVotes()  # ``product_of`` the pool, counted as cards come
        self._legends: list[Card] = []
        self._backgrounds: list[Card] = []
        self._halves: list[Card] | None = None  # halves(), once asked
        # The options of the pool's own leaders, each made once as its last card arrives (the options list is made
        # again of them when a leader arrives: the same entries in the same order as making each anew gives): each
        # legend alone, in the order they came; by each legend's place, its pairs with the later legends it may lead
        # beside, and with the Backgrounds, each in the order the other cards came.
        self._singles: list[LeaderOption] = []
        self._legend_pairs: list[list[LeaderOption]] = []
        self._background_pairs: list[list[LeaderOption]] = []
        self._strengths: dict[tuple[Card, ...], tuple[int, float]] = {}  # held()'s colors and strength by leaders
        self._options: list[LeaderOption] | None = None
        self._own: tuple[list[LeaderOption], list[LeaderOption]] | None = None  # options, and own() of them
        self._own_count = 0  # the options that come before the added card's
        self._held: tuple[list[LeaderOption], list[LeaderOption]] | None = None  # options, and what held() made
        # the pool's distinct cards, its product and added_together() for them
        self._together: tuple[int, Product, int] | None = None

    def halves(self) -> list[Card]:
        """The pool's legends (the Piper aside) and Backgrounds that may pair with some card (``may_ever_pair``), once
        each, legends first: the cards a pair it could field holds.  The same list object while no leader arrives."""
        if self._halves is None:
            self._halves = [card for card in self._legends + self._backgrounds if may_ever_pair(card)]
        return self._halves

    def holds(self, card: Card) -> bool:
        """Whether the pool holds a copy of ``card``."""
        return card in self._distinct

    def backgrounds_used(self, mask: int) -> bool:
        """Whether the pool holds as many Backgrounds whose colors are all ``mask``'s (once each) as a deck can use
        (``USABLE_BACKGROUNDS``)."""
        backgrounds = self._backgrounds
        if len(backgrounds) < USABLE_BACKGROUNDS:  # most pools (every one of a product without them)
            return False
        return sum(1 for card in backgrounds if card.identity.mask & ~mask == 0) >= USABLE_BACKGROUNDS

    def add(self, card: Card) -> None:
        """A card the pool took (a copy already there changes nothing)."""
        if card in self._distinct:
            return
        self._distinct[card] = None
        self._votes.add(card)
        legends, backgrounds = self._legends, self._backgrounds
        if card.can_be_commander:
            if is_piper(card):
                return
            self._halves = None
            at = len(legends)
            legends.append(card)
            self._singles.append(_option((card,)))
            self._legend_pairs.append([])
            self._background_pairs.append([])
            if may_ever_pair(card):  # else it pairs with no card
                for i, other in enumerate(legends[:at]):
                    if can_pair(other, card):
                        self._legend_pairs[i].append(_option((other, card)))
                self._background_pairs[at] += [_option((card, other)) for other in backgrounds if can_pair(card, other)]
        elif _BACKGROUND in card.abilities:
            self._halves = None
            backgrounds.append(card)
            for i, other in enumerate(legends):
                if can_pair(other, card):
                    self._background_pairs[i].append(_option((other, card)))

    def forget_options(self) -> None:
        """A leader arrived: the options are made again when next asked."""
        self._options = None

    def options(self) -> list[LeaderOption]:
        """(identity mask, leaders, their worth leading: ``plan_worth``) for every way the pool's legends and Backgrounds can lead: each
        legend, each pair of legends that may lead together, each legend beside a Background it may choose (in the
        order the pool's cards came), then what the product's added card opens.  The same list object while no
        leader arrives."""
        if self._options is None:
            self._options = self._made()
        return self._options

    def own(self) -> list[LeaderOption]:
        """``options`` without the ones the product's added card opens: the ways the pool leads with no added card
        (a Piper, Faceless One) beside it.  The same list object while no leader arrives."""
        options = self.options()
        kept = self._own
        if kept is None or kept[0] is not options:
            kept = self._own = (options, options[: self._own_count])
        return kept[1]

    def product(self) -> Product:
        """The product the pool comes from (``product_of``)."""
        return self._votes.product()

    def added_together(self) -> int:
        """How many of the pool's product's added card (Pipers, Faceless Ones) may lead one deck together: two
        where two of them pair (the Piper has partner; Faceless One chooses a Background and is itself one, so a
        second Faceless One pairs with it, CR 702.124k), one where they don't, never more than the product lets a
        player add; none when the card isn't loaded."""
        kept = self._together
        if kept is None or kept[0] != len(self._distinct):  # the product changes only when a card arrives
            product = self._votes.product()
            if kept is not None and kept[1] is product:
                together = kept[2]
            else:
                added = added_card(product)
                together = 0 if added is None else min(product.added.most, 2 if can_pair(added, added) else 1)
            kept = self._together = (len(self._distinct), product, together)
        return kept[2]

    def leads(self) -> bool:
        """Whether the pool can lead a deck of some color without an added card: a legend (or legends, or a legend
        and a Background) with a colored identity (a colorless one allows no basic land, so no deck of 60)."""
        return any(mask for mask, _leaders, _leading in self.own())

    def _made(self) -> list[LeaderOption]:
        singles = self._singles
        options = singles + [option for pairs in self._legend_pairs for option in pairs]
        options += [option for pairs in self._background_pairs for option in pairs]
        self._own_count = len(options)
        added = added_card(self._votes.product())
        # What the added card opens: beside a single leader (a legend alone, or a Background), sharing its leaders.
        opened = added_card_options([(mask, leaders) for mask, leaders, _ in singles], self._backgrounds, added)
        # The leaders' worth, once per group of leaders (the options the added card opens share their leaders).
        leading = {id(leaders): value for _, leaders, value in singles}
        for mask, leaders in opened:
            value = leading.get(id(leaders))
            if value is None:
                value = leading[id(leaders)] = sum(map(plan_worth, leaders))
            options.append((mask, leaders, value))
        return options

    def held(self) -> list[LeaderOption]:
        """For each option's leaders (once, where options share them): the colors of its leaders (a Piper a partner
        could take adds no leader of its color), the leaders, and how well they lead (``lead_strength``), the best leaders
        first; kept with the options."""
        options = self.options()
        kept = self._held
        if kept is None or kept[0] is not options:
            held = []
            seen: set[int] = set()
            for _mask, leaders, _leading in options:
                # The options the added card opens share their leaders: the same entry again, never a better one.
                if id(leaders) in seen:
                    continue
                seen.add(id(leaders))
                found = self._strengths.get(leaders)  # the same for equal leaders: worked out once
                if found is None:
                    colors = 0
                    for leader in leaders:
                        colors |= leader.identity.mask
                    found = self._strengths[leaders] = (colors, lead_strength(leaders))
                held.append((found[0], leaders, found[1]))
            held.sort(key=lambda option: option[2], reverse=True)
            kept = self._held = (options, held)
        return kept[1]
