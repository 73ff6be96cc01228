"""``cmdraft build POOL``: the deck builder over any pool file."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from draft.products import product_of
from events.cli.common import DbOption, out
from events.cli.deck import lines_said, read_deck
from events.cli.draft_options import ProductOption, product_option
from events.cli.play import full_screen
from events.screens.app import run_build  # Textual itself is imported only when the app starts
from events.screens.practice import run_pool_build
from events.screens.render import shown
from events.screens.terminal import Terminal, terminate_as_interrupt
from events.sessions.activities import PoolDeck
from sets.cards import Card
from sets.errors import InputError
from sets.visible import quoted

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
    product_code: ProductOption = None,
    db: DbOption = None,
) -> None:
    """Build a Commander draft deck from a pool file; every change is saved, and the same command resumes it.

    The product's rules (its added card, its grant) are those of the pool's own product unless --product says."""
    chosen = product_option(product_code)
    deck, problems = read_deck(pool, pool=True)
    cards = [line.card for line in deck.lines for _ in range(line.count)]
    if not cards:  # nothing to build from: no builder, no build kept in the database
        raise InputError(
            f"{quoted(str(pool))}: no card of it is known here ({lines_said(problems)}); check the names, or import "
            "the set with 'cmdraft sets import FILE'"
        )
    console = out()
    skipped = [f"skipped: {problem.message}" for problem in problems]
    for line in skipped:  # on the terminal, and kept there after the full-screen app, which opens with them too
        console.print(shown(line, style="yellow"), soft_wrap=True)  # one line each, however narrow
    voted = chosen or product_of(cards)
    set_code = (
        voted.code
        if chosen or any(card.set_code == voted.code for card in cards)
        else next((card.set_code for card in cards if card.set_code), "CMR")
    )
    command = shlex.join(["cmdraft", "build", str(pool), *db_words(db)])
    open_builder(db, str(pool.resolve()), cards, set_code, 0, pool.stem, plain, command, skipped)


def db_words(db: Path | None) -> list[str]:
    """The ``--db`` words of a command that opens the same database again (none for the default one)."""
    return [] if db is None else ["--db", str(db)]


def open_builder(
    db: Path | None,
    source: str,
    cards: Sequence[Card],
    set_code: str,
    seed: int,
    stem: str,
    plain: bool,
    command: str = "",
    skipped: Sequence[str] = (),
) -> None:
    """The builder, full screen on a terminal, else at the line prompt; ``command`` opens this build again; the
    lines of the file left out (``skipped``, printed already) the full-screen app says again as it opens."""
    deck = PoolDeck.open(
        db, source, cards, set_code=set_code, seed=seed, stem=stem, export_root=Path.cwd(), resume=command
    )
    with terminate_as_interrupt():  # `kill PID` gives the terminal back as Ctrl-C does
        if plain or not full_screen():
            console = out()
            run_pool_build(deck, console, Terminal(console))
            return
        deck.notices.extend(skipped)
        run_build(deck)
