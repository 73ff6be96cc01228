"""What the desk and the room are answered, as msgspec types encoded at the edge: every seat as the desk sees it,
the night's tables, the desk's actions, the standings, the room's screen and the published decklists (a seat's own
answers and the API page's shapes: ``answers``)."""

from __future__ import annotations

from typing import Any, Literal

from events.night.room_shown import RoomView
from events.night.shown import Answer, Number, StandingRow
from events.night.table_shown import Decklist

# --- the desk ---------------------------------------------------------------------------------------------------------


SeatStatus = Literal["picking", "waiting", "done", "bot"]


class DeskSeat(Answer):
    """One seat's row on the desk's page."""

    player: int  # the player's number
    name: str
    pod: int
    seat: int  # from 1
    connected: bool  # a phone's page open now; a terminal that still runs
    state: SeatStatus
    deadline: float | None
    wrong_codes: int
    wrong_code_last: str | None  # when the last one was typed
    wrong_code_from: str | None
    bot_player: bool  # a bot by registration (not a person whose seat a bot holds for now)
    holder: Literal["phone", "terminal", "bot"] | None = None  # None: nobody has joined with the code
    last_seen: float | None = None  # wall time: a phone's last request or when its seat was taken up; a terminal's end
    queued: int = 0  # the packs waiting in front of the seat (the one it picks from included)
    hand: Literal["bot", "player"] | None = None  # what the desk may do now: hand the seat to a bot, or back
    before_restart: float | None = None  # a phone not heard from since this server started (then): seen before it
    stalled: str | None = None  # the core's words when the seat holds packs with nobody there (``presence.stalls``)
    drop: bool = False  # the desk may drop the player now (``registration.may_drop``: still in, not finished)


class DeskPlayer(Answer):
    """A player in the event with no draft seat (a sealed pool: a sealed event's, or a late player's; or a late player
    every pod was full for): their row on the desk's page, for a new code or a drop as a seat's row gives them."""

    player: int  # the player's number
    name: str
    connected: bool  # a phone's page open now
    wrong_codes: int
    drop: bool  # the desk may drop the player now (``registration.may_drop``)
    new_code: bool  # the desk may give the player a new code (``seat_codes.code_resettable``: they hold a pool)
    why: str  # why they have no draft seat (``browser_seats.unseated_why``)


class DeskEvent(Answer):
    id: int
    name: str
    status: str


class CodeSource(Answer):
    source: str
    wrong: int
    at: float
    wait: float


class DeskSeats(Answer):
    """Every seat as the desk sees it, the addresses and terminals that typed wrong codes in the last hour, whether
    the draft is over (``browser_seats.seats_over``), the seats that hold up their pod (``presence.stalled_line``), and
    the players with no draft seat (a sealed pool)."""

    event: DeskEvent
    server_time: float
    seats: list[DeskSeat]
    code_sources: list[CodeSource]
    seats_over: str | None  # the seats' one line once the draft is over (the page folds them under it); None before
    stalled: str | None = None  # how many seats hold packs with nobody there, in the core's words; None: none
    unseated: list[DeskPlayer] = []  # the players in the event with no draft seat (``browser_seats.unseated``)


class NewCode(Answer):
    player: int
    name: str
    code: str


class HandedSeat(Answer):
    player: int
    bot: bool
    changed: bool


class DeskLink(Answer):
    link: str


class Settled(Answer):
    round: int
    table: int
    points: dict[str, Number]
    final: bool  # the final table's result: its places count for no points
    places: dict[str, int]  # each player's place, from 1
    corrected: bool
    next_round: int | None
    would_change: list[int]
    correction: str | None  # the core's words for a correction after a later round was paired


class Paired(Answer):
    round: int
    tables: list[list[str]]
    first: list[str]


class RoundClock(Answer):
    round: int
    length: Number
    started: Number
    paused_at: Number | None
    paused_total: Number
    paused: bool
    remaining: Number


class Undone(Answer):
    undid: str
    entry: int
    what: str
    old: Any
    new: Any


class DeskDropped(Answer):
    """A player the desk dropped (``event player drop``), and the tables whose report waited only for them: each
    recorded as its result in the same change (``report_waits.record_after_drop``)."""

    player: int  # the player's number
    name: str
    recorded: list[tuple[int, int]]  # [round, table]


class UndoNext(Answer):
    """What ``POST /api/desk/undo`` would take back next (``event undo --list``): the change in words, ``asks``
    (a round's pairing or a seating: players may sit at those tables, so the desk is asked first) and ``refused``
    (why it can't be undone, in the core's words; null when it can)."""

    entry: int
    what: str
    text: str
    at: str
    asks: bool
    refused: str | None


class UndoPreview(Answer):
    next: UndoNext | None  # null: nothing to undo


# the Piper ledger (``Pipers.piper_ledger``, ``event pipers --json``), in the product's words (``word``, ``words``)


class PiperPod(Answer):
    pod: int
    opened: int | None  # counted in the pod's recorded pools; null: none recorded yet
    pools_recorded: int
    seats: int
    typed: int | None  # the count typed at the desk (``event pipers --opened``), or null
    disagrees: bool


class PiperDeck(Answer):
    player: str
    owned: int
    used: int
    added: int
    name: str


class PiperLender(Answer):
    player: str
    pod: int | None
    spare: int
    deck_registered: bool
    dropped: bool
    name: str


class PiperRequest(Answer):
    player: str
    requested: int
    name: str


class PiperForecast(Answer):
    requested: int
    needed_from_others: int
    available: int
    shortfall: int
    spent: bool
    requests: list[PiperRequest]


class PiperLedger(Answer):
    card: str
    word: str
    words: str
    pods: list[PiperPod]
    held_in_pools: int
    stock: int
    decks: list[PiperDeck]
    needed: int
    unused: int
    available: int
    shortfall: int
    lenders: list[PiperLender]
    forecast: PiperForecast


class FinalTable(Answer):
    round: int
    players: list[str]
    ranks: list[int]
    first: str
    ties: list[str]
    said: list[str]  # how each tie was settled, or that there was none: the terminal's lines


class Finished(Answer):
    finished: bool


class Published(Answer):
    publish_decklists: bool


class Tracker(Answer):
    tracker: bool


# --- the room ---------------------------------------------------------------------------------------------------------


class Standings(Answer):
    server_time: float
    standings: list[StandingRow]
    winner: str | None


class JoinHeading(Answer):
    """What the phone's join form is headed with (``browser_seats.join_heading``): what the player joins now."""

    heading: str


class Decklists(Answer):
    decklists: list[Decklist]


class RoomState(RoomView, kw_only=True):
    """The room's screen (``TableViews.room_view``), and where a player opens the page (the QR code's address)."""

    join: str = ""  # this server and event
