"""The pick value of the bot styles that aren't ``strong`` (``draft.bots``): ``commander-first`` hunts legends by
their worth as commanders and commits hard to its plan's colors; ``best-card`` takes the highest rating with only a
light color preference."""

from __future__ import annotations

from collections.abc import Callable

from draft.bot_pairs import hunted, pair_hunted
from draft.bot_plans import Plan
from draft.commanders import can_pair
from draft.deck_spells import FILLER
from draft.traits import Traits, card_traits
from sets.cards import Card


def plain_scorer(
    first: bool, plan: Plan, progress: float, castable: float, gain: Callable[[Traits], float], hates: bool
) -> Callable[[Card], float]:
    """A card's value to a ``commander-first`` seat (``first``) or a ``best-card`` one, for one pick: ``castable`` is
    the share a card whose cost asks {C} keeps, ``gain`` what a card adds by giving the pool a lead
    (``draft.bot_plans.lead_gain``), ``hates`` whether the seat's deck is set and its pool needs no on-color filler
    (``Bot.hate_picks``)."""
    outside, commanders = ~plan.mask, plan.commanders
    leading = (1.2 if first else 0.3) * (1.0 - progress)
    partnering = 0.8 if first else 0.3
    weight = (3.0 if first else 1.2) * progress
    fitting = 0.5 * weight
    # Its deck set, a card of another color is a hate pick at least to a hunter, as to a strong seat: just below an
    # on-color card at the filler line, above on-color filler (committed hard, it took a 1.1 mana rock over a bomb a
    # seat downstream would play).  A best-card seat's light color preference lets no bomb go round.
    hate = FILLER + fitting - 0.05 if hates and first else float("-inf")

    def plain(card: Card) -> float:
        traits = card_traits(card)
        rating = traits.rating
        if traits.colorless_cost or traits.piper:  # worth the same whatever the style (``fixed_worth``)
            return fixed_worth(traits, castable, gain)
        if traits.leader:  # to a hunter by its worth as a commander: a mediocre legend is in every pack
            rating += leading * (hunted(card) if first else 1.0) + gain(traits)
            if traits.partner and commanders:
                # as the other half of a pair, by the weaker half's worth leading (``pair_hunted``, as ``best_pair``
                # weighs two taken together): a mediocre half is in every pack too
                halves = (pair_hunted(card, c) if first else 1.0 for c in commanders if can_pair(card, c))
                rating += partnering * max(halves, default=0.0)
        mask = traits.mask
        off = (mask & outside).bit_count()
        if off == 0:  # a colorless card fits every deck, so fitting is little merit, as to a strong seat
            return rating + (fitting if mask else 0.2 * fitting)
        return max(rating - weight * (1 + 0.3 * off), min(rating, hate))

    return plain


def fixed_worth(traits: Traits, castable: float, gain: Callable[[Traits], float]) -> float:
    """What a card is worth whatever the style's fit: one whose cost asks {C}, its rating in the share ``castable``
    of the colorless sources a deck needs; the added card (a Piper: two can be added after a draft without a store),
    its rating and no bonus of any kind but ``gain`` (a leaderless pool at a store with none to give leads a deck of
    one color with it)."""
    if traits.colorless_cost:
        return traits.rating * castable
    return traits.rating + gain(traits)
