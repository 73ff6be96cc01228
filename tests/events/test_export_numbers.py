"""An export names each player's files by their number in the event (`#N`, as `event show` and every sheet say
it), on a real database that holds a second night: the second event's player #1 is 001, never the row number the
database gave them (Ann of a second 12-player night was 030 after a night of 29)."""

from __future__ import annotations

import re

import pytest

from events.night.decks import Decks
from events.storage.store import Store
from sets.errors import StateError
from tests.helpers.night import Night, bots_drafted


def test_the_second_events_export_names_player_1s_files_001_not_their_database_row(tmp_path, cli):
    night = Night(Store(tmp_path / "store.json"))
    bots_drafted(night, "Friday", [f"Player {n}" for n in range(1, 7)], seed=3)
    second = bots_drafted(night, "Saturday", ["Ann", "Bo", "Cy", "Di"], seed=4)
    assert night.player(second, "Ann").id == 7 and "#1" in cli("event", "show", second, "--db", night.store.path).stdout
    out = tmp_path / "saturday"
    assert cli("event", "export", second, "--out", out, "--db", night.store.path).exit_code == 0
    files = {path.name for path in out.iterdir()}
    for stem in ("001-Ann", "002-Bo", "003-Cy", "004-Di"):
        assert {f"{stem}-pool.txt", f"{stem}-deck.txt"} <= files, stem
    assert not any(name.startswith("007-") for name in files)


def test_a_pool_or_deck_holding_a_card_no_set_here_has_now_is_said_left_out_and_the_rest_exported(tmp_path, cli):
    """The export read each pool under a bare ``except Exception`` and wrote an empty pool file for one it could not
    read (a card its set no longer has: the set's file imported again without it), and a deck without such a card,
    each without a word."""
    night = Night(Store(tmp_path / "store.json"))
    event_id = bots_drafted(night, "Friday", ["Ann", "Bo", "Cy", "Di"], seed=4)
    bo, cy = night.player(event_id, "Bo").id, night.player(event_id, "Cy").id
    with night.store.write() as db:
        pool = db.table("pools").get(lambda row: row["player"] == bo)
        db.table("pools").update({"cards": [*pool["cards"], "CMR:9999"]}, doc_ids=[pool.doc_id])
        deck = db.table("decks").get(lambda row: row["player"] == cy)
        main = [*deck["deck"]["main"], {"name": "Nonexistent Card", "count": 1, "set": "CMR", "number": "9998"}]
        db.table("decks").update({"deck": {**deck["deck"], "main": main}}, doc_ids=[deck.doc_id])
    out = tmp_path / "friday"
    done = cli("event", "export", event_id, "--out", out, "--db", night.store.path)
    assert done.exit_code == 0
    said = " ".join(done.output.split())
    assert (
        "the pool of 'Bo' is left out of the files: no set here has its card 'CMR #9999'; database.json keeps it"
        in said
    ), done.output
    assert "the deck of 'Cy' is left out of the files: no set here has its card 'Nonexistent Card'" in said, done.output
    files = {path.name for path in out.iterdir()}
    assert {"001-Ann-pool.txt", "002-Bo-deck.txt", "002-Bo-draftlog.txt", "003-Cy-pool.txt"} <= files
    assert "002-Bo-pool.txt" not in files and "003-Cy-deck.txt" not in files and "database.json" in files


def test_a_registered_deck_holding_a_card_no_set_here_has_is_refused_by_the_core_and_printed_with_a_note(tmp_path, cli):
    """Only the export said so: the phone's builder opened the deck without the card (registering there stored it
    so), and the printed decklist left it out, without a word."""
    night = Night(Store(tmp_path / "store.json"))
    event_id = bots_drafted(night, "Friday", ["Ann", "Bo", "Cy", "Di"], seed=4)
    cy = night.player(event_id, "Cy").id
    with night.store.write() as db:
        deck = db.table("decks").get(lambda row: row["player"] == cy)
        main = [*deck["deck"]["main"], {"name": "Nonexistent Card", "count": 1, "set": "CMR", "number": "9998"}]
        db.table("decks").update({"deck": {**deck["deck"], "main": main}}, doc_ids=[deck.doc_id])
    stored = night.store.path.read_bytes()
    words = "the registered deck holds a card no set here has now ('Nonexistent Card'): import the set's file"
    with pytest.raises(StateError, match=re.escape(words)):
        Decks(night.store).deck_of(event_id, cy)  # the one owner: every face that shows or builds on it asks this
    printed = cli("event", "print", event_id, "decklists", "--db", night.store.path)
    assert printed.exit_code == 0 and words in " ".join(printed.output.split()), printed.output
    assert night.store.path.read_bytes() == stored  # nothing saved over the deck
