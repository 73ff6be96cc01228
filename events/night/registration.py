"""Registration: creating an event and its players (add, rename, remove before seating, drop)."""

from __future__ import annotations

import datetime as dt
import random
import shlex
import uuid
from dataclasses import dataclass

import msgspec
from tinydb import TinyDB

from draft.products import product
from events import timing
from events.night import history
from events.night.base import EventBase, player_number
from events.night.drafting import Drafting
from events.night.packs_secret import new_secret, packs_secret
from events.night.pipers import check_piper_stock
from events.night.report_waits import record_after_drop
from events.night.rounds import RecordedResult, Rounds
from events.night.schema import (
    DRAFT_STYLES,
    MAX_POD,
    STATUSES,
    card_ref,
)
from events.night.seat_codes import assign_codes, give_code
from events.night.seating import draft_pod_sizes
from events.storage.draft_records import check_timer, rename_seat
from events.storage.records import MAX_NAME, Deck, Event, Player, Pod, Pool, Round
from events.storage.tables import records_of
from sets.booster import booster_spec, sealed_pool
from sets.errors import InputError, StateError
from sets.names import clean_name, name_key
from sets.numbers import parse_decimal
from sets.userdata import db_option
from sets.visible import quoted

MAX_POINTS = 1_000
EVENT_NAME_LIMIT = (
    200  # characters (a saved name may be up to events.storage.records' 500, so any typed one is readable)
)


def parse_points(text: str) -> list[float]:
    """Placement points, best place first: each through the one strict parser (``nan``, ``inf``,
    ``1e3``, ``1_0`` or ``３`` are no numbers), 0 to ``MAX_POINTS``, 2 to 64 places."""
    parts = [part.strip(" \t") for part in text.split(",")]
    if not 2 <= len(parts) <= 64 or not all(parts):
        raise InputError(
            f"bad points scheme {quoted(text)}: give 2 to 64 placement points like 3,2,1,0, best place first"
        )
    points = [parse_decimal(part, f"placement points in {quoted(text)}:", low=0, high=MAX_POINTS) for part in parts]
    if len(points) < 2 or any(b > a for a, b in zip(points, points[1:], strict=False)):
        raise InputError(f"bad points scheme {quoted(text)}: give at least two numbers, best place first, never rising")
    return points


def check_event_timer(seconds: int) -> int:
    """An event's pick timer: 0 (none) or seconds for a full pack up to the most any timer takes (``LimitError``
    otherwise); what ``Registration.create`` checks, for a command to check before it opens the database."""
    return check_timer(seconds, "the event's pick timer")


def check_pack_seconds(seconds: int) -> int:
    """Seconds for a full pack on the room's timer of a physical draft: 1 up to the most any timer takes."""
    return check_timer(seconds, "a full pack's seconds", 1)


@dataclass(frozen=True)
class Dropped:
    """A player just dropped (their record as it is now), whether they had registered a deck, and the results the
    drop recorded: a table's report that waited only for them (``report_waits.record_after_drop``)."""

    player: Player
    had_deck: bool
    recorded: tuple[RecordedResult, ...] = ()


