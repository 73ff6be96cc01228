"""The records of a schema-3 database: one frozen type per table, its checks declared on it.

Each table's records are ``msgspec.Struct`` types: a field's type, range and length are ``Meta``
constraints (``Within`` for ranges wider than 64 bits), a field that names another record carries
a ``Ref`` beside them, and a rule across fields is the type's ``problem()``.
``events.storage.record_checks.check_tables`` runs them on every database read (and on every
write, backup and export before it is saved or restored) and words the first problem (``"players
record 4: 'event' names no event (9)"``).  Fields a type does not list are left alone (a later
release adds its own); a field it lists is checked whenever present.

The stored form is plain JSON (TinyDB's tables); ``typed(Type, doc)`` reads one stored record
as its type (``id``: its number in its table), ``stored(record)`` is the record to save.
"""

from __future__ import annotations

import re
import typing
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

MAX_ID = 10**9  # document numbers, player numbers: nothing real comes near
MAX_SEED = 2**64
MAX_SECRET = 2**256  # an event's packs come from a 128-bit secret (events/night/packs_secret.py); room to spare
MAX_POINTS = 10**6
MAX_CARDS = 10_000  # cards in one pool or deck list
_KEY = re.compile(r"[1-9][0-9]{0,9}", re.ASCII)


@dataclass(frozen=True)
class Ref:
    """A field naming another record: of ``table`` by its number (or by ``field`` within the same
    event), and, with ``same_event``, a record of the same event as the one that names it."""

    table: str
    field: str = ""
    same_event: bool = False
    words: str = ""


@dataclass(frozen=True)
class Within:
    """A whole number in ``low``-``high`` where those are beyond what msgspec's own bounds hold (64 bits)."""

    low: int
    high: int


def text(longest: int, least: int = 0) -> Any:
    return Annotated[str, Meta(min_length=least, max_length=longest)]


def whole(low: int, high: int) -> Any:
    return Annotated[int, Meta(ge=low, le=high)]


def rows(item: Any, most: int, least: int = 0) -> Any:
    return Annotated[list[item], Meta(min_length=least, max_length=most)]


# The longest name a person may give (a player, a seat at a practice table): the one place for it.  Stored
# records accept up to 500 characters, so databases of older versions stay readable.
MAX_NAME = 80
Name = Annotated[str, Meta(max_length=500, pattern=r"\S")]  # not empty, not only spaces
Short = text(40)
Count = whole(0, MAX_ID)
Number = whole(1, MAX_ID)
Seat = whole(0, 64)
Points = Annotated[float, Meta(ge=-MAX_POINTS, le=MAX_POINTS)]
EventRef = Annotated[int, Meta(ge=1, le=MAX_ID), Ref("events", words="event")]
PlayerRef = Annotated[int, Meta(ge=1, le=MAX_ID), Ref("players", same_event=True, words="player")]
PlayerKey = Annotated[str, Meta(pattern=r"^[1-9][0-9]{0,9}$"), Ref("players", same_event=True, words="player")]
Players = rows(PlayerRef, 64)
STATUSES = ("registration", "seated", "drafting", "building", "playing", "finished")
DRAFT_STYLES = ("physical", "terminal", "bots")


class Record(msgspec.Struct, frozen=True, kw_only=True):
    """A stored record; ``id`` is its number in its table (the TinyDB document id), never stored."""

    id: int = 0

    def problem(self) -> str | None:
        """A rule across the record's fields (each type that has one says it)."""
        return None


class Event(Record, frozen=True, kw_only=True):
    name: Name
    date: Short
    set: text(20)
    mode: Literal["draft", "sealed"]
    style: Literal["physical", "terminal", "bots"]
    pod_size: whole(2, 64)
    game_size: whole(2, 64)
    one_v_one: bool
    timer: whole(0, 86_400)
    points: rows(Points, 64, 1)
    piper_stock: whole(0, 10_000)
    status: Literal["registration", "seated", "drafting", "building", "playing", "finished"]
    seed: Annotated[int, Within(-MAX_SEED, MAX_SEED)]
    created: text(64) = ""
    uid: text(64) = ""
    secret: Annotated[int, Within(-MAX_SECRET, MAX_SECRET)] | None = None  # deals the packs
    codes: bool = False  # a terminal draft's players pick behind seat codes
    assist: bool = False  # its drafts offer the hint, signals and "Can lead" (a casual night: event new --assist)
    seatings: Count = 0  # how often the pods were drawn
    table_tracker: bool = False  # players keep the game tracker from their phones (``cmdraft serve``)
    publish_decklists: bool = False  # everyone's decklists are public once the event is finished
    decks_close: text(64) | None = None  # when the desk closes deck registration (UTC, ISO); round 1 closes it anyway


