"""Where ``cmdraft serve`` is serving an event, for the desk's other commands to say so (``event seat``'s slips
command carries ``--url`` while it runs).

While it runs, ``serve`` keeps a small file beside the database, ``NAME.serving-EVENT.json``: its address and its
process id.  It is written whole when the server listens and, when it stops, written again as stopped; one a crash
left behind names a process that is gone.  Either is read as "not serving" (and the next ``serve`` writes it anew),
and tells the next ``serve`` that a server served the event and stopped (``stopped_before``: the phones could not
pick meanwhile, so it starts their pick timers over, and until then nothing else times them out: ``phone_clocks``)."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from events.portable import process_alive


def marker(database: Path, event_id: int) -> Path:
    """The file that says ``serve`` is serving ``event_id`` of ``database``."""
    return database.with_name(f"{database.name}.serving-{event_id}.json")


@contextlib.contextmanager
def serving(database: Path, event_id: int, url: str) -> Iterator[Callable[[], None]]:
    """Say ``url`` serves the event while the block runs (best effort: a folder that can't be written only loses
    the hint).  The block is given the call that says the server stopped, for the moment it starts stopping (its
    phones can't pick from then on: a Ctrl-C's shutdown closes their streams while the process lives on); the end of
    the block says it too.  Either writes the file as stopped only while it is still this process's."""
    path = marker(database, event_id)
    temporary = path.with_name(path.name + ".tmp")
    written = False
    try:
        temporary.write_text(json.dumps({"url": url, "pid": os.getpid()}), encoding="utf-8")
        os.replace(temporary, path)
        written = True
    except OSError:
        pass

    def stopped() -> None:
        if written:
            with contextlib.suppress(OSError, ValueError):
                if json.loads(path.read_text(encoding="utf-8")).get("pid") == os.getpid():
                    temporary.write_text(json.dumps({"stopped": True}), encoding="utf-8")
                    os.replace(temporary, path)

    try:
        yield stopped
    finally:
        stopped()


def stopped_before(database: Path, event_id: int) -> bool:
    """Whether a server served the event and is stopped now (stopped, or gone in a crash), as no other serves it:
    what the next ``serve`` is told before it says it serves the event itself."""
    return marker(database, event_id).exists() and served_url(database, event_id) is None


def served_url(database: Path, event_id: int) -> str | None:
    """The address ``serve`` is serving the event at now, or None (not running, or a file a crash left behind)."""
    try:
        found = json.loads(marker(database, event_id).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(found, dict):
        return None
    url, pid = found.get("url"), found.get("pid")
    if not isinstance(url, str) or not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0:
        return None
    return url if process_alive(pid) else None
