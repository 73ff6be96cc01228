"""A deck plays more than 25 lands only when the pool runs out of cards worth playing (filler makes way for a 26th
land): a board wipe past the two a creature deck plays is such a card, so while one sits out the deck stops at 25.
Found when the bots' picks changed (tests/draft/test_commander_hunters.py): a seat of a mixed pod then built 26 lands
beside two Austere Commands and a Fiery Cannonade in its sideboard, against ``test_bot_decks_keep_the_builders_promises``
(tests/draft/test_bots.py)."""

from __future__ import annotations

from draft import deckbuild
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


def test_no_land_past_the_25th_while_a_board_wipe_sits_out_and_a_builder_ignoring_it_is_caught(monkeypatch):
    lands, benched = _lands_and_benched_wipes()
    assert benched == 3 - MAX_WIPES  # the deck plays two wipes: the third is the card that sits out
    assert lands <= LANDS[1], lands
    # The planted fault: the old rule, filler makes way for lands up to the 26th whatever sits out (before: 26).
    monkeypatch.setattr(deckbuild, "benched_wipe", lambda spells, candidates: 0)
    assert _lands_and_benched_wipes()[0] > LANDS[1]
