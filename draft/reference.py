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
from collections.abc import Iterable, Sequence
from functools import cache
from importlib import resources
from typing import Any

from sets.cards import Card
from sets.colors import Color, ColorIdentity

FILLER = 1.5  # a grade at or below this is filler: a card a strong drafter plays only to reach 60
GOOD = 3.0  # at or above: a card worth a first pick's thought
PREMIUM = 4.0  # at or above: a bomb or top card, gone in the first picks of a pack
LATE_PICK = 6
THIN_COLOR_SPELLS = 3  # an identity color shown by this many main-deck spells or fewer pays for nothing
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


def early_pick_faults(picks: Iterable[Any]) -> tuple[int, int]:
    """(cards taken at picks 1-2, of them filler taken while a good card was left in the pack) over ``Pick`` records."""
    taken_early = faults = 0
    for pick in picks:
        if pick.pick > 2:
            continue
        taken = [p.card for p in pick.taken]
        left = list(pick.offered)
        for printing in pick.taken:
            left.remove(printing)
        good_left = any(is_good(p.card) for p in left)
        for card in taken:
            if grade(card) is None:
                continue
            taken_early += 1
            faults += good_left and is_filler(card)
    return taken_early, faults


def premium_picks(picks: Iterable[Any]) -> list[int]:
    """The pick numbers at which premium cards were taken."""
    return [pick.pick for pick in picks for printing in pick.taken if is_premium(printing.card)]


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
    spells = [grade(card) for card in main if not card.is_land and card.name != PIPER]
    played = [value for value in spells if value is not None]
    if not played:
        return None
    leaders = list(commanders)
    candidates = []
    for card in pool:
        if card in leaders:
            leaders.remove(card)
            continue
        value = grade(card)
        if value is None or card.is_land or card.name == PIPER:
            continue
        candidates.append((value, card))
    return round(statistics.mean(played) / _best_mean(candidates, identity.mask, len(played)), 4)


def _best_mean(candidates: list[tuple[float, Card]], identity: int, count: int) -> float:
    fitting = sorted((value for value, card in candidates if not card.identity.mask & ~identity), reverse=True)
    best = fitting[:count]
    return statistics.mean(best) if best else 1.0
