"""The cmdraft command line run in this process, built from the typer app once.

``typer.testing.CliRunner.invoke`` builds the click command from the app again on every call
(about 0.15 s: it reads every command's signature); the suite invokes thousands of commands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

import click
import typer.main
from click.testing import CliRunner, Result


@cache
def command() -> click.Command:
    from events.cli import app

    return typer.main.get_command(app)


def invoke(
    args: Sequence[object],
    input: str | bytes | None = None,
    catch_exceptions: bool = False,
    env: Mapping[str, str | None] | None = None,
) -> Result:
    """Run ``cmdraft ARGS`` in-process; returns click's Result (exit_code, stdout, stderr)."""
    return CliRunner(env=env).invoke(
        command(), [a if isinstance(a, str) else str(a) for a in args], input=input, catch_exceptions=catch_exceptions
    )
