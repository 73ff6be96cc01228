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
from functools import lru_cache
from itertools import accumulate
from math import gcd
from typing import Any, NamedTuple

from sets.cards import Card, CardSet
from sets.catalog import load_set
from sets.colors import Color
from sets.errors import BoosterSpecError, LimitError
from sets.sheet_draws import Step, balanced, by_sheet, compose, distinct, one, one_by_totals
from sets.visible import quoted

# The most boosters opened at once, and sealed pools made at once (README "Limits"); more would run for hours.
MAX_OPENED = 100_000
MAX_SEALED_PLAYERS = 1_024
MAX_SEALED_BOOSTERS = 36  # per player


def check_opened(count: int) -> int:
    """A count of boosters to open: 1 to ``MAX_OPENED`` (``LimitError`` otherwise)."""
    return LimitError.check(count, "count", "boosters to open", 1, MAX_OPENED)


def check_sealed(players: int, boosters: int) -> None:
    """Sealed pools to make: 1 to ``MAX_SEALED_PLAYERS`` players of 1 to ``MAX_SEALED_BOOSTERS`` boosters each."""
    LimitError.check(players, "players", "sealed players", 1, MAX_SEALED_PLAYERS)
    LimitError.check(boosters, "boosters", "boosters per sealed pool", 1, MAX_SEALED_BOOSTERS)


DEFAULT_KINDS = ("draft", "default", "play", "set")
TABLE_LIMIT = 1 << 16  # the most entries an index table of a weighted sheet holds


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
        return {
            "number": self.card.number,
            "name": self.card.name,
            "rarity": self.card.rarity.value,
            "sheet": self.sheet,
            "foil": self.foil,
            "etched": self.etched,
        }


class Booster(NamedTuple):
    """An opened booster: which one of the draft, its variant, its cards in order.  A named tuple, not a frozen
    dataclass: as immutable, and made in a fifth of the time (a booster is made thousands of times a night)."""

    index: int  # type: ignore[assignment]  # the booster's place in the draft, shadowing tuple.index on purpose
    variant: int
    printings: tuple[Printing, ...]

    def to_json(self, seed: int | None = None) -> dict[str, Any]:
        return {
            "seed": seed,
            "index": self.index,
            "variant": self.variant,
            "cards": [p.to_json() for p in self.printings],
        }


def balance_group(card: Card) -> Color | None:
    """The color a balanced sheet counts a card for, or None for "other" (colorless, multicolor, every land).

    A card counts for a color when it is that one color with that identity alone: the Diamonds (colorless
    artifacts that tap for a color) are colorless commons, and a land is "other" whatever mana it makes.
    """
    colors = card.colors
    if len(colors) != 1 or card.identity != colors or card.is_land:
        return None
    return next(iter(colors))


