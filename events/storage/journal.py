"""A live draft's own file (``NAME.drafts/ID-TOKEN.json``) as an append-only journal.

The file is a snapshot line followed by entry lines:

- the snapshot: the whole journal state as the database format keeps a record (``{"_meta": ..., "journal":
  {"1": {"humans", "status", "picks", "deadline", "claims", "timed_out"}}}``), written whole (a temporary
  beside the file, fsynced, renamed over it, the folder fsynced).  A draft file written before the journal
  (one such line, no newline after it) reads as a snapshot alone;
- each entry: one transaction's change, ``{"picks": [new rows], ...the fields it changed}``, appended as one
  line with one write and one fsync: a pick is acknowledged only once its line is on the device.

A kill at any moment leaves whole lines and perhaps a torn last one (a write cut short): the last line that is
not whole JSON is a write that never returned, so nothing acknowledged is in it; it is left out when read and
dropped by the next write, which then rewrites the file (compacts it).  A write also compacts the file (one
snapshot, no entries) at a pack's end (the caller says so), at this process's first write to the file (a
resumed draft), and past ``MAX_ENTRIES`` entries; a compaction is the rename of a whole file, so a kill during
one leaves the old file (snapshot and entries) or the new one, both whole.

Each write holds the file's lock (``FileLock``, as the database's, its two files kept open between writes: a
free lock costs a ``stat`` and a few ``flock`` calls, no open) and checks the file's signature with one
``stat``: unchanged since this process last read or wrote it, nothing is read; grown in place (another process
appended), only the new lines are read; replaced (another process compacted it), it is read again.  Which of the
two it is, the inode number can tell only because this process holds the file it read open: a file nobody holds
may have its number given to the next new one (ext4 does so at once), which is then no file grown.
Nothing is read back after a write, and the folder is listed (for a killed writer's temporary file) only
when the file is compacted.

A writer that must not wait (the web server's event loop) writes with a ``Deferred``: the lock is only tried
(``WouldWait`` when another holds it, or when the write would have to rewrite the file: nothing is changed
then), and the entry is appended without its fsync, which the ``Deferred`` does later (``Deferred.sync``, in one
thread that syncs every journal written since its last round: group commit).  The writer acknowledges those
picks only after that sync; until then they are in the file as any appended line (a kill -9 of the writer loses
nothing written; only the machine losing power before the sync could, and nobody was told they were taken).  A
pack that ends in such a write leaves the file to be compacted later (``compact_due``, ``compact``).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec

from events import portable
from events.deferred import Deferred
from events.storage.database_file import META, _meta_doc, check_data, damaged_draft, dumps, migrated, schema_of
from events.storage.record_checks import check_tables
from events.storage.records import PickRows, Seat, Text40, Text80, TimedOut
from events.storage.safe_files import PRIVATE, FileLock, atomic_write, read_only, remove_stale_temporaries
from sets.errors import StorageError, WouldWait
from sets.files import DATABASE_LIMIT, FileProblem, open_regular, read_descriptor
from sets.visible import quoted

JOURNAL = "journal"
LOCK_TIMEOUT = 30.0
MAX_ENTRIES = 1_000  # entry lines before a write compacts the file whatever the pack (a bound on a read)
KEEP_OPEN = os.name != "nt"  # Windows can't rename over a file another process holds open


class Entry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One transaction's change to the journal: the picks it added and the fields it set."""

    picks: PickRows
    humans: list[Seat] | None = None
    status: Text40 | None = None
    deadline: dict[str, Any] | None = None
    claims: dict[str, Text80] | None = None
    timed_out: TimedOut | None = None


FIELDS = ("humans", "status", "deadline", "claims", "timed_out")
_decode = msgspec.json.Decoder()


