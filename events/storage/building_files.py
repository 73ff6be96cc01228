"""The decks event players are building and haven't registered, one small file each beside the database
(``NAME.building/EVENT-PLAYER.json``), so a build in progress survives a server or terminal killed before
Register.

A file holds the deck as it stands (its commanders with the Piper colors, its main deck: each card by name,
set and number, as the registered decks are kept), whether the player made it (undo history is not kept),
which registration of the player's deck it was built on and which pool.  It is written after every change
the builder acknowledged, whole: a temporary file, fsynced, then renamed over the old one (and the folder
fsynced), as the database is written (``events.storage.safe_files.atomic_write``): a change answered is on
the disk even after a power cut, and a crash leaves the old build or the new one, never a mix.  The cost is
one small file per change, never the database.

A file is taken back only for the same event, player, pool and registration; one that can't be read (half
written by hand, another version's, not JSON) counts as none.  Nothing here decides when a build is wanted:
the event's builder (``events.sessions.activities.EventDeck``) asks.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from events.storage.safe_files import PRIVATE, atomic_write, full_disk, remove_stale_temporaries
from sets.errors import StorageError
from sets.visible import quoted

FORMAT = "cmdraft-building/1"
MAX_BYTES = 1 << 20  # a deck of a pool is a few kilobytes: a bigger file is not one of these


def building_folder(database: Path) -> Path:
    """The folder beside the database holding its builds in progress."""
    return database.with_name(database.name + ".building")


def fingerprint(value: str | None) -> str | None:
    """A short, stable digest of a registration's mark (None: no registration) or a pool's cards."""
    return None if value is None else hashlib.sha256(value.encode()).hexdigest()[:32]


def pool_key(cards: Iterable[tuple[str, str, str]]) -> str:
    """A pool's cards, each ``(set, number, name)``, as one digest (the order of the pool doesn't count)."""
    return fingerprint(json.dumps(sorted(list(card) for card in cards))) or ""


@dataclass(frozen=True)
class KeptBuild:
    """A build in progress read back: the deck as cmdraft's deck JSON, and whether the player made it."""

    deck: dict[str, Any]
    touched: bool


@dataclass(frozen=True)
class BuildingFiles:
    """The builds in progress of the database at ``database``."""

    database: Path

    @property
    def folder(self) -> Path:
        return building_folder(self.database)

    def path(self, event_id: int, player_id: int) -> Path:
        return self.folder / f"{event_id}-{player_id}.json"

    def keep(
        self, event_id: int, player_id: int, deck: dict[str, Any], touched: bool, *, built_on: str | None, pool: str
    ) -> None:
        """Write the build as it stands (``built_on``: the registration's mark it was built on; ``pool``: ``pool_key``
        of the pool); ``StorageError`` when the disk refuses (the change is then not acknowledged)."""
        kept = {
            "format": FORMAT,
            "event": event_id,
            "player": player_id,
            "built_on": fingerprint(built_on),
            "pool": pool,
            "touched": touched,
            "deck": {key: deck[key] for key in ("name", "commanders", "main", "piper_colors") if key in deck},
        }
        path = self.path(event_id, player_id)
        try:
            self.folder.mkdir(mode=0o700, exist_ok=True)
            remove_stale_temporaries(self.folder, path.name)  # a write killed half-way
            atomic_write(path, json.dumps(kept, ensure_ascii=False, separators=(",", ":")), PRIVATE)
        except OSError as error:
            raise StorageError(
                f"cannot keep the deck being built in {quoted(str(path))}: {error.strerror or error}; "
                f"the change shows in the builder but a restart would lose it{full_disk(error)}"
            ) from None

    def take(self, event_id: int, player_id: int, *, built_on: str | None, pool: str) -> KeptBuild | None:
        """The build kept for this player when it was built on the registration ``built_on`` over this pool; None
        when there is none, it was built on another registration or pool, or the file can't be read."""
        try:
            with open(self.path(event_id, player_id), "rb") as stream:
                data = json.loads(stream.read(MAX_BYTES + 1))
        except (OSError, ValueError, RecursionError):
            return None
        if not isinstance(data, dict) or not isinstance(data.get("deck"), dict):
            return None
        expected = (FORMAT, event_id, player_id, fingerprint(built_on), pool)
        if tuple(data.get(key) for key in ("format", "event", "player", "built_on", "pool")) != expected:
            return None
        return KeptBuild(data["deck"], data.get("touched") is not False)

    def drop(self, event_id: int, player_id: int) -> None:
        """Forget the player's build in progress (its deck was registered); a file that won't go is left, and
        is ignored once the registration it was built on has changed."""
        try:
            self.path(event_id, player_id).unlink(missing_ok=True)
        except OSError:
            pass
