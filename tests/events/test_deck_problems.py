"""An illegal deck read as a judge reads it: the file's bad lines first, then the root cause, then the cards
outside the colour identity folded into one line, on every face that shows the problems."""

from __future__ import annotations

import pytest
from rich.console import Console

from draft.deck_rules import Problem
from events.outputs.deck_problems import judge_order, problem_lines
from events.screens.boards import deck_board
from events.storage.store import Store
from tests.helpers.decks import WHITE
from tests.helpers.night import Night

# Eleven white cards of CMR (colour identity W by their mana costs), not one of them a commander here.
# One bad line: the commander's name misspelled, so the deck has no commander and a colorless identity.
WALL = "Commander\n1 Akroma, Vison of Ixidor\n\nDeck\n" + "".join(f"1 {name}\n" for name in WHITE) + "49 Plains\n"
# The wall without its bad line: every card known, no commander, the eleven white cards outside colorless.
LEADERLESS = WALL.replace("Commander\n1 Akroma, Vison of Ixidor\n\n", "")


def test_one_misspelled_commander_is_four_problems_in_cause_order_not_a_wall(cli, tmp_path):
    deck = tmp_path / "wall.txt"
    deck.write_text(WALL, encoding="utf-8")
    result = cli("deck", "check", deck)
    assert result.exit_code == 2  # a line naming no known card: bad input, as `deck convert` answers it
    assert "NOT LEGAL (4 problems)" in result.stdout
    codes = [line.split()[0] for line in result.stdout.splitlines() if line and not line.startswith(" ")]
    problems = [code for code in codes if code in ("unknown-card", "no-commander", "outside-identity")]
    assert problems == ["unknown-card", "no-commander", "outside-identity"]  # one line for the eleven cards
    text = " ".join(result.stdout.split())
    assert "11 cards outside the commanders' color identity colorless (CR 903.5c): " + " / ".join(WHITE) in text
    assert "take them out of the main deck, or lead with commanders whose identity holds them" in text
    assert text.index("unknown card 'Akroma, Vison of Ixidor'") < text.index("choose a commander")


def test_the_order_is_file_lines_then_commanders_then_the_rest_then_identity_whatever_the_checker_said():
    """A planted order, the reverse of the one a judge reads: judge_order puts it right, and keeps the rest."""
    planted = [
        Problem("outside-identity", "B (U) is outside", ("B",)),
        Problem("deck-too-small", "the deck has 40 cards"),
        Problem("outside-identity", "A (U) is outside", ("A",)),
        Problem("basic-type-outside-identity", "Island could make blue", ("Island",)),
        Problem("no-commander", "choose a commander"),
        Problem("unknown-card", "line 2: unknown card 'Akroma, Vison'", ("Akroma, Vison",)),
    ]
    shown = judge_order(planted, ["W"])
    assert [p.code for p in shown] == [
        "unknown-card",
        "no-commander",
        "deck-too-small",
        "outside-identity",
        "basic-type-outside-identity",
    ]
    assert shown[3].message == (
        "2 cards outside the commanders' color identity W (CR 903.5c): B / A: take them out of the main deck, or lead "
        "with commanders whose identity holds them"
    )
    assert shown[3].cards == ("B", "A")
    single = judge_order([Problem("outside-identity", "A (U) is outside the commanders' color identity W", ("A",))])
    assert [p.message for p in single] == ["A (U) is outside the commanders' color identity W"]  # one: as said


def test_a_file_of_many_bad_lines_shows_the_first_ten_then_how_many_more():
    planted = [Problem("unknown-card", f"line {n}: unknown card 'X{n}'", (f"X{n}",)) for n in range(1, 1001)]
    planted += [Problem("unreadable-line", "line 1001: no card name"), Problem("no-commander", "choose a commander")]
    shown = judge_order(planted)
    assert [p.message for p in shown[:10]] == [f"line {n}: unknown card 'X{n}'" for n in range(1, 11)]
    assert shown[10] == Problem("unreadable-line", "and 991 more lines of the file that can't be read")
    assert [p.code for p in shown[11:]] == ["no-commander"]
    eleven = judge_order(planted[:11])  # one more line is said as it is, not folded
    assert [p.message for p in eleven] == [p.message for p in planted[:11]]


@pytest.fixture
def events(tmp_path):
    return Night(Store(tmp_path / "decks.json"))


def walled_event(events, cli, tmp_path):
    """Ann and Bo seated at a physical event, each with Akroma and the white cards recorded as their pool; the
    event, the database and the leaderless deck's file (``LEADERLESS``; ``WALL`` is wall.txt beside it)."""
    event_id = events.create("Decks", style="physical", seed=4)
    for name in ("Ann", "Bo"):
        events.add_player(event_id, name)
    events.seat(event_id)
    pool = tmp_path / "pool.txt"
    pool.write_text("1 Akroma, Vision of Ixidor\n" + "".join(f"1 {name}\n" for name in WHITE), encoding="utf-8")
    db = events.store.path
    for name in ("Ann", "Bo"):
        assert cli("event", "pool", event_id, name, pool, "--db", db).exit_code == 0
    (tmp_path / "wall.txt").write_text(WALL, encoding="utf-8")
    deck = tmp_path / "leaderless.txt"
    deck.write_text(LEADERLESS, encoding="utf-8")
    return event_id, db, deck


