"""The cards a phone shows marked, kept by the server for the seat's pick timer (the page keeps its marks on screen
and tells the server as they change, on its stream): in the pod's draft as this server holds it
(``DraftTable.mark``), in memory only, through the seat's ``SeatSession`` as a terminal's marks go.  When the seat's
time runs out, the timer takes them and the strong bot's pick for the rest (``draft.timeout``)."""

from __future__ import annotations

from events.sessions.seat import SeatSession
from events.web.api_common import ApiError, Served, whole, wholes
from events.web.api_draft import claim_if_free, seat_place
from events.web.bodies import StreamMarks


def mark_cards(served: Served, player_id: int, token: str, body: StreamMarks) -> None:
    """The seat's marks as the page shows them now (in a worker: the pod's lock is taken).  Marks on a pack the seat
    no longer holds, or from a browser whose token doesn't hold the seat, change nothing; a body out of the limits
    is the 400 ``bad-field`` refusal."""
    limits = served.settings
    pack = whole(body.pack, "pack", 1, limits.max_pack_number)
    pick = whole(body.pick, "pick", 1, limits.max_pack_number)
    if len(body.cards) > limits.max_pick_cards:
        raise ApiError(400, "bad-field", "marks name at most a few cards")
    positions = wholes(body.cards, "each card", 0, limits.max_card_position)
    place = seat_place(served.snapshot(), player_id)
    if place is None or place[2] is None:
        return  # no draft for the seat: nothing to mark
    with served.locked(place[0]):
        shown = held_seat(served, place[0], place[1], token)
        if shown is not None:
            shown.seen = (pack, pick)
            shown.mark_only(positions)


def stream_opened(served: Served, player_id: int, token: str) -> None:
    """A seat's stream opened (in a worker): its seat bound to this browser if nobody holds it (``claim_if_free``),
    and its marks start over, as the page shows none until it says so (a page still showing marks sends them)."""
    claim_if_free(served, player_id, token)
    place = seat_place(served.snapshot(), player_id)
    if place is None or place[2] is None:
        return
    with served.locked(place[0]):
        shown = held_seat(served, place[0], place[1], token)
        if shown is not None:
            shown.seen = shown.at
            shown.mark_only([])


def held_seat(served: Served, pod: int, seat: int, token: str) -> SeatSession | None:
    """The seat of the pod's draft as this browser holds it (the caller holds the pod's lock); None when the draft
    is over, the seat is a bot's or another terminal's or browser's holds it."""
    session = served.table(pod)
    if session.draft.finished or seat not in session.humans or not session.bound(seat, token):
        return None
    return SeatSession(session, seat, token=token, wall=served.wall)
