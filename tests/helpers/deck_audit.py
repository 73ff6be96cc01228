"""What a strong Commander-draft player checks in a built deck, as figures: the audits of tests/draft/test_deck_audits.py.

Each figure comes from a principle of deck building, not from the builder's own rules:

- the best legend leads: no unused legend of the pool, inside the deck's identity, rated a full point above every
  commander of the deck (a card in the command zone is there every game);
- 60-card decks play 22-26 lands (about 24-25, fewer with ramp), never more unless the pool has nothing else;
- a creature deck plays at most two board wipes (a third only in place of filler: while no card worth playing, rated
  a playable common's 1.4 or more, of the deck's colors sits in its sideboard, or it still plays filler);
- a Background does nothing from the main deck beside a commander that isn't a creature or already has one, and
  little beside one that is: 0, or 1 at most;
- a commander's colored symbols need sources: about 10 for one symbol of a color, 12 for two, 14 for three (8 for
  one symbol in a deck of three colors or more), counted here from the cards' printed mana abilities
  (``colors_made``), not by the builder's ``draft.manabase``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from draft.commanders import commander_identity, commander_options
from draft.decks import Deck, is_piper
from draft.traits import card_rating, card_roles
from sets.cards import Card, CommanderAbility
from sets.colors import Color
from sets.identity import BASIC_LAND_TYPES

BETTER_LEGEND = 1.0  # rating points: a legend this much better than every commander should lead
MOST_LANDS = 26
MOST_WIPES = 2  # in a deck of creatures
CREATURE_DECK = 12  # creatures that make a deck a creature deck
SOURCES_FOR_SYMBOLS = {1: 10, 2: 12, 3: 14}  # a commander's symbols of one color: the sources a 60-card deck wants


def is_background(card: Card) -> bool:
    return CommanderAbility.BACKGROUND in card.abilities and not card.can_be_commander


@dataclass(frozen=True)
class Seat:
    pool: Sequence[Card]
    deck: Deck
    piper: Card | None = None


def seats(product: str, seeds: Sequence[int], seats_per_pod: int = 8) -> Iterator[Seat]:
    """Every seat of seeded pods of bots in a product already loaded (CMR bundled, CLB/CMM imported)."""
    from draft.engine import DraftConfig
    from draft.sim import piper_card, run_pod

    piper = piper_card(product)
    for seed in seeds:
        for seat in run_pod(seed, DraftConfig(seats=seats_per_pod, set_code=product)).seats:
            yield Seat([p.card for p in seat.pool], seat.deck, piper)


def weaker_lead(seat: Seat, piper: Card | None = None) -> Card | None:
    """An unused legend of the pool, inside the deck's identity, rated ``BETTER_LEGEND`` above every commander, that
    could lead the deck's colors (alone, or beside a card it may lead with: the rules' ``commander_options``)."""
    deck = seat.deck
    identity = commander_identity(deck.commanders, deck.piper_colors)
    could_lead = {
        card
        for leaders, colors in commander_options(seat.pool, piper or seat.piper)
        if identity <= commander_identity(leaders, colors)
        for card in leaders
    }
    leading = [card_rating(c) for c in deck.commanders if not is_piper(c)]
    best = max(leading, default=0.0)
    used = Counter(c.name for c in deck.commanders)
    for card in seat.pool:
        if used[card.name]:
            used[card.name] -= 1
            continue
        if card in could_lead and not is_piper(card) and card.identity <= identity:
            if card_rating(card) >= best + BETTER_LEGEND:
                return card
    return None


def lands(deck: Deck) -> int:
    return sum(n for card, n in deck.main.items() if card.is_land)


def wipes(deck: Deck) -> int:
    return sum(n for card, n in deck.main.items() if "wipe" in card_roles(card))


def creatures(deck: Deck) -> int:
    return sum(n for card, n in deck.main.items() if card.has_type("Creature"))


def main_backgrounds(deck: Deck) -> int:
    return sum(n for card, n in deck.main.items() if is_background(card))


def backgrounds_allowed(deck: Deck) -> int:
    """0 beside no creature commander or one that already has a Background, else 1."""
    creature = any(c.has_type("Creature") for c in deck.commanders)
    paired = any(is_background(c) for c in deck.commanders)
    return 1 if creature and not paired else 0


def commander_symbols(deck: Deck) -> dict[Color, int]:
    """The most colored symbols of each color in one commander's (front face's) cost."""
    most: dict[Color, int] = {}
    for card in deck.commanders:
        try:
            cost = card.front.cost
        except ValueError:
            continue
        for color in Color:
            if cost.count(color):
                most[color] = max(most.get(color, 0), cost.count(color))
    return most


ANY = "WUBRG"  # a source of any color (or of the commander's identity, or that fetches any basic land)
# What the nonbasic lands and cheap mana rocks of the audited products tap for, by their printed mana abilities (the
# bundled CMR cards and the CLB/CMM fixtures carry no rules text).  Not sources: Command Beacon, Guildless Commons,
# War Room, Seer's Lantern, Thought Vessel, Ashnod's Altar (colorless only), Jeweled Lotus (sacrificed, for the
# commander once) and Armillary Sphere (a spell that puts basics in hand, not a mana ability).
MANA_MADE = {
    **dict.fromkeys(
        [
            "Arcane Signet",  # {T}: Add one mana of any color in your commander's color identity.
            "Commander's Sphere",
            "Command Tower",
            "Opal Palace",  # {1}, {T}: Add one mana of any color in your commander's color identity.
            "Path of Ancestry",
            "Rupture Spire",  # {T}: Add one mana of any color.
            "Prophetic Prism",  # {1}, {T}: Add one mana of any color.
            "Decanter of Endless Water",
            "Bonder's Ornament",
            "Chromatic Lantern",
            "Darksteel Ingot",
            "Terramorphic Expanse",  # sacrificed for a basic land card onto the battlefield
        ],
        ANY,
    ),
    **{f"{name} Diamond": color for name, color in [("Marble", "W"), ("Sky", "U"), ("Charcoal", "B"), ("Fire", "R")]},
    "Moss Diamond": "G",
    "Carnelian Orb of Dragonkind": "R",
    "Vault of Champions": "WB",
    "Training Center": "UR",
    "Undergrowth Stadium": "BG",
    "Spectator Seating": "RW",
    "Rejuvenating Springs": "GU",
}
_ADD = re.compile(r"\bAdd\b([^.]*)")
_ANY_COLOR = re.compile(r"any (?:one )?colou?r|chosen colou?r")


def colors_made(card: Card) -> str:
    """The color letters of mana a source makes, from the card's facts: a basic land type its color; a nonbasic land
    or a noncreature artifact of mana value 3 or less what its printed mana abilities add (``MANA_MADE``, or read
    from its rules text when it carries some: the symbols of an "Add" and every color for "any color"; a one-shot
    "Sacrifice ...: Add" makes no source).  Anything else makes none."""
    types = "".join(BASIC_LAND_TYPES[t].value for t in card.front.subtypes if t in BASIC_LAND_TYPES)
    if types or not (card.is_land or (card.has_type("Artifact") and not card.has_type("Creature"))):
        return types
    if not card.is_land and card.mana_value > 3:
        return ""
    if card.name in MANA_MADE:
        return MANA_MADE[card.name]
    made = ""
    for line in re.sub(r"\([^)]*\)", "", "\n".join(face.text for face in card.faces)).splitlines():
        if "Sacrifice" in line.split("Add")[0]:
            continue  # a one-shot: no source
        for added in _ADD.findall(line):
            made += ANY if _ANY_COLOR.search(added) else "".join(c.value for c in Color if f"{{{c.value}}}" in added)
    if card.is_land and re.search(r"[Ss]earch your library for [^.]*basic land", "\n".join(f.text for f in card.faces)):
        made += ANY
    return "".join(c.value for c in Color if c.value in made)


def color_sources(deck: Deck) -> Counter[Color]:
    """Sources of each color in the main deck (``colors_made``), counted independently of ``draft.manabase``."""
    counted: Counter[Color] = Counter()
    for card, n in deck.main.items():
        for letter in colors_made(card):
            counted[Color(letter)] += n
    return counted


def short_commander_sources(deck: Deck) -> list[tuple[str, int, int]]:
    """(color, symbols, sources) for each commander color with fewer sources (``color_sources``) than its symbols
    want: ``SOURCES_FOR_SYMBOLS``, and 8 for one symbol in a deck of three colors or more (three colors of 10
    sources each are more than 24 lands make without fixing).

    The one tolerance: a basic land is a source of one color, so when the commander colors' wants add up to more
    than the deck's lands (Avacyn's three white symbols and Gonti's two black ones want 14 + 12 from 25 lands) a
    color may fall short by that excess, no more."""
    sources = color_sources(deck)
    wide = len(commander_identity(deck.commanders, deck.piper_colors)) >= 3
    wants = {
        color: 8 if wide and n == 1 else SOURCES_FOR_SYMBOLS[min(n, 3)] for color, n in commander_symbols(deck).items()
    }
    excess = max(0, sum(wants.values()) - lands(deck))
    symbols = commander_symbols(deck)
    return [
        (color.value, symbols[color], sources[color]) for color, want in wants.items() if sources[color] < want - excess
    ]


def cheap_ramp(deck: Deck) -> int:
    """Ramp spells (Treasure makers among them) of mana value 3 or less in the main deck, filler aside: a ramp card
    rated under a playable common (a 1/1 that leaves a Treasure) does a land's job worse than the land."""
    return sum(
        n
        for card, n in deck.main.items()
        if "ramp" in card_roles(card) and card.mana_value <= 3 and card_rating(card) >= PLAYABLE
    )


