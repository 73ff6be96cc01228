"""The color identity engine (CR 903.4, RULES.md section 4).

``color_identity`` is the rule strictly: mana symbols of the mana cost and
rules text (reminder text ignored, hybrids counting every color they show),
plus color indicators and characteristic-defining colors, over every face
that counts.  ``deck_colors`` adds the colors of basic land types, which is
what a commander must allow for the card to be played (CR 903.5d) and what
MTGJSON and Scryfall publish as ``colorIdentity``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from sets.card_facts import commander_facts, text_copy_limit
from sets.cards import Card, Face, Layout, Rarity, strip_reminder
from sets.colors import ALL_COLORS, COLORLESS, Color, ColorIdentity
from sets.errors import ManaCostError
from sets.mana import ManaCost, text_symbol_colors

BASIC_LAND_TYPES = {"Plains": Color.W, "Island": Color.U, "Swamp": Color.B, "Mountain": Color.R, "Forest": Color.G}

_COLOR_WORD = r"(?:white|blue|black|red|green)"
_SELF_COLOR = re.compile(
    rf"(?:^|(?<=[.\n]))\s*(?P<subject>[^.\n]+?)\s+is\s+(?P<colors>all colors|every color|{_COLOR_WORD}(?:(?:,\s*|\s+)(?:and\s+)?{_COLOR_WORD})*)\s*\.",
    re.IGNORECASE,
)
_SELF_WORDS = ("this card", "this creature", "this permanent", "this spell", "this artifact", "~", "cardname")
_NOT_IDENTITY = re.compile(
    r"(?:doesn['’]t|does not|don['’]t|do not) affect (?:its |this card['’]s |the card['’]s )?color identity", re.I
)


def counted_faces(faces: Sequence[Face], layout: Layout) -> Sequence[Face]:
    """The faces CR 903.4 looks at: all of them, except a meld card's back face."""
    return faces[:1] if layout is Layout.MELD else faces


def _refers_to_itself(subject: str, face: Face) -> bool:
    subject = subject.strip().lower()
    name = face.name.lower()
    if subject in _SELF_WORDS or subject == name:
        return True
    # Legends are often called by the part of their name before the comma.
    return len(subject) >= 3 and name.split(",")[0] == subject


def defined_colors(face: Face) -> ColorIdentity:
    """Colors a face defines for itself: its color indicator and a color-setting CDA.

    A CDA that says it does not affect color identity (Fallaji Wayfarer) adds nothing.
    """
    identity = face.color_indicator or COLORLESS
    if not face.text or _NOT_IDENTITY.search(face.text):
        return identity
    for match in _SELF_COLOR.finditer(strip_reminder(face.text)):
        if not _refers_to_itself(match.group("subject"), face):
            continue
        words = match.group("colors").lower()
        if words in ("all colors", "every color"):
            return ALL_COLORS
        identity |= ColorIdentity.of(Color.parse(word) for word in re.findall(_COLOR_WORD, words))
    return identity


def face_identity(face: Face) -> ColorIdentity:
    """CR 903.4 identity of one face."""
    return text_symbol_colors(face.mana_cost) | text_symbol_colors(strip_reminder(face.text)) | defined_colors(face)


def color_identity(faces: Sequence[Face], layout: Layout = Layout.NORMAL, chosen: Color | None = None) -> ColorIdentity:
    """CR 903.4 color identity of a card made of ``faces``.

    ``chosen`` is the color picked for a commander that asks you to choose one
    before the game (CR 903.4b); it is an input, never guessed here.
    """
    identity = COLORLESS
    for face in counted_faces(faces, layout):
        identity |= face_identity(face)
    if chosen is not None:
        identity |= ColorIdentity.of([chosen])
    return identity


def basic_land_type_colors(faces: Sequence[Face], layout: Layout = Layout.NORMAL) -> ColorIdentity:
    """Colors of the basic land types (Plains W ... Forest G) the card's faces have."""
    return ColorIdentity.of(
        BASIC_LAND_TYPES[subtype]
        for face in counted_faces(faces, layout)
        for subtype in face.subtypes
        if subtype in BASIC_LAND_TYPES
    )


# Mana abilities that can make mana of a color no symbol names: "one mana of any color", "two mana in any
# combination of colors", "mana of the chosen color".  Mana "of any color in your commander's color identity"
# stays inside the identity and asks for nothing.
_ANY_COLOR_MANA = re.compile(
    r"mana of any (?:one )?colou?r(?! in your commander)|in any combination of colou?rs(?! in your commander)|mana of the chosen colou?r",
    re.IGNORECASE,
)


def produced_colors(faces: Sequence[Face], layout: Layout = Layout.NORMAL) -> ColorIdentity:
    """Colors of mana the card's abilities could make beyond the symbols it shows: all five for "any color"."""
    for face in counted_faces(faces, layout):
        if _ANY_COLOR_MANA.search(strip_reminder(face.text)):
            return ALL_COLORS
    return COLORLESS


