"""The draft table: the pack as a list, the highlighted card, your pool, where the draft is, the timer.

Keys act on the pack list; typing a number starts the name line, and ``/`` opens it for names
(the line prompt's rules: numbers, names, prefixes, ``,`` ``;`` ``+``, "did you mean").
The screen holds no draft state of its own: the pack, the pool and the pick all come from the
``TableSession``; only the marks and the typed line live here, and a timeout clears both.
"""

from __future__ import annotations

from collections import Counter

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, Static
from textual.widgets.data_table import RowKey

from draft.advice import seat_advice, signals
from draft.deckstats import type_group
from events import timing
from events.screens.app.modals import Panel, confirm
from events.screens.cards import card_request, find_card
from events.screens.picks import HELP_PICK, parse_selection
from events.screens.practice import pool_summary
from events.screens.render import (
    RARITY_STYLE,
    card_panel,
    compact_cost,
    identity_text,
    mana_text,
    passing,
    shown,
    signals_table,
)
from sets.errors import InputError

HELP_TABLE = (
    """Keys at the draft table:
  ↑ ↓ or j k   move through the pack          space   mark / unmark the highlighted card
  Enter        take the marked cards (marks the highlighted one first when one is missing)
  0-9          start typing card numbers       /       type names instead ('murder + sol ring')
  Esc          back from the typed line to the pack list
  i            the highlighted card in full    p       your pool so far
  h            hint: what a strong drafter takes here, and why
  s            signals: which colors flow to you
  ?            this help                       q, Ctrl-C  leave (everything is saved; resume with 'cmdraft play --resume')

"""
    + HELP_PICK
)


_SHORT = {"Enchantment": "Enchant.", "Planeswalker": "Planesw."}


_SHORTER = {
    "Creature": "Creat.",
    "Artifact": "Artif.",
    "Enchant.": "Ench.",
    "Instant": "Inst.",
    "Sorcery": "Sorc.",
    "Planesw.": "PW",
    "Battle": "Bat.",
}


def short_type(card, room: int = 8) -> str:
    """The one type a card is listed under, in at most eight letters (the card panel has the whole line),
    or in ``room`` letters when the pack's names leave fewer."""
    kind = type_group(card)
    kind = _SHORT.get(kind, kind)
    if len(kind) > room:
        kind = _SHORTER.get(kind, kind)
    return kind[: max(room, 0)]


def type_room(width: int, padding: int, pack, costs: list[str]) -> int:
    """The letters the Type column may take in a pack list ``width`` cells wide: what the number, the
    longest name, the cost, the rarity and the identity leave (each column has ``padding`` on both sides)."""
    names = max([cell_len(p.card.name) for p in pack] + [4])  # at least the header "Card"
    cost = max((cell_len(c) for c in costs), default=0)
    identity = max((len(p.card.deck_colors.code or "C") for p in pack), default=1)
    used = 3 + names + max(cost, 4) + 1 + max(identity, 2)
    return width - used - 6 * 2 * padding


def pool_panel(pool) -> Text:
    """Your pool by color and curve, in lines short enough for the side of an 80-column screen."""
    colors = Counter("M" if len(card.deck_colors) > 1 else (card.deck_colors.code or "C") for card in pool)
    curve = Counter(min(int(card.mana_value), 6) for card in pool if not card.is_land)
    text = Text(f"Your pool: {len(pool)} cards\n", style="bold")
    for index, key in enumerate("WUBRGMC"):
        text.append_text(identity_text(key) if key != "M" else Text("M", style="magenta"))
        text.append(f"{colors[key]}" + (" " if index < 6 else ""))
    text.append("\nCurve ")
    text.append(" ".join(f"{'6+' if mv == 6 else mv}:{curve[mv]}" for mv in range(7)))
    leaders = sorted({card.name for card in pool if card.can_be_commander})
    if leaders:
        text.append("\nCan lead: ", style="bold")
        text.append_text(shown(" / ".join(leaders)))
    return text


