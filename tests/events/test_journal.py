"""A live draft's journal file (``events.storage.journal``): a pick batch is one appended line, a pack's end and a
resume rewrite the file whole, a torn last line is left out and dropped, another process's lines are read from
where this one stopped, and a pick's write lists no folder and reads nothing back.  The crashes themselves (real
processes killed mid-append and mid-compaction) are in ``tests/events/test_store.py``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import sys
import threading
from pathlib import Path

import pytest

from events import portable
from events.deferred import Deferred
from events.storage import journal as journal_module
from events.storage.draft_files import TableSession
from events.storage.draft_records import DraftReplacedError, pick_rows, stop_live_draft
from events.storage.journal import Journal
from events.storage.safe_files import FileLock
from events.storage.store import Store
from events.web.syncer import Syncer
from sets.errors import StorageError, WouldWait
from tests.helpers.journals import journal_path, two_human_pod
from tests.helpers.night import Night
from tests.helpers.paths import FIXTURES


def pick_round(session: TableSession) -> None:
    for seat in session.waiting_humans():
        session.pick(session.suggested_pick(seat))


def lines(path: Path) -> list[bytes]:
    return path.read_bytes().split(b"\n")


def test_a_resumed_draft_rewrites_its_file_once_then_each_pick_appends_one_line(tmp_path):
    events, event_id, session = two_human_pod(tmp_path)
    session.pick(session.suggested_pick(0))  # this process's first write: the whole file
    path = journal_path(tmp_path)
    inode = path.stat().st_ino
    assert lines(path)[1:] == [b""]  # one snapshot line, nothing after it
    session.pick(session.suggested_pick(1))
    pick_round(session)
    found = lines(path)
    assert path.stat().st_ino == inode  # appended to, not replaced
    assert len(found) == 1 + 3 + 1  # the snapshot, three entries, the last newline
    entries = [json.loads(line) for line in found[1:-1]]
    assert [len(entry["picks"]) for entry in entries] == [1, 1, 1]
    again = events.draft_session(event_id, 1)  # another reader folds the entries into the snapshot
    assert [p.positions for p in again.draft.log] == [p.positions for p in session.draft.log]


def test_the_pick_that_ends_a_pack_rewrites_the_file_whole(tmp_path):
    _, _, session = two_human_pod(tmp_path)
    pick_round(session)
    path = journal_path(tmp_path)
    while session.draft.round == 0:
        assert len(lines(path)) > 1
        pick_round(session)
    assert lines(path)[1:] == [b""]  # compacted: one snapshot holding every pick of the first pack
    (snapshot,) = json.loads(lines(path)[0])["journal"].values()
    assert len(snapshot["picks"]) == len(session.draft.log)


def test_a_torn_last_line_is_left_out_and_the_next_write_drops_it(tmp_path):
    events, event_id, session = two_human_pod(tmp_path)
    pick_round(session)
    pick_round(session)
    path = journal_path(tmp_path)
    whole = path.read_bytes()
    torn = whole + b'{"picks":[[0,3,'  # a write a kill cut short
    path.write_bytes(torn)
    reader = events.draft_session(event_id, 1)
    assert [p.positions for p in reader.draft.log] == [p.positions for p in session.draft.log]
    reader.pick(reader.suggested_pick(0))
    assert b'{"picks":[[0,3,' not in path.read_bytes()
    assert path.read_bytes().endswith(b"\n") and len(lines(path)) == 2  # rewritten whole without it
    assert len(events.draft_session(event_id, 1).draft.log) == len(session.draft.log) + 1


def test_a_whole_last_line_without_its_newline_is_a_torn_write_too(tmp_path):
    _, _, session = two_human_pod(tmp_path)
    pick_round(session)
    pick_round(session)
    path = journal_path(tmp_path)
    cut = path.read_bytes()[:-1]  # the last entry's newline never written
    path.write_bytes(cut)
    picks = Journal(path).state()
    assert picks is not None and len(picks["picks"]) == len(session.draft.log) - 1


def test_a_damaged_line_before_the_last_is_a_damaged_file_not_a_torn_write(tmp_path):
    _, _, session = two_human_pod(tmp_path)
    for _ in range(3):
        pick_round(session)
    path = journal_path(tmp_path)
    found = lines(path)
    found[1] = found[1][:5]
    path.write_bytes(b"\n".join(found))
    with pytest.raises(StorageError, match=r"is damaged \(entry 1 is not JSON\)"):
        Journal(path).state()


def test_an_entry_of_the_wrong_shape_is_refused_as_damage(tmp_path):
    _, _, session = two_human_pod(tmp_path)
    pick_round(session)
    path = journal_path(tmp_path)
    path.write_bytes(path.read_bytes() + b'{"picks":[["seat one"]]}\n')
    with pytest.raises(StorageError, match="is damaged"):
        Journal(path).state()


def test_another_processs_lines_are_read_from_where_this_one_stopped(tmp_path):
    _, _, session = two_human_pod(tmp_path)
    pick_round(session)
    path = journal_path(tmp_path)
    reader = Journal(path)
    first = reader.state()
    assert first is not None
    inode, end = path.stat().st_ino, reader._end
    pick_round(session)  # appended by the session's own journal object
    read: list[int] = []
    real = Journal._read_whole
    Journal._read_whole = lambda self: (read.append(1), real(self))[1]  # type: ignore[method-assign]  # a spy on the whole-file read, put back below
    try:
        after = reader.state()
    finally:
        Journal._read_whole = real  # type: ignore[method-assign]  # the real read put back after the spy
    assert path.stat().st_ino == inode and read == []  # only the tail was read
    assert after is not None and len(after["picks"]) == len(first["picks"]) + 2 and reader._end > end


def test_a_reader_whose_file_was_replaced_reads_the_new_one_though_it_took_the_old_ones_inode_number(tmp_path):
    """ext4 gives a compaction's temporary the inode number of the file a compaction just replaced, when nobody
    holds that file: the same number at the same path is no proof of the same file grown.  A reader (another
    terminal) that took a replaced file for its old one read its tail from the middle of the new snapshot: a
    healthy draft said to be damaged, or worse, picks folded in wrong.  Each compaction by another process here is
    read right, whatever numbers the files get."""
    _, _, session = two_human_pod(tmp_path)
    pick_round(session)
    path = journal_path(tmp_path)
    reader = Journal(path)
    assert reader.state() is not None
    for _ in range(48):  # on ext4 (this project's CI) numbers come back within a few; tmpfs never reuses one
        pick_round(session)  # appended by the session's journal
        other = Journal(path)  # another process compacts the file: a new file renamed over it
        other.compact_due = True
        other.compact()
        assert reader.state() == Journal(path).state()


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="open files are listed in /proc/self/fd on Linux")
def test_a_draft_another_process_folded_is_held_open_here_no_longer(tmp_path):
    """A server's reader holds the draft file it read; a terminal that finishes the draft folds it into the database
    and removes the file.  The next look at the draft (its record says it is folded) lets go of the file, so the
    server keeps no descriptor of a deleted file for the rest of the night."""

    def deleted_draft_files() -> list[str]:
        found = []
        for fd in os.listdir("/proc/self/fd"):
            with contextlib.suppress(OSError):
                target = os.readlink(f"/proc/self/fd/{fd}")
                if target.endswith("(deleted)") and target.startswith(str(tmp_path)):  # this test's files only
                    found.append(target)
        return found

    events, event_id, session = two_human_pod(tmp_path)
    session.pick(session.suggested_pick(0))
    server = Night(Store(tmp_path / "db.json"))  # the server: its own store, its own journal of the file
    server.draft_session(event_id, 1).refresh()
    while not session.draft.finished:
        pick_round(session)
    session.save_deck({"lines": []}, legal=False, final=False)  # the draft folded by the terminal that ended it
    server.draft_session(event_id, 1).refresh()
    assert deleted_draft_files() == []


def test_an_appending_pick_lists_no_folder_and_reads_nothing_back(tmp_path):
    _, _, session = two_human_pod(tmp_path)
    pick_round(session)  # the first write (a resume) rewrote the file; the next ones append
    seen: list[tuple[str, object]] = []
    watching = [False]

    def audit(event: str, args: tuple) -> None:
        if watching[0] and event in ("os.scandir", "os.listdir", "open"):
            seen.append((event, args[0]))

    sys.addaudithook(audit)
    watching[0] = True
    try:
        session.pick(session.suggested_pick(session.waiting_humans()[0]))
    finally:
        watching[0] = False
    journal = journal_path(tmp_path)
    assert [event for event, _ in seen if event != "open"] == []
    assert [name for event, name in seen if event == "open" and str(name) == str(journal)] == []
    assert len(lines(journal)) == 4  # the snapshot, the round's second pick and this one, each an entry


@pytest.mark.skipif(os.name == "nt", reason="Windows can't rename over a file held open: the files are closed there")
def test_an_appending_pick_opens_no_file_its_locks_files_stay_open_between_picks(tmp_path):
    """After the first write, a pick's transaction opens nothing: the draft file and its lock's two files
    (``NAME.lock``, ``NAME.queue``) were kept open by the last one."""
    _, _, session = two_human_pod(tmp_path)
    pick_round(session)
    opened: list[object] = []
    watching = [False]

    def audit(event: str, args: tuple) -> None:
        if watching[0] and event == "open":
            opened.append(args[0])

    sys.addaudithook(audit)
    watching[0] = True
    try:
        session.pick(session.suggested_pick(session.waiting_humans()[0]))
    finally:
        watching[0] = False
    assert opened == []
    assert len(lines(journal_path(tmp_path))) == 4  # it was written: an entry appended


def test_a_draft_file_from_before_the_journal_loads_and_picks_on(tmp_path):
    """The schema-2 fixture's drafts folder holds draft files written whole as one JSON line (no newline)."""
    folder = tmp_path / "two.json.drafts"
    shutil.copytree(FIXTURES / "schema2.json.drafts", folder)
    old = sorted(folder.glob("*.json"))
    assert old and all(b"\n" not in path.read_bytes() for path in old)
    for path in old:
        state = Journal(path).state()
        assert state is not None and state["picks"]
    path = old[0]
    before = Journal(path).state()
    assert before is not None
    journal = Journal(path)
    with journal.write() as entry:
        entry.save({"status": entry.state["status"] if entry.state else "drafting"}, [[0, 0]])
    after = Journal(path).state()
    assert after is not None and after["picks"] == [*before["picks"], [0, 0]]
    assert path.read_bytes().endswith(b"\n")


