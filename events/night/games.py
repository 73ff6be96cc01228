"""The game tracker: life from 40, commander damage (21 from one commander loses) and commander tax, per table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import msgspec
from tinydb import TinyDB

from events.night import history
from events.night.base import EventBase, player_number, round_at_table
from events.night.refusals import dropped_out
from events.night.schema import COMMANDER_DAMAGE_LOSS, STARTING_LIFE
from events.storage.records import MAX_ID, Cast, Deck, Game, GameEntry, Hit
from events.storage.tables import records_of
from sets.errors import InputError, LimitError, StateError, quoted_list
from sets.numbers import is_number, parse_int
from sets.visible import quoted

# The tracker's ranges, the one place for them: a change typed at once, and a life total (both far beyond
# any real game, and inside what the store keeps).
MAX_LIFE_CHANGE = 1_000_000


def damage_typed(typed: int | str) -> int:
    """Commander damage as a phone's tracker typed it (digits), or as a number; its range is ``Games.track``'s."""
    return typed if isinstance(typed, int) else parse_int(typed, "commander damage")


MAX_LIFE = MAX_ID

HitKey = tuple[int | None, int | None, str | None, int | None]  # victim, source player, commander, which copy
CastKey = tuple[int, str | None, int | None]  # player, commander, which copy


def held_twice(commanders: Mapping[int, list[str]], owner: int | None, card: str | None) -> bool:
    """Whether ``owner`` leads with two of ``card`` (two Pipers): then each copy is named, "#1" and "#2"."""
    return owner is not None and commanders.get(owner, []).count(card or "") > 1


def entry_text(entry: GameEntry, names: dict[int, str], commanders: Mapping[int, list[str]]) -> str:
    """One tracker entry as the desk typed it: ``life Ann -5; damage Ann=Bo:Piper#2 7; cast Bo=Piper#1``; a
    commander's copy is named when it is a second one, or when its player leads with two of it (``commanders``:
    each player's at the table), so "#1" is never lost where it tells two Pipers apart."""

    def which(owner: int, card: str | None, copy: int | None) -> str:
        return f"#{copy}" if copy and (copy > 1 or held_twice(commanders, owner, card)) else ""

    parts = [f"life {names[int(pid)]} {delta:+d}" for pid, delta in entry.life.items()]
    parts += [
        f"damage {names[to]}={names[frm]}:{card}{which(frm, card, copy)} {amount}"
        for to, frm, card, copy, amount in entry.hits
    ]
    parts += [f"cast {names[pid]}={card}{which(pid, card, copy)}" for pid, card, copy in entry.casts]
    return "; ".join(parts)


class DamageTaken(msgspec.Struct, frozen=True, rename={"from_": "from"}):
    """Commander damage a player has taken from one commander: its player (None: not recorded, in a game saved
    before commanders were told apart), the card, which copy, the amount, and the board's words for it."""

    from_: str | None
    commander: str | None
    copy: int | None
    amount: int
    label: str


class TaxOwed(msgspec.Struct, frozen=True):
    """A player's commander cast from the command zone ``casts`` times: ``tax`` more mana to cast it again."""

    commander: str | None
    copy: int | None
    casts: int
    tax: int
    label: str


class SeatGame(msgspec.Struct, frozen=True):
    """One player's game at the table, named as every player row is (``id``, ``number``, ``name``; ``player``, the
    name too, the key this row had first): life, lost or not, the commander damage taken and the commander tax
    owed."""

    id: int
    number: int
    name: str
    player: str
    life: int
    lost: bool
    commander_damage: list[DamageTaken]
    tax: list[TaxOwed]


class GameBoard(msgspec.Struct, frozen=True):
    """A table's game as the tracker shows it (``event game``, a player's phone), one row per seat."""

    round: int
    table: int
    players: list[SeatGame]

    def to_json(self) -> dict[str, Any]:
        """The board as ``event game --json`` prints it."""
        board: dict[str, Any] = msgspec.to_builtins(self)
        return board