def test_an_event_deck_with_an_unknown_card_is_bad_input_exit_2_as_deck_check_says_and_nothing_is_registered(
    events, cli, tmp_path
):
    event_id, db, _ = walled_event(events, cli, tmp_path)
    deck = tmp_path / "wall.txt"
    checked = cli("deck", "check", deck)
    for extra in ((), ("--json",)):
        refused = cli("event", "deck", event_id, "Ann", deck, *extra, "--db", db)
        assert refused.exit_code == checked.exit_code == 2, refused.output  # the old code registered it: 1
        (said,) = refused.stderr.splitlines()
        assert said.startswith(
            f"cmdraft: error: '{deck}': the deck of 'Ann' has unreadable lines: line 2: unknown card"
        )
        assert said.endswith("fix them and register it again") and refused.stdout == ""
    assert events.snapshot(event_id).players[0].deck is None  # nothing registered, as a pool with one isn't recorded


def test_an_event_deck_registered_without_a_commander_is_told_and_boarded_in_cause_order(events, cli, tmp_path):
    event_id, db, deck = walled_event(events, cli, tmp_path)
    registered = cli("event", "deck", event_id, "Ann", deck, "--db", db)
    assert registered.exit_code == 1, registered.output  # registered as it is, not legal
    verdict = " ".join(registered.stdout.split())
    assert verdict.index("choose a commander") < verdict.index("11 cards outside")
    assert "(W) is outside" not in verdict  # the eleven cards are one line
    stored = events.snapshot(event_id).players[0].deck
    assert sum(p["code"] == "outside-identity" for p in stored.problems) == 11  # the record keeps every problem
    console = Console(width=1000, record=True)  # the desk's board, wide enough that no cell wraps
    console.print(deck_board(events.snapshot(event_id)))
    board = console.export_text()
    assert "(W) is outside" not in board
    assert board.index("choose a commander") < board.index("11 cards outside the")


def test_check_and_convert_answer_an_unknown_card_with_the_exit_code_the_docs_give(cli, tmp_path):
    import json

    from tests.helpers.paths import ROOT

    deck = tmp_path / "wall.txt"
    deck.write_text(WALL, encoding="utf-8")
    checked = cli("deck", "check", deck, "--json")
    converted = cli("deck", "convert", deck, tmp_path / "out.json")
    assert checked.exit_code == converted.exit_code == 2
    assert "unknown-card" in {p["code"] for p in json.loads(checked.stdout)["problems"]}  # the report, whole
    (said,) = checked.stderr.splitlines()  # and the one error line every bad input gets
    assert (
        said.startswith("cmdraft: error: ") and "1 line can't be read" in said and "'Akroma, Vison of Ixidor'" in said
    )
    codes = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8").splitlines()
    assert "unknown set/card" in next(line for line in codes if line.startswith("| 2 |"))
    legal_but_short = tmp_path / "short.txt"
    legal_but_short.write_text("Commander\n1 Akroma, Vision of Ixidor\n\nDeck\n1 Plains\n", encoding="utf-8")
    assert cli("deck", "check", legal_but_short).exit_code == 1  # read whole, not legal: 1


def test_the_desks_board_and_sheet_fold_the_identity_line_in_event_decks_words(events, cli, tmp_path):
    """The board and the decklist sheet read the stored problems, which don't keep the identity apart: the folded
    line names it as ``event deck`` (and the phone) said it, not without it."""
    event_id, db, deck = walled_event(events, cli, tmp_path)
    registered = cli("event", "deck", event_id, "Ann", deck, "--db", db)
    said = "11 cards outside the commanders' color identity colorless (CR 903.5c): " + " / ".join(WHITE)
    assert said in " ".join(registered.stdout.split())
    console = Console(width=2000, record=True)
    console.print(deck_board(events.snapshot(event_id)))
    assert said in console.export_text()
    stored = events.snapshot(event_id).players[0].deck
    assert said in problem_lines(stored.problems)[1]  # after "choose a commander", as the decklist sheet lists them


# White CMR cards that walled_event's pool doesn't hold: another player's deck file, registered for Ann by mistake.
NOT_HERS = ["Palace Sentinels", "Seraph of Dawn", "Ninth Bridge Patrol", "Intangible Virtue"]


def test_cards_not_in_the_pool_are_one_line_naming_them_all_with_the_rule_said_once(events, cli, tmp_path):
    """The desk registering the wrong player's file was told the whole rule again for every card (a screenful of
    "X is in the deck but not in your pool: a Commander draft deck holds only …" lines); now one line names them."""
    event_id, db, _ = walled_event(events, cli, tmp_path)
    deck = tmp_path / "someone-elses.txt"
    deck.write_text(
        "Commander\n1 Akroma, Vision of Ixidor\n\nDeck\n" + "".join(f"1 {name}\n" for name in NOT_HERS) + "55 Plains\n",
        encoding="utf-8",
    )
    registered = cli("event", "deck", event_id, "Ann", deck, "--db", db)
    assert registered.exit_code == 1, registered.output  # registered as it is, not legal
    verdict = " ".join(registered.stdout.split())
    assert verdict.count("a Commander draft deck holds only cards from its pool") == 1, verdict
    assert "4 cards not in your pool: " + " / ".join(NOT_HERS) in verdict, verdict
    assert verdict.endswith("take them out"), verdict
    stored = events.snapshot(event_id).players[0].deck
    assert sum(p["code"] == "not-in-pool" for p in stored.problems) == 4  # the record keeps every problem
    lines = problem_lines(stored.problems)  # the board's and the decklist sheet's words
    assert len(lines) == 1 and lines[0].startswith("4 cards not in your pool: "), lines
    one = judge_order([Problem("not-in-pool", "A is in the deck but not in your pool: … take it out", ("A",))])
    assert [p.message for p in one] == ["A is in the deck but not in your pool: … take it out"]  # one: as said
