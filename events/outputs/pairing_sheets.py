"""Round sheets: the pairings of the current round and its result slips, three to a sheet of paper."""

from __future__ import annotations

import random
from collections.abc import Sequence

from events.night.base import EventBase, before_a_round
from events.night.snapshot import Snapshot
from events.night.standings import ordinal
from events.outputs.sheets import Blanks, Note, Page, Sheet, Table, subtitle
from events.storage.records import Event, Round
from sets.errors import StateError
from sets.names import name_order


def first_players(event: Event, rnd: Round) -> list[int]:
    """The recorded first player of each table (rounds from before the draw was recorded: the same seeded draw)."""
    if rnd.first and len(rnd.first) == len(rnd.tables):
        return list(rnd.first)
    rng = random.Random(event.seed * 1000 + rnd.number)
    return [table[rng.randrange(len(table))] for table in rnd.tables]


def _current_round(snap: Snapshot, event_id: int) -> Round:
    if not snap.rounds:
        raise StateError(f"no round has started: {before_a_round(event_id, snap.event.status)}")
    return snap.rounds[-1]


def pairing_rows(snap: Snapshot, rounds: Sequence[Round]) -> tuple[tuple[str, ...], ...]:
    names = {p.id: p.name for p in snap.players}
    rows = []
    for rnd in rounds:
        first = first_players(snap.event, rnd)
        for number, table in enumerate(rnd.tables, start=1):
            for seat, pid in enumerate(table, start=1):
                rows.append(
                    (str(rnd.number), str(number), str(seat), names[pid], "1" if pid == first[number - 1] else "0")
                )
    return tuple(rows)


PAIRINGS_CSV = ("round", "table", "seat", "player", "first")


def pairings(events: EventBase, event_id: int) -> Sheet:
    snap = events.snapshot(event_id)
    event = snap.event
    rnd = _current_round(snap, event_id)
    names = {p.id: p.name for p in snap.players}
    first = first_players(event, rnd)
    tables = tuple(
        Table(
            ("Table", "Seat", "Player", "First"),
            tuple(
                (str(number), str(seat), names[pid], "goes first" if pid == first[number - 1] else "")
                for seat, pid in enumerate(table, start=1)
            ),
            title=f"Table {number}",
            right=(0, 1),
        )
        for number, table in enumerate(rnd.tables, start=1)
    )
    where = sorted(
        (
            (names[pid], number, seat)
            for number, table in enumerate(rnd.tables, start=1)
            for seat, pid in enumerate(table, start=1)
        ),
        key=lambda row: name_order(row[0]),
    )
    lookup = Table(
        ("Player", "Table", "Seat"), tuple((name, str(number), str(seat)) for name, number, seat in where), right=(1, 2)
    )
    note = Note(
        "Turns go clockwise in seat order, starting with the player who goes first (drawn at random when the "
        "round was paired)."
    )
    return Sheet(
        "pairings",
        event.name,
        subtitle(event),
        (
            Page(f"Round {rnd.number} pairings", (*tables, note)),
            Page(f"Round {rnd.number}: find your table", (lookup,)),
        ),
        csv=Table(PAIRINGS_CSV, pairing_rows(snap, [rnd])),
    )


SLIPS_PER_PAPER = 3  # result slips of up to 5 players fit three to an A4 or Letter sheet


def place_boxes(players: int) -> str:
    """A slip's places to tick, "[ ]1st  [ ]2nd ...": each box holds a no-break space, so a narrow column
    (a long name beside it) wraps between boxes, never inside one."""
    return "  ".join(f"[\u00a0]{ordinal(place)}" for place in range(1, players + 1))


def slips(events: EventBase, event_id: int) -> Sheet:
    """One result slip per table, three to a sheet of paper with cut lines between them."""
    snap = events.snapshot(event_id)
    event = snap.event
    rnd = _current_round(snap, event_id)
    names = {p.id: p.name for p in snap.players}
    first = first_players(event, rnd)
    pages = []
    for number, table in enumerate(rnd.tables, start=1):
        places = place_boxes(len(table))
        rows = tuple(
            (str(seat), names[pid] + (" *" if pid == first[number - 1] else ""), places, "_" * 16)
            for seat, pid in enumerate(table, start=1)
        )
        pages.append(
            Page(
                f"Table {number} · round {rnd.number} · result slip",
                (
                    Table(("Seat", "Player", "Place (tick one)", "Signature"), rows, right=(0,)),
                    Note("* goes first. Tick each player's finishing place; players who draw tick the same place."),
                    Blanks(("Judge / organizer", "Entered at the desk")),
                ),
            )
        )
    return Sheet("slips", event.name, subtitle(event), tuple(pages), per_paper=SLIPS_PER_PAPER)
