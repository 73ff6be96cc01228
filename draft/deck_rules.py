"""Deck rules: Commander draft (the default) and constructed Commander.

``validate`` returns every problem, each with a stable code, a message a player understands and the
cards involved; a deck is legal when there are none.  The Prismatic Piper option follows RULES.md
section 2: up to two Pipers may be added after the draft, added Pipers must be commanders, and each
Piper commander has one chosen color (CR 903.4b).  When colors are not given, the validator searches
every choice for one that makes the deck legal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import product
from typing import Any

from draft.banlist import NO_BANS, BannedList
from draft.commanders import back_face_commander_text, can_pair, commander_identity, may_lead, why_not_paired
from draft.deck_state import plural
from draft.decks import COMMANDER_SIZE, MOST_COMMANDERS, Deck, DeckFormat, Zone, is_free_basic, pool_counts
from draft.products import Product, ProductVotes, booster_names, default_product
from sets.cards import Card, CommanderAbility, normalize_name
from sets.colors import Color, ColorIdentity
from sets.identity import basic_type_conflict
from sets.visible import visible

# Constructed Commander: no product's grant applies.
_NO_GRANT = replace(default_product(), grant=None)
_FREE = "the basic lands the organizer provides (Plains, Island, Swamp, Mountain, Forest)"
_NOT_LEGAL = (
    "its card file says so (a digital-only card such as Alchemy's A- cards, an Un-card): take it out of the deck"
)
_ANOTHER = "a card that can (a legendary creature, or a card that says it can be your commander)"


@dataclass(frozen=True, slots=True)
class Problem:
    code: str
    message: str
    cards: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The problem as a registered deck keeps it: every field as written."""
        return {"code": self.code, "message": self.message, "cards": list(self.cards)}

    def shown_json(self) -> dict[str, Any]:
        """The problem as ``--json`` prints it: the message is words, with the names in it written out as every face
        shows them (``visible``); the cards are the names as they are."""
        return {**self.to_json(), "message": visible(self.message)}


@dataclass(frozen=True)
class DeckReport:
    format: DeckFormat
    commanders: tuple[str, ...]
    piper_colors: tuple[Color, ...]
    color_identity: ColorIdentity
    size: int
    problems: tuple[Problem, ...]
    chosen_for_you: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    product: str | None = None  # the code of the Commander-draft product whose rules applied (None: constructed)

    @property
    def valid(self) -> bool:
        return not self.problems

    def codes(self) -> list[str]:
        return [problem.code for problem in self.problems]

    def to_json(self) -> dict[str, Any]:
        """The report as ``deck check --json`` (and ``event deck --json``) prints it: the problems' messages and the
        notes are words, written out as every face shows them (``visible``); the names are as they are."""
        return {
            "valid": self.valid,
            "format": self.format.value,
            "commanders": list(self.commanders),
            "piper_colors": [color.value for color in self.piper_colors],
            "color_identity": self.color_identity.letters,
            "size": self.size,
            "problems": [problem.shown_json() for problem in self.problems],
            "chosen": list(self.chosen_for_you),
            "notes": [visible(note) for note in self.notes],
            "product": self.product,
        }


def not_a_commander(card: Card) -> str:
    """Why ``card`` can't lead, naming the rule."""
    if CommanderAbility.BACKGROUND in card.abilities:
        return (
            f"{card.name} is a Background: it can be a commander only beside a commander that has "
            '"Choose a Background" (CR 702.124k): lead with such a legend beside it, or move it to the main deck'
        )
    if back_face_commander_text(card):
        return (
            f"{card.name} can't be a commander: only its back face says it can be your commander, and outside the "
            "battlefield and stack a double-faced card has only its front face's characteristics (CR 712.8a, CR 903.3): "
            f"move it to the main deck and lead with {_ANOTHER}"
        )
    return (
        f"{card.name} can't be a commander: it is not a legendary creature (or a legendary Vehicle or Spacecraft "
        f"with power and toughness) and doesn't say it can be your commander (CR 903.3): move it to the main deck and "
        f"lead with {_ANOTHER}"
    )


def banned_list(banned: Iterable[str] | BannedList) -> BannedList:
    """A ``BannedList`` as given, or one of the names given."""
    if isinstance(banned, BannedList):
        return banned
    names = {normalize_name(name): "it is on the banned list given" for name in banned}
    return BannedList(names) if names else NO_BANS


