"""The records of a schema-3 database: one frozen type per table, its checks declared on it.

Each table's records are ``msgspec.Struct`` types: a field's type, range and length are ``Meta`` constraints
(``Within`` for ranges wider than 64 bits), a field naming another record carries a ``Ref``, a rule across fields
is the type's ``problem()``; ``events.storage.record_checks.check_tables`` runs them on every read and before
every write.  Fields a type does not list are left alone (a later release adds its own).  ``typed(Type, doc)``
reads a stored record as its type (``id``: its number in its table), ``stored(record)`` is the record to save."""

from __future__ import annotations

import typing
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from events.storage import table_names as names
from events.storage.marks import Ref, Within
from events.storage.record_parts import Clock, UndoNote

MAX_ID = 10**9  # document numbers, player numbers: nothing real comes near
MAX_SEED = 2**64
MAX_SECRET = 2**256  # an event's packs come from a 128-bit secret (events/night/packs_secret.py); room to spare
MAX_POINTS = 10**6
MAX_CARDS = 10_000  # cards in one pool or deck list


# The field types: each a plain annotation that type checkers read, its checks in msgspec's Meta.
Text10000 = Annotated[str, Meta(max_length=10_000)]
Text120 = Annotated[str, Meta(max_length=120)]
Text20 = Annotated[str, Meta(max_length=20)]
Text200 = Annotated[str, Meta(max_length=200)]
Text40 = Annotated[str, Meta(max_length=40)]
Word40 = Annotated[str, Meta(min_length=1, max_length=40)]
Text4096 = Annotated[str, Meta(max_length=4096)]
Text500 = Annotated[str, Meta(max_length=500)]
Text600 = Annotated[str, Meta(max_length=600)]
Text64 = Annotated[str, Meta(max_length=64)]
Text80 = Annotated[str, Meta(max_length=80)]
Word64 = Annotated[str, Meta(min_length=1, max_length=64)]
Life = Annotated[int, Meta(ge=-MAX_ID, le=MAX_ID)]
Sheet = Annotated[int, Meta(ge=0, le=1000)]
Small = Annotated[int, Meta(ge=0, le=10_000)]
Requested = Annotated[int, Meta(ge=0, le=2)]
Flags = Annotated[int, Meta(ge=0, le=3)]
Seat = Annotated[int, Meta(ge=0, le=64)]
Seconds = Annotated[int, Meta(ge=0, le=86_400)]
Count = Annotated[int, Meta(ge=0, le=MAX_ID)]
Copies = Annotated[int, Meta(ge=1, le=10_000)]
Size64 = Annotated[int, Meta(ge=1, le=64)]
TableSize = Annotated[int, Meta(ge=2, le=64)]
Number = Annotated[int, Meta(ge=1, le=MAX_ID)]
Short = Text40


# The longest name a person may give (a player, a seat at a practice table): the one place for it.  Stored
# records accept up to 500 characters, so databases of older versions stay readable.
MAX_NAME = 80
Name = Annotated[str, Meta(max_length=500, pattern=r"\S")]  # not empty, not only spaces
Points = Annotated[float, Meta(ge=-MAX_POINTS, le=MAX_POINTS)]
EventRef = Annotated[int, Meta(ge=1, le=MAX_ID), Ref("events", words="event")]
PlayerRef = Annotated[int, Meta(ge=1, le=MAX_ID), Ref("players", same_event=True, words="player")]
PlayerKey = Annotated[str, Meta(pattern=r"^[1-9][0-9]{0,9}$"), Ref("players", same_event=True, words="player")]
Players = Annotated[list[PlayerRef], Meta(max_length=64)]
Group = Annotated[list[PlayerRef], Meta(min_length=1, max_length=64)]  # players sharing a place
Order = Annotated[list[Group], Meta(min_length=1, max_length=64)]  # groups of player numbers, best place first


class Record(msgspec.Struct, frozen=True, kw_only=True):
    """A stored record; ``id`` is its number in its table (the TinyDB document id), never stored."""

    id: int = 0

    def problem(self) -> str | None:
        """A rule across the record's fields (each type that has one says it)."""
        return None


