"""A no-show who comes after all, at the desk's command line on a real database: the organizer types their name
again (`event player add`), as store-night.md's late player; the refusal says the step that seats them (check-in
while the pods are only drawn; after the draft started, the rename that frees the name and the sealed join), and
check-in tells the desk that the seat's code needs a slip, as a late `player add` does."""

from __future__ import annotations

import json
import re
import shlex

import pytest

from events.night.registration import Registration
from events.storage.store import Store
from tests.helpers.night import Night

FIVE = ["Ann", "Bo", "Cy", "Di", "Xan"]
EXIT_INPUT = 2


@pytest.fixture
def seated(tmp_path):
    """A terminal draft with seat codes: five registered, four checked in and seated; Xan a no-show."""
    night = Night(Store(tmp_path / "friday.json"))
    event_id = night.create("Friday", style="terminal", seed=5)
    for name in FIVE:
        night.add_player(event_id, name)
    night.check_in(event_id, FIVE[:4])
    night.seat(event_id)
    assert night.no_shows(event_id) == ["Xan"]
    return night, event_id


def test_a_no_show_typed_again_after_seating_is_told_to_check_in_and_check_in_asks_for_their_slip(seated, cli):
    night, event_id = seated
    db = night.store.path
    again = cli("event", "player", "add", event_id, "xan", "--db", db)
    assert again.exit_code == EXIT_INPUT
    checkin = f"cmdraft event player checkin {event_id} Xan --db {shlex.quote(str(db))}"
    assert "'Xan' is player #5, not checked in when the pods were drawn" in again.stderr
    assert f"'{checkin}' seats them now" in again.stderr
    assert len(night.snapshot(event_id).players) == 5  # nobody registered twice

    came = cli(*shlex.split(checkin)[1:])
    assert came.exit_code == 0, came.output
    assert "checked in: Xan (pod 1, seat 5)" in came.stdout
    assert f"'Xan' needs a seat code slip: 'cmdraft event player code {event_id} Xan'" in " ".join(came.stdout.split())
    assert night.player(event_id, "Xan").code  # the slip's code


def test_check_in_json_names_the_late_seats_that_need_a_code_slip(seated, cli):
    night, event_id = seated
    came = cli("event", "player", "checkin", event_id, "--all", "--db", night.store.path, "--json")
    assert came.exit_code == 0, came.output
    assert json.loads(came.stdout)["code_slip"] == ["Xan"]


def test_a_no_show_typed_again_after_the_draft_started_is_told_how_to_join_with_a_sealed_pool(seated, cli):
    night, event_id = seated
    db = str(night.store.path)
    night.start_draft(event_id)
    again = cli("event", "player", "add", event_id, "Xan", "--sealed", "--db", db)
    assert again.exit_code == EXIT_INPUT
    said = " ".join(again.stderr.split())
    rename = f"cmdraft event player rename {event_id} Xan 'Xan (no-show)' --db {db}"
    join = f"cmdraft event player add {event_id} Xan --sealed --db {db}"
    assert f"free the name with '{rename}', then '{join}' joins them with a sealed pool" in said
    for step in (rename, join):  # the advice, followed as written
        assert cli(*shlex.split(step)[1:]).exit_code == 0
    late = night.player(event_id, "Xan")
    assert late.late and late.code and night.pool(event_id, "Xan")
    assert night.no_shows(event_id) == ["Xan (no-show)"]


