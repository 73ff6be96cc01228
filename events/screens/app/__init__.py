"""The full-screen practice app (Textual): the draft table, the deck builder and the review.

A thin face over the same session objects the line prompt uses (``SeatSession`` at the table, a
deck activity's ``DeckSession`` in the builder): widgets show their state and send them intents,
so the plain prompt and the app can't drift apart.  One module per screen (``table``, ``builder``,
``review``), the modal screens in ``modals``, styles in a ``.tcss`` beside each module.
Textual is imported only when the app starts (``run_practice``, ``run_build``), so
``cmdraft --help`` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from events.sessions.activities import PoolDeck
    from events.sessions.table import DraftTable


def run_practice(session: DraftTable, confirm: bool = False, export_root: Path | None = None) -> None:
    """The practice draft full screen: the table until the draft is over, then the builder."""
    from events.screens.app.practice import PracticeApp

    app = PracticeApp(session, confirm=confirm, export_root=export_root)
    app.run()
    print(app.farewell)
    if app.interrupted:  # everything is saved; the command ends as every interrupted one: 130
        raise KeyboardInterrupt


def run_build(deck: PoolDeck) -> None:
    """The deck builder full screen over any pool (``deck``: its ``PoolDeck``)."""
    from events.screens.app.practice import BuildApp

    app = BuildApp(deck)
    app.run()
    print(app.farewell)
    if app.interrupted:
        raise KeyboardInterrupt
