"""What a pick-two table's picks are made of: a pick made (``Pick``), a pick asked for as the player saw it
(``PickRequest``), a pack going round (``HeldPack``), and what one seat sees at once (``SeatView``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from sets.booster import Printing


@dataclass(frozen=True, slots=True)
class Pick:
    """One seat's pick: what was offered and what was taken (pack and pick numbers from 1)."""

    seat: int
    pack: int
    pick: int
    offered: tuple[Printing, ...]
    taken: tuple[Printing, ...]
    positions: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "pack": self.pack,
            "pick": self.pick,
            "offered": [p.card.name for p in self.offered],
            "taken": [p.card.name for p in self.taken],
        }


@dataclass(frozen=True, slots=True)
class PickRequest:
    """A pick as the player saw it: the pack and pick numbers (from 1) of the pack on their screen
    and the printings they take from it.  Positions alone never name a pick: they mean other cards
    once the pack in front of the seat has changed."""

    seat: int
    pack: int
    pick: int
    taken: tuple[Printing, ...]
    # where the printings lay in the pack when the request was made: tried first (each printing checked to be there
    # still, the very object), so a pick on the pack as shown is found without a search; never trusted alone
    places: tuple[int, ...] | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"pack {self.pack} pick {self.pick}: " + " + ".join(p.card.name for p in self.taken)


@dataclass(eq=False, slots=True)
class HeldPack:
    """A pack going round the table: the seat that opened it, the cards left, and the picks made from it."""

    origin: int
    cards: list[Printing]
    picks: int = 0


class SeatView(NamedTuple):
    """What one seat sees of the table at once (``Draft.view``): the pack in front of it (None while it waits or
    the draft is over), the (pack, pick) it is at, the cards it must take, the packs waiting at it (that one
    included), and whom it waits for."""

    held: HeldPack | None
    at: tuple[int, int]
    due: int
    queued: int
    waiting_on: list[int]
