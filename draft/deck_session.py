"""A deck a person builds from a pool: commanders, Piper colors, the main deck (the rest of the pool is the
sideboard), undo and redo, sample hands.  Pure: it prints nothing and keeps nothing on disk.

``DeckSession`` is what every face holds (the line prompt, the full-screen app, a browser).  A face sends it
intents (``Add``, ``ChooseCommanders`` ... in ``draft.deck_actions``) through ``apply``, or calls the method of the
same action, and shows the typed result it gets back; a request that can't be done raises ``InputError`` saying
what to do, and changes nothing.  Where the deck is kept is not the session's business: whoever opens one gives it
a ``save`` function (a practice draft's record, a pool's build, an event's registration), says whether every change
is saved as it is made (``autosave``) or only when the player asks, and may give a ``progress`` function, told of
every change not saved (an event's build in progress, kept on disk until it is registered).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from draft import deck_actions as act
from draft.commanders import Suggestion, added_pipers, verify_added
from draft.deck_rules import DeckReport, validate
from draft.deck_state import FREE, DeckState, card_order, counted, free_basics, plural
from draft.deckbuild import auto_deck, rank_commanders
from draft.decks import Deck, DeckLine, Zone, is_free_basic, is_piper
from draft.deckstats import DeckStats, basic_split, choose_colors, complete_deck, deck_stats
from draft.goldfish import Goldfish
from draft.manabase import mana_sources
from draft.products import Product, product_of
from sets.basics import basic_land
from sets.cards import Card, normalize_name
from sets.colors import Color, ColorIdentity
from sets.errors import InputError

PAIRING_PROBLEMS = ("too-many-commanders", "not-a-commander", "illegal-pair")  # the rules' verdicts on who may lead
R = TypeVar("R", bound=act.Result)  # the result of one change (``_changing``)

SaveFunction = Callable[[Deck, bool, bool], None]
"""Keeps a deck: ``save(deck, legal, final)``; ``final`` when the player finished it ('done')."""


class DeckSession:
    """The deck being built from ``pool`` (its cards, a copy each), with ``piper`` the set's Prismatic Piper (None:
    the set has none), ``name`` the deck's name for other tools, ``hand_seed`` the seed of the sample hands, and
    ``deck`` the deck as it was saved (None: a fresh one)."""

    def __init__(
        self,
        pool: Sequence[Card],
        *,
        piper: Card | None,
        name: str,
        save: SaveFunction,
        autosave: bool = True,
        hand_seed: int = 0,
        deck: Deck | None = None,
        product: Product | None = None,
        may_add: int | None = None,
        progress: Callable[[DeckSession], None] | None = None,
    ) -> None:
        self.pool: tuple[Card, ...] = tuple(pool)
        self.may_add = may_add  # Pipers it may add beyond the pool: the store's stock (None: the product's most)
        self.product = product or product_of(self.pool)  # whose rules it follows (its added card): the pool's own
        self.pool_counts = Counter(self.pool)
        self.pool_list: tuple[Card, ...] = tuple(sorted(dict.fromkeys(self.pool), key=card_order))
        self.piper, self.name, self.hand_seed = piper, name, hand_seed
        self._save, self.autosave, self._progress = save, autosave, progress
        self.commanders: list[Card] = []
        self.colors: list[Color] = []
        self.main: Counter[Card] = Counter()  # read it; change it only through the session
        self.touched = False  # the player made this deck (so 'auto new' asks before replacing it)
        self.undo_stack: list[DeckState] = []
        self.redo_stack: list[DeckState] = []
        self.hands_dealt = 0
        self.fish: Goldfish | None = None  # the game of the hand dealt last
        if deck is not None:
            self._resume(deck)

    def _resume(self, deck: Deck) -> None:
        """The saved deck, on the pool's own card objects so counts line up with the pool."""
        own = {normalize_name(card.name): card for card in self.pool}

        def same(card: Card) -> Card:
            return own.get(normalize_name(card.name), card)

        self.commanders = [same(card) for card in deck.commanders]
        self.colors = list(deck.piper_colors)
        self.main = Counter({same(card): n for card, n in deck.main.items()})
        self.touched = bool(self.commanders or self.main)

    # --- what the deck is ------------------------------------------------------------------------

    @property
    def started(self) -> bool:
        """Whether the deck has anything in it yet."""
        return bool(self.commanders or self.main)

    def deck(self) -> Deck:
        side = Counter(self.pool_counts)
        for card in self.commanders:
            side[card] -= 1
        side = Counter({card: n - self.main.get(card, 0) for card, n in side.items()})
        lines = [DeckLine(card, 1, Zone.COMMANDER) for card in self.commanders]
        lines += [DeckLine(card, n, Zone.MAIN) for card, n in self.main.items() if n > 0]
        lines += [DeckLine(card, n, Zone.SIDEBOARD) for card, n in side.items() if n > 0]
        return Deck(tuple(lines), tuple(self.colors), self.name)

    def report(self) -> DeckReport:
        """The deck checked against the pool: every problem."""
        return validate(self.deck(), self.pool, piper_colors=self.colors if self.colors else None, product=self.product)

    def identity(self) -> ColorIdentity:
        return self.report().color_identity

    def stats(self) -> DeckStats:
        return deck_stats(self.deck(), self.identity())

    def suggestions(self, count: int) -> list[Suggestion]:
        """The best commander choices of the pool, best first."""
        return rank_commanders(self.pool_counts, count, piper=self.piper, product=self.product, may_add=self.may_add)

    def available(self, card: Card) -> int:
        """Copies of a card in the pool that are neither in the deck nor commanders (free basics: any number)."""
        if is_free_basic(card):
            return FREE
        return self.pool_counts[card] - self.main.get(card, 0) - self.commanders.count(card)

    def in_deck(self, card: Card) -> int:
        """Copies of a card in the deck, commanders included."""
        return self.main.get(card, 0) + self.commanders.count(card)

    def reachable(self) -> list[Card]:
        """The cards a player may name: the pool list (numbered), then the free basics not in it (by name)."""
        return list(self.pool_list) + [land for land in free_basics() if land not in self.pool_list]

    @property
    def asks_before_replacing(self) -> bool:
        """Whether 'auto new' asks first: the player built a deck it would throw away."""
        return self.touched and self.started

    # --- actions ---------------------------------------------------------------------------------

    def apply(self, intent: object) -> act.Result:
        """Do what ``intent`` asks; the typed result says what happened."""
        action = _ACTIONS.get(type(intent))
        if action is None:
            raise TypeError(f"not a deck intent: {intent!r}")
        return action(self, intent)

    def _state(self) -> DeckState:
        return DeckState(tuple(self.commanders), tuple(self.colors), tuple(self.main.items()), self.touched)

    def _restore(self, state: DeckState) -> None:
        self.commanders, self.colors = list(state.commanders), list(state.colors)
        self.main, self.touched = Counter(dict(state.main)), state.touched
        self._saved_progress()

    def _changing(self, action: Callable[[], R]) -> R:
        """Run a change: one undo step when the deck changed, and saved then when every change is saved."""
        before = self._state()
        try:
            return action()
        finally:
            if self._state().key != before.key:
                self.undo_stack.append(before)
                self.redo_stack.clear()
                self._saved_progress()

    def _saved_progress(self) -> None:
        if self.autosave:
            self._save(self.deck(), self.report().valid, False)
        elif self._progress is not None:
            self._progress(self)

    def verify_commanders(self, cards: Sequence[Card]) -> None:
        """Raises ``InputError`` unless ``cards`` (one or two from the pool or added Pipers, or none) may lead."""
        if refused := self._not_leading(cards):
            raise InputError("; ".join(refused) + " — the commanders are unchanged")
        verify_added(added_pipers(cards, self.pool_counts), self.may_add, self.product.added)  # Pipers beyond the pool
        for card in set(cards) - {self.piper}:  # the added card's own limit: just above
            if (count := cards.count(card)) > (held := self.pool_counts[card]):
                raise InputError(
                    f"{count} copies of {card.name} as commanders, but your pool has {held}: a Commander draft deck "
                    "holds as many as its pool has (CR 903.13f): choose another — the commanders are unchanged"
                )

    def _not_leading(self, cards: Sequence[Card]) -> list[str]:
        """Why ``cards`` can't lead together (the rules' words: not a commander, no pairing); empty: they may."""
        trial = Deck(tuple(DeckLine(card, 1, Zone.COMMANDER) for card in cards), (), "trial")
        return [p.message for p in validate(trial, product=self.product).problems if p.code in PAIRING_PROBLEMS]

    def can_choose_commanders(self, cards: Sequence[Card]) -> bool:
        try:
            self.verify_commanders(cards)
        except InputError:
            return False
        return True

    def choose_commanders(self, cards: Sequence[Card]) -> act.CommandersChosen:
        """One or two commanders (a main-deck copy moves up); a Piper keeps its color, a new one the best deck's."""
        return self._changing(lambda: self._choose_commanders(list(cards)))

    def _choose_commanders(self, cards: list[Card]) -> act.CommandersChosen:
        self.verify_commanders(cards)
        returned, removed = self._leaving(cards)
        self.commanders, moved = cards, []
        for card in cards:
            if self.main.get(card, 0) > max(0, self.pool_counts[card] - cards.count(card)):  # (an added one: none)
                self.main[card] -= 1
                moved.append(card.name)
        self.main, self.touched = +self.main, True
        added = (self.piper, self.product, self.may_add)  # a Piper still leading keeps its color (self.colors)
        self.colors = [*choose_colors(self.pool_counts, cards, self.colors, self.main, added)]
        return act.CommandersChosen(tuple(cards), tuple(self.colors), tuple(moved), returned, removed)

    def _leaving(self, staying: list[Card]) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Commanders that stop leading when ``staying`` leads: the pool's go back (names), added ones are removed."""
        returned, removed = [], []
        left = Counter(staying)
        drafted = Counter(self.pool_counts)
        for card in self.commanders:
            if left[card]:
                left[card] -= 1
                drafted[card] -= 1
            elif drafted[card] > 0:
                drafted[card] -= 1
                returned.append(card.name)
            else:
                removed.append(card.name)
        return tuple(returned), tuple(removed)

    def choose_pipers(self, colors: Sequence[Color]) -> act.CommandersChosen:
        """Lead with one or two Prismatic Pipers of these colors (added Pipers allowed), beside the other
        commander if there is room for it and the two may lead together (else it goes back to the pool)."""
        return self._changing(lambda: self._choose_pipers(list(colors)))

    def _choose_pipers(self, colors: list[Color]) -> act.CommandersChosen:
        if self.piper is None:
            raise InputError(f"this set has no {self.product.added.card}: it can't be added")
        if not 1 <= len(colors) <= 2:
            raise InputError(self.product.added.colors_refused(len(colors)))
        verify_added(added_pipers([self.piper] * len(colors), self.pool_counts), self.may_add, self.product.added)
        others = [card for card in self.commanders if not is_piper(card)][: 2 - len(colors)]
        why = self._not_leading([self.piper, *others]) if others else []  # in the order a crown beside it asks
        others = [] if why else others  # no pair: it goes back, and the answer says why
        returned, removed = self._leaving(others + [self.piper] * len(colors))
        self.commanders, self.colors = others + [self.piper] * len(colors), colors
        in_pool = self.pool_counts[self.piper]
        if self.main.get(self.piper, 0) > in_pool - len(colors):
            self.main[self.piper] = max(0, in_pool - len(colors))
            self.main = +self.main
        self.touched = True
        return act.CommandersChosen(tuple(self.commanders), tuple(colors), (), returned, removed, tuple(why))

    def verify_add(self, cards: Sequence[tuple[Card, int]]) -> None:
        """Raises ``InputError`` unless the pool has every copy asked for beside the deck's."""
        wanted = counted(cards, "add", " (to take cards out, use 'remove')")
        for card, count in wanted.items():
            free = self.available(card)
            if count > free:
                where = []
                if self.main.get(card):
                    where.append(f"{self.main[card]} already in the deck")
                if card in self.commanders:
                    where.append("1 is your commander")
                raise InputError(
                    f"can't add {count} {card.name}: your pool has {self.pool_counts[card]}"
                    + (f" ({', '.join(where)})" if where else "")
                    + f", so {free} more at most — nothing added"
                )

    def can_add(self, cards: Sequence[tuple[Card, int]]) -> bool:
        try:
            self.verify_add(cards)
        except InputError:
            return False
        return True

    def add(self, cards: Sequence[tuple[Card, int]]) -> act.Added:
        """Cards into the main deck, ``(card, count)`` each (a card named twice counts twice)."""
        return self._changing(lambda: self._add(cards))

    def _add(self, cards: Sequence[tuple[Card, int]]) -> act.Added:
        self.verify_add(cards)
        wanted = counted(cards, "add", "")
        self.main.update(wanted)
        self.touched = True
        return act.Added(tuple(wanted.items()))

    def verify_remove(self, cards: Sequence[tuple[Card, int]]) -> None:
        """Raises ``InputError`` unless every card asked for is in the main deck."""
        for card in counted(cards, "remove", ""):
            if not self.main.get(card):
                raise InputError(
                    f"{card.name} is not in the main deck"
                    + (" (it is your commander)" if card in self.commanders else "")
                    + " — nothing removed"
                )

    def remove(self, cards: Sequence[tuple[Card, int]]) -> act.Removed:
        """Cards out of the main deck (asking for more than the deck has takes what it has)."""
        return self._changing(lambda: self._remove(cards))

    def _remove(self, cards: Sequence[tuple[Card, int]]) -> act.Removed:
        self.verify_remove(cards)
        lines = []
        for card, count in counted(cards, "remove", "").items():
            taken = min(self.main[card], count)
            self.main[card] -= taken
            lines.append((card, taken, count))
        self.main = +self.main
        self.touched = True
        return act.Removed(tuple(lines))

    def set_basics(self, color: str, count: int) -> act.BasicsSet:
        """How many basics of a color (``color`` a letter, ``""`` for Wastes) the main deck has."""
        return self._changing(lambda: self._set_basics(color, count))

    def _set_basics(self, color: str, count: int) -> act.BasicsSet:
        act.check_basics(count)  # the one rule for every face (the builder's 'lands U 9', the phone's)
        land = basic_land(color)
        was = self.main.get(land, 0)
        self.main[land] = count
        self.main = +self.main
        self.touched = True
        return act.BasicsSet(land, count, was)

    def fill_lands(self) -> act.LandsAdded:
        """Basics up to 60 cards, shared by the colored symbols of the cards (and commanders) in the deck."""
        return self._changing(self._fill_lands)

    def _fill_lands(self) -> act.LandsAdded:
        missing = 60 - self.deck().size
        if missing <= 0:
            return act.LandsAdded(())
        added = basic_split(list(self.main.elements()) + list(self.commanders), self.identity(), missing)
        self.main.update(added)
        self.touched = True
        return act.LandsAdded(tuple(added.items()))

    def complete(self) -> act.Completed | act.Replaced:
        """The deck finished around what the player chose: every chosen card stays (an empty deck gets the
        bot's whole deck)."""
        if self.started:
            return self._changing(self._complete)
        return self._changing(self._replace)

    def _complete(self) -> act.Completed:
        if not self.commanders:
            raise InputError(
                "choose your commanders first ('commander N' or 'piper COLOR'), or 'auto new' for the bot's whole deck"
            )
        before, given, added = Counter(self.main), len(self.colors), (self.piper, self.product, self.may_add)
        self.colors = list(choose_colors(self.pool_counts, self.commanders, self.colors, self.main, added))
        self.main, self.touched = complete_deck(self.pool, self.commanders, self.colors, self.main), True
        return act.Completed(sum(before.values()), sum((self.main - before).values()), tuple(self.colors[given:]))

    def replace(self, answer: bool | None = None) -> act.Question | act.KeptDeck | act.Replaced:
        """The bot's whole deck instead of this one: asked first (``answer`` None gives the question) when
        the player built a deck it would throw away."""
        if answer is None and self.asks_before_replacing:
            return act.Question(f"Replace your deck ({plural(self.deck().size, 'card')}) with the bot's?")
        if answer is False:
            return act.KeptDeck()
        return self._changing(self._replace)

    def _replace(self) -> act.Replaced:
        deck = auto_deck(self.pool, self.piper, "", self.may_add)
        self.commanders, self.colors, self.main = deck.commanders, list(deck.piper_colors), deck.main
        self.touched = False
        return act.Replaced(tuple(mana_sources(deck).items()))

    def undo(self) -> act.Undone:
        if not self.undo_stack:
            raise InputError("nothing to undo")
        self.redo_stack.append(self._state())
        self._restore(self.undo_stack.pop())
        return act.Undone()

    def redo(self) -> act.Redone:
        if not self.redo_stack:
            raise InputError("nothing to redo")
        self.undo_stack.append(self._state())
        self._restore(self.redo_stack.pop())
        return act.Redone()

    def deal_hand(self) -> act.Hand:
        """A sample opening hand, the start of a goldfish game (``draft.goldfish``); each call deals the next
        one (seeded: the same hands and games every time)."""
        self.hands_dealt += 1
        rng = random.Random(self.hand_seed * 1_000_003 + self.hands_dealt - 1)
        self.fish = Goldfish(self.deck(), rng, self.hands_dealt)
        return self._hand(self.fish)

    def goldfish(self, step: Callable[[Goldfish], object]) -> act.Hand:
        """A step of the game of the hand dealt last: a mulligan, the bottom, a draw, turns."""
        if self.fish is None:
            raise InputError("deal a hand first ('hand'), then mulligan, draw or play turns")
        step(self.fish)
        return self._hand(self.fish)

    def _hand(self, fish: Goldfish) -> act.Hand:
        view = fish.view()
        return act.Hand(view.number, view.hand, view)

    def save(self) -> act.Saved:
        """Keep the deck as it is, legal or not."""
        self._save(self.deck(), self.report().valid, False)
        return act.Saved()

    def finish(self) -> act.Finished:
        """'done': a legal deck is saved as finished; an illegal one stays as it is, with what to fix."""
        report = self.report()
        if report.valid:
            self._save(self.deck(), True, True)
        return act.Finished(report, report.valid)

    def pool_rows(self) -> tuple[act.PoolRow, ...]:
        return tuple(
            act.PoolRow(number, card, self.in_deck(card), self.pool_counts[card])
            for number, card in enumerate(self.pool_list, start=1)
        )


