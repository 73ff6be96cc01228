"""The pick-two draft table.

Seats 2-12 sit around a table; each opens one booster a round (three rounds
by default), takes ``picks_per_turn`` cards (two in Commander Legends) and
passes the rest: left, right, left.  The last pick of a pack takes what is
left.  Packs pass as at a paper table: each seat has a queue of packs, a pick
hands that pack to the next seat at once, and a seat with an empty queue waits
only for its upstream neighbour; the next round's boosters open when the whole
table has finished the round before.

The log records the order the picks happened; replaying it gives the same
draft.  Each seat sees its packs in the same order whatever the timing (a
pack reaches a seat only through its upstream neighbour, first in first out),
so a seat that picks the same way from the same packs ends with the same pool
however fast the others were; a log of the old lockstep table (every seat
picking once before the packs moved) is one such order and replays unchanged.

Actions follow verify / can / do: ``verify_pick`` raises ``IllegalPickError``
with the reason, ``can_pick`` answers yes or no, ``pick`` applies the pick
and returns a frozen ``Pick``.  The whole state serializes to JSON (boosters
stored once, picks as pack positions) and replaying the log reproduces it.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from draft.picks import HeldPack, Pick, PickRequest, SeatView
from sets.booster import Booster, BoosterSpec, Printing, booster_spec
from sets.cards import Card
from sets.catalog import load_set
from sets.errors import InputError, LimitError, StateError, UnknownSetError

MIN_SEATS, MAX_SEATS = 2, 12


class IllegalPickError(StateError, ValueError):
    """A pick the rules don't allow; the message says why."""

    exit_code = 2


class StalePickError(StateError):
    """A pick made on a pack state that has moved on (the seat already picked, or the packs passed)."""

    exit_code = 3


@dataclass(frozen=True, slots=True)
class DraftConfig:
    seats: int = 8
    boosters: int = 3
    picks_per_turn: int = 2
    set_code: str = "CMR"
    booster_kind: str | None = None

    def check(self) -> None:
        if not MIN_SEATS <= self.seats <= MAX_SEATS:
            raise LimitError("seats", "seats at the table", MIN_SEATS, MAX_SEATS, self.seats)
        if self.boosters < 1:
            raise InputError(f"boosters per seat must be at least 1, not {self.boosters}")
        if self.picks_per_turn < 1:
            raise InputError(f"picks per turn must be at least 1, not {self.picks_per_turn}")

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": self.seats,
            "boosters": self.boosters,
            "picks_per_turn": self.picks_per_turn,
            "set": self.set_code,
            "booster_kind": self.booster_kind,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DraftConfig:
        return cls(
            int(data["seats"]),
            int(data["boosters"]),
            int(data["picks_per_turn"]),
            str(data["set"]),
            data.get("booster_kind"),
        )


def pass_direction(round_index: int) -> int:
    """+1 passes left (to the next seat), -1 right: left, right, left..."""
    return 1 if round_index % 2 == 0 else -1


