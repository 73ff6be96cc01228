"""What the command groups share: the error-handling root group, common options, output helpers."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import click
import typer
from typer.core import TyperGroup

from sets.errors import CmdraftError, InputError
from sets.numbers import is_decimal, is_number


def _strict(kind: click.ParamType, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
    """``value`` through the one strict parser (``²`` or ``٣`` are no numbers); a usage error otherwise (exit 2)."""
    if isinstance(value, int):
        return value
    if not is_number(str(value), signed=True):
        kind.fail(f"{str(value)!r} is not a valid integer", param, ctx)
    return int(str(value).strip(" \t"))


class StrictInt(click.types.IntParamType):
    """Click's int, read by the strict parser."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return _strict(self, value, param, ctx)


class StrictIntRange(click.IntRange):
    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return super().convert(_strict(self, value, param, ctx), param, ctx)


class StrictFloat(click.types.FloatParamType):
    """Click's float, read by the strict parser: ``nan``, ``inf``, ``1e3``, ``1_0``, ``٣`` or ``５０`` are refused."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, float):
            return value
        if not is_decimal(str(value), signed=True):
            self.fail(f"{str(value)!r} is not a number like 50 or 2.5 (digits 0-9, up to 6 decimals)", param, ctx)
        return float(str(value).strip(" \t"))


def strict_numbers(command: click.Command) -> None:
    """Give every int and float parameter of ``command`` and its subcommands the strict parser."""
    for param in command.params:
        kind = param.type
        if isinstance(kind, click.types.FloatParamType) and not isinstance(kind, (StrictFloat, click.FloatRange)):
            param.type = StrictFloat()
        elif isinstance(kind, click.IntRange) and not isinstance(kind, StrictIntRange):
            param.type = StrictIntRange(kind.min, kind.max, kind.min_open, kind.max_open, kind.clamp)
        elif isinstance(kind, click.types.IntParamType) and not isinstance(kind, (StrictInt, StrictIntRange)):
            param.type = StrictInt()
    for sub in getattr(command, "commands", {}).values():
        strict_numbers(sub)


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

    def write_dl(self, rows, *args: Any, **kwargs: Any) -> None:
        super().write_dl([(term, text.replace("\\[", "[")) for term, text in rows], *args, **kwargs)


class PlainContext(click.Context):
    formatter_class = PlainHelpFormatter


def _error_line(message: str) -> None:
    """``cmdraft: error: …`` on stderr, with control and bidi characters of names in it written out."""
    from events.outputs.text import visible  # only when there is an error: --help stays light

    click.echo(f"cmdraft: error: {visible(message, line_breaks=True)}", err=True)


class RootGroup(TyperGroup):
    """The root group: the one place where a cmdraft error, or a usage error click finds,
    becomes one line ``cmdraft: error: …`` and an exit code."""

    context_class = PlainContext

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        stack = list(self.commands.values())
        while stack:
            command = stack.pop()
            command.context_class = PlainContext
            stack += list(getattr(command, "commands", {}).values())
        strict_numbers(self)

    def invoke(self, ctx: click.Context) -> Any:
        from events.outputs.guard import new_run

        new_run()
        try:
            return super().invoke(ctx)
        except CmdraftError as error:
            _error_line(f"{error}")
            ctx.exit(error.exit_code)

    def main(
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
            message = error.format_message().rstrip(".")
            _error_line(f"{message}{where}")
            sys.exit(2)
        except click.ClickException as error:
            _error_line(f"{error.format_message()}")
            sys.exit(error.exit_code)
        except click.Abort:
            click.echo("cmdraft: interrupted", err=True)
            sys.exit(130)
        sys.exit(code if isinstance(code, int) else 0)


def version_callback(value: bool) -> None:
    if value:
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


JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of tables.")]


SetOption = Annotated[str, typer.Option("--set", help="Set code, e.g. CMR.")]


SeedOption = Annotated[int | None, typer.Option("--seed", help="Random seed; the same seed replays the same result.")]


KindOption = Annotated[
    str | None, typer.Option("--booster", help="Booster type: draft, default, set, collector… (default: draft).")
]


ForceOption = Annotated[
    bool, typer.Option("--force", help="Replace output files that already exist (never a cmdraft database).")
]


DbOption = Annotated[Path | None, typer.Option("--db", help="Database file (default: CMDRAFT_HOME/cmdraft.json).")]


def _encodable(text: str, stream: Any) -> bool:
    try:
        text.encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def emit_json(data: Any) -> None:
    """JSON on stdout: as typed where the stream can carry it, else with ``\\u`` escapes (still the same JSON).
    Non-finite numbers are refused before they can reach it (JSON has none)."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    if not _encodable(text, sys.stdout):
        text = json.dumps(data, ensure_ascii=True, allow_nan=False)
    sys.stdout.write(text + "\n")


def write_stdout(text: str) -> None:
    """Text on stdout; a character the stream can't encode is replaced, never an error."""
    if not _encodable(text, sys.stdout):
        encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
        text = text.encode(encoding, "replace").decode(encoding)
    sys.stdout.write(text)


def out():
    from events.screens.render import console

    return console()


def progress_console():
    """Where progress goes while stdout carries JSON: the terminal's stderr."""
    from rich.console import Console

    return Console(stderr=True)


def resolve_seed(seed: int | None) -> int:
    """The seed to use: the one given, or a fresh one that is then shown so the run can be replayed."""
    if seed is not None:
        return seed
    import random

    return random.SystemRandom().randrange(1, 2**31)


# The largest count every option takes (README: "Limits"); more would run for hours or fill memory.
MAXIMA = {
    "--count": 100_000,  # packs
    "--audit-count": 1_000_000,  # packs audit
    "--players": 1_024,  # sealed
    "--boosters": 36,  # sealed, per player
    "--drafts": 100_000,  # sim
    "--jobs": 64,  # sim
    "--top": 1_000,  # deck suggest
    "--seconds": 3_600,  # event timer
    "--timer": 3_600,  # event new, play: seconds for a full pack
    "--piper-stock": 1_000,  # event new
}


def positive(value: int, option: str, high: int | None = None) -> int:
    """A count of at least 1 and at most its documented maximum (``MAXIMA``, or ``high``)."""
    high = high if high is not None else MAXIMA.get(option)
    if value <= 0:
        raise InputError(f"{option} must be at least 1, not {value}" + (f" (at most {high:,})" if high else ""))
    if high is not None and value > high:
        raise InputError(f"{option} must be at most {high:,}, not {value:,}")
    return value


def parse_colors(values: list[str] | None):
    from sets.colors import Color

    return None if not values else [Color.parse(value) for value in values]


def parse_styles(text: str | None):
    from draft.bots import BotStyle

    if text is None:
        return None
    styles = [BotStyle.parse(part) for part in text.split(",") if part.strip()]
    if not styles:
        raise InputError("--bots needs a style: strong, commander-first or best-card (comma-separated for several)")
    return styles


def draft_config(players: int, set_code: str, kind: str | None):
    from draft.engine import DraftConfig

    config = DraftConfig(seats=players, set_code=set_code.upper(), booster_kind=kind)
    config.check()
    return config


def open_store(db: Path | None):
    from events.storage.store import Store

    return Store(db)