class Timer(Static):
    """The seconds left for this pick.  It only ever redraws itself: the typed line is never touched."""

    shown_seconds: int | None = -1

    def show(self, seconds: int | None) -> None:
        if seconds == self.shown_seconds:
            return  # nothing to draw
        self.shown_seconds = seconds
        if seconds is None:
            self.update(Text(""), layout=False)
            return
        # a fixed-size box (table.tcss): drawing it again never lays the screen out again
        self.update(Text(f"⏱ {seconds}s", style="bold red" if seconds <= 5 else "bold yellow"), layout=False)


class PackTable(DataTable):
    """The pack list.  Marking a card draws that card's row again and only it: DataTable's own
    ``update_cell`` throws away every cell it has drawn, and drawing twenty rows again was most of
    the time a keypress took.  Against a DataTable that doesn't keep these caches, its own way."""

    _CACHES = ("_cell_render_cache", "_row_render_cache", "_row_renderable_cache", "_line_cache")

    def update_cell(self, row_key, column_key, value, *, update_width: bool = False) -> None:
        count = getattr(self, "_update_count", None)
        super().update_cell(row_key, column_key, value, update_width=update_width)
        if (
            update_width
            or count is None
            or self._update_count != count + 1
            or not all(hasattr(self, c) for c in self._CACHES)
        ):
            return
        key = RowKey(row_key) if isinstance(row_key, str) else row_key
        row = self._row_locations.get(key)
        self._update_count = count  # the other rows' drawings stay good: forget this row's only
        for cache in (self._cell_render_cache, self._row_render_cache):
            for stale in [k for k in cache.keys() if k[0] == key]:
                cache.discard(stale)
        self._row_renderable_cache.discard((count, row))
        self._line_cache.clear()  # lines are put together again from the kept cells


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

    def __init__(self, practice) -> None:
        super().__init__()
        self.practice = practice  # the PracticeUI: session, seat, timer rule, the same as the line prompt's
        self.marked: list[int] = []
        self.deadline: float | None = None
        self.shown_pick: tuple | None = None

    @property
    def session(self):
        return self.practice.session

    @property
    def draft(self):
        return self.session.draft

    @property
    def seat(self) -> int:
        return self.practice.seat

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
        yield Input(
            id="names", placeholder="numbers or names, Enter takes them (Esc: back to the list)", select_on_focus=False
        )
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#pack", DataTable)
        wide = self.app.size.width >= 110
        self.wide = wide
        self.set_class(wide, "wide")
        self.show_pack()
        table.focus()
        self.set_interval(0.25, self.tick)

    # --- what is on the screen ------------------------------------------------------------------

    def show_pack(self) -> None:
        """The pack in front of the seat, with the marks cleared and a fresh timer."""
        pack = self.draft.pack(self.seat)
        table = self.query_one("#pack", DataTable)
        table.clear(columns=True)  # columns never narrow by themselves: one long name would crowd every later pack
        table.add_columns("#", "Card", "Cost", "Type", "R", "Id")
        costs = [printing.card.mana_cost if self.wide else compact_cost(printing.card.mana_cost) for printing in pack]
        room = type_room(self.list_width(len(pack)), table.cell_padding, pack, costs)
        for index, printing in enumerate(pack):
            card = printing.card
            table.add_row(
                self.number(index, False),
                shown(card.name, style=RARITY_STYLE[card.rarity]),
                mana_text(costs[index]),
                shown(card.type_line if self.wide and cell_len(card.type_line) <= room else short_type(card, room)),
                shown(card.rarity.letter, style=RARITY_STYLE[card.rarity]),
                identity_text(card.deck_colors.code),
                key=str(index),
            )
        if table.row_count:
            table.move_cursor(row=0)
        self.typing = False
        self.marked = []
        names = self.query_one("#names", Input)
        names.value = ""
        seconds = self.practice.timer_seconds(len(pack)) if pack else None
        self.deadline = timing.monotonic() + seconds if seconds else None
        self.shown_pick = (self.draft.round, self.draft.pick_number)
        self.show_where()
        self.show_pool()
        self.show_card()
        self.tick()

    def list_width(self, rows: int) -> int:
        """The cells the pack list may take: the screen less the side (its fixed width at 80 columns, its least
        width on a big terminal: table.tcss), and less the scroll bar when the rows are more than the lines."""
        table = self.query_one("#pack", DataTable)
        side = self.query_one("#side").styles
        width = self.app.size.width - int((side.min_width if self.wide else side.width).value)
        if rows + 1 > self.app.size.height - 3:  # the status line, the typed line, the keys
            width -= table.styles.scrollbar_size_vertical
        return width

    def show_where(self) -> None:
        draft = self.draft
        text = Text(
            f"Pack {draft.round + 1}/{draft.config.boosters} · pick {draft.pick_number}/{draft.picks_per_pack} · "
            f"take {draft.picks_due(self.seat)} · passing {passing(draft.direction > 0)}",
            style="bold cyan",
        )
        text.append(f" · seat {self.seat + 1}/{draft.config.seats} · draft {self.session.draft_id}", style="dim")
        self.query_one("#where", Static).update(text, layout=False)

    def show_pool(self) -> None:
        self.query_one("#pool", Static).update(pool_panel(self.practice.pool_cards()), layout=False)

    def highlighted(self) -> int | None:
        table = self.query_one("#pack", DataTable)
        pack = self.draft.pack(self.seat)
        if not pack or table.row_count == 0:
            return None
        return min(table.cursor_row, len(pack) - 1)

    def show_card(self) -> None:
        index = self.highlighted()
        panel = self.query_one("#card", Static)
        if index is None:
            panel.update(Text(""), layout=False)
            return
        card = self.draft.pack(self.seat)[index].card
        text = Text.assemble(
            shown(card.name, style="bold " + RARITY_STYLE[card.rarity]),
            "  ",
            mana_text(card.mana_cost),
            "\n",
            shown(card.type_line),
            "  ",
            identity_text(card.deck_colors.code),
        )
        front = card.front
        if front.power is not None:
            text.append(f"  {front.power}/{front.toughness}")
        words = "\n".join(face.text for face in card.faces if face.text)
        text.append("\n")
        text.append_text(shown(words) if words else shown("(no rules text here: cmdraft sets download)", style="dim"))
        panel.update(text, layout=False)

    def say(self, message: str | Text, style: str = "") -> None:
        self.query_one("#message", Static).update(
            message if isinstance(message, Text) else shown(message, style=style), layout=False
        )

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_card()

    def tick(self) -> None:
        timer = self.query_one("#timer", Timer)
        if self.deadline is None:
            timer.show(None)
            return
        left = self.deadline - timing.monotonic()
        if left <= 0:
            self.deadline = None
            self.time_up()
            return
        timer.show(int(left) + (left % 1 > 0))

    # --- actions --------------------------------------------------------------------------------

    def action_move(self, step: int) -> None:
        table = self.query_one("#pack", DataTable)
        table.move_cursor(row=max(0, min(table.row_count - 1, table.cursor_row + step)))

    def _set_mark(self, index: int, on: bool) -> None:
        table = self.query_one("#pack", DataTable)
        if on and index not in self.marked:
            self.marked.append(index)
        elif not on and index in self.marked:
            self.marked.remove(index)
        table.update_cell_at((index, 0), self.number(index, on))

    @staticmethod
    def number(index: int, marked: bool) -> Text:
        """The card's number in the pack, with the mark in front of it."""
        return Text.assemble(("●" if marked else " ", "bold green"), f"{index + 1:>2}")

    def action_mark(self) -> None:
        index = self.highlighted()
        if index is None:
            return
        due = self.draft.picks_due(self.seat)
        if index in self.marked:
            self._set_mark(index, False)
        elif len(self.marked) >= due:
            self.say(f"Already {due} marked: space on a marked card unmarks it.", "yellow")
            return
        else:
            self._set_mark(index, True)
        self.say(f"Marked {len(self.marked)} of {due}" + (": Enter takes them." if len(self.marked) == due else "."))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on the pack list: take the marked cards (the highlighted one is marked when one is missing)."""
        due = self.draft.picks_due(self.seat)
        index = self.highlighted()
        if len(self.marked) < due and index is not None and index not in self.marked:
            self._set_mark(index, True)
        if len(self.marked) < due:
            self.say(f"Mark {due} cards (space), or type their numbers or names.", "yellow")
            return
        self.take(list(self.marked))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        line = event.value.strip()
        pack = self.draft.pack(self.seat)
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
            positions = parse_selection(line, pack, self.draft.picks_due(self.seat))
        except InputError as error:
            self.say(Text.assemble((str(error), "red"), " — same pick again."))
            return
        self.take(positions)

    def on_key(self, event) -> None:
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
        self.typing = False
        self.query_one("#pack", DataTable).focus()

    def take(self, positions: list[int]) -> None:
        pack = self.draft.pack(self.seat)
        chosen = " + ".join(f"{i + 1} {pack[i].card.name}" for i in positions)
        if self.practice.confirm_picks:

            def answered(yes: bool | None) -> None:
                if yes and self.shown_pick == (self.draft.round, self.draft.pick_number):
                    self.pick(positions, Text(f"Took {chosen}.", style="green"))

            self.app.push_screen(confirm("Take these?", f"Take {chosen}?"), answered)
            return
        self.pick(positions, Text(f"Took {chosen}.", style="green"))

    def time_up(self) -> None:
        """Time ran out: the best pick for the seat's colors is taken, marks and typed text are cleared."""
        if isinstance(self.app.screen, Panel):
            self.app.pop_screen()  # a question left open must not take the next pack's cards
        pack = self.draft.pack(self.seat)
        positions = self.session.suggested_positions(self.seat)
        names = " + ".join(pack[i].card.name for i in positions)
        self.query_one("#names", Input).value = ""
        self.pick(
            positions,
            Text.assemble(("Time is up: ", "yellow"), f"took {names} for you (the best pick for your colors)."),
        )
        self.query_one("#pack", DataTable).focus()

    def pick(self, positions: list[int], message: Text) -> None:
        self.session.pick(self.session.choose(self.seat, positions))
        notes = [message]
        # the last cards of a pack need no choosing: taken at once
        while not self.draft.finished and len(self.draft.pack(self.seat)) <= self.draft.picks_due(self.seat):
            last = self.draft.pack(self.seat)
            self.session.pick(self.session.choose(self.seat, list(range(len(last)))))
            notes.append(Text("Last pick of the pack: " + " + ".join(p.card.name for p in last) + " (taken for you)."))
        if self.draft.finished:
            self.app.draft_over()
            return
        with self.app.batch_update():  # the new pack, panels and message reach the terminal as one frame
            self.show_pack()
            self.say(Text("\n").join(notes))
            self.query_one("#pack", DataTable).focus()

    def action_hint(self) -> None:
        advice = seat_advice(self.draft, self.seat)
        body = [Text("A strong drafter takes:", style="bold")]
        body += [shown("• " + line) for line in advice.reasons()]

        def mark(yes: bool | None) -> None:
            if yes and self.shown_pick == (self.draft.round, self.draft.pick_number):
                for index in list(self.marked):
                    self._set_mark(index, False)
                for index in advice.positions:
                    self._set_mark(index, True)
                self.say("Marked the hint's cards: Enter takes them.")

        self.app.push_screen(Panel("Hint", body, keys="Enter: mark these · Esc: close"), mark)

    def action_signals(self) -> None:
        self.app.push_screen(
            Panel("Signals", signals_table(signals(self.draft, self.seat), width=self.app.size.width - 8))
        )

    def action_pool(self) -> None:
        from events.screens.builder import pool_order
        from events.screens.render import pack_table

        pool = sorted(self.draft.pools[self.seat], key=pool_order)
        body = [pool_summary(self.practice.pool_cards())]
        if pool:
            body.append(pack_table(pool, title="Your pool", numbered=False, width=self.app.size.width - 8))
        self.app.push_screen(Panel("Your pool", body))

    def action_card(self) -> None:
        index = self.highlighted()
        if index is not None:
            self.app.push_screen(Panel("Card", card_panel(self.draft.pack(self.seat)[index].card)))

    def action_help(self) -> None:
        self.app.push_screen(Panel("Help", Text(HELP_TABLE)))

    def action_quit(self) -> None:
        self.app.leave()
