"""A judge reads a deck problem: each names the rule it breaks by number, and says what the cards at fault do.

The rule numbers are the Comprehensive Rules' (CR 903 Commander, 702.124 partner, 903.13 Commander draft, 712.8a
double-faced cards) as ../shared/RULES.md quotes them; the draft-only rules (60 cards, the Piper option) are the
Commander Legends draft's and say so.
"""

from __future__ import annotations

from collections import Counter

import pytest

from draft.banlist import BannedList, commander_banlist, read_banlist
from draft.deck_rules import validate
from draft.decks import PIPER, Deck, DeckFormat
from sets.basics import basic_land
from sets.cards import Face, Layout
from sets.colors import Color
from sets.identity import make_card
from sets.type_line import parse_type_line
from tests.helpers.decks import basics, cmr_card, fixture, legend, spells


def problem(report, code):
    found = [p for p in report.problems if p.code == code]
    assert found, (code, report.problems)
    return found[0].message


def draft_deck(commanders, main, sideboard=(), pool_extra=()):
    deck = Deck.build(commanders, main, sideboard)
    pool = Counter(commanders) + Counter({c: n for c, n in main.items() if not c.is_basic_land}) + Counter(pool_extra)
    return deck, pool


def constructed(commander, cards: dict):
    filler = sum(cards.values()) + 1
    letter = next(iter(commander.identity.letters), "W") if commander.identity.letters else "W"
    return Deck.build([commander], {**cards, **basics(letter, 100 - filler)})


@pytest.fixture(scope="module")
def white():
    return legend("W", partner=False)


def test_commander_problems_name_cr_903_3_and_702_124g(white):
    main = basics("W", 59)
    assert "CR 903.3" in problem(validate(Deck.build([], main)), "no-commander")
    three = [legend("W", partner=True), legend("U", partner=True), legend("B", partner=True)]
    assert "CR 702.124g" in problem(validate(Deck.build(three, main)), "too-many-commanders")
    grunt = next(c for c in spells("W", 40) if c.has_type("Creature"))
    assert "CR 903.3" in problem(validate(Deck.build([grunt], main)), "not-a-commander")


def test_size_and_singleton_problems_name_cr_903_5a_and_903_5b(white):
    spell = spells("W", 1)[0]
    small = Deck.build([white], {spell: 1, **basics("W", 50)})
    assert "CR 903.5a" in problem(validate(small, fmt=DeckFormat.COMMANDER), "deck-too-small")
    large = Deck.build([white], {spell: 1, **basics("W", 150)})
    assert "CR 903.5a" in problem(validate(large, fmt=DeckFormat.COMMANDER), "deck-too-large")
    doubled = constructed(white, {spell: 2})
    assert "CR 903.5b" in problem(validate(doubled, fmt=DeckFormat.COMMANDER), "too-many-copies")


def test_identity_problems_name_cr_903_5c_and_903_5d(white):
    blue = spells("U", 1)[0]
    deck, pool = draft_deck([white], {blue: 1, **basics("W", 58)})
    assert "CR 903.5c" in problem(validate(deck, pool), "outside-identity")
    tundra = fixture("Test Tundra", "Land — Plains Island")
    deck, pool = draft_deck([white], {tundra: 1, **basics("W", 58)})
    assert "CR 903.5d" in problem(validate(deck, pool), "basic-type-outside-identity")


def test_pool_problems_name_cr_903_13e_f(white):
    spell = spells("W", 1)[0]
    deck, pool = draft_deck([white], {spell: 2, **basics("W", 57)})
    pool[spell] = 1
    assert "CR 903.13f" in problem(validate(deck, pool), "too-many-copies")
    del pool[spell]
    assert "CR 903.13e-f" in problem(validate(deck, pool), "not-in-pool")


def test_piper_colour_problems_name_cr_903_4b(white):
    deck, pool = draft_deck([white], basics("W", 59))
    assert "CR 903.4b" in problem(validate(deck, pool, piper_colors=[Color.U]), "piper-color-extra")


def test_draft_only_rules_say_they_are_the_commander_draft_rules(white):
    deck, pool = draft_deck([white], basics("W", 50))
    assert "Commander draft" in problem(validate(deck, pool), "deck-too-small")


@pytest.mark.parametrize("fmt", list(DeckFormat), ids=str)
def test_a_deck_of_one_card_is_said_in_the_singular(white, fmt):
    said = problem(validate(Deck.build([white]), fmt=fmt), "deck-too-small")
    assert said.startswith("the deck has 1 card counting commanders;")
    assert problem(validate(Deck.build([white], basics("W", 1)), fmt=fmt), "deck-too-small").startswith(
        "the deck has 2 cards counting"
    )


