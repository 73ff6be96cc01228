"""The organizer's printed sheets: which sheet is asked for, and the seatings with their seat-code slips.

``sheet(events, event_id, what)`` returns a ``Sheet`` (``events.outputs.sheets``); the round sheets
are made in ``pairing_sheets``, standings and results in ``standings_sheets``, decklists in
``decklist_sheets``.
"""

from __future__ import annotations

import shlex
import unicodedata
from collections.abc import Sequence
from urllib.parse import urlencode, urlsplit

from draft.products import product
from events.night.base import EventBase
from events.night.seat_codes import uses_codes
from events.night.snapshot import PlayerRow
from events.outputs.decklist_sheets import decklists
from events.outputs.pairing_sheets import pairings, slips
from events.outputs.sheets import Block, Link, Note, Page, Sheet, Table, subtitle
from events.outputs.standings_sheets import results, standings
from events.storage.records import Player
from events.storage.tables import records_of
from sets.errors import InputError, StateError
from sets.names import name_order
from sets.visible import quoted

PRINTABLES = ("seatings", "pairings", "slips", "standings", "results", "decklists")
CODE_SLIPS_PER_PAPER = 5  # seat-code slips on one A4 or Letter sheet of paper (long names too), cut lines between
PHONE_SLIPS_PER_PAPER = 3  # with a join address and its QR code each slip is taller


def base_url(url: str) -> str:
    """The address players' phones open (the one ``cmdraft serve`` prints), checked: http or https, a host and an
    optional port, no path, query or fragment; without its trailing slash."""
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
        or parts.path not in ("", "/")  # the server's own address: each slip adds /join (docs: a host and a port)
        or parts.query
        or parts.fragment
        or parts.username
        or any(ch.isspace() or ord(ch) < 32 for ch in text)
    ):
        raise InputError(
            f"--url {quoted(url)} is not a web address for phones: give the one 'cmdraft serve' prints, "
            "like http://192.168.1.20:8000"
        )
    return text.rstrip("/")


def join_url(base: str, event_id: int, player_id: int) -> str:
    """Where a player's slip sends the phone: the join page with the event and the player's number filled
    in (never the seat code: the player types it)."""
    return f"{base_url(base)}/join?{urlencode({'event': event_id, 'player': player_id})}"


def sheet(
    events: EventBase, event_id: int, what: str, codes: bool = False, url: str = "", only: Sequence[str] = ()
) -> Sheet:
    """The sheet ``what`` (one of ``PRINTABLES``) for an event; ``codes``: the seatings with seat codes (desk only),
    ``url``: with them, where ``cmdraft serve`` listens, for each slip's join address and QR code; ``only``
    (names or ``#N``): only their slips (a late player's, without printing every code again)."""
    makers = {
        "seatings": seatings,
        "pairings": pairings,
        "slips": slips,
        "standings": standings,
        "results": results,
        "decklists": decklists,
    }
    if what not in makers:
        raise InputError(f"nothing called {quoted(what)} to print: choose one of {', '.join(PRINTABLES)}")
    if url and not codes:
        raise InputError("--url belongs to the seating slips: use it with 'seatings --codes'")
    if only and not codes:
        raise InputError("--player belongs to the seating slips: use it with 'seatings --codes'")
    if codes:
        return seatings(events, event_id, codes=True, url=url, only=only)
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


