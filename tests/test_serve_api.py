"""``cmdraft serve``'s JSON API and stream, in-process (Starlette's TestClient with WebSockets) over real
TinyDB files, on the tests' clock: joining with seat codes, picking from browsers beside a terminal player and
bots, stale and forged picks, reconnects, timeouts, a restarted server, the desk, and hostile requests."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from events.night.decks import Decks
from events.night.seat_codes import check_code
from events.sessions.activities import EventDeck
from events.sessions.seat import SeatSession, Taken
from events.storage.store import Store
from events.web.app import create_app
from tests.night import Night
from tests.test_terminal_draft_integrity import codes_of, start, terminal_night

ORIGIN = {"origin": "http://testserver"}


def served_night(cli, db: Path, humans=("Ann", "Bo", "Cy", "Dee"), bots: int = 4, timer: int = 0) -> int:
    """A terminal event with seat codes, seated and drafting."""
    event_id = terminal_night(cli, db, *humans, bots=bots, timer=timer)
    start(cli, db, event_id)
    return event_id


def client(db: Path, event_id: int, clock, **options) -> TestClient:
    app = create_app(db, event_id, clock=clock.monotonic, wall=clock.now, desk_token="desk-secret", **options)
    return TestClient(app, headers=ORIGIN)


def joined(web: TestClient, event_id: int, name: str, code: str) -> dict:
    answer = web.post("/api/join", json={"event": event_id, "player": name, "code": code})
    assert answer.status_code == 200, answer.text
    return answer.json()


class Phone:
    """A script's view of one seat: its bearer token on every request (no cookie)."""

    def __init__(self, web: TestClient, token: str) -> None:
        self.web, self.auth = web, {"authorization": f"Bearer {token}"}
        self.token = token

    def get(self, path: str, **options):
        return self.web.get(path, headers=self.auth, **options)

    def post(self, path: str, body, **options):
        return self.web.post(path, json=body, headers=self.auth, **options)

    def seat(self) -> dict:
        answer = self.get("/api/seat")
        assert answer.status_code == 200, answer.text
        return answer.json()

    def pick_first(self) -> bool:
        """Take the first cards of the pack in front of the seat, if there is one; whether a pick was made."""
        draft = self.seat()["draft"]
        if not draft["cards"]:
            return False
        answer = self.post(
            "/api/pick", {"pack": draft["pack"], "pick": draft["pick"], "cards": list(range(draft["take"]))}
        )
        assert answer.status_code == 200, answer.text
        return True


def phone(web: TestClient, event_id: int, name: str, code: str) -> Phone:
    token = joined(web, event_id, name, code)["token"]
    web.cookies.clear()
    return Phone(web, token)


def test_a_player_joins_with_the_seat_code_sees_the_pack_and_picks(tmp_path, cli, manual_clock):
    db = tmp_path / "slice.json"
    event_id = served_night(cli, db)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock) as web:
        seat = joined(web, event_id, "Ann", codes["Ann"])["seat"]
        assert seat["player"]["name"] == "Ann" and seat["phase"] == "drafting"
        draft = seat["draft"]
        assert (draft["pack"], draft["pick"], draft["take"]) == (1, 1, 2) and len(draft["cards"]) == 20
        assert web.get("/api/seat").json() == {**seat, "server_time": manual_clock.now()}
        with web.websocket_connect("/api/stream") as stream:
            assert stream.receive_json()["seat"]["draft"]["cards"] == draft["cards"]
            after = web.post("/api/pick", json={"pack": 1, "pick": 1, "cards": [0, 1]})
            assert after.status_code == 200, after.text
            state = after.json()
            assert [c["name"] for c in state["pool"]] == [c["name"] for c in draft["cards"][:2]]
            assert state["draft"]["cards"] == [] and state["draft"]["waiting_for"] == 3  # Bo, Cy, Dee still pick
            assert stream.receive_json()["seat"]["pool"] == state["pool"]
    taken = Night(Store(db)).draft_session(event_id, 1).draft.pools
    assert any([p.name for p in pool] == [c["name"] for c in draft["cards"][:2]] for pool in taken)


def test_a_wrong_code_is_refused_counted_and_the_seat_locks_after_five(tmp_path, cli, manual_clock):
    db = tmp_path / "codes.json"
    event_id = served_night(cli, db)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock) as web:
        for left in (4, 3, 2, 1):
            answer = web.post("/api/join", json={"event": event_id, "player": "Bo", "code": "WRONG1"})
            assert answer.status_code == 401 and answer.json()["error"]["code"] == "wrong-code"
            assert f"{left} tr" in answer.json()["error"]["message"]
        answer = web.post("/api/join", json={"event": event_id, "player": "Bo", "code": "WRONG1"})
        assert answer.status_code == 423
        answer = web.post("/api/join", json={"event": event_id, "player": "Bo", "code": codes["Bo"]})
        assert answer.status_code == 423  # even the right code: only the desk opens the seat again
        assert sum(manual_clock.slept) == 0  # the server never sleeps on a wrong code
    history = Night(Store(db)).history(event_id)
    assert sum(1 for e in history if e["what"] == "wrong seat code" and e["who"] == "browser Bo") == 5


