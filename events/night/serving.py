"""Where ``cmdraft serve`` is serving an event, for the desk's other commands to say so (``event seat``'s slips
command carries ``--url`` while it runs).

While it runs, ``serve`` keeps a small file beside the database, ``NAME.serving-EVENT.json``: its address and its
process id.  It is written whole when the server listens and, when it stops, written again as stopped; one a crash
left behind names a process that is gone.  While it serves, the server also holds a lock on a second file,
``NAME.serving-EVENT.lock`` (``hold_shared``): a lock ends with its process, so a crashed server whose
number a new process took (after the machine started again, say) is known gone by its lock nobody holds.  Either is read as "not serving" (and the next ``serve`` writes it anew),
and tells the next ``serve`` that a server served the event and stopped (``stopped_before``: the phones could not
pick meanwhile, so it starts their pick timers over, and until then nothing else times them out: ``phone_clocks``)."""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from events import portable
from events.portable import POLL, process_alive, unlock

if TYPE_CHECKING:
    import portalocker


def marker(database: Path, event_id: int) -> Path:
    """The file that says ``serve`` is serving ``event_id`` of ``database``."""
    return database.with_name(f"{database.name}.serving-{event_id}.json")


def held(database: Path, event_id: int) -> Path:
    """The file each server serving ``event_id`` of ``database`` holds a lock on while it runs."""
    return database.with_name(f"{database.name}.serving-{event_id}.lock")


@contextlib.contextmanager
def serving(database: Path, event_id: int, url: str) -> Iterator[Callable[[], None]]:
    """Say ``url`` serves the event while the block runs (best effort: a folder that can't be written only loses
    the hint).  The block is given the call that says the server stopped, for the moment it starts stopping (its
    phones can't pick from then on: a Ctrl-C's shutdown closes their streams while the process lives on); the end of
    the block says it too.  Either writes the file as stopped only while it is still this process's."""
    path = marker(database, event_id)
    temporary = path.with_name(path.name + ".tmp")
    written = False
    holding = _hold(held(database, event_id))  # first: a look that finds the file finds its lock held
    try:  # ("locked": whoever reads the file may ask the lock; one this process couldn't take says nothing)
        said = {"url": url, "pid": os.getpid()} | ({"locked": True} if holding is not None else {})
        temporary.write_text(json.dumps(said), encoding="utf-8")
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
        if holding is not None:
            holding.close()


def _hold(path: Path) -> BinaryIO | None:
    """The file at ``path`` opened (made, when it isn't there) with a shared lock held on it, or None (best effort:
    the process id alone then says whether the server runs)."""
    try:
        handle = open(path, "a+b")  # noqa: SIM115  # held open while the server serves
    except OSError:
        return None
    try:
        if handle.tell() == 0:
            handle.write(b"cmdraft serve holds a lock on this file while it serves the event\n")
            handle.flush()
        if hold_shared(handle):
            return handle
    except OSError:
        pass
    handle.close()
    return None


def served_ever(database: Path, event_id: int) -> bool:
    """Whether a server has served the event (it serves it now, or it stopped or crashed since)."""
    return marker(database, event_id).exists()


def stopped_before(database: Path, event_id: int) -> bool:
    """Whether a server served the event and is stopped now (stopped, or gone in a crash), as no other serves it:
    what the next ``serve`` is told before it says it serves the event itself."""
    return served_ever(database, event_id) and served_url(database, event_id) is None


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
    if found.get("locked") is True:  # the server held the lock: it runs exactly while somebody holds it
        holder = held_by_anyone(held(database, event_id))
        if holder is False:
            return None  # (gone, though a new process may have taken its number)
        if holder is True and not portable.HAS_KILL_PROBE:
            return url  # (no way to ask after a process id here: the lock says it)
    return url if process_alive(pid) else None


def hold_shared(handle: Any) -> bool:
    """A shared lock taken on the open file ``handle``, held until it is closed (``held_by_anyone`` sees it); False
    where it can't be: no locks here, or one held exclusively for over a second (a look holds one for a moment)."""
    import portalocker  # here, not at the top: importing it reads its package's metadata, which every command would pay

    for _ in range(int(1 / POLL)):
        with contextlib.suppress(portalocker.AlreadyLocked):
            return _try_lock(handle, portalocker.LockFlags.SHARED) is not None
        time.sleep(POLL)
    return False


def held_by_anyone(path: Path) -> bool | None:
    """Whether a process holds a lock on the file at ``path`` (``hold_shared``: a lock ends with its process, so
    unlike a process id it names no process that took the number later); None where it can't be told."""
    import portalocker  # (at the top it would cost every command; see ``hold_shared``)

    with contextlib.suppress(OSError), open(path, "rb") as handle:
        try:
            taken = _try_lock(handle, portalocker.LockFlags.EXCLUSIVE)
        except portalocker.AlreadyLocked:
            return True
        unlock(handle)
        return None if taken is None else False
    return None


def _try_lock(handle: Any, kind: portalocker.LockFlags) -> bool | None:
    """The lock taken at once (``AlreadyLocked``: another holds it), or None: no lock can be taken here."""
    import portalocker  # (at the top it would cost every command; see ``hold_shared``)

    try:
        portalocker.lock(handle, kind | portalocker.LockFlags.NON_BLOCKING)
    except portalocker.AlreadyLocked:
        raise
    except (portalocker.LockException, OSError, ImportError):  # (ImportError: Windows' shared locks want pywin32)
        return None
    return True
