"""A table of the night as the screens show it, typed (``TableViews.table_view``, the desk's tables): the players
there, who goes first, its clock, its result or the report waiting for confirmations.  Each type's ``to_json`` is
the form the phones, the desk page and ``event table --json`` read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
from msgspec import UNSET, UnsetType

from events.night.games import GameBoard
from events.night.shown import Answer, Clock, Number, StandingRow


class Named(Answer):
    """A player by number and name (a report's finishing order names them so)."""

    id: int
    name: str


class Disputed(Answer):
    """A player disputing a report, with their own finishing order (empty when they gave none)."""

    player: str
    order: list[list[Named]]


class Mine(Answer):
    """What the player looking said about a report at their table."""

    confirmed: bool
    disputed: bool


class ReportShown(Answer):
    """A result reported at a table: who reported which order, who confirmed it, who still has to, the disputes;
    ``mine`` (on the phone of a player at the table) whether they confirmed or disputed it."""

    id: int
    by: str
    order: list[list[Named]]
    confirmed: list[str]
    waiting_for: list[str]
    disputes: list[Disputed]
    status: str
    late: bool
    mine: Mine | UnsetType = UNSET  # on the phone of a player at the table: what they said


class TableResult(Answer):
    """A table's recorded result: the finishing order by name (a group is a draw) and each player's points."""

    order: list[list[str]]
    points: dict[str, Number]


class Seated(Answer):
    """A player at the table as one of them sees them: their commanders, who goes first, who dropped, who is me."""

    id: int
    name: str
    commanders: list[str]
    first: bool
    dropped: bool
    me: bool


class TableShown(Answer):
    """A table of a round: its number, the players (by name for the desk, as ``Seated`` for a player there), who
    goes first, its status (playing, waiting, disputed, desk, recorded), clock, result and pending report."""

    table: int
    players: list[str | Seated]
    first: str | None
    status: str
    clock: Clock | None
    result: TableResult | None
    report: ReportShown | None


def as_json(value: Answer) -> dict[str, Any]:
    """A value's JSON object, as the faces that read plain values take it (a field left ``UNSET`` is left out)."""
    shown = msgspec.to_builtins(value)
    assert isinstance(shown, dict)
    return shown


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
            **as_json(self.table),
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
    standing: StandingRow | None
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
            "standing": None if self.standing is None else as_json(self.standing),
            "winner": self.winner,
            "round": None if self.round is None else self.round.to_json(),
        }


# --- the desk ---------------------------------------------------------------------------------------------------------


class NightRound(Answer):
    """The current round as the desk sees it: its number, whether it is the final table and still open, its tables."""

    number: int
    final: bool
    open: bool
    tables: list[TableShown]


class NightEvent(Answer):
    id: int
    name: str
    status: str
    tracker: bool
    publish_decklists: bool


class Dropped(Answer):
    """A player who left the event, and after which round (None: before the first)."""

    name: str
    after_round: int | None


class DeskNight(Answer):
    """Every table of the round for the desk (results, reports with every version, time left), who dropped."""

    server_time: float
    event: NightEvent
    round: NightRound | None
    winner: str | None
    dropped: list[Dropped]


# --- the room ---------------------------------------------------------------------------------------------------------


class DecklistLine(Answer, kw_only=True):
    """A line of a published decklist: the card's name and count, and what a face adds from its card."""

    cost: str | UnsetType = UNSET  # cost, type and image: where the card is in the set's index
    type: str | UnsetType = UNSET
    image: str | UnsetType = UNSET
    artist: str | UnsetType = UNSET
    name: str
    count: int


class Decklist(Answer):
    """A player's published decklist, by their standing."""

    rank: int
    name: str
    commanders: list[DecklistLine]
    main: list[DecklistLine]
    sideboard: list[DecklistLine]


class RoomEvent(Answer):
    id: int
    name: str
    status: str
    decklists: bool


class Seating(Answer):
    """A pod's seats before the draft, by name."""

    pod: int
    players: list[str]


class DraftProgress(Answer):
    """How far a pod's draft is: picks made of all picks, the pack being passed (no cards)."""

    pod: int
    status: str
    picks_made: int
    picks_total: int
    pack: int
    packs: int


class Pairing(Answer):
    """A player's table in the round's pairings, and whether they go first."""

    name: str
    table: int
    first: bool


class RoomTable(Answer):
    table: int
    players: list[str]
    done: bool


class RoomRound(Answer):
    """The newest round on the room's screen: pairings by name, the clock, which tables are done."""

    number: int
    final: bool
    open: bool
    clock: Clock | None
    pairings: list[Pairing]
    tables: list[RoomTable]


class RoomView(Answer, kw_only=True):
    """The room's screen: seatings, the drafts' progress, pairings by name, the clock, standings; no secrets."""

    server_time: float
    event: RoomEvent
    players: int
    seatings: list[Seating]
    drafts: list[DraftProgress]
    decks_registered: int
    round: RoomRound | None
    standings: list[StandingRow]
    winner: str | None
