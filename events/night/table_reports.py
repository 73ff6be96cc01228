"""Results from the table: a player reports a finishing order, the others at the table confirm or dispute it.

- Any player at a table of the current round reports its finishing order (groups of player numbers,
  best place first; a group of several is a draw).  A new report replaces one still waiting.
- Every other player at the table who is still in the event confirms it or disputes it (with their own
  version when they give one).  The last confirmation records the result exactly as ``event result``
  does (``Rounds.record_order``, in the same transaction), logged as ``browser NAME`` (the reporter).
- A disputed report, or one still unconfirmed when the round's clock has run out, waits for the desk,
  which sees every version and settles it (``settle``: the desk's ``event result``); ``event result …
  --replace`` stays the desk's way to correct a recorded one.
- A player drops themselves (``drop_self``: the desk's ``player drop``, logged as theirs); the game
  tracker from the table (``track``, when the event allows it) is ``event game`` with the entry marked
  as the player's, and their undo takes back their own last entry.
- The desk gives a table extra time (``extra_time``), pairs the current round again with the players in the event
  now while nothing is recorded at its tables (``repair``), and seats the top of the standings at a final
  table (``top``): a round of one table, marked final, whose result is its own (not in the standings).

Each check and its write happen in one store transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tinydb import TinyDB

from events import timing
from events.night import history
from events.night.base import PENDING, EventBase, finishing_text, pending_report, round_at_table, tables_waiting
from events.night.games import GameBoard, Games
from events.night.refusals import DESK, Actor, dropped_out
from events.night.registration import Dropped, Registration, dropped_before
from events.night.report_waits import own_report_refusal, record_report, waiting_for
from events.night.round_clock import PAUSED, TIME_UP, RoundClock, extra_time_words
from events.night.rounds import Pairing, RecordedResult, Rounds, check_final_size
from events.night.shown import Answer, Clock, ClockWords, Number
from events.night.standings import standings_of, tie_breaks
from events.night.table_shown import confirmed_words
from events.storage.records import Dispute, Event, Game, Player, Report, Result, Round
from events.storage.store import Store
from events.storage.tables import records_of
from sets.errors import InputError, StateError
from sets.visible import quoted, visible


class NotYourTable(InputError):
    """A player acting for a table they don't sit at (the web face answers 403)."""


@dataclass(frozen=True)
class Reported:
    """A finishing order reported from a table: the report's number, and whether it became the table's result at
    once (nobody else at the table needed to confirm it)."""

    report: int
    recorded: bool


@dataclass(frozen=True)
class Confirmed:
    """A report confirmed or disputed: its number, its status now ("recorded" once the last confirmation recorded
    the result), whether it was recorded, and ``words``: what was taken, as every face says it ("Gus confirmed
    the result", "Gus already confirmed the result", "Gus disputed the result: the desk settles it")."""

    report: int
    status: str
    recorded: bool
    words: str = ""


class ExtraTime(Answer):
    """A table's extra time after the desk gave more: its round, its number, the extra seconds in all."""

    round: int
    table: int
    extra: Number


NO_TIES = "No ties: every place at the table and the cut below it are settled on points."


@dataclass(frozen=True)
class FinalTable:
    """The final table just seated: its round's number, the players by standing (their ranks beside them), who
    goes first (the highest standing), and how each tie among them and at the cut was settled."""

    round: int
    players: list[str]
    ranks: list[int]
    first: str
    ties: list[str]

    @property
    def said(self) -> list[str]:
        """What every face says of the seating: how each tie was settled, or that there was none."""
        return self.ties or [NO_TIES]

    def to_json(self) -> dict[str, Any]:
        """The answer ``event top --json`` prints: the names as registered; the ties are words, with the names in them
        written out as every face shows them (``visible``)."""
        return {
            "round": self.round,
            "players": self.players,
            "ranks": self.ranks,
            "first": self.first,
            "ties": [visible(tie) for tie in self.ties],
        }


def table_clock(rnd: Round, table_number: int, now: float) -> Clock | None:
    """A table's clock: the round's stored clock plus the table's extra time (None before it is started)."""
    if rnd.clock is None:
        return None
    clock = RoundClock.of(rnd.clock)
    extra = float(rnd.extra.get(str(table_number), 0))
    remaining = max(0.0, clock.length + extra - clock.elapsed(now))
    return Clock(
        clock.length,
        extra,
        round(remaining, 3),
        clock.paused,
        None if clock.paused else now + remaining,
        remaining <= 0,
        ClockWords(TIME_UP, PAUSED, extra_time_words(extra)),
    )


