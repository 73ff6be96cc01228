"""The sync helper's own loop (``sync_child.serve``), run in a thread here with the device's fsync held for one
file: each write is answered once its own files are on the device, never after another write's files."""

from __future__ import annotations

import os
import socket
import threading

from events.web import sync_child
from tests.helpers.journals import written


def answered(sock: socket.socket) -> tuple[int, list[int]]:
    """The error number and the write numbers of the helper's next answer."""
    data = sock.recv(4096)
    code, count = sync_child.HEAD.unpack_from(data)
    return code, [sync_child.NUMBER.unpack_from(data, sync_child.HEAD.size + 8 * n)[0] for n in range(count)]


def test_a_write_is_answered_once_its_files_are_synced_while_another_pods_file_is_still_syncing(tmp_path, monkeypatch):
    held, quick = written(tmp_path, "pod-1.jsonl"), written(tmp_path, "pod-2.jsonl")
    held_file = os.fstat(held).st_ino
    release, synced = threading.Event(), list[int]()
    real_fsync = os.fsync

    def fsync(fd: int) -> None:  # the device takes its time with pod 1's file
        if os.fstat(fd).st_ino == held_file:
            release.wait(10)
        real_fsync(fd)
        synced.append(os.fstat(fd).st_ino)

    monkeypatch.setattr(os, "fsync", fsync)
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    helper = threading.Thread(target=sync_child.serve, args=(theirs,), daemon=True)
    helper.start()
    try:
        socket.send_fds(ours, [sync_child.NUMBER.pack(1)], [held])
        socket.send_fds(ours, [sync_child.NUMBER.pack(2)], [quick])
        ours.settimeout(5)
        assert answered(ours) == (0, [2])  # pod 2's write, while pod 1's file is still held by the device
        assert synced == [os.fstat(quick).st_ino]
        release.set()
        assert answered(ours) == (0, [1])  # and pod 1's once its file is synced
        assert synced[-1] == held_file
        ours.shutdown(socket.SHUT_WR)  # the server stopping: the helper ends
        helper.join(5)
        assert not helper.is_alive()
    finally:
        release.set()
        ours.close(), theirs.close(), os.close(held), os.close(quick)


def test_the_writes_sent_before_the_server_stops_are_all_answered_before_the_helper_ends(tmp_path):
    fds = [written(tmp_path, f"pod-{n}.jsonl") for n in range(20)]
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    running = threading.active_count()
    helper = threading.Thread(target=sync_child.serve, args=(theirs,), daemon=True)
    helper.start()
    try:
        for number, fd in enumerate(fds, 1):
            socket.send_fds(ours, [sync_child.NUMBER.pack(number)], [fd])
        ours.shutdown(socket.SHUT_WR)
        helper.join(10)
        assert not helper.is_alive()
        ours.settimeout(1)
        told: list[int] = []
        while len(told) < len(fds):
            told += answered(ours)[1]
        assert sorted(told) == list(range(1, 21))
        assert threading.active_count() == running  # its syncing threads ended with it
    finally:
        ours.close(), theirs.close()
        for fd in fds:
            os.close(fd)
