"""The apps: ``PracticeApp`` (table, then builder, then review) and ``BuildApp`` (the builder over any pool).

Each holds the sessions of its activity, no face object: the seat's ``SeatSession`` at the table, the
deck activity in the builder (``events.sessions``).
"""

from __future__ import annotations

import gc
from pathlib import Path

from textual.app import App
from textual.binding import Binding

from events import portable
from events.screens.app.builder import BuilderScreen
from events.screens.app.modals import Panel
from events.screens.app.review import ReviewScreen
from events.screens.app.table import TableScreen
from events.screens.builder import pool_farewell
from events.screens.practice import practice_farewell
from events.screens.render import shown
from events.sessions.activities import DeckActivity, PoolDeck, PracticeDeck
from events.sessions.seat import SeatSession
from events.sessions.table import DraftTable
from sets.errors import InputError


def freeze_loaded() -> None:
    """Everything loaded so far (the card data, the draft, Textual itself) lives as long as the app:
    the collector stops scanning it, so a full collection mid-draft is a few ms, not a frame or ten."""
    gc.collect()
    gc.freeze()


class DeckApp(App):
    """What both apps share: Ctrl-C leaves, and the builder's review."""

    BINDINGS = [Binding("ctrl+c", "leave", "Quit", show=False, priority=True)]
    ENABLE_COMMAND_PALETTE = False
    interrupted = False  # a SIGINT from outside ended the app (its Ctrl-C key leaves as 'q' does)

    def on_mount(self) -> None:
        if not self.is_headless:
            portable.on_interrupt(self.interrupt)

    def interrupt(self) -> None:
        self.interrupted = True
        self.leave()

    def show_review(self, activity: DeckActivity) -> None:
        try:
            table = activity.drafted()
        except InputError:
            self.notify("No draft to review for this pool.", severity="warning")
            return
        self.push_screen(ReviewScreen(table, table.humans[0]))

    def leave(self) -> None:
        self.exit()

    def action_leave(self) -> None:
        self.leave()


class PracticeApp(DeckApp):
    TITLE = "cmdraft practice"

    def __init__(self, table: DraftTable, confirm: bool = False, export_root: Path | None = None) -> None:
        super().__init__()
        self.table = table
        self.seat = SeatSession(table, table.humans[0], confirm=confirm)
        self.export_root = export_root or Path.cwd()
        self.farewell = practice_farewell(table)

    def on_mount(self) -> None:
        freeze_loaded()
        if self.table.draft.finished:
            self.push_screen(BuilderScreen(PracticeDeck(self.table, self.export_root)))
        else:
            self.push_screen(TableScreen(self.seat))

    def draft_over(self) -> None:
        """The last pick is made: the builder takes the screen."""
        self.switch_screen(BuilderScreen(PracticeDeck(self.table, self.export_root)))
        self.notify("The draft is over: build your deck.", timeout=4)


class BuildApp(DeckApp):
    TITLE = "cmdraft build"

    def __init__(self, deck: PoolDeck) -> None:
        super().__init__()
        self.deck = deck
        self.farewell = pool_farewell(deck)

    def on_mount(self) -> None:
        freeze_loaded()
        self.push_screen(BuilderScreen(self.deck))
        if self.deck.notices:  # what opening the pool said (its file's lines left out): read before building
            self.push_screen(Panel("Opening the pool", [shown(notice, style="yellow") for notice in self.deck.notices]))
            self.deck.notices.clear()
