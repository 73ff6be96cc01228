"""Whose clock is whose once a server has served the event: at a mixed event (Ann and Bo on phones through
``cmdraft serve``, Cy at a terminal), nothing but a server times out the seats the phones hold (while it is down,
its next start does); the terminal's own seat times out as ever, whoever reaches the draft first."""

from __future__ import annotations

import contextlib
import gc
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import uvicorn

from events.cli import serve as serve_command
from events.night.serving import serving, stopped_before
from events.sessions.seat import SeatSession
from events.storage.store import Store
from tests.helpers.night import Night
from tests.helpers.nights import codes_of, seat_of
from tests.helpers.served import client, phone, served_night

URL = "http://127.0.0.1:8000"
PHONES = ("Ann", "Bo")
TERMINAL_TOKEN = "cy's terminal"  # what this terminal keeps once Cy's seat code is given there (``unlock_seat``)


@dataclass
class Mixed:
    db: Path
    event_id: int
    pod: int
    seats: dict[str, int]  # each player's seat in the pod

    def timed_out(self) -> set[str]:
        """The players the timer picked for, as the draft's file says."""
        session = Night(Store(self.db)).draft_session(self.event_id, self.pod)
        names = {seat: name for name, seat in self.seats.items()}
        return {names[p.seat] for p in session.draft.log if p.seat in names and session.taken_by(p) == "timer"}


@pytest.fixture
def mixed(tmp_path, cli, manual_clock) -> Mixed:
    """The first pick of a mixed event with a 60 s timer: Ann and Bo joined on their phones while the server ran,
    Cy's seat given its code at a terminal; then 70 s pass (every pick's time is up)."""
    db = tmp_path / "mixed.json"
    event_id = served_night(cli, db, humans=(*PHONES, "Cy"), bots=1, timer=60)
    codes = codes_of(db, event_id)
    with serving(db, event_id, URL), client(db, event_id, manual_clock, watch=False) as web:
        for name in PHONES:
            phone(web, event_id, name, codes[name])
    pod = seat_of(db, event_id, "Cy")[0]
    seats = {name: seat_of(db, event_id, name)[1] for name in (*PHONES, "Cy")}
    Night(Store(db)).draft_session(event_id, pod).claim(seats["Cy"], TERMINAL_TOKEN)
    manual_clock.advance(70)
    return Mixed(db, event_id, pod, seats)


def terminal_polls(mixed: Mixed) -> None:
    """The terminal's loop (``run_event_draft``) and the desk's screen (``watch_draft``) apply a due timeout."""
    Night(Store(mixed.db)).draft_session(mixed.event_id, mixed.pod).apply_timeout()


def terminal_countdown_ends(mixed: Mixed) -> None:
    """Cy's countdown at his terminal ran out: the draft's timeout (``SeatSession.time_up``)."""
    table = Night(Store(mixed.db)).draft_session(mixed.event_id, mixed.pod)
    SeatSession(table, mixed.seats["Cy"], token=TERMINAL_TOKEN).time_up()


def terminal_picks(mixed: Mixed) -> None:
    """Cy confirms a pick at his terminal: the write first applies the timeouts that are due (his own among them,
    so his pick comes too late and is refused)."""
    table = Night(Store(mixed.db)).draft_session(mixed.event_id, mixed.pod)
    seat = SeatSession(table, mixed.seats["Cy"], token=TERMINAL_TOKEN)
    seat.show()
    seat.pick(range(seat.due))


@pytest.mark.parametrize("terminal", [terminal_polls, terminal_countdown_ends, terminal_picks])
def test_while_the_server_is_down_a_terminal_times_out_its_own_seat_and_never_the_phones(mixed, terminal):
    assert stopped_before(mixed.db, mixed.event_id)
    terminal(mixed)
    assert mixed.timed_out() == {"Cy"}


def test_while_the_server_is_down_the_next_event_command_times_out_the_terminals_seat_not_the_phones(mixed, cli):
    assert cli("event", "show", mixed.event_id, "--db", mixed.db).exit_code == 0
    assert mixed.timed_out() == {"Cy"}


@pytest.mark.parametrize("terminal", [terminal_polls, terminal_countdown_ends, terminal_picks])
def test_while_the_server_serves_a_terminal_times_out_its_own_seat_and_leaves_the_phones_to_it(mixed, terminal):
    """Only the server knows the cards a phone has tapped (the timer takes them): its phones' picks are its own."""
    with serving(mixed.db, mixed.event_id, URL):  # the server runs again (and a phone may have made no pick)
        terminal(mixed)
    assert mixed.timed_out() == {"Cy"}


def test_a_server_times_out_its_phones_even_when_its_file_still_says_the_last_one_stopped(mixed, manual_clock):
    """``serve`` says it serves the event in a file beside the database, at best effort: a folder it can't write in
    leaves the last server's "stopped" there.  The server's own watcher still makes its phones' overdue picks."""
    with client(mixed.db, mixed.event_id, manual_clock, watch=False) as web:
        web.portal.call(web.app.state.server.watcher.step)
    assert stopped_before(mixed.db, mixed.event_id)
    assert mixed.timed_out() == {"Ann", "Bo", "Cy"}


def test_serve_says_it_serves_the_event_only_once_its_phones_clocks_started_over(mixed, cli, monkeypatch):
    """``cmdraft serve`` started again: a terminal that looks the moment the file beside the database says it serves
    the event makes no phone's pick (the restart is to spare them), only its own seat's."""
    said = serve_command.serving

    @contextlib.contextmanager
    def serving_seen(database: Path, event_id: int, url: str) -> Iterator[None]:
        with said(database, event_id, url):
            assert not stopped_before(database, event_id)
            terminal_polls(mixed)  # a terminal looks the moment the server says it serves
            yield

    monkeypatch.setattr(serve_command, "serving", serving_seen)
    monkeypatch.setattr(uvicorn.Server, "run", lambda server, sockets=None: None)  # listening, then Ctrl-C
    for name in ("freeze", "set_threshold"):  # the server's own process tunes its collector: not this one's
        monkeypatch.setattr(gc, name, lambda *figures: None)
    monkeypatch.setattr(sys, "setswitchinterval", lambda seconds: None)
    started = cli("serve", mixed.event_id, "--db", mixed.db, "--port", "0")
    assert started.exit_code == 0, started.output
    assert mixed.timed_out() == {"Cy"}  # the terminal's, as ever (by the command's recovery, before it served)


def test_a_server_started_again_starts_its_phones_clocks_over_and_leaves_the_terminals_seat_its_own(
    mixed, manual_clock
):
    """Cy could pick at his terminal all along: the restart gives the phones their whole time again, not him (his
    overdue pick is made at the server's first look, as any party makes it)."""
    again = client(mixed.db, mixed.event_id, manual_clock, watch=False)
    again.app.state.server.served.warm(restart_clocks=True)  # what 'cmdraft serve' does as it starts after one stopped
    with again:
        again.portal.call(again.app.state.server.watcher.step)
        assert mixed.timed_out() == {"Cy"}
        session = Night(Store(mixed.db)).draft_session(mixed.event_id, mixed.pod)
        for name in PHONES:
            assert session.deadline(mixed.seats[name]) == pytest.approx(manual_clock.now() + 60)
