"""Our own ratings for Battle for Baldur's Gate (CLB) and Commander Masters (CMM), beside CMR's (issue 40, item 3).

The checks that read a card's facts take them from the shared card lists (``../shared/data/<set>/cards.json``) when
they sit beside the project: which cards are cheap unconditional removal, which are plain bodies, which take the
initiative or the monarchy, which are Backgrounds.  The expectations come from those facts and from how a strong
drafter of 40-life pods ranks such cards, never from the figures under test.
"""

from __future__ import annotations

import json
import re
import statistics
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from draft import reference
from draft.rating_build import build_entries, build_set, judgement_of, load_list
from draft.ratings import ROLES, committed, evaluate
from sets.cards import Card, CommanderAbility, Face, Rarity
from sets.identity import make_card
from sets.mana import ManaCost
from sets.type_line import parse_type_line
from tests.helpers.paths import SHARED_DATA
from tests.helpers.reference import REFERENCE_ROLES

SETS = {"CLB": 361, "CMM": 436}
ADDED_CARD = {"CLB": "Faceless One", "CMM": "The Prismatic Piper"}  # number 1 of each list, added after the draft


def _document(code: str) -> dict[str, Any]:
    text = resources.files("draft").joinpath("data", f"{code.lower()}_ratings.json").read_text(encoding="utf-8")
    return json.loads(text)


def _list_path(code: str) -> Path:
    return SHARED_DATA / code.lower() / "cards.json"


needs_lists = pytest.mark.skipif(
    not all(_list_path(code).is_file() for code in SETS), reason="needs the shared CLB and CMM card lists"
)


@pytest.fixture(scope="module")
def lists() -> dict[str, list[Card]]:
    return {code: load_list(_list_path(code)) for code in SETS}


# --- the files -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("code", sorted(SETS))
def test_each_set_file_rates_every_card_in_the_cmr_files_shape_and_scale(code: str) -> None:
    document = _document(code)
    cmr = _document("CMR")
    assert document["format"] == cmr["format"] and document["scale"] == cmr["scale"] and document["set"] == code
    assert len(document["cards"]) == SETS[code]
    for name, entry in document["cards"].items():
        assert set(entry) == {"rating", "roles"}, name  # figures and tags only: no rules text
        assert isinstance(entry["rating"], float | int) and 0 < entry["rating"] <= 5, name
        assert set(entry["roles"]) <= set(ROLES) and len(set(entry["roles"])) == len(entry["roles"]), name


@pytest.mark.parametrize("code", sorted(SETS))
def test_the_card_added_after_the_draft_is_worth_nothing_as_a_pick(code: str) -> None:
    cards = _document(code)["cards"]
    added = cards[ADDED_CARD[code]]
    assert added["roles"] == []
    assert added["rating"] == min(entry["rating"] for entry in cards.values())
    assert sum(entry["rating"] == added["rating"] for entry in cards.values()) == 1


@needs_lists
@pytest.mark.parametrize("code", sorted(SETS))
def test_every_draftable_card_of_the_list_has_a_rating(code: str, lists: dict[str, list[Card]]) -> None:
    names = {card.name for card in lists[code]}
    assert len(names) == SETS[code] == len(lists[code])
    assert set(_document(code)["cards"]) == names


@needs_lists
@pytest.mark.parametrize("code", sorted(SETS))
def test_the_committed_file_is_what_the_rules_and_the_hand_judgement_make(code: str) -> None:
    assert build_set(str(_list_path(code))) == (code, _document(code)["cards"])


@needs_lists
def test_a_hand_graded_set_refuses_a_card_without_a_judgement_and_applies_added_and_dropped_roles(
    lists: dict[str, list[Card]],
) -> None:
    judged = judgement_of("CLB")
    card = next(card for card in lists["CLB"] if card.name == "Goliath Paladin")
    missing = dict(judged)
    del missing[card.name]
    with pytest.raises(ValueError, match="Goliath Paladin"):
        build_entries(lists["CLB"], missing, by_hand=True)
    entry = build_entries([card], {card.name: (4.2, ("bomb", "-initiative"))}, by_hand=True)[card.name]
    assert entry == {"rating": 4.2, "roles": ["bomb"]}


# --- found by set code -----------------------------------------------------------------------------------------


