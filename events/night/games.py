"""The game tracker: life from 40, commander damage (21 from one commander loses) and commander tax, per table."""

from __future__ import annotations

from typing import Any

from tinydb import TinyDB

from events.night import history
from events.night.base import EventBase, round_at_table
from events.night.schema import COMMANDER_DAMAGE_LOSS, GAMES, STARTING_LIFE, Q
from events.storage.records import MAX_ID, Deck
from events.storage.tables import records_of
from sets.errors import InputError, LimitError, StateError
from sets.numbers import is_number, parse_int

# The tracker's ranges, the one place for them: a change typed at once, and a life total (both far beyond
# any real game, and inside what the store keeps).
MAX_LIFE_CHANGE = 1_000_000
MAX_LIFE = MAX_ID


def entry_text(entry: dict[str, Any], names: dict[int, str]) -> str:
    """One tracker entry as the desk typed it: ``life Ann -5; damage Ann=Bo:Piper 7; cast Bo=Piper``."""
    parts = [f"life {names[int(pid)]} {delta:+d}" for pid, delta in entry["life"].items()]
    parts += [
        f"damage {names[to]}={names[frm]}:{card}{'#' + str(copy) if copy and copy > 1 else ''} {amount}"
        for to, frm, card, copy, amount in entry["hits"]
    ]
    parts += [
        f"cast {names[pid]}={card}{'#' + str(copy) if copy and copy > 1 else ''}" for pid, card, copy in entry["casts"]
    ]
    return "; ".join(parts)


