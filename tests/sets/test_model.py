"""Colors, mana costs, rarities, layouts and commander facts."""

from __future__ import annotations

import copy
import pickle
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sets.card_facts import commander_facts
from sets.cards import CommanderAbility, Face, Layout, Rarity, normalize_name
from sets.catalog import load_set
from sets.colors import ALL_COLORS, COLORLESS, Color, ColorIdentity
from sets.errors import ColorError, ManaCostError
from sets.mana import ManaCost, ManaSymbol, SymbolKind
from sets.type_line import parse_type_line


def test_identity_is_set_like_and_wubrg_ordered():
    wug = ColorIdentity.parse("gwu")
    assert str(wug) == "WUG" and wug.letters == ["W", "U", "G"]
    assert ColorIdentity.parse("WU") <= wug and not wug <= ColorIdentity.parse("WU")
    assert ColorIdentity.parse("W") | ColorIdentity.parse("B") == ColorIdentity.parse("WB")
    assert str(COLORLESS) == "C" and ColorIdentity.parse("C") == COLORLESS and COLORLESS <= ALL_COLORS
    assert eval(repr(wug)) == wug
    assert Color.G in wug and Color.B not in wug and len(wug) == 3


@pytest.mark.parametrize("text", ["blue", "U", "u", " Blue "])
def test_color_parses_letters_and_words(text):
    assert Color.parse(text) is Color.U


def test_bad_color_is_a_clear_error():
    with pytest.raises(ColorError, match="unknown color 'purple'"):
        Color.parse("purple")
    with pytest.raises(ColorError, match="unknown color identity 'WQ'"):
        ColorIdentity.parse("WQ")


@given(st.sets(st.sampled_from(list(Color))))
def test_identity_text_round_trips(colors):
    identity = ColorIdentity.of(colors)
    assert ColorIdentity.parse(str(identity)) == identity
    assert set(identity) == colors


@pytest.mark.parametrize(
    ("symbol", "kind", "colors", "value"),
    [
        ("{3}", SymbolKind.GENERIC, "", 3),
        ("{W}", SymbolKind.COLORED, "W", 1),
        ("{C}", SymbolKind.COLORLESS, "", 1),
        ("{X}", SymbolKind.VARIABLE, "", 0),
        ("{S}", SymbolKind.SNOW, "", 1),
        ("{W/U}", SymbolKind.HYBRID, "WU", 1),
        ("{2/W}", SymbolKind.MONO_HYBRID, "W", 2),
        ("{W/P}", SymbolKind.PHYREXIAN, "W", 1),
        ("{G/U/P}", SymbolKind.HYBRID_PHYREXIAN, "UG", 1),
        ("{HW}", SymbolKind.HALF, "W", 0.5),
    ],
)
def test_every_symbol_kind(symbol, kind, colors, value):
    parsed = ManaSymbol.parse(symbol)
    assert (parsed.kind, parsed.colors, parsed.value) == (kind, ColorIdentity.parse(colors), value)
    assert str(parsed) == symbol


def test_cost_mana_value_and_colors():
    cost = ManaCost.parse("{X}{2}{W}{U/B}{2/G}{G/U/P}")
    assert cost.mana_value == 7
    assert cost.colors == ColorIdentity.parse("WUBG")
    assert str(cost) == "{X}{2}{W}{U/B}{2/G}{G/U/P}"
    assert ManaCost.parse("") == ManaCost() and not ManaCost.parse("")


@pytest.mark.parametrize("bad", ["{2}{Q}", "2W", "{W", "{W}}", "{W}{", "{}", "{W/W}", "{2}x"])
def test_malformed_cost_is_a_clear_error(bad):
    with pytest.raises(ManaCostError, match="bad mana cost"):
        ManaCost.parse(bad)


_SYMBOLS = st.sampled_from(
    ["{1}", "{12}", "{W}", "{U}", "{B}", "{R}", "{G}", "{C}", "{X}", "{S}", "{W/U}", "{2/R}", "{B/P}", "{G/W/P}"]
)


@given(st.lists(_SYMBOLS, max_size=8))
def test_cost_text_round_trips(symbols):
    text = "".join(symbols)
    assert str(ManaCost.parse(text)) == text


def test_rarity_parses_words_and_letters():
    assert Rarity.parse("M") is Rarity.MYTHIC and Rarity.parse("special") is Rarity.SPECIAL
    assert Rarity.MYTHIC.letter == "M"


@pytest.mark.parametrize(
    ("raw", "layout"),
    [
        ("modal_dfc", Layout.MODAL_DFC),
        ("transform", Layout.TRANSFORM),
        ("aftermath", Layout.SPLIT),
        ("saga", Layout.NORMAL),
        ("meld", Layout.MELD),
        ("flip", Layout.FLIP),
        ("prototype", Layout.PROTOTYPE),
    ],
)
def test_layouts(raw, layout):
    assert Layout.parse(raw) is layout


