"""Issue 14, solo practice: builder work never lost, names with commas, commanders that move,
every screen at 80 columns, names as players type them, builder counts, the ticking timer, words.

The interactive tests run `cmdraft play` in a real pseudo-terminal (pexpect) on a real database
file; a draft is prepared through the application (TableSession) and resumed in the terminal.
"""

from __future__ import annotations

import io
import os
import random
import re
import signal
import sys
from collections import Counter
from pathlib import Path

import pexpect
import pytest
from rich.console import Console
from typer.testing import CliRunner

from draft.deck_rules import validate
from draft.deck_state import pool_order
from draft.engine import DraftConfig
from events.cli import app
from events.screens.picks import parse_selection, read_choices
from events.storage.draft_files import TableSession
from events.storage.store import Store
from sets.booster import Printing, booster_spec
from sets.card_index import card_index
from sets.catalog import load_set
from sets.errors import InputError
from tests.helpers.piped import piped
from tests.helpers.shared_clock import SharedClock

PROMPT = re.compile(r"Take (\d) cards? \(numbers or names; pool, hint, help, quit\)> ")
CMR = load_set("CMR")
STATUS = r"Pack 1 of 3, pick 1 of 10, passing left(?:\x1b\[[0-9;]*m)?\s*\r\n"
COMMA_NAMES = sorted({card.name for card in CMR.cards if "," in card.name})


def spawn(args, home: Path, rows=24, cols=80, timeout=60, clock: SharedClock | None = None):
    """On ``clock`` (the test's, ``SharedClock``) when given."""
    env = dict(os.environ, CMDRAFT_HOME=str(home), COLUMNS=str(cols), LINES=str(rows), NO_COLOR="1", TERM="xterm")
    # Ctrl-C must reach the program even when the suite itself runs with SIGINT ignored (a background job)
    child = pexpect.spawn(
        sys.executable,
        [
            *(["-m", "events"] if clock is None else clock.command()),
            *args,
            *(["--plain", "--confirm"] if args[:1] == ["play"] else []),
        ],
        env=env if clock is None else clock.env(env),
        encoding="utf-8",
        timeout=timeout,
        dimensions=(rows, cols),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    child.delaybeforesend = None  # sent after the prompt is shown (tests/helpers/terminals.py says why)
    return child


def new_session(db: Path, seed: int, players: int = 4, timer: int | None = None) -> TableSession:
    return TableSession.create(
        Store(db),
        kind="practice",
        seed=seed,
        config=DraftConfig(seats=players),
        humans=[0],
        names=["You"] + [f"Bot {i}" for i in range(2, players + 1)],
        timer=timer,
    )


def drafted(db: Path, seed: int) -> TableSession:
    """A practice draft whose picks are all made (the player is at the deck builder)."""
    session = new_session(db, seed)
    while not session.draft.finished:
        session.pick(session.suggested_pick(0))
    return session


def pool_list(session: TableSession):
    """The builder's numbering of the pool ('show pool')."""
    return sorted(dict.fromkeys(p.card for p in session.draft.pools[0]), key=lambda c: pool_order(Printing(c)))


def saved_deck(db: Path, draft_id: int) -> dict:
    with Store(db).read() as data:
        return data.table("drafts").get(doc_id=draft_id)["deck"]


def deck_counts(deck: dict) -> tuple[list[str], Counter, list[str]]:
    commanders = [c["name"] for c in deck["commanders"]]
    main = Counter({c["name"]: c["count"] for c in deck["main"]})
    return commanders, main, deck.get("piper_colors", [])


def builder(db: Path, session: TableSession, home: Path, **kw):
    child = spawn(["play", "--resume", str(session.draft_id), "--db", str(db)], home, **kw)
    child.expect("deck> ")
    return child


# --- 1: every builder change is saved; quit, end of input and Ctrl-C resume where the player was ---------


def test_builder_changes_survive_quit_eof_and_ctrl_c(tmp_path):
    """A real terminal (a pseudo-terminal, the command in a process of its own): quit, end of input and Ctrl-C as a terminal sends them."""
    db = tmp_path / "p.json"
    session = drafted(db, 21)
    child = builder(db, session, tmp_path)
    child.sendline("auto")
    child.expect("The bot built a deck")
    child.expect("deck> ")
    after_auto = deck_counts(saved_deck(db, session.draft_id))
    assert after_auto[0] and sum(after_auto[1].values()) + len(after_auto[0]) >= 60  # saved before any 'save'
    child.sendline("quit")
    child.expect(r"Saved\. Resume with: cmdraft play --resume 1")
    child.expect(pexpect.EOF)

    child = builder(db, session, tmp_path)
    # the resumed builder says what the saved deck is: the same commanders as after 'auto'
    assert "Your saved deck, as you left it" in child.before
    assert re.search(r"Commanders: " + re.escape(" + ".join(after_auto[0])), child.before)
    card = sorted(after_auto[1])[0]
    number = [c.name for c in pool_list(session)].index(card) + 1
    child.sendline(f"remove {number}")
    child.expect(re.escape(f"-1 {card}"))
    child.expect("deck> ")
    child.sendintr()  # Ctrl-C
    child.expect(r"Saved\. Resume with")
    child.expect(pexpect.EOF)
    assert deck_counts(saved_deck(db, session.draft_id))[1][card] == after_auto[1][card] - 1

    child = builder(db, session, tmp_path)
    child.sendline("piper U R")
    child.expect("deck> ")
    child.sendeof()  # end of input
    child.expect(r"Saved\. Resume with")
    child.expect(pexpect.EOF)
    commanders, main, colors = deck_counts(saved_deck(db, session.draft_id))
    assert (
        colors == ["U", "R"] and commanders.count("The Prismatic Piper") == 2 and main[card] == after_auto[1][card] - 1
    )

    child = builder(db, session, tmp_path)
    assert "The Prismatic Piper (blue) + The Prismatic Piper (red)" in child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)