def appended(fd: int, line: bytes, deferred: Deferred | None = None) -> None:
    """One entry on the device: written with one call, then fsynced (the commit of an appending transaction);
    ``deferred``: fsynced when it is synced (the caller hands it the file, ``Journal._append``)."""
    written = os.write(fd, line)
    if written != len(line):  # a disk that filled up mid-line: what was written is taken off by the caller
        raise OSError(errno.ENOSPC, f"only {written} of {len(line)} bytes could be written")
    if deferred is None:
        portable.flush_to_disk(fd)


class JournalWrite:
    """A transaction on a journal: ``state`` is the journal as saved (None before its first write); ``save``
    sets the new picks and fields, written when the transaction ends."""

    def __init__(self, state: dict[str, Any] | None) -> None:
        self.state = state
        self.added: list[list[int]] = []
        self.fields: dict[str, Any] | None = None
        self.compact = False

    def save(self, fields: dict[str, Any], added: list[list[int]], *, compact: bool = False) -> None:
        """The journal after this transaction: ``added`` pick rows after the saved ones, and ``fields`` (humans,
        status, deadline, claims, timed_out; left out: as saved).  ``compact``: rewrite the file whole (a
        pack's end)."""
        self.fields, self.added, self.compact = fields, [list(row) for row in added], compact


