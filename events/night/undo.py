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

from tinydb import TinyDB

from events.night import history
from events.night.base import EventBase, finishing_text
from events.night.games import Games, entry_text
from events.night.schema import DECKS, EVENTS, GAMES, PLAYERS, PODS, POOLS, RESULTS, ROUNDS, Q
from events.storage.draft_records import DRAFTS
from events.storage.store import phase_change
from sets.errors import StateError

INSTEAD = {
    "deck": "register the deck again ('cmdraft event deck {id} NAME FILE{db}')",
    "pool": "record it again ('cmdraft event pool {id} NAME FILE --replace{db}') or edit it ('--edit')",
    "draft start": "a started draft has been dealt; restore the backup taken before it ({restore}) if you must",
    "sealed pools": "the pools are opened; restore the backup taken before it ({restore}) if you must",
    "finish": "a finished event stays finished; restore the backup taken before it ({restore}) if you must",
    "restore": "restore the backup taken before it ({restore})",
    "game undo": "record the entry again with 'cmdraft event game'",
    "player remove": "register the player again",
    "pipers": "set the Piper ledger again with 'cmdraft event pipers'",
    "event new": "an event is not taken back; leave it unused",
}


# Changes whose undo moves players who may be sitting at those tables: the desk confirms them first.
ASKS = ("round", "seat", "reseat")


def change_text(entry: dict[str, Any]) -> str:
    """A history entry the desk would undo, in words: a round's pairing, a seating, or what and its new value."""
    if entry["what"] == "round":
        return f"the pairing of round {(entry.get('undo') or {}).get('round', entry['new'])}"
    if entry["what"] in ("seat", "reseat"):
        return "the draft seating" if entry["what"] == "seat" else "the re-seating of the pods"
    return f"{entry['what']}: {entry['new']}"


class _DryRun(Exception):
    """Raised inside a transaction to leave it unwritten, carrying what would have been done."""

    def __init__(self, result: dict[str, Any]):
        super().__init__("dry run")
        self.result = result


