"""Typing or editing a pool at the terminal, a thin face over ``PoolEntry``: good lines are kept, an
unreadable one is set aside with suggestions and asked again when the pool is finished (so the next
card line typed is never taken for it), ``undo`` takes back the last change, and a running count
shows how far the pool has come."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from events.night.pool_entry import PoolEntry, PoolLine
from events.screens.terminal import Interrupted, Quit, Terminal
from sets.card_index import CardIndex
from sets.errors import InputError
from sets.numbers import is_number

POOL_HELP = (
    "One card a line: '2 Murder', 'Murder', or a unique start of a name ('2 murd'). "
    "'undo' takes back the last change, 'list' numbers the lines, 'remove N' takes line N out, "
    "a number alone takes that suggestion for the line just set aside; an empty line ends the pool."
)


def _suggestions(console: Console, line: PoolLine) -> None:
    console.print(Text(f"  ! {line.problem}", style="yellow"))
    if line.suggestions:
        console.print(Text("    " + "   ".join(f"{n}: {name}" for n, name in enumerate(line.suggestions, start=1))))


def type_pool(
    console: Console, terminal: Terminal, index: CardIndex, expected: int, recorded: list[str] | None = None
) -> list[str]:
    """The pool's lines, in order; an empty line (or end of input) ends it.  ``recorded`` starts from
    the lines of a pool already recorded (editing it)."""
    entry = PoolEntry.of(index, recorded or [])
    console.print(Text(POOL_HELP + f" A full pool has {expected} cards."))
    if recorded:
        _list(console, entry)
    while True:
        try:
            text = terminal.ask(escape(f"[{entry.cards}/{expected}] > "))
        except Interrupted:  # Ctrl-C: nothing typed is recorded (a pool being edited stays as it was)
            raise KeyboardInterrupt from None
        except Quit:
            break
        text = (text or "").strip()
        if not text:
            break
        try:
            _command(console, entry, text)
        except InputError as error:
            console.print(Text(f"  ! {error}", style="yellow"))
    _fix_set_aside(console, terminal, entry)
    return entry.texts()


def _command(console: Console, entry: PoolEntry, text: str) -> None:
    word, _, rest = text.partition(" ")
    word = word.casefold()
    if word == "undo" and not rest:
        console.print(Text(f"  undone: {entry.undo()}   ({entry.cards} cards)", style="cyan"))
    elif word == "list" and not rest:
        _list(console, entry)
    elif word in ("remove", "del") and rest:
        line = entry.remove(rest.strip())
        console.print(Text(f"  - {line.text}   ({entry.cards} cards)", style="cyan"))
    elif word == "help" and not rest:
        console.print(Text(POOL_HELP))
    elif is_number(text) and entry.set_aside:
        line = entry.take_suggestion(int(text))
        console.print(Text(f"  + {line.text}   ({entry.cards} cards)", style="green"))
    else:
        line = entry.add(text)
        if not line.ok:
            _suggestions(console, line)
            hint = " (type a number to take a suggestion now)" if line.suggestions else ""
            console.print(Text(f"  set aside{hint}: it is asked again when the pool is finished", style="yellow"))
        elif not line.cards:
            console.print(Text("  (not a card line: ignored)", style="dim"))
        else:
            console.print(Text(f"  + {line.text}   ({entry.cards} cards)", style="green"))


def _list(console: Console, entry: PoolEntry) -> None:
    for number, line in enumerate(entry.lines, start=1):
        console.print(Text(f"  {number:>3}  {line.text}"))
    for line in entry.set_aside:
        console.print(Text(f"    !  {line.text}   (set aside: {line.problem})", style="yellow"))
    console.print(Text(f"  {len(entry.lines)} lines, {entry.cards} cards"))


def _fix_set_aside(console: Console, terminal: Terminal, entry: PoolEntry) -> None:
    """Every line set aside is asked again now that no card line can follow it; an empty reply leaves it out."""
    for line in list(entry.set_aside):
        current = line
        while True:
            console.print(Text(f"  set aside: {current.text}", style="yellow"))
            _suggestions(console, current)
            hint = ", a number to take a suggestion" if current.suggestions else ""
            try:
                reply = terminal.ask(escape(f"  type the line again{hint}, or an empty line to leave it out: "))
            except Interrupted:
                raise KeyboardInterrupt from None
            except Quit:
                reply = ""
            reply = (reply or "").strip()
            if not reply:
                entry.leave_out(current)
                console.print(Text(f"  left out: {current.text}", style="dim"))
                break
            fixed = entry.fix(current, reply)
            if fixed.ok and fixed.cards:
                console.print(Text(f"  + {fixed.text}   ({entry.cards} cards)", style="green"))
                break
            if fixed.ok:
                console.print(Text("  (not a card line)", style="dim"))
                continue
            entry.set_aside[entry.set_aside.index(current)] = fixed
            current = fixed
