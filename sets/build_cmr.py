"""Generate the bundled Commander Legends data from the shared reference files.

    python -m sets.build_cmr [SHARED_DATA_DIR]

Writes ``sets/data/cmr.json`` (card facts, no rules text) and
``sets/data/cmr-boosters.json`` (the draft booster spec).  Fails when the
engine's ``deck_colors`` differ from the source's ``color_identity`` for any
card, or when a sheet's weights do not add up to its published total.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from sets.cards import CardSet
from sets.importers import read_card_file
from sets.set_json import set_to_json

DATA = Path(__file__).parent / "data"
DEFAULT_SOURCE = Path(__file__).resolve().parents[2] / "shared" / "data" / "cmr"


def build(source: Path = DEFAULT_SOURCE, out: Path = DATA) -> list[str]:
    """Build both files; return the list of failures (empty on success)."""
    result = read_card_file(source / "cards.json")
    failures = [
        f"{card.number} {card.name}: engine says {card.deck_colors}, source says {published}"
        for card, published in result.mismatches
    ]
    failures += result.problems
    if len(result.cards) != 393:
        failures.append(f"expected 393 cards, read {len(result.cards)}")
    booster = json.loads((source / "draft-booster.json").read_text(encoding="utf-8"))
    numbers = {card.number for card in result.cards}
    for name, sheet in booster["sheets"].items():
        total = sum(sheet["cards"].values())
        if total != sheet["total_weight"]:
            failures.append(f"sheet {name}: weights add to {total}, not {sheet['total_weight']}")
        failures += [f"sheet {name}: card #{n} is not in the set" for n in sheet["cards"] if n not in numbers]
    if failures:
        return failures
    card_set = CardSet("CMR", "Commander Legends", tuple(result.cards))
    spec = {
        "name": booster["name"],
        "cards_per_pack": booster["cards_per_pack"],
        "variants": booster["variants"],
        "total_weight": sum(v["weight"] for v in booster["variants"]),
        "sheets": {
            name: {
                "foil": sheet.get("foil", False),
                "etched": sheet.get("etched", False),
                "balance_colors": sheet.get("balance_colors", False),
                "cards": sheet["cards"],
                "total_weight": sheet["total_weight"],
            }
            for name, sheet in booster["sheets"].items()
        },
    }
    out.mkdir(parents=True, exist_ok=True)
    data = set_to_json(card_set)
    data.pop("boosters")
    (out / "cmr.json").write_text(_compact(data), encoding="utf-8")
    (out / "cmr-boosters.json").write_text(json.dumps({"draft": spec}, indent=1) + "\n", encoding="utf-8")
    return []


def _compact(data: dict[str, Any]) -> str:
    """One card per line: small, and readable in a diff."""
    cards = ",\n".join(json.dumps(card, ensure_ascii=False, separators=(",", ":")) for card in data["cards"])
    head = json.dumps({k: v for k, v in data.items() if k != "cards"}, ensure_ascii=False)[:-1]
    return head + ', "cards": [\n' + cards + "\n]}\n"


def main(argv: list[str]) -> int:
    source = Path(argv[0]) if argv else DEFAULT_SOURCE
    failures = build(source)
    for failure in failures:
        print(failure, file=sys.stderr)
    if not failures:
        print(f"wrote {DATA / 'cmr.json'} and {DATA / 'cmr-boosters.json'}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
