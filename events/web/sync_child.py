"""The helper process that puts ``cmdraft serve``'s picks on the device (``syncer.HelperSyncer``), run by its file
(``python -I -S sync_child.py FD``) so it starts in milliseconds and holds little: the standard library only.

FD is its end of a ``SOCK_SEQPACKET`` socket pair.  Each message from the server is a write's number (8 bytes,
little-endian) with the descriptors of the files it appended to (``SCM_RIGHTS``).  Each write is taken by the first
free of ``SYNCERS`` threads, which fsyncs each of its files once, closes the descriptors, and answers it the moment
they are on the device: the error number (0: every file is on the device), how many writes (one), its number, then
the error's text.  So one pod's write never waits for another pod's files (a pod has one write at the helper at a
time), and the device syncs several pods' files at once (on ext4 several fsyncs in flight share a journal commit:
eight pods' files took 0.7-0.9 ms together against 1.2-1.4 ms one after another).  It ends when the server's end
is closed (the server stopping or gone): the writes sent before it are synced and answered first.  Ctrl-C and
SIGTERM are the server's to act on: the helper ignores them (and runs in a session of its own, out of the terminal's
reach), so a stopping server's last writes are synced."""

from __future__ import annotations

import array
import os
import queue
import signal
import socket
import struct
import sys
import threading

SYNCERS = 8  # threads syncing at most at once (a write waits for a free one): a disk gains little past this
MAX_FDS = 250  # descriptors a message carries (the kernel's limit is 253)
HEAD = struct.Struct("<iI")  # error number, writes named
NUMBER = struct.Struct("<Q")


def received(sock: socket.socket) -> tuple[bytes, list[int], bool]:
    """The next message (its bytes, descriptors, whether descriptors were cut off); the bytes are empty once the
    server's end is closed."""
    try:  # (not ``socket.recv_fds``: before Python 3.12 it drops the flags)
        room = socket.CMSG_SPACE(MAX_FDS * array.array("i").itemsize)  # (worked out here: not every system has it)
        data, ancillary, flags, _ = sock.recvmsg(64, room)
    except ConnectionError:
        return b"", [], False
    fds = array.array("i")
    for level, kind, carried in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(carried[: len(carried) - len(carried) % fds.itemsize])
    return data, list(fds), bool(flags & socket.MSG_CTRUNC)


def synced(files: list[int]) -> OSError | None:
    """Each file (one descriptor a file) fsynced and closed; the first error, once all were tried."""
    problem: OSError | None = None
    for fd in files:
        try:
            os.fsync(fd)
        except OSError as error:
            problem = problem or error
        finally:
            os.close(fd)
    return problem


def one_a_file(fds: list[int]) -> list[int]:
    """One descriptor of each file among ``fds`` (the others closed)."""
    kept: dict[tuple[int, int], int] = {}
    for fd in fds:
        try:
            stat = os.fstat(fd)
        except OSError:
            kept[(-1, fd)] = fd  # fsync says what is wrong with it
            continue
        key = (stat.st_dev, stat.st_ino)
        if key in kept:
            os.close(fd)
        else:
            kept[key] = fd
    return list(kept.values())


def answer(sock: socket.socket, number: int, problem: OSError | None) -> None:
    code = 0 if problem is None else (problem.errno or 5)
    text = b"" if problem is None else (problem.strerror or str(problem)).encode("utf-8", "replace")[:1000]
    sock.send(HEAD.pack(code, 1) + NUMBER.pack(number) + text)


def sync_write(sock: socket.socket, number: int, fds: list[int], cut: bool) -> None:
    """One write's files fsynced and closed, and the write answered (nothing when the server is gone)."""
    problem = synced(one_a_file(fds))
    if cut:  # a descriptor never arrived: its file may not be synced
        problem = problem or OSError(24, "a file to sync did not reach the sync helper")
    try:
        answer(sock, number, problem)
    except OSError:
        pass  # the server is gone: it answers no one


def serve(sock: socket.socket) -> None:
    """Each write handed to a syncing thread as it arrives: a free one, else a new one while fewer than ``SYNCERS``
    run (else it waits for the first to be free), until the server's end is closed; then every write taken is
    answered before it returns."""
    todo: queue.SimpleQueue[tuple[int, list[int], bool] | None] = queue.SimpleQueue()
    threads: list[threading.Thread] = []
    free = threading.Semaphore(0)  # a thread waiting for a write (released as it starts to wait)

    def work(job: tuple[int, list[int], bool] | None) -> None:
        while job is not None:
            sync_write(sock, *job)
            free.release()
            job = todo.get()

    while True:
        data, fds, cut = received(sock)
        if not data:
            break
        job = (NUMBER.unpack_from(data)[0], fds, cut)
        if free.acquire(blocking=False) or len(threads) == SYNCERS:
            todo.put(job)
        else:
            threads.append(threading.Thread(target=work, args=(job,), daemon=True))
            threads[-1].start()
    for _ in threads:
        todo.put(None)
    for thread in threads:
        thread.join()


def main() -> None:
    for name in ("SIGINT", "SIGTERM"):  # its life is the server's: it ends once the server's end is closed
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    serve(socket.socket(fileno=int(sys.argv[1])))


if __name__ == "__main__":
    main()
