"""Our own reference evaluation of Commander-draft cards, and the figures the benchmark judge reads with it.

``draft/data/cmr_reference.json`` grades every CMR card by hand, as a strong
drafter of the format would (0-5 in half steps: 5 a bomb, 4 premium, 3 good,
2 playable, 1 filler, 0 unplayable) and names the role it is drafted for
(threat, creature, removal, wipe, advantage, ramp, fixing, support, trick,
interaction, commander, land, filler).  It is data, made by judgement, not by
the rules that make the bots' rating (``draft.ratings``), and it is never read
by the bots, the deck builder or the hint: it can disagree with them, and the
judge (``draft.quality``) counts where it does.

``clb_reference.json`` and ``cmm_reference.json`` do the same for every
draftable card of Battle for Baldur's Gate and Commander Masters (a pass of
its own, apart from those sets' hand-set ratings).  A card is graded from its
own set's file; a card of a set with no file has no grade (``None``): the
grade figures skip it.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from importlib import resources
from typing import Any

from draft.cardtext import colorless_symbols, commander_only, makes_colorless
from draft.decks import is_piper
from sets.cards import Card
from sets.colors import Color, ColorIdentity

FILLER = 1.5  # a grade at or below this is filler: a card a strong drafter plays only to reach 60
GOOD = 3.0  # at or above: a card worth a first pick's thought
PREMIUM = 4.0  # at or above: a bomb or top card, gone in the first picks of a pack
LATE_PICK = 6
STRONG = 3.5  # at or above: a card a strong drafter takes over anything short of a bomb (and never lets wheel)
WEAK_LEGEND = 2.5  # a partner legend at or below this leads no better than the commanders every pack holds
BENCHED_GAP = 1.5  # a sideboard card this many grades better than a main-deck card of its colors was benched
LEGEND_COPIES = 2  # past this many copies of a legend (commanders counted), the legend rule makes the rest dead
THIN_COLOR_SPELLS = 3  # an identity color shown by this many main-deck spells or fewer pays for nothing
# Mana rocks a deck plays beside its lands: two, one more in a deck of three colors or more, where they fix (the
# drafter's rule: a seeded CMR deck played 8; tests/draft/test_bot_judgement.py holds the drafter's seeds to it).
ROCKS = 2
TIERS = ((4.5, "S"), (4.0, "A"), (3.0, "B"), (2.0, "C"), (1.0, "D"), (0.0, "F"))
PIPER = "The Prismatic Piper"


@cache
def grades(code: str = "CMR") -> dict[str, tuple[float, str]]:
    """(grade, role) by card name, read from the set's committed file (empty for a set without one)."""
    try:
        text = resources.files("draft").joinpath("data", f"{code.lower()}_reference.json").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return {}
    return {name: (float(entry["grade"]), str(entry["role"])) for name, entry in json.loads(text)["cards"].items()}


def _found(card: Card) -> tuple[float, str] | None:
    return grades(card.set_code or "CMR").get(card.name)


def grade(card: Card) -> float | None:
    """The reference grade of a card of a graded set (``None`` for a card of another set)."""
    found = _found(card)
    return None if found is None else found[0]


def role(card: Card) -> str | None:
    found = _found(card)
    return None if found is None else found[1]


def tier(value: float) -> str:
    """The tier letter of a grade: S, A, B, C, D or F."""
    return next(letter for floor, letter in TIERS if value >= floor)


def is_filler(card: Card) -> bool:
    value = grade(card)
    return value is not None and value <= FILLER


def is_good(card: Card) -> bool:
    value = grade(card)
    return value is not None and value >= GOOD


def is_premium(card: Card) -> bool:
    value = grade(card)
    return value is not None and value >= PREMIUM


def _with_sources(picks: Iterable[Any]) -> Iterator[tuple[Any, bool]]:
    """Each ``Pick`` with whether the seat's pool held a source of colorless mana before it (``_grade_at``)."""
    colorless = False
    for pick in picks:
        yield pick, colorless
        colorless = colorless or any(makes_colorless(printing.card) for printing in pick.taken)


