"""Seat codes: nobody picks for someone else at a terminal draft, and nobody can shut a player out.

Each player of a terminal draft gets a short code when seated (``code`` in the
player's record; the desk prints it on the seating slips, never on a public
sheet).  A terminal picking for a player asks for the code once and binds the
seat to that terminal session: the process keeps a random token in memory (and
a short-lived file named after the terminal's tty and session, ``terminal_token``)
and the draft's file keeps the token's hash (``TableSession.claim``), so the
same terminal window is not asked again, and a pick from any other terminal is
refused.

Wrong codes slow down where they come from, never the seat (``check_code``): each *source* (a browser's
address, a terminal) types its first ``FREE_WRONG_CODES`` wrong codes with no wait, and one more; after that it
waits before its next try, twice as long after each further wrong code (``wait_after``, at most ``MAX_WAIT``),
and starts over once it has typed none for ``FORGET_AFTER``.  The right code from anywhere else is taken at once, so a stranger
guessing every seat's code shuts nobody out.  The seat keeps, for the desk, how many wrong codes were typed for
it, when the last one was and where from (``code_tries``, ``code_tried_at``, ``code_tried_from``).  The desk can
reset a code: the seat is unbound until the new code is given.  An event made with ``--no-codes`` has none
(anyone at any terminal can pick for anyone, as before codes).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import os
import secrets
import shlex
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
from tinydb import TinyDB

from events import portable, timing
from events.night import history, joining, presence
from events.night.refusals import DESK, Actor, LimitExceeded
from events.storage.records import CodeFailure, CodeSource, Event, Player, Pod, Pool
from events.storage.safe_files import PRIVATE, atomic_write, readable_by_others
from events.storage.tables import records_of
from sets.errors import InputError, StateError
from sets.userdata import db_option, user_home
from sets.visible import quoted

if TYPE_CHECKING:
    from events.night.base import EventBase
    from events.night.drafting import Drafting

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read off a slip without doubt
LENGTH = 6
WRONG_CODE_DELAY = 1.0  # seconds before a wrong code is refused: guessing 32**6 codes takes years


def code_help(name: str) -> str:
    """What a seat code is and where it is, for a player who asks at a terminal's code prompt (asking is no try)."""
    return (
        f"The seat code for {quoted(name)} is the {LENGTH} characters on the seating slip (no 0/O or 1/I; "
        "spaces and dashes don't matter). Type it to pick for them at this terminal, or 'quit' to leave; "
        "no slip? ask the desk, which can show the code."
    )


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def clean(text: str) -> str:
    """A typed code as stored: capitals, spaces and dashes left out."""
    return "".join(ch for ch in text.upper() if ch not in " -\t")


def uses_codes(event: Event) -> bool:
    """Players of this event pick behind seat codes (terminal drafts made without ``--no-codes``)."""
    return bool(event.codes) and event.style == "terminal" and event.mode == "draft"


def not_served_why(event: Event, event_id: int) -> str | None:
    """Why ``cmdraft serve`` can't put the event on the players' phones (None: it can): only a terminal draft with
    seat codes is served, and an event's style, mode and codes are fixed when it is made."""
    if event.mode == "sealed":  # (whatever its --style: a sealed event has no seats to join)
        return (
            f"event {event_id} is a sealed event: its players build and register their decks at the desk "
            f"('cmdraft event deck {event_id} NAME'), not from a browser; for phones, run a draft made "
            "with '--style terminal'"
        )
    if uses_codes(event):
        return None
    made = "it was made with --no-codes" if event.style == "terminal" else f"it is a {event.style} draft"
    return (
        f"event {event_id} has no seat codes ({made}): players can't join it from a browser, and an event's style "
        "and codes can't be changed once it is made; for phones, make a new event with 'cmdraft event new NAME "
        "--style terminal' (seat codes are on by default) and register the players there"
    )


def assign_codes(db: TinyDB, event: Event, event_id: int) -> None:
    """Inside a transaction: every seated human player without a code gets one."""
    if not uses_codes(event):
        return
    players = records_of(db, Player)
    for player in players.find(event=event_id):
        if player.pod is not None and not player.bot and not player.code:
            players.update(player.id, code=new_code())


