"""How a strong drafter judges bot picks and bot decks (``sim --drafts``, the ``bots`` benchmark, tests).

This judge never calls the bots' rating.  It reads what a card does from its
rules text with its own rules: the text the user imported (``sets
import``), or reference texts handed to ``use_reference_texts`` (the
benchmark passes the reference card list when it sits beside the project);
a card with no text at all falls back to the role tags committed in
``draft/data`` (read straight from the file).

Figures (all from the pods' picks and decks):

- with our reference evaluation (``draft.reference``, hand grades of every
  CMR card, never the bots' rating; at a pick, a card whose cost asks {C}
  counts only for a pool holding a source of colorless mana; a deck needs six):
  the share of cards taken at picks 1-2
  that are filler while the pack held a good card; premium cards taken at
  pick 6 or later; colorless filler per main deck; filler of any color (and
  Pipers) per main deck; decks with an identity
  color shown by 3 spells or fewer; the main deck's mean grade over the best
  as many cards the pool allows in its colors;
- cheap removal worth a pick (mana value <= 3, and removing with it costs 3
  or less: it destroys, exiles, damages, shrinks, fights or locks down an
  opponent's creature or permanent; a card the reference grades under 2.5, a
  ping that needs a sacrifice, is not counted): the mean pick (1-10 within a
  pack) at which it is taken, and the share taken at pick 6 or later;
- Pipers drafted at picks 1-5 (share of drafted Pipers);
- decks with a Piper in the main deck;
- decks with an under-sourced color: a commander's colored mana symbols of
  a color with fewer than 10, 12 or 14 sources for one, two or three of them
  (8 for one in a deck of three colors or more), or an identity color that the main deck's spells
  show with fewer than 6 (sources: lands, and mana rocks of mana value <= 3,
  that make the color);
- on-color cheap removal left in the sideboard, per deck;
- lands per deck (22-26 expected) and legal decks.
"""

from __future__ import annotations

import json
import re
import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from draft import reference
from draft.cardtext import cast_parts
from draft.decks import is_piper
from sets.cards import Card
from sets.colors import Color, ColorIdentity
from sets.identity import counted_faces

PIPER = "The Prismatic Piper"
CHEAP = 3
WORTH_A_PICK = 2.5  # the reference grade from which cheap removal should be gone early
COMMANDER_SOURCES = {1: 10, 2: 12, 3: 14}  # by a commander's colored symbols of one color (a strong drafter's counts)
WIDE_COMMANDER_SOURCES = 8  # for one symbol in a deck of three colors or more
IDENTITY_SOURCES = 6
LANDS = (22, 26)  # a strong drafter plays 22-26 of 60 (24-25 most often, fewer beside ramp)

_REMOVAL = [
    re.compile(pattern)
    for pattern in (
        r"\b(destroy|exile) (up to (one|two|three|x) )?(an?other |other )?target [\w ,'-]*?\b(creature|permanent|planeswalker)\b"
        r"(?! cards?)(?! you control)",
        r"\bdeals? (\d+|x|damage equal to [^.]*?) (damage )?to (any target|(up to (one|two|three) )?(other )?target [\w ,'-]*?\b(creature|planeswalker)\b)",
        r"\btarget [\w ,'-]*?creature[\w ,'-]*? gets -\d+/-\d+",
        r"\bdeals? damage to (up to one )?target creatures?\b",
        r"\bamong (any number of|up to \w+) target creatures",
        r"\bfights? (up to one )?(another )?target creature",
        r"\benchanted creature can't attack or block",
        r"\benchanted creature (gets -\d+/-\d+|loses all abilities)",
        r"\bput target [\w ,'-]*?creature on (the )?(top|bottom) of its owner's library",
        r"\bdivided as you choose among (one or two|one, two, or three|up to \w+) targets",
        r"\b(each|target) (opponent|player) sacrifices an? (attacking )?creature",
        r"\bowner of target [\w ,'-]*?(creature|permanent) shuffles it into",
    )
]
# An exile that puts the card back ("exile target creature, then return it to the battlefield") is a blink.
_RETURNED = re.compile(r"[^\n]*?\breturns? (it|that card|them|those cards) to the battlefield")
_BASIC_TYPES = {Color.W: "Plains", Color.U: "Island", Color.B: "Swamp", Color.R: "Mountain", Color.G: "Forest"}
_MANA = re.compile(r"adds? (\{[wubrgc]\}|one mana|two mana|three mana|mana|x mana|an amount of|[a-z]+ mana)")


