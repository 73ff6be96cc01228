"""What every phase of an event shares: the store, the card index and the lookups of one
event and its players, and the snapshot of everything recorded (the board, sheets and exports
read it).  Each phase module holds a small class built on ``EventBase``; ``events.night.event.Events``
puts them together."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

import msgspec
from tinydb import TinyDB

from events.night import history
from events.night.joining import NO_PLAYER
from events.night.schema import STATUSES, pool_warning
from events.night.snapshot import DeckSummary, PlayerRow, Snapshot
from events.storage.draft_records import draft_statuses
from events.storage.records import CodeFailure, Deck, Event, Player, Pod, Pool, Report, Result, Round
from events.storage.store import Store
from events.storage.tables import records_of
from sets.card_index import CardIndex, card_index
from sets.errors import InputError, StateError
from sets.names import name_key
from sets.numbers import is_number
from sets.visible import quoted

Phase = TypeVar("Phase", bound="EventBase")


class ListedEvent(Event, frozen=True, kw_only=True):
    """An event as ``event list`` shows it: with how many players are still in it."""

    players: int = 0


# why a step waits for a later phase (``NOT_YET``: by the first status it needs) or belongs to an earlier one
# (``ALREADY``: by the event's status), as every refusal of a step out of order says it (``status_refusal``)
NOT_YET = {
    "seated": "the players aren't seated yet",
    "drafting": "the draft hasn't started yet",
    "building": "not every pod has drafted yet",
    "playing": "no round has been paired yet",
    "finished": "the event isn't finished yet",
}
ALREADY = {
    "seated": "the players are already seated",
    "drafting": "the draft has already started",
    "building": "the decks are already being built",
    "playing": "the rounds have already started",
    "finished": "the event is already finished",
}


def status_refusal(status: str, statuses: tuple[str, ...], doing: str, hint: str = "") -> str:
    """Why ``doing`` is refused while the event is ``status`` (it needs one of ``statuses``), in words that read
    for every status: "can't finish the event: the event is already finished"; ``hint``: what to do, in brackets."""
    order = list(STATUSES)
    first = min(statuses, key=order.index)
    why = NOT_YET[first] if order.index(status) < order.index(first) else ALREADY[status]
    return f"can't {doing}: {why}" + (f" ({hint})" if hint else "")


def before_a_round(event_id: int, status: str) -> str:
    """What to do before a round can be played, by where the event stands (``status``): the step a refusal names."""
    return {
        "registration": f"seat the players with 'cmdraft event seat {event_id}', then start the draft",
        "seated": f"start the draft with 'cmdraft event draft {event_id}'",
        "drafting": f"'cmdraft event show {event_id}' shows the pods still drafting",
        "finished": "the event is finished",
    }.get(status, f"start one with 'cmdraft event round {event_id}'")


def player_number(player: Player) -> int:
    """A player's number in their event (``#N``): counted per event; records from before that use their row number."""
    return player.number or player.id


def finishing_text(order: list[list[int]] | None, names: dict[int, str]) -> str | None:
    """A finishing order as the desk types it: ``Ann > Bo = Cy``."""
    if order is None:
        return None
    return " > ".join(" = ".join(names[pid] for pid in group) for group in order)


def no_round(event_id: int, round_number: int, rounds: int) -> InputError:
    """The error for a round that doesn't exist: which rounds there are, and how to pair the next."""
    there = "no round has been paired yet" if not rounds else f"it has rounds 1 to {rounds}"
    return InputError(
        f"no round {round_number} in event {event_id}: {there} "
        f"(pair the next one with 'cmdraft event round {event_id}')"
    )


def round_at_table(db: TinyDB, event_id: int, round_number: int, table_number: int) -> Round:
    """The round record, when it exists and has that table: else bad input (2) naming what there is."""
    rounds = records_of(db, Round)
    rnd = rounds.first(event=event_id, number=round_number)
    if rnd is None:
        raise no_round(event_id, round_number, rounds.count(event=event_id))
    if not 1 <= table_number <= len(rnd.tables):
        raise InputError(f"round {round_number} has tables 1 to {len(rnd.tables)}, not {table_number}")
    return rnd


SAID_MOST = 3  # a refusal names this many of a list (a player, a table) and counts the rest: one readable line


def first_of(items: list[str], separator: str = ", ") -> str:
    """The first ``SAID_MOST`` of ``items`` as a refusal names them, the rest counted: ``'Ann', 'Bo', 'Cy' and 24
    more``."""
    said = separator.join(items[:SAID_MOST])
    return said + (f" and {len(items) - SAID_MOST} more" if len(items) > SAID_MOST else "")


