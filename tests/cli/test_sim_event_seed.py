"""A finished event's export gives each pod's draft `seed` (a 128-bit number from the packs' secret), and the docs
say `cmdraft sim --seed SEED --players N` opens the same boosters: sim takes a seed that long."""

from __future__ import annotations

import json

from draft.engine import Draft, DraftConfig
from events.storage.store import Store


def test_sim_takes_an_event_drafts_seed_and_opens_its_boosters(cli, tmp_path):
    db = tmp_path / "night.json"
    assert cli("event", "new", "Friday", "--style", "bots", "--seed", "2", "--db", db).exit_code == 0
    assert cli("event", "player", "add", "1", "Ann", "Bo", "Cy", "--db", db).exit_code == 0
    assert cli("event", "seat", "1", "--db", db).exit_code == 0
    assert cli("event", "draft", "1", "--db", db).exit_code == 0
    with Store(db).read() as handle:
        (record,) = handle.table("drafts").all()
    seed, seats = record["state"]["seed"], record["state"]["config"]["seats"]
    assert len(str(seed)) > 18  # longer than any number typed elsewhere
    ran = cli("sim", "--seed", str(seed), "--players", str(seats), "--json")
    assert ran.exit_code == 0, ran.stderr  # before: '--seed' has too many digits: at most 18
    report = json.loads(ran.stdout)
    assert report["seed"] == seed
    dealt = Draft.new(DraftConfig(seats=seats), seed).to_json()["boosters"]
    assert dealt == record["state"]["boosters"]  # the event's boosters, as sim opens them from that seed
    too_long = cli("sim", "--seed", "1" * 42, "--players", "3")
    assert too_long.exit_code == 2 and "too many digits" in too_long.stderr
