"""Event drafts at the terminal: picking for the players at this terminal, and building a deck from a recorded pool."""

from __future__ import annotations

import json
import shlex

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from events.night.history import actor
from events.night.seat_codes import check_code, keep_token, terminal_token, uses_codes
from events.screens.practice import PracticeUI
from events.screens.render import db_option, join_names, shown
from events.screens.terminal import Quit, Terminal
from events.storage.records import Event
from sets.errors import InputError


def run_event_draft(
    events, event_id: int, players: list[str] | None, console: Console, terminal: Terminal, poll: float = 0.5
) -> None:
    """Pick for the named players until their drafts are done; with none named, the desk's view.

    Several terminals may run this on the same database, each for its own players.  In an event
    with seat codes, each player's code is asked once and binds the seat to this terminal.
    """
    if not players:
        watch_draft(events, event_id, console, terminal, poll)
        return
    snap = events.snapshot(event_id)
    names = {p.id: p.name for p in snap.players}
    wanted = {events.player_id(event_id, name) for name in players}
    # Seats don't move during a draft: who sits where is read once.
    seating = {pod.number: pod.players for pod in snap.pods if pod.draft and wanted & set(pod.players)}
    sessions = {number: events.draft_session(event_id, number) for number in seating}
    tokens: dict[int, str | None] = {}
    waiting_shown = False
    try:
        if uses_codes(snap.event):
            for number, session in sessions.items():
                for seat, player_id in enumerate(seating[number]):
                    if player_id in wanted and seat in session.humans and not session.draft.finished:
                        tokens[player_id] = unlock_seat(
                            events,
                            snap.event,
                            event_id,
                            session,
                            seat,
                            player_id,
                            names[player_id],
                            console,
                            terminal,
                        )
        while True:
            progressed = False
            for number, session in sessions.items():
                session.refresh()
                session.apply_timeout()  # any terminal applies a pick's timeout that is due (once, for everyone)
                for seat in session.waiting_humans():
                    player_id = seating[number][seat]
                    if player_id not in wanted:
                        continue
                    console.print(
                        shown(f"{names[player_id]}, your pick (pod {number}, seat {seat + 1})", style="bold magenta")
                    )
                    ui = PracticeUI(
                        session, console, terminal, confirm=True
                    )  # a store draft asks before each pick, as before
                    ui.seat = seat
                    ui.token = tokens.get(player_id)
                    ui.pick_once()
                    events.after_picks(event_id, number, session)
                    progressed = True
                    waiting_shown = False
            if all(session.draft.finished for session in sessions.values()):
                # Pools are recorded here if no terminal did it (say a crash after the last pick).
                recorded = all(events.after_picks(event_id, number, session) for number, session in sessions.items())
                if recorded:
                    console.print(
                        "[bold green]Draft over for these players.[/] Pools are recorded; register decks next.",
                        markup=True,
                    )
                else:
                    console.print(
                        "[bold green]Draft over for these players.[/] Their pools are not recorded yet: "
                        f"run 'cmdraft event show {event_id}'.",
                        markup=True,
                    )
                return
            if not progressed:
                if not waiting_shown:
                    late = sorted(
                        {names[seating[number][seat]] for number, s in sessions.items() for seat in s.waiting_humans()}
                    )
                    console.print(
                        shown(
                            "Waiting for: " + join_names(late) + " ('quit' to leave; everything is saved)",
                            style="yellow",
                        )
                    )
                    waiting_shown = True
                if terminal.wait(poll) is not None:
                    waiting_shown = False  # typed while waiting: say again who we wait for
    except Quit:
        console.print(
            shown(
                f"Saved. Continue with: cmdraft event draft {event_id}"
                + "".join(f" --player {shlex.quote(n)}" for n in players or [])
                + db_option(events.store.path)
            ),
            soft_wrap=True,
        )  # one line to copy


