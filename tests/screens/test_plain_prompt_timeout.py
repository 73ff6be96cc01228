"""The line prompt at an event's timed draft (it asks before each pick): cards chosen and waiting for the player's
yes when the pick's time runs out are the cards taken, as marks are on the other faces (``draft.timeout``)."""

from __future__ import annotations

import io

from rich.console import Console

from events.screens.table import TablePrompt
from events.sessions.seat import SeatSession
from events.storage.draft_files import TableSession
from tests.helpers.practice import session_at


class Wall:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Answers:
    """A terminal answering ``lines`` in turn; None (the deadline passed) moves ``wall`` past the pick's deadline."""

    def __init__(self, wall: Wall, deadline: float, lines: list[str | None]) -> None:
        self.wall, self.deadline, self.lines = wall, deadline, lines

    def ask(self, prompt: str, deadline: float | None = None, status: object = None) -> str | None:
        line = self.lines.pop(0)
        if line is None:
            self.wall.now = self.deadline + 1
        return line


def timed_table(tmp_path) -> TableSession:
    return session_at(tmp_path / "d.json", seed=7, players=4, timer=30, kind="event")


def prompted(table: TableSession, answers: list[str | None]) -> tuple[list[int], list[int], str]:
    """The seat's pick at the prompt with these answers in turn (a choice of two cards outside the strong bot's pick
    stands for "CHOSEN"; None: the time runs out there): the cards taken, the cards chosen and what was printed."""
    deadline = table.deadline(0)
    assert deadline is not None
    wall = Wall(deadline - 20)
    seat = SeatSession(table, 0, confirm=True, wall=wall)
    chosen = [i for i in range(len(seat.pack)) if i not in table.suggested_positions(0)][:2]
    typed = [" ".join(str(i + 1) for i in chosen) if line == "CHOSEN" else line for line in answers]
    out = io.StringIO()
    TablePrompt(seat, Console(file=out, width=100), Answers(wall, deadline, typed)).pick_once()  # type: ignore[arg-type]  # a scripted terminal
    [made] = table.draft.picks_of(0)
    return list(made.positions), chosen, out.getvalue()


def test_cards_waiting_for_the_players_yes_when_time_runs_out_are_taken(tmp_path):
    taken, chosen, said = prompted(timed_table(tmp_path), ["CHOSEN", None])
    assert set(taken) == set(chosen)
    assert "Time is up: took" in said and "(the cards you had chosen)" in said


def test_cards_the_player_said_no_to_are_not_taken_when_time_runs_out_after(tmp_path):
    table = timed_table(tmp_path)
    suggested = table.suggested_positions(0)
    taken, _, said = prompted(table, ["CHOSEN", "n", None])
    assert set(taken) == set(suggested) and "the strong bot's pick" in said