def terminal_seat(db: Path, event_id: int, name: str) -> tuple:
    """The terminal player's seat as a terminal holds it: the code given, the seat claimed with the terminal's
    token (``event draft --player`` does exactly this), a ``SeatSession`` per pick."""
    events = Night(Store(db))
    player = events.player(event_id, name)
    assert check_code(events, event_id, player.id, codes_of(db, event_id)[name], delay=0)
    session = events.draft_session(event_id, player.pod)
    seat = list(next(p for p in events.snapshot(event_id).pods if p.number == player.pod).players).index(player.id)
    token = "terminal-token-of-" + name
    session.claim(seat, token)
    return events, session, seat, token


def terminal_picks(events, event_id: int, session, seat: int, token: str) -> int:
    """Every pick due at the terminal now, the hint's cards each time; how many."""
    made = 0
    session.refresh()
    while seat in session.waiting_humans():
        held = SeatSession(session, seat, token=token)
        held.show()
        assert isinstance(held.pick(session.suggested_positions(seat)), Taken)
        events.after_picks(event_id, 1, session)
        made += 1
    return made


def test_three_browsers_a_terminal_and_four_bots_draft_a_pod_to_registered_decks(tmp_path, cli, manual_clock):
    db = tmp_path / "mixed.json"
    event_id = served_night(cli, db)
    codes = codes_of(db, event_id)
    events, session, dee_seat, dee_token = terminal_seat(db, event_id, "Dee")
    with client(db, event_id, manual_clock, watch=False) as web:
        phones = {name: phone(web, event_id, name, codes[name]) for name in ("Ann", "Bo", "Cy")}
        picks = {name: 0 for name in phones}
        terminal = 0
        for _ in range(200):
            progressed = False
            manual_clock.advance(1)  # a person takes a moment per pick (the rate limit allows 20 requests a second)
            for name, each in phones.items():
                if each.pick_first():
                    picks[name] += 1
                    progressed = True
            made = terminal_picks(events, event_id, session, dee_seat, dee_token)
            terminal += made
            if not progressed and not made:
                break
        # 3 packs of 20 cards, two taken a pick: 10 picks a pack, 30 in all, at every seat
        assert picks == {"Ann": 30, "Bo": 30, "Cy": 30} and terminal == 30
        for each in phones.values():
            state = each.seat()
            assert state["phase"] == "building" and len(state["pool"]) == 60 and state["draft"]["done"]
        assert Night(Store(db)).event(event_id).status == "building"
        for each in phones.values():
            deck = each.post("/api/deck", {"action": "auto"})
            assert deck.status_code == 200, deck.text
            assert deck.json()["size"] == 60 and deck.json()["commanders"]
            registered = each.post("/api/deck/register", {})
            assert registered.status_code == 200, registered.text
            assert registered.json()["registered"] and registered.json()["deck"]["registered"]
            assert each.seat()["phase"] == "registered"
        exported = phones["Ann"].get("/api/export/deck", params={"format": "json"})
        assert exported.status_code == 200 and "attachment" in exported.headers["content-disposition"]
    dee = EventDeck(Decks(Store(db)), event_id, "Dee")
    dee.session.replace(True)
    dee.session.save()
    snap = Night(Store(db)).snapshot(event_id)
    decks = {p.name: p.deck for p in snap.players if not p.bot}
    assert all(deck is not None for deck in decks.values())
    by = {e["new"].partition(":")[0]: e["who"] for e in Night(Store(db)).history(event_id) if e["what"] == "deck"}
    assert by["Ann"] == "browser Ann" and by["Dee"].startswith("terminal Dee")
    # the browser's registration is 'event deck''s: the same file registered at the desk gives the same record
    ann_id = next(p.id for p in snap.players if p.name == "Ann")
    with Store(db).read() as handle:
        before = [dict(d) for d in handle.table("decks").all() if d["player"] == ann_id]
    deck_file = tmp_path / "ann.json"
    deck_file.write_text(exported.text, encoding="utf-8")
    again = cli("event", "deck", event_id, "Ann", deck_file, "--db", db, "--json")
    assert again.exit_code in (0, 1), again.output
    with Store(db).read() as handle:
        after = [dict(d) for d in handle.table("decks").all() if d["player"] == ann_id]
    assert [{k: v for k, v in d.items() if k != "at"} for d in after] == [
        {k: v for k, v in d.items() if k != "at"} for d in before
    ]
