"""What every record of a schema-2 database must look like: fields, types, ranges and references.

``check_tables`` is run on every database read (and on backups and exports before a restore);
it returns the first problem as text (``"players record 4: 'e' names no event (9)"``) or None.
Fields not listed here are left alone (later releases add their own); listed ones are checked
whenever present, required ones must be there.  Numbers are whole numbers within their range,
never booleans, never NaN or infinite; every reference names a record that exists.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from events.night.schema import DRAFT_STYLES, STATUSES

Check = Callable[[Any], str | None]
MAX_ID = 10**9  # document numbers, player numbers, seeds' neighbours: nothing real comes near
MAX_SEED = 2**64
MAX_SECRET = 2**256  # an event's packs come from a 128-bit secret (events/night/packs_secret.py); room to spare
MAX_POINTS = 10**6
MAX_CARDS = 10_000  # cards in one pool or deck list
_KEY = re.compile(r"[1-9][0-9]{0,9}", re.ASCII)


def integer(low: int | None = 0, high: int | None = MAX_ID, none: bool = False) -> Check:
    def check(value: Any) -> str | None:
        if value is None and none:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            return f"should be a whole number, not {_kind(value)}"
        if (low is not None and value < low) or (high is not None and value > high):
            return f"is {_short(value)}, outside {low}-{high}"
        return None

    return check


def text(*choices: str, none: bool = False, empty: bool = True, longest: int = 10_000) -> Check:
    def check(value: Any) -> str | None:
        if value is None and none:
            return None
        if not isinstance(value, str):
            return f"should be text, not {_kind(value)}"
        if choices and value not in choices:
            return f"is {_short(value)}, not one of {', '.join(choices)}"
        if not empty and not value.strip():
            return "is empty"
        if len(value) > longest:
            return f"is {len(value)} characters long (at most {longest})"
        return None

    return check


def boolean(value: Any) -> str | None:
    return None if isinstance(value, bool) else f"should be true or false, not {_kind(value)}"


def record(value: Any) -> str | None:
    return None if isinstance(value, dict) else f"should be a record, not {_kind(value)}"


def finite_number(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"should be a number, not {_kind(value)}"
    if isinstance(value, float) and not math.isfinite(value):
        return f"is {value}, not a finite number"
    if abs(value) > MAX_POINTS:
        return f"is {_short(value)}, outside -{MAX_POINTS}-{MAX_POINTS}"
    return None


def list_of(item: Check, most: int = MAX_CARDS, least: int = 0) -> Check:
    def check(value: Any) -> str | None:
        if not isinstance(value, list):
            return f"should be a list, not {_kind(value)}"
        if not least <= len(value) <= most:
            return f"holds {len(value)} items ({least}-{most} allowed)"
        for position, element in enumerate(value):
            problem = item(element)
            if problem:
                return f"item {position + 1} {problem}"
        return None

    return check


def ints(low: int, high: int, most: int = MAX_CARDS, least: int = 0) -> Check:
    """A list of whole numbers in ``low``-``high`` (a plain loop: these lists are the long ones)."""

    def check(value: Any) -> str | None:
        if type(value) is not list:
            return f"should be a list, not {_kind(value)}"
        if not least <= len(value) <= most:
            return f"holds {len(value)} items ({least}-{most} allowed)"
        for element in value:
            if type(element) is not int or not low <= element <= high:
                position = value.index(element) + 1
                if type(element) is not int:
                    return f"item {position} should be a whole number, not {_kind(element)}"
                return f"item {position} is {_short(element)}, outside {low}-{high}"
        return None

    return check


def rows_of(row: Check, most: int) -> Check:
    """A list of rows (``picks``, a booster's cards): a plain loop, the rows checked one by one."""

    def check(value: Any) -> str | None:
        if type(value) is not list:
            return f"should be a list, not {_kind(value)}"
        if len(value) > most:
            return f"holds {len(value)} items (at most {most})"
        for position, element in enumerate(value):
            problem = row(element)
            if problem:
                return f"item {position + 1} {problem}"
        return None

    return check


def texts(longest: int, most: int = MAX_CARDS) -> Check:
    def check(value: Any) -> str | None:
        if type(value) is not list:
            return f"should be a list, not {_kind(value)}"
        if len(value) > most:
            return f"holds {len(value)} items (at most {most})"
        for position, element in enumerate(value):
            if type(element) is not str or not element or len(element) > longest:
                return f"item {position + 1} should be text of 1-{longest} characters, not {_short(element)}"
        return None

    return check


def card_refs(value: Any) -> str | None:
    """A booster's cards in a saved draft: ``[number, sheet, flags]`` rows (one plain loop)."""
    if type(value) is not list or len(value) > 1000:
        return f"should be a list of at most 1000 cards, not {_short(value)}"
    for position, ref in enumerate(value):  # noqa: B007 (named after the loop)
        if type(ref) is not list or len(ref) != 3:
            break
        number, sheet, flags = ref
        if (
            type(sheet) is not int
            or type(flags) is not int
            or (type(number) is not str and type(number) is not int)
            or not 0 <= sheet <= 1000
            or not 0 <= flags <= 3
        ):
            break
    else:
        return None
    return f"item {position + 1} should be a card [number, sheet, flags], not {_short(ref)}"


def _kind(value: Any) -> str:
    return {
        bool: "true/false",
        int: "a number",
        float: "a number",
        str: "text",
        list: "a list",
        dict: "a record",
        type(None): "null",
    }.get(type(value), type(value).__name__)


def _short(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def fields_of(spec: dict[str, tuple[Check, bool]]) -> Check:
    """A record whose listed fields pass their checks (``True``: the field must be there)."""

    def check(value: Any) -> str | None:
        if not isinstance(value, dict):
            return f"should be a record, not {_kind(value)}"
        for name, (inner, needed) in spec.items():
            if name not in value:
                if needed:
                    return f"has no {name!r}"
                continue
            problem = inner(value[name])
            if problem:
                return f"{name!r} {problem}"
        return None

    return check


def either(*checks: Check) -> Check:
    def check(value: Any) -> str | None:
        problems = [inner(value) for inner in checks]
        return None if any(problem is None for problem in problems) else problems[0]

    return check


def null(value: Any) -> str | None:
    return None if value is None else f"should be null, not {_kind(value)}"


# A saved draft's state (``draft.engine.Draft.to_json`` without the picks) and a registered deck
# (``draft.formats.json_deck.write_json``): the parts other code reads without asking.
DRAFT_STATE = fields_of(
    {
        "format": (text(longest=40), False),
        "config": (
            fields_of(
                {
                    "seats": (integer(2, 64), True),
                    "boosters": (integer(1, 64), True),
                    "picks_per_turn": (integer(1, 64), True),
                    "set": (text(empty=False, longest=20), True),
                    "booster_kind": (text(none=True, longest=40), False),
                }
            ),
            True,
        ),
        "seed": (either(integer(-MAX_SECRET, MAX_SECRET), null), False),
        "sheets": (list_of(text(longest=200), 1000), True),
        "boosters": (
            list_of(list_of(fields_of({"variant": (integer(0, 10_000), True), "cards": (card_refs, True)}), 64), 64),
            True,
        ),
    }
)
DECK_LINE = fields_of(
    {
        "name": (text(empty=False, longest=500), True),
        "count": (integer(1, 10_000), False),
        "set": (text(none=True, longest=20), False),
        "number": (text(none=True, longest=20), False),
        "foil": (boolean, False),
        "etched": (boolean, False),
        "color": (text(none=True, longest=20), False),
    }
)
DECK = fields_of(
    {
        "format": (text(longest=40), False),
        "name": (text(longest=500), False),
        "commanders": (list_of(DECK_LINE, 8), False),
        "main": (list_of(DECK_LINE), False),
        "sideboard": (list_of(DECK_LINE), False),
        "piper_colors": (list_of(text(longest=20), 8), False),
    }
)
PROBLEM = fields_of({"code": (text(longest=80), False), "message": (text(longest=10_000), False)})


# Enumerations the phases own come from events.night.schema; a status a phase adds later (a player's
# "no-show") is short text here, so checking never lags behind the code that writes it.
ID = integer(1)
COUNT = integer(0)

# table -> field -> (check, required)
FIELDS: dict[str, dict[str, tuple[Check, bool]]] = {
    "events": {
        "name": (text(empty=False, longest=500), True),
        "date": (text(longest=40), True),
        "set": (text(longest=20), True),
        "mode": (text("draft", "sealed"), True),
        "style": (text(*DRAFT_STYLES), True),
        "pod_size": (integer(2, 64), True),
        "game_size": (integer(2, 64), True),
        "one_v_one": (boolean, True),
        "timer": (integer(0, 86_400), True),
        "points": (list_of(finite_number, 64, 1), True),
        "piper_stock": (integer(0, 10_000), True),
        "status": (text(*STATUSES), True),
        "seed": (integer(-MAX_SEED, MAX_SEED), True),
        "created": (text(longest=64), False),
        "uid": (text(longest=64), False),
    },
    "players": {
        "e": (ID, True),
        "name": (text(empty=False, longest=500), True),
        "status": (text(empty=False, longest=40), True),
        "late": (boolean, True),
        "bot": (boolean, True),
        "pod": (integer(1, none=True), True),
        "seat": (integer(0, 64, none=True), True),
        "requested": (integer(0, 2), True),
    },
    "pods": {
        "e": (ID, True),
        "number": (integer(1), True),
        "players": (ints(1, MAX_ID, 64), True),
        "draft": (integer(1, none=True), True),
        "opened": (integer(0, 10_000, none=True), False),
        "opened_typed": (integer(0, 10_000, none=True), False),
    },
    "pools": {"e": (ID, True), "p": (ID, True), "cards": (texts(64), True), "source": (text(longest=20), False)},
    "decks": {
        "e": (ID, True),
        "p": (ID, True),
        "deck": (DECK, True),
        "valid": (boolean, True),
        "problems": (list_of(PROBLEM), True),
    },
    "rounds": {
        "e": (ID, True),
        "number": (integer(1), True),
        "tables": (rows_of(ints(1, MAX_ID, 64), MAX_CARDS), True),
        "first": (ints(1, MAX_ID), False),
        "status": (text(empty=False, longest=40), True),
        "clock": (record, False),
    },
    "results": {
        "e": (ID, True),
        "round": (integer(1), True),
        "table": (integer(1), True),
        "order": (list_of(ints(1, MAX_ID, 64, 1), 64, 1), True),
    },
    "games": {
        "e": (ID, True),
        "round": (integer(1), True),
        "table": (integer(1), True),
        "life": (record, True),
        "hits": (list_of(record), False),
        "casts": (list_of(record), False),
    },
    "drafts": {
        "kind": (text(longest=40), True),
        "state": (DRAFT_STATE, True),
        "humans": (ints(0, 64, 64), True),
        "names": (list_of(text(longest=500), 64), True),
        "styles": (list_of(text(longest=40), 64), True),
        "status": (text(longest=40), True),
        "picks": (rows_of(ints(0, 64, 8, 1), 10**7), True),
        "journal": (text(none=True, longest=64), True),
        "event": (ID, False),
        "pod": (integer(1), False),
    },
    # a live draft's own file (NAME.drafts/ID-TOKEN.json)
    "journal": {
        "humans": (ints(0, 64, 64), True),
        "status": (text(longest=40), True),
        "picks": (rows_of(ints(0, 64, 8, 1), 10**7), True),
    },
}


def _fields(table: str, key: str, doc: Any) -> str | None:
    if not _KEY.fullmatch(key):
        return f"{table} has a record numbered {_short(key)}, not a number 1 or more"
    if not isinstance(doc, dict):
        return f"{table} record {key} is not a record"
    fields = FIELDS.get(table, {})
    missing = [name for name, (_, needed) in fields.items() if needed and name not in doc]
    if missing:
        return f"{table} record {key} has no {', '.join(missing)}"
    for name, (check, _) in fields.items():
        if name in doc:
            problem = check(doc[name])
            if problem:
                return f"{table} record {key}: {name!r} {problem}"
    return None


def check_tables(data: dict[str, Any]) -> str | None:
    """The first problem of a schema-2 database's records, or None."""
    for table in FIELDS:
        docs = data.get(table, {})
        for key, doc in docs.items():
            problem = _fields(table, key, doc)
            if problem:
                return problem
    return _references(data)


def _references(data: dict[str, Any]) -> str | None:
    events = data.get("events", {})
    players = data.get("players", {})
    drafts = data.get("drafts", {})

    def player_of(table: str, key: str, pid: Any, event: int, field: str) -> str | None:
        doc = players.get(str(pid))
        if doc is None:
            return f"{table} record {key}: {field} names no player ({_short(pid)})"
        if doc["e"] != event:
            return f"{table} record {key}: {field} names player {pid} of another event"
        return None

    for table in ("players", "pods", "pools", "decks", "rounds", "results", "games"):
        for key, doc in data.get(table, {}).items():
            if str(doc["e"]) not in events:
                return f"{table} record {key}: 'e' names no event ({_short(doc['e'])})"
            event = doc["e"]
            ids: list[tuple[str, Any]] = []
            if table in ("pools", "decks"):
                ids = [("'p'", doc["p"])]
            elif table == "pods":
                ids = [("'players'", pid) for pid in doc["players"]]
                if doc["draft"] is not None and str(doc["draft"]) not in drafts:
                    return f"pods record {key}: 'draft' names no draft ({_short(doc['draft'])})"
            elif table == "rounds":
                ids = [("'tables'", pid) for seats in doc["tables"] for pid in seats]
                ids += [("'first'", pid) for pid in doc.get("first", [])]
            elif table == "results":
                ids = [("'order'", pid) for group in doc["order"] for pid in group]
            elif table == "games":
                for life_key, life in doc["life"].items():
                    if isinstance(life, bool) or not isinstance(life, int) or abs(life) > MAX_ID:
                        return f"games record {key}: life of {_short(life_key)} is {_short(life)}, not a whole number"
                    if not _KEY.fullmatch(life_key):
                        return f"games record {key}: 'life' names no player ({_short(life_key)})"
                    ids.append(("'life'", int(life_key)))
                for hit in doc.get("hits", []):
                    for name in ("to", "from"):
                        if hit.get(name) is not None:
                            ids.append((f"a hit's {name!r}", hit[name]))
                    problem = integer(0, MAX_ID)(hit.get("amount", 0))
                    if problem:
                        return f"games record {key}: a hit's 'amount' {problem}"
                for cast in doc.get("casts", []):
                    ids.append(("a cast's 'p'", cast.get("p")))
                    problem = integer(0, MAX_ID)(cast.get("count", 0))
                    if problem:
                        return f"games record {key}: a cast's 'count' {problem}"
            for field, pid in ids:
                if isinstance(pid, bool) or not isinstance(pid, int):
                    return f"{table} record {key}: {field} holds {_short(pid)}, not a player number"
                problem = player_of(table, key, pid, event, field)
                if problem:
                    return problem
    pods = {(pod["e"], pod["number"]) for pod in data.get("pods", {}).values()}
    for key, doc in players.items():
        if doc["pod"] is not None and (doc["e"], doc["pod"]) not in pods:
            return f"players record {key}: 'pod' names no pod ({doc['pod']}) of its event"
    for key, doc in drafts.items():
        if "event" in doc and str(doc["event"]) not in events:
            return f"drafts record {key}: 'event' names no event ({_short(doc['event'])})"
        seats = len(doc["names"])
        if any(seat >= seats for seat in doc["humans"]) or any(row[0] >= seats for row in doc["picks"]):
            return f"drafts record {key}: a seat number is beyond its {seats} seats"
    return None