def too_many_lands(deck: Deck) -> bool:
    """More than 26 lands, or more than 25 beside three cheap ramp spells (the lands they replace)."""
    return lands(deck) > MOST_LANDS - (cheap_ramp(deck) >= 3)


PLAYABLE = 1.4  # a card rated below this is filler (a playable common is about 1.5, draft/ratings.py)


def too_many_wipes(deck: Deck) -> bool:
    """More than two board wipes in a creature deck that had better cards than filler to play instead: it plays no
    filler, and a card worth playing of its colors (no wipe, no Background, no copy of a legend it already plays
    twice) sits out."""
    if wipes(deck) <= MOST_WIPES or creatures(deck) < CREATURE_DECK:
        return False
    if any(card_rating(card) < PLAYABLE for card in deck.main if not card.is_land):
        return False
    identity = commander_identity(deck.commanders, deck.piper_colors)
    played = Counter(card.name for card in [*deck.commanders, *deck.main.elements()])
    return any(
        card.identity <= identity
        and not card.is_land
        and not is_piper(card)
        and "wipe" not in card_roles(card)
        and not is_background(card)
        and not (card.is_legendary and played[card.name] >= 2)
        and card_rating(card) >= PLAYABLE
        for card in deck.sideboard
    )


LIGHT_SHARE = 1 / 3  # a color with less than this share of the spells' colored symbols is the deck's light one


def heavy_in_light_color(deck: Deck) -> list[str]:
    """Colors in which a commander has two or more symbols while the main deck's spells show less than
    ``LIGHT_SHARE`` of their colored symbols in it (a deck of two colors or more)."""
    identity = commander_identity(deck.commanders, deck.piper_colors)
    if len(identity) < 2:
        return []
    shown: Counter[Color] = Counter()
    for card, n in deck.main.items():
        if card.is_land:
            continue
        try:
            cost = card.front.cost
        except ValueError:
            continue
        for color in identity:
            shown[color] += n * cost.count(color)
    total = sum(shown.values())
    return [
        color.value
        for color, symbols in commander_symbols(deck).items()
        if symbols >= 2 and total and shown[color] < LIGHT_SHARE * total
    ]
