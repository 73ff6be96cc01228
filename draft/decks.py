"""Decks and their rules: Commander draft (the default) and constructed Commander.

A deck is commanders + main deck (+ sideboard).  ``validate`` returns every
problem, each with a stable code, a message a player understands and the
cards involved; a deck is legal when there are none.  The Prismatic Piper
option follows RULES.md section 2: up to two Pipers may be added after the
draft, added Pipers must be commanders, and each Piper commander has one
chosen color (CR 903.4b).  When colors are not given, the validator searches
every choice for one that makes the deck legal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum, unique
from itertools import combinations, product
from typing import Any

from sets.cards import Card, CommanderAbility, normalize_name
from sets.colors import COLORLESS, Color, ColorIdentity
from sets.identity import basic_type_conflict

PIPER = "The Prismatic Piper"
MAX_ADDED_PIPERS = 2
DRAFT_MIN_SIZE = 60
COMMANDER_SIZE = 100
# The basic lands a Commander draft organizer provides for free; Wastes and snow basics come from the pool.
FREE_BASICS = frozenset({"Plains", "Island", "Swamp", "Mountain", "Forest"})


@unique
class Zone(StrEnum):
    COMMANDER = "commander"
    MAIN = "main"
    SIDEBOARD = "sideboard"


@unique
class DeckFormat(StrEnum):
    COMMANDER_DRAFT = "commander-draft"
    COMMANDER = "commander"


def is_piper(card: Card) -> bool:
    return card.name == PIPER


def is_free_basic(card: Card) -> bool:
    """A basic land a Commander draft deck may play without taking it from the pool."""
    return card.is_basic_land and card.name in FREE_BASICS


@dataclass(frozen=True, slots=True)
class DeckLine:
    """Copies of one printing in one zone."""

    card: Card
    count: int = 1
    zone: Zone = Zone.MAIN
    foil: bool = False
    etched: bool = False


@dataclass(frozen=True, slots=True)
class Deck:
    """Lines by zone, plus the colors chosen for commanders that choose one, in commander order."""

    lines: tuple[DeckLine, ...] = ()
    piper_colors: tuple[Color, ...] = ()
    name: str = ""

    @classmethod
    def build(
        cls,
        commanders: Sequence[Card] = (),
        main: Mapping[Card, int] | Iterable[Card] = (),
        sideboard: Mapping[Card, int] | Iterable[Card] = (),
        piper_colors: Sequence[Color] = (),
        name: str = "",
    ) -> Deck:
        def counted(cards: Mapping[Card, int] | Iterable[Card]) -> Counter:
            return Counter(cards) if not isinstance(cards, Mapping) else Counter(dict(cards))

        lines = [DeckLine(card, 1, Zone.COMMANDER) for card in commanders]
        lines += [DeckLine(card, n, Zone.MAIN) for card, n in counted(main).items() if n > 0]
        lines += [DeckLine(card, n, Zone.SIDEBOARD) for card, n in counted(sideboard).items() if n > 0]
        return cls(tuple(lines), tuple(piper_colors), name)

    def zone(self, zone: Zone) -> list[DeckLine]:
        return [line for line in self.lines if line.zone is zone]

    @property
    def commanders(self) -> list[Card]:
        return [line.card for line in self.zone(Zone.COMMANDER) for _ in range(line.count)]

    def counts(self, zone: Zone) -> Counter:
        """Copies by card in one zone."""
        counts: Counter = Counter()
        for line in self.zone(zone):
            counts[line.card] += line.count
        return counts

    @property
    def main(self) -> Counter:
        return self.counts(Zone.MAIN)

    @property
    def sideboard(self) -> Counter:
        return self.counts(Zone.SIDEBOARD)

    @property
    def size(self) -> int:
        """Cards in the deck, commanders included (the sideboard is not)."""
        return sum(line.count for line in self.lines if line.zone is not Zone.SIDEBOARD)

    def with_piper_colors(self, colors: Sequence[Color]) -> Deck:
        return Deck(self.lines, tuple(colors), self.name)


@dataclass(frozen=True, slots=True)
class Problem:
    code: str
    message: str
    cards: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "cards": list(self.cards)}


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

    @property
    def valid(self) -> bool:
        return not self.problems

    def codes(self) -> list[str]:
        return [problem.code for problem in self.problems]

    def to_json(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "format": self.format.value,
            "commanders": list(self.commanders),
            "piper_colors": [color.value for color in self.piper_colors],
            "color_identity": self.color_identity.letters,
            "size": self.size,
            "problems": [problem.to_json() for problem in self.problems],
            "chosen": list(self.chosen_for_you),
            "notes": list(self.notes),
        }


# --- commanders -------------------------------------------------------------------------


def _named(name: str | None, card: Card) -> bool:
    """Whether ``name`` (as a card's text writes it) names ``card``, by its full name or its front face."""
    return name is not None and normalize_name(name) in {normalize_name(card.name), normalize_name(card.front.name)}


def can_pair(first: Card, second: Card) -> bool:
    """Whether two cards may be commanders together (CR 702.124).

    Partner with partner (702.124h); Partner—GROUP with the same Partner—GROUP (702.124i); Partner with NAME
    when each names the other (702.124j); Friends forever with Friends forever, however printed (702.124i);
    Choose a Background with a legendary Background enchantment (702.124k); Doctor's companion with a
    legendary Time Lord Doctor creature with no other creature types (702.124m).  Different partner
    abilities never combine (702.124f).
    """
    a, b = first.abilities, second.abilities
    if CommanderAbility.PARTNER in a and CommanderAbility.PARTNER in b:
        if (first.partner_group is None) == (second.partner_group is None) and (
            first.partner_group is None or normalize_name(first.partner_group) == normalize_name(second.partner_group)
        ):
            return True
    if _named(first.partner_with, second) and _named(second.partner_with, first):
        return True
    pairs = (
        (CommanderAbility.FRIENDS_FOREVER, CommanderAbility.FRIENDS_FOREVER),
        (CommanderAbility.CHOOSE_A_BACKGROUND, CommanderAbility.BACKGROUND),
        (CommanderAbility.DOCTORS_COMPANION, CommanderAbility.TIME_LORD_DOCTOR),
    )
    return any((x in a and y in b) or (y in a and x in b) for x, y in pairs)


def _may_lead(card: Card, partner: Card | None) -> bool:
    if card.can_be_commander:
        return True
    # A Background is a commander only beside a creature that chooses a Background.
    return (
        partner is not None
        and CommanderAbility.BACKGROUND in card.abilities
        and CommanderAbility.CHOOSE_A_BACKGROUND in partner.abilities
    )


def commander_identity(commanders: Sequence[Card], colors: Sequence[Color | None]) -> ColorIdentity:
    """Combined identity; ``colors`` gives, in order, the chosen color of each choosing commander."""
    identity = COLORLESS
    choices = iter(colors)
    for card in commanders:
        identity |= card.identity
        if card.chooses_color:
            color = next(choices, None)
            if color is not None:
                identity |= ColorIdentity.of([color])
    return identity


# --- validation ----------------------------------------------------------------------------


def _names(cards: Iterable[Card]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(card.name for card in cards))


class _Checker:
    def __init__(self, deck: Deck, fmt: DeckFormat, pool: Counter | None, banned: frozenset[str]):
        self.deck, self.format, self.pool, self.banned = deck, fmt, pool, banned
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
                "and toughness, or a card that says it can be your commander",
            )
            return
        if len(commanders) > 2:
            self.add("too-many-commanders", f"a deck has one or two commanders, not {len(commanders)}", commanders)
            return
        partner = commanders[1] if len(commanders) == 2 else None
        for card in commanders:
            other = commanders[1] if card is commanders[0] and partner else (commanders[0] if partner else None)
            if not _may_lead(card, other):
                self.add(
                    "not-a-commander",
                    f"{card.name} can't be a commander: it is not a legendary creature (or a "
                    "legendary Vehicle or Spacecraft with power and toughness) and doesn't say it can be your commander",
                    [card],
                )
        if partner is not None and not can_pair(commanders[0], partner):
            self.add(
                "illegal-pair",
                f"{commanders[0].name} and {partner.name} can't be commanders together: "
                "both need partner (or partner with each other, friends forever, a Background, or the Doctor and a companion)",
                commanders,
            )

    def check_size(self) -> None:
        size = self.deck.size
        if self.format is DeckFormat.COMMANDER_DRAFT and size < DRAFT_MIN_SIZE:
            self.add(
                "deck-too-small", f"the deck has {size} cards counting commanders; it needs at least {DRAFT_MIN_SIZE}"
            )
        elif self.format is DeckFormat.COMMANDER and size != COMMANDER_SIZE:
            code = "deck-too-small" if size < COMMANDER_SIZE else "deck-too-large"
            self.add(code, f"the deck has {size} cards counting commanders; Commander needs exactly {COMMANDER_SIZE}")

    def check_copies(self) -> None:
        # Constructed counts the deck itself, basics exempt from singleton; a draft deck and its sideboard both
        # come out of the pool, all but the five basics the organizer provides.
        if self.format is DeckFormat.COMMANDER:
            counted = [
                line for line in self.deck.lines if not line.card.is_basic_land and line.zone is not Zone.SIDEBOARD
            ]
        else:
            counted = [line for line in self.deck.lines if not is_free_basic(line.card)]
        used: Counter = Counter()
        for line in counted:
            used[line.card.name] += line.count
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
                        f"{n} copies of {name}: Commander allows one of each card but basic lands",
                        [name],
                    )
                else:
                    self.add(
                        "too-many-copies", f"{n} copies of {name}: its text allows up to {limit} in a deck", [name]
                    )
            for name in used:
                if normalize_name(name) in self.banned:
                    self.add("banned", f"{name} is banned in Commander", [name])
            return
        if self.pool is None:
            return
        for name, count in used.items():
            have = self.pool.get(name, 0)
            if is_piper(cards[name]):
                continue  # checked with the Piper option below
            if have == 0:
                self.add("not-in-pool", f"{name} is not in your pool", [name])
            elif count > have:
                self.add("too-many-copies", f"{count} copies of {name} in the deck, but your pool has {have}", [name])

    def check_pipers(self) -> None:
        if self.format is not DeckFormat.COMMANDER_DRAFT or self.pool is None:
            return
        in_pool = self.pool.get(PIPER, 0)
        as_commander = sum(1 for card in self.commanders if is_piper(card))
        elsewhere = sum(n for card, n in (self.main + self.deck.sideboard).items() if is_piper(card))
        if elsewhere > in_pool:
            self.add(
                "piper-not-commander",
                f"{elsewhere - in_pool} Prismatic Piper(s) outside the command zone are not from "
                "your pool: Pipers added after the draft must be commanders",
                [PIPER],
            )
        # Pool Pipers fill the other zones first; commander Pipers beyond what is left were added.
        added = max(0, as_commander - max(0, in_pool - elsewhere))
        if added > MAX_ADDED_PIPERS:
            self.add(
                "too-many-pipers",
                f"{added} Prismatic Pipers added after the draft; at most {MAX_ADDED_PIPERS} may be added",
                [PIPER],
            )

    def identity_problems(self, identity: ColorIdentity) -> list[Problem]:
        """One problem per card outside the identity, or with a basic land type outside it."""
        problems = []
        for card in self.main:
            if not card.identity <= identity:
                problems.append(
                    Problem(
                        "outside-identity",
                        f"{card.name} ({card.identity}) is outside the commanders' color identity {identity}",
                        (card.name,),
                    )
                )
            elif basic_type_conflict(card, identity):
                problems.append(
                    Problem(
                        "basic-type-outside-identity",
                        f"{card.name} has a basic land type and could make {basic_type_conflict(card, identity).words} mana, "
                        f"outside the commanders' color identity {identity}",
                        (card.name,),
                    )
                )
        return problems

    def check_identity(self, given: Sequence[Color]) -> tuple[tuple[Color, ...], tuple[str, ...]]:
        """Check identity; search the choosing commanders' colors that were not given."""
        missing = len(self.choosers) - len(given)
        if missing < 0:
            self.add(
                "piper-color-extra",
                f"{len(given)} color(s) given but only {len(self.choosers)} commander(s) choose a color",
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
                f"no color choice for {len(self.choosers)} color-choosing commander(s) makes the deck legal: the deck needs "
                f"{beyond or 'no'} beyond {base} and {missing} choice(s) add only {missing} color(s)",
                self.choosers,
            )
            return tuple(given), ()
        names = [card.name for card in self.choosers]
        chosen = tuple(
            f"{'Piper' if is_piper(self.choosers[i]) else names[i]} {i + 1} -> {best[i].word}"
            for i in range(len(given), len(best))
        )
        return best, chosen

    def run(self, given: Sequence[Color]) -> DeckReport:
        self.check_commanders()
        self.check_size()
        self.check_copies()
        self.check_pipers()
        colors, chosen = self.check_identity(given)
        notes = (
            ("no pool given: copies were not checked against a pool",)
            if (self.pool is None and self.format is DeckFormat.COMMANDER_DRAFT)
            else ()
        )
        return DeckReport(
            self.format,
            tuple(card.name for card in self.commanders),
            tuple(colors),
            commander_identity(self.commanders, colors),
            self.deck.size,
            tuple(self.problems),
            chosen,
            notes,
        )


