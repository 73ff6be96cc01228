"""The draft table: the pack as a list, the highlighted card, your pool, where the draft is, the timer.

Keys act on the pack list; typing a number starts the name line, and ``/`` opens it for names
(the line prompt's rules: numbers, names, prefixes, ``,`` ``;`` ``+``, "did you mean").
The screen holds no draft state of its own: the pack, the pool, the marks, the pick and its clock all
live in the seat's ``SeatSession`` (``events.sessions.seat``), the same the line prompt holds; only the
typed line lives here, and a timeout clears it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, cast

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.coordinate import Coordinate
from textual.events import Key
from textual.screen import Screen
from textual.widgets import DataTable, Input, Static

from draft.deck_state import pool_order
from events.night.refusals import WrongCount
from events.screens.app.foot import KeyBar, TypedLine
from events.screens.app.modals import DeckAppFace, Panel, confirm
from events.screens.app.pack_list import PackTable, Timer, card_side, pool_panel, type_cell, type_room
from events.screens.cards import card_request, find_card
from events.screens.deck_tables import signals_table
from events.screens.picks import PICK_TYPED, READ_A_CARD, chosen_words, parse_selection
from events.screens.render import (
    RARITY_STYLE,
    card_panel,
    compact_cost,
    identity_text,
    mana_text,
    pack_table,
    passing,
    shown,
    text_line,
)
from events.screens.table import pool_summary
from events.sessions.seat import NO_ASSISTANCE, Mark, Refused, SeatSession, Taken
from sets.catalog import with_kept_text
from sets.errors import InputError

if TYPE_CHECKING:
    from draft.engine import Draft

HELP_TABLE = (
    """Keys at the draft table:
  ↑ ↓ or j k   move through the pack
  space        mark / unmark the highlighted card
  Enter        take the marked cards (the highlighted one is marked
               first when one is missing)
  0-9          start typing card numbers
  /            type names instead ('murder + sol ring')
  Esc          back from the typed line to the pack list
  i            the highlighted card in full
  p            your pool so far
  h            hint: what a strong drafter takes here, and why
  s            signals: which colors flow to you
  ?            this help
  q, Ctrl-C    leave (everything is saved; resume with
               'cmdraft play --resume')