@dataclass
class Tally:
    """A table's game while an entry changes it (the stored ``Game`` is frozen): life by player number (as text),
    commander damage by (victim, source, commander, copy), casts by (player, commander, copy), and the entries."""

    life: dict[str, int]
    hits: dict[HitKey, int]
    casts: dict[CastKey, int]
    entries: list[GameEntry]

    @classmethod
    def of(cls, game: Game | None, table: list[int]) -> Tally:
        """The tally of ``game`` (a new one when None) for the players at ``table``; a game written before
        commanders were told apart (``damage``/``tax`` keyed by card name alone) has those kept under an unknown
        source."""
        if game is None:
            return cls({str(pid): STARTING_LIFE for pid in table}, {}, {}, [])
        life = dict(game.life)
        for pid in table:
            life.setdefault(str(pid), STARTING_LIFE)
        tally = cls(life, {}, {}, list(game.entries))
        damage = {} if game.damage is msgspec.UNSET else game.damage
        tax = {} if game.tax is msgspec.UNSET else game.tax
        hits = [(hit.to, hit.from_, hit.commander, hit.copy, hit.amount) for hit in game.hits]
        hits += [
            (int(victim), None, name, None, amount) for victim, by in damage.items() for name, amount in by.items()
        ]
        for to, frm, card, copy, amount in hits:
            tally.hits[to, frm, card, copy] = tally.hits.get((to, frm, card, copy), 0) + amount
        casts = [(cast.player, cast.commander, cast.copy, cast.count) for cast in game.casts]
        casts += [(int(pid), name, None, count) for pid, by in tax.items() for name, count in by.items()]
        for pid, card, copy, count in casts:
            tally.casts[pid, card, copy] = tally.casts.get((pid, card, copy), 0) + count
        return tally

    def take_back(self, entry: GameEntry) -> None:
        """Undo one tracker entry: its life changes, commander damage (and the life it cost) and casts."""
        for pid, delta in entry.life.items():
            self.life[pid] -= delta
        for to, frm, card, copy, amount in entry.hits:
            self.hits[to, frm, card, copy] -= amount
            self.life[str(to)] += amount
            if not self.hits[to, frm, card, copy]:
                del self.hits[to, frm, card, copy]
        for player, card, copy in entry.casts:
            self.casts[player, card, copy] -= 1
            if not self.casts[player, card, copy]:
                del self.casts[player, card, copy]

    def record(self, event_id: int, round_number: int, table_number: int) -> Game:
        """The tally as the store keeps it."""
        return Game(
            event=event_id,
            round=round_number,
            table=table_number,
            life=self.life,
            hits=[
                Hit(to=to, from_=frm, commander=card, copy=copy, amount=amount)
                for (to, frm, card, copy), amount in self.hits.items()
            ],
            casts=[
                Cast(player=pid, commander=card, copy=copy, count=count)
                for (pid, card, copy), count in self.casts.items()
            ],
            entries=self.entries,
        )


