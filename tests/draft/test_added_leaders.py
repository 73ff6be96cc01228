"""Added leaders (Pipers) against the pool's own legends: a deck led only by added cards has no real commander."""

from __future__ import annotations

from collections import Counter

from draft.deckbuild import ranked_builds
from draft.decks import is_piper
from draft.products import added_card, product_of
from draft.traits import card_rating, card_traits
from sets.catalog import load_set


def _three_color_legend_pool() -> tuple[Counter, object]:
    """A strong WUB legend (Nevinyrral) beside a deep blue-black pool and two white spells: the shape of a CMM pool
    whose builder led with two added Pipers (blue, black) and left Yennett, Cryptic Sovereign in the sideboard."""
    cards = load_set("CMR").cards
    legend = next(card for card in cards if card.name == "Nevinyrral, Urborg Tyrant")
    spells = sorted(
        (
            card
            for card in cards
            if not card.can_be_commander
            and not card_traits(card).land
            and card.deck_colors
            and card.deck_colors.mask & ~0b00110 == 0
        ),
        key=lambda card: -card_rating(card),
    )
    whites = [card for card in cards if not card.can_be_commander and card.deck_colors.letters == "W"][:2]
    pool = Counter([legend, *spells[:34], *whites])
    return pool, legend


def test_two_added_pipers_never_lead_over_a_strong_legend_of_the_pool_that_covers_their_colors():
    pool, legend = _three_color_legend_pool()
    profile = product_of(pool)
    builds = ranked_builds(pool, added_card(profile), 8, profile)
    best = builds[0][0]
    assert best.commanders == (legend,), [(c.commanders, round(c.value, 1)) for c, _ in builds]
    for choice, _ in builds:  # every option led only by added cards ranks below the legend
        if all(is_piper(card) for card in choice.commanders):
            assert choice.value < best.value
