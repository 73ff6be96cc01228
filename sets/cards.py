"""The card model: rarities, layouts, faces, cards and their commander facts."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum, unique
from functools import lru_cache
from typing import Any

from sets.colors import COLORLESS, ColorIdentity
from sets.errors import InputError, UnknownCardError
from sets.mana import ManaCost


@unique
class Rarity(StrEnum):
    COMMON = "common"
    UNCOMMON = "uncommon"
    RARE = "rare"
    MYTHIC = "mythic"
    SPECIAL = "special"
    BONUS = "bonus"

    @property
    def letter(self) -> str:
        return "B" if self is Rarity.BONUS else self.value[0].upper()

    @classmethod
    def parse(cls, text: str) -> Rarity:
        key = text.strip().lower()
        for rarity in cls:
            if key in (rarity.value, rarity.letter.lower()):
                return rarity
        if key in ("mythic rare", "timeshifted"):
            return cls.MYTHIC if key == "mythic rare" else cls.SPECIAL
        raise InputError(f"unknown rarity {text!r}: use common, uncommon, rare, mythic or special")


@unique
class Layout(StrEnum):
    NORMAL = "normal"
    SPLIT = "split"
    ADVENTURE = "adventure"
    TRANSFORM = "transform"
    MODAL_DFC = "modal_dfc"
    MELD = "meld"
    FLIP = "flip"
    PROTOTYPE = "prototype"

    @classmethod
    def parse(cls, text: str | None) -> Layout:
        """Map MTGJSON and Scryfall layout names onto the layouts that matter here."""
        key = (text or "normal").strip().lower().replace("-", "_")
        return _LAYOUT_ALIASES.get(key) or next((layout for layout in cls if layout.value == key), cls.NORMAL)

    @property
    def double_faced(self) -> bool:
        return self in (Layout.TRANSFORM, Layout.MODAL_DFC, Layout.MELD)


_LAYOUT_ALIASES = {
    "aftermath": Layout.SPLIT,
    "modaldfc": Layout.MODAL_DFC,
    "double_faced_token": Layout.TRANSFORM,
    "reversible_card": Layout.MODAL_DFC,
}


@unique
class CommanderAbility(StrEnum):
    """Facts about a card that decide whether and how it can lead a deck."""

    LEGENDARY_CREATURE = "legendary-creature"
    # CR 903.3: a legendary Vehicle or Spacecraft card with printed power and toughness.
    LEGENDARY_VEHICLE = "legendary-vehicle"
    CAN_BE_COMMANDER = "can-be-commander"
    PARTNER = "partner"
    PARTNER_WITH = "partner-with"
    FRIENDS_FOREVER = "friends-forever"
    CHOOSE_A_BACKGROUND = "choose-a-background"
    BACKGROUND = "background"
    DOCTORS_COMPANION = "doctors-companion"
    TIME_LORD_DOCTOR = "time-lord-doctor"
    CHOOSES_COLOR = "chooses-color"


SUPERTYPES = frozenset({"Basic", "Legendary", "Snow", "World", "Ongoing", "Host", "Elite"})
CARD_TYPES = frozenset(
    {
        "Artifact",
        "Battle",
        "Conspiracy",
        "Creature",
        "Dungeon",
        "Enchantment",
        "Instant",
        "Kindred",
        "Land",
        "Phenomenon",
        "Plane",
        "Planeswalker",
        "Scheme",
        "Sorcery",
        "Tribal",
        "Vanguard",
        "Emblem",
        "Hero",
    }
)
_MULTIWORD_SUBTYPES = ("Time Lord",)
BASIC_LAND_NAMES = frozenset({"Plains", "Island", "Swamp", "Mountain", "Forest", "Wastes"})
# The subtypes a creature card may carry beside its creature types, by the card type they belong to
# (CR 205.3g artifact types, 205.3h enchantment types, 205.3i land types).
NONCREATURE_SUBTYPES = {
    "Artifact": frozenset(
        {
            "Attraction",
            "Blood",
            "Bobblehead",
            "Clue",
            "Contraption",
            "Equipment",
            "Food",
            "Fortification",
            "Gold",
            "Incubator",
            "Junk",
            "Lander",
            "Map",
            "Powerstone",
            "Spacecraft",
            "Treasure",
            "Vehicle",
        }
    ),
    "Enchantment": frozenset(
        {"Aura", "Background", "Cartouche", "Case", "Class", "Curse", "Role", "Room", "Rune", "Saga", "Shard", "Shrine"}
    ),
    "Land": frozenset(
        {
            "Cave",
            "Desert",
            "Forest",
            "Gate",
            "Island",
            "Lair",
            "Locus",
            "Mine",
            "Mountain",
            "Plains",
            "Planet",
            "Power-Plant",
            "Sphere",
            "Swamp",
            "Tower",
            "Town",
            "Urza's",
        }
    ),
}


def parse_type_line(type_line: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Split ``Legendary Creature — Time Lord Doctor`` into supertypes, types, subtypes."""
    head, _, tail = type_line.replace(" - ", " — ").partition("—")
    words = head.split()
    supertypes = tuple(w for w in words if w in SUPERTYPES)
    types = tuple(w for w in words if w not in SUPERTYPES)
    tail = tail.strip()
    subtypes: list[str] = []
    for name in _MULTIWORD_SUBTYPES:
        if name in tail:
            subtypes.append(name)
            tail = tail.replace(name, " ")
    subtypes.extend(tail.split())
    return supertypes, types, tuple(subtypes)


