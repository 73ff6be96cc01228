"""The deck session every builder face holds (``draft.deck_session``), tested directly: verify/can/do, typed
results, undo and redo, what is saved when, and the command language both text faces read
(``events.screens.deck_commands``).  Expected counts come from the rules (a pool's copies, 60 cards), not
from the session."""

from __future__ import annotations

import pytest

from draft import deck_actions as act
from draft.deck_session import DeckSession
from draft.deck_state import free_basics
from draft.decks import Deck, DeckLine, Zone
from events.screens import deck_commands as words
from events.screens.builder import answer_lines
from sets.basics import basic_land
from sets.catalog import load_set
from sets.colors import Color, ColorIdentity
from sets.errors import InputError
from tests.helpers.decks import legend

CMR = load_set("CMR")
PIPER = next(c for c in CMR.cards if c.name == "The Prismatic Piper")
GREEN = [c for c in CMR.cards if c.main_set and c.deck_colors == ColorIdentity.parse("G") and not c.is_land]
LEADER = next(c for c in GREEN if c.can_be_commander and c.is_legendary)
LONER = next(c for c in CMR.cards if c.main_set and c.can_be_commander and not c.has_partner)  # leads alone
SPELLS = [c for c in GREEN if not c.can_be_commander][:12]
COMMA = next(c for c in CMR.cards if "," in c.name and c.can_be_commander and c.main_set)


class Saves(list):
    """The save function a place gives the session: remembers every call (deck, legal, final)."""

    def __call__(self, deck: Deck, legal: bool, final: bool) -> None:
        self.append((deck, legal, final))


def session_of(pool=None, *, autosave: bool = True, deck: Deck | None = None) -> tuple[DeckSession, Saves]:
    saves = Saves()
    pool = pool if pool is not None else [LEADER, *SPELLS, SPELLS[0], COMMA]  # SPELLS[0] twice
    return DeckSession(pool, piper=PIPER, name="t", save=saves, autosave=autosave, hand_seed=3, deck=deck), saves


def test_add_takes_only_the_copies_the_pool_has_and_a_refusal_changes_nothing():
    session, saves = session_of()
    twice = SPELLS[0]
    assert session.can_add([(twice, 2)]) and not session.can_add([(twice, 3)])
    with pytest.raises(InputError, match=r"can't add 3 .*your pool has 2, so 2 more at most — nothing added"):
        session.add([(twice, 3)])
    assert not session.main and not saves and not session.undo_stack
    result = session.add([(twice, 1), (SPELLS[1], 1), (twice, 1)])
    assert result == act.Added(((twice, 2), (SPELLS[1], 1)))
    assert session.main[twice] == 2 and session.available(twice) == 0 and session.in_deck(twice) == 2
    assert len(saves) == 1 and saves[-1][2] is False  # every change kept at once, not as finished


def test_free_basics_are_any_number_and_counts_under_one_are_refused():
    session, _ = session_of()
    forest = basic_land("G")
    assert forest in free_basics() and forest in session.reachable() and forest not in session.pool_list
    session.add([(forest, 30)])
    assert session.main[forest] == 30
    with pytest.raises(InputError, match="a count is 1 or more"):
        session.add([(forest, 0)])


def test_remove_takes_what_the_deck_has_and_refuses_a_card_not_in_it():
    session, _ = session_of()
    session.add([(SPELLS[0], 2)])
    with pytest.raises(InputError, match="is not in the main deck — nothing removed"):
        session.remove([(SPELLS[1], 1)])
    assert session.remove([(SPELLS[0], 5)]) == act.Removed(((SPELLS[0], 2, 5),))
    assert not session.main


def test_a_commander_moves_its_copy_from_the_main_deck_and_a_non_legend_is_refused():
    session, _ = session_of()
    session.add([(LEADER, 1)])
    chosen = session.choose_commanders([LEADER])
    assert chosen.moved == (LEADER.name,) and session.commanders == [LEADER] and not session.main
    assert not session.can_choose_commanders([SPELLS[0]])
    with pytest.raises(InputError, match="the commanders are unchanged"):
        session.choose_commanders([SPELLS[0]])
    assert session.commanders == [LEADER]


def test_each_reason_two_cards_cant_lead_is_its_own_clause_never_run_into_the_next():
    session, _ = session_of()
    with pytest.raises(InputError) as refused:
        session.choose_commanders([SPELLS[0], SPELLS[1]])
    message = str(refused.value)
    # Each card's reason (its rule, then what to do) is parted from the next by "; ", as the rules' own words are.
    assert "(CR 903.3): move it to the main deck and lead with " in message
    assert f"can be your commander); {SPELLS[1].name} can't be a commander" in message
    assert ") " + SPELLS[1].name not in message and message.endswith(" — the commanders are unchanged")