def seatings(events: EventBase, event_id: int, codes: bool = False, url: str = "", only: Sequence[str] = ()) -> Sheet:
    """Pods in seat order and "find your seat" (public); with ``codes``, a seating slip per player with
    their seat code and the command their terminal runs, five to a sheet of paper for the desk to cut and hand out
    (never a public sheet); with ``url`` (where ``cmdraft serve`` listens) each slip also carries its join
    address, as text and a QR code (three to a sheet then); with ``only``, only those players' slips (a name that isn't
    a player of the event is refused, and so is one with no slip: not seated, dropped, or a bot)."""
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
    find = sorted((p for p in snap.players if p.pod), key=lambda p: (*name_order(p.name), p.id))
    lookup = Table(
        ("Player", "Pod", "Seat"),
        tuple((_player_label(p), str(p.pod), str((p.seat or 0) + 1)) for p in find),
        right=(1, 2),
    )
    pages = [Page("Draft pods", (*pods, passing)), Page("Find your seat", (lookup,))]
    if codes:
        with events.store.read() as db:
            secret = {p.id: p.code for p in records_of(db, Player).find(event=event_id)}
        # A late player who joined once the draft had started holds a sealed pool and a code of their own, but no
        # draft seat: their slip is printed too (the desk is told it needs one), in the same order of names.
        sealed = [p for p in snap.players if p.pod is None and secret.get(p.id)]
        holders = [p for p in sorted((*find, *sealed), key=lambda p: (*name_order(p.name), p.id)) if not p.bot]
        holders = [p for p in holders if p.status == "active"]
        if only:
            wanted = {events.player(event_id, who).id for who in only}  # an unknown name: the core's refusal
            slipless = [p.name for p in snap.players if p.id in wanted and p.id not in {h.id for h in holders}]
            if slipless:
                raise StateError(
                    f"no seating slip for {', '.join(quoted(name) for name in slipless)}: a slip is for a player "
                    "still in the event with a seat code (seated, or given a sealed pool)"
                )
            holders = [p for p in holders if p.id in wanted]
        pages = [
            Page(
                "Seating slip",
                (
                    Table(
                        ("Player", "Pod", "Seat", "Seat code"),
                        (
                            (p.name, "—", "sealed", secret.get(p.id) or "—")
                            if p.pod is None
                            else (p.name, str(p.pod), str((p.seat or 0) + 1), secret.get(p.id) or "—"),
                        ),
                    ),
                    Note(_terminal_words(event_id, p, event.set)),
                    *_phone_blocks(url, event_id, p.id),
                ),
                name=p.name,  # as typed, never upper-cased
            )
            for p in holders
        ]
    per_paper = (PHONE_SLIPS_PER_PAPER if url else CODE_SLIPS_PER_PAPER) if codes else 1
    return Sheet("seatings", event.name, subtitle(event), tuple(pages), per_paper=per_paper)


def slip_file(number: int, name: str) -> str:
    """The file a late player's slip is suggested to go to: 'slip-7-Ann.html', the player's number (no two players
    share one, so two names the same but for an accent or a space get two files) and the name's letters, digits
    and '-' in plain ASCII (an accent left off: 'Zoé' is 'Zoe')."""
    plain = unicodedata.normalize("NFKD", name)
    kept = "".join(
        c if c.isascii() and (c.isalnum() or c == "-") else "-" for c in plain if not unicodedata.combining(c)
    ).strip("-")
    return f"slip-{number}-{kept or 'player'}.html"


def _terminal_words(event_id: int, player: PlayerRow, set_code: str) -> str:
    """What a slip's holder types at a terminal: the draft's command, or for a late player with a sealed pool (no
    draft seat) the commands that build their deck and show their table."""
    name = shlex.quote(player.name)
    if player.pod is None:
        return (
            f"Your pool is sealed ({product(set_code).sealed_words}). At your terminal, build your deck with 'cmdraft event deck "
            f"{event_id} {name} --build' and see your table with 'cmdraft event table {event_id} --player {name}' "
            "(it asks for this code). Keep it to yourself."
        )
    return f"At your terminal type: cmdraft event draft {event_id} --player {name} and then this code, once. Keep it to yourself."


def _phone_blocks(url: str, event_id: int, player_id: int) -> tuple[Block, ...]:
    if not url:
        return ()
    return (
        Note("On your phone: scan the QR code or open the address below, then type your seat code."),
        Link(join_url(url, event_id, player_id)),
    )