@dataclass(frozen=True, slots=True)
class Face:
    """One face (or half) of a card.  Single-faced cards have one."""

    name: str
    mana_cost: str = ""
    type_line: str = ""
    supertypes: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    text: str = ""
    colors: ColorIdentity = COLORLESS
    color_indicator: ColorIdentity | None = None
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    defense: str | None = None

    @property
    def cost(self) -> ManaCost:
        return ManaCost.parse(self.mana_cost)

    @property
    def is_legendary_creature(self) -> bool:
        return "Legendary" in self.supertypes and "Creature" in self.types

    @property
    def creature_types(self) -> tuple[str, ...]:
        """The subtypes that are creature types (a creature's artifact, enchantment and land types left out)."""
        if "Creature" not in self.types:
            return ()
        other = frozenset().union(*(NONCREATURE_SUBTYPES.get(card_type, ()) for card_type in self.types))
        return tuple(subtype for subtype in self.subtypes if subtype not in other)


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A card as a deck sees it: its faces plus the facts decided from them.

    ``identity`` is CR 903.4's color identity; ``deck_colors`` adds the colors
    of its basic land types (what a commander needs to allow the card, and what
    MTGJSON and Scryfall publish as ``colorIdentity``).
    Two cards are equal when set, number and name agree.
    """

    name: str
    faces: tuple[Face, ...]
    identity: ColorIdentity
    deck_colors: ColorIdentity
    layout: Layout = Layout.NORMAL
    set_code: str = ""
    number: str = ""
    rarity: Rarity = Rarity.COMMON
    mana_value: float = 0
    abilities: frozenset[CommanderAbility] = frozenset()
    partner_with: str | None = None
    partner_group: str | None = None
    main_set: bool = True
    mtgo_id: int | None = None
    # A deck's most copies of this card by its own text (CR 100.2a, 903.5b); ANY_NUMBER, or None for the format's rule.
    copy_limit: int | None = None
    _key: tuple[str, str, str] = field(init=False, repr=False)
    _hash: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        key = (self.set_code, self.number, self.name)
        object.__setattr__(self, "_key", key)
        object.__setattr__(self, "_hash", hash(key))

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Card) and self._key == other._key)

    def __hash__(self) -> int:
        return self._hash

    @property
    def front(self) -> Face:
        return self.faces[0]

    @property
    def type_line(self) -> str:
        return (
            " // ".join(face.type_line for face in self.faces)
            if self.layout in (Layout.SPLIT, Layout.ADVENTURE, Layout.MODAL_DFC, Layout.TRANSFORM, Layout.FLIP)
            and len(self.faces) > 1
            else self.front.type_line
        )

    @property
    def mana_cost(self) -> str:
        costs = [face.mana_cost for face in self.faces if face.mana_cost]
        if self.layout in (Layout.SPLIT, Layout.ADVENTURE) and len(costs) > 1:
            return " // ".join(costs)
        return self.front.mana_cost

    @property
    def colors(self) -> ColorIdentity:
        return self.front.colors

    @property
    def types(self) -> tuple[str, ...]:
        return self.front.types

    def has_type(self, card_type: str) -> bool:
        return card_type in self.front.types

    @property
    def is_land(self) -> bool:
        return "Land" in self.front.types

    @property
    def is_basic_land(self) -> bool:
        return "Basic" in self.front.supertypes and "Land" in self.front.types

    @property
    def is_legendary(self) -> bool:
        return "Legendary" in self.front.supertypes

    @property
    def can_be_commander(self) -> bool:
        """CR 903.3: a legendary creature, a legendary Vehicle or Spacecraft with printed power and toughness
        (the front face's type line decides), or a card whose text says it can be your commander."""
        return bool(
            self.abilities
            & {
                CommanderAbility.LEGENDARY_CREATURE,
                CommanderAbility.LEGENDARY_VEHICLE,
                CommanderAbility.CAN_BE_COMMANDER,
            }
        )

    @property
    def has_partner(self) -> bool:
        return bool(
            self.abilities
            & {
                CommanderAbility.PARTNER,
                CommanderAbility.PARTNER_WITH,
                CommanderAbility.FRIENDS_FOREVER,
                CommanderAbility.CHOOSE_A_BACKGROUND,
                CommanderAbility.DOCTORS_COMPANION,
            }
        )

    @property
    def chooses_color(self) -> bool:
        return CommanderAbility.CHOOSES_COLOR in self.abilities

    def __repr__(self) -> str:
        return f"Card({self.name!r}, set={self.set_code!r}, number={self.number!r})"


_REMINDER = re.compile(r"\([^()]*\)")


def strip_reminder(text: str) -> str:
    """Rules text without reminder text (parenthesized), which CR 903.4c ignores."""
    previous = None
    while previous != text:
        previous, text = text, _REMINDER.sub("", text)
    return text


# Facts decided by the type line alone: a stored card gets them again from its stored types.
TYPE_FACTS = frozenset(
    {
        CommanderAbility.LEGENDARY_CREATURE,
        CommanderAbility.LEGENDARY_VEHICLE,
        CommanderAbility.BACKGROUND,
        CommanderAbility.TIME_LORD_DOCTOR,
    }
)
# The artifact subtypes whose legendary cards may lead a deck when they have printed power and toughness (CR 903.3).
COMMANDER_VEHICLE_TYPES = frozenset({"Vehicle", "Spacecraft"})
# "A deck can have any number of cards named ..." (copy_limit).
ANY_NUMBER = 1_000_000


def _printed(value: str | None) -> bool:
    return value is not None and value.strip() != ""


def type_facts(face: Face) -> frozenset[CommanderAbility]:
    """Commander facts of a front face's type line (and printed power and toughness)."""
    facts = set()
    if face.is_legendary_creature:
        facts.add(CommanderAbility.LEGENDARY_CREATURE)
        # CR 702.124m: Doctor's companion pairs with a legendary Time Lord Doctor creature with no other creature types.
        if sorted(face.creature_types) == ["Doctor", "Time Lord"]:
            facts.add(CommanderAbility.TIME_LORD_DOCTOR)
    elif (
        "Legendary" in face.supertypes
        and COMMANDER_VEHICLE_TYPES & set(face.subtypes)
        and _printed(face.power)
        and _printed(face.toughness)
    ):
        facts.add(CommanderAbility.LEGENDARY_VEHICLE)
    # CR 702.124k: "Choose a Background" pairs with a *legendary* Background enchantment card.
    if "Background" in face.subtypes and "Enchantment" in face.types and "Legendary" in face.supertypes:
        facts.add(CommanderAbility.BACKGROUND)
    return frozenset(facts)


def _plain_text(text: str) -> str:
    return strip_reminder(text).replace("’", "'").replace("‘", "'").replace("–", "—")


_CREATURE_OFF_BATTLEFIELD = re.compile(
    r"\bas long as [^.]+? (?:isn't|is not) on the battlefield, it's an? [^.]*?\bcreature\b", re.IGNORECASE
)
_DASHED = re.compile(r"^partner\s*(?:—|-{1,2})\s*(?P<group>.+)$", re.IGNORECASE)
_FRIENDS_FOREVER = "friends forever"
# Keywords that may share a line with others ("Flying, partner"); the ones that take words stand alone.
_LIST_KEYWORDS = {
    "partner": CommanderAbility.PARTNER,
    _FRIENDS_FOREVER: CommanderAbility.FRIENDS_FOREVER,
    "doctor's companion": CommanderAbility.DOCTORS_COMPANION,
    "choose a background": CommanderAbility.CHOOSE_A_BACKGROUND,
}


def commander_facts(face: Face, *other_faces: Face) -> tuple[frozenset[CommanderAbility], str | None, str | None]:
    """Commander abilities of a card: (abilities, partner-with name, partner group).

    The front face's type line and keywords decide; the text "can be your commander" counts on
    ``other_faces`` too (the faces a card has besides the front: a split card's other half, a DFC's back).
    Partner abilities follow CR 702.124: Partner, Partner—GROUP, Partner with NAME, Friends forever (also
    printed "Partner—Friends forever": the same ability), Choose a Background, Doctor's companion.
    """
    abilities: set[CommanderAbility] = set(type_facts(face))
    partner_with = partner_group = None
    text = _plain_text(face.text)
    if any("can be your commander" in _plain_text(f.text).lower() for f in (face, *other_faces)):
        abilities.add(CommanderAbility.CAN_BE_COMMANDER)
    if "Legendary" in face.supertypes and _CREATURE_OFF_BATTLEFIELD.search(text):
        # A legendary card that is a creature wherever it isn't on the battlefield (Grist's "As long as
        # NAME isn't on the battlefield, it's a 1/1 Insect creature") is a legendary creature card in the
        # command zone, which is what CR 903.3 asks of a commander.
        abilities.add(CommanderAbility.CAN_BE_COMMANDER)
    if "choose a color before the game begins" in text.lower():
        abilities.add(CommanderAbility.CHOOSES_COLOR)
    for raw_line in text.splitlines():
        line = " ".join(raw_line.split()).rstrip(".").strip()
        low = line.lower()
        dashed = _DASHED.match(line)
        if low.startswith("partner with "):
            abilities.add(CommanderAbility.PARTNER_WITH)
            partner_with = line[len("partner with ") :].strip()
        elif dashed:
            group = dashed.group("group").strip()
            if group.lower() == _FRIENDS_FOREVER:
                abilities.add(CommanderAbility.FRIENDS_FOREVER)
            else:
                abilities.add(CommanderAbility.PARTNER)
                partner_group = group
        else:
            for word in (part.strip() for part in low.split(",")):
                if word in _LIST_KEYWORDS:
                    abilities.add(_LIST_KEYWORDS[word])
    return frozenset(abilities), partner_with, partner_group


_NUMBER_WORDS = {
    word: n
    for n, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen".split()
    )
}
_COPY_LIMIT = re.compile(r"a deck can have (?P<limit>any number of|up to (?P<n>\w+)) cards named ", re.IGNORECASE)


