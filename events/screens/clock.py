"""The round clock on the big screen: the time left in block digits, the round's pairings beside it,
"TIME" when it runs out.  ``p`` pauses and resumes for every terminal, ``q`` leaves; keys act at once."""

from __future__ import annotations

from typing import Any

from rich.align import Align
from rich.console import Console, Group
from rich.live import Live
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from events import timing
from events.night.base import EventBase
from events.night.round_clock import PAUSED, TIME_UP, RoundClock, clock_text, read_clock, toggle_pause
from events.outputs.text import join_names
from events.screens.render import shown
from events.screens.terminal import Keys
from events.screens.timer import big_text

_LETTERS = {
    "T": ["███", " █ ", " █ ", " █ ", " █ "],
    "I": ["███", " █ ", " █ ", " █ ", "███"],
    "M": ["█ █", "███", "█ █", "█ █", "█ █"],
    "E": ["███", "█  ", "███", "█  ", "███"],
}


def big_word(word: str) -> str:
    return "\n".join("  ".join(_LETTERS[ch][row] for ch in word) for row in range(5))


def pairings_table(tables: list[list[str]], first: list[str]) -> Table:
    table = Table("Table", "Players in seat order (* goes first)", title="Pairings", title_justify="left")
    for number, (names, starter) in enumerate(zip(tables, first, strict=True), start=1):
        table.add_row(str(number), shown(join_names(name + (" *" if name == starter else "") for name in names)))
    return table


def clock_screen(
    title: str, round_number: int, clock: RoundClock, now: float, tables: list[list[str]], first: list[str]
) -> Table:
    left = clock.remaining(now)
    if left <= 0:
        face = Group(
            Align.center(Text(big_word("TIME"), style="bold red")),
            Align.center(Text(TIME_UP, style="bold red")),  # the core's words, as the phones and the room say them
        )
    else:
        digits = clock_text(left)
        style = "bold yellow" if clock.paused else ("bold red" if left <= 300 else "bold green")
        face = Group(Align.center(Text(big_text(digits), style=style)), Align.center(Text(digits, style="dim")))
    status = f"{PAUSED} p: resume · q: quit" if clock.paused else "p: pause · q: quit"
    panel = Panel(
        Group(
            Align.center(Text(f"ROUND {round_number}", style="bold cyan")),
            Text(""),
            face,
            Text(""),
            Align.center(Text(status, style="dim")),
        ),
        title=shown(title),
        padding=(1, 4),
    )
    grid = Table.grid(padding=(0, 2))
    grid.add_column()
    grid.add_column()
    grid.add_row(panel, pairings_table(tables, first))
    return grid


def run_clock(
    console: Console,
    events: EventBase,
    event_id: int,
    round_number: int,
    title: str,
    tables: list[list[str]],
    first: list[str],
    stream: Any = None,
    reread: float = 1.0,
) -> None:
    """Show the clock until ``q`` or end of input; the stored clock is read again every ``reread`` seconds, so a
    pause from another terminal shows here too.  Ctrl-C leaves too, and ends the command as every interrupted one
    (130): the clock itself is stored and runs on."""
    try:
        with Keys(stream) as keys, Live(console=console, refresh_per_second=4, transient=False) as live:
            clock = read_clock(events, event_id, round_number)
            read_at = timing.monotonic()
            while clock is not None:
                if timing.monotonic() - read_at >= reread:
                    clock = read_clock(events, event_id, round_number) or clock
                    read_at = timing.monotonic()
                live.update(clock_screen(title, round_number, clock, timing.now(), tables, first))
                key = keys.read(0.25)
                if key is None:
                    continue
                if key in ("", "q", "Q"):
                    break
                if key in ("p", "P", " "):
                    clock = toggle_pause(events, event_id, round_number)
                    read_at = timing.monotonic()
    finally:  # Keys has put the terminal back, also after Ctrl-C
        console.print()