def basic_type_needs(faces: Sequence[Face], layout: Layout = Layout.NORMAL) -> ColorIdentity:
    """CR 903.5d: what a card with a basic land type needs of the identity: every color of mana it could produce.

    That is the colors of its basic land types, the colors of its mana symbols, and every color when
    an ability can make mana of any color.  A card without a basic land type needs nothing here.
    """
    types = basic_land_type_colors(faces, layout)
    if not types:
        return COLORLESS
    return types | color_identity(faces, layout) | produced_colors(faces, layout)


def deck_colors(faces: Sequence[Face], layout: Layout = Layout.NORMAL) -> ColorIdentity:
    """The colors a commander's identity must include for the card to be allowed."""
    return color_identity(faces, layout) | basic_type_needs(faces, layout)


def basic_type_conflict(card: Card, commander_identity: ColorIdentity) -> ColorIdentity:
    """Colors a card with a basic land type could produce that the commanders' identity lacks (CR 903.5d).

    Read from the card's faces (its rules text when there is any) and from its stored ``deck_colors``
    for a card with a basic land type; empty when the card is fine on this count.
    """
    needs = _basic_type_colors(card)
    return needs - commander_identity if needs else COLORLESS


@lru_cache(maxsize=16384)
def _basic_type_colors(card: Card) -> ColorIdentity:
    """The colors a card's basic land types could make it produce, its ``deck_colors`` beside them (empty for most
    cards: no face has a basic land type), worked out once a card (every deck's check asks it of every card)."""
    if not any(subtype in BASIC_LAND_TYPES for face in card.faces for subtype in face.subtypes):
        return COLORLESS
    needs = basic_type_needs(card.faces, card.layout)
    if needs:
        needs |= card.deck_colors
    return needs


def commander_identity(card: Card, chosen: Color | None = None) -> ColorIdentity:
    """Identity the card gives as a commander, with its chosen color if it asks for one."""
    if chosen is not None and not card.chooses_color:
        raise ValueError(f"{card.name} does not choose a color")
    return card.identity | (ColorIdentity.of([chosen]) if chosen else COLORLESS)


def _mana_value(face: Face) -> float:
    try:
        return ManaCost.parse(face.mana_cost).mana_value
    except ManaCostError:
        return 0  # the importer reports the bad cost; the card still loads


def commander_text_faces(faces: Sequence[Face], layout: Layout) -> tuple[Face, ...]:
    """The faces besides the front whose text counts where a deck is built: a split card's other half (CR 709.4:
    off the stack a split card has both halves' characteristics), never a double-faced card's back face (CR 712.8a:
    off the battlefield and stack it has only its front face's), an adventure or a flip card's other part."""
    return tuple(faces[1:]) if layout is Layout.SPLIT else ()


def make_card(
    faces: Sequence[Face],
    layout: Layout = Layout.NORMAL,
    *,
    name: str | None = None,
    set_code: str = "",
    number: str = "",
    rarity: Rarity = Rarity.COMMON,
    mana_value: float | None = None,
    main_set: bool = True,
    mtgo_id: int | None = None,
    mtgo_foil_id: int | None = None,
    copy_limit: int | None = None,
    commander_legal: bool | None = None,
) -> Card:
    """Build a ``Card`` from its faces, computing identity and commander facts."""
    faces = tuple(faces)
    abilities, partner_with, partner_group = commander_facts(faces[0], *commander_text_faces(faces, layout))
    if mana_value is None:
        mana_value = sum(_mana_value(face) for face in (faces if layout is Layout.SPLIT else faces[:1]))
    if float(mana_value).is_integer():
        mana_value = int(mana_value)
    return Card(
        name=name or " // ".join(face.name for face in faces) if layout is not Layout.MELD else (name or faces[0].name),
        faces=faces,
        identity=color_identity(faces, layout),
        deck_colors=deck_colors(faces, layout),
        layout=layout,
        set_code=set_code,
        number=number,
        rarity=rarity,
        mana_value=mana_value,
        abilities=abilities,
        partner_with=partner_with,
        partner_group=partner_group,
        main_set=main_set,
        mtgo_id=mtgo_id,
        mtgo_foil_id=mtgo_foil_id,
        copy_limit=text_copy_limit(faces) if any(face.text for face in faces) else copy_limit,
        commander_legal=commander_legal,
    )


__all__ = [
    "BASIC_LAND_TYPES",
    "basic_type_needs",
    "produced_colors",
    "basic_land_type_colors",
    "basic_type_conflict",
    "color_identity",
    "commander_identity",
    "deck_colors",
    "defined_colors",
    "face_identity",
    "make_card",
]
