"""``--json`` keeps names and cards exactly as stored, but its prose fields (warnings, offers, problems' messages,
notes, ties) are words for people: the names and paths in them are written out as every face shows them
(``sets.visible.visible``), as ``event undo --json`` already did.  JSON escapes a tab, a newline or an escape
character, but it leaves a right-to-left override (U+202E) as it is, which turns the rest of the line around on a
terminal.  Before: a planted name or path reached these fields as it was."""

from __future__ import annotations

import json

from draft.formats import parse
from events.night.table_reports import FinalTable
from events.storage.store import Store
from sets.visible import visible
from tests.helpers.night import Night
from tests.helpers.nights import physical_event

HOSTILE = "Evil\u202eName\t\n\x1b[31m"  # a bidi override, a tab, a newline and an ANSI escape
WRITTEN = visible(HOSTILE)  # Evil\u202eName\x09\x0a\x1b[31m


def escaped(text: str) -> bool:
    """``text`` holds the hostile name written out, and none of its characters as they are."""
    return WRITTEN in text and not any(ch in text for ch in "\u202e\t\n\x1b")


def planted(events: Night, player_id: int) -> None:
    """The player's stored name made hostile, as an older file or a hand edit could hold it (registration cleans
    what is typed; what is stored is shown as it is)."""
    with events.store.write() as handle:
        handle.table("players").update({"name": HOSTILE}, doc_ids=[player_id])


def test_pool_warnings_in_json_write_the_name_out(tmp_path, cli):
    db = tmp_path / "pool.json"
    events = Night(Store(db))
    event_id = physical_event(events, ("Ann", "Bo"))
    planted(events, events.player_id(event_id, "Bo"))
    pool = tmp_path / "pool.txt"
    pool.write_text("1 Arcane Signet\n", encoding="utf-8")
    recorded = cli("event", "pool", event_id, "#2", pool, "--json", "--db", db)
    (warning,) = json.loads(recorded.stdout)["warnings"]
    assert recorded.exit_code == 0 and escaped(warning), warning
    assert HOSTILE in [p.name for p in events.snapshot(event_id).players]  # the stored name is unchanged


def test_the_late_seat_offer_in_json_writes_the_name_out(tmp_path, cli):
    db = tmp_path / "offer.json"
    events = Night(Store(db))
    event_id = physical_event(events, ("Ann", "Bo", "Cy"), pod_size=3)
    events.add_player(event_id, "Zed")  # every pod is full: no seat
    planted(events, events.player_id(event_id, "Zed"))
    added = cli("event", "player", "add", event_id, "Late", "--json", "--db", db)
    offer = json.loads(added.stdout)["offer"]
    assert added.exit_code == 0 and escaped(offer), offer


def test_deck_problems_in_json_are_written_out_and_the_cards_kept(tmp_path, cli):
    db = tmp_path / "deck.json"
    events = Night(Store(db))
    event_id = physical_event(events, ("Ann", "Bo"))
    for name in ("Ann", "Bo"):
        events.record_pool(event_id, name, parse("1 Arcane Signet\n"))
    events.register_deck(event_id, "Ann", parse("1 Arcane Signet\n"))
    with events.store.write() as handle:  # a stored problem naming a hostile card, as a hand edit could leave it
        decks = handle.table("decks")
        (deck,) = decks.all()
        decks.update(
            {"problems": [{"code": "unknown-card", "message": HOSTILE, "cards": [HOSTILE]}]}, doc_ids=[deck.doc_id]
        )
    for args in (("event", "show", event_id), ("event", "deck", event_id)):
        shown = json.loads(cli(*args, "--json", "--db", db).stdout)
        players = shown["players"] if isinstance(shown, dict) else shown
        (problem,) = next(p["deck"]["problems"] for p in players if p["name"] == "Ann")
        assert escaped(problem["message"]) and problem["cards"] == [HOSTILE], args
    deck_file = tmp_path / "hostile.json"
    deck_file.write_text(json.dumps({"main": [{"name": HOSTILE}]}), encoding="utf-8")
    checked = json.loads(cli("deck", "check", deck_file, "--json").stdout)
    unknown = next(p for p in checked["problems"] if p["code"] == "unknown-card")
    assert escaped(unknown["message"]) and unknown["cards"] == [HOSTILE]


def test_card_import_problems_in_json_write_the_files_path_out(tmp_path, cli):
    """The problems name the file as given: a path may hold any of these characters."""
    folder = tmp_path / HOSTILE
    folder.mkdir()
    card_file = folder / "set.json"
    card = {"name": "Plains", "number": "1", "type": "Basic Land — Plains", "rarity": "common", "colorIdentity": []}
    card_file.write_text(json.dumps({"data": {"code": "ZZQ", "name": "Zed", "cards": [card, {}]}}), encoding="utf-8")
    imported = cli("sets", "import", card_file, "--json")
    assert imported.exit_code == 0, imported.output
    (problem,) = json.loads(imported.stdout)["problems"]
    assert escaped(problem) and "a card entry without a name was skipped" in problem


def test_final_table_ties_in_json_are_written_out_and_the_names_kept():
    final = FinalTable(round=3, players=[HOSTILE, "Bo"], ranks=[1, 2], first=HOSTILE, ties=[f"{HOSTILE} sits ahead"])
    shown = final.to_json()
    assert escaped(shown["ties"][0]) and shown["players"][0] == shown["first"] == HOSTILE