def give_code(db: TinyDB, event: Event, player_id: int) -> None:
    """Inside a transaction: a code for a player who joins after the draft started with a sealed pool (no draft
    seat, but the night's seat: the deck, their table, the standings, from a phone or a terminal)."""
    if uses_codes(event):
        records_of(db, Player).update(player_id, code=new_code())


def reset_code(events: Drafting, event_id: int, who: str, *, actor: Actor = DESK) -> tuple[str, str]:
    """A new code for the player (the old one stops working, the seat is unbound); returns (name, code).  Only
    the desk resets codes (``NotAllowed``).

    Two files change: the seat is unbound in the draft file first, then the new code saved; a crash between leaves
    the old code in force and the seat free for whoever gives it (never a new code with the old terminal still
    holding the seat), and running the command again finishes the reset.  The seat is unbound once more after the
    code is saved: the old code, in force until then, may have bound it again meanwhile (a phone's pick binds a
    free seat)."""
    actor.require_desk("make a new seat code")
    with events.store.read() as db:
        player, pod = _resettable(events, db, event_id, who)

    def unbind() -> None:
        if pod is not None and pod.draft:
            events._pod_session(event_id, pod.number).release(pod.players.index(player.id))

    unbind()
    code = new_code()
    with events.store.write() as db:
        player, _ = _resettable(events, db, event_id, who)
        records_of(db, Player).update(player.id, code=code, code_tries=0, code_tried_at=None, code_tried_from=None)
        records_of(db, CodeFailure).remove_where(event=event_id, player=player.id)
        presence.forget(db, event_id, player.id)  # nobody holds the seat until the new code is given
        history.log_change(db, event_id, history.DESK, "seat code reset", None, player.name)  # never the code itself
    unbind()
    return player.name, code


def holds_a_seat(pod: int | None, has_pool: bool) -> bool:
    """Whether a player holds the night's seat a code opens: a draft seat, or a pool of their own (a late player's
    sealed pool, ``give_code``).  A late player every pod was full for holds neither yet: codes are given at
    seating."""
    return pod is not None or has_pool


def code_resettable(event: Event, bot: bool, pod: int | None, has_pool: bool) -> bool:
    """Whether the desk may give this player a new code (what ``reset_code`` refuses otherwise), for a face to
    offer it only where it is taken."""
    return uses_codes(event) and not bot and holds_a_seat(pod, has_pool)


def seat_code(events: Drafting, event_id: int, who: str) -> tuple[str, str]:
    """The player's name and seat code (the desk's 'player code'); ``StateError`` saying how to get one when they
    have none: a seat whose code is gone (an event restored from an export made before 'event finish' holds none)
    is given one with the command named, pasted as it is shown."""
    with events.store.read() as db:
        player, _ = _resettable(events, db, event_id, who)
    if not player.code:
        again = f"cmdraft event player code {event_id} {shlex.quote(player.name)} --reset"
        raise StateError(
            f"{quoted(player.name)} has no seat code (an event restored from an export made before 'event finish' "
            f"holds none): give one with: {again}{db_option(events.store.path)}"
        )
    return player.name, player.code


def _resettable(events: Drafting, db: TinyDB, event_id: int, who: str) -> tuple[Player, Pod | None]:
    """The player whose code may be reset, and their pod; ``StateError`` when there is no code to reset."""
    event = events._event(db, event_id)
    if not uses_codes(event):
        raise StateError(
            f"event {event_id} has no seat codes (it was made with --no-codes, or is not a terminal draft)"
        )
    player = events._player(db, event_id, who)
    has_pool = records_of(db, Pool).first(event=event_id, player=player.id) is not None
    if player.bot or not holds_a_seat(player.pod, has_pool):
        raise StateError(f"{quoted(player.name)} has no seat yet: codes are given at seating")
    return player, records_of(db, Pod).first(event=event_id, number=player.pod)


FREE_WRONG_CODES = 3  # wrong codes a source types with no wait after them (so the next comes at once too)
MAX_WAIT = 600.0  # seconds: the longest a source waits between two tries
FORGET_AFTER = 3600.0  # seconds without a wrong code after which a source starts over
CODE_SOURCES = "code_sources"  # one row per source that typed a wrong code: event, source, wrong, at, until


