"""The pick timer of a draft with its own clock (an event's timer): it runs per pack held.

Each player's seat with a pack in front of it has that pack's deadline, stamped when the pack came to the front
of the seat's queue (the write that handed it over) and kept while the same pack is in front of it.  The draft's
file holds them as ``{"at": the earliest, "seats": {"<seat>": {"pack", "pick", "at"}}}``.  A draft saved while
the table passed its packs in lockstep kept one ``{"pack", "pick", "at"}`` for the whole table: it holds for every
seat at that pick, so such a draft resumes with its clock.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Any

from draft.engine import Draft

SLACK = 1.0  # seconds a stored deadline may lie beyond a whole pick's time (clocks a little apart) before it is stamped anew


def seat_deadline(deadline: dict[str, Any] | None, seat: int) -> dict[str, Any] | None:
    """One seat's ``{"pack", "pick", "at"}`` in a stored deadline (either form), or None."""
    if deadline is None:
        return None
    if "seats" in deadline:
        entry = deadline["seats"].get(str(seat))
        return None if entry is None else dict(entry)
    return deadline if "pack" in deadline else None


def without_seats(deadline: dict[str, Any] | None, humans: Iterable[int], seats: Collection[int]) -> dict[str, Any]:
    """The players' stored deadlines (either form) but those of ``seats``, which the next write makes anew
    (``next_deadline``: a seat with none gets its whole time from then)."""
    kept = {seat: seat_deadline(deadline, seat) for seat in humans if seat not in seats}
    return {"seats": {str(seat): entry for seat, entry in kept.items() if entry is not None}}


def next_deadline(
    draft: Draft,
    humans: Iterable[int],
    seconds: Callable[[int], float | None],
    kept: dict[str, Any] | None,
    now: float,
) -> dict[str, Any] | None:
    """The deadlines after a write at ``now``: each player's seat holding a pack keeps its deadline while the same
    pack is in front of it, and gets ``now`` + ``seconds(cards in the pack)`` once another one is.  None when no
    player holds a pack (or the draft is over)."""
    if draft.finished:
        return None
    seats: dict[str, dict[str, Any]] = {}
    for seat in humans:
        held = draft.held(seat)
        if held is None:
            continue
        at = draft.at(seat)
        entry = seat_deadline(kept, seat)
        whole = seconds(len(held.cards)) or 0.0
        if entry is not None and (entry["pack"], entry["pick"]) == at and entry["at"] <= now + whole + SLACK:
            seats[str(seat)] = {"pack": at[0], "pick": at[1], "at": entry["at"]}
        else:  # a new pack in front of the seat, or the clock was set back since (never more than the whole time)
            seats[str(seat)] = {"pack": at[0], "pick": at[1], "at": round(now + whole, 3)}
    if not seats:
        return None
    return {"at": min(entry["at"] for entry in seats.values()), "seats": seats}


def set_back(
    draft: Draft,
    stored: dict[str, Any] | None,
    humans: Iterable[int],
    seconds: Callable[[int], float | None],
    now: float,
) -> bool:
    """Whether a seat's stored deadline lies further ahead of ``now`` than the whole time of the pack in front of it:
    the clock was set back since it was stamped (the next write stamps it anew, ``next_deadline``)."""
    for seat in humans:
        entry, held = seat_deadline(stored, seat), draft.held(seat)
        if entry is not None and held is not None and (entry["pack"], entry["pick"]) == draft.at(seat):
            if float(entry["at"]) > now + (seconds(len(held.cards)) or 0.0) + SLACK:
                return True
    return False


def deadline_of(draft: Draft, stored: dict[str, Any] | None, seats: Iterable[int]) -> float | None:
    """The earliest wall-clock time one of ``seats``' picks of the pack in front of it ends; a seat whose pack
    moved on since ``stored`` was read has none here (read the file again)."""
    if stored is None or draft.finished:
        return None
    times = []
    for seat in seats:
        entry = seat_deadline(stored, seat)
        if entry is not None and draft.held(seat) is not None and (entry["pack"], entry["pick"]) == draft.at(seat):
            times.append(float(entry["at"]))
    return min(times, default=None)