# Each entry is called with an intent of its own key's type (``apply``), which a dict's type can't say: Any.
_ACTIONS: dict[type, Callable[[DeckSession, Any], act.Result]] = {
    act.ChooseCommanders: lambda s, i: s.choose_commanders(i.cards),
    act.ChoosePipers: lambda s, i: s.choose_pipers(i.colors),
    act.Add: lambda s, i: s.add(i.cards),
    act.Remove: lambda s, i: s.remove(i.cards),
    act.SetBasics: lambda s, i: s.set_basics(i.color, i.count),
    act.FillLands: lambda s, i: s.fill_lands(),
    act.Complete: lambda s, i: s.complete(),
    act.Replace: lambda s, i: s.replace(i.answer),
    act.Undo: lambda s, i: s.undo(),
    act.Redo: lambda s, i: s.redo(),
    act.DealHand: lambda s, i: s.deal_hand(),
    act.Mulligan: lambda s, i: s.goldfish(Goldfish.mulligan),
    act.Bottom: lambda s, i: s.goldfish(lambda fish: fish.bottom([n - 1 for n in i.numbers])),
    act.Draw: lambda s, i: s.goldfish(Goldfish.draw),
    act.NextTurn: lambda s, i: s.goldfish(Goldfish.next_turn),
    act.PlayOut: lambda s, i: s.goldfish(Goldfish.play_out),
    act.SaveDeck: lambda s, i: s.save(),
    act.FinishDeck: lambda s, i: s.finish(),
    act.ShowPool: lambda s, i: act.PoolShown(s.pool_rows()),
    act.ShowDeck: lambda s, i: act.DeckShown(s.deck()),
    act.ShowStats: lambda s, i: act.Figures(s.stats()),
    act.CheckDeck: lambda s, i: act.Checked(s.report()),
    act.Suggest: lambda s, i: act.Suggestions(tuple(s.suggestions(i.count))),
}
