"""A draft file's write or sync that fails loses no later pick: a failed sync of appended lines makes the file's next
write rewrite it whole, synced before it returns (a failed fsync may drop the pages it could not write, and a later
fsync of the same file succeeds without them: a later pick appended and acknowledged could then follow lost lines);
a pick whose own append fails (or is written only in part) leaves the file as it was, and the copy that took it is
opened again from the file (it once went on holding the refused pick, and its next picks were saved after a pick the
file never had, or another process's pick for the same seat); a whole rewrite whose folder sync fails says the file
may have changed, and the next write rewrites it whole again."""

from __future__ import annotations

import errno
import os

import pytest

from events import portable
from events.deferred import Deferred
from events.sessions.table import caught_up
from events.storage import journal as journal_module
from events.storage.draft_records import DraftBehindError, pick_rows
from events.storage.journal import Journal
from sets.errors import StorageError, WouldWait
from tests.helpers.journals import journal_path, two_human_pod


def failing_flush(fd: int) -> None:
    raise OSError(errno.EIO, "Input/output error")


def test_after_a_failed_sync_the_next_write_rewrites_the_file_whole_and_syncs_it(tmp_path, monkeypatch):
    events, event_id, session = two_human_pod(tmp_path)
    session.pick(session.suggested_pick(0))  # the first write (a resume) rewrote the file: the next ones append
    path = journal_path(tmp_path)
    unsure = Deferred()
    session.pick_many([(session.suggested_pick(1), None)], unsure)  # appended, its sync left to ``unsure``
    monkeypatch.setattr(portable, "flush_to_disk", failing_flush)
    with pytest.raises(OSError):
        unsure.sync()
    monkeypatch.undo()
    session.unsynced()  # what the server does with a failed sync (``PickWriter._synced``)
    inode, size = path.stat().st_ino, path.stat().st_size
    seat = session.waiting_humans()[0]
    with pytest.raises(WouldWait):  # on the event loop: not appended after lines the device may not hold
        session.pick_many([(session.suggested_pick(seat), None)], Deferred())
    assert (path.stat().st_ino, path.stat().st_size) == (inode, size)  # nothing changed
    assert not caught_up(session)  # the copy is opened again from its file (which holds those lines here)
    session = events.draft_session(event_id, 1)
    synced: list[int] = []
    real = portable.flush_to_disk
    monkeypatch.setattr(portable, "flush_to_disk", lambda fd: (synced.append(fd), real(fd))[1])
    session.pick(session.suggested_pick(seat))  # a worker's write: the file rewritten whole, synced
    assert path.stat().st_ino != inode and synced
    assert path.read_bytes().count(b"\n") == 1  # one snapshot line: every pick in it, none appended after
    assert Journal(path).state()["picks"] == pick_rows(session.draft.log)
    later = Deferred()
    session.pick_many([(session.suggested_pick(session.waiting_humans()[0]), None)], later)  # appends again
    later.close()
    assert path.read_bytes().count(b"\n") == 2


def test_a_pick_whose_append_fails_leaves_the_file_as_it_was_and_the_copy_is_opened_again(tmp_path, monkeypatch):
    events, event_id, session = two_human_pod(tmp_path)
    session.pick(session.suggested_pick(0))
    path = journal_path(tmp_path)
    kept = path.read_bytes()
    monkeypatch.setattr(portable, "flush_to_disk", failing_flush)
    with pytest.raises(StorageError, match="Input/output error"):
        session.pick(session.suggested_pick(1))
    monkeypatch.undo()
    assert path.read_bytes() == kept  # the line written before the sync failed is taken off again
    assert len(session.draft.log) == 2  # the copy took the pick before its write failed...
    with pytest.raises(DraftBehindError):
        session.refresh()
    assert not caught_up(session)  # ...so it is opened again from the file (as a server does: ``Served.table``)
    again = events.draft_session(event_id, 1)
    assert len(again.draft.log) == 1 and 1 in again.waiting_humans()  # the refused pick is to be made again
    again.pick(again.suggested_pick(1))
    assert Journal(path).state()["picks"] == pick_rows(again.draft.log)
    assert os.path.getsize(path) > len(kept)


def test_a_copy_whose_write_failed_is_opened_again_even_when_another_process_made_that_pick_since(
    tmp_path, monkeypatch
):
    events, event_id, server = two_human_pod(tmp_path)
    server.pick(server.suggested_pick(0))
    path = journal_path(tmp_path)
    monkeypatch.setattr(portable, "flush_to_disk", failing_flush)
    with pytest.raises(StorageError):
        server.pick(server.choose(1, [0, 1]))  # refused, taken off the file; the copy took it
    monkeypatch.undo()
    terminal = events.draft_session(event_id, 1)  # another process: the same seat's pick, other cards, acknowledged
    terminal.pick(terminal.choose(1, [2, 3]))
    assert not caught_up(server)  # the same count of picks as the file, but not the file's: opened again
    again = events.draft_session(event_id, 1)
    assert pick_rows(again.draft.log) == Journal(path).state()["picks"] == pick_rows(terminal.draft.log)


def test_a_line_written_only_in_part_is_refused_and_taken_off(tmp_path, monkeypatch):
    _, _, session = two_human_pod(tmp_path)
    session.pick(session.suggested_pick(0))
    path = journal_path(tmp_path)
    kept = path.read_bytes()
    real = os.write

    def half(fd: int, data: bytes) -> int:
        return real(fd, data[: len(data) // 2])  # a disk that fills up mid-line

    monkeypatch.setattr(journal_module.os, "write", half)
    with pytest.raises(StorageError, match="could be written"):
        session.pick(session.suggested_pick(1))
    monkeypatch.undo()
    assert path.read_bytes() == kept
    with pytest.raises(DraftBehindError):
        session.refresh()


def test_a_rewrite_whose_folder_sync_fails_says_so_and_the_next_write_rewrites_the_file_again(tmp_path, monkeypatch):
    events, event_id, session = two_human_pod(tmp_path)
    session.pick(session.suggested_pick(0))
    path = journal_path(tmp_path)
    session.unsynced()  # the next write rewrites the file whole
    real = journal_module.atomic_write

    def renamed_then_failed(*args, **options) -> None:
        real(*args, **options)
        raise OSError(errno.EIO, "Input/output error")  # the folder's fsync, after the rename

    monkeypatch.setattr(journal_module, "atomic_write", renamed_then_failed)
    fresh = events.draft_session(event_id, 1)
    with pytest.raises(StorageError, match="written but may not be kept"):
        fresh.pick(fresh.suggested_pick(1))
    monkeypatch.undo()
    inode = path.stat().st_ino
    reopened = events.draft_session(event_id, 1)
    reopened.pick(reopened.suggested_pick(reopened.waiting_humans()[0]))
    assert path.stat().st_ino != inode  # rewritten whole again (its folder synced this time), not appended to
