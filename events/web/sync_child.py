"""The helper process that puts ``cmdraft serve``'s picks on the device (``syncer.HelperSyncer``), run by its file
(``python -I -S sync_child.py FD``) so it starts in milliseconds and holds little: the standard library only.

FD is its end of a ``SOCK_SEQPACKET`` socket pair.  Each message from the server is a write's number (8 bytes,
little-endian) with the descriptors of the files it appended to (``SCM_RIGHTS``).  Each round it takes every
message waiting, fsyncs each file once (group commit: a file written by many writes is synced once), closes the
descriptors, and answers once: the error number (0: every file is on the device), how many writes, their numbers,
then the error's text.  It ends when the server's end is closed (the server stopping or gone): the messages sent
before it are synced and answered first.  Ctrl-C and SIGTERM are the server's to act on: the helper ignores them
(and runs in a session of its own, out of the terminal's reach), so a stopping server's last writes are synced."""

from __future__ import annotations

import array
import os
import signal
import socket
import struct
import sys

MAX_FDS = 250  # descriptors a message carries (the kernel's limit is 253)
MAX_ANSWERED = 4096  # writes one answer names (an answer stays a small message)
HEAD = struct.Struct("<iI")  # error number, writes named
NUMBER = struct.Struct("<Q")


def received(sock: socket.socket, wait: bool) -> tuple[bytes, list[int], bool] | None:
    """One message (its bytes, descriptors, whether descriptors were cut off), None when none waits (``wait``
    False); the bytes are empty once the server's end is closed."""
    try:  # (not ``socket.recv_fds``: before Python 3.12 it drops the flags)
        room = socket.CMSG_SPACE(MAX_FDS * array.array("i").itemsize)  # (worked out here: not every system has it)
        data, ancillary, flags, _ = sock.recvmsg(64, room, 0 if wait else socket.MSG_DONTWAIT)
    except BlockingIOError:
        return None
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


def answer(sock: socket.socket, numbers: list[int], problem: OSError | None) -> None:
    code = 0 if problem is None else (problem.errno or 5)
    text = b"" if problem is None else (problem.strerror or str(problem)).encode("utf-8", "replace")[:1000]
    for start in range(0, len(numbers), MAX_ANSWERED):
        part = numbers[start : start + MAX_ANSWERED]
        sock.send(HEAD.pack(code, len(part)) + struct.pack(f"<{len(part)}Q", *part) + text)


def serve(sock: socket.socket) -> None:
    while True:
        first = received(sock, wait=True)
        assert first is not None
        messages = [first]
        while messages[-1][0] and (more := received(sock, wait=False)) is not None:  # the round: all that waits
            messages.append(more)
        ending = not messages[-1][0]
        numbers, fds, cut = [], [], False
        for data, carried, truncated in messages:
            if data:
                numbers.append(NUMBER.unpack_from(data)[0])
            fds.extend(carried)
            cut = cut or truncated
        problem = synced(one_a_file(fds))
        if cut:  # a descriptor never arrived: its file may not be synced
            problem = problem or OSError(24, "a file to sync did not reach the sync helper")
        if numbers:
            try:
                answer(sock, numbers, problem)
            except OSError:
                return  # the server is gone
        if ending:
            return


def main() -> None:
    for name in ("SIGINT", "SIGTERM"):  # its life is the server's: it ends once the server's end is closed
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    serve(socket.socket(fileno=int(sys.argv[1])))


if __name__ == "__main__":
    main()
