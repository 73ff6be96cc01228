"""The desk's credential for ``cmdraft serve``: one secret per event, kept only as its hash in the database, so the
desk link printed once keeps working through every restart of the server, until the desk makes a new one.

``ensure`` makes the first (and returns it, to print once); ``renew`` makes a new one and ends the old, and with it
every desk session that holds it (a desk page keeps the secret in its cookie); ``is_desk`` checks a secret.  The
history says when a link was made or renewed, never the secret.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from tinydb import TinyDB

from events import timing
from events.night import history
from events.storage.records import DeskLink
from events.storage.tables import records_of

DESK_LINKS = "desk_links"  # event, hash (sha256 of the secret), at (when it was made)


def link_hash(token: str) -> str:
    return hashlib.sha256(f"cmdraft desk:{token}".encode()).hexdigest()


def _put(db: TinyDB, event_id: int, token: str) -> None:
    links = records_of(db, DeskLink)
    links.remove_where(event=event_id)
    links.insert_fields(event=event_id, hash=link_hash(token), at=timing.now())


def ensure(events: Any, event_id: int) -> str | None:
    """The event's desk secret when this call made it (the first ``serve``: print it once); None when one exists."""
    with events.store.write() as db:
        events._event(db, event_id)
        if records_of(db, DeskLink).first(event=event_id) is not None:
            return None
        token = secrets.token_urlsafe(24)
        _put(db, event_id, token)
        history.log_change(db, event_id, history.DESK, "desk link made", None, None)
    return token


def renew(events: Any, event_id: int) -> str:
    """A new desk secret for the event (returned once); the old one, and every desk session holding it, ends."""
    token = secrets.token_urlsafe(24)
    with events.store.write() as db:
        events._event(db, event_id)
        _put(db, event_id, token)
        history.log_change(db, event_id, history.DESK, "desk link renewed", None, None)
    return token


def keep(events: Any, event_id: int, token: str) -> None:
    """``token`` becomes the event's desk secret (a test's or a script's own; nothing logged when it already is)."""
    with events.store.write() as db:
        events._event(db, event_id)
        row = records_of(db, DeskLink).first(event=event_id)
        if row is None or not hmac.compare_digest(row.hash, link_hash(token)):
            _put(db, event_id, token)


def stored_hash(events: Any, event_id: int) -> str | None:
    with events.store.read() as db:
        row = records_of(db, DeskLink).first(event=event_id)
    return None if row is None else row.hash


def is_desk(stored: str | None, given: str | None) -> bool:
    """Whether ``given`` is the desk's secret whose hash is ``stored``."""
    if not stored or not given or len(given) > 200:
        return False
    return hmac.compare_digest(link_hash(given).encode(), stored.encode())
