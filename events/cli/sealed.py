"""``cmdraft sealed``: sealed pools of boosters, one per player; ``--build`` opens the deck builder on one.
(Apart from ``packs``, which opens boosters without the builder.)"""

from __future__ import annotations

import random
import shlex
from typing import Annotated

import typer

from draft.products import product
from events.cli.build import db_words, open_builder
from events.cli.common import (
    DbOption,
    JsonOption,
    KindOption,
    SeedOption,
    SetOption,
    emit_json,
    option_limits,
    out,
    progress_console,
    resolve_seed,
)
from events.screens.progress import LongWork
from events.screens.render import pack_table
from sets.booster import booster_spec, check_sealed, sealed_pool
from sets.errors import InputError


def sealed(
    players: Annotated[int, typer.Option("--players", help="How many players.")] = 1,
    boosters: Annotated[
        int | None, typer.Option("--boosters", help="Boosters per player (default: the product's, six for CMR).")
    ] = None,
    set_code: SetOption = "CMR",
    seed: SeedOption = None,
    kind: KindOption = None,
    as_json: JsonOption = False,
    build: Annotated[bool, typer.Option("--build", help="Open the deck builder on the pool (one player).")] = False,
    plain: Annotated[
        bool, typer.Option("--plain", help="With --build: the line prompt instead of the full-screen app.")
    ] = False,
    db: DbOption = None,
) -> None:
    """Give each player a sealed pool of the product's boosters; --build opens the deck builder on it."""
    if boosters is None:
        boosters = product(set_code).sealed_boosters
    with option_limits({"players": "--players", "boosters": "--boosters"}):
        check_sealed(players, boosters)
    spec = booster_spec(set_code, kind)
    seed = resolve_seed(seed)

    rng = random.Random(seed)
    if build:
        if as_json or players != 1:
            raise InputError("--build opens the builder for one sealed pool: leave out --json and --players")

        pool = sealed_pool(spec, rng, boosters)
        cards = [p.card for b in pool for p in b.printings]
        open_builder(
            db,
            f"sealed {set_code.upper()} seed {seed} x{boosters}",
            cards,
            set_code.upper(),
            seed,
            f"sealed-{seed}",
            plain,
            shlex.join(
                ["cmdraft", "sealed", "--build", "--set", set_code.upper(), "--seed", str(seed)]
                + ["--boosters", str(boosters), *db_words(db)]
                + (["--booster", kind] if kind else [])
            ),
        )
        return
    if as_json:
        rows = []
        with LongWork(progress_console(), players, f"opening {players} sealed pools") as work:
            for i in range(1, players + 1):
                pool = sealed_pool(spec, rng, boosters, (i - 1) * boosters)  # numbered as 'packs --seed' numbers them
                rows.append(
                    {
                        "number": i,  # the player's number, as an event's players have theirs
                        "player": i,
                        "boosters": [b.to_json(seed) for b in pool],
                        "pool": [p.card.name for b in pool for p in b.printings],
                    }
                )
                work.advance()
        emit_json({"seed": seed, "set": set_code.upper(), "players": rows})
        return

    console = out()
    with LongWork(console, players, f"opening {players} sealed pools") as work:
        for i in range(1, players + 1):
            pool = sealed_pool(spec, rng, boosters)
            printings = sorted(
                (p for b in pool for p in b.printings),
                key=lambda p: (p.card.deck_colors.mask, p.card.mana_value, p.card.name),
            )
            console.print(
                pack_table(
                    printings,
                    title=f"Player {i}: sealed pool ({len(printings)} cards, seed {seed})",
                    width=console.width,
                )
            )
            work.advance()
