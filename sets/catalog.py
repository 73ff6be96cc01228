"""Set data on disk: the bundled Commander Legends set and sets the user imported.

Sets are stored in the project's own compact JSON form (facts only, no rules
text): the bundled ones inside this package, imported ones under the user's
data directory (``CMDRAFT_HOME`` overrides it).
"""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Iterable, Iterator
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from sets.cards import Card, CardSet, CommanderAbility, Face, Layout, Rarity, normalize_name
from sets.colors import ColorIdentity
from sets.errors import ImportFormatError, UnknownCardError, UnknownSetError

BUNDLED = ("CMR",)


def user_home() -> Path:
    """Where cmdraft keeps the user's data: ``$CMDRAFT_HOME`` or the platform's data folder."""
    override = os.environ.get("CMDRAFT_HOME")
    if override:
        return Path(override).expanduser()
    from platformdirs import user_data_path

    return user_data_path("cmdraft", appauthor=False)


def imported_dir() -> Path:
    return user_home() / "sets"


# --- the project's own JSON form -------------------------------------------------


def face_to_json(face: Face) -> dict[str, Any]:
    data: dict[str, Any] = {"name": face.name, "mana_cost": face.mana_cost, "type_line": face.type_line}
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
        colors=ColorIdentity.parse(data.get("colors", "")),
        color_indicator=None if indicator is None else ColorIdentity.parse(indicator),
        power=data.get("power"),
        toughness=data.get("toughness"),
        loyalty=data.get("loyalty"),
        defense=data.get("defense"),
    )


def card_to_json(card: Card) -> dict[str, Any]:
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
    data["faces"] = [face_to_json(face) for face in card.faces]
    return data


def card_from_json(data: dict[str, Any], set_code: str) -> Card:
    return Card(
        name=data["name"],
        faces=tuple(face_from_json(face) for face in data["faces"]),
        identity=ColorIdentity.parse(data["identity"]),
        deck_colors=ColorIdentity.parse(data["deck_colors"]),
        layout=Layout(data.get("layout", "normal")),
        set_code=set_code,
        number=str(data["number"]),
        rarity=Rarity(data["rarity"]),
        mana_value=data.get("mana_value", 0),
        abilities=frozenset(CommanderAbility(a) for a in data.get("abilities", ())),
        partner_with=data.get("partner_with"),
        partner_group=data.get("partner_group"),
        main_set=data.get("main_set", True),
        mtgo_id=data.get("mtgo_id"),
    )


def set_to_json(card_set: CardSet) -> dict[str, Any]:
    return {
        "format": "cmdraft-set/1",
        "code": card_set.code,
        "name": card_set.name,
        "cards": [card_to_json(card) for card in card_set.cards],
        "boosters": card_set.boosters,
    }


def set_from_json(data: dict[str, Any], source: str) -> CardSet:
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
        raise ImportFormatError(
            f"set file {source} is damaged ({error!r}): import the set again with 'cmdraft sets import FILE'"
        ) from None


# --- finding sets -------------------------------------------------------------------


def _bundled_text(name: str) -> str:
    return resources.files("sets").joinpath("data", name).read_text(encoding="utf-8")


@cache
def _load_bundled(code: str) -> CardSet:
    card_set = set_from_json(json.loads(_bundled_text(f"{code.lower()}.json")), "bundled")
    boosters = json.loads(_bundled_text(f"{code.lower()}-boosters.json"))
    return CardSet(card_set.code, card_set.name, card_set.cards, boosters, "bundled")


def _imported_path(code: str) -> Path:
    return imported_dir() / f"{code.upper()}.json"


def imported_codes() -> list[str]:
    folder = imported_dir()
    if not folder.is_dir():
        return []
    return sorted(path.stem.upper() for path in folder.glob("*.json"))


def available_codes() -> list[str]:
    return list(BUNDLED) + [code for code in imported_codes() if code not in BUNDLED]


def load_set(code: str) -> CardSet:
    """A set by code, bundled or imported; ``UnknownSetError`` names the codes there are."""
    key = code.strip().upper()
    path = _imported_path(key)
    if path.is_file():
        try:
            return set_from_json(json.loads(path.read_text(encoding="utf-8")), str(path))
        except (OSError, json.JSONDecodeError, UnicodeDecodeError) as error:
            raise ImportFormatError(
                f"imported set {path} cannot be read ({error}): import it again with 'cmdraft sets import FILE'"
            ) from None
    if key in BUNDLED:
        return _load_bundled(key)
    raise UnknownSetError(
        f"unknown set {code!r}: known sets are {', '.join(available_codes())}; "
        "import others with 'cmdraft sets import FILE'"
    )


def save_imported(card_set: CardSet) -> Path:
    """Store an imported set so that it can be loaded by code from now on."""
    path = _imported_path(card_set.code)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(set_to_json(card_set), ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    os.replace(temporary, path)
    return path


# --- finding cards by name ---------------------------------------------------------------


class CardIndex:
    """Cards by name across sets: case, accents and ``A // B`` spelling don't matter.

    A name printed in several sets resolves to the first set given.
    """

    def __init__(self, card_sets: Iterable[CardSet]):
        self._by_name: dict[str, Card] = {}
        self._display: dict[str, str] = {}
        self.sets = tuple(card_sets)
        for card_set in self.sets:
            for card in card_set.cards:
                for alias in self._aliases(card):
                    key = normalize_name(alias)
                    self._by_name.setdefault(key, card)
                    self._display.setdefault(key, card.name)

    @staticmethod
    def _aliases(card: Card) -> list[str]:
        names = [card.name]
        if len(card.faces) > 1:
            names += [face.name for face in card.faces]
        # "Prismatic Piper" for "The Prismatic Piper": players drop a leading article
        names += [name[4:] for name in names if name[:4].lower() == "the " and len(name) > 8]
        return names

    def get(self, name: str) -> Card | None:
        return self._by_name.get(normalize_name(name))

    def find(self, name: str) -> Card:
        """The card called ``name``, or ``UnknownCardError`` with the closest names."""
        card = self.get(name)
        if card is None:
            raise UnknownCardError(name, self.suggest(name))
        return card

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        key = normalize_name(name)
        # names the text starts (a name before its comma: "Jeska" for "Jeska, Thrice Reborn") come first
        starts = sorted((k for k in self._display if k.startswith(key + " ") or k == key), key=len) if key else []
        close = starts + difflib.get_close_matches(key, self._display.keys(), n=limit, cutoff=0.6)
        if not close:
            close = [k for k in self._display if k.startswith(key[:4])][:limit] if len(key) >= 4 else []
        names: list[str] = []
        for k in close:
            if self._display[k] not in names:
                names.append(self._display[k])
        return names[:limit]

    def __contains__(self, name: str) -> bool:
        return self.get(name) is not None

    def __iter__(self) -> Iterator[Card]:
        seen: set[Card] = set()
        for card in self._by_name.values():
            if card not in seen:
                seen.add(card)
                yield card


def card_index(codes: Iterable[str] | None = None) -> CardIndex:
    """A name index over the given sets (default: every bundled and imported set).

    The basic lands are always known.
    """
    from sets.basics import basic_lands

    chosen = [load_set(code) for code in (codes if codes is not None else available_codes())]
    return CardIndex([*chosen, basic_lands()])