def test_a_read_only_draft_file_refuses_the_pick_and_is_left_as_it_is(tmp_path):
    _, _, session = two_human_pod(tmp_path)
    pick_round(session)
    path = journal_path(tmp_path)
    content = path.read_bytes()
    path.chmod(0o444)
    try:
        with pytest.raises(StorageError, match="is read-only; nothing was changed"):
            session.pick(session.suggested_pick(session.waiting_humans()[0]))
    finally:
        path.chmod(0o600)
    assert path.read_bytes() == content


# --- writes that must not wait (``cmdraft serve``'s event loop): appended now, synced by a ``Deferred`` -------------


def deferred_round(session: TableSession, later: Deferred) -> None:
    """Every waiting seat's suggested pick, written together as the server's event loop writes a batch."""
    requests = [(session.suggested_pick(seat), None) for seat in session.waiting_humans()]
    assert all(not isinstance(outcome, Exception) for outcome in session.pick_many(requests, later))


def test_a_deferred_write_appends_without_its_fsync_and_its_sync_puts_the_file_on_the_device(tmp_path, monkeypatch):
    _, _, session = two_human_pod(tmp_path)
    pick_round(session)  # the first write (a resume) rewrote the file: the next ones may append
    path = journal_path(tmp_path)
    synced: list[int] = []
    real = portable.flush_to_disk
    monkeypatch.setattr(portable, "flush_to_disk", lambda fd: (synced.append(os.fstat(fd).st_ino), real(fd))[1])
    later = Deferred()
    before = len(lines(path))
    deferred_round(session, later)
    assert synced == [] and len(lines(path)) == before + 1  # the line is in the file, not yet synced
    assert Journal(path).state()["picks"][-1] == pick_rows(session.draft.log[-1:])[0]  # another reader sees it
    later.sync()
    assert synced == [path.stat().st_ino] and later.files == {}  # that file fsynced once, its descriptor closed


