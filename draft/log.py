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
    """The MTGO draft log layout: a header, then ``Pack 1 pick 1:`` blocks, each the pack as it stood and the card
    taken from it marked ``--> ``.  MTGO's log takes one card a block, and so do the tools that read it (Draftmancer
    keeps a block's last marked card): a pick of two is two blocks, the first card taken from the whole pack, the
    second from what was left of it, numbered on as the cards taken from the pack.  Cards carry MTGO's names
    (Fire/Ice, a double-faced card's front face), as the tools that read these logs look them up.  The players'
    names and the event's are written out as every face shows them (``visible``)."""
    lines = [f"Event #: {visible(event) if event else draft.seed}", f"Time:    {log_time(when)}", "Players:"]
    lines += [("--> " if i == seat else "    ") + visible(name) for i, name in enumerate(names)]
    lines.append("")
    current_pack = 0
    taken_from_pack = 0
    for pick in draft.picks_of(seat):
        if pick.pack != current_pack:
            current_pack, taken_from_pack = pick.pack, 0
            lines += [f"------ {draft.config.set_code} ------ ", ""]
        left = list(range(len(pick.offered)))
        for position in pick.positions:
            taken_from_pack += 1
            lines.append(f"Pack {pick.pack} pick {taken_from_pack}:")
            lines += [("--> " if at == position else "    ") + mtgo_name(pick.offered[at].card) for at in left]
            lines.append("")
            left.remove(position)
    return "\n".join(lines)