def text_copy_limit(faces: tuple[Face, ...] | list[Face]) -> int | None:
    """The copy limit a card's own text sets (CR 100.2a, 903.5b): ANY_NUMBER, N for "up to N", else None."""
    for face in faces:
        found = _COPY_LIMIT.search(_plain_text(face.text))
        if found:
            if found.group("n") is None:
                return ANY_NUMBER
            word = found.group("n").lower()
            if word.isdigit():
                return int(word)
            if word in _NUMBER_WORDS:
                return _NUMBER_WORDS[word]
    return None


@lru_cache(maxsize=65536)
def normalize_name(name: str) -> str:
    """Fold case, accents, quotes and spacing so that names match as people type them."""
    if name.isascii():
        plain = name
    else:
        plain = name.translate(_TYPOGRAPHIC).replace("Æ", "Ae").replace("æ", "ae")
        decomposed = unicodedata.normalize("NFKD", plain)
        plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    plain = re.sub(r"\s*//?\s*", " // ", plain) if "/" in plain else plain
    plain = _PUNCTUATION.sub(" ", plain.replace("'", ""))
    return " ".join(plain.casefold().split())


_PUNCTUATION = re.compile(r"[,.:;!?\"()\-]")
# Typographic quotes, apostrophes and dashes read as their ASCII forms.
_TYPOGRAPHIC = str.maketrans(
    {
        "’": "'",
        "‘": "'",
        "‚": "'",
        "‛": "'",
        "′": "'",
        "“": '"',
        "”": '"',
        "„": '"',
        "‟": '"',
        "″": '"',
        "«": '"',
        "»": '"',
        "–": "-",
        "—": "-",
        "‐": "-",
        "‑": "-",
    }
)


@dataclass(frozen=True, slots=True, eq=False)
class CardSet:
    """A set's cards and booster definitions (raw spec dicts by booster type)."""

    code: str
    name: str
    cards: tuple[Card, ...]
    boosters: dict[str, dict[str, Any]] = field(default_factory=dict)
    source: str = "bundled"
    by_number: dict[str, Card] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_number", {card.number: card for card in self.cards})

    def card(self, number: str) -> Card:
        try:
            return self.by_number[str(number)]
        except KeyError:
            raise UnknownCardError(f"{self.code} #{number}") from None

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)
