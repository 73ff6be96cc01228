"""Drafting: starting the pods' drafts (or opening sealed pools), the draft sessions of digital
pods, folding finished drafts into pools, and ``recover`` for a step a crash left half done.
(``events/storage/draft_files.py`` is the saved draft itself: its record and journal of picks.)"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from tinydb import TinyDB

from draft.decks import is_piper
from draft.engine import DraftConfig
from draft.products import product
from events.night import history
from events.night.base import EventBase
from events.night.packs_secret import packs_secret, pod_seed
from events.night.phone_clocks import PhoneClocks
from events.night.refusals import DESK, Actor
from events.night.schema import card_ref
from events.night.snapshot import PlayerRow, Snapshot
from events.sessions.table import DraftTable
from events.storage.draft_files import TableSession
from events.storage.draft_records import REPLACED, fold, live_state, resume_stopped
from events.storage.records import Event, Player, Pod, Pool
from events.storage.store import phase_change
from events.storage.tables import records_of
from sets.booster import booster_spec, sealed_pool
from sets.errors import InputError, StateError
from sets.visible import quoted, sentence

WAITING_FOR_START = "waiting for the desk to start the draft"  # what a seated player waits for, at every face


def waiting_words(snap: Snapshot, player_id: int, player: PlayerRow | None = None) -> str | None:
    """What a player waits for: before the draft, the desk's start (``WAITING_FOR_START``); with their pool recorded
    while others still draft (decks are built once every active player has a pool:
    ``Drafting.finish_drafting_if_done``), their own case; None when they don't wait so (``player``: the player's
    row, when the caller has it)."""
    player = snap.player(player_id) if player is None else player
    if snap.event.status in ("registration", "seated"):
        return sentence(WAITING_FOR_START)
    if snap.event.status != "drafting" or player.pool_size is None:
        return None
    if player.pod is None:  # added after the draft started, with a sealed pool opened for them
        case = "You joined after the draft started, with a sealed pool opened for you; the pods are still drafting."
    elif snap.event.style == "physical":
        case = "Your pool is recorded; the desk is still recording the other players' pools."
    else:
        case = "Your pod has drafted; other pods are still drafting."
    return case + " Decks are built once every pod has drafted."


def draft_over_words(event_id: int, status: str) -> str:
    """What the desk is told when it looks at a draft that is over (the event ``status`` now): that it is, and what
    comes next, as every face that shows the draft says it."""
    if status == "finished":
        return "The draft is over: every pod has drafted, and the event is finished."
    if status == "playing":
        return (
            "The draft is over: every pod has drafted, and the rounds are on "
            f"(the next is paired with: cmdraft event round {event_id})."
        )
    return (
        "The draft is over: every pod has drafted. Next: the players register their decks (the board: cmdraft "
        f"event deck {event_id}), then round 1 is paired (cmdraft event round {event_id})."
    )


class Drafting(EventBase):
    """From seated pods to recorded pools."""

    def start_draft(self, event_id: int, *, actor: Actor = DESK) -> list[int]:
        """Start the event's drafts (or open sealed pools); returns the draft ids of digital pods.  Only the desk
        starts a draft (``NotAllowed`` for anyone else: a player's terminal waits for the desk's start).

        The drafts are dealt outside the lock (seeded, so every terminal deals the same ones), then
        saved with the pods' links and the new status in one transaction that first checks the
        event is still seated: two terminals starting at once make one draft per pod, and both
        get the same draft ids.
        """
        actor.require_desk("start the draft")
        with self.store.read() as db:
            event = self._event(db, event_id)
            players = {p.id: p for p in self._players(db, event_id)}
            pods = sorted(records_of(db, Pod).find(event=event_id), key=lambda d: d.number)
        if event.secret is None:  # made before packs had a secret, or restored from a running event's export
            with self.store.write() as db:
                packs_secret(db, self._event(db, event_id))
                event = self._event(db, event_id)
        if event.mode == "sealed":
            self._require(event, "registration", doing="open sealed pools")
            return self._open_sealed(event_id, event)
        if event.status in ("drafting", "building") and event.style != "physical":
            return [pod.draft for pod in pods if pod.draft]  # another terminal started it
        self._require(event, "seated", doing="start the draft")
        unseated = [p.name for p in players.values() if p.status == "active" and p.pod is None]
        if unseated:
            raise StateError(
                f"{' / '.join(map(quoted, unseated))} registered after seating and "
                f"{'has' if len(unseated) == 1 else 'have'} no seat (every pod was full): "
                f"seat everyone again with 'cmdraft event seat {event_id} --again', or drop them"
            )
        sessions: dict[int, TableSession] = {}
        # What every seat can count on from the store's stock of Pipers, whatever order the decks register in: the
        # bots, the hint and the timer's pick plan with that many (``AddedOption.sure_from``).
        active = sum(1 for p in players.values() if p.status == "active")
        pipers = product(event.set).added.sure_from(event.piper_stock, active)
        secret = event.secret
        assert secret is not None  # given above when the event had none
        if event.style in ("terminal", "bots"):
            for pod in pods:
                seats = len(pod.players)
                if seats < 2:
                    raise StateError(f"pod {pod.number} has fewer than 2 players; can't draft it")
                names = [players[pid].name for pid in pod.players]
                humans = (
                    []
                    if event.style == "bots"
                    else [
                        s
                        for s, pid in enumerate(pod.players)
                        if not players[pid].bot and players[pid].status == "active"
                    ]
                )
                sessions[pod.number] = TableSession.prepare(
                    self.store,
                    kind="event",
                    seed=pod_seed(secret, pod.number),
                    config=DraftConfig(seats=seats, set_code=event.set),
                    humans=humans,
                    names=names,
                    timer=event.timer or None,
                    pipers=pipers,
                    extra={"event": event_id, "pod": pod.number, "assist": event.assist},
                )
        with self.store.write() as db:
            event = self._event(db, event_id)
            pods = sorted(records_of(db, Pod).find(event=event_id), key=lambda d: d.number)
            if event.status != "seated":
                if event.status in ("drafting", "building") and event.style != "physical":
                    return [pod.draft for pod in pods if pod.draft]
                self._require(event, "seated", doing="start the draft")
            phase_change(db)
            draft_ids = []
            for pod in pods:
                session = sessions.get(pod.number)
                if session is None:
                    continue
                if pod.draft:  # saved by a schema-1 cmdraft that was interrupted
                    draft_ids.append(pod.draft)
                    continue
                draft_ids.append(session.insert(db))
                records_of(db, Pod).update(pod.id, draft=session.draft_id)
            records_of(db, Event).update(event_id, status="drafting")
            history.log_change(db, event_id, history.DESK, "draft start", "seated", "drafting")
            for pod in records_of(db, Pod).find(event=event_id):
                self._settle_pod(db, event_id, pod)
            self.finish_drafting_if_done(db, event_id)
        return draft_ids

    def _open_sealed(self, event_id: int, event: Event) -> list[int]:
        spec = booster_spec(event.set)
        rng = random.Random(event.secret)
        with self.store.write() as db:
            for player in self._players(db, event_id, active_only=True):
                if records_of(db, Pool).first(event=event_id, player=player.id):
                    continue
                boosters = sealed_pool(spec, rng, product(event.set).sealed_boosters)
                cards = [card_ref(p, event.set) for b in boosters for p in b.printings]
                records_of(db, Pool).insert_fields(event=event_id, player=player.id, cards=cards, source="sealed")
            phase_change(db)
            records_of(db, Event).update(event_id, status="building")
            history.log_change(db, event_id, history.DESK, "sealed pools", None, "opened")
        return []

    def draft_session(
        self, event_id: int, pod_number: int, *, serving: bool = False, stopping: Callable[[], bool] | None = None
    ) -> DraftTable:
        """The pod's draft as a face holds it (``events.sessions.table.DraftTable``), read from its file: it leaves
        the overdue picks of the seats phones hold to the event's server (``phone_clocks``).
        ``serving``: the server serving the event holds it, whose phones' clocks are its own until it starts stopping
        (``stopping()``: its first Ctrl-C; its phones can't pick from then on, and it times out no seat meanwhile)."""
        session = self._pod_session(event_id, pod_number)
        if serving:
            seats = range(session.draft.config.seats)
            session.clocks_held = None if stopping is None else (lambda claims: seats if stopping() else ())
        return session

    def _pod_session(self, event_id: int, pod_number: int) -> TableSession:
        """The pod's draft, the whole session the night's own use cases work on (a seat released, handed over),
        its phones' clocks left to the event's server (``phone_clocks``)."""
        with self.store.read() as db:
            pod = records_of(db, Pod).first(event=event_id, number=pod_number)
        if pod is None:
            raise InputError(f"no pod {pod_number} in event {event_id}")
        if not pod.draft:
            raise StateError(f"pod {pod_number} has no digital draft; start it with 'cmdraft event draft {event_id}'")
        session = TableSession.load(self.store, pod.draft)
        session.clocks_held = self._phone_clocks(event_id, pod).held
        return session

    def phone_seats(self, event_id: int, pod_number: int, table: DraftTable) -> frozenset[int]:
        """The seats of the pod's draft that phones hold (``phone_clocks``): those whose clocks a server started
        again after one stopped starts over (``DraftTable.resume_file``)."""
        with self.store.read() as db:
            pod = records_of(db, Pod).first(event=event_id, number=pod_number)
        return frozenset() if pod is None else self._phone_clocks(event_id, pod).seats(table.claims)

    def _phone_clocks(self, event_id: int, pod: Pod) -> PhoneClocks:
        return PhoneClocks(self.store, self.path, event_id, tuple(pod.players))

    def after_picks(self, event_id: int, pod_number: int, session: DraftTable | None = None) -> bool:
        """Once a pod's draft is over: fold its picks into the database, record its pools and move
        the event on when every pod is done — one transaction.  True when the pools are recorded.

        A caller that holds the pod's session passes it, so an unfinished draft isn't loaded again.
        """
        if session is not None and not session.draft.finished:
            return False
        return bool(self.after_picks_of(event_id, [pod_number]))

    def after_picks_of(self, event_id: int, pod_numbers: Sequence[int]) -> list[int]:
        """``after_picks`` for several pods whose drafts are over, in one transaction: one write of the database
        however many pods ended together (a server's pods ending within moments of each other).  The pods
        whose pools are recorded."""
        with self.store.write() as db:
            settled = []
            for pod_number in pod_numbers:
                pod = records_of(db, Pod).first(event=event_id, number=pod_number)
                if pod is None or not pod.draft:
                    raise StateError(
                        f"pod {pod_number} has no digital draft; start it with 'cmdraft event draft {event_id}'"
                    )
                if self._settle_pod(db, event_id, pod):
                    settled.append(pod_number)
            self.finish_drafting_if_done(db, event_id)
        return settled

    def _settle_pod(self, db: TinyDB, event_id: int, pod: Pod) -> bool:
        """Inside a transaction: a finished pod draft gets its picks folded and its pools recorded."""
        if not pod.draft:
            return False
        draft = fold(self.store, db, pod.draft)
        if draft is None:
            return False
        event = self._event(db, event_id)
        have = set(records_of(db, Pool).values("player", event=event_id))
        recorded = 0
        for seat, pid in enumerate(pod.players):
            if pid in have:
                continue
            cards = [card_ref(p, event.set) for p in draft.pools[seat]]
            records_of(db, Pool).insert_fields(event=event_id, player=pid, cards=cards, source="draft")
            have.add(pid)
            recorded += 1
        if recorded:
            history.log_change(
                db, event_id, history.SYSTEM, "draft end", None, f"pod {pod.number}: {recorded} pools recorded"
            )
        if pod.opened is None:
            opened = sum(1 for row in draft.boosters for b in row for p in b.printings if is_piper(p.card))
            records_of(db, Pod).update(pod.id, opened=opened)
        return True

    def finish_drafting_if_done(self, db: TinyDB, event_id: int) -> None:
        """Inside a transaction: a drafting event whose active players all have pools moves to building."""
        event = self._event(db, event_id)
        if event.status != "drafting":
            return
        active = records_of(db, Player).values("id", event=event_id, status="active")
        have = set(records_of(db, Pool).values("player", event=event_id))
        if all(pid in have for pid in active):
            phase_change(db)
            records_of(db, Event).update(event_id, status="building")
            history.log_change(db, event_id, history.SYSTEM, "drafting done", "drafting", "building")

    def recover(self) -> list[int]:
        """Finish what an interrupted command left in drafting events: seats of dropped players go
        to bots, a pick whose time ran out is made (not a phone's once a server has served the event: ``phone_clocks``),
        finished pod drafts get their pools, and an event whose pods are all done moves to
        building.  Every event command runs this first; a read-only database is left as it is.
        Returns the events that moved on."""
        if not self.store.writable():
            return []
        with self.store.read() as db:
            drafting = [event.id for event in records_of(db, Event).find(status="drafting")]
            if not drafting:
                return []
            stranded, late, settle, halted = [], [], False, []
            for event_id in drafting:
                players = self._players(db, event_id)
                dropped = {p.id for p in players if p.status == "dropped"}
                have = {d.player for d in records_of(db, Pool).find(event=event_id)}
                settle = settle or all(p.id in have for p in players if p.status == "active")
                for pod in records_of(db, Pod).find(event=event_id):
                    state = live_state(self.store, db, pod.draft) if pod.draft else None
                    if state is None:
                        continue
                    humans, due, claims, status = state
                    if status == REPLACED and pod.draft is not None:  # a restore stopped it, saved nothing: it goes on
                        halted.append(pod.draft)
                        continue
                    if any(pid in dropped and seat in humans for seat, pid in enumerate(pod.players)):
                        stranded.append((event_id, pod))
                    elif due and not set(due) <= self._phone_clocks(event_id, pod).held(claims):
                        late.append((event_id, pod.number))  # (a phone's clock is the server's)
                    settle = settle or (status != "drafting" and not set(pod.players) <= have)
        if halted:
            with self.store.write() as db:  # under the database's lock: no restore is between its stop and its save
                for draft_id in halted:
                    resume_stopped(self.store, db, draft_id)
        for event_id, pod in stranded:
            self.hand_dropped_seats_to_bots(event_id, pod)
        for event_id, number in late:  # a pick's time ran out with nobody at the draft: the timeout, once
            session = self.draft_session(event_id, number)
            session.apply_timeout()
            settle = settle or session.draft.finished
        if not (stranded or settle):
            return []
        moved = []
        with self.store.write() as db:
            for event_id in drafting:
                for pod in records_of(db, Pod).find(event=event_id):
                    self._settle_pod(db, event_id, pod)
                self.finish_drafting_if_done(db, event_id)
                if self._event(db, event_id).status != "drafting":
                    moved.append(event_id)
        return moved

    def hand_dropped_seats_to_bots(self, event_id: int, pod: Pod) -> None:
        with self.store.read() as db:
            dropped = {p.id for p in self._players(db, event_id) if p.status == "dropped"}
        assert pod.draft is not None  # only a pod with a live draft has seats to hand over
        session = TableSession.load(self.store, pod.draft)
        for seat, pid in enumerate(pod.players):
            if pid in dropped and seat in session.humans:
                session.hand_to_bot(seat)
        self.after_picks(event_id, pod.number, session)
