"""``cmdraft build POOL``: the deck builder over any pool file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from events.cli.common import DbOption, open_store, out
from events.cli.deck import read_deck
from events.cli.play import full_screen
from events.screens.app import run_build  # Textual itself is imported only when the app starts
from events.screens.practice import PoolBuildUI, Terminal
from events.screens.render import shown
from events.storage.pool_builds import PoolBuild

PlainOption = Annotated[
    bool,
    typer.Option(
        "--plain", help="The line prompt instead of the full-screen app (also when input or output is not a terminal)."
    ),
]


def build(
    pool: Annotated[
        Path,
        typer.Argument(
            metavar="POOL", help="A pool file in any supported format (sealed, an event pool, another tool's export)."
        ),
    ],
    plain: PlainOption = False,
    db: DbOption = None,
) -> None:
    """Build a Commander draft deck from a pool file; every change is saved, and the same command resumes it."""
    deck, problems = read_deck(pool)
    cards = [line.card for line in deck.lines for _ in range(line.count)]
    console = out()
    for problem in problems:
        console.print(shown(f"skipped: {problem.message}", style="yellow"))
    set_code = next((card.set_code for card in cards if card.set_code), "CMR")
    open_builder(open_store(db), str(pool.resolve()), cards, set_code, 0, pool.stem, plain)


def open_builder(store, source: str, cards, set_code: str, seed: int, stem: str, plain: bool) -> None:
    """The builder, full screen on a terminal, else at the line prompt."""
    session = PoolBuild.open(store, source, cards, set_code, seed)
    console = out()
    ui = PoolBuildUI(session, console, Terminal(console), stem, export_root=Path.cwd())
    if plain or not full_screen():
        ui.run()
        return

    run_build(ui)
