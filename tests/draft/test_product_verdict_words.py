"""The words a verdict on a CLB or CMM deck gives, checked against the rules they cite: Faceless One is both a
Background and a card that chooses one (CR 702.124k; MTG Wiki "Background": it can be a commander beside another
Background, or the Background of a legend that chooses one)."""

from __future__ import annotations

from draft.commanders import can_pair, why_not_paired
from draft.deck_rules import validate
from draft.decks import Deck
from draft.products import product
from sets.basics import basic_land
from sets.colors import Color
from tests.helpers.products import CLB


def test_faceless_one_beside_a_legend_without_the_ability_is_described_from_both_sides():
    faceless, astarion = CLB["Faceless One"], CLB["Astarion, the Decadent"]
    clb = product("CLB")
    # what the rule says (CR 702.124k): it pairs both ways, and not with a legend that lacks the ability
    assert can_pair(faceless, CLB["Veteran Soldier"], clb) and can_pair(
        CLB["Safana, Calimport Cutthroat"], faceless, clb
    )
    assert not can_pair(astarion, faceless, clb)
    said = why_not_paired(astarion, faceless, clb)
    assert 'Faceless One has "Choose a Background" and is a Background' in said, said
    assert 'or a card that has "Choose a Background" (CR 702.124k)' in said, said
    # never the words that deny one of its sides
    assert "it pairs only with a legendary Background enchantment (CR 702.124k)" not in said, said


def test_a_color_given_for_a_deck_whose_commanders_choose_none_says_no_commander_chooses_one():
    leaders = [CLB["Safana, Calimport Cutthroat"], CLB["Veteran Soldier"]]
    deck = Deck.build(leaders, {basic_land("W"): 29, basic_land("B"): 29})
    said = " | ".join(
        p.message
        for p in validate(deck, None, piper_colors=[Color.B], product=product("CLB")).problems
        if p.code == "piper-color-extra"
    )
    assert said.startswith("1 color given but no commander chooses a color (CR 903.4b)"), said
    assert "only 0" not in said, said
