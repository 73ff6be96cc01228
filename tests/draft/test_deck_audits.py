"""Audits of the bots' decks over seeded pods of each product, by what a strong Commander-draft player expects
(tests/helpers/deck_audit.py says where each figure comes from); each audit is shown able to fail on a planted
fault.  CMR is bundled; CLB and CMM are the test fixtures, imported into the test's own data folder."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterator

import pytest

import draft.deck_spells
import draft.deckbuild
import draft.manabase
from draft.traits import card_rating
from sets.catalog import save_imported
from sets.importers import read_card_file
from tests.helpers import deck_audit
from tests.helpers.products import CLB_FILE, CMM_FILE

SEEDS = range(1, 21)
PRODUCTS = ["CMR", "CLB", "CMM"]


def drafted(code: str) -> Iterator[deck_audit.Seat]:
    """The audits' seats of the product, pod by pod, as they are drafted and built."""
    if code != "CMR":
        for card_set in read_card_file(CLB_FILE if code == "CLB" else CMM_FILE).card_sets():
            save_imported(card_set)
    return deck_audit.seats(code, SEEDS)


def seats(code: str) -> list[deck_audit.Seat]:
    return list(drafted(code))


def caught(code: str, fault: Callable[[deck_audit.Seat], object], enough: int) -> list[deck_audit.Seat]:
    """The seats an audit catches with a fault planted, drafted until ``enough`` are (each seat is caught or not on
    its own, so the whole audit would catch at least as many): a planted fault needs no more pods to show it."""
    found = []
    for seat in drafted(code):
        if fault(seat):
            found.append(seat)
            if len(found) >= enough:
                break
    return found


@functools.cache
def built(code: str) -> tuple[deck_audit.Seat, ...]:
    """``seats(code)`` as the code stands, drafted once for every audit of the product (a planted fault drafts anew)."""
    return tuple(seats(code))


@pytest.mark.parametrize("code", PRODUCTS)
def test_no_deck_leads_with_a_legend_a_full_point_weaker_than_an_unused_one_that_could_lead(code):
    weaker = [(s.deck.commanders, found) for s in built(code) if (found := deck_audit.weaker_lead(s))]
    assert not weaker, weaker


def test_the_lead_audit_catches_a_builder_that_leads_with_its_weakest_legend(monkeypatch):
    """The planted fault: a commander counts as little as its rating is high, so the best legend goes in the main deck
    (or the sideboard) while a weaker one leads."""
    monkeypatch.setattr(draft.deckbuild, "leader_value", lambda card: -card_rating(card))
    weaker = caught("CMR", deck_audit.weaker_lead, 10)
    assert len(weaker) >= 10, len(weaker)