def _card(name: str, code: str) -> Card:
    """A card of the set as an imported file gives it (a 3/3 for {4}{W} whose text wasn't imported)."""
    type_line = "Creature — Giant Knight"
    face = Face(
        name,
        "{4}{W}",
        type_line,
        *parse_type_line(type_line),
        "",
        ManaCost.parse("{4}{W}").colors,
        power="3",
        toughness="3",
    )
    return make_card([face], name=name, set_code=code, number="21", rarity=Rarity.COMMON)


@pytest.mark.parametrize(("code", "name"), [("CLB", "Goliath Paladin"), ("CMM", "Palace Jailer")])
def test_a_card_of_the_set_is_rated_from_its_sets_file_by_set_code(code: str, name: str) -> None:
    expected = _document(code)["cards"][name]
    assert committed(code)[name] == (expected["rating"], tuple(expected["roles"]))
    assert evaluate(_card(name, code)) == (expected["rating"], tuple(expected["roles"]))
    # The same card in another set has no committed figure: the rules on its facts rate it.
    assert evaluate(_card(name, "ZZZ")) != evaluate(_card(name, code))


# --- a strong drafter's order, from the cards' facts -----------------------------------------------------------

_CHEAP_KILL = re.compile(r"^(destroy|exile) target (nonlegendary )?creature[.,]", re.IGNORECASE)
_KEYWORDS = {"flying", "vigilance", "reach", "trample", "myriad", "haste", "menace", "defender", "deathtouch"}
_LEADS_TOGETHER = {CommanderAbility.PARTNER, CommanderAbility.PARTNER_WITH, CommanderAbility.FRIENDS_FOREVER}


def _text(card: Card) -> str:
    return "\n".join(face.text for face in card.faces if face.text)


def _rating(code: str, card: Card) -> float:
    return float(_document(code)["cards"][card.name]["rating"])


def _roles(code: str, card: Card) -> list[str]:
    return list(_document(code)["cards"][card.name]["roles"])


def _plain_body(card: Card) -> bool:
    """A creature with nothing but keywords (or no text at all): a vanilla or French-vanilla body."""
    if not card.has_type("Creature") or card.is_legendary or " // " in card.name:
        return False
    words = re.sub(r"\([^)]*\)", "", _text(card)).replace(",", " ").lower().split()
    return all(word in _KEYWORDS for word in words)


@needs_lists
@pytest.mark.parametrize("code", sorted(SETS))
def test_cheap_unconditional_removal_rates_well_above_every_plain_common_body_and_colorless_filler(
    code: str, lists: dict[str, list[Card]]
) -> None:
    cards = lists[code]
    removal = [
        card
        for card in cards
        if (card.has_type("Instant") or card.has_type("Sorcery"))
        and card.mana_value <= 3
        and any(_CHEAP_KILL.match(line.strip()) for line in _text(card).splitlines())
    ]
    bodies = [card for card in cards if _plain_body(card) and card.rarity is Rarity.COMMON]
    assert len(removal) >= 2 and len(bodies) >= 2, ([c.name for c in removal], [c.name for c in bodies])
    worst_removal = min(_rating(code, card) for card in removal)
    assert worst_removal >= 2.8
    assert worst_removal > max(_rating(code, card) for card in bodies) + 0.5
    for card in removal:
        assert "removal" in _roles(code, card), card.name
    # Colorless equipment and rocks that neither make mana nor draw: what a drafter plays only to reach 60.
    junk = [
        card
        for card in cards
        if not card.deck_colors
        and card.has_type("Artifact")
        and not card.has_type("Creature")
        and not re.search(r"\badd\b|\bdraws?\b|treasure|\bdestroy\b|initiative|monarch", _text(card), re.IGNORECASE)
    ]
    assert len(junk) >= 5
    assert statistics.median(_rating(code, card) for card in junk) < 1.4 < worst_removal


@needs_lists
@pytest.mark.parametrize("code", sorted(SETS))
def test_cards_that_take_the_initiative_or_the_monarchy_are_tagged_and_rated_over_the_sets_median(
    code: str, lists: dict[str, list[Card]]
) -> None:
    median = statistics.median(_rating(code, card) for card in lists[code])
    crowned = [card for card in lists[code] if re.search(r"take the initiative|become the monarch", _text(card))]
    assert len(crowned) >= 4
    for card in crowned:
        role = "initiative" if "initiative" in _text(card) else "monarch"
        assert role in _roles(code, card), card.name
        assert _rating(code, card) > median, card.name


