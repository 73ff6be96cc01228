"""What a face asks of a ``DeckSession`` (intents) and what it answers (results): small frozen values.

A text face reads them from typed lines (``events.screens.deck_commands``), the full-screen app from its
keys, a browser from its requests; the session applies them (``DeckSession.apply``) and returns one result
each, which the face shows in its own way.
"""

from __future__ import annotations

from dataclasses import dataclass

from draft.commanders import Suggestion
from draft.deck_rules import DeckReport
from draft.decks import Deck
from draft.deckstats import DeckStats
from draft.goldfish import FishView
from sets.cards import Card
from sets.colors import Color
from sets.errors import InputError

# --- intents ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChooseCommanders:
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class ChoosePipers:
    colors: tuple[Color, ...]


@dataclass(frozen=True)
class Add:
    """Cards into the main deck: ``(card, count)`` each."""

    cards: tuple[tuple[Card, int], ...]


@dataclass(frozen=True)
class Remove:
    cards: tuple[tuple[Card, int], ...]


MAX_BASICS = 99
"""The most basic lands of one color a deck's builder sets at once (a typo's 1000 refused, not built)."""


def check_basics(count: int) -> None:
    """``InputError`` for a count of basics out of range, in the words every face says it."""
    if not 0 <= count <= MAX_BASICS:
        raise InputError(f"count must be a whole number from 0 to {MAX_BASICS}")


@dataclass(frozen=True)
class SetBasics:
    """How many basics of one color: ``color`` a letter, ``""`` for Wastes."""

    color: str
    count: int


@dataclass(frozen=True)
class FillLands:
    pass


@dataclass(frozen=True)
class Complete:
    """'auto': finish the deck around what the player chose (an empty deck: the bot's)."""


@dataclass(frozen=True)
class Replace:
    """'auto new': the bot's whole deck; ``answer`` to the question the session asked first (None: not asked yet)."""

    answer: bool | None = None


@dataclass(frozen=True)
class Undo:
    pass


@dataclass(frozen=True)
class Redo:
    pass


@dataclass(frozen=True)
class DealHand:
    pass


@dataclass(frozen=True)
class Mulligan:
    """The goldfish: shuffle the hand dealt last back and draw seven (``draft.goldfish``)."""


@dataclass(frozen=True)
class Bottom:
    """Keep the hand after a mulligan, these cards (1-based hand numbers) on the bottom."""

    numbers: tuple[int, ...]


@dataclass(frozen=True)
class Draw:
    """The next card of the library."""


@dataclass(frozen=True)
class NextTurn:
    """The next turn (up to 6)."""


@dataclass(frozen=True)
class PlayOut:
    """Every turn left up to turn 6."""


@dataclass(frozen=True)
class SaveDeck:
    pass


@dataclass(frozen=True)
class FinishDeck:
    """'done'."""


@dataclass(frozen=True)
class ShowPool:
    pass


@dataclass(frozen=True)
class ShowDeck:
    pass


@dataclass(frozen=True)
class ShowStats:
    pass


@dataclass(frozen=True)
class CheckDeck:
    pass


@dataclass(frozen=True)
class Suggest:
    count: int = 8


# --- results ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CommandersChosen:
    """The commanders now (Pipers with their ``colors``), what moved from the main deck to the command
    zone, which former commanders went back to the pool (names) and which were removed: Pipers the player
    added, never in the pool (names)."""

    commanders: tuple[Card, ...]
    colors: tuple[Color, ...]
    moved: tuple[str, ...]
    returned: tuple[str, ...]
    removed: tuple[str, ...] = ()
    why: tuple[str, ...] = ()  # why a commander went back: it can't lead beside the new ones (the deck rules' words)

    @property
    def returned_words(self) -> str | None:
        """What every face says of the commanders that went back to the pool, with why (None: none went back)."""
        if not self.returned:
            return None
        names = " / ".join(self.returned)  # as every list of names: a name may hold a comma
        return f"Back to your pool: {names}" + (f" ({'; '.join(self.why)})" if self.why else "")


@dataclass(frozen=True)
class Added:
    cards: tuple[tuple[Card, int], ...]


@dataclass(frozen=True)
class Removed:
    """``(card, taken, asked)`` each: asking for more than the deck had takes what it had."""

    cards: tuple[tuple[Card, int, int], ...]


@dataclass(frozen=True)
class BasicsSet:
    land: Card
    count: int
    was: int


@dataclass(frozen=True)
class LandsAdded:
    """The basics added to reach 60 cards (none: the deck had 60 already)."""

    lands: tuple[tuple[Card, int], ...]


@dataclass(frozen=True)
class Completed:
    kept: int
    added: int
    colors: tuple[Color, ...] = ()  # chosen for the commanders that choose one and had none (CR 903.4b)


@dataclass(frozen=True)
class Question:
    """A yes/no question to answer before the intent is done (send it again with the answer)."""

    text: str


@dataclass(frozen=True)
class KeptDeck:
    pass


@dataclass(frozen=True)
class Replaced:
    """The bot's deck is the deck now; its mana sources by color letter."""

    sources: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Undone:
    pass


@dataclass(frozen=True)
class Redone:
    pass


@dataclass(frozen=True)
class Hand:
    """The hand dealt last and its goldfish game (``fish``: the game as it stands)."""

    number: int
    cards: tuple[Card, ...]
    fish: FishView | None = None


@dataclass(frozen=True)
class Saved:
    pass


@dataclass(frozen=True)
class Finished:
    """'done': the deck's check, and whether it was saved as finished (only a legal deck is)."""

    report: DeckReport
    saved: bool


@dataclass(frozen=True)
class PoolRow:
    number: int
    card: Card
    in_deck: int
    in_pool: int


@dataclass(frozen=True)
class PoolShown:
    rows: tuple[PoolRow, ...]


@dataclass(frozen=True)
class DeckShown:
    deck: Deck


@dataclass(frozen=True)
class Figures:
    stats: DeckStats


@dataclass(frozen=True)
class Checked:
    report: DeckReport


@dataclass(frozen=True)
class Suggestions:
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
