"""``cmdraft packs``, ``packs audit`` and ``sealed``: opening boosters."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from events.cli.common import (JsonOption, KindOption, SeedOption, SetOption, emit_json,
                               out, positive, resolve_seed)


packs_app = typer.Typer(help="Open boosters.", invoke_without_command=True)


@packs_app.callback()
def packs(
    ctx: typer.Context,
    set_code: SetOption = "CMR",
    count: Annotated[int, typer.Option("--count", help="How many boosters.")] = 1,
    seed: SeedOption = None,
    kind: KindOption = None,
    as_json: JsonOption = False,
) -> None:
    """Open boosters and show them (one JSON object per line with --json)."""
    if ctx.invoked_subcommand is not None:
        return
    import random

    from sets.booster import booster_spec

    positive(count, "--count")
    spec = booster_spec(set_code, kind)
    seed = resolve_seed(seed)
    boosters = spec.open_many(random.Random(seed), count)
    if as_json:
        sys.stdout.write("".join(json.dumps(b.to_json(seed), ensure_ascii=False) + "\n" for b in boosters))
        return
    from events.screens.render import pack_table

    console = out()
    for booster in boosters:
        console.print(pack_table(booster.printings, title=f"{spec.name} #{booster.index + 1} (seed {seed}, variant {booster.variant})",
                                 width=console.width))


@packs_app.command("audit")
def packs_audit(
    set_code: SetOption = "CMR",
    count: Annotated[int, typer.Option("--count", help="How many boosters to open.")] = 10000,
    seed: SeedOption = None,
    kind: KindOption = None,
    as_json: JsonOption = False,
) -> None:
    """Open many boosters and compare what came out with the spec (chi-square p-values)."""
    from sets.audit import open_and_audit
    from sets.booster import booster_spec

    positive(count, "--count")
    spec = booster_spec(set_code, kind)
    seed = resolve_seed(seed)
    if as_json:
        checks = open_and_audit(spec, count, seed)
        emit_json({"seed": seed, "count": count, "checks": [c.to_json() for c in checks]})
        return
    from rich.progress import Progress
    from rich.table import Table

    from events.screens.render import in_rarity_order, sheet_label, sheet_words

    console = out()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"opening {count} boosters", total=count)
        checks = open_and_audit(spec, count, seed, lambda n: progress.advance(task, n))
    labels = {name: sheet_label(name, [p.card for p in sheet.printings]) for name, sheet in spec.sheets.items()}
    for check in checks:
        table = Table("class", "observed", "expected", "obs/exp", title=f"{sheet_words(check.title, labels)}  (p = {check.p_value:.3f})",
                      title_justify="left")
        order = in_rarity_order([row.label for row in check.rows])
        for row in sorted(check.rows, key=lambda row: order.index(row.label)):
            ratio = row.observed / row.expected if row.expected else float("nan")
            table.add_row(sheet_words(row.label, labels), str(row.observed), f"{row.expected:.1f}", f"{ratio:.3f}")
        console.print(table)
    console.print(f"seed {seed}, {count} boosters; a p-value under 0.001 would point to a collation fault")


def sealed(
    players: Annotated[int, typer.Option("--players", help="How many players.")] = 1,
    boosters: Annotated[int, typer.Option("--boosters", help="Boosters per player.")] = 6,
    set_code: SetOption = "CMR",
    seed: SeedOption = None,
    kind: KindOption = None,
    as_json: JsonOption = False,
) -> None:
    """Give each player a sealed pool of six boosters."""
    import random

    from sets.booster import booster_spec, sealed_pool

    positive(players, "--players")
    positive(boosters, "--boosters")
    spec = booster_spec(set_code, kind)
    seed = resolve_seed(seed)
    rng = random.Random(seed)
    pools = [sealed_pool(spec, rng, boosters) for _ in range(players)]
    if as_json:
        emit_json({"seed": seed, "set": set_code.upper(), "players": [
            {"player": i, "boosters": [b.to_json(seed) for b in pool],
             "pool": [p.card.name for b in pool for p in b.printings]}
            for i, pool in enumerate(pools, start=1)]})
        return
    from events.screens.render import pack_table

    console = out()
    for i, pool in enumerate(pools, start=1):
        printings = sorted((p for b in pool for p in b.printings), key=lambda p: (p.card.deck_colors.mask, p.card.mana_value, p.card.name))
        console.print(pack_table(printings, title=f"Player {i}: sealed pool ({len(printings)} cards, seed {seed})",
                                 width=console.width))
