"""The ledger of the product's added card (The Prismatic Piper; Faceless One for CLB): who holds them, who needs
them, the store's stock and any shortfall."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from tinydb import TinyDB

from draft.deckbuild import ASK_THE_DESK
from draft.products import AddedOption, default_product, product
from events.night import history
from events.night.base import EventBase
from events.night.refusals import Actor
from events.night.schema import STATUSES
from events.night.snapshot import PlayerRow
from events.storage.records import Deck, DeckList, Event, Player, Pod, Pool
from events.storage.tables import records_of
from sets.cards import normalize_name
from sets.catalog import load_set
from sets.errors import InputError, LimitError, StateError
from sets.visible import quoted

MAX_PIPER_STOCK = 1_000  # Pipers a store can lend (README "Limits")


def check_piper_stock(stock: int) -> int:
    """The store's Piper stock: 0 to ``MAX_PIPER_STOCK`` (``LimitError`` otherwise)."""
    return LimitError.check(stock, "piper_stock", "the store's Piper stock", 0, MAX_PIPER_STOCK)


class Pipers(EventBase):
    """The ledger's inputs (stock, counts typed by hand, requests) and the ledger itself."""

    def set_pipers(
        self,
        event_id: int,
        *,
        stock: int | None = None,
        opened: dict[int, int] | None = None,
        requests: dict[str, int] | None = None,
    ) -> None:
        with self.store.write() as db:
            event = self._event(db, event_id)
            # the ledger of the product's added card: a CLB night's refusal names no Piper
            self._require(event, *STATUSES[:-1], doing="change the ledger")
            if stock is not None:
                check_piper_stock(stock)
                records_of(db, Event).update(event_id, piper_stock=stock)
            for number, count in (opened or {}).items():
                pod = records_of(db, Pod).first(event=event_id, number=number)
                if pod is None:
                    raise InputError(f"no pod {number} in event {event_id}")
                if count < 0:
                    raise InputError("Pipers opened can't be negative")
                records_of(db, Pod).update(pod.id, opened_typed=count)
            for who, count in (requests or {}).items():
                option = product(event.set).added
                if not 0 <= count <= option.most:
                    raise InputError(f"a player may add 0 to {option.most} {option.words}, not {count}")
                player = self._player(db, event_id, who)
                if player.status == "dropped":  # the ledger's forecast counts active players only
                    raise StateError(
                        f"{quoted(player.name)} has dropped; their request to add {option.words} can't be recorded"
                    )
                if records_of(db, Deck).first(event=event_id, player=player.id) is not None:
                    raise StateError(
                        f"the deck of {quoted(player.name)} is registered: it says how many {option.words} it adds "
                        "(the ledger counts those), so a request for them is no longer taken"
                    )
                records_of(db, Player).update(player.id, requested=count)
            history.log_change(
                db,
                event_id,
                history.DESK,
                "pipers",
                None,
                msgspec.to_builtins(
                    history.PiperSettings(
                        stock=stock, opened={str(k): v for k, v in (opened or {}).items()}, requests=requests or {}
                    )
                ),
            )

    def piper_ledger(self, event_id: int) -> Ledger:
        """The Piper ledger, from what is recorded.

        - Opened: the Pipers in each pod's recorded pools (a typed ``--opened`` count that disagrees is flagged).
        - Needed: the Pipers registered decks add (a deck's Pipers beyond the ones in its owner's pool).
        - Unused: Pipers in pools that their owner's deck doesn't use (every one, before the deck is registered).
        - Shortfall: only when needed exceeds unused plus the store's stock; lenders hold unused Pipers.
        - Forecast: requests made before deck building (``--request``; one for a player whose deck is registered
          is refused: the deck says what it adds), shown apart from the decks' needs
          until every active player's deck is registered (then ``spent``: the decks' needs are what counts).
          A request is the number of Pipers a player plans to *add* to their pool, so every requested Piper
          has to come from someone else's unused Pipers or the store's stock (the requester's own pool
          Pipers are not part of it; unused ones can be lent like anyone's).
        """
        snap = self.snapshot(event_id)
        event = snap.event
        with self.store.read() as db:
            pools = {pool.player: list(pool.cards) for pool in records_of(db, Pool).find(event=event_id)}
            decks = {d.player: d.deck for d in records_of(db, Deck).find(event=event_id)}
        return ledger(event, snap.players, snap.pods, pools, decks, piper_number(event), product(event.set).added)


def owned_in(cards: Sequence[str], piper_number: str | None) -> int:
    """The added cards (Pipers) a recorded pool holds (``cards``: its card references)."""
    return sum(1 for ref in cards if ref.partition("*")[0] == piper_number)


