"""The terminal desk hands a seat to a bot and back (store-night.md: "the desk hands a seat to a bot and back"; the
desk page's "To a bot" and "Back to player"), on a real database: a player who steps away mid-draft no longer holds
up their pod, and has the seat back on their return; before the draft there is no live seat to hand (3)."""

from __future__ import annotations

import json

from events.storage.store import Store
from tests.helpers.night import Night

EXIT_STATE = 3


def seat_humans(night: Night, event_id: int) -> set[int]:
    return set(night.draft_session(event_id, 1).humans)


def test_the_desk_hands_a_seat_to_a_bot_and_back_at_the_terminal(tmp_path, cli):
    night = Night(Store(tmp_path / "friday.json"))
    event_id = night.create("Friday", style="terminal", seed=5)
    for name in ("Ann", "Bo", "Cy"):
        night.add_player(event_id, name)
    night.seat(event_id)
    db = str(night.store.path)
    early = cli("event", "player", "bot", event_id, "Bo", "--db", db)
    assert early.exit_code == EXIT_STATE and "'Bo' has no seat in a live draft" in early.stderr
    night.start_draft(event_id)
    seat = night.player(event_id, "Bo").seat
    assert seat in seat_humans(night, event_id)

    away = cli("event", "player", "bot", event_id, "Bo", "--db", db)
    assert away.exit_code == 0, away.output
    said = " ".join(away.stdout.split())
    assert f"a bot picks for 'Bo' now; 'cmdraft event player bot {event_id} Bo --back' gives it back" in said
    assert seat not in seat_humans(night, event_id)
    assert night.history(event_id)[-1].what == "seat to a bot"

    again = cli("event", "player", "bot", event_id, "Bo", "--db", db, "--json")
    # named 'name' as every player is, 'player' kept (before: 'player' only)
    assert json.loads(again.stdout) == {"name": "Bo", "player": "Bo", "bot": True, "changed": False}

    back = cli("event", "player", "bot", event_id, "#2", "--back", "--db", db)
    assert back.exit_code == 0 and "'Bo' has the seat back" in back.stdout
    assert seat in seat_humans(night, event_id)


def test_a_player_whose_seat_a_bot_has_is_told_so_at_their_terminal_in_the_phones_words(tmp_path, cli):
    """Before: Bo, his seat handed to a bot by the desk, ran his terminal and read "Waiting for: Ann" (the player
    upstream of his seat) as if his pick were to come, where his phone said a bot picks for his seat."""
    night = Night(Store(tmp_path / "friday.json"))
    event_id = night.create("Friday", style="terminal", seed=5)
    for name in ("Ann", "Bo", "Cy"):
        night.add_player(event_id, name)
    night.seat(event_id)
    night.start_draft(event_id)
    db = str(night.store.path)
    assert cli("event", "player", "bot", event_id, "Bo", "--db", db).exit_code == 0
    terminal = cli("event", "draft", event_id, "--player", "Bo", "--db", db, input="quit\n")
    assert terminal.exit_code == 0, terminal.output
    said = " ".join(terminal.stdout.split())
    # the phone's waiting line for this seat (``pack_wait_words`` with a bot on it)
    assert (
        "A bot picks for your seat now (the desk dropped the player or handed the seat to a bot): ask the desk." in said
    )
    assert "Waiting for:" not in said
