"""Which legend leads, over 100 seeded CMM pods (800 decks) of the test fixture: a strong drafter leads with the
stronger legend, because a card in the command zone is there every game while the same card in the main deck is
1 of 59.  The figure is the strong drafter's: no deck leads with a legend a full rating point weaker than one of its
pool, in its colors, that could lead it (``deck_audit.weaker_lead``: alone, beside a legend, or beside a Piper that
gives the deck its second color), one in 400 allowed for a near-tie (a heavy legend and the sources it takes)."""

from __future__ import annotations

import functools
from collections.abc import Iterator

import draft.deckbuild
from draft.traits import card_rating
from sets.catalog import save_imported
from sets.importers import read_card_file
from tests.helpers import deck_audit
from tests.helpers.products import CMM_FILE

SEEDS = range(21, 121)  # the audits of tests/draft/test_deck_audits.py draft seeds 1-20
MOST_NEAR_TIES = 2  # of 800 decks


def drafted() -> Iterator[deck_audit.Seat]:
    """The audit's seats, pod by pod, as they are drafted and built."""
    for card_set in read_card_file(CMM_FILE).card_sets():
        save_imported(card_set)
    return deck_audit.seats("CMM", SEEDS)


def seats() -> list[deck_audit.Seat]:
    return list(drafted())


@functools.cache
def built() -> tuple[deck_audit.Seat, ...]:
    return tuple(seats())


def weaker_leads(found: tuple[deck_audit.Seat, ...] | list[deck_audit.Seat]) -> list[tuple[list[str], str]]:
    return [
        ([card.name for card in s.deck.commanders], better.name) for s in found if (better := deck_audit.weaker_lead(s))
    ]


def test_over_800_cmm_decks_the_stronger_legend_leads_rather_than_a_legend_a_full_point_weaker():
    # Before: 14 (Taigam, Sidisi's Hand led while Gonti, Lord of Luxury or Chainer, Dementia Master, a point better,
    # sat in the main deck: a Piper was thought to cost more than the stronger legend leading was worth).
    weaker = weaker_leads(built())
    assert len(weaker) <= MOST_NEAR_TIES, weaker


def test_a_stronger_mono_colored_legend_leads_beside_a_piper_rather_than_a_weak_gold_legend_alone():
    """CMM seed 29 seat 5 and seed 77 seat 8: Gonti (2.6) beside a Piper over Taigam (1.6) alone, Avacyn (3.6)
    beside a Piper over Gisela alone; the Piper costs the deck its 59th card, not the worth of leading the bomb."""
    decks = built()
    gonti, avacyn = decks[(29 - SEEDS[0]) * 8 + 4].deck, decks[(77 - SEEDS[0]) * 8 + 7].deck
    assert "Gonti, Lord of Luxury" in [card.name for card in gonti.commanders], gonti.commanders
    assert "Avacyn, Angel of Hope" in [card.name for card in avacyn.commanders], avacyn.commanders


def test_the_lead_audit_catches_a_builder_that_counts_a_commander_as_one_main_deck_card(monkeypatch):
    """The planted fault: a commander worth its rating and no more, as if it were 1 of 59 cards."""
    monkeypatch.setattr(draft.deckbuild, "leader_value", card_rating)
    weaker = []
    for seat in drafted():  # until ten times what the audit allows: the whole audit finds at least as many
        weaker += weaker_leads([seat])
        if len(weaker) >= 10 * MOST_NEAR_TIES:
            break
    assert len(weaker) >= 10 * MOST_NEAR_TIES, len(weaker)


def test_kodama_of_the_east_tree_leads_beside_a_piper_rather_than_tuya_bearclaw_alone():
    """CMR seed 321 seat 3 and seed 372 seat 5 (bundled, 8 seats): Kodama (3.4) sat in the main deck while Tuya
    Bearclaw (2.0) led alone, a near-tie in the builder's eyes (0.5 and 0.1) but not a strong drafter's."""
    for seed, seat in ((321, 3), (372, 5)):
        deck = list(deck_audit.seats("CMR", [seed]))[seat - 1].deck
        names = [card.name for card in deck.commanders]
        assert "Kodama of the East Tree" in names, (seed, seat, names)
