"""Check opened boosters against their booster definition: observed vs expected counts, chi-square p-values.

Every expected figure comes from the definition alone (variant weights, slot counts, sheet cards and
weights, the color-balance flag) and from the collation rules of RULES.md section 5, worked out here
independently of the drawing code in ``sets.booster``:

- variants: ``weight / total`` of the boosters;
- slots: cards from each sheet, ``sum(variant share * count)`` per booster;
- a plain sheet drawing ``k`` cards without repeats, one by one by weight: a card's chance to be
  among them is its weight share for one card, ``k / n`` for equal weights, a closed form for two
  and a numerical integral beyond (``sets.draw_odds``);
- a color-balanced sheet (groups W, U, B, R, G of cards of that one color and identity, and "other":
  colorless, multicolor, every land): one card per color group, and each of the ``k - C`` other
  slots goes to a group with weight ``W(g) * k - N`` (color) or ``W(other) * k``, so a group yields
  ``W(g) * k / N`` cards and a card ``w * k / N``: exactly its share of the sheet.  A drawing that
  skips a repeat by drawing again in the same group keeps this exactly; magic-search-engine draws
  the group again, which RULES says shifts groups by about 2% -- enough to fail at large samples,
  which is the point: the promise is every card's share, with no tolerance built in.

Per-sheet tables (rarities, color groups, cards) are conditioned on how many boosters of each
variant were opened, which the variants table tests.  Card tables list the worst cards first.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from sets.booster import Booster, BoosterSpec, Sheet
from sets.cards import Card
from sets.colors import Color
from sets.draw_odds import plain_inclusion
from sets.errors import LimitError


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

    @property
    def residual(self) -> float:
        """Standardized deviation (observed - expected) / sqrt(expected)."""
        return (self.observed - self.expected) / math.sqrt(self.expected) if self.expected > 0 else 0.0


@dataclass(frozen=True, slots=True)
class Check:
    """A group of rows tested together; ``warning`` says when the p-value can't be trusted."""

    title: str
    rows: tuple[Row, ...]
    p_value: float
    warning: str = ""
    statistic: float = 0.0
    dof: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "p_value": self.p_value,
            "chi_square": self.statistic,
            "dof": self.dof,
            "warning": self.warning,
            "rows": [{"label": r.label, "observed": r.observed, "expected": r.expected} for r in self.rows],
        }


MAX_AUDITED = 1_000_000  # boosters one audit opens (README "Limits")
MIN_EXPECTED = 5  # below this, chi-square's p-value is unreliable


def _check(
    title: str,
    rows: list[Row],
    *,
    dof: int | None = None,
    statistic: float | None = None,
    count: int = 0,
    worst_first: bool = False,
) -> Check:
    """Pearson's chi-square over the rows (or a given statistic), with a warning for small expected counts."""
    if statistic is None:
        statistic = sum((r.observed - r.expected) ** 2 / r.expected for r in rows if r.expected > 0)
    dof = len(rows) - 1 if dof is None else dof
    small = [r.expected for r in rows if 0 < r.expected < MIN_EXPECTED]
    warning = ""
    if small and count:
        needed = math.ceil(count * MIN_EXPECTED / min(small) / 1000) * 1000
        warning = (
            f"{len(small)} of {len(rows)} expected counts are under {MIN_EXPECTED} (smallest {min(small):.2f}): "
            f"the p-value is unreliable; audit about {needed} boosters or more"
        )
    if worst_first:
        rows = sorted(rows, key=lambda r: -abs(r.residual))
    return Check(title, tuple(rows), chi_square_sf(statistic, dof), warning, statistic, dof)


# --- expectations from the definition -----------------------------------------------------------------


def rules_group(card: Card) -> str:
    """RULES.md section 5's balance groups: the color of a card of one color and that identity, else "other"."""
    if card.is_land or len(card.colors) != 1 or card.identity != card.colors:
        return "other"
    return card.colors.code


GROUP_ORDER = (*(c.value for c in Color), "other")


def balanced_plan(sheet: Sheet, count: int) -> tuple[dict[str, float], dict[str, float]] | None:
    """For a balanced sheet drawing ``count``: (forced cards, chance of each free slot) by group; None when plain."""
    weights: Counter[str] = Counter()
    for printing, weight in zip(sheet.printings, sheet.weights, strict=True):
        weights[rules_group(printing.card)] += weight
    colors = [g for g in GROUP_ORDER[:-1] if weights[g]]
    if not colors or count <= len(colors):
        return None
    total = sum(weights.values())
    slot = {g: max(0, weights[g] * count - total) for g in colors}
    slot["other"] = weights["other"] * count
    free = sum(slot.values())
    return {g: 1.0 for g in colors}, {g: w / free for g, w in slot.items()}