class _Checker:
    def __init__(
        self,
        deck: Deck,
        fmt: DeckFormat,
        pool: Counter[str] | None,
        banned: BannedList,
        product: Product,
        product_known: bool = True,
    ):
        self.deck, self.format, self.pool, self.banned, self.product = deck, fmt, pool, banned, product
        self.product_known = product_known  # given, or said by the cards (not the default for want of any)
        self.checked_product = False  # no pool given: the cards were checked against the product's boosters
        self.problems: list[Problem] = []
        self.commanders = deck.commanders
        self.main = deck.main
        self.choosers = [card for card in self.commanders if card.chooses_color]

    def add(self, code: str, message: str, cards: Iterable[Card | str] = ()) -> None:
        names = tuple(dict.fromkeys(c if isinstance(c, str) else c.name for c in cards))
        self.problems.append(Problem(code, message, names))

    def check_commanders(self) -> None:
        commanders = self.commanders
        if not commanders:
            self.add(
                "no-commander",
                "choose a commander: a legendary creature, a legendary Vehicle or Spacecraft with power "
                "and toughness, or a card that says it can be your commander (CR 903.3)",
            )
            return
        if len(commanders) > MOST_COMMANDERS:
            names = " + ".join(card.name for card in commanders)
            self.add(
                "too-many-commanders",
                f"{len(commanders)} commanders ({names}): a deck has one commander, or two that a partner ability "
                "pairs (CR 903.3, CR 702.124g): keep one, or a pair, in the command zone and move the rest to the main "
                "deck",
                commanders,
            )
            return
        partner = commanders[1] if len(commanders) == 2 else None
        for card in commanders:
            other = commanders[1] if card is commanders[0] and partner else (commanders[0] if partner else None)
            if not may_lead(card, other):
                self.add("not-a-commander", not_a_commander(card), [card])
        product = self.product if self.format is DeckFormat.COMMANDER_DRAFT else None
        if partner is not None and not can_pair(commanders[0], partner, product or _NO_GRANT):
            self.add(
                "illegal-pair",
                f"{commanders[0].name} and {partner.name} can't be commanders together: "
                f"{why_not_paired(commanders[0], partner, product or _NO_GRANT, constructed=product is None)}: "
                "lead with one of them, or with two whose partner abilities pair",
                commanders,
            )

    def check_size(self) -> None:
        size = self.deck.size
        least = self.product.min_deck_size
        if self.format is DeckFormat.COMMANDER_DRAFT and size < least:
            self.add(
                "deck-too-small",
                f"the deck has {plural(size, 'card')} counting commanders; a Commander draft deck has at least {least} "
                f"(CR 903.13f): add {least - size} more, cards of your pool or basic lands of your commanders' colors",
            )
        elif self.format is DeckFormat.COMMANDER and size != COMMANDER_SIZE:
            small = size < COMMANDER_SIZE
            self.add(
                "deck-too-small" if small else "deck-too-large",
                f"the deck has {plural(size, 'card')} counting commanders; Commander needs exactly {COMMANDER_SIZE} "
                f"(CR 903.5a): {'add' if small else 'take out'} {abs(COMMANDER_SIZE - size)}",
            )

    def check_copies(self) -> None:
        # Constructed counts the deck itself, basics exempt from singleton; a draft deck and its sideboard both
        # come out of the pool, all but the five basics the organizer provides.
        if self.format is DeckFormat.COMMANDER:
            counted = [
                line for line in self.deck.lines if not line.card.is_basic_land and line.zone is not Zone.SIDEBOARD
            ]
        else:
            counted = [line for line in self.deck.lines if not is_free_basic(line.card)]
        used: dict[str, int] = {}  # copies by name, in the deck's order
        sided: set[str] = set()
        decked: set[str] = set()  # in the command zone or the main deck
        sideboard = Zone.SIDEBOARD  # read once, not at every line
        for line in counted:
            name = line.card.name
            used[name] = used.get(name, 0) + line.count
            (sided if line.zone is sideboard else decked).add(name)
        cards = {line.card.name: line.card for line in counted}
        if self.format is DeckFormat.COMMANDER:
            for name, n in used.items():
                # CR 903.5b: one of each but basic lands, unless the card's own text sets its limit (CR 100.2a).
                limit = cards[name].copy_limit or 1
                if n <= limit:
                    continue
                if limit == 1:
                    self.add(
                        "too-many-copies",
                        f"{n} copies of {name}: Commander allows one of each card but basic lands (CR 903.5b): "
                        f"take out {n - 1}",
                        [name],
                    )
                else:
                    self.add(
                        "too-many-copies",
                        f"{n} copies of {name}: its text allows up to {limit} in a deck (CR 903.5b, CR 100.2a): "
                        f"take out {n - limit}",
                        [name],
                    )
            for name, card in cards.items():
                why = self.banned.reason(card)
                if why is not None:
                    self.add("banned", f"{name} is banned in Commander: {why}; take it out of the deck", [name])
                elif card.commander_legal is False:  # its card file says the format doesn't admit it
                    self.add("not-legal", f"{name} is not legal in Commander: {_NOT_LEGAL}", [name])
            return
        if self.pool is None:
            self.check_product(cards)
            return
        added = normalize_name(self.product.added.card)  # ``Product.is_added``, asked of every name
        for name, count in used.items():
            have = self.pool.get(name, 0)
            if 0 < count <= have:
                continue  # the pool holds them all: nothing to say (of the added card either), most lines
            if normalize_name(cards[name].name) == added:
                continue  # checked with the added-card option below
            where = ("the deck and sideboard" if name in decked else "the sideboard") if name in sided else "the deck"
            if have == 0:
                self.add(
                    "not-in-pool",
                    f"{name} is in {where} but not in your pool: a Commander draft deck holds only cards from its "
                    f"pool, besides {_FREE} and {self.product.added.words} added as commanders (CR 903.13e-f): "
                    "take it out",
                    [name],
                )
            elif count > have:
                self.add(
                    "too-many-copies",
                    f"{count} copies of {name} in {where}, but your pool has {have}: a Commander draft deck may hold "
                    f"as many copies of a card as its pool has (CR 903.13f): take out {count - have}",
                    [name],
                )

    def check_product(self, cards: Mapping[str, Card]) -> None:
        """Without a pool, what no pool of the product can hold: a card no draft booster of it holds (besides the
        basic lands the organizer gives and the added card).  Unknown when the product's set isn't imported."""
        names = booster_names(self.product) if self.product_known else None
        if names is None:  # its set not imported, or no card says which product the deck drafted
            return
        self.checked_product = True
        added = normalize_name(self.product.added.card)
        for name, card in cards.items():
            key = normalize_name(card.name)
            if key != added and key not in names:
                self.add(
                    "not-in-product",
                    f"{name} is in no {self.product.code} draft booster, so no pool of this draft holds it: a Commander "
                    f"draft deck holds only cards from its pool, besides {_FREE} and {self.product.added.words} "
                    "added as commanders (CR 903.13e-f): take it out, or check the deck against the pool it was drafted from",
                    [name],
                )

    def check_pipers(self) -> None:
        """The added-card option (CR 903.13e; Faceless One in CLB): up to ``most`` added, commanders only."""
        if self.format is not DeckFormat.COMMANDER_DRAFT or self.pool is None:
            return
        option, is_added = self.product.added, self.product.is_added
        added_name = option.card.casefold()
        in_pool = sum(n for name, n in self.pool.items() if name.casefold() == added_name)
        as_commander = sum(1 for card in self.commanders if is_added(card))
        # ``is_added``, asked of the main deck's and sideboard's cards together, as ``main + sideboard`` counts them
        elsewhere = _added_copies(self.main, self.deck.sideboard, normalize_name(option.card))
        if elsewhere > in_pool:
            zones = " and ".join(
                zone
                for zone, n in (("main deck", self.main), ("sideboard", self.deck.sideboard))
                if any(map(is_added, n))
            )
            self.add(
                "piper-not-commander",
                f"{option.count_named(elsewhere - in_pool)} in the {zones} {'is' if elsewhere - in_pool == 1 else 'are'} "
                f"not from your pool, and a {option.word} isn't a commander there: {option.words} added after the draft "
                f"must be commanders ({option.rule}): "
                f"take {'it' if elsewhere - in_pool == 1 else 'them'} out, or lead with {option.words}",
                [option.card],
            )
        # Pool copies fill the other zones first; commander copies beyond what is left were added.
        added = max(0, as_commander - max(0, in_pool - elsewhere))
        if added > option.most:
            self.add(
                "too-many-pipers",
                f"{option.count_named(added)} added after the draft; at most {option.most} may be added "
                f"({option.rule}): lead with fewer",
                [option.card],
            )

    def identity_problems(self, identity: ColorIdentity) -> list[Problem]:
        """One problem per card outside the identity, or with a basic land type outside it."""
        problems = []
        for card in self.main:
            if not card.identity <= identity:
                problems.append(
                    Problem(
                        "outside-identity",
                        f"{card.name} ({card.identity}) is outside the commanders' color identity {identity} (CR 903.5c): "
                        "take it out of the main deck, or lead with commanders whose identity holds it",
                        (card.name,),
                    )
                )
            elif basic_type_conflict(card, identity):
                problems.append(
                    Problem(
                        "basic-type-outside-identity",
                        f"{card.name} has a basic land type and could make {basic_type_conflict(card, identity).words} mana, "
                        f"outside the commanders' color identity {identity} (CR 903.5d): take it out of the main deck",
                        (card.name,),
                    )
                )
        return problems

    def check_identity(self, given: Sequence[Color]) -> tuple[tuple[Color, ...], tuple[str, ...]]:
        """Check identity; search the choosing commanders' colors that were not given."""
        missing = len(self.choosers) - len(given)
        if missing < 0:
            in_main = next(
                (
                    f"; {card.name} in the main deck isn't a commander there, so it chooses no color"
                    for card in self.main
                    if card.chooses_color
                ),
                "",
            )
            n = len(self.choosers)
            who = f"only {plural(n, 'commander')} {'chooses' if n == 1 else 'choose'}" if n else "no commander chooses"
            self.add(
                "piper-color-extra",
                f"{plural(len(given), 'color')} given but {who} a color "
                f"(CR 903.4b){in_main}: give one color for each commander that chooses one",
                self.choosers,
            )
            given = given[: len(self.choosers)]
            missing = 0
        if missing == 0 or not self.commanders:
            self.problems += self.identity_problems(commander_identity(self.commanders, given))
            return tuple(given), ()
        best: tuple[Color, ...] | None = None
        needed = ColorIdentity.of(c for card in self.main for c in card.deck_colors)
        base = commander_identity(self.commanders, given)
        for choice in product(list(Color), repeat=missing):
            colors = (*given, *choice)
            if not self.identity_problems(commander_identity(self.commanders, colors)):
                # Prefer choices that don't add colors the deck never uses.
                if best is None or len(ColorIdentity.of(choice) - needed) < len(
                    ColorIdentity.of(best[len(given) :]) - needed
                ):
                    best = colors
        if best is None:
            beyond = needed - base
            self.add(
                "piper-color-missing",
                f"no color choice for {plural(len(self.choosers), 'color-choosing commander')} "
                f"({' + '.join(card.name for card in self.choosers)}) makes the deck legal: "
                f"the deck needs {beyond or 'no'} beyond {base} and {plural(missing, 'choice')} "
                f"{'adds' if missing == 1 else 'add'} only {plural(missing, 'color')} (CR 903.4b, CR 903.5c): take out "
                "the cards of the other colors, or choose other commanders",
                self.choosers,
            )
            return tuple(given), ()
        names = [card.name for card in self.choosers]
        chosen = tuple(
            f"{self.product.added.word if self.product.is_added(self.choosers[i]) else names[i]} {i + 1} -> {best[i].word}"
            for i in range(len(given), len(best))
        )
        return best, chosen

    def run(self, given: Sequence[Color]) -> DeckReport:
        self.check_commanders()
        self.check_size()
        self.check_copies()
        self.check_pipers()
        colors, chosen = self.check_identity(given)
        notes: tuple[str, ...] = ()
        if self.pool is None and self.format is DeckFormat.COMMANDER_DRAFT:
            booster = f", only that each card is in a {self.product.code} draft booster" if self.checked_product else ""
            notes = (f"no pool given: copies were not checked against a pool{booster}",)
        return DeckReport(
            self.format,
            tuple(card.name for card in self.commanders),
            tuple(colors),
            commander_identity(self.commanders, colors),
            self.deck.size,
            tuple(self.problems),
            chosen,
            notes,
            self.product.code if self.format is DeckFormat.COMMANDER_DRAFT else None,
        )


