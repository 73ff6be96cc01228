"""A seat's state as the browser sees it (``SeatState`` in the README's API reference), and a pick from a browser.

A pick goes through a ``SeatSession`` over the pod's ``DraftTable``, as a terminal's does: it names the pack
and pick the browser showed, and the draft's file checks it inside its lock; a pick on a pack that moved on is
refused and the seat's new state sent back.  Nothing here reveals another seat's pack or pool.
"""

from __future__ import annotations

import contextlib
from collections.abc import Container
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec

from draft.engine import Draft
from draft.picks import Pick
from events.deferred import Deferred
from events.night.drafting import waiting_words
from events.night.refusals import no_builder_words
from events.night.schema import card_set_of, cards_from_refs
from events.night.snapshot import Snapshot
from events.sessions.seat import Refused, SeatSession, news_words, pack_wait_words, pick_together
from events.sessions.table import DraftTable
from events.web import answers
from events.web.api_common import ApiError, Served, Signature, no_draft_words, whole, wholes
from events.web.api_night import table_state
from events.web.bodies import PickBody
from events.web.cards_shown import EMPTY, pack_json, printings_json, shown_cards
from sets.booster import Printing
from sets.cards import CardSet
from sets.errors import WouldWait

PHASES: dict[str, answers.Phase] = {"registration": "waiting-draft", "seated": "waiting-draft", "drafting": "drafting"}
PHASE_ORDER: tuple[answers.Phase, ...] = ("waiting-draft", "drafting", "building", "registered", "finished")
TAKEN_BY = {  # who made a seat's last pick, when not the player (``DraftTable.taken_by``)
    "timer": "your time ran out: the timer picked for you",
    "desk": "a bot picked for you: the desk gave your seat to a bot",
}


class SeatIndex:
    """A snapshot's players and their seats by player id, worked out once a snapshot (a room of 256 looks a player
    up on every pick and every state: by id, not by going through the room), and each player's part of a state
    that only the snapshot decides (``frame``)."""

    def __init__(self, snap: Snapshot) -> None:
        self.snap = snap
        self.players = {player.id: player for player in snap.players}
        self.places: dict[int, tuple[int, int, int | None]] = {}
        self.pods: dict[int, tuple[int, ...]] = {}  # each pod's players by seat
        for pod in snap.pods:
            self.pods.setdefault(pod.number, tuple(pod.players))
            for seat, player_id in enumerate(pod.players):
                self.places.setdefault(player_id, (pod.number, seat, pod.draft))
        self.frames: dict[tuple[int, int], SeatFrame] = {}

    def frame(self, event_id: int, player_id: int) -> SeatFrame:
        """The player's ``SeatFrame`` in this snapshot, worked out once (KeyError: no such player)."""
        found = self.frames.get((event_id, player_id))
        if found is None:
            found = self.frames[event_id, player_id] = SeatFrame.of(self, event_id, player_id)
        return found


@dataclass(frozen=True)
class SeatFrame:
    """What a seat's state takes from the event's snapshot alone (the same objects in every state worked out from
    it): the event and the player as shown, the phase, the words of a player who waits for others, and the seat."""

    event: answers.SeatEvent
    player: answers.SeatPlayer
    phase: answers.Phase
    waiting: str | None
    no_builder: str | None
    place: tuple[int, int, int | None] | None
    recorded: bool  # the state shows the recorded pool
    table: bool  # the state shows the player's table

    @classmethod
    def of(cls, index: SeatIndex, event_id: int, player_id: int) -> SeatFrame:
        snap = index.snap
        event = snap.event
        player = index.players[player_id]  # KeyError: a player removed meanwhile
        phase = PHASES.get(event.status, "finished")
        if event.status in ("building", "playing") or event.status == "drafting" and player.pool_size is not None:
            phase = "registered" if player.deck is not None else "building"
        return cls(
            event=answers.SeatEvent(event_id, event.name, False),
            player=answers.SeatPlayer(player.number, player.name, player.deck is not None),
            phase=phase,
            waiting=waiting_words(snap, player_id, player),
            no_builder=no_builder_words(event.status),
            place=index.places.get(player_id),
            recorded=phase in ("building", "registered", "finished") and player.pool_size is not None,
            table=event.status in ("playing", "finished"),
        )


