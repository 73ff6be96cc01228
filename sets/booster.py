"""Booster collation from sheets: the CMR draft booster and any MTGJSON booster.

A booster spec is a list of weighted variants; each variant names how many
cards to draw from which sheets.  A sheet maps cards to weights, knows whether
it is foil or etched, and whether it is color-balanced.  A sheet never yields
the same card twice within one booster (weighted sampling without
replacement); different sheets may repeat a card (the foil slot).
Randomness comes in as a ``random.Random``, so a seed replays the same boosters.
"""

from __future__ import annotations

import random
from bisect import bisect
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from sets.cards import Card
from sets.catalog import CardSet, load_set
from sets.colors import Color
from sets.errors import BoosterSpecError

DEFAULT_KINDS = ("draft", "default", "play", "set")


@dataclass(frozen=True, slots=True)
class Printing:
    """A card as it came out of a pack: which sheet, foil or etched, which collector number."""

    card: Card
    sheet: str = ""
    foil: bool = False
    etched: bool = False

    @property
    def number(self) -> str:
        return self.card.number

    @property
    def name(self) -> str:
        return self.card.name

    def to_json(self) -> dict[str, Any]:
        return {"number": self.card.number, "name": self.card.name, "rarity": self.card.rarity.value,
                "sheet": self.sheet, "foil": self.foil, "etched": self.etched}


@dataclass(frozen=True, slots=True)
class Booster:
    index: int
    variant: int
    printings: tuple[Printing, ...]

    def to_json(self, seed: int | None = None) -> dict[str, Any]:
        return {"seed": seed, "index": self.index, "variant": self.variant, "cards": [p.to_json() for p in self.printings]}


class Sheet:
    """Cards with weights; draws without repeating a card."""

    __slots__ = ("name", "printings", "weights", "foil", "etched", "balance_colors", "allow_duplicates", "total", "_cum", "_uniform",
                 "_by_color", "_colored")

    def __init__(self, name: str, cards: list[tuple[Card, int]], *, foil: bool = False, etched: bool = False,
                 balance_colors: bool = False, allow_duplicates: bool = False):
        self.name = name
        self.allow_duplicates = allow_duplicates
        self.foil, self.etched, self.balance_colors = foil, etched, balance_colors
        self.printings = tuple(Printing(card, name, foil or etched, etched) for card, _ in cards)
        self.weights = tuple(weight for _, weight in cards)
        self.total = sum(self.weights)
        self._cum = list(accumulate(self.weights))
        self._uniform = len(set(self.weights)) <= 1
        self._by_color: dict[Color, list[int]] = {}
        if balance_colors:
            for index, printing in enumerate(self.printings):
                colors = printing.card.colors
                if len(colors) == 1:
                    self._by_color.setdefault(next(iter(colors)), []).append(index)
        self._colored = tuple(self._by_color.values())

    def __len__(self) -> int:
        return len(self.printings)

    def draw(self, rng: random.Random, count: int) -> list[Printing]:
        """``count`` different cards, each draw weighted among the cards not yet drawn.

        A color-balanced sheet first takes one mono-colored card of each color
        it has, then fills the rest from the whole sheet.
        """
        printings = self.printings
        if self.allow_duplicates:  # MTGJSON's allowDuplicates: independent weighted draws
            return [printings[bisect(self._cum, rng.random() * self.total)] for _ in range(count)]
        if count == 1 and not self.balance_colors:
            if self._uniform:
                return [printings[int(rng.random() * len(printings))]]
            return [printings[bisect(self._cum, rng.random() * self.total)]]
        if self.balance_colors and count >= len(self._colored):
            rnd = rng.random
            chosen = [group[int(rnd() * len(group))] if self._uniform else self._weighted_in(rng, group)
                      for group in self._colored]
        else:
            chosen = []
        return [printings[i] for i in self._fill(rng, count, chosen)]

    def _fill(self, rng: random.Random, count: int, chosen: list[int]) -> list[int]:
        """Add distinct positions to ``chosen`` until it holds ``count`` (rejecting repeats)."""
        rnd = rng.random
        size, cum, total = len(self.printings), self._cum, self.total
        uniform = self._uniform
        # Few cards: a list lookup is cheaper than building a set.
        seen: list[int] | set[int] = chosen if count <= 8 else set(chosen)
        while len(chosen) < count:
            index = int(rnd() * size) if uniform else bisect(cum, rnd() * total)
            if index not in seen:
                chosen.append(index)
                if seen is not chosen:
                    seen.add(index)
        return chosen

    def _weighted_in(self, rng: random.Random, group: list[int]) -> int:
        weights = [self.weights[i] for i in group]
        return rng.choices(group, weights)[0]

    def inclusion(self, count: int) -> list[float]:
        """Probability that each card is among ``count`` drawn (exact for uniform sheets and count <= 2)."""
        n, total = len(self.weights), self.total
        if self._uniform:
            return [min(1.0, count / n)] * n
        p = [w / total for w in self.weights]
        if count == 1:
            return p
        if count == 2:
            second = sum(pj / (1 - pj) for pj in p if pj < 1)
            return [pi + pi * (second - (pi / (1 - pi) if pi < 1 else 0)) for pi in p]
        return [min(1.0, count * pi) for pi in p]


