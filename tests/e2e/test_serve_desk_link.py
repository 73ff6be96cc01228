"""The desk through the night (issue 38): its link survives restarts of ``cmdraft serve`` (kept hashed in the
database), a new one ends the old and every desk session, and the desk page says who holds each seat (phone,
terminal, bot), whether they are there and when they were last seen, before the draft and during it."""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path

import httpx
from starlette.testclient import TestClient

from events.night import desk_link, presence
from events.night.desk_link import link_hash
from events.night.seat_codes import check_code
from events.storage.store import Store
from tests.helpers.night import Night
from tests.helpers.nights import codes_of, terminal_night
from tests.helpers.serve_process import serve_process, stop
from tests.helpers.served import ORIGIN, client, served_night


def desk_ok(url: str, token: str) -> int:
    with httpx.Client(base_url=url, timeout=10) as web:
        return web.get("/api/desk", headers={"authorization": f"Bearer {token}"}).status_code


def test_a_desk_link_printed_before_a_restart_works_after_it(tmp_path, cli):
    """Before: the desk's token was new at every start, so the organizer had to copy a new address mid-round."""
    db = tmp_path / "desk.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    with serve_process(db, event_id) as (process, url):
        link = re.search(r"The desk: (http://\S+/desk\?token=(\S+))", process.printed).group(1)
        token = link.partition("token=")[2]
        assert desk_ok(url, token) == 200
        stop(process)
    assert token not in db.read_text() and link_hash(token) in db.read_text()  # kept hashed, never as it is
    with serve_process(db, event_id) as (process, url):  # started again
        assert "/desk?token=" not in process.printed and "the desk link printed before still works" in process.printed
        assert desk_ok(url, token) == 200
        with httpx.Client(base_url=url, timeout=10, follow_redirects=False) as web:
            opened = web.get(f"/desk?token={token}")
            assert opened.status_code == 303 and "max-age" in opened.headers["set-cookie"].lower()
        stop(process)
    # a new link: printed once, the old one ends
    with serve_process(db, event_id, "--new-desk-link") as (process, url):
        new = re.search(r"/desk\?token=(\S+)", process.printed).group(1)
        assert new != token and desk_ok(url, new) == 200 and desk_ok(url, token) == 401
        stop(process)
    history = [e.what for e in Night(Store(db)).history(event_id)]
    assert history.count("desk link made") == 1 and history.count("desk link renewed") == 1


def test_a_first_start_that_fails_to_listen_makes_no_desk_link_and_the_next_start_prints_one(tmp_path, cli):
    """Before: the link was made before the port was opened, so a first start on a port in use made it and never
    printed it; every later start said "the desk link printed before still works" of a link nobody had seen."""
    db = tmp_path / "busy.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        failed = cli("serve", str(event_id), "--db", str(db), "--port", str(port))
    assert failed.exit_code == 2 and "in use" in failed.stderr, failed.stderr
    assert desk_link.stored_hash(Night(Store(db)), event_id) is None
    with serve_process(db, event_id) as (process, url):
        token = re.search(r"The desk: http://\S+/desk\?token=(\S+)", process.printed).group(1)
        assert "printed before" not in process.printed and desk_ok(url, token) == 200
        stop(process)


def test_a_new_desk_link_from_the_desk_page_ends_every_other_desk_session(tmp_path, cli, manual_clock):
    db = tmp_path / "rotate.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    with client(db, event_id, manual_clock, watch=False) as web:
        laptop = TestClient(web.app, headers=ORIGIN, follow_redirects=False)
        tablet = TestClient(web.app, headers=ORIGIN, follow_redirects=False)
        for desk in (laptop, tablet):
            assert desk.get("/desk?token=desk-secret").status_code == 303
            assert desk.get("/api/desk").status_code == 200  # the cookie opens it
        renewed = laptop.post("/api/desk/new-link", json={})
        assert renewed.status_code == 200 and renewed.json()["link"].startswith("/desk?token=")
        assert laptop.get("/api/desk").status_code == 200  # the desk that asked goes on
        assert tablet.get("/api/desk").status_code == 401  # every other desk session ends
        assert web.get("/api/desk", headers={"authorization": "Bearer desk-secret"}).status_code == 401
        fresh = renewed.json()["link"].partition("token=")[2]
        assert web.get("/api/desk", headers={"authorization": f"Bearer {fresh}"}).status_code == 200
        # a player's seat token is not the desk's
        forged = TestClient(web.app, headers=ORIGIN).post("/api/desk/new-link", json={})
        assert forged.status_code == 401
        # a page of another origin can't make one with the desk's cookie
        assert laptop.post("/api/desk/new-link", json={}, headers={"origin": "http://evil.example"}).status_code == 403


