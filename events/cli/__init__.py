"""The ``cmdraft`` command line: a thin typer layer over the core.

One module per command group (``sets``, ``packs``, ``deck``, ``sim``, ``play``,
``event``); ``common`` holds the options and output helpers they share and the
root group, the one place where a cmdraft error becomes one line on stderr and
the error's exit code (2 bad input, 3 out of order, 4 storage; see README).
Every command that prints data takes ``--json``.
"""

from __future__ import annotations

import sys

import typer

from events.cli.build import build
from events.cli.common import RootGroup, VersionOption
from events.cli.deck import deck_app
from events.cli.event import event_app
from events.cli.packs import packs_app, sealed
from events.cli.play import PlayCommand, play
from events.cli.sets import card_command, identity_command, sets_app
from events.cli.sim import sim

app = typer.Typer(
    cls=RootGroup,
    help="Commander Legends drafts: packs, pick-two drafts with bots, decks and store events.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


@app.callback()
def root(version: VersionOption = False) -> None:
    """Commander Legends drafts: packs, pick-two drafts with bots, decks and store events."""


app.add_typer(sets_app, name="sets")
app.command("card")(card_command)
app.command("identity")(identity_command)
app.add_typer(packs_app, name="packs")
app.command("sealed")(sealed)
app.add_typer(deck_app, name="deck")
app.command("sim")(sim)
app.command("play", cls=PlayCommand)(play)
app.command("build")(build)
app.add_typer(event_app, name="event")


def _streams() -> None:
    """Output never fails on a character the terminal can't show (it is replaced); typed input
    keeps undecodable bytes visible so they can be refused by name, never a traceback."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors="replace")
            except (ValueError, OSError):
                pass
    if hasattr(sys.stdin, "reconfigure"):
        try:
            sys.stdin.reconfigure(errors="surrogateescape")
        except (ValueError, OSError):
            pass


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``cmdraft`` script."""
    args = list(sys.argv[1:] if argv is None else argv)
    _streams()
    try:
        app(args=args, prog_name="cmdraft")
    except KeyboardInterrupt:
        sys.stderr.write("cmdraft: interrupted\n")
        raise SystemExit(130) from None
