"""The organizer's printed sheets as data: what goes on each sheet, not how it looks.

``sheet(events, event_id, what)`` returns a ``Sheet``: a title and pages, each page a list of
blocks (tables, notes, lines to fill in), plus the rows a CSV of it holds (pairings, standings,
results).  The writers in ``events.outputs.sheet_writers`` turn a sheet into 80-column text, one
self-contained HTML page or CSV.  No rendering library is used here.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit

from draft.decks import Zone
from events.night.decks import Decks
from events.night.rounds import Rounds
from events.night.schema import number_text
from events.night.seat_codes import uses_codes
from events.night.snapshot import DeckSummary, PlayerRow, Snapshot
from events.night.standings import placement_points
from events.outputs.visible import visible
from events.storage.records import Event, Round
from sets.errors import InputError, StateError

PRINTABLES = ("seatings", "pairings", "slips", "standings", "results", "decklists")
CSV_PRINTABLES = ("pairings", "standings", "results")
ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th")
TYPE_GROUPS = ("Creature", "Planeswalker", "Instant", "Sorcery", "Artifact", "Enchantment", "Battle", "Land")


@dataclass(frozen=True)
class Table:
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    title: str = ""
    right: tuple[int, ...] = ()  # columns aligned right (numbers)


@dataclass(frozen=True)
class Note:
    text: str
    strong: bool = False


@dataclass(frozen=True)
class Blanks:
    """Lines to fill in by hand: ``Label: ______``."""

    labels: tuple[str, ...]


@dataclass(frozen=True)
class Link:
    """A web address to open on a phone: printed as text, and on an HTML page as a QR code of it too."""

    url: str


Block = Table | Note | Blanks | Link


def base_url(url: str) -> str:
    """The address players' phones open (the one ``cmdraft serve`` prints), checked: http or https, a host,
    no query or fragment; without its trailing slash."""
    text = url.strip()
    try:
        parts = urlsplit(text)
        port_ok = parts.port is None or 0 < parts.port < 65536
    except ValueError:
        parts, port_ok = None, False
    if (
        parts is None
        or not port_ok
        or parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.query
        or parts.fragment
        or parts.username
        or any(ch.isspace() or ord(ch) < 32 for ch in text)
    ):
        raise InputError(
            f"--url {visible(url)!r} is not a web address for phones: give the one 'cmdraft serve' prints, "
            "like http://192.168.1.20:8000"
        )
    return text.rstrip("/")


def join_url(base: str, event_id: int, player_id: int) -> str:
    """Where a player's slip sends the phone: the join page with the event and the player's number filled
    in (never the seat code: the player types it)."""
    return f"{base_url(base)}/join?{urlencode({'event': event_id, 'player': player_id})}"


@dataclass(frozen=True)
class Page:
    title: str
    blocks: tuple[Block, ...]
    name: str = ""  # a player's name after the title: shown as typed, never upper-cased


def page_heading(page: Page, upper: bool = False) -> str:
    """A page's heading: the title (upper-cased on 80-column text) and the name as typed."""
    title = page.title.upper() if upper else page.title
    return f"{title} · {page.name}" if page.name else title


@dataclass(frozen=True)
class Sheet:
    what: str
    title: str
    subtitle: str
    pages: tuple[Page, ...]
    csv: Table | None = None
    page_breaks: bool = True  # each page on its own sheet of paper when printed
    per_paper: int = 1  # pages printed together on one sheet of paper, with cut lines between them
    meta: dict[str, Any] = field(default_factory=dict)


def ordinal(place: int) -> str:
    return ORDINALS[place - 1] if 1 <= place <= len(ORDINALS) else f"{place}th"


def _subtitle(event: Event) -> str:
    return f"{event.date} · {event.set} {event.mode} ({event.style})"


def sheet(events, event_id: int, what: str, codes: bool = False, url: str = "") -> Sheet:
    """The sheet ``what`` (one of ``PRINTABLES``) for an event; ``codes``: the seatings with seat codes (desk only),
    ``url``: with them, where ``cmdraft serve`` listens, for each slip's join address and QR code."""
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
    if url and not codes:
        raise InputError("--url belongs to the seating slips: use it with 'seatings --codes'")
    if codes:
        return seatings(events, event_id, codes=True, url=url)
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


