"""What a face asks of a ``DeckSession`` (intents) and what it answers (results): small frozen values.

A text face reads them from typed lines (``events.screens.deck_commands``), the full-screen app from its
keys, a browser from its requests; the session applies them (``DeckSession.apply``) and returns one result
each, which the face shows in its own way.

They are msgspec's frozen ``Struct``s, not dataclasses: the same frozen values (compared, hashed and shown alike),
made in microseconds where making some forty dataclasses cost every process that builds a deck ~20 ms at start.
"""

from __future__ import annotations

from msgspec import Struct

from draft.commanders import Suggestion
from draft.deck_rules import DeckReport
from draft.decks import Deck
from draft.deckstats import DeckStats
from draft.goldfish import FishView
from sets.cards import Card
from sets.colors import Color

# --- intents ---------------------------------------------------------------------------------------


class ChooseCommanders(Struct, frozen=True):
    cards: tuple[Card, ...]


class ChoosePipers(Struct, frozen=True):
    colors: tuple[Color, ...]


class Add(Struct, frozen=True):
    """Cards into the main deck: ``(card, count)`` each."""

    cards: tuple[tuple[Card, int], ...]


class Remove(Struct, frozen=True):
    cards: tuple[tuple[Card, int], ...]


class SetBasics(Struct, frozen=True):
    """How many basics of one color: ``color`` a letter, ``""`` for Wastes."""

    color: str
    count: int


class FillLands(Struct, frozen=True):
    pass


class Complete(Struct, frozen=True):
    """'auto': finish the deck around what the player chose (an empty deck: the bot's)."""


class Replace(Struct, frozen=True):
    """'auto new': the bot's whole deck; ``answer`` to the question the session asked first (None: not asked yet)."""

    answer: bool | None = None


class Undo(Struct, frozen=True):
    pass


class Redo(Struct, frozen=True):
    pass


class DealHand(Struct, frozen=True):
    pass


class Mulligan(Struct, frozen=True):
    """The goldfish: shuffle the hand dealt last back and draw seven (``draft.goldfish``)."""


class Bottom(Struct, frozen=True):
    """Keep the hand after a mulligan, these cards (1-based hand numbers) on the bottom."""

    numbers: tuple[int, ...]


class Draw(Struct, frozen=True):
    """The next card of the library."""


class NextTurn(Struct, frozen=True):
    """The next turn (up to 6)."""


class PlayOut(Struct, frozen=True):
    """Every turn left up to turn 6."""


class SaveDeck(Struct, frozen=True):
    pass


class FinishDeck(Struct, frozen=True):
    """'done'."""


class ShowPool(Struct, frozen=True):
    pass


class ShowDeck(Struct, frozen=True):
    pass


class ShowStats(Struct, frozen=True):
    pass


class CheckDeck(Struct, frozen=True):
    pass


class Suggest(Struct, frozen=True):
    count: int = 8


# --- results ---------------------------------------------------------------------------------------


class CommandersChosen(Struct, frozen=True):
    """The commanders now (Pipers with their ``colors``), what moved from the main deck to the command
    zone, which former commanders went back to the pool (names) and which were removed: Pipers the player
    added, never in the pool (names)."""

    commanders: tuple[Card, ...]
    colors: tuple[Color, ...]
    moved: tuple[str, ...]
    returned: tuple[str, ...]
    removed: tuple[str, ...] = ()


class Added(Struct, frozen=True):
    cards: tuple[tuple[Card, int], ...]


class Removed(Struct, frozen=True):
    """``(card, taken, asked)`` each: asking for more than the deck had takes what it had."""

    cards: tuple[tuple[Card, int, int], ...]


class BasicsSet(Struct, frozen=True):
    land: Card
    count: int
    was: int


class LandsAdded(Struct, frozen=True):
    """The basics added to reach 60 cards (none: the deck had 60 already)."""

    lands: tuple[tuple[Card, int], ...]


class Completed(Struct, frozen=True):
    kept: int
    added: int
    colors: tuple[Color, ...] = ()  # chosen for the commanders that choose one and had none (CR 903.4b)


class Question(Struct, frozen=True):
    """A yes/no question to answer before the intent is done (send it again with the answer)."""

    text: str


class KeptDeck(Struct, frozen=True):
    pass


class Replaced(Struct, frozen=True):
    """The bot's deck is the deck now; its mana sources by color letter."""

    sources: tuple[tuple[str, int], ...]


class Undone(Struct, frozen=True):
    pass


class Redone(Struct, frozen=True):
    pass


class Hand(Struct, frozen=True):
    """The hand dealt last and its goldfish game (``fish``: the game as it stands)."""

    number: int
    cards: tuple[Card, ...]
    fish: FishView | None = None


class Saved(Struct, frozen=True):
    pass


class Finished(Struct, frozen=True):
    """'done': the deck's check, and whether it was saved as finished (only a legal deck is)."""

    report: DeckReport
    saved: bool


class PoolRow(Struct, frozen=True):
    number: int
    card: Card
    in_deck: int
    in_pool: int


class PoolShown(Struct, frozen=True):
    rows: tuple[PoolRow, ...]


class DeckShown(Struct, frozen=True):
    deck: Deck


class Figures(Struct, frozen=True):
    stats: DeckStats


class Checked(Struct, frozen=True):
    report: DeckReport


class Suggestions(Struct, frozen=True):
    suggestions: tuple[Suggestion, ...]


Result = (
    CommandersChosen
    | Added
    | Removed
    | BasicsSet
    | LandsAdded
    | Completed
    | Question
    | KeptDeck
    | Replaced
    | Undone
    | Redone
    | Hand
    | Saved
    | Finished
    | PoolShown
    | DeckShown
    | Figures
    | Checked
    | Suggestions
)
