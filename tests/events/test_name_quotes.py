"""Messages that name a player quote the name as every other message does (``sets.visible.quoted``): a name with an
apostrophe is not run into a possessive, and one with a control character (an ANSI escape) is written out, never
sent to the terminal.  Before: "O'Neil's pool has 1 cards", "Esc<ESC>[31m's deck adds …", "Bo dropped",
"O'Neil: deck registered", "type Di's seat code when it asks", "Ann sits ahead of Bo …".  The stored names stay
exactly as registered."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from draft.formats import parse
from events.night import games
from events.night.standings import Standing, tie_breaks
from events.sessions.activities import EventDeck
from events.storage.store import Store
from sets.errors import InputError, LimitError, StateError
from sets.visible import quoted
from tests.helpers.night import Night, bots_drafted

APOS, CTRL = "O'Neil", "Esc\x1b[31m"  # quoted: "O'Neil" and 'Esc\x1b[31m'
HOSTILE = (APOS, CTRL)


def says(text: str, name: str) -> bool:
    """``text`` names ``name`` quoted, and holds no raw control character."""
    return quoted(name) in text and "\x1b" not in text


@pytest.fixture
def night(tmp_path):
    """Four players, two of them with hostile names, drafted by bots, each with a legal automatic deck."""
    events = Night(Store(tmp_path / "quotes.json"))
    return events, bots_drafted(events, "Quotes", ["Ann", "Bo", *HOSTILE], seed=3)


@pytest.mark.parametrize("name", HOSTILE)
def test_pool_and_deck_messages_quote_the_player(night, name, cli):
    events, event_id = night
    _, warnings = events.record_pool(event_id, name, parse("1 Arcane Signet\n"), replace=True)
    assert len(warnings) == 2 and all(says(w, name) for w in warnings), warnings
    assert warnings[0].startswith(f"the pool of {quoted(name)} has 1 cards")
    assert warnings[1].startswith(f"the deck registered for {quoted(name)}, checked again against the new pool: not")
    board = cli("event", "show", event_id, "--db", events.store.path).stdout
    assert f"the pool of {quoted(name)} has 1 cards" in board and "\x1b" not in board
    with pytest.raises(InputError, match=r"^the pool of .*: no legal deck") as nothing_to_lead:
        events.register_deck(event_id, name, auto=True)
    with pytest.raises(LimitError) as too_long:
        events.register_deck(event_id, name, parse("1 Arcane Signet\n" * 10_001))
    with pytest.raises(StateError, match="beyond the pool and the store's stock") as beyond_stock:
        events.register_deck(event_id, name, parse("1 The Prismatic Piper\n"), within_stock=True)
    for error in (nothing_to_lead, too_long, beyond_stock):
        assert says(str(error.value), name), error.value
    assert f"the deck of {quoted(name)}" in str(too_long.value) + str(beyond_stock.value)
    assert name in [p.name for p in events.snapshot(event_id).players]  # stored as registered


@pytest.mark.parametrize("name", HOSTILE)
def test_deck_registered_drop_and_undo_messages_quote_the_player(night, name, cli):
    events, event_id = night
    db = events.store.path
    registered = cli("event", "deck", event_id, name, "--auto", "--db", db)
    assert (
        registered.stdout.startswith(f"deck registered for {quoted(name)} (")
        and registered.stdout.rstrip().endswith("): legal")
        and "\x1b" not in registered.stdout
    )
    builder = EventDeck(events.phases[3], event_id, name)
    builder.session.save()
    assert says(builder.notices[-1], name) and builder.notices[-1].startswith(f"deck registered for {quoted(name)} (")
    dropped = cli("event", "player", "drop", event_id, name, "--db", db)
    assert dropped.stdout.strip() == quoted(name) + " dropped"
    undone = cli("event", "undo", event_id, "--json", "--db", db)
    assert undone.exit_code == 0 and json.loads(undone.stdout)["undid"].endswith(
        f"of {quoted(name)}: back in the event"
    )
    events.rename_player(event_id, name, "Renamed")
    assert events.undo(event_id).undid.endswith(f"{quoted('Renamed')} back to {quoted(name)}")
    assert name in [p.name for p in events.snapshot(event_id).players]


@pytest.mark.parametrize("name", HOSTILE)
def test_game_limits_and_tie_breaks_quote_the_player(night, name, monkeypatch):
    events, event_id = night
    events.new_round(event_id)
    mine = events.player_id(event_id, name)
    table = next(n for n, seats in enumerate(events.snapshot(event_id).rounds[0].tables, 1) if mine in seats)
    with pytest.raises(LimitError) as change:
        events.game(event_id, 1, table, life={name: 2_000_000})
    with pytest.raises(LimitError) as damage:
        events.game(event_id, 1, table, damage=[(name, "Ann", "Card", 2_000_000)])
    monkeypatch.setattr(games, "MAX_LIFE", 100)  # a total past the bound, without a million entries
    with pytest.raises(LimitError) as total:
        events.game(event_id, 1, table, life={name: 100})
    assert f"a life change for {quoted(name)}" in str(change.value)
    assert f"commander damage to {quoted(name)}" in str(damage.value)
    assert f"the life total of {quoted(name)}" in str(total.value)
    rows = [
        Standing(0, name, Fraction(4), Fraction(1), Fraction(2), 2, False, 1),
        Standing(0, "Bo", Fraction(4), Fraction(1), None, 2, False, 2),
    ]
    (line,) = tie_breaks(rows, 1)
    assert line.startswith(f"{quoted(name)} takes the last seat ahead of {quoted('Bo')}") and "\x1b" not in line
    assert f"{quoted('Bo')} has no game played" in line


def full_pod(db):
    """A terminal event whose one pod of three is seated full (Ann, Bo, Cy): a player added now has no seat."""
    events = Night(Store(db))
    event_id = events.create("Full", style="terminal", seed=1, pod_size=3)
    for player in ("Ann", "Bo", "Cy"):
        events.add_player(event_id, player)
    events.seat(event_id)
    return events, event_id


@pytest.mark.parametrize("name", HOSTILE)
def test_seating_and_seat_code_messages_quote_the_player(tmp_path, cli, name):
    db = tmp_path / "codes.json"
    events, event_id = full_pod(db)
    added = cli("event", "player", "add", event_id, name, "--db", db)  # every pod is full
    assert says(added.stdout, name) and f"so {quoted(name)} has no seat yet" in added.stdout.replace("\n", " ")
    with pytest.raises(StateError, match="registered after seating") as unseated:
        events.start_draft(event_id)
    assert says(str(unseated.value), name)
    events.seat(event_id, again=True)
    code = cli("event", "player", "code", event_id, name, "--db", db)
    assert code.stdout.startswith(f"seat code of {quoted(name)}: ")
    events.start_draft(event_id)
    left = cli("event", "draft", event_id, "--player", name, "--db", db, input="quit\n")
    assert left.exit_code == 3 and says(left.stderr, name), left.stderr
    assert f"type the seat code of {quoted(name)} when it asks" in left.stderr
    table = cli("event", "table", event_id, "--player", name, "--db", db)
    assert table.stdout.startswith(f"{quoted(name)} has no table yet"), table.output


def test_a_restored_event_is_named_quoted(tmp_path, cli):
    db = tmp_path / "from.json"
    assert cli("event", "new", CTRL, "--db", db).exit_code == 0
    assert cli("event", "export", "1", "--out", tmp_path / "out", "--db", db).exit_code == 0
    (saved,) = (tmp_path / "out").glob("*.json")
    restored = cli("event", "restore", saved, "--db", tmp_path / "to.json")
    assert restored.exit_code == 0 and "event 1 ('Esc\\x1b[31m') from" in restored.stdout, restored.output


def test_two_players_added_to_full_pods_have_no_seat_yet(tmp_path, cli):
    db = tmp_path / "full.json"
    events, event_id = full_pod(db)
    cli("event", "player", "add", event_id, "Di", "--db", db)
    added = cli("event", "player", "add", event_id, "Ed", "--db", db)
    assert "so 'Di' / 'Ed' have no seat yet" in " ".join(added.stdout.split()), added.stdout
    with pytest.raises(StateError, match="'Di' / 'Ed' registered after seating and have no seat"):
        events.start_draft(event_id)
