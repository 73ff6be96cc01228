"""A table of the night as the screens show it, typed (``TableViews.table_view``, the desk's tables): the players
there, who goes first, its clock, its result or the report waiting for confirmations.  Each type's ``to_json`` is
the form the phones, the desk page and ``event table --json`` read."""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import UNSET, UnsetType

from events.night.games import GameBoard
from events.night.shown import Answer, Clock, Number, StandingRow


class Named(Answer):
    """A player by number and name (a report's finishing order names them so)."""

    id: int
    name: str


def disputed_words(player: str, has_version: bool) -> str:
    """A player disputing a report, as every face says it (their version, when they gave one, shown after it; the
    player looking is named "you" by the caller)."""
    verb = "dispute" if player == "you" else "disputes"
    return f"{player} {verb} it" + (", with this version:" if has_version else " (no version given)")


class Disputed(Answer):
    """A player disputing a report, with their own finishing order (empty when they gave none) and the words every
    face says it in (``disputed_words``)."""

    player: str
    order: list[list[Named]]
    words: str


class Mine(Answer):
    """What the player looking said about a report at their table (``reported``: the report is their own)."""

    confirmed: bool
    disputed: bool
    reported: bool


def reported_by_words(by: str, late: bool) -> str:
    """Who reported a table's result, and whether after the clock ran out: as every face says it."""
    return f"Reported by {by}" + (" after the clock" if late else "")


def still_to_confirm_words(names: list[str]) -> str | None:
    """Who a report still waits for, as every face says it (the player looking is named "you" by the caller), the
    names apart as every line of names keeps them (" / ": a name may hold a comma); None when it waits for nobody."""
    if not names:
        return None
    return "Still to confirm: " + " / ".join(names)


def confirmed_words(name: str, agree: bool, already: bool, recorded: bool) -> str:
    """What a player's confirmation (``agree``) or dispute did, as every face says it: ``already`` when they had
    confirmed that report before; ``recorded`` when it made the report the table's result."""
    if not agree:
        return f"{name} disputed the result: the desk settles it"
    if already:
        return f"{name} already confirmed the result"
    return f"{name} confirmed the result" + ("; it is the table's result now" if recorded else "")


class ReportShown(Answer):
    """A result reported at a table: who reported which order, who confirmed it, who still has to, the disputes;
    ``by_words`` and ``waiting_words`` who reported it and who is still waited for in the core's words (the player
    looking as "you"); ``mine`` (on the phone of a player at the table) whether they confirmed or disputed it."""

    id: int
    by: str
    order: list[list[Named]]
    confirmed: list[str]
    waiting_for: list[str]
    disputes: list[Disputed]
    status: str
    late: bool
    by_words: str  # ``reported_by_words``
    waiting_words: str | None  # ``still_to_confirm_words``
    mine: Mine | UnsetType = UNSET  # on the phone of a player at the table: what they said


class TableResult(Answer):
    """A table's recorded result: the finishing order by name (a group is a draw) and each player's points."""

    order: list[list[str]]
    points: dict[str, Number]


class Seated(Answer):
    """A player at the table as one of them sees them: their commanders, who goes first, who dropped, who is me."""

    id: int
    name: str
    commanders: list[str]
    colors: list[str | None]  # the color each commander chose (a Piper's, as a word), in order; None for the others
    first: bool
    dropped: bool
    me: bool


# a table's status, as every face that names it says it
TABLE_STATUS_WORDS = {
    "playing": "playing",
    "waiting": "waiting for confirmations",
    "disputed": "disputed",
    "desk": "time up: the desk records it",
    "recorded": "recorded",
}


