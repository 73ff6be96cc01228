"""The practice app (Textual) in a test: a practice draft on a real file, the app over it, and the screen as text."""

from __future__ import annotations

from pathlib import Path

from draft.engine import DraftConfig
from events.storage.draft_files import TableSession
from events.storage.store import Store


def screen_text(app) -> str:
    """The screen as a player reads it (the top screen, modals included)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def session_at(
    db: Path, seed: int = 3, players: int = 8, timer: int | None = None, kind: str = "practice"
) -> TableSession:
    """A draft of ``players`` seats with one player (seat 0) on a real file: a practice table, or ``kind`` "event"
    (the draft's clock the same at every terminal)."""
    return TableSession.create(
        Store(db),
        kind=kind,
        seed=seed,
        config=DraftConfig(seats=players),
        humans=[0],
        names=["You"] + [f"Bot {i}" for i in range(2, players + 1)],
        timer=timer,
    )


def widget_text(screen, selector: str) -> str:
    """What a Static shows, whole (the screen may wrap it between other columns)."""
    content = screen.query_one(selector).content
    return content.plain if hasattr(content, "plain") else str(content)


async def type_command(pilot, line: str) -> None:
    """``line`` typed on the app's command line (':' opens it, Enter sends it), and its answer drawn."""
    await pilot.press("colon", *[{" ": "space", "+": "plus"}.get(ch, ch) for ch in line], "enter")
    await pilot.pause()


async def settle(pilot, ready=None, pauses: int = 50) -> None:
    """What waits for the screen's next refresh drawn too: the key bar composed again (Textual's footer does that
    after a refresh) or a resized screen laid out.  Each pause ends with a refresh and waits for every widget's
    messages, so two pauses see what the first refresh set off; with ``ready``, pauses go on (at most ``pauses``)
    until it says the screen has come to the state the test then checks (a resize passes from the app to the screen
    to each widget over several refreshes)."""
    await pilot.pause()
    await pilot.pause()
    for _ in range(pauses if ready is not None else 0):
        if ready():
            return
        await pilot.pause()


def practice_app(session, **options):
    from events.screens.app.practice import PracticeApp

    return PracticeApp(session, **options)


def drafted(db: Path, seed: int = 5, players: int = 4) -> TableSession:
    session = session_at(db, seed=seed, players=players)
    while not session.draft.finished:
        session.pick(session.suggested_pick(0))
    return session