_INDEXED: list[SeatIndex] = []  # the last snapshot's (the served event's snapshot is kept until its file changes)
# see _last_pick: id of a pick -> (the pick, kept so its id names no other; who made it; as its seat's state shows it)
_LAST_PICKS: dict[int, tuple[Pick, str | None, answers.LastPick]] = {}


def indexed(snap: Snapshot) -> SeatIndex:
    kept = _INDEXED[-1] if _INDEXED else None
    if kept is None or kept.snap is not snap:
        kept = SeatIndex(snap)
        _INDEXED[:] = [kept]
    return kept


def seat_place(snap: Snapshot, player_id: int) -> tuple[int, int, int | None] | None:
    """(pod number, seat index, draft id) of the player, from the snapshot."""
    return indexed(snap).places.get(player_id)


def draft_json(session: DraftTable, pod: int, seat: int, humans: Container[int] | None = None) -> answers.DraftState:
    """The draft as the seat sees it (``humans``: the pod's human seats, when the caller has them)."""
    draft: Draft = session.draft
    humans = session.humans if humans is None else humans
    finished = draft.finished
    held, at, due, queued, waiting_on = draft.view(seat)
    last = draft.last_pick(seat)
    config, human = draft.config, seat in humans
    names = session.names if waiting_on else ()  # read only when someone is waited for
    pack, pick = min(at[0], config.boosters), at[1]
    news = waiting = ""
    if held is not None and human:
        news = news_words(pack, config.boosters, pick, draft.picks_per_pack, due, len(held.cards))
    else:
        upstream = [names[other] for other in waiting_on]
        pack_done = not finished and pick > draft.picks_per_pack
        waiting = pack_wait_words(finished, not human, upstream, pack_done, pack)
    # (positional, in the fields' order: a struct built from keywords costs several times as much, on every pick)
    return answers.DraftState(
        pod,  # pod
        seat + 1,  # seat
        config.seats,  # seats
        min(at[0], config.boosters),  # pack
        config.boosters,  # packs
        at[1],  # pick
        draft.picks_per_pack,  # picks
        due,  # take
        "left" if draft.direction > 0 else "right",  # direction
        pack_json(held.cards) if held is not None and human else EMPTY,  # cards
        len(waiting_on),  # waiting_for
        [names[other] for other in waiting_on] if waiting_on else [],  # waiting_on
        queued,  # queued
        session.deadline(seat),  # deadline
        finished,  # done
        not human,  # bot
        None if last is None else _last_pick(last, TAKEN_BY.get(session.taken_by(last))),  # last
        news,  # news
        waiting,  # waiting
    )


def _last_pick(pick: Pick, why: str | None) -> answers.LastPick:
    """The seat's last pick as its state shows it, worked out once for the pick (and who made it: ``why``)."""
    kept = _LAST_PICKS.get(id(pick))
    if kept is None or kept[0] is not pick or kept[1] != why:
        if len(_LAST_PICKS) > 20_000:  # (a big room's picks of a pack or two)
            _LAST_PICKS.clear()
        shown = answers.LastPick([p.card.name for p in pick.taken], pick.pack, pick.pick, why)
        kept = _LAST_PICKS[id(pick)] = (pick, why, shown)
    return kept[2]


def pool_json(served: Served, pod: int, seat: int, pool: list[Printing]) -> msgspec.Raw:
    """A drafting seat's pool as JSON (the caller holds the pod's lock).  A pool only grows while it is drafted,
    so the JSON already worked out for this very list is kept and only the new cards added to it (a new draft, a
    restored one, is a new list and starts again); each card is encoded once."""
    kept = served.pools_json.get((pod, seat))
    if kept is None or kept[0] is not pool or kept[1] > len(pool):
        kept = served.pools_json[pod, seat] = (pool, 0, b"[]", EMPTY)
    _, held, whole, encoded = kept
    if held < len(pool):
        added = b",".join(shown_cards(pool[held:]))
        whole = b"".join((memoryview(whole)[:-1], b"," if held else b"", added, b"]"))  # the pool copied once
        encoded = msgspec.Raw(whole)
        served.pools_json[pod, seat] = (pool, len(pool), whole, encoded)
    return encoded


