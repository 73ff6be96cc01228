"""Small card files in the shapes MTGJSON and Scryfall publish, written by the tests."""

from __future__ import annotations

import json
from pathlib import Path

from sets.catalog import load_set


def mtgjson_card(
    uuid,
    name,
    number,
    cost,
    type_,
    text="",
    colors=(),
    identity=None,
    rarity="common",
    layout="normal",
    side=None,
    face_name=None,
    indicator=None,
    finishes=("nonfoil", "foil"),
    **extra,
):
    supertypes = [w for w in type_.split(" — ")[0].split() if w in ("Legendary", "Basic", "Snow")]
    types = [w for w in type_.split(" — ")[0].split() if w not in supertypes]
    subtypes = type_.split(" — ")[1].split() if " — " in type_ else []
    card = {
        "uuid": uuid,
        "name": name,
        "number": number,
        "manaCost": cost,
        "type": type_,
        "text": text,
        "colors": list(colors),
        "colorIdentity": list(identity if identity is not None else colors),
        "rarity": rarity,
        "layout": layout,
        "supertypes": supertypes,
        "types": types,
        "subtypes": subtypes,
        "finishes": list(finishes),
        "setCode": "TST",
        "identifiers": {"mtgoId": str(1000 + int("".join(ch for ch in number if ch.isdigit()) or 0))},
    }
    if side:
        card["side"] = side
        card["faceName"] = face_name
    if indicator:
        card["colorIndicator"] = list(indicator)
    card.update(extra)
    return card


def mtgjson_set(with_booster: bool = True) -> dict:
    cards = [
        mtgjson_card(
            "u1",
            "Alpha Legend",
            "1",
            "{1}{W}{U}",
            "Legendary Creature — Human",
            "Partner (reminder)",
            "WU",
            rarity="rare",
        ),
        mtgjson_card(
            "u2", "Beta Partner", "2", "{2}{B}", "Legendary Creature — Zombie", "Partner", "B", rarity="uncommon"
        ),
        mtgjson_card(
            "u3",
            "Civilized Scholar // Homicidal Brute",
            "3a",
            "{2}{U}",
            "Creature — Human Advisor",
            "Draw.",
            "U",
            identity="UR",
            layout="transform",
            side="a",
            face_name="Civilized Scholar",
        ),
        mtgjson_card(
            "u4",
            "Civilized Scholar // Homicidal Brute",
            "3b",
            "",
            "Creature — Human Mutant",
            "Transform.",
            "R",
            identity="UR",
            layout="transform",
            side="b",
            face_name="Homicidal Brute",
            indicator="R",
        ),
        mtgjson_card(
            "u5",
            "Kellan, the Fae-Blooded // Birthright Boon",
            "4",
            "{2}{R}",
            "Legendary Creature — Human Faerie",
            "Double strike",
            "R",
            identity="RW",
            layout="adventure",
            side="a",
            face_name="Kellan, the Fae-Blooded",
        ),
        mtgjson_card(
            "u6",
            "Kellan, the Fae-Blooded // Birthright Boon",
            "4",
            "{1}{W}",
            "Sorcery — Adventure",
            "Search.",
            "W",
            identity="RW",
            layout="adventure",
            side="b",
            face_name="Birthright Boon",
        ),
        mtgjson_card(
            "u7", "Tundra", "5", "", "Land — Plains Island", "({T}: Add {W} or {U}.)", identity="WU", rarity="rare"
        ),
        mtgjson_card("u8", "Lying Card", "6", "{G}", "Creature — Elf", "", "G", identity="WG"),
    ]
    cards += [
        mtgjson_card(f"c{i}", f"Common {c}{i}", str(10 + i), f"{{{c}}}", "Creature — Test", "", c)
        for i, c in enumerate("WUBRGWUBRG")
    ]
    body = {"code": "TST", "name": "Test Set", "cards": cards}
    if with_booster:
        body["booster"] = {
            "draft": {
                "boosters": [
                    {"contents": {"common": 3, "rare": 1}, "weight": 3},
                    {"contents": {"common": 2, "rare": 1, "foil": 1}, "weight": 1},
                ],
                "boostersTotalWeight": 4,
                "sheets": {
                    "common": {
                        "balanceColors": True,
                        "cards": {f"c{i}": 1 for i in range(10)},
                        "foil": False,
                        "totalWeight": 10,
                    },
                    "rare": {"cards": {"u1": 1, "u7": 1}, "foil": False, "totalWeight": 2},
                    "foil": {"cards": {"u2": 1, "u3": 2}, "foil": True, "totalWeight": 3},
                },
            }
        }
    return {"meta": {"version": "5.2.2"}, "data": body}


