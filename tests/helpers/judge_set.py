"""A small MTGJSON set file of made-up cards (code JDG) for the judge's audit of deck verdicts
(tests/draft/test_judge_verdicts.py): each card has the shape of a real one that trips a rule (a Background, a
legend that chooses one, a snow basic, a land with a basic land type), with invented names and text; only facts
(costs, types, keyword lines, mana symbols), no rules text copied from a card."""

from __future__ import annotations

from pathlib import Path

from sets.card_index import CardIndex
from tests.helpers.cardfiles import mtgjson_card, write

CODE = "JDG"
CHOOSER = "Ysmir, Keeper of Ash"  # a black legend with "Choose a Background"
BACKGROUND = "Tutored by Wyrms"  # a red legendary Background
PLAIN_LEGEND = "Orla of the Lowmarch"  # a green legend with no partner ability
RED_SPELL = "Cinderwake Volley"
GREEN_SPELL = "Mossback Herder"
BLUE_SPELL = "Tidecaller's Query"
TYPED_LAND = "Fenmarsh Hollow"  # Land — Swamp Forest: needs B and G (CR 903.5d)


def _cards() -> list[dict]:
    made = [
        (
            CHOOSER,
            "{2}{B}",
            "Legendary Creature — Human Warlock",
            "Menace\nChoose a Background (invented reminder.)",
            "B",
        ),
        (BACKGROUND, "{1}{R}", "Legendary Enchantment — Background", "Commander creatures you own get +1/+0.", "R"),
        (PLAIN_LEGEND, "{3}{G}", "Legendary Creature — Elf Druid", "Reach", "G"),
        (RED_SPELL, "{1}{R}", "Instant", "Invented words.", "R"),
        (GREEN_SPELL, "{2}{G}", "Creature — Elf", "Invented words.", "G"),
        (BLUE_SPELL, "{1}{U}", "Sorcery", "Invented words.", "U"),
        (TYPED_LAND, "", "Land — Swamp Forest", "({T}: Add {B} or {G}.)", ""),
    ]
    return [
        mtgjson_card(
            f"jdg-{number}",
            name,
            str(number),
            cost,
            type_line,
            text,
            colors,
            identity="BG" if name == TYPED_LAND else colors,
            rarity="rare",
            setCode=CODE,
        )
        for number, (name, cost, type_line, text, colors) in enumerate(made, start=1)
    ]


def judge_set_file(folder: Path) -> Path:
    """The JDG set file, written in ``folder``."""
    return write(
        folder, "jdg.json", {"meta": {"version": "5.2.2"}, "data": {"code": CODE, "name": "Judge", "cards": _cards()}}
    )


def judge_index(folder: Path) -> CardIndex:
    """The JDG cards and the basic lands by name, read from the file (no data folder needed)."""
    from sets.basics import basic_lands
    from sets.importers import read_card_file

    return CardIndex([*read_card_file(judge_set_file(folder)).card_sets(), basic_lands()])
