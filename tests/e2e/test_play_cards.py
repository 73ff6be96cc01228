"""Reading a card at the pick prompt and in the deck builder, in a real pseudo-terminal."""

from __future__ import annotations

import os
import re
import sys

import pexpect

from tests.helpers.cardfiles import cmr_mtgjson, write

PICK = re.compile(r"Take (\d) cards? \(numbers or names")


def spawn(args, home, timeout=60):
    env = dict(os.environ, CMDRAFT_HOME=str(home), COLUMNS="120", LINES="50", NO_COLOR="1", TERM="xterm")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "events", *args, *(["--plain", "--confirm"] if args[:1] == ["play"] else [])],
        env=env,
        encoding="utf-8",
        timeout=timeout,
        dimensions=(50, 120),
    )
    child.delaybeforesend = None  # sent after the prompt is shown (tests/helpers/terminals.py says why)
    return child


def test_read_cards_while_picking_and_building(cli, tmp_path, cmdraft_home):
    """A real terminal (a pseudo-terminal, the command in a process of its own): card details asked at the pick and builder prompts."""
    assert cli("sets", "import", write(tmp_path, "CMR.json", cmr_mtgjson())).exit_code == 0
    child = spawn(["play", "--seed", "3", "--players", "2", "--db", str(tmp_path / "db.json")], cmdraft_home)
    child.expect(PICK)
    child.sendline("? 1")
    child.expect(r"Invented test words for ")  # what the card does first, then where it comes from
    child.expect("Mana value")
    child.expect(PICK)
    child.sendline("show 2")
    child.expect("Color identity")
    child.expect(PICK)
    child.sendline("card Murder")  # not in this pack, or in it: either way its facts and text
    child.expect(r"Invented test words for Murder\.")
    child.expect(PICK)
    child.sendline("? 99")
    child.expect("there is no card 99 in this pack")
    child.expect(PICK)
    child.sendline("help")
    child.expect(r"\? N, show N or card NAME")
    child.expect("Enter: back to the pack")
    child.sendline("")
    child.expect(PICK)
    child.sendline("1 2")
    # a compact text line under each chosen card, then the question
    child.expect(r"[^\r\n]+: [^\r\n]*Invented test words for [^\r\n]+\r\n[^\r\n]+: [^\r\n]*Invented test words for ")
    child.expect(r"Take .*\? \[Y/n\]")
    child.sendline("y")
    while True:
        if child.expect([PICK, "deck> "]) == 1:
            break
        child.sendline("1 2")
        child.expect(r"\[Y/n\]")
        child.sendline("y")
    for command in ("? 1", "?2", "show 3", "card 4"):
        child.sendline(command)
        child.expect("Invented test words for ")
        child.expect("Mana value")
        child.expect("deck> ")
    child.sendline("card Murder")
    child.expect(r"Invented test words for Murder\.")
    child.expect("deck> ")
    child.sendline("show 999")
    child.expect("there is no card 999 in your pool list")
    child.expect("deck> ")
    child.sendline("show pool")
    child.expect("Your pool")
    child.expect("deck> ")
    child.sendline("card Najela the Blade Blossom")
    child.expect("did you mean 'Najeela, the Blade-Blossom'")
    child.expect("deck> ")
    child.sendline("help")
    child.expect(r"\? N, show N, card NAME")
    child.expect("deck> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_without_text_the_pick_line_shows_type_and_stats(tmp_path, cmdraft_home):
    """A real terminal (a pseudo-terminal, the command in a process of its own): the pick lines as a terminal shows them."""
    child = spawn(["play", "--seed", "3", "--players", "2", "--db", str(tmp_path / "db.json")], cmdraft_home)
    child.expect(PICK)
    child.sendline("? 1")
    child.expect("cmdraft sets download CMR")
    child.expect(PICK)
    child.sendline("1 2")
    child.expect(r"[^\r\n]+: [^\r\n]*(Creature|Instant|Sorcery|Artifact|Enchantment|Land|Planeswalker)[^\r\n]*\r\n")
    child.expect(r"Take .*\? \[Y/n\]")
    child.sendline("n")
    child.expect(PICK)
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_confirm_shows_the_monarchy_and_the_removal_before_keywords_and_reminder_text(cli, tmp_path, cmdraft_home):
    """Issue 43: the one line under each chosen card at --confirm shows what the card is for (the monarchy, the
    removal) first, its keywords after, and no reminder text, however the card's text is ordered: the line is cut
    at the terminal's width, so what comes first is what the player reads."""
    data = cmr_mtgjson()
    for number, card in enumerate(data["data"]["cards"]):
        what = "you become the monarch" if number % 2 else "destroy target creature"
        card["text"] = f"Vigilance (Invented reminder words.)\nInvented words.\nInvented: {what}."
    assert cli("sets", "import", write(tmp_path, "CMR.json", data)).exit_code == 0
    env = dict(os.environ, CMDRAFT_HOME=str(cmdraft_home), COLUMNS="80", LINES="24", NO_COLOR="1", TERM="xterm")
    args = ["-m", "events", "play", "--seed", "3", "--players", "2", "--db", str(tmp_path / "db.json")]
    child = pexpect.spawn(
        sys.executable, [*args, "--plain", "--confirm"], env=env, encoding="utf-8", timeout=60, dimensions=(24, 80)
    )
    child.expect(PICK)
    child.sendline("1 2")
    child.expect(r"Take (.*)\? \[Y/n\]")
    before = re.sub(r"\x1b\[[0-9;]*m", "", child.before)
    shown = [line for line in before.splitlines() if ": Invented" in line]
    assert len(shown) == 2, child.before
    for line in shown:
        assert re.search(r": Invented: (you become the monarch|destroy target creature)", line), line
        # the line prompt's lines are sentences ("Invented words. Vigilance."), never set apart by middle dots
        assert "reminder" not in line and "·" not in line and line.rstrip().endswith(("Vigilance.", "…")), line
    child.sendline("n")
    child.expect(PICK)  # not taken: the same pick again
    child.sendline("quit")
    child.expect(pexpect.EOF)