def test_a_deferred_write_never_waits_for_the_lock_nor_rewrites_the_file(tmp_path):
    """``WouldWait`` before the transaction starts: when another holds the file's lock, or when the write would
    rewrite the file (this process's first write); nothing is changed, in memory or on disk."""
    _, _, session = two_human_pod(tmp_path)
    request = session.suggested_pick(0)
    with pytest.raises(WouldWait):
        session.pick_many([(request, None)], Deferred())  # the first write rewrites the file
    assert session.draft.log == [] and session.waiting_humans() == [0, 1]
    pick_round(session)
    path = journal_path(tmp_path)
    content, picks = path.read_bytes(), len(session.draft.log)
    holder = FileLock(path, keep_open=True)
    held = threading.Event()
    release = threading.Event()

    def hold() -> None:  # another writer (a thread of this process here; another process the same) holds the lock
        holder.acquire(5)
        held.set()
        release.wait(5)
        holder.release()

    thread = threading.Thread(target=hold)
    thread.start()
    try:
        assert held.wait(5)
        with pytest.raises(WouldWait):
            session.pick_many([(session.suggested_pick(session.waiting_humans()[0]), None)], Deferred())
    finally:
        release.set()
        thread.join()
    assert path.read_bytes() == content and len(session.draft.log) == picks
    later = Deferred()
    deferred_round(session, later)  # the lock free again: taken without waiting
    later.sync()
    assert len(session.draft.log) == picks + 2