def test_pipers_take_the_colors_and_keep_the_other_commander():
    session, _ = session_of()
    session.choose_commanders([LEADER])
    result = session.choose_pipers([Color.U])
    assert result.commanders == (LEADER, PIPER) and result.colors == (Color.U,)
    assert session.report().color_identity == ColorIdentity.parse("GU")


def test_a_piper_leads_beside_a_legend_only_when_the_two_may_pair():
    """CR 702.124a: a legend with no partner ability leads alone; choosing a Piper sends it back to the pool
    instead of keeping a pair the deck rules refuse."""
    assert LEADER.has_partner
    session, _ = session_of([LONER, LEADER, *SPELLS])
    session.choose_commanders([LONER])
    result = session.choose_pipers([Color.U])
    assert result.commanders == (PIPER,) and result.returned == (LONER.name,)
    assert not any(p.code == "illegal-pair" for p in session.report().problems)
    session.choose_commanders([LEADER])
    assert session.choose_pipers([Color.U]).commanders == (LEADER, PIPER)  # a partner stays beside it


def test_choosing_no_commanders_sends_them_back_to_the_pool_and_undo_brings_them_back():
    """The phone's ✕ on the last commander: none leads until another is chosen (a swap between two legends
    that can't pair goes through no commander)."""
    session, _ = session_of([LONER, LEADER, *SPELLS])
    session.choose_commanders([LONER])
    result = session.choose_commanders([])
    assert result.commanders == () and result.returned == (LONER.name,) and session.commanders == []
    assert any(p.code == "no-commander" for p in session.report().problems)
    assert str(words_answer(session, result)[0]) == "Commanders: none yet"
    session.undo()
    assert session.commanders == [LONER]
    # three are refused in the deck rules' words (CR 903.3, CR 702.124g), as deck check and registration say it
    with pytest.raises(
        InputError, match=r"^3 commanders \(.*\): a deck has one commander, .*\(CR 903\.3, CR 702\.124g\)"
    ):
        session.choose_commanders([LONER, LEADER, LEADER])


def test_undo_and_redo_walk_the_changes_and_save_each_state():
    session, saves = session_of()
    session.add([(SPELLS[0], 1)])
    session.add([(SPELLS[1], 1)])
    session.undo()
    assert dict(session.main) == {SPELLS[0]: 1} and saves[-1][0].main == {SPELLS[0]: 1}
    session.redo()
    assert dict(session.main) == {SPELLS[0]: 1, SPELLS[1]: 1}
    session.undo()
    session.undo()
    with pytest.raises(InputError, match="nothing to undo"):
        session.undo()
    session.add([(SPELLS[2], 1)])  # a new change forgets what could be redone
    with pytest.raises(InputError, match="nothing to redo"):
        session.redo()


def test_fill_lands_reaches_60_cards_and_finish_saves_only_a_legal_deck():
    session, saves = session_of()
    assert session.finish() == act.Finished(session.report(), False) and not saves  # no commander: not legal
    session.choose_commanders([LEADER])
    session.add([(card, 1) for card in SPELLS])
    added = session.fill_lands()
    assert session.deck().size == 60 and sum(n for _, n in added.lands) == 60 - 1 - len(SPELLS)
    assert session.fill_lands() == act.LandsAdded(())  # already 60: nothing added
    done = session.finish()
    assert done.saved and done.report.valid and saves[-1][1:] == (True, True)


def test_auto_new_asks_before_throwing_a_built_deck_away():
    session, _ = session_of([*GREEN[:40], LEADER])
    assert isinstance(session.replace(), act.Replaced)  # nothing built yet: no question
    assert session.deck().commanders and not session.asks_before_replacing
    session.add([(basic_land("G"), 1)])
    question = session.replace()
    assert isinstance(question, act.Question) and "Replace your deck" in question.text
    assert session.replace(False) == act.KeptDeck() and session.main[basic_land("G")] >= 1
    assert isinstance(session.replace(True), act.Replaced)


def test_complete_keeps_every_card_chosen_and_needs_commanders_first():
    session, _ = session_of([*GREEN[:40], LEADER])
    session.add([(GREEN[0], 1)]) if GREEN[0] is not LEADER else None
    with pytest.raises(InputError, match="choose your commanders first"):
        session.complete()
    session.choose_commanders([LEADER])
    kept = dict(session.main)
    result = session.complete()
    assert isinstance(result, act.Completed) and result.kept == sum(kept.values())
    assert session.deck().size == 60 and all(session.main[c] >= n for c, n in kept.items())


