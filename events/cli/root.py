"""The root of ``cmdraft``: its commands, each loaded only when it is used, and the one place where a
cmdraft error, or a usage error click finds, becomes one line ``cmdraft: error: …`` and an exit code.

``COMMANDS`` names each command, the module that defines it and the first paragraph of its help.
The root group is Click's lazy group: ``list_commands`` reads the table and ``get_command`` imports
the module of the command asked for, so ``cmdraft --help`` lists every command without importing
one, and ``cmdraft event …`` loads the event group only.  ``LazyGroup`` is that group for any level: the
event group and its ``player`` subgroup are lazy the same way, from their own tables
(``events/cli/event/__init__.py``), so ``cmdraft event list`` imports its own command's module and no other.
This module stays light for that.
"""

from __future__ import annotations

import importlib
import re
import shlex
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

import click
import typer
import typer.core
from typer.core import TyperGroup

from events.cli.stdout import EXIT_CODE, StdoutRefused, said
from events.outputs.written import new_run
from sets.errors import CmdraftError
from sets.numbers import MAX_DIGITS, is_decimal, is_number
from sets.visible import quoted, visible

# Help here is plain text (``rich_markup_mode=None`` on every group), yet where rich is installed typer imports its
# rich helpers (rich's markdown, pygments, tracebacks: some 30 ms of every ``--help``) only to escape the brackets of
# an option's ``[default: …]`` for rich, which ``PlainHelpFormatter`` would take out again.
typer.core.HAS_RICH = False


@dataclass(frozen=True)
class LazyCommand:
    """A command of the root: its name, where it lives (``module:attribute``, a ``typer.Typer`` for a
    group of commands or a command function) and the first paragraph of its help, for the root's list."""

    name: str
    target: str
    help: str
    cls: str = ""  # the command's own click class, in the same module (an option Typer can't declare)

    def load(self) -> click.Command:
        """The click command, built as typer builds a command joined to the root (its help, options and
        plain help text the same as in one whole tree)."""
        module, _, attribute = self.target.partition(":")
        loaded = importlib.import_module(module)
        found = getattr(loaded, attribute)
        holder = typer.Typer(rich_markup_mode=None, add_completion=False)
        if isinstance(found, typer.Typer):
            holder.add_typer(found, name=self.name)
        else:
            holder.command(self.name, cls=getattr(loaded, self.cls) if self.cls else None)(found)
        return typer.main.get_group(holder).commands[self.name]


# In the order `cmdraft --help` lists them.
COMMANDS = (
    LazyCommand("card", "events.cli.sets:card_command", "Show a card's facts and color identity."),
    LazyCommand(
        "identity", "events.cli.sets:identity_command", "Compute the color identity of every card in a card file."
    ),
    LazyCommand(
        "sealed",
        "events.cli.sealed:sealed",
        "Give each player a sealed pool of the product's boosters; --build opens the deck builder on it.",
    ),
    LazyCommand("sim", "events.cli.sim:sim", "Simulate a whole pod with bots, from boosters to legal decks."),
    LazyCommand(
        "play", "events.cli.play:play", "Draft against bots at the terminal, build your deck, export it.", "PlayCommand"
    ),
    LazyCommand(
        "build",
        "events.cli.build:build",
        "Build a Commander draft deck from a pool file; every change is saved, and the same command resumes it.",
    ),
    LazyCommand("sets", "events.cli.sets:sets_app", "Card sets: list, show, import, download."),
    LazyCommand("packs", "events.cli.packs:packs_app", "Open boosters."),
    LazyCommand("deck", "events.cli.deck:deck_app", "Check, convert and advise on decks and pools."),
    LazyCommand(
        "event",
        "events.cli.event:event_app",
        "Run a store event: players, seating, draft, Pipers, decks, rounds, standings.",
    ),
    LazyCommand(
        "serve",
        "events.cli.serve:serve",
        "Let players join, draft and register decks from their own phones, over this event's database.",
    ),
)


def _strict(
    kind: click.ParamType,
    value: Any,
    param: click.Parameter | None,
    ctx: click.Context | None,
    digits: int = MAX_DIGITS,
) -> int:
    """``value`` through the one strict parser (``²`` or ``٣`` are no numbers); a usage error otherwise (exit 2)."""
    if isinstance(value, int):
        return value
    if not is_number(str(value), signed=True, digits=digits):
        if re.fullmatch(r"[+-]?[0-9]+", str(value).strip(" \t"), re.ASCII):  # a whole number, longer than any here
            kind.fail(f"{quoted(str(value))} has too many digits: give a whole number of at most {digits}", param, ctx)
        kind.fail(f"{quoted(str(value))} is not a valid integer", param, ctx)
    return int(str(value).strip(" \t"))


