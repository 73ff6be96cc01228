"""How a strong drafter judges bot picks and bot decks (the ``bots`` benchmark and its tests).

This judge never calls the bots' rating.  It reads what a card does from
rules text with its own rules: the reference card list in
``shared/data/cmr/cards.json`` when it sits beside the project (or the file
``$CMDRAFT_REFERENCE_CARDS`` names), else the
text the user imported; a card with no text at all falls back to the role
tags committed in ``draft/data`` (read straight from the file).

Figures (all from the pods' picks and decks):

- cheap removal (mana value <= 3 and it destroys, exiles, damages, shrinks,
  fights or locks down an opponent's creature or permanent): the mean pick
  (1-10 within a pack) at which it is taken, and the share taken at pick 6+;
- Pipers drafted at picks 1-5 (share of drafted Pipers);
- decks with a Piper in the main deck;
- decks with an under-sourced color: a colored mana symbol of a commander
  with fewer than 8 sources, or an identity color that the main deck's spells
  need with fewer than 6 (sources: lands and mana rocks of mana value <= 3
  that make the color);
- on-color cheap removal left in the sideboard, per deck;
- lands per deck (21-27 expected) and legal decks.
"""

from __future__ import annotations

import json
import os
import re
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from sets.cards import Card
from sets.colors import Color, ColorIdentity

PIPER = "The Prismatic Piper"
CHEAP = 3
COMMANDER_SOURCES = 8
IDENTITY_SOURCES = 6
LANDS = (21, 27)

_REMOVAL = [re.compile(pattern) for pattern in (
    r"\b(destroy|exile) (up to (one|two|three|x) )?(other )?target [\w ,'-]*?\b(creature|permanent|planeswalker)\b(?! cards?)",
    r"\bdeals? (\d+|x|damage equal to [^.]*?) (damage )?to (any target|(up to (one|two|three) )?(other )?target [\w ,'-]*?\b(creature|planeswalker)\b)",
    r"\btarget [\w ,'-]*?creature[\w ,'-]*? gets -\d+/-\d+",
    r"\bdeals? damage to (up to one )?target creatures?\b",
    r"\bamong (any number of|up to \w+) target creatures",
    r"\bfights? (up to one )?(another )?target creature",
    r"\benchanted creature can't attack or block",
    r"\benchanted creature (gets -\d+/-\d+|loses all abilities)",
    r"\bput target [\w ,'-]*?creature on (the )?(top|bottom) of its owner's library",
)]
_BASIC_TYPES = {Color.W: "Plains", Color.U: "Island", Color.B: "Swamp", Color.R: "Mountain", Color.G: "Forest"}
_MANA = re.compile(r"adds? (\{[wubrgc]\}|one mana|two mana|three mana|mana|x mana|an amount of|[a-z]+ mana)")


def _find_reference() -> Path | None:
    override = os.environ.get("CMDRAFT_REFERENCE_CARDS")
    if override:
        return Path(override) if Path(override).is_file() else None
    here = Path(__file__).resolve()
    for folder in here.parents:
        candidate = folder / "shared" / "data" / "cmr" / "cards.json"
        if candidate.is_file():
            return candidate
    return None


@cache
def reference_texts() -> dict[str, str]:
    """Rules text by card name from the shared reference list (empty when it is not beside the project)."""
    path = _find_reference()
    if path is None:
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {card["name"]: card.get("text") or "" for card in data["cards"]}


@cache
def committed_tags() -> dict[str, tuple[str, ...]]:
    """Role tags by card name from the committed ratings file (read directly, not through the bots)."""
    try:
        text = resources.files("draft").joinpath("data", "cmr_ratings.json").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return {}
    return {name: tuple(entry.get("roles", ())) for name, entry in json.loads(text)["cards"].items()}


def text_of(card: Card) -> str | None:
    """A card's rules text, or None when none is known."""
    own = "\n".join(face.text for face in card.faces if face.text)
    if own:
        return own
    reference = reference_texts().get(card.name)
    return reference if reference else None


def _plain(text: str) -> str:
    previous = None
    while previous != text:
        previous, text = text, re.sub(r"\([^()]*\)", "", text)
    return text.replace("’", "'").lower()


