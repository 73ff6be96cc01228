"""Read card files other tools publish: MTGJSON set and AtomicCards files,
Scryfall card arrays and bulk files, and plain card lists (the shape of
``shared/data/cmr/cards.json``).

Identity is always computed by the engine from the card's text; where a file
carries its own identity field, any difference is reported, never hidden.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sets.cards import Card, Face, Layout, Rarity, parse_type_line
from sets.catalog import CardSet
from sets.colors import COLORLESS, ColorIdentity
from sets.errors import ImportFormatError, InputError, ManaCostError
from sets.files import CARD_FILE_LIMIT, loads, read_input
from sets.identity import defined_colors, make_card
from sets.mana import ManaCost

FORMAT_HINT = "give an MTGJSON set file, an MTGJSON AtomicCards file or a Scryfall card array"


@dataclass
class ImportResult:
    """Cards read from a file, with what the file itself said about identity."""

    kind: str
    source: str
    cards: list[Card] = field(default_factory=list)
    published: list[ColorIdentity | None] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    code: str = ""
    name: str = ""
    boosters: dict[str, dict[str, Any]] = field(default_factory=dict)
    set_boosters: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)

    def add(self, card: Card, published: ColorIdentity | None) -> None:
        self.cards.append(card)
        self.published.append(published)

    @property
    def mismatches(self) -> list[tuple[Card, ColorIdentity]]:
        """Cards whose computed ``deck_colors`` differ from the file's identity field."""
        return [
            (card, published)
            for card, published in zip(self.cards, self.published, strict=True)
            if published is not None and published != card.deck_colors
        ]

    def card_sets(self) -> list[CardSet]:
        """The cards grouped into sets by set code, ready to store."""
        groups: dict[str, list[Card]] = defaultdict(list)
        for card in self.cards:
            groups[card.set_code].append(card)

        def boosters(code: str) -> dict[str, dict[str, Any]]:
            if code in self.set_boosters:
                return self.set_boosters[code]
            return self.boosters if code == self.code else {}

        return [
            CardSet(
                code, self.name if code == self.code and self.name else code, tuple(cards), boosters(code), self.source
            )
            for code, cards in groups.items()
        ]


def _identity(letters: Any) -> ColorIdentity | None:
    if letters is None:
        return None
    if isinstance(letters, str):
        return ColorIdentity.parse(letters)
    return ColorIdentity.of(letters)


def _checked_cost(cost: str | None, label: str, result: ImportResult) -> str:
    cost = (cost or "").strip()
    try:
        ManaCost.parse(cost)
    except ManaCostError as error:
        raise ManaCostError(
            f"{result.source}: card {label!r} has a {error}; fix the file or download it again"
        ) from None
    return cost


def _face(
    result: ImportResult,
    *,
    name: str,
    cost: str | None,
    type_line: str | None,
    text: str | None,
    colors: Any,
    indicator: Any,
    power: Any = None,
    toughness: Any = None,
    loyalty: Any = None,
    defense: Any = None,
    supertypes: Any = None,
    types: Any = None,
    subtypes: Any = None,
) -> Face:
    type_line = type_line or ""
    if types is None:
        supertypes, types, subtypes = parse_type_line(type_line)
    return Face(
        name=name,
        mana_cost=_checked_cost(cost, name, result),
        type_line=type_line,
        supertypes=tuple(supertypes or ()),
        types=tuple(types or ()),
        subtypes=tuple(subtypes or ()),
        text=text or "",
        colors=_identity(colors) or COLORLESS,
        color_indicator=_identity(indicator),
        power=None if power is None else str(power),
        toughness=None if toughness is None else str(toughness),
        loyalty=None if loyalty is None else str(loyalty),
        defense=None if defense is None else str(defense),
    )


def _rarity(text: Any) -> Rarity:
    try:
        return Rarity.parse(str(text or "common"))
    except InputError:
        return Rarity.SPECIAL


