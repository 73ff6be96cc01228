"""The ``cmdraft`` command line: a thin typer layer over the core.

One module per command group (``sets``, ``packs``, ``sealed``, ``deck``, ``sim``, ``play``,
``build``, and the ``event`` package, a module per part of the night), each
loaded only when its command runs or shows its help; ``root`` lists them and is
the one place where a cmdraft error becomes one line on stderr and the error's
exit code (2 bad input, 3 out of order, 4 storage; see README); ``common``
holds the options and output helpers the groups share.
Every command that prints data takes ``--json``.
"""

from __future__ import annotations

import sys

import typer

from events.cli.root import RootGroup, VersionOption
from events.cli.stdout import EXIT_CODE, StdoutRefused, guard, said
from events.portable import stdout_gone

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


def _streams() -> None:
    """Output never fails on a character the terminal can't show (it is replaced); typed input
    keeps undecodable bytes visible so they can be refused by name, never a traceback."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors="replace")
            except (ValueError, OSError):
                pass
    guard()  # a write standard output refuses: one line and exit 2 (``events.cli.stdout``)
    if hasattr(sys.stdin, "reconfigure"):
        try:
            sys.stdin.reconfigure(errors="surrogateescape")
        except (ValueError, OSError):
            pass


def _error_line(words: str) -> None:
    sys.stderr.write(f"cmdraft: error: {words}\n")


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``cmdraft`` script."""
    args = list(sys.argv[1:] if argv is None else argv)
    _streams()
    try:
        app(args=args, prog_name="cmdraft")
    except KeyboardInterrupt:
        sys.stderr.write("cmdraft: interrupted\n")
        raise SystemExit(130) from None
    except StdoutRefused:  # (said below: the root group says it for a command; here, before or after one)
        pass
    finally:  # what is left for stdout, before Python's own flush at exit would fail on a reader gone away
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            stdout_gone()
        except StdoutRefused:
            pass  # said now
        if said(_error_line):
            # the output is lost: the command's own code (0: a legal deck) would say it was given
            raise SystemExit(EXIT_CODE)  # noqa: B012  # replaces the code the command ended with