class Undo(EventBase):
    """Taking back the desk's last change."""

    def next_change(self, event_id: int) -> dict[str, Any] | None:
        """What ``undo`` would take back next (None when nothing): the entry's id, ``what``, ``text`` in words,
        ``asks`` (a round's pairing or a seating: confirmed first) and ``refused`` (why it can't be, or None)."""
        with self.store.read() as db:
            self._event(db, event_id)
            entry = history.last_undoable(db, event_id)
        if entry is None:
            return None
        try:
            self.undo(event_id, expect=entry["id"], dry_run=True)  # every check run, nothing written
            refused = None
        except StateError as error:
            refused = str(error)
        return {
            "entry": entry["id"],
            "what": entry["what"],
            "text": change_text(entry),
            "at": entry["at"],
            "asks": entry["what"] in ASKS,
            "refused": refused,
        }

    def undo(self, event_id: int, expect: int | None = None, dry_run: bool = False) -> dict[str, Any]:
        """Take back the desk's newest change not yet undone; returns what was undone, or ``StateError``
        saying why it can't be (and what to do instead).  ``expect``: the entry the desk confirmed (another
        change since is refused, not undone in its place); ``dry_run``: checked, nothing written."""
        try:
            return self._undo(event_id, expect, dry_run)
        except _DryRun as done:
            return done.result

    def _undo(self, event_id: int, expect: int | None, dry_run: bool) -> dict[str, Any]:
        with self.store.write() as db:
            event = self._event(db, event_id)
            entry = history.last_undoable(db, event_id)
            if entry is None:
                raise StateError(f"nothing to undo: the desk has made no change to event {event_id} that isn't undone")
            if expect is not None and entry["id"] != expect:
                raise StateError(
                    f"the desk's last change is now {change_text(entry)} (another change was made meanwhile): "
                    "nothing undone; run 'event undo' again"
                )
            what = entry["what"]
            handler = getattr(self, "_undo_" + what.replace(" ", "_"), None)
            if handler is None or entry.get("undo") is None:
                path = shlex.quote(str(self.store.path))
                hint = INSTEAD.get(what, "make the change again the other way").format(
                    id=event_id,
                    db=f" --db {path}",
                    restore=f"'cmdraft event restore {shlex.quote(str(self.store.path) + '.bak.1')} --all --db {path}'",
                )
                raise StateError(f"the desk's last change ({what}: {entry['new']}) can't be undone: {hint}")
            said = handler(db, event_id, event, entry, entry["undo"])
            done = {
                "undid": f"{what} {said}",
                "entry": entry["id"],
                "what": what,
                "old": entry["old"],
                "new": entry["new"],
            }
            if dry_run:
                raise _DryRun(done)  # leaves the transaction unwritten
            history.log_change(db, event_id, history.DESK, "undo", entry["new"], entry["old"], undoes=entry["id"])
        return done

    @staticmethod
    def _unsafe(entry: dict[str, Any], why: str) -> StateError:
        return StateError(f"the desk's last change ({entry['what']}: {entry['new']}) can't be undone safely: {why}")

    def _names(self, db: TinyDB, event_id: int) -> dict[int, str]:
        return {p.id: p.name for p in self._players(db, event_id)}

    # --- one handler per kind of change: check it is still as it was left, then put it back -----------------

    def _undo_rename(self, db: TinyDB, event_id, event, entry, undo) -> str:
        player = db.table(PLAYERS).get(doc_id=undo["player"])
        if player is None or player["name"] != entry["new"]:
            raise self._unsafe(entry, "the player has been renamed or removed since")
        if any(p.name == entry["old"] for p in self._players(db, event_id) if p.id != player.doc_id):
            raise self._unsafe(entry, f"another player is called {entry['old']!r} now")
        db.table(PLAYERS).update({"name": entry["old"]}, doc_ids=[player.doc_id])
        pod = db.table(PODS).get((Q.event == event_id) & (Q.number == player["pod"])) if player["pod"] else None
        if pod is not None and pod.get("draft") and player.doc_id in pod["players"]:
            draft = db.table(DRAFTS).get(doc_id=pod["draft"])
            if draft is not None:
                names = list(draft["names"])
                names[pod["players"].index(player.doc_id)] = entry["old"]
                db.table(DRAFTS).update({"names": names}, doc_ids=[draft.doc_id])
        return f"{entry['new']} back to {entry['old']}"

    def _undo_result(self, db: TinyDB, event_id, event, entry, undo) -> str:
        if event.status == "finished":
            raise self._unsafe(entry, "the event is finished")
        key = (Q.event == event_id) & (Q.round == undo["round"]) & (Q.table == undo["table"])
        doc = db.table(RESULTS).get(key)
        if doc is None or doc["order"] != undo["new"]:
            raise self._unsafe(entry, "the result has changed since")
        where = f"of round {undo['round']} table {undo['table']}"
        rnd = db.table(ROUNDS).get((Q.event == event_id) & (Q.number == undo["round"]))
        if undo["order"] is not None:
            db.table(RESULTS).update({"order": undo["order"]}, doc_ids=[doc.doc_id])
            return f"{where}: back to {finishing_text(undo['order'], self._names(db, event_id))}"
        later = db.table(ROUNDS).get((Q.event == event_id) & (Q.number == undo["round"] + 1))
        if later is not None:
            raise self._unsafe(
                entry,
                f"round {later['number']} was paired with it; correct it with "
                f"'cmdraft event result {event_id} {undo['round']} {undo['table']} ORDER --replace'",
            )
        db.table(RESULTS).remove(doc_ids=[doc.doc_id])
        db.table(ROUNDS).update({"status": "open"}, doc_ids=[rnd.doc_id])
        return f"{where} ({entry['new']}): the table has no result again"

    def _undo_round(self, db: TinyDB, event_id, event, entry, undo) -> str:
        rounds = sorted(db.table(ROUNDS).search(Q.event == event_id), key=lambda r: r["number"])
        if not rounds or rounds[-1]["number"] != undo["round"]:
            raise self._unsafe(entry, "a later round has been paired")
        if db.table(RESULTS).search((Q.event == event_id) & (Q.round == undo["round"])) or db.table(GAMES).search(
            (Q.event == event_id) & (Q.round == undo["round"])
        ):
            raise self._unsafe(entry, f"round {undo['round']} already has results or games recorded")
        phase_change(db)
        db.table(ROUNDS).remove(doc_ids=[rounds[-1].doc_id])
        if len(rounds) == 1:
            db.table(EVENTS).update({"status": undo["status"]}, doc_ids=[event_id])
        return f"{undo['round']}: its pairing is taken back"

    def _undo_checkin(self, db: TinyDB, event_id, event, entry, undo) -> str:
        if event.status != "registration":
            raise self._unsafe(entry, "the players are seated")
        db.table(PLAYERS).update(
            {"checked_in": False}, doc_ids=[pid for pid in undo["players"] if db.table(PLAYERS).get(doc_id=pid)]
        )
        return f"of {' / '.join(entry['new'])}: not checked in again"

    def _undo_player_add(self, db: TinyDB, event_id, event, entry, undo) -> str:
        player = db.table(PLAYERS).get(doc_id=undo["player"])
        if player is None:
            raise self._unsafe(entry, "the player is no longer registered")
        if (
            event.status not in ("registration", "seated")
            or db.table(POOLS).get((Q.event == event_id) & (Q.player == player.doc_id))
            or db.table(DECKS).get((Q.event == event_id) & (Q.player == player.doc_id))
        ):
            raise self._unsafe(entry, f"{player['name']} has a pool or the draft has started; drop them instead")
        if player["pod"] is not None:
            pod = db.table(PODS).get((Q.event == event_id) & (Q.number == player["pod"]))
            if pod.get("draft"):
                raise self._unsafe(entry, "the draft has started; drop them instead")
            seats = [pid for pid in pod["players"] if pid != player.doc_id]
            db.table(PODS).update({"players": seats}, doc_ids=[pod.doc_id])
            for seat, pid in enumerate(seats):
                db.table(PLAYERS).update({"seat": seat}, doc_ids=[pid])
        db.table(PLAYERS).remove(doc_ids=[player.doc_id])
        return f"of {entry['new']}: the registration is taken back"

    def _undo_drop(self, db: TinyDB, event_id, event, entry, undo) -> str:
        player = db.table(PLAYERS).get(doc_id=undo["player"])
        if player is None or player["status"] != "dropped":
            raise self._unsafe(entry, "the player is no longer dropped")
        if undo["event_status"] == "drafting":
            raise self._unsafe(entry, "a bot took their draft seat")
        if len(db.table(ROUNDS).search(Q.event == event_id)) != undo["rounds"] or event.status == "finished":
            raise self._unsafe(entry, "a round has been paired without them since")
        db.table(PLAYERS).update({"status": entry["old"], "dropped_after": None}, doc_ids=[player.doc_id])
        return f"of {player['name']}: back in the event"

    def _undo_game(self, db: TinyDB, event_id, event, entry, undo) -> str:
        rnd = db.table(ROUNDS).get((Q.event == event_id) & (Q.number == undo["round"]))
        if rnd is None or rnd["status"] == "closed" or event.status == "finished":
            raise self._unsafe(entry, f"round {undo['round']} is closed")
        key = (Q.event == event_id) & (Q.round == undo["round"]) & (Q.table == undo["table"])
        doc = db.table(GAMES).get(key)
        if doc is None or len(doc.get("entries", [])) != undo["entries"]:
            raise self._unsafe(entry, "the table has changed since")
        state = Games._game_state(doc, event_id, undo["round"], undo["table"], rnd["tables"][undo["table"] - 1])
        taken = state["entries"].pop()
        Games._take_back(state, taken)
        db.table(GAMES).remove(doc_ids=[doc.doc_id])
        db.table(GAMES).insert(state)
        return f"at {entry['old']}: {entry_text(taken, self._names(db, event_id))}"

    def _undo_seat(self, db: TinyDB, event_id, event, entry, undo) -> str:
        pods = sorted(db.table(PODS).search(Q.event == event_id), key=lambda p: p["number"])
        names = self._names(db, event_id)
        if event.status != "seated" or any(p.get("draft") for p in pods) or db.table(POOLS).search(Q.event == event_id):
            raise self._unsafe(entry, "the draft has started")
        if [[names[pid] for pid in pod["players"]] for pod in pods] != entry["new"]:
            raise self._unsafe(entry, "the pods have changed since (a late player was seated)")
        phase_change(db)
        db.table(PODS).remove(doc_ids=[pod.doc_id for pod in pods])
        for pod in pods:
            db.table(PLAYERS).update({"pod": None, "seat": None}, doc_ids=list(pod["players"]))
        for pid in undo["no_shows"]:
            db.table(PLAYERS).update({"status": "active"}, doc_ids=[pid])
        if undo["pods"] is None:
            db.table(EVENTS).update({"status": "registration", "seatings": undo["seatings"]}, doc_ids=[event_id])
            return "of the players: back to registration"
        for number, ids in enumerate(undo["pods"], start=1):
            db.table(PODS).insert({"event": event_id, "number": number, "players": ids, "draft": None, "opened": None})
            for seat, pid in enumerate(ids):
                db.table(PLAYERS).update({"pod": number, "seat": seat}, doc_ids=[pid])
        db.table(EVENTS).update({"seatings": undo["seatings"]}, doc_ids=[event_id])
        return "of the players: the pods are as before"

    _undo_reseat = _undo_seat
