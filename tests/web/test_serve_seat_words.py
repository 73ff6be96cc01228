"""What ``cmdraft serve`` tells a phone about its own seat, in-process (Starlette's TestClient): why a seat is
held no more (opened on another device, or a new code from the desk), and that a bot picks for it (while the draft
goes on, not after)."""

from __future__ import annotations

from events.night.drafting import WAITING_FOR_START
from events.storage.store import Store
from tests.helpers.night import Night
from tests.helpers.nights import codes_of, draft_first_pod_by_hint, draft_to_the_end, terminal_night
from tests.helpers.served import client, phone, served_night

OPENED_ELSEWHERE = (
    "your seat was opened on another device or terminal: give your seat code again to take it back, or ask the desk"
)
NEW_CODE = "the desk gave your seat a new code: ask the desk for it, then give it again"


def test_a_phone_whose_seat_was_opened_elsewhere_or_given_a_new_code_is_told_which(tmp_path, cli, manual_clock):
    db = tmp_path / "moved.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        first = phone(web, event_id, "Ann", codes["Ann"])
        second = phone(web, event_id, "Ann", codes["Ann"])  # the same code typed on another device
        lost = first.get("/api/seat")
        assert lost.status_code == 401 and lost.json()["error"] == {
            "code": "no-seat",
            "message": OPENED_ELSEWHERE,
        }
        assert second.get("/api/seat").status_code == 200
        player = second.seat()["player"]["number"]
        desk = {"authorization": "Bearer desk-secret"}
        assert web.post("/api/desk/reset-code", json={"player": player}, headers=desk).status_code == 200
        reset = second.get("/api/seat")
        assert reset.status_code == 401 and reset.json()["error"]["message"] == NEW_CODE
        assert web.get("/api/seat").json()["error"]["message"] == "join with your seat code first"  # never joined


def test_the_note_that_a_bot_picks_for_the_seat_ends_with_the_draft(tmp_path, cli, manual_clock):
    db = tmp_path / "handed.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        number = ann.seat()["player"]["number"]
        desk = {"authorization": "Bearer desk-secret"}
        assert web.post("/api/desk/bot", json={"player": number, "bot": True}, headers=desk).status_code == 200
        handed = ann.seat()
        assert handed["draft"]["bot"] and handed["connection_note"] == "the desk handed your seat to a bot for now"
        draft_to_the_end(db, event_id)
        built = ann.seat()
        assert built["phase"] == "building" and built["connection_note"] is None  # the builder: nothing to say


def test_a_phone_with_a_pool_while_others_draft_is_told_its_own_case(tmp_path, cli, manual_clock):
    """Before: a player added late with a sealed pool (no pod) was told "Your pod has drafted" on their page; the
    words are now the core's, for each case: the pod's drafted, or the sealed pool opened for a late player."""
    db = tmp_path / "late.json"
    event_id = served_night(cli, db, humans=[f"P{n}" for n in range(1, 10)], bots=0)  # two pods: 5 and 4
    night = Night(Store(db))
    pod = draft_first_pod_by_hint(db, event_id)
    names = {p.number: p.name for p in night.players(event_id)}
    drafted, drafting = names[pod.players[0]], names[night.snapshot(event_id).pods[1].players[0]]
    added = cli("event", "player", "add", event_id, "Late Lou", "--sealed", "--db", db)
    assert added.exit_code == 0, added.output
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        lou = phone(web, event_id, "Late Lou", codes["Late Lou"]).seat()
        assert lou["phase"] == "building" and lou["pool_size"] > 0
        assert "Your pod" not in lou["waiting"] and "sealed pool" in lou["waiting"], lou["waiting"]
        assert "once every pod has drafted" in lou["waiting"]
        done = phone(web, event_id, drafted, codes[drafted]).seat()
        assert done["waiting"].startswith("Your pod has drafted; other pods are still drafting.")
        assert phone(web, event_id, drafting, codes[drafting]).seat()["waiting"] is None  # still picking


def test_a_seat_before_the_draft_waits_for_the_desks_start_in_the_terminals_words(tmp_path, cli, manual_clock):
    """Before: the phone's page said "Waiting for the draft to start" in its own words, the terminal "waiting for
    the desk to start the draft"."""
    db = tmp_path / "early.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=6)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        seat = phone(web, event_id, "Ann", codes["Ann"]).seat()
    assert seat["phase"] == "waiting-draft" and seat["waiting"] == "Waiting for the desk to start the draft."
    terminal = cli("event", "draft", event_id, "--player", "Bo", "--db", db, input=f"{codes['Bo']}\nquit\n")
    assert f"Bo: {WAITING_FOR_START}" in terminal.stdout, terminal.output


def test_a_terminal_whose_seat_moved_is_refused_in_the_phones_words_for_each_cause(tmp_path, cli, manual_clock):
    """One refusal, the same words on every face: a terminal's pick after its seat's code was given on a phone is
    refused as the phone is told when a terminal took its seat; after the desk's new code, as the phone is told."""
    from events.night.refusals import NotYourSeat
    from events.sessions.seat import SeatSession

    db = tmp_path / "moved.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    night = Night(Store(db))
    ann = night.player_id(event_id, "Ann")
    pod = next(pod for pod in night.snapshot(event_id).pods if ann in pod.players)
    seat = pod.players.index(ann)

    def terminal_pick() -> str:
        held = SeatSession(night.draft_session(event_id, pod.number), seat, token="the terminal's token")
        try:
            held.pick(list(range(held.due)))
        except NotYourSeat as refusal:
            return str(refusal)
        raise AssertionError("the terminal's pick was taken")

    night.draft_session(event_id, pod.number).claim(seat, "the terminal's token")
    with client(db, event_id, manual_clock, watch=False) as web:
        on_phone = phone(web, event_id, "Ann", codes_of(db, event_id)["Ann"])  # the code typed on a phone: it moves
        assert terminal_pick() == OPENED_ELSEWHERE
        player = on_phone.seat()["player"]["number"]
        desk = {"authorization": "Bearer desk-secret"}
        assert web.post("/api/desk/reset-code", json={"player": player}, headers=desk).status_code == 200
        assert terminal_pick() == NEW_CODE