def _added_copies(main: Counter[Card], side: Counter[Card], added: str) -> int:
    """The copies of the added card (its name normalized: ``added``) that ``main + side`` holds: each card's copies in
    both, where more than none."""
    total = 0
    for card in {**main, **side}:
        if normalize_name(card.name) == added:
            n = main.get(card, 0) + side.get(card, 0)
            if n > 0:
                total += n
    return total


def validate(
    deck: Deck,
    pool: Iterable[Card] | Mapping[Card, int] | Deck | None = None,
    fmt: DeckFormat = DeckFormat.COMMANDER_DRAFT,
    piper_colors: Sequence[Color] | None = None,
    banned: Iterable[str] | BannedList = (),
    extra_problems: Iterable[Problem] = (),
    product: Product | None = None,
) -> DeckReport:
    """Check a deck; every problem is reported.  ``piper_colors`` overrides the deck's own.  ``product`` is the
    Commander-draft product whose rules apply (by default the one the pool's, else the deck's, cards come from)."""
    if pool is not None and not isinstance(pool, (Deck, Mapping)):
        pool = list(pool)
    known = product is not None
    if product is None:
        pool_cards = [line.card for line in pool.lines] if isinstance(pool, Deck) else list(pool or ())
        votes = ProductVotes(pool_cards or [line.card for line in deck.lines])
        product, known = votes.product(), votes.voted
    checker = _Checker(deck, fmt, None if pool is None else pool_counts(pool), banned_list(banned), product, known)
    checker.problems.extend(extra_problems)
    return checker.run(tuple(piper_colors if piper_colors is not None else deck.piper_colors))