class Games(EventBase):
    """One table's game state, changed and shown."""

    @staticmethod
    def _commander_names(db: TinyDB, event_id: int, player_id: int) -> list[str]:
        """A player's commanders as registered with their deck, one entry per card (two Pipers: two entries)."""
        deck = records_of(db, Deck).first(event=event_id, player=player_id)
        if deck is None:
            return []
        return [line.name for line in deck.deck.commanders for _ in range(line.count)]

    def _known_names(
        self,
        db: TinyDB,
        event_id: int,
        life: dict[str, int] | None,
        damage: list[tuple[str, str, str, int]] | None,
        casts: list[tuple[str, str]] | None,
    ) -> None:
        """Raise ``InputError`` for a player or commander the entry names that the event doesn't have."""
        for name in life or {}:
            self._player(db, event_id, name)
        for victim, source, commander, _ in damage or []:
            self._player(db, event_id, victim)
            self._known_commander(db, event_id, source, commander)
        for name, commander in casts or []:
            self._known_commander(db, event_id, name, commander)

    def _in_range(
        self, db: TinyDB, event_id: int, life: dict[str, int] | None, damage: list[tuple[str, str, str, int]] | None
    ) -> None:
        """``LimitError`` for a life change or a commander damage out of range, naming the player by name (a phone
        names them by id); a commander's damage is a whole number from 1 (none is no entry)."""

        def named(who: str) -> str:
            try:
                return self._player(db, event_id, who).name
            except InputError:
                return str(who)

        for name, delta in (life or {}).items():
            LimitError.check(
                delta, "life", f"a life change for {quoted(named(name))}", -MAX_LIFE_CHANGE, MAX_LIFE_CHANGE
            )
        for victim, _, _, amount in damage or []:
            LimitError.check(amount, "damage", f"commander damage to {quoted(named(victim))}", 1, MAX_LIFE_CHANGE)

    def _known_commander(self, db: TinyDB, event_id: int, name: str, commander: str) -> None:
        player = self._player(db, event_id, name)
        self.find_commander(player.name, self._commander_names(db, event_id, player.id), commander)

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
                f"{quoted(player_name)} has no registered deck, so no commanders to track; register the deck first"
            )
        folded = body.casefold()
        matches = [n for n in names if n.casefold() == folded] or [
            n for n in names if folded and folded in n.casefold()
        ]
        if not matches:
            raise InputError(
                f"{quoted(player_name)} has no commander {quoted(body)}; their commanders: {quoted_list(names)}"
            )
        if len(matches) > 1:
            raise InputError(f"{quoted(body)} could be {' or '.join(matches)}: give more of the name")
        name = matches[0]
        copies = commanders.count(name)
        if number:
            copy = parse_int(number, f"commander number in {quoted(text)}")
            if not 1 <= copy <= copies:
                raise InputError(
                    f"{quoted(player_name)} has {copies} {quoted(name)} as commander{'s' if copies > 1 else ''}, not a #{copy}"
                )
        elif copies > 1:
            raise InputError(
                f"{quoted(player_name)} has {copies} {quoted(name)} as commanders: say which, "
                + " or ".join(f"{body}#{i}" for i in range(1, copies + 1))
            )
        else:
            copy = 1
        return name, copy

    @staticmethod
    def take_back_last(
        db: TinyDB, event_id: int, round_number: int, table_number: int, table: list[int], entries: int | None
    ) -> GameEntry | None:
        """Inside a transaction: the table's newest tracker entry taken back while the game still has ``entries``
        entries (the entry, or None when the table has changed since)."""
        games = records_of(db, Game)
        game = games.first(event=event_id, round=round_number, table=table_number)
        if game is None or len(game.entries) != entries:
            return None
        tally = Tally.of(game, table)
        taken = tally.entries.pop()
        tally.take_back(taken)
        games.remove(game.id)
        games.insert(tally.record(event_id, round_number, table_number))
        return taken

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
    ) -> GameBoard:
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
        if undo and (life or damage or casts):
            raise InputError(
                "--undo takes back the last entry at the table on its own: leave out --life, --damage and --cast"
            )
        changing = bool(life or damage or casts or undo)
        with self.store.write() as db:
            event = self._event(db, event_id)
            rnd = round_at_table(db, event_id, round_number, table_number)
            self._in_range(db, event_id, life, damage)
            self._known_names(db, event_id, life, damage, casts)  # a name that names nobody: 2 in every state
            if changing and event.status == "finished":
                raise StateError("the event is finished; its games can't change")
            if changing and rnd.status == "closed":
                raise StateError(f"round {round_number} is closed (every result is recorded); its games can't change")
            table = rnd.tables[table_number - 1]
            if by is not None and not event.table_tracker:
                raise StateError("this event's game tracker is kept at the desk, not from the players' phones")
            if by is not None and by not in table:
                raise InputError(f"player number {by} is not at table {table_number} of round {round_number}")
            entering = self._player(db, event_id, by) if by is not None and changing else None
            if entering is not None and entering.status != "active":
                raise dropped_out(entering.name, "keep the table's game tracker, or the desk does")
            games = records_of(db, Game)
            saved = games.first(event=event_id, round=round_number, table=table_number)
            tally = Tally.of(saved, table)
            players = self._players(db, event_id)
            names = {p.id: p.name for p in players}
            numbers = {p.id: player_number(p) for p in players}

            def at_table(name: str) -> int:
                player = self._player(db, event_id, name)
                if player.id not in table:
                    raise InputError(f"{quoted(player.name)} is not at table {table_number} of round {round_number}")
                return player.id

            commanders = {pid: self._commander_names(db, event_id, pid) for pid in table}
            life_changes: dict[str, int] = {}
            hits: list[tuple[int, int, str, int | None, int]] = []
            cast: list[tuple[int, str, int | None]] = []
            undone: GameEntry | None = None
            if undo:
                mine = [i for i, e in enumerate(tally.entries) if by is None or e.by == by]
                if not mine:
                    raise StateError(
                        f"nothing to undo at table {table_number} of round {round_number}"
                        + (" that you entered" if by is not None else "")
                    )
                undone = tally.entries.pop(mine[-1])
                tally.take_back(undone)
            for name, delta in (life or {}).items():
                pid = at_table(name)
                tally.life[str(pid)] += delta
                life_changes[str(pid)] = life_changes.get(str(pid), 0) + delta
            for victim, source, commander, amount in damage or []:
                to, frm = at_table(victim), at_table(source)
                card, copy = self.find_commander(names[frm], commanders[frm], commander)
                tally.hits[to, frm, card, copy] = tally.hits.get((to, frm, card, copy), 0) + amount
                tally.life[str(to)] -= amount
                hits.append((to, frm, card, copy, amount))
            for name, commander in casts or []:
                pid = at_table(name)
                card, copy = self.find_commander(names[pid], commanders[pid], commander)
                tally.casts[pid, card, copy] = tally.casts.get((pid, card, copy), 0) + 1
                cast.append((pid, card, copy))
            entry = GameEntry(life=life_changes, hits=hits, casts=cast, by=msgspec.UNSET if by is None else by)
            if changing:
                if not undo:
                    tally.entries.append(entry)
                beyond = [(key, total) for key, total in tally.life.items() if abs(total) > MAX_LIFE]
                if beyond:
                    key, total = beyond[0]
                    raise LimitError("life", f"the life total of {quoted(names[int(key)])}", -MAX_LIFE, MAX_LIFE, total)
                if saved is not None:
                    games.remove(saved.id)
                games.insert(tally.record(event_id, round_number, table_number))
                where = f"round {round_number} table {table_number}"
                if undone is not None:
                    history.log_change(db, event_id, who, "game undo", entry_text(undone, names, commanders), where)
                else:
                    history.log_change(
                        db,
                        event_id,
                        who,
                        "game",
                        where,
                        entry_text(entry, names, commanders),
                        undo=history.GameUndo(round_number, table_number, len(tally.entries)),
                    )

        def label(source: int | None, card: str | None, copy: int | None, owner: int | None) -> str:
            several = copy is not None and held_twice(commanders, owner, card)
            mark = f" #{copy}" if several else ""
            return (
                (f"{names[source]}: " if source is not None else "")
                + f"{card}"
                + mark
                + ("" if copy is not None else " (source not recorded)")
            )

        seats = []
        for pid in table:
            taken = [(key, amount) for key, amount in tally.hits.items() if key[0] == pid]
            owed = [(key, count) for key, count in tally.casts.items() if key[0] == pid]
            lost = tally.life[str(pid)] <= 0 or any(amount >= COMMANDER_DAMAGE_LOSS for _, amount in taken)
            seats.append(
                SeatGame(
                    id=pid,
                    number=numbers[pid],
                    name=names[pid],
                    player=names[pid],
                    life=tally.life[str(pid)],
                    lost=lost,
                    commander_damage=[
                        DamageTaken(
                            from_=None if frm is None else names[frm],
                            commander=card,
                            copy=copy,
                            amount=amount,
                            label=label(frm, card, copy, frm),
                        )
                        for (_, frm, card, copy), amount in taken
                    ],
                    tax=[
                        TaxOwed(
                            commander=card,
                            copy=copy,
                            casts=count,
                            tax=2 * count,
                            label=label(None, card, copy, pid).replace(" (source not recorded)", ""),
                        )
                        for (_, card, copy), count in owed
                    ],
                )
            )
        return GameBoard(round=round_number, table=table_number, players=seats)