@dataclass(frozen=True, slots=True)
class Variant:
    weight: int
    contents: tuple[tuple[str, int], ...]

    def count(self, sheet: str) -> int:
        return dict(self.contents).get(sheet, 0)


class BoosterSpec:
    """A booster definition bound to a set's cards."""

    def __init__(self, name: str, variants: list[Variant], sheets: dict[str, Sheet], kind: str = "draft"):
        self.name, self.kind = name, kind
        self.variants = tuple(variants)
        self.sheets = sheets
        self.total_weight = sum(v.weight for v in self.variants)
        self._cum = list(accumulate(v.weight for v in self.variants))
        self._plans = tuple(tuple((sheets[name], count) for name, count in v.contents) for v in self.variants)

    @property
    def sizes(self) -> set[int]:
        return {sum(count for _, count in v.contents) for v in self.variants}

    def variant_share(self, sheet: str) -> float:
        """Share of boosters whose variant draws from ``sheet``."""
        return sum(v.weight for v in self.variants if v.count(sheet)) / self.total_weight

    def open(self, rng: random.Random, index: int = 0) -> Booster:
        variant = bisect(self._cum, rng.random() * self.total_weight)
        printings: list[Printing] = []
        for sheet, count in self._plans[variant]:
            printings += sheet.draw(rng, count)
        return Booster(index, variant, tuple(printings))

    def open_many(self, rng: random.Random, count: int, start: int = 0) -> list[Booster]:
        return [self.open(rng, start + i) for i in range(count)]

    @classmethod
    def from_json(cls, data: dict[str, Any], card_set: CardSet, kind: str = "draft") -> BoosterSpec:
        """Bind a spec (the project's or MTGJSON's restated form) to a set; check it whole."""
        where = f"{card_set.code} {kind} booster"

        def fail(problem: str) -> BoosterSpecError:
            return BoosterSpecError(f"corrupt booster definition ({where}): {problem}; re-import the set file")

        try:
            raw_sheets = data["sheets"]
            raw_variants = data["variants"]
        except (KeyError, TypeError):
            raise fail("it needs 'sheets' and 'variants'") from None
        sheets: dict[str, Sheet] = {}
        for name, sheet in raw_sheets.items():
            cards = []
            for number, weight in sheet.get("cards", {}).items():
                card = card_set.by_number.get(str(number))
                if card is None:
                    raise fail(f"sheet {name!r} names card {number!r}, which the set does not have")
                if not isinstance(weight, int) or weight < 0:
                    raise fail(f"sheet {name!r} gives card {number!r} the weight {weight!r}")
                if weight:
                    cards.append((card, weight))
            total = sum(weight for _, weight in cards)
            if "total_weight" in sheet and sheet["total_weight"] != total:
                raise fail(f"sheet {name!r} weights add up to {total}, not {sheet['total_weight']}")
            sheets[name] = Sheet(name, cards, foil=bool(sheet.get("foil")), etched=bool(sheet.get("etched")),
                                 balance_colors=bool(sheet.get("balance_colors")), allow_duplicates=bool(sheet.get("allow_duplicates")))
        variants = []
        for position, raw in enumerate(raw_variants, start=1):
            weight, contents = raw.get("weight"), raw.get("contents") or {}
            if not isinstance(weight, int) or weight <= 0:
                raise fail(f"variant {position} has weight {weight!r}")
            for name, count in contents.items():
                if name not in sheets:
                    raise fail(f"variant {position} draws from sheet {name!r}, which is not defined")
                too_many = count > len(sheets[name]) and not sheets[name].allow_duplicates if isinstance(count, int) else True
                if not isinstance(count, int) or count <= 0 or too_many or not sheets[name].total:
                    raise fail(f"variant {position} draws {count!r} cards from sheet {name!r} of {len(sheets[name])}")
            variants.append(Variant(weight, tuple(contents.items())))
        if not variants:
            raise fail("it has no variants")
        total = data.get("total_weight")
        if total is not None and total != sum(v.weight for v in variants):
            raise fail(f"variant weights add up to {sum(v.weight for v in variants)}, not {total}")
        return cls(str(data.get("name") or kind), variants, sheets, kind)


def booster_spec(card_set: CardSet | str, kind: str | None = None) -> BoosterSpec:
    """The set's booster spec of ``kind`` (default: draft, else default, play, set)."""
    if isinstance(card_set, str):
        card_set = load_set(card_set)
    if not card_set.boosters:
        raise BoosterSpecError(
            f"set {card_set.code} has no booster data: import an MTGJSON set file that has a 'booster' section"
        )
    if kind is None:
        kind = next((k for k in DEFAULT_KINDS if k in card_set.boosters), next(iter(card_set.boosters)))
    if kind not in card_set.boosters:
        raise BoosterSpecError(
            f"set {card_set.code} has no {kind!r} booster: choose one of {', '.join(sorted(card_set.boosters))}"
        )
    return BoosterSpec.from_json(card_set.boosters[kind], card_set, kind)


def sealed_pool(spec: BoosterSpec, rng: random.Random, boosters: int = 6) -> list[Booster]:
    """A sealed pool: ``boosters`` boosters opened in order."""
    return spec.open_many(rng, boosters)