class Draft:
    """The state of one draft table."""

    def __init__(self, config: DraftConfig, boosters: Sequence[Sequence[Booster]], seed: int | None = None):
        config.check()
        if len(boosters) != config.boosters or any(len(r) != config.seats for r in boosters):
            raise InputError(
                f"a draft of {config.seats} seats needs {config.boosters} rounds of {config.seats} boosters"
            )
        self.config = config
        self.seed = seed
        self.boosters = [list(round_boosters) for round_boosters in boosters]
        self.round = 0
        self.pools: list[list[Printing]] = [[] for _ in range(config.seats)]
        self.log: list[Pick] = []
        # Each seat's packs, first in front of it; a pick passes the pack to the back of the next seat's queue.
        self.queues: list[deque[HeldPack]] = []
        self._made: list[int] = []  # picks each seat has made this round
        self._last: list[Pick | None] = [None] * config.seats  # each seat's last pick in the log
        self._picks_per_pack = (-1, 0)  # (the round, its ``picks_per_pack``)
        self._open_round()

    # --- making a table -------------------------------------------------------------------------

    @classmethod
    def new(cls, config: DraftConfig = DraftConfig(), seed: int = 0, spec: BoosterSpec | None = None) -> Draft:
        """Open every booster from ``seed`` and seat the table."""
        config.check()
        spec = spec or booster_spec(config.set_code, config.booster_kind)
        rng = random.Random(seed)
        boosters = [spec.open_many(rng, config.seats, start=r * config.seats) for r in range(config.boosters)]
        return cls(config, boosters, seed)

    # --- reading the state ------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.round >= self.config.boosters

    @property
    def direction(self) -> int:
        return pass_direction(self.round)

    def held(self, seat: int) -> HeldPack | None:
        """The pack in front of a seat (None while its queue is empty or the draft is over)."""
        self._check_seat(seat)
        queue = self.queues[seat] if not self.finished else None
        return queue[0] if queue else None

    def pack(self, seat: int) -> list[Printing]:
        """The cards of the pack in front of a seat (empty while it waits for one, or the draft is over)."""
        held = self.held(seat)
        return [] if held is None else list(held.cards)

    def queued(self, seat: int) -> int:
        """How many packs wait at the seat, the one in front of it included."""
        self._check_seat(seat)
        return 0 if self.finished else len(self.queues[seat])

    def last_pick(self, seat: int) -> Pick | None:
        """The seat's last pick (None before its first): the log's last one of that seat, without going through it."""
        if seat.__class__ is not int or not 0 <= seat < self.config.seats:  # (``_check_seat``'s test)
            self._check_seat(seat)
        return self._last[seat]

    def at(self, seat: int) -> tuple[int, int]:
        """(pack, pick) from 1 the seat is at: of the pack in front of it, or, while it waits, of its next pick."""
        self._check_seat(seat)
        if self.finished:
            return self.config.boosters + 1, 1
        return self.round + 1, self._made[seat] + 1  # a seat's k-th pack of a round has had k - 1 picks

    def picks_due(self, seat: int) -> int:
        """How many cards the seat must take now."""
        held = self.held(seat)
        return 0 if held is None else min(self.config.picks_per_turn, len(held.cards))

    def waiting(self) -> list[int]:
        """Seats with a pack in front of them (each may pick now)."""
        return [] if self.finished else [seat for seat in range(self.config.seats) if self.queues[seat]]

    def upstream(self, seat: int) -> int:
        """The seat that passes packs to this one in this round."""
        return (seat - self.direction) % self.config.seats

    def waiting_on(self, seat: int) -> list[int]:
        """Whom a seat without a pack waits for: the nearest seat upstream holding one, or, once the seat has
        made every pick of this round, every seat still holding a pack (the next round opens when they are
        done).  Empty while the seat holds a pack, or when the draft is over."""
        if self.finished or self.queues[seat]:
            return []
        if self.at(seat)[1] > self.picks_per_pack:
            return self.waiting()
        other = self.upstream(seat)
        while other != seat:
            if self.queues[other]:
                return [other]
            other = self.upstream(other)
        return []

    def view(self, seat: int) -> SeatView:
        """``held``, ``at``, ``picks_due``, ``queued`` and ``waiting_on`` of one seat, worked out together (a
        server shows every seat's view after every pick: ``at`` and ``finished`` worked out here, not called)."""
        config = self.config
        if seat.__class__ is not int or not 0 <= seat < config.seats:  # (``_check_seat``'s test, without its call)
            self._check_seat(seat)
        if self.round >= config.boosters:  # finished
            return SeatView(None, (config.boosters + 1, 1), 0, 0, [])
        at = (self.round + 1, self._made[seat] + 1)
        queue = self.queues[seat]
        if queue:
            held = queue[0]
            return SeatView(held, at, min(config.picks_per_turn, len(held.cards)), len(queue), [])
        return SeatView(None, at, 0, 0, self.waiting_on(seat))

    @property
    def pack_size(self) -> int:
        """Cards in this round's boosters when opened."""
        return len(self.boosters[min(self.round, self.config.boosters - 1)][0].printings)

    @property
    def picks_per_pack(self) -> int:
        """Picks it takes to empty a pack this round (the last may take fewer cards)."""
        kept = self._picks_per_pack
        if kept[0] != self.round:  # (worked out once a round: every seat's state shows it, after every pick)
            kept = self._picks_per_pack = (self.round, max(1, -(-self.pack_size // self.config.picks_per_turn)))
        return kept[1]

    @property
    def pick_number(self) -> int:
        """The pick the slowest pack at the table is at (from 1): where the table as a whole is."""
        held = [queue[0].picks + 1 for queue in self.queues if queue] if not self.finished else []
        return min(held, default=1)

    def _check_seat(self, seat: int) -> None:
        if not (isinstance(seat, int) and 0 <= seat < self.config.seats):
            raise IllegalPickError(f"no seat {seat!r} at this table: seats are 0 to {self.config.seats - 1}")

    # --- picking -----------------------------------------------------------------------------------

    def _positions(
        self, seat: int, cards: Sequence[Printing | Card | int], places: tuple[int, ...] | None = None
    ) -> tuple[int, ...]:
        hand = self.queues[seat][0].cards
        if places is not None and len(places) == len(cards) and _at_places(hand, places, cards):
            return places  # each printing still at its place (the very object): the pick as it was made
        used: list[int] = []
        for wanted in cards:
            if isinstance(wanted, int) and not isinstance(wanted, bool):
                if not 0 <= wanted < len(hand) or wanted in used:
                    raise IllegalPickError(f"position {wanted} is not a card left in the pack of {len(hand)}")
                used.append(wanted)
                continue
            match = next((i for i, printing in enumerate(hand) if printing is wanted and i not in used), None)
            if match is None:  # a printing from another copy of the draft (another process): the same card, compared
                match = next(
                    (
                        i
                        for i, printing in enumerate(hand)
                        if i not in used and (printing == wanted or printing.card == wanted)
                    ),
                    None,
                )
            if match is None:
                name = getattr(wanted, "name", wanted)
                raise IllegalPickError(f"{name} is not in the pack in front of seat {seat + 1}")
            used.append(match)
        return tuple(used)

    def verify_pick(
        self, seat: int, cards: Sequence[Printing | Card | int], places: tuple[int, ...] | None = None
    ) -> tuple[int, ...]:
        """Raise ``IllegalPickError`` with the reason if the pick is not allowed; return pack positions (``places``:
        where the printings were when the pick was made, tried first)."""
        if self.finished:
            raise IllegalPickError("the draft is over: no more picks")
        self._check_seat(seat)
        if not self.queues[seat]:
            waits = self.waiting_on(seat)
            whom = ", ".join(f"seat {other + 1}" for other in waits) or "the other seats"
            raise IllegalPickError(f"seat {seat + 1} has no pack in front of it now; wait for {whom} to pass one")
        return self._checked(seat, cards, places)

    def _checked(
        self, seat: int, cards: Sequence[Printing | Card | int], places: tuple[int, ...] | None
    ) -> tuple[int, ...]:
        """``verify_pick`` for a seat known to hold a pack in a draft that goes on: the count, then the cards."""
        due = min(self.config.picks_per_turn, len(self.queues[seat][0].cards))  # ``picks_due``, the pack there
        if len(cards) != due:
            raise IllegalPickError(f"take exactly {due} card{'s' if due != 1 else ''} from this pack, not {len(cards)}")
        return self._positions(seat, cards, places)

    def request(self, seat: int, positions: Sequence[int]) -> PickRequest:
        """The pick of these pack positions as the seat sees its pack now (checked: ``IllegalPickError``)."""
        positions = self.verify_pick(seat, positions)
        hand = self.queues[seat][0].cards
        return PickRequest(seat, *self.at(seat), tuple(hand[i] for i in positions), positions)

    def verify_request(self, request: PickRequest) -> tuple[int, ...]:
        """Raise ``StalePickError`` when the seat's pack is no longer the one the request was made on,
        ``IllegalPickError`` when the cards aren't a pick from it; return the pack positions."""
        seat = request.seat
        if seat.__class__ is not int or not 0 <= seat < self.config.seats:  # (``_check_seat``'s test)
            self._check_seat(seat)
        if self.round >= self.config.boosters:  # finished
            raise StalePickError(f"pack {request.pack} pick {request.pick} can't be taken: the draft is over")
        now = (self.round + 1, self._made[seat] + 1)  # ``at``: the seat checked, the draft not over
        queue = self.queues[seat]
        if (request.pack, request.pick) != now or not queue:
            state = "already made" if (request.pack, request.pick) < now else "not reached"
            front = f"pack {now[0]} pick {now[1]}"
            raise StalePickError(
                f"seat {seat + 1}'s pack {request.pack} pick {request.pick} is {state}; "
                + (
                    f"the pack in front of it is now {front}"
                    if queue
                    else f"its next pick is {front} (waiting for a pack)"
                )
            )
        return self._checked(seat, request.taken, request.places)  # ``verify_pick``'s checks left to make

    def take(self, request: PickRequest) -> Pick:
        """Make the pick the request names, only on the pack state it was made on."""
        return self._taken(request.seat, self.verify_request(request))

    def can_pick(self, seat: int, cards: Sequence[Printing | Card | int]) -> bool:
        try:
            self.verify_pick(seat, cards)
        except IllegalPickError:
            return False
        return True

    def pick(self, seat: int, cards: Sequence[Printing | Card | int]) -> Pick:
        """Take the cards for the seat and hand the rest of the pack to the next seat at once; when the last pack
        of the round is empty, the next round's boosters open."""
        return self._taken(seat, self.verify_pick(seat, cards))

    def _taken(self, seat: int, positions: tuple[int, ...]) -> Pick:
        """The pick of these pack positions (``verify_pick`` checked them) made, the pack passed on."""
        queue = self.queues[seat]
        held = queue.popleft()
        hand = held.cards
        held.picks += 1
        taken = tuple([hand[i] for i in positions])
        record = Pick(seat, self.round + 1, held.picks, tuple(hand), taken, positions)
        self.pools[seat].extend(taken)
        left = hand.copy()
        for i in sorted(positions, reverse=True):  # the last first: the places before it stay
            del left[i]
        held.cards = left
        self.log.append(record)
        self._last[seat] = record
        self._made[seat] += 1
        if held.cards:
            self.queues[(seat + pass_direction(self.round)) % self.config.seats].append(held)
        elif not any(self.queues):
            self.round += 1
            self._open_round()
        return record

    def _open_round(self) -> None:
        self._made = [0] * self.config.seats
        if self.finished:
            self.queues = [deque() for _ in range(self.config.seats)]
            return
        self.queues = [
            deque([HeldPack(seat, list(booster.printings))]) for seat, booster in enumerate(self.boosters[self.round])
        ]

    # --- saving and replaying ----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """Config, seed, every booster once, and the picks as pack positions."""
        sheets: list[str] = []

        def ref(printing: Printing) -> list[Any]:
            if printing.sheet not in sheets:
                sheets.append(printing.sheet)
            return [printing.card.number, sheets.index(printing.sheet), int(printing.foil) | int(printing.etched) << 1]

        boosters = [
            [{"variant": b.variant, "cards": [ref(p) for p in b.printings]} for b in rb] for rb in self.boosters
        ]
        return {
            "format": "cmdraft-draft/1",
            "config": self.config.to_json(),
            "seed": self.seed,
            "sheets": sheets,
            "boosters": boosters,
            "picks": [[p.seat, *p.positions] for p in self.log],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Draft:
        """Rebuild a draft from ``to_json`` output by replaying its picks."""
        try:
            config = DraftConfig.from_json(data["config"])
            card_set = load_set(config.set_code)
            sheets = data["sheets"]
            boosters = []
            for r, round_boosters in enumerate(data["boosters"]):
                row = []
                for s, booster in enumerate(round_boosters):
                    printings = tuple(
                        Printing(card_set.card(str(number)), sheets[sheet], bool(flags & 1), bool(flags & 2))
                        for number, sheet, flags in booster["cards"]
                    )
                    row.append(Booster(r * config.seats + s, int(booster["variant"]), printings))
                boosters.append(row)
            draft = cls(config, boosters, data.get("seed"))
            draft.replay(data["picks"])
        except (KeyError, TypeError, ValueError, IndexError) as error:
            if isinstance(error, UnknownSetError):
                raise  # a set not imported here (a database copied from another machine): its own line says what to do
            if isinstance(error, IllegalPickError):
                raise InputError(f"saved draft does not replay: {error}") from None
            raise InputError(f"saved draft is damaged ({error!r}); it cannot be resumed") from None
        return draft

    def replay(self, picks: Sequence[Sequence[int]]) -> None:
        for seat, *positions in picks:
            self.pick(int(seat), [int(p) for p in positions])

    def picks_of(self, seat: int) -> list[Pick]:
        return [p for p in self.log if p.seat == seat]

    def origin_of(self, pick: Pick) -> int:
        """The seat that opened the booster this pick was made from."""
        return (pick.seat - (pick.pick - 1) * pass_direction(pick.pack - 1)) % self.config.seats

    def pack_trail(self, pick: Pick) -> list[Pick]:
        """Every pick made from the same booster as ``pick``, in order."""
        origin = self.origin_of(pick)
        return [p for p in self.log if p.pack == pick.pack and self.origin_of(p) == origin]


def _at_places(hand: list[Printing], places: tuple[int, ...], cards: Sequence[Printing | Card | int]) -> bool:
    """Whether each of ``cards`` is the very printing at its place of ``places`` in ``hand``, no place twice."""
    size = len(hand)
    for i, wanted in zip(places, cards):  # (as many of each: the caller checked)
        if not 0 <= i < size or hand[i] is not wanted:
            return False
    return len(set(places)) == len(places)
