"""A reader that stops reading (``cmdraft packs --json | head -1``) is no failure of the command: it ends with its own
exit code (0, or a deck check's verdict) and nothing on stderr.  Before, rich's screens and JSON alike ended with
exit 1, the code of an illegal deck."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.helpers.paths import ROOT


def closed_stdout(*args: object, home, full: bool = False) -> subprocess.CompletedProcess:
    """``cmdraft ARGS`` in a process of its own whose stdout is a pipe nobody reads (its reader already closed), or
    with ``full`` a device that refuses every write as a full disk does (Linux's ``/dev/full``: ENOSPC)."""
    if full:
        writer = os.open("/dev/full", os.O_WRONLY)
    else:
        reader, writer = os.pipe()
        os.close(reader)
    try:
        env = {**os.environ, "CMDRAFT_HOME": str(home), "PYTHONPATH": str(ROOT)}
        return subprocess.run(
            [sys.executable, "-m", "events", *map(str, args)],
            stdout=writer,
            stderr=subprocess.PIPE,
            env=env,
            cwd=ROOT,
            timeout=120,
            text=True,
        )
    finally:
        os.close(writer)


def test_output_to_a_reader_gone_away_keeps_the_commands_own_exit_code(cli, tmp_path):
    home = tmp_path / "home"
    # 40 packs: some 100 kB of JSON, 75 kB of tables, more than Python's buffer and a pipe's 64 kB hold, so the
    # command meets the gone reader while it writes, not at its exit (200 packs took seconds to draw as tables).
    for args in (("packs", "--count", "40", "--seed", "1", "--json"), ("packs", "--count", "40", "--seed", "1")):
        done = closed_stdout(*args, home=home)
        assert (done.returncode, done.stderr) == (0, ""), args
    made = cli("sim", "--seed", "2", "--players", "3", "--out", tmp_path / "pod")
    assert made.exit_code == 0
    pool = tmp_path / "pod" / "seat1-Bot-1-pool.txt"
    for extra in ((), ("--json",)):
        done = closed_stdout("deck", "check", pool, *extra, home=home)  # a pool is no legal deck: its verdict, 1
        assert (done.returncode, done.stderr) == (1, ""), extra
    done = closed_stdout("deck", "check", tmp_path / "pod" / "seat1-Bot-1-deck.txt", "--json", home=home)
    assert (done.returncode, done.stderr) == (0, "")


def test_output_to_a_full_device_is_one_line_and_exit_2_whatever_the_command_would_have_said(cli, tmp_path):
    """A refused write (``> /dev/full``: a full disk) is no reader gone away: the output is lost, so the command says
    so in one line and ends with 2, an output that can't be written, never a traceback, and never the code the
    command would have ended with (0 for a legal deck: a script would take the lost verdict as given).  JSON, text
    and rich's tables alike; written while the command runs (40 packs) or only at its exit (one)."""
    home = tmp_path / "home"
    made = cli("sim", "--seed", "2", "--players", "3", "--out", tmp_path / "pod")
    assert made.exit_code == 0
    deck, pool = tmp_path / "pod" / "seat1-Bot-1-deck.txt", tmp_path / "pod" / "seat1-Bot-1-pool.txt"
    commands = [
        ("deck", "check", deck),
        ("deck", "check", deck, "--json"),
        ("deck", "check", pool),
        ("packs", "--count", "40", "--seed", "1", "--json"),
        ("packs", "--count", "1", "--seed", "1"),
        ("sets", "list"),
        ("--help",),  # (click tries an empty write first, and takes its refusal for "no binary stream")
        ("deck", "--help"),
    ]
    for args in commands:
        done = closed_stdout(*args, home=home, full=True)
        assert done.returncode == 2, args
        assert done.stderr == (
            "cmdraft: error: standard output could not be written (No space left on device): "
            "send the output where there is room\n"
        ), args
