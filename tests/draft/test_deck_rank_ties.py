"""Of two pool cards the builder rates the same, at the same mana value, the one of fewer colored symbols ranks first
(``draft.deck_spells.rank_key``): it is the easier to cast, so it takes the last slot a curve leaves (Ulamog's
Crusher, {8}, over Avatar of Slaughter, {6}{R}{R}, both rated 1.5; before, the name broke the tie)."""

from __future__ import annotations

from draft.deck_spells import MAX_HEAVY, choose_spells, filler_value, rank_key
from draft.traits import card_traits
from tests.helpers.products import CMM


def test_of_two_cards_rated_alike_at_one_mana_value_the_fewer_colored_symbols_rank_first():
    cards = [card for card in CMM.values() if rank_key(card) is not None and not card.is_land]
    ties = 0
    for a in cards:
        for b in cards:
            same = filler_value(a) == filler_value(b) and a.mana_value == b.mana_value
            if same and sum(card_traits(a).symbols) < sum(card_traits(b).symbols):
                ties += 1
                assert rank_key(a) < rank_key(b), (a.name, b.name)
    assert ties  # the set holds such pairs


def test_the_last_heavy_slot_goes_to_the_card_easier_to_cast():
    crusher, avatar = CMM["Ulamog's Crusher"], CMM["Avatar of Slaughter"]
    assert filler_value(crusher) == filler_value(avatar) and crusher.mana_value == avatar.mana_value
    creatures = [card for card in CMM.values() if card.has_type("Creature") and rank_key(card) is not None]
    heavy = [card for card in creatures if card.mana_value >= 6 and filler_value(card) > filler_value(crusher)]
    assert len(heavy) >= MAX_HEAVY - 1
    # Heavy creatures better than both leave one slot: it goes to the first of the two as the builder ranks them.
    chosen = choose_spells(sorted([*heavy[: MAX_HEAVY - 1], avatar, crusher], key=rank_key), MAX_HEAVY)
    assert crusher in chosen and avatar not in chosen