def _grade_at(card: Card, colorless: bool) -> float | None:
    """A card's grade at a pick: none for a card whose cost asks {C} while the pool holds no source of colorless mana
    (no basic land of a color pays it: it is worth its grade only to a seat set up for it, as ``_benchable`` says of
    a deck)."""
    return None if not colorless and colorless_symbols(card) else grade(card)


def early_pick_faults(picks: Iterable[Any]) -> tuple[int, int]:
    """(cards taken at picks 1-2, of them filler taken while a good card was left in the pack) over ``Pick`` records
    (``_grade_at``: a card asking {C} is no good card left for a pool with no colorless source)."""
    taken_early = faults = 0
    for pick, colorless in _with_sources(picks):
        if pick.pick > 2:
            continue
        taken = [p.card for p in pick.taken]
        left = list(pick.offered)
        for printing in pick.taken:
            left.remove(printing)
        good_left = any((_grade_at(p.card, colorless) or 0.0) >= GOOD for p in left)
        for card in taken:
            if _grade_at(card, colorless) is None:
                continue
            taken_early += 1
            faults += good_left and is_filler(card)
    return taken_early, faults


def premium_picks(picks: Iterable[Any]) -> list[int]:
    """The pick numbers at which premium cards were taken (``_grade_at``)."""
    return [
        pick.pick
        for pick, colorless in _with_sources(picks)
        for printing in pick.taken
        if (_grade_at(printing.card, colorless) or 0.0) >= PREMIUM
    ]


def weak_partner_faults(picks: Iterable[Any], identity: ColorIdentity) -> tuple[int, int]:
    """(weak partner legends taken, of them taken while the pack held a card graded ``STRONG`` or better that fits
    ``identity``, the colors the seat ended in) over ``Pick`` records (``_grade_at``)."""
    taken_weak = faults = 0
    for pick, colorless in _with_sources(picks):
        left = list(pick.offered)
        for printing in pick.taken:
            left.remove(printing)
        strong_left = any(
            (_grade_at(p.card, colorless) or 0.0) >= STRONG and p.card.deck_colors <= identity and not p.card.is_land
            for p in left
        )
        for printing in pick.taken:
            card = printing.card
            value = grade(card)
            if value is None or not card.has_partner or card.name == PIPER or value > WEAK_LEGEND:
                continue
            taken_weak += 1
            faults += strong_left
    return taken_weak, faults


def strong_late_picks(picks: Iterable[Any]) -> tuple[int, int]:
    """(cards graded ``STRONG`` or better taken, of them taken at pick ``LATE_PICK`` or later: let wheel;
    ``_grade_at``)."""
    strong = late = 0
    for pick, colorless in _with_sources(picks):
        for printing in pick.taken:
            if (_grade_at(printing.card, colorless) or 0.0) >= STRONG:
                strong += 1
                late += pick.pick >= LATE_PICK
    return strong, late


def pick_order(picks: Iterable[Any]) -> list[tuple[float, int]]:
    """(grade, pick number) of every graded card taken (the Piper aside; ``_grade_at``)."""
    return [
        (value, pick.pick)
        for pick, colorless in _with_sources(picks)
        for printing in pick.taken
        if (value := _grade_at(printing.card, colorless)) is not None and printing.card.name != PIPER
    ]


def rank_correlation(pairs: Sequence[tuple[float, int]]) -> float | None:
    """Spearman's rank correlation of grades with how early the cards went (1: the better card always first)."""
    if len(pairs) < 3:
        return None
    try:
        return round(statistics.correlation(_ranks([g for g, _ in pairs]), _ranks([-float(p) for _, p in pairs])), 3)
    except statistics.StatisticsError:
        return None


