"""What a client sends, as msgspec types, decoded at the edge (what the server answers: ``answers``).

A request's body is read once, where its route takes it (``read_body``): at most ``WebSettings.max_body`` bytes of
JSON, an object with only the fields its type declares, the required ones present, each of its type; anything else
is the one error shape, ``{"error": {"code", "message"}}`` with a 4xx (``too-large``, ``bad-json``,
``unknown-field``, ``missing-field``, ``bad-field``), and the handler gets the typed body.  Ranges (a player id, a
pick's number) are the handler's and the core's to check, in their own words.  ``shape`` writes a type as the API
page shows it (``docs/api.md``'s table is generated from these types).
"""

from __future__ import annotations

import functools
import json
from typing import Any, Literal, TypeVar

import msgspec
from msgspec import UNSET, Struct, UnsetType
from msgspec import inspect as types
from starlette.requests import Request

from events.web.api_common import ApiError
from sets.visible import quoted

B = TypeVar("B", bound=Struct)


class Body(Struct, forbid_unknown_fields=True):
    """A request body: a JSON object with only these fields."""


class Empty(Body):
    """A body with nothing in it (``{}`` or none at all)."""


# --- a seat's phone --------------------------------------------------------------------------------------------------


class JoinBody(Body):
    event: int | str  # as typed: the core reads it (``events.night.joining``)
    player: int | str  # the player's number (``#4``; digits typed are the number too) or name
    code: str


class PickBody(Body):
    pack: int
    pick: int
    cards: list[int]  # positions in ``draft.cards`` of the state the page showed


class StreamPick(Body):
    """A pick sent on the open stream: ``PickBody`` with its kind and the page's own number for it."""

    type: Literal["pick"]
    pack: int
    pick: int
    cards: list[int]
    id: int | UnsetType = UNSET


class StreamMarks(Body):
    """The cards the page shows marked on the pack it shows (``pack``, ``pick``), sent on the stream as they change:
    if the pick's time runs out they are taken, the strong bot's pick completing them (``draft.timeout``)."""

    type: Literal["marks"]
    pack: int
    pick: int
    cards: list[int]  # positions in ``draft.cards`` of the state the page showed, in the order marked


class ResultBody(Body):
    order: list[list[int]]  # places best first, each a list of player ids (several: a draw)


class ConfirmBody(Body):
    report: int
    agree: bool
    order: list[list[int]] | UnsetType = UNSET  # with ``"agree": false``: the order as this player saw it


class DropBody(Body):
    confirm: bool


class GameBody(Body):
    life: list[tuple[int, int]] = []  # [player id, change]
    damage: list[tuple[int, int, str, int | str]] = []  # [victim id, source id, commander, amount (as typed)]
    cast: list[tuple[int, str]] = []  # [player id, commander]
    undo: bool = False


class Commanders(Body):
    cards: list[int]  # card ids: places in the deck state's ``pool``


class Pipers(Body):
    colors: list[str]  # "W", "U", "B", "R", "G"


class Counted(Body):
    cards: list[tuple[int, int]]  # [card id, count]


class Basics(Body):
    color: str  # "W", "U", "B", "R", "G" or "C" (Wastes)
    count: int


DECK_ACTIONS: dict[str, type[Body]] = {
    "commanders": Commanders,
    "pipers": Pipers,
    "add": Counted,
    "remove": Counted,
    "basics": Basics,
    "lands": Empty,
    "auto": Empty,
    "undo": Empty,
    "redo": Empty,
}


class ActionNamed(Struct):
    """What ``POST /api/deck``'s body is read as first: its action's name (its other fields by that action)."""

    action: str


class DeckAction(Struct):
    """``POST /api/deck``: an ``action`` and that action's own fields (``DECK_ACTIONS``)."""

    action: str
    fields: Body


def deck_shape() -> str:
    """``POST /api/deck``'s bodies as the API page writes them: ``{"action": "add", "cards": [[int, int], …]}`` …"""
    shapes = []
    for name, kind in DECK_ACTIONS.items():
        fields = body_shape(kind)[1:]
        shapes.append(f'{{"action": "{name}"' + (", " + fields if fields != "}" else "}"))
    return " or ".join(shapes)


# --- the desk ----------------------------------------------------------------------------------------------------


class PlayerBody(Body):
    player: int  # the player's number


class BotBody(Body):
    player: int
    bot: bool


class SettleBody(Body):
    round: int
    table: int
    order: list[list[int]] | str  # player ids by place, or the desk's words: "Ann > Bo = Cy > Di"
    replace: bool = False


class ExtraTimeBody(Body):
    table: int
    minutes: int


class RoundBody(Body):
    force: bool = False
    again: bool = False  # pair the current round again


class ClockBody(Body):
    minutes: int | UnsetType = UNSET
    restart: bool = False
    pause: bool = False


class TopBody(Body):
    size: int


class UndoBody(Body):
    """``expect``: the change the desk was shown and confirmed (``GET /api/desk/undo``'s ``entry``): another change
    made meanwhile is refused, not undone in its place."""

    expect: int | None = None


class SwitchBody(Body):
    on: bool


