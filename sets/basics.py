"""The basic lands, known by name in every deck file whatever sets are loaded."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from sets.cards import Card, CardSet, Face, Layout, Rarity
from sets.colors import ColorIdentity
from sets.errors import InputError
from sets.identity import BASIC_LAND_TYPES
from sets.userdata import kept_mtgo_ids, pinned
from sets.visible import quoted

_BASICS = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G", "Wastes": ""}


def _basic(name: str, snow: bool = False) -> Card:
    subtype = (name,) if name in BASIC_LAND_TYPES else ()
    supertypes = ("Basic", "Snow") if snow else ("Basic",)
    full = f"Snow-Covered {name}" if snow else name
    type_line = " ".join(supertypes) + " Land" + (f" — {name}" if subtype else "")
    face = Face(full, "", type_line, supertypes, ("Land",), subtype)
    return Card(
        full,
        (face,),
        ColorIdentity.parse(""),
        ColorIdentity.parse(_BASICS[name]),
        Layout.NORMAL,
        "BASIC",
        full.lower().replace(" ", "-"),
        Rarity.COMMON,
        0,
    )


BASIC_NAMES = frozenset([*_BASICS, *(f"Snow-Covered {name}" for name in _BASICS if name != "Wastes")])


def basic_lands() -> CardSet:
    """The basic lands, each with the MTGO id an imported card file gave for its name (``keep_texts``); looked up
    once per ``one_reading`` block (``sets.userdata``)."""
    return pinned("basics", lambda: _basic_lands(*(tuple(sorted(ids.items())) for ids in kept_mtgo_ids("BASIC"))))


@cache
def _basic_lands(ids: tuple[tuple[str, int], ...], foil_ids: tuple[tuple[str, int], ...] = ()) -> CardSet:
    known, foils = dict(ids), dict(foil_ids)
    cards = [_basic(name) for name in _BASICS] + [_basic(name, snow=True) for name in _BASICS if name != "Wastes"]
    cards = [replace(card, mtgo_id=known.get(card.name), mtgo_foil_id=foils.get(card.name)) for card in cards]
    return CardSet("BASIC", "Basic lands", tuple(cards), {}, "built in")


def basic_land(color_letter: str) -> Card:
    """The basic land that makes mana of this color (``""`` for Wastes)."""
    return basic_lands().by_number[_NAME_OF[color_letter]]


_NAME_OF = {letter: name.lower() for name, letter in _BASICS.items()}


def basic_land_color(text: str) -> str:
    """The color letter of a free basic land as a person or a page sends it (``W``, ``U``, ``B``, ``R``, ``G``,
    or ``C`` for Wastes, in either case): the letter ``basic_land`` takes (``""`` for Wastes)."""
    letter = text.strip().upper()
    if len(letter) != 1 or letter not in "WUBRGC":
        raise InputError(f"unknown basic land color {quoted(text)}: send one of W, U, B, R, G or C (Wastes)")
    return "" if letter == "C" else letter
