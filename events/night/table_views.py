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
from typing import Any

from events import timing
from events.night.base import EventBase, name_key
from events.night.games import Games
from events.night.schema import DECKS, PODS, REPORTS, RESULTS, ROUNDS, Q
from events.night.standings import Standing, placement_points, standings_of, winner_line
from events.night.table_reports import PENDING, table_clock
from events.storage.draft_records import DRAFTS, current, read_journal
from sets.errors import InputError, StateError

_CACHE: dict[tuple, Any] = {}  # (database file, its signature, what, event) -> computed once per state of the file


def standing_json(row: Standing) -> dict[str, Any]:
    return {"rank": row.rank, "name": row.name, **{k: v for k, v in row.to_json().items() if k != "player"}}


def draft_progress(doc: dict[str, Any], journal: dict[str, Any] | None) -> dict[str, Any]:
    """How far a pod's draft is: picks made of all picks, and the pack being passed (no cards)."""
    now = current(doc, journal)
    config = now["state"]["config"]
    boosters = now["state"]["boosters"]
    pack_size = len(boosters[0][0]["cards"]) if boosters and boosters[0] else 0
    turns = -(-pack_size // config["picks_per_turn"]) if pack_size else 0
    total = config["seats"] * config["boosters"] * turns
    made = len(now["picks"])
    per_pack = config["seats"] * turns
    return {
        "status": now["status"],
        "picks_made": made,
        "picks_total": total,
        "pack": min(config["boosters"], made // per_pack + 1) if per_pack else 0,
        "packs": config["boosters"],
    }


class TableViews(EventBase):
    """The night as each of its screens shows it."""

    def _night(self, event_id: int) -> dict[str, Any]:
        """What every screen of the night reads, in one read of the database, kept for as long as the file
        is unchanged (every write replaces it): 64 phones shown one change cost one reading and one
        computation of the standings, not 64.  The file's signature is taken before the read, so what is
        kept under it is never older than the file it names.  Kept records are never changed."""
        try:
            stat = os.stat(self.store.path)
            key: tuple | None = (str(self.store.path), stat.st_ino, stat.st_size, stat.st_mtime_ns, event_id)
        except OSError:
            key = None
        if key is not None and key in _CACHE:
            return _CACHE[key]
        with self.store.read() as db:
            event = self._event(db, event_id)
            players = self._players(db, event_id)
            rounds = sorted(db.table(ROUNDS).search(Q.event == event_id), key=lambda r: r["number"])
            results = {(r["round"], r["table"]): r for r in db.table(RESULTS).search(Q.event == event_id)}
            reports: dict[tuple[int, int], Any] = {}
            for report in sorted(db.table(REPORTS).search(Q.event == event_id), key=lambda r: r.doc_id):
                if report["status"] in PENDING:
                    reports[(report["round"], report["table"])] = report
            decks = db.table(DECKS).search(Q.event == event_id)
            commanders = {d["player"]: Games._commander_names(db, event_id, d["player"]) for d in decks}
        seats: dict[int, tuple[dict[str, Any], int]] = {}
        for rnd in reversed(rounds):
            for number, table in enumerate(rnd["tables"], start=1):
                for pid in table:
                    seats.setdefault(pid, (rnd, number))
        data = {
            "event": event,
            "players": players,
            "names": {p.doc_id: p["name"] for p in players},
            "status": {p.doc_id: p["status"] for p in players},
            "rounds": rounds,
            "results": results,
            "reports": reports,
            "decks": {d["player"] for d in decks},
            "commanders": commanders,
            "seats": seats,
            "standings": standings_of(event, players, list(results.values()), rounds) if rounds else [],
        }
        if key is not None:
            if len(_CACHE) >= 8:
                _CACHE.clear()
            _CACHE[key] = data
        return data

    @staticmethod
    def _report_json(report: dict[str, Any], table: list[int], data: dict[str, Any]) -> dict:
        names = data["names"]

        def order(groups):
            return [[{"id": pid, "name": names[pid]} for pid in group] for group in groups]

        disputing = {d["player"] for d in report["disputes"]}
        return {
            "id": report.doc_id,
            "by": names[report["by"]],
            "order": order(report["order"]),
            "confirmed": [names[pid] for pid in report["confirmed"]],
            "waiting_for": [
                names[pid]
                for pid in table
                if pid not in report["confirmed"] and pid not in disputing and data["status"][pid] == "active"
            ],
            "disputes": [{"player": names[d["player"]], "order": order(d["order"])} for d in report["disputes"]],
            "status": report["status"],
            "late": report.get("late", False),
        }

    def _table_json(self, data: dict[str, Any], rnd, number: int, now: float) -> dict[str, Any]:
        names = data["names"]
        table = rnd["tables"][number - 1]
        result = data["results"].get((rnd["number"], number))
        report = data["reports"].get((rnd["number"], number))
        clock = table_clock(rnd, number, now)
        if result is not None:
            status = "recorded"
        elif report is not None and report["status"] == "disputed":
            status = "disputed"
        elif clock and clock["over"]:
            status = "desk"  # the round's time is up: what isn't confirmed waits for the desk
        elif report is not None:
            status = "waiting"
        else:
            status = "playing"
        points = placement_points(data["event"], result["order"]) if result else {}
        return {
            "table": number,
            "players": [names[pid] for pid in table],
            "first": names[rnd["first"][number - 1]] if rnd.get("first") else None,
            "status": status,
            "clock": clock,
            "result": None
            if result is None
            else {
                "order": [[names[pid] for pid in group] for group in result["order"]],
                "points": {names[pid]: round(float(p), 4) for pid, p in points.items()},
            },
            "report": None if report is None else self._report_json(report, table, data),
        }

    def table_view(self, event_id: int, player_id: int, now: float | None = None) -> dict[str, Any]:
        """A player's own view of the night: their table of the newest round they sit in, and their standing."""
        now = timing.now() if now is None else now
        data = self._night(event_id)
        event, names = data["event"], data["names"]
        if player_id not in names:
            raise InputError(f"no player number {player_id} in event {event_id}")
        mine = next((row for row in data["standings"] if row.player == player_id), None)
        view: dict[str, Any] = {
            "server_time": now,
            "event": {"id": event_id, "name": event.name, "status": event.status, "tracker": event.table_tracker},
            "player": {"id": player_id, "name": names[player_id], "status": data["status"][player_id]},
            "standing": None if mine is None else standing_json(mine),
            "winner": winner_line(data["standings"]),
            "round": None,
        }
        seat = data["seats"].get(player_id)
        if seat is None:
            return view
        rnd, number = seat
        table = self._table_json(data, rnd, number, now)
        table["players"] = [
            {
                "id": pid,
                "name": names[pid],
                "commanders": list(data["commanders"].get(pid, [])),
                "first": bool(rnd.get("first")) and rnd["first"][number - 1] == pid,
                "dropped": data["status"][pid] != "active",
                "me": pid == player_id,
            }
            for pid in rnd["tables"][number - 1]
        ]
        report = table["report"]
        if report is not None:
            report["mine"] = {
                "confirmed": names[player_id] in report["confirmed"],
                "disputed": any(d["player"] == names[player_id] for d in report["disputes"]),
            }
        view["round"] = {
            "number": rnd["number"],
            "final": bool(rnd.get("final")),
            "open": rnd["status"] != "closed",
            "tables": len(rnd["tables"]),
            **table,
        }
        if event.table_tracker and rnd["status"] != "closed":
            view["round"]["game"] = Games(self.store).game(event_id, rnd["number"], number)
        return view

    def desk_view(self, event_id: int, now: float | None = None) -> dict[str, Any]:
        """The current round's tables for the desk: results, waiting and disputed reports (every version), time
        left; and who dropped."""
        now = timing.now() if now is None else now
        data = self._night(event_id)
        event = data["event"]
        rnd = data["rounds"][-1] if data["rounds"] else None
        return {
            "server_time": now,
            "event": {
                "id": event_id,
                "name": event.name,
                "status": event.status,
                "tracker": event.table_tracker,
                "publish_decklists": event.publish_decklists,
            },
            "round": None
            if rnd is None
            else {
                "number": rnd["number"],
                "final": bool(rnd.get("final")),
                "open": rnd["status"] != "closed",
                "tables": [self._table_json(data, rnd, n, now) for n in range(1, len(rnd["tables"]) + 1)],
            },
            "winner": winner_line(data["standings"]),
            "dropped": [
                {"name": p["name"], "after_round": p.get("dropped_after")}
                for p in data["players"]
                if p["status"] == "dropped"
            ],
        }

    def public_decklists(self, event_id: int) -> list[dict[str, Any]]:
        """Everyone's registered decklist (commanders, main deck, sideboard: names and counts), by standing: only
        once the event is finished and the desk has chosen to publish them."""
        with self.store.read() as db:
            event = self._event(db, event_id)
            if event.status != "finished" or not event.publish_decklists:
                raise StateError("decklists are public only after the event is finished, where the desk publishes them")
            decks = {d["player"]: d["deck"] for d in db.table(DECKS).search(Q.event == event_id)}
        ranked = self._night(event_id)["standings"]

        def lines(rows):
            return [{"name": line["name"], "count": line.get("count", 1)} for line in rows]

        return [
            {
                "rank": row.rank,
                "name": row.name,
                "commanders": lines(decks[row.player].get("commanders", [])),
                "main": lines(decks[row.player].get("main", [])),
                "sideboard": lines(decks[row.player].get("sideboard", [])),
            }
            for row in ranked
            if row.player in decks
        ]

    def room_view(self, event_id: int, now: float | None = None) -> dict[str, Any]:
        """The room's screen: public facts only (names, pods, seats, tables, the clock, standings)."""
        now = timing.now() if now is None else now
        data = self._night(event_id)
        event, names, rounds = data["event"], data["names"], data["rounds"]
        with self.store.read() as db:
            pods = sorted(db.table(PODS).search(Q.event == event_id), key=lambda d: d["number"])
            drafts = {pod["number"]: db.table(DRAFTS).get(doc_id=pod["draft"]) for pod in pods if pod.get("draft")}
        view: dict[str, Any] = {
            "server_time": now,
            "event": {
                "id": event_id,
                "name": event.name,
                "status": event.status,
                "decklists": event.status == "finished" and event.publish_decklists,
            },
            "players": sum(1 for p in data["players"] if p["status"] == "active" and not p.get("bot")),
            "seatings": [{"pod": pod["number"], "players": [names[pid] for pid in pod["players"]]} for pod in pods],
            "drafts": [],
            "decks_registered": len(data["decks"]),
            "round": None,
            "standings": [standing_json(row) for row in data["standings"]],
            "winner": winner_line(data["standings"]),
        }
        if rounds:
            rnd = rounds[-1]
            tables = rnd["tables"]
            first = rnd.get("first") or [None] * len(tables)
            pairings = sorted(
                (
                    {"name": names[pid], "table": number, "first": first[number - 1] == pid}
                    for number, table in enumerate(tables, start=1)
                    for pid in table
                ),
                key=lambda row: (name_key(row["name"]), row["name"]),
            )
            view["round"] = {
                "number": rnd["number"],
                "final": bool(rnd.get("final")),
                "open": rnd["status"] != "closed",
                "clock": table_clock(rnd, 0, now),
                "pairings": pairings,
                "tables": [
                    {
                        "table": number,
                        "players": [names[pid] for pid in table],
                        "done": (rnd["number"], number) in data["results"],
                    }
                    for number, table in enumerate(tables, start=1)
                ],
            }
        for number, doc in drafts.items():
            if doc is not None:
                view["drafts"].append({"pod": number, **draft_progress(doc, read_journal(self.store, doc.doc_id, doc))})
        return view
