"""Seat codes: nobody picks for someone else at a terminal draft.

Each player of a terminal draft gets a short code when seated (``code`` in the
player's record; the desk prints it on the seating slips, never on a public
sheet).  A terminal picking for a player asks for the code once and binds the
seat to that terminal: the terminal keeps a random token in the user's data
folder and the draft's file keeps the token's hash (``TableSession.claim``), so
the same terminal is not asked again, and a pick from any other terminal is
refused.  A wrong code is refused after a short delay and logged for the desk
(``code_failures``).  The desk can reset a code: the seat is unbound until the
new code is given.  An event made with ``--no-codes`` has none (anyone at any
terminal can pick for anyone, as before codes).
"""

from __future__ import annotations

import datetime as dt
import hmac
import os
import secrets
from pathlib import Path

import msgspec
from tinydb import Query

from events import timing
from events.night import history
from events.night.snapshot import Snapshot
from events.storage.records import Event
from sets.errors import InputError, StateError
from sets.userdata import user_home

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read off a slip without doubt
LENGTH = 6
WRONG_CODE_DELAY = 1.0  # seconds before a wrong code is refused: guessing 32**6 codes takes years
CODE_FAILURES = "code_failures"
PLAYERS = "players"

Q = Query()


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def clean(text: str) -> str:
    """A typed code as stored: capitals, spaces and dashes left out."""
    return "".join(ch for ch in text.upper() if ch not in " -\t")


def uses_codes(event: Event) -> bool:
    """Players of this event pick behind seat codes (terminal drafts made without ``--no-codes``)."""
    return bool(event.codes) and event.style == "terminal" and event.mode == "draft"


def assign_codes(db, event: Event, event_id: int) -> None:
    """Inside a transaction: every seated human player without a code gets one."""
    if not uses_codes(event):
        return
    table = db.table(PLAYERS)
    for player in table.search(Q.event == event_id):
        if player.get("pod") is not None and not player.get("bot") and not player.get("code"):
            table.update({"code": new_code()}, doc_ids=[player.doc_id])


def reset_code(events, event_id: int, who: str) -> tuple[str, str]:
    """A new code for the player (the old one stops working, the seat is unbound); returns (name, code)."""
    code = new_code()
    with events.store.write() as db:
        event = events._event(db, event_id)
        if not uses_codes(event):
            raise StateError(
                f"event {event_id} has no seat codes (it was made with --no-codes, or is not a terminal draft)"
            )
        player = events._player(db, event_id, who)
        if player.get("pod") is None or player.get("bot"):
            raise StateError(f"{player['name']} has no seat yet: codes are given at seating")
        db.table(PLAYERS).update({"code": code}, doc_ids=[player.doc_id])
        history.log_change(db, event_id, history.DESK, "seat code reset", None, player["name"])  # never the code itself
        pods = db.table("pods").search((Q.event == event_id) & (Q.number == player["pod"]))
    if pods and pods[0].get("draft"):
        session = events.draft_session(event_id, pods[0]["number"])
        session.release(pods[0]["players"].index(player.doc_id))
    return player["name"], code


def check_code(
    events, event_id: int, player_id: int, typed: str, delay: float = WRONG_CODE_DELAY, by: str | None = None
) -> bool:
    """Whether ``typed`` is the player's code; a wrong one waits ``delay`` seconds and is logged for the desk
    (``by``: where it was typed, for the history; the player's terminal when not given)."""
    with events.store.read() as db:
        player = events._player(db, event_id, player_id)
    if hmac.compare_digest(clean(typed).encode(), str(player.get("code") or "").encode()) and player.get("code"):
        return True
    timing.sleep(delay)
    with events.store.write() as db:
        db.table(CODE_FAILURES).insert(
            {
                "event": event_id,
                "player": player_id,
                "at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                "process": os.getpid(),
            }
        )
        history.log_change(db, event_id, by or history.actor(player["name"]), "wrong seat code", None, player["name"])
    return False


def failures(events, event_id: int) -> dict[int, list[str]]:
    """Wrong codes typed for each player (their times), for the desk."""
    with events.store.read() as db:
        found: dict[int, list[str]] = {}
        for row in db.table(CODE_FAILURES).search(Q.event == event_id):
            found.setdefault(row["player"], []).append(row["at"])
    return found


def note_failures(events, event_id: int, snap: Snapshot) -> Snapshot:
    """The snapshot with each player's ``wrong_codes`` (how many) and ``wrong_code_last`` (when), for the desk."""
    found = failures(events, event_id)
    rows = []
    for player in snap.players:
        times = found.get(player.id, [])
        rows.append(msgspec.structs.replace(player, wrong_codes=len(times), wrong_code_last=max(times, default=None)))
    return snap.with_players(tuple(rows))


def _token_path(event: Event, player_id: int) -> Path:
    return user_home() / "seats" / f"{event.uid or 'event'}-{player_id}.token"


def terminal_token(event: Event, player_id: int) -> str | None:
    """The token this terminal keeps for the player's seat, if it was bound here."""
    try:
        return _token_path(event, player_id).read_text(encoding="ascii").strip() or None
    except (OSError, UnicodeDecodeError):
        return None


def keep_token(event: Event, player_id: int) -> str:
    """A new token for this terminal's binding of the player's seat, kept readable by this user only."""
    token = secrets.token_hex(16)
    path = _token_path(event, player_id)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="ascii") as stream:
            stream.write(token)
    except OSError as error:
        raise InputError(
            f"cannot keep this terminal's seat binding in {str(path.parent)!r}: {error.strerror or error}; "
            "set CMDRAFT_HOME to a writable folder"
        ) from None
    return token