def test_too_many_copies_says_deck_and_sideboard_when_it_counts_both(white):
    spell = spells("W", 1)[0]
    deck, pool = draft_deck([white], {spell: 1, **basics("W", 58)})
    with_side = Deck.build([white], {spell: 1, **basics("W", 58)}, {spell: 1})
    message = problem(validate(with_side, pool), "too-many-copies")
    assert "2 copies of" in message and "deck and sideboard" in message and "your pool has 1" in message
    deck_only = Deck.build([white], {spell: 2, **basics("W", 57)})
    message = problem(validate(deck_only, pool), "too-many-copies")
    assert "in the deck," in message and "sideboard" not in message


def test_a_card_only_in_the_sideboard_is_said_to_be_in_the_sideboard(white):
    """A sideboard card not in the pool was said to be "in the deck and sideboard": the player looked for it in the
    deck and found nothing.  The problem names the zone that holds it (RULES.md section 3: a deck's cards, and its
    sideboard's, come out of the pool)."""
    kept, absent, doubled = spells("W", 3)
    deck, pool = draft_deck([white], {kept: 1, doubled: 1, **basics("W", 57)})
    sided = Deck.build([white], {kept: 1, **basics("W", 58)}, {absent: 1, doubled: 2})
    report = validate(sided, pool)
    missing = problem(report, "not-in-pool")
    assert missing.startswith(f"{absent.name} is in the sideboard but not in your pool"), missing
    extra = problem(report, "too-many-copies")
    assert extra.startswith(f"2 copies of {doubled.name} in the sideboard, but your pool has 1"), extra


def test_an_illegal_pair_says_each_partner_ability_and_why_they_do_not_pair():
    pir = fixture(
        "Pir, Imaginative Rascal", "Legendary Creature — Human", "Partner with Toothy, Imaginary Friend", "{2}{G}"
    )
    akroma = cmr_card("Akroma, Vision of Ixidor")
    deck = Deck.build([pir, akroma], basics("W", 58))
    message = problem(validate(deck), "illegal-pair")
    assert 'Pir, Imaginative Rascal has "Partner with Toothy, Imaginary Friend"' in message
    assert "Akroma, Vision of Ixidor has partner" in message
    assert "CR 702.124f" in message and "both need partner" not in message
    grunt = legend("U", partner=False)
    message = problem(validate(Deck.build([akroma, grunt], basics("W", 58))), "illegal-pair")
    assert f"{grunt.name} has no partner ability" in message and "CR 702.124" in message


def test_two_partner_groups_that_differ_are_told_apart():
    a = fixture("Group A Legend", "Legendary Creature — Human", "Partner—Survivors", "{W}")
    b = fixture("Group B Legend", "Legendary Creature — Human", "Partner—Father & Son", "{W}")
    message = problem(validate(Deck.build([a, b], basics("W", 58))), "illegal-pair")
    assert '"Partner—Survivors"' in message and '"Partner—Father & Son"' in message and "CR 702.124i" in message


def test_a_piper_in_the_main_deck_is_told_it_is_no_commander_there(white):
    piper = cmr_card(PIPER)
    deck, pool = draft_deck([white], {piper: 1, **basics("W", 58)})
    message = problem(validate(deck, pool, piper_colors=[Color.U]), "piper-color-extra")
    assert "The Prismatic Piper in the main deck isn't a commander there" in message
    del pool[piper]  # not from the pool: an added Piper in the main deck
    message = problem(validate(deck, pool), "piper-not-commander")
    assert "in the main deck" in message and "isn't a commander there" in message


def test_a_refused_background_is_told_it_needs_a_choose_a_background_partner(white):
    background = fixture("Test Background", "Legendary Enchantment — Background", "", "{1}{W}")
    message = problem(validate(Deck.build([white, background], basics("W", 58))), "not-a-commander")
    assert "Background" in message and '"Choose a Background"' in message and "CR 702.124k" in message
    alone = problem(validate(Deck.build([background], basics("W", 59))), "not-a-commander")
    assert '"Choose a Background"' in alone


def double_faced(back_text: str, front_type: str = "Legendary Artifact", layout=Layout.TRANSFORM):
    supertypes, types, subtypes = parse_type_line(front_type)
    front = Face("Test Relic", "{3}", front_type, supertypes, types, subtypes, "")
    s2, t2, st2 = parse_type_line("Legendary Planeswalker — Test")
    back = Face("Test Walker", "", "Legendary Planeswalker — Test", s2, t2, st2, back_text)
    return make_card([front, back], layout, set_code="TST", number="1")


