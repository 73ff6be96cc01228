"""The physical draft's big screen: pack, passing direction and a pick timer that shrinks as packs empty;
between packs it stops for the players to review their picks."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rich.align import Align
from rich.console import Console, Group
from rich.live import Live
from rich.panel import Panel
from rich.text import Text

from events import timing
from events.screens.render import passing, shown
from events.screens.terminal import Keys


@dataclass(frozen=True)
class PickSlot:
    pack: int
    pick: int
    picks_in_pack: int
    seconds: float
    direction: str


def schedule(packs: int, pack_size: int, picks_per_turn: int, base_seconds: float) -> Iterator[PickSlot]:
    """Every pick of a physical draft with its time: ``base`` for a full pack, less as it empties."""
    per_pack = -(-pack_size // picks_per_turn)
    floor = min(5.0, base_seconds)
    for pack_index in range(packs):
        direction = passing(pack_index % 2 == 0).upper()
        for pick in range(per_pack):
            left = pack_size - pick * picks_per_turn
            yield PickSlot(pack_index + 1, pick + 1, per_pack, max(floor, base_seconds * left / pack_size), direction)


# Five-row block digits, so the clock can be read across a store.
_GLYPHS = {
    "0": ["███", "█ █", "█ █", "█ █", "███"],
    "1": [" █ ", "██ ", " █ ", " █ ", "███"],
    "2": ["███", "  █", "███", "█  ", "███"],
    "3": ["███", "  █", "███", "  █", "███"],
    "4": ["█ █", "█ █", "███", "  █", "  █"],
    "5": ["███", "█  ", "███", "  █", "███"],
    "6": ["███", "█  ", "███", "█ █", "███"],
    "7": ["███", "  █", "  █", "  █", "  █"],
    "8": ["███", "█ █", "███", "█ █", "███"],
    "9": ["███", "█ █", "███", "  █", "███"],
    ":": ["   ", " █ ", "   ", " █ ", "   "],
}


def big_text(text: str) -> str:
    """``text`` (digits and colons) in five-row block letters."""
    return "\n".join("  ".join(_GLYPHS[ch][row] for ch in text) for row in range(5))


def _screen(slot: PickSlot, remaining: float, paused: bool, title: str) -> Panel:
    clock = f"{int(remaining) // 60:02d}:{int(remaining) % 60:02d}"
    body = Group(
        Align.center(Text(f"PACK {slot.pack}   ·   PASS {slot.direction}", style="bold cyan")),
        Align.center(Text(f"Pick {slot.pick} of {slot.picks_in_pack}   (take 2 cards)", style="bold")),
        Align.center(Text(big_text(clock), style="bold red" if remaining <= 5 else "bold green")),
        Align.center(Text(clock, style="dim")),
        Align.center(Text("PAUSED" if paused else "Enter: next pick · p: pause · q: quit", style="dim")),
    )
    return Panel(body, title=shown(title), padding=(1, 4))  # the event's name, shown as typed


def review_screen(done: int, title: str) -> Panel:
    """Between packs: no clock runs while players look through what they have drafted."""
    body = Group(
        Align.center(Text(f"PACK {done} DONE", style="bold cyan")),
        Align.center(Text("Review your picks: no clock is running.", style="bold")),
        Align.center(Text(f"Enter: start pack {done + 1} · q: quit", style="dim")),
    )
    return Panel(body, title=shown(title), padding=(1, 4))


def run_timer(
    console: Console, slots: list[PickSlot], title: str = "Commander Legends draft", stream: Any = None
) -> int:
    """Show the timer; returns how many picks were timed.  Keys act at once (no Enter after p or q);
    between packs the screen waits for Enter while players review their picks.  The terminal is
    restored on leaving, also after Ctrl-C, which ends the command as every interrupted one (130)."""
    try:
        return _run_timer(console, slots, title, stream)
    except KeyboardInterrupt:  # Keys has put the terminal back
        console.print()
        raise


def _run_timer(console: Console, slots: list[PickSlot], title: str, stream: Any) -> int:
    done = 0
    with Keys(stream) as keys, Live(console=console, refresh_per_second=4, transient=False) as live:
        for index, slot in enumerate(slots):
            if index and slot.pack != slots[index - 1].pack and not _review(live, keys, slots[index - 1].pack, title):
                return done
            deadline = timing.monotonic() + slot.seconds
            paused_left: float | None = None
            while True:
                remaining = paused_left if paused_left is not None else deadline - timing.monotonic()
                if remaining <= 0:
                    break
                live.update(_screen(slot, remaining, paused_left is not None, title))
                key = keys.read(0.25)
                if key is None:
                    continue
                if key == "":
                    return done
                key = key.lower()
                if key == "q":
                    return done
                if key == "p":
                    if paused_left is None:
                        paused_left = deadline - timing.monotonic()
                    else:
                        deadline = timing.monotonic() + paused_left
                        paused_left = None
                elif key == "\n" and paused_left is None:
                    break
            done += 1
        live.update(Panel(Align.center(Text("DRAFT OVER: record every pool", style="bold green")), title=shown(title)))
    return done


def _review(live: Live, keys: Keys, pack: int, title: str) -> bool:
    """Wait, with no clock, until Enter starts the next pack; False when the organizer quits."""
    live.update(review_screen(pack, title), refresh=True)
    while True:
        key = keys.read(0.25)
        if key is None:
            continue
        if key == "" or key.lower() == "q":
            return False
        if key == "\n":
            return True
