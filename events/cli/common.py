"""What the command groups share: common options and the output helpers (JSON, tables, the store)."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import click
import typer
from rich.console import Console

from events.portable import stdout_gone
from events.screens.render import console
from sets.colors import Color
from sets.errors import InputError, LimitError

JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of tables.")]


SetOption = Annotated[
    str,
    typer.Option(
        "--set",
        "--product",
        help="The Commander-draft product (its set code): CMR (bundled, the default), CLB or CMM once downloaded "
        "with 'cmdraft sets download CODE'; any imported set.",
    ),
]


SeedOption = Annotated[int | None, typer.Option("--seed", help="Random seed; the same seed replays the same result.")]


KindOption = Annotated[
    str | None, typer.Option("--booster", help="Booster type: draft, default, set, collector… (default: draft).")
]


ForceOption = Annotated[
    bool, typer.Option("--force", help="Replace output files that already exist (never a cmdraft database).")
]


def db_path(text: str) -> Path:
    """``--db`` as typed: an empty or blank value is bad input (a usage error, exit 2), never the current folder."""
    if not text.strip():
        raise click.BadParameter("an empty path would mean the current folder; give a database file name")
    return Path(text)


DbOption = Annotated[
    Path | None,
    typer.Option(
        "--db",
        parser=db_path,
        help="Database file (default: CMDRAFT_HOME/cmdraft.json); one that isn't there is refused (exit 6), "
        "unless the command starts a database (event new, event restore, a new draft or build).",
    ),
]


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
    _write(text + "\n")


def _write(text: str) -> None:
    """``text`` on stdout; a reader that went away (``| head``) is no error: the command ends with its own exit code."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        stdout_gone()


def emit_json_lines(items: Iterable[Any]) -> None:
    """One JSON document a line on stdout, each as ``emit_json`` writes one: as typed where the stream can carry
    the whole text, else every line with ``\\u`` escapes (the same JSON, never a character replaced by ``?``)."""
    items = list(items)
    text = "".join(json.dumps(item, ensure_ascii=False, allow_nan=False) + "\n" for item in items)
    if not _encodable(text, sys.stdout):
        text = "".join(json.dumps(item, ensure_ascii=True, allow_nan=False) + "\n" for item in items)
    _write(text)


def write_stdout(text: str) -> None:
    """Text on stdout; a character the stream can't encode is replaced, never an error."""
    if not _encodable(text, sys.stdout):
        encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
        text = text.encode(encoding, "replace").decode(encoding)
    _write(text)


def out() -> Console:
    return console()


def progress_console() -> Console:
    """Where progress goes while stdout carries JSON: the terminal's stderr."""
    return Console(stderr=True)


def resolve_seed(seed: int | None) -> int:
    """The seed to use: the one given, or a fresh one that is then shown so the run can be replayed."""
    if seed is not None:
        return seed
    return random.SystemRandom().randrange(1, 2**31)


def option_refusal(error: LimitError, option: str) -> InputError:
    """The core's refusal of a value beyond its range, naming the option that carried it: a count from 1 says
    "at least 1" or "at most N", any other range "from LOW to HIGH"."""
    if error.low == 1 and error.value < 1:
        return InputError(f"{option} must be at least 1, not {error.value} (at most {error.high:,})")
    if error.low == 1:
        return InputError(f"{option} must be at most {error.high:,}, not {error.value:,}")
    return InputError(error.for_option(option, said=False))


@contextmanager
def option_limits(options: dict[str, str]) -> Iterator[None]:
    """Inside: a ``LimitError`` of a field in ``options`` (field: option name) is refused naming its option."""
    try:
        yield
    except LimitError as error:
        if error.field not in options:
            raise
        raise option_refusal(error, options[error.field]) from None


def parse_colors(values: list[str] | None) -> list[Color] | None:
    return None if not values else [Color.parse(value) for value in values]
