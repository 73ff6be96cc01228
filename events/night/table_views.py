"""What the night looks like from a player's seat, from the desk and on the room's screen (read only).

- ``table_view``: a player's current round, table, the players there with their commanders (names,
  once their decks are registered), who goes first, the table's clock (the round's stored clock plus
  the table's extra time), its result or the report waiting for confirmations, and their standing.
- ``desk_view``: every table of the current round with its result, or the report waiting or disputed
  with every version given, its time left, and the players who dropped.
- ``room_view``: the public screen: seatings before the draft, the pods' draft progress during it,
  then pairings by name (alphabetical, as stores post them), the round clock and standings, with the
  event's winner named once the final table has its result (``winner``, as on the phones and the desk).  It holds
  no seat code and nothing a player keeps hidden (no pools, no decks).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec
from msgspec import UNSET

from draft.commanders import chosen_colors
from events import timing
from events.night import room_shown
from events.night.base import PENDING, EventBase
from events.night.decks import desk_decks_words, registered_count, registrations
from events.night.games import Games
from events.night.registration import may_drop
from events.night.report_waits import still_to_confirm
from events.night.rounds import final_sizes, seated_size
from events.night.shown import decklists_public, standing_row
from events.night.standings import Standing, ordinals, placement_points, standings_of, standings_title, winner_line
from events.night.table_reports import pair_again_refusal, table_clock
from events.night.table_shown import (
    DROPPED_WORDS,
    TABLE_STATUS_WORDS,
    Decklist,
    DecklistLine,
    DeskNight,
    Disputed,
    Dropped,
    Mine,
    Named,
    NightEvent,
    NightRound,
    OrderEntry,
    ReportShown,
    RoundAtTable,
    Seated,
    TableEvent,
    TablePlayer,
    TableResult,
    TableShown,
    TableState,
    desk_actions,
    disputed_words,
    reported_by_words,
    still_to_confirm_words,
    table_status_sentence,
)
from events.storage.draft_records import draft_progress
from events.storage.records import Deck, DeckLine, DeckList, Event, Player, Pod, Report, Result, Round
from events.storage.tables import records_of
from sets.cards import Card
from sets.colors import Color
from sets.errors import InputError, StateError
from sets.names import name_order

# (database file, its signature, event) -> what the screens read, computed once per state of the file
_CACHE: dict[tuple[str, int, int, int, int], NightData] = {}


@dataclass(frozen=True)
class NightData:
    """What every screen of the night reads (``TableViews._night``): the event, its players (and their names and
    statuses by id), rounds by number, results and pending reports by (round, table), who registered a deck, each
    player's commanders, the newest round and table each player sits at, and the standings."""

    event: Event
    players: list[Player]
    names: dict[int, str]
    status: dict[int, str]
    rounds: list[Round]
    results: dict[tuple[int, int], Result]
    reports: dict[tuple[int, int], Report]
    decks: set[int]
    commanders: dict[int, list[str]]
    colors: dict[int, list[str | None]]  # the color each of those commanders chose (a Piper's), by word; else None
    seats: dict[int, tuple[Round, int]]
    standings: list[Standing]


