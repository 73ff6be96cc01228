"""``event undo``: the desk's last change taken back, where that is safe, in one transaction with its
own entry in the event's history (which names the entry it undoes).

Safe means the change is still as it left things and nothing since was built on it: a result no
later round was paired from (a correction may always be taken back: that is a correction again),
a round with nothing played in it, a seating before the draft, a check-in before seating, a name, a
drop no pairing has skipped yet, a game-tracker entry in an open round.  Other changes say how to
put them right instead (a deck is registered again, a pool recorded again or edited).
"""

from __future__ import annotations

import shlex
from typing import Any

import msgspec
from tinydb import TinyDB

from events.night import history
from events.night.base import EventBase, finishing_text
from events.night.games import Games, entry_text
from events.night.registration import dropped_before
from events.night.report_waits import wait_again
from events.night.schema import minute_text
from events.storage.database_file import backup_before_change, saved_at
from events.storage.draft_records import rename_seat
from events.storage.record_parts import UndoNote
from events.storage.records import Change, Deck, Event, Game, Player, Pod, Pool, Result, Round
from events.storage.store import phase_change
from events.storage.tables import records_of
from sets.errors import StateError, StorageError
from sets.userdata import db_option
from sets.visible import quoted, visible

# What to do instead of undoing a change: the words every face says (the desk's page too: no command, flag or key),
# then what the desk's terminal adds (``UndoRefused.at_terminal``): the command that does it.
INSTEAD: dict[str, tuple[str, str]] = {
    "deck": ("register the deck again", "'cmdraft event deck {id} NAME FILE{db}'"),
    "pool": ("record the pool again, or edit it", "'cmdraft event pool {id} NAME FILE --replace{db}', or --edit"),
    "draft start": ("a started draft has been dealt; if you must, restore the backup taken before it", "{restore}"),
    "sealed pools": ("the pools are opened; if you must, restore the backup taken before it", "{restore}"),
    "finish": ("a finished event stays finished; if you must, restore the backup taken before it", "{restore}"),
    "restore": ("restore the backup taken before it", "{restore}"),
    "game undo": ("record the entry again", "'cmdraft event game'"),
    "player remove": ("register the player again", ""),
    "pipers": ("set the ledger again", "'cmdraft event pipers'"),
    "event new": ("an event is not taken back; leave it unused", ""),
    "round again": (
        "its round's first pairing is in the history; pair the round",
        "'cmdraft event round {id}{db}'",
    ),
    "clock": (
        "a round's clock is set again, not undone: start it again from its length, give it another length, or pause it",
        "'cmdraft event clock {id} --restart{db}' starts it again; --minutes N gives another length, p pauses it",
    ),
    "extra time": (
        "a table's extra time stays; the round's clock can be given another length",
        "'cmdraft event clock {id} --minutes N{db}'",
    ),
    "deck registration closes": (
        "set another closing time (a later time opens registration again until then)",
        "'cmdraft event deck {id} --close HH:MM{db}'",
    ),
    "seat code reset": (
        "the old code is gone; give the player the new one",
        "'cmdraft event player code {id} NAME{db}'",
    ),
}


# Changes whose undo moves players who may be sitting at those tables: the desk confirms them first.
ASKS = ("round", "seat", "reseat")


def change_text(entry: Change) -> str:
    """A history entry the desk would undo, in words: a round's pairing, a seating, or what and its new value."""
    final = history.final_table_round(entry.what, entry.new)
    if final is not None:
        return f"the final table (round {final})"  # as the log names it (``Entry.what_text``)
    if entry.what == "round":
        return (
            f"the pairing of round {entry.new if entry.undo is None or entry.undo.round is None else entry.undo.round}"
        )
    if entry.what in ("seat", "reseat"):
        return "the draft seating" if entry.what == "seat" else "the re-seating of the pods"
    if entry.what == "round again":  # its new value is none: the round it paired again is a new "round" entry
        return "a round paired again"
    return f"{entry.what}: {history.value_text(entry.new, entry.what)}"  # in words, as the log shows it


