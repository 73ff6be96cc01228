"""The line builder (the plain prompt and the full-screen app's ':' line) may name the product's added card as a
commander: a CLB pool with a Background and no legend that chooses one leads with the Background beside a Faceless
One added after the draft, the pair its own 'suggest' offers first (CR 702.124k; Faceless One has "Choose a
Background" and may lead when not drafted, products.md)."""

from __future__ import annotations

from draft.deck_session import DeckSession
from draft.products import product
from events.screens import deck_commands as words
from tests.helpers.products import CLB, is_background


def clb_session() -> DeckSession:
    """A CLB pool of a blue Background and blue spells: no card of it can lead alone, no Faceless One drafted."""
    background = CLB["Dungeon Delver"]
    assert is_background(background) and background.identity.code == "U"
    spells = [c for c in CLB.values() if c.identity.code == "U" and not c.can_be_commander and not c.is_land]
    spells = [c for c in spells if not is_background(c)][:10]
    pool = [background, *spells, *spells]
    return DeckSession(
        pool, piper=CLB["Faceless One"], name="t", save=lambda *a: None, hand_seed=1, product=product("CLB")
    )


def test_a_background_leads_beside_a_faceless_one_named_on_the_commander_line():
    session = clb_session()
    faceless, delver = CLB["Faceless One"], CLB["Dungeon Delver"]
    assert faceless not in session.pool
    result = session.apply(words.parse("commander dungeon delver + faceless one", session))
    assert session.commanders == [delver, faceless]
    assert len(session.colors) == 1  # Faceless One chose its color (the best deck's)
    assert not [p.code for p in session.report().problems if p.code in ("illegal-pair", "not-a-commander")]
    assert result.moved == ()  # nothing left the main deck: the Faceless One was added, not drafted
    assert session.main[faceless] == 0


def test_the_added_card_is_named_by_name_never_by_a_number_past_the_pool_list():
    session = clb_session()
    number = len(session.pool_list) + 1
    try:
        words.parse(f"commander 1 {number}", session)
    except Exception as error:  # InputError: the pool list's numbers only
        assert f"choose 1 to {len(session.pool_list)}" in str(error)
    else:
        raise AssertionError("a number past the pool list was read")
