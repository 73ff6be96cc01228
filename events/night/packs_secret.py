"""An event's packs come from a secret: drawn from the operating system when the event is made
(``secrets``), kept in the event record, never shown on a screen or written to an export until
the event is finished.  The seed shown with an event (``--seed``) seats and pairs; it opens no pack.

A pod's draft is dealt from ``pod_seed(secret, pod)``; an export after ``finish`` holds the
secret and every pod draft's seed, so ``Draft.new`` (or ``cmdraft sim --seed``) opens the same
boosters again and the saved picks replay the draft.  Practice drafts keep their visible seeds.
"""

from __future__ import annotations

import secrets

from tinydb import TinyDB

from events.storage.records import Event
from events.storage.tables import records_of


def new_secret() -> int:
    """128 bits from the operating system's random source."""
    return secrets.randbits(128)


def pod_seed(secret: int, pod: int) -> int:
    """The seed of pod ``pod``'s boosters (pods from 1)."""
    return int(secret) * 100 + pod


def packs_secret(db: TinyDB, event: Event) -> int:
    """``event``'s packs' secret (``event`` as read in the caller's transaction ``db``), given now when it has none
    (made before packs had a secret, or restored from a running event's export, which holds none): never the
    visible seed."""
    if event.secret is not None:
        return event.secret
    secret = new_secret()
    records_of(db, Event).update(event.id, secret=secret)
    return secret