def seats(web: TestClient) -> dict[str, dict]:
    answer = web.get("/api/desk", headers={"authorization": "Bearer desk-secret"})
    assert answer.status_code == 200, answer.text
    return {row["name"]: row for row in answer.json()["seats"]}


def test_the_desk_sees_who_joined_before_the_draft_and_who_holds_each_seat_during_it(tmp_path, cli, manual_clock):
    """Before: every seat read "offline" before the draft, and a player picking at a terminal all draft."""
    db = tmp_path / "who.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", "Cy", bots=1)  # seated; the desk hasn't started the draft
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        assert {name: row["holder"] for name, row in seats(web).items()} == {
            "Ann": None,
            "Bo": None,
            "Cy": None,
            "Bot 1": "bot",
        }
        joined = web.post("/api/join", json={"event": event_id, "player": "Ann", "code": codes["Ann"]})
        assert joined.status_code == 200
        with web.websocket_connect("/api/stream") as stream:  # Ann's page is open
            stream.receive_json()
            ann = seats(web)["Ann"]
            assert (ann["holder"], ann["connected"]) == ("phone", True)
        manual_clock.advance(60)
        ann = seats(web)["Ann"]
        assert (ann["holder"], ann["connected"], ann["last_seen"]) == ("phone", False, manual_clock.now() - 60)
        # Bo at a terminal, the real command, once the desk starts the draft
        assert cli("event", "draft", event_id, "--db", db, "--json").exit_code == 0
        night = Night(Store(db))
        bo_id = night.player_id(event_id, "Bo")
        presence.terminal_holds(night, event_id, bo_id)  # this process is Bo's terminal: it runs
        bo = seats(web)["Bo"]
        assert (bo["holder"], bo["connected"], bo["last_seen"]) == ("terminal", True, None)
        presence.terminal_left(night, event_id, [bo_id])
        manual_clock.advance(30)
        bo = seats(web)["Bo"]
        assert (bo["holder"], bo["connected"], bo["last_seen"]) == ("terminal", False, manual_clock.now() - 30)
        terminal = cli("event", "draft", event_id, "--player", "Cy", "--db", db, input=f"{codes['Cy']}\nquit\n")
        assert terminal.exit_code == 0, terminal.output
        cy = seats(web)["Cy"]
        assert (cy["holder"], cy["connected"]) == ("terminal", False)  # its command ended: gone, and since when
        assert cy["last_seen"] == manual_clock.now()
        # a terminal process that died without a word reads as gone
        dead = Path(db)
        rows = json.loads(dead.read_text())
        for row in rows["seat_presence"].values():
            if row["player"] == bo_id:
                row["left"], row["pid"] = None, 2**22 + 7  # no such process
        dead.write_text(json.dumps(rows))
        assert seats(web)["Bo"]["connected"] is False
        # the desk's new code: nobody holds the seat until it is given
        assert (
            web.post(
                "/api/desk/reset-code",
                json={"player": seats(web)["Ann"]["player"]},
                headers={"authorization": "Bearer desk-secret"},
            ).status_code
            == 200
        )
        assert seats(web)["Ann"]["holder"] is None


def test_the_desk_row_never_shows_a_code_or_token(tmp_path, cli, manual_clock):
    db = tmp_path / "secret.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        token = web.post("/api/join", json={"event": event_id, "player": "Ann", "code": codes["Ann"]}).json()["token"]
        text = json.dumps(web.get("/api/desk", headers={"authorization": "Bearer desk-secret"}).json())
        assert codes["Ann"] not in text and token not in text and "desk-secret" not in text


def test_a_terminal_given_the_code_before_the_draft_reads_as_holding_the_seat(tmp_path, cli, manual_clock):
    db = tmp_path / "early.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2)  # seated; the draft not started
    codes = codes_of(db, event_id)
    night = Night(Store(db))
    bo = night.player_id(event_id, "Bo")
    assert check_code(night, event_id, bo, codes["Bo"], delay=0)  # typed at this terminal (this process)
    assert not check_code(night, event_id, bo, "WRONG1", delay=0, source="address 10.0.0.66")
    with client(db, event_id, manual_clock, watch=False) as web:
        row = seats(web)["Bo"]
        assert (row["holder"], row["connected"], row["wrong_codes"]) == ("terminal", True, 1)
        guessers = web.get("/api/desk", headers={"authorization": "Bearer desk-secret"}).json()["code_sources"]
        assert guessers == [{"source": "address 10.0.0.66", "wrong": 1, "at": manual_clock.now(), "wait": 0.0}]
