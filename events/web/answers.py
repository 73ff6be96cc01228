"""What the server answers a seat, as msgspec types encoded at the edge (``api_common.Json``): its state and the
cards it sees, its deck, its table, the stream's messages and the one error shape (the desk's and the room's
answers: ``desk_answers``).

Each route declares the type it answers (``endpoints``), and docs/api.md's answer column and its list of the
answers' types are written from these declarations (``answer_shape``, ``types_table``).  Fields are declared in
the order the page receives them; a field that is ``UNSET`` is left out of the JSON (``image`` on a card with no
kept image).  What the core answers as its own msgspec types (a player's table, ``events.night.table_shown.TableState``;
a table's tracker, ``events.night.games.GameBoard``; the desk's night) is sent as it is; what it gives as plain values
is read into these types at the edge (``typed``), strictly: a key the type doesn't declare is an error, so the page
can't receive a field the API page doesn't name.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

import msgspec
from msgspec import UNSET, Meta, Raw, Struct, UnsetType
from msgspec import inspect as types

from events.night.shown import Answer, Number
from events.night.table_shown import TableState

T = TypeVar("T")


def typed(value: Any, kind: type[T]) -> T:
    """A value from the core (plain JSON-like values, or objects with these fields) as the answer type ``kind``."""
    return msgspec.convert(value, kind, from_attributes=True)


# --- a seat: its state, the cards it sees -----------------------------------------------------------------------------


class Card(Answer, kw_only=True):
    """One card as the page draws it: facts, the rules text where imported, and in a deck's lists its place there
    (a pack's and a pool's cards carry none: a card's place is its index in the list, which a pick names it by)."""

    name: str
    cost: str
    mana_value: Number
    type: str
    rarity: str
    identity: str
    colors: str
    text: list[str] | None
    id: int | UnsetType = UNSET  # in a deck's lists (``DeckState``): its place there, which a deck action names
    foil: bool
    leads: bool  # may ever be a commander (``draft.commanders.may_ever_lead``); may now: ``DeckState.crownable``
    image: str | UnsetType = UNSET  # the kept image's address on this server
    artist: str | UnsetType = UNSET


CardList = Annotated[Raw, Meta(extra={"shape": "[Card, …]"})]  # cards already encoded (a pool, kept between states)


class LastPick(Answer):
    cards: list[str]
    pack: int
    pick: int
    why: str | None  # who picked for the player (the timer, a bot the desk put on the seat)


class DraftState(Answer):
    pod: int
    seat: int
    seats: int
    pack: int
    packs: int
    pick: int
    picks: int
    take: int  # cards to choose now: the pick's count, fewer when the pack holds fewer, 0 without a pack
    direction: Literal["left", "right"]
    cards: CardList  # the pack in front of the seat, encoded once a pack state (``cards_shown.pack_json``)
    waiting_for: int
    waiting_on: list[str]
    queued: int
    deadline: float | None
    done: bool
    bot: bool
    last: LastPick | None
    news: str  # with a pack: what the seat is told once it reaches it (the core's words); else ""
    waiting: str  # without a pack: what the seat waits for (the core's words); else ""


class SeatEvent(Answer):
    id: int
    name: str
    assist: bool


class SeatPlayer(Answer):
    number: int
    name: str
    has_deck: bool


Phase = Literal["waiting-draft", "drafting", "building", "registered", "finished"]


# --- a player's table ---------------------------------------------------------------------------------------------


class SeatState(Answer):
    """A seat's whole state: the event, the player, the phase, the draft in front of it, its pool, its table.

    ``pool`` is the whole pool (``pool_from`` 0), except in a state on the stream: there it is the pool's cards
    from place ``pool_from`` on, those the stream's earlier states didn't carry (the page keeps the first
    ``pool_from`` cards it holds and appends these); ``pool_size`` is the whole pool's count either way."""

    version: int
    server_time: float
    event: SeatEvent
    player: SeatPlayer
    phase: Phase
    connection_note: str | None
    waiting: str | None  # a pool recorded while others still draft: what the player waits for, in their case
    no_builder: str | None  # why no deck is built now, the core's words (``refusals.no_builder_words``)
    draft: DraftState | None
    pool: CardList
    pool_from: int
    pool_size: int
    table: TableState | None


# --- a seat: the deck ---------------------------------------------------------------------------------------------


class DeckLine(Answer):
    card: Card
    count: int


class PoolLine(Answer):
    card: Card
    count: int
    in_deck: int  # copies in the deck


class Added(Answer):
    card: str
    word: str
    words: str  # the word for more than one ("Pipers", "Faceless Ones")


class Problem(Answer):
    code: str
    message: str
    cards: list[str]


class DeckState(Answer):
    """The deck being built over the recorded pool: its cards, figures, legality, and whether it is registered."""

    closed: str | None  # registration closed: the line saying so (the page shows the registered deck read-only)
    correction: str | None  # the desk's reason when it corrected the deck
    commanders: list[Card]
    chosen: list[str | None]  # the color each commander chose (a Piper's, Faceless One's), in order; None for others
    commander_room: bool  # another commander may be crowned beside these (the core's count: one, or a pair)
    # the ids of the pool's cards that may be crowned now, beside these (none: each that may lead alone, never a
    # Background by itself): the core's answer (``draft.commanders.crownable``), which the page's crowns show
    crownable: list[int]
    pipers: list[str]
    added: Added
    main: list[DeckLine]
    sideboard: list[DeckLine]
    pool: list[PoolLine]
    basics: dict[str, int]
    size: int
    curve: dict[str, int]
    sources: dict[str, int]
    symbols: dict[str, int]
    legal: bool
    problems: list[Problem]
    cautions: list[str]  # what the figures warn of, legal or not (``DeckStats.cautions``: sources short, mostly lands)
    can_undo: bool
    can_redo: bool
    registered: bool
    registered_words: str | None  # the core's words for the registration (``decks.registered_words``)
    pipers_note: str | None  # the store's stock limits the Pipers this deck may add
    pipers_most: int  # the most Pipers the deck may lead with now (the pool's and the stock's for it)
    said: str | None = None  # what the change just made says beside the deck: a commander back to the pool, and why


class ErrorInfo(Answer):
    code: str
    message: str
    field: str | UnsetType = UNSET  # the field of what was typed the refusal is about, in the core's name (a join's)


class Failure(Answer, kw_only=True):
    """Every answer but 200: one line saying what is wrong, and what the page needs with it."""

    error: ErrorInfo
    retry_after: int | UnsetType = UNSET  # 429: seconds before the next try
    seat: SeatState | UnsetType = UNSET  # a pick on a pack that moved on: the seat as it is now
    deck: DeckState | UnsetType = UNSET  # a deck change refused: the deck as it was


class Joined(Answer):
    token: str
    seat: SeatState


class Registered(Answer):
    registered: bool
    legal: bool
    problems: list[Problem]
    deck: DeckState


# --- the stream -------------------------------------------------------------------------------------------------------


class SeatMessage(Answer, tag_field="type", tag="seat"):
    seat: SeatState


class Pong(Answer, tag_field="type", tag="pong"):
    server_time: float


class Picked(Answer, tag_field="type", tag="picked"):
    id: int | None
    seat: SeatState


class StreamError(Answer, tag_field="type", tag="error"):
    error: ErrorInfo


class StreamRefusal(Answer, kw_only=True):
    """A message on the stream refused (``refused``: a pick, with the page's own number for it; ``error``: another
    message over the rate limit): the error as ``POST /api/pick`` answers it, and its status."""

    type: Literal["refused", "error"]
    id: int | None
    status: int
    error: ErrorInfo
    retry_after: int | UnsetType = UNSET
    seat: SeatState | UnsetType = UNSET


# --- the API page -------------------------------------------------------------------------------------------------


def fields_of(kind: type[Struct]) -> tuple[types.Field, ...]:
    info = types.type_info(kind)
    assert isinstance(info, types.StructType)
    return info.fields


def value_shape(kind: types.Type, named: tuple[type[Struct], ...]) -> str:
    """A field's value as the API page writes it: a named type by its name, an object by its fields, a list as
    ``[…, …]``, a choice of words as ``"left"/"right"``; plain values (numbers, text) are not written."""
    if isinstance(kind, types.StructType):
        return kind.cls.__name__ if kind.cls in named else answer_shape(kind.cls, named)
    if isinstance(kind, types.ListType):
        inner = value_shape(kind.item_type, named)
        return f"[{inner}, …]" if inner else ""
    if isinstance(kind, types.LiteralType):
        return "/".join(f'"{value}"' for value in kind.values)
    if isinstance(kind, types.UnionType):
        shown = [value_shape(k, named) or "" for k in kind.types if not isinstance(k, types.NoneType)]
        if any(isinstance(k, types.LiteralType) for k in kind.types) and any(
            isinstance(k, types.NoneType) for k in kind.types
        ):
            shown.append("null")
        return "/".join(s for s in shown if s) if all(shown) else ""
    if isinstance(kind, types.Metadata):  # a type with a shape of its own for the page (``CardList``)
        return str((kind.extra or {}).get("shape", "")) or value_shape(kind.type, named)
    return ""


def answer_shape(kind: type[Struct], named: tuple[type[Struct], ...] = ()) -> str:
    """An answer type as the API page writes it: ``{"token", "seat": SeatState}``; a field that may be left out
    ends in ``?``; a tagged message starts with its ``"type"``."""
    config = kind.__struct_config__
    parts = [f'"{config.tag_field}": "{config.tag}"'] if config.tag_field is not None else []
    for field in fields_of(kind):
        name = f'"{field.encode_name}{"?" if may_be_left_out(field) else ""}"'
        shown = value_shape(field.type, named)
        parts.append(f"{name}: {shown}" if shown else name)
    return "{" + ", ".join(parts) + "}"


def may_be_left_out(field: types.Field) -> bool:
    """Whether a field is left out of the JSON when it has nothing (``UNSET``); a field with a default is always sent."""
    return not field.required and field.default is msgspec.NODEFAULT and field.default_factory is msgspec.NODEFAULT


def types_table(named: tuple[type[Struct], ...]) -> str:
    """The named answer types with their fields, as the API page lists them under its table."""
    rows = ["| type | fields |", "|---|---|"]
    for kind in named:
        rows.append(f"| `{kind.__name__}` | `{answer_shape(kind, tuple(k for k in named if k is not kind))}` |")
    return "\n".join(rows) + "\n"