class Player(Record, frozen=True, kw_only=True):
    event: EventRef
    name: Name
    status: text(40, 1)  # active, dropped, no-show
    late: bool
    bot: bool
    pod: Annotated[int, Meta(ge=1, le=MAX_ID), Ref("pods", field="number", words="pod")] | None
    seat: Seat | None
    requested: whole(0, 2)
    number: Number  # #N in the event
    checked_in: bool = False
    dropped_after: Count | None = None
    code: text(64) | None = None
    code_tries: Count = 0  # wrong seat codes typed since the code was given (one counter, not a row per try)
    code_tried_at: text(64) | None = None  # when the last one was typed
    code_tried_from: text(120) | None = None  # where the last one was typed (a browser's address, a terminal)


class CodeFailure(Record, frozen=True, kw_only=True):
    """A wrong seat code typed at a terminal, one row per try, as releases before the per-seat counter
    (``Player.code_tries``) kept them; still read and counted (numbers only: the log outlives what it names)."""

    event: Number
    player: Number
    at: text(64)
    process: Count = 0


class Pod(Record, frozen=True, kw_only=True):
    event: EventRef
    number: Number
    players: Players
    draft: Annotated[int, Meta(ge=1, le=MAX_ID), Ref("drafts", words="draft")] | None
    opened: whole(0, 10_000) | None = None
    opened_typed: whole(0, 10_000) | None | msgspec.UnsetType = msgspec.UNSET  # counted by hand at the desk


class Pool(Record, frozen=True, kw_only=True):
    event: EventRef
    player: PlayerRef
    cards: rows(text(64, 1), MAX_CARDS)  # card references: 186, 514*e, TST:12*f
    source: text(20) = ""  # sealed, draft, recorded


class DeckLine(msgspec.Struct, frozen=True):
    name: Annotated[str, Meta(max_length=500, pattern=r"\S")]
    count: whole(1, 10_000) = 1
    set: text(20) | None = None
    number: text(20) | None = None
    foil: bool = False
    etched: bool = False
    color: text(20) | None = None


class DeckList(msgspec.Struct, frozen=True):
    """A registered deck (``draft.formats.json_deck.write_json``): the parts other code reads."""

    format: text(40) = ""
    name: text(500) = ""
    commanders: rows(DeckLine, 8) = []
    main: rows(DeckLine, MAX_CARDS) = []
    sideboard: rows(DeckLine, MAX_CARDS) = []
    piper_colors: rows(text(20), 8) = []


class Problem(msgspec.Struct, frozen=True):
    code: text(80) = ""
    message: text(10_000) = ""


class Deck(Record, frozen=True, kw_only=True):
    event: EventRef
    player: PlayerRef
    deck: DeckList
    valid: bool
    problems: rows(Problem, MAX_CARDS)
    at: text(64) = ""
    correction: text(500) | None = None  # the desk's reason, when it changed the deck after registration closed


class Round(Record, frozen=True, kw_only=True):
    event: EventRef
    number: Number
    tables: rows(Players, MAX_CARDS)
    status: text(40, 1)  # open, closed
    first: rows(PlayerRef, MAX_CARDS) = []
    clock: dict[str, Any] | None = None
    extra: dict[Annotated[str, Meta(pattern=r"^[1-9][0-9]{0,9}$")], whole(0, 86_400)] = {}  # seconds, per table
    final: bool = False  # the final table (``event top``): its result is not in the standings


class Result(Record, frozen=True, kw_only=True):
    event: EventRef
    round: Number
    table: Number
    order: rows(rows(PlayerRef, 64, 1), 64, 1)  # groups of player numbers, best place first


class Dispute(msgspec.Struct, frozen=True):
    """A player's disagreement with a reported finishing order, with their own version when they gave one."""

    player: PlayerRef
    order: rows(rows(PlayerRef, 64, 1), 64) = []


class Report(Record, frozen=True, kw_only=True):
    """A finishing order reported from the table (``events.night.table_reports``), waiting for the
    other players there to confirm it; a confirmed one becomes the table's result."""

    event: EventRef
    round: Number
    table: Number
    by: PlayerRef
    order: rows(rows(PlayerRef, 64, 1), 64, 1)
    confirmed: Players = []
    disputes: rows(Dispute, 64) = []
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
    commander: text(500) | None = None
    copy: whole(0, 64) | None = None
    amount: Count = 0