class Event(Record, frozen=True, kw_only=True):
    name: Name
    date: Short
    set: Text20
    mode: Literal["draft", "sealed"]
    style: Literal["physical", "terminal", "bots"]
    pod_size: TableSize
    game_size: TableSize
    one_v_one: bool
    timer: Seconds
    points: Annotated[list[Points], Meta(min_length=1, max_length=64)]
    piper_stock: Small
    status: Literal["registration", "seated", "drafting", "building", "playing", "finished"]
    seed: Annotated[int, Within(-MAX_SEED, MAX_SEED)]
    created: Text64 = ""
    uid: Text64 = ""
    secret: Annotated[int, Within(-MAX_SECRET, MAX_SECRET)] | None = None  # deals the packs
    codes: bool = False  # a terminal draft's players pick behind seat codes
    assist: bool = False  # its drafts offer the hint, signals and "Can lead" (a casual night: event new --assist)
    seatings: Count = 0  # how often the pods were drawn
    table_tracker: bool = False  # players keep the game tracker from their phones (``cmdraft serve``)
    publish_decklists: bool = False  # everyone's decklists are public once the event is finished
    decks_close: Text64 | None = None  # when the desk closes deck registration (UTC, ISO); round 1 closes it anyway


class Player(Record, frozen=True, kw_only=True):
    event: EventRef
    name: Name
    status: Word40  # active, dropped, no-show
    late: bool
    bot: bool
    pod: Annotated[int, Meta(ge=1, le=MAX_ID), Ref("pods", field="number", words="pod")] | None
    seat: Seat | None
    requested: Requested
    number: Number  # #N in the event
    checked_in: bool = False
    dropped_after: Count | None = None
    code: Text64 | None = None
    code_tries: Count = 0  # wrong seat codes typed since the code was given (one counter, not a row per try)
    code_tried_at: Text64 | None = None  # when the last one was typed
    code_tried_from: Text120 | None = None  # where the last one was typed (a browser's address, a terminal)


class CodeFailure(Record, frozen=True, kw_only=True):
    """A wrong seat code typed at a terminal, one row per try, as releases before the per-seat counter
    (``Player.code_tries``) kept them; still read and counted (numbers only: the log outlives what it names)."""

    event: Number
    player: Number
    at: Text64
    process: Count = 0


class Pod(Record, frozen=True, kw_only=True):
    event: EventRef
    number: Number
    players: Players
    draft: Annotated[int, Meta(ge=1, le=MAX_ID), Ref("drafts", words="draft")] | None
    opened: Small | None = None
    opened_typed: Small | None | msgspec.UnsetType = msgspec.UNSET  # counted by hand at the desk


class Pool(Record, frozen=True, kw_only=True):
    event: EventRef
    player: PlayerRef
    cards: Annotated[list[Word64], Meta(max_length=MAX_CARDS)]  # card references: 186, 514*e, TST:12*f
    source: Text20 = ""  # sealed, draft, recorded


class DeckLine(msgspec.Struct, frozen=True):
    name: Annotated[str, Meta(max_length=500, pattern=r"\S")]
    count: Copies = 1
    set: Text20 | None = None
    number: Text20 | None = None
    foil: bool = False
    etched: bool = False
    color: Text20 | None = None


class DeckList(msgspec.Struct, frozen=True):
    """A registered deck (``draft.formats.json_deck.write_json``): the parts other code reads."""

    format: Text40 = ""
    name: Text500 = ""
    commanders: Annotated[list[DeckLine], Meta(max_length=8)] = []
    main: Annotated[list[DeckLine], Meta(max_length=MAX_CARDS)] = []
    sideboard: Annotated[list[DeckLine], Meta(max_length=MAX_CARDS)] = []
    piper_colors: Annotated[list[Text20], Meta(max_length=8)] = []


class Problem(msgspec.Struct, frozen=True):
    code: Text80 = ""
    message: Text10000 = ""
    cards: Annotated[list[Text500], Meta(max_length=MAX_CARDS)] = []


class Deck(Record, frozen=True, kw_only=True):
    event: EventRef
    player: PlayerRef
    deck: DeckList
    valid: bool
    problems: Annotated[list[Problem], Meta(max_length=MAX_CARDS)]
    at: Text64 = ""
    correction: Text500 | None = None  # the desk's reason, when it changed the deck after registration closed


class Round(Record, frozen=True, kw_only=True):
    event: EventRef
    number: Number
    tables: Annotated[list[Players], Meta(max_length=MAX_CARDS)]
    status: Word40  # open, closed
    first: Annotated[list[PlayerRef], Meta(max_length=MAX_CARDS)] = []
    clock: Clock | None = None
    extra: dict[Annotated[str, Meta(pattern=r"^[1-9][0-9]{0,9}$")], Seconds] = {}  # seconds, per table
    final: bool = False  # the final table (``event top``): its result is not in the standings


class Result(Record, frozen=True, kw_only=True):
    event: EventRef
    round: Number
    table: Number
    order: Order  # groups of player numbers, best place first


class Dispute(msgspec.Struct, frozen=True):
    """A player's disagreement with a reported finishing order, with their own version when they gave one."""

    player: PlayerRef
    order: Annotated[list[Group], Meta(max_length=64)] = []