def removal_cost(card: Card) -> float | None:
    """Mana it takes to remove something with the card (its cost, or more for an activated ability), None if it can't."""
    if card.is_land:
        return None
    text = text_of(card)
    if text is None:
        return float(card.mana_value) if "removal" in committed_tags().get(card.name, ()) else None
    best: float | None = None
    for line in _plain(text).splitlines():
        for pattern in _REMOVAL:
            match = pattern.search(line)
            if match is None:
                continue
            head, colon, _ = line.partition(":")
            cost = float(card.mana_value)
            if colon and len(head) < match.start():
                cost = max(cost, float(sum(int(n) if n.isdigit() else 1 for n in re.findall(r"\{([^}]+)\}", head) if n != "t")))
            best = cost if best is None else min(best, cost)
    return best


def is_removal(card: Card) -> bool:
    return removal_cost(card) is not None


def is_cheap_removal(card: Card) -> bool:
    cost = removal_cost(card)
    return cost is not None and card.mana_value <= CHEAP and cost <= CHEAP


def sources(card: Card, identity: ColorIdentity) -> ColorIdentity:
    """Colors of mana a land (or a mana rock of mana value <= 3) gives a deck of this identity."""
    if not card.is_land and not (card.has_type("Artifact") and not card.has_type("Creature") and card.mana_value <= CHEAP):
        return ColorIdentity.parse("")
    made = ColorIdentity.of(c for c in Color if _BASIC_TYPES[c] in card.front.subtypes)
    text = text_of(card)
    if text is None:
        tags = committed_tags().get(card.name, ())
        if card.is_land:
            made |= card.deck_colors
            if "fixing" in tags and not card.deck_colors:
                made |= identity
        elif "ramp" in tags or "fixing" in tags:
            made |= identity if "fixing" in tags else card.deck_colors
        return ColorIdentity.of(c for c in made if c in identity)
    plain = _plain(text)
    if not _MANA.search(plain) and "search your library for a basic land" not in plain and "basic land card" not in plain:
        return ColorIdentity.of(c for c in made if c in identity)
    if "any color" in plain or "any type" in plain or "basic land" in plain:
        made |= identity
    for color in Color:
        if "{" + color.value.lower() + "}" in plain:
            made |= ColorIdentity.of([color])
    return ColorIdentity.of(c for c in made if c in identity)


def colored_needs(deck: Any, identity: ColorIdentity) -> dict[Color, int]:
    """How many sources each color needs: 8 for a commander's colored symbol, 6 for a color the main spells show."""
    needs: dict[Color, int] = {}
    for card in deck.main:
        if card.is_land:
            continue
        for color in _cost_colors(card):
            if color in identity:
                needs[color] = IDENTITY_SOURCES
    for card in deck.commanders:
        for color in _cost_colors(card):
            needs[color] = COMMANDER_SOURCES
    return needs


def _cost_colors(card: Card) -> ColorIdentity:
    colors = ColorIdentity.parse("")
    for face in card.faces:
        try:
            colors |= face.cost.colors
        except ValueError:
            continue
    return colors


def source_counts(deck: Any, identity: ColorIdentity) -> dict[Color, int]:
    counts = {color: 0 for color in identity}
    for card, n in deck.main.items():
        for color in sources(card, identity):
            counts[color] += n
    return counts


def deck_faults(deck: Any, identity: ColorIdentity) -> list[str]:
    """What a strong player would send back: one short code per fault."""
    faults = []
    main = deck.main
    if any(card.name == PIPER for card in main):
        faults.append("piper-main-deck")
    counts = source_counts(deck, identity)
    for color, need in colored_needs(deck, identity).items():
        if counts.get(color, 0) < need:
            faults.append(f"under-sourced-{color.value}")
    lands = sum(n for card, n in main.items() if card.is_land)
    if not LANDS[0] <= lands <= LANDS[1]:
        faults.append("lands-out-of-range")
    benched = benched_removal(deck, identity)
    if benched:
        faults.append(f"removal-benched-{benched}")
    return faults


