"""The review after the draft: every pick beside the hint's choice, what wheeled, and the bots' pools and decks."""

from __future__ import annotations

from typing import cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from draft.advice import review
from events.screens.app.foot import KeyBar
from events.screens.app.modals import DeckAppFace, Panel
from events.screens.render import identity_text, shown
from events.screens.review import bot_tables, rated_higher, rated_sentence
from events.sessions.activities import bot_decks
from events.sessions.table import DraftTable


class ReviewScreen(Screen):
    CSS_PATH = "review.tcss"
    BINDINGS = [
        Binding("j", "move(1)", "Down", show=False),
        Binding("k", "move(-1)", "Up", show=False),
        Binding("escape,b", "back", "Back to the deck"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, session: DraftTable, seat: int) -> None:
        super().__init__()
        self.session = session
        self.seat = seat

    def compose(self) -> ComposeResult:
        yield Static(
            Text(
                "Your picks beside the hint's (More: whose cards are rated more, W: cards that wheeled)"
                " · Tab, Enter: a bot's deck",
                style="bold cyan",
            ),
            markup=False,
        )
        yield DataTable(id="picks", cursor_type="row")
        yield Static(id="pick-detail", markup=False)
        yield DataTable(id="bots", cursor_type="row")
        yield KeyBar()

    def on_mount(self) -> None:
        picks = self.query_one("#picks", DataTable)
        picks.add_columns("Pick", "You took", "Hint took", "More", "W")
        self.rows = review(self.session.draft, self.seat, self.session.pipers)
        for index, row in enumerate(self.rows):
            same = {c.name for c in row.taken} == {c.name for c in row.hint}
            # a pick's two cards on two lines: two 30-letter names side by side still fit 80 columns
            picks.add_row(
                Text(f"P{row.pack}p{row.pick}"),
                shown("\n".join(c.name for c in row.taken), style="green"),
                shown("same" if same else "\n".join(c.name for c in row.hint), style="dim" if same else "cyan"),
                Text(rated_higher(row, short=self.app.size.width < 110)),
                Text(str(len(row.wheeled))),
                key=str(index),
                height=max(len(row.taken), 1),
            )
        bots = self.query_one("#bots", DataTable)
        bots.add_columns("Seat", "Commanders", "Id", "Legal")
        self.decks = bot_decks(self.session)
        for bot in self.decks:
            bots.add_row(
                Text(str(bot.seat + 1)),
                shown(" + ".join(c.name for c in bot.deck.commanders)),
                identity_text(bot.report.color_identity.code),
                Text("yes" if bot.report.valid else "no"),
                key=str(bot.seat),
            )
        picks.focus()
        self.show_detail(0)

    def show_detail(self, index: int) -> None:
        if not self.rows:
            return
        row = self.rows[min(index, len(self.rows) - 1)]
        took = shown(" + ".join(c.name for c in row.taken), style="green")
        if rated_higher(row) == "same":
            text = Text.assemble((f"P{row.pack}p{row.pick}: ", "bold"), "you took ", took, ", as the hint would")
        else:
            text = Text.assemble(
                (f"P{row.pack}p{row.pick}: ", "bold"),
                "you took ",
                took,
                "; the hint: ",
                shown(" + ".join(c.name for c in row.hint), style="cyan"),
                f"; {rated_sentence(row)}",
            )
        if row.wheeled:
            text.append("\nWheeled: ")
            text.append_text(shown(" / ".join(c.name for c in row.wheeled)))
        self.query_one("#pick-detail", Static).update(text)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "picks":
            self.show_detail(event.cursor_row)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id != "bots":
            return
        seat = int(str(event.row_key.value))
        for bot in self.decks:
            if bot.seat == seat:
                pool, deck = bot_tables(bot, self.app.size.width - 8)
                self.app.push_screen(Panel("A bot's deck", [deck, pool]))

    def action_move(self, step: int) -> None:
        table = self.focused if isinstance(self.focused, DataTable) else self.query_one("#picks", DataTable)
        table.move_cursor(row=max(0, min(table.row_count - 1, table.cursor_row + step)))

    def action_quit(self) -> None:
        cast(DeckAppFace, self.app).leave()

    def action_back(self) -> None:
        self.app.pop_screen()
