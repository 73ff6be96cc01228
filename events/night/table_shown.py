"""A table of the night as the screens show it, typed (``TableViews.table_view``, the desk's tables): the players
there, who goes first, its clock, its result or the report waiting for confirmations.  Each type's ``to_json`` is
the form the phones, the desk page and ``event table --json`` read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from events.night.games import GameBoard
from events.night.table_reports import TableClock


@dataclass(frozen=True)
class Named:
    """A player by number and name (a report's finishing order names them so)."""

    id: int
    name: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name}


def order_json(order: list[list[Named]]) -> list[list[dict[str, Any]]]:
    return [[player.to_json() for player in group] for group in order]


@dataclass(frozen=True)
class DisputeShown:
    """A player disputing a report, with their own finishing order (empty when they gave none)."""

    player: str
    order: list[list[Named]]

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "order": order_json(self.order)}


@dataclass(frozen=True)
class Mine:
    """What the player looking said about a report at their table."""

    confirmed: bool
    disputed: bool


@dataclass(frozen=True)
class ReportShown:
    """A result reported at a table: who reported which order, who confirmed it, who still has to, the disputes;
    ``mine`` (on the phone of a player at the table) whether they confirmed or disputed it."""

    id: int
    by: str
    order: list[list[Named]]
    confirmed: list[str]
    waiting_for: list[str]
    disputes: list[DisputeShown]
    status: str
    late: bool
    mine: Mine | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "by": self.by,
            "order": order_json(self.order),
            "confirmed": self.confirmed,
            "waiting_for": self.waiting_for,
            "disputes": [dispute.to_json() for dispute in self.disputes],
            "status": self.status,
            "late": self.late,
            **(
                {}
                if self.mine is None
                else {"mine": {"confirmed": self.mine.confirmed, "disputed": self.mine.disputed}}
            ),
        }


@dataclass(frozen=True)
class ResultShown:
    """A table's recorded result: the finishing order by name (a group is a draw) and each player's points."""

    order: list[list[str]]
    points: dict[str, float]

    def to_json(self) -> dict[str, Any]:
        return {"order": self.order, "points": self.points}


@dataclass(frozen=True)
class Seated:
    """A player at the table as one of them sees them: their commanders, who goes first, who dropped, who is me."""

    id: int
    name: str
    commanders: list[str]
    first: bool
    dropped: bool
    me: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "commanders": self.commanders,
            "first": self.first,
            "dropped": self.dropped,
            "me": self.me,
        }


@dataclass(frozen=True)
class TableShown:
    """A table of a round: its number, the players (by name for the desk, as ``Seated`` for a player there), who
    goes first, its status (playing, waiting, disputed, desk, recorded), clock, result and pending report."""

    table: int
    players: list[str] | list[Seated]
    first: str | None
    status: str
    clock: TableClock | None
    result: ResultShown | None
    report: ReportShown | None

    def to_json(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "players": [player if isinstance(player, str) else player.to_json() for player in self.players],
            "first": self.first,
            "status": self.status,
            "clock": None if self.clock is None else self.clock.to_json(),
            "result": None if self.result is None else self.result.to_json(),
            "report": None if self.report is None else self.report.to_json(),
        }


@dataclass(frozen=True)
class RoundAtTable:
    """The round a player sits in and their table there; ``game`` the table's tracker while the event lets players
    keep it and the round is open (None: not kept)."""

    number: int
    final: bool
    open: bool
    tables: int
    table: TableShown
    game: GameBoard | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "final": self.final,
            "open": self.open,
            "tables": self.tables,
            **self.table.to_json(),
            **({} if self.game is None else {"game": self.game.to_json()}),
        }


@dataclass(frozen=True)
class TableView:
    """A player's own view of the night (``TableViews.table_view``): the event, the player, their standing (its
    JSON row), the winner's line once there is one, and their table of the newest round they sit in."""

    server_time: float
    event_id: int
    event_name: str
    event_status: str
    tracker: bool
    player_id: int
    player_name: str
    player_status: str
    standing: dict[str, Any] | None
    winner: str | None
    round: RoundAtTable | None

    def to_json(self) -> dict[str, Any]:
        """The view as the phones and ``event table --json`` read it."""
        return {
            "server_time": self.server_time,
            "event": {
                "id": self.event_id,
                "name": self.event_name,
                "status": self.event_status,
                "tracker": self.tracker,
            },
            "player": {"id": self.player_id, "name": self.player_name, "status": self.player_status},
            "standing": self.standing,
            "winner": self.winner,
            "round": None if self.round is None else self.round.to_json(),
        }