def recorded_pool_json(served: Served, player_id: int) -> tuple[msgspec.Raw, int]:
    """The player's recorded pool as JSON and its count of cards, worked out and encoded again only when the
    pool's cards or a card set they come from changed (a set's files read anew give a new set object:
    ``card_set_of``)."""
    event_set, recorded = served.recorded_refs()
    refs = recorded.get(player_id)
    if refs is None:
        return EMPTY, 0
    kept = served.recorded_json.get(player_id)
    if (
        kept is None
        or kept[0] != (event_set, refs)
        or any(card_set_of(code) is not card_set for code, card_set in kept[1].items())
    ):
        sets: dict[str, CardSet] = {}
        cards = printings_json(cards_from_refs(list(refs), event_set, sets))
        kept = ((event_set, refs), sets, msgspec.Raw(msgspec.json.encode(cards)))
        served.recorded_json[player_id] = kept
    return kept[2], len(refs)


def seat_state(
    served: Served, player_id: int, session: DraftTable | None = None, snap: Snapshot | None = None
) -> answers.SeatState:
    """The seat's whole state: event, player, phase, the draft in front of it, its pool (``session``: the
    player's pod's draft, already caught up with its file by a caller holding the pod's lock; ``snap``: the
    event's snapshot that caller read, for the states of several seats worked out at once)."""
    snap = served.snapshot() if snap is None else snap
    frame = indexed(snap).frame(served.event_id, player_id)  # KeyError: a player removed meanwhile
    place = frame.place
    draft = None
    pool, size = EMPTY, 0
    version = 0
    bot = False  # the desk handed the seat to a bot for now
    if place is not None and place[2] is not None:
        if session is not None:  # (its caller holds the pod's lock)
            draft, pool, size, version = _drafting(served, session, place[0], place[1])
        else:
            with served.locked(place[0]):
                draft, pool, size, version = _drafting(served, served.table(place[0]), place[0], place[1])
        bot = draft.bot and not draft.done  # said while the draft goes on, not after
    if frame.recorded:
        pool, size = recorded_pool_json(served, player_id)
    return answers.SeatState(  # (positional, in the fields' order: see ``draft_json``)
        version + 100_000 * PHASE_ORDER.index(frame.phase),  # version
        served.wall(),  # server_time
        frame.event,  # event
        frame.player,  # player
        frame.phase,  # phase
        "the desk handed your seat to a bot for now" if bot else None,  # connection_note
        frame.waiting,  # waiting
        frame.no_builder,  # no_builder
        draft,  # draft
        pool,  # pool
        0,  # pool_from
        size,  # pool_size
        table_state(served, player_id) if frame.table else None,  # table
    )


def _drafting(
    served: Served, session: DraftTable, pod: int, seat: int
) -> tuple[answers.DraftState, msgspec.Raw, int, int]:
    """A drafting seat's part of its state (the caller holds the pod's lock): its draft, its pool and the pool's
    count, and the draft's version (its picks so far)."""
    draft = session.draft
    cards = draft.pools[seat]
    return draft_json(session, pod, seat), pool_json(served, pod, seat, cards), len(cards), len(draft.log)


def claim_if_free(served: Served, player_id: int, token: str) -> None:
    """Bind the player's seat in a live draft to this browser when nobody holds it yet (the draft started after
    the browser joined); a seat held elsewhere stays there.  A draft that is over gets its pools recorded first
    (``Served.settle``: whoever sees it first), so the seat asked for is the one the player builds with."""
    place = seat_place(served.snapshot(), player_id)
    if place is None or place[2] is None:
        return
    with served.locked(place[0]):
        session = served.table(place[0])
        if session.draft.finished:
            served.settle(place[0], session)
        elif session.bound(place[1], None):  # (checked again in the transaction that binds it)
            session.claim(place[1], token, take_over=False)


class Stream(Protocol):
    """A browser's stream as a pick's answer reaches it (``live.Connection``)."""

    def answered(self, state: answers.SeatState) -> None: ...


@dataclass(eq=False, slots=True)
class Waiting:
    """A browser's pick waiting for its pod's next write (picks arriving at one table meanwhile go to disk
    together: a table of eight picking at once costs two writes, not eight)."""

    player: int
    pod: int
    seat: int
    token: str
    at: tuple[int, int]
    positions: list[int]
    refusal: tuple[int, str, str] | None = None  # (status, code, message)
    done: bool = False
    state: answers.SeatState | None = None  # the seat's state after the write
    connection: Stream | None = None  # the stream the pick came over (``live.Connection``), which its answer reaches