# --- 2: names with commas ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", COMMA_NAMES)
def test_every_comma_name_in_cmr_is_read_whole(name):
    cards = {card.name: card for card in CMR.cards}
    others = [n for n in COMMA_NAMES if n != name][:2] + [
        "Murder",
        "Sol Ring" if "Sol Ring" in cards else "Arcane Signet",
    ]
    names = [others[0], "Murder", name, others[1]]
    pack = [Printing(cards[n]) for n in names if n in cards]
    at = [p.card.name for p in pack].index(name)
    murder = [p.card.name for p in pack].index("Murder")
    for separator in (", ", "; ", " + ", ","):
        assert parse_selection(f"{name}{separator}Murder", pack, 2) == [at, murder]
        assert parse_selection(f"Murder{separator}{name}", pack, 2) == [murder, at]
    second = [p.card.name for p in pack].index(others[1])
    assert parse_selection(f"{name}, {others[1]}", pack, 2) == [at, second]
    assert parse_selection(name.lower().replace(",", ""), pack, 1) == [at]
    # the builder reads its lists the same way, with counts
    assert read_choices(f"{name} 2, Murder", names, counts=True) == [(2, 2), (1, None)]


def test_comma_names_at_the_pick_prompt_and_in_the_builder(tmp_path):
    """A real terminal (a pseudo-terminal, the command in a process of its own): names typed at the pick and builder prompts."""
    db = tmp_path / "c.json"
    seed = next(
        s
        for s in range(1, 200)
        if sum("," in p.card.name for p in new_session(tmp_path / f"t{s}.json", s).draft.pack(0)) >= 2
    )
    session = new_session(db, seed)
    pack = session.draft.pack(0)
    first, second = [i for i, p in enumerate(pack) if "," in p.card.name][:2]
    child = spawn(["play", "--resume", str(session.draft_id), "--db", str(db)], tmp_path)
    child.expect(PROMPT)
    child.sendline(f"{pack[first].card.name}, {pack[second].card.name}")
    child.expect(re.escape(f"Take #{first + 1} {pack[first].card.name} + #{second + 1} {pack[second].card.name}?"))
    child.sendline("n")
    child.expect(PROMPT)
    child.sendline(f"{pack[second].card.name}; {pack[first].card.name}")
    child.expect(re.escape(f"Take #{second + 1} {pack[second].card.name} + #{first + 1} {pack[first].card.name}?"))
    child.sendline("y")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert {p.card.name for p in TableSession.load(Store(db), session.draft_id).draft.pools[0]} == {
        pack[first].card.name,
        pack[second].card.name,
    }

    db2 = tmp_path / "c2.json"
    done = drafted(db2, 23)
    legends = [c for c in pool_list(done) if "," in c.name and c.can_be_commander and c.is_legendary]
    child = builder(db2, done, tmp_path)
    child.sendline(f"commander {legends[0].name}")
    child.expect(re.escape(f"Commanders: {legends[0].name}"))
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert deck_counts(saved_deck(db2, done.draft_id))[0] == [legends[0].name]