class Games(EventBase):
    """One table's game state, changed and shown."""

    @staticmethod
    def _commander_names(db: TinyDB, event_id: int, player_id: int) -> list[str]:
        """A player's commanders as registered with their deck, one entry per card (two Pipers: two entries)."""
        deck = records_of(db, Deck).first(event=event_id, player=player_id)
        if deck is None:
            return []
        return [line.name for line in deck.deck.commanders for _ in range(line.count)]

    @staticmethod
    def find_commander(player_name: str, commanders: list[str], text: str) -> tuple[str, int]:
        """``Piper`` or ``Piper#2`` among a player's commanders: (card name, which copy, from 1)."""
        body, sep, number = text.strip().rpartition("#")
        if not sep or not is_number(number):
            body, number = text.strip(), ""
        body = body.strip()
        names = list(dict.fromkeys(commanders))
        if not names:
            raise InputError(
                f"{player_name} has no registered deck, so no commanders to track; register the deck first"
            )
        folded = body.casefold()
        matches = [n for n in names if n.casefold() == folded] or [
            n for n in names if folded and folded in n.casefold()
        ]
        if not matches:
            raise InputError(f"{player_name} has no commander {body!r}; their commanders: {', '.join(names)}")
        if len(matches) > 1:
            raise InputError(f"{body!r} could be {' or '.join(matches)}: give more of the name")
        name = matches[0]
        copies = commanders.count(name)
        if number:
            copy = parse_int(number, f"commander number in {text!r}")
            if not 1 <= copy <= copies:
                raise InputError(
                    f"{player_name} has {copies} {name} as commander{'s' if copies > 1 else ''}, not a #{copy}"
                )
        elif copies > 1:
            raise InputError(
                f"{player_name} has {copies} {name} as commanders: say which, "
                + " or ".join(f"{body}#{i}" for i in range(1, copies + 1))
            )
        else:
            copy = 1
        return name, copy

    @staticmethod
    def _game_state(
        doc: dict[str, Any] | None, event_id: int, round_number: int, table_number: int, table: list[int]
    ) -> dict[str, Any]:
        """The tracker's record; one written before commanders were told apart (``damage``/``tax`` keyed by
        card name alone) is read with those entries kept under an unknown source."""
        if doc is None:
            return {
                "event": event_id,
                "round": round_number,
                "table": table_number,
                "life": {str(pid): STARTING_LIFE for pid in table},
                "hits": [],
                "casts": [],
            }
        state = {k: v for k, v in dict(doc).items() if k not in ("damage", "tax")}
        state["life"] = dict(doc.get("life") or {})
        for pid in table:
            state["life"].setdefault(str(pid), STARTING_LIFE)
        state["hits"] = [dict(h) for h in doc.get("hits", [])] + [
            {"to": int(victim), "from": None, "commander": name, "copy": None, "amount": amount}
            for victim, hits in (doc.get("damage") or {}).items()
            for name, amount in hits.items()
        ]
        state["casts"] = [dict(c) for c in doc.get("casts", [])] + [
            {"player": int(pid), "commander": name, "copy": None, "count": count}
            for pid, taxes in (doc.get("tax") or {}).items()
            for name, count in taxes.items()
        ]
        return state

    @staticmethod
    def take_back_last(
        db: TinyDB, event_id: int, round_number: int, table_number: int, table: list[int], entries: int | None
    ) -> dict[str, Any] | None:
        """Inside a transaction: the table's newest tracker entry taken back while the game still has ``entries``
        entries (the entry, or None when the table has changed since)."""
        doc = db.table(GAMES).get((Q.event == event_id) & (Q.round == round_number) & (Q.table == table_number))
        if doc is None or len(doc.get("entries", [])) != entries:
            return None
        state = Games._game_state(doc, event_id, round_number, table_number, table)
        taken: dict[str, Any] = state["entries"].pop()
        Games._take_back(state, taken)
        db.table(GAMES).remove(doc_ids=[doc.doc_id])
        db.table(GAMES).insert(state)
        return taken

    @staticmethod
    def _take_back(state: dict[str, Any], entry: dict[str, Any]) -> None:
        """Undo one tracker entry: its life changes, commander damage (and the life it cost) and casts."""
        for pid, delta in entry["life"].items():
            state["life"][pid] -= delta
        for to, frm, card, copy, amount in entry["hits"]:
            hit = next(
                h for h in state["hits"] if (h["to"], h["from"], h["commander"], h["copy"]) == (to, frm, card, copy)
            )
            hit["amount"] -= amount
            state["life"][str(to)] += amount
            if not hit["amount"]:
                state["hits"].remove(hit)
        for pid, card, copy in entry["casts"]:
            cast = next(c for c in state["casts"] if (c["player"], c["commander"], c["copy"]) == (pid, card, copy))
            cast["count"] -= 1
            if not cast["count"]:
                state["casts"].remove(cast)

    def game(
        self,
        event_id: int,
        round_number: int,
        table_number: int,
        *,
        life: dict[str, int] | None = None,
        damage: list[tuple[str, str, str, int]] | None = None,
        casts: list[tuple[str, str]] | None = None,
        undo: bool = False,
        who: str = history.DESK,
        by: int | None = None,
    ) -> dict[str, Any]:
        """Life (from 40), commander damage and commander tax at one table, per commander (CR 903.10a, 903.8).

        ``damage`` holds (victim, source player, commander, amount): damage is kept per victim, source
        player and which of that player's commanders dealt it, so two Pipers at one seat, or the same
        card at two seats, are different commanders.  ``casts`` holds (player, commander): each cast
        from the command zone adds {2} to that commander's next cast.  Each call that changes the table
        is one entry; ``undo`` takes back the table's last entry (while the round is open).

        ``by`` is the player entering it from their own phone (``who`` then says ``browser NAME``): they
        must sit at that table, their entry is marked as theirs, and their ``undo`` takes back their own
        last entry, whatever others entered since.
        """
        for name, delta in (life or {}).items():
            if abs(delta) > MAX_LIFE_CHANGE:
                raise LimitError("life", f"a life change for {name}", -MAX_LIFE_CHANGE, MAX_LIFE_CHANGE, delta)
        for victim, _, _, amount in damage or []:
            if not 0 <= amount <= MAX_LIFE_CHANGE:
                raise LimitError("damage", f"commander damage to {victim}", 0, MAX_LIFE_CHANGE, amount)
        if undo and (life or damage or casts):
            raise InputError(
                "--undo takes back the last entry at the table on its own: leave out --life, --damage and --cast"
            )
        changing = bool(life or damage or casts or undo)
        with self.store.write() as db:
            event = self._event(db, event_id)
            rnd = round_at_table(db, event_id, round_number, table_number)
            if changing and event.status == "finished":
                raise StateError("the event is finished; its games can't change")
            if changing and rnd.status == "closed":
                raise StateError(f"round {round_number} is closed (every result is recorded); its games can't change")
            table = rnd.tables[table_number - 1]
            if by is not None and not event.table_tracker:
                raise StateError("this event's game tracker is kept at the desk, not from the players' phones")
            if by is not None and by not in table:
                raise InputError(f"player number {by} is not at table {table_number} of round {round_number}")
            key = (Q.event == event_id) & (Q.round == round_number) & (Q.table == table_number)
            doc = db.table(GAMES).get(key)
            state = self._game_state(doc, event_id, round_number, table_number, table)
            names = {p.id: p.name for p in self._players(db, event_id)}

            def at_table(name: str) -> int:
                player = self._player(db, event_id, name)
                if player.id not in table:
                    raise InputError(f"{player.name} is not at table {table_number} of round {round_number}")
                return player.id

            commanders = {pid: self._commander_names(db, event_id, pid) for pid in table}
            entry: dict[str, Any] = {"life": {}, "hits": [], "casts": []}
            if by is not None:
                entry["by"] = by
            if undo:
                mine = [i for i, e in enumerate(state.get("entries", [])) if by is None or e.get("by") == by]
                if not mine:
                    raise StateError(
                        f"nothing to undo at table {table_number} of round {round_number}"
                        + (" that you entered" if by is not None else "")
                    )
                undone = state["entries"].pop(mine[-1])
                self._take_back(state, undone)
            for name, delta in (life or {}).items():
                pid = at_table(name)
                state["life"][str(pid)] += delta
                entry["life"][str(pid)] = entry["life"].get(str(pid), 0) + delta
            for victim, source, commander, amount in damage or []:
                if amount < 0:
                    raise InputError("commander damage can't be negative")
                to, frm = at_table(victim), at_table(source)
                card, copy = self.find_commander(names[frm], commanders[frm], commander)
                hit = next(
                    (
                        h
                        for h in state["hits"]
                        if (h["to"], h["from"], h["commander"], h["copy"]) == (to, frm, card, copy)
                    ),
                    None,
                )
                if hit is None:
                    hit = {"to": to, "from": frm, "commander": card, "copy": copy, "amount": 0}
                    state["hits"].append(hit)
                hit["amount"] += amount
                state["life"][str(to)] -= amount
                entry["hits"].append([to, frm, card, copy, amount])
            for name, commander in casts or []:
                pid = at_table(name)
                card, copy = self.find_commander(names[pid], commanders[pid], commander)
                cast = next(
                    (c for c in state["casts"] if (c["player"], c["commander"], c["copy"]) == (pid, card, copy)), None
                )
                if cast is None:
                    cast = {"player": pid, "commander": card, "copy": copy, "count": 0}
                    state["casts"].append(cast)
                cast["count"] += 1
                entry["casts"].append([pid, card, copy])
            if changing:
                if not undo:
                    state.setdefault("entries", []).append(entry)
                beyond = [(pid, total) for pid, total in state["life"].items() if abs(total) > MAX_LIFE]
                if beyond:
                    pid, total = beyond[0]
                    raise LimitError("life", f"{names[int(pid)]}'s life total", -MAX_LIFE, MAX_LIFE, total)
                if doc:
                    db.table(GAMES).remove(doc_ids=[doc.doc_id])
                db.table(GAMES).insert(state)
                where = f"round {round_number} table {table_number}"
                if undo:
                    history.log_change(db, event_id, who, "game undo", entry_text(undone, names), where)
                else:
                    history.log_change(
                        db,
                        event_id,
                        who,
                        "game",
                        where,
                        entry_text(entry, names),
                        undo={"round": round_number, "table": table_number, "entries": len(state["entries"])},
                    )

        def label(source: int | None, card: str, copy: int | None, owner: int) -> str:
            several = copy is not None and commanders.get(owner, []).count(card) > 1
            mark = f" #{copy}" if several else ""
            return (
                (f"{names[source]}: " if source is not None else "")
                + card
                + mark
                + ("" if copy is not None else " (source not recorded)")
            )

        board = []
        for pid in table:
            hits = [h for h in state["hits"] if h["to"] == pid]
            own = [c for c in state["casts"] if c["player"] == pid]
            lost = state["life"][str(pid)] <= 0 or any(h["amount"] >= COMMANDER_DAMAGE_LOSS for h in hits)
            board.append(
                {
                    "player": names[pid],
                    "life": state["life"][str(pid)],
                    "lost": lost,
                    "commander_damage": [
                        {
                            "from": None if h["from"] is None else names[h["from"]],
                            "commander": h["commander"],
                            "copy": h["copy"],
                            "amount": h["amount"],
                            "label": label(h["from"], h["commander"], h["copy"], h["from"]),
                        }
                        for h in hits
                    ],
                    "tax": [
                        {
                            "commander": c["commander"],
                            "copy": c["copy"],
                            "casts": c["count"],
                            "tax": 2 * c["count"],
                            "label": label(None, c["commander"], c["copy"], pid).replace(" (source not recorded)", ""),
                        }
                        for c in own
                    ],
                }
            )
        return {"round": round_number, "table": table_number, "players": board}