def test_sample_hands_are_seeded_and_counted():
    session, _ = session_of()
    session.add([(basic_land("G"), 20)])
    first, second = session.deal_hand(), session.deal_hand()
    again, _ = session_of()
    again.add([(basic_land("G"), 20)])
    assert (first.number, second.number) == (1, 2) and again.deal_hand() == first and len(first.cards) == 7


def test_a_saved_deck_comes_back_on_the_pools_own_cards():
    saved = Deck((DeckLine(LEADER, 1, Zone.COMMANDER), DeckLine(SPELLS[0], 2, Zone.MAIN)), (), "t")
    session, _ = session_of(deck=saved)
    assert session.commanders == [LEADER] and session.main[SPELLS[0]] == 2 and session.started
    assert session.asks_before_replacing  # a saved deck is the player's


def test_without_autosave_only_done_and_save_keep_the_deck():
    session, saves = session_of(autosave=False)
    session.add([(SPELLS[0], 1)])
    session.undo()
    assert not saves
    session.save()
    assert len(saves) == 1 and saves[0][1] is False


def test_every_intent_is_applied_and_an_unknown_one_is_refused():
    session, _ = session_of()
    assert isinstance(session.apply(act.ShowPool()), act.PoolShown)
    assert session.apply(act.Add(((SPELLS[0], 1),))) == act.Added(((SPELLS[0], 1),))
    assert isinstance(session.apply(act.CheckDeck()), act.Checked)
    with pytest.raises(TypeError):
        session.apply("add 3")


# --- the command language ----------------------------------------------------------------------------


def test_lines_become_intents_with_counts_numbers_and_names_with_commas():
    session, _ = session_of()
    number = {card: i for i, card in enumerate(session.pool_list, start=1)}
    twice = SPELLS[0]
    assert words.parse(f"add {number[twice]} 2, {number[SPELLS[1]]}", session) == act.Add(((twice, 2), (SPELLS[1], 1)))
    assert words.parse(f"commander {COMMA.name}", session) == act.ChooseCommanders((COMMA,))
    assert words.parse("remove forest 3", session) == act.Remove(((basic_land("G"), 3),))
    assert words.parse("lands U 9", session) == act.SetBasics("U", 9)
    assert words.parse("piper blue red", session) == act.ChoosePipers((Color.U, Color.R))
    assert words.parse("auto new", session) == act.Replace() and words.parse("auto", session) == act.Complete()
    assert words.parse("? 3", session) == words.ReadCard("3") and words.parse("show 3", session) == words.ReadCard("3")
    assert words.parse("export out --force", session) == words.Export(words.Path("out"), True)
    assert words.parse('export "My Decks"', session) == words.Export(words.Path("My Decks"), False)
    assert words.parse('export --force "Ann\'s decks"', session) == words.Export(words.Path("Ann's decks"), True)
    assert words.parse("export 'Bo O'\"'\"'Neil'", session) == words.Export(words.Path("Bo O'Neil"), False)
    assert words.parse("bot 2", session) == words.ShowBot(1) and words.parse("q", session) == words.Quit()
    assert words.parse("   ", session) is None


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("frobnicate", "unknown command 'frobnicate'"),
        ("add", "usage: add N"),
        ("add 999", "there is no card 999"),
        ("commander", r"commander N \[M\]"),
        ("lands U x", r"'x' is not a count: give the number of basics, 0 or more \('lands U 9'\)"),
        ("lands U -1", r"'-1' is not a count: give the number of basics, 0 or more \('lands U 9'\)"),
        ("lands", None),
        ("auto please", "'auto new' replaces it"),
        ("bot x", "bot N"),
        ("add 1 0", "a count is 1 or more"),
        ("export My Decks", "export takes one folder, not 2: quote a name with spaces"),
        ('export "My Decks', "a quote is not closed"),
        ('export ""', "the folder's name is empty"),
    ],
)
def test_a_line_that_cant_be_read_says_what_to_type(line, message):
    session, _ = session_of()
    if message is None:
        assert words.parse(line, session) == act.FillLands()
        return
    with pytest.raises(InputError, match=message):
        words.parse(line, session)


