"""The night's refusals: one type per rule, one set of words, and who is asking.

The core raises a ``Refusal`` when a rule of the night says no; every face only maps it: the CLI to its
``exit_code`` and the message on one line, the web to its HTTP ``status`` and ``{"error": {"code", "message"}}``
with ``code``, the plain prompt and the Textual app to the message.  The words are the refusal's own, so a
player hears the same thing at a phone and at a terminal.  A message says what the person can do about it,
in words that fit every face (never a command only the desk's terminal has).

Each refusal is a ``StateError`` (a wrong count is bad input: exit 2; a role refusal has exit code 5 of its own), and
a limit exceeded is the ``LimitError`` every face already names by its option; ``answer`` says any of them the same
way for every face.

``Actor`` is who is asking: the desk, the holder of one seat (bound by its seat code, at a browser or a
terminal), or the public (the room display, anyone on the Wi-Fi).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from sets.errors import CmdraftError, LimitError, StateError
from sets.visible import quoted, sentence

EXIT_ROLE = 5


class Refusal(StateError):
    """A rule of the night said no.  ``code`` and ``status``: the web's error code and HTTP status;
    ``exit_code``: the CLI's; ``extra``: what a face may show with it (the seat's new state, seconds to wait)."""

    code: ClassVar[str] = "refused"
    status: ClassVar[int] = 409
    exit_code = 3

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra


class StalePack(Refusal):
    """A pick names a pack that has moved on (the seat picked it elsewhere, the timer took it, the packs passed)."""

    code, status = "stale", 409


class BotSeat(Refusal):
    """The seat is a bot's now (the desk dropped the player or handed the seat to a bot)."""

    code, status = "bot-seat", 409


class NotYourSeat(Refusal):
    """The seat (or table, or report) is another player's, or this device no longer holds it: give the seat's
    code again (the web's 401, which sends a phone back to its join screen)."""

    code, status = "not-your-seat", 401


class WrongCount(Refusal):
    """A pick of the wrong number of cards, a card named twice, or a card that isn't in the pack (bad input: exit 2)."""

    code, status = "wrong-count", 400
    exit_code = 2


class SeatClosed(Refusal):
    """The seat can't be taken up now (its code was reset, it is locked, the player dropped)."""

    code, status = "seat-closed", 423


class NoSeat(Refusal):
    """The player has no seat to join (not seated yet, dropped, or a bot's): ``joining.may_join``."""

    code, status = "not-seated", 409
    about = "player"  # the join's field (``joining.PLAYER``)


class PhaseOver(Refusal):
    """What was asked belongs to a phase of the night that is over (deck registration after round 1 is paired)."""

    code, status = "phase-over", 409


class DecksMissing(Refusal):
    """A round paired while a player to be paired has no legal deck registered: they register first, or the desk
    pairs anyway (the terminal's ``--force``, the desk page's "Pair anyway")."""

    code, status = "decks-missing", 409


class ResultStands(Refusal):
    """A table's result is recorded already (or its round is finished): a new one is a correction, which each face
    asks for its own way (the terminal's ``--replace``, the desk page's "Correct")."""

    code, status = "result-stands", 409


class DroppedOut(Refusal):
    """A player who dropped plays no more: their table's result is reported and confirmed by the players still in
    the event (``dropped_out``), or recorded by the desk."""

    code, status = "dropped", 409


def dropped_out(name: str, keep: str = "report and confirm the table's result, or the desk records it") -> DroppedOut:
    """The refusal when a player who dropped reports, confirms or disputes their table's result (or enters a game
    tracker's change: ``keep`` says who keeps what instead)."""
    return DroppedOut(f"{quoted(name)} has dropped from the event: the players still in it {keep}")


class NotBuilding(Refusal):
    """Decks are built and registered only once every pod has drafted, until the event is finished
    (``not_building``: the words for the event's phase)."""

    code, status = "not-building", 409


def not_building(status: str) -> NotBuilding | None:
    """The refusal to build or register a deck while the event is ``status``; None while decks are built."""
    if status in ("building", "playing"):
        return None
    if status == "finished":
        return NotBuilding("the event is finished: its decks can no longer be built or changed")
    return NotBuilding(f"decks are built once every pod has drafted (the event is {status})")


def no_builder_words(status: str) -> str | None:
    """Why no deck is built while the event is ``status``, as a sentence a face shows where its builder would be
    (``not_building``'s words); None while decks are built."""
    refused = not_building(status)
    return None if refused is None else sentence(refused.message)