_REFERENCE: dict[str, str] = {}


def use_reference_texts(texts: Mapping[str, str]) -> None:
    """Judge with these rules texts (by card name) where a card carries none of its own."""
    _REFERENCE.clear()
    _REFERENCE.update(texts)
    removal_cost.cache_clear()


def reference_texts() -> dict[str, str]:
    return _REFERENCE


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
    # A meld card's back face is the melded result, not this card's own text.
    own = "\n".join(face.text for face in counted_faces(card.faces, card.layout) if face.text)
    if own:
        return own
    reference = reference_texts().get(card.name)
    return reference if reference else None


def _plain(text: str) -> str:
    previous = None
    while previous != text:
        previous, text = text, re.sub(r"\([^()]*\)", "", text)
    return text.replace("’", "'").lower()


@cache
def removal_cost(card: Card) -> float | None:
    """Mana it takes to remove something with the card (its cost, or more for an activated ability), None if it can't."""
    if card.is_land:
        return None
    text = text_of(card)
    if text is None:
        return float(card.mana_value) if "removal" in committed_tags().get(card.name, ()) else None
    best: float | None = None
    for value, part in cast_parts(card, text):
        for line in _plain(part).splitlines():
            for pattern in _REMOVAL:
                match = pattern.search(line)
                if match is None or _RETURNED.match(line, match.end()):
                    continue
                head, colon, _ = line.partition(":")
                cost = value
                if colon and len(head) < match.start():
                    symbols = re.findall(r"\{([^}]+)\}", head)
                    cost = max(cost, float(sum(int(n) if n.isdigit() else 1 for n in symbols if n != "t")))
                best = cost if best is None else min(best, cost)
    return best


def is_removal(card: Card) -> bool:
    return removal_cost(card) is not None


def is_cheap_removal(card: Card) -> bool:
    """Removal for 3 mana or less that our reference grades worth a pick (a split card's half at its own cost): a
    ping that needs a sacrifice is filler however cheap, and taking it late is right."""
    cost = removal_cost(card)
    if cost is None or cost > CHEAP:
        return False
    grade = reference.grade(card)
    return grade is None or grade >= WORTH_A_PICK


def sources(card: Card, identity: ColorIdentity) -> ColorIdentity:
    """Colors of mana a land (or a mana rock of mana value <= 3) gives a deck of this identity."""
    if not card.is_land and not (
        card.has_type("Artifact") and not card.has_type("Creature") and card.mana_value <= CHEAP
    ):
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
    if (
        not _MANA.search(plain)
        and "search your library for a basic land" not in plain
        and "basic land card" not in plain
    ):
        return ColorIdentity.of(c for c in made if c in identity)
    if "any color" in plain or "any type" in plain or "basic land" in plain:
        made |= identity
    for color in Color:
        if "{" + color.value.lower() + "}" in plain:
            made |= ColorIdentity.of([color])
    return ColorIdentity.of(c for c in made if c in identity)


def colored_needs(deck: Any, identity: ColorIdentity) -> dict[Color, int]:
    """Sources each color needs: 10-14 for a commander's colored symbols of it (its front face's), 6 for a color the
    main spells show."""
    needs: dict[Color, int] = {}
    for card in deck.main:
        if card.is_land:
            continue
        for color in _cost_colors(card):
            if color in identity:
                needs[color] = IDENTITY_SOURCES
    for card in deck.commanders:
        symbols = _front_symbols(card)  # cast by its front face
        for color, count in symbols.items():
            if len(identity) >= 3 and count == 1:
                need = WIDE_COMMANDER_SOURCES
            else:
                need = COMMANDER_SOURCES[min(count, 3)]
            needs[color] = max(needs.get(color, 0), need)
    return needs


def _front_symbols(card: Card) -> Counter[Color]:
    """The colored symbols of the card's front face's mana cost (a hybrid symbol counts for each of its colors)."""
    try:
        cost = card.front.cost
    except ValueError:
        return Counter()
    return Counter({color: cost.count(color) for color in Color if cost.count(color)})


def _cost_colors(card: Card, faces: int | None = None) -> ColorIdentity:
    colors = ColorIdentity.parse("")
    for face in card.faces[:faces]:
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
    if any(is_piper(card) for card in main):
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


