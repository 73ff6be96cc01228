"""A spell whose cost holds {C} (Kozilek, the Great Distortion: {8}{C}{C}) is paid only by colorless mana: Wastes, or
a land or mana rock whose own ability adds {C}.  A basic land of a color never makes it, so a deck of colored basics
can't cast such a spell: it stays in the sideboard, and the judge doesn't count it a better card benched there."""

from __future__ import annotations

import pytest

from draft import reference
from draft.bots import PLAYABLE, Bot, BotStyle
from draft.cardtext import colorless_symbols, makes_colorless
from draft.deck_spells import COLORLESS_SOURCES
from draft.deckbuild import build_deck
from draft.engine import DraftConfig
from draft.picks import Pick
from draft.sim import piper_card, pod_seeds, run_pod
from draft.traits import card_rating, card_traits
from sets.basics import basic_land
from sets.booster import Printing
from sets.catalog import load_set
from sets.colors import Color
from tests.helpers.products import import_products


@pytest.fixture
def cmm(cli):
    import_products(cli)
    return load_set("CMM").cards


def _asks_colorless(card) -> bool:
    return "{C}" in (card.mana_cost or "")


def test_colorless_symbols_and_sources_are_read_from_costs_and_mana_abilities(cmm):
    kozilek = next(c for c in cmm if c.name == "Kozilek, the Great Distortion")
    assert colorless_symbols(kozilek) == 2
    assert colorless_symbols(next(c for c in cmm if c.mana_cost == "{3}")) == 0  # generic mana is no {C}
    assert makes_colorless(basic_land(""))  # Wastes
    assert not makes_colorless(basic_land("G"))


def test_a_deck_of_colored_basics_leaves_a_spell_that_asks_colorless_mana_in_the_sideboard(cmm):
    kozilek = next(c for c in cmm if c.name == "Kozilek, the Great Distortion")
    assert card_rating(kozilek) > 2.0  # a card the builder would play, could it be cast
    green = sorted(
        (c for c in cmm if not c.is_legendary and not c.is_land and card_traits(c).mask == Color.G.bit),
        key=lambda c: (-card_rating(c), c.name),
    )[:12]
    deck = build_deck([kozilek, *green * 3], piper_card("CMM"), "Planted", None)  # a pool holds copies
    assert kozilek not in deck.main and kozilek in deck.sideboard


def test_no_bot_deck_plays_a_spell_its_mana_cant_pay(cmm):
    # Before, 19 of these 160 Commander Masters decks played Kozilek (21 copies) among basics of their colors; now
    # none, and the judge counts no such card as benched.
    played = benched = 0
    for seed in pod_seeds(0, 20):
        for seat in run_pod(seed, DraftConfig(seats=8, set_code="CMM")).seats:
            main = list(seat.deck.main.elements())
            if any(makes_colorless(card) for card in main):
                continue
            played += sum(_asks_colorless(card) for card in main)
            side = list(seat.deck.sideboard.elements())
            found = reference.benched_better(main, side, seat.report.color_identity, seat.deck.commanders)
            benched += sum(_asks_colorless(card) for card, _ in found)
    assert played == 0 and benched == 0, (played, benched)


@pytest.mark.parametrize("style", list(BotStyle))
def test_a_bot_values_a_spell_asking_colorless_mana_by_the_colorless_sources_its_pool_holds(cmm, style):
    kozilek = next(c for c in cmm if c.name == "Kozilek, the Great Distortion")
    bare = Bot(style, 1)
    assert bare.score(kozilek, bare.plan(0.05), 0.05) < PLAYABLE  # no source: no card for its deck, nor a lead
    set_up = Bot(style, 1)
    set_up.remember([basic_land("")] * COLORLESS_SOURCES)  # Wastes: enough to cast it, as the builder counts
    assert set_up.score(kozilek, set_up.plan(0.05), 0.05) >= card_rating(kozilek)


def test_no_bot_takes_a_spell_asking_colorless_mana_early_without_a_colorless_source(cmm):
    # Before, the bots of these pods (10 of each style) took Kozilek, the Great Distortion at picks 1-5 24 times, each
    # into a pool without a source of colorless mana: their decks never played it.
    early = 0
    for seed in pod_seeds(0, 10):
        for style in BotStyle:
            pod = run_pod(seed, DraftConfig(seats=8, set_code="CMM"), styles=style)
            for seat in pod.seats:
                sources = 0
                for pick in pod.draft.picks_of(seat.seat):
                    cards = [printing.card for printing in pick.taken]
                    early += pick.pick <= 5 and not sources and any(colorless_symbols(card) for card in cards)
                    sources += sum(map(makes_colorless, cards))
    assert early == 0


def test_the_judge_counts_a_spell_asking_colorless_mana_strong_at_a_pick_only_for_a_pool_with_a_colorless_source(cmm):
    # A strong drafter passes Kozilek (graded 3.5, a threat, when it can be cast) until the pool can pay {C}: before,
    # the judge counted it a strong card let wheel and a good card passed for filler, whatever the pool.
    kozilek = next(c for c in cmm if c.name == "Kozilek, the Great Distortion")
    filler = next(c for c in cmm if reference.is_filler(c) and not c.is_land)
    wastes = basic_land("")

    def pick(number: int, offered: list, taken: list) -> Pick:
        return Pick(0, 1, number, tuple(map(Printing, offered)), tuple(map(Printing, taken)), ())

    passed = [pick(1, [kozilek, filler, filler], [filler, filler]), pick(6, [kozilek, filler], [kozilek, filler])]
    assert reference.strong_late_picks(passed) == (0, 0)
    assert reference.early_pick_faults(passed) == (2, 0)
    assert all(grade != reference.grade(kozilek) for grade, _ in reference.pick_order(passed))
    set_up = [pick(1, [wastes, kozilek, filler], [wastes, filler]), pick(6, [kozilek, filler], [kozilek, filler])]
    assert reference.strong_late_picks(set_up) == (1, 1)  # let wheel by a seat that could cast it
    assert reference.early_pick_faults(set_up[:1] + [pick(2, [kozilek, filler, filler], [filler, filler])]) == (3, 2)


def test_the_hint_says_a_spell_asking_colorless_mana_needs_its_sources_and_never_that_it_leads_or_fits_any_deck(cmm):
    """The hint's reason agrees with the bots' rule (before: "can lead a deck; colorless: fits any deck" for Kozilek
    into a pool of colored cards)."""
    from draft.hint import explain_pick

    kozilek = next(c for c in cmm if c.name == "Kozilek, the Great Distortion")
    other = next(c for c in cmm if c.mana_cost == "{3}" and not c.is_legendary)
    for pool, held in (([], 0), ([basic_land("")] * 2, 2)):  # no source, then two Wastes
        advice = explain_pick([kozilek, other], pool, count=2)
        (reason,) = [a.reason for a in advice.cards if a.card is kozilek]
        assert f"your pool holds {held} of the {COLORLESS_SOURCES} colorless sources a deck needs" in reason, reason
        assert "can lead" not in reason and "fits any deck" not in reason
