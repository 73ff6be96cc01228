"""The pick-two draft table.

Seats 2-12 sit around a table; each opens one booster a round (three rounds
by default), takes ``picks_per_turn`` cards (two in Commander Legends) and
passes the rest: left, right, left.  The last pick of a pack takes what is
left.  Every seat picks once per step; when all have, the packs move on.

Actions follow verify / can / do: ``verify_pick`` raises ``IllegalPickError``
with the reason, ``can_pick`` answers yes or no, ``pick`` applies the pick
and returns a frozen ``Pick``.  The whole state serializes to JSON (boosters
stored once, picks as pack positions) and replaying the log reproduces it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sets.booster import Booster, BoosterSpec, Printing, booster_spec
from sets.cards import Card
from sets.catalog import load_set
from sets.errors import InputError, StateError

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
            raise InputError(f"seats must be {MIN_SEATS} to {MAX_SEATS}, not {self.seats}")
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


@dataclass(frozen=True, slots=True)
class Pick:
    """One seat's pick: what was offered and what was taken (pack and pick numbers from 1)."""

    seat: int
    pack: int
    pick: int
    offered: tuple[Printing, ...]
    taken: tuple[Printing, ...]
    positions: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "pack": self.pack,
            "pick": self.pick,
            "offered": [p.card.name for p in self.offered],
            "taken": [p.card.name for p in self.taken],
        }


@dataclass(frozen=True, slots=True)
class PickRequest:
    """A pick as the player saw it: the pack and pick numbers (from 1) of the pack on their screen
    and the printings they take from it.  Positions alone never name a pick: they mean other cards
    once the pack in front of the seat has changed."""

    seat: int
    pack: int
    pick: int
    taken: tuple[Printing, ...]

    def __str__(self) -> str:
        return f"pack {self.pack} pick {self.pick}: " + " + ".join(p.card.name for p in self.taken)


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
        self.step = 0
        self.pools: list[list[Printing]] = [[] for _ in range(config.seats)]
        self.log: list[Pick] = []
        self.hands: list[list[Printing]] = [list(b.printings) for b in self.boosters[0]]
        self._picked = [False] * config.seats

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

    def pack(self, seat: int) -> list[Printing]:
        """The pack in front of a seat (empty once it has picked this step or the draft is over)."""
        self._check_seat(seat)
        return [] if self.finished or self._picked[seat] else list(self.hands[seat])

    def picks_due(self, seat: int) -> int:
        """How many cards the seat must take now."""
        hand = self.pack(seat)
        return min(self.config.picks_per_turn, len(hand))

    def waiting(self) -> list[int]:
        """Seats that still have to pick this step."""
        return [] if self.finished else [seat for seat in range(self.config.seats) if not self._picked[seat]]

    @property
    def pack_size(self) -> int:
        """Cards in this round's boosters when opened."""
        return len(self.boosters[min(self.round, self.config.boosters - 1)][0].printings)

    @property
    def picks_per_pack(self) -> int:
        """Picks it takes to empty a pack this round (the last may take fewer cards)."""
        return max(1, -(-self.pack_size // self.config.picks_per_turn))

    @property
    def pick_number(self) -> int:
        return self.step + 1

    def _check_seat(self, seat: int) -> None:
        if not (isinstance(seat, int) and 0 <= seat < self.config.seats):
            raise IllegalPickError(f"no seat {seat!r} at this table: seats are 0 to {self.config.seats - 1}")

    # --- picking -----------------------------------------------------------------------------------

    def _positions(self, seat: int, cards: Sequence[Printing | Card | int]) -> tuple[int, ...]:
        hand = self.hands[seat]
        used: list[int] = []
        for wanted in cards:
            if isinstance(wanted, int) and not isinstance(wanted, bool):
                if not 0 <= wanted < len(hand) or wanted in used:
                    raise IllegalPickError(f"position {wanted} is not a card left in the pack of {len(hand)}")
                used.append(wanted)
                continue
            match = next((i for i, printing in enumerate(hand) if i not in used and printing is wanted), None)
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

    def verify_pick(self, seat: int, cards: Sequence[Printing | Card | int]) -> tuple[int, ...]:
        """Raise ``IllegalPickError`` with the reason if the pick is not allowed; return pack positions."""
        if self.finished:
            raise IllegalPickError("the draft is over: no more picks")
        self._check_seat(seat)
        if self._picked[seat]:
            raise IllegalPickError(f"seat {seat + 1} has already picked this turn; wait for the other seats")
        due = self.picks_due(seat)
        if len(cards) != due:
            raise IllegalPickError(f"take exactly {due} card{'s' if due != 1 else ''} from this pack, not {len(cards)}")
        return self._positions(seat, cards)

    def request(self, seat: int, positions: Sequence[int]) -> PickRequest:
        """The pick of these pack positions as the seat sees its pack now (checked: ``IllegalPickError``)."""
        positions = self.verify_pick(seat, positions)
        hand = self.hands[seat]
        return PickRequest(seat, self.round + 1, self.step + 1, tuple(hand[i] for i in positions))

    def verify_request(self, request: PickRequest) -> tuple[int, ...]:
        """Raise ``StalePickError`` when the seat's pack is no longer the one the request was made on,
        ``IllegalPickError`` when the cards aren't a pick from it; return the pack positions."""
        self._check_seat(request.seat)
        seen = f"pack {request.pack} pick {request.pick}"
        if self.finished:
            raise StalePickError(f"{seen} can't be taken: the draft is over")
        now = (self.round + 1, self.step + 1)
        if (request.pack, request.pick) != now or self._picked[request.seat]:
            state = (
                "already made"
                if (request.pack, request.pick) == now or (request.pack, request.pick) < now
                else "not reached"
            )
            raise StalePickError(
                f"seat {request.seat + 1}'s {seen} is {state}; the pack in front of it is now "
                f"pack {now[0]} pick {now[1]}"
                + (" (waiting for the other seats)" if self._picked[request.seat] else "")
            )
        return self.verify_pick(request.seat, list(request.taken))

    def take(self, request: PickRequest) -> Pick:
        """Make the pick the request names, only on the pack state it was made on."""
        positions = self.verify_request(request)
        return self.pick(request.seat, list(positions))

    def can_pick(self, seat: int, cards: Sequence[Printing | Card | int]) -> bool:
        try:
            self.verify_pick(seat, cards)
        except IllegalPickError:
            return False
        return True

    def pick(self, seat: int, cards: Sequence[Printing | Card | int]) -> Pick:
        """Take the cards for the seat; when every seat has picked, the packs pass."""
        positions = self.verify_pick(seat, cards)
        hand = self.hands[seat]
        record = Pick(seat, self.round + 1, self.step + 1, tuple(hand), tuple(hand[i] for i in positions), positions)
        self.pools[seat].extend(record.taken)
        self.hands[seat] = [printing for i, printing in enumerate(hand) if i not in positions]
        self._picked[seat] = True
        self.log.append(record)
        if all(self._picked):
            self._advance()
        return record

    def _advance(self) -> None:
        self._picked = [False] * self.config.seats
        if all(not hand for hand in self.hands):
            self.round += 1
            self.step = 0
            if not self.finished:
                self.hands = [list(b.printings) for b in self.boosters[self.round]]
            return
        seats, direction = self.config.seats, pass_direction(self.round)
        self.hands = [self.hands[(seat - direction) % seats] for seat in range(seats)]
        self.step += 1

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
