"""Issue 24 in a real pseudo-terminal (pexpect): the full-screen app started by `cmdraft play`,
quit and Ctrl-C and a kill leave the draft where it was, the same draft file resumes in either
mode; the plain prompt's timeout drops half-typed input.

The app redraws only what changed, so its screen is not read here: what the keys did is read
from the draft on disk (a fresh store), and what the plain prompt says is matched as printed.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import time
from pathlib import Path

import pexpect

from events.storage.draft_files import TableSession
from events.storage.store import Store
from sets.catalog import load_set
from tests.helpers.piped import piped
from tests.helpers.shared_clock import SharedClock

PICK = re.compile(r"Take (\d) cards? \(numbers or names")


def spawn(args, home: Path, rows=24, cols=80, timeout=60, clock: SharedClock | None = None):
    """On ``clock`` (the test's, ``SharedClock``) when given."""
    env = dict(os.environ, CMDRAFT_HOME=str(home), COLUMNS=str(cols), LINES=str(rows), TERM="xterm-256color")
    return pexpect.spawn(
        sys.executable,
        [*(["-m", "events"] if clock is None else clock.command()), *args],
        env=env if clock is None else clock.env(env),
        encoding="utf-8",
        timeout=timeout,
        dimensions=(rows, cols),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def my_picks(db: Path, draft_id: int = 1):
    try:
        return TableSession.load(Store(db), draft_id).draft.picks_of(0)
    except Exception:  # noqa: BLE001 - the draft isn't created yet
        return None


def wait_for_picks(db: Path, count: int, seconds: float = 30, child: pexpect.spawn | None = None):
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        picks = my_picks(db)
        if picks is not None and len(picks) >= count:
            return picks
        time.sleep(0.1)
    said = ""
    if child is not None:  # what the app drew meanwhile, its escape codes dropped: where the keys went
        try:
            said = re.sub(
                r"\x1b\[[0-9;?<>=]*[A-Za-z]|\x1b\][^\x07]*\x07", "", child.read_nonblocking(200_000, timeout=0)
            )
        except (pexpect.TIMEOUT, pexpect.EOF):
            said = "(nothing more from the app)"
    drew = f"; the app drew meanwhile: {said[-1500:]!r}" if child is not None else ""
    raise AssertionError(f"{count} picks never reached the disk (have {len(my_picks(db) or [])}){drew}")


def test_the_app_in_a_terminal_quits_resumes_and_survives_a_kill(tmp_path):
    """A real terminal (a pseudo-terminal, the command in a process of its own): the full-screen app in a terminal, killed and resumed."""
    db = tmp_path / "db.json"
    child = spawn(["play", "--seed", "3", "--players", "4", "--db", str(db)], tmp_path)
    child.expect("pick 1/10")  # the app's first screen
    child.send("3 7\r")  # typed at once, as a paste would come
    assert wait_for_picks(db, 1, child=child)[0].positions == (2, 6)
    child.send("q")
    child.expect(r"Saved\. Resume with: cmdraft play --resume 1")
    child.expect(pexpect.EOF)

    child = spawn(["play", "--resume", "--db", str(db)], tmp_path, rows=40, cols=120)
    child.expect("pick 2/10")  # the same screen back
    child.send(" ")  # mark the first card
    child.send("j")
    child.send("\r")  # Enter marks the highlighted one and takes both
    assert sorted(wait_for_picks(db, 2, child=child)[1].positions) == [0, 1]
    child.sendcontrol("c")  # Ctrl-C leaves as quit does
    child.expect(r"Saved\. Resume with")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0  # a key that leaves, not an interrupt (130: a SIGINT from outside)

    child = spawn(["play", "--resume", "--db", str(db)], tmp_path)
    child.expect("pick 3/10")
    child.kill(signal.SIGKILL)  # a kill (or a closed terminal) mid-pick
    child.expect(pexpect.EOF)
    # the same draft file in the plain prompt: the same pack, nothing lost
    child = spawn(["play", "--resume", "--plain", "--db", str(db)], tmp_path)
    child.expect(r"Pack 1 of 3, pick 3 of 10")
    child.expect(PICK)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert len(my_picks(db)) == 2


def test_plain_timeout_drops_half_typed_input(tmp_path, shared_clock):
    """The issue's first bug: '1' typed without Enter when time runs out must not join the next answer (the
    timer's 5 seconds pass on the clock the test shares with the process, when the '1' is typed)."""
    db = tmp_path / "db.json"
    child = spawn(
        ["play", "--plain", "--seed", "8", "--players", "2", "--timer", "5", "--db", str(db)],
        tmp_path,
        timeout=30,
        clock=shared_clock,
    )
    child.expect(PICK)
    child.send("1")  # no Enter
    shared_clock.advance(5)
    child.expect("Time is up: took ", timeout=20)  # (the best pick for your colors: the hint's, tested apart)
    child.expect(PICK)
    child.sendline("3 7")
    child.expect("Took #3 ")  # not 13: the "1" typed before the timeout is gone
    child.expect(PICK)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    picks = my_picks(db)
    assert picks[1].positions == (2, 6)


def test_plain_mode_when_output_is_not_a_terminal(tmp_path):
    """In a process of its own: a process whose output is a pipe, not a terminal."""
    db = tmp_path / "db.json"
    # stdin and stdout are pipes: the line prompt, which reads the picks line by line
    done = piped("play", "--seed", "3", "--players", "4", "--db", str(db), home=tmp_path, input="1 2\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "Take 2 cards (numbers or names" in done.stdout and "Took #1 " in done.stdout
    assert my_picks(db)[0].positions == (0, 1)


def test_a_sigint_from_outside_saves_and_exits_130_in_the_app_and_the_plain_prompt(tmp_path):
    """A real terminal (a pseudo-terminal, the command in a process of its own): a SIGINT sent from outside
    (`kill -INT`, `timeout -s INT`) says how to resume and ends with 130, as every interrupted command does.
    Before: both faces ended with 0."""
    db = tmp_path / "db.json"
    for args, ready in ((["--plain"], PICK), ([], "pick 1/10")):
        child = spawn(["play", *args, "--seed", "3", "--players", "4", "--db", str(db)], tmp_path)
        child.expect(ready)
        time.sleep(0.5)  # the app is mounted: its handler is in place
        child.kill(signal.SIGINT)
        child.expect(r"Saved\. Resume with: cmdraft play --resume")
        child.expect(pexpect.EOF)
        child.close()
        assert (child.exitstatus, child.signalstatus) == (130, None), args
        db = tmp_path / "second.json"


def test_a_sigterm_gives_the_terminal_back_as_it_was_in_the_app_and_the_timed_prompt(tmp_path):
    """`kill PID` (SIGTERM) from another terminal: the full-screen app (alternate screen, keys unechoed) and the
    plain prompt with a timer (it reads keys itself) died with the player's terminal left unechoed and
    uncooked, the app's alternate screen still up: what was typed next was invisible until `reset`. Now SIGTERM
    ends them as SIGINT does: the terminal's modes as they were, how to resume, exit 130."""
    import termios

    db = tmp_path / "db.json"
    for args, ready in ((["--plain", "--timer", "60"], PICK), ([], "pick 1/10")):
        child = spawn(["play", *args, "--seed", "3", "--players", "4", "--db", str(db)], tmp_path)
        cooked = termios.tcgetattr(child.child_fd)[3] & (termios.ECHO | termios.ICANON)
        child.expect(ready)
        time.sleep(0.5)  # the modes are set (the app is mounted, the timed prompt reads keys)
        assert termios.tcgetattr(child.child_fd)[3] & (termios.ECHO | termios.ICANON) != cooked, args
        child.kill(signal.SIGTERM)
        child.expect(r"Saved\. Resume with: cmdraft play --resume")
        child.expect(pexpect.EOF)
        said = child.before or ""
        assert termios.tcgetattr(child.child_fd)[3] & (termios.ECHO | termios.ICANON) == cooked, args
        child.close()
        assert (child.exitstatus, child.signalstatus) == (130, None), args
        assert "Traceback" not in said
        db = tmp_path / "second.json"


def test_the_ticking_status_line_wider_than_a_narrow_terminal_is_redrawn_in_place(tmp_path):
    """At 40 columns the status line ('Pack 1 of 3, pick 1 of 10, passing left, 30s left') takes two rows; each tick
    went up one row only: every second left another 'Pack 1 of 3 …' row on the screen and wrote '29s left' over the
    prompt ('29s leftards (numbers or names'). The status is redrawn over the rows it takes, the prompt and what was
    typed kept whole below it."""
    import pyte

    screen = pyte.Screen(40, 20)
    stream = pyte.Stream(screen)
    db = tmp_path / "db.json"
    child = spawn(["play", "--plain", "--timer", "60", "--seed", "3", "--db", str(db)], tmp_path, rows=20, cols=40)
    child.expect("quit\\)> ")
    stream.feed(child.before + child.after)

    def shown(seconds: float) -> list[str]:
        """The screen's rows (each 40 cells) after ``seconds`` more of the prompt's output."""
        stop = time.monotonic() + seconds
        while time.monotonic() < stop:
            try:
                stream.feed(child.read_nonblocking(100_000, timeout=0.2))
            except pexpect.TIMEOUT:
                pass
        return list(screen.display)

    def check(rows: list[str], typed: str) -> None:
        status = [i for i, row in enumerate(rows) if row.startswith("Pack 1 of 3, pick 1 of 10")]
        assert len(status) == 1, rows  # one status line, redrawn in place
        assert re.fullmatch(r" ?\d+s left", rows[status[0] + 1].rstrip()), rows  # its second row: the seconds only
        prompt = "Take 2 cards (numbers or names; pool, hint, help, quit)> "
        assert "".join(rows[status[0] + 2 :]).rstrip() == (prompt + typed).rstrip(), rows

    child.send("kitesail corsair + ghastly demise")
    check(shown(3.5), "kitesail corsair + ghastly demise")  # three ticks at least
    child.send("\x15")  # Ctrl-U: the typed line took three rows with the prompt, now two
    check(shown(2.5), "")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_the_full_screen_builder_says_which_lines_of_the_pool_file_it_left_out(tmp_path):
    """`cmdraft build POOL` with a typo in the file: the lines left out were printed just before the app took the
    screen, so the player built from a pool short of a card without a word; they were read only after quitting.
    The app opens with them in a panel (Esc closes it), the lines printed before it kept for after."""
    pool = tmp_path / "typo.txt"
    names = [c.name for c in load_set("CMR").cards if c.main_set and not c.is_basic_land][:40:2]
    pool.write_text("".join(f"1 {name}\n" for name in names) + "1 Kitesail Corsiar\n", encoding="utf-8")
    child = spawn(["build", str(pool), "--db", str(tmp_path / "db.json")], tmp_path)
    child.expect(re.escape("\x1b[?1049h"))  # the app takes the screen
    child.expect("Kitesail Corsiar")  # drawn by the app
    child.expect("did you mean")  # with its did-you-mean
    time.sleep(0.3)
    child.send("\x1b")  # Esc: the panel closes
    time.sleep(0.5)  # (a key right after Esc would be read with it, as Alt and the key)
    child.send("q")
    child.expect(r"Saved\. The same command opens this deck again")
    child.expect(pexpect.EOF)
