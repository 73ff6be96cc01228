"""Draft logs: our JSON and the MTGO-style text log other tools read."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from draft.engine import Draft
from draft.formats.mtgo import mtgo_name


def mtgo_log(draft: Draft, seat: int, names: Sequence[str], event: str = "", when: dt.datetime | None = None) -> str:
    """The MTGO draft log layout: a header, then ``Pack 1 pick 1:`` blocks in which each card
    taken is marked ``--> `` (two marks for a pick of two).  Cards carry MTGO's names (Fire/Ice, a double-faced
    card's front face), as the tools that read these logs look them up."""
    when = when or dt.datetime.now()
    lines = [f"Event #: {event or draft.seed}", f"Time:    {when.strftime('%m/%d/%Y %I:%M:%S %p')}", "Players:"]
    lines += [("--> " if i == seat else "    ") + name for i, name in enumerate(names)]
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