def seat_figures(
    picks: Iterable[Any], deck: Any, identity: ColorIdentity, valid: bool, pool: Sequence[Card] = ()
) -> dict[str, Any]:
    """One seat's figures from its picks (``Pick`` records), its deck and its pool: small, to send between
    processes.  The grade figures read our reference evaluation (``draft.reference``), not the bots' rating."""
    picks = list(picks)
    removal: list[int] = []
    pipers: list[int] = []
    legends_early = 0
    for pick in picks:
        for printing in pick.taken:
            card = printing.card
            if is_piper(card):
                pipers.append(pick.pick)
            elif is_cheap_removal(card):
                removal.append(pick.pick)
            if card.can_be_commander and not is_piper(card) and pick.pick <= 3:
                legends_early += 1
    main = deck.main
    faults = deck_faults(deck, identity)
    spells = [card for card, n in main.items() if not card.is_land for _ in range(n)]
    main_cards = [card for card, n in main.items() for _ in range(n)]
    early, early_faults = reference.early_pick_faults(picks)
    weak_partners, weak_partner_faults = reference.weak_partner_faults(picks, identity)
    strong, strong_late = reference.strong_late_picks(picks)
    splash = reference.splash_size(main_cards, identity)
    side_cards = [card for card, n in deck.sideboard.items() for _ in range(n)]
    return {
        "early_picks": early,
        "early_filler_over_good": early_faults,
        "premium_picks": reference.premium_picks(picks),
        "weak_partners": weak_partners,
        "weak_partner_over_strong": weak_partner_faults,
        "strong_taken": strong,
        "strong_late": strong_late,
        "pick_order": reference.pick_order(picks),
        "splash_spells": splash,
        "extra_legend_copies": reference.extra_legend_copies(deck),
        "benched_better": len(reference.benched_better(main_cards, side_cards, identity, deck.commanders)),
        "colorless_filler": reference.colorless_filler(main_cards, identity),
        "filler_in_main": len(reference.filler_in_main(main_cards)),
        "filler_over_better": len(reference.filler_over_better(main_cards, side_cards, identity, deck.commanders)),
        "thin_colors": len(reference.thin_colors(main_cards, identity)),
        "grade_ratio": reference.deck_grade_ratio(main_cards, list(pool), deck.commanders, identity),
        "removal_picks": removal,
        "piper_picks": pipers,
        "legends_early": legends_early,
        "faults": faults,
        "benched_removal": benched_removal(deck, identity),
        "lands": sum(n for card, n in main.items() if card.is_land),
        "creatures": sum(1 for card in spells if card.has_type("Creature")),
        "removal_in_deck": sum(1 for card in spells if is_removal(card)),
        "spell_mana_value": round(statistics.mean(float(c.mana_value) for c in spells), 3) if spells else 0.0,
        "width": len(identity),
        "commanders": len(deck.commanders),
        "piper_commanders": sum(1 for card in deck.commanders if is_piper(card)),
        "sources": {color.value: n for color, n in source_counts(deck, identity).items()},
        "valid": bool(valid),
    }