@needs_lists
def test_clb_backgrounds_and_the_legends_that_choose_them_are_tagged_and_playable(
    lists: dict[str, list[Card]],
) -> None:
    cards = [card for card in lists["CLB"] if card.name != ADDED_CARD["CLB"]]
    backgrounds = [card for card in cards if "Background" in card.front.subtypes and card.is_legendary]
    choosers = [card for card in cards if "choose a background" in _text(card).lower()]
    assert len(backgrounds) >= 20 and len(choosers) >= 20
    assert all("background" in _roles("CLB", card) for card in backgrounds)
    assert all({"commander", "choose-a-background"} <= set(_roles("CLB", card)) for card in choosers)
    assert not any("partner" in _roles("CLB", card) for card in choosers)  # it pairs with a Background only
    commons = [card for card in cards if card.rarity is Rarity.COMMON and not card.is_land]
    # A Background is half a commander pair: as a group, worth more than the common spell a player cuts for it.
    assert statistics.median(_rating("CLB", card) for card in backgrounds) >= statistics.median(
        _rating("CLB", card) for card in commons
    )
    assert statistics.median(_rating("CLB", card) for card in choosers) > statistics.median(
        _rating("CLB", card) for card in commons
    )


@needs_lists
def test_cmm_mono_colored_legends_are_tagged_as_commanders_that_pair(lists: dict[str, list[Card]]) -> None:
    legends = [card for card in lists["CMM"] if card.can_be_commander and card.name != ADDED_CARD["CMM"]]
    mono = [card for card in legends if len(card.identity) == 1]
    others = [card for card in legends if len(card.identity) != 1 and not card.abilities & _LEADS_TOGETHER]
    assert len(mono) >= 80 and len(others) >= 25
    assert all({"commander", "partner"} <= set(_roles("CMM", card)) for card in mono)
    assert not any("partner" in _roles("CMM", card) for card in others)
    commons = [card for card in lists["CMM"] if card.rarity is Rarity.COMMON and not card.is_land]
    assert statistics.median(_rating("CMM", card) for card in mono) > statistics.median(
        _rating("CMM", card) for card in commons
    )


# Pairs a strong drafter of these sets would not argue over: a bomb, premium removal or a card that takes the
# initiative or the monarchy over a weak legend, colorless junk, a slow artifact or a situational card.
DRAFTERS_ORDER = {
    "CLB": [
        ("Minsc & Boo, Timeless Heroes", "Gorion, Wise Mentor"),
        ("Murder", "Fraying Line"),
        ("Lightning Bolt", "Campfire"),
        ("Goliath Paladin", "Chardalyn Dragon"),
        ("Underdark Explorer", "Arcane Encyclopedia"),
        ("Astarion's Thirst", "Blade of Selves"),
        ("Battle Angels of Tyr", "Legion Loyalty"),
        ("Ancient Copper Dragon", "Storm King's Thunder"),
        ("Guild Artisan", "Dungeon Delver"),
        ("Karlach, Fury of Avernus", "Neera, Wild Mage"),
    ],
    "CMM": [
        ("Palace Jailer", "Brass Knuckles"),
        ("Path to Exile", "Explorer's Scope"),
        ("Inferno Titan", "Ulamog's Crusher"),
        ("Heartless Act", "Assault Suit"),
        ("Thorn of the Black Rose", "Haunted Cloak"),
        ("Staunch Throneguard", "Spectral Searchlight"),
        ("Balefire Dragon", "Insurrection"),
        ("Rankle, Master of Pranks", "Squee, Goblin Nabob"),
        ("Wrath of God", "Boompile"),
        ("Reality Shift", "Personal Tutor"),
    ],
}


@pytest.mark.parametrize("code", sorted(SETS))
def test_the_ratings_order_cards_as_a_strong_drafter_would(code: str) -> None:
    cards = _document(code)["cards"]
    for strong, weak in DRAFTERS_ORDER[code]:
        assert cards[strong]["rating"] >= cards[weak]["rating"] + 1.0, (strong, weak)


# Sets of like power, whose drafters would grade one card alike: CMR and CLB (Commander Masters is a stronger set,
# where a reprint of a CMR card is rightly a little weaker for its company).
LIKE_POWER = ("CMR", "CLB")