def _ranks(values: Sequence[float]) -> list[float]:
    """Ranks from 1, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for i in order[start : end + 1]:
            ranks[i] = (start + end) / 2 + 1
        start = end + 1
    return ranks


def splash_size(main: Iterable[Card], identity: ColorIdentity) -> int | None:
    """In a deck of three colors or more, the main-deck spells showing its least-shown color (``None`` otherwise)."""
    if len(identity) < 3:
        return None
    shown = {color: 0 for color in identity}
    for card in main:
        if card.is_land:
            continue
        for color in card.deck_colors:
            if color in shown:
                shown[color] += 1
    return min(shown.values())


def extra_legend_copies(deck: Any) -> list[str]:
    """Legends the deck runs more than ``LEGEND_COPIES`` copies of, its commanders counted (a card whose own text
    allows more copies aside)."""
    copies: Counter[str] = Counter()
    limits: dict[str, int | None] = {}
    for card in deck.commanders:
        copies[card.name] += 1
    for card, n in deck.main.items():
        if card.is_legendary and not card.is_basic_land:
            copies[card.name] += n
            limits[card.name] = card.copy_limit
    return sorted(
        name
        for name, n in copies.items()
        if n > LEGEND_COPIES and name in limits and (limits[name] or 0) < n and name != PIPER
    )


def benched_better(
    main: Iterable[Card], sideboard: Iterable[Card], identity: ColorIdentity, commanders: Iterable[Card] = ()
) -> list[tuple[Card, Card]]:
    """(benched, played) pairs: a nonland sideboard card inside the identity graded ``BENCHED_GAP`` or more above a
    nonland main-deck card, each sideboard card paired with the weakest main-deck card.  A copy of a commander, or
    of a legend the deck plays ``LEGEND_COPIES`` of, is no bench: the legend rule makes it a poor card there; nor is
    a card whose cost asks {C} of a deck with no source of colorless mana, nor a Background (``_benchable``)."""
    main = list(main)
    played = [(grade(c), c) for c in main if not c.is_land and c.name != PIPER]
    graded = [(value, card) for value, card in played if value is not None]
    if not graded:
        return []
    weakest_value, weakest = min(graded, key=lambda pair: pair[0])
    return [
        (card, weakest)
        for card, value in _benchable(main, sideboard, identity, commanders)
        if value - weakest_value >= BENCHED_GAP
    ]


def is_rock(card: Card) -> bool:
    """A mana rock as the judge sees one: a noncreature artifact of mana value 3 or less graded for ramp or fixing.
    By our reference grades' roles, never by what the bots or the builder read of a card (their traits): the judge
    stays apart from what it judges, and so may disagree with the builder's own count of rocks."""
    return (
        role(card) in ("ramp", "fixing")
        and card.has_type("Artifact")
        and not card.has_type("Creature")
        and card.mana_value <= 3
    )


def rock_room(main: Iterable[Card], identity: ColorIdentity) -> int:
    """How many more mana rocks the deck would play (``ROCKS``, one more in three colors or more, less those played)."""
    return max(0, ROCKS + (len(identity) >= 3) - sum(1 for card in main if is_rock(card)))


def _benchable(
    main: Sequence[Card], sideboard: Iterable[Card], identity: ColorIdentity, commanders: Iterable[Card]
) -> list[tuple[Card, float]]:
    """The distinct graded nonland sideboard cards the deck could play instead of a main-deck card, with their
    grades (``benched_better``'s exclusions: a commander's copy, a legend past ``LEGEND_COPIES``, an unpayable {C},
    a card whose effect reaches only commanders, ``commander_only``: graded as a lead, near blank in the deck, and a
    mana rock past the ``ROCKS`` the deck already plays: mana beside enough mana)."""
    leading = {card.name for card in commanders}
    copies = Counter(card.name for card in [*main, *commanders])
    colorless = any(makes_colorless(card) for card in main)
    rocks = rock_room(main, identity)
    found = []
    for card in dict.fromkeys(sideboard):
        value = grade(card)
        if value is None or card.is_land or card.name in leading or card.name == PIPER or not card.identity <= identity:
            continue
        if card.is_legendary and copies[card.name] >= LEGEND_COPIES and (card.copy_limit or 0) <= LEGEND_COPIES:
            continue  # a further copy of a legend the deck already plays twice is nearly dead
        if colorless_symbols(card) and not colorless:
            continue  # its {C} can't be paid: the deck has no source of colorless mana
        if commander_only(card):
            continue  # a Background is graded for leading: in the main deck it reaches only the commanders
        if not rocks and is_rock(card):
            continue  # the deck plays the rocks it uses: another is mana it goes without
        found.append((card, value))
    return found


