"""An export made before `event finish` holds no secret of a running event: not the packs' secret, not the
boosters of a draft still being picked (nor its draft file and logs), not the seat codes.  After `finish`
it holds them all and the drafts replay."""

from __future__ import annotations

import json
import re

from draft.engine import Draft
from events.storage.store import Store
from tests.helpers.night import Night, bots_drafted
from tests.helpers.nights import codes_of, start, terminal_night


def booster_texts(db, event_id: int) -> list[str]:
    """Each booster of the event's drafts as it is written in JSON (its cards' rows), from the database itself."""
    with Store(db).read() as handle:
        drafts = [d for d in handle.table("drafts").all() if d.get("event") == event_id]
    return [
        json.dumps(b["cards"], separators=(",", ":")) for d in drafts for seat in d["state"]["boosters"] for b in seat
    ]


def exported_text(folder) -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(folder.rglob("*")) if path.is_file())


def test_an_export_of_a_running_terminal_draft_leaves_out_its_boosters_and_the_seat_codes(tmp_path, cli):
    db = tmp_path / "night.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", "Cy", bots=1)
    start(cli, db, event_id)
    night = Night(Store(db))
    session = night.draft_session(event_id, 1)
    for seat in session.waiting_humans():
        session.pick(session.suggested_pick(seat))
    codes = codes_of(db, event_id)
    boosters = booster_texts(db, event_id)
    assert len(boosters) == 4 * 3 and all(len(text) > 50 for text in boosters)
    out = tmp_path / "running"
    result = cli("event", "export", event_id, "--out", out, "--db", db)
    assert result.exit_code == 0, result.output
    assert "pod 1 is still drafting" in " ".join(result.output.split())
    text = exported_text(out)
    assert [code for code in codes.values() if code in text] == []
    assert [b for b in boosters if b in text] == []
    assert not (out / "pod1-draft.json").exists() and not list(out.glob("*draft*.txt"))
    data = json.loads((out / "database.json").read_text())
    assert all("code" not in player for player in data["players"].values())
    assert "secret" not in data["events"][str(event_id)]
    (draft,) = data["drafts"].values()
    assert draft["state"]["boosters"] == [] and draft["state"]["seed"] is None and draft["withheld"] is True
    assert len(draft["picks"]) == len(night.draft_session(event_id, 1).draft.log)  # the picks themselves stay


def test_after_finish_the_export_is_complete_and_its_drafts_replay(tmp_path, cli):
    db = tmp_path / "done.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2)
    start(cli, db, event_id)
    night = Night(Store(db))
    session = night.draft_session(event_id, 1)
    while not session.draft.finished:
        for seat in session.waiting_humans():
            session.pick(session.suggested_pick(seat))
    night.after_picks(event_id, 1, session)
    codes = codes_of(db, event_id)
    boosters = booster_texts(db, event_id)
    drafted = tmp_path / "drafted"
    assert cli("event", "export", event_id, "--out", drafted, "--db", db).exit_code == 0
    # the draft is over (every card is in a pool): its boosters may go, its codes and secret not yet
    assert all(b in exported_text(drafted) for b in boosters)
    assert [code for code in codes.values() if code in exported_text(drafted)] == []
    assert cli("event", "finish", event_id, "--db", db).exit_code == 0
    done = tmp_path / "finished"
    assert cli("event", "export", event_id, "--out", done, "--db", db).exit_code == 0
    data = json.loads((done / "database.json").read_text())
    assert {p["name"]: p.get("code") for p in data["players"].values() if not p["bot"]} == codes
    assert data["events"][str(event_id)]["secret"] is not None
    (draft,) = data["drafts"].values()
    assert not draft.get("withheld") and draft["state"]["seed"] is not None
    replay = json.loads((done / "pod1-draft.json").read_text())
    replayed = Draft.from_json(replay)
    assert replayed.finished and [[p.seat, *p.positions] for p in replayed.log] == draft["picks"]
    assert re.search(r'"seed":\d+', (done / "pod1-draft.json").read_text())


def test_a_late_sealed_pool_in_an_event_restored_from_a_running_export_comes_from_a_new_secret(tmp_path, cli):
    """Before: restored elsewhere from an export made mid-draft (which holds no packs' secret), a late player's
    sealed pool was opened from the event's visible seed (``secret or seed``): anyone who read the seed could work
    the pool out before it was opened.  The event is given a secret of its own then."""
    import random

    from sets.booster import booster_spec, sealed_pool

    db = tmp_path / "night.json"
    event_id = bots_drafted(Night(Store(db)), "Week 2", ["Ann", "Bo", "Cy", "Di"], seed=3)  # decks registered
    out = tmp_path / "running"
    assert cli("event", "export", event_id, "--out", out, "--db", db).exit_code == 0
    elsewhere = tmp_path / "elsewhere.json"
    assert cli("event", "restore", out / "database.json", "--db", elsewhere).exit_code == 0
    night = Night(Store(elsewhere))
    (restored,) = [e.id for e in night.list_events()]
    assert night.snapshot(restored).event.secret is None
    added = cli("event", "player", "add", restored, "Late", "--sealed", "--db", elsewhere)
    assert added.exit_code == 0, added.output
    event = night.snapshot(restored).event
    assert event.secret is not None
    number = next(p.number for p in night.snapshot(restored).players if p.name == "Late")
    from_seed = sealed_pool(booster_spec("CMR"), random.Random(event.seed * 7919 + number), 6)
    seed_cards = sorted(f"{p.card.name}" for b in from_seed for p in b.printings)
    assert sorted(card.name for card in night.pool(restored, "Late")) != seed_cards
    assert len(night.pool(restored, "Late")) == 120
