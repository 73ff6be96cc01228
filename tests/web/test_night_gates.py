"""When (issue 38): deck registration closes when round 1 is paired (or at the desk's time); after that a deck
changes only by the desk's correction, with its reason, which the player sees.  The same gate at every face."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from events.night.decks import closed_words
from events.night.refusals import Actor, NotAllowed, NotYourSeat, PhaseOver
from events.sessions.activities import EventDeck
from events.storage.store import Store
from tests.helpers.night import Night
from tests.helpers.served import ORIGIN, drafted_night
from tests.helpers.tables import FOUR, app_of, drafted_four, four, ok  # noqa: F401  (fixtures)
from tests.helpers.tables import table_phone as phone

CLOSED = closed_words("round 1 has been paired")


def deck_cards(db: Path, event_id: int, name: str) -> dict:
    events = Night(Store(db))
    return events.snapshot(event_id).player(events.player_id(event_id, name)).deck.to_json()


def test_after_round_one_a_phone_can_no_longer_change_its_deck_and_sees_who_can(four, manual_clock, cli):  # noqa: F811
    db, event_id, codes = four
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        ann = phone(app, event_id, "Ann", codes["Ann"])
        assert ok(ann.get("/api/deck"))["closed"] is None  # open until round 1: the builder is live
        assert cli("event", "round", event_id, "--db", db).exit_code == 0
        before = deck_cards(db, event_id, "Ann")
        shown = ok(ann.get("/api/deck"))
        assert shown["closed"] == CLOSED and "only the desk can change it" in shown["closed"]
        card = shown["main"][0]["card"]["id"]
        for path, body in (
            ("/api/deck", {"action": "remove", "cards": [[card, 1]]}),
            ("/api/deck/register", {}),
        ):
            refused = ann.post(path, json=body)
            assert refused.status_code == 409, refused.text
            assert refused.json()["error"] == {"code": "phase-over", "message": CLOSED + ": ask the organizer"}
        assert deck_cards(db, event_id, "Ann") == before  # nothing registered


def test_the_desk_corrects_a_deck_after_round_one_only_with_a_reason_the_player_then_sees(four, manual_clock, cli):  # noqa: F811
    db, event_id, codes = four
    assert cli("event", "round", event_id, "--db", db).exit_code == 0
    bare = cli("event", "deck", event_id, "Ann", "--auto", "--db", db)
    assert bare.exit_code == 3 and "only as a correction, with its reason (--reason TEXT)" in bare.stderr
    fixed = cli("event", "deck", event_id, "Ann", "--auto", "--reason", "a basic was missing", "--db", db)
    assert fixed.exit_code == 0, fixed.output
    entry = Night(Store(db)).history(event_id)[-1]
    assert entry.what == "deck correction" and entry.who == "desk" and "a basic was missing" in entry.new
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        ann = phone(app, event_id, "Ann", codes["Ann"])
        assert ok(ann.get("/api/deck"))["correction"] == "a basic was missing"


def test_a_late_players_first_deck_after_round_one_is_no_correction(four, manual_clock, cli):  # noqa: F811
    """Before: a sealed player added after round 1 was paired could register a first deck only as a correction."""
    db, event_id, _ = four
    assert cli("event", "round", event_id, "--db", db).exit_code == 0
    added = cli("event", "player", "add", event_id, "Very Late Vic", "--sealed", "--db", db)
    assert added.exit_code == 0, added.stderr
    events = Night(Store(db))
    vic = events.player_id(event_id, "Very Late Vic")
    seat = Actor.seat(vic, "browser", "Very Late Vic")
    assert events.decks_closed(event_id, player_id=vic) is None  # what the phone's deck page shows: open
    events.check_deck_change(event_id, vic, seat)  # the builder at a phone or a terminal: open too
    assert events.decks_closed(event_id) == "round 1 has been paired"  # everyone else's stays closed
    first = cli("event", "deck", event_id, "Very Late Vic", "--auto", "--db", db)
    assert first.exit_code == 0, first.stderr
    entry = Night(Store(db)).history(event_id)[-1]
    assert entry.what == "deck" and "reason" not in entry.new
    again = cli("event", "deck", event_id, "Very Late Vic", "--auto", "--db", db)
    assert again.exit_code == 3 and "only as a correction, with its reason (--reason TEXT)" in again.stderr
    with pytest.raises(PhaseOver, match="ask the organizer"):
        events.check_deck_change(event_id, vic, seat)


def test_a_terminal_builder_after_round_one_is_refused_with_the_same_words(four, cli):  # noqa: F811
    db, event_id, _ = four
    assert cli("event", "round", event_id, "--db", db).exit_code == 0
    refused = cli("event", "deck", event_id, "Ann", "--build", "--db", db, input="done\n")
    assert refused.exit_code == 3 and refused.stderr.strip().endswith(CLOSED + ": ask the organizer")


def test_the_desk_can_close_registration_earlier_at_a_time_it_sets(four, manual_clock, cli):  # noqa: F811
    db, event_id, _ = four
    events = Night(Store(db))
    ann = Actor.seat(events.player_id(event_id, "Ann"), "browser", "Ann")
    later = manual_clock.now() + 600
    events.close_decks(event_id, later)
    events.check_deck_change(event_id, ann.player, ann)  # not yet
    manual_clock.advance(601)
    with pytest.raises(PhaseOver, match="the desk closed it"):
        events.check_deck_change(event_id, ann.player, ann)
    with pytest.raises(PhaseOver):
        events.register_deck(event_id, "Ann", auto=True, actor=ann)
    closed = cli("event", "deck", event_id, "--close", "now", "--db", db, "--json")
    assert closed.exit_code == 0 and Night(Store(db)).history(event_id)[-1].what == "deck registration closes"
    by_player = cli("event", "deck", event_id, "--close", "now", "--db", db)  # the desk's command; a seat can't
    assert by_player.exit_code == 0
    with pytest.raises(NotAllowed, match="only the desk can close deck registration"):
        events.close_decks(event_id, actor=ann)


def test_closing_registration_at_a_time_already_past_says_it_is_closed_now(four, manual_clock, cli):  # noqa: F811
    """Before: '--close 2020-01-01T00:00' answered "closes at 2020-01-01…" though registration was closed."""
    db, event_id, _ = four
    events = Night(Store(db))
    later = events.close_decks(event_id, manual_clock.now() + 600)
    assert later.closed is None and later.words.startswith("deck registration closes at ")
    past = events.close_decks(event_id, manual_clock.now() - 60)
    assert past.closed == "the desk closed it" and events.decks_closed(event_id) == past.closed
    when = past.at[:16].replace("T", " ")
    assert past.words.startswith(f"deck registration is closed now (the desk closed it at {when} UTC): ")
    shown = cli("event", "deck", event_id, "--close", "2020-01-01T00:00", "--db", db)
    assert shown.exit_code == 0 and shown.stdout.startswith(  # a time as the log writes it, not ISO's 'T' and offset
        "Deck registration is closed now (the desk closed it at 2020-01-01 00:00 UTC): only the desk"
    )
    answer = json.loads(cli("event", "deck", event_id, "--close", "now", "--db", db, "--json").stdout)
    assert answer["closed"] is True and answer["message"].startswith("deck registration is closed now")


def test_a_player_registers_only_their_own_deck(four):  # noqa: F811
    db, event_id, _ = four
    events = Night(Store(db))
    ann = Actor.seat(events.player_id(event_id, "Ann"), "browser", "Ann")
    with pytest.raises(NotYourSeat, match="only for your own seat"):
        events.register_deck(event_id, "Bo", auto=True, actor=ann)


def test_a_terminal_builder_names_the_command_that_reopens_this_events_deck_with_its_database(four, cli):  # noqa: F811
    """Before: the reopen line left out --db, so typing it opened the default database (another event, or none)."""
    db, event_id, _ = four
    building = EventDeck(Night(Store(db)), event_id, "Ann")
    command = shlex.split(building.resume)
    assert command[:5] == ["cmdraft", "event", "deck", str(event_id), "#1"] and command[-2:] == ["--db", str(db)]
    saved = cli(*command[1:], input="auto\nsave\nquit\n")
    assert saved.exit_code == 0 and "deck registered for 'Ann' (" in saved.stdout and "): legal" in saved.stdout, (
        saved.stderr
    )
    assert Night(Store(db)).deck_of(event_id, 1) is not None  # the deck of this event's database, reopened by it


def test_a_phone_shows_and_downloads_the_deck_the_desk_registered_since_not_the_one_it_was_building(
    four,  # noqa: F811
    manual_clock,
    cli,
):
    """Before: a phone whose builder was open kept showing the deck it had built (here 59 cards, "not legal") after
    the desk's correction registered another, and offered that one as its deck download."""
    db, event_id, codes = four
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        ann = phone(app, event_id, "Ann", codes["Ann"])
        card = ok(ann.get("/api/deck"))["main"][0]["card"]["id"]
        assert ok(ann.post("/api/deck", json={"action": "remove", "cards": [[card, 1]]}))["size"] == 59
        assert ok(ann.post("/api/deck/register", json={}))["legal"] is False
        assert cli("event", "round", event_id, "--force", "--db", db).exit_code == 0
        fixed = cli("event", "deck", event_id, "Ann", "--auto", "--reason", "a card was missing", "--db", db)
        assert fixed.exit_code == 0, fixed.stderr
        registered = deck_cards(db, event_id, "Ann")
        shown = ok(ann.get("/api/deck"))
        assert (shown["size"], shown["legal"], shown["registered"]) == (60, True, True)
        assert shown["correction"] == "a card was missing"
        download = ann.get("/api/export/deck", params={"format": "json"})
        assert download.status_code == 200
        downloaded = json.loads(download.text)
        assert sum(line["count"] for line in downloaded["commanders"] + downloaded["main"]) == 60
        assert [line["name"] for line in downloaded["commanders"]] == registered["commanders"]


