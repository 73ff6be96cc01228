"""`cmdraft play --plain` as a screen reader reads it, in a real pseudo-terminal (pexpect): with ``NO_COLOR`` set
not one escape sequence of style (no colour, no bold, no dim) reaches the terminal, and a refused pick is said on
one line however narrow the terminal (the terminal wraps it; a reader reads the line whole); 'quit' leaves from
the line under a help or a hint, as that line says."""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path

import pexpect

PROMPT = re.compile(r"Take (\d) cards? \(numbers or names; pool, hint, help, quit\)> ")
STYLE = re.compile(r"\x1b\[[0-9;]*m")


def spawn_plain(home: Path, *args: str, rows: int = 24, cols: int = 80) -> pexpect.spawn:
    env = dict(os.environ, CMDRAFT_HOME=str(home), COLUMNS=str(cols), LINES=str(rows), TERM="xterm-256color")
    env["NO_COLOR"] = "1"
    return pexpect.spawn(
        sys.executable,
        ["-m", "events", "play", "--plain", "--seed", "3", *args],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(rows, cols),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def test_no_color_writes_no_style_at_all_at_the_plain_prompt(tmp_path):
    child = spawn_plain(tmp_path)
    child.expect(PROMPT)
    shown = child.before
    child.sendline("help")
    child.expect("Enter: back to the pack, or quit ")
    shown += child.before
    child.sendline("")
    child.expect(PROMPT)
    child.sendline("hint")
    child.expect("Enter: back to the pack, or quit ")
    shown += child.before
    child.sendline("quit")  # what the prompt offers: it leaves, as at the pick prompt
    child.expect("Saved. Resume with: cmdraft play --resume 1")
    child.expect(pexpect.EOF)
    assert "Pack 1 of 3, pick 1 of 10" in shown and "Hint: " in shown  # bold and cyan before, as words now
    assert not STYLE.findall(shown)


def test_a_refused_pick_is_one_line_at_80_columns(tmp_path):
    child = spawn_plain(tmp_path)
    child.expect(PROMPT)
    child.sendline("xyzzy")
    child.expect(r"'xyzzy' is not in this pack\.[^\n]*same pick again\.\r\n")
    assert len(child.after) > 80  # longer than the terminal is wide, and still a single line
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