def played_in(deck: DeckList, option: AddedOption) -> int:
    """The added cards (Pipers) a registered deck plays, commanders and main deck."""
    card = normalize_name(option.card)
    return sum(line.count for line in (*deck.commanders, *deck.main) if normalize_name(line.name) == card)


def piper_number(event: Event) -> str | None:
    """The collector number of the product's added card (the Piper) in the event's set (None: the set has none)."""
    option = product(event.set)
    return next((c.number for c in load_set(event.set) if option.is_added(c)), None)


def stock_left(db: TinyDB, event: Event, player_id: int) -> int:
    """How many added cards (Pipers) the store's stock still holds for ``player_id``'s deck, read in the caller's
    transaction ``db``: the event's stock less those the other players' registered decks add beyond their pools
    (never below 0).  What ``auto`` and the builder may add; Pipers another player could lend are arranged at the
    desk, with a deck file."""
    option = product(event.set)
    number = piper_number(event)
    pools = {pool.player: pool.cards for pool in records_of(db, Pool).find(event=event.id)}
    active = {p.id for p in records_of(db, Player).find(event=event.id) if p.status == "active"}
    taken = sum(
        max(0, played_in(d.deck, option.added) - owned_in(pools.get(d.player, []), number))
        for d in records_of(db, Deck).find(event=event.id)
        if d.player != player_id and d.player in active
    )
    return max(0, event.piper_stock - taken)


def stock_short(event: Event, actor: Actor) -> str:
    """What the one asking for an auto deck does when the store's stock holds no added card (Piper) for it: the
    desk raises its stock; a player asks the desk."""
    if actor.is_desk:
        return (
            f"raise the store's stock with 'cmdraft event pipers {event.id} --stock N' "
            f"(N: the {product(event.set).added.words} it can lend), then build again"
        )
    return ASK_THE_DESK


def stock_note(event: Event, may_add: int, in_pool: int = 0, owner: str | None = None) -> str | None:
    """What ``auto`` and the builder say when the store's stock limits the added cards a deck may add (None: the
    product's most are there, the pool's own ``in_pool`` and the stock's together); ``owner``: the player whose deck
    it is, named when someone else (the desk) asks (None: said to the player, "your deck")."""
    option = product(event.set).added
    if may_add + in_pool >= option.most:
        return None
    deck, pool = ("your deck", "your pool") if owner is None else (f"the deck of {quoted(owner)}", "their pool")
    stock = f"(the event's stock of {event.piper_stock}, less what other decks add)"
    if not in_pool:
        return (
            f"the store's stock holds {option.count_words(may_add)} for {deck} {stock}: the deck adds no more "
            f"{option.words} than that"
        )
    return (
        f"the {option.count_words(in_pool)} in {pool} may lead {deck}; the store's stock is for "
        f"{option.words} added beyond the pool, and holds {option.count_words(may_add)} for {deck} {stock}"
    )


class PodOpened(msgspec.Struct, frozen=True):
    """The added cards (Pipers) opened in one pod: counted in its recorded pools (None: no pool recorded yet), and
    the count typed at the desk (None: none typed), flagged when the two disagree."""

    pod: int
    opened: int | None
    pools_recorded: int
    seats: int
    typed: int | None
    disagrees: bool


class DeckNeed(msgspec.Struct, frozen=True):
    """A registered deck that plays the added card: how many its owner's pool holds, the deck plays, and it adds."""

    player: str
    owned: int
    used: int
    added: int
    name: str  # the player's name again, as every player list names it (``player`` kept for scripts)


class Lender(msgspec.Struct, frozen=True):
    """A player whose pool holds added cards their deck doesn't use (every one, before the deck is registered)."""

    player: str
    pod: int | None
    spare: int
    deck_registered: bool
    dropped: bool
    name: str  # as ``DeckNeed.name``


class Request(msgspec.Struct, frozen=True):
    """The added cards a player plans to add to their pool (``event pipers --request``)."""

    player: str
    requested: int
    name: str  # as ``DeckNeed.name``


class Forecast(msgspec.Struct, frozen=True):
    """The requests of the players whose decks are not registered yet, with what the registered decks add, against
    what could be lent; ``spent`` once every deck is registered (the decks' needs then count alone)."""

    requested: int
    needed_from_others: int
    available: int
    shortfall: int
    spent: bool
    requests: list[Request]