def tables_waiting(db: TinyDB, rnd: Round) -> str:
    """The tables of ``rnd`` with no result yet, as the desk reads them: ``table 2``, ``tables 1 / 3``, ``tables 1
    / 2 / 3 and 4 more``."""
    done = {r.table for r in records_of(db, Result).find(event=rnd.event, round=rnd.number)}
    left = [str(n) for n in range(1, len(rnd.tables) + 1) if n not in done]
    return ("table " if len(left) == 1 else "tables ") + first_of(left, " / ")


class EventBase:
    """A store and the lookups every use case needs; each phase of the night extends it."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._index: CardIndex | None = None

    @property
    def path(self) -> Path:
        """The database file this phase works on (where a face says it is, and what it watches for changes)."""
        return self.store.path

    def phase(self, kind: type[Phase]) -> Phase:
        """Another phase of the night (``kind``: a class built on ``EventBase``) over the same database."""
        return kind(self.store)

    def check_exists(self) -> None:
        """Refuse a database file that is not there (``MissingDatabaseError``), creating nothing: every use case but
        creating an event or restoring one into a new database needs one that is."""
        self.store.check_exists()

    def check_readable(self) -> None:
        """Read the database once: one that can't be read is refused here, in one line (``StorageError``)."""
        with self.store.read():
            pass

    @property
    def index(self) -> CardIndex:
        if self._index is None:
            self._index = card_index()
        return self._index

    # --- reading ------------------------------------------------------------------------------

    @staticmethod
    def _event(db: TinyDB, event_id: int) -> Event:
        event = records_of(db, Event).get(event_id)
        if event is None:
            raise InputError(f"no event {event_id}: see 'cmdraft event list'")
        return event

    @staticmethod
    def _players(db: TinyDB, event_id: int, active_only: bool = False) -> list[Player]:
        players = records_of(db, Player).find(event=event_id)
        return [p for p in players if p.status == "active"] if active_only else players

    def _player(self, db: TinyDB, event_id: int, who: str | int) -> Player:
        """A player by exact name first (then the same name in another case, Unicode form or spacing), or
        ``#N`` for player number N in this event.

        An int is a player number from the program itself.  Bare digits are a name: a player called
        ``3`` is reachable, and ``3`` never silently means player number 3.
        """
        table = records_of(db, Player)
        if isinstance(who, int):
            found = table.get(who)
            if found is None or found.event != event_id:
                raise self._no_number(db, event_id, who)
            return found
        text = " ".join(str(who).split())
        if not text:
            raise InputError(NO_PLAYER)
        named = table.values("id", event=event_id, name=text)  # the usual case, without reading every player
        if len(named) == 1 and (found := table.get(named[0])) is not None:
            return found
        players = self._players(db, event_id)
        key = name_key(text)
        exact = [p for p in players if p.name == text] or [p for p in players if name_key(p.name) == key]
        if len(exact) == 1:
            return exact[0]
        if len(exact) > 1:
            raise InputError(
                f"{quoted(text)} names {len(exact)} players: use the player number "
                f"({' / '.join('#' + str(player_number(p)) for p in exact)})"
            )
        number = text[1:].strip() if text.startswith("#") else ""
        if is_number(number):
            found = next((p for p in players if player_number(p) == int(number)), None)
            if found is None:
                raise self._no_number(db, event_id, int(number))
            return found
        if is_number(text) and not any(player_number(p) == int(text) for p in players):
            raise self._no_number(db, event_id, int(text), named=text)  # a number that is no one's, nor a name
        hint = f"; for player number {text} write '#{text}'" if is_number(text) else ""
        raise InputError(f"no player {quoted(text)} in event {event_id}{hint}: see 'cmdraft event show {event_id}'")

    def _no_number(self, db: TinyDB, event_id: int, number: int, named: str = "") -> InputError:
        """No player has ``number`` in the event (and, when ``named``, no one is called that either): the numbers
        there are, and where the players are listed."""
        numbers = sorted(player_number(p) for p in self._players(db, event_id))
        nobody = f"no one is named {quoted(named)}, and " if named else ""
        if not numbers:
            there = f"{nobody}event {event_id} has no players yet"
        elif len(numbers) == 1:
            there = f"{nobody}the only player is #{numbers[0]}"
        else:
            there = f"{nobody}player numbers here run from #{numbers[0]} to #{numbers[-1]}"
        return InputError(f"no player {number} in event {event_id} ({there}): see 'cmdraft event show {event_id}'")

    def history(self, event_id: int) -> list[history.Entry]:
        """Every change to the event, oldest first (who, when, what, old and new value)."""
        with self.store.read() as db:
            self._event(db, event_id)
            return history.history(db, event_id)

    @staticmethod
    def _require(event: Event, *statuses: str, doing: str, hint: str = "") -> None:
        """``StateError`` (exit 3) unless the event is in one of ``statuses``: "can't DOING: WHY (HINT)", WHY in
        words for the event's status (``status_refusal``)."""
        if event.status not in statuses:
            raise StateError(status_refusal(event.status, statuses, doing, hint))

    def snapshot_tables(self, event_id: int, round_number: int) -> list[list[str]]:
        """The tables of a round, by player names."""
        snap = self.snapshot(event_id)
        names = snap.names()
        rnd = next((r for r in snap.rounds if r.number == round_number), None)
        if rnd is None:
            raise no_round(event_id, round_number, len(snap.rounds))
        return [[names[i] for i in table] for table in rnd.tables]

    # --- public look-ups (each in a read transaction of its own) ---------------------------------------

    def event(self, event_id: int) -> Event:
        """The event record (bad input, exit 2, when there is none)."""
        with self.store.read() as db:
            return self._event(db, event_id)

    def players(self, event_id: int, active_only: bool = False) -> list[Player]:
        """The event's players in the order they registered (only those still playing with ``active_only``)."""
        with self.store.read() as db:
            self._event(db, event_id)
            return self._players(db, event_id, active_only)

    def player(self, event_id: int, who: str | int) -> Player:
        """A player by name or ``#N`` (as ``_player`` reads them), or by id when ``who`` is an int."""
        with self.store.read() as db:
            self._event(db, event_id)
            return self._player(db, event_id, who)

    def player_id(self, event_id: int, who: str | int) -> int:
        return self.player(event_id, who).id

    def list_events(self) -> list[ListedEvent]:
        """Every event, with how many players are still in it."""
        with self.store.read() as db:
            return [
                msgspec.convert(
                    {**msgspec.structs.asdict(event), "players": len(self._players(db, event.id, True))}, ListedEvent
                )
                for event in records_of(db, Event).all()
            ]

    def snapshot(self, event_id: int) -> Snapshot:
        """Everything about an event, for the status board and exports."""
        with self.store.read() as db:
            event = self._event(db, event_id)
            players = self._players(db, event_id)
            pools = {pool.player: pool for pool in records_of(db, Pool).find(event=event_id)}
            decks = {deck.player: deck for deck in records_of(db, Deck).find(event=event_id)}
            saved = {  # the problems and commander lines as saved: they carry keys the types don't list
                deck.id: (
                    records_of(db, Deck).as_saved(deck.id, "problems", default=[]),
                    records_of(db, Deck).as_saved(deck.id, "deck", "commanders", default=[]),
                )
                for deck in decks.values()
            }
            pods = sorted(records_of(db, Pod).find(event=event_id), key=lambda d: d.number)
            rounds = sorted(records_of(db, Round).find(event=event_id), key=lambda d: d.number)
            results = tuple(records_of(db, Result).find(event=event_id))
            drafts = {pod.number: pod.draft for pod in pods if pod.draft}
            statuses = draft_statuses(self.store, db, list(drafts.values()))
            legacy: dict[int, list[str]] = {}  # wrong codes kept one row per try (before the per-seat counter)
            for row in records_of(db, CodeFailure).find(event=event_id):
                legacy.setdefault(row.player, []).append(row.at)
        picks = {number: statuses[draft_id] for number, draft_id in drafts.items()}
        rows = []
        warnings: dict[tuple[str, int], str | None] = {}  # by (mode, size): one booster spec read, not one a player
        for player in players:
            pool = pools.get(player.id)
            size = None if pool is None else len(pool.cards)
            # A late player who joined a draft with a sealed pool is held to the sealed size.
            kind = msgspec.structs.replace(event, mode="sealed") if pool and pool.source == "sealed" else event
            if size is not None and (kind.mode, size) not in warnings:
                warnings[kind.mode, size] = pool_warning(kind, size)
            deck = decks.get(player.id)
            summary = None if deck is None else DeckSummary(deck.valid, *saved[deck.id])
            tries = legacy.get(player.id, [])
            wrong = player.code_tries + len(tries)
            last = max([*tries, *([player.code_tried_at] if player.code_tried_at else [])], default=None)
            rows.append(
                msgspec.convert(
                    {
                        **msgspec.structs.asdict(player),
                        "wrong_codes": wrong,
                        "wrong_code_last": last,
                        "wrong_code_from": player.code_tried_from,
                        "number": player_number(player),
                        "pool_size": size,
                        "pool_warning": None if size is None else warnings[kind.mode, size],
                        "deck": summary,
                    },
                    PlayerRow,
                    from_attributes=True,
                )
            )
        return Snapshot(event, tuple(rows), tuple(pods), tuple(rounds), results, picks)


PENDING = ("waiting", "disputed")  # a table's report not yet the table's result, nor set aside


def pending_report(db: TinyDB, event_id: int, round_number: int, table_number: int) -> Report | None:
    """The table's report still waiting for confirmations or for the desk (None when there is none)."""
    found = [
        r
        for r in records_of(db, Report).find(event=event_id, round=round_number, table=table_number)
        if r.status in PENDING
    ]
    return max(found, key=lambda r: r.id) if found else None
