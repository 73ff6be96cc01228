"""What a strong Commander-draft player checks in a built deck, as figures: the audits of tests/draft/test_deck_audits.py.

Each figure comes from a principle of deck building, not from the builder's own rules:

- the best legend leads: no unused legend of the pool, inside the deck's identity, rated a full point above every
  commander of the deck (a card in the command zone is there every game);
- 60-card decks play 22-26 lands (about 24-25, fewer with ramp), never more unless the pool has nothing else;
- a creature deck plays at most two board wipes (a third only when the rest of its pool is filler: it already plays
  a card below a playable common, rated under 1.4);
- a Background does nothing from the main deck beside a commander that isn't a creature or already has one, and
  little beside one that is: 0, or 1 at most;
- a commander's colored symbols need sources: about 10 for one symbol of a color, 12 for two, 14 for three.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from draft.commanders import commander_identity, commander_options
from draft.decks import Deck, is_piper
from draft.manabase import mana_sources
from draft.traits import card_rating, card_roles
from sets.cards import Card, CommanderAbility
from sets.colors import Color

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


def short_commander_sources(deck: Deck) -> list[tuple[str, int, int]]:
    """(color, symbols, sources) for each commander color with fewer sources than "about" its symbols want: one
    fewer than ``SOURCES_FOR_SYMBOLS``, and 8 for one symbol in a deck of three colors or more (three colors of 10
    sources each are more than 24 lands make without fixing)."""
    sources = mana_sources(deck)
    wide = len(commander_identity(deck.commanders, deck.piper_colors)) >= 3
    short = []
    for color, n in commander_symbols(deck).items():
        want = 8 if wide and n == 1 else SOURCES_FOR_SYMBOLS[min(n, 3)] - 1
        if sources.get(color.value, 0) < want:
            short.append((color.value, n, sources.get(color.value, 0)))
    return short


def cheap_ramp(deck: Deck) -> int:
    """Ramp spells (Treasure makers among them) of mana value 3 or less in the main deck."""
    return sum(n for card, n in deck.main.items() if "ramp" in card_roles(card) and card.mana_value <= 3)


def too_many_lands(deck: Deck) -> bool:
    """More than 26 lands, or more than 25 beside three cheap ramp spells (the lands they replace)."""
    return lands(deck) > MOST_LANDS - (cheap_ramp(deck) >= 3)


PLAYABLE = 1.4  # a card rated below this is filler (a playable common is about 1.5, draft/ratings.py)


def too_many_wipes(deck: Deck) -> bool:
    """More than two board wipes in a creature deck that had better cards than filler to play instead."""
    if wipes(deck) <= MOST_WIPES or creatures(deck) < CREATURE_DECK:
        return False
    return all(card_rating(card) >= PLAYABLE for card in deck.main if not card.is_land)


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
