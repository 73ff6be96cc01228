"""Event drafts at the terminal: picking for the players at this terminal, and building a deck from a recorded pool.

Each pick goes through a ``SeatSession`` of the player's seat, each deck through an ``EventDeck``: the same
sessions the practice screens hold, so the rules and messages are the same."""

from __future__ import annotations

import shlex

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from events import timing
from events.night import Event, presence
from events.night.base import EventBase
from events.night.decks import Decks
from events.night.drafting import WAITING_FOR_START, Drafting, draft_over_words
from events.night.joining import no_draft_seat
from events.night.refusals import NotYourSeat, WrongCode, wrong_code_left
from events.night.seat_codes import SlowDown, check_code, code_help, keep_token, terminal_token, uses_codes
from events.night.serving import served_url
from events.outputs.text import join_names
from events.screens.builder import BuilderPrompt
from events.screens.render import shown
from events.screens.table import TablePrompt
from events.screens.terminal import Interrupted, Quit, Terminal, leave_screen
from events.sessions.activities import EventDeck
from events.sessions.seat import SEAT_LOST, SeatSession, pack_wait_words
from events.sessions.table import DraftTable
from sets.errors import InputError, StateError
from sets.names import name_order
from sets.userdata import db_option
from sets.visible import quoted, sentence


def run_event_draft(
    events: Drafting,
    event_id: int,
    players: list[str] | None,
    console: Console,
    terminal: Terminal,
    poll: float = 0.5,
    given: dict[int, str] | None = None,
) -> None:
    """Pick for the named players until their drafts are done; with none named, the desk's view.

    Several terminals may run this on the same database, each for its own players.  In an event
    with seat codes, each player's code is asked once and binds the seat to this terminal (``given``: the
    tokens of codes given while waiting for the desk's start, by player id).
    """
    if not players:
        watch_draft(events, event_id, console, terminal, poll)
        return
    given = given or {}
    snap = events.snapshot(event_id)
    names = {p.id: p.name for p in snap.players}
    wanted = {events.player_id(event_id, name) for name in players}
    # Seats don't move during a draft: who sits where is read once.
    seating = {pod.number: pod.players for pod in snap.pods if pod.draft and wanted & set(pod.players)}
    seatless = [p for p in snap.players if p.id in wanted and not any(p.id in seats for seats in seating.values())]
    if seatless:  # (a late player's sealed pool has no draft: "the draft is over" would tell them nothing)
        refused = "; ".join(no_draft_seat(event_id, p, events.path) for p in seatless)
        if not seating:
            raise StateError(refused)
        console.print(Text(refused, style="yellow"), soft_wrap=True)  # the others named pick here all the same
    sessions = {number: events.draft_session(event_id, number) for number in seating}
    tokens: dict[int, str | None] = {}
    waiting_shown: list[str] | None = None  # the lines saying what the terminal waits for (None: not said since)
    try:
        if uses_codes(snap.event):
            for number, session in sessions.items():
                for seat, player_id in enumerate(seating[number]):
                    if seat not in session.humans or session.draft.finished:
                        continue
                    if player_id in given:  # the code was given while waiting: held here unless taken up since
                        still = presence.held_here(events, event_id, player_id)
                        if still:
                            if not session.bound_exactly(seat, given[player_id]):
                                session.claim(seat, given[player_id])
                            presence.terminal_holds(events, event_id, player_id)
                            tokens[player_id] = given[player_id]
                            continue
                        # then the code is asked for again, below
                        console.print(shown(sentence(SEAT_LOST[still is None]), style="yellow"), soft_wrap=True)
                    if player_id in wanted:
                        tokens[player_id] = unlock_seat(
                            events,
                            snap.event,
                            event_id,
                            session,
                            (number, seat),
                            player_id,
                            names[player_id],
                            console,
                            terminal,
                        )
        introduced: set[int] = set()
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
                    # a store draft asks before each pick
                    held = SeatSession(session, seat, token=tokens.get(player_id), confirm=True)
                    TablePrompt(held, console, terminal, introduced=player_id in introduced).pick_once()
                    introduced.add(player_id)  # the seat sentence said once a player, as at practice
                    events.after_picks(event_id, number, session)
                    progressed = True
                    waiting_shown = None
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
                # a seat the desk handed to a bot waits for nobody: its player is told so, in the phone's words
                botted = [
                    player_id
                    for number, s in sessions.items()
                    for seat, player_id in enumerate(seating[number])
                    if player_id in wanted and seat not in s.humans and not s.draft.finished
                ]
                late = sorted(  # whom this terminal's players wait for: the player upstream holding a pack
                    {
                        names[seating[number][other]]
                        for number, s in sessions.items()
                        for seat, player_id in enumerate(seating[number])
                        if player_id in wanted and player_id not in botted
                        for other in s.draft.waiting_on(seat)
                    },
                    key=name_order,
                ) or sorted(
                    {names[seating[number][seat]] for number, s in sessions.items() for seat in s.waiting_humans()},
                    key=name_order,
                )
                if wanted <= set(botted):
                    late = []
                bot_words = pack_wait_words(False, True, [], False, 0)
                lines = [(f"{names[p]}: " if len(wanted) > 1 else "") + bot_words for p in botted]
                if late:
                    lines.append("Waiting for: " + join_names(late))
                if lines:
                    lines[-1] += " ('quit' to leave; everything is saved)"
                if lines != waiting_shown:
                    for line in lines:
                        console.print(shown(line, style="yellow"))
                    waiting_shown = lines
                if terminal.wait(poll) is not None:
                    waiting_shown = None  # typed while waiting: say again who we wait for
    except (Quit, KeyboardInterrupt) as left:  # every pick is saved
        leave_screen(console, left, shown(f"Saved. Continue with: {again(events, event_id, players)}"))  # one line
    except NotYourSeat:  # the seat moved (its code given elsewhere, or a new one): the command to give it here again
        console.print(shown(f"Saved. To pick here again, give the seat code to: {again(events, event_id, players)}"))
        raise


