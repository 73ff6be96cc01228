"""``cmdraft event …``: running a store event at the terminal.

One module per part of the night, each a thin face over its phase in ``events.night``:
``registration`` (the event and its players), ``drafting`` (seating, the draft, pools), ``decks``
(Pipers and decks), ``rounds`` (rounds, results, standings, the game tracker, the clock), ``history``
(log and undo), ``files`` (printing, export, restore); ``shared`` holds what they share.

``EVENT_COMMANDS`` and ``PLAYER_COMMANDS`` name each command, in the order ``cmdraft event --help`` lists
them, with the module that defines it and the first paragraph of its help: the group and its ``player``
subgroup are lazy groups (``events.cli.root.LazyGroup``), so a command imports its own module only, and
``cmdraft event --help`` imports none of them.
"""

from __future__ import annotations

import typer

from events.cli.root import LazyCommand, LazyGroup

_R = "events.cli.event.registration"
_D = "events.cli.event.drafting"
_N = "events.cli.event.rounds"

PLAYER_COMMANDS = (
    LazyCommand(
        "add",
        f"{_R}:player_add",
        "Register players (after seating: a seat in the smallest pod with room, or a re-seat offer when every pod "
        "is full; after the draft has started: with a sealed pool).",
    ),
    LazyCommand(
        "checkin",
        f"{_R}:player_checkin",
        "Mark players present; once check-in is used, 'event seat' seats only the players checked in.",
    ),
    LazyCommand("drop", f"{_R}:player_drop", "Drop a player: no more pairings, no deck registration."),
    LazyCommand("rename", f"{_R}:player_rename", "Correct a player's name (everywhere it is shown)."),
    LazyCommand(
        "remove",
        f"{_R}:player_remove",
        "Take back a registration before seating (a typo, a double entry): the player is gone, not dropped.",
    ),
    LazyCommand(
        "code",
        f"{_R}:player_code",
        "A player's seat code, for the desk: with --reset a new one, and the seat is unbound from its terminal.",
    ),
    LazyCommand(
        "bot",
        f"{_R}:player_bot",
        "During the draft: a bot picks for a player's seat (they stepped away or left), or --back gives it back "
        "(the desk page's 'To a bot' and 'Back to player').",
    ),
)

EVENT_COMMANDS = (
    LazyCommand("new", f"{_R}:event_new", "Create an event."),
    LazyCommand("list", f"{_R}:event_list", "List events."),
    LazyCommand("show", f"{_R}:event_show", "The status board: players, pods, pools, decks and rounds."),
    LazyCommand(
        "seat",
        f"{_D}:event_seat",
        "Seat players at random into balanced draft pods of at most the pod size (only those checked in, when "
        "check-in was used); --again re-draws them until the draft starts.",
    ),
    LazyCommand(
        "draft",
        f"{_D}:event_draft",
        "Start the draft (or open sealed pools); in a terminal draft, pick for the players at this terminal.",
    ),
    LazyCommand(
        "timer",
        f"{_D}:event_timer",
        "Big screen for a physical draft: round, passing direction and a shrinking pick timer.",
    ),
    LazyCommand(
        "clock",
        f"{_N}:event_clock",
        "Big-screen countdown for the current round, pairings beside it; p pauses or resumes, q quits.",
    ),
    LazyCommand(
        "pool",
        f"{_D}:event_pool",
        "Record a player's pool from a file, or typed line by line (end with an empty line); --edit changes the "
        "recorded one line by line.",
    ),
    LazyCommand(
        "pipers",
        "events.cli.event.decks:event_pipers",
        "The Piper ledger: opened per pod (counted in the pools), Pipers the registered decks add, unused ones, "
        "the store's stock, any shortfall with who could lend; requests before deck building as a forecast.",
    ),
    LazyCommand(
        "deck",
        "events.cli.event.decks:event_deck",
        "Register a player's deck, checked against their recorded pool; with no name, the registration board.",
    ),
    LazyCommand(
        "round",
        f"{_N}:event_round",
        "Start the next round: game pods at random in round one, then by points avoiding repeat opponents.",
    ),
    LazyCommand(
        "result",
        f"{_N}:event_result",
        "Record a table's result by finishing order; --replace corrects one, also after the next round was paired "
        "(the standings follow; the pairing stays, and the tables it would have changed are named).",
    ),
    LazyCommand(
        "table",
        "events.cli.event.table:event_table",
        "Your own table, from your terminal: who sits there, the reported result and who still has to confirm "
        "it; report the result (--report), confirm it (--confirm) or dispute it (--dispute). The seat code is "
        "asked once per terminal session (in an event with codes).",
    ),
    LazyCommand(
        "standings",
        f"{_N}:event_standings",
        "Standings: points, then opponents' average points, then average place; exact ties share a rank.",
    ),
    LazyCommand(
        "print",
        "events.cli.event.files:event_print",
        "Printable sheets: draft seatings, round pairings, result slips, standings, results, decklists.",
    ),
    LazyCommand(
        "game",
        f"{_N}:event_game",
        "Game tracker for one table: life from 40, commander damage (21 loses), commander tax; --undo takes back "
        "the last entry.",
    ),
    LazyCommand(
        "top",
        f"{_N}:event_top",
        "Seat the top N of the standings (players still in the event) at a final table, the highest standing "
        "first; its result ('event result ID ROUND 1 ...') is its own and leaves the standings as they are; it "
        "names the event's winner. Every tie on points among them (and at the cut) is said with the tie-breaker "
        "that settled it.",
    ),
    LazyCommand("finish", f"{_N}:event_finish", "Close the event: no more results."),
    LazyCommand(
        "undo",
        "events.cli.event.history:event_undo",
        "Take back the desk's last change where that is safe (a result, a round with nothing played, a seating, "
        "a check-in, a name, a drop, a game entry), and say what was undone. A round's pairing or a seating "
        "moves players who may be sitting at those tables: asked (y/N) at a terminal, --yes otherwise.",
    ),
    LazyCommand(
        "log",
        "events.cli.event.history:event_log",
        "The event's history: every change, who made it (the desk or a terminal), when, the old and new value.",
    ),
    LazyCommand(
        "export",
        "events.cli.event.files:event_export",
        "Standings, results and pairings CSV, every pool and deck in each format, draft logs and a database copy.",
    ),
    LazyCommand(
        "restore",
        "events.cli.event.files:event_restore",
        "Add the file's event to the database, or replace the same event there; other events are left alone. "
        "With --all the whole database is replaced by the file. An event whose draft is live is refused unless "
        "--force, which stops the draft first and says how many picks the restore discards.",
    ),
    LazyCommand(
        "player",
        "events.cli.event:player_app",
        "Register, rename, remove (before seating), drop and late-add players.",
    ),
)


class PlayerGroup(LazyGroup):
    """``cmdraft event player …``: its commands from ``PLAYER_COMMANDS``."""

    table = PLAYER_COMMANDS


class EventGroup(LazyGroup):
    """``cmdraft event …``: its commands from ``EVENT_COMMANDS``."""

    table = EVENT_COMMANDS


event_app = typer.Typer(
    cls=EventGroup,
    help="Run a store event: players, seating, draft, Pipers, decks, rounds, standings.",
    no_args_is_help=True,
)
player_app = typer.Typer(
    cls=PlayerGroup,
    help="Register, rename, remove (before seating), drop and late-add players.",
    no_args_is_help=True,
)
