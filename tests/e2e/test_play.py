"""Solo practice through a real pseudo-terminal: a whole draft with mistakes, quit and resume, deck, review, export."""

from __future__ import annotations

import json
import re

import pexpect
import pytest

from events.night.refusals import WrongCount
from events.screens.picks import parse_selection
from events.storage.draft_files import TableSession
from events.storage.draft_records import list_drafts
from events.storage.store import Store
from sets.booster import booster_spec
from sets.errors import InputError
from tests.helpers.terminals import PICK, spawn


def pick(child, text="1 2"):
    child.expect(PICK)
    child.sendline(text)
    child.expect(r"Take .*\? \[Y/n\]")
    child.sendline("y")


def test_whole_practice_draft_in_a_real_terminal(tmp_path):
    """A real terminal (a pseudo-terminal, the command in a process of its own): a whole practice draft as a player types it."""
    db = tmp_path / "practice.json"
    child = spawn(["play", "--seed", "3", "--players", "4", "--db", str(db)], tmp_path)
    child.expect(r"Pack 1 of 3, pick 1 of 10, passing left")
    for mistake, message in [
        ("1", "take exactly 2 cards from this pack, not 1"),
        ("1 1", "card 1 is chosen twice"),
        ("1 2 3", "take exactly 2 cards from this pack, not 3"),
        ("99 1", "there is no card 99"),
        ("xyzzy", "'xyzzy' is not in this pack"),
    ]:
        child.expect(PICK)
        child.sendline(mistake)
        child.expect(re.escape(message))
    child.expect(PICK)
    child.sendline("pool")
    child.expect("Pool \\(0\\)")
    child.expect("Enter: back to the pack")  # the pool stays on screen until Enter
    child.sendline("")
    child.expect(PICK)
    child.sendline("help")
    child.expect("Commands: pool")
    child.expect("Enter: back to the pack")
    child.sendline("")
    child.expect(PICK)
    child.sendline("1 2")
    child.expect(r"\[Y/n\]")
    child.sendline("n")  # changed my mind: the same pick again
    pick(child, "3, 4")
    for _ in range(4):
        pick(child)
    child.expect(PICK)
    child.sendline("quit")
    child.expect(r"Saved\. Resume with: cmdraft play --resume 1 --db (\S+)")
    assert child.match.group(1) == str(db)  # the hint keeps the database it was started on
    child.expect(pexpect.EOF)

    # every acknowledged pick is on disk (read by a fresh store); the bots pick every pack as soon as it reaches
    # them, so all four packs wait at the player's seat: each of the player's 5 picks went on through the 3 bots,
    # and the packs opened upstream were picked by the bots they passed first (3, 2 and 1 of them)
    draft = TableSession.load(Store(db), 1).draft
    log = draft.log
    assert sum(pick.seat == 0 for pick in log) == 5 and len(log) == 5 + 5 * 3 + (3 + 2 + 1)
    assert draft.queued(0) == 4
    child = spawn(["play", "--resume", "--db", str(db)], tmp_path)
    child.expect(r"Pack 1 of 3, pick 6 of 10")
    while True:
        index = child.expect([PICK, "deck> "])
        if index == 1:
            break
        child.sendline("2 1")
        child.expect(r"\[Y/n\]")
        child.sendline("")
    child.sendline("piper purple")
    child.expect("unknown color 'purple'")
    child.expect("deck> ")
    child.sendline("done")
    child.expect("not legal yet")
    child.expect("deck> ")
    child.sendline("auto")
    child.expect("The bot built a deck")
    child.expect(r"Mana sources: [WUBRG] \d+")
    child.expect("deck> ")
    child.sendline("done")
    child.expect("Deck saved")
    child.expect("review, export")
    out = tmp_path / "export"
    child.sendline(f"export {out}")
    child.expect(r"Wrote \d+ files")
    child.expect("no MTGO .dek files written")
    child.sendline("review")
    child.expect("The bots' decks")
    child.sendline("quit")
    child.expect(pexpect.EOF)

    files = {p.name for p in out.iterdir()}
    for ext in ("txt", "cod", "dck", "json", "csv"):
        assert f"practice-deck.{ext}" in files and f"practice-pool.{ext}" in files
    assert not any(name.endswith(".dek") for name in files)  # no MTGO ids in the bundled data (said once at export)
    assert "practice-draftlog.txt" in files
    for bot in (2, 3, 4):  # every bot's deck and pool beside yours
        assert f"practice-bot-{bot}-deck.dck" in files and f"practice-bot-{bot}-pool.txt" in files
    log = (out / "practice-draftlog.txt").read_text()
    assert log.count("Pack 1 pick 1:") == 1 and log.count("--> ") >= 60

    from tests.helpers.cliapp import invoke

    check = invoke(
        ["deck", "check", str(out / "practice-deck.cod"), "--pool", str(out / "practice-pool.txt")],
        catch_exceptions=True,
    )
    assert check.exit_code == 0, check.stdout
    listed = json.loads(invoke(["play", "--list", "--json", "--db", str(db)], catch_exceptions=True).stdout)
    assert listed[0]["status"] == "done" and listed[0]["picks"] == 30  # the player's own picks, not the bots'


