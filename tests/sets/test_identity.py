"""Color identity (RULES.md section 4): every seed example, as a small fixture card."""

from __future__ import annotations

import pytest

from sets.cards import Face, Layout
from sets.colors import COLORLESS, Color, ColorIdentity
from sets.identity import basic_type_conflict, color_identity, commander_identity, deck_colors, make_card
from sets.type_line import parse_type_line


def face(
    name: str, cost: str = "", type_line: str = "Creature — Test", text: str = "", indicator: str | None = None
) -> Face:
    supertypes, types, subtypes = parse_type_line(type_line)
    return Face(
        name=name,
        mana_cost=cost,
        type_line=type_line,
        supertypes=supertypes,
        types=types,
        subtypes=subtypes,
        text=text,
        color_indicator=None if indicator is None else ColorIdentity.parse(indicator),
    )


SEEDS = {
    "Memnarch": (
        [
            face(
                "Memnarch",
                "{7}",
                "Legendary Artifact Creature — Wizard",
                "{1}{U}{U}: Target permanent becomes an artifact.",
            )
        ],
        Layout.NORMAL,
        "U",
        "U",
    ),
    "Rhys the Exiled": (
        [
            face(
                "Rhys the Exiled",
                "{2}{G}",
                "Legendary Creature — Elf Warrior",
                "{B}, Sacrifice an Elf: Regenerate Rhys the Exiled.",
            )
        ],
        Layout.NORMAL,
        "BG",
        "BG",
    ),
    "Ghostfire": (
        [face("Ghostfire", "{2}{R}", "Instant", "Ghostfire is colorless.\nGhostfire deals 3 damage to any target.")],
        Layout.NORMAL,
        "R",
        "R",
    ),
    "Flooded Strand": (
        [
            face(
                "Flooded Strand",
                "",
                "Land",
                "{T}, Pay 1 life, Sacrifice Flooded Strand: Search your library for a Plains or Island card.",
            )
        ],
        Layout.NORMAL,
        "",
        "",
    ),
    "Transguild Courier": (
        [face("Transguild Courier", "{4}", "Artifact Creature — Golem", "Transguild Courier is all colors.")],
        Layout.NORMAL,
        "WUBRG",
        "WUBRG",
    ),
    "Civilized Scholar": (
        [
            face("Civilized Scholar", "{2}{U}", "Creature — Human Advisor", "{T}: Draw a card, then discard a card."),
            face(
                "Homicidal Brute",
                "",
                "Creature — Human Mutant",
                "At the beginning of your end step, transform it.",
                indicator="R",
            ),
        ],
        Layout.TRANSFORM,
        "UR",
        "UR",
    ),
    "The Mightstone and Weakstone": (
        [
            face("The Mightstone and Weakstone", "{5}", "Legendary Artifact — Powerstone", "{T}: Add {C}{C}."),
            face("Urza, Planeswalker", "", "Legendary Planeswalker — Urza", "+2: Pay {W}{U}.", indicator="WU"),
        ],
        Layout.MELD,
        "",
        "",
    ),
    "Kellan, the Fae-Blooded": (
        [
            face("Kellan, the Fae-Blooded", "{2}{R}", "Legendary Creature — Human Faerie", "Double strike"),
            face("Birthright Boon", "{1}{W}", "Sorcery — Adventure", "Search for an Aura or Equipment."),
        ],
        Layout.ADVENTURE,
        "WR",
        "WR",
    ),
    "Flayer Husk": (
        [
            face(
                "Flayer Husk",
                "{1}",
                "Artifact — Equipment",
                "Living weapon (When this Equipment enters, create a 0/0 black Phyrexian Germ creature token, then attach this to it.)\nEquip {2}",
            )
        ],
        Layout.NORMAL,
        "",
        "",
    ),
    "Syndic of Tithes": (
        [
            face(
                "Syndic of Tithes",
                "{1}{W}",
                "Creature — Human Cleric",
                "Extort (Whenever you cast a spell, you may pay {W/B}. If you do, each opponent loses 1 life.)",
            )
        ],
        Layout.NORMAL,
        "W",
        "W",
    ),
    "Fallaji Wayfarer": (
        [
            face(
                "Fallaji Wayfarer",
                "{3}{G}",
                "Creature — Human Scout",
                "Fallaji Wayfarer is all colors. This ability doesn't affect its color identity.\nMulticolored spells you cast have convoke.",
            )
        ],
        Layout.NORMAL,
        "G",
        "G",
    ),
    "Treva, the Renewer": (
        [face("Treva, the Renewer", "{3}{G}{W}{U}", "Legendary Creature — Dragon", "Flying")],
        Layout.NORMAL,
        "WUG",
        "WUG",
    ),
    "Tundra": ([face("Tundra", "", "Land — Plains Island", "({T}: Add {W} or {U}.)")], Layout.NORMAL, "", "WU"),
    "Murmuring Bosk": (
        [
            face(
                "Murmuring Bosk",
                "",
                "Land — Forest",
                "({T}: Add {G}.)\nMurmuring Bosk enters tapped.\n{T}: Add {W} or {B}.",
            )
        ],
        Layout.NORMAL,
        "WB",
        "WBG",
    ),
    "Dawnsire, Sunstar Dreadnought": (
        [face("Dawnsire, Sunstar Dreadnought", "{5}", "Legendary Artifact — Spacecraft", "{10}: Deal 100 damage.")],
        Layout.NORMAL,
        "",
        "",
    ),
}


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_seed_examples(name):
    faces, layout, identity, colors = SEEDS[name]
    assert color_identity(faces, layout) == ColorIdentity.parse(identity)
    assert deck_colors(faces, layout) == ColorIdentity.parse(colors)


