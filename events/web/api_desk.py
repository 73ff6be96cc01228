"""Every seat as the desk in the browser sees it (``GET /api/desk``; the desk's routes are in ``desk``): who holds
each seat and whether they are there, picking or waiting and the time left, never a pack, a pool or a code.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.night import Pod, presence
from events.night.seat_codes import source_waits
from events.sessions import TableSession
from events.web.api_common import Served


class DeskSeat(msgspec.Struct):
    """One seat's row on the desk's page."""

    player: int  # the player's number
    name: str
    pod: int
    seat: int  # from 1
    connected: bool  # a phone's page open now; a terminal that still runs
    state: str  # "picking", "waiting", "done" or "bot"
    deadline: float | None
    wrong_codes: int
    wrong_code_last: str | None  # when the last one was typed
    wrong_code_from: str | None
    bot_player: bool  # a bot by registration (not a person whose seat a bot holds for now)
    holder: str | None = None  # "phone", "terminal", "bot", or None (nobody has joined with the code)
    last_seen: float | None = None  # wall time: a phone's last request or when its seat was taken up; a terminal's end
    queued: int = 0  # the packs waiting in front of the seat (the one it picks from included)


def seat_rows(served: Served, connected: set[int], seen: dict[int, float] | None = None) -> dict[str, Any]:
    """Every seat as the desk sees it; ``connected``: the players whose page has a stream open now, ``seen``: when
    each player's browser last asked this server."""
    snap = served.snapshot()
    held = presence.of_event(served.drafting, served.event_id)
    rows: list[DeskSeat] = []
    for pod in snap.pods:
        if pod.draft:
            with served.locked(pod.number):
                rows += pod_rows(served, pod, served.table(pod.number), connected, held, seen or {})
        else:
            rows += pod_rows(served, pod, None, connected, held, seen or {})
    event = snap.event
    return {
        "event": {"id": served.event_id, "name": event.name, "status": event.status},
        "server_time": served.wall(),
        "seats": rows,
        "code_sources": source_waits(served.drafting, served.event_id),
    }


def pod_rows(
    served: Served,
    pod: Pod,
    session: TableSession | None,
    connected: set[int],
    held: dict[int, presence.Presence],
    seen: dict[int, float],
) -> list[DeskSeat]:
    """The desk's rows of one pod's seats (its draft's lock held)."""
    snap = served.snapshot()
    rows = []
    for seat, player_id in enumerate(pod.players):
        player = snap.player(player_id)
        state, deadline = "waiting", None
        if player.bot:
            state = "bot"
        elif session is not None:
            draft = session.draft
            deadline = session.deadline(seat)
            if draft.finished:
                state = "done"
            elif seat not in session.humans:
                state = "bot"
            elif seat in draft.waiting():
                state = "picking"
        row = DeskSeat(
            player.number,
            player.name,
            pod.number,
            seat + 1,
            player_id in connected,
            state,
            deadline,
            player.wrong_codes,
            player.wrong_code_last,
            player.wrong_code_from,
            player.bot,
            queued=0 if session is None or player.bot else session.draft.queued(seat),
        )
        holding(row, held.get(player_id), seen.get(player_id))
        rows.append(row)
    return rows


def holding(row: DeskSeat, held: presence.Presence | None, asked: float | None) -> None:
    """Who holds a seat and whether they are there: ``holder`` "phone", "terminal", "bot" or None (nobody has
    joined with the code), ``connected`` (a phone's page open now; a terminal that still runs), and ``last_seen``
    (wall time: a phone's last request or when its seat was taken up; a terminal's end, or when it took the seat)."""
    row.last_seen = asked
    if row.bot_player or row.state == "bot":
        row.holder = "bot"
    elif held is None:
        row.holder = None
    elif held.via == "terminal":
        running = held.terminal_running()
        row.holder, row.connected, row.last_seen = "terminal", running, None if running else held.left or held.at
    else:
        row.holder, row.last_seen = "phone", max(held.at, asked or 0.0)