class Report(Record, frozen=True, kw_only=True):
    """A finishing order reported from the table (``events.night.table_reports``), waiting for the
    other players there to confirm it; a confirmed one becomes the table's result."""

    event: EventRef
    round: Number
    table: Number
    by: PlayerRef
    order: Order
    confirmed: Players = []
    disputes: Annotated[list[Dispute], Meta(max_length=64)] = []
    status: Literal["waiting", "disputed", "recorded", "settled", "replaced"]
    at: Annotated[float, Meta(ge=0, le=1e11)] = 0.0  # epoch seconds
    late: bool = False  # reported after the round's clock ran out
    via: Literal["browser", "terminal"] = "browser"  # where the reporter reported it from

    def problem(self) -> str | None:
        if len(set(self.confirmed)) != len(self.confirmed):
            return "a player confirmed twice"
        return None


class Hit(msgspec.Struct, frozen=True, rename={"from_": "from"}):
    to: PlayerRef | None = None
    from_: PlayerRef | None = None
    commander: Text500 | None = None
    copy: Seat | None = None
    amount: Count = 0


class Cast(msgspec.Struct, frozen=True):
    player: PlayerRef
    commander: Text500 | None = None
    copy: Seat | None = None
    count: Count = 0


class GameEntry(msgspec.Struct, frozen=True):
    """One entry at a table's game tracker (``events.night.games``), as typed: life changes by player number (as
    text), commander damage as (victim, source player, commander, which copy, amount), casts from the command zone as
    (player, commander, which copy), and the player who entered it from their phone (``by``; unset at the desk)."""

    life: dict[Text20, Life] = {}
    hits: Annotated[list[tuple[int, int, Text500, int | None, Count]], Meta(max_length=MAX_CARDS)] = []
    casts: Annotated[list[tuple[int, Text500, int | None]], Meta(max_length=MAX_CARDS)] = []
    by: int | msgspec.UnsetType = msgspec.UNSET


TallyByName = dict[Text20, dict[Text500, Count]]


class Game(Record, frozen=True, kw_only=True):
    event: EventRef
    round: Number
    table: Number
    life: dict[PlayerKey, Life]
    hits: Annotated[list[Hit], Meta(max_length=MAX_CARDS)] = []
    casts: Annotated[list[Cast], Meta(max_length=MAX_CARDS)] = []
    entries: Annotated[list[GameEntry], Meta(max_length=MAX_CARDS)] = []
    # A game saved before commanders were told apart: damage by victim then commander name, and casts by player then
    # commander name.  Read to carry them over into ``hits`` and ``casts``; never written again.
    damage: TallyByName | msgspec.UnsetType = msgspec.UNSET
    tax: TallyByName | msgspec.UnsetType = msgspec.UNSET


class Change(Record, frozen=True, kw_only=True):
    """One entry of an event's history (``events.night.history``; the log outlives what it names)."""

    event: Number
    at: Text64
    who: Text600
    what: Text200
    old: Any = None
    new: Any = None
    undo: UndoNote | None = None
    undoes: Number | None = None


class DraftConfig(msgspec.Struct, frozen=True):
    seats: TableSize
    boosters: Size64
    picks_per_turn: Size64
    set: Annotated[str, Meta(min_length=1, max_length=20, pattern=r"\S")]
    booster_kind: Text40 | None = None


CardRow = tuple[Annotated[str, Meta(max_length=20)] | int, Sheet, Flags]  # number, sheet, flags


class Booster(msgspec.Struct, frozen=True):
    variant: Small
    cards: Annotated[list[CardRow], Meta(max_length=1000)]


class DraftState(msgspec.Struct, frozen=True):
    """A saved draft's state (``draft.engine.Draft.to_json`` without the picks)."""

    config: DraftConfig
    sheets: Annotated[list[Text200], Meta(max_length=1000)]
    boosters: Annotated[list[Annotated[list[Booster], Meta(max_length=64)]], Meta(max_length=64)]
    format: Text40 = ""
    seed: Annotated[int, Within(-MAX_SECRET, MAX_SECRET)] | None = None


# [seat, pack, pick] of each pick the timer took for a player
TimedOut = Annotated[list[Annotated[list[Small], Meta(min_length=3, max_length=3)]], Meta(max_length=10**6)]
# [seat, *positions] rows, in the order they were made
PickRows = Annotated[list[Annotated[list[Seat], Meta(min_length=1, max_length=8)]], Meta(max_length=10**7)]