class Sheet:
    """Cards with weights; draws without repeating a card."""

    __slots__ = (
        "_colored",
        "_cum",
        "_table",
        "_group_cum",
        "_group_weights",
        "_groups",
        "_plans",
        "_uniform",
        "allow_duplicates",
        "balance_colors",
        "etched",
        "foil",
        "name",
        "printings",
        "total",
        "weights",
    )

    def __init__(
        self,
        name: str,
        cards: list[tuple[Card, int]],
        *,
        foil: bool = False,
        etched: bool = False,
        balance_colors: bool = False,
        allow_duplicates: bool = False,
    ):
        self.name = name
        self.allow_duplicates = allow_duplicates
        self.foil, self.etched, self.balance_colors = foil, etched, balance_colors
        self.printings = tuple(Printing(card, name, foil or etched, etched) for card, _ in cards)
        self.weights = tuple(weight for _, weight in cards)
        self.total = sum(self.weights)
        self._cum = list(accumulate(self.weights))
        self._uniform = len(set(self.weights)) <= 1
        # A weighted sheet's index table: each position once per unit of its weight, so a random number times the
        # total finds by lookup the card ``bisect`` finds (whole weights); None: uniform, or too many (``bisect``).
        self._table: tuple[int, ...] | None = (
            tuple(i for i, weight in enumerate(self.weights) for _ in range(weight))
            if not self._uniform and self.total <= TABLE_LIMIT
            else None
        )
        by_group: dict[Color | None, list[int]] = {}
        if balance_colors:
            for index, printing in enumerate(self.printings):
                by_group.setdefault(balance_group(printing.card), []).append(index)
        # The color groups present, in WUBRG order, then "other" (possibly empty).
        self._colored = tuple(by_group[color] for color in Color if color in by_group)
        self._groups = (*self._colored, by_group.get(None, []))
        self._group_cum = tuple(list(accumulate(self.weights[i] for i in group)) for group in self._groups)
        self._group_weights = tuple(cum[-1] if cum else 0 for cum in self._group_cum)
        self._plans: dict[int, _Plan] = {}

    def __len__(self) -> int:
        return len(self.printings)

    def draw(self, rng: random.Random, count: int) -> list[Printing]:
        """``count`` different cards, each draw weighted among the cards not yet drawn.

        A color-balanced sheet draws as RULES.md section 5 says (see ``_draw_balanced``) when the
        booster takes more cards than it has color groups; with no more, there is no way to take one
        of each color and keep every card's share, so the draw is a plain one.
        """
        printings = self.printings
        if count == 1:  # one card: never balanced, never a repeat
            if self._uniform:
                return [printings[int(rng.random() * len(printings))]]
            return [printings[bisect(self._cum, rng.random() * self.total)]]
        if self.allow_duplicates:  # MTGJSON's allowDuplicates: independent weighted draws
            return [printings[bisect(self._cum, rng.random() * self.total)] for _ in range(count)]
        if self.balance_colors and self._colored and count > len(self._colored):
            return [printings[i] for i in self._draw_balanced(rng, count)]
        return [printings[i] for i in self._fill(rng, count, [])]

    def step(self, count: int) -> Step:
        """How ``BoosterSpec.open_many`` draws ``count`` cards here: a step its code is written from, once, reading
        this sheet's tables (``sets.sheet_draws``), that draws the same random numbers, and so the same cards, as
        ``draw``."""
        printings, uniform = self.printings, self._uniform
        if type(self).draw is not Sheet.draw:  # a sheet that draws its own way (the audit's planted fault)
            return by_sheet(self.draw, count)
        # The index table of positions: each once per unit of weight (a uniform sheet: each once); None: too big.
        table = tuple(range(len(printings))) if uniform else self._table
        if count == 1:  # as ``draw``: never balanced, never a repeat
            if table is None:
                return one_by_totals(printings, self._cum, self.total)
            return one(printings if uniform else tuple(printings[i] for i in table))
        if self.allow_duplicates:
            return by_sheet(self.draw, count)
        if self.balance_colors and self._colored and count > len(self._colored):
            plan = self._plans.get(count) or self._plan(count)
            if uniform and plan.table and not plan.may_run_out:
                return balanced(printings, self._colored, plan.table, count)
            return by_sheet(self.draw, count)
        return by_sheet(self.draw, count) if table is None else distinct(printings, table, count)

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
                if isinstance(seen, set):  # else seen is chosen itself
                    seen.add(index)
        return chosen

    def _plan(self, count: int) -> _Plan:
        """How the free slots of a ``count``-card draw pick their group.

        magic-search-engine's weights: ``W(g) * k - N`` for a color group and ``W(other) * k`` for
        the rest (W = the group's card weights, N = the sheet's, k = count).  With one card forced
        per color group, each group then yields ``W(g) * k / N`` cards on average, its share of the
        sheet.  A color too small for its share (negative weight) gets only its forced card.
        """
        colored = len(self._colored)
        weights = [max(0, weight * count - self.total) for weight in self._group_weights[:colored]]
        weights.append(self._group_weights[colored] * count)
        divisor = gcd(*weights)
        weights = [w // divisor for w in weights]
        cum = list(accumulate(weights))
        # A table of groups, one entry per unit of weight, picks a group with one random number.
        table = (
            tuple(group for group, w in zip(self._groups, weights, strict=True) for _ in range(w))
            if cum[-1] <= 4096
            else ()
        )
        # A group can run out of cards only if it is smaller than the draws it may get.
        may_run_out = any(
            len(group) < (count - colored) + (g < colored) for g, group in enumerate(self._groups) if weights[g]
        )
        plan = self._plans[count] = _Plan(weights, cum, cum[-1], table, may_run_out)
        return plan

    def _draw_balanced(self, rng: random.Random, count: int) -> list[int]:
        """One card from each color group, then for each other slot a group by the plan's weights and a card of
        that group not yet drawn (weighted within the group)."""
        rnd = rng.random
        plan = self._plans.get(count) or self._plan(count)
        if self._uniform and plan.table and not plan.may_run_out:  # CMR's commons: the fast path
            table, size = plan.table, plan.total
            chosen = [group[int(rnd() * len(group))] for group in self._colored]
            for _ in range(count - len(chosen)):
                # The whole part picks the group; the fraction left (40+ random bits) picks its card.
                where = rnd() * size
                whole = int(where)
                group = table[whole]
                index = group[int((where - whole) * len(group))]
                while index in chosen:  # a card of this group not yet drawn
                    index = group[int(rnd() * len(group))]
                chosen.append(index)
            return chosen
        groups, group_cum, group_weights = self._groups, self._group_cum, self._group_weights
        colored = len(self._colored)
        chosen = [group[bisect(group_cum[g], rnd() * group_weights[g])] for g, group in enumerate(self._colored)]
        taken = [1] * colored + [0]
        for _ in range(count - colored):
            g = bisect(plan.cum, rnd() * plan.total)
            if taken[g] == len(groups[g]):
                # Only a group smaller than its possible draws gets here: pick among groups with cards left.
                open_weights = [w if taken[i] < len(groups[i]) else 0 for i, w in enumerate(plan.weights)]
                if not any(open_weights):
                    return self._fill(rng, count, chosen)
                g = rng.choices(range(len(groups)), open_weights)[0]
            group, cum, total = groups[g], group_cum[g], group_weights[g]
            index = group[bisect(cum, rnd() * total)]
            while index in chosen:
                index = group[bisect(cum, rnd() * total)]
            chosen.append(index)
            taken[g] += 1
        return chosen


class _Plan(NamedTuple):
    weights: list[int]
    cum: list[int]
    total: int
    table: tuple[list[int], ...]
    may_run_out: bool


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
        steps: dict[tuple[str, int], Step] = {}  # each sheet's step for each count, made once
        for variant in self.variants:
            for name, count in variant.contents:
                if (name, count) not in steps:
                    steps[name, count] = sheets[name].step(count)
        self._steps = tuple(tuple(steps[entry] for entry in v.contents) for v in self.variants)
        # A variant by one lookup, as for a sheet's card: each variant once per unit of its weight.
        variant_table = (
            tuple(i for i, v in enumerate(self.variants) for _ in range(v.weight))
            if self.total_weight <= TABLE_LIMIT
            else ()
        )
        weights = [v.weight for v in self.variants]
        self._open_many = compose(self._steps, weights, variant_table, self._cum, Booster)

    @property
    def sizes(self) -> set[int]:
        return {sum(count for _, count in v.contents) for v in self.variants}

    def variant_share(self, sheet: str) -> float:
        """Share of boosters whose variant draws from ``sheet``."""
        return sum(v.weight for v in self.variants if v.count(sheet)) / self.total_weight

    def open(self, rng: random.Random, index: int = 0) -> Booster:
        """One booster: its variant, then each of its sheets' draws in turn."""
        return self.open_many(rng, 1, index)[0]

    def open_many(self, rng: random.Random, count: int, start: int = 0) -> list[Booster]:
        """``count`` boosters in a row, numbered from ``start``: the spec's own loop, written out once from its steps
        (``sets.sheet_draws.compose``; a booster is drawn thousands of times a night)."""
        return self._open_many(rng, count, start)

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
                    raise fail(f"sheet {quoted(name)} names card {number!r}, which the set does not have")
                if not isinstance(weight, int) or weight < 0:
                    raise fail(f"sheet {quoted(name)} gives card {number!r} the weight {weight!r}")
                if weight:
                    cards.append((card, weight))
            total = sum(weight for _, weight in cards)
            if "total_weight" in sheet and sheet["total_weight"] != total:
                raise fail(f"sheet {quoted(name)} weights add up to {total}, not {sheet['total_weight']}")
            sheets[name] = Sheet(
                name,
                cards,
                foil=bool(sheet.get("foil")),
                etched=bool(sheet.get("etched")),
                balance_colors=bool(sheet.get("balance_colors")),
                allow_duplicates=bool(sheet.get("allow_duplicates")),
            )
        variants = []
        for position, raw in enumerate(raw_variants, start=1):
            weight, contents = raw.get("weight"), raw.get("contents") or {}
            if not isinstance(weight, int) or weight <= 0:
                raise fail(f"variant {position} has weight {weight!r}")
            for name, count in contents.items():
                if name not in sheets:
                    raise fail(f"variant {position} draws from sheet {quoted(name)}, which is not defined")
                too_many = (
                    count > len(sheets[name]) and not sheets[name].allow_duplicates if isinstance(count, int) else True
                )
                if not isinstance(count, int) or count <= 0 or too_many or not sheets[name].total:
                    raise fail(
                        f"variant {position} draws {count!r} cards from sheet {quoted(name)} of {len(sheets[name])}"
                    )
            variants.append(Variant(weight, tuple(contents.items())))
        if not variants:
            raise fail("it has no variants")
        declared = data.get("total_weight")
        if declared is not None and declared != sum(v.weight for v in variants):
            raise fail(f"variant weights add up to {sum(v.weight for v in variants)}, not {declared}")
        return cls(str(data.get("name") or kind), variants, sheets, kind)


def booster_spec(card_set: CardSet | str, kind: str | None = None) -> BoosterSpec:
    """The set's booster spec of ``kind`` (default: draft, else default, play, set), built once per loaded set and
    kind (a set read anew, its file or the user's texts changed, is a new key): every command, pod, bot and
    pool-size check asks for it, and building one binds and checks every sheet (milliseconds each time)."""
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
            f"set {card_set.code} has no {quoted(kind)} booster: choose one of {', '.join(sorted(card_set.boosters))}"
        )
    return _built_spec(card_set, kind)


@lru_cache(maxsize=8)
def _built_spec(card_set: CardSet, kind: str) -> BoosterSpec:
    return BoosterSpec.from_json(card_set.boosters[kind], card_set, kind)


def sealed_pool(spec: BoosterSpec, rng: random.Random, boosters: int = 6, start: int = 0) -> list[Booster]:
    """A sealed pool: ``boosters`` boosters opened in order (1 to ``MAX_SEALED_BOOSTERS``), numbered from ``start``:
    pools opened in a row from one ``rng`` number theirs by their place in the whole run, as ``packs`` does, so a
    booster's seed and index name the same booster everywhere."""
    check_sealed(1, boosters)
    return spec.open_many(rng, boosters, start)