def seat_of(db: TinyDB, event_id: int, player_id: int) -> tuple[Round, int] | None:
    """The newest round the player sits in, and their table number there (None before their first round)."""
    rounds = sorted(records_of(db, Round).find(event=event_id), key=lambda r: -r.number)
    for rnd in rounds:
        for number, seats in enumerate(rnd.tables, start=1):
            if player_id in seats:
                return rnd, number
    return None


def result_of(db: TinyDB, event_id: int, round_number: int, table_number: int) -> Result | None:
    return records_of(db, Result).first(event=event_id, round=round_number, table=table_number)


def pair_again_refusal(db: TinyDB, event_id: int, rounds: list[Round]) -> str | None:
    """Why the newest of ``rounds`` (by number) can't be paired again, or None when it can: it is open, not the
    final table, and none of its tables has a result, a report or a tracker entry.  ``repair`` asks it, and the
    desk's view says its answer, so the page offers pairing again only when it is allowed."""
    if not rounds or rounds[-1].status == "closed":
        return "no round is being played: pair the next one"
    last = rounds[-1]
    if last.final:
        return "the final table is seated: take it back with undo instead"
    if any(records_of(db, kind).count(event=event_id, round=last.number) for kind in (Result, Report, Game)):
        return (
            f"round {last.number} already has results, reports or games; it can't be paired again: play it as paired, "
            "or take those back with undo first"
        )
    return None