def test_tundra_needs_white_and_blue_commander():
    tundra = make_card(SEEDS["Tundra"][0])
    assert basic_type_conflict(tundra, ColorIdentity.parse("WU")) == COLORLESS
    assert basic_type_conflict(tundra, ColorIdentity.parse("W")) == ColorIdentity.parse("U")


def test_colorless_commander_allows_no_basic_typed_land():
    dawnsire = make_card(SEEDS["Dawnsire, Sunstar Dreadnought"][0])
    for land in ("Tundra", "Murmuring Bosk"):
        assert basic_type_conflict(make_card(SEEDS[land][0]), dawnsire.identity)
    wastes = make_card([face("Wastes", "", "Basic Land", "({T}: Add {C}.)")])
    assert basic_type_conflict(wastes, dawnsire.identity) == COLORLESS


@pytest.mark.parametrize(
    ("cost", "identity"),
    [("{W/U}", "WU"), ("{2/B}", "B"), ("{G/P}", "G"), ("{G/U/P}", "UG"), ("{HR}", "R"), ("{C}{S}{X}", "")],
)
def test_every_hybrid_color_counts(cost, identity):
    assert color_identity([face("Hybrid", cost)]) == ColorIdentity.parse(identity)


def test_symbols_in_rules_text_count_but_tap_symbols_do_not():
    assert color_identity([face("Signet", "{2}", "Artifact", "{1}, {T}: Add {R}{G}. {E}{E}")]) == ColorIdentity.parse(
        "RG"
    )


def test_reminder_text_nested_in_parentheses_is_ignored():
    text = "Ward (Whenever this becomes the target of a spell (or ability) an opponent controls, counter it unless they pay {U}.)"
    assert color_identity([face("Warded", "{1}{G}", text=text)]) == ColorIdentity.parse("G")


@pytest.mark.parametrize(
    "text", ["Crimson Kobolds is red.", "Crimson Kobolds is red and green.", "This creature is red."]
)
def test_cda_that_sets_colors_counts(text):
    expected = "RG" if "green" in text else "R"
    assert color_identity([face("Crimson Kobolds", "{0}", text=text)]) == ColorIdentity.parse(expected)


