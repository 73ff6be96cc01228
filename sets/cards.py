"""The card model: rarities, layouts, faces, cards, sets of cards, and card names as people type them.

What a card's type line and text say about it as a commander is read in ``sets.card_facts``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum, unique
from functools import lru_cache
from typing import Any

from sets.colors import COLORLESS, ColorIdentity
from sets.errors import InputError, UnknownCardError
from sets.mana import ManaCost
from sets.type_line import NONCREATURE_SUBTYPES
from sets.visible import quoted


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
        raise InputError(f"unknown rarity {quoted(text)}: use common, uncommon, rare, mythic or special")


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
        """Two faces on two sides of one card (CR 712): transforming, modal and meld cards."""
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


# The abilities that let a card lead a deck alone (CR 903.3), and those that let it lead beside another (CR 702.124).
_CHOOSES_COLOR = CommanderAbility.CHOOSES_COLOR  # read once: Python 3.11 reads an Enum member off its class slowly
_LEADS = frozenset(
    {CommanderAbility.LEGENDARY_CREATURE, CommanderAbility.LEGENDARY_VEHICLE, CommanderAbility.CAN_BE_COMMANDER}
)
_PARTNERS = frozenset(
    {
        CommanderAbility.PARTNER,
        CommanderAbility.PARTNER_WITH,
        CommanderAbility.FRIENDS_FOREVER,
        CommanderAbility.CHOOSE_A_BACKGROUND,
        CommanderAbility.DOCTORS_COMPANION,
    }
)


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
    # MTGO gives a foil printing a catalog id of its own (MTGJSON's ``mtgoFoilId``, Scryfall's ``mtgo_foil_id``).
    mtgo_foil_id: int | None = None
    # A deck's most copies of this card by its own text (CR 100.2a, 903.5b); ANY_NUMBER, or None for the format's rule.
    copy_limit: int | None = None
    # Whether constructed Commander admits the card, as its card file says (``commander_legality``): False for
    # Alchemy's rebalanced ``A-`` cards or an Un-card the format doesn't admit; None: the file doesn't say.
    commander_legal: bool | None = None
    _key: tuple[str, str, str] = field(init=False, repr=False)
    # The hash of ``_key`` as a C-level callable (the int's own ``__int__``): ``Card.__hash__`` (after the class) reads
    # it from this slot and calls it, so hashing a card runs no Python frame (a pod hashes cards some 22,000 times).
    _hash: Callable[[], int] = field(init=False, repr=False)
    # Facts the deck builder, the bots and the deck checks ask of every card of a pool, read once here (plain
    # attributes, no property call): a basic land by its front face; whether it can be a commander (CR 903.3: a
    # legendary creature, a legendary Vehicle or Spacecraft with printed power and toughness, the front face's type
    # line deciding, or a card whose text says it can be your commander); whether it chooses a color as it leads
    # (The Prismatic Piper), asked of every commander option.
    is_basic_land: bool = field(init=False, repr=False)
    can_be_commander: bool = field(init=False, repr=False)
    chooses_color: bool = field(init=False, repr=False)

    def __post_init__(self) -> None:
        key = (self.set_code, self.number, self.name)
        object.__setattr__(self, "_key", key)
        object.__setattr__(self, "_hash", hash(key).__int__)
        front = self.faces[0] if self.faces else None
        basic = front is not None and "Basic" in front.supertypes and "Land" in front.types
        object.__setattr__(self, "is_basic_land", basic)
        object.__setattr__(self, "can_be_commander", not self.abilities.isdisjoint(_LEADS))
        object.__setattr__(self, "chooses_color", _CHOOSES_COLOR in self.abilities)

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Card) and self._key == other._key)

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
    def is_legendary(self) -> bool:
        return "Legendary" in self.front.supertypes

    @property
    def has_partner(self) -> bool:
        return not self.abilities.isdisjoint(_PARTNERS)

    def __repr__(self) -> str:
        return f"Card({self.name!r}, set={self.set_code!r}, number={self.number!r})"


# ``hash(card)`` calls ``Card.__hash__`` as found on the class, bound to the card: the ``_hash`` slot's descriptor,
# bound, is the card's stored callable, so the hash is that of ``_key`` with no Python-level call.
Card.__hash__ = Card.__dict__["_hash"]  # type: ignore[method-assign]  # a slot descriptor as the hash on purpose


_REMINDER = re.compile(r"\([^()]*\)")


def strip_reminder(text: str) -> str:
    """Rules text without reminder text (parenthesized), which CR 903.4c ignores."""
    previous = None
    while previous != text:
        previous, text = text, _REMINDER.sub("", text)
    return text


SET_CODE_RULE = "a set code is 2-8 letters or digits, e.g. CMR"
_SET_CODE = re.compile(r"[A-Z0-9]{2,8}", re.ASCII)


def valid_set_code(code: str) -> bool:
    """The one shape of a set code, for every command (an upper-case code; MTGJSON's are 2-6 today)."""
    return bool(_SET_CODE.fullmatch(code))


@lru_cache(maxsize=65536)
def normalize_name(name: str) -> str:
    """Fold case, accents, quotes and spacing so that names match as people type them."""
    if name.isascii():
        plain = name
    else:
        plain = name.translate(_TYPOGRAPHIC).replace("Æ", "Ae").replace("æ", "ae")
        decomposed = unicodedata.normalize("NFKD", plain)
        # accents go, and so do the invisible format characters text copied from a web page carries (a zero-width
        # space, a soft hyphen, a byte order mark): no card's name holds one
        plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch) and unicodedata.category(ch) != "Cf")
    # Split halves as tools write them: "Fire/Ice" (MTGO), "Fire // Ice", "Cut /// Ribbons" (MTG Arena's Amonkhet
    # Remastered cards).
    plain = re.sub(r"\s*/{1,3}\s*", " // ", plain) if "/" in plain else plain
    plain = _PUNCTUATION.sub(" ", plain.replace("'", ""))
    plain = plain.replace("&", " and ") if "&" in plain else plain  # "Minsc & Boo" said "Minsc and Boo"
    return " ".join(plain.casefold().split())


