"""Event drafts at the terminal: picking for the players at this terminal, and building a deck from a recorded pool."""

from __future__ import annotations

import json
import shlex

from rich.console import Console
from rich.text import Text

from events.audit import actor
from events.screens.practice import PracticeUI
from events.screens.render import db_option, join_names, shown
from events.screens.terminal import Quit, Terminal
from sets.errors import InputError


def run_event_draft(events, event_id: int, players: list[str] | None, console: Console, terminal: Terminal,
                    poll: float = 0.5) -> None:
    """Pick for the chosen players (all humans when none are named) until their drafts are done.

    Several terminals may run this on the same database, each for its own players.
    """
    snap = events.snapshot(event_id)
    names = {p["id"]: p["name"] for p in snap["players"]}
    wanted: set[int] | None = None
    if players:
        wanted = {events._player_id(event_id, name) for name in players}
    # Seats don't move during a draft: who sits where is read once.
    seating = {pod["number"]: pod["players"] for pod in snap["pods"]
               if pod.get("draft") and (wanted is None or wanted & set(pod["players"]))}
    sessions = {number: events.draft_session(event_id, number) for number in seating}
    waiting_shown = False
    try:
        while True:
            progressed = False
            for number, session in sessions.items():
                session.refresh()
                for seat in session.waiting_humans():
                    player_id = seating[number][seat]
                    if wanted is not None and player_id not in wanted:
                        continue
                    console.print(shown(f"{names[player_id]}, your pick (pod {number}, seat {seat + 1})", style="bold magenta"))
                    ui = PracticeUI(session, console, terminal, confirm=True)  # a store draft asks before each pick, as before
                    ui.seat = seat
                    ui.pick_once()
                    events.after_picks(event_id, number, session)
                    progressed = True
                    waiting_shown = False
            if all(session.draft.finished for session in sessions.values()):
                # Pools are recorded here if no terminal did it (say a crash after the last pick).
                recorded = all(events.after_picks(event_id, number, session) for number, session in sessions.items())
                if recorded:
                    console.print("[bold green]Draft over for these players.[/] Pools are recorded; register decks next.", markup=True)
                else:
                    console.print("[bold green]Draft over for these players.[/] Their pools are not recorded yet: "
                                  f"run 'cmdraft event show {event_id}'.", markup=True)
                return
            if not progressed:
                if not waiting_shown:
                    late = sorted({names[seating[number][seat]] for number, s in sessions.items() for seat in s.waiting_humans()})
                    console.print(shown("Waiting for: " + join_names(late) + " ('quit' to leave; everything is saved)", style="yellow"))
                    waiting_shown = True
                if terminal.wait(poll) is not None:
                    waiting_shown = False  # typed while waiting: say again who we wait for
    except Quit:
        console.print(shown(f"Saved. Continue with: cmdraft event draft {event_id}" + "".join(f" --player {shlex.quote(n)}" for n in players or [])
                            + db_option(events.store.path)), soft_wrap=True)  # one line to copy


class PoolBuilder(PracticeUI):
    """The deck builder of the play screen, over an event player's recorded pool; 'done' registers the deck."""

    def __init__(self, events, event_id: int, who: str, console: Console, terminal: Terminal):
        from types import SimpleNamespace

        snap = events.snapshot(event_id)
        player_id = events._player_id(event_id, who)
        player = next(p for p in snap["players"] if p["id"] == player_id)
        self.events, self.event_id, self.player_name = events, event_id, player["name"]
        self.registered = False
        pool = events.pool(event_id, player_id)
        session = SimpleNamespace(
            draft=SimpleNamespace(pools=[pool], config=SimpleNamespace(set_code=snap["event"]["set"])),
            doc={"deck": None}, draft_id=f"{event_id}/{player_id}", humans=[0], names=[player["name"]],
            save_deck=self._register,
        )
        super().__init__(session, console, terminal)

    def _register(self, deck_json: dict, legal: bool) -> None:
        from draft.formats import parse_json

        report = self.events.register_deck(self.event_id, self.player_name, parse_json(json.dumps(deck_json)),
                                           by=actor(self.player_name))  # the history says it came from this terminal
        self.registered = True
        state = "legal" if report["valid"] else "not legal yet"
        self.console.print(shown(f"{self.player_name}: deck registered ({state})"))

    def after_done(self) -> None:
        return None

    def save_progress(self) -> None:
        """An event deck is registered with 'done' (or 'save'), not after every change."""

    def cmd_save(self, args: list[str]) -> None:
        self.session.save_deck(self.deck_json(), self.report().valid)

    def cmd_help(self, args: list[str]) -> None:
        from events.screens.builder import HELP_BUILD

        text = HELP_BUILD.split("  export [FOLDER]")[0] + (
            "  done                  register the deck (only when it is legal)\n"
            "  save                  register the deck as it is, legal or not\n"
            "  quit                  leave; changes since the last 'save' or 'done' are not registered")
        self.console.print(Text(text))

    def cmd_review(self, args: list[str]) -> None:
        raise InputError("the draft review is in 'cmdraft event export'; here you build and register the deck")

    def cmd_export(self, args: list[str]) -> None:
        raise InputError("export the event's files with 'cmdraft event export'")

    def cmd_bot(self, args: list[str]) -> None:
        raise InputError("an event pool has no bots to show; here you build and register the deck")
