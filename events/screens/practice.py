"""Solo draft practice at the line prompt: the table until the draft is over, then the deck builder.

Everything is saved after every pick (see ``events.storage.draft_files``); quitting, closing the terminal
or a crash loses nothing, and ``cmdraft play --resume`` goes on at the same pick with the same boosters.
``PracticeUI`` only strings the two screens together: the pick screen over the seat's ``SeatSession``,
then the builder over the seat's ``PracticeDeck``.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from events.screens.builder import BuilderPrompt, pool_farewell
from events.screens.table import TablePrompt
from events.screens.terminal import Interrupted, Quit, Terminal
from events.sessions.activities import PoolDeck, PracticeDeck
from events.sessions.seat import SeatSession
from events.sessions.table import DraftTable
from sets.userdata import db_option


def leave(console: Console, farewell: str) -> None:
    """The last line after quitting, written straight to the terminal: an interrupt may have caught rich halfway
    through a print (every pick and every deck change is already on disk)."""
    console.file.write(f"\n{farewell}\n")
    console.file.flush()


def practice_farewell(table: DraftTable) -> str:
    return f"Saved. Resume with: cmdraft play --resume {table.draft_id}{db_option(table.database)}"


class PracticeUI:
    """A practice draft at the line prompt; ``export_root`` is where 'export' writes by default."""

    def __init__(
        self,
        table: DraftTable,
        console: Console,
        terminal: Terminal,
        export_root: Path | None = None,
        confirm: bool = False,
    ) -> None:
        self.table, self.console, self.terminal = table, console, terminal
        self.export_root = export_root or Path.cwd()
        self.picks = TablePrompt(SeatSession(table, table.humans[0], confirm=confirm), console, terminal)
        self.builder: BuilderPrompt | None = None

    def run(self) -> None:
        try:
            while not self.table.draft.finished:
                self.picks.pick_once()
            self.console.print(
                f"[bold green]The draft is over.[/] You drafted {len(self.picks.seat.pool)} cards.", markup=True
            )
            self.build()
        except (Interrupted, KeyboardInterrupt):
            leave(self.console, practice_farewell(self.table))
            raise KeyboardInterrupt from None  # everything is saved; the command ends as every interrupted one: 130
        except Quit:
            leave(self.console, practice_farewell(self.table))

    def build(self) -> None:
        """The deck builder over the seat's pool, until 'done' and after it (``Quit`` to leave)."""
        self.builder = BuilderPrompt(PracticeDeck(self.table, self.export_root), self.console, self.terminal)
        self.builder.run()


def run_pool_build(deck: PoolDeck, console: Console, terminal: Terminal) -> None:
    """The deck builder at the line prompt over a pool that wasn't drafted here (``cmdraft build``, ``sealed --build``)."""
    try:
        BuilderPrompt(deck, console, terminal).run()
    except (Interrupted, KeyboardInterrupt):
        leave(console, pool_farewell(deck))
        raise KeyboardInterrupt from None
    except Quit:
        leave(console, pool_farewell(deck))