def seatings(events, event_id: int, codes: bool = False, url: str = "") -> Sheet:
    """Pods in seat order and "find your seat" (public); with ``codes``, a seating slip per player with
    their seat code after them, for the desk to cut and hand out (never a public sheet); with ``url``
    (where ``cmdraft serve`` listens) each slip also carries its join address, as text and a QR code."""
    snap = events.snapshot(event_id)
    event = snap.event
    if not snap.pods:
        raise StateError(f"no draft seating yet: seat the players first with 'cmdraft event seat {event_id}'")
    if url:
        base_url(url)  # a bad address is refused before anything else is worked out
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
                        f"At your terminal: cmdraft event draft {event_id} --player NAME, then type this code once. Keep it to yourself."
                    ),
                    *_phone_blocks(url, event_id, p.id),
                ),
            )
            for p in find
            if not p.bot and p.status == "active"
        ]
    return Sheet("seatings", event.name, _subtitle(event), tuple(pages))


def _phone_blocks(url: str, event_id: int, player_id: int) -> tuple[Block, ...]:
    if not url:
        return ()
    return (
        Note("On your phone: scan the QR code or open the address below, then type your seat code."),
        Link(join_url(url, event_id, player_id)),
    )


# --- pairings and slips ----------------------------------------------------------------------------------------


def first_players(event: Event, rnd: Round) -> list[int]:
    """The recorded first player of each table (rounds from before the draw was recorded: the same seeded draw)."""
    if rnd.first and len(rnd.first) == len(rnd.tables):
        return list(rnd.first)
    rng = random.Random(event.seed * 1000 + rnd.number)
    return [table[rng.randrange(len(table))] for table in rnd.tables]


def _current_round(snap: Snapshot, event_id: int) -> Round:
    if not snap.rounds:
        raise StateError(f"no round has started: start one with 'cmdraft event round {event_id}'")
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


def pairings(events, event_id: int) -> Sheet:
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
        key=lambda row: (row[0].casefold(), row[0]),
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
        _subtitle(event),
        (
            Page(f"Round {rnd.number} pairings", (*tables, note)),
            Page(f"Round {rnd.number}: find your table", (lookup,)),
        ),
        csv=Table(PAIRINGS_CSV, pairing_rows(snap, [rnd])),
    )


SLIPS_PER_PAPER = 3  # result slips of up to 5 players fit three to an A4 or Letter sheet


def slips(events, event_id: int) -> Sheet:
    """One result slip per table, three to a sheet of paper with cut lines between them."""
    snap = events.snapshot(event_id)
    event = snap.event
    rnd = _current_round(snap, event_id)
    names = {p.id: p.name for p in snap.players}
    first = first_players(event, rnd)
    pages = []
    for number, table in enumerate(rnd.tables, start=1):
        places = "  ".join(f"[ ]{ordinal(place)}" for place in range(1, len(table) + 1))
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
    return Sheet("slips", event.name, _subtitle(event), tuple(pages), per_paper=SLIPS_PER_PAPER)


# --- standings and results -----------------------------------------------------------------------------------


def standings_legend(points: list[Any]) -> tuple[str, ...]:
    """What every standings column means, tie-breakers in order (shown under the table on screen and paper)."""
    scheme = "/".join(number_text(p) for p in points)
    return (
        (
            f"Points: placement points from every game ({scheme} for 1st, 2nd, …); players who draw share the average "
            "of the places they cover."
        ),
        (
            "Tie-breaker 1, Opp. avg: the average points per round of every opponent you shared a table with (each "
            "meeting counts); higher is better."
        ),
        (
            "Tie-breaker 2, Avg place: your average finishing place (1 is first); lower is better; blank before you "
            "have played."
        ),
        (
            "Rounds: games with a recorded result. Players equal on points and both tie-breakers share a rank and are "
            "listed by name."
        ),
    )


