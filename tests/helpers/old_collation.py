"""The color balancing cmdraft used before issue 10, kept as a planted fault for the audit.

It forces one mono-colored card of each color, then fills the rest uniformly from the whole sheet:
every booster has its five colors, but colorless and land commons come out at about 0.63x their
share (RULES.md section 5).  ``packs audit`` must catch it.
"""

from __future__ import annotations

import random

from sets.booster import BoosterSpec, Printing, Sheet


class ForcedColorsSheet(Sheet):
    """A sheet that balances colors the old way (uniform sheets only, as CMR's common sheet is)."""

    __slots__ = ("_mono",)

    def __init__(self, sheet: Sheet):
        super().__init__(
            sheet.name,
            [(p.card, w) for p, w in zip(sheet.printings, sheet.weights, strict=True)],
            foil=sheet.foil,
            etched=sheet.etched,
            balance_colors=True,
        )
        by_color: dict = {}
        for index, printing in enumerate(self.printings):
            if len(printing.card.colors) == 1:
                by_color.setdefault(next(iter(printing.card.colors)), []).append(index)
        self._mono = tuple(by_color.values())

    def draw(self, rng: random.Random, count: int) -> list[Printing]:
        chosen = [group[int(rng.random() * len(group))] for group in self._mono]
        while len(chosen) < count:
            index = int(rng.random() * len(self.printings))
            if index not in chosen:
                chosen.append(index)
        return [self.printings[i] for i in chosen]


def old_balanced_spec(spec: BoosterSpec) -> BoosterSpec:
    """The same booster definition with every balanced sheet drawn the old way."""
    sheets = {name: ForcedColorsSheet(sheet) if sheet.balance_colors else sheet for name, sheet in spec.sheets.items()}
    return BoosterSpec(spec.name, list(spec.variants), sheets, spec.kind)