class Journal:
    """One live draft's file, kept open by its ``Store`` so that what it read is reused between transactions."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._state: dict[str, Any] | None = None
        self._signature: tuple[int, int, int] | None = None  # (inode, size, mtime) of the file as read/written
        self._end = 0  # bytes of whole lines read
        self._entries = 0  # entry lines after the snapshot
        self._whole = False  # the file ends with a whole line (an entry may be appended)
        self._wrote = False  # this process compacted the file once (the resume is done)
        self.compact_due = False  # a pack ended in a deferred write: the file is to be compacted (``compact``)
        self._fd: int | None = None
        self._fd_inode = -1
        self._closer: weakref.finalize | None = None
        # The file as last read or written, held open (``KEEP_OPEN``) so that its inode number is no other file's
        # meanwhile: a file another process put in its place has the same number only if it is the same file.
        self._held: tuple[int, int, int] | None = None  # (descriptor, device, inode)
        self._held_closer: weakref.finalize | None = None
        self._lock = FileLock(path, keep_open=KEEP_OPEN)  # its files kept open: every pick write takes it

    # --- reading ---------------------------------------------------------------------------------------------------

    def _stat(self) -> os.stat_result | None:
        try:
            return os.stat(self.path)
        except FileNotFoundError:
            return None
        except OSError as error:
            raise StorageError(f"cannot use draft file {quoted(str(self.path))}: {error.strerror or error}") from None

    def _refresh(self) -> os.stat_result | None:
        """Bring the state up to the file with one ``stat``; the file's stat (None: no file)."""
        stat = self._stat()
        if stat is None:
            self._forget()
            return None
        signature: tuple[int, int, int] | None = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
        if signature == self._signature:
            return stat
        if self._signature is not None and self._holds(stat) and stat.st_size >= self._end:
            self._read_tail(stat.st_size)
        else:
            opened = self._read_whole()  # the file as opened: maybe a newer one than ``stat``'s
            signature = None if opened is None else (opened.st_ino, opened.st_size, opened.st_mtime_ns)
        self._signature = signature
        return stat

    def _holds(self, stat: os.stat_result) -> bool:
        """Whether ``stat`` is of the file this process holds open (read or written last): the same file grown,
        not one another process put in its place (ext4 gives a new file the inode number of one just replaced
        when nobody holds it, as it does a compaction's temporary)."""
        held = self._held
        return held is not None and (held[1], held[2]) == (stat.st_dev, stat.st_ino)

    def _hold(self, descriptor: int, opened: os.stat_result) -> None:
        self._let_go()
        if not KEEP_OPEN:  # Windows can't rename over it: every change is read whole there
            os.close(descriptor)
            return
        self._held = (descriptor, opened.st_dev, opened.st_ino)
        self._held_closer = weakref.finalize(self, os.close, descriptor)

    def close(self) -> None:
        """Let go of the file (its draft folded into the database: nothing more is read or written here)."""
        self._forget()
        self._close()

    def _let_go(self) -> None:
        if self._held_closer is not None:
            self._held_closer()
        self._held, self._held_closer = None, None

    def _forget(self) -> None:
        self._let_go()
        self._state, self._signature, self._end, self._entries, self._whole = None, None, 0, 0, False

    def _read_whole(self) -> os.stat_result | None:
        """The file read from its start, and held (``_hold``); its status as opened (None: there is none)."""
        self._let_go()
        try:
            descriptor, opened = open_regular(self.path, DATABASE_LIMIT)
        except FileProblem as problem:
            if problem.missing:
                self._forget()
                return None
            raise StorageError(f"cannot use draft file {quoted(str(self.path))}: it {problem.reason}") from None
        try:
            self._read_from(descriptor)
        except BaseException as error:
            os.close(descriptor)
            if isinstance(error, FileProblem):
                raise StorageError(f"cannot use draft file {quoted(str(self.path))}: it {error.reason}") from None
            raise
        self._hold(descriptor, opened)  # held only once read whole: ``_end`` is of this file
        return opened

    def _read_from(self, descriptor: int) -> None:
        raw = read_descriptor(descriptor, DATABASE_LIMIT)
        first, newline, rest = raw.partition(b"\n")
        try:
            data = json.loads(first)
        except (ValueError, UnicodeDecodeError) as error:
            raise damaged_draft(self.path, str(error)) from None
        data = check_data(data, self.path)
        if schema_of(data) != _meta_doc()["schema"]:
            data = migrated(data, self.path)
        self._state = (data.get(JOURNAL) or {}).get("1")
        self._end, self._entries, self._whole = len(first) + len(newline), 0, bool(newline)
        if newline:
            self._apply(rest)

    def _read_tail(self, size: int) -> None:
        """The lines after ``_end`` of the file held (``_holds``: the same file, grown to ``size`` or more)."""
        assert self._held is not None
        descriptor, chunks, at = self._held[0], [], self._end
        try:
            while chunk := os.pread(descriptor, max(size - at, 0) + 65536, at):
                chunks.append(chunk)
                at += len(chunk)
                if at - self._end > DATABASE_LIMIT:
                    raise StorageError(
                        f"cannot use draft file {quoted(str(self.path))}: it is over the limit of its size"
                    )
        except OSError as error:
            raise StorageError(f"cannot use draft file {quoted(str(self.path))}: {error.strerror or error}") from None
        self._apply(b"".join(chunks))

    def _apply(self, raw: bytes) -> None:
        """Fold the entry lines of ``raw`` (the file from ``_end`` on) into the state; a torn last line (no
        newline yet, or not whole JSON with nothing after it) is a write that never returned: left out."""
        at = 0
        while (newline := raw.find(b"\n", at)) >= 0:
            line, after = raw[at:newline], newline + 1
            try:
                change = _decode.decode(line)
            except msgspec.DecodeError:
                if after == len(raw):
                    break
                raise damaged_draft(self.path, f"entry {self._entries + 1} is not JSON") from None
            try:
                entry = msgspec.convert(change, Entry)
            except msgspec.ValidationError as error:  # whole JSON of the wrong shape: not a torn write
                raise StorageError(
                    f"{quoted(str(self.path))} is damaged (entry {self._entries + 1}: {error})"
                ) from None
            self._fold(entry)
            self._end += after - at
            self._entries += 1
            at = after
        self._whole = at == len(raw)

    def _fold(self, entry: Entry) -> None:
        state = dict(self._state or {"humans": [], "status": "drafting", "picks": []})
        state["picks"] = [*state["picks"], *(list(row) for row in entry.picks)]
        for key in FIELDS:
            value = getattr(entry, key)
            if value is not None:
                state[key] = [list(row) for row in value] if key == "timed_out" else value
        self._state = state

    def known_signature(self) -> tuple[int, int, int] | None:
        """The file's (inode, size, mtime) as this process last read or wrote it, without looking at the file
        again (None: not read yet, or to be read again)."""
        return self._signature

    def state(self) -> dict[str, Any] | None:
        """The journal as it stands on disk: ``{"humans", "status", "picks", ...}`` (None before its first write).
        Shared with later reads: not to be changed."""
        self._refresh()
        return self._state

    # --- writing ---------------------------------------------------------------------------------------------------

    @contextmanager
    def write(self, deferred: Deferred | None = None) -> Iterator[JournalWrite]:
        """A transaction under the file's lock: all or nothing, one write (an appended line or a whole file).
        ``deferred``: never wait, and append without the fsync, which ``deferred`` does (``WouldWait`` before the
        transaction starts when the lock is held or the file would have to be rewritten)."""
        if self._signature is None:  # maybe no file yet: its folder first (the lock sits beside the file)
            if deferred is not None:
                raise WouldWait(f"{quoted(str(self.path))} is to be read first")
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StorageError(f"cannot create folder {self.path.parent}: {error.strerror or error}") from None
        lock = self._lock
        if deferred is None:
            lock.acquire(LOCK_TIMEOUT)
        elif not lock.try_acquire():
            raise WouldWait(f"{quoted(str(self.path))} is being written")
        try:
            stat = self._refresh()
            if stat is not None and not stat.st_mode & 0o222:
                raise StorageError(
                    f"{quoted(str(self.path))} is read-only; nothing was changed (make it writable to change it)"
                )
            if deferred is not None and self._rewrites(stat):
                raise WouldWait(f"{quoted(str(self.path))} is to be rewritten")
            transaction = JournalWrite(self._state)
            yield transaction
            if transaction.fields is not None:
                self._commit(transaction, stat, deferred)
        except BaseException:
            self._signature = None  # read the file again next time
            raise
        finally:
            if not KEEP_OPEN:
                self._close()
            lock.release()

    def _rewrites(self, stat: os.stat_result | None) -> bool:
        """Whether the next write rewrites the file whatever it changes: no file yet, this process's first write
        (a resumed draft), a torn last line, or ``MAX_ENTRIES`` entries."""
        return stat is None or not self._wrote or not self._whole or self._entries >= MAX_ENTRIES

    def unsynced(self) -> None:
        """A write to the file failed, or the sync of lines appended to it (``Deferred``): what the device holds of
        the file is unknown now (a failed fsync may have dropped the pages it could not write, and a later fsync
        of the same file succeeds without them), so the next write rewrites the file whole from the draft as this
        process holds it, and syncs it before it returns: no later pick is acknowledged over lines lost."""
        self._wrote = False

    @property
    def resumed(self) -> bool:
        """Whether this process has written the file whole once (its first write: a draft resumed here)."""
        return self._wrote

    def compact(self) -> None:
        """Rewrite the file as one snapshot (a pack that ended in a deferred write: ``compact_due``)."""
        with self.write() as transaction:
            if transaction.state is not None and self.compact_due:
                transaction.save({}, [], compact=True)

    def _commit(self, transaction: JournalWrite, stat: os.stat_result | None, deferred: Deferred | None) -> None:
        fields = transaction.fields or {}
        before = self._state
        state = {**(before or {"humans": [], "status": "drafting", "picks": []}), **fields}
        state["picks"] = [*(before["picks"] if before else []), *transaction.added]
        change: dict[str, Any] = {"picks": transaction.added}
        for key in FIELDS:
            if key in fields and (before is None or before.get(key) != fields[key]):
                change[key] = fields[key]
        # A field set back to None (a deadline when the draft ends) can't be an entry's None: compact then.
        cleared = any(change.get(key, 0) is None for key in FIELDS)
        if deferred is not None and transaction.compact and not cleared:
            deferred.after.append(self.compact)  # a pack ended: compacted after the sync, where waiting is fine
            self.compact_due = True
            self._append(change, state, stat, deferred)
        elif cleared or transaction.compact or self._rewrites(stat):
            self._rewrite(state, stat)  # synced when it returns, whatever ``deferred`` (a rare write: a draft's end)
        else:
            self._append(change, state, stat, deferred)
        self._state = state

    def _rewrite(self, state: dict[str, Any], stat: os.stat_result | None) -> None:
        tables = {JOURNAL: {"1": state}, META: {"1": _meta_doc()}}
        problem = check_tables(tables)
        if problem:
            raise StorageError(f"refused to save {quoted(str(self.path))}: {problem}; nothing was changed")
        if read_only(self.path.parent):
            raise StorageError(
                f"the folder {self.path.parent} is read-only; nothing was changed (make it writable, or choose another --db)"
            )
        remove_stale_temporaries(self.path.parent, self.path.name)  # a killed compaction's temporary
        text = dumps(tables) + "\n"
        try:
            atomic_write(self.path, text, PRIVATE if stat is None else stat.st_mode & 0o7777)
        except OSError as error:
            self.unsynced()  # (the new file may be in place, its folder not synced: the next write rewrites it)
            self._close()
            replaced = self._stat()
            kept = (
                "nothing was changed"
                if replaced is None or stat is not None and replaced.st_ino == stat.st_ino
                else "it was written but may not be kept"
            )
            raise StorageError(
                f"cannot write draft file {quoted(str(self.path))}: {error.strerror or error}; {kept}"
            ) from None
        self._close()
        try:  # the new file held (under the lock: nobody else can have replaced it since)
            descriptor, written = open_regular(self.path, DATABASE_LIMIT)
        except FileProblem as failed:
            self._let_go()
            self._signature = None
            raise StorageError(
                f"cannot use draft file {quoted(str(self.path))} just written: it {failed.reason}"
            ) from None
        self._hold(descriptor, written)
        self._signature = (written.st_ino, written.st_size, written.st_mtime_ns)
        self._end, self._entries, self._whole, self._wrote = len(text.encode()), 0, True, True
        self.compact_due = False

    def _append(
        self, change: dict[str, Any], state: dict[str, Any], stat: os.stat_result | None, deferred: Deferred | None
    ) -> None:
        try:
            msgspec.convert(change, Entry)  # the same checks as a read: nothing saved that it would refuse
        except msgspec.ValidationError as error:
            raise StorageError(f"refused to save {quoted(str(self.path))}: {error}; nothing was changed") from None
        line = dumps(change).encode() + b"\n"
        assert stat is not None  # a missing file is rewritten (``_rewrites``)
        fd = self._descriptor(stat)
        try:
            appended(fd, line, deferred)
            written = os.fstat(fd)
            if deferred is not None:  # the file named by this look at it (no second ``fstat``)
                deferred.add(fd, (written.st_dev, written.st_ino))
        except OSError as error:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, stat.st_size)  # the line that may have been written taken off: nothing changed
            self.unsynced()
            self._close()
            raise StorageError(
                f"cannot write draft file {quoted(str(self.path))}: {error.strerror or error}; nothing was changed"
            ) from None
        self._end, self._entries = written.st_size, self._entries + 1
        self._signature = (written.st_ino, written.st_size, written.st_mtime_ns)

    def _descriptor(self, stat: os.stat_result) -> int:
        if self._fd is not None and self._fd_inode == stat.st_ino:
            return self._fd
        self._close()
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_BINARY", 0))
        except OSError as error:
            raise StorageError(
                f"cannot write draft file {quoted(str(self.path))}: {error.strerror or error}; nothing was changed"
            ) from None
        self._fd, self._fd_inode = fd, os.fstat(fd).st_ino
        self._closer = weakref.finalize(self, os.close, fd)
        return fd

    def _close(self) -> None:
        if self._closer is not None:
            self._closer()
        self._fd, self._fd_inode, self._closer = None, -1, None
