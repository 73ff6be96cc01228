"""A small goldfish: a deck played alone to see how it opens.  The opening hand and its lands, mulligans as
Commander takes them, drawing on, and turns 1-6 played out a land a turn with the mana available and what the
hand (and the command zone) could cast.  Pure and seeded: nothing printed, the same game for the same seed.

Mulligans (CR 103.5, the London mulligan): the whole hand is shuffled back and seven new cards are drawn; the
player keeps a hand of seven and puts one card on the bottom of the library for each mulligan taken, except
that in a multiplayer game the first mulligan is free (CR 103.5c; Commander is played multiplayer).  The
starting player of a two-player game skips the first draw (CR 103.8a); in a multiplayer game every player
draws on the first turn.

The goldfish casts nothing: each turn it plays one land from the hand (one that brings a color the hand's
spells need and the lands in play don't give, else the first), and says which spells the lands in play
could pay for, colored symbols each paid by a land of that color.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from draft.commanders import commander_identity
from draft.deck_state import plural
from draft.decks import Deck
from draft.manabase import produced
from sets.cards import Card
from sets.colors import ALL_COLORS, COLORLESS, ColorIdentity
from sets.errors import InputError, ManaCostError
from sets.mana import SymbolKind

HAND = 7
TURNS = 6


class BottomFirst(InputError):
    """A hand kept after a mulligan owes cards to the bottom before it is played on: each face says how it puts them
    there (the line prompt's 'bottom N', the app's keys)."""

    def __init__(self, due: int) -> None:
        super().__init__(f"put {plural(due, 'card')} of the hand on the bottom first")
        self.due = due


@dataclass(frozen=True)
class TurnPlayed:
    turn: int
    drawn: Card | None  # the card drawn this turn (None: no draw, or the library was empty)
    land: Card | None  # the land played (None: the hand had none)
    mana: int  # lands in play
    colors: ColorIdentity  # the colors they give
    castable: tuple[Card, ...]  # spells of the hand and commanders the lands in play could pay for


@dataclass(frozen=True)
class FishView:
    """The game as it stands, for a face to show."""

    number: int  # which hand of the session (1, 2 ...)
    hand: tuple[Card, ...]
    lands_in_hand: int
    mulligans: int
    bottom_due: int  # cards still to put on the bottom before playing
    bottomed: tuple[Card, ...]
    drawn: tuple[Card, ...]  # drawn on with 'draw', beside the turns' draws
    turns: tuple[TurnPlayed, ...]
    library: int  # cards left in the library
    multiplayer: bool


class Goldfish:
    """One game of ``deck`` alone, its library shuffled by ``rng``."""

    def __init__(self, deck: Deck, rng: random.Random, number: int = 1, multiplayer: bool = True):
        self.deck, self.rng, self.number, self.multiplayer = deck, rng, number, multiplayer
        # what a land gives, inside the commanders' identity (a deck without commanders yet: any color)
        self.identity = commander_identity(deck.commanders, deck.piper_colors) or ALL_COLORS
        self.cards = [card for card, n in sorted(deck.main.items(), key=lambda item: _order(item[0])) for _ in range(n)]
        self.mulligans = 0
        self.bottomed: list[Card] = []
        self.drawn: list[Card] = []
        self.turns: list[TurnPlayed] = []
        self.in_play: list[Card] = []
        self._deal()

    def _deal(self) -> None:
        library = list(self.cards)
        self.rng.shuffle(library)
        self.hand, self.library = library[:HAND], library[HAND:]

    # --- the opening hand ------------------------------------------------------------------------

    @property
    def bottom_due(self) -> int:
        free = 1 if self.multiplayer else 0
        return max(0, self.mulligans - free) - len(self.bottomed)

    def mulligan(self) -> None:
        """Shuffle the hand back and draw seven again (only before the hand is kept: no turn, draw or bottom)."""
        if self.turns or self.drawn or self.bottomed:
            raise InputError("the hand is kept already: deal a new hand ('hand') to start again")
        if len(self.cards) <= HAND:
            raise InputError(f"the deck has {plural(len(self.cards), 'card')}: nothing to mulligan into")
        self.mulligans += 1
        self._deal()

    def bottom(self, positions: Sequence[int]) -> tuple[Card, ...]:
        """Keep the hand, putting the cards at ``positions`` (0-based, in the hand) on the bottom."""
        due = self.bottom_due
        chosen = sorted(set(positions))
        if len(chosen) != len(positions):
            raise InputError("a card is named twice: name each card to put on the bottom once")
        if due == 0:
            raise InputError("nothing to put on the bottom: that is for a hand kept after a mulligan")
        if len(chosen) != due:
            raise InputError(f"put exactly {plural(due, 'card')} on the bottom, not {len(chosen)}")
        if any(not 0 <= p < len(self.hand) for p in chosen):
            raise InputError(f"choose cards 1 to {len(self.hand)} of the hand")
        cards = tuple(self.hand[p] for p in chosen)
        self.hand = [card for p, card in enumerate(self.hand) if p not in chosen]
        self.library.extend(cards)
        self.bottomed.extend(cards)
        return cards

    def _kept(self) -> None:
        if self.bottom_due:
            raise BottomFirst(self.bottom_due)

    # --- playing on --------------------------------------------------------------------------------

    def draw(self) -> Card:
        """The next card of the library into the hand."""
        self._kept()
        if not self.library:
            raise InputError("the library is empty")
        card = self.library.pop(0)
        self.hand.append(card)
        self.drawn.append(card)
        return card

    def next_turn(self) -> TurnPlayed:
        """Turn N: draw (not on the first turn of a two-player game), play a land, see what could be cast."""
        self._kept()
        if len(self.turns) >= TURNS:
            raise InputError(f"turns 1-{TURNS} are played: deal a new hand ('hand') to play again")
        turn = len(self.turns) + 1
        drawn = None
        if (turn > 1 or self.multiplayer) and self.library:
            drawn = self.library.pop(0)
            self.hand.append(drawn)
        land = self._land_to_play()
        if land is not None:
            self.hand.remove(land)
            self.in_play.append(land)
        sources = [produced(card, self.identity) for card in self.in_play]
        colors = COLORLESS
        for source in sources:
            colors |= source
        spells = [card for card in self.hand if not card.is_land] + list(self.deck.commanders)
        castable = tuple(dict.fromkeys(card for card in spells if can_pay(card, sources)))
        played = TurnPlayed(turn, drawn, land, len(self.in_play), colors, castable)
        self.turns.append(played)
        return played

    def play_out(self) -> list[TurnPlayed]:
        """The turns left up to turn 6."""
        self._kept()
        if len(self.turns) >= TURNS:
            raise InputError(f"turns 1-{TURNS} are played: deal a new hand ('hand') to play again")
        return [self.next_turn() for _ in range(TURNS - len(self.turns))]

    def _land_to_play(self) -> Card | None:
        lands = [card for card in self.hand if card.is_land]
        if not lands:
            return None
        have = COLORLESS
        for card in self.in_play:
            have |= produced(card, self.identity)
        wanted = COLORLESS
        for card in self.hand:
            if not card.is_land:
                wanted |= _cost_colors(card)
        for land in lands:
            if produced(land, self.identity).mask & wanted.mask & ~have.mask:
                return land
        return lands[0]

    def view(self) -> FishView:
        return FishView(
            self.number,
            tuple(self.hand),
            sum(card.is_land for card in self.hand),
            self.mulligans,
            self.bottom_due,
            tuple(self.bottomed),
            tuple(self.drawn),
            tuple(self.turns),
            len(self.library),
            self.multiplayer,
        )


def _order(card: Card) -> tuple[str, str, str]:
    return (card.name, card.set_code, card.number)


def _cost_colors(card: Card) -> ColorIdentity:
    try:
        return card.faces[0].cost.colors
    except (ManaCostError, ValueError):
        return COLORLESS


def can_pay(card: Card, sources: Sequence[ColorIdentity]) -> bool:
    """Whether lands giving ``sources`` (one mana each, of any of its colors; none: colorless) pay the front
    face's cost: every colored symbol by a land of one of its colors, {C} by a colorless one, the rest by any
    (X is 0, a Phyrexian symbol is paid with life, {2/W} by a white land or else by two of any)."""
    try:
        cost = card.faces[0].cost
    except (ManaCostError, ValueError):
        return False
    needs: list[ColorIdentity | None] = []  # a colored symbol's colors, None for {C}
    either: list[ColorIdentity] = []  # {2/W}: its color, or two generic
    generic = 0
    for symbol in cost.symbols:
        if symbol.kind in (SymbolKind.COLORED, SymbolKind.HYBRID):
            needs.append(symbol.colors)
        elif symbol.kind == SymbolKind.COLORLESS:
            needs.append(None)
        elif symbol.kind == SymbolKind.MONO_HYBRID:
            either.append(symbol.colors)
        elif symbol.kind in (SymbolKind.GENERIC, SymbolKind.SNOW, SymbolKind.HALF):
            generic += max(1, int(symbol.value)) if symbol.kind == SymbolKind.HALF else int(symbol.value)
    if _matched(needs + list(either), sources):
        return len(sources) >= len(needs) + len(either) + generic
    return _matched(needs, sources) and len(sources) >= len(needs) + 2 * len(either) + generic


def _matched(needs: Sequence[ColorIdentity | None], sources: Sequence[ColorIdentity]) -> bool:
    """Whether every symbol is paid by a land of its own (a matching found by augmenting paths)."""
    owner: dict[int, int] = {}  # land -> symbol

    def fits(need: ColorIdentity | None, source: ColorIdentity) -> bool:
        return not source if need is None else bool(need & source)

    def place(symbol: int, seen: set[int]) -> bool:
        for land, source in enumerate(sources):
            if land in seen or not fits(needs[symbol], source):
                continue
            seen.add(land)
            if land not in owner or place(owner[land], seen):
                owner[land] = symbol
                return True
        return False

    return all(place(symbol, set()) for symbol in range(len(needs)))
