"""The words a verdict on a CLB or CMM deck gives, checked against the rules they cite: Faceless One is both a
Background and a card that chooses one (CR 702.124k; MTG Wiki "Background": it can be a commander beside another
Background, or the Background of a legend that chooses one)."""

from __future__ import annotations

import json

from draft.commanders import can_pair, why_not_paired
from draft.deck_rules import validate
from draft.decks import Deck, DeckFormat
from draft.formats import parse, resolve
from draft.products import product
from sets.basics import basic_land
from sets.card_index import card_index
from sets.colors import Color
from tests.helpers.decks import fixture
from tests.helpers.products import CLB, CMM, import_products


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


def test_two_mono_colored_legends_with_partner_abilities_that_dont_combine_are_refused_by_those_alone():
    # Each has a partner ability of its own, of kinds that never combine (CR 702.124f): that is the whole reason, and
    # no product's grant for legends without one is named, as though it were missing.
    wil = fixture("Wil", "Legendary Creature — Human Noble", "Friends forever", "{1}{W}")
    akroma = fixture("Akroma", "Legendary Creature — Angel", "Partner", "{2}{W}")
    said = why_not_paired(wil, akroma, product("CMR"))
    assert said.endswith("different partner abilities never combine (CR 702.124f)"), said
    assert "grants" not in said, said
    # a legend with none beside one with partner still hears that no grant pairs mono-colored legends here
    ayula = fixture("Ayula", "Legendary Creature — Bear", "", "{1}{G}")
    assert "grants mono-colored legends no partner" in why_not_paired(ayula, akroma, product("CMR"))


def test_a_card_of_a_product_not_imported_is_named_with_the_set_to_download():
    """A store pastes a CLB or CMM deck before importing that set: each name no loaded set knows, but the product's
    draft boosters print, says which set to download, rather than guessing at look-alike CMR names."""
    text = "1 Safana, Calimport Cutthroat\n1 Avacyn, Angel of Hope\n1 Murdr\n1 Murder\n"
    deck, problems = resolve(parse(text), card_index(["CMR"]))
    assert [line.card.name for line in deck.lines] == ["Murder"]
    said = [p.message for p in problems if p.code == "unknown-card"]
    assert said[0] == (
        "line 1: unknown card 'Safana, Calimport Cutthroat' (a Commander Legends: Battle for Baldur's Gate card: "
        "CLB isn't imported; 'cmdraft sets download CLB' adds it)"
    )
    assert said[1].endswith("(a Commander Masters card: CMM isn't imported; 'cmdraft sets download CMM' adds it)")
    assert "did you mean 'Murder'" in said[2] and "sets download" not in said[2]


def test_a_card_of_an_imported_product_is_read(cli):
    import_products(cli)
    deck, problems = resolve(parse("1 Safana, Calimport Cutthroat\n1 Avacyn, Angel of Hope\n"), card_index())
    assert [line.card.name for line in deck.lines] == ["Safana, Calimport Cutthroat", "Avacyn, Angel of Hope"]
    assert not problems


def test_deck_check_names_the_product_whose_rules_it_applied(cli, tmp_path):
    """A verdict on a pair depends on the product (the CMM grant): the report says which product's rules gave it,
    with a pool as without one; constructed Commander has no product."""
    import_products(cli)
    leaders = ["Avacyn, Angel of Hope", "Azami, Lady of Scrolls"]
    deck = tmp_path / "deck.txt"
    deck.write_text("Commander\n" + "".join(f"1 {name}\n" for name in leaders) + "\nDeck\n29 Plains\n29 Island\n")
    pool = tmp_path / "pool.txt"
    pool.write_text("".join(f"1 {name}\n" for name in leaders))
    for extra in ((), ("--pool", str(pool))):
        shown = cli("deck", "check", deck, *extra)
        assert shown.exit_code == 0 and "Product         CMM (Commander Masters)" in shown.stdout, shown.output
        assert json.loads(cli("deck", "check", deck, "--json", *extra).stdout)["product"] == "CMM"
    refused = cli("deck", "check", deck, "--product", "CMR", "--pool", pool, "--json")
    assert refused.exit_code == 1 and json.loads(refused.stdout)["product"] == "CMR"
    constructed = cli("deck", "check", deck, "--format", "commander")
    assert "Product" not in constructed.stdout
    assert json.loads(cli("deck", "check", deck, "--format", "commander", "--json").stdout)["product"] is None


def test_an_added_faceless_one_in_the_main_deck_is_said_plainly():
    abdel, faceless = CLB["Abdel Adrian, Gorion's Ward"], CLB["Faceless One"]
    deck = Deck.build([abdel], {faceless: 1, basic_land("W"): 58})
    report = validate(deck, {abdel: 1}, product=product("CLB"))
    said = " | ".join(p.message for p in report.problems if p.code == "piper-not-commander")
    assert said.startswith(
        "1 Faceless One in the main deck is not from your pool, and a Faceless One isn't a commander there: Faceless "
        "Ones added after the draft must be commanders (CR 903.13e as the CLB draft applies it to Faceless One)"
    ), said
