"""The deck builder: pool and deck side by side, grouped by type, with the deck's figures under them.

The screen holds one deck activity (``events.sessions.activities``) and keeps no deck of its own: every
key sends an intent to its ``DeckSession`` (add, remove, commanders, undo ...) and the answer goes to the
log in the line prompt's words (``events.screens.builder.answer_lines``), so both faces share every rule,
every message and the saving after each change; the command line at the bottom reads the line prompt's
commands as typed (``events.screens.deck_commands``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.coordinate import Coordinate
from textual.screen import Screen
from textual.widgets import DataTable, Input, RichLog, Static

from draft import deck_actions as act
from draft.commanders import each_identity, leaders_text
from draft.deckstats import group_cards
from events.outputs.deck_problems import judge_order
from events.screens import deck_commands as words
from events.screens.app.foot import KeyBar, TypedLine
from events.screens.app.goldfish import GoldfishScreen
from events.screens.app.modals import DeckAppFace, Panel, confirm, long_answer, panel_width
from events.screens.builder import (
    HELP_KEYS,
    answer_lines,
    app_opening_lines,
    export_lines,
    figure_lines,
    help_text,
)
from events.screens.cards import find_card
from events.screens.deck_tables import stats_lines
from events.screens.render import card_panel, identity_text, mana_text, shown
from events.screens.review import bot_tables
from events.sessions.activities import DeckActivity
from sets.cards import Card
from sets.errors import InputError

STATS_LINES = 4  # the figures' box (builder.tcss: #stats max-height)

LOG_WIDTH = 120  # the log's tables are laid out for 120 columns, as they always were


class BuilderScreen(Screen):
    CSS_PATH = "builder.tcss"
    BINDINGS = [
        Binding("j", "move(1)", "Down", show=False),
        Binding("k", "move(-1)", "Up", show=False),
        Binding("a", "enter", "Add/remove", show=False),
        Binding("d,delete", "remove", "Remove", show=False),
        Binding("c", "commander", "Commander"),
        Binding("u", "command('undo')", "Undo"),
        Binding("U", "command('redo')", "Redo", show=False),  # U and x: in the help (?), the bar fits 80 columns
        Binding("l", "command('lands')", "Lands"),
        Binding("f", "command('auto')", "Finish"),
        Binding("n", "hand", "Hand"),
        Binding("i", "card", "Card", show=False),
        Binding("x", "command('export')", "Export", show=False),
        Binding("r", "review", "Review"),
        Binding("colon", "command_line", "Command"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "quit", "Quit"),
        Binding("escape", "back", "Back", show=False),
    ]

    def __init__(self, activity: DeckActivity) -> None:
        super().__init__()
        self.activity = activity  # the deck session and what its place offers
        self.session = activity.session
        self.width = LOG_WIDTH  # what answers are laid out for: the log's, or a panel's on the command line
        self.collected: list | None = None  # a command line's answer, gathered for its panel
        self.list_focus = "pool"  # the list to come back to after the command line
        self.wide: bool | None = None  # the lists' layout: for 110 columns or more (None: not laid out yet)
        self.refusal: Text | None = None  # the last refusal said
        self.rows_at: dict[str, int] = {}  # each list's cursor row, to know which way it moves

    def compose(self) -> ComposeResult:
        yield Static(id="deckline", markup=False)
        with Horizontal(id="lists"):
            with Vertical(classes="half"):
                yield DataTable(id="pool", cursor_type="row")
            with Vertical(classes="half"):
                yield DataTable(id="deck", cursor_type="row")
        yield Static(id="stats", markup=False)
        yield RichLog(id="log", markup=False, wrap=True, max_lines=200)
        yield TypedLine(
            id="command",
            placeholder=": a command (add 12, commander 3 7, lands, auto, suggest, done, help)",
        )
        yield KeyBar()

    def on_mount(self) -> None:
        self.say(app_opening_lines(self.session, self.app.size.width - 2))
        self.lay_out()
        self.query_one("#pool", DataTable).focus()

    def on_resize(self) -> None:
        """A terminal made wider or narrower than 110 columns gets that size's lists (they kept the size they opened
        at: two names and an Id on 130 columns)."""
        if self.wide is not None and self.wide != (self.app.size.width >= 110):
            self.lay_out()

    def lay_out(self) -> None:
        """The lists' columns for the screen's width, and their rows (the cursors kept): 80 columns hold two lists of
        30-letter names only with the number inside the name's cell, and the key bar shows every key compact."""
        self.wide = self.app.size.width >= 110
        self.query_one(KeyBar).compact = not self.wide
        pool_columns = ("#", "Card", "Cost", "Id", "In") if self.wide else ("# Card (green: in the deck)", "Id")
        deck_columns = ("N", "Card", "Cost", "Id") if self.wide else ("N Card", "Id")
        tables = [self.query_one(table_id, DataTable) for table_id in ("#pool", "#deck")]
        rows = [table.cursor_row for table in tables]
        for table, columns in zip(tables, (pool_columns, deck_columns), strict=True):
            table.clear(columns=True)
            table.add_columns(*columns)
        self.refresh_lists()
        for table, row in zip(tables, rows, strict=True):
            table.move_cursor(row=min(row, max(table.row_count - 1, 0)))

    # --- what is on the screen ------------------------------------------------------------------

    def log_message(self, renderable: RenderableType) -> None:
        renderable = renderable if not isinstance(renderable, str) else shown(renderable)
        if self.collected is not None:  # a command line's answer: the log or a panel, once it is whole
            self.collected.append(renderable)
        else:
            # a line of words is wrapped at the log's width, the terminal's less its scrollbar (RichLog measures it
            # on the app's console, 80 columns, and kept a wide terminal's advice as a third line out of sight)
            width = self.app.size.width - 2 if isinstance(renderable, Text) else None
            self.query_one("#log", RichLog).write(renderable, width=width)

    def refuse(self, error: InputError, how: str = "") -> None:
        """A refusal in the log (``how``: what to type to do first what it says is owed); one longer than the log's
        lines also opens whole in a panel (its start says which cards and why: the log kept only its end), at once or
        after the command line's answer (``on_input_submitted``)."""
        self.refusal = shown(str(error) + how, style="red")
        self.log_message(self.refusal)
        if self.collected is None and long_answer([self.refusal], panel_width(self.app.size.width)):
            self.app.push_screen(Panel("Refused", self.refusal))

    def say(self, lines: Iterable[RenderableType]) -> None:
        for line in lines:
            self.log_message(line)

    def refresh_lists(self) -> None:
        session = self.session
        pool = session.pool_counts
        pool_table = self.query_one("#pool", DataTable)
        deck_table = self.query_one("#deck", DataTable)
        keep = (pool_table.cursor_row, deck_table.cursor_row)
        pool_table.clear()
        deck_table.clear()
        number = {card: i for i, card in enumerate(session.pool_list, start=1)}
        free = {card: session.available(card) for card in session.pool_list}

        def row(
            table: DataTable[Any], lead: Text, name: Text, card: Card | None, extra: list[Text], key: str, led: str = ""
        ) -> None:
            shown_identity = identity_text(led or card.deck_colors.code) if card is not None else Text("")
            if self.wide:
                cost = mana_text(card.mana_cost) if card is not None else Text("")
                table.add_row(lead, name, cost, shown_identity, *extra, key=key)
            else:
                table.add_row(Text.assemble(lead, " ", name), shown_identity, key=key)

        def heading(table: DataTable[Any], kind: str, cards: list[tuple[Card, int]], extra: int) -> None:
            row(
                table,
                Text(""),
                Text(f"{kind} ({sum(n for _, n in cards)})", style="bold underline"),
                None,
                [Text("")] * extra,
                f"group:{kind}",
            )

        for kind, cards in group_cards({card: pool[card] for card in session.pool_list}):
            heading(pool_table, kind, cards, 1)
            for card, n in cards:
                used = n - free[card]
                style = "dim" if free[card] == 0 and not used else ("green" if used else "")
                row(
                    pool_table,
                    Text(f"{number[card]:>2}"),
                    shown(card.name, style=style),
                    card,
                    [Text(f"{used}/{n}" if used else str(n), style="green" if used else "")],
                    f"card:{number[card]}",
                )
        deck = session.deck()
        # a commander that chose its color (a Piper) shows that color, not its card's colorless identity
        for index, (card, led) in enumerate(zip(deck.commanders, each_identity(deck.commanders, deck.piper_colors))):
            row(
                deck_table,
                Text(" C", style="bold magenta"),
                shown(card.name, style="bold"),
                card,
                [],
                f"commander:{index}",
                led.code,
            )
        self.deck_rows: dict[str, Card] = {}
        for kind, cards in group_cards(deck.main):
            heading(deck_table, kind, cards, 0)
            for card, n in cards:
                key = f"main:{len(self.deck_rows)}"
                self.deck_rows[key] = card
                row(deck_table, Text(f"{n:>2}"), shown(card.name), card, [], key)
        for table, at in ((pool_table, keep[0]), (deck_table, keep[1])):
            if table.row_count:
                table.move_cursor(row=min(at, table.row_count - 1), scroll=True)
        self.show_figures()

    def show_figures(self) -> None:
        report = self.session.report()
        problems = judge_order(report.problems, report.color_identity)  # causes first, identity folded
        commanders = leaders_text(self.session.commanders, report.piper_colors) or "no commander yet"
        state = Text("legal", style="bold green") if report.valid else Text(f"{len(problems)} to fix", style="bold red")
        line = Text.assemble(
            shown(commanders, style="bold"),
            " · ",
            f"{report.size}/60 cards · identity ",
            identity_text(report.color_identity.code),
            " · ",
            state,
        )
        self.query_one("#deckline", Static).update(line)
        box = self.query_one("#stats", Static)
        width = box.size.width or self.app.size.width
        box.update(Group(*figure_lines(stats_lines(self.session.stats()), problems, STATS_LINES, width)))

    def row_card(self, table_id: str) -> tuple[Card | None, str | None]:
        """The card under the cursor of a list, with its key (None on a group heading)."""
        table = self.query_one(f"#{table_id}", DataTable)
        if not table.row_count:
            return None, None
        key = table.coordinate_to_cell_key(Coordinate(table.cursor_row, 0)).row_key.value or ""
        kind, _, value = key.partition(":")
        if kind == "card":
            return self.session.pool_list[int(value) - 1], key
        if kind == "main":
            return self.deck_rows[key], key
        if kind == "commander":
            return self.session.deck().commanders[int(value)], key
        return None, key

    # --- actions --------------------------------------------------------------------------------

    def send(self, intent: object) -> None:
        """One intent to the session; its answer goes to the log, a question to a confirmation first."""
        try:
            result = self.session.apply(intent)
        except InputError as error:
            self.refuse(error)
            self.refresh_lists()
            return
        if isinstance(result, act.Question):

            def answered(yes: bool | None) -> None:
                self.send(act.Replace(bool(yes)))

            self.app.push_screen(confirm("Replace?", result.text), answered)
            return
        self.say([*self.activity.notices, *answer_lines(result, self.activity, self.width)])
        self.activity.notices.clear()
        self.refresh_lists()
        if isinstance(result, act.Finished) and result.saved:
            self.log_message(Text("Export with x, see the review with r, leave with q.", style="bold"))

    def action_command(self, command: str) -> None:
        """A key's command: the session's intent, or the export."""
        if command == "export":
            self.face_command(words.Export(None, False))
            return
        self.send({"undo": act.Undo(), "redo": act.Redo(), "lands": act.FillLands(), "auto": act.Complete()}[command])

    def face_command(self, command: words.FaceCommand) -> None:
        """A command of this screen, not of the deck: help, a card, the review, a bot's deck, an export, leaving."""
        try:
            match command:
                case words.Quit():
                    cast(DeckAppFace, self.app).leave()
                case words.Help():
                    # fitted to where it shows: the panel a command line's answer opens in, or the log
                    width = self.width if self.collected is not None else self.app.size.width - 2
                    self.log_message(Text(help_text(self.activity, width)))
                case words.ReadCard():
                    self.read_card(command.text)
                case words.Review():
                    self.action_review()
                case words.ShowBot():
                    self.say(bot_tables(self.activity.bot(command.seat), self.width))
                case words.Export():  # the x key: a note longer than the log's lines opens whole in a panel
                    self.say(lines := export_lines(self.activity.export(command.folder, command.force)))
                    if self.collected is None and long_answer(lines, panel_width(self.app.size.width)):
                        self.app.push_screen(Panel("Export", lines, keys="↑ ↓ PgUp PgDn: scroll · Esc or Enter: close"))
        except InputError as error:
            self.refuse(error)

    def read_card(self, asked: str) -> None:
        """'? 12', 'card murder': the card in full."""
        try:
            card = find_card(asked, list(self.session.pool_list), "your pool list")
        except InputError as error:
            self.refuse(error)
            return
        self.app.push_screen(Panel("Card", card_panel(card)))

    def focused_list(self) -> str:
        focused = self.focused
        return (focused.id or "pool") if isinstance(focused, DataTable) else "pool"

    def action_move(self, step: int) -> None:
        table = self.query_one(f"#{self.focused_list()}", DataTable)
        table.move_cursor(row=max(0, min(table.row_count - 1, table.cursor_row + step)))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """The cursor rests on cards, never on a group's heading ('Creature (26)', where c, Enter and i did nothing):
        it goes on past it the way it moved (down from the top of the list)."""
        table, row = event.data_table, event.data_table.cursor_row  # where it is now (the event may be older)
        came_from, self.rows_at[table.id or ""] = self.rows_at.get(table.id or "", -1), row
        if row == event.cursor_row and str(event.row_key.value).startswith("group:"):
            step = -1 if 0 < row < came_from else 1
            if 0 <= row + step < table.row_count:
                table.move_cursor(row=row + step)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_enter()

    def action_enter(self) -> None:
        which = self.focused_list()
        card, key = self.row_card(which)
        if card is None:
            return
        if which == "pool":
            self.send(act.Add(((card, 1),)))
        else:
            self.action_remove()

    def action_remove(self) -> None:
        card, key = self.row_card("deck" if self.focused_list() == "deck" else "pool")
        if card is None or key is None:  # (a card always comes with its row's key)
            return
        if key.startswith("commander:"):
            rest = [c for c in self.session.commanders if c is not card]
            self.log_message(Text("Commanders are changed with c on a pool card or 'commander N [M]'.", style="yellow"))
            if rest:  # (an added Piper leads on alone: the core pairs and adds it)
                self.send(act.ChooseCommanders(tuple(rest)))
            return
        self.send(act.Remove(((card, 1),)))

    def action_commander(self) -> None:
        card, _ = self.row_card("pool")
        if card is None or self.focused_list() != "pool":
            self.log_message(Text("Highlight a pool card to make it your commander.", style="yellow"))
            self.refresh_lists()
            return
        current = [c for c in self.session.commanders if c is not card]  # a Piper added after the draft too
        chosen, can = [card], self.session.can_choose_commanders
        added = self.session.piper  # the product's added card, which may lead when not drafted (Faceless One)
        if len(current) == 1 and can([current[0], card]):
            chosen = [current[0], card]  # the core's rule for this product (a Background, a second Piper ...)
        elif not can(chosen) and added is not None and added is not card and can([added, card]):
            chosen = [added, card]  # a Background nothing leads beside: the added card that may choose it
        self.send(act.ChooseCommanders(tuple(chosen)))

    def action_hand(self) -> None:
        if not self.session.deck().main:
            self.log_message(Text("The deck is empty: add cards first.", style="yellow"))
            self.refresh_lists()
            return
        self.app.push_screen(GoldfishScreen(self.session, self.session.deal_hand()))

    def play_on(self, intent: object) -> None:
        """'mulligan', 'draw', 'turn' ... on the command line: the goldfish of the hand dealt last."""
        try:
            hand = self.session.apply(intent)
        except InputError as error:
            return self.refuse(error, words.typed_way(error))  # the command line's way first, as the prompt's
        assert isinstance(hand, act.Hand)  # a hand's steps answer with the hand
        self.app.push_screen(GoldfishScreen(self.session, hand))

    def action_card(self) -> None:
        card, _ = self.row_card(self.focused_list())
        if card is not None:
            self.app.push_screen(Panel("Card", card_panel(card)))

    def action_review(self) -> None:
        cast(DeckAppFace, self.app).show_review(self.activity)

    def action_command_line(self) -> None:
        self.list_focus = self.focused_list()
        self.query_one("#command", Input).focus()

    def action_back(self) -> None:
        self.query_one("#pool", DataTable).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """A line of the command line, read as the line prompt reads it; the lists have the keys again after
        it, and an answer longer than the log's lines opens whole in a panel that scrolls."""
        line = event.value.strip()
        event.input.value = ""
        self.query_one(f"#{self.list_focus}", DataTable).focus()  # before any panel: closing it comes back here
        self.collected, self.width, self.refusal = [], panel_width(self.app.size.width), None
        try:
            command = self.run_line(line)
        finally:
            answer, self.collected, self.width = self.collected, None, LOG_WIDTH
        shows = isinstance(command, words.READING) or self.refusal is not None  # a refusal's start says which and why
        if shows and long_answer(answer, panel_width(self.app.size.width)):
            body = [shown(": " + line, style="bold"), *answer]  # the line as typed: text, never markup
            self.app.push_screen(Panel("Command line", body, keys="↑ ↓ PgUp PgDn: scroll · Esc or Enter: close"))
            answer = [shown(f": {line}: shown whole in a panel (type it again to see it again)", style="dim")]
        self.say(answer)  # never the tail of a table the panel showed whole

    def run_line(self, line: str) -> object:
        """The command a line asks for, done (None: a line that can't be read, said in the log, or empty)."""
        try:
            command = words.parse(line, self.session)
        except InputError as error:
            self.refuse(error)
            self.refresh_lists()
            return None
        if command is None:
            return None
        if isinstance(command, act.DealHand):
            self.action_hand()
        elif isinstance(command, words.GOLDFISH_STEPS):
            self.play_on(command)
        elif isinstance(command, words.FaceCommand):
            self.face_command(command)
        else:
            self.send(command)
        return command

    def action_help(self) -> None:
        self.app.push_screen(Panel("Help", Text(HELP_KEYS)))

    def action_quit(self) -> None:
        cast(DeckAppFace, self.app).leave()
