"""The Commander-draft products (CMR, CLB, CMM): one profile each, read from ``draft/data/products.json``.

A profile says how its product drafts and builds (boosters, picks per turn, the deck's minimum, CR 903.13b/f),
which card a player may add to their pool after the draft and how many (commanders only, CR 903.13e and the
product's own option: The Prismatic Piper, or Faceless One in Battle for Baldur's Gate), any extra pairing the
product grants (Commander Masters: mono-colored legends pair as though they had partner) and the words a person
sees ("Piper", "Faceless One").  Every rule and every face asks the profile; none names the card itself.

A set that is no Commander-draft product (an imported set of any other kind) builds by the default product's
rules (Commander Legends): that keeps the Piper option any Commander draft offers.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from sets.booster import booster_spec
from sets.cards import Card, CardSet, CommanderAbility, normalize_name
from sets.catalog import load_set
from sets.errors import InputError
from sets.userdata import pinned


@dataclass(frozen=True, slots=True)
class AddedOption:
    """The card a player may add after the draft (commanders only), how many, and its words."""

    card: str
    most: int
    word: str
    words: str
    rule: str
    source: str

    def count_words(self, n: int) -> str:
        """'1 Piper', '2 Faceless Ones'."""
        return f"{n} {self.word if n == 1 else self.words}"

    def colors_refused(self, n: int) -> str:
        """Why ``n`` chosen colors can't lead: one or two do, one of the card in each."""
        return f"choose one or two colors for {self.card}: {self.count_words(1)} leads in each color ({n or 'none'} chosen)"

    def count_named(self, n: int) -> str:
        """'2 Pipers (The Prismatic Piper)', '3 Faceless Ones': ``count_words`` naming the card where the word doesn't."""
        return self.count_words(n) + ("" if self.word == self.card else f" ({self.card})")

    def sure_from(self, stock: int, players: int) -> int:
        """How many of the card each of ``players`` can count on while drafting, when they share a store's
        ``stock`` and each deck may add up to ``most`` of them as decks register, first come first served: what is
        left for a player after every other player took the most they may.  The same for every seat, and true in
        any order the decks register: the whole ``most`` from ``most`` a player in stock, none from a stock that
        can't outlast the others (e.g. 8 players and a stock of 14 or less)."""
        return max(0, min(self.most, stock - self.most * max(0, players - 1)))


@dataclass(frozen=True, slots=True)
class PartnerGrant:
    """A product's extra pairing: every legend of one color (or none, when ``colorless``) pairs as though it had
    partner (CR 702.124h applied to cards that don't print it)."""

    kind: str
    colorless: bool
    words: str
    source: str

    def applies(self, card: Card) -> bool:
        """Whether the grant makes ``card`` a partner: a card that can lead (CR 903.3) with one color of color
        identity (or none, when the grant says so)."""
        if not self.may_apply(card):
            return False
        size = len(card.identity)
        return size == 1 or (self.colorless and size == 0)

    @staticmethod
    def may_apply(card: Card) -> bool:
        """Whether any grant could make ``card`` a partner: it can lead, with one color or none."""
        return card.can_be_commander and len(card.identity) <= 1


_NUMBER_WORDS = dict(
    enumerate(("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"))
)


@dataclass(frozen=True, slots=True)
class Product:
    code: str
    name: str
    released: str
    boosters: int
    booster_size: int
    picks_per_turn: int
    min_deck_size: int
    added: AddedOption
    grant: PartnerGrant | None
    sealed_boosters: int = 6  # draft boosters a sealed pool opens (RULES.md section 1: six for CMR)
    known: bool = True  # False: a set that is no Commander-draft product, building by the default's rules

    def is_added(self, card: Card) -> bool:
        """Whether ``card`` is the card this product lets a player add after the draft."""
        return normalize_name(card.name) == normalize_name(self.added.card)

    @property
    def sealed_words(self) -> str:
        """A sealed pool's boosters as every face words them: 'six boosters' (the profile's count in words)."""
        n = self.sealed_boosters
        return f"{_NUMBER_WORDS.get(n, str(n))} booster{'' if n == 1 else 's'}"

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name,
            "boosters": self.boosters,
            "picks_per_turn": self.picks_per_turn,
            "min_deck_size": self.min_deck_size,
            "sealed_boosters": self.sealed_boosters,
            "added": {"card": self.added.card, "most": self.added.most, "word": self.added.word},
            "grant": None if self.grant is None else {"kind": self.grant.kind, "words": self.grant.words},
        }