def test_a_deferred_write_on_a_draft_another_process_replaced_waits_and_changes_nothing(tmp_path):
    """The write itself catches the draft up with its file (under the file's lock): a draft a restore stopped
    meanwhile (``event restore --force`` in another process) is ``WouldWait`` on the event loop, nothing written
    and no pick taken in memory, so the server opens the pod's new draft where waiting is fine; a write that may
    wait is told the draft was replaced, as a terminal is."""
    _, _, session = two_human_pod(tmp_path)
    pick_round(session)  # this process's first write rewrote the file: the next ones may append
    path = journal_path(tmp_path)
    stop_live_draft(Store(tmp_path / "db.json"), session.draft_id, dict(session.record))  # the restore, elsewhere
    content, picks = path.read_bytes(), len(session.draft.log)
    request = session.suggested_pick(session.waiting_humans()[0])
    with pytest.raises(WouldWait):
        session.pick_many([(request, None)], Deferred())
    assert path.read_bytes() == content and len(session.draft.log) == picks
    with pytest.raises(DraftReplacedError):
        session.pick_many([(request, None)])
    assert path.read_bytes() == content and len(session.draft.log) == picks


def test_a_pack_ended_in_a_deferred_write_is_appended_and_compacted_after(tmp_path):
    events, event_id, session = two_human_pod(tmp_path)
    pick_round(session)
    path = journal_path(tmp_path)
    while session.draft.round == 0:
        later = Deferred()
        deferred_round(session, later)
        later.sync()
    assert len(lines(path)) > 2 and later.after  # the pack's last picks appended, the file not compacted yet
    for work in later.after:  # what the write left for after its sync: the compaction
        work()
    assert lines(path)[1:] == [b""]  # one snapshot holding every pick
    again = events.draft_session(event_id, 1)
    assert [p.positions for p in again.draft.log] == [p.positions for p in session.draft.log]


def test_a_round_of_deferred_files_is_synced_one_by_one_and_a_failed_sync_is_said_after_all_were_tried(
    tmp_path, monkeypatch
):
    """``Deferred.sync`` as the server's sync thread calls it: every file of the round synced, each once, one after
    another in the calling thread (no other thread takes the interpreter from the event loop); one that fails is
    raised once the others are synced, and every descriptor is let go."""
    paths = [tmp_path / f"{n}.json" for n in range(3)]
    later = Deferred()
    for path in paths:
        path.write_bytes(b"{}\n")
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        os.write(fd, b"{}\n")
        later.add(fd)
        later.add(fd)  # the same file twice: synced once
        os.close(fd)
    synced: list[int] = []
    threads: list[str] = []
    failing = paths[1].stat().st_ino

    def flush(fd: int) -> None:
        threads.append(threading.current_thread().name)
        inode = os.fstat(fd).st_ino
        if inode == failing:
            raise OSError(5, "Input/output error")
        synced.append(inode)

    monkeypatch.setattr(portable, "flush_to_disk", flush)
    kept = list(later.files.values())
    with pytest.raises(OSError, match="Input/output error"):
        later.sync()
    assert sorted(synced) == sorted(p.stat().st_ino for p in (paths[0], paths[2]))
    assert threads == [threading.current_thread().name] * 3
    assert later.files == {}
    for fd in kept:
        with pytest.raises(OSError):
            os.fstat(fd)  # closed