class NextUndo(msgspec.Struct, frozen=True):
    """What ``undo`` would take back next: the history entry's number and ``what``, ``text`` in words, when it was
    made, ``asks`` (a round's pairing or a seating: confirmed first) and ``refused`` (why it can't be, or None)."""

    entry: int
    what: str
    text: str
    at: str
    asks: bool
    refused: str | None

    @property
    def when(self) -> str:
        """When the change was made, as every face writes a time ('2026-12-07 00:01 UTC'; ``at`` is ISO)."""
        return minute_text(self.at)

    def to_json(self) -> dict[str, Any]:
        """As ``event undo --list --json`` prints it: ``text`` and ``refused`` are words, with the names in them
        written out as every face shows them (``visible``)."""
        shown: dict[str, Any] = msgspec.to_builtins(self)
        shown.update(text=visible(self.text), refused=None if self.refused is None else visible(self.refused))
        return shown


class Undone(msgspec.Struct, frozen=True):
    """A change taken back: ``undid`` in words, the history entry's number, ``what`` it was, and its old and new
    value (the new one is gone, the old one back)."""

    undid: str
    entry: int
    what: str
    old: Any
    new: Any

    def to_json(self) -> dict[str, Any]:
        """As ``event undo --json`` prints it: ``undid`` is words, with the names in it written out as every face
        shows them (``visible``); ``old`` and ``new`` are the stored values as they are."""
        shown: dict[str, Any] = msgspec.to_builtins(self)
        shown.update(undid=visible(self.undid))
        return shown


class UndoRefused(StateError):
    """A change undo doesn't take back (exit 3; the web's 409): the words say what to do instead on every face, and
    ``terminal`` what the desk's terminal adds, the command that does it ("" when none)."""

    def __init__(self, message: str, terminal: str = "") -> None:
        super().__init__(message)
        self.terminal = terminal

    @property
    def at_terminal(self) -> str:
        """The refusal as the desk's terminal says it: the words, then the command."""
        return f"{self} ({self.terminal})" if self.terminal else str(self)


class _DryRun(Exception):
    """Raised inside a transaction to leave it unwritten, carrying what would have been done."""

    def __init__(self, result: Undone) -> None:
        super().__init__("dry run")
        self.result = result


