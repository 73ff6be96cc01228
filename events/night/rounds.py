"""Rounds: game tables for a round, pairing by points, recording results, standings and finishing.

- Tables of 4 by default, 3 to 5 when numbers don't divide, or 1v1; round one is random, later rounds
  from the top of the standings with the odd tables' seats rotating (``events.night.pairing``, pure).
- A result is a finishing order; tied players share the average of the
  placement points of the places they cover (default points 3/2/1/0).
- Standings: points, then the average points per round of every opponent you
  shared a table with (each meeting counts), then the average finishing place
  (lower is better; a player who hasn't played comes after those who have).
  All three are exact fractions; players equal on all three share a rank and
  are listed by name.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tinydb import TinyDB

from events.night import history
from events.night.base import (
    EventBase,
    before_a_round,
    finishing_text,
    first_of,
    pending_report,
    round_at_table,
    tables_waiting,
)
from events.night.decks import registers
from events.night.finishing_orders import names_in_order
from events.night.pairing import game_table_sizes, meetings, pair_by_points, seats_by_size
from events.night.refusals import DESK, Actor, DecksMissing, ResultStands
from events.night.standings import (
    Standing,
    did_not_play,
    finishing_places,
    placement_points,
    point_totals,
    standings_of,
)
from events.storage.records import Deck, Event, Player, Pool, Report, Result, Round
from events.storage.store import phase_change
from events.storage.tables import records_of
from sets.errors import InputError, StateError
from sets.names import name_order
from sets.visible import quoted


def seated_size(event: Event) -> int:
    """The size of a regular table in ``event``: 2 in a 1v1 event, else its game size."""
    return 2 if event.one_v_one else event.game_size


def final_sizes(event: Event) -> range:
    """How many a final table seats: it is one game table (RULES 1: pods of 3 to 5, 1v1 allowed), so 3 to 5 in an
    event of commander pods and 2 in a 1v1 event, whatever its game size."""
    return range(2, 3) if event.one_v_one else range(3, 6)


def check_final_size(event: Event, size: int) -> None:
    """``InputError`` for a final table of a size ``final_sizes`` doesn't allow, in the words every face says."""
    sizes = final_sizes(event)
    if size not in sizes:
        if event.one_v_one:
            raise InputError(f"a final table seats 2 players in a 1v1 event, not {size}")
        raise InputError(
            f"a final table seats {sizes.start} to {sizes.stop - 1} players (one commander pod), not {size}"
        )


@dataclass(frozen=True)
class Pairing:
    """A round just paired: its number, each table's players by name in seat order, and who goes first at each."""

    round: int
    tables: list[list[str]]
    first: list[str]

    def to_json(self) -> dict[str, Any]:
        """The answer ``event round --json`` prints."""
        return {"round": self.round, "tables": self.tables, "first": self.first}


@dataclass(frozen=True)
class RecordedResult:
    """A table's result just recorded: each player's points for it (exact), whether it corrected one, and when a
    later round was already paired, that round's number and the tables the result would have paired differently."""

    round: int
    table: int
    points: dict[str, Fraction]
    corrected: bool
    next_round: int | None
    would_change: list[int]
    final_size: int | None = None  # the next round is the final table (``event top``) of this many players
    final: bool = False  # the final table's result: its places count for no points (``points``: what they'd give)
    places: dict[str, int] = field(default_factory=dict)  # each player's place, from 1 (players who drew share it)

    def correction(self, advice: str = "") -> str | None:
        """What a correction after a later round was paired did to it, in the words every face shows (``advice``:
        the terminal's commands, after the pairing that stays), or None when no later round was paired."""
        if self.next_round is None:
            return None
        if self.final_size is not None:
            return f"corrected after the final table (round {self.next_round}) was seated: the standings follow; " + (
                f"this result would have seated a different final table (its seating stays as it is{advice})"
                if self.would_change
                else "this result would not have changed who sits at the final table"
            )
        verdict = (
            f"would have changed tables {' / '.join(map(str, self.would_change))} of round {self.next_round}"
            if self.would_change
            else f"would not have changed the pairing of round {self.next_round}"
        )
        return (
            f"corrected after round {self.next_round} was paired: the standings follow; this result {verdict} (its "
            f"pairing stays as it is{advice})"
        )

    def to_json(self) -> dict[str, Any]:
        """The answer ``event result --json`` prints (points rounded to 4 places)."""
        return {
            "round": self.round,
            "table": self.table,
            "points": {name: round(float(points), 4) for name, points in self.points.items()},
            "final": self.final,
            "places": self.places,
            "corrected": self.corrected,
            "next_round": self.next_round,
            "would_change": self.would_change,
            "correction": self.correction(),
        }