class Registration(EventBase):
    """Creating the event; players come, are corrected, taken back or drop."""

    def create(
        self,
        name: str,
        *,
        date: str | None = None,
        set_code: str = "CMR",
        mode: str = "draft",
        style: str = "physical",
        pod_size: int = MAX_POD,
        game_size: int | None = None,
        one_v_one: bool = False,
        timer: int = 0,
        points: str = "3,2,1,0",
        piper_stock: int = 0,
        seed: int | None = None,
        codes: bool = True,
        assist: bool = False,
        secret: int | None = None,
    ) -> int:
        """A new event.  ``seed`` seats and pairs; the packs come from ``secret`` (drawn from the operating
        system unless a test gives one).  ``codes``: a terminal draft's players pick behind seat codes.  ``game_size``:
        players a game pod (4 unless given); a 1v1 event's games are of two, so it takes none.  Options that
        would be stored and never used are refused: a timer for a sealed event or a bots draft, no seat codes for a night that
        has none, assistance where nobody picks at a screen."""
        check_event_timer(timer)
        check_piper_stock(piper_stock)
        name = clean_name(name, "event", EVENT_NAME_LIMIT)
        if mode not in ("draft", "sealed"):
            raise InputError(f"unknown event kind {quoted(mode)}: use draft or sealed")
        if style not in DRAFT_STYLES:
            raise InputError(f"unknown draft style {quoted(style)}: use {', '.join(DRAFT_STYLES)}")
        if not 2 <= pod_size <= 12:
            raise InputError(f"draft pod size must be 2 to 12, not {pod_size}")
        if one_v_one and game_size is not None:
            raise InputError(f"a 1v1 event's games are of two players: leave out the game pod size ({game_size})")
        game_size = 4 if game_size is None else game_size
        if not 3 <= game_size <= 5 and not one_v_one:
            raise InputError(f"game pod size must be 3 to 5, not {game_size} (or use 1v1)")
        if mode == "sealed" and timer:
            raise InputError("a sealed event has no picks to time: leave the timer at 0, or make the event a draft")
        if style == "bots" and timer:  # the bots pick every seat at once (``Drafting``: no human seat)
            raise InputError(
                "a bots draft has no player's picks to time: leave the timer at 0, or make the draft physical or "
                "terminal"
            )
        if assist and (style != "terminal" or mode != "draft"):  # the hint, signals, 'Can lead': a seat's pick screen
            raise InputError(
                "--assist (the hint, signals and 'Can lead' at the pick screen) is for a draft at the players' "
                "terminals or phones (style terminal): this event has no such draft"
            )
        if not codes and (style != "terminal" or mode != "draft"):
            raise InputError(
                "seat codes are only for a draft at the players' terminals (style terminal): this event has none "
                "to leave out"
            )
        booster_spec(set_code)  # the set must exist and have boosters
        date = date or timing.today()
        try:
            dt.date.fromisoformat(date)
        except ValueError:
            raise InputError(f"bad date {quoted(date)}: use YYYY-MM-DD") from None
        doc = {
            "name": name,
            "date": date,
            "set": set_code.upper(),
            "mode": mode,
            "style": style,
            "pod_size": pod_size,
            "game_size": game_size,
            "one_v_one": one_v_one,
            "timer": timer,
            "points": parse_points(points),
            "piper_stock": piper_stock,
            "status": "registration",
            "created": timing.stamp(),
            "seed": seed if seed is not None else random.SystemRandom().randrange(1, 2**31),
            "uid": uuid.uuid4().hex,
            "secret": new_secret() if secret is None else secret,
            "codes": codes,
            "assist": assist,
        }
        with self.store.write() as db:
            event_id = records_of(db, Event).insert_fields(**doc)
            history.log_change(db, event_id, history.DESK, "event new", None, name)
            return event_id

    def add_player(self, event_id: int, name: str, bot: bool = False, sealed: bool = False) -> int:
        """Register a player.  After seating: a seat in the smallest pod with room, or none when every pod is full
        (``late_offer`` says how to re-seat).  Once the draft has started: a sealed pool (``sealed``), or refused."""
        return self.add_players(event_id, [name], bot=bot, sealed=sealed)[0]

    def add_players(self, event_id: int, names: list[str], bot: bool = False, sealed: bool = False) -> list[int]:
        """Register players, all or nothing, as ``add_player`` registers one: every name is checked (its length,
        the same name as a player of the event or as another name given) before any is written, in one
        transaction; a refusal names the name at fault and registers nobody."""
        with self.store.write() as db:
            event = self._event(db, event_id)
            self._require(event, "registration", "seated", "drafting", "building", "playing", doing="add a player")
            try:
                cleans = self._new_names(db, event_id, names)
            except InputError as error:
                if len(names) < 2:
                    raise
                raise InputError(f"{error}; none of the {len(names)} names was registered") from None
            return [self._add(db, event_id, event, clean, bot, sealed) for clean in cleans]

    def _new_names(self, db: TinyDB, event_id: int, names: list[str]) -> list[str]:
        """The names cleaned, each checked against the event's players and the names given before it."""
        cleans = [self._clean_name(name) for name in names]
        given: dict[str, str] = {}
        for clean in cleans:
            self._refuse_same_name(db, event_id, clean)
            earlier = given.get(name_key(clean))
            if earlier is not None:
                raise InputError(
                    f"{quoted(clean)} is the same name as {quoted(earlier)}, given before it (case, Unicode form "
                    "and spaces don't make names different): give each player once, with a name of their own"
                )
            given[name_key(clean)] = clean
        return cleans

    def _add(self, db: TinyDB, event_id: int, event: Event, clean: str, bot: bool, sealed: bool) -> int:
        late = event.status != "registration"
        started = event.mode == "draft" and event.status in ("drafting", "building", "playing")
        if started and bot:
            raise StateError("the draft has started: a bot can no longer fill a seat")
        if started and not sealed:
            raise StateError(
                f"the draft has started, so {quoted(clean)} can't take a draft seat: they can join with a sealed "
                f"pool (cmdraft event player add {event_id} {shlex.quote(clean)} --sealed), or wait "
                "for the next event"
            )
        if event.mode == "sealed" and event.status in ("building", "playing"):
            sealed = True  # a sealed event: every late player opens their boosters
        number = 1 + max((player_number(p) for p in self._players(db, event_id)), default=0)
        fields: dict[str, object] = {
            "event": event_id,
            "name": clean,
            "status": "active",
            "late": late,
            "bot": bot,
            "pod": None,
            "seat": None,
            "requested": 0,
            "number": number,
        }
        if self._is_checking_in(db, event_id) and event.status in ("registration", "seated"):
            # registered at the desk while check-in runs (a late player too): they are here, so a
            # re-seat seats them rather than listing them as a no-show
            fields.update(checked_in=True)
        player_id = records_of(db, Player).insert_fields(**fields)
        shown = clean
        if event.status == "seated":
            shown = f"{clean} ({self._seat_late(db, event_id, event, player_id)})"
        elif sealed and late:
            spec, boosters = booster_spec(event.set), product(event.set).sealed_boosters
            # from the packs' secret, per player: the same pool on every replay, and none to work out from the seed
            rng = random.Random(packs_secret(db, event) * 7919 + number)
            cards = [card_ref(p, event.set) for b in sealed_pool(spec, rng, boosters) for p in b.printings]
            records_of(db, Pool).insert_fields(event=event_id, player=player_id, cards=cards, source="sealed")
            give_code(db, event, player_id)  # no draft seat, but the night's: they build, report and follow it too
            shown = f"{clean} (sealed pool)"
        history.log_change(db, event_id, history.DESK, "player add", None, shown, undo=history.PlayerUndo(player_id))
        return player_id

    @staticmethod
    def _seat_late(db: TinyDB, event_id: int, event: Event, player_id: int) -> str:
        """A seat in the smallest pod with room, before the draft starts; says where (or that every pod is full)."""
        pods = sorted(records_of(db, Pod).find(event=event_id), key=lambda p: (len(p.players), p.number))
        pod = pods[0]
        if len(pod.players) >= event.pod_size:
            return "no seat: every pod is full"
        records_of(db, Pod).update(pod.id, players=[*pod.players, player_id])
        records_of(db, Player).update(player_id, pod=pod.number, seat=len(pod.players))
        assign_codes(db, event, event_id)
        return f"pod {pod.number}, seat {len(pod.players) + 1}"

    def late_offer(self, event_id: int) -> str | None:
        """For seated players waiting without a seat (every pod was full): the re-seat that makes room."""
        with self.store.read() as db:
            event = self._event(db, event_id)
            if event.status != "seated":
                return None
            active = self._players(db, event_id, active_only=True)
            waiting = [p.name for p in active if p.pod is None]
        if not waiting:
            return None
        sizes, verb = draft_pod_sizes(len(active), event.pod_size), "has" if len(waiting) == 1 else "have"
        return (
            f"every draft pod is full ({event.pod_size} seats), so {' / '.join(map(quoted, waiting))} {verb} no seat "
            f"yet: 'cmdraft event seat {event_id} --again' re-draws the pods for all {len(active)} players "
            f"({len(sizes)} pods: {' / '.join(map(str, sizes))}), or drop them"
        )

    def _refuse_same_name(self, db: TinyDB, event_id: int, name: str, other_than: int | None = None) -> None:
        key = name_key(name)
        for player in self._players(db, event_id):
            if player.id != other_than and name_key(player.name) == key:
                if player.status == "dropped":  # coming back: the same name is the same player, who can't re-register
                    after = f" after round {player.dropped_after}" if player.dropped_after else ""
                    raise InputError(
                        f"{quoted(name)} is player #{player_number(player)} {quoted(player.name)}, who dropped{after}: "
                        "a dropped player isn't registered again; "
                        f"'cmdraft event undo {event_id}{db_option(self.store.path)}' takes the drop back "
                        "while it is the desk's last change and no round has been paired without them; else they "
                        "play on only as a new player, under another name"
                    )
                if player.status == "no-show" and other_than is None:  # the no-show came after all
                    raise InputError(self._no_show_came(db, event_id, player))
                raise InputError(
                    f"{quoted(name)} is the same name as player #{player_number(player)} {quoted(player.name)} "
                    "(case, Unicode form and spaces don't make names different): choose another name, "
                    f"or use '#{player_number(player)}' for that player"
                )

    def _no_show_came(self, db: TinyDB, event_id: int, player: Player) -> str:
        """What the desk does for a no-show who came after all, asked to register their name again."""
        name, where = shlex.quote(player.name), db_option(self.store.path)
        said = f"{quoted(player.name)} is player #{player_number(player)}, not checked in when the pods were drawn"
        if self._event(db, event_id).status == "seated":
            return f"{said}: 'cmdraft event player checkin {event_id} {name}{where}' seats them now"
        free = shlex.quote(f"{player.name} (no-show)")
        return (
            f"{said}, and the draft has started: free the name with 'cmdraft event player rename {event_id} {name} "
            f"{free}{where}', then 'cmdraft event player add {event_id} {name} --sealed{where}' joins them with a "
            "sealed pool"
        )

    @staticmethod
    def _is_checking_in(db: TinyDB, event_id: int) -> bool:
        """Check-in is in use once any player of the event has checked in."""
        return any(p.checked_in for p in records_of(db, Player).find(event=event_id))

    def check_in(self, event_id: int, names: list[str] | None = None, slips: list[str] | None = None) -> list[str]:
        """Mark players present (every registered one when ``names`` is None); returns who was checked in now
        (a no-show checked in after seating with the seat they got), and adds to ``slips`` the names of those
        whose late seat got a code that needs a slip (decided in this transaction).  Once check-in is used,
        seating seats only the players checked in."""
        with self.store.write() as db:
            event = self._event(db, event_id)
            self._require(
                event, "registration", "seated", doing="check players in", hint="check-in comes before the draft"
            )
            if names is None:
                chosen = [
                    p
                    for p in self._players(db, event_id)
                    if not p.checked_in and p.status == ("active" if event.status == "registration" else "no-show")
                ]
            else:
                chosen = []
                for who in names:
                    player = self._player(db, event_id, who)
                    if player.checked_in:
                        raise StateError(f"{quoted(player.name)} is already checked in")
                    if player.id not in [p.id for p in chosen]:
                        chosen.append(player)
            if not chosen:
                raise StateError("everyone registered is already checked in")
            seated = {}
            for player in chosen:
                if event.status == "seated" and player.status != "no-show":
                    raise StateError(
                        f"the event is seated; {quoted(player.name)} is not a no-show, so there is nothing to check in"
                    )
                records_of(db, Player).update(player.id, checked_in=True)
                if event.status == "seated":  # a no-show who came after all: a late seat
                    records_of(db, Player).update(player.id, status="active", late=True)
                    seated[player.id] = self._seat_late(db, event_id, event, player.id)
                    if slips is not None and (records_of(db, Player).get(player.id) or player).code:
                        slips.append(player.name)
            checked = [p.name + (f" ({seated[p.id]})" if p.id in seated else "") for p in chosen]
            history.log_change(
                db,
                event_id,
                history.DESK,
                "checkin",
                None,
                checked,
                undo=history.CheckInUndo([p.id for p in chosen]) if not seated else None,
            )
        return checked

    @staticmethod
    def _clean_name(name: str) -> str:
        return clean_name(name, "player", MAX_NAME)

    def rename_player(self, event_id: int, who: str | int, new_name: str) -> tuple[str, str]:
        """Correct a player's name everywhere it is shown (their draft seat's name too); returns (old, new)."""
        clean = self._clean_name(new_name)
        with self.store.write() as db:
            self._event(db, event_id)
            player = self._player(db, event_id, who)
            self._refuse_same_name(db, event_id, clean, other_than=player.id)
            records_of(db, Player).update(player.id, name=clean)
            history.log_change(
                db, event_id, history.DESK, "rename", player.name, clean, undo=history.PlayerUndo(player.id)
            )
            pod = records_of(db, Pod).first(event=event_id, number=player.pod) if player.pod else None
            if pod is not None and pod.draft and player.id in pod.players:
                rename_seat(db, pod.draft, pod.players.index(player.id), clean)
        return player.name, clean

    def remove_player(self, event_id: int, who: str | int) -> str:
        """Take back a registration (a typo, a double entry) before seating: the player is gone, not dropped."""
        with self.store.write() as db:
            event = self._event(db, event_id)
            player = self._player(db, event_id, who)
            if event.status != "registration" or player.pod is not None:
                raise StateError(
                    f"{quoted(player.name)} already has a seat; drop them instead: "
                    f"cmdraft event player drop {event_id} '#{player_number(player)}'"
                )
            records_of(db, Pool).remove_where(event=event_id, player=player.id)
            records_of(db, Deck).remove_where(event=event_id, player=player.id)
            records_of(db, Player).remove(player.id)
            history.log_change(db, event_id, history.DESK, "player remove", player.name, None)
        return player.name

    def drop_player(self, event_id: int, who: str | int, by: str = history.DESK) -> Dropped:
        """Drop a player (``by``: who asked, for the history: the desk, or ``browser NAME`` for themselves)."""
        with self.store.write() as db:
            event = self._event(db, event_id)
            self._require(event, *STATUSES[:-1], doing="drop a player")
            player = self._player(db, event_id, who)
            if player.status == "dropped":
                raise StateError(f"{quoted(player.name)} has already dropped")
            rounds = records_of(db, Round).count(event=event_id)
            after = last_round_in(db, event_id, player.id)  # a no-show or a late player may be in none of them
            records_of(db, Player).update(player.id, status="dropped", dropped_after=after)
            history.log_change(
                db,
                event_id,
                by,
                "drop",
                f"{player.name}: {player.status}",  # whose drop, as a pool's or a deck's entry says whose
                f"{player.name}: dropped",
                undo=history.DropUndo(player.id, rounds, event.status),
            )
            recorded = tuple(record_after_drop(db, Rounds(self.store), event_id, player.id))
            had_deck = records_of(db, Deck).first(event=event_id, player=player.id) is not None
            pod = records_of(db, Pod).first(event=event_id, number=player.pod) if player.pod else None
        if event.status == "drafting" and pod is not None and pod.draft:
            # A bot takes the seat so that the rest of the pod can draft on (``recover`` does it if we die first).
            Drafting(self.store).hand_dropped_seats_to_bots(event_id, pod)
        return Dropped(msgspec.structs.replace(player, status="dropped", dropped_after=after), had_deck, recorded)


def may_drop(event_status: str, player_status: str) -> bool:
    """Whether a player may drop now (``drop_player``'s rule, as a yes or no): still in, the event not finished."""
    return player_status == "active" and event_status in STATUSES[:-1]


def last_round_in(db: TinyDB, event_id: int, player_id: int) -> int:
    """The number of the last round whose pairing seats the player (0: none): the round they dropped after."""
    return max(
        (r.number for r in records_of(db, Round).find(event=event_id) for t in r.tables if player_id in t), default=0
    )


def dropped_before(db: TinyDB, event_id: int, number: int) -> None:
    """Round ``number`` was paired again: a player who dropped once it was first paired and is not in it now
    dropped after the last round they are in (the board, the desk and the decklists say "dropped after round N")."""
    for player in records_of(db, Player).find(event=event_id):
        if player.status == "dropped" and player.dropped_after == number:
            records_of(db, Player).update(player.id, dropped_after=last_round_in(db, event_id, player.id))
