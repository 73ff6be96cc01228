"""A creature deck plays two board wipes (its own creatures die too), but a third is still a real card: it takes the
place of a filler spell, a card that does nothing in the deck (a strong player mains the third Austere Command over
Makeshift Munitions; over 10 seeded CMR pods a seat benched Fiery Cannonade beside three Impulsive Pilferers).  And a
deck plays more than 25 lands only when the pool runs out of cards worth playing (filler makes way for a 26th land):
while a wipe the builder doesn't find clearly better than the filler sits out, the deck stops at 25.  Found when the
bots' picks changed (tests/draft/test_commander_hunters.py): a seat of a mixed pod then built 26 lands beside two
Austere Commands and a Fiery Cannonade in its sideboard, against ``test_bot_decks_keep_the_builders_promises``
(tests/draft/test_bots.py)."""

from __future__ import annotations

from draft import deck_spells, deckbuild
from draft.deck_spells import FILLER, LANDS, MAX_WIPES
from draft.traits import card_traits
from sets.catalog import load_set


def _pool() -> list:
    """A white-black pool: its best legend, three board wipes, 20 creatures and 8 other spells worth playing, and 10
    filler spells (rated under ``FILLER``)."""
    cards = {c.name: c for c in load_set("CMR").cards}

    def best(test, count: int) -> list:
        found = [
            c
            for c in cards.values()
            if c.deck_colors.code in ("W", "B", "WB")
            and not c.is_land
            and not c.can_be_commander
            and test(card_traits(c))
        ]
        return sorted(found, key=lambda c: (-card_traits(c).rating, c.name))[:count]

    def plain(t) -> bool:
        return "wipe" not in t.roles and "ramp" not in t.roles

    legend = max(
        (c for c in cards.values() if c.can_be_commander and c.deck_colors.code == "WB"),
        key=lambda c: card_traits(c).rating,
    )
    wipes = [cards[name] for name in ("Austere Command", "Slash the Ranks", "Eyeblight Massacre")]
    bodies = best(lambda t: t.creature and t.rating >= FILLER and plain(t), 20)
    others = best(lambda t: not t.creature and FILLER <= t.rating < 2.6 and plain(t) and not t.interaction, 8)
    filler = best(lambda t: not t.creature and t.rating < FILLER and plain(t), 10)
    return [legend, *wipes, *bodies, *others, *filler]


def _lands_and_benched_wipes() -> tuple[int, int]:
    deck = deckbuild.build_deck(_pool())
    lands = sum(n for card, n in deck.main.items() if card.is_land)
    return lands, sum(n for card, n in deck.sideboard.items() if "wipe" in card_traits(card).roles)


def test_a_third_board_wipe_plays_over_a_filler_spell():
    pool = _pool()
    deck = deckbuild.build_deck(pool)
    wipes = [card for card, n in deck.main.items() for _ in range(n) if "wipe" in card_traits(card).roles]
    assert len(wipes) == 3  # past the two a creature deck plays, in place of a card that does nothing
    played = [card for card, n in deck.main.items() if not card.is_land]
    assert sum(card_traits(card).creature for card in played) >= 14  # still a creature deck


def test_no_land_past_the_25th_while_a_board_wipe_sits_out_and_a_builder_ignoring_it_is_caught(monkeypatch):
    # A wipe only a little better than the filler (here: no card is clearly better than another) stays out.
    monkeypatch.setattr(deck_spells, "CLEARLY_BETTER", 10.0)
    lands, benched = _lands_and_benched_wipes()
    assert benched == 3 - MAX_WIPES  # the deck plays two wipes: the third is the card that sits out
    assert lands <= LANDS[1], lands
    # The planted fault: the old rule, filler makes way for lands up to the 26th whatever sits out (before: 26).
    monkeypatch.setattr(deckbuild, "benched_wipe", lambda spells, candidates: 0)
    assert _lands_and_benched_wipes()[0] > LANDS[1]
