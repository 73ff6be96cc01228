"""The goldfish over the deck builder: the hand dealt with its lands, mulligans, the bottom, draws and turns
1-6, each key an intent to the deck session (``draft.goldfish`` plays, ``events.screens.goldfish`` words it)."""

from __future__ import annotations

from typing import cast

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from draft import deck_actions as act
from draft.deck_session import DeckSession
from draft.goldfish import BottomFirst
from events.screens.app.modals import DeckAppFace
from events.screens.goldfish import KEYS_APP, goldfish_lines
from events.screens.render import shown
from sets.errors import InputError


class GoldfishScreen(ModalScreen[None]):
    """The game of the hand dealt last; digits mark cards of the hand for the bottom, b puts them there."""

    DEFAULT_CSS = """
    GoldfishScreen { align: center middle; }
    GoldfishScreen > Vertical { width: 96%; max-width: 120; height: auto; max-height: 96%; border: round $accent;
        background: $panel; padding: 0 1; }
    GoldfishScreen VerticalScroll { height: auto; max-height: 1fr; scrollbar-gutter: stable; }
    GoldfishScreen #fish-message { height: auto; }
    """
    BINDINGS = [
        Binding("escape,enter", "close", "Close"),
        Binding("q", "quit", "Quit"),
        Binding("n", "step('hand')", "New hand"),
        Binding("m", "step('mulligan')", "Mulligan"),
        Binding("d", "step('draw')", "Draw"),
        Binding("t", "step('turn')", "Turn"),
        Binding("T", "step('turns')", "Turns to 6"),
        Binding("b", "bottom", "Bottom"),
        *[Binding(str(n), f"mark({n})", show=False) for n in range(1, 10)],
    ]

    def __init__(self, session: DeckSession, hand: act.Hand) -> None:
        super().__init__()
        self.session = session
        self.hand = hand
        self.marked: list[int] = []  # hand numbers marked for the bottom

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Goldfish"
            box.border_subtitle = "↑ ↓ scroll · Esc: close · q: quit"  # on the border: six turns never push it out
            with VerticalScroll():
                yield Static(id="fish", markup=False)
            yield Static(id="fish-message", markup=False)

    def on_mount(self) -> None:
        self.draw()

    def width(self) -> int:
        """The columns the lines are laid out for: the box less its border, its padding and the scroll bar's
        gutter (kept whether or not six turns scroll: the bar never covers a name's last letters)."""
        return min(120, self.app.size.width * 96 // 100) - 6

    def draw(self) -> None:
        assert self.hand.fish is not None  # this screen shows a hand with its game
        lines = goldfish_lines(self.hand.fish, self.width(), KEYS_APP)
        if self.marked:
            lines.insert(1, Text("Marked for the bottom: " + " ".join(map(str, self.marked)), style="cyan"))
        self.query_one("#fish", Static).update(Group(*lines))

    def say(self, message: str, style: str = "") -> None:
        self.query_one("#fish-message", Static).update(shown(message, style=style))

    def apply(self, intent: object) -> None:
        try:
            hand = self.session.apply(intent)
        except InputError as error:
            # the panel's way to the bottom: the line prompt's 'bottom N' is no key here
            how = (
                f" ({'its number' if error.due == 1 else 'their numbers'}, then b)"
                if isinstance(error, BottomFirst)
                else ""
            )
            self.say(str(error) + how, "red")
            assert self.hand.fish is not None  # this screen shows a hand with its game
            if self.marked and not self.hand.fish.bottom_due:  # marks nothing can use go with the refusal
                self.marked = []
                self.draw()
            return
        assert isinstance(hand, act.Hand)  # a hand's steps answer with the hand
        self.hand = hand
        self.marked = []
        self.say("")
        self.draw()

    def action_step(self, step: str) -> None:
        intents = {
            "hand": act.DealHand(),
            "mulligan": act.Mulligan(),
            "draw": act.Draw(),
            "turn": act.NextTurn(),
            "turns": act.PlayOut(),
        }
        self.apply(intents[step])

    def action_mark(self, number: int) -> None:
        assert self.hand.fish is not None
        if not self.hand.fish.bottom_due:  # nothing owed: the core's refusal at once, never a mark left standing
            self.apply(act.Bottom((number,)))
            return
        if number > len(self.hand.cards):
            self.say(f"the hand has {len(self.hand.cards)} cards", "yellow")
            return
        if number in self.marked:
            self.marked.remove(number)
        else:
            self.marked.append(number)
        self.draw()

    def action_bottom(self) -> None:
        self.apply(act.Bottom(tuple(self.marked)))

    def action_quit(self) -> None:
        cast(DeckAppFace, self.app).leave()

    def action_close(self) -> None:
        self.dismiss(None)