# a table's status as the players there are told it on their phones and terminals (``table_status_sentence``)
PLAYER_STATUS_WORDS = {
    "playing": "When the game ends, one of you reports the finishing order; the others confirm it.",
    "waiting": "It is recorded once everyone still to confirm agrees.",
    "disputed": "Disputed: the desk settles it. Call a judge if you need to.",
    "desk": "Time is up: the desk records this table if it is not confirmed.",
    "recorded": "Recorded. The desk corrects it if it is wrong.",
}
DROPPED_WORDS = "You dropped from the event: the players still at the table report its result, or the desk records it."
UNREPORTED_LATE_WORDS = "Time is up: report the result now, or the desk records it."
FINAL_RESULT_WORDS = "Recorded. The event is over: the results are final."  # the desk corrects only until then


def table_status_sentence(status: str, reported: bool, event_finished: bool) -> str:
    """What the players at a table are told of its status (``TableShown.status``): what happens next and who does
    it; ``reported``: a report is waiting; ``event_finished``: the results can no longer be corrected."""
    if status == "recorded" and event_finished:
        return FINAL_RESULT_WORDS
    if status == "desk" and not reported:
        return UNREPORTED_LATE_WORDS
    return PLAYER_STATUS_WORDS[status]


class TableShown(Answer):
    """A table of a round: its number, the players (by name for the desk, as ``Seated`` for a player there), who
    goes first, its status (playing, waiting, disputed, desk, recorded) and those words (``TABLE_STATUS_WORDS``),
    clock, result and pending report."""

    table: int
    players: list[str | Seated]
    first: str | None
    status: str
    status_words: str
    clock: Clock | None
    result: TableResult | None
    report: ReportShown | None


def as_json(value: Answer) -> dict[str, Any]:
    """A value's JSON object, as the faces that read plain values take it (a field left ``UNSET`` is left out)."""
    shown = msgspec.to_builtins(value)
    assert isinstance(shown, dict)
    return shown


# what the finishing-order form on a player's phone says once everyone the order names is placed (``OrderEntry``)
ALL_PLACED_WORDS = "Everyone is placed: Confirm to send the result."
ALL_PLACED_VERSION_WORDS = "Everyone is placed: Confirm to send your version."


class OrderEntry(Answer):
    """The finishing-order form a player taps in, by the core's rule and in its words: ``places`` is how many players
    the order names (every player at the table once, dropped ones too: ``Rounds.check_order``); once that many are
    placed the form says ``placed`` (a report) or ``placed_version`` (a player's own version of a disputed report),
    and Confirm sends it."""

    places: int
    place_words: list[str]  # each place as every face writes it, first to last ("1st", "2nd": ``standings.ordinal``)
    placed: str = ALL_PLACED_WORDS
    placed_version: str = ALL_PLACED_VERSION_WORDS


class RoundAtTable(Answer, kw_only=True):
    """The round a player sits in and their table there, as one object: the round's number, whether it is the final
    table and still open, how many tables it has; the table's number, the players as one of them sees them, who goes
    first, its status, clock, result and pending report; ``game`` the table's tracker while the event lets players
    keep it and the round is open (left out otherwise); ``status_words`` what the players there are told of its
    status (``table_status_sentence``); ``entry`` the finishing-order form's rule and words (``OrderEntry``)."""

    number: int
    final: bool
    open: bool
    tables: int
    table: int
    players: list[Seated]
    first: str | None
    status: str
    status_words: str
    clock: Clock | None
    result: TableResult | None
    report: ReportShown | None
    entry: OrderEntry
    game: GameBoard | UnsetType = UNSET


class TableEvent(Answer):
    """The event as a player's view of the night names it: whether its players keep the game tracker, and whether
    everyone's decklists are public now (``decklists_public``: the page ``/decklists``)."""

    id: int
    name: str
    status: str
    tracker: bool
    decklists: bool = False


class TablePlayer(Answer):
    """The player looking, with their status in the event (active or dropped), whether they may drop now (the
    core's rule: ``registration.may_drop``) and whether they may report, confirm or dispute their table's result
    (``may_report``: still in the event while a round is played; a player who dropped plays no more)."""

    id: int
    name: str
    status: str
    may_drop: bool
    may_report: bool