# --- MTGJSON ------------------------------------------------------------------------


_MTGJSON_FIELDS = {"cost": "manaCost", "type_line": "type", "indicator": "colorIndicator"}
_PLAIN_FIELDS = {"cost": "mana_cost", "type_line": "type_line", "indicator": "color_indicator"}


def _face_from(obj: dict[str, Any], result: ImportResult, fields: dict[str, str], name: str) -> Face:
    """A face from a flat card object (MTGJSON or a plain list); ``fields`` names the keys that differ."""
    return _face(
        result,
        name=name,
        cost=obj.get(fields["cost"]),
        type_line=obj.get(fields["type_line"]),
        text=obj.get("text"),
        colors=obj.get("colors", ()),
        indicator=obj.get(fields["indicator"]),
        power=obj.get("power"),
        toughness=obj.get("toughness"),
        loyalty=obj.get("loyalty"),
        defense=obj.get("defense"),
        supertypes=obj.get("supertypes"),
        types=obj.get("types"),
        subtypes=obj.get("subtypes"),
    )


def _mtgjson_face(obj: dict[str, Any], result: ImportResult) -> Face:
    return _face_from(obj, result, _MTGJSON_FIELDS, obj.get("faceName") or obj.get("name", "?"))


def _base_number(obj: dict[str, Any]) -> str:
    number = str(obj.get("number", ""))
    side = obj.get("side")
    if side and number.endswith(side) and number[:-1]:
        return number[:-1]
    return number


def _mtgjson_card(objs: list[dict[str, Any]], result: ImportResult, set_code: str, number: str) -> Card:
    objs = sorted(objs, key=lambda o: o.get("side") or "a")
    first = objs[0]
    layout = Layout.parse(first.get("layout"))
    if _same_card_both_sides(first.get("layout"), [obj.get("faceName") or obj.get("name") for obj in objs]):
        objs, layout, first = objs[:1], Layout.NORMAL, dict(first, name=first.get("faceName") or first.get("name"))
    faces = [_mtgjson_face(obj, result) for obj in objs]
    mtgo = (first.get("identifiers") or {}).get("mtgoId")
    card = make_card(
        faces,
        layout,
        name=None if layout is Layout.MELD else first.get("name"),
        set_code=set_code,
        number=number,
        rarity=_rarity(first.get("rarity")),
        mana_value=first.get("manaValue", first.get("convertedManaCost")),
        mtgo_id=int(mtgo) if str(mtgo or "").isdigit() else None,
    )
    return card


def _same_card_both_sides(layout: Any, face_names: list[Any]) -> bool:
    """A reversible printing (Secret Lair) shows one card on both sides: it is that card, once."""
    return layout == "reversible_card" and len(face_names) > 1 and len(set(face_names)) == 1


def _is_meld_back(obj: dict[str, Any]) -> bool:
    return Layout.parse(obj.get("layout")) is Layout.MELD and (obj.get("side") or "a") != "a"


def _attach_meld_results(groups: dict[tuple[str, str], list[dict[str, Any]]]) -> None:
    """A meld result is no card: printed as its own entry it is dropped as a card, and every card that melds
    into it (``NAME // RESULT``) gets it as its back face."""
    results: dict[str, dict[str, Any]] = {}
    for key, objs in list(groups.items()):
        for obj in objs:
            if _is_meld_back(obj):
                results.setdefault(obj.get("faceName") or obj.get("name", ""), obj)
        if objs and all(_is_meld_back(obj) for obj in objs):
            del groups[key]
    for front in groups.values():
        first = front[0]
        names = str(first.get("name", "")).split(" // ")
        if (
            Layout.parse(first.get("layout")) is Layout.MELD
            and len(names) > 1
            and names[-1] in results
            and not any(_is_meld_back(obj) for obj in front)
        ):
            front.append(dict(results[names[-1]], side="b"))