def pool_counts(pool: Iterable[Card] | Mapping[Card, int] | Deck) -> Counter:
    """Copies by card name, from cards, a card count, or a pool read as a deck."""
    counts: Counter = Counter()
    if isinstance(pool, Deck):
        for line in pool.lines:
            counts[line.card.name] += line.count
    elif isinstance(pool, Mapping):
        for card, n in pool.items():
            counts[card.name] += n
    else:
        for card in pool:
            counts[card.name] += 1
    return counts


def validate(
    deck: Deck,
    pool: Iterable[Card] | Mapping[Card, int] | Deck | None = None,
    fmt: DeckFormat = DeckFormat.COMMANDER_DRAFT,
    piper_colors: Sequence[Color] | None = None,
    banned: Iterable[str] = (),
    extra_problems: Iterable[Problem] = (),
) -> DeckReport:
    """Check a deck; every problem is reported.  ``piper_colors`` overrides the deck's own."""
    checker = _Checker(
        deck, fmt, None if pool is None else pool_counts(pool), frozenset(normalize_name(name) for name in banned)
    )
    checker.problems.extend(extra_problems)
    return checker.run(tuple(piper_colors if piper_colors is not None else deck.piper_colors))


# --- commander advice ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Suggestion:
    commanders: tuple[str, ...]
    piper_colors: tuple[Color, ...]
    identity: ColorIdentity
    playable: int
    added_pipers: int

    def to_json(self) -> dict[str, Any]:
        return {
            "commanders": list(self.commanders),
            "piper_colors": [c.value for c in self.piper_colors],
            "identity": self.identity.letters,
            "playable": self.playable,
            "added_pipers": self.added_pipers,
        }


