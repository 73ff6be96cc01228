"""The deck builder's stats warn a player at the same source counts the bots' deck builder builds to (docs/bots.md):
10, 12 or 14 sources for one, two or three of a commander's colored symbols of a color (8 for one in a deck of three
colors), 6 for a color only the spells show, and nothing for an identity color nothing in the deck casts."""

from __future__ import annotations

import pytest

from draft.decks import Deck, DeckLine, Zone
from draft.deckstats import deck_stats
from sets.basics import basic_land
from sets.catalog import load_set
from sets.colors import Color, ColorIdentity


@pytest.fixture(scope="module")
def cmr():
    return {c.name: c for c in load_set("CMR")}


def spells_of(cmr, letter: str, count: int) -> list:
    """``count`` nonlegendary spells of exactly this one color, none of them making mana."""
    return [
        c
        for c in sorted(cmr.values(), key=lambda c: c.name)
        if c.deck_colors.code == letter and not c.can_be_commander and not c.is_land and not c.has_type("Artifact")
    ][:count]


def stats_of(leaders, spells, basics: dict[str, int], identity: ColorIdentity | None = None):
    lines = [DeckLine(leader, 1, Zone.COMMANDER) for leader in leaders]
    lines += [DeckLine(card, 1, Zone.MAIN) for card in spells]
    lines += [DeckLine(basic_land(letter), n, Zone.MAIN) for letter, n in basics.items() if n]
    deck = Deck(tuple(lines))
    if identity is None:
        identity = leaders[0].identity
        for leader in leaders[1:]:
            identity |= leader.identity
    return deck_stats(deck, identity)


def short(stats) -> list[str]:
    return [line.split()[0] for line in stats.warnings]


def test_a_commanders_two_symbols_of_a_color_want_12_sources(cmr):
    sengir = cmr["Sengir, the Dark Baron"]  # {4}{B}{B}
    spells = spells_of(cmr, "B", 34)
    assert short(stats_of([sengir], spells, {"B": 11})) == ["black"]
    assert "12 wanted" in stats_of([sengir], spells, {"B": 11}).warnings[0]
    assert short(stats_of([sengir], spells, {"B": 12})) == []


def test_one_symbol_wants_10_sources_in_two_colors_and_8_in_three(cmr):
    pair = [cmr["Sakashima of a Thousand Faces"], cmr["Ghost of Ramirez DePietro"]]  # {3}{U}, {2}{U}: blue only
    assert pair[0].identity.code == "U" and pair[1].identity.code == "U"
    zur = cmr["Zur the Enchanter"]  # {1}{W}{U}{B}
    spells = spells_of(cmr, "W", 10) + spells_of(cmr, "U", 10) + spells_of(cmr, "B", 10)
    assert short(stats_of([zur], spells, {"W": 8, "U": 8, "B": 8})) == []
    assert short(stats_of([zur], spells, {"W": 7, "U": 8, "B": 8})) == ["white"]
    blue = spells_of(cmr, "U", 30)
    assert short(stats_of(pair, blue, {"U": 9})) == ["blue"]
    assert short(stats_of(pair, blue, {"U": 10})) == []


def test_a_color_only_the_spells_show_wants_6_and_one_nothing_casts_wants_none(cmr):
    akroma = cmr["Akroma, Vision of Ixidor"]  # {5}{W}{W}: two white symbols, 12 sources
    white, red = spells_of(cmr, "W", 27), spells_of(cmr, "R", 3)
    identity = ColorIdentity.of([Color.W, Color.R, Color.G])  # as with a red and a green Piper beside her
    assert short(stats_of([akroma], white + red, {"W": 12, "R": 6}, identity)) == []  # green: nothing casts it
    assert short(stats_of([akroma], white + red, {"W": 12, "R": 5}, identity)) == ["red"]


def test_a_deck_of_mostly_lands_is_warned_in_words_true_of_every_product(cmr):
    """A pool short of spells in the commanders' colors is filled with basics: the warning says more colors give
    more spells without naming a CMR card (a CLB night adds Faceless One, not a Piper)."""
    leader = next(c for _, c in sorted(cmr.items()) if c.can_be_commander and c.deck_colors.code == "G")
    stats = stats_of([leader], spells_of(cmr, "G", 10), {"G": 49})
    assert stats.lands_warning.startswith("49 lands and 10 spells: a deck plays 22-26 lands")
    assert "Piper" not in stats.lands_warning and "partner" not in stats.lands_warning


def test_a_deck_of_lands_and_one_spell_says_one_spell(cmr):
    """A phone's deck of 70 Plains and a single spell read "70 lands and 1 spells"."""
    leader = next(c for _, c in sorted(cmr.items()) if c.can_be_commander and c.deck_colors.code == "G")
    stats = stats_of([leader], spells_of(cmr, "G", 1), {"G": 70})
    assert stats.lands_warning.startswith("70 lands and 1 spell: a deck plays 22-26 lands")