def prepare_pick(
    served: Served,
    player_id: int,
    token: str,
    body: PickBody,
    snap: Snapshot | None = None,
    place: tuple[int, int, int | None] | None = None,
) -> Waiting | None:
    """A pick's request read and placed at its pod (``pack``, ``pick``, ``cards``: indices into the pack the
    browser showed); it is checked against the pack when its pod's next write comes (``write_picks``).  Given
    a snapshot (``Served.fresh_snapshot``, on the event loop) it reads nothing and answers None where the
    answer would need a read (no draft for the seat in it): then ask again without one, in a worker.  ``place``:
    the player's seat in that snapshot (``seat_place``), when the caller has looked it up already."""
    limits = served.settings
    pack_no = whole(body.pack, "pack", 1, limits.max_pack_number)
    pick_no = whole(body.pick, "pick", 1, limits.max_pack_number)
    cards = body.cards
    if len(cards) > limits.max_pick_cards:
        raise ApiError(400, "bad-pick", "a pick takes at most a few cards")
    positions = wholes(cards, "each card", 0, limits.max_card_position)
    if place is None or snap is None:
        place = seat_place(served.snapshot() if snap is None else snap, player_id)
    if (place is None or place[2] is None) and snap is not None:
        return None
    if place is None or place[2] is None:  # (no draft seat at all, a sealed pool, is said in the core's words)
        raise ApiError(409, "no-draft", no_draft_words(served, player_id, place), seat=seat_state(served, player_id))
    return Waiting(player_id, place[0], place[1], token, (pack_no, pick_no), positions)


def answer(served: Served, waiting: Waiting) -> answers.SeatState:
    """After the pick's write: the seat's new state, or the core's refusal by its status, code and words (409
    ``stale`` with the new state when the pack moved on — another process, the timer, a second tab; 400
    ``wrong-count`` for a wrong count, an index out of the pack or the same card twice; 409 ``bot-seat``; 401
    ``not-your-seat``)."""
    state = waiting.state if waiting.state is not None else seat_state(served, waiting.player)
    if waiting.refusal is not None:
        status, code, message = waiting.refusal
        if carries_state(waiting):
            raise ApiError(status, code, message, seat=state)
        raise ApiError(status, code, message)
    return state


def carries_state(waiting: Waiting) -> bool:
    """Whether the pick's answer carries the seat's new state: taken, or refused because the pack or the seat moved
    on (409); a pick refused as it was sent (400: a wrong count) or from a seat held elsewhere (401) does not."""
    return waiting.refusal is None or waiting.refusal[0] not in (400, 401)


def write_picks(
    served: Served,
    pod: int,
    batch: list[Waiting],
    connected: Container[int] = frozenset(),
    deferred: Deferred | None = None,
) -> tuple[Signature, dict[int, answers.SeatState]]:
    """Check each waiting pick against the pack as it stands and write the good ones in one transaction
    (``DraftTable.pick_many``, each checked as a terminal's pick is); every one is marked done, with why when
    it was refused, and given its seat's new state.  Returns the pod's file signature as it was written and
    the new states for the pod's browsers: of each ``connected`` player (as connected after the write) whose
    screen changed.  A seat still picking the pack it had sees nothing new when another seat picks; once the
    packs pass, every seat does.  A draft the batch ended is marked ``Served.deferred`` under the pod's lock:
    its pools are recorded after the picks are answered (``pick_writer.PickWriter``), not by the watcher meanwhile.

    ``deferred``: on the event loop, where nothing may wait: the pod's lock and the file's are only tried, the
    event's snapshot and the pod's draft must be in memory already, and the picks are appended without their
    fsync, which ``deferred`` does before they are answered (group commit: ``syncer``).  ``WouldWait``,
    before anything changed, when that can't be: then write them the ordinary way, in a worker thread."""
    lock = served.locked(pod)
    if deferred is None:
        lock.acquire()
    elif not lock.acquire(blocking=False):
        raise WouldWait(f"pod {pod} is being written")
    try:
        if deferred is None:
            session, snap = served.table(pod), served.snapshot()
        else:
            session, snap = _in_memory(served, pod, batch)
        picking = {waiting.seat for waiting in batch}
        others = [seat for seat in range(session.draft.config.seats) if seat not in picking]
        before = _seen(session.draft, others)  # a picking seat is shown its state whatever changed
        known = served.written_signature(pod)
        shown = pod in served.shown and served.shown[pod] == known  # the seats were shown the file as read
        _write_picks(served, session, batch, deferred)
        if session.draft.finished and not before[0][1]:
            served.deferred.add(pod)
        mark = served.written_signature(pod)
        if shown:  # and are shown this write now (else the watcher's next look pushes what this read caught up)
            served.shown[pod] = mark
        players = indexed(snap).pods.get(pod, ())
        after = _seen(session.draft, others)
        changed = (
            set(range(len(players)))
            if after[0] != before[0]
            else {seat for seat, now, then in zip(others, after[1], before[1], strict=True) if now != then}
        )
        asked = {waiting.player for waiting in batch}
        wanted = [p for seat, p in enumerate(players) if p in asked or p in connected and seat in changed]
        states = {player: seat_state(served, player, session, snap) for player in wanted}
    finally:
        lock.release()
    if deferred is None:  # in a worker: a picker the desk seated elsewhere meanwhile is given that seat's state here
        for waiting in batch:  # (its pod's lock taken now, this one's let go: never the answer's work on the loop)
            if waiting.player not in states:
                with contextlib.suppress(ApiError, LookupError):  # (a player removed: the answer says so)
                    states[waiting.player] = seat_state(served, waiting.player)
    for waiting in batch:
        waiting.state = states.get(waiting.player)
    return mark, states