def test_type_line_keeps_time_lord_whole():
    assert parse_type_line("Legendary Creature — Time Lord Doctor") == (
        ("Legendary",),
        ("Creature",),
        ("Time Lord", "Doctor"),
    )


def _facts(type_line: str, text: str = ""):
    supertypes, types, subtypes = parse_type_line(type_line)
    return commander_facts(Face("X", "", type_line, supertypes, types, subtypes, text))


@pytest.mark.parametrize(
    ("type_line", "text", "ability"),
    [
        ("Legendary Creature — Elf", "", CommanderAbility.LEGENDARY_CREATURE),
        ("Legendary Planeswalker — Jeska", "Jeska can be your commander.", CommanderAbility.CAN_BE_COMMANDER),
        (
            "Legendary Creature — Elf",
            "Flying\nPartner (You can have two commanders if both have partner.)",
            CommanderAbility.PARTNER,
        ),
        (
            "Legendary Creature — Human",
            "Partner with Pir, Imaginative Rascal (When this enters...)",
            CommanderAbility.PARTNER_WITH,
        ),
        (
            "Legendary Creature — Human",
            "Friends forever (You can have two commanders if both have friends forever.)",
            CommanderAbility.FRIENDS_FOREVER,
        ),
        (
            "Legendary Creature — Elf",
            "Choose a Background (You can have a Background as a second commander.)",
            CommanderAbility.CHOOSE_A_BACKGROUND,
        ),
        ("Legendary Enchantment — Background", "Commander creatures you own have flying.", CommanderAbility.BACKGROUND),
        (
            "Legendary Creature — Human",
            "Doctor's companion (You can have two commanders if the other is the Doctor.)",
            CommanderAbility.DOCTORS_COMPANION,
        ),
        ("Legendary Creature — Time Lord Doctor", "", CommanderAbility.TIME_LORD_DOCTOR),
        (
            "Legendary Creature — Shapeshifter",
            "If this is your commander, choose a color before the game begins.",
            CommanderAbility.CHOOSES_COLOR,
        ),
    ],
)
def test_commander_abilities(type_line, text, ability):
    abilities, _, _ = _facts(type_line, text)
    assert ability in abilities


def test_partner_with_names_the_partner():
    _, partner_with, _ = _facts(
        "Legendary Creature — Human", "Partner with Pir, Imaginative Rascal (When this enters, ...)"
    )
    assert partner_with == "Pir, Imaginative Rascal"


def test_reminder_mentioning_partner_is_not_partner():
    abilities, _, _ = _facts("Creature — Elf", "Flying (This is not a partner.)")
    assert not abilities


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("JESKA, thrice reborn", "Jeska, Thrice Reborn"),
        ("jeska thrice reborn", "Jeska, Thrice Reborn"),
        ("Lim-Dul's Vault", "Lim-Dûl's Vault"),
        ("fire/ice", "Fire // Ice"),
        # Card data writes a colon inside a name as U+A789 MODIFIER LETTER COLON; people type ":" or nothing there.
        ("Ratonhnhake:ton", "Ratonhnhak\u00e9\ua789ton"),
        ("ratonhnhake ton", "Ratonhnhak\u00e9\ua789ton"),
        # An ampersand is the word "and", as people say the name.
        ("Minsc and Boo, Timeless Heroes", "Minsc & Boo, Timeless Heroes"),
        ("minsc&boo", "Minsc and Boo"),
    ],
)
def test_name_normalization(typed, name):
    assert normalize_name(typed) == normalize_name(name)


def test_curly_apostrophes_in_oracle_text():
    abilities, _, _ = _facts("Legendary Creature — Human", "Doctor’s companion")
    assert CommanderAbility.DOCTORS_COMPANION in abilities


def test_a_card_hashes_as_its_key_and_equal_cards_alike_through_copies_and_replace():
    """Issue 41: ``Card.__hash__`` reads the key's hash kept at construction (no Python frame); it is the hash of
    (set, number, name), the same for an equal copy (pickled, copied, rebuilt) and a new one for a changed card, and
    the facts read once at construction (basic land, may lead) follow a change too."""
    card = next(c for c in load_set("CMR") if c.name == "Akroma, Vision of Ixidor")
    assert hash(card) == hash((card.set_code, card.number, card.name))
    for twin in (pickle.loads(pickle.dumps(card)), copy.deepcopy(card), replace(card)):
        assert twin == card and hash(twin) == hash(card) and {card: 1}[twin] == 1
    renamed = replace(card, name="Akroma Renamed")
    assert hash(renamed) == hash((card.set_code, card.number, "Akroma Renamed")) and renamed != card
    assert card.can_be_commander and not card.is_basic_land
    assert not replace(card, abilities=frozenset()).can_be_commander