STANDINGS_CSV = ("rank", "player", "points", "opponents_average", "average_place", "rounds", "dropped")


def standings_csv(rows) -> Table:
    return Table(
        STANDINGS_CSV,
        tuple(
            (
                str(r.rank),
                r.name,
                number_text(r.points, 4),
                number_text(r.opponents_average, 4),
                number_text(r.average_place, 4),
                str(r.rounds),
                str(int(r.dropped)),
            )
            for r in rows
        ),
    )


def standings(events, event_id: int) -> Sheet:
    snap = events.snapshot(event_id)
    event = snap.event
    rows = Rounds(events.store).standings(event_id)
    if not snap.results:
        heading = "Standings before any result"
    elif snap.rounds[-1].status == "closed":
        heading = f"Standings after round {snap.rounds[-1].number}"
    else:
        heading = f"Standings during round {snap.rounds[-1].number} (some tables still playing)"
    table = Table(
        ("Rank", "Player", "Points", "Opp. avg", "Avg place", "Rounds"),
        tuple(
            (
                str(r.rank),
                r.name + (" (dropped)" if r.dropped else ""),
                number_text(r.points),
                f"{float(r.opponents_average):.2f}",
                "" if r.average_place is None else f"{float(r.average_place):.2f}",
                str(r.rounds),
            )
            for r in rows
        ),
        right=(0, 2, 3, 4, 5),
    )
    legend = tuple(Note(line) for line in standings_legend(event.points))
    return Sheet(
        "standings",
        event.name,
        _subtitle(event),
        (Page(heading, (table, *legend)),),
        csv=standings_csv(rows),
        page_breaks=False,
    )


RESULTS_CSV = ("round", "table", "player", "place", "points")


def result_rows(events, snap: Snapshot) -> list[tuple[int, int, str, int, Any]]:
    """(round, table, player, place, points) for every recorded result, in round and table order."""
    names = {p.id: p.name for p in snap.players}
    rows = []
    for result in sorted(snap.results, key=lambda r: (r.round, r.table)):
        awarded = placement_points(snap.event, result.order)
        place = 1
        for group in result.order:
            for pid in group:
                rows.append((result.round, result.table, names[pid], place, awarded[pid]))
            place += len(group)
    return rows


def results_csv(events, snap: Snapshot) -> Table:
    return Table(
        RESULTS_CSV,
        tuple(
            (str(r), str(t), name, str(place), number_text(points, 4))
            for r, t, name, place, points in result_rows(events, snap)
        ),
    )


def results(events, event_id: int) -> Sheet:
    snap = events.snapshot(event_id)
    event = snap.event
    rows = result_rows(events, snap)
    blocks: list[Block] = []
    for rnd in snap.rounds:
        mine = [row for row in rows if row[0] == rnd.number]
        status = "finished" if rnd.status == "closed" else "in progress"
        if mine:
            blocks.append(
                Table(
                    ("Table", "Place", "Player", "Points"),
                    tuple((str(t), ordinal(place), name, number_text(points)) for _, t, name, place, points in mine),
                    title=f"Round {rnd.number} ({status})",
                    right=(0, 3),
                )
            )
        else:
            blocks.append(Note(f"Round {rnd.number} ({status})", strong=True))
        waiting = [number for number in range(1, len(rnd.tables) + 1) if not any(row[1] == number for row in mine)]
        if waiting:
            blocks.append(Note("Waiting for table(s) " + ", ".join(map(str, waiting)) + "."))
    if not blocks:
        blocks.append(Note("No round has been played yet."))
    return Sheet(
        "results",
        event.name,
        _subtitle(event),
        (Page("Results", tuple(blocks)),),
        csv=results_csv(events, snap),
        page_breaks=False,
    )


# --- decklists ---------------------------------------------------------------------------------------------------


def type_group(card) -> str:
    """The heading a card is listed under: its first type in ``TYPE_GROUPS`` (an artifact creature is a creature)."""
    for group in TYPE_GROUPS:
        if card.has_type(group):
            return group
    return "Other"