class Ledger(msgspec.Struct, frozen=True):
    """The ledger of the product's added card (``Pipers.piper_ledger``), named in its product's words."""

    card: str
    word: str
    words: str
    pods: list[PodOpened]
    held_in_pools: int
    stock: int
    decks: list[DeckNeed]
    needed: int
    unused: int
    available: int
    shortfall: int
    lenders: list[Lender]
    forecast: Forecast

    def counted(self, count: int) -> str:
        """'1 Piper', '2 Faceless Ones': a count of the ledger's card in its product's words."""
        return f"{count} {self.word if count == 1 else self.words}"

    def pod(self, number: int) -> PodOpened | None:
        """The row of pod ``number`` (None: the ledger has none)."""
        return next((row for row in self.pods if row.pod == number), None)

    def to_json(self) -> dict[str, Any]:
        """The ledger as ``event pipers --json`` (and ``event show --json``'s ``pipers``) prints it: each deck, lender
        and request names its player ``name``, as every player list does, and keeps ``player``, the same name."""

        result: dict[str, Any] = msgspec.to_builtins(self)
        return result


def shortfall_note(ledger: Ledger, player: str) -> str | None:
    """What the one registering ``player``'s deck is told when that deck adds the ledger's card beyond its pool and
    the ledger is short (as the board warns of it); None otherwise."""
    if not ledger.shortfall or not any(need.player == player and need.added for need in ledger.decks):
        return None
    lenders = " / ".join(lender.player for lender in ledger.lenders) or "nobody in the event"
    return (
        f"{ledger.word} shortfall: registered decks add {ledger.counted(ledger.needed)}, {ledger.shortfall} more "
        f"than players and the store can lend (could lend: {lenders})"
    )


def ledger(
    event: Event,
    players: Sequence[PlayerRow],
    pods: Sequence[Pod],
    pools: dict[int, list[str]],
    decks: dict[int, DeckList],
    piper_number: str | None,
    option: AddedOption | None = None,
) -> Ledger:
    """The ledger's arithmetic over the records (no store): ``players`` and ``pods`` as in the snapshot,
    ``pools`` and ``decks`` by player number, ``piper_number`` the added card's number in the event's set and
    ``option`` the product's added-card option (The Prismatic Piper by default; Faceless One for CLB)."""
    option = option or default_product().added

    def owned_by(pid: int) -> int:
        return owned_in(pools.get(pid, []), piper_number)

    lenders: list[Lender] = []
    needs: list[DeckNeed] = []
    unused = 0
    requested = 0
    for player in players:
        pid, active = player.id, player.status == "active"
        owned = owned_by(pid)
        deck = decks.get(pid)
        used = played_in(deck, option) if deck is not None and active else 0
        if deck is not None and active and used:
            needs.append(
                DeckNeed(player=player.name, owned=owned, used=used, added=max(0, used - owned), name=player.name)
            )
        spare = max(0, owned - used)
        unused += spare
        if spare:
            lenders.append(
                Lender(
                    player=player.name,
                    pod=player.pod,
                    spare=spare,
                    deck_registered=deck is not None,
                    dropped=not active,
                    name=player.name,
                )
            )
        if active and deck is None:  # the forecast: Pipers the players plan to add, beyond their pools (a deck
            requested += player.requested  # registered says what it adds instead: counted in ``needs``)
    needed = sum(n.added for n in needs)
    available = unused + event.piper_stock
    pod_rows = []
    for pod in pods:
        recorded = [pid for pid in pod.players if pid in pools]
        counted = sum(owned_by(pid) for pid in recorded) if recorded else None
        typed = pod.opened_typed if pod.opened_typed is not msgspec.UNSET else None if pod.draft else pod.opened
        pod_rows.append(
            PodOpened(
                pod=pod.number,
                opened=counted,
                pools_recorded=len(recorded),
                seats=len(pod.players),
                typed=typed,
                disagrees=typed is not None and counted is not None and typed != counted,
            )
        )
    # Every requested Piper is added, so each comes from the Pipers unused in pools or the store's stock, as do those
    # the registered decks add.
    forecast_needed = requested + needed
    # Once every active player's deck is registered, the decks' needs are known and the forecast is spent.
    playing = [p for p in players if p.status == "active" and not p.bot]
    all_registered = bool(playing) and all(p.id in decks for p in playing)
    forecast_available = available
    return Ledger(
        card=option.card,
        word=option.word,
        words=option.words,
        pods=pod_rows,
        held_in_pools=sum(owned_by(pid) for pid in pools),
        stock=event.piper_stock,
        decks=needs,
        needed=needed,
        unused=unused,
        available=available,
        shortfall=max(0, needed - available),
        lenders=lenders,
        forecast=Forecast(
            requested=requested,
            needed_from_others=forecast_needed,
            available=forecast_available,
            shortfall=0 if all_registered else max(0, forecast_needed - forecast_available),
            spent=all_registered,  # every deck registered: the decks' needs replace the requests
            requests=[
                Request(player=p.name, requested=p.requested, name=p.name)
                for p in players
                if p.requested and p.status == "active" and p.id not in decks
            ],
        ),
    )