def again(events: EventBase, event_id: int, players: list[str] | None) -> str:
    """The command that opens this terminal's seats again (one line to copy)."""
    named = "".join(f" --player {shlex.quote(n)}" for n in players or [])
    return f"cmdraft event draft {event_id}{named}{db_option(events.path)}"


def unlock_seat(
    events: Drafting,
    event: Event,
    event_id: int,
    session: DraftTable,
    place: tuple[int, int],
    player_id: int,
    name: str,
    console: Console,
    terminal: Terminal,
) -> str:
    """This terminal's token for the player's seat: kept from an earlier run in this terminal session, or made
    once the player's seat code is given (a wrong code waits, is counted for the desk, and is asked again; after
    several, this terminal waits longer before each try: ``seat_codes.check_code``).  Leaving without a right code is ``StateError`` (exit 3)."""
    pod, seat = place  # the pod's number, the seat's index in it
    token = terminal_token(event, player_id)
    if token is not None and session.claims.get(str(seat)) is not None and session.bound(seat, token):
        presence.terminal_holds(events, event_id, player_id)  # the desk sees this terminal hold the seat
        return token
    token = ask_code(events, event, event_id, player_id, name, console, terminal)
    session.claim(seat, token)
    presence.terminal_holds(events, event_id, player_id)
    console.print(shown(f"This terminal now picks for {quoted(name)} (pod {pod}, seat {seat + 1}).", style="green"))
    return token


def ask_code(
    events: EventBase,
    event: Event,
    event_id: int,
    player_id: int,
    name: str,
    console: Console,
    terminal: Terminal,
    undone: str = "this terminal picks for nobody",
) -> str:
    """This terminal's new token for the player, once their seat code is given (asked again after a wrong one);
    leaving without it is ``StateError`` (exit 3), saying what was not done (``undone``) and how to give the code;
    leaving after a wrong code is ``WrongCode`` (exit 2), saying it was wrong."""
    wrong = False  # the last code typed was wrong
    while True:
        try:
            typed = terminal.ask(escape(f"Seat code for {name} (on your seating slip; 'help', 'quit' to leave)> "))
        except Interrupted:  # Ctrl-C: nothing was bound; the command ends as every interrupted one (130)
            raise KeyboardInterrupt from None
        except Quit:
            typed = None  # end of input
        if (typed is None or typed.lower() in ("quit", "q", "exit")) and wrong:
            left = wrong_code_left(name, undone)  # a code was typed, and it was wrong: a wrong code's exit (2)
            raise WrongCode(
                f"{left.message}; the desk shows it: cmdraft event player code {event_id} {shlex.quote(name)}"
            )
        if typed is None or typed.lower() in ("quit", "q", "exit"):
            # nothing was picked here, so nothing is "saved" to continue: out of order (exit 3)
            raise StateError(
                f"no seat code was given for {quoted(name)}, so {undone}; run the command again at a terminal and "
                f"type the seat code of {quoted(name)} when it asks (it is on the seating slip; the desk shows it: cmdraft event player "
                f"code {event_id} {shlex.quote(name)})"
            )
        if typed.strip().lower() in ("help", "?"):  # a question, not a try: nothing is checked or counted
            console.print(shown(code_help(name)))
            continue
        try:
            while True:
                try:
                    right = check_code(events, event_id, player_id, typed)
                    break
                except SlowDown as slow:  # this terminal typed too many wrong codes: it waits (the seat is not locked)
                    console.print(shown(str(slow), style="red"))
                    timing.sleep(slow.wait)
        except InputError as nothing:  # a blank line is no try: the core's words, as a phone's empty form says them
            console.print(shown(str(nothing), style="red"))
            continue
        if right:
            return keep_token(event, player_id)
        console.print(shown(str(WrongCode()), style="red"))  # the core's words, as a phone says them
        wrong = True