class TableReports(EventBase):
    """What the players do from their table, and the desk's answers to it."""

    def __init__(self, store: Store) -> None:
        super().__init__(store)
        self.rounds = Rounds(store)

    def _my_table(self, db: TinyDB, event_id: int, player_id: int) -> tuple[Player, Round, int]:
        """The player, the open round they sit in and their table number (else why not: a player who dropped
        reports and confirms no more, ``DroppedOut``)."""
        event = self._event(db, event_id)
        if event.status != "playing":
            raise StateError(f"no round is being played (the event is {event.status})")
        player = self._player(db, event_id, player_id)
        seat = seat_of(db, event_id, player.id)
        if seat is None:
            raise StateError(f"{quoted(player.name)} has no table yet: the desk pairs the round")
        rnd, number = seat
        if rnd.status == "closed":
            raise StateError(f"round {rnd.number} is over: every table's result is recorded")
        return player, rnd, number

    def _over(self, rnd: Round, table_number: int, now: float) -> bool:
        clock = table_clock(rnd, table_number, now)
        return bool(clock and clock.over)

    def report(
        self,
        event_id: int,
        player_id: int,
        order: list[list[int]] | str,
        now: float | None = None,
        via: str = "browser",
    ) -> Reported:
        """A finishing order from a player at the table (``via``: their "browser" or "terminal", for the history);
        recorded at once when nobody else needs to confirm."""
        now = timing.now() if now is None else now
        with self.store.write() as db:
            player, rnd, number = self._my_table(db, event_id, player_id)
            if player.status != "active":  # who dropped plays no more: the players still in it close the table
                raise dropped_out(player.name)
            if result_of(db, event_id, rnd.number, number) is not None:
                raise StateError(f"table {number} of round {rnd.number} already has its result; the desk corrects it")
            if isinstance(order, str):  # typed at a terminal: 'Ann > Bo = Cy', as the desk's 'event result' reads it
                order = self.rounds.parse_order(db, event_id, order, rnd.tables[number - 1])
            order = self.rounds.check_order(db, event_id, order, rnd.tables[number - 1])
            reports = records_of(db, Report)
            old = pending_report(db, event_id, rnd.number, number)
            if old is not None:
                reports.update(old.id, status="replaced")
            report_id = reports.insert_fields(
                event=event_id,
                round=rnd.number,
                table=number,
                by=player.id,
                order=order,
                confirmed=[player.id],
                disputes=[],
                status="waiting",
                at=now,
                late=self._over(rnd, number, now),
                via=via,
            )
            names = {p.id: p.name for p in self._players(db, event_id)}
            where = f"round {rnd.number} table {number}"
            history.log_change(
                db, event_id, f"{via} {player.name}", "result report", where, finishing_text(order, names)
            )
            recorded = None
            if not waiting_for(db, rnd, number, [player.id]):
                recorded = record_report(db, self.rounds, event_id, report_id, order)
        return Reported(report_id, recorded is not None)

    def confirm(
        self,
        event_id: int,
        player_id: int,
        report_id: int,
        agree: bool,
        order: list[list[int]] | str | None = None,
        now: float | None = None,
        via: str = "browser",
    ) -> Confirmed:
        """Another player at the table confirms the report ``report_id``, or disputes it (with their own
        ``order`` when they give one), from their ``via`` ("browser" or "terminal").  The last confirmation records
        the result."""
        now = timing.now() if now is None else now
        with self.store.write() as db:
            player, rnd, number = self._my_table(db, event_id, player_id)
            if player.status != "active":  # who dropped plays no more: the players still in it close the table
                raise dropped_out(player.name)
            report = records_of(db, Report).get(report_id)
            if report is None or report.event != event_id:
                raise InputError(f"no result report {report_id} in event {event_id}")
            if (report.round, report.table) != (rnd.number, number):
                raise NotYourTable(f"report {report_id} is for another table; you can confirm only your own")
            if report.status not in PENDING:
                raise StateError(f"that report is {report.status}; look at your table again")
            refusal = own_report_refusal(report, player.id)
            if refusal is not None:
                raise StateError(refusal)
            seats = rnd.tables[number - 1]
            mine = player.id
            already = agree and mine in report.confirmed
            confirmed = [pid for pid in report.confirmed if pid != mine]
            disputes = [d for d in report.disputes if d.player != mine]
            names = {p.id: p.name for p in self._players(db, event_id)}
            where = f"round {rnd.number} table {number}"
            if agree:
                confirmed.append(mine)
                what, said = "result confirm", finishing_text(report.order, names)
            else:
                if isinstance(order, str):
                    order = self.rounds.parse_order(db, event_id, order, seats)
                version = self.rounds.check_order(db, event_id, order, seats) if order else []
                disputes.append(Dispute(player=mine, order=version))
                what, said = "result dispute", finishing_text(version, names) if version else "disputed"
            status = "disputed" if disputes else "waiting"
            records_of(db, Report).update(report_id, confirmed=confirmed, disputes=disputes, status=status)
            history.log_change(db, event_id, f"{via} {player.name}", what, where, said)
            recorded = None
            if not disputes and not waiting_for(db, rnd, number, confirmed):
                recorded = record_report(db, self.rounds, event_id, report_id, report.order)
        done = recorded is not None
        words = confirmed_words(player.name, agree, already, done)
        return Confirmed(report_id, "recorded" if recorded else status, done, words)

    def settle(
        self,
        event_id: int,
        round_number: int,
        table_number: int,
        order: str | list[list[int]],
        replace: bool = False,
        *,
        actor: Actor = DESK,
    ) -> RecordedResult:
        """The desk records a table's result (from the versions it was shown); a waiting report is settled.  Only
        the desk settles (``NotAllowed``)."""
        actor.require_desk("settle a table's result")
        with self.store.write() as db:
            return self.rounds.record_order(db, event_id, round_number, table_number, order, replace)

    def drop_self(self, event_id: int, player_id: int) -> Dropped:
        """A player leaves the event from their phone: the desk's ``player drop``, logged as theirs."""
        name = self.player(event_id, player_id).name
        return Registration(self.store).drop_player(event_id, player_id, by=history.browser(name))

    def track(
        self,
        event_id: int,
        player_id: int,
        *,
        life: dict[str, int] | None = None,
        damage: list[tuple[str, str, str, int]] | None = None,
        casts: list[tuple[str, str]] | None = None,
        undo: bool = False,
    ) -> GameBoard:
        """A game-tracker entry from a player's phone at their own table (``event game``), or the undo of
        their own last entry; only where the event lets players keep the tracker."""
        with self.store.read() as db:
            player, rnd, number = self._my_table(db, event_id, player_id)
        # ``game`` checks again, in its own transaction, that the event lets players keep the tracker and
        # that the player sits at this table of an open round.
        return Games(self.store).game(
            event_id,
            rnd.number,
            number,
            life=life,
            damage=damage,
            casts=casts,
            undo=undo,
            who=history.browser(player.name),
            by=player.id,
        )

    def set_table_tracker(self, event_id: int, on: bool) -> bool:
        """Let the players keep the game tracker from their phones (or not)."""
        return self._set_flag(event_id, "table_tracker", "table tracker", on)

    def set_publish_decklists(self, event_id: int, on: bool) -> bool:
        """Make everyone's decklists public once the event is finished (or not)."""
        return self._set_flag(event_id, "publish_decklists", "publish decklists", on)

    def _set_flag(self, event_id: int, field: str, what: str, on: bool) -> bool:
        """One of the desk's switches on the event record, logged in the history when it changes."""
        with self.store.write() as db:
            was = getattr(self._event(db, event_id), field)
            if was != on:
                records_of(db, Event).update(event_id, **{field: on})
                history.log_change(db, event_id, history.DESK, what, was, on)
        return on

    def extra_time(self, event_id: int, table_number: int, minutes: float) -> ExtraTime:
        """Extra time for one table of the current round (its clock runs that much longer)."""
        if not (0 < minutes <= 120):
            raise InputError(f"extra time must be more than 0 and at most 120 minutes, not {minutes:g}")
        with self.store.write() as db:
            self._event(db, event_id)
            rounds = sorted(records_of(db, Round).find(event=event_id), key=lambda r: r.number)
            if not rounds or rounds[-1].status == "closed":
                raise StateError("no round is being played")
            rnd = round_at_table(db, event_id, rounds[-1].number, table_number)
            before = rnd.extra.get(str(table_number), 0)
            extra = {**rnd.extra, str(table_number): min(86_400, before + round(minutes * 60))}
            records_of(db, Round).update(rnd.id, extra=extra)
            history.log_change(
                db,
                event_id,
                history.DESK,
                "extra time",
                f"round {rnd.number} table {table_number}: {before / 60:g} minutes",
                f"round {rnd.number} table {table_number}: {extra[str(table_number)] / 60:g} minutes",
            )
        return ExtraTime(rnd.number, table_number, extra[str(table_number)])

    def repair(self, event_id: int, force: bool = False) -> Pairing:
        """Pair the current round again, with the players in the event now (after a drop or a late player), while
        none of its tables has a result, a report or a tracker entry; one transaction."""
        with self.store.write() as db:
            event = self._event(db, event_id)
            self._require(event, "playing", doing="pair a round again")
            rounds = sorted(records_of(db, Round).find(event=event_id), key=lambda r: r.number)
            if (refusal := pair_again_refusal(db, event_id, rounds)) is not None:
                raise StateError(refusal)
            last = rounds[-1]
            names = {p.id: p.name for p in self._players(db, event_id)}
            records_of(db, Round).remove(last.id)
            if len(rounds) == 1:
                records_of(db, Event).update(event_id, status="building")
            history.log_change(
                db,
                event_id,
                history.DESK,
                "round again",
                {"round": last.number, "tables": [[names[pid] for pid in seats] for seats in last.tables]},
                None,
            )
            pairing = self.rounds.pair_round(db, event_id, force)
            dropped_before(db, event_id, last.number)
            return pairing

    def top(self, event_id: int, size: int) -> FinalTable:
        """Seat the top ``size`` of the standings (still in the event) at a final table: a round of one
        table, marked final, with its own result; the highest standing goes first."""
        with self.store.write() as db:
            event = self._event(db, event_id)
            check_final_size(event, size)
            self._require(event, "playing", doing="seat a final table")
            rounds = sorted(records_of(db, Round).find(event=event_id), key=lambda r: r.number)
            if any(r.final for r in rounds):
                raise StateError("the final table is already seated: take it back with undo to seat another")
            if not rounds or rounds[-1].status != "closed":
                waiting = "".join(f" (round {r.number}: {tables_waiting(db, r)})" for r in rounds[-1:])
                raise StateError(
                    f"every table of the last round needs its result before the final table{waiting}: record them first"
                )
            players = self._players(db, event_id)
            ranked = standings_of(event, players, records_of(db, Result).find(event=event_id), rounds)
            still_in = [row for row in ranked if not row.dropped]
            top = still_in[:size]
            if len(top) < size:
                raise InputError(f"only {len(top)} players are still in the event; a top {size} needs {size}")
            ids = [row.player for row in top]
            number = rounds[-1].number + 1
            records_of(db, Round).insert_fields(
                event=event_id, number=number, tables=[ids], first=[ids[0]], status="open", final=True
            )
            names = [row.name for row in top]
            history.log_change(
                db,
                event_id,
                history.DESK,
                "round",
                None,
                {"round": number, "final": True, "tables": [names]},
                undo=history.RoundUndo(number, event.status),
            )
        return FinalTable(number, names, [row.rank for row in top], names[0], tie_breaks(still_in, size))