@pytest.mark.parametrize("layout", [Layout.TRANSFORM, Layout.MODAL_DFC])
def test_can_be_your_commander_on_the_back_face_only_does_not_make_a_commander(layout):
    card = double_faced("Test Walker can be your commander.", layout=layout)
    assert not card.can_be_commander  # CR 712.8a: off the battlefield and stack only the front face counts
    report = validate(Deck.build([card], basics("W", 59)))
    assert "CR 712.8a" in problem(report, "not-a-commander")
    front = double_faced("")
    front = make_card(
        [
            Face(
                "Test Relic",
                "{3}",
                "Legendary Artifact",
                ("Legendary",),
                ("Artifact",),
                (),
                "This can be your commander.",
            ),
            front.faces[1],
        ],
        layout,
        set_code="TST",
        number="2",
    )
    assert front.can_be_commander


def test_a_split_cards_other_half_still_counts():
    """CR 709.4: off the stack a split card has both halves' characteristics combined."""
    left = Face("Left", "{1}", "Legendary Sorcery", ("Legendary",), ("Sorcery",), (), "")
    right = Face("Right", "{1}", "Sorcery", (), ("Sorcery",), (), "Right can be your commander.")
    assert make_card([left, right], Layout.SPLIT, set_code="TST", number="3").can_be_commander


def test_a_stored_set_reads_the_back_face_rule_again():
    from sets.set_json import card_from_json, card_to_json

    card = double_faced("Test Walker can be your commander.")
    again = card_from_json(card_to_json(card, with_text=True), "TST")
    assert not again.can_be_commander


# --- the Commander banned list ---------------------------------------------------------------------------------


def test_the_banned_list_is_data_with_its_date_and_sources():
    banlist = commander_banlist()
    assert banlist.as_of == "2026-02-09" and banlist.sources
    assert all(source.startswith("https://") for source in banlist.sources)


@pytest.mark.parametrize(
    "name",
    [
        "Golos, Tireless Pilgrim",  # banned 2021-09-13
        "Invoke Prejudice",  # the seven cards Wizards removed from every format on 2020-06-10
        "Cleanse",
        "Stone-Throwing Devils",
        "Pradesh Gypsies",
        "Jihad",
        "Imprison",
        "Crusade",
        "Contract from Below",  # ante
        "Jeweled Lotus",
    ],
)
def test_cards_the_official_list_bans_are_banned(name):
    card = fixture(name, "Sorcery", "", "{B}")
    assert commander_banlist().reason(card) is not None


@pytest.mark.parametrize(
    "name",
    [
        "Worldfire",  # unbanned 2021-09-13
        "Gifts Ungiven",  # unbanned 2025-04-22 with Sway of the Stars, Braids, Coalition Victory, Panoptic Mirror
        "Braids, Cabal Minion",
        "Coalition Victory",
        "Biorhythm",  # unbanned 2026-02-09
        "Sol Ring",
    ],
)
def test_cards_the_official_list_no_longer_bans_are_allowed(name):
    assert commander_banlist().reason(fixture(name, "Sorcery", "", "{R}")) is None


def test_ante_and_conspiracy_cards_are_banned_by_what_they_are():
    ante = fixture(
        "Test Wager", "Sorcery", "Remove Test Wager from your deck before playing if you're not playing for ante."
    )
    conspiracy = fixture("Test Scheme", "Conspiracy", "Hidden agenda")
    assert "ante" in commander_banlist().reason(ante)
    assert "Conspiracy" in commander_banlist().reason(conspiracy)


def test_a_banned_card_in_a_constructed_deck_names_the_list_and_its_date(white):
    lotus = cmr_card("Jeweled Lotus")
    report = validate(constructed(white, {lotus: 1}), fmt=DeckFormat.COMMANDER, banned=commander_banlist())
    message = problem(report, "banned")
    assert "Jeweled Lotus" in message and "2026-02-09" in message


def test_a_banned_cards_reason_quotes_the_lists_path_as_typed_and_visible():
    banlist = read_banlist("Sol Ring\n", "my bans\n'old'.txt")
    reason = banlist.reason(fixture("Sol Ring", "Artifact", "", "{1}"))
    assert reason == "it is on the banned list \"my bans\\x0a'old'.txt\""  # one line, the path quoted and visible


def test_a_banlist_file_replaces_the_list():
    banlist = read_banlist("# my list\nSol Ring\n", "my.txt")
    assert isinstance(banlist, BannedList) and banlist.source_file == "my.txt"
    assert banlist.reason(fixture("Sol Ring", "Artifact", "", "{1}")) is not None
    assert banlist.reason(fixture("Jeweled Lotus", "Artifact", "", "{0}")) is None
    assert banlist.reason(basic_land("W")) is None