class TableState(Answer):
    """A player's own view of the night (``TableViews.table_view``): the event, the player, their standing, the
    winner's line once there is one, and their table of the newest round they sit in.  The phones receive it as it
    is (``GET /api/table``, a seat's state); ``event table --json`` prints ``to_json``."""

    server_time: float
    event: TableEvent
    player: TablePlayer
    standing: StandingRow | None
    standings_title: str  # what the standings are called (``standings.standings_title``)
    winner: str | None
    round: RoundAtTable | None

    def to_json(self) -> dict[str, Any]:
        """The view as ``event table --json`` prints it: the JSON the phones receive."""
        return as_json(self)


# --- the desk ---------------------------------------------------------------------------------------------------------


class NightRound(Answer):
    """The current round as the desk sees it: its number, whether it is the final table and still open, its tables,
    and whether the desk may pair it again (``table_reports.pair_again_refusal``)."""

    number: int
    final: bool
    open: bool
    tables: list[TableShown]
    pair_again: bool = False


class NightEvent(Answer):
    id: int
    name: str
    status: str
    tracker: bool
    publish_decklists: bool


class Dropped(Answer):
    """A player who left the event, and after which round (None: before the first)."""

    name: str
    after_round: int | None


DESK_ACTIONS = (
    "pair",
    "pair-anyway",
    "clock",
    "pair-again",
    "settle",
    "undo",
    "top",
    "tracker",
    "finish",
    "publish",
)


def desk_actions(finished: bool, rnd: NightRound | None, unready: bool = False) -> list[str]:
    """What the desk may do now, of ``DESK_ACTIONS``: once the event is finished only choose whether the decklists
    are published; else pair a round when none is open, unless the final table has been played (and pair it anyway
    when a player to be paired has no legal deck: ``unready``, refused without), run an open round's clock (and pair
    it again where ``pair_again``), record or correct the round's results, undo, seat the final table after a closed
    round that wasn't one, set the tracker, finish after a closed round."""
    if finished:
        return ["publish"]
    closed = rnd is not None and not rnd.open
    pairs = rnd is None or (not rnd.open and not rnd.final)  # after the final table's result only finishing is left
    return [
        *(["pair"] if pairs else []),
        *(["pair-anyway"] if unready and pairs else []),
        *(["clock"] if rnd is not None and rnd.open else []),
        *(["pair-again"] if rnd is not None and rnd.open and rnd.pair_again else []),
        *(["settle"] if rnd is not None else []),
        "undo",
        *(["top"] if closed and rnd is not None and not rnd.final else []),
        "tracker",
        *(["finish"] if closed else []),
        "publish",
    ]


class DeskNight(Answer):
    """Every table of the round for the desk (results, reports with every version, time left), who dropped, what
    the desk may do now (``desk_actions``), the sizes its final table may have (offered as they are), and who has
    registered a deck."""

    server_time: float
    event: NightEvent
    round: NightRound | None
    winner: str | None
    dropped: list[Dropped]
    actions: list[str]
    final_sizes: list[int]  # what a final table may seat (``rounds.final_sizes``), the event's own table size first
    decks: str | None = None  # who has registered a deck (``decks.registrations_words``), while decks are registered


# --- the room ---------------------------------------------------------------------------------------------------------


class DecklistLine(Answer, kw_only=True):
    """A line of a published decklist: the card's name and count, and what a face adds from its card."""

    cost: str | UnsetType = UNSET  # cost, type and image: where the card is in the set's index
    type: str | UnsetType = UNSET
    image: str | UnsetType = UNSET
    artist: str | UnsetType = UNSET
    chosen_color: str | UnsetType = UNSET  # a commander that chooses its color (a Piper): the color, as a word
    name: str
    count: int


class Decklist(Answer):
    """A player's published decklist, by their standing."""

    rank: int
    rank_text: str  # as every face writes a rank ("1st")
    name: str
    commanders: list[DecklistLine]
    main: list[DecklistLine]
    sideboard: list[DecklistLine]
