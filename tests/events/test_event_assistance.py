"""Outside assistance at event drafts: none by default (no hint, signals or "Can lead"); `event new --assist`
allows it for a casual night; the pick screen and `event show` say which.  Real database and draft files."""

from __future__ import annotations

import json
import re

import pytest

from events.sessions.seat import SeatSession
from events.storage.store import Store
from sets.errors import StateError
from tests.helpers.night import Night
from tests.helpers.nights import seat_of, start
from tests.helpers.terminals import PICK


def night_of(cli, db, *extra: str) -> int:
    made = cli("event", "new", "Rules", "--style", "terminal", "--no-codes", *extra, "--db", db, "--json")
    event_id = json.loads(made.stdout)["id"]
    assert cli("event", "player", "add", event_id, "Ann", "Bo", "--db", db).exit_code == 0
    for name in ("Bot 1", "Bot 2"):
        assert cli("event", "player", "add", event_id, name, "--bot", "--db", db).exit_code == 0
    assert cli("event", "seat", event_id, "--db", db).exit_code == 0
    start(cli, db, event_id)
    return event_id


def take_leaders(db, event_id: int) -> SeatSession:
    """Ann's first pick takes the pack's cards that can be a commander (a CMR pack has two legends), Bo picks,
    and Ann's seat is held at her second pick."""
    pod, seat = seat_of(db, event_id, "Ann")
    held = SeatSession(Night(Store(db)).draft_session(event_id, pod), seat)
    held.show()
    leaders = [i for i, printing in enumerate(held.pack) if printing.card.can_be_commander][:2]
    assert len(leaders) == 2
    held.pick(leaders)
    bo_pod, bo_seat = seat_of(db, event_id, "Bo")
    bo = Night(Store(db)).draft_session(event_id, bo_pod)
    bo.pick(bo.suggested_pick(bo_seat))  # the table moves on: Ann has her second pack
    return SeatSession(Night(Store(db)).draft_session(event_id, pod), seat)


def test_an_event_draft_offers_no_assistance_by_default(tmp_path, cli):
    db = tmp_path / "strict.json"
    event_id = night_of(cli, db)
    held = take_leaders(db, event_id)
    assert held.assist is False
    with pytest.raises(StateError, match="no assistance"):
        held.hint()
    with pytest.raises(StateError, match="no assistance"):
        held.signals()
    screen = cli("event", "draft", event_id, "--player", "Ann", "--db", db, input="hint\nsignals\npool\nhelp\nquit\n")
    assert screen.exit_code == 0 and PICK.search(screen.stdout)
    text = " ".join(screen.stdout.split())
    assert "no assistance" in text and "No assistance in this event's drafts" in text
    assert "Hint:" not in text and "Can lead:" not in text and "Signal" not in text
    assert "pool, help, quit" in text and "pool, hint, help" not in text and "hint (what" not in text
    board = cli("event", "show", event_id, "--db", db)
    assert "No assistance: no hint, signals or 'Can lead'" in " ".join(board.stdout.split())
    assert json.loads(cli("event", "show", event_id, "--db", db, "--json").stdout)["event"]["assist"] is False


def test_event_new_assist_allows_it_and_says_so(tmp_path, cli):
    db = tmp_path / "casual.json"
    event_id = night_of(cli, db, "--assist")
    held = take_leaders(db, event_id)
    assert held.assist is True and held.hint().reasons()
    screen = cli("event", "draft", event_id, "--player", "Ann", "--db", db, input="hint\n\npool\n\nquit\n")
    text = " ".join(screen.stdout.split())
    assert screen.exit_code == 0 and "assistance allowed" in text and "Hint:" in text and "Can lead" in text
    board = cli("event", "show", event_id, "--db", db)
    assert "assistance allowed" in " ".join(board.stdout.split())
    assert json.loads(cli("event", "show", event_id, "--db", db, "--json").stdout)["event"]["assist"] is True


def test_a_practice_draft_keeps_its_aids(tmp_path, cli):
    practice = cli(
        "play", "--seed", "5", "--players", "3", "--db", tmp_path / "p.json", "--plain", input="hint\n\nquit\n"
    )
    assert practice.exit_code == 0 and "Hint:" in practice.stdout and "no assistance" not in practice.stdout


@pytest.mark.parametrize(
    "kind", [["--style", "physical"], ["--style", "bots"], ["--sealed"], ["--sealed", "--style", "terminal"]]
)
def test_assist_for_an_event_without_a_draft_at_the_players_terminals_is_refused(tmp_path, cli, kind):
    """Docs (Store events): an option an event would never use is refused.  Assistance is offered only at a
    draft's pick screen, a terminal's or a phone's (style terminal); paper, the bots and sealed pools have none."""
    db = tmp_path / "never.json"
    made = cli("event", "new", "Casual", *kind, "--assist", "--db", db)
    assert made.exit_code == 2 and "--assist" in made.stderr and made.stderr.count("\n") == 1, made.output
    assert not db.exists()  # nothing made
    assert cli("event", "new", "Casual", *kind, "--db", db).exit_code == 0


def test_an_event_pick_screen_names_the_pod_and_seat_not_the_drafts_record_number(tmp_path, cli):
    """A second event in the same database: its pod 1 is draft record 2, a number that means nothing to the
    player (their pick line names their pod and seat); a practice draft keeps its number ('play --resume N')."""
    db = tmp_path / "two.json"
    night_of(cli, db)
    event_id = night_of(cli, db)
    screen = cli("event", "draft", event_id, "--player", "Ann", "--db", db, input="quit\n")
    text = " ".join(screen.stdout.split())
    assert screen.exit_code == 0 and "your pick (pod 1, seat" in text, text
    assert "Seat " in text and ", draft " not in text


def test_a_store_terminal_says_each_players_seat_sentence_once_not_before_every_pick(tmp_path, cli):
    """Each pick at a store terminal was shown by a new prompt, which said "Seat 4 of 4, no assistance." again before
    every pack (a screen reader read it before each of 27): it is said once a player, as at a practice draft; each
    pick still names whose it is."""
    db = tmp_path / "once.json"
    event_id = night_of(cli, db)
    screen = cli("event", "draft", event_id, "--player", "Ann", "--player", "Bo", "--db", db, input="1 2\n\n" * 4)
    text = screen.stdout
    assert screen.exit_code == 0 and text.count(", your pick (pod 1, seat") == 5  # four picks made, a fifth asked
    seats = re.findall(r"Seat \d of 4, no assistance\.", text)
    assert len(seats) == 2 and len(set(seats)) == 2, text  # Ann's and Bo's, once each
