"""Bots that draft Commander Legends (and any imported set) the way strong players do.

The pick value
--------------
Power first, then fit, then signals. Power is the card's rating (``draft.traits.card_rating``; how it is made:
``draft.ratings`` and ``draft.rating_build``): bombs and top creatures above removal, removal graded by how much it
answers and what it costs, mana rocks and colorless filler low. Fit is the plan below: the colors and commanders the
pool points to, the curve, and the playables the plan's colors still lack (a seat short of them values an on-color
playable more). A colorless card fits every deck, so fitting earns it little (a fifth of a colored card's bonus): it
competes on quality. Signals
lean an open seat toward the colors the seats upstream pass. The Prismatic Piper rates 0.1: anyone may add two after
the draft.

The plan
--------
A bot looks at its pool and what has been passed to it.  It values every
commander option its pool offers (a legend, a partner pair, a legend with a
Background, a partner that could take a Piper for its missing color, or two
Pipers in its two deepest colors) by the ratings of the pool cards the
option makes playable, less a castability cost for each color past two; the
best option is its plan (``draft.bot_plans``: the Pipers are those the seat
can count on, ``Bot.pipers``).  In the last pack a plan of three colors or more keeps only the colors the
deck builder would play of the pool the packs before gave (``draft.deckbuild.quick_build``, asked once): the
bot drafts for the deck it will build, not for a color the builder will drop.  Signals: every pack it is passed tells it which
colors the seats upstream are not taking (good cards still there late), and
the strong style leans toward those colors while it is still open.  Both
cards of a pick are chosen together: the best pair among the pack's top
candidates, worth more when the two lead together.

Styles
------
- ``strong`` (the default at a table of bots): drafts like a strong human.
  The strongest card first, reads signals in pack 1, commits to the
  commander its pool supports from late in pack 1 (fully by mid pack 2), values partner
  pairs, keeps an eye on the curve (two- and three-drops, creature count)
  and takes off-color cards only when they are much better.
- ``commander-first``: takes legends early and commits hard to the first
  good commander it finds.
- ``best-card``: the highest rating with only a light color preference.

Every style is deterministic: ties are broken by a stream fixed by the seat's seed and its pool size, and signals come
from the packs of the seat's own picks, so a resumed draft makes the same picks.
"""

from __future__ import annotations

import _random
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum, unique

from draft.bot_leaders import PoolLeaders
from draft.bot_pairs import best_pair, half_need, leader_need
from draft.bot_plain import fixed_worth, plain_scorer
from draft.bot_plans import (
    DECK_SPELLS,
    DEPTH_FROM,
    FRESH_LEADS,
    HOLDING,
    INSIDE,
    SURE_PIPERS,
    KeptPlan,
    Plan,
    best_option,
    could_lead,
    depth_need,
    lead_gain,
    lead_hope,
    leads_to_come,
    note_leads,
    subset_sums,
)
from draft.bot_signals import SIGNAL_LEAN, SIGNAL_PACKS, fresh_shares, read_signals
from draft.deck_spells import COLORLESS_SOURCES, FILLER, MAKES_COLORLESS
from draft.deckbuild import quick_build
from draft.products import added_card
from draft.traits import Traits, card_traits
from sets.booster import Printing
from sets.cards import Card
from sets.errors import InputError


@unique
class BotStyle(StrEnum):
    COMMANDER_FIRST = "commander-first"
    BEST_CARD = "best-card"
    STRONG = "strong"

    @classmethod
    def parse(cls, text: str) -> BotStyle:
        for style in cls:
            if text.strip().lower() == style.value:
                return style
        raise InputError(f"unknown bot style {text!r}: use {', '.join(s.value for s in cls)}")


PLAYABLE = 1.5  # a rating from which a card would make a deck
EARLY_FIT = 0.3  # before committing, the most a card in the colors of the picks so far gains
# A spare Background (a copy of one held, or one past those a deck uses) is near blank; most a Background gains as a half.
SPARE_HALF, HALF_WORTH = 0.3, 1.0
# What a card of a color outside the plan loses once the seat has committed (more for each further color): a strong
# drafter still takes a clearly better card (a point or more) over an on-color one until the pool settles its deck.  From
# two thirds in (the last of three packs) it is: another color's card is a hate pick at most, worth just less than an
# on-color card the deck would play over a land (``FILLER``; before, 1 deck in 6 passed one there, playing filler).
OFF_COLOR, SET_FROM = 1.0, 2 / 3 - 1e-9
_STRONG, _FIRST = BotStyle.STRONG, BotStyle.COMMANDER_FIRST  # read once
_seeded = _random.Random.seed  # ``random.Random.seed`` of an int less its Python layer (the ties draw no gauss)