def _twin_key(card: Card) -> tuple[Any, ...]:
    """What a card does, its name and creature types aside: cost, card types, power and toughness, rules text."""
    face = card.faces[0]
    text = "\n".join(face.text for face in card.faces).replace(card.name, "~").replace(card.name.split(",")[0], "~")
    return (face.mana_cost, face.supertypes, face.types, face.power, face.toughness, text)


@pytest.mark.skipif(
    not all(_list_path(code).is_file() for code in LIKE_POWER), reason="needs the shared CMR and CLB card lists"
)
def test_a_card_and_its_functional_twin_in_a_set_of_like_power_are_graded_alike() -> None:
    """A card whose twin (same cost, types, stats and text under another name) the other set's pass graded is worth
    the same in a 4-player pod: the judge grades both alike and the bots rate them within a grade's half step (the
    CLB pass had Chardalyn Dragon, CMR's Lumengrid Gargoyle renamed a Dragon, at the filler line, 1.5 against 2.0)."""
    twins: dict[tuple[Any, ...], list[tuple[str, Card]]] = {}
    for code in LIKE_POWER:
        for card in load_list(_list_path(code)):
            twins.setdefault(_twin_key(card), []).append((code, card))
    pairs = [group for group in twins.values() if len({code for code, _ in group}) == len(LIKE_POWER)]
    assert any(card.name == "Chardalyn Dragon" for group in pairs for _, card in group)
    for group in pairs:
        grades = {_reference(code)["cards"][card.name]["grade"] for code, card in group}
        ratings = [_document(code)["cards"][card.name]["rating"] for code, card in group]
        names = [card.name for _, card in group]
        assert len(grades) == 1, names
        assert max(ratings) - min(ratings) <= 0.4 + 1e-9, names


# --- the reference grades the judge reads ----------------------------------------------------------------------


def _reference(code: str) -> dict[str, Any]:
    text = resources.files("draft").joinpath("data", f"{code.lower()}_reference.json").read_text(encoding="utf-8")
    return json.loads(text)


@pytest.mark.parametrize("code", sorted(SETS))
def test_the_reference_grades_every_card_of_the_set_in_half_steps_with_a_role(code: str) -> None:
    document = _reference(code)
    assert document["format"] == "cmdraft-reference/1" and document["set"] == code
    assert set(document["cards"]) == set(_document(code)["cards"])
    for name, entry in document["cards"].items():
        assert set(entry) == {"grade", "role"}, name  # facts and judgement only: no rules text
        assert 0 <= entry["grade"] <= 5 and entry["grade"] * 2 == int(entry["grade"] * 2), name
        assert entry["role"] in REFERENCE_ROLES, name
    assert document["cards"][ADDED_CARD[code]] == {"grade": 0.5, "role": "filler"}


@pytest.mark.parametrize(("code", "name"), [("CLB", "Goliath Paladin"), ("CMM", "Palace Jailer")])
def test_the_judge_grades_a_card_from_its_own_sets_reference_and_skips_a_set_without_one(code: str, name: str) -> None:
    expected = _reference(code)["cards"][name]
    assert (
        reference.grade(_card(name, code)) == expected["grade"]
        and reference.role(_card(name, code)) == expected["role"]
    )
    assert reference.grade(_card(name, "ZZZ")) is None and reference.role(_card(name, "ZZZ")) is None
    assert reference.grades("ZZZ") == {}


@needs_lists
@pytest.mark.parametrize("code", sorted(SETS))
def test_the_reference_calls_cheap_removal_good_and_colorless_junk_filler(
    code: str, lists: dict[str, list[Card]]
) -> None:
    for card in lists[code]:
        text = _text(card)
        if (card.has_type("Instant") or card.has_type("Sorcery")) and card.mana_value <= 3:
            if any(_CHEAP_KILL.match(line.strip()) for line in text.splitlines()):
                assert reference.is_good(card) and reference.role(card) == "removal", card.name
        if card.name == ADDED_CARD[code] or (
            card.has_type("Equipment") and not card.deck_colors and not re.search(r"\bdraw|\bdestroy|create", text)
        ):
            assert reference.grade(card) is not None and reference.grade(card) <= 2.0, card.name