class StrictInt(click.types.IntParamType):
    """Click's int, read by the strict parser."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return _strict(self, value, param, ctx)


SEED_DIGITS = 41  # a store event's draft seed: the packs' 128-bit secret times 100 plus the pod (packs_secret)


class StrictSeed(StrictInt):
    """A seed, read by the strict parser, as long as a store event's draft seed (``sim --seed`` replays it)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return _strict(self, value, param, ctx, SEED_DIGITS)


class StrictIntRange(click.IntRange):
    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return super().convert(_strict(self, value, param, ctx), param, ctx)


class StrictFloat(click.types.FloatParamType):
    """Click's float, read by the strict parser: ``nan``, ``inf``, ``1e3``, ``1_0``, ``٣`` or ``５０`` are refused."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, float):
            return value
        if not is_decimal(str(value), signed=True):
            self.fail(f"{quoted(str(value))} is not a number like 50 or 2.5 (digits 0-9, up to 6 decimals)", param, ctx)
        return float(str(value).strip(" \t"))


def strict_params(command: click.Command) -> None:
    """Give every int and float parameter of ``command`` itself the strict parser."""
    for param in command.params:
        kind = param.type
        if isinstance(kind, click.types.FloatParamType) and not isinstance(kind, (StrictFloat, click.FloatRange)):
            param.type = StrictFloat()
        elif isinstance(kind, click.IntRange) and not isinstance(kind, StrictIntRange):
            param.type = StrictIntRange(kind.min, kind.max, kind.min_open, kind.max_open, kind.clamp)
        elif isinstance(kind, click.types.IntParamType) and not isinstance(kind, (StrictInt, StrictIntRange)):
            param.type = StrictInt()


def undecodable(arg: str) -> str | None:
    """Why a command-line argument isn't text (None when it is): bytes that weren't UTF-8 (Python keeps
    them as lone surrogates U+DC80-U+DCFF), or another lone surrogate (a broken UTF-16 argument)."""
    bad = next((ch for ch in arg if "\ud800" <= ch <= "\udfff"), None)
    if bad is None:
        return None
    if "\udc80" <= bad <= "\udcff":
        raw = arg.encode("utf-8", "surrogateescape") if all(not "\ud800" <= c < "\udc80" for c in arg) else arg
        return (
            f"the argument {raw!r} is not UTF-8 text (byte 0x{ord(bad) - 0xDC00:02x}); "
            "type it in a UTF-8 terminal, or change the terminal's encoding to UTF-8"
        )
    return f"the argument {arg.encode('utf-8', 'backslashreplace').decode()!r} holds U+{ord(bad):04X}, which is not a character"


class PlainHelpFormatter(click.HelpFormatter):
    """Help as plain text: typer escapes brackets for rich ('\\[required]') even when rich doesn't draw the help."""

    def write_dl(self, rows: Iterable[tuple[str, str]], *args: Any, **kwargs: Any) -> None:
        super().write_dl([(term, text.replace("\\[", "[")) for term, text in rows], *args, **kwargs)


class PlainContext(click.Context):
    formatter_class = PlainHelpFormatter


def prepared(command: click.Command) -> click.Command:
    """``command`` and every command under it with plain help and the strict number parser."""
    stack = [command]
    while stack:
        each = stack.pop()
        each.context_class = PlainContext
        strict_params(each)
        under = getattr(each, "commands", {})
        if not isinstance(under, LazyCommands):  # a lazy group prepares each of its commands as it loads it
            stack += list(under.values())
    return command


class LazyCommands(Mapping[str, click.Command]):
    """The root's commands by name, in the table's order: a command's module is imported when the command
    is looked up, once.  Click and typer suggest names from this mapping ("Did you mean 'event'?") without
    loading any."""

    def __init__(self, table: tuple[LazyCommand, ...]) -> None:
        self._table = {entry.name: entry for entry in table}
        self._loaded: dict[str, click.Command] = {}

    def __getitem__(self, name: str) -> click.Command:
        if name not in self._loaded:
            self._loaded[name] = prepared(self._table[name].load())
        return self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)


