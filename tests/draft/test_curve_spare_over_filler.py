"""A deck plays about five cards of six mana or more while cheaper ones are left: a sixth big spell waits.  But
filler (a card rated under ``FILLER``, no better than a land) is no cheaper card worth the slot: a real big spell set
aside for the curve goes in before it.  Found over 10 seeded CMR pods: a blue-black seat played Siren Stormtamer,
Omenspeaker and Viscera Seer while Prying Eyes sat out for its curve, and blue seats benched Scrapdiver Serpent for
Perilous Myr."""

from __future__ import annotations

from draft import deckbuild
from draft.deck_spells import FILLER, MAX_HEAVY
from draft.traits import card_traits
from sets.catalog import load_set


def _pool() -> tuple[list, list]:
    """A blue-black pool: its best legend, six big spells (mana value 6 or more, none removal, wipe or bomb), 22
    cheaper spells worth playing and 10 filler spells; and the big spells."""
    cards = {c.name: c for c in load_set("CMR").cards}

    def fitting(test) -> list:
        found = [
            c
            for c in cards.values()
            if c.deck_colors.code in ("U", "B", "UB") and not c.is_land and not c.can_be_commander
            if test(card_traits(c))
        ]
        return sorted(found, key=lambda c: (-card_traits(c).rating, c.name))

    legend = max(
        (c for c in cards.values() if c.can_be_commander and c.deck_colors.code == "UB"),
        key=lambda c: card_traits(c).rating,
    )
    plain = {"removal", "wipe", "bomb", "ramp"}
    big = fitting(lambda t: t.mana_value >= 6 and t.rating >= FILLER and not plain & set(t.roles))[: MAX_HEAVY + 1]
    cheap = fitting(lambda t: t.mana_value < 6 and t.rating >= FILLER and not plain & set(t.roles))[:22]
    filler = fitting(lambda t: t.mana_value < 6 and t.rating < FILLER and not plain & set(t.roles))[:10]
    return [legend, *big, *cheap, *filler], big


def test_a_big_spell_set_aside_for_the_curve_goes_in_before_filler():
    pool, big = _pool()
    assert len(big) == MAX_HEAVY + 1 and card_traits(big[-1]).rating < FILLER + 0.8  # only a little above filler
    deck = deckbuild.build_deck(pool)
    filler = [c for c in deck.main if not c.is_land and card_traits(c).rating < FILLER]
    assert filler, "the pool is thin enough that the deck plays filler"
    assert all(card in deck.main for card in big), [c.name for c in big if c not in deck.main]
