"""The phone's join form says what the player joins now, in the core's words (``browser_seats.join_heading``, asked
with ``GET /api/join``): their draft while the night has one for them, else their deck (from a sealed pool for a late
player, or once the draft is over), their table in the rounds.  It said "Join your draft" whatever the night was."""

from __future__ import annotations

from events.night.browser_seats import join_heading
from events.storage.store import Store
from tests.helpers.night import Night
from tests.helpers.served import client, drafted_night, served_night

DESK = {"authorization": "Bearer desk-secret"}
SIX = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


def heading(web, event_id, player="") -> str:
    answer = web.get("/api/join", params={"event": event_id, "player": player})
    assert answer.status_code == 200, answer.text
    return answer.json()["heading"]


def test_a_seat_joins_its_draft_and_a_late_sealed_player_their_deck(tmp_path, cli, manual_clock):
    db = tmp_path / "join.json"
    event_id = served_night(cli, db)
    night = Night(Store(db))
    night.add_player(event_id, "Lou", sealed=True)  # the draft has started: a sealed pool, no draft seat
    lou = next(p.number for p in night.snapshot(event_id).players if p.name == "Lou")
    with client(db, event_id, manual_clock, watch=False) as web:
        assert heading(web, event_id, "Ann") == heading(web, event_id) == "Join your draft"
        assert (
            heading(web, event_id, "Lou") == heading(web, event_id, str(lou)) == heading(web, event_id, "#" + str(lou))
        )
        assert heading(web, event_id, "Lou") == "Join to build your deck from your sealed pool"
        assert heading(web, event_id + 1, "Lou") == "Join your draft"  # another event's link: by the night alone
        assert heading(web, event_id, "Nobody") == "Join your draft"


def test_after_the_draft_the_form_names_the_deck_then_the_table_then_the_final_standings(tmp_path, cli, manual_clock):
    db = tmp_path / "rounds.json"
    event_id = drafted_night(cli, db, SIX)
    night = Night(Store(db))
    with client(db, event_id, manual_clock, watch=False) as web:
        assert heading(web, event_id, "Ann") == "Join to build your deck"
        tables = night.new_round(event_id).tables
        assert heading(web, event_id, "Ann") == heading(web, event_id) == "Join your table"
        for table, players in enumerate(tables, start=1):
            night.record_result(event_id, 1, table, " > ".join(f'"{name}"' for name in players))
        assert web.post("/api/desk/finish", json={}, headers=DESK).status_code == 200
        assert heading(web, event_id, "Ann") == "Join to see your table and the final standings"
    assert join_heading(night.snapshot(event_id)) == "Join to see your table and the final standings"


def test_in_a_night_of_two_pods_a_player_whose_pod_is_done_joins_to_build_while_the_other_pod_drafts(
    tmp_path, cli, manual_clock
):
    """The event stays "drafting" until every pod is done: a player of the pod done first was told "Join your
    draft" while building a deck."""
    from tests.helpers.nights import draft_first_pod_by_hint, start, terminal_night

    db = tmp_path / "pods.json"
    event_id = terminal_night(cli, db, *[f"P{n}" for n in range(1, 10)], bots=0, timer=0)
    start(cli, db, event_id)
    done = draft_first_pod_by_hint(db, event_id)
    snap = Night(Store(db)).snapshot(event_id)
    builder = next(p.name for p in snap.players if p.pod == done.number)
    drafter = next(p.name for p in snap.players if p.pod is not None and p.pod != done.number)
    with client(db, event_id, manual_clock, watch=False) as web:
        assert heading(web, event_id, builder) == "Join to build your deck"
        assert heading(web, event_id, drafter) == heading(web, event_id) == "Join your draft"