def commander_options(cards: Iterable[Card], piper: Card | None) -> list[tuple[tuple[Card, ...], tuple[Color, ...]]]:
    """Every way a pool can be led, with a color for each commander that chooses one.

    Single commanders, pairs that may lead together (a Background beside a card
    that chooses one), and the Piper option: a pool partner plus a Piper of a color
    it lacks, one Piper, or two Pipers of two colors.
    """
    cards = list(dict.fromkeys(cards))
    leaders = [card for card in cards if card.can_be_commander and not is_piper(card)]
    backgrounds = [
        card for card in cards if CommanderAbility.BACKGROUND in card.abilities and not card.can_be_commander
    ]

    def colored(group: tuple[Card, ...]) -> list[tuple[tuple[Card, ...], tuple[Color, ...]]]:
        choosers = sum(1 for card in group if card.chooses_color)
        return [(group, choice) for choice in product(list(Color), repeat=choosers)]

    options = [option for card in leaders for option in colored((card,))]
    pairs = [(a, b) for i, a in enumerate(leaders) for b in leaders[i + 1 :]] + [
        (a, b) for a in leaders for b in backgrounds
    ]
    options += [option for a, b in pairs if can_pair(a, b) for option in colored((a, b))]
    if piper is not None:
        for card in leaders:
            if CommanderAbility.PARTNER in card.abilities and not card.partner_group and not card.chooses_color:
                options += [((card, piper), (color,)) for color in Color if color not in card.identity]
        options += [((piper,), (color,)) for color in Color]
        options += [((piper, piper), (a, b)) for a, b in combinations(list(Color), 2)]
    return options