def figures(seats: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The issue's figures over many seats' ``seat_figures``."""
    decks = len(seats) or 1
    removal = [p for seat in seats for p in seat["removal_picks"]]
    pipers = [p for seat in seats for p in seat["piper_picks"]]
    lands = [seat["lands"] for seat in seats]
    widths = Counter(seat["width"] for seat in seats)

    def mean(key: str, digits: int = 2) -> float:
        return round(statistics.mean(seat[key] for seat in seats), digits) if seats else 0.0

    early = sum(seat.get("early_picks", 0) for seat in seats)
    premium = [p for seat in seats for p in seat.get("premium_picks", ())]
    ratios = [seat["grade_ratio"] for seat in seats if seat.get("grade_ratio") is not None]
    return {
        "decks": len(seats),
        "early_filler_over_good_share": round(sum(s.get("early_filler_over_good", 0) for s in seats) / early, 3)
        if early
        else None,
        "premium_pick6_share": round(sum(p >= reference.LATE_PICK for p in premium) / len(premium), 3)
        if premium
        else None,
        "weak_partner_over_strong_share": _share(seats, "weak_partner_over_strong", "weak_partners"),
        "strong_pick6_share": _share(seats, "strong_late", "strong_taken"),
        "pick_order_correlation": _pick_order(seats),
        "mid_splash_share": round(sum(4 <= (s.get("splash_spells") or 0) <= 5 for s in seats) / decks, 3),
        "extra_legend_copy_decks": sum(bool(s.get("extra_legend_copies")) for s in seats),
        "benched_better_per_deck": round(sum(s.get("benched_better", 0) for s in seats) / decks, 3),
        "colorless_filler_per_deck": round(sum(s.get("colorless_filler", 0) for s in seats) / decks, 2),
        "filler_in_main_per_deck": round(sum(s.get("filler_in_main", 0) for s in seats) / decks, 2),
        "filler_over_better_per_deck": round(sum(s.get("filler_over_better", 0) for s in seats) / decks, 2),
        "thin_color_share": round(sum(s.get("thin_colors", 0) > 0 for s in seats) / decks, 3),
        "grade_ratio_mean": round(statistics.mean(ratios), 3) if ratios else None,
        "cheap_removal_taken": len(removal),
        "cheap_removal_mean_pick": round(statistics.mean(removal), 2) if removal else None,
        "cheap_removal_pick6_share": round(sum(p >= 6 for p in removal) / len(removal), 3) if removal else None,
        "pipers_drafted": len(pipers),
        "pipers_picks_1_5_share": round(sum(p <= 5 for p in pipers) / len(pipers), 3) if pipers else 0.0,
        "piper_main_decks": sum("piper-main-deck" in seat["faults"] for seat in seats),
        "under_sourced_share": round(
            sum(any(f.startswith("under-sourced") for f in seat["faults"]) for seat in seats) / decks, 3
        ),
        "benched_removal_per_deck": round(sum(seat["benched_removal"] for seat in seats) / decks, 3),
        "lands_min": min(lands) if lands else 0,
        "lands_max": max(lands) if lands else 0,
        "lands_out_of_range": sum(not LANDS[0] <= n <= LANDS[1] for n in lands),
        "legal_share": round(sum(seat["valid"] for seat in seats) / decks, 3),
        "legends_at_picks_1_3_per_deck": mean("legends_early"),
        "removal_in_deck_mean": mean("removal_in_deck", 1),
        "creatures_mean": mean("creatures", 1),
        "spell_mana_value_mean": mean("spell_mana_value"),
        "two_commander_share": round(
            sum(seat["commanders"] == 2 and not seat["piper_commanders"] for seat in seats) / decks, 3
        ),
        "piper_commander_share": round(sum(seat["piper_commanders"] > 0 for seat in seats) / decks, 3),
        "identity_sizes": {str(k): widths[k] for k in sorted(widths)},
    }


def _share(seats: Sequence[dict[str, Any]], part: str, whole: str) -> float | None:
    total = sum(seat.get(whole, 0) for seat in seats)
    return round(sum(seat.get(part, 0) for seat in seats) / total, 3) if total else None


def _pick_order(seats: Sequence[dict[str, Any]]) -> float | None:
    """The rank correlation of every graded card taken with how early it went (``reference.rank_correlation``)."""
    return reference.rank_correlation([pair for seat in seats for pair in seat.get("pick_order", ())])


def pod_figures(pod: Any) -> list[dict[str, Any]]:
    """``seat_figures`` for every seat of a ``PodResult``."""
    return [
        seat_figures(
            pod.draft.picks_of(seat.seat),
            seat.deck,
            seat.report.color_identity,
            seat.report.valid,
            [p.card for p in seat.pool],
        )
        for seat in pod.seats
    ]


TARGETS = {
    "weak_partner_over_strong_share": ("<=", 0.01),
    "strong_pick6_share": ("<=", 0.05),
    "mid_splash_share": ("<=", 0.02),
    "extra_legend_copy_decks": ("<=", 0),
    "benched_better_per_deck": ("<=", 0),
    "early_filler_over_good_share": ("<=", 0.03),
    "premium_pick6_share": ("<=", 0.05),
    "colorless_filler_per_deck": ("<=", 1.0),
    "filler_over_better_per_deck": ("<=", 0.1),
    "thin_color_share": ("<=", 0.01),
    "grade_ratio_mean": (">=", 0.97),
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
    """Each target of issues 23 and 33: met or not."""
    result = {}
    for key, (op, bound) in TARGETS.items():
        value = figures.get(key)
        if value is None:
            result[key] = True  # nothing taken: nothing to judge
        else:
            result[key] = value <= bound if op == "<=" else value >= bound
    return result