def test_a_builders_reopen_line_names_the_players_number_in_an_event_that_is_not_the_first(tmp_path, cli):
    """Before: it named the player's record id ('#8' for Bo, player #2 of the second event), which is another
    player's number, or none, in that event."""
    db = tmp_path / "two.json"
    assert cli("event", "new", "Thursday", "--style", "physical", "--db", db).exit_code == 0
    assert cli("event", "player", "add", 1, "Xu", "Yan", "Zed", "Wes", "Vi", "Una", "--db", db).exit_code == 0
    event_id = drafted_night(cli, db, FOUR)
    events = Night(Store(db))
    bo = events.snapshot(event_id).player(events.player_id(event_id, "Bo"))
    building = EventDeck(events, event_id, "Bo")
    command = shlex.split(building.resume)
    assert command[:5] == ["cmdraft", "event", "deck", str(event_id), f"#{bo.number}"] and bo.number == 2
    assert bo.id != bo.number  # the record's id is not the number players are named by


def test_a_terminal_builder_open_while_the_desk_registers_the_deck_goes_on_from_that_deck_and_says_so(four):  # noqa: F811
    """The rule is the core's builder's (``EventDeck``), so a terminal's follows the desk as a phone's does."""
    db, event_id, _ = four
    events = Night(Store(db))
    building = EventDeck(events, event_id, "Ann", resume=True)
    card = next(iter(building.session.main))
    building.session.remove([(card, 1)])
    building.session.save()  # the builder's own registration: 59 cards
    assert building.session.deck().size == 59 and not building.notices[-1].startswith("a deck was registered")
    assert events.register_deck(event_id, "Ann", auto=True).valid  # the desk, elsewhere
    assert building.session.deck().size == 60
    assert building.notices[-1] == "a deck was registered for 'Ann' elsewhere: this builder now shows that deck"