class SlowDown(LimitExceeded):
    """A source (a browser's address, a terminal) typed so many wrong codes that its next try waits: ``wait``
    seconds from now (``retry_after``: the same, whole).  The seat is not locked: the right code from anywhere
    else is taken at once."""

    def __init__(self, source: str, wrong: int, wait: float) -> None:
        super().__init__(
            "code",
            f"wrong seat codes from {source}",
            0,
            FREE_WRONG_CODES,
            wrong,
            message=slow_down_message(source, wait),
            retry_after=math.ceil(wait),
        )
        self.wait = wait


def wait_after(wrong: int) -> float:
    """Seconds a source waits after its ``wrong``-th wrong code in a row: none for the first
    ``FREE_WRONG_CODES``, then 2, 4, 8, ... up to ``MAX_WAIT``."""
    if wrong <= FREE_WRONG_CODES:
        return 0.0
    return min(MAX_WAIT, 2.0 ** min(wrong - FREE_WRONG_CODES, 30))


def terminal_source() -> str:
    """Where a terminal types: its tty device, or this machine's terminals when input comes from a pipe."""
    key = portable.terminal_key()
    return f"terminal {key[0]}" if key else "a terminal of this machine (no tty)"


def slow_down_message(source: str, wait: float) -> str:
    return (
        f"too many wrong seat codes from {source}: the next try is taken in {math.ceil(wait)} s "
        "(check the code on your seating slip, or ask the desk)"
    )


def check_code(
    events: EventBase,
    event_id: int,
    player_id: int,
    typed: str,
    delay: float = WRONG_CODE_DELAY,
    by: str | None = None,
    source: str | None = None,
) -> bool:
    """Whether ``typed`` is the player's code, typed from ``source`` (a browser's address, a terminal: this
    process's terminal when not given).  A source still waiting after its wrong codes raises ``SlowDown``
    (nothing is checked, nothing counted).  A wrong code counts against its source (which then waits
    ``wait_after`` its count) and, for the desk, on the seat (how many, when, from where); it waits ``delay``
    seconds (outside the lock) and is refused.  Nothing typed is bad input (``joining.NO_CODE``), never a try.  The right code is never refused for another source's tries.
    The check and the counts are one transaction, so sources typing at once can't get past their waits.  The
    right code typed at a terminal (no ``source``) also says, for the desk, that this terminal holds the seat.
    ``by``: who typed, for the history (the player's terminal when not given)."""
    joining.code_typed(typed)  # nothing typed is no try: said in the core's words, nothing counted
    at_terminal = source is None
    source = terminal_source() if source is None else source[:120]
    now = timing.now()
    with events.store.write() as db:
        slow = _wrong_or_right(events, db, event_id, player_id, typed, source, now, at_terminal, by)
    if isinstance(slow, SlowDown):
        raise slow  # after the transaction: a wait the clock set back restarted is kept
    if slow:
        return True
    timing.sleep(delay)
    return False


def _wrong_or_right(
    events: EventBase,
    db: TinyDB,
    event_id: int,
    player_id: int,
    typed: str,
    source: str,
    now: float,
    at_terminal: bool,
    by: str | None,
) -> SlowDown | bool | None:
    """Inside ``check_code``'s transaction: True for the right code, a ``SlowDown`` for a source still waiting, None
    for a wrong code (counted)."""
    player = events._player(db, event_id, player_id)
    sources = records_of(db, CodeSource)
    row = sources.first(event=event_id, source=source)
    if row is not None and now - row.at > FORGET_AFTER:
        sources.remove(row.id)
        row = None
    if row is not None and now < row.at:  # the clock was set back since: the wait it was given runs from now
        sources.update(row.id, at=now, until=now + min(MAX_WAIT, max(0.0, row.until - row.at)))
        row = sources.first(event=event_id, source=source)
    if row is not None and now < row.until:
        return SlowDown(source, row.wrong, row.until - now)
    code = player.code or ""
    if code and hmac.compare_digest(clean(typed).encode(), code.encode()):
        if at_terminal:  # this terminal (its process) holds the seat from now: the desk sees it, before the draft too
            presence.put(db, event_id, player.id, "terminal", os.getpid())
        return True
    wrong = (0 if row is None else row.wrong) + 1
    until = now + wait_after(wrong)
    if row is None:
        sources.insert_fields(event=event_id, source=source, wrong=wrong, at=now, until=until)
    else:
        sources.update(row.id, wrong=wrong, at=now, until=until)
    records_of(db, Player).update(
        player.id, code_tries=player.code_tries + 1, code_tried_at=timing.stamp(), code_tried_from=source
    )
    if wrong == FREE_WRONG_CODES + 1:  # the history keeps the first wait of a source, not every try
        history.log_change(
            db, event_id, by or history.actor(player.name), "wrong seat codes", None, f"{source}: {wrong}"
        )
    return None


