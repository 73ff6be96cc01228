"""What a player whose pick's time ran out takes: the cards they had marked on their screen, and the suggestion's for
the rest (as Draftmancer and a paper judge do: the cards you had chosen are yours).

Marks are what a face showed, not a pick: nothing keeps them but the program showing the seat, a pack that moved on
makes them void, and a mark on a card no longer in the pack counts for nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sets.booster import Printing


@dataclass(frozen=True, slots=True)
class Marks:
    """The cards a player had marked on the pack on their screen (its pack and pick numbers, from 1), in the order
    marked: the very printings, so two copies of a card in one pack stay apart."""

    pack: int
    pick: int
    cards: tuple[Printing, ...]


def timed_out_positions(
    pack: Sequence[Printing], at: tuple[int, int], due: int, marks: Marks | None, suggested: Sequence[int]
) -> list[int]:
    """The positions a seat whose time ran out takes from ``pack``, the pack in front of it at ``at`` (pack, pick),
    ``due`` cards: the marked cards still in it, in the order marked and at most ``due`` of them, then the
    ``suggested`` positions in their order, skipping those, until ``due`` are taken.  Marks made on another pack
    (``at`` differs: the pack moved on) count for nothing."""
    chosen: list[int] = []
    if marks is not None and (marks.pack, marks.pick) == at:
        for card in marks.cards:
            place = next((i for i, held in enumerate(pack) if held is card and i not in chosen), None)
            if place is not None and len(chosen) < due:
                chosen.append(place)
    for place in suggested:
        if len(chosen) >= due:
            break
        if place not in chosen:
            chosen.append(place)
    return chosen