def filler_over_better(
    main: Iterable[Card], sideboard: Iterable[Card], identity: ColorIdentity, commanders: Iterable[Card] = ()
) -> list[Card]:
    """The ``filler_in_main`` a deck plays while better sat out: one filler card for each copy of a sideboard card
    graded above ``FILLER`` that the deck could play (``benched_better``'s exclusions; mana rocks up to ``ROCKS``), the
    weakest filler first.
    Filler is what a strong drafter plays only to reach 60: where the pool holds nothing better in the deck's colors
    and the deck plays its 26 lands, playing it is right, and the pool's depth is what the count measures."""
    main, sideboard, commanders = list(main), list(sideboard), list(commanders)
    filler = sorted(filler_in_main(main), key=lambda card: (card.name != PIPER, grade(card) or 0.0))
    benched = Counter(card.name for card in sideboard)
    copies = Counter(card.name for card in [*main, *commanders])
    spare, rocks = 0, rock_room(main, identity)
    for card, value in _benchable(main, sideboard, identity, commanders):
        if value > FILLER:
            legend = card.is_legendary and (card.copy_limit or 0) <= LEGEND_COPIES
            count = min(benched[card.name], LEGEND_COPIES - copies[card.name]) if legend else benched[card.name]
            if is_rock(card):
                count = min(count, rocks)
                rocks -= count
            spare += count
    return filler[:spare]


def colorless_filler(main: Iterable[Card], identity: ColorIdentity) -> int:
    """Colorless nonland main-deck cards graded filler (fixing counts as fixing in a deck of three colors or more)."""
    count = 0
    for card in main:
        if card.is_land or card.deck_colors or not is_filler(card):
            continue
        if role(card) == "fixing" and len(identity) >= 3:
            continue
        count += 1
    return count


def filler_in_main(main: Iterable[Card]) -> list[Card]:
    """Main-deck cards a good player would almost never main: nonland cards graded ``FILLER`` or less (situational
    draw, slow artifacts, cards whose theme the deck lacks: a 25th-27th land or a decent card does more), and any
    Prismatic Piper (it leads or stays in the sideboard).  A commander is no main-deck card."""
    return [card for card in main if card.name == PIPER or (not card.is_land and is_filler(card))]


def thin_colors(main: Iterable[Card], identity: ColorIdentity) -> list[Color]:
    """Identity colors that ``THIN_COLOR_SPELLS`` or fewer main-deck spells show."""
    shown = {color: 0 for color in identity}
    for card in main:
        if card.is_land:
            continue
        for color in card.deck_colors:
            if color in shown:
                shown[color] += 1
    return [color for color, n in shown.items() if n <= THIN_COLOR_SPELLS]


def deck_grade_ratio(
    main: Sequence[Card], pool: Sequence[Card], commanders: Sequence[Card], identity: ColorIdentity
) -> float | None:
    """Mean grade of the main deck's graded nonland cards over the mean of the best as many the pool allows in the
    deck's identity (commanders and Pipers aside); ``None`` when nothing is graded."""
    spells = [grade(card) for card in main if not card.is_land and not is_piper(card)]
    played = [value for value in spells if value is not None]
    if not played:
        return None
    leaders = list(commanders)
    candidates = []
    colorless = any(makes_colorless(card) for card in main)
    for card in pool:
        if card in leaders:
            leaders.remove(card)
            continue
        value = grade(card)
        if value is None or card.is_land or is_piper(card) or (colorless_symbols(card) and not colorless):
            continue  # (a card asking {C} of a deck with no colorless source can't be cast there)
        candidates.append((value, card))
    return round(statistics.mean(played) / _best_mean(candidates, identity.mask, len(played)), 4)


def _best_mean(candidates: list[tuple[float, Card]], identity: int, count: int) -> float:
    fitting = sorted((value for value, card in candidates if not card.identity.mask & ~identity), reverse=True)
    best = fitting[:count]
    return statistics.mean(best) if best else 1.0
