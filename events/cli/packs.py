"""``cmdraft packs`` and ``packs audit``: opening boosters (``sealed`` pools are ``events/cli/sealed.py``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Annotated

import typer
from rich.progress import Progress
from rich.table import Table
from rich.text import Text

from events.cli.common import (
    JsonOption,
    KindOption,
    SeedOption,
    SetOption,
    emit_json,
    emit_json_lines,
    option_limits,
    out,
    progress_console,
    resolve_seed,
)
from events.screens.progress import LongWork
from events.screens.render import in_rarity_order, pack_table, sheet_label, sheet_words
from sets.audit import Row, check_audited, open_and_audit
from sets.booster import booster_spec, check_opened

packs_app = typer.Typer(help="Open boosters.", invoke_without_command=True)
CARD_ROWS = 10  # the worst rows of a long table (cards) on screen


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

    with option_limits({"count": "--count"}):
        check_opened(count)
    spec = booster_spec(set_code, kind)
    seed = resolve_seed(seed)
    rng = random.Random(seed)
    if as_json:
        boosters = []
        with LongWork(progress_console(), count, f"opening {count} boosters") as work:
            for index in range(count):
                boosters.append(spec.open(rng, index).to_json(seed))
                work.advance()
        emit_json_lines(boosters)
        return

    console = out()
    with LongWork(console, count, f"opening {count} boosters") as work:
        for index in range(count):
            booster = spec.open(rng, index)
            console.print(
                pack_table(
                    booster.printings,
                    title=f"{spec.name} #{booster.index + 1} (seed {seed}, variant {booster.variant})",
                    width=console.width,
                )
            )
            work.advance()


@packs_app.command("audit")
def packs_audit(
    set_code: SetOption = "CMR",
    count: Annotated[int, typer.Option("--count", help="How many boosters to open.")] = 10000,
    seed: SeedOption = None,
    kind: KindOption = None,
    as_json: JsonOption = False,
) -> None:
    """Open many boosters and compare them with what the booster definition promises: per variant, slot, rarity,
    color group and card, with chi-square p-values (worst cards first)."""
    with option_limits({"count": "--count"}):
        check_audited(count)
    spec = booster_spec(set_code, kind)
    seed = resolve_seed(seed)
    if as_json:
        checks = open_and_audit(spec, count, seed)
        emit_json({"seed": seed, "count": count, "checks": [c.to_json() for c in checks]})
        return

    console = out()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"opening {count} boosters", total=count)
        checks = open_and_audit(spec, count, seed, lambda n: progress.advance(task, n))

    labels = {name: sheet_label(name, [p.card for p in sheet.printings]) for name, sheet in spec.sheets.items()}
    for check in checks:
        title = (
            f"{sheet_words(check.title, labels)}  (p = {check.p_value:.3g}; "
            f"chi-square {check.statistic:.1f}, {check.dof} dof)"
        )
        table = Table("class", "observed", "expected", "obs/exp", title=Text(title), title_justify="left")
        shown: Sequence[Row] = check.rows if len(check.rows) <= CARD_ROWS else check.rows[:CARD_ROWS]
        if len(shown) == len(check.rows):  # short tables (slots, rarities) read best in rarity order
            order = in_rarity_order([row.label for row in shown])
            shown = sorted(shown, key=lambda row: order.index(row.label))
        for row in shown:
            ratio = row.observed / row.expected if row.expected else float("nan")
            table.add_row(
                Text(sheet_words(row.label, labels)), str(row.observed), f"{row.expected:.1f}", f"{ratio:.3f}"
            )
        console.print(table)
        if len(shown) < len(check.rows):
            console.print(
                Text(
                    f"  {len(check.rows) - len(shown)} more rows, closer to expected (all of them with --json)",
                    style="dim",
                )
            )
        if check.warning:
            console.print(Text(f"  warning: {check.warning}", style="yellow"))
    console.print(f"seed {seed}, {count} boosters; a p-value under 0.001 would point to a collation fault")