def read_mtgjson_set(data: dict[str, Any], source: str, booster_cards: bool = True) -> ImportResult:
    body = data["data"]
    code = str(body.get("code") or "").upper()
    if not code:
        raise ImportFormatError(f"{source}: MTGJSON set file has no set code in data.code; {FORMAT_HINT}")
    result = ImportResult("mtgjson-set", source, code=code, name=str(body.get("name") or code))
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for obj in body.get("cards") or []:
        if not isinstance(obj, dict) or "name" not in obj:
            result.problems.append(f"{source}: a card entry without a name was skipped")
            continue
        groups[(obj["name"], _base_number(obj))].append(obj)
    _attach_meld_results(groups)
    uuid_to_number: dict[str, str] = {}
    finishes: dict[str, set[str]] = {}
    numbers_seen: set[str] = set()
    for (_, number), objs in groups.items():
        if number in numbers_seen:
            number = f"{number}-{objs[0].get('uuid', len(numbers_seen))[:8]}"
        numbers_seen.add(number)
        card = _mtgjson_card(objs, result, code, number)
        result.add(card, _identity(objs[0].get("colorIdentity")))
        for obj in objs:
            if obj.get("uuid"):
                uuid_to_number[obj["uuid"]] = number
        finishes[number] = set(objs[0].get("finishes") or ())
    if booster_cards:
        try:
            result.boosters = _mtgjson_boosters(body.get("booster") or {}, uuid_to_number, finishes)
        except (AttributeError, TypeError, ValueError) as error:
            # The cards are still good: report the booster section and go on without it.
            result.problems.append(
                f"{source}: the booster section can't be read ({error!r}); boosters of this set won't open"
            )
    return result


def _mtgjson_boosters(
    boosters: dict[str, Any], uuid_to_number: dict[str, str], finishes: dict[str, set[str]]
) -> dict[str, dict[str, Any]]:
    """MTGJSON booster definitions restated in the project's spec form (cards by number)."""
    specs: dict[str, dict[str, Any]] = {}
    for kind, definition in boosters.items():
        if not isinstance(definition, dict):
            continue
        sheets = {}
        for sheet_name, sheet in (definition.get("sheets") or {}).items():
            cards: dict[str, int] = {}
            for uuid, weight in (sheet.get("cards") or {}).items():
                key = uuid_to_number.get(uuid, f"uuid:{uuid}")
                cards[key] = cards.get(key, 0) + weight
            etched = "etched" in sheet_name.lower() or bool(cards) and all(finishes.get(n) == {"etched"} for n in cards)
            sheets[sheet_name] = {
                "foil": bool(sheet.get("foil")),
                "etched": etched,
                "balance_colors": bool(sheet.get("balanceColors")),
                "allow_duplicates": bool(sheet.get("allowDuplicates")),
                "cards": cards,
                "total_weight": sheet.get("totalWeight", sum(cards.values())),
            }
        specs[kind] = {
            "name": definition.get("name") or kind,
            "variants": [
                {"weight": b.get("weight", 1), "contents": b.get("contents", {})}
                for b in definition.get("boosters") or []
            ],
            "total_weight": definition.get("boostersTotalWeight"),
            "sheets": sheets,
        }
    return specs


def read_mtgjson_printings(data: dict[str, Any], source: str) -> ImportResult:
    """MTGJSON AllPrintings (``{"data": {CODE: set}}``): every set, each with its own boosters."""
    result = ImportResult("mtgjson-printings", source)
    boosters: dict[str, dict[str, Any]] = {}
    for code, body in data["data"].items():
        part = read_mtgjson_set({"data": {**body, "code": body.get("code") or code}}, source)
        for card, published in zip(part.cards, part.published, strict=True):
            result.add(card, published)
        result.problems += part.problems
        boosters[part.code] = part.boosters
    result.set_boosters = boosters
    return result