def _sideboard(pool, deck) -> list[tuple[int, str]]:
    """Pool cards the deck doesn't use (by name), as (count, name); basics the store provides aren't in a pool."""
    left = Counter(p.card.name for p in pool)
    used = Counter({card.name: 1 for card in deck.commanders})
    for line in deck.lines:
        if line.zone is Zone.MAIN:
            used[line.card.name] += line.count
    left.subtract(used)
    return sorted(((n, name) for name, n in left.items() if n > 0), key=lambda item: (item[1].casefold(), item[1]))


def decklists(events, event_id: int) -> Sheet:
    """One registration sheet per player: who (number, pod, seat), commanders, the list by type, the sideboard."""
    snap = events.snapshot(event_id)
    event = snap.event
    if event.status not in ("building", "playing", "finished"):
        raise StateError(f"decks are registered after the draft; the event is {event.status}")
    decks = Decks(events.store)
    pages = []
    for player in sorted(
        (p for p in snap.players if p.status == "active" and not p.bot),
        key=lambda p: (p.name.casefold(), p.name, p.id),
    ):
        who = Table(
            ("Player", "Player no.", "Pod", "Seat"),
            (
                (
                    player.name,
                    f"#{player.number}",
                    str(player.pod or "—"),
                    "—" if player.seat is None else str(player.seat + 1),
                ),
            ),
            right=(1, 2, 3),
        )
        deck = decks.deck_of(event_id, player.id)
        if deck is None:
            pages.append(
                Page(
                    "Decklist",
                    (who, Note("No deck registered yet.", strong=True), Blanks(("Player signature", "Checked by"))),
                    name=player.name,
                )
            )
            continue
        colors = iter(deck.piper_colors)
        commanders = []
        for card in deck.commanders:
            commanders.append(
                f"{card.name} (chosen color: {next(colors).word})"
                if card.chooses_color and deck.piper_colors
                else card.name
            )
        blocks: list[Block] = [who, Table(("Commander",), tuple((c,) for c in commanders) or (("none",),))]
        if deck.piper_colors:
            blocks.append(Note("Prismatic Piper colors: " + ", ".join(color.word for color in deck.piper_colors)))
        groups: dict[str, list[tuple[int, str]]] = {}
        for line in deck.zone(Zone.MAIN):
            groups.setdefault(type_group(line.card), []).append((line.count, line.card.name))
        for group in (*TYPE_GROUPS, "Other"):
            if group in groups:
                cards = sorted(groups[group], key=lambda item: (item[1].casefold(), item[1]))
                count = sum(n for n, _ in cards)
                blocks.append(
                    Table(
                        ("Qty", "Card"),
                        tuple((str(n), name) for n, name in cards),
                        title=f"{group} ({count})",
                        right=(0,),
                    )
                )
        blocks.append(
            Note(
                f"Total: {deck.size} cards ({len(deck.commanders)} commander(s) + "
                f"{deck.size - len(deck.commanders)} in the deck)",
                strong=True,
            )
        )
        try:
            pool = decks.pool(event_id, player.id)
        except StateError:
            pool = []
        # The sideboard (the rest of the pool) as one paragraph, so a sealed pool's 80 cards still fit the sheet.
        sideboard = _sideboard(pool, deck)
        blocks.append(
            Note(
                f"Sideboard ({sum(n for n, _ in sideboard)}, the rest of the pool): "
                + (" / ".join(f"{n} {name}" for n, name in sideboard) or "none")
            )
        )
        registered = player.deck or DeckSummary(False, [], [])
        if registered.valid:
            blocks.append(Note("Legal for Commander draft.", strong=True))
        else:
            blocks.append(Note("NOT legal:", strong=True))
            blocks.extend(Note(f"- {problem['message']}") for problem in registered.problems)
        blocks.append(Blanks(("Player signature", "Checked by")))
        pages.append(Page("Decklist", tuple(blocks), name=player.name))
    if not pages:
        pages.append(Page("Decklists", (Note("No active player."),)))
    return Sheet("decklists", event.name, _subtitle(event), tuple(pages))