class Cast(msgspec.Struct, frozen=True):
    player: PlayerRef
    commander: text(500) | None = None
    copy: whole(0, 64) | None = None
    count: Count = 0


class Game(Record, frozen=True, kw_only=True):
    event: EventRef
    round: Number
    table: Number
    life: dict[PlayerKey, whole(-MAX_ID, MAX_ID)]
    hits: rows(Hit, MAX_CARDS) = []
    casts: rows(Cast, MAX_CARDS) = []
    entries: rows(dict[str, Any], MAX_CARDS) = []


class Change(Record, frozen=True, kw_only=True):
    """One entry of an event's history (``events.night.history``; the log outlives what it names)."""

    event: Number
    at: text(64)
    who: text(600)
    what: text(200)
    old: Any = None
    new: Any = None
    undo: dict[str, Any] | None = None
    undoes: Number | None = None


class DraftConfig(msgspec.Struct, frozen=True):
    seats: whole(2, 64)
    boosters: whole(1, 64)
    picks_per_turn: whole(1, 64)
    set: Annotated[str, Meta(min_length=1, max_length=20, pattern=r"\S")]
    booster_kind: text(40) | None = None


CardRow = tuple[Annotated[str, Meta(max_length=20)] | int, whole(0, 1000), whole(0, 3)]  # number, sheet, flags


class Booster(msgspec.Struct, frozen=True):
    variant: whole(0, 10_000)
    cards: rows(CardRow, 1000)


class DraftState(msgspec.Struct, frozen=True):
    """A saved draft's state (``draft.engine.Draft.to_json`` without the picks)."""

    config: DraftConfig
    sheets: rows(text(200), 1000)
    boosters: rows(rows(Booster, 64), 64)
    format: text(40) = ""
    seed: Annotated[int, Within(-MAX_SECRET, MAX_SECRET)] | None = None


TimedOut = rows(rows(whole(0, 10_000), 3, 3), 10**6)  # [seat, pack, pick] of each pick the timer took for a player
PickRows = rows(rows(Seat, 8, 1), 10**7)  # [seat, *positions] rows, in the order they were made


class Draft(Record, frozen=True, kw_only=True):
    """A draft kept in the store (practice or an event's pod; ``events.storage.draft_files``)."""

    kind: text(40)
    state: DraftState
    humans: rows(Seat, 64)
    names: rows(text(500), 64)
    styles: rows(text(40), 64)
    status: text(40)
    picks: PickRows
    journal: text(64) | None  # the live draft's own file (a random token), None once folded
    event: EventRef | None = None
    pod: Number | None = None
    created: text(64) = ""
    timer: whole(0, 86_400) | None = None
    deadline: dict[str, Any] | None = None
    claims: dict[str, text(80)] = {}
    deck: dict[str, Any] | None = None
    deck_legal: bool = False
    assist: bool = False  # an event's draft offers the hint, signals and "Can lead" (practice drafts always do)
    withheld: bool = False  # exported before the event finished while still drafting: no boosters, can't go on
    timed_out: TimedOut = []

    def problem(self) -> str | None:
        seats = len(self.names)
        if any(seat >= seats for seat in self.humans) or any(row[0] >= seats for row in self.picks):
            return f"a seat number is beyond its {seats} seats"
        return None


class Build(Record, frozen=True, kw_only=True):
    """A pool being built into a deck (``cmdraft build``; ``events.storage.pool_builds``)."""

    source: text(4096)
    cards: rows(tuple[text(20), text(20), text(500)], MAX_CARDS)
    set: text(20)
    status: text(40)
    seed: Annotated[int, Within(-MAX_SEED, MAX_SEED)] | None = None
    deck: dict[str, Any] | None = None
    deck_legal: bool = False
    created: text(64) = ""


class Journal(Record, frozen=True, kw_only=True):
    """A live draft's own file (``NAME.drafts/ID-TOKEN.json``): the picks since its record was written."""

    humans: rows(Seat, 64)
    status: text(40)
    picks: PickRows
    deadline: dict[str, Any] | None = None
    claims: dict[str, text(80)] = {}
    timed_out: TimedOut = []


TABLES: dict[str, type[Record]] = {
    "events": Event,
    "players": Player,
    "code_failures": CodeFailure,
    "pods": Pod,
    "pools": Pool,
    "decks": Deck,
    "rounds": Round,
    "results": Result,
    "games": Game,
    "reports": Report,
    "history": Change,
    "drafts": Draft,
    "builds": Build,
    "journal": Journal,
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
