"""Seats bound to browsers (``cmdraft serve``), and seats the desk hands to a bot for a while.

A player joins from a browser with their seat code (``seat_codes.check_code``); the browser gets a random
token, and the database keeps only its hash (``browser_seats``: event, player, the token's hash and a hash of
the code it was given with), as a terminal's binding is kept.  Once the pod's draft is live the seat is also
claimed in the draft's file with the same hash (``TableSession.claim``), so whoever gave the code last — a
terminal or a browser — picks for the seat, and nobody else.  A token is good while the player's code is the
one it was given with: a reset code (at the desk, in a terminal or a browser) ends every binding of the seat.

The desk can hand a player's seat to a bot for the rest of the draft (the player's phone died) and give it
back; the bot's picks stay.  Both are in the event's history.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Literal

from events import timing
from events.night import history, presence
from events.night.drafting import Drafting
from events.night.seat_codes import uses_codes
from events.night.snapshot import PlayerRow, Snapshot
from events.sessions.table import DraftTable
from events.storage.draft_files import TableSession
from events.storage.draft_records import token_hash
from events.storage.records import BrowserSeat, Player, Pod
from events.storage.tables import records_of
from sets.errors import StateError
from sets.names import name_key
from sets.visible import quoted

BROWSER_SEATS = "browser_seats"


def code_mark(code: str | None) -> str:
    """What a binding keeps of the code it was given with: enough to notice a new code, never the code."""
    return hashlib.sha256(f"seat code:{code or ''}".encode()).hexdigest()[:32]


def seat_of(events: Drafting, event_id: int, player_id: int) -> tuple[int, int, int | None] | None:
    """(pod number, seat index, draft id) of a seated player; None before seating."""
    with events.store.read() as db:
        pods = records_of(db, Pod).find(event=event_id)
    for pod in sorted(pods, key=lambda pod: pod.number):
        if player_id in pod.players:
            return pod.number, list(pod.players).index(player_id), pod.draft
    return None


def bind(events: Drafting, event_id: int, player_id: int) -> str:
    """A new browser token for a player whose code was just given (``check_code``): kept hashed, replacing the
    player's earlier browser bindings, and claimed in the pod's live draft.  Returns the token."""
    token = secrets.token_urlsafe(24)
    with events.store.write() as db:
        event = events._event(db, event_id)
        if not uses_codes(event):
            raise StateError(f"event {event_id} has no seat codes: players can't join it from a browser")
        player = events._player(db, event_id, player_id)
        seats = records_of(db, BrowserSeat)
        seats.remove_where(event=event_id, player=player_id)
        seats.insert_fields(
            event=event_id,
            player=player_id,
            token=token_hash(token),
            code=code_mark(player.code),
            at=timing.stamp(),
        )
        presence.put(db, event_id, player_id, "browser")
        history.log_change(db, event_id, history.browser(player.name), "browser joined", None, player.name)
    claim(events, event_id, player_id, token, take_over=True)
    return token


def claim(events: Drafting, event_id: int, player_id: int, token: str, take_over: bool = False) -> None:
    """The player's seat in a live draft bound to this token: at once when the code was just given
    (``take_over``: the seat moves here from any other browser or terminal), else only a seat nobody holds yet
    (the draft started after the browser joined)."""
    where = seat_of(events, event_id, player_id)
    if where is None or where[2] is None:
        return
    session = TableSession.load(events.store, where[2])
    if session.draft.finished or session.bound_exactly(where[1], token):
        return
    if take_over or session.bound(where[1], None):  # (checked again in the transaction that binds it)
        session.claim(where[1], token, take_over)


def holder(events: Drafting, event_id: int, token: str) -> int | None:
    """The player a browser token stands for, or None: unknown, or the player's code was reset since."""
    hashed = token_hash(token)
    with events.store.read() as db:
        row = records_of(db, BrowserSeat).first(event=event_id, token=hashed)
        if row is None:
            return None
        player = records_of(db, Player).get(row.player)
    if player is None or row.code != code_mark(player.code):
        return None
    return row.player