def benched_removal(deck: Any, identity: ColorIdentity) -> int:
    """On-color cheap removal in the sideboard."""
    return sum(n for card, n in deck.sideboard.items() if card.deck_colors <= identity and is_cheap_removal(card))


def pick_figures(picks: Iterable[Any]) -> dict[str, Any]:
    """Cheap-removal pick numbers and Piper pick numbers over bot picks (``Pick`` records)."""
    removal: list[int] = []
    pipers: list[int] = []
    legends_early = 0
    for pick in picks:
        for printing in pick.taken:
            card = printing.card
            if card.name == PIPER:
                pipers.append(pick.pick)
            elif is_cheap_removal(card):
                removal.append(pick.pick)
            if card.can_be_commander and card.name != PIPER and pick.pick <= 3:
                legends_early += 1
    return {"removal": removal, "pipers": pipers, "legends_early": legends_early}


def style_figures(pods: Sequence[Any]) -> dict[str, Any]:
    """The issue's figures over pods (``PodResult``s)."""
    picks = [pick for pod in pods for pick in pod.draft.log]
    found = pick_figures(picks)
    seats = [seat for pod in pods for seat in pod.seats]
    decks = len(seats) or 1
    removal, pipers = found["removal"], found["pipers"]
    faults = [deck_faults(seat.deck, seat.report.color_identity) for seat in seats]
    lands = [sum(n for card, n in seat.deck.main.items() if card.is_land) for seat in seats]
    creatures = [sum(n for card, n in seat.deck.main.items() if card.has_type("Creature")) for seat in seats]
    spells_mv = [card.mana_value for seat in seats for card, n in seat.deck.main.items() if not card.is_land for _ in range(n)]
    widths = Counter(len(seat.report.color_identity) for seat in seats)
    return {
        "pods": len(pods),
        "decks": len(seats),
        "cheap_removal_taken": len(removal),
        "cheap_removal_mean_pick": round(statistics.mean(removal), 2) if removal else None,
        "cheap_removal_pick6_share": round(sum(p >= 6 for p in removal) / len(removal), 3) if removal else None,
        "pipers_drafted": len(pipers),
        "pipers_picks_1_5_share": round(sum(p <= 5 for p in pipers) / len(pipers), 3) if pipers else 0.0,
        "piper_main_decks": sum("piper-main-deck" in f for f in faults),
        "under_sourced_share": round(sum(any(x.startswith("under-sourced") for x in f) for f in faults) / decks, 3),
        "benched_removal_per_deck": round(sum(benched_removal(s.deck, s.report.color_identity) for s in seats) / decks, 3),
        "lands_min": min(lands) if lands else 0,
        "lands_max": max(lands) if lands else 0,
        "lands_out_of_range": sum(not LANDS[0] <= n <= LANDS[1] for n in lands),
        "legal_share": round(sum(seat.report.valid for seat in seats) / decks, 3),
        "legends_at_picks_1_3_per_seat": round(found["legends_early"] / decks, 2),
        "creatures_mean": round(statistics.mean(creatures), 1) if creatures else 0,
        "spell_mana_value_mean": round(statistics.mean(spells_mv), 2) if spells_mv else 0,
        "identity_sizes": {str(k): widths[k] for k in sorted(widths)},
        "judge": "reference rules text" if reference_texts() else "committed role tags",
    }


TARGETS = {
    "cheap_removal_mean_pick": ("<=", 4.0),
    "cheap_removal_pick6_share": ("<=", 0.15),
    "pipers_picks_1_5_share": ("<=", 0.10),
    "piper_main_decks": ("<=", 0),
    "under_sourced_share": ("<=", 0.02),
    "benched_removal_per_deck": ("<=", 0.3),
    "lands_out_of_range": ("<=", 0),
    "legal_share": (">=", 1.0),
}


def meets(figures: dict[str, Any]) -> dict[str, bool]:
    """Each target of issue 23: met or not."""
    result = {}
    for key, (op, bound) in TARGETS.items():
        value = figures.get(key)
        if value is None:
            result[key] = True  # nothing taken: nothing to judge
        else:
            result[key] = value <= bound if op == "<=" else value >= bound
    return result
