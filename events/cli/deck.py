"""``cmdraft deck …``: check, convert and advise on decks and pools."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from draft.banlist import NO_BANS, BannedList, commander_banlist, misspelled, read_banlist
from draft.deck_rules import Problem, validate
from draft.deck_state import plural
from draft.deckbuild import check_suggestions, rank_commanders
from draft.decks import Deck, DeckFormat, Zone
from draft.formats import FileFormat, decode, read_file, resolve
from draft.formats.registry import named_after
from draft.formats.resolve import UNREADABLE
from draft.products import added_card, product_of
from events.cli.common import ForceOption, JsonOption, emit_json, option_limits, out, parse_colors
from events.cli.draft_options import ProductOption, product_option
from events.outputs.exports import write_deck
from events.outputs.guard import check_file, note_input, output_value
from events.screens.deck_tables import deck_report, suggestion_table
from sets.card_index import CardIndex, card_index
from sets.cards import Card
from sets.errors import InputError
from sets.files import DECK_LIMIT, read_input
from sets.visible import quoted

SAID_LINES = 5  # the bad lines an error line names; the report folds the rest, --json lists every one

deck_app = typer.Typer(help="Check, convert and advise on decks and pools.", no_args_is_help=True)


def read_deck(path: Path, index: CardIndex | None = None, *, pool: bool = False) -> tuple[Deck, list[Problem]]:
    """Read a deck or pool file and look its names up: (deck, problems); a ``pool`` has no commanders to find.

    A file with no card line at all can't be read as a deck: that is an input error.
    """
    deck_file = read_file(path)
    if not deck_file.entries:
        # what the file holds instead: its first unreadable line, or nothing but blank lines, comments and headers
        why = (
            f"{len(deck_file.errors)} unreadable; {deck_file.errors[0]}"
            if deck_file.errors
            else "the file holds none: it is empty, or only blank lines, comments and section headers"
        )
        raise InputError(
            f"{quoted(str(path))}: no card lines could be read ({why}); "
            "give a deck or pool file such as '1 Sol Ring' lines, .cod, .dck, .dek, .json or .csv"
        )
    return resolve(deck_file, index or card_index(), pool=pool)


def load_banlist(path: Path | None) -> BannedList:
    """The bundled Commander banned list, or the one in ``path`` (one card name a line) in its place."""
    if path is None:
        return commander_banlist()
    return read_banlist(decode(read_input(path, DECK_LIMIT, "banned list"), str(path)), str(path))


def lines_said(problems: list[Problem]) -> str:
    """The first ``SAID_LINES`` problems' words, then how many more: an error stays one short line."""
    said = "; ".join(problem.message for problem in problems[:SAID_LINES])
    more = len(problems) - SAID_LINES
    return said + (f"; and {more:,} more" if more > 0 else "")


def say_skipped(console: Console, skipped: list[Problem]) -> None:
    """The first ``SAID_LINES`` lines left out, one a line, then how many more."""
    for problem in skipped[:SAID_LINES]:
        console.print(f"[yellow]skipped[/] {escape(problem.message)}", markup=True)
    if len(skipped) > SAID_LINES:
        console.print(
            f"[yellow]skipped[/] {len(skipped) - SAID_LINES:,} more lines (--json lists every one)", markup=True
        )