def test_added_pipers_are_removed_when_another_commander_leads_and_drafted_ones_go_back_to_the_pool():
    """A Piper the player added (beyond the pool's copies) was never in the pool: replacing it removes it; a
    drafted Piper, or a drafted commander, goes back to the pool."""
    session, _ = session_of()  # no Piper in this pool
    session.choose_pipers([Color.B, Color.R])
    result = session.choose_commanders([LEADER])
    assert result.returned == () and result.removed == (PIPER.name, PIPER.name)
    lines = [str(line) for line in words_answer(session, result)]
    assert not any("Back to your pool" in line for line in lines)
    assert any("Removed (added, not drafted): The Prismatic Piper / The Prismatic Piper" in line for line in lines)

    drafted_piper, _ = session_of([LEADER, PIPER, *SPELLS])  # one Piper drafted, one added
    drafted_piper.choose_pipers([Color.B, Color.R])
    result = drafted_piper.choose_commanders([LEADER])
    assert result.returned == (PIPER.name,) and result.removed == (PIPER.name,)

    back, _ = session_of()
    back.choose_commanders([LEADER])
    result = back.choose_pipers([Color.U, Color.R])
    assert result.returned == (LEADER.name,) and result.removed == ()


class Place:
    """The least a place offers the builder's words: the session (``answer_lines`` reads nothing else here)."""

    def __init__(self, session):
        self.session = session


def words_answer(session, result):
    return answer_lines(result, Place(session), 80)


def test_a_commander_chosen_twice_from_one_copy_is_refused_citing_cr_903_13f():
    """Two copies of a partner legend may lead together, but only as many as the pool holds (CR 903.13f): the
    builder says so in the deck rules' words (before: 'your pool has only 1 …', no rule, nothing to do)."""
    partner = legend("G", partner=True)
    session, _ = session_of([partner, *SPELLS])
    with pytest.raises(
        InputError, match=r"2 copies of .* as commanders, but your pool has 1: .*\(CR 903\.13f\): choose"
    ):
        session.choose_commanders([partner, partner])
    assert session.commanders == []


def blue_half_pool():
    """A green partner, the Piper, and a pool whose other half is blue: the Piper's best color is blue."""
    partner = next(c for c in GREEN if c.can_be_commander and c.has_partner)
    blue = [c for c in CMR.cards if c.main_set and c.deck_colors == ColorIdentity.parse("U") and not c.is_land]
    return partner, [c for c in blue if not c.can_be_commander][:30]


def test_auto_chooses_the_color_of_a_commander_that_chooses_one_as_the_best_deck_wants_it():
    # A saved deck leads with the Piper beside a green partner and no color (saved so, or read from a file that
    # keeps none): 'auto' must not build a mono-green deck, the Piper adding nothing, and says the color it chose.
    partner, blue = blue_half_pool()
    saved = Deck((DeckLine(partner, 1, Zone.COMMANDER), DeckLine(PIPER, 1, Zone.COMMANDER)), (), "t")
    session, _ = session_of([PIPER, partner, *SPELLS[:8], *blue], deck=saved)
    assert session.colors == []
    result = session.complete()
    assert session.colors == [Color.U] and session.identity() == ColorIdentity.parse("UG")
    assert isinstance(result, act.Completed) and result.colors == (Color.U,)
    assert sum(n for c, n in session.main.items() if c in blue) >= 20 and session.report().valid
    assert "chose blue for The Prismatic Piper" in str(words_answer(session, result)[0])


def test_a_commander_that_chooses_its_color_gets_the_one_its_best_deck_wants_when_chosen():
    """'commander' on a drafted Piper beside a green partner: blue, as 'suggest' would lead (the deck check had
    picked white, the first legal color of an empty deck); 'piper COLOR' still changes it."""
    partner, blue = blue_half_pool()
    session, _ = session_of([PIPER, partner, *SPELLS[:8], *blue])
    result = session.choose_commanders([PIPER, partner])
    assert session.colors == [Color.U] and result.colors == (Color.U,)
    assert session.identity() == ColorIdentity.parse("UG") and not session.report().chosen_for_you
    assert str(words_answer(session, result)[0]) == f"Commanders: The Prismatic Piper (blue) + {partner.name}"


@pytest.mark.parametrize("typed", ["100", "99999999999999999999"])
def test_basics_out_of_range_are_refused_by_the_core_in_the_words_the_phone_gets(typed):
    """The builder took 'lands U 100000' (100,000 Islands) while the phone's builder refused it; a count of twenty
    digits was said to be "not a count".  The range is the core's (``MAX_BASICS``), said the same to every face: the
    web's bad-field words for the same count."""
    from draft.deck_actions import MAX_BASICS

    session, _ = session_of()
    with pytest.raises(InputError) as refused:
        session.apply(words.parse(f"lands U {typed}", session))
    assert (
        str(refused.value)
        == f"count must be a whole number from 0 to {MAX_BASICS}"
        == "count must be a whole number from 0 to 99"
    )
    session.apply(words.parse(f"lands U {MAX_BASICS}", session))  # the most there is, taken