def read_mtgjson_atomic(data: dict[str, Any], source: str, code: str = "ATOMIC") -> ImportResult:
    result = ImportResult("mtgjson-atomic", source, code=code, name="MTGJSON AtomicCards")
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for index, (name, objs) in enumerate(sorted(data["data"].items()), start=1):
        if not isinstance(objs, list) or not objs or not all(isinstance(obj, dict) for obj in objs):
            result.problems.append(f"{source}: entry {name!r} has no faces and was skipped")
            continue
        by_side: dict[str, dict[str, Any]] = {}
        for obj in objs:
            by_side.setdefault(obj.get("side") or "a", obj)
        groups[(name, str(index))] = [dict(obj, name=obj.get("name", name)) for obj in by_side.values()]
    # A meld result has an entry of its own (side "b"): it is the back face of the cards that meld into it.
    _attach_meld_results(groups)
    for (_, number), objs in groups.items():
        card = _mtgjson_card(objs, result, code, number)
        result.add(card, _identity(objs[0].get("colorIdentity")))
    return result


# --- Scryfall -----------------------------------------------------------------------

_SCRYFALL_SKIP = {"token", "double_faced_token", "emblem", "art_series", "planar", "scheme", "vanguard"}


def read_scryfall(cards: list[Any], source: str) -> ImportResult:
    result = ImportResult("scryfall", source)
    by_name = {obj["name"]: obj for obj in cards if isinstance(obj, dict) and "name" in obj}
    for position, obj in enumerate(cards, start=1):
        if not isinstance(obj, dict) or "name" not in obj:
            result.problems.append(f"{source}: entry {position} is not a card and was skipped")
            continue
        if obj.get("layout") in _SCRYFALL_SKIP:
            continue
        layout = Layout.parse(obj.get("layout"))
        parts = obj.get("all_parts") or []
        if layout is Layout.MELD and any(
            p.get("component") == "meld_result" and p.get("name") == obj["name"] for p in parts
        ):
            continue  # the meld result: the back face of the cards that meld into it (below), never a card of its own
        faces_data = obj.get("card_faces") or [obj]
        name = obj["name"]
        if _same_card_both_sides(obj.get("layout"), [f.get("name") for f in faces_data]):
            faces_data, layout, name = faces_data[:1], Layout.NORMAL, faces_data[0]["name"]
        faces = [
            _face(
                result,
                name=f.get("name", obj["name"]),
                cost=f.get("mana_cost", "" if f is not obj else obj.get("mana_cost")),
                type_line=f.get("type_line") or obj.get("type_line"),
                text=f.get("oracle_text"),
                colors=f.get("colors", obj.get("colors", ())),
                indicator=f.get("color_indicator"),
                power=f.get("power"),
                toughness=f.get("toughness"),
                loyalty=f.get("loyalty"),
                defense=f.get("defense"),
            )
            for f in faces_data
        ]
        if layout is Layout.MELD:
            result_name = next((p.get("name") for p in parts if p.get("component") == "meld_result"), None)
            result_obj = by_name.get(result_name) if result_name else None
            if result_name and result_name != obj["name"]:
                faces.append(
                    _face(
                        result,
                        name=result_name,
                        cost="",
                        type_line=(result_obj or {}).get("type_line"),
                        text=(result_obj or {}).get("oracle_text"),
                        colors=(result_obj or {}).get("colors", ()),
                        indicator=(result_obj or {}).get("color_indicator"),
                        power=(result_obj or {}).get("power"),
                        toughness=(result_obj or {}).get("toughness"),
                    )
                )
        code = str(obj.get("set") or "").upper()
        card = make_card(
            faces,
            layout,
            name=name if layout is not Layout.MELD else None,
            set_code=code,
            number=str(obj.get("collector_number") or position),
            rarity=_rarity(obj.get("rarity")),
            mana_value=obj.get("cmc"),
            mtgo_id=obj.get("mtgo_id") if isinstance(obj.get("mtgo_id"), int) else None,
        )
        result.add(card, _identity(obj.get("color_identity")))
    codes = sorted({card.set_code for card in result.cards})
    result.code = codes[0] if len(codes) == 1 else ""
    return result