def one_suggestion(message: str) -> str:
    """An unknown command's message with its first "Did you mean 'x'?" only: click (8.2 on) and typer each add one."""
    seen = 0

    def first_only(match: re.Match[str]) -> str:
        nonlocal seen
        seen += 1
        return match.group(0) if seen == 1 else ""

    return re.sub(r"\s*\(?Did you mean [^?]*\?\)?", first_only, message)


def _error_line(message: str) -> None:
    """``cmdraft: error: …`` on stderr, with control and bidi characters of names in it written out."""
    click.echo(f"cmdraft: error: {visible(message, line_breaks=True)}", err=True)


class LazyGroup(TyperGroup):
    """A group whose commands come from its ``table`` (a subclass names it), each command's module imported
    only when that command runs or shows its help: listing them, or suggesting a name, imports none.  A
    ``typer.Typer(cls=...)`` with no commands registered on it gives the group its name, help and options."""

    table: tuple[LazyCommand, ...] = ()
    context_class = PlainContext

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = LazyCommands(self.table)  # type: ignore[assignment]  # click declares a mutable mapping; this one is read only (commands come from the table, imported lazily)
        strict_params(self)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)  # the names only: nothing is imported

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list of commands as click writes it, from the table's help: listing them imports none."""
        limit = formatter.width - 6 - max(len(entry.name) for entry in self.table)
        rows = [
            (entry.name, click.Command(entry.name, help=entry.help).get_short_help_str(limit)) for entry in self.table
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


class RootGroup(LazyGroup):
    """The root group: its commands loaded lazily from ``COMMANDS``, and the one place where a cmdraft
    error, or a usage error click finds, becomes one line ``cmdraft: error: …`` and an exit code."""

    table = COMMANDS

    def invoke(self, ctx: click.Context) -> Any:
        new_run()
        try:
            return super().invoke(ctx)
        except CmdraftError as error:
            _error_line(f"{error}")
            ctx.exit(error.exit_code)
        except KeyboardInterrupt:  # said here: typer turns it into a silent exit 130 (0.20) or click's "Aborted!"
            click.echo("cmdraft: interrupted", err=True)
            ctx.exit(130)
        except StdoutRefused:  # (events.cli.stdout)
            said(_error_line)
            ctx.exit(EXIT_CODE)

    def main(  # type: ignore[override]  # typer's main takes windows_expand_args by name; here it travels in ``extra`` to typer's own main, unchanged
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        problem = next((undecodable(arg) for arg in (args or []) if isinstance(arg, str) and undecodable(arg)), None)
        if problem:  # before anything is read or saved: a name that can't be shown or stored exactly
            _error_line(f"{problem}")
            if not standalone_mode:
                raise click.exceptions.Exit(2)
            sys.exit(2)
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as error:
            error.show()  # the help text, as click gives it
            sys.exit(error.exit_code)
        except click.UsageError as error:
            where = f" (see '{error.ctx.command_path} --help')" if error.ctx else ""
            message = one_suggestion(error.format_message()).rstrip(".") + dash_value_hint(error, args)
            _error_line(f"{message}{where}")
            sys.exit(2)
        except click.ClickException as error:
            _error_line(f"{error.format_message()}")
            sys.exit(error.exit_code)
        except click.Abort:
            click.echo("cmdraft: interrupted", err=True)
            sys.exit(130)
        sys.exit(code if isinstance(code, int) else 0)


def dash_value_hint(error: click.UsageError, args: Any) -> str:
    """For an unknown short option that was meant as a value (a player named ``-2+3``, a result starting with one):
    how to give it."""
    if not isinstance(error, click.NoSuchOption) or error.option_name.startswith("--"):
        return ""
    typed = next((a for a in args or [] if isinstance(a, str) and a.startswith(error.option_name)), None)
    if typed is None or re.fullmatch(r"-[A-Za-z]", typed):  # a short option mistyped, not a value
        return ""
    return f"; to give {quoted(typed)} as a name or value, put it after '--' (after every option): -- " + visible(
        shlex.quote(typed)
    )


def version_callback(value: bool) -> None:
    if value:
        # importlib.metadata takes longer to import than the rest of the root: only --version needs it.
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("cmdraft")
        except PackageNotFoundError:
            number = "unknown (not installed)"
        click.echo(f"cmdraft {number}")
        raise typer.Exit()


VersionOption = Annotated[
    bool, typer.Option("--version", is_eager=True, callback=version_callback, help="Show the version and exit.")
]