class Undo(EventBase):
    """Taking back the desk's last change."""

    def next_change(self, event_id: int) -> NextUndo | None:
        """What ``undo`` would take back next (None when nothing): the entry's id, ``what``, ``text`` in words,
        ``asks`` (a round's pairing or a seating: confirmed first) and ``refused`` (why it can't be, or None)."""
        with self.store.read() as db:
            self._event(db, event_id)
            entry = history.last_undoable(db, event_id)
        if entry is None:
            return None
        try:
            self.undo(event_id, expect=entry.id, dry_run=True)  # every check run, nothing written
            refused = None
        except (StateError, StorageError) as error:  # (a read-only database is still read: why it can't be undone)
            refused = error.at_terminal if isinstance(error, UndoRefused) else str(error)  # ``--list``: the desk's
        return NextUndo(
            entry=entry.id,
            what=entry.what,
            text=change_text(entry),
            at=entry.at,
            asks=entry.what in ASKS,
            refused=refused,
        )

    def undo(self, event_id: int, expect: int | None = None, dry_run: bool = False) -> Undone:
        """Take back the desk's newest change not yet undone; returns what was undone, or ``StateError``
        saying why it can't be (and what to do instead).  ``expect``: the entry the desk confirmed (another
        change since is refused, not undone in its place); ``dry_run``: checked, nothing written."""
        try:
            return self._undo(event_id, expect, dry_run)
        except _DryRun as done:
            return done.result

    def _undo(self, event_id: int, expect: int | None, dry_run: bool) -> Undone:
        with self.store.write() as db:
            event = self._event(db, event_id)
            entry = history.last_undoable(db, event_id)
            if entry is None:
                raise StateError(f"nothing to undo: the desk has made no change to event {event_id} that isn't undone")
            if expect is not None and entry.id != expect:
                raise StateError(
                    f"the desk's last change is now {change_text(entry)} (another change was made meanwhile): "
                    "nothing undone; undo again to take back that one "
                    f"('cmdraft event undo {event_id}{db_option(self.store.path)}')"
                )
            what = entry.what
            handler = getattr(self, "_undo_" + what.replace(" ", "_"), None)
            if handler is None or entry.undo is None:
                words, command = INSTEAD.get(what, ("make the change again the other way", ""))
                command = command.format(
                    id=event_id, db=db_option(self.store.path), restore=self._restore_before(event_id, entry)
                )
                raise UndoRefused(f"the desk's last change ({change_text(entry)}) can't be undone: {words}", command)
            said = handler(db, event_id, event, entry, entry.undo)
            done = Undone(undid=f"{what} {said}", entry=entry.id, what=what, old=entry.old, new=entry.new)
            if dry_run:
                raise _DryRun(done)  # leaves the transaction unwritten
            history.log_change(db, event_id, history.DESK, "undo", entry.new, entry.old, undoes=entry.id)
        return done

    def _restore_before(self, event_id: int, entry: Change) -> str:
        """The command that puts this one event back from the newest readable backup taken before ``entry``
        (it holds the event and not the entry), with the backup's time; the other events stay as they are."""

        backup = backup_before_change(self.store.path, event_id, entry.id, entry.at)
        if backup is None:
            return "no backup taken before it can be read"
        command = f"cmdraft event restore {shlex.quote(str(backup))} --event {event_id}{db_option(self.store.path)}"
        return f"{backup}, saved {saved_at(backup)}: '{command}'"

    @staticmethod
    def _unsafe(entry: Change, why: str) -> StateError:
        return StateError(f"the desk's last change ({entry.what}: {entry.new}) can't be undone safely: {why}")

    def _names(self, db: TinyDB, event_id: int) -> dict[int, str]:
        return {p.id: p.name for p in self._players(db, event_id)}

    # --- one handler per kind of change: check it is still as it was left, then put it back -----------------

    def _undo_rename(self, db: TinyDB, event_id: int, event: Event, entry: Change, undo: UndoNote) -> str:
        player = records_of(db, Player).get(undo.player)
        if player is None or player.name != entry.new:
            raise self._unsafe(entry, "the player has been renamed or removed since")
        if any(p.name == entry.old for p in self._players(db, event_id) if p.id != player.id):
            raise self._unsafe(entry, f"another player is called {quoted(entry.old)} now")
        records_of(db, Player).update(player.id, name=entry.old)
        pod = records_of(db, Pod).first(event=event_id, number=player.pod) if player.pod else None
        if pod is not None and pod.draft and player.id in pod.players:
            rename_seat(db, pod.draft, pod.players.index(player.id), entry.old)
        return f"{quoted(entry.new)} back to {quoted(entry.old)}"

    def _undo_result(self, db: TinyDB, event_id: int, event: Event, entry: Change, undo: UndoNote) -> str:
        if event.status == "finished":
            raise self._unsafe(entry, "the event is finished")
        assert undo.round is not None  # a result's undo names its round and table
        result = records_of(db, Result).first(event=event_id, round=undo.round, table=undo.table)
        if result is None or result.order != undo.new:
            raise self._unsafe(entry, "the result has changed since")
        where = f"of round {undo.round} table {undo.table}"
        rnd = records_of(db, Round).first(event=event_id, number=undo.round)
        if undo.order is not None:
            records_of(db, Result).update(result.id, order=undo.order)
            return f"{where}: back to {finishing_text(undo.order, self._names(db, event_id))}"
        later = records_of(db, Round).first(event=event_id, number=undo.round + 1)
        if later is not None:
            raise self._unsafe(
                entry,
                f"round {later.number} was paired with it; correct it with "
                f"'cmdraft event result {event_id} {undo.round} {undo.table} ORDER --replace'",
            )
        records_of(db, Result).remove(result.id)
        assert rnd is not None  # its result was there
        records_of(db, Round).update(rnd.id, status="open")
        return f"{where} ({entry.new}): the table has no result again"

    def _undo_round(self, db: TinyDB, event_id: int, event: Event, entry: Change, undo: UndoNote) -> str:
        rounds = sorted(records_of(db, Round).find(event=event_id), key=lambda r: r.number)
        if not rounds or rounds[-1].number != undo.round:
            raise self._unsafe(entry, "a later round has been paired")
        if records_of(db, Result).count(event=event_id, round=undo.round) or records_of(db, Game).count(
            event=event_id, round=undo.round
        ):
            raise self._unsafe(entry, f"round {undo.round} already has results or games recorded")
        phase_change(db)
        records_of(db, Round).remove(rounds[-1].id)
        if len(rounds) == 1:
            records_of(db, Event).update(event_id, status=undo.status)
        dropped_before(db, event_id, undo.round)  # a player who dropped from its table never played it
        return f"{undo.round}: its pairing is taken back"

    def _undo_checkin(self, db: TinyDB, event_id: int, event: Event, entry: Change, undo: UndoNote) -> str:
        if event.status != "registration":
            raise self._unsafe(entry, "the players are seated")
        players = records_of(db, Player)
        players.update([pid for pid in undo.players if players.get(pid)], checked_in=False)
        return f"of {' / '.join(map(quoted, entry.new))}: not checked in again"

    def _undo_player_add(self, db: TinyDB, event_id: int, event: Event, entry: Change, undo: UndoNote) -> str:
        players = records_of(db, Player)
        player = players.get(undo.player)
        if player is None:
            raise self._unsafe(entry, "the player is no longer registered")
        if (
            event.status not in ("registration", "seated")
            or records_of(db, Pool).first(event=event_id, player=player.id)
            or records_of(db, Deck).first(event=event_id, player=player.id)
        ):
            raise self._unsafe(entry, f"{quoted(player.name)} has a pool or the draft has started; drop them instead")
        if player.pod is not None:
            pod = records_of(db, Pod).first(event=event_id, number=player.pod)
            assert pod is not None  # a player's pod is there while they are seated in it
            if pod.draft:
                raise self._unsafe(entry, "the draft has started; drop them instead")
            seats = [pid for pid in pod.players if pid != player.id]
            records_of(db, Pod).update(pod.id, players=seats)
            for seat, pid in enumerate(seats):
                players.update(pid, seat=seat)
        players.remove(player.id)
        return f"of {quoted(entry.new)}: the registration is taken back"

    def _undo_drop(self, db: TinyDB, event_id: int, event: Event, entry: Change, undo: UndoNote) -> str:
        player = records_of(db, Player).get(undo.player)
        if player is None or player.status != "dropped":
            raise self._unsafe(entry, "the player is no longer dropped")
        if undo.event_status == "drafting":
            raise self._unsafe(entry, "a bot took their draft seat")
        if records_of(db, Round).count(event=event_id) != undo.rounds or event.status == "finished":
            raise self._unsafe(entry, "a round has been paired without them since")
        # ``NAME: status`` (a drop logged before the name was: the status alone); a status holds no ': '
        records_of(db, Player).update(player.id, status=str(entry.old).rsplit(": ", 1)[-1], dropped_after=None)
        again = "".join(
            f"; round {number} table {table}'s report waits for their confirmation again (its result taken back)"
            for number, table in wait_again(db, event_id, player.id)
        )
        return f"of {quoted(player.name)}: back in the event{again}"

    def _undo_game(self, db: TinyDB, event_id: int, event: Event, entry: Change, undo: UndoNote) -> str:
        rnd = records_of(db, Round).first(event=event_id, number=undo.round)
        if rnd is None or rnd.status == "closed" or event.status == "finished":
            raise self._unsafe(entry, f"round {undo.round} is closed")
        assert undo.round is not None and undo.table is not None  # a game's undo names its round and table
        taken = Games.take_back_last(db, event_id, undo.round, undo.table, rnd.tables[undo.table - 1], undo.entries)
        if taken is None:
            raise self._unsafe(entry, "the table has changed since")
        commanders = {pid: Games._commander_names(db, event_id, pid) for pid in rnd.tables[undo.table - 1]}
        return f"at {entry.old}: {entry_text(taken, self._names(db, event_id), commanders)}"

    def _undo_seat(self, db: TinyDB, event_id: int, event: Event, entry: Change, undo: UndoNote) -> str:
        pods = sorted(records_of(db, Pod).find(event=event_id), key=lambda p: p.number)
        names = self._names(db, event_id)
        if event.status != "seated" or any(p.draft for p in pods) or records_of(db, Pool).count(event=event_id):
            raise self._unsafe(entry, "the draft has started")
        if [[names[pid] for pid in pod.players] for pod in pods] != entry.new:
            raise self._unsafe(entry, "the pods have changed since (a late player was seated)")
        phase_change(db)
        players = records_of(db, Player)
        records_of(db, Pod).remove([pod.id for pod in pods])
        for pod in pods:
            players.update(pod.players, pod=None, seat=None)
        for pid in undo.no_shows:
            players.update(pid, status="active")
        if undo.pods is None:
            records_of(db, Event).update(event_id, status="registration", seatings=undo.seatings)
            return "of the players: back to registration"
        for number, ids in enumerate(undo.pods, start=1):
            records_of(db, Pod).insert_fields(event=event_id, number=number, players=ids, draft=None, opened=None)
            for seat, pid in enumerate(ids):
                players.update(pid, pod=number, seat=seat)
        records_of(db, Event).update(event_id, seatings=undo.seatings)
        return "of the players: the pods are as before"

    _undo_reseat = _undo_seat
