"""Added leaders (Pipers) against the pool's own legends: a deck led only by added cards has no real commander."""

from __future__ import annotations

from collections import Counter

from draft.deckbuild import build_deck, rank_commanders, ranked_builds
from draft.decks import Zone, is_piper
from draft.hint import explain_pick
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


def test_the_hint_names_the_commanders_of_the_deck_an_added_piper_leads():
    # Two partners of thin colors (Halana green, Eligeth blue) and a deep black pool: the deck adds a black Piper to
    # one of them; a hint that knew only the pool's own Pipers named Halana + Eligeth instead.
    cards = load_set("CMR").cards
    by_name = {card.name: card for card in cards}

    def spells(code: str, count: int) -> list:
        return [card for card in cards if card.deck_colors.code == code and not card.can_be_commander][:count]

    legends = [by_name["Halana, Kessig Ranger"], by_name["Eligeth, Crossroads Augur"]]
    pool = [*legends, *spells("B", 30), *spells("G", 7), *spells("U", 7)]
    counts = Counter(pool)
    best = ranked_builds(counts, added_card(product_of(counts)), 4, product_of(counts))[0][0]
    assert any(is_piper(card) for card in best.commanders)
    pack = [card for card in cards if card.deck_colors.code == "W"][:10]
    advice = explain_pick(pack, pool, progress=0.9)
    assert advice.commanders == tuple(card for card in best.commanders if not is_piper(card))
    assert advice.identity == best.identity
    assert [name for name in rank_commanders(counts, 1, added_card(product_of(counts)))[0].commanders] == [
        card.name for card in best.commanders
    ]


def test_an_eight_drop_commander_gets_the_lands_to_cast_it_whatever_the_spells_curve():
    # Maelstrom Wanderer (mana value 8) over cheap spells and no ramp: the spells alone ask for 22 lands (24 with
    # the sources three colors need); a commander cast every game wants 25.
    cards = load_set("CMR").cards
    wanderer = next(card for card in cards if card.name == "Maelstrom Wanderer")
    cheap = sorted(
        (
            card
            for card in cards
            if card.deck_colors
            and card.deck_colors <= wanderer.identity
            and not card.can_be_commander
            and not card.is_land
            and card.mana_value <= 3
            and "ramp" not in card_traits(card).roles
        ),
        key=lambda card: (-card_rating(card), card.name),
    )[:45]
    deck = build_deck([wanderer, *cheap])
    assert list(deck.commanders) == [wanderer]
    main = [line.card for line in deck.lines if line.zone is Zone.MAIN for _ in range(line.count)]
    assert sum(1 for card in main if card.is_land) == 25
