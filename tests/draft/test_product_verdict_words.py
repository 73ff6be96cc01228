"""The words a verdict on a CLB or CMM deck gives, checked against the rules they cite: Faceless One is both a
Background and a card that chooses one (CR 702.124k; MTG Wiki "Background": it can be a commander beside another
Background, or the Background of a legend that chooses one)."""

from __future__ import annotations

from draft.commanders import can_pair, why_not_paired
from draft.deck_rules import validate
from draft.decks import Deck, DeckFormat
from draft.products import product
from sets.basics import basic_land
from sets.colors import Color
from tests.helpers.products import CLB, CMM


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


def test_a_mono_colored_pair_refused_in_constructed_commander_names_no_draft_product():
    # The Commander Masters grant is its draft's rule: constructed Commander has none, and says so in its own name,
    # never as though the deck were a Commander Legends (CMR) draft deck.
    leaders = [CMM["Avacyn, Angel of Hope"], CMM["Azami, Lady of Scrolls"]]
    deck = Deck.build(leaders, {basic_land("W"): 49, basic_land("U"): 49})
    report = validate(deck, None, fmt=DeckFormat.COMMANDER, product=product("CMM"))
    said = " | ".join(p.message for p in report.problems if p.code == "illegal-pair")
    assert "constructed Commander grants mono-colored legends no partner" in said, said
    assert "(CMR)" not in said and "Commander Legends" not in said, said
    # the same pair in a CMR draft still names the product whose rules refuse it
    drafted = validate(Deck.build(leaders, {basic_land("W"): 29, basic_land("U"): 29}), None, product=product("CMR"))
    assert "Commander Legends (CMR) grants mono-colored legends no partner" in " | ".join(
        p.message for p in drafted.problems if p.code == "illegal-pair"
    )