def inclusion(sheet: Sheet, count: int) -> list[float]:
    """Expected copies of each card of ``sheet`` in a booster that draws ``count`` from it.

    Exact, except on a balanced sheet with a group smaller than the draws it may get (the drawing
    then picks another group, which this leaves out); no CMR group comes near that.
    """
    plan = balanced_plan(sheet, count) if sheet.balance_colors else None
    if plan is None:
        return plain_inclusion(sheet.weights, count, sheet.allow_duplicates)
    forced, chance = plan
    free = count - len(forced)
    members: dict[str, list[int]] = {}
    for index, printing in enumerate(sheet.printings):
        members.setdefault(rules_group(printing.card), []).append(index)
    result = [0.0] * len(sheet)
    for group, indices in members.items():
        weights = [sheet.weights[i] for i in indices]
        base = int(forced.get(group, 0))
        # The group's draws: the forced one plus a binomial share of the free slots (capped at its size).
        for extra in range(free + 1):
            probability = math.comb(free, extra) * chance[group] ** extra * (1 - chance[group]) ** (free - extra)
            drawn = min(base + extra, len(indices))
            if probability and drawn:
                for i, share in zip(indices, plain_inclusion(weights, drawn), strict=True):
                    result[i] += probability * share
    return result


def _drawing_variants(spec: BoosterSpec, sheet_name: str) -> list[tuple[int, int]]:
    """(variant position, cards drawn from the sheet) for each variant that draws from it."""
    return [(i, v.count(sheet_name)) for i, v in enumerate(spec.variants) if v.count(sheet_name)]


def expected_by(
    spec: BoosterSpec, sheet_name: str, key: Callable[[Card], str], boosters: int | Counter[int]
) -> Counter[str]:
    """Expected cards per class from one sheet, over ``boosters`` (a count, or boosters opened per variant)."""
    sheet = spec.sheets[sheet_name]
    per_variant = (
        boosters
        if isinstance(boosters, Counter)
        else Counter({i: v.weight / spec.total_weight * boosters for i, v in enumerate(spec.variants)})
    )
    expected: Counter[str] = Counter()
    for position, count in _drawing_variants(spec, sheet_name):
        for printing, chance in zip(sheet.printings, inclusion(sheet, count), strict=True):
            expected[key(printing.card)] += per_variant[position] * chance  # type: ignore[assignment]  # expected counts are fractions; typeshed types a Counter's values as int
    return expected


# --- the checks -----------------------------------------------------------------------------------------


def _variants_check(spec: BoosterSpec, variants: Counter[int], count: int) -> Check:
    shared = set.intersection(*(set(v.contents) for v in spec.variants))
    rows = [
        Row(
            f"variant {i} ({v.weight}/{spec.total_weight}): "
            + " + ".join(f"{n} {s}" for s, n in v.contents if (s, n) not in shared),
            variants[i],
            v.weight / spec.total_weight * count,
        )
        for i, v in enumerate(spec.variants)
    ]
    return _check("variants", rows, count=count)


def _slots_check(spec: BoosterSpec, per_sheet: dict[str, Counter[Card]], count: int) -> Check:
    rows = [
        Row(
            name,
            sum(per_sheet[name].values()),
            count * sum(v.weight / spec.total_weight * v.count(name) for v in spec.variants),
        )
        for name in spec.sheets
    ]
    return _check("cards per slot (sheet)", rows, dof=len(rows) - (1 if len(spec.sizes) == 1 else 0), count=count)


def _card_check(spec: BoosterSpec, name: str, observed: Counter[Card], variants: Counter[int], count: int) -> Check:
    """Every card of a sheet against its share, worst first.

    One booster holds a card at most once (no repeats), so each card's count varies by
    ``pi * (1 - pi)`` a booster rather than ``pi``: the statistic is divided by its mean over
    ``n - 1`` to read it on chi-square's scale.
    """
    sheet = spec.sheets[name]
    expected = [0.0] * len(sheet)
    variance = [0.0] * len(sheet)
    for position, drawn in _drawing_variants(spec, name):
        for i, chance in enumerate(inclusion(sheet, drawn)):
            expected[i] += variants[position] * chance
            variance[i] += variants[position] * (chance if sheet.allow_duplicates else chance * (1 - chance))
    rows = [
        Row(f"{p.card.number} {p.card.name}", observed[p.card], e)
        for p, e in zip(sheet.printings, expected, strict=True)
    ]
    dof = len(rows) - 1
    statistic = sum((r.observed - e) ** 2 / e for r, e in zip(rows, expected, strict=True) if e > 0)
    scale = sum(v / e for v, e in zip(variance, expected, strict=True) if e > 0) / dof if dof else 1.0
    return _check(
        f"{name}: cards",
        rows,
        dof=dof,
        statistic=statistic / scale if scale else statistic,
        count=count,
        worst_first=True,
    )