def unlock_seat(
    events,
    event: Event,
    event_id: int,
    session,
    seat: int,
    player_id: int,
    name: str,
    console: Console,
    terminal: Terminal,
) -> str:
    """This terminal's token for the player's seat: kept from an earlier run here, or made once the
    player's seat code is given (a wrong code waits, is logged for the desk, and is asked again)."""
    token = terminal_token(event, player_id)
    if (
        token is not None
        and (session.doc.get("claims") or {}).get(str(seat)) is not None
        and session.bound(seat, token)
    ):
        return token
    while True:
        typed = terminal.ask(escape(f"Seat code for {name} (on your seating slip; 'quit' to leave)> "))
        if typed is None or typed.lower() in ("quit", "q", "exit"):
            raise Quit()
        if check_code(events, event_id, player_id, typed):
            token = keep_token(event, player_id)
            session.claim(seat, token)
            console.print(shown(f"This terminal now picks for {name} (pod seat {seat + 1}).", style="green"))
            return token
        console.print(
            shown("Wrong code: not accepted. Check your seating slip, or ask the desk for a new code.", style="red")
        )


def watch_draft(events, event_id: int, console: Console, terminal: Terminal, poll: float = 0.5) -> None:
    """The desk's view of a terminal draft: where each pod is and whom it waits for.  It picks for
    nobody; with a pick timer it applies a timeout that is due, as any terminal does."""
    snap = events.snapshot(event_id)
    names = {p.id: p.name for p in snap.players}
    seating = {pod.number: pod.players for pod in snap.pods if pod.draft}
    sessions = {number: events.draft_session(event_id, number) for number in seating}
    console.print(
        shown(f"The draft is on. Each player picks at a terminal: cmdraft event draft {event_id} --player NAME")
    )
    last = None
    try:
        while True:
            lines = []
            for number, session in sessions.items():
                session.refresh()
                session.apply_timeout()
                draft = session.draft
                if draft.finished:
                    events.after_picks(event_id, number, session)
                    lines.append(f"pod {number}: draft over")
                    continue
                late = ", ".join(names[seating[number][seat]] for seat in session.waiting_humans())
                lines.append(f"pod {number}: pack {draft.round + 1} pick {draft.pick_number}, waiting for {late}")
            if lines != last:
                for line in lines:
                    console.print(shown(line, style="cyan"))
                last = lines
            if all(session.draft.finished for session in sessions.values()):
                console.print("[bold green]Every pod has drafted.[/]", markup=True)
                return
            terminal.wait(poll)
    except Quit:
        console.print(
            shown(f"The draft goes on without this screen; see it again with: cmdraft event draft {event_id}")
        )


class PoolBuilder(PracticeUI):
    """The deck builder of the play screen, over an event player's recorded pool; 'done' registers the deck."""

    def __init__(self, events, event_id: int, who: str, console: Console, terminal: Terminal):
        from types import SimpleNamespace

        snap = events.snapshot(event_id)
        player_id = events.player_id(event_id, who)
        player = next(p for p in snap.players if p.id == player_id)
        self.events, self.event_id, self.player_name = events, event_id, player.name
        self.registered = False
        pool = events.pool(event_id, player_id)
        session = SimpleNamespace(
            draft=SimpleNamespace(pools=[pool], config=SimpleNamespace(set_code=snap.event.set)),
            doc={"deck": None},
            draft_id=f"{event_id}/{player_id}",
            humans=[0],
            names=[player.name],
            save_deck=self._register,
        )
        super().__init__(session, console, terminal)

    def _register(self, deck_json: dict, legal: bool) -> None:
        from draft.formats import parse_json

        report = self.events.register_deck(
            self.event_id, self.player_name, parse_json(json.dumps(deck_json)), by=actor(self.player_name)
        )  # the history says it came from this terminal
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
            "  quit                  leave; changes since the last 'save' or 'done' are not registered"
        )
        self.console.print(Text(text))

    def cmd_review(self, args: list[str]) -> None:
        raise InputError("the draft review is in 'cmdraft event export'; here you build and register the deck")

    def cmd_export(self, args: list[str]) -> None:
        raise InputError("export the event's files with 'cmdraft event export'")

    def cmd_bot(self, args: list[str]) -> None:
        raise InputError("an event pool has no bots to show; here you build and register the deck")