def test_a_resumed_file_is_rewritten_once_at_resume_so_the_first_deferred_pick_appends(tmp_path):
    """``resume_file`` (a server starting) makes this process's first write of a draft's file then, where waiting
    is fine: a deferred pick afterwards appends instead of waiting to rewrite it, and nothing changes in the draft;
    a draft with no file yet gets it then."""
    events, event_id, session = two_human_pod(tmp_path)
    session.resume_file()
    path = journal_path(tmp_path)  # made
    synced = Deferred()
    deferred_round(session, synced)  # on the loop at once: appended
    synced.sync()
    assert len(lines(path)) == 1 + 1 + 1
    later = Night(Store(tmp_path / "db.json")).draft_session(event_id, 1)  # another process: a server starting
    with pytest.raises(WouldWait):
        later.pick_many([(later.suggested_pick(later.waiting_humans()[0]), None)], Deferred())
    before = [p.positions for p in later.draft.log]
    later.resume_file()
    inode = path.stat().st_ino
    assert lines(path)[1:] == [b""]  # one snapshot line: rewritten whole
    assert [p.positions for p in Night(Store(tmp_path / "db.json")).draft_session(event_id, 1).draft.log] == before
    synced = Deferred()
    deferred_round(later, synced)
    synced.sync()
    assert path.stat().st_ino == inode and len(lines(path)) == 1 + 1 + 1  # appended: the snapshot, one entry
    later.resume_file()  # written here already: nothing
    assert path.stat().st_ino == inode


def test_past_its_most_entries_a_file_is_rewritten_by_the_next_write_whatever_it_changes(tmp_path, monkeypatch):
    """``MAX_ENTRIES`` bounds what a read of the file folds in: once the file holds that many entry lines, the next
    write rewrites it whole (on the event loop it waits: ``WouldWait``, and a worker writes it)."""
    monkeypatch.setattr(journal_module, "MAX_ENTRIES", 3)
    _, _, session = two_human_pod(tmp_path)
    session.pick(session.suggested_pick(0))  # the first write: the whole file
    path = journal_path(tmp_path)
    for _ in range(3):
        session.pick(session.suggested_pick(session.waiting_humans()[0]))
    assert len(lines(path)) == 1 + 3 + 1
    with pytest.raises(WouldWait):
        session.pick_many([(session.suggested_pick(session.waiting_humans()[0]), None)], Deferred())
    session.pick(session.suggested_pick(session.waiting_humans()[0]))
    assert lines(path)[1:] == [b""]  # rewritten: one snapshot line


def test_a_stopping_sync_thread_syncs_and_calls_back_every_write_queued_before_it_stops(tmp_path):
    """The server stopping (``Syncer.close``) while writes wait in the sync thread's queue: they are synced and
    called back all the same (each call back lets its pod's lock go), in one last round, before the thread ends."""

    async def run() -> list[tuple[int, OSError | None]]:
        syncer = Syncer()
        syncer.loop = asyncio.get_running_loop()
        said: list[tuple[int, OSError | None]] = []
        for n in range(3):
            path = tmp_path / f"{n}.json"
            path.write_bytes(b"{}\n")
            fd = os.open(path, os.O_WRONLY | os.O_APPEND)
            later = Deferred()
            later.add(fd)
            os.close(fd)
            syncer.queue.put((later, lambda problem, n=n: said.append((n, problem))))
        syncer.close()  # queued behind the three writes
        thread = threading.Thread(target=syncer._run)
        thread.start()
        await asyncio.get_running_loop().run_in_executor(None, thread.join, 10)
        await asyncio.sleep(0)
        return said

    assert asyncio.run(run()) == [(0, None), (1, None), (2, None)]