def atomic_cards() -> dict:
    return {
        "meta": {},
        "data": {
            "Ghostfire": [
                {
                    "name": "Ghostfire",
                    "manaCost": "{2}{R}",
                    "type": "Instant",
                    "types": ["Instant"],
                    "supertypes": [],
                    "subtypes": [],
                    "text": "Ghostfire is colorless.\nGhostfire deals 3 damage to any target.",
                    "colors": [],
                    "colorIdentity": ["R"],
                    "layout": "normal",
                }
            ],
            "Fire // Ice": [
                {
                    "name": "Fire // Ice",
                    "faceName": "Fire",
                    "side": "a",
                    "manaCost": "{1}{R}",
                    "type": "Instant",
                    "types": ["Instant"],
                    "text": "Fire deals 2 damage divided as you choose.",
                    "colors": ["R"],
                    "colorIdentity": ["R", "U"],
                    "layout": "split",
                },
                {
                    "name": "Fire // Ice",
                    "faceName": "Ice",
                    "side": "b",
                    "manaCost": "{1}{U}",
                    "type": "Instant",
                    "types": ["Instant"],
                    "text": "Tap target permanent.",
                    "colors": ["U"],
                    "colorIdentity": ["R", "U"],
                    "layout": "split",
                },
            ],
            "Murmuring Bosk": [
                {
                    "name": "Murmuring Bosk",
                    "type": "Land — Forest",
                    "types": ["Land"],
                    "subtypes": ["Forest"],
                    "text": "({T}: Add {G}.)\nMurmuring Bosk enters tapped.\n{T}: Add {W} or {B}.",
                    "colors": [],
                    "colorIdentity": ["B", "G", "W"],
                    "layout": "normal",
                }
            ],
        },
    }


def scryfall_cards() -> list:
    return [
        {
            "object": "card",
            "name": "Transguild Courier",
            "layout": "normal",
            "mana_cost": "{4}",
            "cmc": 4.0,
            "type_line": "Artifact Creature — Golem",
            "oracle_text": "Transguild Courier is all colors.",
            "colors": ["W", "U", "B", "R", "G"],
            "color_identity": ["W", "U", "B", "R", "G"],
            "set": "dis",
            "collector_number": "165",
            "rarity": "uncommon",
            "mtgo_id": 24567,
        },
        {
            "object": "card",
            "name": "Delver of Secrets // Insectile Aberration",
            "layout": "transform",
            "cmc": 1.0,
            "type_line": "Creature — Human Wizard // Creature — Human Insect",
            "color_identity": ["U"],
            "set": "isd",
            "collector_number": "51",
            "rarity": "common",
            "card_faces": [
                {
                    "name": "Delver of Secrets",
                    "mana_cost": "{U}",
                    "type_line": "Creature — Human Wizard",
                    "oracle_text": "Transform.",
                    "colors": ["U"],
                },
                {
                    "name": "Insectile Aberration",
                    "mana_cost": "",
                    "type_line": "Creature — Human Insect",
                    "oracle_text": "Flying",
                    "colors": ["U"],
                    "color_indicator": ["U"],
                },
            ],
        },
        {
            "object": "card",
            "name": "Bonecrusher Giant // Stomp",
            "layout": "adventure",
            "cmc": 3.0,
            "colors": ["R"],
            "type_line": "Creature — Giant // Instant — Adventure",
            "color_identity": ["R"],
            "set": "eld",
            "collector_number": "115",
            "rarity": "rare",
            "card_faces": [
                {
                    "name": "Bonecrusher Giant",
                    "mana_cost": "{2}{R}",
                    "type_line": "Creature — Giant",
                    "oracle_text": "Whenever...",
                },
                {
                    "name": "Stomp",
                    "mana_cost": "{1}{R}",
                    "type_line": "Instant — Adventure",
                    "oracle_text": "Damage can't be prevented.",
                },
            ],
        },
        {
            "object": "card",
            "name": "Kraum Token",
            "layout": "token",
            "type_line": "Token Creature",
            "set": "tdis",
            "collector_number": "1",
        },
    ]


def write(tmp: Path, name: str, data) -> Path:
    path = tmp / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def mtgo_id_files(tmp: Path, cards) -> list[Path]:
    """MTGJSON set files giving every card an MTGO id (``identifiers.mtgoId``, made up): the CMR cards among
    ``cards`` in a CMR file, the basic lands in a set of their own.  Importing both lets .dek files be written."""
    import zlib

    def entry(card, number):
        return mtgjson_card(
            f"id-{number}",
            card.name,
            number,
            card.front.mana_cost,
            card.front.type_line,
            identity=card.deck_colors.letters,
            colors=card.colors.letters,
            identifiers={"mtgoId": str(zlib.crc32(card.name.encode()) % 900_000 + 100_000)},
        )

    cmr = [entry(card, card.number) for card in dict.fromkeys(cards) if card.set_code == "CMR"]
    basics = [entry(card, str(i)) for i, card in enumerate(dict.fromkeys(c for c in cards if c.set_code == "BASIC"), 1)]
    files = [
        write(tmp, "cmr-ids.json", {"meta": {}, "data": {"code": "CMR", "name": "Commander Legends", "cards": cmr}})
    ]
    if basics:
        files.append(
            write(tmp, "basic-ids.json", {"meta": {}, "data": {"code": "TBL", "name": "Basic lands", "cards": basics}})
        )
    return files


def made_up(name: str) -> str:
    return f"Invented test words for {name}.\nSecond invented line."


def cmr_mtgjson(names=None) -> dict:
    """An MTGJSON set file for CMR: the bundled facts, with made-up rules text."""
    cards = []
    for card in load_set("CMR"):
        if names is not None and card.name not in names:
            continue
        face = card.front
        cards.append(
            {
                "uuid": f"u{card.number}",
                "name": card.name,
                "number": card.number,
                "manaCost": face.mana_cost,
                "type": face.type_line,
                "text": made_up(card.name),
                "colors": list(face.colors.code),
                "rarity": card.rarity.value,
                "layout": "normal",
                "setCode": "CMR",
                "supertypes": list(face.supertypes),
                "types": list(face.types),
                "subtypes": list(face.subtypes),
                "power": face.power,
                "toughness": face.toughness,
            }
        )
    return {"meta": {"version": "5"}, "data": {"code": "CMR", "name": "Commander Legends", "cards": cards}}