def wait_for_start(
    events: Drafting, event_id: int, players: list[str], console: Console, terminal: Terminal, poll: float = 0.5
) -> dict[int, str] | None:
    """Before the draft: each named player's seat code is taken as soon as they are seated (the seat is bound to
    this terminal once the draft starts), then the terminal waits for the desk's start; it never starts the
    draft itself.  The tokens of the codes given, by player id; None when the player left meanwhile."""
    wanted = {events.player_id(event_id, name): name for name in players}
    tokens: dict[int, str] = {}
    said = False
    try:
        while True:
            snap = events.snapshot(event_id)
            if snap.event.status not in ("registration", "seated"):
                return tokens
            if uses_codes(snap.event):
                for player in snap.players:
                    if player.id in wanted and player.id not in tokens and player.pod is not None and not player.bot:
                        tokens[player.id] = ask_code(
                            events, snap.event, event_id, player.id, player.name, console, terminal
                        )
                        console.print(shown(f"This terminal will pick for {quoted(player.name)}.", style="green"))
            if not said:
                console.print(
                    shown(
                        f"{join_names(sorted(wanted.values(), key=name_order))}: {WAITING_FOR_START} ('quit' to leave; "
                        "come back with the same command)",
                        style="yellow",
                    )
                )
                said = True
            terminal.wait(poll)
    except (Quit, KeyboardInterrupt) as left:
        leave_screen(
            console,
            left,
            shown(
                f"Left before the draft started. Join again with: cmdraft event draft {event_id}"
                + "".join(f" --player {shlex.quote(n)}" for n in players)
                + db_option(events.path)
            ),
        )
        return None


def where_players_pick(events: Drafting, event: Event, event_id: int) -> str:
    """What the desk is told when a terminal draft starts: where the players pick (their phones as well, in an event
    with seat codes: at the address ``cmdraft serve`` serves it, or once it runs)."""
    terminal = f"cmdraft event draft {event_id} --player NAME"
    if not uses_codes(event):
        return f"The draft is on. Each player picks at a terminal: {terminal}"
    url = served_url(events.path, event_id)
    if url is not None:
        return (
            f"The draft is on. Each player picks on their phone (cmdraft serve, at {url}) or at a terminal: {terminal}"
        )
    return (
        f"The draft is on. Each player picks on their phone while cmdraft serve {event_id} runs, "
        f"or at a terminal: {terminal}"
    )


def watch_draft(events: Drafting, event_id: int, console: Console, terminal: Terminal, poll: float = 0.5) -> None:
    """The desk's view of a terminal draft: where each pod is and whom it waits for.  It picks for
    nobody; with a pick timer it applies a timeout that is due, as any terminal does."""
    snap = events.snapshot(event_id)
    names = {p.id: p.name for p in snap.players}
    seating = {pod.number: pod.players for pod in snap.pods if pod.draft}
    sessions = {number: events.draft_session(event_id, number) for number in seating}
    if all(session.draft.finished for session in sessions.values()):  # over before this screen: only that is said
        for number, session in sessions.items():
            events.after_picks(event_id, number, session)  # (the last pick's pools, when nothing recorded them yet)
        console.print(shown(draft_over_words(event_id, events.event(event_id).status)), soft_wrap=True)
        return
    console.print(shown(where_players_pick(events, snap.event, event_id)), soft_wrap=True)
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
                late = ", ".join(  # each seat's queue: the packs waiting in front of it
                    f"{names[seating[number][seat]]} ({draft.queued(seat)} pack{'s' if draft.queued(seat) > 1 else ''})"
                    for seat in session.waiting_humans()
                )
                lines.append(f"pod {number}: pack {draft.round + 1} pick {draft.pick_number}, waiting for {late}")
            if lines != last:
                for line in lines:
                    console.print(shown(line, style="cyan"))
                last = lines
            if all(session.draft.finished for session in sessions.values()):
                console.print(shown(draft_over_words(event_id, events.event(event_id).status), style="bold green"))
                return
            terminal.wait(poll)
    except (Quit, KeyboardInterrupt) as left:
        leave_screen(
            console,
            left,
            shown(f"The draft goes on without this screen; see it again with: cmdraft event draft {event_id}"),
        )


def build_event_deck(events: Decks, event_id: int, who: str, console: Console, terminal: Terminal) -> bool:
    """The deck builder at the line prompt over an event player's recorded pool, until 'done' registers a legal
    deck or the player leaves (saying so when no deck was registered); True when a deck was registered ('done'
    or 'save').  Ctrl-C leaves as 'quit' does, then ends the command as every interrupted one (130)."""
    deck = EventDeck(events, event_id, who)
    events.check_deck_change(
        event_id, deck.player_id, deck.actor
    )  # closed registration: refused before any building (PhaseOver)
    try:
        BuilderPrompt(deck, console, terminal).run()
    except (Quit, KeyboardInterrupt) as left:
        leave_screen(
            console, left, None if deck.registered else "No deck registered (use 'save' or 'done' to register one)."
        )
    return deck.registered
