"""Modal screens: a card's details, a confirmation, and text panels (hint, signals, help, a sample hand)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, cast

from rich.cells import cell_len
from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

if TYPE_CHECKING:
    from events.sessions.activities import DeckActivity


LOG_LINES = 2  # the deck builder's log's height (builder.tcss)


class DeckAppFace(Protocol):
    """What a screen asks of the app it runs in (``practice.DeckApp`` and ``PracticeApp``)."""

    def leave(self) -> None: ...

    def show_review(self, activity: DeckActivity) -> None: ...

    def draft_over(self) -> None: ...


def panel_width(screen_width: int) -> int:
    """The columns inside a panel (``modals.Panel``: the screen up to 110, less its border, padding and scroll bar)."""
    return min(110, screen_width) - 6


def long_answer(answer: Sequence[RenderableType], width: int) -> bool:
    """Whether an answer takes more lines than the log shows (builder.tcss: 2): a table always does."""
    lines = 0
    for part in answer:
        if not isinstance(part, Text):
            return True
        lines += sum(max(1, -(-cell_len(row) // width)) for row in part.plain.split("\n"))
    return lines > LOG_LINES


class Panel(ModalScreen[bool]):
    """Anything to read over the screen (rich renderables only: names are never markup).
    Enter or y answers yes (when ``question`` is given), Escape closes, q leaves the app as everywhere else
    (the footer below says so, and so does the panel's own line of keys)."""

    DEFAULT_CSS = """
    Panel { align: center middle; }
    Panel > Vertical { width: 100%; max-width: 110; height: auto; max-height: 90%; border: round $accent; background: $panel; padding: 0 1; }
    Panel VerticalScroll { height: auto; max-height: 100%; }
    """
    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("q", "quit", "Quit"),
        Binding("enter,y", "yes", "Yes / close"),
        Binding("n", "no", "No", show=False),
    ]

    def __init__(
        self,
        title: str,
        body: RenderableType | list[RenderableType],
        keys: str = "Esc or Enter: close",
        question: bool = False,
        again: bool = False,
    ):
        super().__init__()
        self.title_text = title
        self.body = body if isinstance(body, list) else [body]
        self.keys = f"{keys} · q: quit"
        self.question = question
        self.again = again  # n asks for another (a sample hand) instead of answering no

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = self.title_text
            box.border_subtitle = self.keys  # on the border: never scrolled or pushed out by a long body
            with VerticalScroll():
                for part in self.body:
                    yield Static(part, markup=False)

    def action_close(self) -> None:
        self.dismiss(False)

    def action_quit(self) -> None:
        cast(DeckAppFace, self.app).leave()

    def action_yes(self) -> None:
        self.dismiss(True)

    def action_no(self) -> None:
        self.dismiss(self.again)


def confirm(title: str, question: str, lines: Sequence[RenderableType] = ()) -> Panel:
    """A yes/no question, with ``lines`` below it (what each card a pick takes does, one line each)."""
    return Panel(title, [Text(question), *lines], keys="Enter or y: yes · n or Esc: no", question=True)
