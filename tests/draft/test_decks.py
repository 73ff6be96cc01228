"""Commander draft deck rules, the Piper option and constructed Commander: one case per rule and code."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from draft.commanders import can_pair, chosen_colors, each_identity
from draft.deck_rules import validate
from draft.deckbuild import rank_commanders
from draft.decks import PIPER, Deck, DeckFormat, DeckLine, Zone
from sets.basics import basic_land
from sets.cards import Face, Layout
from sets.catalog import load_set
from sets.colors import Color, ColorIdentity
from sets.type_line import parse_type_line
from tests.helpers.decks import basics, cmr_card, fixture, legend, spells


def deck_and_pool(commanders, main: dict, extra_pool=()):
    pool = (
        Counter(commanders)
        + Counter({card: n for card, n in main.items() if not card.is_basic_land})
        + Counter(extra_pool)
    )
    return Deck.build(commanders, main), pool


def white_deck(size=60):
    commander = legend("W", partner=False)
    cards = spells("W", 20)
    main = {card: 1 for card in cards}
    main[cards[0]] = 3
    main.update(basics("W", size - 1 - sum(main.values())))
    return commander, main


def codes(report):
    return sorted(set(report.codes()))


def test_legal_deck():
    commander, main = white_deck()
    deck, pool = deck_and_pool([commander], main)
    report = validate(deck, pool)
    assert report.valid, report.problems
    assert report.size == 60 and report.color_identity == ColorIdentity.parse("W")


def test_deck_too_small():
    commander, main = white_deck(59)
    deck, pool = deck_and_pool([commander], main)
    report = validate(deck, pool)
    assert codes(report) == ["deck-too-small"] and "59" in report.problems[0].message


def test_not_in_pool_and_too_many_copies():
    commander, main = white_deck()
    deck, pool = deck_and_pool([commander], main)
    cards = spells("W", 20)
    pool[cards[0]] -= 1  # the deck plays 3, the pool has 2
    del pool[cards[1]]
    report = validate(deck, pool)
    assert codes(report) == ["not-in-pool", "too-many-copies"]
    problem = {p.code: p for p in report.problems}
    assert problem["too-many-copies"].cards == (cards[0].name,) and problem["not-in-pool"].cards == (cards[1].name,)


def test_basic_lands_are_unlimited():
    commander, main = white_deck()
    deck, pool = deck_and_pool([commander], main)
    assert validate(deck, pool).valid and main[basic_land("W")] > 30


@pytest.mark.parametrize("name", ["Wastes", "Snow-Covered Plains"])
def test_only_the_five_basics_are_free_in_a_draft_deck(name):
    """The organizer provides Plains, Island, Swamp, Mountain and Forest; other basics come out of the pool."""
    from sets.basics import basic_lands

    land = next(card for card in basic_lands() if card.name == name)
    commander, main = white_deck()
    main[basic_land("W")] -= 2
    main[land] = 2
    deck, pool = deck_and_pool([commander], main)
    report = validate(deck, pool)
    assert codes(report) == ["not-in-pool"] and report.problems[0].cards == (name,)
    pool[land] = 1
    assert codes(validate(deck, pool)) == ["too-many-copies"]
    pool[land] = 2
    assert validate(deck, pool).valid


def test_no_commander():
    _, main = white_deck()
    deck, pool = deck_and_pool([], main)
    assert "no-commander" in validate(deck, pool).codes()


def test_not_a_commander():
    commander, main = white_deck()
    creature = spells("W", 30)[25]
    deck, pool = deck_and_pool([creature], main)
    report = validate(deck, pool)
    assert "not-a-commander" in report.codes() and creature.name in report.problems[0].message


def test_planeswalker_that_says_so_can_lead():
    jeska = cmr_card("Jeska, Thrice Reborn")
    main = {card: 1 for card in spells("R", 20)}
    main.update(basics("R", 39))
    deck, pool = deck_and_pool([jeska], main)
    assert validate(deck, pool).valid


def test_illegal_pair():
    first, second = legend("W", partner=False), legend("U", partner=False)
    main = basics("W", 29) | basics("U", 29)
    deck, pool = deck_and_pool([first, second], main)
    assert codes(validate(deck, pool)) == ["illegal-pair"]


def test_partner_pair_combines_identity():
    first, second = legend("W", partner=True), legend("B", partner=True)
    main = {card: 1 for card in spells("W", 10) + spells("B", 10)} | basics("W", 19) | basics("B", 19)
    deck, pool = deck_and_pool([first, second], main)
    report = validate(deck, pool)
    assert report.valid and report.color_identity == ColorIdentity.parse("WB")


def test_too_many_commanders():
    commanders = [legend("W", True), legend("U", True), legend("B", True)]
    deck, pool = deck_and_pool(commanders, basics("W", 60))
    assert "too-many-commanders" in validate(deck, pool).codes()


def test_outside_identity():
    commander, main = white_deck()
    blue = spells("U", 1)[0]
    main[blue] = 1
    deck, pool = deck_and_pool([commander], main)
    report = validate(deck, pool)
    assert codes(report) == ["outside-identity"] and report.problems[0].cards == (blue.name,)


def test_basic_type_outside_identity():
    commander, main = white_deck()
    main[basic_land("U")] = 1
    tundra = fixture("Tundra", "Land — Plains Island", "({T}: Add {W} or {U}.)")
    main[tundra] = 1
    deck, pool = deck_and_pool([commander], main)
    report = validate(deck, pool)
    assert codes(report) == ["basic-type-outside-identity"]
    assert {problem.cards for problem in report.problems} == {("Island",), ("Tundra",)}


def test_colorless_commander_allows_wastes_but_no_typed_basic():
    dawnsire = fixture("Dawnsire", "Legendary Artifact Creature — Spacecraft", cost="{5}")
    main = {basic_land(""): 58, basic_land("G"): 1}
    deck, pool = deck_and_pool(
        [dawnsire], main, extra_pool=[basic_land("")] * 58
    )  # Wastes are not free: the pool has them
    report = validate(deck, pool)
    assert codes(report) == ["basic-type-outside-identity"] and report.problems[0].cards == ("Forest",)


def test_unknown_card_problem_is_passed_through():
    from draft.deck_rules import Problem

    commander, main = white_deck()
    deck, pool = deck_and_pool([commander], main)
    report = validate(
        deck, pool, extra_problems=[Problem("unknown-card", "line 3: unknown card 'Sol Rnig'", ("Sol Rnig",))]
    )
    assert codes(report) == ["unknown-card"] and not report.valid


# --- the Piper option ----------------------------------------------------------------------------


@pytest.fixture
def piper():
    return cmr_card(PIPER)


def piper_deck(piper, partner, colors: str, pool_pipers=0, main_pipers=0, commanders=None):
    main = {}
    for letter in colors:
        main.update({card: 1 for card in spells(letter, 8)})
        main.update(basics(letter, 10))
    if main_pipers:
        main[piper] = main_pipers
    commanders = commanders if commanders is not None else [piper, partner]
    pool = Counter({card: n for card, n in main.items() if not card.is_basic_land and card != piper})
    pool.update({partner: 1} if partner in commanders else {})
    pool[piper] = pool_pipers
    size = sum(main.values()) + len(commanders)
    if size < 60:
        main.update({basic_land(colors[0]): main.get(basic_land(colors[0]), 0) + 60 - size})
    return Deck.build(commanders, main), pool


def test_piper_color_is_found_when_not_given(piper):
    akroma = legend("W", partner=True)
    deck, pool = piper_deck(piper, akroma, "WU")
    report = validate(deck, pool)
    assert report.valid and report.piper_colors == (Color.U,) and report.chosen_for_you == ("Piper 1 -> blue",)


def test_given_piper_color_is_used(piper):
    akroma = legend("W", partner=True)
    deck, pool = piper_deck(piper, akroma, "WU")
    assert codes(validate(deck, pool, piper_colors=[Color.G])) == ["basic-type-outside-identity", "outside-identity"]
    assert validate(deck, pool, piper_colors=[Color.U]).valid


def test_no_piper_color_works_and_says_why(piper):
    akroma = legend("W", partner=True)
    deck, pool = piper_deck(piper, akroma, "WUB")
    report = validate(deck, pool)
    assert codes(report) == ["piper-color-missing"]
    assert "needs UB beyond W" in report.problems[0].message


def test_two_added_pipers_choose_two_colors(piper):
    deck, pool = piper_deck(piper, None, "UG", commanders=[piper, piper])
    report = validate(deck, pool)
    assert report.valid and set(report.piper_colors) == {Color.U, Color.G}


def test_three_pipers_are_too_many(piper):
    deck, pool = piper_deck(piper, None, "U", commanders=[piper, piper, piper])
    assert {"too-many-pipers", "too-many-commanders"} <= set(validate(deck, pool).codes())


def test_added_piper_in_main_deck_is_refused(piper):
    akroma = legend("W", partner=True)
    deck, pool = piper_deck(piper, akroma, "WU", pool_pipers=0, main_pipers=1)
    assert "piper-not-commander" in validate(deck, pool).codes()


def test_drafted_piper_may_sit_in_the_main_deck(piper):
    akroma = legend("W", partner=True)
    deck, pool = piper_deck(piper, akroma, "W", pool_pipers=1, main_pipers=1, commanders=[akroma])
    assert validate(deck, pool).valid


def test_two_added_plus_drafted_piper_as_commanders(piper):
    deck, pool = piper_deck(piper, None, "UG", pool_pipers=1, commanders=[piper, piper])
    assert validate(deck, pool).valid


def test_piper_colors_given_for_a_deck_without_piper():
    commander, main = white_deck()
    deck, pool = deck_and_pool([commander], main)
    assert codes(validate(deck, pool, piper_colors=[Color.U])) == ["piper-color-extra"]


# --- other pairing rules ---------------------------------------------------------------------------


def legendary(name, text="", type_line="Legendary Creature — Human"):
    return fixture(name, type_line, text, "{1}{W}")


PAIRS = [
    (legendary("Pako", "Partner with Haldan"), legendary("Haldan", "Partner with Pako"), True),
    (legendary("Pako", "Partner with Haldan"), legendary("Other", "Partner with Pako"), False),
    (legendary("Wil", "Friends forever"), legendary("Cecily", "Friends forever"), True),
    (legendary("Wil", "Friends forever"), legendary("Akroma", "Partner"), False),
    (
        legendary("Wyll", "Choose a Background"),
        fixture("Noble Heritage", "Legendary Enchantment — Background", cost="{W}"),
        True,
    ),
    (
        legendary("Clara", "Doctor's companion"),
        legendary("The Doctor", "", "Legendary Creature — Time Lord Doctor"),
        True,
    ),
    (legendary("Clara", "Doctor's companion"), legendary("Rose", "Doctor's companion"), False),
    # CR 702.124m: the Doctor must have no other creature types; artifact types are not creature types.
    (
        legendary("Clara", "Doctor's companion"),
        legendary("The Rogue Doctor", "", "Legendary Creature — Time Lord Doctor Rogue"),
        False,
    ),
    (
        legendary("Clara", "Doctor's companion"),
        legendary("Tin Doctor", "", "Legendary Artifact Creature — Equipment Time Lord Doctor"),
        True,
    ),
    (legendary("Ace", "Partner—Survivors"), legendary("Bea", "Partner—Survivors"), True),
    (legendary("Ace", "Partner—Survivors"), legendary("Cid", "Partner"), False),
]


@pytest.mark.parametrize(("first", "second", "legal"), PAIRS, ids=lambda v: getattr(v, "name", str(v)))
def test_pairing_rules(first, second, legal):
    assert can_pair(first, second) is legal and can_pair(second, first) is legal
    deck = Deck.build([first, second], {basic_land("W"): 58})
    report = validate(deck, Counter([first, second]))
    assert report.valid is legal
    if not legal:
        assert report.codes() == ["illegal-pair"]


def test_a_stored_set_follows_the_time_lord_doctor_rule():
    """A set imported while any Time Lord Doctor counted keeps no stale fact: type-line facts are decided on load."""
    from sets.set_json import card_from_json, card_to_json

    rogue = legendary("The Rogue Doctor", "", "Legendary Creature — Time Lord Doctor Rogue")
    stored = card_to_json(rogue) | {"abilities": ["legendary-creature", "time-lord-doctor"]}
    loaded = card_from_json(stored, "TST")
    assert not can_pair(legendary("Clara", "Doctor's companion"), loaded)
    assert loaded.can_be_commander


def test_background_alone_is_not_a_commander():
    background = fixture("Noble Heritage", "Legendary Enchantment — Background", cost="{W}")
    report = validate(Deck.build([background], {basic_land("W"): 59}), Counter([background]))
    assert report.codes() == ["not-a-commander"]


def test_front_face_decides_for_double_faced_cards():
    supertypes, types, subtypes = parse_type_line("Legendary Creature — Human Wizard")
    back = Face("Flipped Legend", "", "Legendary Creature — Human Wizard", supertypes, types, subtypes, "")
    dfc = fixture("Plain Front", "Creature — Human", "", "{1}{U}", Layout.TRANSFORM, [back])
    assert not dfc.can_be_commander
    supertypes, types, subtypes = parse_type_line("Enchantment")
    back2 = Face("Back", "", "Enchantment", supertypes, types, subtypes, "")
    legend_front = fixture("Legend Front", "Legendary Creature — Human", "", "{1}{U}", Layout.TRANSFORM, [back2])
    assert legend_front.can_be_commander


# --- constructed Commander --------------------------------------------------------------------------------


def constructed(size=100, duplicate=False, banned_card=None):
    commander = legend("W", partner=False)
    cards = spells("W", 30)
    main = {card: 1 for card in cards}
    if duplicate:
        main[cards[0]] = 2
    if banned_card:
        main[banned_card] = 1
    main.update(basics("W", size - 1 - sum(main.values())))
    return Deck.build([commander], main)


def test_constructed_commander_legal():
    report = validate(constructed(), fmt=DeckFormat.COMMANDER)
    assert report.valid and report.format is DeckFormat.COMMANDER


@pytest.mark.parametrize(("size", "code"), [(99, "deck-too-small"), (101, "deck-too-large")])
def test_constructed_needs_exactly_100(size, code):
    assert validate(constructed(size), fmt=DeckFormat.COMMANDER).codes() == [code]


def test_constructed_is_singleton_except_basics():
    assert validate(constructed(duplicate=True), fmt=DeckFormat.COMMANDER).codes() == ["too-many-copies"]


def test_constructed_basics_including_wastes_and_snow_are_exempt_from_singleton():
    from sets.basics import basic_lands

    extra = {card: 4 for card in basic_lands() if card.name in ("Wastes", "Snow-Covered Plains")}
    deck = constructed(92)
    deck = Deck.build(deck.commanders, deck.main + Counter(extra))
    assert deck.size == 100 and validate(deck, fmt=DeckFormat.COMMANDER).valid


def test_constructed_banned_list():
    lotus = cmr_card("Jeweled Lotus")
    report = validate(constructed(banned_card=lotus), fmt=DeckFormat.COMMANDER, banned=["Jeweled Lotus"])
    assert report.codes() == ["banned"] and report.problems[0].cards == ("Jeweled Lotus",)
    assert validate(constructed(banned_card=lotus), fmt=DeckFormat.COMMANDER).valid


def test_chosen_colors_go_to_the_choosing_commanders_one_each_in_order(piper):
    """CR 903.4b: a commander that chooses its color (the Piper) has the color chosen for it; two Pipers choose
    one each, the first color for the first; a legend beside them chooses none; a Piper past the colors given has
    none yet."""
    akroma = legend("W", partner=True)
    assert chosen_colors([True, False, True], [Color.B, Color.R]) == [Color.B, None, Color.R]
    assert chosen_colors([False, True, True], [Color.G]) == [None, Color.G, None]
    assert chosen_colors([False], [Color.G]) == [None]
    leading = each_identity([piper, akroma, piper], [Color.B, Color.R])
    assert [identity.letters for identity in leading] == [["B"], ["W"], ["R"]]


# --- advice ---------------------------------------------------------------------------------------------


def test_suggestions_count_the_cards_each_identity_allows(piper):
    akroma, other = legend("W", partner=True), legend("U", partner=False)
    pool = (
        Counter({akroma: 1, other: 1}) + Counter(spells("W", 12)) + Counter(spells("U", 12)) + Counter(spells("B", 3))
    )
    ranked = rank_commanders(pool, 50, piper=piper)
    assert ranked
    spells_of = {"W": 12, "U": 12, "B": 3}
    legends = {akroma.name: "W", other.name: "U"}
    for suggestion in ranked:
        letters = suggestion.identity.letters
        expected = sum(n for color, n in spells_of.items() if color in letters)
        expected += sum(1 for name, color in legends.items() if color in letters and name not in suggestion.commanders)
        assert suggestion.playable == expected, suggestion
        assert suggestion.added_pipers == suggestion.commanders.count(PIPER)


# --- properties ----------------------------------------------------------------------------------------------

LEGENDS = [card for card in load_set("CMR") if card.front.is_legendary_creature and not card.chooses_color]
NONLANDS = [card for card in load_set("CMR") if not card.is_land and not card.chooses_color]


@st.composite
def legal_decks(draw):
    commander = draw(st.sampled_from(LEGENDS))
    identity = commander.identity
    playable = [card for card in NONLANDS if card.deck_colors <= identity and card != commander]
    chosen = draw(st.lists(st.sampled_from(playable), min_size=5, max_size=40))
    main = Counter(chosen)
    colors = list(identity) or [None]
    for i in range(max(0, 59 - sum(main.values())) + draw(st.integers(0, 5))):
        color = colors[i % len(colors)]
        main[basic_land(color.value if color else "")] += 1
    pool = Counter([commander]) + Counter({c: n for c, n in main.items() if not c.is_basic_land})
    pool.update(draw(st.lists(st.sampled_from(NONLANDS), max_size=10)))
    return Deck.build([commander], main), pool, identity


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_decks())
def test_decks_built_inside_the_rules_pass(case):
    deck, pool, _ = case
    report = validate(deck, pool)
    assert report.valid, report.problems


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    legal_decks(), st.sampled_from(["outside-identity", "deck-too-small", "too-many-copies", "not-in-pool"]), st.data()
)
def test_one_violation_is_caught_with_its_code(case, violation, data):
    deck, pool, identity = case
    main = deck.main
    commanders = deck.commanders
    if violation == "outside-identity":
        outside = [card for card in NONLANDS if not card.deck_colors <= identity]
        assume(outside)  # a five-color commander allows everything
        card = data.draw(st.sampled_from(outside))
        main[card] += 1
        pool[card] += 1
    elif violation == "deck-too-small":
        while sum(main.values()) + 1 >= 60:
            card = next(iter(c for c in main if main[c] > 0 and c.is_basic_land), None) or next(
                c for c in main if main[c] > 0
            )
            main[card] -= 1
    elif violation == "too-many-copies":
        card = data.draw(st.sampled_from(sorted((c for c in main if not c.is_basic_land), key=lambda c: c.name)))
        main[card] = pool[card] + 1
    else:
        absent = [card for card in NONLANDS if card.deck_colors <= identity and card not in pool]
        assume(absent)
        card = data.draw(st.sampled_from(absent))
        main[card] += 1
    report = validate(Deck.build(commanders, +main), pool)
    assert report.codes() == [violation]


def test_constructed_sideboard_does_not_count_for_singleton():
    deck = constructed()
    card = next(iter(c for c in deck.main if not c.is_basic_land))
    with_side = Deck(deck.lines + (DeckLine(card, 1, Zone.SIDEBOARD),), (), "")
    assert validate(with_side, fmt=DeckFormat.COMMANDER).valid
