"""A spell rated at the filler line (``FILLER``) is worth just a land in a deck's value, so it is filler too where a
big spell the curve set aside waits: a real one (a sixth of mana value 6 or more) goes in before it.  Before, only a
spell rated under the line gave way: in seeded CLB pods (the suite's fixture) decks played a fourth and fifth Dream
Fracture (rated 1.4) while Draconic Lore or Ghastly Death Tyrant sat out, the judge's filler played over a better
card (commander-first 0.14 a deck, seed 0).  A board wipe past the two a creature deck plays still takes only the
place of filler rated under the line."""

from __future__ import annotations

from draft.deck_spells import FILLER, MAX_HEAVY, MAX_WIPES, choose_spells, rank_key
from draft.traits import card_traits
from tests.helpers.products import CLB


def _ranked(cards: list) -> list:
    return sorted(cards, key=rank_key)


def test_the_cards_are_planted_at_the_line_and_above_it():
    assert card_traits(CLB["Dream Fracture"]).rating == FILLER
    lore = card_traits(CLB["Draconic Lore"])
    assert lore.mana_value >= 6 and lore.rating > FILLER and "bomb" not in lore.roles and not lore.interaction
    weapon = card_traits(CLB["Breath Weapon"])
    assert "wipe" in weapon.roles and weapon.rating - FILLER >= 0.8


def test_a_big_spell_set_aside_for_the_curve_goes_in_before_a_spell_at_the_filler_line():
    big = [CLB["Draconic Lore"]] * (MAX_HEAVY + 1)
    cheap = [CLB["Aarakocra Sneak"]] * 14 + [CLB["Contact Other Plane"]] * 8
    line = [CLB["Dream Fracture"]] * 6
    count = MAX_HEAVY + len(cheap) + len(line)  # room for all but one: the sixth big spell or a Dream Fracture
    spells = choose_spells(_ranked(big + cheap + line), count)
    assert len(spells) == count
    assert spells.count(CLB["Draconic Lore"]) == MAX_HEAVY + 1  # before: five, and every Dream Fracture
    assert spells.count(CLB["Dream Fracture"]) == len(line) - 1


def test_a_board_wipe_past_the_cap_still_waits_beside_a_spell_at_the_filler_line():
    # A third wipe kills the deck's own creatures too: it does less than its rating in a creature deck, so it takes
    # only the slot of filler rated under the line (each pass over the deck would add one more: a seeded CLB seat of
    # 14 creatures played five Breath Weapons when a spell at the line gave way to wipes too).
    wipes = [CLB["Breath Weapon"]] * (MAX_WIPES + 1)
    bodies = [CLB["Aarakocra Sneak"]] * 16
    line = [CLB["Dream Fracture"]] * 6
    count = MAX_WIPES + len(bodies) + len(line)
    spells = choose_spells(_ranked(wipes + bodies + line), count)
    assert spells.count(CLB["Breath Weapon"]) == MAX_WIPES
    assert spells.count(CLB["Dream Fracture"]) == len(line)
