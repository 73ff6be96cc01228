"""The organizer's printed sheets: which sheet is asked for, and the seatings with their seat-code slips.

``sheet(events, event_id, what)`` returns a ``Sheet`` (``events.outputs.sheets``); the round sheets
are made in ``pairing_sheets``, standings and results in ``standings_sheets``, decklists in
``decklist_sheets``.
"""

from __future__ import annotations

import shlex

from events.night.seat_codes import uses_codes
from events.night.snapshot import PlayerRow
from events.outputs.decklist_sheets import decklists
from events.outputs.pairing_sheets import pairings, slips
from events.outputs.sheets import Note, Page, Sheet, Table, subtitle
from events.outputs.standings_sheets import results, standings
from sets.errors import InputError, StateError

PRINTABLES = ("seatings", "pairings", "slips", "standings", "results", "decklists")
CODE_SLIPS_PER_PAPER = 5  # seat-code slips on one A4 or Letter sheet of paper (long names too), cut lines between


def sheet(events, event_id: int, what: str, codes: bool = False) -> Sheet:
    """The sheet ``what`` (one of ``PRINTABLES``) for an event; ``codes``: the seatings with seat codes (desk only)."""
    makers = {
        "seatings": seatings,
        "pairings": pairings,
        "slips": slips,
        "standings": standings,
        "results": results,
        "decklists": decklists,
    }
    if what not in makers:
        raise InputError(f"nothing called {what!r} to print: choose one of {', '.join(PRINTABLES)}")
    if codes:
        return seatings(events, event_id, codes=True)
    return makers[what](events, event_id)


# --- seatings ----------------------------------------------------------------------------------------------


def _player_label(player: PlayerRow) -> str:
    marks = [
        mark
        for flag, mark in (
            (player.status == "dropped", "dropped"),
            (player.bot, "bot"),
            (player.late, "late"),
        )
        if flag
    ]
    return player.name + (f" ({', '.join(marks)})" if marks else "")


def seatings(events, event_id: int, codes: bool = False) -> Sheet:
    """Pods in seat order and "find your seat" (public); with ``codes``, a seating slip per player with
    their seat code and the command their terminal runs, five to a sheet of paper for the desk to cut and hand out
    (never a public sheet)."""
    snap = events.snapshot(event_id)
    event = snap.event
    if not snap.pods:
        raise StateError(f"no draft seating yet: seat the players first with 'cmdraft event seat {event_id}'")
    if codes and not uses_codes(event):
        raise StateError(
            f"event {event_id} has no seat codes (it was made with --no-codes, or is not a terminal draft)"
        )
    players = {p.id: p for p in snap.players}
    pods = tuple(
        Table(
            ("Seat", "Player"),
            tuple((str(seat), _player_label(players[pid])) for seat, pid in enumerate(pod.players, start=1)),
            title=f"Pod {pod.number} · {len(pod.players)} seats",
            right=(0,),
        )
        for pod in snap.pods
    )
    passing = Note("Seats run clockwise. Pass the first pack left, the second right, the third left.")
    find = sorted((p for p in snap.players if p.pod), key=lambda p: (p.name.casefold(), p.name, p.id))
    lookup = Table(
        ("Player", "Pod", "Seat"),
        tuple((_player_label(p), str(p.pod), str(p.seat + 1)) for p in find),
        right=(1, 2),
    )
    pages = [Page("Draft pods", (*pods, passing)), Page("Find your seat", (lookup,))]
    if codes:
        with events.store.read() as db:
            secret = {
                p.doc_id: p.get("code") for p in db.table("players").search(lambda doc: doc.get("event") == event_id)
            }
        pages = [
            Page(
                f"Seating slip · {p.name}",
                (
                    Table(
                        ("Player", "Pod", "Seat", "Seat code"),
                        ((p.name, str(p.pod), str(p.seat + 1), secret.get(p.id) or "—"),),
                    ),
                    Note(
                        f"At your terminal type: cmdraft event draft {event_id} --player {shlex.quote(p.name)}"
                        " and then this code, once. Keep it to yourself."
                    ),
                ),
            )
            for p in find
            if not p.bot and p.status == "active"
        ]
    return Sheet("seatings", event.name, subtitle(event), tuple(pages), per_paper=CODE_SLIPS_PER_PAPER if codes else 1)
