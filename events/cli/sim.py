"""``cmdraft sim``: whole pods of bots, one or many."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import Progress
from rich.text import Text

from draft.bots import BotStyle
from draft.engine import DraftConfig
from draft.sim import aggregate, check_runs, pod_seeds, pod_summary, run_pod, sure_pipers
from events.cli.common import (
    ForceOption,
    JsonOption,
    KindOption,
    SetOption,
    emit_json,
    option_limits,
    out,
    resolve_seed,
)
from events.cli.draft_options import draft_config, parse_styles
from events.cli.root import StrictSeed
from events.night.pipers import check_piper_stock
from events.outputs.exports import export_pod
from events.outputs.guard import check_folder, output_value
from events.screens.deck_tables import aggregate_table, pod_table
from sets.errors import InputError
from sets.visible import visible


def sim(
    players: Annotated[int, typer.Option("--players", help="Seats at the table (2-12).")] = 8,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            click_type=StrictSeed(),
            help="Random seed; the same seed replays the same result (a store event's draft seed from its export too).",
        ),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots", help="strong (the default), commander-first or best-card; a comma list goes round the table."
        ),
    ] = None,
    set_code: SetOption = "CMR",
    kind: KindOption = None,
    drafts: Annotated[int, typer.Option("--drafts", help="Run this many pods and print aggregate figures.")] = 1,
    jobs: Annotated[int, typer.Option("--jobs", help="Processes for --drafts.")] = 1,
    stock: Annotated[
        int | None,
        typer.Option(
            "--pipers",
            help="A store's Piper stock the table shares (0-1,000; the product's added card: Prismatic Pipers, "
            "Faceless Ones for CLB): each bot plans, and its deck adds, only the Pipers the stock leaves it after "
            "every other seat took the most a deck may add (none from 0, two each from 16 for 8 seats); "
            "left out: no store, the product's most each.",
        ),
    ] = None,
    out_text: Annotated[
        str | None,
        typer.Option(
            "--out", help="Write every seat's pool, deck and draft log here (a new or empty folder, unless --force)."
        ),
    ] = None,
    force: ForceOption = False,
    as_json: JsonOption = False,
) -> None:
    """Simulate a whole pod with bots, from boosters to legal decks."""
    out_dir = None if out_text is None else output_value(out_text, "--out")
    styles = parse_styles(bots)
    config = draft_config(players, set_code, kind)
    with option_limits({"drafts": "--drafts", "jobs": "--jobs", "piper_stock": "--pipers"}):
        check_runs(drafts, jobs)
        if stock is not None:
            check_piper_stock(stock)
    pipers = sure_pipers(config, stock)
    seed = resolve_seed(seed)
    if drafts > 1:
        if out_dir is not None:
            raise InputError("--out writes one pod; leave it out with --drafts")
        run_many(seed, drafts, jobs, config, styles, as_json, pipers)
        return
    if out_dir is not None:
        check_folder(out_dir, force)
    result = run_pod(seed, config, styles, pipers=pipers)
    notes: list[str] = []
    written: list[Path] = []
    if out_dir is not None:
        written = export_pod(result, out_dir, notes, force=force)
    if as_json:
        # --out's files and notes (files left unwritten) travel in the JSON, as `event export --json` carries its own
        out_notes = (
            {}
            if out_dir is None
            else {"written": [str(path) for path in written], "notes": [visible(n) for n in notes]}
        )
        emit_json({**result.to_json(), **out_notes})
        return

    console = out()
    console.print(pod_table(result))
    if out_dir is not None:
        console.print(Text(f"wrote pools, decks and draft logs to {out_dir}"))
        for note in notes:
            console.print(Text(note))


def run_many(
    seed: int,
    drafts: int,
    jobs: int,
    config: DraftConfig,
    styles: Sequence[BotStyle] | None,
    as_json: bool,
    pipers: int | None = None,
) -> None:
    seeds = pod_seeds(seed, drafts)
    work = partial(pod_summary, config=config, styles=styles, pipers=pipers)
    summaries = []
    if as_json:
        summaries = _map(work, seeds, jobs, None)
        emit_json({"seed": seed, **aggregate(summaries).to_json()})
        return

    console = out()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"simulating {drafts} pods", total=drafts)
        summaries = _map(work, seeds, jobs, lambda: progress.advance(task))

    console.print(aggregate_table(seed, aggregate(summaries), config.set_code))


def _map(
    work: Callable[[int], dict[str, Any]], seeds: list[int], jobs: int, tick: Callable[[], None] | None
) -> list[dict[str, Any]]:
    if jobs == 1:
        results = []
        for s in seeds:
            results.append(work(s))
            if tick:
                tick()
        return results

    results = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for summary in pool.map(work, seeds, chunksize=max(1, len(seeds) // (jobs * 8))):
            results.append(summary)
            if tick:
                tick()
    return results