def code_reset(events: Drafting, event_id: int, token: str) -> bool:
    """Whether a token that holds no seat (``holder`` None) lost it to a new seat code: its binding is still on
    record, given with the player's old code.  Else the seat was opened in another browser (joining there replaces
    this one's binding), or the token was never bound here."""
    with events.store.read() as db:
        row = records_of(db, BrowserSeat).first(event=event_id, token=token_hash(token))
    return row is not None


def may_hand(session: DraftTable | None, seat: int, bot_player: bool) -> Literal["bot", "player"] | None:
    """What the desk may do with a seat now (``hand_seat``'s rule): hand it to a bot ("bot"), give it back to its
    player ("player"), or nothing (no live draft at its pod, the draft over, a bot by registration)."""
    if session is None or session.draft.finished or bot_player:
        return None
    return "bot" if seat in session.humans else "player"


def seats_over(status: str, seats: int, pods: int) -> str | None:
    """The desk's one line for the draft's seats once the event is past drafting (every pod has drafted: its seats
    fold under this line, the night's tables first); None while the draft is to come or being picked."""
    if status in ("registration", "seated", "drafting") or not seats:
        return None
    return f"Draft seats: {seats} in {pods} pod{'' if pods == 1 else 's'}, the draft is over"


def unseated(snap: Snapshot) -> list[PlayerRow]:
    """The people in the event with no draft seat once seating is over (a sealed event's players, a late player's
    sealed pool, a late player every pod was full for): the desk gives them a new code (where they hold a pool,
    ``seat_codes.code_resettable``) or drops them as it does a seat's player, listed apart."""
    if snap.event.status == "registration":
        return []
    return [p for p in snap.players if not p.bot and p.pod is None and p.status == "active"]


def unseated_why(row: PlayerRow) -> str:
    """Why a player listed apart (``unseated``) has no draft seat, in the desk's words."""
    return "a sealed pool" if row.pool_size is not None else "no seat yet: every pod was full when they joined"


def hand_seat(events: Drafting, event_id: int, who: str | int, bot: bool) -> bool:
    """The desk hands a player's seat in the live draft to a bot (``bot``) or back to the player; returns
    whether anything changed."""
    player = events.player(event_id, who)
    where = seat_of(events, event_id, player.id)
    if where is None or where[2] is None:
        raise StateError(f"{quoted(player.name)} has no seat in a live draft")
    session = events._pod_session(event_id, where[0])
    if session.draft.finished:
        raise StateError(f"pod {where[0]}'s draft is over")
    if player.bot:
        raise StateError(f"{quoted(player.name)} is a bot")
    if (where[1] not in session.humans) == bot:
        return False
    if bot:
        session.hand_to_bot(where[1])
    else:
        session.hand_to_player(where[1])
    with events.store.write() as db:
        history.log_change(
            db, event_id, history.DESK, "seat to a bot" if bot else "seat back to the player", None, player.name
        )
    events.after_picks(event_id, where[0], session)
    return True


def _joining(snap: Snapshot, who: str) -> PlayerRow | None:
    """The player a join link names (their number, ``#N`` or their name), or None when it names nobody."""
    text = who.strip().removeprefix("#")
    if text.isdigit():
        return next((p for p in snap.players if p.number == int(text) and not p.bot), None)
    key = name_key(who)
    return next((p for p in snap.players if name_key(p.name) == key and not p.bot), None) if key else None


def join_heading(snap: Snapshot, who: str = "") -> str:
    """What the phone's join form is headed with: what the player joins now.  Their draft while the night has one
    for them (before it starts, and while it runs for a player with a draft seat); their deck once the draft is
    over, or from their sealed pool (a late player: no draft seat); their table in the rounds; their table and the
    final standings once the event is finished.  ``who``: the player the join link names (unknown: by the night)."""
    status = snap.event.status
    row = _joining(snap, who) if who else None
    if status == "finished":
        return "Join to see your table and the final standings"
    if status == "playing":
        return "Join your table"
    sealed = row is not None and row.pod is None and status in ("drafting", "building")
    if sealed:
        return "Join to build your deck from your sealed pool"
    if status == "building" or (row is not None and row.pool_size is not None):  # their pod's draft is over
        return "Join to build your deck"
    return "Join your draft"
