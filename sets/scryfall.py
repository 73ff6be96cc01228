"""Reading Scryfall card arrays and bulk files."""

from __future__ import annotations

from typing import Any

from sets.cards import Layout
from sets.identity import make_card
from sets.import_result import (
    NOT_DECK_CARDS,
    ImportResult,
    card_face,
    commander_legality,
    published_identity,
    rarity_of,
    same_card_both_sides,
)
from sets.visible import quoted


def read_scryfall(cards: list[Any], source: str) -> ImportResult:
    result = ImportResult("scryfall", source)
    by_name = {obj["name"]: obj for obj in cards if isinstance(obj, dict) and "name" in obj}
    for position, obj in enumerate(cards, start=1):
        if not isinstance(obj, dict) or "name" not in obj:
            result.problems.append(f"{quoted(str(source))}: entry {position} is not a card and was skipped")
            continue
        if obj.get("layout") in NOT_DECK_CARDS:
            continue
        layout = Layout.parse(obj.get("layout"))
        parts = obj.get("all_parts") or []
        if layout is Layout.MELD and any(
            p.get("component") == "meld_result" and p.get("name") == obj["name"] for p in parts
        ):
            continue  # the meld result: the back face of the cards that meld into it (below), never a card of its own
        faces_data = obj.get("card_faces") or [obj]
        name = obj["name"]
        if same_card_both_sides(obj.get("layout"), [f.get("name") for f in faces_data]):
            faces_data, layout, name = faces_data[:1], Layout.NORMAL, faces_data[0]["name"]
        faces = [
            card_face(
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
                    card_face(
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
            rarity=rarity_of(obj.get("rarity")),
            mana_value=obj.get("cmc"),
            mtgo_id=obj.get("mtgo_id") if isinstance(obj.get("mtgo_id"), int) else None,
            mtgo_foil_id=obj.get("mtgo_foil_id") if isinstance(obj.get("mtgo_foil_id"), int) else None,
            commander_legal=commander_legality(obj.get("legalities"), obj.get("security_stamp") == "acorn"),
        )
        result.add(card, published_identity(obj.get("color_identity")))
    codes = sorted({card.set_code for card in result.cards})
    result.code = codes[0] if len(codes) == 1 else ""
    return result
