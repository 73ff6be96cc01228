"""Draft logs: our JSON and the MTGO-style text log other tools read."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from draft.engine import Draft


def seat_log_json(draft: Draft, seat: int) -> list[dict[str, Any]]:
    return [pick.to_json() for pick in draft.picks_of(seat)]


def mtgo_log(draft: Draft, seat: int, names: Sequence[str], event: str = "") -> str:
    """``Pack 1 pick 1:`` blocks; each card taken is marked ``--> `` (two marks for a pick of two)."""
    lines = [f"Event #: {event or f'cmdraft-{draft.seed}'}", f"Time: seed {draft.seed}", "Players:"]
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
            lines.append(("--> " if position in taken else "    ") + printing.card.name)
        lines.append("")
    return "\n".join(lines)