On the typed line (0-9 or /):
"""
    + PICK_TYPED
    + READ_A_CARD
)


class TableScreen(Screen):
    CSS_PATH = "table.tcss"
    BINDINGS = [
        Binding("j", "move(1)", "Down", show=False),
        Binding("k", "move(-1)", "Up", show=False),
        Binding("space", "mark", "Mark"),
        Binding("h", "hint", "Hint"),
        Binding("s", "signals", "Signals"),
        Binding("p", "pool", "Pool"),
        Binding("i", "card", "Card"),
        Binding("slash", "type_names", "Type names"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "quit", "Quit"),
        Binding("escape", "back", "Back to the pack", show=False),
    ]

    def __init__(self, seat: SeatSession) -> None:
        super().__init__()
        self.seat = seat  # the pack, the marks, the pick and its clock: the same session as the line prompt's

    @property
    def draft(self) -> Draft:
        return self.seat.draft

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield Static(id="where", markup=False)
            yield Timer(id="timer", markup=False)
        with Horizontal(id="middle"):
            yield PackTable(id="pack", cursor_type="row", zebra_stripes=False)
            with Vertical(id="side"):
                yield Static(id="card", markup=False)
                yield Static(id="message", markup=False)
                yield Static(id="pool", markup=False)
        yield TypedLine(
            id="names", placeholder="numbers or names, Enter takes them (Esc: back to the list)", select_on_focus=False
        )
        yield KeyBar()

    def on_mount(self) -> None:
        table = self.query_one("#pack", DataTable)
        wide = self.app.size.width >= 110
        self.wide = wide
        self.set_class(wide, "wide")
        self.show_pack()
        table.focus()
        self.call_after_refresh(self.show_card)  # again once the side is laid out: the card fitted to its room
        self.set_interval(0.25, self.tick)

    # --- what is on the screen ------------------------------------------------------------------

    def show_pack(self) -> None:
        """The pack in front of the seat, with the marks cleared and a fresh timer."""
        self.seat.show()
        self.fill_pack()
        table = self.query_one("#pack", DataTable)
        if table.row_count:
            table.move_cursor(row=0)
        self.typing = False
        names = self.query_one("#names", Input)
        names.value = ""
        self.show_where()
        self.show_pool()
        self.show_card()
        self.tick()

    def on_resize(self) -> None:
        """A terminal made bigger or smaller lays the pack out again for its width, the marks, the cursor and the
        typed line kept (it kept the columns of the size the pack was shown at: an 80-column list on 130)."""
        if not self.laid_out or self.laid_out == self.app.size.width:
            return  # not shown yet, or as wide as it was
        self.wide = self.app.size.width >= 110
        self.set_class(self.wide, "wide")
        self.fill_pack()
        self.show_pool()
        self.call_after_refresh(self.show_card)

    laid_out = 0  # the screen width the pack list was laid out for

    def fill_pack(self) -> None:
        """The pack's rows, laid out for the screen's width, each with its mark; the cursor stays where it was."""
        pack = self.seat.pack
        table = self.query_one("#pack", DataTable)
        at = table.cursor_row
        self.laid_out = self.app.size.width
        table.clear(columns=True)  # columns never narrow by themselves: one long name would crowd every later pack
        table.add_columns("#", "Card", "Cost", "Type", "R", "Id")
        costs = [printing.card.mana_cost if self.wide else compact_cost(printing.card.mana_cost) for printing in pack]
        room = type_room(self.list_width(len(pack)), table.cell_padding, pack, costs)
        for index, printing in enumerate(pack):
            card = printing.card
            table.add_row(
                self.number(index, index in self.seat.marked),
                shown(card.name, style=RARITY_STYLE[card.rarity]),
                mana_text(costs[index]),
                shown(type_cell(card, room, self.wide)),
                shown(card.rarity.letter, style=RARITY_STYLE[card.rarity]),
                identity_text(card.deck_colors.code),
                key=str(index),
            )
        if table.row_count:
            table.move_cursor(row=min(at, table.row_count - 1))

    def list_width(self, rows: int) -> int:
        """The cells the pack list may take: the screen less the side (its fixed width at 80 columns, its least
        width on a big terminal: table.tcss), and less the scroll bar when the rows are more than the lines."""
        table = self.query_one("#pack", DataTable)
        side = self.query_one("#side").styles
        given = side.min_width if self.wide else side.width
        assert given is not None  # the side column's widths are set in the app's styles
        width = self.app.size.width - int(given.value)
        if rows + 1 > self.app.size.height - 3:  # the status line, the typed line, the keys
            width -= table.styles.scrollbar_size_vertical
        return width

    def show_where(self) -> None:
        draft = self.draft
        text = Text(
            f"Pack {draft.round + 1}/{draft.config.boosters} · pick {self.seat.at[1]}/{draft.picks_per_pack} · "
            f"take {self.seat.due} · passing {passing(draft.direction > 0)}",
            style="bold cyan",
        )
        text.append(
            f" · seat {self.seat.seat + 1}/{draft.config.seats} · draft {self.seat.table.draft_id}", style="dim"
        )
        self.query_one("#where", Static).update(text, layout=False)

    def show_pool(self) -> None:
        # the side of an 80-column screen counts the cards that can lead ('p' lists them); a wide one names them
        self.query_one("#pool", Static).update(
            pool_panel(self.seat.pool, self.seat.assist, names=self.wide), layout=False
        )

    def highlighted(self) -> int | None:
        table = self.query_one("#pack", DataTable)
        pack = self.seat.pack
        if not pack or table.row_count == 0:
            return None
        return min(table.cursor_row, len(pack) - 1)

    def show_card(self) -> None:
        index = self.highlighted()
        panel = self.query_one("#card", Static)
        if index is None:
            panel.update(Text(""), layout=False)
            return
        card = with_kept_text(self.seat.pack[index].card)  # text imported while the app runs shows at once
        room = panel.content_region
        text = card_side(card, room.width, room.height)
        panel.update(text, layout=False)

    def say(self, message: str | Text, style: str = "") -> None:
        """A message in the side, whole: its box takes the lines it needs (table.tcss); the screen is laid out
        again only when that number of lines changes."""
        text = message if isinstance(message, Text) else shown(message, style=style)
        box = self.query_one("#message", Static)
        lines = len(text.wrap(self.app.console, max(1, box.content_region.width or 1)))
        box.update(text, layout=lines != self.message_lines)
        self.message_lines = lines

    message_lines = 0

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_card()

    def tick(self) -> None:
        timer = self.query_one("#timer", Timer)
        if self.seat.deadline is None:
            timer.show(None)
            return
        if self.seat.expired():
            self.seat.deadline = None
            self.time_up()
            return
        timer.show(self.seat.seconds_left())

    # --- actions --------------------------------------------------------------------------------

    def action_move(self, step: int) -> None:
        table = self.query_one("#pack", DataTable)
        table.move_cursor(row=max(0, min(table.row_count - 1, table.cursor_row + step)))

    def draw_marks(self, indexes: Iterable[int]) -> None:
        """The number cells of these cards drawn again, with their marks as the session has them."""
        table = self.query_one("#pack", DataTable)
        for index in indexes:
            table.update_cell_at(Coordinate(index, 0), self.number(index, index in self.seat.marked))

    @staticmethod
    def number(index: int, marked: bool) -> Text:
        """The card's number in the pack, with the mark in front of it."""
        return Text.assemble(("●" if marked else " ", "bold green"), f"{index + 1:>2}")

    def action_mark(self) -> None:
        index = self.highlighted()
        if index is None:
            return
        due = self.seat.due
        if self.seat.toggle_mark(index) is Mark.FULL:
            self.say(f"Already {due} marked: space on a marked card unmarks it.", "yellow")
            return
        self.draw_marks([index])
        marked = len(self.seat.marked)
        self.say(f"Marked {marked} of {due}" + (": Enter takes them." if marked == due else "."))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on the pack list: take the marked cards (the highlighted one is marked when one is missing)."""
        before = set(self.seat.marked)
        ready = self.seat.ready(self.highlighted())
        self.draw_marks(set(self.seat.marked) - before)
        if not ready:
            self.say(f"Mark {self.seat.due} cards (space), or type their numbers or names.", "yellow")
            return
        self.take(list(self.seat.marked))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        line = event.value.strip()
        pack = self.seat.pack
        if not line:
            self.query_one("#pack", DataTable).focus()
            return
        asked = card_request(line)
        if asked is not None:
            try:
                card = find_card(asked, [p.card for p in pack], "this pack")
            except InputError as error:
                self.say(str(error), "red")
                return
            self.app.push_screen(Panel("Card", card_panel(card)))
            return
        try:
            positions = parse_selection(line, pack, self.seat.due)
        except (InputError, WrongCount) as error:
            self.say(Text.assemble((str(error), "red"), " — same pick again."))
            return
        self.take(positions)

    def on_key(self, event: Key) -> None:
        """A digit typed at the pack list starts the typed line with it.  Keys that arrive before the
        line has the focus (typed fast, or pasted) go to the line too, never to the list's keys."""
        names = self.query_one("#names", Input)
        if names.has_focus:
            self.typing = False
            return
        if not self.typing and not (event.character and event.character.isdigit()):
            return
        if not self.typing:
            self.typing = True
            names.focus()
        if event.key == "enter":
            self.typing = False
            self.on_input_submitted(Input.Submitted(names, names.value))
        elif event.key == "backspace":
            names.action_delete_left()
        elif event.key == "escape":
            self.action_back()
        elif event.is_printable and event.character:
            names.insert_text_at_cursor(event.character)
        else:
            return
        event.stop()
        event.prevent_default()

    typing = False

    def action_type_names(self) -> None:
        self.typing = True
        self.query_one("#names", Input).focus()

    def action_back(self) -> None:
        """Back to the list: the typed line is dropped, so digits typed next start a new pick, never extend it."""
        self.typing = False
        self.query_one("#names", Input).value = ""
        self.query_one("#pack", DataTable).focus()

    def take(self, positions: list[int]) -> None:
        pack = self.seat.pack
        chosen = chosen_words(pack, positions)
        if self.seat.confirm:

            def answered(yes: bool | None) -> None:
                if yes and self.seat.current:
                    self.pick(positions, Text(f"Took {chosen}.", style="green"))

            # One line per card, what it is for first (the monarchy, the removal), as the line prompt shows it.
            lines = [text_line(pack[i].card, 100) for i in positions]
            self.app.push_screen(confirm("Take these?", f"Take {chosen}?", lines), answered)
            return
        self.pick(positions, Text(f"Took {chosen}.", style="green"))

    def time_up(self) -> None:
        """Time ran out: the marked cards are taken, the best pick for the seat's colors for the rest (``SeatSession.time_up``); typed text is cleared."""
        if isinstance(self.app.screen, Panel):
            self.app.pop_screen()  # a question left open must not take the next pack's cards
        self.query_one("#names", Input).value = ""
        taken = self.seat.time_up()
        if taken is None:
            return
        names = " + ".join(p.card.name for p in taken.pick.taken)
        self.picked(taken, Text.assemble(("Time is up: ", "yellow"), f"took {names} for you ({taken.why})."))
        self.query_one("#pack", DataTable).focus()

    def pick(self, positions: list[int], message: Text) -> None:
        self.picked(self.seat.pick(positions), message)

    def picked(self, outcome: Taken | Refused, message: Text) -> None:
        """After a pick: the last cards of a pack need no choosing (taken at once), then the next pack."""
        if isinstance(outcome, Refused):
            message = Text.assemble(("Not taken: ", "bold red"), outcome.reason)
        notes = [message]
        while self.seat.last_cards_due:
            last = self.seat.pack
            self.seat.take_last_cards()
            notes.append(Text("Last pick of the pack: " + " + ".join(p.card.name for p in last) + " (taken for you)."))
        if self.draft.finished:
            cast(DeckAppFace, self.app).draft_over()
            return
        with self.app.batch_update():  # the new pack, panels and message reach the terminal as one frame
            self.show_pack()
            self.say(Text("\n").join(notes))
            self.query_one("#pack", DataTable).focus()

    def action_hint(self) -> None:
        if not self.seat.assist:
            self.say(Text(NO_ASSISTANCE, style="yellow"))
            return
        advice = self.seat.hint()
        body: list[RenderableType] = [Text("A strong drafter takes:", style="bold")]
        body += [shown("• " + line) for line in advice.reasons()]

        def mark(yes: bool | None) -> None:
            if yes and self.seat.current:
                before = list(self.seat.marked)
                self.seat.mark_only(advice.positions)
                self.draw_marks([*before, *advice.positions])
                self.say("Marked the hint's cards: Enter takes them.")

        self.app.push_screen(Panel("Hint", body, keys="Enter: mark these · Esc: close"), mark)

    def action_signals(self) -> None:
        if not self.seat.assist:
            self.say(Text(NO_ASSISTANCE, style="yellow"))
            return
        self.app.push_screen(Panel("Signals", signals_table(self.seat.signals(), width=self.app.size.width - 8)))

    def action_pool(self) -> None:
        pool = sorted(self.draft.pools[self.seat.seat], key=pool_order)
        body: list[RenderableType] = [pool_summary(self.seat.pool, self.seat.assist)]
        if pool:
            body.append(pack_table(pool, title="Your pool", numbered=False, width=self.app.size.width - 8))
        self.app.push_screen(Panel("Your pool", body))

    def action_card(self) -> None:
        index = self.highlighted()
        if index is not None:
            self.app.push_screen(Panel("Card", card_panel(self.seat.pack[index].card)))

    def action_help(self) -> None:
        self.app.push_screen(Panel("Help", Text(HELP_TABLE)))

    def action_quit(self) -> None:
        cast(DeckAppFace, self.app).leave()
