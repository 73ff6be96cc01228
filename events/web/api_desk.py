"""Every seat as the desk in the browser sees it (``GET /api/desk``; the desk's routes are in ``desk``): who holds
each seat and whether they are there, picking or waiting and the time left, never a pack, a pool or a code.
"""

from __future__ import annotations

from events.night import Pod, presence
from events.night.browser_seats import may_hand, seats_over, unseated, unseated_why
from events.night.registration import may_drop
from events.night.seat_codes import code_resettable, source_waits
from events.sessions.table import DraftTable
from events.web.answers import typed
from events.web.api_common import Served
from events.web.desk_answers import CodeSource, DeskEvent, DeskPlayer, DeskSeat, DeskSeats, SeatStatus


def seat_rows(served: Served, connected: set[int], seen: dict[int, float], started: float) -> DeskSeats:
    """Every seat as the desk sees it; ``connected``: the players whose page has a stream open now, ``seen``: when
    each player's browser last asked this server, ``started``: when this server started (wall time)."""
    snap = served.snapshot()
    held = presence.of_event(served.drafting, served.event_id)
    rows: list[DeskSeat] = []
    for pod in snap.pods:
        if pod.draft:
            with served.locked(pod.number):
                rows += pod_rows(served, pod, served.table(pod.number), connected, held, seen, started)
        else:
            rows += pod_rows(served, pod, None, connected, held, seen, started)
    event = snap.event
    sources = typed(source_waits(served.drafting, served.event_id), list[CodeSource])
    over = seats_over(event.status, len(rows), len({row.pod for row in rows}))
    stalled = presence.stalled_line(sum(1 for row in rows if row.stalled))
    apart = [
        DeskPlayer(
            p.number,
            p.name,
            p.id in connected,
            p.wrong_codes,
            may_drop(event.status, p.status),
            code_resettable(event, p.bot, p.pod, p.pool_size is not None),
            unseated_why(p),
        )
        for p in unseated(snap)
    ]
    desk_event = DeskEvent(served.event_id, event.name, event.status)
    return DeskSeats(desk_event, served.wall(), rows, sources, over, stalled, apart)


def pod_rows(
    served: Served,
    pod: Pod,
    session: DraftTable | None,
    connected: set[int],
    held: dict[int, presence.Presence],
    seen: dict[int, float],
    started: float,
) -> list[DeskSeat]:
    """The desk's rows of one pod's seats (its draft's lock held)."""
    snap = served.snapshot()
    rows = []
    for seat, player_id in enumerate(pod.players):
        player = snap.player(player_id)
        state: SeatStatus = "waiting"
        deadline = None
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
            hand=may_hand(session, seat, player.bot),
            drop=not player.bot and may_drop(snap.event.status, player.status),
        )
        bot_seat = player.bot or (session is not None and seat not in session.humans)  # (a bots draft: every seat)
        holding(row, held.get(player_id), seen.get(player_id), started, bot_seat)
        if presence.stalls(row.state, row.connected, row.queued):
            row.stalled = presence.stalled_words(row.queued)
        rows.append(row)
    return rows


def holding(row: DeskSeat, held: presence.Presence | None, asked: float | None, started: float, bot_seat: bool) -> None:
    """Who holds a seat and whether they are there: ``holder`` "phone", "terminal", "bot" or None (nobody has
    joined with the code), ``connected`` (a phone's page open now; a terminal that still runs), and ``last_seen``
    (wall time: a phone's last request or when its seat was taken up; a terminal's end, or when it took the seat),
    with ``before_restart`` when a phone has not asked since this server ``started`` (``presence.phone_seen``);
    ``bot_seat``: a bot picks or picked for the seat (a bot player, a seat handed to a bot, a bots draft's seats)."""
    row.last_seen = asked
    if bot_seat or row.bot_player or row.state == "bot":
        row.holder = "bot"
    elif held is None:
        row.holder = None
    elif held.via == "terminal":
        running = held.terminal_running()
        row.holder, row.connected, row.last_seen = "terminal", running, None if running else held.left or held.at
    else:
        row.holder = "phone"
        row.last_seen, row.before_restart = presence.phone_seen(held.at, asked, started)