def _product(code: str, data: dict[str, Any]) -> Product:
    added = data["added"]
    grant = data.get("grant")
    return Product(
        code,
        data["name"],
        data["released"],
        int(data["boosters"]),
        int(data["booster_size"]),
        int(data["picks_per_turn"]),
        int(data["min_deck_size"]),
        AddedOption(added["card"], int(added["most"]), added["word"], added["words"], added["rule"], added["source"]),
        None
        if grant is None
        else PartnerGrant(grant["kind"], bool(grant["colorless"]), grant["words"], grant["source"]),
        int(data["sealed_boosters"]),
    )


@cache
def products() -> dict[str, Product]:
    """Every Commander-draft product by set code."""
    data = json.loads(resources.files("draft").joinpath("data", "products.json").read_text(encoding="utf-8"))
    return {code: _product(code, entry) for code, entry in data["products"].items()}


@cache
def default_product() -> Product:
    data = json.loads(resources.files("draft").joinpath("data", "products.json").read_text(encoding="utf-8"))
    return products()[data["default"]]


def is_product(code: str | None) -> bool:
    return (code or "").strip().upper() in products()


def product(code: str | None) -> Product:
    """The profile of a set code: its own when it is a Commander-draft product, else the default's rules."""
    key = (code or "").strip().upper()
    found = products().get(key)
    if found is not None:
        return found
    base = default_product()
    return Product(
        key or base.code,
        base.name,
        base.released,
        base.boosters,
        base.booster_size,
        base.picks_per_turn,
        base.min_deck_size,
        base.added,
        base.grant,
        base.sealed_boosters,
        known=False,
    )


def product_printing(name: str, loaded: Iterable[str]) -> Product | None:
    """The Commander-draft product, none of whose sets is among ``loaded`` (set codes), whose draft boosters print a
    card of this name: what a name no loaded set knows may be (a CLB deck checked before CLB is imported).  The
    committed ratings list every draftable card of each product by name; None when no product prints it."""
    key, here = normalize_name(name), {code.upper() for code in loaded}
    return next((found for code, found in products().items() if code not in here and key in _printed(code)), None)


@cache
def _printed(code: str) -> frozenset[str]:
    try:
        text = resources.files("draft").joinpath("data", f"{code.lower()}_ratings.json").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return frozenset()
    return frozenset(normalize_name(name) for name in json.loads(text)["cards"])


def product_of(cards: Iterable[Card]) -> Product:
    """The product a pool or deck comes from: the Commander-draft product most of its cards belong to (basic
    lands and the added card don't vote), else the default."""
    return ProductVotes(cards).product()


class ProductVotes:
    """``product_of``'s count, kept as cards come: a pool that only grows asks for its product without counting
    it again (a bot asks at every legend it takes)."""

    __slots__ = ("_added", "_cards", "_known", "_votes")

    def __init__(self, cards: Iterable[Card] = ()) -> None:
        self._cards: list[Card] = []
        self._votes: dict[str, int] = {}
        self._known, self._added = products(), added_names()
        self.extend(cards)

    def add(self, card: Card) -> None:
        """``extend`` by one card (a bot's pool, a card at a time)."""
        self._cards.append(card)
        code = card.set_code
        if code in self._known and card.name not in self._added and not card.is_basic_land:
            self._votes[code] = self._votes.get(code, 0) + 1

    def extend(self, cards: Iterable[Card]) -> None:
        known, added, votes = self._known, self._added, self._votes
        for card in cards:
            self._cards.append(card)
            code = card.set_code
            if code in known and card.name not in added and not card.is_basic_land:
                votes[code] = votes.get(code, 0) + 1

    @property
    def voted(self) -> bool:
        """Whether a card said its product (else ``product`` is the added card's, or the default)."""
        return bool(self._votes)

    def product(self) -> Product:
        known, votes = self._known, self._votes
        if not votes:
            # Only added cards (or nothing): the added card's own set says which product allows it.
            for card in self._cards:
                if card.set_code in known and known[card.set_code].is_added(card):
                    return known[card.set_code]
            return default_product()
        return known[max(votes, key=votes.__getitem__)]  # the most votes; of equals, the first to get one


