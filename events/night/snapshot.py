"""Everything recorded about one event at one moment, typed and frozen (``EventBase.snapshot``).

The status board, the sheets, the exports and ``event show --json`` read it.  Its JSON form
(``Snapshot.to_json``) is the one ``cmdraft event show --json`` prints: player seats counted from
1, pods, tables and results by player names.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.storage.records import DeckLine, Event, Player, Pod, Problem, Result, Round
from sets.colors import Color
from sets.visible import visible


class DeckSummary(msgspec.Struct, frozen=True):
    """A registered deck as the board shows it: legal or not, its problems and commanders as saved."""

    valid: bool
    problems: list[dict[str, Any]]
    commanders: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        """As ``event show --json`` prints it: the problems' messages are words, written out as every face shows
        them (``visible``), the rest as saved; the commanders by name and a Piper's chosen colors as ``piper_colors``,
        as ``event deck --json`` and ``deck check --json`` give them."""
        typed = msgspec.convert(self.problems, list[Problem])
        problems = [{**saved, "message": visible(one.message)} for saved, one in zip(self.problems, typed, strict=True)]
        lines = msgspec.convert(self.commanders, list[DeckLine])
        return {
            "valid": self.valid,
            "problems": problems,
            "commanders": [line.name for line in lines],
            "piper_colors": [line.color for line in lines if line.color],
        }

    def commanders_shown(self) -> list[str]:
        """The commanders as the desk's boards name them: one that chose its color with it, "Faceless One (white)"."""
        lines = msgspec.convert(self.commanders, list[DeckLine])
        return [f"{line.name} ({Color.parse(line.color).word})" if line.color else line.name for line in lines]

    def problem_codes(self) -> set[str]:
        """The codes of the deck's problems (``illegal-card``, ``size``...), each once."""
        return {problem.code for problem in msgspec.convert(self.problems, list[Problem])}


class PlayerRow(Player, frozen=True, kw_only=True):
    """A player with what the desk sees beside them: their pool's size (and a warning when it is not
    the size the event gives), their deck, and wrong seat codes typed for them: how many, the last one's time and
    where it came from (``events.night.seat_codes``)."""

    pool_size: int | None = None
    pool_warning: str | None = None
    deck: DeckSummary | None = None
    wrong_codes: int = 0  # wrong seat codes typed for the seat since its code was given
    wrong_code_last: str | None = None
    wrong_code_from: str | None = None  # where the last one was typed (a browser's address, a terminal)


class Snapshot(msgspec.Struct, frozen=True):
    event: Event
    players: tuple[PlayerRow, ...]
    pods: tuple[Pod, ...]  # by number
    rounds: tuple[Round, ...]  # by number
    results: tuple[Result, ...]
    drafts: dict[int, str | None]  # pod number -> its draft's status (None: the record is gone)

    def names(self) -> dict[int, str]:
        """Player names by player id."""
        return {player.id: player.name for player in self.players}

    def player(self, player_id: int) -> PlayerRow:
        return next(player for player in self.players if player.id == player_id)

    def with_players(self, players: tuple[PlayerRow, ...]) -> Snapshot:
        return msgspec.structs.replace(self, players=players)

    def to_json(self) -> dict[str, Any]:
        """The snapshot as ``event show --json`` prints it."""
        event, names = self.event, self.names()
        return {
            "event": {
                "id": event.id,
                "name": event.name,
                "date": event.date,
                "set": event.set,
                "mode": event.mode,
                "style": event.style,
                "status": event.status,
                "pod_size": event.pod_size,
                "game_size": event.game_size,
                "one_v_one": event.one_v_one,
                "timer": event.timer,
                "points": event.points,
                "piper_stock": event.piper_stock,
                "assist": event.assist,
            },
            "players": [
                {
                    "id": p.id,
                    "number": p.number,
                    "name": p.name,
                    "status": p.status,
                    "late": p.late,
                    "checked_in": p.checked_in,
                    "dropped_after": p.dropped_after,
                    "bot": p.bot,
                    "pod": p.pod,
                    "seat": None if p.seat is None else p.seat + 1,
                    "pipers_requested": p.requested,
                    "pool_size": p.pool_size,
                    "deck": None if p.deck is None else p.deck.to_json(),
                    "wrong_codes": p.wrong_codes,
                    "wrong_code_last": p.wrong_code_last,
                    "wrong_code_from": p.wrong_code_from,
                }
                for p in self.players
            ],
            "pods": [
                {
                    "pod": pod.number,
                    "players": [names[i] for i in pod.players],
                    "pipers_opened": pod.opened,
                    "draft": self.drafts.get(pod.number),
                }
                for pod in self.pods
            ],
            "rounds": [
                {
                    "round": r.number,
                    "status": r.status,
                    "tables": [[names[i] for i in t] for t in r.tables],
                    "results": {
                        str(res.table): [[names[i] for i in group] for group in res.order]
                        for res in self.results
                        if res.round == r.number
                    },
                }
                for r in self.rounds
            ],
        }