def source_waits(events: EventBase, event_id: int) -> list[dict[str, object]]:
    """The sources that typed wrong codes lately (for the desk): source, wrong codes in a row, when the last
    was (wall time), and the seconds left before their next try."""
    now = timing.now()
    with events.store.read() as db:
        rows = records_of(db, CodeSource).find(event=event_id)
    return [
        {
            "source": row.source,
            "wrong": row.wrong,
            "at": row.at,
            "wait": max(0.0, min(row.until - now, row.until - row.at)),
        }
        for row in sorted(rows, key=lambda r: -r.at)
        if now - row.at <= FORGET_AFTER
    ]


def failures(events: EventBase, event_id: int) -> dict[int, int]:
    """Wrong codes typed for each player since their code was given, for the desk."""
    return {player.id: player.wrong_codes for player in events.snapshot(event_id).players if player.wrong_codes}


def exposed_file(events: EventBase, event: Event) -> str | None:
    """A warning for the desk when a terminal event's database (which holds the seat codes, the
    packs' secret and every booster) can be read by other accounts; None when it can't (or where
    permission bits don't say: Windows)."""
    path = events.store.path
    if event.style != "terminal" or not readable_by_others(path):
        return None
    mode = path.stat().st_mode & 0o777
    return (
        f"{quoted(str(path))} can be read by other accounts on this machine (mode {mode:04o}), and it holds the seat codes "
        f"and the secret that deals the packs; make it the desk's alone with: chmod 600 {shlex.quote(str(path))}"
    )


class SavedToken(msgspec.Struct, frozen=True):
    """A terminal session's seat file (``keep_token`` writes it): the token, the session it belongs to, when."""

    token: str
    session: int
    at: float


SESSION_TOKEN_HOURS = 12  # a terminal session's seat file is honoured this long after it was last written


def _token_path(event: Event, player_id: int, key: tuple[str, int]) -> Path:
    """The file that remembers a seat's binding for one terminal session (its tty device and session id)."""
    terminal = hashlib.sha256(f"{key[0]}\0{key[1]}".encode()).hexdigest()[:16]
    return user_home() / "seats" / f"{event.uid or 'event'}-{player_id}-{terminal}.token"


def terminal_token(event: Event, player_id: int) -> str | None:
    """The token this terminal session holds for the player's seat, if the code was given in it.

    A seat is bound to one terminal session: the token lives in the memory of the process that was given
    the code, and in a short-lived file named after the terminal (its tty device and session id), so the
    same terminal window is not asked again, while another window, a new login at the same machine, or this
    one once its shell has ended (or ``SESSION_TOKEN_HOURS`` passed) is.  Input from a pipe, or a platform
    without terminal sessions (Windows), keeps it in memory only: every run asks."""
    key = portable.terminal_key()
    if key is None:
        return None
    path = _token_path(event, player_id, key)
    try:
        saved = msgspec.json.decode(path.read_bytes(), type=SavedToken)
    except (OSError, ValueError):  # unreadable, not JSON or not a token's fields: as if none were kept
        return None
    if (
        saved.session != key[1]
        or not portable.session_alive(saved.session)
        or timing.now() - saved.at > SESSION_TOKEN_HOURS * 3600
    ):
        path.unlink(missing_ok=True)
        return None
    return saved.token or None


def keep_token(event: Event, player_id: int) -> str:
    """A new token for this terminal's binding of the player's seat (kept by the caller, in memory), and
    its short-lived file for this terminal session, readable by this user only."""
    token = secrets.token_hex(16)
    key = portable.terminal_key()
    if key is None:
        return token  # no terminal session to name: the process's memory only
    path = _token_path(event, player_id, key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, json.dumps({"token": token, "session": key[1], "at": timing.now()}), PRIVATE)
    except OSError as error:
        raise InputError(
            f"cannot keep this terminal's seat binding in {quoted(str(path.parent))}: {error.strerror or error}; "
            "set CMDRAFT_HOME to a writable folder"
        ) from None
    return token
