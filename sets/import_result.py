"""What reading a card file gives (``ImportResult``) and the pieces every reader shares: faces, rarities,
the identity a file publishes, a checked mana cost."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sets.cards import Card, CardSet, Face, Rarity, card_name_problem
from sets.colors import COLORLESS, ColorIdentity
from sets.errors import ImportFormatError, InputError, ManaCostError
from sets.mana import ManaCost, known_part
from sets.type_line import parse_type_line
from sets.visible import quoted

FORMAT_HINT = "give an MTGJSON set file, an MTGJSON AtomicCards file or a Scryfall card array"
# Layouts of printed things no deck holds, as MTGJSON and Scryfall name them: tokens, emblems, art series cards (which
# bear a real card's name), and the oversized cards of Planechase, Archenemy and Vanguard.  Every reader skips them.
NOT_DECK_CARDS = frozenset({"token", "double_faced_token", "emblem", "art_series", "planar", "scheme", "vanguard"})


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
        """The card read; a name no deck file could hold (a control character, past ``CARD_NAME_LIMIT``) refuses
        the whole file: it is no card file to trust (a set's boosters name its cards, so none is left out)."""
        for name in dict.fromkeys([card.name, *(face.name for face in card.faces)]):
            problem = card_name_problem(name)
            if problem:
                raise ImportFormatError(
                    f"{quoted(self.source)}: the card name {quoted(name[:60] + ('…' if len(name) > 60 else ''))} "
                    f"{problem}; no deck file could hold it, so nothing was imported: check where the file came from"
                )
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


def published_identity(letters: Any) -> ColorIdentity | None:
    if letters is None:
        return None
    if isinstance(letters, str):
        return ColorIdentity.parse(letters)
    if all(isinstance(entry, str) for entry in letters):  # ["R", "W"], or as some plain lists write it, ["RW"]
        return ColorIdentity.parse(" ".join(letters))
    return ColorIdentity.of(letters)


def checked_cost(cost: str | None, label: str, result: ImportResult) -> str:
    """A face's cost as the card keeps it.  A symbol cmdraft doesn't know (card data holds odd ones: ``{TK}``) is
    left out and named in the result's problems, the card kept (its mana value is the file's where the file gives
    one); a cost that is not brace notation refuses the file."""
    cost = (cost or "").strip()
    try:
        ManaCost.parse(cost)
    except ManaCostError as error:
        try:
            kept, unknown = known_part(cost)
        except ManaCostError:
            raise ManaCostError(
                f"{result.source}: card {quoted(label)} has a {error}; fix the file or download it again"
            ) from None
        result.problems.append(
            f"{result.source}: card {quoted(label)} has a mana symbol cmdraft doesn't know, {', '.join(unknown)}, "
            f"in its cost {quoted(cost)}: the card is kept with the cost {quoted(str(kept))}, without it (it adds "
            "no color; the mana value is the file's where it gives one)"
        )
        return str(kept)
    return cost


def card_face(
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
        mana_cost=checked_cost(cost, name, result),
        type_line=type_line,
        supertypes=tuple(supertypes or ()),
        types=tuple(types or ()),
        subtypes=tuple(subtypes or ()),
        text=text or "",
        colors=published_identity(colors) or COLORLESS,
        color_indicator=published_identity(indicator),
        power=None if power is None else str(power),
        toughness=None if toughness is None else str(toughness),
        loyalty=None if loyalty is None else str(loyalty),
        defense=None if defense is None else str(defense),
    )


def rarity_of(text: Any) -> Rarity:
    try:
        return Rarity.parse(str(text or "common"))
    except InputError:
        return Rarity.SPECIAL


PLAIN_FIELDS = {"cost": "mana_cost", "type_line": "type_line", "indicator": "color_indicator"}


def face_from(obj: dict[str, Any], result: ImportResult, fields: dict[str, str], name: str) -> Face:
    """A face from a flat card object (MTGJSON or a plain list); ``fields`` names the keys that differ."""
    return card_face(
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


# What a card file's legalities say of a format that admits the card: legal, or banned (the banned list decides bans).
_ADMITTED = frozenset({"legal", "banned", "restricted"})


def commander_legality(legalities: Any, acorn: bool = False) -> bool | None:
    """Whether constructed Commander admits a card, as its file says: never an acorn-stamped Un-card; else the
    file's ``legalities`` for ``commander``, which are the card's, whatever the printing (MTGJSON leaves out a format
    that doesn't admit the card, and gives an Un-card no legalities at all; Scryfall writes ``not_legal``: so
    Alchemy's rebalanced ``A-`` cards are out, while an online-only printing of a paper card is in).  None when the
    file gives no legalities field."""
    if acorn:
        return False
    if not isinstance(legalities, dict):
        return None
    return str(legalities.get("commander") or "").lower() in _ADMITTED


def same_card_both_sides(layout: Any, face_names: list[Any]) -> bool:
    """A reversible printing (Secret Lair) shows one card on both sides: it is that card, once."""
    return layout == "reversible_card" and len(face_names) > 1 and len(set(face_names)) == 1
