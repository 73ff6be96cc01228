"""Draft logs: our JSON and the MTGO-style text log other tools read."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from draft.engine import Draft
from draft.formats.mtgo import mtgo_name
from sets.visible import visible


def log_time(when: dt.datetime) -> str:
    """The log's time as MTGO writes it: month, day and hour without leading zeros, a 12-hour clock, AM or PM in
    English whatever the locale (``11/5/2020 8:03:09 PM``)."""
    hour = when.hour % 12 or 12
    return f"{when.month}/{when.day}/{when.year} {hour}:{when.minute:02d}:{when.second:02d} {'PM' if when.hour >= 12 else 'AM'}"


def mtgo_log(draft: Draft, seat: int, names: Sequence[str], when: dt.datetime, event: str = "") -> str:
    """The MTGO draft log layout: a header, then ``Pack 1 pick 1:`` blocks in which each card
    taken is marked ``--> `` (two marks for a pick of two).  Cards carry MTGO's names (Fire/Ice, a double-faced
    card's front face), as the tools that read these logs look them up.  The players' names and the event's are
    written out as every face shows them (``visible``)."""
    lines = [f"Event #: {visible(event) if event else draft.seed}", f"Time:    {log_time(when)}", "Players:"]
    lines += [("--> " if i == seat else "    ") + visible(name) for i, name in enumerate(names)]
    lines.append("")
    current_pack = 0
    for pick in draft.picks_of(seat):
        if pick.pack != current_pack:
            current_pack = pick.pack
            lines += [f"------ {draft.config.set_code} ------ ", ""]
        lines.append(f"Pack {pick.pack} pick {pick.pick}:")
        taken = list(pick.positions)
        for position, printing in enumerate(pick.offered):
            lines.append(("--> " if position in taken else "    ") + mtgo_name(printing.card))
        lines.append("")
    return "\n".join(lines)
