"""Filler makes way for lands up to the 26th, fewer beside cheap ramp (it does a land's job).  A ramp card that is
filler itself (Impulsive Pilferer, a 1/1 that leaves a Treasure) is no reason to keep it over that land: a deck whose
spells past its good ones are all filler plays as many lands whether its filler makes Treasure or not.  Found over 10
seeded CMR pods: a red-green seat kept two Pilferers, two Scrounging Bandars and Makeshift Munitions at 24 lands, its
six cheap ramp spells (the Pilferers among them) holding the lands two below the 26th."""

from __future__ import annotations

from draft import deckbuild
from draft.deck_spells import FILLER, cheap_ramp
from draft.traits import card_traits
from sets.catalog import load_set


def _pool(filler_ramp: bool) -> list:
    """A red-green pool: its best legend, 26 spells worth playing (none of them ramp), and 10 filler spells, three of
    them Impulsive Pilferers (``filler_ramp``) or three filler creatures that make no mana."""
    cards = {c.name: c for c in load_set("CMR").cards}

    def best(test, count: int) -> list:
        found = [
            c
            for c in cards.values()
            if c.deck_colors.code in ("R", "G", "RG")
            and not c.is_land
            and not c.can_be_commander
            and not cheap_ramp(c)
            and "ramp" not in card_traits(c).roles
            and test(card_traits(c))
        ]
        return sorted(found, key=lambda c: (-card_traits(c).rating, c.name))[:count]

    legend = max(
        (c for c in cards.values() if c.can_be_commander and c.deck_colors.code == "RG"),
        key=lambda c: card_traits(c).rating,
    )
    good = best(lambda t: t.rating >= FILLER and "wipe" not in t.roles, 26)
    filler = best(lambda t: not t.creature and t.rating < FILLER, 7)
    pilferer = cards["Impulsive Pilferer"]
    assert cheap_ramp(pilferer) and card_traits(pilferer).rating < FILLER
    bodies = best(lambda t: t.creature and t.rating <= card_traits(pilferer).rating, 3)
    return [legend, *good, *filler, *([pilferer] * 3 if filler_ramp else bodies)]


def _lands(pool: list) -> int:
    return sum(n for card, n in deckbuild.build_deck(pool).main.items() if card.is_land)


def test_filler_ramp_keeps_no_filler_spell_over_a_land():
    plain = _lands(_pool(filler_ramp=False))
    assert plain == deckbuild.FILLER_LANDS  # the filler makes way for lands up to the 26th
    assert _lands(_pool(filler_ramp=True)) == plain
