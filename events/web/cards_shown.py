"""Cards as the pages draw them (``answers.Card``), worked out once a card object and encoded once a place: a
card's facts, a pack's cards as it stands, the image a card has on this server."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from msgspec import UNSET
from msgspec.structs import replace

from draft.commanders import may_ever_lead
from events.web import answers
from events.web.settings import CARDS_KEPT, PACKS_KEPT, PRINTINGS_KEPT
from sets.booster import Printing
from sets.cards import Card
from sets.images import image_of

EMPTY = msgspec.Raw(b"[]")  # an empty list of cards, already encoded
_encode = msgspec.json.Encoder().encode
# see card_json: (id of the card, foil) -> what is kept of that card object (``_Kept``)
_CARDS_JSON: dict[tuple[int, bool], _Kept] = {}
_AT = b',"id":0,'  # where a card's encoded facts say its place (the only unescaped quote before ``id``: a key's)


@dataclass(eq=False)
class _Kept:
    """One card object's page facts worked out (the card kept too, so its id names no other card while here): the
    facts, their encoding cut where the place goes (``head`` + place + ``tail``), and at each place shown so far,
    the facts and their encoding."""

    card: Card
    facts: answers.Card
    head: bytes
    tail: bytes
    placed: dict[int, answers.Card] = field(default_factory=dict)
    encoded: dict[int, bytes] = field(default_factory=dict)


def card_json(card: Card, index: int, foil: bool = False) -> answers.Card:
    """One card as the page draws it: facts only, and the rules text when it was imported (read only: the same
    dictionary is given to every state that shows this card at this place).  A card never changes (frozen): a set
    read again (a card corrected, a text imported) makes new card objects, so what was worked out is kept with
    the very card object (and the card with it, so its id names no other card while it is here), and a new one
    is worked out anew.  The facts are worked out once a card (its image looked up once), whatever places it is
    shown at as its pack shrinks."""
    kept = _kept(card, foil)
    placed = kept.placed.get(index)
    if placed is None:
        placed = kept.placed[index] = replace(kept.facts, id=index)
    return placed


def card_bytes(card: Card, index: int, foil: bool = False) -> bytes:
    """``card_json`` encoded, once a card and place: the card's facts encoded once, its place put in (a pack's
    cards move up a place or two with every pick: each place is a few bytes, not the card encoded again)."""
    kept = _kept(card, foil)
    encoded = kept.encoded.get(index)
    if encoded is None:
        if kept.head:
            encoded = kept.head + str(index).encode() + kept.tail
        else:  # no place found in the encoding (never so for ``answers.Card``): encoded whole
            encoded = _encode(card_json(card, index, foil))
        kept.encoded[index] = encoded
    return encoded


def _kept(card: Card, foil: bool) -> _Kept:
    kept = _CARDS_JSON.get((id(card), foil))
    if kept is None or kept.card is not card:
        if len(_CARDS_JSON) > CARDS_KEPT:
            _CARDS_JSON.clear()
        kept_image = image_of(card)
        facts = answers.Card(
            name=card.name,
            cost=card.mana_cost,
            mana_value=card.mana_value,
            type=card.type_line,
            rarity=card.rarity.letter,
            identity=card.identity.code,
            colors=card.colors.code,
            text=[face.text for face in card.faces if face.text] or None,
            id=0,
            foil=foil,
            leads=may_ever_lead(card),
            image=UNSET if kept_image is None else image_address(card, kept_image[0]),
            artist=UNSET if kept_image is None else kept_image[1],
        )
        head, at, tail = _encode(facts).partition(_AT)
        kept = _CARDS_JSON[id(card), foil] = _Kept(card, facts, head + _AT[:-2] if at else b"", b"," + tail)
    return kept


def forget_cards() -> None:
    """Work every card out anew (a server starting: images may have been downloaded since)."""
    _CARDS_JSON.clear()
    _PACKS_JSON.clear()
    _PRINTED.clear()


# see pack_json: id of a pack's list of cards -> (that very list, kept so its id is not reused; its cards encoded)
_PACKS_JSON: dict[int, tuple[list[Printing], msgspec.Raw]] = {}
# see pack_json: id of a printing in a pack -> (the printing, kept so its id names no other; its card's encoding cut
# where the place goes: ``_Kept.head`` and ``tail``)
_PRINTED: dict[int, tuple[Printing, bytes, bytes]] = {}
_PLACES = [str(place).encode() for place in range(64)]  # a pack's places, as the encoding writes them


def remember_printings(printings: Iterable[Printing]) -> None:
    """Each printing's card found and kept for ``pack_json`` now (a server starting: every booster of its live
    drafts, so a pack's opening finds its cards worked out)."""
    for printing in printings:
        found = _PRINTED.get(id(printing))
        if found is None or found[0] is not printing:
            card = _kept(printing.card, printing.foil or printing.etched)
            _PRINTED[id(printing)] = (printing, card.head, card.tail)


def pack_json(cards: list[Printing]) -> msgspec.Raw:
    """A pack's cards as JSON, encoded once for every state that shows this pack as it stands.  A pick never
    changes a pack's list of cards: it gives the pack a new list (``Draft.pick``), so the list itself is the key
    (and the list is kept with its encoding, so its id names no other list while it is here).  Each printing's
    card is found once a pack (by the printing itself, not its card and finish), then put at its new place."""
    kept = _PACKS_JSON.get(id(cards))
    if kept is None or kept[0] is not cards:
        if len(_PACKS_JSON) > PACKS_KEPT:
            _PACKS_JSON.clear()
        if len(_PRINTED) > PRINTINGS_KEPT:
            _PRINTED.clear()
        parts = [b"[", *placed(cards), b"]"]
        kept = _PACKS_JSON[id(cards)] = (cards, msgspec.Raw(b"".join(parts)))
    return kept[1]


def placed(printings: Sequence[Printing], start: int = 0) -> list[bytes]:
    """The printings' cards encoded at their places in a list, from place ``start`` on (a comma before each but
    the list's first), as parts to join: each card's encoding up to its place, the place, and the rest (each
    printing's card found once: ``remember_printings``)."""
    parts: list[bytes] = []
    printed, places, most = _PRINTED, _PLACES, len(_PLACES)
    for place, printing in enumerate(printings, start):
        # a printing found is this very one: its entry keeps it, so no other object has its id meanwhile
        found = printed.get(id(printing))
        if found is None:
            remember_printings((printing,))
            found = printed[id(printing)]
        if place:
            parts.append(b",")
        if found[1] and place < most:
            parts += (found[1], places[place], found[2])
        else:
            parts.append(card_bytes(printing.card, place, printing.foil or printing.etched))
    return parts


def image_json(card: Card) -> dict[str, Any]:
    """Where the page finds the card's kept image (``cmdraft sets download CODE --images``) and its artist;
    nothing when there is none (the card is drawn as text)."""
    kept = image_of(card)
    if kept is None:
        return {}
    path, artist = kept
    return {"image": image_address(card, path), "artist": artist}


def image_address(card: Card, path: Path) -> str:
    return f"/images/{card.set_code}/{path.name}"


def printings_json(printings: list[Printing]) -> list[answers.Card]:
    return [card_json(p.card, i, p.foil or p.etched) for i, p in enumerate(printings)]
