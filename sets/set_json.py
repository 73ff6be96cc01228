"""The project's own JSON form of faces, cards and sets (what the bundled data and imported sets are stored as)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sets.card_facts import ANY_NUMBER, TYPE_FACTS, commander_facts, text_copy_limit, type_facts
from sets.cards import Card, CardSet, CommanderAbility, Face, Layout, Rarity
from sets.colors import ColorIdentity
from sets.errors import ImportFormatError
from sets.identity import commander_text_faces
from sets.visible import quoted


def face_to_json(face: Face, with_text: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {"name": face.name, "mana_cost": face.mana_cost, "type_line": face.type_line}
    if with_text and face.text:
        data["text"] = face.text
    data["colors"] = face.colors.code
    if face.color_indicator is not None:
        data["color_indicator"] = face.color_indicator.code
    for key in ("power", "toughness", "loyalty", "defense"):
        value = getattr(face, key)
        if value is not None:
            data[key] = value
    data["supertypes"], data["types"], data["subtypes"] = list(face.supertypes), list(face.types), list(face.subtypes)
    return data


def face_from_json(data: dict[str, Any]) -> Face:
    indicator = data.get("color_indicator")
    return Face(
        name=data["name"],
        mana_cost=data.get("mana_cost", ""),
        type_line=data.get("type_line", ""),
        supertypes=tuple(data.get("supertypes", ())),
        types=tuple(data.get("types", ())),
        subtypes=tuple(data.get("subtypes", ())),
        text=data.get("text", ""),
        colors=ColorIdentity.parse(data.get("colors", "")),
        color_indicator=None if indicator is None else ColorIdentity.parse(indicator),
        power=data.get("power"),
        toughness=data.get("toughness"),
        loyalty=data.get("loyalty"),
        defense=data.get("defense"),
    )


def card_to_json(card: Card, with_text: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {
        "number": card.number,
        "name": card.name,
        "rarity": card.rarity.value,
        "layout": card.layout.value,
        "mana_value": card.mana_value,
        "identity": card.identity.code,
        "deck_colors": card.deck_colors.code,
        "abilities": sorted(ability.value for ability in card.abilities),
    }
    if card.partner_with:
        data["partner_with"] = card.partner_with
    if card.partner_group:
        data["partner_group"] = card.partner_group
    if not card.main_set:
        data["main_set"] = False
    if card.mtgo_id is not None:
        data["mtgo_id"] = card.mtgo_id
    if card.mtgo_foil_id is not None:
        data["mtgo_foil_id"] = card.mtgo_foil_id
    if card.commander_legal is not None:
        data["commander_legal"] = card.commander_legal
    if card.copy_limit is not None:
        data["copy_limit"] = "any" if card.copy_limit >= ANY_NUMBER else card.copy_limit
    data["faces"] = [face_to_json(face, with_text) for face in card.faces]
    return data


def _copy_limit(value: Any) -> int | None:
    if value == "any":
        return ANY_NUMBER
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def text_facts(card: Card) -> tuple[frozenset[CommanderAbility], str | None, str | None]:
    """Commander facts decided again from the card's faces (their rules text and type lines)."""
    return commander_facts(card.faces[0], *commander_text_faces(card.faces, card.layout))


def card_from_json(data: dict[str, Any], set_code: str) -> Card:
    faces = tuple(face_from_json(face) for face in data["faces"])
    # Type-line facts are decided again, so a set imported before a rules fix follows it; so are the
    # facts of the rules text when the set keeps it (imported sets).
    stored = frozenset(CommanderAbility(a) for a in data.get("abilities", ()))
    card = Card(
        name=data["name"],
        faces=faces,
        identity=ColorIdentity.parse(data["identity"]),
        deck_colors=ColorIdentity.parse(data["deck_colors"]),
        layout=Layout(data.get("layout", "normal")),
        set_code=set_code,
        number=str(data["number"]),
        rarity=Rarity(data["rarity"]),
        mana_value=data.get("mana_value", 0),
        abilities=(stored - TYPE_FACTS) | type_facts(faces[0]),
        partner_with=data.get("partner_with"),
        partner_group=data.get("partner_group"),
        main_set=data.get("main_set", True),
        mtgo_id=data.get("mtgo_id"),
        mtgo_foil_id=data.get("mtgo_foil_id"),
        copy_limit=_copy_limit(data.get("copy_limit")),
        commander_legal=data.get("commander_legal") if isinstance(data.get("commander_legal"), bool) else None,
    )
    if any(face.text for face in faces):
        abilities, partner_with, partner_group = text_facts(card)
        card = replace(
            card,
            abilities=abilities,
            partner_with=partner_with,
            partner_group=partner_group,
            copy_limit=text_copy_limit(faces),
        )
    return card


SET_FORMAT = "cmdraft-set/1"
"""The ``format`` of a set file in the project's form (the bundled set's, and each imported set's in ``sets/``)."""


def set_to_json(card_set: CardSet, with_text: bool = False) -> dict[str, Any]:
    """The set in the project's form; rules text only when asked (never for bundled data)."""
    return {
        "format": SET_FORMAT,
        "code": card_set.code,
        "name": card_set.name,
        "cards": [card_to_json(card, with_text) for card in card_set.cards],
        "boosters": card_set.boosters,
    }


def set_from_json(
    data: dict[str, Any], source: str, advice: str = "import the set again with 'cmdraft sets import FILE'"
) -> CardSet:
    """The set a file in the project's form holds; ``ImportFormatError`` naming what is damaged, then ``advice``."""
    try:
        code = data["code"]
        return CardSet(
            code=code,
            name=data.get("name", code),
            cards=tuple(card_from_json(card, code) for card in data["cards"]),
            boosters=data.get("boosters", {}),
            source=source,
        )
    except (KeyError, TypeError, ValueError) as error:
        what = f"no {quoted(str(error.args[0]))} field" if isinstance(error, KeyError) and error.args else str(error)
        raise ImportFormatError(f"set file {quoted(str(source))} is damaged ({what}): {advice}") from None