class TableViews(EventBase):
    """The night as each of its screens shows it."""

    def _night(self, event_id: int) -> NightData:
        """What every screen of the night reads, in one read of the database, kept for as long as the file
        is unchanged (every write replaces it): 64 phones shown one change cost one reading and one
        kept under it is never older than the file it names.  Kept records are never changed."""
        try:
            stat = os.stat(self.store.path)
            key: tuple[str, int, int, int, int] | None = (
                str(self.store.path),
                stat.st_ino,
                stat.st_size,
                stat.st_mtime_ns,
                event_id,
            )
        except OSError:
            key = None
        if key is not None and key in _CACHE:
            return _CACHE[key]
        with self.store.read() as db:
            event = self._event(db, event_id)
            players = self._players(db, event_id)
            rounds = sorted(records_of(db, Round).find(event=event_id), key=lambda r: r.number)
            results = {(r.round, r.table): r for r in records_of(db, Result).find(event=event_id)}
            reports: dict[tuple[int, int], Report] = {}
            for report in records_of(db, Report).find(event=event_id):
                if report.status in PENDING:
                    reports[(report.round, report.table)] = report
            decks = records_of(db, Deck).find(event=event_id)
            commanders = {d.player: Games._commander_names(db, event_id, d.player) for d in decks}
            colors = {d.player: self._chosen_words(commanders[d.player], d.deck) for d in decks}
        seats: dict[int, tuple[Round, int]] = {}
        for rnd in reversed(rounds):
            for number, table in enumerate(rnd.tables, start=1):
                for pid in table:
                    seats.setdefault(pid, (rnd, number))
        data = NightData(
            event=event,
            players=players,
            names={p.id: p.name for p in players},
            status={p.id: p.status for p in players},
            rounds=rounds,
            results=results,
            reports=reports,
            decks={d.player for d in decks},
            commanders=commanders,
            colors=colors,
            seats=seats,
            standings=standings_of(event, players, list(results.values()), rounds) if rounds else [],
        )
        if key is not None:
            if len(_CACHE) >= 8:
                _CACHE.clear()
            _CACHE[key] = data
        return data

    @staticmethod
    def _report_shown(report: Report, table: list[int], data: NightData, viewer: int | None) -> ReportShown:
        """A report as the screens show it (``viewer``: the player looking, who also sees what they said)."""
        names = data.names

        def order(groups: list[list[int]]) -> list[list[Named]]:
            return [[Named(pid, names[pid]) for pid in group] for group in groups]

        waiting = still_to_confirm(table, report.confirmed, [d.player for d in report.disputes], data.status)
        said = {pid: "you" if pid == viewer else name for pid, name in names.items()}  # the one looking: "you"
        return ReportShown(
            id=report.id,
            by=names[report.by],
            order=order(report.order),
            confirmed=[names[pid] for pid in report.confirmed],
            waiting_for=[names[pid] for pid in waiting],
            disputes=[
                Disputed(names[d.player], order(d.order), disputed_words(said[d.player], bool(d.order)))
                for d in report.disputes
            ],
            status=report.status,
            late=report.late,
            by_words=reported_by_words(names[report.by], report.late),
            waiting_words=still_to_confirm_words([said[pid] for pid in waiting]),
            mine=UNSET
            if viewer is None
            else Mine(
                confirmed=names[viewer] in [names[pid] for pid in report.confirmed],
                disputed=any(names[d.player] == names[viewer] for d in report.disputes),
                reported=report.by == viewer,
            ),
        )

    def _table_shown(
        self, data: NightData, rnd: Round, number: int, now: float, viewer: int | None = None
    ) -> TableShown:
        """A table of a round as the screens show it (``viewer``: a player at it, as they see it)."""
        names = data.names
        table = rnd.tables[number - 1]
        result = data.results.get((rnd.number, number))
        report = data.reports.get((rnd.number, number))
        clock = table_clock(rnd, number, now)
        if result is not None:
            status = "recorded"
        elif report is not None and report.status == "disputed":
            status = "disputed"
        elif clock and clock.over:
            status = "desk"  # the round's time is up: what isn't confirmed waits for the desk
        elif report is not None:
            status = "waiting"
        else:
            status = "playing"
        points = placement_points(data.event, result.order) if result else {}
        players: list[str | Seated] = [
            *([names[pid] for pid in table] if viewer is None else self._seated(data, rnd, number, viewer))
        ]
        return TableShown(
            table=number,
            players=players,
            first=names[rnd.first[number - 1]] if rnd.first else None,
            status=status,
            status_words=TABLE_STATUS_WORDS[status],
            clock=clock,
            result=None
            if result is None
            else TableResult(
                [[names[pid] for pid in group] for group in result.order],
                {names[pid]: round(float(p), 4) for pid, p in points.items()},
            ),
            report=None if report is None else self._report_shown(report, table, data, viewer),
        )

    def _chosen_words(self, names: list[str], deck: DeckList) -> list[str | None]:
        """The color each of a deck's commanders (``names``) chose, as a word (``chosen_colors``); else None."""
        chooses = [(card := self.index.get(name)) is not None and card.chooses_color for name in names]
        chosen = chosen_colors(chooses, deck.piper_colors)
        return [None if color is None else Color.parse(color).word for color in chosen]

    @staticmethod
    def _seated(data: NightData, rnd: Round, number: int, viewer: int) -> list[Seated]:
        """The players at a table as one of them sees them: their commanders, who goes first, who dropped."""
        return [
            Seated(
                id=pid,
                name=data.names[pid],
                commanders=list(data.commanders.get(pid, [])),
                colors=list(data.colors.get(pid, [])),
                first=bool(rnd.first) and rnd.first[number - 1] == pid,
                dropped=data.status[pid] != "active",
                me=pid == viewer,
            )
            for pid in rnd.tables[number - 1]
        ]

    def table_view(self, event_id: int, player_id: int, now: float | None = None) -> TableState:
        """A player's own view of the night: their table of the newest round they sit in, and their standing."""
        now = timing.now() if now is None else now
        data = self._night(event_id)
        event, names = data.event, data.names
        if player_id not in names:
            raise InputError(f"no player number {player_id} in event {event_id}")
        mine = next((row for row in data.standings if row.player == player_id), None) if ranked(data) else None
        seat = data.seats.get(player_id)
        at_table = None
        if seat is not None:
            rnd, number = seat
            shown = self._table_shown(data, rnd, number, now, player_id)
            board = (
                Games(self.store).game(event_id, rnd.number, number)
                if event.table_tracker and rnd.status != "closed"
                else None
            )
            at_table = RoundAtTable(
                number=rnd.number,
                final=rnd.final,
                open=rnd.status != "closed",
                tables=len(rnd.tables),
                table=shown.table,
                players=self._seated(data, rnd, number, player_id),
                entry=OrderEntry(
                    len(rnd.tables[number - 1]), ordinals(len(rnd.tables[number - 1]))
                ),  # all: check_order
                first=shown.first,
                status=shown.status,
                status_words=DROPPED_WORDS  # what the table waits for is no longer theirs to do
                if data.status[player_id] != "active" and shown.status != "recorded"
                else table_status_sentence(shown.status, shown.report is not None, event.status == "finished"),
                clock=shown.clock,
                result=shown.result,
                report=shown.report,
                game=UNSET if board is None else board,
            )
        return TableState(
            server_time=now,
            event=TableEvent(event_id, event.name, event.status, event.table_tracker, decklists_public(event)),
            player=TablePlayer(
                player_id,
                names[player_id],
                data.status[player_id],
                may_drop(event.status, data.status[player_id]),
                may_report=event.status == "playing" and data.status[player_id] == "active",
            ),
            standing=None if mine is None else standing_row(mine),
            standings_title=standings_title(event.status),
            winner=winner_line(data.standings),
            round=at_table,
        )

    def desk_view(self, event_id: int, now: float | None = None) -> DeskNight:
        """The current round's tables for the desk: results, waiting and disputed reports (every version), time
        left; and who dropped."""
        now = timing.now() if now is None else now
        data = self._night(event_id)
        event = data.event
        rnd = data.rounds[-1] if data.rounds else None
        with self.store.read() as db:
            pair_again = rnd is not None and pair_again_refusal(db, event_id, data.rounds) is None
        registering = registrations(self.snapshot(event_id)) if event.status in ("building", "playing") else []
        shown = (
            None
            if rnd is None
            else NightRound(
                number=rnd.number,
                final=rnd.final,
                open=rnd.status != "closed",
                tables=[self._table_shown(data, rnd, n, now) for n in range(1, len(rnd.tables) + 1)],
                pair_again=pair_again,
            )
        )
        return DeskNight(
            server_time=now,
            event=NightEvent(
                id=event_id,
                name=event.name,
                status=event.status,
                tracker=event.table_tracker,
                publish_decklists=event.publish_decklists,
            ),
            round=shown,
            winner=winner_line(data.standings),
            dropped=[Dropped(p.name, p.dropped_after) for p in data.players if p.status == "dropped"],
            actions=desk_actions(event.status == "finished", shown, any(state != "legal" for _, state in registering)),
            final_sizes=sorted(final_sizes(event), key=lambda size: (size != seated_size(event), size)),
            decks=desk_decks_words(event.status, registering),
        )

    def public_decklists(
        self, event_id: int, card_facts: Callable[[Card], Mapping[str, Any]] | None = None
    ) -> list[Decklist]:
        """Everyone's registered decklist (commanders, main deck, sideboard: names and counts), by standing: only
        once the event is finished and the desk has chosen to publish them.  ``card_facts``: what a face adds to a
        line from its card (the web: cost, type, the kept image), for the lines whose card the index knows."""
        with self.store.read() as db:
            event = self._event(db, event_id)
            if not decklists_public(event):
                raise StateError("decklists are public only after the event is finished, where the desk publishes them")
            decks = {d.player: d.deck for d in records_of(db, Deck).find(event=event_id)}
        ranked = self._night(event_id).standings

        def facts(name: str) -> Mapping[str, Any]:
            card = self.index.get(name) if card_facts is not None else None
            return {} if card is None or card_facts is None else card_facts(card)

        def lines(rows: list[DeckLine]) -> list[DecklistLine]:
            return [DecklistLine(**{**facts(line.name), "name": line.name, "count": line.count}) for line in rows]

        def commanders(deck: DeckList) -> list[DecklistLine]:
            """Its commanders' lines, each Piper's with the color chosen for it, in the order they were chosen."""
            chosen = self._chosen_words([line.name for line in deck.commanders], deck)
            return [
                line if color is None else msgspec.structs.replace(line, chosen_color=color)
                for line, color in zip(lines(deck.commanders), chosen, strict=True)
            ]

        return [
            Decklist(row.rank, row.rank_text, row.name, commanders(deck), lines(deck.main), lines(deck.sideboard))
            for row in ranked
            if (deck := decks.get(row.player)) is not None
        ]

    def room_view(self, event_id: int, now: float | None = None) -> room_shown.RoomView:
        """The room's screen: public facts only (names, pods, seats, tables, the clock, standings)."""
        now = timing.now() if now is None else now
        data = self._night(event_id)
        event, names, rounds = data.event, data.names, data.rounds
        with self.store.read() as db:
            pods = sorted(records_of(db, Pod).find(event=event_id), key=lambda d: d.number)
            progress = draft_progress(self.store, db, {pod.number: pod.draft for pod in pods if pod.draft})
        seatings = [room_shown.Seating(pod.number, [names[pid] for pid in pod.players]) for pod in pods]
        drafts = [room_shown.DraftProgress(pod=number, **shown) for number, shown in progress.items()]
        standings = [standing_row(row) for row in data.standings] if ranked(data) else []
        newest = None if not rounds else self._round_shown(data, rounds[-1], now)
        players = sum(1 for p in data.players if p.status == "active" and not p.bot)
        rows = registrations(self.snapshot(event_id)) if event.status == "building" else []  # the desk's count
        return room_shown.RoomView(
            server_time=now,
            event=room_shown.RoomEvent(
                id=event_id,
                name=event.name,
                status=event.status,
                decklists=decklists_public(event),
            ),
            players=players,
            seatings=seatings,
            drafts=drafts,
            drafts_title=room_shown.drafts_title(event.status, registered_count(rows)),
            decks_registered=sum(1 for _, state in rows if state != "missing") if rows else len(data.decks),
            round=newest,
            standings=standings,
            standings_title=standings_title(event.status),
            winner=winner_line(data.standings),
            heading=room_shown.room_heading(
                event.status, players, None if newest is None else newest.number, newest is not None and newest.final
            ),
            views=room_shown.room_views(
                event.status, None if newest is None else newest.open, bool(seatings), bool(drafts), bool(standings)
            ),
        )

    @staticmethod
    def _round_shown(data: NightData, rnd: Round, now: float) -> room_shown.RoomRound:
        """The newest round on the room's screen: pairings by name, the clock, which tables are done."""
        names = data.names
        first: list[int | None] = [*rnd.first] or [None] * len(rnd.tables)
        seated = sorted(
            (
                (names[pid], number, first[number - 1] == pid)
                for number, table in enumerate(rnd.tables, start=1)
                for pid in table
            ),
            key=lambda row: name_order(row[0]),
        )
        return room_shown.RoomRound(
            number=rnd.number,
            final=rnd.final,
            open=rnd.status != "closed",
            clock=table_clock(rnd, 0, now),
            pairings=[room_shown.Pairing(name, number, goes_first) for name, number, goes_first in seated],
            tables=[
                room_shown.RoomTable(number, [names[pid] for pid in table], (rnd.number, number) in data.results)
                for number, table in enumerate(rnd.tables, start=1)
            ],
        )


def ranked(data: NightData) -> bool:
    """Whether the standings say anything yet: before the night's first result everyone is "1st, 0 points", which
    the phones and the room leave unsaid."""
    return any(row.rounds for row in data.standings)