@deck_app.command("check")
def deck_check(
    deck_path: Annotated[Path, typer.Argument(metavar="DECK", help="Deck file in any supported format.")],
    pool: Annotated[Path | None, typer.Option("--pool", help="The player's pool file (Commander draft).")] = None,
    piper: Annotated[
        list[str] | None,
        typer.Option(
            "--piper",
            help="Chosen color of a commander that chooses one (The Prismatic Piper; Faceless One in CLB): U or blue; repeat for two.",
        ),
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="commander-draft (default) or commander.")] = "commander-draft",
    product_code: ProductOption = None,
    banlist: Annotated[
        Path | None,
        typer.Option(
            "--banlist", help="Banned list file for --format commander (one name a line), in place of the bundled list."
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Check a deck; exit 0 when legal, 1 when not, 2 when the input can't be read (a line of the deck or the pool
    that names no known card, or can't be read at all: bad input, as ``deck convert`` says it; the report still
    lists every problem)."""
    try:
        deck_format = DeckFormat(fmt)
    except ValueError:
        raise InputError(f"unknown deck format {quoted(fmt)}: use commander-draft or commander") from None
    colors = parse_colors(piper)
    chosen = product_option(product_code)
    if chosen is not None and deck_format is not DeckFormat.COMMANDER_DRAFT:
        raise InputError("--product is for --format commander-draft; constructed Commander has no product")
    if banlist is not None and deck_format is not DeckFormat.COMMANDER:
        raise InputError("--banlist is for --format commander; a Commander draft deck has no banned list")
    index = card_index()
    deck, problems = read_deck(deck_path, index)
    unreadable = {deck_path: [problem for problem in problems if problem.code in UNREADABLE]}
    pool_deck = None
    if pool is not None:
        if deck_format is not DeckFormat.COMMANDER_DRAFT:
            raise InputError("--pool is for --format commander-draft; constructed Commander has no pool")
        pool_deck, pool_problems = read_deck(pool, index, pool=True)
        unreadable[pool] = [problem for problem in pool_problems if problem.code in UNREADABLE]
        problems += [type(p)(p.code, f"pool file: {p.message}", p.cards) for p in pool_problems]
    banned = load_banlist(banlist) if deck_format is DeckFormat.COMMANDER else NO_BANS
    report = validate(deck, pool_deck, deck_format, colors, banned, problems, chosen)
    typos = tuple(misspelled(banned, index))
    if typos:  # a name of the list that is nearly a card's: it bans nothing as written
        report = dataclasses.replace(report, notes=report.notes + typos)
    if as_json:
        emit_json(report.to_json())
    else:
        out().print(deck_report(report))
    bad = sum(len(lines) for lines in unreadable.values())
    if bad:  # bad input (2), said in one line as every error is, after the report, under the file that holds it
        raise InputError(
            "; ".join(
                f"{quoted(str(path))}: {plural(len(lines), 'line')} can't be read: {lines_said(lines)}"
                for path, lines in unreadable.items()
                if lines
            )
            + f"; correct {'it' if bad == 1 else 'them'} and check again"
        )
    raise typer.Exit(0 if report.valid else 1)


@deck_app.command("convert")
def deck_convert(
    source: Annotated[Path, typer.Argument(metavar="IN", help="Deck or pool file in any supported format.")],
    target_text: Annotated[
        str, typer.Argument(metavar="OUT", help="File to write; its extension picks the format unless --to is given.")
    ],
    to: Annotated[str | None, typer.Option("--to", help="arena, text, cod, dck, dek, json or csv.")] = None,
    skip_unknown: Annotated[
        bool,
        typer.Option("--skip-unknown", help="Leave out the lines that can't be read (named) and convert the rest."),
    ] = False,
    force: ForceOption = False,
    as_json: JsonOption = False,
) -> None:
    """Convert a deck or pool file to another format (OUT must not exist yet, unless --force; never IN itself).
    Lines that can't be read (unknown cards, unreadable lines) stop it with exit 2, naming them, unless
    --skip-unknown leaves them out."""
    target = output_value(target_text, "OUT")
    fmt = FileFormat.parse(to) if to else FileFormat.for_path(target)
    note_input(source)  # an input of this command is never its output, --force or not
    check_file(target, force)
    deck, problems = read_deck(source)
    dropped = [p for p in problems if p.code in UNREADABLE]
    if dropped and not skip_unknown:
        raise InputError(
            f"{quoted(str(source))}: {plural(len(dropped), 'line')} can't be converted: "
            + lines_said(dropped)
            + "; correct them, or add --skip-unknown to leave them out (nothing was written)"
        )

    deck = named_after(deck, source)
    written = write_deck(target, deck, fmt, force)
    commanders, main, side = (
        sum(line.count for line in deck.zone(z)) for z in (Zone.COMMANDER, Zone.MAIN, Zone.SIDEBOARD)
    )
    if as_json:
        emit_json(
            {
                "written": str(target),
                "format": fmt.value,
                "cards": sum(l.count for l in deck.lines),
                # the commanders by name, as every deck in --json names them (the counts of the other zones beside)
                "commanders": [line.card.name for line in deck.zone(Zone.COMMANDER) for _ in range(line.count)],
                "main": main,
                "sideboard": side,
                "pool_file": str(written[1]) if len(written) > 1 else None,
                "problems": [p.shown_json() for p in problems],
            }
        )
        return

    console = out()
    warnings = [p for p in problems if p.code not in UNREADABLE]
    say_skipped(console, dropped)
    for problem in warnings:
        console.print(f"[yellow]warning[/] {escape(problem.message)}", markup=True)
    beside = len(written) > 1  # the sideboard went to a pool file beside it
    parts = [plural(commanders, "commander"), f"{main} in the main deck"]
    if side and not beside:
        parts.append(f"{side} in the sideboard")
    console.print(Text(f"wrote {target} ({fmt.value}: {', '.join(parts)})"))
    if beside:
        console.print(
            Text(
                f"{fmt.value} keeps only the commanders in the sideboard, as MTGO does: the whole pool "
                f"(sideboard of {side} included) went to {written[1]}"
            )
        )


@deck_app.command("suggest")
def deck_suggest(
    pool: Annotated[Path, typer.Argument(metavar="POOL", help="Pool file in any supported format.")],
    top: Annotated[int, typer.Option("--top", help="How many choices to show.")] = 10,
    product_code: ProductOption = None,
    as_json: JsonOption = False,
) -> None:
    """Rank commander choices for a pool by the deck each allows: legends, partner pairs (and the product's grant)
    and the product's added card (Pipers; Faceless Ones for CLB)."""
    with option_limits({"top": "--top"}):
        check_suggestions(top)
    deck, problems = read_deck(pool, pool=True)
    counts: dict[Card, int] = {}
    for line in deck.lines:
        counts[line.card] = counts.get(line.card, 0) + line.count
    chosen = product_option(product_code) or product_of(counts)
    suggestions = rank_commanders(counts, top, piper=added_card(chosen), product=chosen)
    if as_json:
        emit_json({"suggestions": [s.to_json() for s in suggestions], "problems": [p.shown_json() for p in problems]})
        return

    console = out()
    say_skipped(console, problems)
    console.print(suggestion_table(suggestions, width=console.width, product=chosen))