def _group_check(
    spec: BoosterSpec, name: str, observed: Counter[str], variants: Counter[int], count: int
) -> Check | None:
    """A balanced sheet's color groups: forced cards plus the free slots' multinomial share."""
    sheet = spec.sheets[name]
    expected: Counter[str] = Counter()
    forced_total: Counter[str] = Counter()
    free_expected: Counter[str] = Counter()
    for position, drawn in _drawing_variants(spec, name):
        plan = balanced_plan(sheet, drawn)
        if plan is None:
            return None
        forced, chance = plan
        free = drawn - len(forced)
        for group in GROUP_ORDER:
            forced_total[group] += variants[position] * forced.get(group, 0)  # type: ignore[assignment]  # expected counts are fractions; typeshed types a Counter's values as int
            free_expected[group] += variants[position] * free * chance.get(group, 0)  # type: ignore[assignment]  # expected counts are fractions; typeshed types a Counter's values as int
    for group in GROUP_ORDER:
        expected[group] = forced_total[group] + free_expected[group]
    groups = [g for g in GROUP_ORDER if expected[g] > 0]
    rows = [Row(g, observed[g], expected[g]) for g in groups]
    # The free slots are a multinomial draw over the groups: test what came out beyond the forced cards.
    statistic = sum(
        (observed[g] - forced_total[g] - free_expected[g]) ** 2 / free_expected[g]
        for g in groups
        if free_expected[g] > 0
    )
    dof = sum(1 for g in groups if free_expected[g] > 0) - 1
    return _check(f"{name}: color groups (balanced)", rows, dof=dof, statistic=statistic, count=count)


FOILS_TITLE = "foils per booster (foil-etched counted as foil)"


def _foils_label(n: int) -> str:
    return f"{n} foil" if n == 1 else f"{n} foils"


def _foils_check(spec: BoosterSpec, observed: Counter[int], count: int) -> Check:
    """Boosters by how many foil cards they hold, a foil-etched card counted as a foil: expected from the variants'
    weights and which of their sheets are foil or foil-etched.  A count no variant gives is a fault (p = 0)."""
    expected: Counter[int] = Counter()
    for variant in spec.variants:
        n = sum(k for sheet, k in variant.contents if spec.sheets[sheet].foil or spec.sheets[sheet].etched)
        expected[n] += variant.weight / spec.total_weight * count  # type: ignore[assignment]  # expected counts are fractions; typeshed types a Counter's values as int
    rows = [Row(_foils_label(n), observed[n], expected[n]) for n in sorted(set(expected) | set(observed))]
    if any(row.observed and not row.expected for row in rows):
        return Check(FOILS_TITLE, tuple(rows), 0.0, "", math.inf, max(1, len(expected) - 1))
    return _check(FOILS_TITLE, [row for row in rows if row.expected], count=count)


def audit(spec: BoosterSpec, boosters: Iterable[Booster], count: int) -> list[Check]:
    """Compare ``count`` opened boosters with what the definition promises."""
    per_sheet: dict[str, Counter[Card]] = {name: Counter() for name in spec.sheets}
    variants: Counter[int] = Counter()
    foils: Counter[int] = Counter()
    for booster in boosters:
        variants[booster.variant] += 1
        foils[sum(1 for printing in booster.printings if printing.foil or printing.etched)] += 1
        for printing in booster.printings:
            per_sheet[printing.sheet][printing.card] += 1
    checks = [_variants_check(spec, variants, count), _slots_check(spec, per_sheet, count)]
    foil_sheets = [name for name, sheet in spec.sheets.items() if sheet.foil or sheet.etched]
    if foil_sheets:
        checks.append(_foils_check(spec, foils, count))
    for name in spec.sheets:
        share = spec.variant_share(name)
        sheet = spec.sheets[name]
        if sheet.foil and not sheet.etched and len(foil_sheets) > 1:
            continue  # a booster without it holds another foil: the foils check counts them all
        if 0 < share < 1:
            with_sheet = sum(variants[i] for i, v in enumerate(spec.variants) if v.count(name))
            rows = [
                Row(f"with a {name} card", with_sheet, share * count),
                Row("without", count - with_sheet, (1 - share) * count),
            ]
            checks.append(_check(f"boosters with a {name} card", rows, count=count))
    for name, sheet in spec.sheets.items():
        observed = per_sheet[name]
        if len({p.card.rarity for p in sheet.printings}) > 1:
            expected = expected_by(spec, name, lambda card: card.rarity.value, variants)
            by_rarity: Counter[str] = Counter()
            for card, n in observed.items():
                by_rarity[card.rarity.value] += n
            checks.append(
                _check(
                    f"{name}: rarity mix", [Row(k, by_rarity[k], e) for k, e in sorted(expected.items())], count=count
                )
            )
        if sheet.balance_colors:
            by_group: Counter[str] = Counter()
            for card, n in observed.items():
                by_group[rules_group(card)] += n
            check = _group_check(spec, name, by_group, variants, count)
            if check is not None:
                checks.append(check)
        if len(sheet) > 1:
            checks.append(_card_check(spec, name, observed, variants, count))
    return checks


def check_audited(count: int) -> int:
    """A count of boosters to audit: 1 to ``MAX_AUDITED`` (``LimitError`` otherwise)."""
    return LimitError.check(count, "count", "boosters to audit", 1, MAX_AUDITED)


def open_and_audit(
    spec: BoosterSpec, count: int, seed: int, progress: Callable[[int], None] | None = None
) -> list[Check]:
    check_audited(count)
    rng = random.Random(seed)

    def stream() -> Iterator[Booster]:
        for index in range(count):
            yield spec.open(rng, index)
            if progress and index % 1000 == 999:
                progress(1000)

    return audit(spec, stream(), count)