def _in_memory(served: Served, pod: int, batch: list[Waiting]) -> tuple[DraftTable, Snapshot]:
    """The pod's draft and the event's snapshot as kept in memory, for a write that must not wait (``write_picks``);
    ``WouldWait`` when one is to be read first, or a pick would bind its seat first (a write of its own).  The write
    catches the draft up with its file under the file's lock (``DraftTable.pick_many``) and checks each pick there."""
    session, snap = served.tables.get(pod), served.fresh_snapshot()
    if session is None or snap is None or session.stale:  # (stale: a write failed; opened again in a worker)
        raise WouldWait(f"pod {pod}'s draft is to be read first")
    players = indexed(snap).pods.get(pod, ())
    if any(waiting.player not in players for waiting in batch):
        raise WouldWait(f"a picker of pod {pod} is seated elsewhere now")  # their state: worked out in a worker
    humans = session.humans
    if not session.draft.finished and any(
        waiting.seat in humans and session.bound(waiting.seat, None) for waiting in batch
    ):
        raise WouldWait(f"a seat of pod {pod} is to be bound first")
    return session, snap


def _seen(draft: Draft, seats: list[int]) -> tuple[tuple[int, bool], list[tuple[Any, ...]]]:
    """What the seats' screens show of the draft: the round (every seat's screen changes with it), and each of these
    seats' pack in front of it, the packs waiting and whom it waits for (its screen changes when one of these does)."""
    seen = [(view.at, view.queued, tuple(view.waiting_on)) for view in map(draft.view, seats)]
    return (draft.round, draft.finished), seen


def _write_picks(served: Served, session: DraftTable, batch: list[Waiting], deferred: Deferred | None = None) -> None:
    """The batch's picks on the pod's draft (caught up with its file; the caller holds the pod's lock), each through
    the seat's ``SeatSession`` as a terminal's pick goes: the core checks them (bot seat, the seat held here, the
    pack shown, the count) and writes the good ones together; a refusal keeps its status, code and words."""
    held = []
    humans, finished = session.humans, session.draft.finished  # (a claim changes neither)
    for waiting in batch:  # (on the loop, ``deferred``, no seat is to be bound: ``_in_memory`` saw to it)
        waiting.done = True
        if deferred is None and waiting.seat in humans and session.bound(waiting.seat, None) and not finished:
            session.claim(waiting.seat, waiting.token, take_over=False)  # the draft began after the browser joined
        seat = SeatSession(session, waiting.seat, token=waiting.token, wall=served.wall)
        seat.seen = waiting.at
        held.append((seat, waiting.positions))
    for waiting, outcome in zip(batch, pick_together(held, raising=False, deferred=deferred), strict=True):
        if isinstance(outcome, Refused):
            refusal = outcome.refusal
            if refusal is None:
                waiting.refusal = (409, "out-of-order", outcome.reason)
            else:
                waiting.refusal = (refusal.status, refusal.code, refusal.message)
