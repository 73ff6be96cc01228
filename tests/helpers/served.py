"""``cmdraft serve``'s app in-process (Starlette's TestClient) over a real database: a night seated and drafting,
phones joined with their seat codes, and the draft's log read back."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from events.storage.store import Store
from events.web.app import create_app
from events.web.settings import WebSettings
from tests.helpers.night import Night
from tests.helpers.nights import draft_to_the_end, start, terminal_night

NIGHT_NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu", "Mo"]


ORIGIN = {"origin": "http://testserver"}


def served_night(cli, db: Path, humans=("Ann", "Bo", "Cy", "Dee"), bots: int = 4, timer: int = 0) -> int:
    """A terminal event with seat codes, seated and drafting; the store's stock holds the Pipers decks add."""
    event_id = terminal_night(cli, db, *humans, bots=bots, timer=timer)
    assert cli("event", "pipers", event_id, "--stock", "20", "--db", db).exit_code == 0
    start(cli, db, event_id)
    return event_id


def client(db: Path, event_id: int, clock, **settings) -> TestClient:
    """The app in-process; ``settings``: figures of ``WebSettings`` other than its defaults (``watch=False``)."""
    options = WebSettings(**settings)
    app = create_app(db, event_id, options, clock=clock.monotonic, wall=clock.now, desk_token="desk-secret")
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


def draft_log(db: Path, event_id: int) -> list:
    return [
        (p.seat, p.pack, p.pick, [c.name for c in p.taken])
        for p in Night(Store(db)).draft_session(event_id, 1).draft.log
    ]


def drafted_night(cli, db: Path, names=NIGHT_NAMES) -> int:
    """A terminal event with seat codes, its drafts picked to the end (each seat takes the suggested pick) and
    every deck registered (the store's stock holds the Pipers they add): ready for the rounds."""
    event_id = terminal_night(cli, db, *names)
    assert cli("event", "pipers", event_id, "--stock", "20", "--db", db).exit_code == 0
    start(cli, db, event_id)
    events = draft_to_the_end(db, event_id)
    for name in names:
        assert events.register_deck(event_id, name, auto=True).valid
    return event_id
