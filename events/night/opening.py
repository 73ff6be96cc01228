"""The night's database as a face opens it: a phase of the night over the database at a path (the default one when
none is given; ``sets.userdata.db_option`` is the ``--db`` a command typed again needs to open the same one).

The faces (``events.cli``, ``events.screens``, ``events.web``) hold the phases these give (``EventBase`` and the
classes built on it), never the store below them: where the database lives they ask the phase (``EventBase.path``),
another phase of the same database they ask it for too (``EventBase.phase``).
"""

from __future__ import annotations

from pathlib import Path

from events.night.base import Phase
from events.storage.store import Store


def open_night(db: Path | str | None, phase: type[Phase]) -> Phase:
    """The use cases of one phase of the night (``phase``: ``EventBase`` for the shared reading, or a class from
    its module in ``events.night``) over the database ``db`` (the user's default one when None).  Nothing is read
    yet: a database that can't be read is said by the first use case that reads it."""
    return phase(Store(db))
