"""A rank is written one way on every face, by the core (``standings.ordinal``): the terminal's standings, the
printed sheet, the room display, a phone and the published decklists all show "1st" (before: the room and the
decklists "1.", the terminal "1", a phone "1st", and the sheets' ordinal ran out at 8: "21th")."""

from __future__ import annotations

from fractions import Fraction

import pytest
from rich.console import Console

from events.night.shown import standing_row
from events.night.standings import Standing, ordinal
from events.screens.boards import standings_table


@pytest.mark.parametrize(
    ("place", "words"),
    [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"), (13, "13th"), (21, "21st"),
     (22, "22nd"), (23, "23rd"), (101, "101st"), (111, "111th"), (112, "112th")],
)  # fmt: skip
def test_a_rank_is_written_as_an_ordinal(place, words):
    assert ordinal(place) == words


def standing(name: str, rank: int) -> Standing:
    return Standing(rank, name, Fraction(3), Fraction(1), Fraction(2), 1, False, rank=rank)


def test_the_webs_rows_and_the_terminals_standings_say_the_same_rank():
    rows = [standing("Ann", 1), standing("Bo", 2), standing("Cy", 2), standing("Di", 21)]
    assert [standing_row(row).rank_text for row in rows] == ["1st", "2nd", "2nd", "21st"]  # the room's and a phone's
    console = Console(width=120, record=True)
    console.print(standings_table(rows))
    cells = [[cell.strip() for cell in line.split("│")[1:3]] for line in console.export_text().splitlines()]
    said = [cell for cell in cells if cell[1:] and cell[1] in ("Ann", "Bo", "Cy", "Di")]
    assert said == [["1st", "Ann"], ["2nd", "Bo"], ["2nd", "Cy"], ["21st", "Di"]]
