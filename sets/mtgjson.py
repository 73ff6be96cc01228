"""Reading MTGJSON files: a set file (with its booster definitions), AllPrintings, and AtomicCards."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sets.cards import Card, Face, Layout
from sets.errors import ImportFormatError
from sets.identity import make_card
from sets.import_result import (
    FORMAT_HINT,
    NOT_DECK_CARDS,
    ImportResult,
    commander_legality,
    face_from,
    published_identity,
    rarity_of,
    same_card_both_sides,
)
from sets.visible import quoted

_MTGJSON_FIELDS = {"cost": "manaCost", "type_line": "type", "indicator": "colorIndicator"}


def _mtgjson_face(obj: dict[str, Any], result: ImportResult) -> Face:
    return face_from(obj, result, _MTGJSON_FIELDS, obj.get("faceName") or obj.get("name", "?"))


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
    if same_card_both_sides(first.get("layout"), [obj.get("faceName") or obj.get("name") for obj in objs]):
        objs, layout, first = objs[:1], Layout.NORMAL, dict(first, name=first.get("faceName") or first.get("name"))
    faces = [_mtgjson_face(obj, result) for obj in objs]
    ids = first.get("identifiers") or {}
    mtgo, mtgo_foil = ids.get("mtgoId"), ids.get("mtgoFoilId")
    card = make_card(
        faces,
        layout,
        name=None if layout is Layout.MELD else first.get("name"),
        set_code=set_code,
        number=number,
        rarity=rarity_of(first.get("rarity")),
        mana_value=first.get("manaValue", first.get("convertedManaCost")),
        mtgo_id=int(str(mtgo)) if str(mtgo or "").isdigit() else None,
        mtgo_foil_id=int(str(mtgo_foil)) if str(mtgo_foil or "").isdigit() else None,
        commander_legal=commander_legality(first.get("legalities"), first.get("securityStamp") == "acorn"),
    )
    return card


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
        raise ImportFormatError(f"{quoted(str(source))}: MTGJSON set file has no set code in data.code; {FORMAT_HINT}")
    result = ImportResult("mtgjson-set", source, code=code, name=str(body.get("name") or code))
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for obj in body.get("cards") or []:
        if not isinstance(obj, dict) or "name" not in obj:
            result.problems.append(f"{quoted(str(source))}: a card entry without a name was skipped")
            continue
        if obj.get("layout") in NOT_DECK_CARDS:
            continue  # an art card, a token, an emblem: no card of a deck (the Scryfall reader skips the same)
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
        result.add(card, published_identity(objs[0].get("colorIdentity")))
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
                f"{quoted(str(source))}: the booster section can't be read ({error!r}); boosters of this set won't open"
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
            result.problems.append(f"{quoted(str(source))}: entry {quoted(name)} has no faces and was skipped")
            continue
        by_side: dict[str, dict[str, Any]] = {}
        for obj in objs:
            if obj.get("layout") in NOT_DECK_CARDS:
                continue
            by_side.setdefault(obj.get("side") or "a", obj)
        if by_side:
            groups[(name, str(index))] = [dict(obj, name=obj.get("name", name)) for obj in by_side.values()]
    # A meld result has an entry of its own (side "b"): it is the back face of the cards that meld into it.
    _attach_meld_results(groups)
    for (_, number), objs in groups.items():
        card = _mtgjson_card(objs, result, code, number)
        result.add(card, published_identity(objs[0].get("colorIdentity")))
    return result