# --- reading a body ------------------------------------------------------------------------------------------------


async def read_json(request: Request, max_body: int) -> Any:
    """The request's body as JSON: at most ``max_body`` bytes (413 ``too-large``), UTF-8 JSON (400 ``bad-json``);
    an empty body is ``{}``."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > max_body):
        raise ApiError(413, "too-large", f"the request body is over {max_body // 1024} KiB")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > max_body:
            raise ApiError(413, "too-large", f"the request body is over {max_body // 1024} KiB")
    if not body.strip():
        return {}
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ApiError(400, "bad-json", "the request body is not JSON (UTF-8)") from None


async def read_body(request: Request, kind: type[B], max_body: int) -> B:
    """The request's body as ``kind`` (a 4xx naming what is wrong, else)."""
    return checked(await read_json(request, max_body), kind)


def checked(data: Any, kind: type[B]) -> B:
    """``data`` (decoded JSON) as ``kind``: an object, only its fields, the required ones present, each of its type."""
    if not isinstance(data, dict):
        raise ApiError(400, "bad-json", "the request body must be a JSON object")
    fields = {field.name: field for field in struct_fields(kind)}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise ApiError(400, "unknown-field", f"unknown field {quoted(unknown[0][:40])}; allowed: {', '.join(fields)}")
    missing = [name for name, field in fields.items() if field.required and name not in data]
    if missing:
        raise ApiError(400, "missing-field", f"the field {quoted(missing[0])} is missing")
    try:
        return msgspec.convert(data, kind, strict=True)
    except msgspec.ValidationError as error:
        name = str(error).rpartition("`$.")[2].split("`")[0].split("[")[0]
        field = fields.get(name)
        said = words(field.type) if field is not None else "of its type"
        raise ApiError(400, "bad-field", f"the field {quoted(name)} must be {said}") from None


def deck_action(data: Any) -> DeckAction:
    """``POST /api/deck``'s body: the action first (one of ``DECK_ACTIONS``), then that action's fields."""
    if not isinstance(data, dict):
        raise ApiError(400, "bad-json", "the request body must be a JSON object")
    if "action" not in data:
        raise ApiError(400, "missing-field", "the field 'action' is missing")
    try:
        action = msgspec.convert(data, ActionNamed, strict=True).action
    except msgspec.ValidationError:
        action = ""
    kind = DECK_ACTIONS.get(action)
    if kind is None:
        raise ApiError(400, "bad-field", f"'action' must be one of: {', '.join(DECK_ACTIONS)}")
    rest = {key: value for key, value in data.items() if key != "action"}
    return DeckAction(action, checked(rest, kind))


@functools.cache  # a type's fields never change: worked out once, not on every request
def struct_fields(kind: type[Struct]) -> tuple[types.Field, ...]:
    info = types.type_info(kind)
    assert isinstance(info, types.StructType)
    return info.fields


# --- types in people's words and as the API page shows them ---------------------------------------------------------


def words(kind: types.Type, many: bool = False) -> str:
    """A field's type as an error message says it: ``a whole number``, ``a list of lists of whole numbers``,
    ``a list of [a whole number, text] lists``; ``many``: several of them (``whole numbers``)."""
    if isinstance(kind, types.IntType):
        return "whole numbers" if many else "a whole number"
    if isinstance(kind, types.StrType):
        return "texts" if many else "text"
    if isinstance(kind, types.BoolType):
        return "true/false values" if many else "true/false"
    if isinstance(kind, types.ListType):
        return f"{'lists' if many else 'a list'} of {words(kind.item_type, many=True)}"
    if isinstance(kind, types.TupleType):
        listed = "[" + ", ".join(words(item) for item in kind.item_types) + "]"
        return f"{listed} lists" if many else listed
    if isinstance(kind, types.LiteralType):
        return " or ".join(repr(value) for value in kind.values)
    if isinstance(kind, types.UnionType):
        return " or ".join(words(k, many) for k in kind.types)
    return "of its type"


def shape(kind: types.Type) -> str:
    """A type as the API page writes it: ``int``, ``"text"``, ``[int, …]``, ``[[int, …], …] or "text"``."""
    if isinstance(kind, types.IntType):
        return "int"
    if isinstance(kind, types.StrType):
        return '"text"'
    if isinstance(kind, types.BoolType):
        return "bool"
    if isinstance(kind, types.ListType):
        return f"[{shape(kind.item_type)}, …]"
    if isinstance(kind, types.TupleType):
        return "[" + ", ".join(shape(item) for item in kind.item_types) + "]"
    if isinstance(kind, types.LiteralType):
        return " or ".join(f'"{value}"' if isinstance(value, str) else str(value) for value in kind.values)
    if isinstance(kind, types.UnionType):
        return " or ".join(shape(k) for k in kind.types)
    return "…"


def body_shape(kind: type[Struct]) -> str:
    """A body type as the API page writes it: ``{"pack": int, "cards": [int, …]}``; an optional field ends in ``?``."""
    parts = [
        f'"{field.encode_name}{"" if field.required else "?"}": {shape(field.type)}' for field in struct_fields(kind)
    ]
    return "{" + ", ".join(parts) + "}"