class Draft(Record, frozen=True, kw_only=True):
    """A draft kept in the store (practice or an event's pod; ``events.storage.draft_files``)."""

    kind: Text40
    state: DraftState
    humans: Annotated[list[Seat], Meta(max_length=64)]
    names: Annotated[list[Text500], Meta(max_length=64)]
    styles: Annotated[list[Text40], Meta(max_length=64)]
    status: Text40
    picks: PickRows
    journal: Text64 | None  # the live draft's own file (a random token), None once folded
    event: EventRef | None = None
    pod: Number | None = None
    created: Text64 = ""
    timer: Seconds | None = None
    confirm: bool = False  # a practice draft's player asked to confirm each pick (``play --confirm``), kept on resume
    deadline: dict[str, Any] | None = None
    claims: dict[str, Text80] = {}
    deck: dict[str, Any] | None = None
    deck_legal: bool = False
    assist: bool = False  # an event's draft offers the hint, signals and "Can lead" (practice drafts always do)
    # the Pipers each seat can count on after the draft (the store's stock shared, when it started); None: two
    pipers: Annotated[int, Meta(ge=0, le=2)] | None = None
    withheld: bool = False  # exported before the event finished while still drafting: no boosters, can't go on
    timed_out: TimedOut = []

    def problem(self) -> str | None:
        seats = len(self.names)
        if any(seat >= seats for seat in self.humans) or any(row[0] >= seats for row in self.picks):
            return f"a seat number is beyond its {seats} seats"
        return None


class Build(Record, frozen=True, kw_only=True):
    """A pool being built into a deck (``cmdraft build``; ``events.storage.pool_builds``)."""

    source: Text4096
    cards: Annotated[list[tuple[Text20, Text20, Text500]], Meta(max_length=MAX_CARDS)]
    set: Text20
    status: Text40
    seed: Annotated[int, Within(-MAX_SEED, MAX_SEED)] | None = None
    deck: dict[str, Any] | None = None
    deck_legal: bool = False
    created: Text64 = ""


class Journal(Record, frozen=True, kw_only=True):
    """A live draft's own file (``NAME.drafts/ID-TOKEN.json``): the picks since its record was written."""

    humans: Annotated[list[Seat], Meta(max_length=64)]
    status: Text40
    picks: PickRows
    deadline: dict[str, Any] | None = None
    claims: dict[str, Text80] = {}
    timed_out: TimedOut = []


class CodeSource(Record, frozen=True, kw_only=True):
    """A source that typed wrong seat codes lately (``events.night.seat_codes``); times in epoch seconds."""

    event: Number
    source: Text120
    wrong: Count = 0
    at: float = 0.0
    until: float = 0.0


class SeatPresence(Record, frozen=True, kw_only=True):
    """Who holds a seat (``events.night.presence``): a browser or a terminal (its process); epoch seconds."""

    event: Number
    player: Number
    via: Text40
    at: float
    pid: int | None = None
    left: float | None = None


class DeskLink(Record, frozen=True, kw_only=True):
    """An event's desk secret for ``cmdraft serve``, kept only as its hash (``events.night.desk_link``)."""

    event: Number
    hash: Text64
    at: float = 0.0


class BrowserSeat(Record, frozen=True, kw_only=True):
    """A browser bound to a seat (``events.night.browser_seats``): its token's hash, a mark of the code (never it)."""

    event: Number
    player: Number
    token: Text64
    code: Text64
    at: Text64 = ""


TABLES: dict[str, type[Record]] = {
    names.EVENTS: Event,
    names.PLAYERS: Player,
    names.CODE_FAILURES: CodeFailure,
    names.PODS: Pod,
    names.POOLS: Pool,
    names.DECKS: Deck,
    names.ROUNDS: Round,
    names.RESULTS: Result,
    names.GAMES: Game,
    names.REPORTS: Report,
    names.HISTORY: Change,
    "drafts": Draft,
    "builds": Build,
    "journal": Journal,
    "code_sources": CodeSource,
    "seat_presence": SeatPresence,
    "desk_links": DeskLink,
    "browser_seats": BrowserSeat,
}
TABLE_OF = {kind: table for table, kind in TABLES.items()}
R = typing.TypeVar("R", bound=Record)


def typed(kind: type[R], doc: Any, record_id: int | None = None) -> R:
    """A stored record as its type (checked); ``record_id`` defaults to the TinyDB document's id."""
    number = record_id if record_id is not None else getattr(doc, "doc_id", 0)
    return msgspec.convert({**doc, "id": number}, kind)


def stored(record: Record) -> dict[str, Any]:
    """The record as it is saved (without its ``id``)."""
    doc = msgspec.to_builtins(record)
    doc.pop("id", None)
    return doc
