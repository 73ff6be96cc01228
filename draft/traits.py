"""What bots and the deck builder read of a card, worked out once: its rating, roles, colors, costs and kind.

The rating and roles are ``draft.ratings.evaluate``'s (the committed CMR figures, or the rules on an imported
card's text); the rest are facts of the card.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from draft.cardtext import colorless_symbols
from draft.decks import is_piper
from draft.ratings import evaluate, lasting_source
from sets.cards import Card, CommanderAbility
from sets.colors import Color


def card_rating(card: Card) -> float:
    """How good a card is for a Commander draft deck, before colors are considered (about 0-5)."""
    return evaluate(card)[0]


def card_roles(card: Card) -> tuple[str, ...]:
    """The card's role tags: removal, wipe, draw, ramp, fixing, evasion, protection, ..."""
    return evaluate(card)[1]


@dataclass(frozen=True, slots=True)
class Traits:
    """What bots and the deck builder read of a card, worked out once."""

    rating: float
    roles: frozenset[str]
    mask: int  # deck colors
    creature: bool
    land: bool
    mana_value: float
    cost_mask: int  # colors of the mana symbols in its costs
    symbols: tuple[int, ...]  # colored symbols of the front face, WUBRG
    interaction: bool  # removal or a board wipe
    source: bool  # a land, or a cheap mana rock (a mana ability of its own, kept: not a Treasure made once)
    fixing: bool
    leader: bool  # can be a commander (not counting the Piper)
    piper: bool
    identity_mask: int
    partner: bool
    color_indexes: tuple[int, ...]  # the deck colors' places in WUBRG order (the bits of ``mask``), lowest first
    curve: tuple[bool, bool, bool]  # a creature, of mana value 3 or less, of 6 or more
    half: bool  # a card that leads only beside another: a Background that can't lead alone (``bot_leaders.is_half``)
    legendary: bool  # ``Card.is_legendary``
    colorless_cost: bool  # its front face's cost asks {C} (``colorless_symbols``): only colorless sources pay it


# For each color mask, the places (0-4, WUBRG) of its bits, lowest first.
COLOR_INDEXES = tuple(tuple(index for index in range(5) if mask >> index & 1) for mask in range(32))


T = TypeVar("T")
KEPT_TRAITS = 16384  # cards whose traits are kept at once (more than a night's sets hold)


class Kept(dict[Card, T]):
    """``work(card)`` for each card, worked out the first time it is asked: a plain lookup where a cache call would
    hash the card twice over (a pod asks ``card_traits`` some 17,000 times); at most ``KEPT_TRAITS`` cards kept."""

    def __init__(self, work: Callable[[Card], T]) -> None:
        super().__init__()
        self.work = work

    def __missing__(self, card: Card) -> T:
        if len(self) >= KEPT_TRAITS:
            self.clear()
        kept = self[card] = self.work(card)
        return kept


def _card_traits(card: Card) -> Traits:
    rating, roles = evaluate(card)
    cost_mask = 0
    symbols = [0] * 5
    for number, face in enumerate(card.faces):
        try:
            cost = face.cost
        except ValueError:
            continue
        cost_mask |= cost.colors.mask
        if number == 0:
            symbols = [cost.count(color) for color in Color]
    creature, land = card.has_type("Creature"), card.is_land
    source = land or (
        card.has_type("Artifact")
        and not creature
        and card.mana_value <= 3
        and bool({"ramp", "fixing"} & set(roles))
        and lasting_source(card) is not False  # a Treasure made once is ramp, no source
    )
    piper = is_piper(card)
    return Traits(
        rating,
        frozenset(roles),
        card.deck_colors.mask,
        creature,
        land,
        float(card.mana_value),
        cost_mask,
        tuple(symbols),
        bool({"removal", "wipe"} & set(roles)),
        source,
        "fixing" in roles,
        card.can_be_commander and not piper,
        piper,
        card.identity.mask,
        card.has_partner,
        COLOR_INDEXES[card.deck_colors.mask],
        (creature, card.mana_value <= 3, card.mana_value >= 6),
        CommanderAbility.BACKGROUND in card.abilities and not card.can_be_commander,
        card.is_legendary,
        colorless_symbols(card) > 0,
    )


card_traits: Callable[[Card], Traits] = Kept(_card_traits).__getitem__
"""What bots and the deck builder read of ``card``, worked out once."""