def test_a_late_sealed_player_gets_a_seat_code_and_joins_from_a_phone_to_build_and_play(four, manual_clock, cli):  # noqa: F811
    """Before: a player added with --sealed after the draft started got no seat code ('event player code' said
    "codes are given at seating", --reset too) and the phone's join answered 409 not-seated, so they could
    build, report and follow the night only at the desk."""
    db, event_id, _ = four
    added = cli("event", "player", "add", event_id, "Late Lou", "--sealed", "--db", db)
    assert added.exit_code == 0 and "'Late Lou' needs a seat code slip" in added.stdout, added.output
    shown = cli("event", "player", "code", event_id, "Late Lou", "--db", db, "--json")
    assert shown.exit_code == 0, shown.stderr
    code = json.loads(shown.stdout)["code"]
    assert json.loads(shown.stdout)["name"] == json.loads(shown.stdout)["player"] == "Late Lou"  # (before: no 'name')
    reset = cli("event", "player", "code", event_id, "Late Lou", "--reset", "--db", db, "--json")
    assert reset.exit_code == 0 and json.loads(reset.stdout)["code"] != code
    code = json.loads(reset.stdout)["code"]
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        lou = phone(app, event_id, "Late Lou", code)
        seat = ok(lou.get("/api/seat"))
        assert seat["phase"] == "building" and seat["draft"] is None and seat["pool_size"] == 120
        assert ok(lou.post("/api/deck", json={"action": "auto"}))["size"] >= 60
        assert ok(lou.post("/api/deck/register", json={}))["registered"]