def names_of(card: Card) -> tuple[str, ...]:
    """Every name that names ``card`` as a whole: its own name and, for a card of several faces or halves, each face's
    name (``Stomp``, ``Ormendahl, Profane Prince``, ``Ice``: what Scryfall finds the card by), but a meld card's back
    face, which two cards share and neither is.  Deck files, banned lists and a .cod's commanders all
    name a card by these, so one card is never named one way here and another way there.  Each of them also without
    a leading "The" (``Prismatic Piper``, as players say The Prismatic Piper): ``without_article``."""
    faces = card.faces[:1] if card.layout is Layout.MELD else card.faces
    names = list(dict.fromkeys([card.name, *(face.name for face in faces)])) if len(card.faces) > 1 else [card.name]
    return tuple(dict.fromkeys(names + [short for name in names if (short := without_article(name))]))


def without_article(name: str) -> str | None:
    """``name`` without its leading "The" (``Prismatic Piper``), or None when it has none or leaves four characters
    or fewer (too short to name a card by)."""
    return name[4:] if name[:4].lower() == "the " and len(name) > 8 else None


# What a card's name may be, so that every deck and pool file can hold it and read it back: the longest printed
# name is 141 characters; a control character (or U+FFFD, a byte that wasn't text) is in none.
CARD_NAME_LIMIT = 150
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ufffd]")


def card_name_problem(name: str) -> str | None:
    """Why ``name`` can't be a card's name (a deck file couldn't hold it), or None."""
    if len(name) > CARD_NAME_LIMIT:
        return f"is {len(name):,} characters long, more than any card's {CARD_NAME_LIMIT}"
    found = CONTROL.search(name)
    return None if found is None else f"holds the control character U+{ord(found.group()):04X}"


_PUNCTUATION = re.compile(r"[,.:;!?\"()\-]")
# Typographic quotes, apostrophes, dashes and colons read as their ASCII forms (card data writes a colon inside a
# name as U+A789 MODIFIER LETTER COLON, a letter; people type ":").
_TYPOGRAPHIC = str.maketrans(
    {
        "\ua789": ":",
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
