"""``cmdraft event …``: running a store event at the terminal.

One module per part of the night, each a thin face over its phase in ``events.night``:
``registration`` (the event and its players), ``drafting`` (seating, the draft, pools), ``decks``
(Pipers and decks), ``rounds`` (rounds, results, standings, the game tracker, the clock), ``history``
(log and undo), ``files`` (printing, export, restore); ``shared`` holds what they share.  The
commands are joined here, in the order ``cmdraft event --help`` lists them.
"""

from __future__ import annotations

import typer

from events.cli.event.decks import event_deck, event_pipers
from events.cli.event.drafting import event_draft, event_pool, event_seat, event_timer
from events.cli.event.files import event_export, event_print, event_restore
from events.cli.event.history import event_log, event_undo
from events.cli.event.registration import (
    event_list,
    event_new,
    event_show,
    player_add,
    player_bot,
    player_checkin,
    player_code,
    player_drop,
    player_remove,
    player_rename,
)
from events.cli.event.rounds import (
    event_clock,
    event_finish,
    event_game,
    event_result,
    event_round,
    event_standings,
    event_top,
)
from events.cli.event.table import event_table

event_app = typer.Typer(
    help="Run a store event: players, seating, draft, Pipers, decks, rounds, standings.", no_args_is_help=True
)
player_app = typer.Typer(
    help="Register, rename, remove (before seating), drop and late-add players.", no_args_is_help=True
)
event_app.add_typer(player_app, name="player")

event_app.command("new")(event_new)
event_app.command("list")(event_list)
event_app.command("show")(event_show)
player_app.command("add")(player_add)
player_app.command("checkin")(player_checkin)
player_app.command("drop")(player_drop)
player_app.command("rename")(player_rename)
player_app.command("remove")(player_remove)
player_app.command("code")(player_code)
player_app.command("bot")(player_bot)
event_app.command("seat")(event_seat)
event_app.command("draft")(event_draft)
event_app.command("timer")(event_timer)
event_app.command("clock")(event_clock)
event_app.command("pool")(event_pool)
event_app.command("pipers")(event_pipers)
event_app.command("deck")(event_deck)
event_app.command("round")(event_round)
event_app.command("result")(event_result)
event_app.command("table")(event_table)
event_app.command("standings")(event_standings)
event_app.command("print")(event_print)
event_app.command("game")(event_game)
event_app.command("top")(event_top)
event_app.command("finish")(event_finish)
event_app.command("undo")(event_undo)
event_app.command("log")(event_log)
event_app.command("export")(event_export)
event_app.command("restore")(event_restore)
