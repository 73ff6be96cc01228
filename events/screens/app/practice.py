"""The apps: ``PracticeApp`` (table, then builder, then review) and ``BuildApp`` (the builder over any pool)."""

from __future__ import annotations

import gc
import io
from pathlib import Path

from rich.console import Console
from textual.app import App
from textual.binding import Binding

from events.screens.app.builder import BuilderScreen
from events.screens.app.review import ReviewScreen
from events.screens.app.table import TableScreen
from events.screens.practice import PracticeUI
from events.screens.render import db_option


def quiet_console(width: int = 120) -> Console:
    """The builder's own console in the app: what it would print goes to its log instead (see ``listener``)."""
    return Console(file=io.StringIO(), width=width, highlight=False, markup=False)


def freeze_loaded() -> None:
    """Everything loaded so far (the card data, the draft, Textual itself) lives as long as the app:
    the collector stops scanning it, so a full collection mid-draft is a few ms, not a frame or ten."""
    gc.collect()
    gc.freeze()


class PracticeApp(App):
    TITLE = "cmdraft practice"
    BINDINGS = [Binding("ctrl+c", "leave", "Quit", show=False, priority=True)]
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, session, confirm: bool = False, export_root: Path | None = None) -> None:
        super().__init__()
        self.practice = PracticeUI(session, quiet_console(), None, export_root=export_root, confirm=confirm)
        self.farewell = f"Saved. Resume with: cmdraft play --resume {session.draft_id}{db_option(session.store.path)}"

    def on_mount(self) -> None:
        freeze_loaded()
        if self.practice.session.draft.finished:
            self.push_screen(BuilderScreen(self.practice))
        else:
            self.push_screen(TableScreen(self.practice))

    def draft_over(self) -> None:
        """The last pick is made: the builder takes the screen."""
        self.switch_screen(BuilderScreen(self.practice))
        self.notify("The draft is over: build your deck.", timeout=4)

    def show_review(self) -> None:
        session = self.practice.session
        if not getattr(session.draft, "finished", False) or not hasattr(session.draft, "picks_of"):
            self.notify("No draft to review for this pool.", severity="warning")
            return
        self.push_screen(ReviewScreen(session, self.practice.seat))

    def leave(self) -> None:
        self.exit()

    def action_leave(self) -> None:
        self.leave()


class BuildApp(PracticeApp):
    TITLE = "cmdraft build"

    def __init__(self, ui) -> None:
        App.__init__(self)
        ui.console = quiet_console()
        self.practice = ui
        self.farewell = ui.farewell()

    def on_mount(self) -> None:
        freeze_loaded()
        self.push_screen(BuilderScreen(self.practice))