# --- 3: a commander moves out of the main deck; a card that can't lead is refused -----------------------


def test_commander_moves_and_non_legends_are_refused(tmp_path):
    """A real terminal (a pseudo-terminal, the command in a process of its own): the builder's prompts as a terminal shows them."""
    db = tmp_path / "m.json"
    session = drafted(db, 21)
    child = builder(db, session, tmp_path)
    child.sendline("auto")
    child.expect("deck> ")
    commanders, main, _ = deck_counts(saved_deck(db, session.draft_id))
    numbers = {c.name: i for i, c in enumerate(pool_list(session), start=1)}
    leader = next(
        c
        for c in pool_list(session)
        if c.can_be_commander and c.name in main and c.name not in commanders and not c.chooses_color
    )
    child.sendline(f"commander {numbers[leader.name]}")
    child.expect(re.escape(f"Commanders: {leader.name}"))
    child.expect(re.escape(f"Moved from the main deck to the command zone: {leader.name}"))
    child.expect("deck> ")
    assert "too-many-copies" not in child.before
    commanders, main2, _ = deck_counts(saved_deck(db, session.draft_id))
    assert commanders == [leader.name] and main2[leader.name] == main[leader.name] - 1
    plain = next(c for c in pool_list(session) if not c.can_be_commander and not c.is_land)
    child.sendline(f"commander {numbers[plain.name]}")
    child.expect(re.escape(f"{plain.name} can't be a commander: it is not a legendary creature"))
    child.expect("the commanders are unchanged")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert deck_counts(saved_deck(db, session.draft_id))[0] == [leader.name]
    deck = TableSession.load(Store(db), session.draft_id).doc["deck"]
    assert "too-many-copies" not in {p.code for p in _report(deck, session).problems}


def _report(deck_json, session):
    import json

    from draft.formats import parse_json, resolve

    deck, _ = resolve(parse_json(json.dumps(deck_json)), card_index())
    return validate(deck, [p.card for p in session.draft.pools[0]], piper_colors=deck.piper_colors or None)


# --- 5: 80 columns ---------------------------------------------------------------------------------------


def _lines(renderable, width: int) -> list[str]:
    console = Console(file=io.StringIO(), width=width, no_color=True, highlight=False)
    console.print(renderable)
    return console.file.getvalue().splitlines()


def assert_whole(lines: list[str], cards, width: int, cost: bool = True) -> None:
    """Every card's full name, identity and (where shown) cost on one line, and no line wider than the terminal."""
    assert all(len(line.rstrip()) <= width for line in lines), max(lines, key=len)
    for card in cards:
        pieces = [card.name, card.deck_colors.code or "C"] + ([card.mana_cost] if cost and card.mana_cost else [])
        assert any(all(piece in line for piece in pieces) for line in lines), (card.name, pieces)


@pytest.mark.parametrize("width", [80, 120])
def test_pack_and_pool_tables_keep_names_costs_and_identities(width):
    from events.screens.render import pack_table

    printings = list(booster_spec("CMR").open(random.Random(2)).printings)
    longest = sorted(CMR.cards, key=lambda c: -len(c.name))[:6] + sorted(CMR.cards, key=lambda c: -len(c.mana_cost))[:6]
    gor = [c for c in CMR.cards if c.name.startswith("Gor Muldrak")]
    sample = printings + [Printing(c) for c in longest + gor]
    assert_whole(_lines(pack_table(sample, width=width), width), [p.card for p in sample], width)
    assert_whole(
        _lines(pack_table(sample, title="Your pool", numbered=False, width=width), width),
        [p.card for p in sample],
        width,
    )


def test_sealed_at_80_columns():
    import json

    runner = CliRunner(env={"COLUMNS": "80"})
    listed = runner.invoke(app, ["sealed", "--players", "1", "--seed", "5", "--json"])
    player = json.loads(listed.stdout)["players"][0]
    names = [card["name"] for booster in player["boosters"] for card in booster["cards"]]
    result = runner.invoke(app, ["sealed", "--players", "1", "--seed", "5"])
    assert result.exit_code == 0
    index = card_index(["CMR"])
    assert_whole(result.stdout.splitlines(), [index.find(name) for name in names], 80)


