"""Typing a pool at the terminal: good lines are kept, an unreadable one is asked again with
suggestions, and a running count shows how far the pool has come."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from events.pool_entry import read_pool_line, with_suggestion
from events.screens.terminal import Quit, Terminal


def type_pool(console: Console, terminal: Terminal, index, expected: int) -> list[str]:
    """The readable lines typed, in order; an empty line (or end of input) ends the pool."""
    console.print(Text(f"Type the pool, one card a line ('2 Murder' or 'Murder'); an empty line ends it. "
                       f"A full pool has {expected} cards."))
    kept: list[str] = []
    count = 0
    while True:
        try:
            text = terminal.ask(escape(f"[{count}/{expected}] > "))
        except Quit:
            break
        if not text:
            break
        line = read_pool_line(text, index)
        while line is not None and not line.ok:
            console.print(Text(f"  ! {line.problem}", style="yellow"))
            if line.suggestions:
                console.print(Text("    " + "   ".join(f"{n}: {name}" for n, name in enumerate(line.suggestions, start=1))))
            hint = ", a number to take a suggestion" if line.suggestions else ""
            try:
                reply = terminal.ask(escape(f"  type the line again{hint}, or an empty line to leave it out: "))
            except Quit:
                reply = ""
            if not reply:
                console.print(Text(f"  left out: {text}", style="dim"))
                line = None
                break
            if reply.isascii() and reply.isdigit() and 1 <= int(reply) <= len(line.suggestions):
                reply = with_suggestion(line, line.suggestions[int(reply) - 1])
            line = read_pool_line(reply, index)
        if line is None:
            continue
        if not line.cards:
            console.print(Text("  (not a card line: ignored)", style="dim"))
            continue
        kept.append(line.text)
        count += line.cards
        console.print(Text(f"  + {line.cards} {', '.join(line.names)}   ({count} cards)", style="green"))
    return kept
