"""The player's page in a real browser: Debian's chromium for Playwright, the phone and room sizes, ``cmdraft
serve``'s app run by uvicorn on a loopback port, and what a player does on the page."""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import Page, expect

from events.storage.store import Store
from events.web.app import create_app

# Debian's chromium as built for headless use only (package chromium-headless-shell, what Playwright itself runs for
# headless tests): the same Blink and V8 draw and run the pages, without the desktop browser's own layer, which cost the
# browser tests about a quarter of chromium's processor time (measured: a page opened costs the browser process a
# third as much).  Where it isn't installed, Debian's chromium.
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM = HEADLESS_SHELL if os.path.exists(HEADLESS_SHELL) else "/usr/bin/chromium"


ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


SIX_PLAYERS = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]  # the night the e2e night_server fixture serves

PHONE = {"width": 390, "height": 844}


LAPTOP = {"width": 1920, "height": 1080}


SCRIPT_NAME = "<script>alert(1)</script>"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Served:
    """uvicorn serving the app in a thread on a free loopback port, until ``stop``."""

    def __init__(self, db: Path, event_id: int, port: int = 0) -> None:
        self.app = create_app(db, event_id, desk_token="desk-secret")
        self.port = port or free_port()
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        until = time.monotonic() + 15
        while not self.server.started:
            assert time.monotonic() < until, "uvicorn did not start"
            time.sleep(0.02)  # waiting on another thread's socket, not on the application's clock

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def player_numbers(db: Path, event_id: int) -> dict[str, int]:
    with Store(db).read() as handle:
        return {p["name"]: p.doc_id for p in handle.table("players").all() if p["event"] == event_id}


def _seating(db: Path, event_id: int) -> dict[int, dict]:
    with Store(db).read() as handle:
        players = [p for p in handle.table("players").all() if p["event"] == event_id and p["pod"] is not None]
    return {p["seat"]: dict(p) for p in players}


def _bots_in_a_row(seats: dict[int, dict], seat: int, step: int) -> int:
    bots = 0
    while seats[(seat + step * (bots + 1)) % len(seats)]["bot"]:
        bots += 1
    return bots


def upstream_of(db: Path, event_id: int, name: str) -> tuple[str, int]:
    """Who passes pack 1 to ``name`` (it passes left: from the seat before), read from the seating: the nearest
    person upstream, and how many bot seats sit between them (a bot passes a pack on as soon as it reaches it)."""
    seats = _seating(db, event_id)
    seat = next(number for number, p in seats.items() if p["name"] == name)
    bots = _bots_in_a_row(seats, seat, -1)
    return seats[(seat - 1 - bots) % len(seats)]["name"], bots


def bots_downstream(db: Path, event_id: int, name: str) -> int:
    """How many bot seats in a row sit after ``name``'s (pack 1 passes left): each picks the pack ``name`` passes
    as soon as it reaches it, so one pick of pack 1 by ``name`` adds this many bot picks to the draft."""
    seats = _seating(db, event_id)
    return _bots_in_a_row(seats, next(number for number, p in seats.items() if p["name"] == name), 1)


def tap_and_confirm(page: Page, careful: bool = False) -> None:
    """Tap the first and the last card, then Confirm; ``careful``: see Confirm wait for the second card.  A pack of
    the last two cards comes with both chosen: only Confirm."""
    cards = page.locator("#pack .card")
    confirm = page.locator("#confirm")
    before = int(page.locator("#pool-count").inner_text())
    if cards.count() > 2:
        cards.first.click()
        if careful:
            expect(confirm).to_be_disabled()  # one of two chosen
        cards.last.click()
    else:
        expect(page.locator('#pack .card[aria-pressed="true"]')).to_have_count(cards.count())
    if careful:
        expect(confirm).to_be_enabled()
    confirm.click()
    expect(page.locator("#pool-count")).to_have_text(str(before + 2))  # the answer: the pool with both cards


def phone_page(browser) -> Page:
    """A new page in a phone's window (390x844, touch)."""
    return browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
