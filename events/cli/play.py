"""``cmdraft play``: a practice draft against bots at the terminal."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import click
import typer
from rich.table import Table
from typer.core import TyperCommand

from draft.deck_state import plural
from events.cli.common import DbOption, SeedOption, SetOption, emit_json, out, resolve_seed
from events.cli.draft_options import draft_config, parse_styles
from events.night.schema import minute_text
from events.screens.app import run_practice  # Textual itself is imported only when the app starts
from events.screens.practice import PracticeUI
from events.screens.terminal import Terminal, terminate_as_interrupt
from events.sessions.practice import Practices, practice_timer
from sets.errors import InputError, LimitError
from sets.numbers import is_number
from sets.userdata import db_option
from sets.visible import quoted


class PlayCommand(TyperCommand):
    """``play``, whose ``--resume`` takes an id only when one is given: alone, or before another option,
    it means the latest saved draft.  That is click's option with an optional value (``flag_value``),
    which Typer can't declare: the command puts click's own option in place of Typer's."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.params = [
            click.Option(param.opts, is_flag=False, flag_value="latest", default=None, help=param.help)
            if param.name == "resume"
            else param
            for param in self.params
        ]


def play(
    seed: SeedOption = None,
    players: Annotated[int, typer.Option("--players", help="Seats at the table, you included (2-12).")] = 8,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots", help="strong (the default), commander-first or best-card; a comma list goes round the table."
        ),
    ] = None,
    seat: Annotated[int, typer.Option("--seat", help="Your seat, 1 to players.")] = 1,
    timer: Annotated[
        int | None, typer.Option("--timer", help="Seconds for the first pick; shrinks as packs empty (0: no timer).")
    ] = None,
    plain: Annotated[
        bool,
        typer.Option(
            "--plain",
            help="The line prompt instead of the full-screen app (also when input or output is not a terminal).",
        ),
    ] = False,
    confirm: Annotated[
        bool | None,
        typer.Option(
            "--confirm/--no-confirm",
            help="Ask before taking each pick (kept with the draft: a resumed draft asks as it did; --no-confirm "
            "stops it).",
        ),
    ] = None,
    resume: Annotated[
        str | None, typer.Option("--resume", help="Continue a saved draft: its id, or 'latest' (the default).")
    ] = None,
    list_drafts: Annotated[bool, typer.Option("--list", help="List saved practice drafts.")] = False,
    name: Annotated[str, typer.Option("--name", help="Your name in logs and exports.")] = "You",
    set_code: SetOption = "CMR",
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="With --list: print JSON.")] = False,
) -> None:
    """Draft against bots at the terminal, build your deck, export it."""
    if as_json and not list_drafts:
        raise InputError(
            "--json goes with --list (the draft itself is played at the terminal): use 'cmdraft play --list --json'"
        )
    practices = Practices(db)
    if list_drafts or resume is not None:
        practices.check_given()  # a mistyped --db: said, not created (a new draft may start a new database)
    if list_drafts:
        rows = practices.saved()
        if as_json:
            emit_json([row.to_json() for row in rows])
            return

        if plain and rows:  # a screen reader's list: a sentence a draft that names each figure, no box to read
            out().print("Saved practice drafts:")
            for row in rows:
                started = f", started {minute_text(row.created)}" if row.created else ""
                out().print(
                    f"Draft {row.id}: {row.set_code}, {row.status}, {plural(row.picks, 'pick')} made, seed {row.seed}, "
                    f"{row.seats} seats{started}; "
                    f"'cmdraft play --resume {row.id} --plain{db_option(practices.path)}' goes on with it.",
                    soft_wrap=True,
                    markup=False,
                    highlight=False,
                )
            return
        table = Table("Id", "Set", "Created", "Status", "Seed", "Seats", "Your picks", title="Saved practice drafts")
        for row in rows:  # the set: one seed opens other packs in CLB than in CMR
            table.add_row(
                str(row.id), row.set_code, row.created, row.status, str(row.seed), str(row.seats), str(row.picks)
            )
        out().print(table if rows else "No saved practice drafts yet: start one with 'cmdraft play'.")
        return
    if timer is not None:
        try:
            practice_timer(timer or None)  # the core's range; 0 here means no timer
        except LimitError as error:
            raise InputError(
                f"--timer must be 0 (no timer) or at least {error.low} seconds (at most {error.high:,}), not {timer:,}"
            ) from None
    if resume is not None:
        _refuse_new_draft_options(resume)
        session = practices.resume(_resume_id(practices, resume))
        if timer is not None and (timer or None) != session.timer:
            was = session.timer
            session.set_timer(timer or None)
            now = f"{timer} seconds for a full pack from now on" if timer else "off from now on"
            out().print(f"Pick timer: {now} (was {f'{was} seconds' if was else 'off'}).")
        if confirm is not None and confirm != session.confirm:
            session.set_confirm(confirm)
    else:
        config = draft_config(players, set_code, None)
        if not 1 <= seat <= players:
            raise InputError(f"--seat must be 1 to {players}, not {seat}")
        styles = parse_styles(bots)
        names = [f"Bot {i + 1}" for i in range(players)]
        names[seat - 1] = name
        try:
            session = practices.start(
                seed=resolve_seed(seed),
                config=config,
                humans=[seat - 1],
                names=names,
                styles=styles,
                timer=timer or None,
                confirm=bool(confirm),
            )
        except LimitError as error:  # the core keeps the name's range; the command line names its option
            raise InputError(error.for_option("--name" if error.field == "name" else error.what)) from None
    with terminate_as_interrupt():  # `kill PID` gives the terminal back as Ctrl-C does
        if plain or not full_screen():
            console = out()
            PracticeUI(session, console, Terminal(console), confirm=session.confirm).run()
            return
        run_practice(session, confirm=session.confirm)


NEW_DRAFT_OPTIONS = {
    "seed": "--seed",
    "players": "--players",
    "bots": "--bots",
    "seat": "--seat",
    "name": "--name",
    "set_code": "--set",
}


def _refuse_new_draft_options(resume: str) -> None:
    """--resume continues a draft as it was made: an option that makes a new one is refused, never ignored (a player
    who typed '--resume --set CMM' and got their CMR draft back would not know)."""
    context = click.get_current_context()
    given = [
        option
        for param, option in NEW_DRAFT_OPTIONS.items()
        if context.get_parameter_source(param) == click.core.ParameterSource.COMMANDLINE
    ]
    if given:
        which = "the latest draft" if resume == "latest" else f"draft {resume}"
        raise InputError(
            f"{', '.join(given)} {'starts' if len(given) == 1 else 'start'} a new draft: --resume continues {which} as "
            f"it was made (--timer and --confirm change it); leave {'it' if len(given) == 1 else 'them'} out, or leave "
            "out --resume to start a new draft"
        )


def full_screen() -> bool:
    """The full-screen app needs a terminal on both sides; a pipe or a file gets the line prompt."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _resume_id(practices: Practices, text: str) -> int:
    rows = practices.saved()
    if text == "latest":
        open_rows = [row for row in rows if row.status != "done"] or rows
        if not open_rows:
            raise InputError("no saved practice draft to resume: start one with 'cmdraft play'")
        return open_rows[-1].id
    if not is_number(text) or int(text) not in {row.id for row in rows}:
        raise InputError(f"no practice draft {quoted(text)}: see 'cmdraft play --list'")
    return int(text)
