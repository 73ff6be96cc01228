"""Figures for the color-balanced common sheet, run on demand (never part of the test suite):

    python -m tests.collation_figures [--count 50000] [--seed 1] [--set CMR] [--booster draft]

Opens seeded boosters and compares each balanced sheet's color groups and cards with their share of
the sheet (RULES.md section 5: a group yields size(g) * k / N of a booster's k cards from a sheet of
total weight N; a card its weight * k / N).  Expected figures are read from the booster definition
(the set's JSON), never from the drawing code.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter

from sets.audit import audit
from sets.booster import booster_spec
from sets.catalog import load_set
from sets.colors import Color
from tests.helpers.old_collation import old_balanced_spec


def rules_group(card) -> str:
    """RULES.md section 5's groups: W, U, B, R, G for a card of that one color and identity, else "other"."""
    if card.is_land or len(card.colors) != 1 or card.identity != card.colors:
        return "other"
    return card.colors.code


def figures(code: str, kind: str | None, count: int, seed: int, old: bool = False) -> dict:
    card_set = load_set(code)
    spec = booster_spec(card_set, kind)
    if old:
        spec = old_balanced_spec(spec)
    definition = card_set.boosters[spec.kind]
    total_variants = sum(v["weight"] for v in definition["variants"])
    result = {}
    for name, sheet in definition["sheets"].items():
        if not sheet.get("balance_colors"):
            continue
        weights = {card_set.by_number[str(number)]: w for number, w in sheet["cards"].items() if w}
        total = sum(weights.values())
        # Expected cards drawn from the sheet per booster, over the variants that draw from it.
        slots = sum(v["weight"] / total_variants * v["contents"].get(name, 0) for v in definition["variants"])
        expected_card = {card: slots * count * w / total for card, w in weights.items()}
        rng = random.Random(seed)
        observed: Counter = Counter()
        missing_color = 0
        for _ in range(count):
            booster = spec.open(rng)
            drawn = [p.card for p in booster.printings if p.sheet == name]
            observed.update(drawn)
            if {rules_group(card) for card in drawn} < {c.value for c in Color}:
                missing_color += 1
        groups_expected: Counter = Counter()
        groups_observed: Counter = Counter()
        for card, e in expected_card.items():
            groups_expected[rules_group(card)] += e
            groups_observed[rules_group(card)] += observed[card]
        ratios = sorted(((observed[card] / e, card) for card, e in expected_card.items()), key=lambda item: item[0])
        result[name] = {
            "groups": {
                g: (groups_observed[g], groups_expected[g], sum(1 for c in weights if rules_group(c) == g))
                for g in groups_expected
            },
            "cards": ratios,
            "missing_color": missing_color,
            "expected_per_card": min(expected_card.values()),
        }
    return result


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=50000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--set", default="CMR")
    parser.add_argument("--booster", default=None)
    parser.add_argument(
        "--old", action="store_true", help="draw balanced sheets the pre-issue-10 way (tests/helpers/old_collation.py)"
    )
    parser.add_argument("--audit", action="store_true", help="also print packs audit's p-values, new drawing and old")
    args = parser.parse_args(argv)
    for name, data in figures(args.set, args.booster, args.count, args.seed, args.old).items():
        print(
            f"== {args.set} sheet {name!r}: {args.count} boosters, seed {args.seed}{' (old drawing)' if args.old else ''}"
        )
        print(f"{'group':<8}{'cards':>6}{'observed':>11}{'expected':>12}{'obs/exp':>9}")
        for group, (o, e, size) in sorted(data["groups"].items(), key=lambda item: "WUBRG".find(item[0]) % 6):
            print(f"{group:<8}{size:>6}{o:>11}{e:>12.1f}{o / e:>9.4f}")
        print(f"boosters without a common of some color: {data['missing_color']}")
        cards = data["cards"]
        print(
            f"per card (expected about {data['expected_per_card']:.0f} each): obs/exp min {cards[0][0]:.4f} ({cards[0][1].name}), "
            f"max {cards[-1][0]:.4f} ({cards[-1][1].name})"
        )
        others = [(r, c) for r, c in cards if rules_group(c) == "other" and not c.colors]
        print(
            "colorless commons: "
            + ", ".join(f"{c.name} {r:.3f}" for r, c in sorted(others, key=lambda item: item[1].name))
        )
    if args.audit:
        spec = booster_spec(args.set, args.booster)
        for label, drawing in (("new", spec), ("old", old_balanced_spec(spec))):
            checks = audit(spec, drawing.open_many(random.Random(args.seed), args.count), args.count)
            print(
                f"audit, {label} drawing: "
                + ", ".join(
                    f"{c.title} chi2={c.statistic:.0f}/{c.dof} dof p={c.p_value:.3g}"
                    for c in checks
                    if c.title.startswith(tuple(n + ":" for n, sheet in spec.sheets.items() if sheet.balance_colors))
                )
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