def test_cda_about_another_object_does_not_count():
    assert color_identity([face("Painter", "{2}", text="Target creature is black until end of turn.")]) == COLORLESS


def test_split_halves_and_modal_faces_all_count():
    split = [face("Fire", "{1}{R}", "Instant"), face("Ice", "{1}{U}", "Instant")]
    assert color_identity(split, Layout.SPLIT) == ColorIdentity.parse("UR")
    mdfc = [face("Front", "{1}{B}", "Sorcery"), face("Back", "", "Land", "{T}: Add {G}.")]
    assert color_identity(mdfc, Layout.MODAL_DFC) == ColorIdentity.parse("BG")


def test_chosen_color_is_an_explicit_input(cmr):
    piper = cmr.card("1")
    assert piper.identity == COLORLESS
    assert commander_identity(piper, Color.G) == ColorIdentity.parse("G")
    assert color_identity(piper.faces, piper.layout, chosen=Color.U) == ColorIdentity.parse("U")
    with pytest.raises(ValueError, match="does not choose a color"):
        commander_identity(cmr.card("186"), Color.G)


def test_curly_apostrophe_in_the_identity_exception():
    wayfarer = face(
        "Fallaji Wayfarer",
        "{3}{G}",
        text="Fallaji Wayfarer is all colors. This ability doesn’t affect its color identity.",
    )
    assert color_identity([wayfarer]) == ColorIdentity.parse("G")


@pytest.mark.parametrize(
    ("faces", "layout", "identity", "colors"),
    [
        # a land with a granted mana ability in quotes counts; its reminder text does not
        (
            [face("Utopia Sprawl", "{G}", "Enchantment — Aura", 'Enchant Forest\nEnchanted land has "{T}: Add {R}."')],
            Layout.NORMAL,
            "RG",
            "RG",
        ),
        # a triome: identity from nothing but reminder text, deck colors from three basic types
        (
            [face("Savai Triome", "", "Land — Mountain Plains Swamp", "({T}: Add {R}, {W}, or {B}.)\nCycling {3}")],
            Layout.NORMAL,
            "",
            "WBR",
        ),
        # a color indicator with no mana cost at all
        ([face("Ancestral Vision", "", "Sorcery", "Suspend 4—{U}", indicator="U")], Layout.NORMAL, "U", "U"),
        # devoid: colorless card, colored cost
        (
            [face("Eldrazi Spawnlord", "{3}{B}", "Creature — Eldrazi", "Devoid (This card has no color.)")],
            Layout.NORMAL,
            "B",
            "B",
        ),
        # flip card: both halves count
        (
            [
                face("Akki Lavarunner", "{3}{R}", "Creature — Goblin Warrior", "Flip it."),
                face(
                    "Tok-Tok, Volcano Born",
                    "",
                    "Legendary Creature — Goblin Shaman",
                    "Protection from red. {W}: nothing.",
                ),
            ],
            Layout.FLIP,
            "WR",
            "WR",
        ),
        # prototype cost in the text counts
        (
            [
                face(
                    "Blitz Automaton",
                    "{7}",
                    "Artifact Creature — Construct",
                    "Prototype {2}{R} — 3/4 (You may cast it for its prototype cost.)\nHaste",
                )
            ],
            Layout.PROTOTYPE,
            "R",
            "R",
        ),
        # Dryad Arbor: indicator and a basic type
        (
            [face("Dryad Arbor", "", "Land Creature — Forest Dryad", "(Dryad Arbor isn't a spell.)", indicator="G")],
            Layout.NORMAL,
            "G",
            "G",
        ),
    ],
)
def test_more_real_card_shapes(faces, layout, identity, colors):
    assert color_identity(faces, layout) == ColorIdentity.parse(identity)
    assert deck_colors(faces, layout) == ColorIdentity.parse(colors)
