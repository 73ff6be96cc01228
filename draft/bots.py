"""Bots that draft Commander Legends the way the format asks.

Rating model (``card_rating``), on a scale around 0-5, from facts only:
- rarity: common 1.0, uncommon 1.5, rare 2.2, mythic 2.6, special 1.2;
- type: creatures +0.3; lands that make two or more colors +0.8 (fixing),
  colorless mana rocks and utility lands +0.6 (they fit any deck);
- mana value: -0.25 for each point above 5;
- colors: -0.25 for each color beyond the first (harder to play);
- a small hand-made list of strong CMR cards gets +1.5;
- legends and cards that can lead a deck get +1.0, +0.5 more with partner.

On top of the rating a bot weighs fit: it commits to a commander's color
identity as its pool grows (the best legend or partner pair in its pool, or,
with no legend, its two strongest colors reached with Prismatic Pipers) and
prefers cards inside it.  A partner legend counts one extra color it could
reach with an added Piper.  Both cards of a pick are chosen together: the
best pair of the pack's top candidates, with a bonus when the two can lead
together.  Styles: ``commander-first`` (strong commitment, legends early)
and ``best-card`` (rating first, light color preference).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum, unique
from functools import lru_cache
from itertools import combinations

from draft.decks import can_pair, is_piper
from sets.booster import Printing
from sets.cards import Card, CommanderAbility, Rarity
from sets.colors import Color
from sets.errors import InputError

STRONG_CMR = frozenset({
    "Jeweled Lotus", "Arcane Signet", "Commander's Sphere", "Path of Ancestry", "Command Tower", "Hellkite Courser",
    "Akroma's Will", "Jeska's Will", "Kamahl's Will", "Sakashima's Will", "Szat's Will", "Fiery Cannonade",
    "Kwain, Itinerant Meddler", "Vow of Duty", "Hullbreacher", "Opposition Agent", "Plague Reaver", "Blasphemous Act",
    "Archelos, Lagoon Mystic", "Court of Grace", "Court of Cunning", "Court of Ambition", "Court of Bounty", "Court of Ire",
    "Armillary Sphere", "Murder", "Kor Cartographer", "Slash the Ranks", "Gift of Paradise", "Nightshade Harvester",
    "Sphinx of the Second Sun", "Apex Devastator", "Averna, the Chaos Bloom", "Zara, Renegade Recruiter",
    "Explosion of Riches", "Commander's Plate", "Exquisite Huntmaster", "Imoti, Celebrant of Bounty", "Three Visits",
    "Thought Vessel", "Wheel of Misfortune", "Rupture Spire", "Terramorphic Expanse",
})
_RARITY = {Rarity.COMMON: 1.0, Rarity.UNCOMMON: 1.5, Rarity.RARE: 2.2, Rarity.MYTHIC: 2.6, Rarity.SPECIAL: 1.2, Rarity.BONUS: 1.5}


@unique
class BotStyle(StrEnum):
    COMMANDER_FIRST = "commander-first"
    BEST_CARD = "best-card"

    @classmethod
    def parse(cls, text: str) -> BotStyle:
        for style in cls:
            if text.strip().lower() == style.value:
                return style
        raise InputError(f"unknown bot style {text!r}: use {' or '.join(s.value for s in cls)}")


@lru_cache(maxsize=8192)
def card_rating(card: Card) -> float:
    """How good a card is for a Commander draft deck, before colors are considered."""
    score = _RARITY.get(card.rarity, 1.0)
    if card.has_type("Creature"):
        score += 0.3
    if card.is_land:
        score += 0.8 if len(card.deck_colors) >= 2 else (0.6 if card.name in STRONG_CMR else -0.4)
    elif not card.deck_colors and card.has_type("Artifact"):
        score += 0.6
    score -= 0.25 * max(0.0, float(card.mana_value) - 5)
    score -= 0.25 * max(0, len(card.deck_colors) - 1)
    if card.name in STRONG_CMR:
        score += 1.5
    if card.can_be_commander:
        score += 1.0 + (0.5 if card.has_partner else 0.0)
    return score


def _subset_sums(by_mask: list[float]) -> list[float]:
    """For every identity mask, the total of the values of cards whose colors fit inside it."""
    sums = list(by_mask)
    for bit in range(5):
        step = 1 << bit
        for mask in range(32):
            if mask & step:
                sums[mask] += sums[mask ^ step]
    return sums


@dataclass
class Plan:
    """Where a bot is heading: an identity and the commanders that give it."""

    mask: int = 31
    commanders: tuple[Card, ...] = ()
    strength: float = 0.0


@dataclass
class Bot:
    """A bot seat: it sees only the pack in front of it and its own pool."""

    style: BotStyle = BotStyle.COMMANDER_FIRST
    seed: int = 0
    pool: list[Card] = field(default_factory=list)
    _by_mask: list[float] = field(default_factory=lambda: [0.0] * 32)

    def remember(self, cards: Sequence[Card]) -> None:
        for card in cards:
            self.pool.append(card)
            self._by_mask[card.deck_colors.mask] += card_rating(card)

    def plan(self, progress: float) -> Plan:
        """The identity the bot is drafting toward, given how far the draft is (0 to 1)."""
        sums = _subset_sums(self._by_mask)
        legends = [card for card in dict.fromkeys(self.pool) if card.can_be_commander and not is_piper(card)]
        best = Plan(31, (), 0.0)
        options: list[tuple[int, tuple[Card, ...]]] = [(card.identity.mask, (card,)) for card in legends]
        options += [(a.identity.mask | b.identity.mask, (a, b)) for a, b in combinations(legends, 2) if can_pair(a, b)]
        for mask, leaders in list(options):
            if any(CommanderAbility.PARTNER in c.abilities and not c.partner_group for c in leaders) and len(leaders) == 1:
                options += [(mask | color.bit, leaders) for color in Color if not mask & color.bit]
        for mask, leaders in options:
            width_penalty = 0.6 * max(0, mask.bit_count() - 2)
            value = sums[mask] + sum(card_rating(c) for c in leaders) - width_penalty
            if value > best.strength:
                best = Plan(mask, leaders, value)
        if not best.commanders:
            # No legend yet: the two strongest colors, reachable with two Pipers.
            weights = sorted(Color, key=lambda c: -sums[c.bit])
            best = Plan(weights[0].bit | weights[1].bit, (), sums[weights[0].bit | weights[1].bit] * 0.8)
        if progress < 0.15:
            best.mask = 31  # too early to commit
        return best

    def score(self, card: Card, plan: Plan, progress: float) -> float:
        rating = card_rating(card)
        first = self.style is BotStyle.COMMANDER_FIRST
        if card.can_be_commander:
            rating += (1.2 if first else 0.3) * (1.0 - progress)
            if card.has_partner and plan.commanders and any(can_pair(card, c) for c in plan.commanders):
                rating += 0.8 if first else 0.3
        if is_piper(card):
            rating += 0.4  # a drafted Piper is a free commander of any color
        inside = card.deck_colors.mask & ~plan.mask == 0
        weight = (3.0 if first else 1.2) * progress
        return rating + (0.5 * weight if inside else -weight * (1 + 0.3 * bin(card.deck_colors.mask & ~plan.mask).count("1")))

    def choose(self, pack: Sequence[Printing], count: int, progress: float) -> list[int]:
        """Positions of the ``count`` cards to take, chosen together."""
        if count >= len(pack):
            return list(range(len(pack)))
        plan = self.plan(progress)
        # Ties are broken by a random stream fixed by the seat's seed and pool size, so that a
        # resumed draft makes the same picks as an uninterrupted one.
        rng = random.Random(self.seed * 7919 + len(self.pool))
        scored = sorted(((self.score(p.card, plan, progress) + rng.random() * 0.05, i) for i, p in enumerate(pack)), reverse=True)
        if count != 2:
            return [i for _, i in scored[:count]]
        top = scored[:6]
        best_pair, best_value = (top[0][1], top[1][1]), float("-inf")
        for (sa, ia), (sb, ib) in combinations(top, 2):
            a, b = pack[ia].card, pack[ib].card
            value = sa + sb
            if a.can_be_commander and b.can_be_commander and can_pair(a, b):
                value += 0.8
            if (a.deck_colors.mask | b.deck_colors.mask | plan.mask) == plan.mask:
                value += 0.2
            if value > best_value:
                best_pair, best_value = (ia, ib), value
        return list(best_pair)