@dataclass
class Bot:
    """A bot seat: it sees only the pack in front of it and its own pool."""

    style: BotStyle = BotStyle.COMMANDER_FIRST
    seed: int = 0
    pool: list[Card] = field(default_factory=list)
    # The added cards (Pipers) the seat can count on after the draft beyond the ones it drafts: None, the product's
    # most (a draft without a store); at a store night, what the stock sure gives each player (``AddedOption.sure_from``).
    pipers: int | None = field(default=None, kw_only=True)
    _held_pipers: int = field(default=0, repr=False)  # Pipers the pool drafted
    _by_mask: list[float] = field(default_factory=lambda: [0.0] * 32)
    _values: int = field(default=0, repr=False)  # changes each time a card adds to _by_mask
    _playables: list[int] = field(default_factory=lambda: [0] * 32)  # playable nonland cards by deck colors
    # What the packs passed to this seat said about each color (good cards still there after the first picks).
    signals: list[float] = field(default_factory=lambda: [0.0] * 5)
    _shares: tuple[float, ...] | None = field(default=None, repr=False)  # a fresh booster's by color, once asked

    # Curve counts of the pool: creatures, plays of mana value 3 or less, plays of 6 or more.
    _curve: list[int] = field(default_factory=lambda: [0, 0, 0])
    # The pool's leaders and the ways they lead, kept as cards arrive.
    _leaders: PoolLeaders = field(default_factory=PoolLeaders, repr=False, compare=False)
    # What the pool's values gave, reused while they stay the same (a pick of two cards that add nothing to them,
    # or the same pool asked again): each is dropped the moment its inputs change, so it is what recomputing gives.
    _sums: tuple[tuple[int, float | None, tuple[float, ...]], list[float]] | None = field(default=None, repr=False)
    _colors: tuple[int, tuple[float, list[float]]] | None = field(default=None, repr=False)
    _best: KeptPlan | None = field(default=None, repr=False)  # (sums, options, style, sure Pipers) and the plan
    _colorless: int = field(default=0, repr=False)  # sources of colorless mana the pool holds (``makes_colorless``)
    _needs: dict[Card, float] = field(default_factory=dict, repr=False)  # leader_need per card, for these options
    _halves: dict[tuple[Card, int], float] = field(default_factory=dict, repr=False)  # half_need per card and plan
    _fresh: list[Sequence[Printing | Card]] = field(default_factory=list, repr=False)  # packs at their first pick
    _fresh_leads: list[int] = field(default_factory=lambda: [0, 0], repr=False)  # of them counted, cards that lead
    _seen_leads: set[int] = field(default_factory=set, repr=False)  # identities of the cards passed that lead or pair
    _built: tuple[int, tuple[Card, ...]] | None = field(default=None, repr=False)  # _built_lead, once asked
    _tiebreak: random.Random = field(default_factory=lambda: random.Random(0), repr=False, compare=False)

    def remember(self, cards: Sequence[Card]) -> None:
        for card in cards:
            self.pool.append(card)
            self._leaders.add(card)
            traits = card_traits(card)
            self._colorless += MAKES_COLORLESS[card]
            if traits.piper:
                self._held_pipers += 1
                continue
            if traits.leader or traits.half:  # a leader (the Piper aside) or a Background
                self._leaders.forget_options()
                self._needs, self._halves = {}, {}
            if traits.rating > 0.8:  # a card worth less adds nothing to the pool's values
                self._by_mask[traits.mask] += traits.rating - 0.8
                self._values += 1
            if not traits.land and traits.rating >= PLAYABLE:
                self._playables[traits.mask] += 1
            if not traits.land:
                self._curve[0] += traits.creature
                self._curve[1] += traits.mana_value <= 3
                self._curve[2] += traits.mana_value >= 6

    def observe(self, offered: Sequence[Printing | Card], pick_number: int) -> None:
        """Read a pack passed to this seat: good cards of a color left in it mean the seats upstream aren't in it; a
        fresh pack says how many cards that could lead a pack holds; every pack, the colors such cards come in."""
        note_leads(self._seen_leads, offered)
        if pick_number < 2:
            self._fresh.append(offered)  # its cards that could lead are counted when a plan asks
            return  # a fresh pack says nothing about the others
        if len(self._fresh) > SIGNAL_PACKS or not offered:
            return  # by the last pack the deck is set: a plan no longer leans to open colors
        if self._shares is None:
            self._shares = fresh_shares(offered[0])
        read_signals(self.signals, offered, pick_number, self._shares)

    def learn(self, offered: Sequence[Printing | Card], taken: Sequence[Card], pick_number: int) -> None:
        """One pick of this seat: what it was passed and what it took (replaying these rebuilds the bot exactly)."""
        self.observe(offered, pick_number)
        self.remember(taken)

    def plan(self, progress: float) -> Plan:
        """The identity the bot is drafting toward, given how far the draft is (0 to 1)."""
        strong = self.style is _STRONG
        # Open colors count as if some of their cards were already in the pool, less as the draft goes on.
        fade = SIGNAL_LEAN * max(0.0, 1.0 - progress * 1.5) if strong else None
        key = (self._values, fade, tuple(self.signals) if strong else ())  # what the sums are made of
        found = self._sums
        if found is None or found[0] != key:
            by_mask = self._by_mask
            if fade:  # (none from two thirds of the draft on)
                by_mask = list(by_mask)
                for index, signal in enumerate(self.signals):
                    by_mask[1 << index] += fade * signal
            found = self._sums = (key, subset_sums(by_mask))
        sums = found[1]  # the same list object while what made it stays
        added = self.sure_pipers()
        options = self._leaders.own() if added == 0 else self._leaders.options()
        hope = 1.0 if added != 0 else lead_hope(self._leads_to_come(progress))
        kept = self._best
        asked = (added, hope, len(self._seen_leads))  # (the identities seen only grow)
        if kept is not None and kept[0] is sums and kept[1] is options and kept[2] is self.style and kept[3] == asked:
            best = Plan(*kept[4])
        else:
            best = best_option(sums, options, strong, added, hope, frozenset(self._seen_leads))
            self._best = (
                sums,
                options,
                self.style,
                asked,
                (best.mask, best.commanders, best.strength, best.depth, best.leaderless, best.unled),
            )
        if progress < (0.12 if strong else 0.15):
            best.mask = 31  # too early to commit
            return best
        if strong and best.mask.bit_count() >= 3:
            built, leaders = self._built_lead()
            if built and built & ~best.mask == 0:  # the deck the builder would make of the pool drops a plan's color
                best.mask, best.commanders = built, leaders
        if self.style is not BotStyle.BEST_CARD and progress >= DEPTH_FROM:  # (a hunter's hate picks ask it too)
            playables = self._playables
            best.depth = sum([playables[mask] for mask in INSIDE[best.mask]])
        return best

    def _built_lead(self) -> tuple[int, tuple[Card, ...]]:
        """For the last pack: the identity and the pool's own commanders of the deck the builder would make of the pool
        the packs before gave (``quick_build``: the first of ``ranked_builds``, the ranking the seat's deck comes from,
        of its best estimate and best two of two colors; the full ranking's colors agree at a millisecond more); (0, ())
        before the last pack, or when nothing leads.  Asked once: of the pool alone, as a resumed draft asks it."""
        profile = self._leaders.product()
        size = profile.booster_size * (profile.boosters - 1)
        if len(self.pool) < size or size <= 0:
            return 0, ()
        if self._built is None:
            first = quick_build(Counter(self.pool[:size]), added_card(profile), 1, profile, self.pipers)
            own = tuple(card for card in first[0].commanders if not card_traits(card).piper) if first else ()
            self._built = (first[0].identity.mask, own) if first else (0, ())
        return self._built

    def _leads_to_come(self, progress: float) -> float:
        """The cards that could lead this seat is still likely to be offered (``leads_to_come``), by its product's
        packs and the fresh packs it has seen."""
        profile = self._leaders.product()
        counted = self._fresh_leads
        for offered in self._fresh[counted[0] :]:
            counted[:] = counted[0] + 1, counted[1] + sum(map(could_lead, offered))
        packs, leads = counted
        fresh = (leads + 2 * FRESH_LEADS) / (packs + 2)
        return leads_to_come(progress, profile.boosters, profile.booster_size // profile.picks_per_turn, fresh)

    def sure_pipers(self) -> int | None:
        """The added cards (Pipers) the plan may lead with: those the seat drafted and those it can count on, and no
        more than may lead one deck together (``PoolLeaders.added_together``: two Pipers, two Faceless Ones), when
        fewer than ``SURE_PIPERS``; None when that many are sure and pair (a draft without a store, or a stock that holds
        them)."""
        sure = self._leaders.added_together()
        if self.pipers is not None:
            sure = min(sure, self.pipers + self._held_pipers)
        return None if sure >= SURE_PIPERS else sure

    def commitment(self, progress: float) -> float:
        """How set the seat's colors are, 0 to 1: what an off-color card loses is this share of its full cost."""
        if self.style is _STRONG:
            return min(1.0, max(0.0, (progress - 0.1) * 2.2))
        return progress

    def score(self, card: Card, plan: Plan, progress: float) -> float:
        return self._scorer(plan, progress)(card)

    def _scorer(self, plan: Plan, progress: float) -> Callable[[Card], float]:
        """``score`` for one pick's cards: what depends only on the plan, the progress and the pool is worked out
        once (the same sums in the same order, so the same values)."""
        strong = self.style is _STRONG
        outside = ~plan.mask
        leader_need, half, held = self.leader_need, self.half_need, self._leaders.holds
        gain = lead_gain(plan, progress)
        # A card whose cost asks {C} is played only beside ``COLORLESS_SOURCES`` (the builder's ``live_copies``): it is
        # worth its rating in the share of them the pool holds (Kozilek, the Great Distortion is no pick for a pool of
        # none), and nothing as a leader (a colorless identity allows no basic land).
        castable = min(1.0, self._colorless / COLORLESS_SOURCES)
        if not strong:
            return plain_scorer(self.style is _FIRST, plan, progress, castable, gain, self.hate_picks(plan, progress))

        # A legend is worth what it leads beyond the commanders the pool already holds in its colors: more when its
        # colors are the plan's (or the plan is still open), nothing once a good one is held.
        leading, used = 0.5 * (1.0 - progress), self._leaders.backgrounds_used(plan.mask)
        early = plan.mask == 31
        fits: dict[int, float] = {}  # _early_fit by the card's colors
        curve = progress >= 0.4
        needs: dict[tuple[bool, bool, bool], float] = {}  # _curve_need by (creature, mana value <= 3, >= 6)
        commit = self.commitment(progress)
        depth = depth_need(plan, progress)
        colored, colorless = 0.5 * commit, 0.1 * commit
        hate = (FILLER + colored - 0.05 if progress >= SET_FROM else float("inf"), float("inf"))  # legends: no cap

        def strong_score(card: Card) -> float:
            traits = card_traits(card)
            rating = traits.rating
            if traits.colorless_cost or traits.piper:  # worth the same whatever the style (``fixed_worth``)
                return fixed_worth(traits, castable, gain)
            land = traits.land
            mask = traits.mask
            if traits.leader:
                if traits.identity_mask & outside == 0:
                    rating += leading * leader_need(card)
                rating += gain(traits)
                rating += 0.6 * half(card, outside)  # the other half of a pair the pool could field
            elif traits.half:  # a Background (one that could lead alone is a leader)
                copy = held(card)
                if copy or used:  # a copy (one leads) or one past the Backgrounds a deck uses: near blank, so fitting
                    # the plan is no merit; what it adds as a better lead than the pool's is all it is worth
                    return min(rating, SPARE_HALF) + (0.0 if copy else HALF_WORTH * half(card, outside))
                rating += HALF_WORTH * half(card, outside)
            if traits.interaction:
                rating += 0.1  # a tie-breaker: the rating already says how much the removal answers
            if early and mask and not land:
                fit = fits.get(mask)
                if fit is None:
                    fit = fits[mask] = self._early_fit(traits)
                rating += fit
            if curve and not land:
                key = traits.curve
                need = needs.get(key)
                if need is None:
                    need = needs[key] = self._curve_need(*key, progress)
                rating += need
            off = (mask & outside).bit_count()
            if off == 0:
                if not land and rating >= PLAYABLE:
                    # A seat short of playables for its deck wants one, colored or not: either fills a slot.
                    rating += depth * min(1.0, (rating - 1.0) / 1.5)
                # A colorless card (a land that makes no color of its own too) fits every deck, so fitting is no
                # merit: it competes on quality alone.
                return rating + (colored if mask else colorless)
            return min(hate[traits.leader], rating - commit * (OFF_COLOR + 0.6 * (off - 1)))

        return strong_score

    def hate_picks(self, plan: Plan, progress: float) -> bool:
        """Whether a card of another color may be a hate pick over on-color filler: the deck is set (the last pack) and
        the pool could still hold a deck's spells in its colors (``Plan.depth``) with the cards still to come; short
        of that, its deck may need the filler rather than a 27th land (CLB pods at a store with no Pipers)."""
        if progress < SET_FROM:
            return False
        profile = self._leaders.product()
        return plan.depth + profile.booster_size * profile.boosters - len(self.pool) >= DECK_SPELLS

    def _early_fit(self, traits: Traits) -> float:
        """Before the plan commits, from the second pick on: a near-tie goes to the colors of the picks so far
        (up to ``EARLY_FIT`` for a card whose colors hold half the pool's value or more; a colorless card fits
        every deck and gains nothing)."""
        if not traits.mask or traits.land:
            return 0.0
        total, by_color = self._color_values()
        if total <= 0:
            return 0.0
        shares = [by_color[index] / total for index in traits.color_indexes]  # WUBRG, as Color.bit
        return EARLY_FIT * min(1.0, 2.0 * sum(shares) / len(shares))

    def _color_values(self) -> tuple[float, list[float]]:
        """The pool's value outside colorless cards, and each color's (kept with the pool's values that give it)."""
        by_mask = self._by_mask
        key = self._values
        found = self._colors
        if found is None or found[0] != key:
            values = (
                sum(by_mask[1:]),
                [sum([by_mask[mask] for mask in masks]) for masks in HOLDING],
            )
            found = self._colors = (key, values)
        return found[1]

    def leader_need(self, card: Card) -> float:
        """0 to 1: how much the pool still wants ``card`` as a leader (``draft.bot_pairs.leader_need``), kept until
        a leader arrives."""
        found = self._needs.get(card)
        if found is None:
            found = self._needs[card] = leader_need(card, self._leaders)
        return found

    def half_need(self, card: Card, outside: int) -> float:
        """0 to 1: what ``card`` adds as the other half of a pair with a card the pool holds, inside the colors
        ``outside`` leaves (``draft.bot_pairs.half_need``), kept until a leader arrives."""
        key = (card, outside)
        found = self._halves.get(key)
        if found is None:
            found = self._halves[key] = half_need(card, self._leaders, outside)
        return found

    def _curve_need(self, creature: bool, cheap: bool, heavy: bool, progress: float) -> float:
        """Late in the draft, cheap creatures and plays the pool lacks are worth a little more (a creature or not, of
        mana value 3 or less, of 6 or more)."""
        creatures, cheap_plays, heavy_plays = self._curve
        bonus = 0.0
        if creature and creatures < 14 * progress * 1.2:
            bonus += 0.25
        if cheap and cheap_plays < 14 * progress:
            bonus += 0.2
        if heavy and heavy_plays >= 5:
            bonus -= 0.4
        return bonus

    def _ranked(self, pack: Sequence[Printing], progress: float) -> tuple[Plan, list[tuple[float, int]]]:
        plan = self.plan(progress)
        # Ties are broken by a random stream fixed by the seat's seed and pool size, so that a
        # resumed draft makes the same picks as an uninterrupted one.
        rng = self._tiebreak
        _seeded(rng, self.seed * 7919 + len(self.pool))  # as random.Random(that seed) would start
        score, jitter = self._scorer(plan, progress), rng.random
        scored = sorted([(score(p.card) + jitter() * 0.05, i) for i, p in enumerate(pack)], reverse=True)
        return plan, scored

    def choose(self, pack: Sequence[Printing], count: int, progress: float) -> list[int]:
        """Positions of the ``count`` cards to take, chosen together."""
        if count >= len(pack):
            return list(range(len(pack)))
        plan, scored = self._ranked(pack, progress)
        if count != 2:
            return [i for _, i in scored[:count]]
        return list(self._pair(pack, plan, scored, progress))

    def _pair(
        self, pack: Sequence[Printing], plan: Plan, scored: list[tuple[float, int]], progress: float
    ) -> tuple[int, int]:
        """The two cards to take together (``draft.bot_pairs.best_pair``)."""
        return best_pair(pack, plan, scored, progress, self._leaders, self.style is _STRONG)
