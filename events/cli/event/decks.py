"""``cmdraft event pipers`` and ``deck``: the Piper ledger and registering decks."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Annotated

import typer

from draft.formats import read_file
from events import timing
from events.cli.common import DbOption, JsonOption, emit_json, option_limits, out, parse_colors
from events.cli.event.shared import EventArg, core, number_pairs
from events.night.decks import Decks
from events.night.pipers import Pipers
from events.outputs.deck_problems import problem_lines
from events.screens.boards import deck_board, piper_ledger
from events.screens.event_draft import build_event_deck
from events.screens.render import shown
from events.screens.terminal import Terminal
from sets.errors import InputError
from sets.numbers import is_number, parse_int
from sets.visible import quoted


def event_pipers(
    event_id: EventArg,
    stock: Annotated[int | None, typer.Option("--stock", help="Pipers the store can lend.")] = None,
    opened: Annotated[
        list[str] | None,
        typer.Option("--opened", help="POD=N Pipers opened in a pod, checked against the pools (repeatable)."),
    ] = None,
    request: Annotated[
        list[str] | None,
        typer.Option("--request", help="NAME=N Pipers a player plans to add, 0-2: a forecast (repeatable)."),
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """The Piper ledger: opened per pod (counted in the pools), Pipers the registered decks add, unused ones,
    the store's stock, any shortfall with who could lend; requests before deck building as a forecast."""
    events = core(db, Pipers)
    opened_by_pod = {}
    for key, count in number_pairs(opened, "--opened").items():
        opened_by_pod[parse_int(key, "pod number in --opened (write POD=N)")] = count
    if stock is not None or opened_by_pod or request:
        with option_limits({"piper_stock": "--stock"}):
            events.set_pipers(event_id, stock=stock, opened=opened_by_pod, requests=number_pairs(request, "--request"))
    ledger = events.piper_ledger(event_id)
    if as_json:
        emit_json(ledger.to_json())
        return

    out().print(piper_ledger(ledger))


def event_deck(
    event_id: EventArg,
    name: Annotated[str | None, typer.Argument(help="Player name (or #N); leave out for the status board.")] = None,
    file: Annotated[Path | None, typer.Argument(help="Deck file in any supported format.")] = None,
    auto: Annotated[bool, typer.Option("--auto", help="Let the bot build the deck from the player's pool.")] = False,
    build: Annotated[
        bool, typer.Option("--build", help="Build the deck at this terminal from the player's pool.")
    ] = False,
    piper: Annotated[list[str] | None, typer.Option("--piper", help="Chosen Piper color (repeat for two).")] = None,
    reason: Annotated[
        str | None,
        typer.Option("--reason", help="Why the desk changes a deck after registration closed (round 1 paired)."),
    ] = None,
    close: Annotated[
        str | None,
        typer.Option(
            "--close", help="Close deck registration for every player: 'now', or a time today (HH:MM) or ISO."
        ),
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Register a player's deck, checked against their recorded pool; with no name, the registration board.

    Registration closes when round 1 is paired (or at the --close time); after that only the desk changes a
    deck, with --reason (kept in the history and shown to the player)."""
    if build and as_json:
        raise InputError(
            "--json goes without --build (the deck is built at this terminal): register a deck file or --auto "
            "with --json, or leave --json out"
        )
    if build and (auto or file is not None):
        raise InputError("--build builds the deck at this terminal: leave out --auto and the deck file")
    if build and (piper or reason is not None):  # the builder chooses the colors, and registers no correction
        raise InputError(  # (in no product's word for the added card: the event isn't read yet)
            "--build chooses the commanders and their colors in the builder and makes no correction: leave out "
            "--piper and --reason "
            "(a correction after registration closed is a deck file or --auto with --reason)"
        )
    if name is None and close is None and (auto or build or piper or reason is not None):
        raise InputError(
            f"--auto, --build, --piper and --reason are for one player's deck: give the player "
            f"('cmdraft event deck {event_id} NAME --auto'), or leave them out for the registration board"
        )
    if close is not None and (name is not None or auto or build or piper or reason is not None):
        raise InputError("--close closes deck registration for every player: leave out the player and the deck")
    events = core(db, Decks)
    if close is not None:
        closing = events.close_decks(event_id, closing_at(close))
        if as_json:
            emit_json(closing.to_json())
        else:
            out().print(closing.words[0].upper() + closing.words[1:] + ".")
        return
    if name is None:
        snap = events.snapshot(event_id)
        if as_json:
            emit_json(
                [
                    # ``name`` as every other player list names them; ``player``, the name too, is kept for scripts
                    {
                        "name": p.name,
                        "player": p.name,
                        "status": p.status,
                        "deck": None if p.deck is None else p.deck.to_json(),
                    }
                    for p in snap.players
                    if not p.bot
                ]
            )
            return

        out().print(deck_board(snap))
        return
    if build:
        console = out()
        build_event_deck(events, event_id, name, console, Terminal(console))
        return
    registered = events.register_deck(
        event_id,
        name,
        None if file is None else read_file(file),
        auto=auto,
        piper_colors=parse_colors(piper),
        reason=reason,
        label="" if file is None else str(file),
    )
    if as_json:
        emit_json(registered.to_json())
        raise typer.Exit(0 if registered.valid else 1)

    report = registered.report
    verdict = (
        "legal" if report.valid else "NOT legal: " + "; ".join(problem_lines(report.problems, report.color_identity))
    )
    note = registered.pipers_note  # the stock limited an auto deck, or a deck file leaves the Piper ledger short
    said = f"deck registered for {quoted(registered.player)} ({registered.led}): {verdict}"
    out().print(shown(said + (f"; {note}" if note else "")), soft_wrap=True)  # one line, however long
    if not report.valid:
        raise typer.Exit(1)  # as 'deck check': an illegal deck is exit 1 (it is registered, and shown on the board)


def closing_at(text: str) -> float | None:
    """``--close``: None for now, else the time (HH:MM today in local time, or an ISO time) as epoch seconds."""
    text = text.strip()
    if text.lower() == "now":
        return None
    try:
        if len(text) <= 5 and ":" in text:
            parts = text.split(":")
            if len(parts) != 2 or not all(is_number(part) for part in parts):  # the one strict parser: no '٣'
                raise ValueError(text)
            hours, minutes = (int(part) for part in parts)
            today = timing.local().astimezone()
            return today.replace(hour=hours, minute=minutes, second=0, microsecond=0).timestamp()
        at = dt.datetime.fromisoformat(text)
    except ValueError:
        raise InputError(f"--close {quoted(text)} is not a time: write 'now', HH:MM (today) or an ISO time") from None
    return (at if at.tzinfo else at.astimezone()).timestamp()
