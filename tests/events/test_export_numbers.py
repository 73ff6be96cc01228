"""An export names each player's files by their number in the event (`#N`, as `event show` and every sheet say
it), on a real database that holds a second night: the second event's player #1 is 001, never the row number the
database gave them (Ann of a second 12-player night was 030 after a night of 29)."""

from __future__ import annotations

from events.storage.store import Store
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
