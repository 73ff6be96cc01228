"""What a deck being built is made of, apart from the session that changes it: the builder's order of a
pool, the free basic lands, what undo brings back, and the counts a request names."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from draft.decks import FREE_BASICS
from sets.basics import basic_land
from sets.booster import Printing
from sets.cards import Card
from sets.colors import Color
from sets.errors import InputError

FREE = 10**6  # copies of a free basic land the builder can take: any number


def card_order(card: Card) -> tuple[bool, int, bool, float, str]:
    """The builder's order of a pool: one color after another (WUBRG), then multicolor; spells before
    lands, cheap before dear."""
    return (len(card.deck_colors) > 1, card.deck_colors.mask, card.is_land, card.mana_value, card.name)


def pool_order(printing: Printing) -> tuple[bool, int, bool, float, str]:
    return card_order(printing.card)


def free_basics() -> list[Card]:
    """The basic lands an organizer provides, in WUBRG order."""
    return [basic_land(letter) for letter in "WUBRG" if basic_land(letter).name in FREE_BASICS]


@dataclass(frozen=True)
class DeckState:
    """What undo brings back: the commanders, their colors, the main deck, and whether the player built it."""

    commanders: tuple[Card, ...]
    colors: tuple[Color, ...]
    main: tuple[tuple[Card, int], ...]
    touched: bool

    @property
    def key(self) -> tuple[tuple[Card, ...], tuple[Color, ...], tuple[tuple[tuple[str, str, str], int], ...]]:
        """The deck itself, for telling whether a change changed anything."""
        main = sorted(((c.name, c.set_code, c.number), n) for c, n in self.main if n > 0)
        return self.commanders, self.colors, tuple(main)


def counted(cards: Sequence[tuple[Card, int]], verb: str, hint: str) -> Counter[Card]:
    wanted: Counter[Card] = Counter()
    for card, count in cards:
        if count < 1:
            raise InputError(f"{verb} {card.name} {count}: a count is 1 or more{hint}")
        wanted[card] += count
    return wanted


def plural(count: int, word: str) -> str:
    return f"{count} {word if count == 1 else word + 's'}"
