"""Joining a seat as a player types it, at a phone's join form or a terminal: the event's number, the player (a
number or a name) and the seat code, each read here in the core's words, so nothing typed, a number that is no
number, an event not served and a player with no seat to take are said the same at every face; the code itself is
then checked by ``seat_codes.check_code`` (wrong codes slowing down their source).  Each refusal says which of
the three fields it is about (``CmdraftError.about``: ``EVENT``, ``PLAYER`` or ``CODE``, the join form's and the web's
join body's names), so a face points at the field to correct."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from events.night.refusals import NoSeat
from events.night.snapshot import PlayerRow
from events.storage.records import Player
from sets.errors import CmdraftError, InputError
from sets.numbers import parse_int
from sets.userdata import db_option
from sets.visible import quoted

NO_EVENT = "no event number given: type the event's number, as the seating slip shows it"
NO_PLAYER = "no player given: type the player's number or name, as the seating slip shows them"
NO_CODE = "no seat code given: type the 6 characters on the seating slip (no 0/O or 1/I)"

# The fields of a join, as a refusal names the one it is about (``NoSeat`` and ``WrongCode`` name theirs themselves).
EVENT, PLAYER, CODE = "event", "player", "code"

E = TypeVar("E", bound=CmdraftError)


def about(field: str, error: E) -> E:
    """``error``, said to be about the join's ``field``."""
    error.about = field
    return error


def event_number(typed: str | int) -> int:
    """The event number typed (at a terminal's command, at a phone's join form), or bad input in the core's words:
    nothing typed, or not a whole number."""
    text = str(typed).strip()
    if not text:
        raise about(EVENT, InputError(NO_EVENT))
    try:
        return parse_int(text, "event number")
    except InputError as error:
        raise about(EVENT, error) from None


class NotHere(InputError):
    """An event number that names another event than the one served."""

    about = EVENT


def served_event(typed: str | int, served: int) -> int:
    """The event number a phone typed, when it is the event this server serves (``served``); else bad input
    naming the one it serves."""
    number = event_number(typed)
    if number != served:
        raise NotHere(f"no event {number} here: this server serves event {served} only (check your seating slip)")
    return number


def player_asked(typed: str | int) -> str:
    """The player a join names, as the core's look-up reads it: a number (typed as digits at a phone, or ``#4``)
    as ``#N``, else the name; nothing typed is bad input."""
    text = " ".join(str(typed).split())
    if not text:
        raise about(PLAYER, InputError(NO_PLAYER))
    return f"#{int(text)}" if text.isascii() and text.isdigit() and len(text) < 20 else text


def code_typed(typed: str) -> str:
    """The code as typed, when something was (a blank line is no try: nothing is checked or counted)."""
    if not typed.strip(" -\t"):
        raise about(CODE, InputError(NO_CODE))
    return typed


def player_found(find: Callable[[str], Player], who: str) -> Player:
    """The player ``who`` names, by the core's look-up ``find``: a name or number no player has is refused about the
    player field."""
    try:
        return find(who)
    except InputError as error:
        raise about(PLAYER, error) from None


def may_join(player: Player) -> None:
    """``NoSeat`` unless the player has a seat to pick at: seated and still playing (or a late player with a sealed
    pool, who has the night's seat)."""
    if player.bot or player.status != "active" or player.pod is None and not player.code:
        raise NoSeat(f"{quoted(player.name)} has no seat to pick at (not seated yet, or dropped): ask the desk")


def no_draft_seat(event_id: int, player: PlayerRow, database: Path) -> str:
    """Why ``player`` has no seat at the event's draft to pick at (``event draft --player``), and what to do: a late
    player given a sealed pool (a pool recorded, with seat codes or without) builds their deck, with the command for
    the event's ``database``; anyone else asks the desk."""
    name = quoted(player.name)
    if player.status == "active" and player.pod is None and player.pool_size is not None:
        return (
            f"{name} joined after the draft started, with a sealed pool: no draft seat to pick at; build the deck "
            f"with 'cmdraft event deck {event_id} {shlex.quote(player.name)}{db_option(database)} --build'"
        )
    return f"{name} has no draft seat to pick at (not seated, dropped before the draft, or a bot): ask the desk"