def test_builder_suggestions_and_review_at_80_columns(tmp_path):
    from events.screens.practice import PracticeUI
    from events.screens.terminal import Quit, Terminal

    session = drafted(tmp_path / "w.json", 21)
    console = Console(file=io.StringIO(), width=80, no_color=True, highlight=False)
    ui = PracticeUI(
        session, console, Terminal(console, io.StringIO("show pool\nauto\nshow deck\nsuggest\nreview\nquit\n"))
    )
    with pytest.raises(Quit):
        ui.build()
    # input isn't echoed here, so the next output follows the prompt on its line
    lines = [line.replace("deck> ", "") for line in console.file.getvalue().splitlines()]
    assert_whole(lines, pool_list(session), 80, cost=False)
    deck = ui.builder.session.deck()
    for card in deck.commanders:  # its count says "commander" ("C" read as colorless, the Id column's letter)
        assert any(line.split()[:1] == ["commander"] and card.name in line for line in lines), card.name
    assert not any(line.split()[:1] == ["C"] for line in lines)
    assert not any("─" in line for line in lines)  # read aloud: no rule of dashes under a table's header
    assert not [line for line in lines if line.strip() and " " not in line.strip()]  # nor a wrapped title's tail
    from draft.deckbuild import rank_commanders

    for suggestion in rank_commanders(Counter(ui.builder.session.pool), 8, piper=ui.builder.session.piper):
        for name in suggestion.commanders:
            assert any(name in line for line in lines), name
    assert any("The bots' decks" in line for line in lines)


def read_aloud(lines: list[str], pack) -> None:
    """The line prompt as a screen reader reads it (``--plain``): no rule of dashes, each card one line of its own
    that starts with its number and holds its name, cost, rarity and type (its subtypes may go: never a word alone
    on a line, as a table's wrapped cell left "Creature"), and the pool summary's lines whole at 80 columns."""
    assert not any("─" in line or "━" in line for line in lines)
    for number, printing in enumerate(pack, start=1):
        card = printing.card
        (at,) = [i for i, line in enumerate(lines) if line.startswith(f"{number:>2}  {card.name}; ")]
        more = lines[at + 1] if at + 1 < len(lines) and lines[at + 1].startswith("    ") else ""  # its notes
        said = " ".join([lines[at], more.strip()])
        assert card.rarity.value in said and " ".join(card.front.types) in said, said
    summary = [line for line in lines if line.startswith(("Pool (", "Curve: "))]
    assert summary and [line.split()[0] for line in summary] == ["Pool", "Curve:"] * (len(summary) // 2)
    assert all(line.endswith("6+:0") for line in summary[1::2])
    words = [line.strip() for line in lines if line.strip()]
    assert not [word for word in words if " " not in word and word.isalpha()], words  # no word alone on a line


def test_a_pack_written_to_a_pipe_is_written_whole_not_a_terminals_page_of_it(tmp_path):
    """No terminal (a script reading the prompt's output, a log): every card of the pack is written, however short
    the screen the environment names (``LINES=24``), with no page note a script would have to answer."""
    db = tmp_path / "p.json"
    session = new_session(db, 3)
    pack = session.draft.pack(0)
    args = ("play", "--plain", "--resume", str(session.draft_id), "--db", str(db))
    done = piped(*args, home=tmp_path / "home", input="quit\n", LINES="24", COLUMNS="80")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [n for n in range(1, len(pack) + 1) if not any(line.startswith(f"{n:>2}  ") for line in lines)] == []
    assert "Cards 1 to" not in done.stdout and "'more'" not in done.stdout


def test_the_pack_header_stays_above_the_prompt_on_24_lines(tmp_path):
    """A real terminal (a pseudo-terminal, the command in a process of its own): what stays on a 24-line screen."""
    db = tmp_path / "h.json"
    session = new_session(db, 3)
    pack = session.draft.pack(0)
    child = spawn(["play", "--resume", str(session.draft_id), "--db", str(db)], tmp_path, rows=24, cols=80)
    # the status line sits right above the prompt, so it is on screen whatever the pack's length
    child.expect(STATUS + PROMPT.pattern)
    first = re.sub(r"\x1b\[[0-9;]*m", "", child.before).splitlines()
    # a 20-card pack doesn't fit 24 lines: it is paged, each page with where the draft is and the prompt on screen
    assert f"Seat 1 of 4, draft {session.draft_id} (seed 3)." in first[-23:]  # a sentence, not a rule of dashes
    assert len(first) <= 23 and re.search(r"Cards 1 to \d+ of 20\.", "\n".join(first))
    child.sendline("")
    child.expect(STATUS + PROMPT.pattern)
    second = re.sub(r"\x1b\[[0-9;]*m", "", child.before).splitlines()
    assert len(second) <= 24 and re.search(r"Cards \d+ to 20 of 20\.", "\n".join(second))
    assert all(len(line) <= 80 for line in first + second)
    assert_whole(first + second, [p.card for p in pack], 80)
    read_aloud(first + second, pack)
    child.sendline("pool")
    child.expect("Your pool is empty\\.")
    child.expect("Enter: back to the pack")  # the pool stays until Enter
    child.sendline("")
    child.expect(STATUS + PROMPT.pattern)
    child.sendline("help")
    child.expect("Commands: pool")
    child.expect("Enter: back to the pack")
    child.sendline("")
    child.expect(STATUS + PROMPT.pattern)
    shown = re.sub(r"\x1b\[[0-9;]*m", "", child.before)  # after help one line, not the pack read out again
    assert "Back to the same pack: 20 cards, take 2 ('list' reads it again)." in shown and "Seat 1 of" not in shown
    child.sendline("list")  # the pack again, from its first page
    child.expect(STATUS + PROMPT.pattern)
    shown = re.sub(r"\x1b\[[0-9;]*m", "", child.before)
    assert "Seat 1 of 4, draft" in shown and f" 1  {pack[0].card.name}; " in shown
    child.sendline("quit")
    child.expect(pexpect.EOF)


# --- 6: names the player types ---------------------------------------------------------------------------


def test_card_names_as_players_type_them(tmp_path):
    runner = CliRunner()
    jeska = runner.invoke(app, ["card", "Jeska"])
    assert jeska.exit_code == 2 and "Jeska, Thrice Reborn" in jeska.stderr
    piper = runner.invoke(app, ["card", "Prismatic Piper"])
    assert piper.exit_code == 0 and "The Prismatic Piper" in piper.stdout
    assert card_index().find("prismatic piper").name == "The Prismatic Piper"
    deck = tmp_path / "deck.txt"
    deck.write_text("Commander\n1 Prismatic Piper\n\nDeck\n-1 Mountain\n1 Murder\n")
    checked = runner.invoke(app, ["deck", "check", str(deck), "--piper", "B", "--json"])
    import json

    report = json.loads(checked.stdout)
    messages = " ".join(p["message"] for p in report["problems"])
    assert report["commanders"] == ["The Prismatic Piper"]
    assert "'-1 Mountain'" in messages and "count" in messages and "unknown card" not in messages


def test_a_typo_at_the_pick_prompt_gets_did_you_mean(tmp_path):
    """A real terminal (a pseudo-terminal, the command in a process of its own): the pick prompt as a terminal shows it."""
    db = tmp_path / "t.json"
    session = new_session(db, 3)
    pack = session.draft.pack(0)
    name = max((p.card.name for p in pack), key=len)
    typo = name[:3] + name[4] + name[3] + name[5:]  # two letters swapped
    child = spawn(["play", "--resume", str(session.draft_id), "--db", str(db)], tmp_path)
    child.expect(PROMPT)
    child.sendline(typo)
    child.expect(re.escape(f"is not in this pack. Did you mean {name}"))
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)