@pytest.mark.parametrize("code", PRODUCTS)
def test_decks_play_22_to_26_lands_and_no_more_than_25_beside_three_cheap_ramp_spells(code):
    counts = [deck_audit.lands(s.deck) for s in built(code)]
    over = [s.deck.commanders for s in built(code) if deck_audit.too_many_lands(s.deck)]
    assert min(counts) >= 22 and not over, (sorted(counts), over)
    # About 24-25 is the norm (the fixtures' cards, facts only, make low curves: a few decks play 22).
    assert 23 <= sorted(counts)[len(counts) // 2] <= 25 and sum(23 <= n <= 26 for n in counts) >= 0.8 * len(counts)


def test_the_land_audit_catches_filler_lands_up_to_the_27th_whatever_the_ramp(monkeypatch):
    """The planted fault: the old filler-to-land loop, up to 27 lands and blind to ramp."""
    monkeypatch.setattr(draft.deckbuild, "FILLER_LANDS", 27)
    monkeypatch.setattr(draft.deckbuild, "filler_ramp_cut", lambda spells: 0)
    over = caught("CMR", lambda s: deck_audit.too_many_lands(s.deck), 20)
    assert len(over) >= 20, len(over)


@pytest.mark.parametrize("code", PRODUCTS)
def test_no_background_in_a_main_deck_beside_a_noncreature_or_paired_commander_and_one_at_most_else(code):
    over = [s.deck for s in built(code) if deck_audit.main_backgrounds(s.deck) > deck_audit.backgrounds_allowed(s.deck)]
    assert not over, [(d.commanders, deck_audit.main_backgrounds(d)) for d in over]


def test_the_background_audit_catches_a_builder_blind_to_cards_that_reach_only_commanders(monkeypatch):
    """The planted fault: Backgrounds taken as main-deck spells like any card (1.85 a CLB deck before)."""
    monkeypatch.setattr(draft.deck_spells, "commander_only", lambda card: False)
    over = caught("CLB", lambda s: deck_audit.main_backgrounds(s.deck) > deck_audit.backgrounds_allowed(s.deck), 20)
    assert len(over) >= 20, len(over)


TEXTS = {
    # A Background, and an enchantment that is none but grants only to commanders: all they do reaches commanders.
    (
        "Legendary Enchantment — Background",
        "Commander creatures you own get +3/+3 and have flying, deathtouch, and "
        '"At the beginning of your upkeep, sacrifice a creature."',
    ): True,
    ("Enchantment", 'Commander creatures you own have "Whenever this creature attacks, draw a card."'): True,
    # Cards that name commanders but do something on their own (Cloudkill, Bane's Contingency, Campfire).
    (
        "Sorcery",
        "All creatures get -X/-X until end of turn, where X is the greatest mana value of a commander you "
        "own on the battlefield or in the command zone.",
    ): False,
    (
        "Instant",
        "Counter target spell. If that spell targets a commander you control, instead counter that spell, "
        "scry 2, then draw a card.",
    ): False,
    (
        "Artifact",
        "{1}, {T}: You gain 2 life.\n{2}, {T}, Exile Campfire: Put all commanders you own from the command "
        "zone and from your graveyard into your hand.",
    ): False,
    # A creature is a body in any deck, whatever it grants.
    ("Creature — Human", 'Commander creatures you own have "Ward {2}."'): False,
}


def test_a_card_reaches_only_commanders_when_every_sentence_of_its_text_is_about_them(tmp_path):
    from draft.cardtext import commander_only
    from tests.helpers.cardfiles import mtgjson_card
    from tests.helpers.cardfiles import write as write_file

    cards = [
        mtgjson_card(f"c{n}", f"Card {n}", str(n + 1), "{1}{W}", type_, text, "W", power="2", toughness="2")
        for n, (type_, text) in enumerate(TEXTS)
    ]
    data = {"meta": {}, "data": {"code": "TXT", "name": "Texts", "cards": cards}}
    card_set = next(iter(read_card_file(write_file(tmp_path, "TXT.json", data)).card_sets()))
    found = {card.name: commander_only(card) for card in card_set.cards}
    assert [found[f"Card {n}"] for n in range(len(TEXTS))] == list(TEXTS.values())


@pytest.mark.parametrize("code", ["CMR", "CLB"])  # the CMM fixture's cards, facts only, hold no wipe
def test_a_creature_deck_plays_at_most_two_board_wipes(code):
    over = [s.deck for s in built(code) if deck_audit.too_many_wipes(s.deck)]
    assert not over, [(d.commanders, deck_audit.wipes(d), deck_audit.creatures(d)) for d in over]


def test_the_wipe_audit_catches_a_builder_that_plays_every_wipe(monkeypatch):
    """The planted fault: the old rule, every wipe rated 1.8 or more in first, no cap (a deck whose other cards ran
    out plays its third wipe in place of filler: a fault only where a card worth playing sat out, 9 of CLB's 160 decks
    and 4 of CMR's with the fault planted)."""
    monkeypatch.setattr(draft.deck_spells, "MAX_WIPES", 99)
    over = caught("CLB", lambda s: deck_audit.too_many_wipes(s.deck), 10)
    over += caught("CMR", lambda s: deck_audit.too_many_wipes(s.deck), 10 - len(over)) if len(over) < 10 else []
    assert len(over) >= 10, len(over)


@pytest.mark.parametrize("code", PRODUCTS)
def test_each_commander_color_has_about_10_12_or_14_sources_by_its_symbols(code):
    short = [(s.deck.commanders, found) for s in built(code) if (found := deck_audit.short_commander_sources(s.deck))]
    assert not short, short


def test_the_source_audit_catches_a_mana_base_blind_to_a_commanders_symbols(monkeypatch):
    """The planted fault: the old rule, 8 sources for a commander's color whatever its symbols, basics split by the
    spells' symbols alone."""
    monkeypatch.setattr(draft.manabase, "COMMANDER_SOURCES", (0, 8, 8, 8))
    monkeypatch.setattr(draft.manabase, "COMMANDER_SYMBOL_WEIGHT", 0)
    short = caught("CMM", lambda s: deck_audit.short_commander_sources(s.deck), 10)
    assert len(short) >= 10, len(short)


def test_the_source_audit_counts_sources_apart_from_the_mana_base_and_catches_equipment_taken_for_mana_rocks(
    monkeypatch,
):
    """The planted fault: the mana base takes every noncreature artifact of mana value 3 or less (Equipment among
    them) for a rock of any color, and so plays fewer basics.  ``draft.manabase.mana_sources`` reads the same traits
    and agrees with it; the audit counts sources by the cards' printed mana (``deck_audit.colors_made``)."""
    real = draft.manabase.card_traits

    def traits(card):
        found = real(card)
        if card.has_type("Artifact") and not card.has_type("Creature") and card.mana_value <= 3:
            return dataclasses.replace(found, source=True, fixing=True, mask=0)
        return found

    monkeypatch.setattr(draft.manabase, "card_traits", traits)
    short = [(s.deck, found) for s in seats("CLB") if (found := deck_audit.short_commander_sources(s.deck))]
    assert len(short) >= 10, len(short)
    # The mana base's own count sees more sources of each short color than the cards make.
    assert all(draft.manabase.mana_sources(d)[color] > n for d, found in short for color, _, n in found)
