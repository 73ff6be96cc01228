"""A deck as a value: lines of cards by zone (commanders, main deck, sideboard), and the chosen Piper colors.

Its rules live in ``draft.deck_rules`` (``validate``), who may lead it in ``draft.commanders``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum, unique

from draft.products import added_names
from sets.cards import Card
from sets.colors import Color

PIPER = "The Prismatic Piper"
MAX_ADDED_PIPERS = 2
DRAFT_MIN_SIZE = 60
COMMANDER_SIZE = 100
MOST_COMMANDERS = 2  # one commander, or two that a partner ability pairs (CR 903.3, CR 702.124)
# The basic lands a Commander draft organizer provides for free; Wastes and snow basics come from the pool.
FREE_BASICS = frozenset({"Plains", "Island", "Swamp", "Mountain", "Forest"})


@unique
class Zone(StrEnum):
    COMMANDER = "commander"
    MAIN = "main"
    SIDEBOARD = "sideboard"


@unique
class DeckFormat(StrEnum):
    COMMANDER_DRAFT = "commander-draft"
    COMMANDER = "commander"


def is_piper(card: Card) -> bool:
    """Whether ``card`` is a card some Commander-draft product lets a player add after the draft (The Prismatic
    Piper, Faceless One): the deck rules ask the deck's own product (``draft.products``) which one it is."""
    return card.name in added_names()


def is_free_basic(card: Card) -> bool:
    """A basic land a Commander draft deck may play without taking it from the pool."""
    return card.name in FREE_BASICS and card.is_basic_land


@dataclass(frozen=True, slots=True)
class DeckLine:
    """Copies of one printing in one zone."""

    card: Card
    count: int = 1
    zone: Zone = Zone.MAIN
    foil: bool = False
    etched: bool = False
    # The printing (set code, collector number) the file read named, when it isn't ``card``'s here (a set not
    # loaded, or a number the set's data here lacks): written back as the file gave it, never the set's own.
    printed: tuple[str, str] | None = None


@dataclass(frozen=True, slots=True)
class Deck:
    """Lines by zone, plus the colors chosen for commanders that choose one, in commander order."""

    lines: tuple[DeckLine, ...] = ()
    piper_colors: tuple[Color, ...] = ()
    name: str = ""

    @classmethod
    def build(
        cls,
        commanders: Sequence[Card] = (),
        main: Mapping[Card, int] | Iterable[Card] = (),
        sideboard: Mapping[Card, int] | Iterable[Card] = (),
        piper_colors: Sequence[Color] = (),
        name: str = "",
    ) -> Deck:
        def counted(cards: Mapping[Card, int] | Iterable[Card]) -> Counter[Card]:
            return Counter(cards) if not isinstance(cards, Mapping) else Counter(dict(cards))

        lines = [DeckLine(card, 1, Zone.COMMANDER) for card in commanders]
        lines += [DeckLine(card, n, Zone.MAIN) for card, n in counted(main).items() if n > 0]
        lines += [DeckLine(card, n, Zone.SIDEBOARD) for card, n in counted(sideboard).items() if n > 0]
        return cls(tuple(lines), tuple(piper_colors), name)

    def zone(self, zone: Zone) -> list[DeckLine]:
        return [line for line in self.lines if line.zone is zone]

    @property
    def commanders(self) -> list[Card]:
        return [line.card for line in self.zone(Zone.COMMANDER) for _ in range(line.count)]

    def counts(self, zone: Zone) -> Counter[Card]:
        """Copies by card in one zone."""
        counts: Counter[Card] = Counter()
        for line in self.lines:
            if line.zone is zone:
                counts[line.card] = counts.get(line.card, 0) + line.count
        return counts

    @property
    def main(self) -> Counter[Card]:
        return self.counts(Zone.MAIN)

    @property
    def sideboard(self) -> Counter[Card]:
        return self.counts(Zone.SIDEBOARD)

    @property
    def size(self) -> int:
        """Cards in the deck, commanders included (the sideboard is not)."""
        sideboard = Zone.SIDEBOARD  # read once, not at every line
        return sum(line.count for line in self.lines if line.zone is not sideboard)

    def with_piper_colors(self, colors: Sequence[Color]) -> Deck:
        return Deck(self.lines, tuple(colors), self.name)


def pool_counts(pool: Iterable[Card] | Mapping[Card, int] | Deck) -> Counter[str]:
    """Copies by card name, from cards, a card count, or a pool read as a deck."""
    counts: Counter[str] = Counter()
    if isinstance(pool, Deck):
        for line in pool.lines:
            counts[line.card.name] = counts.get(line.card.name, 0) + line.count
    elif isinstance(pool, Mapping):
        for card, n in pool.items():
            counts[card.name] = counts.get(card.name, 0) + n
    else:
        for card in pool:
            counts[card.name] = counts.get(card.name, 0) + 1
    return counts