# --- plain card lists (shared/data/cmr/cards.json) ---------------------------------------


def read_card_list(data: dict[str, Any], source: str) -> ImportResult:
    code = str(data.get("set") or data.get("code") or "").upper()
    result = ImportResult("card-list", source, code=code, name=str(data.get("name") or code))
    for obj in data["cards"]:
        face = _face_from(obj, result, _PLAIN_FIELDS, obj["name"])
        if face.color_indicator is None and face.colors - (face.cost.colors | defined_colors(face)):
            # Plain lists carry no color indicator; colors that neither the cost nor a
            # characteristic-defining ability explains can only come from one.
            face = replace(face, color_indicator=face.colors)
        card = make_card(
            [face],
            Layout.parse(obj.get("layout")),
            name=obj["name"],
            set_code=code,
            number=str(obj["number"]),
            rarity=_rarity(obj.get("rarity")),
            mana_value=obj.get("mana_value"),
            main_set=obj.get("in_main_set", True),
        )
        result.add(card, _identity(obj.get("color_identity")))
    return result


# --- detection --------------------------------------------------------------------------


def read_card_data(data: Any, source: str) -> ImportResult:
    """Read already-parsed JSON of any supported kind, or raise ``ImportFormatError``."""
    if isinstance(data, list):
        if (
            data
            and all(isinstance(obj, dict) for obj in data[:5])
            and any("type_line" in obj or "card_faces" in obj for obj in data[:5])
        ):
            return read_scryfall(data, source)
        if not data:
            raise ImportFormatError(f"{source}: the card array is empty; {FORMAT_HINT}")
    elif isinstance(data, dict):
        body = data.get("data")
        if isinstance(body, dict) and isinstance(body.get("cards"), list):
            return read_mtgjson_set(data, source)
        if isinstance(body, dict) and body and all(isinstance(v, list) for v in list(body.values())[:20]):
            return read_mtgjson_atomic(data, source)
        if (
            isinstance(body, dict)
            and body
            and all(isinstance(v, dict) and isinstance(v.get("cards"), list) for v in list(body.values())[:20])
        ):
            return read_mtgjson_printings(data, source)
        if data.get("object") == "list" and isinstance(body, list):
            return read_scryfall(body, source)
        if isinstance(data.get("cards"), list) and all(
            isinstance(c, dict) and "number" in c and "name" in c for c in data["cards"][:5]
        ):
            return read_card_list(data, source)
    raise ImportFormatError(f"{source}: not a card file cmdraft knows; {FORMAT_HINT}")


def read_card_file(path: str | Path) -> ImportResult:
    """Read a card file from disk, detecting its format."""
    path = Path(path)
    raw = read_input(path, CARD_FILE_LIMIT)
    try:
        data = loads(raw)
    except UnicodeDecodeError as error:
        raise ImportFormatError(
            f"{path}: not UTF-8 text (byte 0x{raw[error.start]:02x} at {error.start}); {FORMAT_HINT}"
        ) from None
    except ValueError as error:
        raise ImportFormatError(f"{path}: {error}; {FORMAT_HINT}") from None
    try:
        return read_card_data(data, str(path))
    except RecursionError:
        raise ImportFormatError(f"{path}: card data nested too deep; {FORMAT_HINT}") from None
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        if isinstance(error, InputError):
            raise
        raise ImportFormatError(f"{path}: card data is incomplete ({error!r}); {FORMAT_HINT}") from None


_CODE = re.compile(r"^[A-Z0-9]{2,8}$")


def valid_set_code(code: str) -> bool:
    return bool(_CODE.match(code))