class Rounds(EventBase):
    """Rounds of games, their results, the standings and the end of the night."""

    def new_round(self, event_id: int, force: bool = False, *, actor: Actor = DESK) -> Pairing:
        """Pair the next round (only the desk pairs: ``NotAllowed`` for anyone else)."""
        actor.require_desk("pair a round")
        with self.store.write() as db:
            return self.pair_round(db, event_id, force)

    def pair_round(self, db: TinyDB, event_id: int, force: bool = False) -> Pairing:
        """``event round`` inside the caller's transaction."""
        event = self._event(db, event_id)
        step = before_a_round(event_id, event.status) if event.status != "finished" else ""  # (its refusal says it)
        self._require(event, "building", "playing", doing="start a round", hint=step)
        rounds = sorted(records_of(db, Round).find(event=event_id), key=lambda d: d.number)
        if rounds and rounds[-1].status != "closed":
            raise StateError(
                f"round {rounds[-1].number} still has tables without results ({tables_waiting(db, rounds[-1])}); "
                "record them first"
            )
        if rounds and rounds[-1].final:
            raise StateError("the final table has been played; what is left is to finish the event")
        active = [p for p in self._players(db, event_id, active_only=True) if registers(p)]  # (bots: no deck)
        decks = {d.player: d for d in records_of(db, Deck).find(event=event_id)}
        missing = [p.name for p in active if p.id not in decks or not decks[p.id].valid]
        if missing and not force:
            raise DecksMissing(
                f"no legal deck registered for {first_of(list(map(quoted, missing)))}; register them first, or pair "
                "the round anyway"
            )
        number = len(rounds) + 1
        sizes = game_table_sizes(len(active), event.game_size, event.one_v_one)
        rng = random.Random(event.seed * 1000 + number)
        ids = [p.id for p in active]
        if number == 1:
            rng.shuffle(ids)
            tables = []
            start = 0
            for size in sizes:
                tables.append(ids[start : start + size])
                start += size
        else:
            results = records_of(db, Result).find(event=event_id)
            totals = point_totals(event, results)
            met = meetings(rounds)
            tables = pair_by_points(
                ids, totals, met, sizes, rng, game_size=seated_size(event), sat_at=seats_by_size(rounds)
            )
        phase_change(db)
        # The first player of each table, drawn now (seeded) and recorded with the round.
        first = [seats[rng.randrange(len(seats))] for seats in tables]
        records_of(db, Round).insert_fields(event=event_id, number=number, tables=tables, first=first, status="open")
        records_of(db, Event).update(event_id, status="playing")
        names = {p.id: p.name for p in active}
        history.log_change(
            db,
            event_id,
            history.DESK,
            "round",
            None,
            {"round": number, "tables": [[names[pid] for pid in seats] for seats in tables]},
            undo=history.RoundUndo(number, event.status),
        )
        return Pairing(number, [[names[pid] for pid in seats] for seats in tables], [names[pid] for pid in first])

    placement_points = staticmethod(placement_points)  # Rounds.placement_points(event, order), as before

    def record_result(
        self,
        event_id: int,
        round_number: int,
        table_number: int,
        order_text: str,
        replace: bool = False,
        who: str = history.DESK,
        *,
        actor: Actor = DESK,
    ) -> RecordedResult:
        """The desk records (or corrects) a table's result; a table's own players report and confirm theirs
        (``TableReports``)."""
        actor.require_desk("record a result for a table")
        with self.store.write() as db:
            return self.record_order(db, event_id, round_number, table_number, order_text, replace, who)

    def record_order(
        self,
        db: TinyDB,
        event_id: int,
        round_number: int,
        table_number: int,
        order: str | list[list[int]],
        replace: bool = False,
        who: str = history.DESK,
    ) -> RecordedResult:
        """``event result`` inside the caller's transaction: the order as text (names) or as groups of
        player numbers; ``who`` is logged with the change (the desk, or ``browser NAME``).  A report still waiting
        at the table is settled by it (the desk's result from any face, or the report's own once confirmed)."""
        event = self._event(db, event_id)
        # A round, table or player that does not exist is bad input (2) in every state; then the state (3).
        rnd = round_at_table(db, event_id, round_number, table_number)
        if isinstance(order, str):
            self._named_places(db, event_id, order, rnd.tables[table_number - 1])
        if event.status == "finished":
            raise StateError("the event is finished; results can't change")
        # The round a correction speaks of: the final table once one is seated after it (it can be seated again
        # while it has no result), else the round paired next.
        rounds_after = [r for r in records_of(db, Round).find(event=event_id) if r.number > round_number]
        later = next((r for r in rounds_after if r.final), None) or next(
            (r for r in rounds_after if r.number == round_number + 1), None
        )
        if rnd.status == "closed" and not replace:
            raise ResultStands(f"round {round_number} is finished: a result changes now only as a correction")
        if not 1 <= table_number <= len(rnd.tables):
            raise InputError(f"round {round_number} has tables 1 to {len(rnd.tables)}, not {table_number}")
        seats = rnd.tables[table_number - 1]
        order = (
            self.parse_order(db, event_id, order, seats)
            if isinstance(order, str)
            else self.check_order(db, event_id, order, seats)
        )
        results = records_of(db, Result)
        existing = results.first(event=event_id, round=round_number, table=table_number)
        if existing and not replace:
            raise ResultStands(
                f"table {table_number} of round {round_number} already has a result: to change it, correct it"
            )
        if existing:
            results.update(existing.id, event=event_id, round=round_number, table=table_number, order=order)
        else:
            results.insert_fields(event=event_id, round=round_number, table=table_number, order=order)
        waiting = pending_report(db, event_id, round_number, table_number)
        if waiting is not None:  # a report still waiting at this table is settled by the result, whoever records it
            records_of(db, Report).update(waiting.id, status="settled")
        done = {r.table for r in results.find(event=event_id, round=round_number)}
        if done >= set(range(1, len(rnd.tables) + 1)):
            records_of(db, Round).update(rnd.id, status="closed")
        # A correction after the next round was paired: that pairing stays (players are sitting), but
        # the desk hears which of its tables the corrected points would have paired differently.
        would_change = self._pairing_changes(db, event, later) if later is not None else []
        awarded = placement_points(event, order)
        names = {p.id: p.name for p in self._players(db, event_id)}
        old = finishing_text(existing.order, names) if existing else None
        history.log_change(
            db,
            event_id,
            who,
            "result",
            old,
            finishing_text(order, names),
            undo=history.ResultUndo(
                round_number, table_number, existing.order if existing else None, order, rnd.status == "closed"
            ),
        )
        return RecordedResult(
            round_number,
            table_number,
            {names[pid]: pts for pid, pts in awarded.items()},
            existing is not None,
            later.number if later is not None else None,
            would_change,
            len(later.tables[0]) if later is not None and later.final else None,
            rnd.final,
            {names[pid]: place for pid, place in finishing_places(order).items()},
        )

    def _pairing_changes(self, db: TinyDB, event: Event, rnd: Round) -> list[int]:
        """The tables of round ``rnd`` that the results recorded now would have paired differently: the
        pairing is made again from the rounds before it, with the same players, table sizes and seed; a final
        table is the top of the standings (``event top``) again, of its size."""
        if rnd.number == 1:
            return []
        before = sorted(
            (r for r in records_of(db, Round).find(event=rnd.event) if r.number < rnd.number), key=lambda r: r.number
        )
        results = [r for r in records_of(db, Result).find(event=rnd.event) if r.round < rnd.number]
        ids = sorted(pid for seats in rnd.tables for pid in seats)
        if rnd.final:
            ranked = standings_of(event, self._players(db, event.id), results, before)
            top = [row.player for row in ranked if not row.dropped][: len(ids)]
            return [] if sorted(top) == ids else [1]
        rng = random.Random(event.seed * 1000 + rnd.number)
        sizes = [len(t) for t in rnd.tables]
        again = pair_by_points(
            ids,
            point_totals(event, results),
            meetings(before),
            sizes,
            rng,
            game_size=seated_size(event),
            sat_at=seats_by_size(before),
        )
        return [
            number
            for number, (seats, redo) in enumerate(zip(rnd.tables, again, strict=True), start=1)
            if set(seats) != set(redo)
        ]

    def parse_order(self, db: TinyDB, event_id: int, text: str, table: list[int]) -> list[list[int]]:
        """``Alice > Bob = Carol > Dave``: finishing order, ``=`` for a draw; names (quoted when they hold
        ``>``, ``=`` or quotes) or ``#N`` player numbers."""
        groups = []
        for part in self._named_places(db, event_id, text, table):
            group = []
            for player in part:
                if player.id not in table:
                    raise InputError(f"{quoted(player.name)} is not at this table{self._seats(db, event_id, table)}")
                group.append(player.id)
            groups.append(group)
        return self.check_order(db, event_id, groups, table)

    def _named_places(self, db: TinyDB, event_id: int, text: str, table: list[int]) -> list[list[Player]]:
        """The players a typed order names, place by place (``names_in_order``: a name holding ``>`` or ``=``
        typed bare is named in the error, with the order quoted to type again; a name not in the event is
        refused naming the table's players: ``_named``)."""
        names = [player.name for player in self._players(db, event_id)]
        return names_in_order(text, names, lambda name: self._named(db, event_id, name, table))

    def _named(self, db: TinyDB, event_id: int, name: str, table: list[int]) -> Player:
        """A name in a table's result: the event's player, else the refusal naming the table's players."""
        try:
            return self._player(db, event_id, name)
        except InputError as unknown:
            names = {p.id: p.name for p in self._players(db, event_id)}
            # the table's players, each quoted, before the command to see all (the last ": see '": a typed name
            # may hold one)
            said, see, where = str(unknown).rpartition(": see '")
            seats = " / ".join(quoted(names[p]) for p in table)
            if not see:  # no command to see them all (a name two players share): the list at the end
                said, where = where, ""
            raise InputError(f"{said} (this table seats {seats}){see}{where}") from None

    def _seats(self, db: TinyDB, event_id: int, table: list[int]) -> str:
        """' (it seats 'Ann' / 'Bo' / 'Cy')': the table a refused name is not at, so a player reporting from their
        own table, or the desk typing a result, sees which table "this table" is."""
        names = {p.id: p.name for p in self._players(db, event_id)}
        return f" (it seats {' / '.join(quoted(names[p]) for p in table if p in names)})"

    def check_order(self, db: TinyDB, event_id: int, groups: list[list[int]], table: list[int]) -> list[list[int]]:
        """A finishing order as groups of player numbers: each player at the table named exactly once."""
        if not isinstance(groups, list) or not all(
            isinstance(group, list) and all(type(pid) is int for pid in group) for group in groups
        ):
            raise InputError("a finishing order is a list of places, each a list of player numbers: [[4], [2, 7], [1]]")
        groups = [list(group) for group in groups if group]
        strangers = [pid for group in groups for pid in group if pid not in table]
        names = {p.id: p.name for p in self._players(db, event_id)}
        if strangers:
            who = quoted(names[strangers[0]]) if strangers[0] in names else f"player id {strangers[0]}"
            raise InputError(f"{who} is not at this table{self._seats(db, event_id, table)}")
        listed = [pid for group in groups for pid in group]
        if sorted(listed) != sorted(table):
            missing = [pid for pid in table if pid not in listed]
            twice = [pid for pid in table if listed.count(pid) > 1]
            raise InputError(
                "the result must name every player at the table once"
                + (
                    f"; missing {', '.join(quoted(names[m]) for m in missing)}"
                    if missing
                    else f"; {quoted(names[twice[0]])} is named twice"
                )
            )
        return groups

    def standings(self, event_id: int) -> list[Standing]:
        """The ranked standings, without the players who did not play (``did_not_play``)."""
        with self.store.read() as db:
            event = self._event(db, event_id)
            players = self._players(db, event_id)
            results = records_of(db, Result).find(event=event_id)
            rounds = records_of(db, Round).find(event=event_id)
            pooled = {pool.player for pool in records_of(db, Pool).find(event=event_id)}
        return standings_of(event, players, results, rounds, pooled)

    def did_not_play(self, event_id: int) -> list[str]:
        """Names of the players who took no part (no-shows, and players dropped before they had a seat), by name."""
        with self.store.read() as db:
            players = self._players(db, event_id)
            rounds = records_of(db, Round).find(event=event_id)
            pooled = {pool.player for pool in records_of(db, Pool).find(event=event_id)}
        return sorted((p.name for p in did_not_play(players, rounds, pooled)), key=name_order)

    def finish(self, event_id: int) -> str:
        """Close the event: no more results; returns the status it had."""
        with self.store.write() as db:
            event = self._event(db, event_id)
            self._require(event, "playing", "building", doing="finish the event")
            rounds = records_of(db, Round).find(event=event_id)
            for rnd in (r for r in rounds if r.status != "closed"):
                raise StateError(
                    f"round {rnd.number} still has tables without results ({tables_waiting(db, rnd)}); "
                    "record them before finishing"
                )
            phase_change(db)
            records_of(db, Event).update(event_id, status="finished")
            history.log_change(db, event_id, history.DESK, "finish", event.status, "finished")
            return event.status
