"""A seat's code given at a terminal takes the seat from the phone that held it, as a code typed in another browser
does: the phone is shown its seat no more (its stream closed, its page asked for the code, saying why), and only
the terminal picks for it."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

from tests.helpers.nights import codes_of
from tests.helpers.served import client, phone, served_night

OPENED_ELSEWHERE = (
    "your seat was opened on another device or terminal: give your seat code again to take it back, or ask the desk"
)


def test_a_code_given_at_a_terminal_ends_the_phones_hold_on_the_seat(tmp_path: Path, cli, manual_clock) -> None:
    """Before: the phone went on being shown the seat's pack and pool (its stream pushed each new pack), as if it
    held the seat, until it tapped Confirm and was refused: the terminal's takeover ended only the draft's claim."""
    db = tmp_path / "taken.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    codes = codes_of(db, event_id)
    with client(db, event_id, manual_clock, watch=False) as web:
        ann = phone(web, event_id, "Ann", codes["Ann"])
        assert ann.seat()["draft"]["cards"]  # her first pack, on her phone
        with web.websocket_connect(f"/api/stream?token={ann.token}") as stream:
            stream.receive_json()
            terminal = cli("event", "draft", event_id, "--player", "Ann", "--db", db, input=f"{codes['Ann']}\nquit\n")
            assert terminal.exit_code == 0 and "This terminal now picks for 'Ann'" in terminal.stdout
            shown = ann.get("/api/seat")
            assert shown.status_code == 401, shown.text
            assert shown.json()["error"] == {"code": "no-seat", "message": OPENED_ELSEWHERE}
            web.portal.call(web.app.state.server.watcher.step)  # the server's look at the files closes the stream
            with pytest.raises(WebSocketDisconnect) as closed:
                stream.receive_json()
            assert closed.value.code == 4401
        again = phone(web, event_id, "Ann", codes["Ann"])  # her code typed again on the phone: hers once more
        assert again.seat()["draft"]["cards"]