def test_pick_timer_takes_the_best_two_for_you(tmp_path, shared_clock):
    """A real terminal (a pseudo-terminal, the command in a process of its own): the pick timer runs out while the
    terminal waits for a line (its 5 seconds passed on the clock the test shares with it, at once)."""
    db = tmp_path / "timer.json"
    child = spawn(
        ["play", "--seed", "8", "--players", "2", "--timer", "5", "--db", str(db)],
        tmp_path,
        timeout=20,
        clock=shared_clock,
    )
    child.expect(r"pick 1 of 10, passing left[^\r\n]*, 5s left")
    child.expect(r"Take 2 cards \(numbers or names; pool, hint, help, quit\)> ")
    shared_clock.advance(5)
    child.expect("Time is up: took .* for you", timeout=15)
    child.expect(r"pick 2 of 10")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    (row,) = list_drafts(Store(db), "practice")
    assert row.picks == 1  # the timed-out pick; the bot's picks are not the player's


# --- the core, without a terminal ------------------------------------------------------------------


@pytest.fixture
def pack():
    import random

    return list(booster_spec("CMR").open(random.Random(1)).printings)


def test_selection_by_numbers_and_names(pack):
    first, second = pack[0].card.name, pack[5].card.name
    assert parse_selection("1 6", pack, 2) == [0, 5]
    assert parse_selection(f"{first.lower()}, {second[:6]}", pack, 2)[0] == 0
    assert parse_selection(f"1, {second}", pack, 2) == [0, 5]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1", "take exactly 2"),
        ("0 1", "no card 0"),
        ("1,1", "chosen twice"),
        ("1, 1", "chosen twice"),
        ("nothing-like-it, 2", "not in this pack"),
    ],
)
def test_selection_mistakes(pack, text, message):
    with pytest.raises((InputError, WrongCount), match=message):
        parse_selection(text, pack, 2)


def test_a_card_named_twice_is_refused_as_chosen_twice_as_its_number_typed_twice_is(pack):
    """Not "'Kamahl' is not in this pack" (it is): the second naming reads as the same card, and the pick is refused
    in the core's words for a card chosen twice, whether named twice, or named and numbered."""
    name = pack[0].card.name
    for text in (f"{name}; {name}", f"{name.lower()}, 1", f"1 {name.upper()}"):
        with pytest.raises(WrongCount, match="card 1 is chosen twice: take exactly 2 different cards"):
            parse_selection(text, pack, 2)


def test_resume_gives_the_same_boosters_and_pick(tmp_path):
    from draft.engine import DraftConfig

    store = Store(tmp_path / "db.json")
    session = TableSession.create(
        store, kind="practice", seed=4, config=DraftConfig(seats=3), humans=[1], names=["Bot 1", "You", "Bot 3"]
    )
    session.pick(session.choose(1, [0, 1]))
    again = TableSession.load(store, session.draft_id)
    assert again.draft.to_json() == session.draft.to_json()
    assert again.draft.pack(1) == session.draft.pack(1)


def test_deck_builder_commands(tmp_path):
    import io

    from rich.console import Console

    from draft.engine import DraftConfig
    from events.screens.practice import PracticeUI
    from events.screens.terminal import Quit, Terminal

    session = TableSession.create(
        Store(tmp_path / "b.json"),
        kind="practice",
        seed=5,
        config=DraftConfig(seats=4),
        humans=[0],
        names=["You", "B", "C", "D"],
    )
    while not session.draft.finished:
        session.pick(session.suggested_pick(0))
    # Two cards of the pool the auto deck plays (their numbers in the builder's pool list), whatever the bots took.
    first = PracticeUI(
        session, Console(file=io.StringIO()), Terminal(Console(file=io.StringIO()), io.StringIO("auto\nquit\n"))
    )
    with pytest.raises(Quit):
        first.build()
    played = [n for n, card in enumerate(first.builder.session.pool_list, 1) if first.builder.session.main[card] >= 1]
    a, b = played[:2]
    console = Console(file=io.StringIO(), width=120)
    script = f"auto\nremove {a} 2\nremove {b} 9\nadd {a}, {b}\nlands G 0\nfrobnicate\nsave\nquit\n"
    ui = PracticeUI(session, console, Terminal(console, io.StringIO(script)))
    with pytest.raises(Quit):
        ui.build()
    out = console.file.getvalue()
    deck = ui.builder.session
    named = deck.pool_list[a - 1].name
    assert re.search(rf"-\d {re.escape(named)}", out) and f"+1 {named}" in out and "unknown command 'frobnicate'" in out
    assert "Saved" in out and session.doc["deck"] is not None
    assert deck.main[deck.pool_list[a - 1]] >= 1 and deck.main[deck.pool_list[b - 1]] >= 1
