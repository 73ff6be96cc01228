"""Cards as the pages draw them (``answers.Card``), worked out and encoded once a card object: a card's facts, a
pack's cards as it stands, the image a card has on this server."""

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


@dataclass(eq=False)
class _Kept:
    """One card object's page facts worked out (the card kept too, so its id names no other card while here): the
    facts as a pack or a pool shows them (no ``id``: a card's place in its list is its index) and their encoding,
    and at each place a deck's list has shown it at, the facts with that place."""

    card: Card
    facts: answers.Card
    encoded: bytes
    placed: dict[int, answers.Card] = field(default_factory=dict)


def card_json(card: Card, index: int | None = None, foil: bool = False) -> answers.Card:
    """One card as the page draws it: facts only, and the rules text when it was imported (read only: the same
    object is given to every state that shows this card).  ``index``: its place in a deck's list, which the deck's
    actions name it by (``api_deck``); None: a card of a pack or a pool, whose place is its index in the list.  A
    card never changes (frozen): a set read again (a card corrected, a text imported) makes new card objects, so
    what was worked out is kept with the very card object (and the card with it, so its id names no other card
    while it is here), and a new one is worked out anew.  The facts are worked out once a card (its image looked
    up once)."""
    kept = _kept(card, foil)
    if index is None:
        return kept.facts
    placed = kept.placed.get(index)
    if placed is None:
        placed = kept.placed[index] = replace(kept.facts, id=index)
    return placed


def card_bytes(card: Card, foil: bool = False) -> bytes:
    """``card_json`` of a pack's or a pool's card encoded, once a card: the same bytes wherever the card is shown."""
    return _kept(card, foil).encoded


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
            foil=foil,
            leads=may_ever_lead(card),
            image=UNSET if kept_image is None else image_address(card, kept_image[0]),
            artist=UNSET if kept_image is None else kept_image[1],
        )
        kept = _CARDS_JSON[id(card), foil] = _Kept(card, facts, _encode(facts))
    return kept


def forget_cards() -> None:
    """Work every card out anew (a server starting: images may have been downloaded since)."""
    _CARDS_JSON.clear()
    _PACKS_JSON.clear()
    _PRINTED.clear()


# see pack_json: id of a pack's list of cards -> (that very list, kept so its id is not reused; its cards encoded)
_PACKS_JSON: dict[int, tuple[list[Printing], msgspec.Raw]] = {}
# see shown_cards: id of a printing in a pack -> (the printing, kept so its id names no other; its card encoded)
_PRINTED: dict[int, tuple[Printing, bytes]] = {}


def remember_printings(printings: Iterable[Printing]) -> None:
    """Each printing's card found and kept for ``pack_json`` now (a server starting: every booster of its live
    drafts, so a pack's opening finds its cards worked out)."""
    for printing in printings:
        found = _PRINTED.get(id(printing))
        if found is None or found[0] is not printing:
            _PRINTED[id(printing)] = (printing, card_bytes(printing.card, printing.foil or printing.etched))


def pack_json(cards: list[Printing]) -> msgspec.Raw:
    """A pack's cards as JSON, encoded once for every state that shows this pack as it stands.  A pick never
    changes a pack's list of cards: it gives the pack a new list (``Draft.pick``), so the list itself is the key
    (and the list is kept with its encoding, so its id names no other list while it is here)."""
    kept = _PACKS_JSON.get(id(cards))
    if kept is None or kept[0] is not cards:
        if len(_PACKS_JSON) > PACKS_KEPT:
            _PACKS_JSON.clear()
        if len(_PRINTED) > PRINTINGS_KEPT:
            _PRINTED.clear()
        kept = _PACKS_JSON[id(cards)] = (cards, msgspec.Raw(b"[" + b",".join(shown_cards(cards)) + b"]"))
    return kept[1]


def shown_cards(printings: Sequence[Printing]) -> list[bytes]:
    """The printings' cards encoded, as parts to join with commas into a list: each printing's card found once and
    kept with the printing (``remember_printings``), the same bytes at any place of any list (a card carries no
    place: its index in the list is its place)."""
    printed = _PRINTED
    try:  # (an entry keeps its printing: no other object has its id meanwhile)
        return [printed[id(printing)][1] for printing in printings]
    except KeyError:
        remember_printings(printings)
        return [printed[id(printing)][1] for printing in printings]


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
    """The printings' cards as a pack or a pool shows them (no ``id``: a card's place is its index in the list)."""
    return [card_json(p.card, None, p.foil or p.etched) for p in printings]