# --- 7: the builder's counts -----------------------------------------------------------------------------


def test_builder_counts(tmp_path):
    """A real terminal (a pseudo-terminal, the command in a process of its own): the builder's prompts as a terminal shows them."""
    db = tmp_path / "n.json"
    session = drafted(db, 21)
    cards = pool_list(session)
    pool = Counter(p.card for p in session.draft.pools[0])
    single = [i for i, c in enumerate(cards, start=1) if pool[c] == 1 and not c.is_land][:3]
    a, b, c = single
    child = builder(db, session, tmp_path)
    child.sendline("add")
    child.expect(r"usage: add N \[COUNT\]")
    child.sendline("remove")
    child.expect(r"usage: remove N \[COUNT\]")
    child.sendline(f"add {a} 0")
    child.expect(re.escape(f"add {cards[a - 1].name} 0: a count is 1 or more"))
    child.sendline(f"add {a} 1, {b} 2")
    child.expect(re.escape(f"can't add 2 {cards[b - 1].name}: your pool has 1") + r"[^\n]*\s+nothing\s+added")
    child.expect("deck> ")
    assert not (saved_deck(db, session.draft_id) or {}).get("main")  # refused at once: nothing added, nothing saved
    child.sendline(f"add {a} 1, {b} 1")
    child.expect(re.escape(f"+1 {cards[a - 1].name}"))
    child.expect(re.escape(f"+1 {cards[b - 1].name}"))
    child.expect(r"Deck: 2 cards")
    child.sendline(f"remove {a} 3")
    child.expect(re.escape(f"-1 {cards[a - 1].name} (the deck had only 1)"))
    child.sendline(f"remove {c}")
    child.expect(re.escape(f"{cards[c - 1].name} is not in the main deck"))
    child.sendline("lands")
    child.expect(r"Added (\d+) (Plains|Island|Swamp|Mountain|Forest|Wastes)")
    child.expect(r"Deck: 60 cards")
    child.sendline("auto")  # finishing a deck needs its commanders; your cards are never dropped silently
    child.expect("choose your commanders first")
    child.sendline("auto new")
    child.expect(re.escape("Replace your deck (60 cards) with the bot's? [y/N]"))
    child.sendline("n")
    child.expect("Kept your deck")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    commanders, main, _ = deck_counts(saved_deck(db, session.draft_id))
    assert main[cards[b - 1].name] == 1 and cards[a - 1].name not in main and sum(main.values()) == 60

    child = builder(db, session, tmp_path)
    assert "Your saved deck, as you left it" in child.before and "Commanders: none yet; 60 cards" in child.before
    child.sendline(f"remove {b}")
    child.expect(re.escape(f"-1 {cards[b - 1].name}"))
    doubles = [i for i, card in enumerate(cards, start=1) if pool[card] == 2][:2]
    x, y = doubles
    child.sendline(f"add {x} 2, {y} 1")  # a count for each card, in one line
    child.expect(re.escape(f"+2 {cards[x - 1].name}"))
    child.expect(re.escape(f"+1 {cards[y - 1].name}"))
    child.expect("deck> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    main = deck_counts(saved_deck(db, session.draft_id))[1]
    assert main[cards[x - 1].name] == 2 and main[cards[y - 1].name] == 1 and cards[b - 1].name not in main


def test_add_with_counts_for_several_cards(tmp_path):
    from events.screens.practice import PracticeUI
    from events.screens.terminal import Quit, Terminal

    session = drafted(tmp_path / "k.json", 21)
    cards = pool_list(session)
    pool = Counter(p.card for p in session.draft.pools[0])
    basics_free = [i for i, c in enumerate(cards, start=1) if pool[c] >= 1][:2]
    x, y = basics_free
    console = Console(file=io.StringIO(), width=80)
    ui = PracticeUI(session, console, Terminal(console, io.StringIO(f"add {x} {pool[cards[x - 1]]}, {y} 1\nquit\n")))
    with pytest.raises(Quit):
        ui.build()
    main = ui.builder.session.main
    assert main[cards[x - 1]] == pool[cards[x - 1]] and main[cards[y - 1]] == 1


# --- 8: the timer ----------------------------------------------------------------------------------------


def test_timer_ticks_in_place_and_resume_takes_a_new_timer(tmp_path):
    """A real terminal (a pseudo-terminal, the command in a process of its own): the timer line redrawn in place, and a process resumed."""
    db = tmp_path / "tm.json"
    session = new_session(db, 8, players=2, timer=20)
    child = spawn(["play", "--resume", str(session.draft_id), "--db", str(db)], tmp_path)
    child.expect(r"passing left[^\r\n]*, 20s left")  # the first pick shows the full time
    child.expect(PROMPT)
    # while the player thinks, the line above the prompt is rewritten in place: up one line, clear, write
    child.expect(re.escape("\x1b[1A\r\x1b[2K") + r"[^\x1b]*(?:\x1b\[[0-9;]*m)*[^\r\n]*1[0-9]s left")
    child.sendline("quit")
    child.expect(pexpect.EOF)

    child = spawn(["play", "--resume", str(session.draft_id), "--timer", "30", "--db", str(db)], tmp_path)
    child.expect(re.escape("Pick timer: 30 seconds for a full pack from now on (was 20 seconds)."))
    child.expect(r", 30s left")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert TableSession.load(Store(db), session.draft_id).doc["timer"] == 30


# --- 11: words -------------------------------------------------------------------------------------------


def test_words_counts_sheets_rarities_and_the_passing_arrow(tmp_path):
    """A real terminal (a pseudo-terminal, the command in a process of its own): the pick screen as a terminal shows it."""
    from draft.deck_state import plural
    from events.screens.render import passing, sheet_words
    from events.screens.timer import schedule

    assert plural(1, "card") == "1 card" and plural(2, "card") == "2 cards"
    runner = CliRunner()
    audit = runner.invoke(app, ["packs", "audit", "--count", "30", "--seed", "1"])
    assert audit.exit_code == 0
    assert "_" not in audit.stdout and "rare or mythic" in audit.stdout and "foil-etched legend" in audit.stdout
    mix = audit.stdout.split("non-legendary rare or mythic: rarity mix")[1]
    assert mix.index("rare ") < mix.index("mythic ")  # rarities in rarity order, not alphabetical
    assert "a foil-etched" in sheet_words("a etched_foil") and "an uncommon" in sheet_words("a uncommon")
    shown = runner.invoke(app, ["sets", "show", "CMR"]).stdout
    rarities = re.search(r"by rarity\s+(.*)", shown).group(1)
    order = [word for word in re.findall(r"[a-z]+", rarities)]
    assert order == [r for r in ["common", "uncommon", "rare", "mythic", "special", "bonus"] if r in order]
    # the pack screen and the big-screen timer show the same arrow for the same direction
    slots = list(schedule(3, 20, 2, 60))
    assert slots[0].direction.lower() == passing(True) == "left ←" and slots[10].direction.lower() == passing(False)
    db = tmp_path / "w.json"
    session = drafted(db, 21)
    leader = next(i for i, c in enumerate(pool_list(session), start=1) if c.can_be_commander and not c.chooses_color)
    child = builder(db, session, tmp_path)
    child.sendline(f"commander {leader}")
    child.expect(r"Deck: 1 card,")
    child.sendline("check")
    child.expect(r"NOT LEGAL \(\d+ problems?\)")
    assert "(s)" not in child.after
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert "problem(s)" not in child.before


def test_export_goes_to_cmdraft_practice_id_by_default(tmp_path):
    from events.screens.practice import PracticeUI
    from events.screens.terminal import Quit, Terminal

    session = drafted(tmp_path / "e.json", 21)
    console = Console(file=io.StringIO(), width=80)
    ui = PracticeUI(session, console, Terminal(console, io.StringIO("auto\nexport\nquit\n")), export_root=tmp_path)
    with pytest.raises(Quit):
        ui.build()
    folder = tmp_path / f"cmdraft-practice-{session.draft_id}"
    names = {p.name for p in folder.iterdir()}
    for ext in ("txt", "cod", "dck", "json", "csv"):
        assert f"practice-deck.{ext}" in names and f"practice-pool.{ext}" in names
    assert not any(name.endswith(".dek") for name in names)
    assert console.file.getvalue().count("no MTGO .dek files written") == 1
    assert {"practice-draftlog.txt", "practice-draft.json"} <= names


def test_lists_of_names_stay_readable_with_commas(tmp_path):
    from draft.decks import Deck, DeckLine, Zone
    from events.screens.deck_tables import deck_report
    from events.screens.review import review

    session = drafted(tmp_path / "r.json", 21)
    console = Console(file=io.StringIO(), width=4000, no_color=True)
    review(console, session)
    text = console.file.getvalue()
    picks = session.draft.picks_of(0)
    seats = session.draft.config.seats
    wheeled = 0
    for pick in picks:
        # a pack comes back after going once round the table: what of it is still there wheeled
        back = next((q for q in picks if q.pack == pick.pack and q.pick == pick.pick + seats), None)
        if back is None:
            continue
        passed = {p.card.name for i, p in enumerate(pick.offered) if i not in pick.positions}
        names = [p.card.name for p in back.offered if p.card.name in passed]
        if names:
            wheeled += 1
            assert " / ".join(names) in text
    assert wheeled
    partners = [c for c in CMR.cards if "," in c.name and c.has_partner and c.is_legendary][:2]
    deck = Deck(tuple(DeckLine(c, 1, Zone.COMMANDER) for c in partners), (), "t")
    shown = "\n".join(_lines(deck_report(validate(deck)), 200))
    assert " + ".join(c.name for c in partners) in shown


def test_separators_inside_names_and_mistakes():
    # '+' separates names, yet a name may begin with it (AFR's "+2 Mace")
    names = ["+2 Mace", "Murder", "Kamahl, Heart of Krosa", "Kamahl's Druidic Vow"]
    assert read_choices("+2 Mace + Murder", names) == [(0, None), (1, None)]
    assert read_choices("murder; +2 mace", names) == [(1, None), (0, None)]
    assert read_choices("Kamahl, Heart of Krosa+Murder", names) == [(2, None), (1, None)]
    assert read_choices("kamahl heart of krosa 3, 2 2", names, counts=True) == [(2, 3), (1, 2)]
    with pytest.raises(InputError, match=r"'kamahl' matches Kamahl's Druidic Vow / Kamahl, Heart of Krosa: type more"):
        read_choices("kamahl, murder", names)
    with pytest.raises(InputError, match=r"Did you mean Murder\?"):
        read_choices("Mudrer", names)
    with pytest.raises(InputError, match=r"there is no card 9"):
        read_choices("9", names)


def test_a_typo_in_a_later_word_of_a_name_gets_did_you_mean():
    """'fiery canonade': 'fiery' alone starts Fiery Cannonade, yet the line names one card with a typo in its
    second word, so the suggestion is for the whole stretch, not for 'canonade' alone."""
    names = ["Fiery Cannonade", "Murder", "Sol Ring", "Fire Diamond"]
    with pytest.raises(InputError, match=r"'fiery canonade' is not in this pack\. Did you mean Fiery Cannonade\b"):
        read_choices("fiery canonade", names)
    with pytest.raises(InputError, match=r"'fiery canonade' is not in this pack\. Did you mean Fiery Cannonade\b"):
        read_choices("murder + fiery canonade", names)
    with pytest.raises(InputError, match=r"Did you mean Sol Ring\?"):
        read_choices("murder, sol rnig", names, counts=True)
    # two names typed with only a space between them still read as two
    assert read_choices("murder sol ring", names) == [(1, None), (2, None)]


def test_the_pick_prompt_says_how_many_cards_to_take_not_a_pick_number(tmp_path, cli):
    """At pick 1 the prompt asks for two cards: 'Take 2 cards', never 'Pick 2' (read as the second pick)."""
    db = tmp_path / "db.json"
    result = cli("play", "--plain", "--seed", "3", "--players", "2", "--db", str(db), input="quit\n")
    assert result.exit_code == 0, result.output
    assert "Pack 1 of 3, pick 1 of 10" in result.stdout
    assert "Take 2 cards (numbers or names; pool, hint, help, quit)> " in result.stdout
    assert "Pick 2" not in result.stdout


def screen_of(output: str, rows: int = 24, cols: int = 80) -> list[str]:
    """What a VT100 terminal shows after ``output`` (pyte, a terminal emulator): the rows as text."""
    import pyte

    screen = pyte.Screen(cols, rows)
    pyte.Stream(screen).feed(output)
    return [line.rstrip() for line in screen.display]


def test_the_timer_never_touches_a_typed_line_that_wraps(tmp_path, shared_clock):
    """Only a real terminal proves it: the ticking line is redrawn with cursor moves while the terminal itself
    wraps what the player types, so the pseudo-terminal's output is played into a terminal emulator (pyte) and
    its screen read. Typing past the right edge, the status line above the prompt keeps ticking, the prompt and
    every typed letter stay, and editing keys (backspace, Ctrl-U, Ctrl-W) work on the line read.  The seconds
    tick on the clock the test shares with the process: moved on by the test, they need not be waited for."""
    db = tmp_path / "wrap.json"
    session = new_session(db, 8, players=2, timer=60)
    child = spawn(["play", "--resume", str(session.draft_id), "--db", str(db)], tmp_path, clock=shared_clock)
    seen = []
    child.expect(PROMPT)
    seen.append(child.before + child.after)
    typed = "abcdefghij" * 4  # 40 letters: past column 80 after the prompt
    child.send(typed)
    child.expect_exact(typed)  # every letter read and drawn: the clock moves on after the line wrapped
    seen.append(child.before + child.after)
    shared_clock.advance(3)
    child.expect(r"(?:5[0-7])s left")  # at least one redraw after the line wrapped
    seen.append(child.before + child.after)
    shared_clock.advance(1)
    child.expect(r"[0-9]+s left")
    seen.append(child.before + child.after)
    rows = screen_of("".join(seen))
    prompt_row = max(i for i, row in enumerate(rows) if row.startswith("Take 2 cards (numbers or names"))
    assert "s left" in rows[prompt_row - 1] and "Pack 1 of 3, pick 1 of 10" in rows[prompt_row - 1]
    first = rows[prompt_row]
    assert (first + rows[prompt_row + 1]).endswith(typed)
    assert len(first) == 80  # the terminal wrapped the typed line there
    child.send("\x15")  # Ctrl-U: the whole typed line goes
    child.send("13\x7f 2 zz\x17\r")  # '13', backspace, ' 2 zz', Ctrl-W (the last word): cards 1 and 2
    child.expect(r"Take #1 .*\+ #2 .*\? \[Y/n\]")
    child.sendline("y")
    child.expect("pick 2 of 10")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert TableSession.load(Store(db), session.draft_id).draft.picks_of(0)[0].positions == (0, 1)