class WrongCode(Refusal):
    """A seat code that isn't the seat's (a typo, an old slip): nothing is bound, and the seat is asked again (the
    web's 401; at a terminal the prompt asks again)."""

    code, status = "wrong-code", 401
    exit_code = 2
    about = "code"  # the join's field (``joining.CODE``)
    words = "Wrong code: type the 6 characters on your seating slip (no 0/O or 1/I), or ask the desk for a new one"

    def __init__(self, message: str = words, **extra: Any) -> None:
        super().__init__(message, **extra)


def wrong_code_left(name: str, undone: str) -> WrongCode:
    """The refusal when a terminal's input ends (or the player leaves) after a wrong seat code: the code was wrong,
    so ``undone`` (what was not done), and what to do, as ``WrongCode`` says it (exit 2)."""
    return WrongCode(
        f"the seat code typed for {quoted(name)} was wrong, so {undone}: type the 6 characters on the seating slip "
        "(no 0/O or 1/I), or ask the desk for a new one"
    )


class NotAllowed(Refusal):
    """Only another role may do this (only the desk seats, starts a draft, pairs, settles, corrects, resets)."""

    code, status = "not-allowed", 403
    exit_code = EXIT_ROLE


class LimitExceeded(LimitError):
    """A number beyond the range the core keeps (a life change, a count), or too many tries too fast
    (``retry_after``: seconds to wait; the web then answers 429).  The range's words are ``LimitError``'s, and
    every ``LimitError`` the core raises is answered as this one is (``answer``)."""

    code: ClassVar[str] = "limit"
    status: ClassVar[int] = 400
    exit_code = 2

    def __init__(
        self,
        field: str,
        what: str,
        low: int,
        high: int,
        value: int,
        unit: str = "",
        *,
        message: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(field, what, low, high, value, unit)
        self.retry_after = retry_after
        if message is not None:
            self.args = (message,)


REFUSALS: tuple[type[CmdraftError], ...] = (
    StalePack,
    DroppedOut,
    BotSeat,
    NotYourSeat,
    WrongCount,
    WrongCode,
    NotBuilding,
    SeatClosed,
    NoSeat,
    LimitExceeded,
    PhaseOver,
    NotAllowed,
)


@dataclass(frozen=True)
class Answer:
    """A refusal as a face says it: the web's status and code, the CLI's exit code, the words, and the extras."""

    status: int
    code: str
    exit_code: int
    message: str
    extra: dict[str, Any]


def answer(error: CmdraftError) -> Answer | None:
    """How every face answers ``error`` when a rule of the night refused (a ``Refusal``, or a ``LimitError`` from the
    core: a limit exceeded); None for any other error."""
    if isinstance(error, Refusal):
        return Answer(error.status, error.code, error.exit_code, error.message, dict(error.extra))
    if isinstance(error, LimitError):
        retry = getattr(error, "retry_after", None)
        extra = {} if retry is None else {"retry_after": retry}
        return Answer(400 if retry is None else 429, LimitExceeded.code, error.exit_code, str(error), extra)
    return None


# --- who is asking ----------------------------------------------------------------------------------------------


class Role(StrEnum):
    DESK = "desk"
    SEAT = "seat"  # the holder of one seat, bound by its seat code
    PUBLIC = "public"


@dataclass(frozen=True)
class Actor:
    """Who is asking: the desk, one seat's holder (``player``: their id; ``via``: "browser" or "terminal";
    ``name``: as the history says it), or the public."""

    role: Role
    player: int | None = None
    via: str = ""
    name: str = ""

    @classmethod
    def desk(cls) -> Actor:
        return cls(Role.DESK)

    @classmethod
    def seat(cls, player: int, via: str = "terminal", name: str = "") -> Actor:
        return cls(Role.SEAT, player, via, name)

    @classmethod
    def public(cls) -> Actor:
        return cls(Role.PUBLIC)

    @property
    def is_desk(self) -> bool:
        return self.role is Role.DESK

    @property
    def who(self) -> str:
        """The actor as the event's history names it: ``desk``, ``browser Ann``, ``terminal Ann``, ``public``."""
        if self.role is Role.SEAT:
            return f"{self.via or 'terminal'} {self.name}".strip()
        return self.role.value

    def require_desk(self, doing: str) -> None:
        """``NotAllowed`` unless the desk is asking."""
        if not self.is_desk:
            raise NotAllowed(f"only the desk can {doing}: ask the organizer")

    def require_player(self, player: int, doing: str) -> None:
        """``NotYourSeat`` unless the desk or that very player's seat holder is asking."""
        if self.is_desk or self.role is Role.SEAT and self.player == player:
            return
        raise NotYourSeat(f"you can {doing} only for your own seat")


DESK = Actor.desk()
PUBLIC = Actor.public()