@cache
def added_names() -> frozenset[str]:
    """Every product's added card, by name."""
    return frozenset(p.added.card for p in products().values())


def added_card(profile: Product) -> Card | None:
    """The product's added card, from its own set when that is loaded, else from the default product's set (the
    Piper is bundled with CMR); None when neither has it.  Looked up once per ``one_reading`` block."""
    return pinned(("added card", profile.code), lambda: _added_card(profile))


def _added_card(profile: Product) -> Card | None:
    for code in dict.fromkeys((profile.code, default_product().code)):
        try:
            card_set = load_set(code)
        except ValueError:
            continue
        found = next((card for card in card_set if profile.is_added(card)), None)
        if found is not None:
            return found
    return None


def booster_names(profile: Product) -> frozenset[str] | None:
    """Every card a draft booster of the product can hold, by normalized name: what a pool of it can hold besides
    the added card; None when its set isn't loaded (not imported) or holds no booster definition."""
    try:
        card_set = load_set(profile.code)
    except InputError:
        return None
    return _booster_names(card_set)


@lru_cache(maxsize=8)
def _booster_names(card_set: CardSet) -> frozenset[str] | None:
    """``booster_names`` of a loaded set, worked out once (an imported set read again is a new key)."""
    try:
        spec = booster_spec(card_set)
    except InputError:
        return None
    return frozenset(normalize_name(p.card.name) for sheet in spec.sheets.values() for p in sheet.printings)


# ``draft.commanders.partner_ability`` in a list's few words, in its order ("partner" where no group or name says more)
_PAIRING_NOTES = {
    CommanderAbility.FRIENDS_FOREVER: "Friends forever",
    CommanderAbility.BACKGROUND: "Background",  # first: Faceless One is one, and chooses one ("Background, choose …")
    CommanderAbility.CHOOSE_A_BACKGROUND: "choose a Background",
    CommanderAbility.DOCTORS_COMPANION: "Doctor's companion",
    CommanderAbility.TIME_LORD_DOCTOR: "Time Lord Doctor",
}


def lead_notes(card: Card, product: Product | None = None) -> list[str]:
    """A card's place among commanders in a list's few words, the same on every face (``partner_ability`` says it
    whole, with its rule): how it leads (legend, commander, the added card or another that chooses its color), how
    it pairs (each partner ability it has: a Background that chooses one is both), the product's grant making it a
    partner (``PartnerGrant``: Commander Masters), or a legendary planeswalker that can't lead: none for none of
    these.  A face joins them with ", " (or shows the first ones its room holds).  ``product``: by default the card's
    own (``product_of``)."""
    product = product if product is not None else product_of([card])
    abilities, notes = card.abilities, list[str]()
    if card.chooses_color:
        word = product.added.word if card.name in added_names() else None  # "Piper"; Faceless One: its name already
        notes.append(
            "any color as commander" if word is None else "any color" if word == card.name else f"{word}: any color"
        )
    elif card.can_be_commander:
        notes.append("legend" if card.is_legendary else "commander")
    if CommanderAbility.PARTNER_WITH in abilities and card.partner_with:
        notes.append(f"partner with {card.partner_with}")
    elif CommanderAbility.PARTNER in abilities:
        notes.append(f"Partner—{card.partner_group}" if card.partner_group else "partner")
    notes += [note for ability, note in _PAIRING_NOTES.items() if ability in abilities]
    if product.grant is not None and product.grant.applies(card) and not card.has_partner:
        notes.append(f"partner in a {product.name} draft")  # the grant's words, short
    if card.has_type("Planeswalker") and card.is_legendary and not card.can_be_commander:
        notes.append("planeswalker")
    return notes
