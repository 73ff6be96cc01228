"""Check opened boosters against their spec: observed vs expected counts with chi-square p-values."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from sets.booster import Booster, BoosterSpec
from sets.colors import Color


def chi_square_sf(statistic: float, dof: int) -> float:
    """P(X >= statistic) for a chi-square variable with ``dof`` degrees of freedom."""
    if dof <= 0:
        return 1.0
    if statistic <= 0:
        return 1.0
    return _gamma_q(dof / 2.0, statistic / 2.0)


def _gamma_q(a: float, x: float) -> float:
    """Regularized upper incomplete gamma function Q(a, x)."""
    log_prefix = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:  # series for P, then Q = 1 - P
        term = total = 1.0 / a
        n = a
        for _ in range(1000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_prefix))
    # Lentz's continued fraction for Q
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_prefix) * h)


@dataclass(frozen=True, slots=True)
class Row:
    """One class of cards: observed and expected counts."""

    label: str
    observed: int
    expected: float


@dataclass(frozen=True, slots=True)
class Check:
    """A group of rows tested together."""

    title: str
    rows: tuple[Row, ...]
    p_value: float

    def to_json(self) -> dict:
        return {"title": self.title, "p_value": self.p_value,
                "rows": [{"label": r.label, "observed": r.observed, "expected": r.expected} for r in self.rows]}


def _check(title: str, rows: list[Row], binomial_of: int | None = None) -> Check:
    """Chi-square over the rows; with ``binomial_of``, one yes/no class out of that many trials."""
    if binomial_of is not None:
        (row,) = rows
        pairs = [(row.observed, row.expected), (binomial_of - row.observed, binomial_of - row.expected)]
        dof = 1
    else:
        pairs = [(r.observed, r.expected) for r in rows]
        dof = len(rows) - 1
    statistic = sum((o - e) ** 2 / e for o, e in pairs if e > 0)
    return Check(title, tuple(rows), chi_square_sf(statistic, dof))


def _shared_slots(spec: BoosterSpec) -> set[tuple[str, int]]:
    """Slots every variant has alike: left out of variant labels."""
    return set.intersection(*(set(v.contents) for v in spec.variants))


def _draws(spec: BoosterSpec, sheet_name: str, boosters: int) -> Iterator[tuple[float, int]]:
    """(expected boosters, cards drawn from the sheet) for each variant that draws from it."""
    for variant in spec.variants:
        count = variant.count(sheet_name)
        if count:
            yield variant.weight / spec.total_weight * boosters, count


def expected_by(spec: BoosterSpec, sheet_name: str, key: Callable, boosters: int) -> Counter:
    """Expected number of cards per class from one sheet over ``boosters`` boosters."""
    sheet = spec.sheets[sheet_name]
    expected: Counter = Counter()
    for share, count in _draws(spec, sheet_name, boosters):
        for printing, probability in zip(sheet.printings, sheet.inclusion(count), strict=True):
            expected[key(printing.card)] += share * probability
    return expected


def _balanced_color_expectation(spec: BoosterSpec, sheet_name: str, boosters: int) -> Counter:
    """Expected colors on a color-balanced uniform sheet: one forced per color, the rest uniform."""
    sheet = spec.sheets[sheet_name]
    colors = Counter(_color_key(p.card) for p in sheet.printings)
    forced = [c.value for c in Color if colors[c.value]]
    n = len(sheet)
    expected: Counter = Counter()
    for share, count in _draws(spec, sheet_name, boosters):
        rest = count - len(forced)
        for label, size in colors.items():
            base = 1 if label in forced else 0
            expected[label] += share * (base + rest * (size - base) / (n - len(forced)))
    return expected


def _color_key(card) -> str:
    colors = card.colors
    return colors.code if len(colors) == 1 else ("multicolor" if colors else "colorless")


def audit(spec: BoosterSpec, boosters: Iterable[Booster], count: int) -> list[Check]:
    """Compare ``count`` opened boosters with what the spec promises."""
    per_sheet: dict[str, Counter] = {name: Counter() for name in spec.sheets}
    variants: Counter = Counter()
    for booster in boosters:
        variants[booster.variant] += 1
        for printing in booster.printings:
            per_sheet[printing.sheet][printing.card] += 1
    checks = [
        _check(
            "variants",
            [Row(f"variant {i} ({v.weight}/{spec.total_weight}): " + " + ".join(f"{n} {s}" for s, n in v.contents if (s, n) not in _shared_slots(spec)),
                 variants[i], v.weight / spec.total_weight * count)
             for i, v in enumerate(spec.variants)],
        )
    ]
    for name in spec.sheets:
        share = spec.variant_share(name)
        if 0 < share < 1:
            boosters_with = sum(variants[i] for i, v in enumerate(spec.variants) if v.count(name))
            checks.append(_check(f"boosters with a {name} card", [Row(name, boosters_with, share * count)], binomial_of=count))
    for name, sheet in spec.sheets.items():
        rarities = {p.card.rarity for p in sheet.printings}
        if len(rarities) > 1:
            expected = expected_by(spec, name, lambda card: card.rarity.value, count)
            observed = Counter()
            for card, n in per_sheet[name].items():
                observed[card.rarity.value] += n
            checks.append(_check(f"{name}: rarity mix", [Row(k, observed[k], e) for k, e in sorted(expected.items())]))
        if sheet.balance_colors and len(set(sheet.weights)) <= 1:
            expected = _balanced_color_expectation(spec, name, count)
            observed = Counter()
            for card, n in per_sheet[name].items():
                observed[_color_key(card)] += n
            checks.append(_check(f"{name}: colors (balanced)", [Row(k, observed[k], e) for k, e in sorted(expected.items())]))
    return checks


def open_and_audit(spec: BoosterSpec, count: int, seed: int, progress: Callable[[int], None] | None = None) -> list[Check]:
    rng = random.Random(seed)

    def stream():
        for index in range(count):
            yield spec.open(rng, index)
            if progress and index % 1000 == 999:
                progress(1000)

    return audit(spec, stream(), count)
