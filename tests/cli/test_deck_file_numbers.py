"""A collector number a deck file gives that can't be kept (a line break, a ')', more than the 20 characters a
registered deck keeps) is no printing: ``event deck`` registers the deck with the card's own printing, and
``event export`` writes no line the number made up."""

from __future__ import annotations

import json

import pytest

from draft.formats import FileFormat, write
from events.storage.store import Store
from tests.helpers.night import Night, bots_drafted


@pytest.mark.parametrize(
    "number", ["C21-263-EXTENDEDARTXYZ-1", "1\n1 Black Lotus"], ids=["24-characters", "line-break"]
)
def test_event_deck_registers_a_deck_whose_file_gives_a_number_it_cannot_keep(tmp_path, cli, number):
    """A 24-character number ended ``event deck`` in a msgspec.ValidationError traceback (exit 1); a line break
    in one wrote a ``1 Black Lotus`` line into the exported deck."""
    night = Night(Store(tmp_path / "store.json"))
    event_id = bots_drafted(night, "Friday", ["Ann", "Bo", "Cy", "Di"], seed=4)
    deck = night.deck_of(event_id, night.player(event_id, "Ann").id)
    assert deck is not None
    data = json.loads(write(deck, FileFormat.JSON))
    changed = next(
        line for line in data["main"] if line["name"] not in ("Plains", "Island", "Swamp", "Mountain", "Forest")
    )
    changed.update({"set": "CMR", "number": number})
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = cli("event", "deck", event_id, "Ann", path, "--db", night.store.path)
    assert done.exit_code == 0, done.output
    assert "Traceback" not in done.output and "ValidationError" not in done.output
    assert done.output.startswith("deck registered for 'Ann' (") and done.output.endswith("60 cards): legal\n")
    assert done.output.count("\n") == 1  # one line: the deck legal
    out = tmp_path / "friday"
    assert cli("event", "export", event_id, "--out", out, "--db", night.store.path).exit_code == 0
    exported = "".join(path.read_text(encoding="utf-8") for path in out.glob("001-Ann-deck*"))
    assert "Black Lotus" not in exported and "EXTENDEDART" not in exported
    assert changed["name"] in exported
