"""Finding cards by name across sets, as people type them."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator

from sets.basics import basic_lands
from sets.cards import Card, CardSet, Layout, names_of, normalize_name, without_article
from sets.catalog import available_codes, load_set
from sets.errors import InputError, MeldResultError, UnknownCardError
from sets.visible import quoted


class CardIndex:
    """Cards by name across sets: case, accents, typographic quotes and ``A // B`` / ``A/B`` spelling don't matter.

    A card is found by its name, and a card of several faces or halves also by each face's name (a card's
    own name wins over another card's face).  A meld pair's back face is no card: its name is known as a
    meld result (``meld_result``), never read as one of the cards that make it.
    A name printed in several sets resolves to the first set given (``printings`` has each set's).
    """

    def __init__(self, card_sets: Iterable[CardSet]):
        self._by_name: dict[str, Card] = {}
        self._display: dict[str, str] = {}
        self._meld_results: dict[str, list[str]] = {}
        self._printings: dict[str, dict[str, Card]] | None = None  # ``printings``, made when first asked
        self.sets = tuple(card_sets)
        cards = [card for card_set in self.sets for card in card_set.cards]
        for own in (True, False):
            for card in cards:
                for alias in self._aliases(card, own):
                    key = normalize_name(alias)
                    self._by_name.setdefault(key, card)
                    self._display.setdefault(key, card.name)
        for card in cards:
            if card.layout is Layout.MELD and len(card.faces) > 1:
                key = normalize_name(card.faces[-1].name)
                if key not in self._by_name:
                    fronts = self._meld_results.setdefault(key, [card.faces[-1].name])
                    if card.name not in fronts:
                        fronts.append(card.name)

    @staticmethod
    def _aliases(card: Card, own: bool) -> list[str]:
        """The names ``card`` answers to (``names_of``): its own name (and that without "The") when ``own``,
        else its faces' names, which another card's own name wins over."""
        own_names = [card.name, *filter(None, [without_article(card.name)])]
        return own_names if own else [name for name in names_of(card) if name not in own_names]

    def get(self, name: str) -> Card | None:
        return self._by_name.get(normalize_name(name))

    def printings(self, name: str) -> dict[str, Card]:
        """The card named ``name`` (its own name) as each set that prints it has it, by set code in the order the
        sets were given (a set's first printing of it)."""
        if self._printings is None:
            found: dict[str, dict[str, Card]] = {}
            for card_set in self.sets:
                for card in card_set.cards:
                    found.setdefault(normalize_name(card.name), {}).setdefault(card_set.code, card)
            self._printings = found
        return self._printings.get(normalize_name(name), {})

    def meld_result(self, name: str) -> tuple[str, list[str]] | None:
        """For the back face of a meld pair: (its name, the cards that meld into it); else None."""
        found = self._meld_results.get(normalize_name(name))
        return None if found is None else (found[0], found[1:])

    def find(self, name: str) -> Card:
        """The card called ``name``, or ``UnknownCardError`` with the closest names."""
        card = self.get(name)
        if card is None:
            meld = self.meld_result(name)
            if meld is not None:
                raise MeldResultError(name, *meld)
            raise UnknownCardError(name, self.suggest(name))
        return card

    def find_start(self, name: str, shown: int = 8) -> Card:
        """The card called ``name``, or the one card whose name it starts (as the pick prompt reads names);
        ``InputError`` listing the cards (``shown`` of them at most) when several names start so."""
        card = self.get(name)
        if card is not None:
            return card
        starts = self.starting(name)
        if len(starts) == 1:
            return self.find(starts[0])
        if len(starts) > 1:
            more = f" and {len(starts) - shown} more" if len(starts) > shown else ""
            raise InputError(
                f"{quoted(name)} is the start of {len(starts)} cards: {' / '.join(sorted(starts)[:shown])}{more}: "
                "type more of the name"
            )
        return self.find(name)

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

    def starting(self, text: str) -> list[str]:
        """The names that ``text`` is the start of (case, accents and punctuation don't matter), each once."""
        key = normalize_name(text)
        if not key:
            return []
        return list(dict.fromkeys(self._display[k] for k in self._display if k.startswith(key)))

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
    chosen = [load_set(code) for code in (codes if codes is not None else available_codes())]
    return CardIndex([*chosen, basic_lands()])