def added_pipers(commanders: Sequence[Card], pool: Mapping[Card, int]) -> int:
    """Pipers among the commanders beyond those the pool holds."""
    held = sum(n for card, n in pool.items() if is_piper(card))
    return max(0, sum(1 for card in commanders if is_piper(card)) - held)


def usable_options(
    pool: Mapping[Card, int], piper: Card | None
) -> Iterator[tuple[tuple[Card, ...], tuple[Color, ...], int]]:
    """Commander options the pool can field: (commanders, colors, Pipers added)."""
    held = sum(n for card, n in pool.items() if is_piper(card))
    for commanders, colors in commander_options(pool, piper):
        added = max(0, sum(1 for card in commanders if is_piper(card)) - held)
        if added > MAX_ADDED_PIPERS:
            continue
        if len(commanders) == 2 and commanders[0] == commanders[1] and not is_piper(commanders[0]):
            if pool.get(commanders[0], 0) < 2:
                continue
        elif any(pool.get(c, 0) < 1 for c in commanders if not is_piper(c)):
            continue
        yield commanders, colors, added


def suggest_commanders(
    pool: Iterable[Card] | Mapping[Card, int], limit: int = 10, piper: Card | None = None
) -> list[Suggestion]:
    """Commander choices from a pool ranked by how many pool cards each makes playable."""
    counts = Counter(dict(pool)) if isinstance(pool, Mapping) else Counter(pool)
    piper = piper or next((card for card in counts if is_piper(card)), None)
    ranked = []
    for commanders, colors, added in usable_options(counts, piper):
        identity = commander_identity(commanders, colors)
        used = Counter(c.name for c in commanders)
        playable = sum(
            max(0, n - used.get(card.name, 0))
            for card, n in counts.items()
            if card.deck_colors <= identity and not is_free_basic(card)
        )
        ranked.append(Suggestion(tuple(c.name for c in commanders), colors, identity, playable, added))
    ranked.sort(
        key=lambda s: (-s.playable, s.added_pipers, len(s.commanders), s.commanders, [c.value for c in s.piper_colors])
    )
    return ranked[:limit]


__all__ = [
    "PIPER",
    "Deck",
    "DeckFormat",
    "DeckLine",
    "DeckReport",
    "Problem",
    "Suggestion",
    "Zone",
    "can_pair",
    "commander_identity",
    "commander_options",
    "is_free_basic",
    "is_piper",
    "pool_counts",
    "suggest_commanders",
    "usable_options",
    "validate",
]