def test_check_in_asks_a_slip_only_for_the_seats_it_gave_not_one_another_desk_gave_meanwhile(
    tmp_path, cli, monkeypatch
):
    """Before: check-in named the late seats needing a slip by comparing the players before and after it, outside
    its transaction, so a no-show another desk's terminal seated meanwhile was named too (a slip asked for a seat
    this check-in never gave). The core says which seats it gave, in the check-in's own transaction."""
    night = Night(Store(tmp_path / "two_desks.json"))
    event_id = night.create("Friday", style="terminal", seed=5)
    for name in [*FIVE, "Yu"]:
        night.add_player(event_id, name)
    night.check_in(event_id, FIVE[:4])
    night.seat(event_id)
    assert night.no_shows(event_id) == ["Xan", "Yu"]
    own = Registration.check_in

    def another_desk_first(self, event_id, names=None, *args, **options):
        monkeypatch.setattr(Registration, "check_in", own)
        Night(Store(night.store.path)).check_in(event_id, ["Yu"])  # the other terminal's check-in, just before
        return own(self, event_id, names, *args, **options)

    monkeypatch.setattr(Registration, "check_in", another_desk_first)
    came = cli("event", "player", "checkin", event_id, "Xan", "--db", night.store.path, "--json")
    assert came.exit_code == 0, came.output
    assert json.loads(came.stdout)["code_slip"] == ["Xan"]


def test_the_no_shows_are_listed_by_name_as_every_list_of_names_is(tmp_path):
    """Before: in the order they registered (Zoë, then ábel, then Bo)."""
    night = Night(Store(tmp_path / "order.json"))
    event_id = night.create("Friday", style="terminal", seed=5)
    for name in ["Zoë", "ábel", "Cy", "Dee", "Bo", "Eve"]:
        night.add_player(event_id, name)
    night.check_in(event_id, ["Cy", "Dee", "Eve"])
    night.seat(event_id)
    assert night.no_shows(event_id) == ["ábel", "Bo", "Zoë"]


def test_a_late_player_with_a_sealed_pool_at_the_draft_is_told_to_build_and_a_no_show_to_ask_the_desk(seated, cli):
    """Before: `event draft ID --player NAME` for a player with no draft seat said "Draft over for these players.
    Pools are recorded" (exit 0), true of nobody: the sealed player is told the command that builds their deck
    (exit 3), a player never seated to ask the desk."""
    night, event_id = seated
    db = str(night.store.path)
    night.start_draft(event_id)
    absent = cli("event", "draft", event_id, "--player", "Xan", "--db", db, input="")
    assert absent.exit_code == 3 and "'Xan' has no draft seat to pick at" in absent.stderr
    assert "ask the desk" in absent.stderr and "Draft over" not in absent.stdout
    assert cli("event", "player", "add", event_id, "Lou", "--sealed", "--db", db).exit_code == 0
    late = cli("event", "draft", event_id, "--player", "Lou", "--db", db, input="")
    assert late.exit_code == 3 and late.stderr.count("\n") == 1, late.output
    build = re.search(r"build the deck with '(cmdraft [^']*)'", late.stderr)
    # the database named, as every command said to type again names it (the default one would be another night's)
    assert build and build.group(1) == f"cmdraft event deck {event_id} Lou --db {shlex.quote(db)} --build", late.stderr
    assert "Draft over" not in late.stdout
    # named at one terminal with a seated player, the sealed one is told so and the other picks there all the same
    # (both were refused)
    shared = cli("event", "draft", event_id, "--player", "Ann", "--player", "Lou", "--db", db, input="")
    assert "'Lou' joined after the draft started, with a sealed pool" in shared.stdout, shared.output
    assert "Seat code for Ann" in shared.stdout


def test_a_late_player_with_a_sealed_pool_at_a_night_without_seat_codes_is_told_to_build_too(tmp_path, cli):
    """The sealed player was known by their seat code: at a terminal night without codes (`--no-codes`) they were
    told to ask the desk, though their pool was recorded.  The pool decides."""
    night = Night(Store(tmp_path / "nocodes.json"))
    event_id = night.create("No codes", style="terminal", seed=3, codes=False)
    for name in ("Ann", "Bo", "Cy"):
        night.add_player(event_id, name)
    night.seat(event_id)
    night.start_draft(event_id)
    db = str(night.store.path)
    assert cli("event", "player", "add", event_id, "Lou", "--sealed", "--db", db).exit_code == 0
    assert night.player(event_id, "Lou").code is None
    late = cli("event", "draft", event_id, "--player", "Lou", "--db", db, input="")
    assert late.exit_code == 3 and "with a sealed pool: no draft seat to pick at" in late.stderr, late.output
    assert "ask the desk" not in late.stderr
