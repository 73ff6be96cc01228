"""Audit with real cards of many sets (tests/fixtures/real_probe.json, code RPB, written by make_real_probe.py).

The cards are real, with their type lines, costs, layouts and Oracle text; the verdicts come from the
Comprehensive Rules (903.3, 903.4, 903.5, 702.124, 100.2a) and from what other tools read (MTG Arena,
Forge, Cockatrice, MTGO), never from the code under test.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import xml.etree.ElementTree as ElementTree
from collections import Counter
from pathlib import Path

import pytest

from draft.commanders import can_pair
from draft.deck_rules import validate
from draft.decks import Deck, DeckFormat
from draft.formats import FileFormat, write
from sets.card_index import CardIndex
from sets.catalog import load_set
from sets.colors import ColorIdentity
from sets.importers import read_card_file
from tests.helpers.paths import FIXTURES

FIXTURE = FIXTURES / "real_probe.json"


@pytest.fixture(scope="module")
def rpb() -> CardIndex:
    from sets.basics import basic_lands

    return CardIndex([*read_card_file(FIXTURE).card_sets(), basic_lands()])


@pytest.fixture
def imported(cli) -> Path:
    result = cli("sets", "import", FIXTURE)
    assert result.exit_code == 0, result.output
    return FIXTURE


def codes(report) -> list[str]:
    return [problem.code for problem in report.problems]


# --- Commanders (CR 903.3) -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "leads"),
    [
        ("Grist, the Hunger Tide", True),  # a creature card everywhere but the battlefield
        ("Daretti, Scrap Savant", True),  # "can be your commander"
        ("Ajani, Sleeper Agent", False),  # a legendary planeswalker that says neither
        ("Parhelion II", True),  # legendary Vehicle with printed power and toughness
        ("Smuggler's Copter", False),  # a Vehicle that isn't legendary
        ("Mox Amber", False),  # a legendary artifact
        ("Westvale Abbey", False),  # a land whose back face is a legendary creature
        ("Kytheon, Hero of Akros", True),  # a legendary creature front face
        ("Esika, God of the Tree", True),  # a modal DFC with a legendary creature front
        ("Erayo, Soratami Ascendant", True),  # a flip card, legendary creature unflipped
        ("Akki Lavarunner", False),  # a flip card legendary only when flipped
        ("Urza, Lord Protector", True),  # a meld front half that is a legendary creature
        ("The Mightstone and Weakstone", False),  # the other meld half, a legendary artifact
        ("Raised by Giants", False),  # a Background leads only beside a chooser
        ("Kozilek, the Great Distortion", True),
    ],
)
def test_who_can_lead(rpb, name, leads):
    assert rpb.find(name).can_be_commander is leads


def test_grist_leads_a_constructed_commander_deck(rpb):
    deck = Deck.build(
        [rpb.find("Grist, the Hunger Tide")], {rpb.find("Murder"): 1, rpb.find("Forest"): 49, rpb.find("Swamp"): 49}
    )
    assert codes(validate(deck, fmt=DeckFormat.COMMANDER)) == []


def test_a_stored_set_keeps_grist_a_commander(imported):
    stored = {c.name: c for c in load_set("RPB")}
    assert stored["Grist, the Hunger Tide"].can_be_commander
    assert not stored["Ajani, Sleeper Agent"].can_be_commander


# --- Pairs (CR 702.124) ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "pair"),
    [
        ("Thrasios, Triton Hero", "Tymna the Weaver", True),
        ("Pir, Imaginative Rascal", "Toothy, Imaginary Friend", True),
        ("Pir, Imaginative Rascal", "Thrasios, Triton Hero", False),
        ("Kratos, God of War", "Atreus, God of Mischief", True),  # Partner—Father & son
        ("Kratos, God of War", "Thrasios, Triton Hero", False),
        ("Eleven, the Mage", "Mike, the Dungeon Master", True),  # Friends forever = Partner—Friends forever
        ("Eleven, the Mage", "Tymna the Weaver", False),
        ("Rose Tyler", "The Tenth Doctor", True),  # Doctor's companion + Time Lord Doctor
        ("Rose Tyler", "Thrasios, Triton Hero", False),
        ("Lae'zel, Vlaakith's Champion", "Raised by Giants", True),  # Choose a Background
        ("Lae'zel, Vlaakith's Champion", "Tymna the Weaver", False),
    ],
)
def test_pairs(rpb, first, second, pair):
    a, b = rpb.find(first), rpb.find(second)
    assert can_pair(a, b) is pair and can_pair(b, a) is pair


# --- Color identity (CR 903.4) and basic land types (903.5d) ----------------------------------------------


@pytest.mark.parametrize(
    ("name", "identity", "deck_colors"),
    [
        ("Kitchen Finks", "GW", "GW"),  # hybrid
        ("Beseech the Queen", "B", "B"),  # {2/B}
        ("Gitaxian Probe", "U", "U"),  # Phyrexian
        ("Ajani, Sleeper Agent", "GW", "GW"),  # Phyrexian hybrid {G/W/P}
        ("Syndic of Tithes", "W", "W"),  # extort's {W/B} is reminder text
        ("Dryad Arbor", "G", "G"),  # color indicator
        ("Ancestral Vision", "U", "U"),  # color indicator, no cost
        ("Transguild Courier", "WUBRG", "WUBRG"),  # "is all colors"
        ("Civilized Scholar", "UR", "UR"),  # the back face's color indicator
        ("Westvale Abbey", "B", "B"),  # the back face's color indicator
        ("Esika, God of the Tree", "WUBRG", "WUBRG"),  # the back face's cost
        ("Fire // Ice", "UR", "UR"),
        ("Cut // Ribbons", "BR", "BR"),
        ("Murmuring Bosk", "WB", "WBG"),  # a Forest that adds {W} or {B}
        ("Breeding Pool", "", "GU"),
        ("Kozilek, the Great Distortion", "", ""),  # {C} is no color
        ("Eldrazi Displacer", "W", "W"),  # devoid: colorless, but {W} in its cost
        ("Arcane Signet", "", ""),
        ("Wastes", "", ""),
        ("Snow-Covered Forest", "", "G"),
    ],
)
def test_identities(rpb, name, identity, deck_colors):
    card = rpb.find(name)
    assert (card.identity, card.deck_colors) == (ColorIdentity.parse(identity), ColorIdentity.parse(deck_colors))


# --- Copy limits (CR 100.2a, 903.5b) ------------------------------------------------------------------------


def _singleton_deck(rpb, commander, counts):
    main = {rpb.find(name): n for name, n in counts.items()}
    return Deck.build([rpb.find(commander)], main)


def test_copy_limits_written_on_cards(rpb):
    legal = _singleton_deck(
        rpb,
        "Lim-Dûl the Necromancer",
        {"Relentless Rats": 40, "Nazgûl": 9, "Murder": 1, "Typhoid Rats": 1, "Snow-Covered Swamp": 10, "Swamp": 38},
    )
    assert codes(validate(legal, fmt=DeckFormat.COMMANDER)) == []
    over = _singleton_deck(
        rpb, "Lim-Dûl the Necromancer", {"Relentless Rats": 40, "Nazgûl": 10, "Murder": 2, "Swamp": 47}
    )
    assert sorted(codes(validate(over, fmt=DeckFormat.COMMANDER))) == ["too-many-copies", "too-many-copies"]
    dwarves = _singleton_deck(
        rpb, "Daretti, Scrap Savant", {"Seven Dwarves": 8, "Dragon's Approach": 20, "Mountain": 71}
    )
    assert codes(validate(dwarves, fmt=DeckFormat.COMMANDER)) == ["too-many-copies"]


# --- Names ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "found"),
    [
        ("Kongming, “Sleeping Dragon”", 'Kongming, "Sleeping Dragon"'),
        ("Lim-Dul the Necromancer", "Lim-Dûl the Necromancer"),
        ("Nazgul", "Nazgûl"),
        ("Fire/Ice", "Fire // Ice"),
        # MTG Arena names Amonkhet Remastered's split cards with three slashes (Draftmancer's MTGA export writes it).
        ("Cut /// Ribbons", "Cut // Ribbons"),
        ("Ice", "Fire // Ice"),
        ("Ribbons", "Cut // Ribbons"),
        ("Bonecrusher Giant // Stomp", "Bonecrusher Giant // Stomp"),
        ("Westvale Abbey", "Westvale Abbey // Ormendahl, Profane Prince"),
    ],
)
def test_names_are_found(rpb, typed, found):
    assert rpb.find(typed).name == found


# --- Files other tools read -------------------------------------------------------------------------------


def _mixed_deck(rpb) -> Deck:
    names = [
        "Fire // Ice",
        "Cut // Ribbons",
        "Bonecrusher Giant",
        "Westvale Abbey",
        "Kytheon, Hero of Akros",
        "Erayo, Soratami Ascendant",
        "Urza, Lord Protector",
        "Nazgûl",
        "Wastes",
        "Snow-Covered Island",
    ]
    return Deck.build(
        [rpb.find("Esika, God of the Tree"), rpb.find('Kongming, "Sleeping Dragon"')],
        {rpb.find(name): 1 for name in names},
    )


# The names MTG Arena and Forge know these cards by (Cockatrice too, but for adventure cards): the front face of a
# double-faced, adventure, flip or meld card (Arena refuses "Murderous Rider // Swift End"; Forge's card database
# keys such a card by its front face), and a split card's two halves joined by " // ".
TOOL_NAMES = {
    "Fire // Ice",
    "Cut // Ribbons",
    "Bonecrusher Giant",
    "Westvale Abbey",
    "Kytheon, Hero of Akros",
    "Erayo, Soratami Ascendant",
    "Urza, Lord Protector",
    "Nazgûl",
    "Wastes",
    "Snow-Covered Island",
    "Esika, God of the Tree",
    'Kongming, "Sleeping Dragon"',
}


def test_arena_text_names_cards_as_arena_does(rpb):
    text = write(_mixed_deck(rpb), FileFormat.ARENA)
    names = {line.split(" ", 1)[1].rsplit(" (", 1)[0] for line in text.splitlines() if line[:1].isdigit()}
    assert names == TOOL_NAMES
    assert text.splitlines()[0] == "Commander"


def test_forge_dck_names_cards_as_forge_does(rpb):
    text = write(_mixed_deck(rpb), FileFormat.FORGE)
    sections: dict[str, set[str]] = {}
    current = None
    for line in text.splitlines():
        if line.startswith("["):
            current = line.strip("[]")
            sections[current] = set()
        elif current in ("Commander", "Main"):
            sections[current].add(line.split(" ", 1)[1].split("|")[0])
    assert sections["Commander"] == {"Esika, God of the Tree", 'Kongming, "Sleeping Dragon"'}
    assert sections["Main"] | sections["Commander"] == TOOL_NAMES


def test_cockatrice_and_mtgo_files(rpb):
    deck = _mixed_deck(rpb)
    root = ElementTree.fromstring(write(deck, FileFormat.COCKATRICE))
    assert root.tag == "cockatrice_deck"
    zones = {zone.get("name"): {card.get("name") for card in zone.iter("card")} for zone in root.iter("zone")}
    assert zones["side"] == {"Esika, God of the Tree", 'Kongming, "Sleeping Dragon"'}
    # Cockatrice's oracle importer keeps an adventure card as one card under its full name, as it does split cards
    assert zones["main"] | zones["side"] == TOOL_NAMES - {"Bonecrusher Giant"} | {"Bonecrusher Giant // Stomp"}
    dek = ElementTree.fromstring(write(deck, FileFormat.MTGO))
    lines = dek.findall("Cards")
    assert all(line.get("CatID", "").isdigit() and line.get("Quantity") == "1" for line in lines)
    assert {line.get("Name") for line in lines if line.get("Sideboard") == "true"} == {
        "Esika, God of the Tree",
        'Kongming, "Sleeping Dragon"',
    }
    assert {line.get("Name") for line in lines} == (TOOL_NAMES - {"Fire // Ice", "Cut // Ribbons"}) | {
        "Fire/Ice",
        "Cut/Ribbons",
    }


def test_xml_files_write_every_attribute_in_double_quotes(rpb):
    """MTGO writes Name="..." with &quot; inside, and readers that take a .dek line by line (XMage's) look for
    Name=": a name holding a double quote must not switch the attribute to single quotes."""
    deck = _mixed_deck(rpb)
    for fmt in (FileFormat.MTGO, FileFormat.COCKATRICE):
        text = write(deck, fmt)
        assert "='" not in text
        assert 'ame="Kongming, &quot;Sleeping Dragon&quot;"' in text
        assert 'Kongming, "Sleeping Dragon"' in {
            c.get("name") or c.get("Name") for c in ElementTree.fromstring(text).iter()
        }


def test_csv_keeps_full_names_and_zones(rpb):
    rows = list(csv.DictReader(io.StringIO(write(_mixed_deck(rpb), FileFormat.CSV))))
    assert {row["zone"] for row in rows} == {"commander", "main"}
    assert "Westvale Abbey // Ormendahl, Profane Prince" in {row["name"] for row in rows}


# --- Bots read imported rules text ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "removal"),
    [
        ("Murder", True),
        ("Doom Blade", True),
        ("Swords to Plowshares", True),
        ("Lightning Bolt", True),
        ("Beast Within", True),
        ("Bonecrusher Giant", True),  # Stomp deals 2 damage to any target
        ("Fire // Ice", True),  # 2 damage divided among one or two targets
        ("Far // Away", True),  # target player sacrifices a creature
        ("Eldrazi Displacer", False),  # exiles a creature and returns it: a blink
        ("Urza, Lord Protector", False),  # only the melded Urza, Planeswalker exiles
        ("Grizzly Bears", False),
        ("Counterspell", False),
        ("Divination", False),
    ],
)
def test_bots_read_removal_from_imported_text(rpb, name, removal):
    from draft.quality import is_removal
    from draft.ratings import evaluate

    card = rpb.find(name)
    assert ("removal" in evaluate(card)[1]) is removal
    assert is_removal(card) is removal  # the judge's own rules agree


def test_bots_rate_removal_above_vanilla_creatures(rpb):
    from draft.ratings import evaluate

    worst_removal = min(evaluate(rpb.find(n))[0] for n in ("Murder", "Fire // Ice", "Far // Away", "Lightning Bolt"))
    best_vanilla = max(
        evaluate(rpb.find(n))[0] for n in ("Grizzly Bears", "Hill Giant", "Gray Ogre", "Eldrazi Displacer")
    )
    assert worst_removal > best_vanilla


# --- A colorless commander in a Commander draft --------------------------------------------------------------


def _colorless_pool(rpb, wastes: int) -> list:
    counts = {
        "Kozilek, the Great Distortion": 1,
        "Sol Ring": 10,
        "Arcane Signet": 10,
        "Smuggler's Copter": 10,
        "Mox Amber": 5,
        "The Mightstone and Weakstone": 5,
        "Command Tower": 4,
        "Wastes": wastes,
        "Murder": 4,
        "Grizzly Bears": 4,
        "Forest": 2,
    }
    return [rpb.find(name) for name, n in counts.items() for _ in range(n)]


def test_a_colorless_commander_plays_the_pools_wastes_and_no_free_basics(rpb):
    """Commander draft gives the five basic lands for free, none of which a colorless identity allows (CR 903.5d);
    Wastes come out of the pool. 45 colorless cards and 15 Wastes in the pool make exactly one legal 60-card deck."""
    from draft.deckbuild import build_deck

    pool = _colorless_pool(rpb, 15)
    deck = build_deck(pool)
    assert [c.name for c in deck.commanders] == ["Kozilek, the Great Distortion"]
    report = validate(deck, pool=Counter(pool))
    assert codes(report) == []
    assert sum(n for card, n in deck.main.items() if card.name == "Wastes") == 15


def test_a_colorless_deck_short_of_cards_claims_no_wastes_it_lacks(rpb):
    from draft.deckbuild import build_deck

    pool = _colorless_pool(rpb, 3)  # 48 colorless cards with Kozilek: no legal deck exists
    report = validate(build_deck(pool), pool=Counter(pool))
    assert "too-many-copies" not in codes(report) and "not-in-pool" not in codes(report)
    assert "deck-too-small" in codes(report)


# --- AtomicCards: a meld result keyed under its own name ------------------------------------------------------


def _atomic_file(tmp_path: Path) -> Path:
    """The fixture as MTGJSON's AtomicCards lays it out: one entry per card name, faces with their sides, and a
    meld result under its own name (side "b"), apart from the two cards that meld into it."""
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    atomic: dict[str, list] = {}
    for obj in data["data"]["cards"]:
        obj = {k: v for k, v in obj.items() if k not in ("uuid", "number", "setCode", "rarity", "identifiers")}
        if obj["layout"] == "meld" and obj.get("side") == "b":
            atomic.setdefault(obj["faceName"], []).append(dict(obj, name=obj["faceName"]))
        else:
            atomic.setdefault(obj["name"], []).append(obj)
    path = tmp_path / "AtomicCards.json"
    path.write_text(json.dumps({"meta": {"version": "5.2.2"}, "data": atomic}), encoding="utf-8")
    return path


def test_atomic_cards_meld_result_is_no_card(tmp_path):
    from sets.errors import MeldResultError

    index = CardIndex(read_card_file(_atomic_file(tmp_path)).card_sets())
    urza = index.find("Urza, Lord Protector")
    assert [face.name for face in urza.faces] == ["Urza, Lord Protector", "Urza, Planeswalker"]
    assert urza.identity == ColorIdentity.parse("WU") and urza.can_be_commander
    with pytest.raises(MeldResultError):
        index.find("Urza, Planeswalker")
    assert index.find("Grist, the Hunger Tide").can_be_commander  # the rest reads as from the set file
    assert index.find("Fire/Ice").identity == ColorIdentity.parse("UR")


# --- Mana a double-faced commander needs ----------------------------------------------------------------------


def test_a_modal_commander_needs_sources_for_its_front_face_cost(rpb):
    """Esika, God of the Tree ({1}{G}{G}) is cast from the command zone by its front face; its back face, The
    Prismatic Bridge ({W}{U}{B}{R}{G}), widens the identity but asks no commander-level sources of each color: green
    alone needs them, 12 for the front face's two green symbols (10 for one, 14 for three)."""
    from draft.manabase import source_needs
    from draft.quality import deck_faults

    esika = rpb.find("Esika, God of the Tree")
    five = ColorIdentity.parse("WUBRG")
    assert source_needs([esika], [], five) == {color: 12 for color in ColorIdentity.parse("G")}
    green = {
        rpb.find("Grizzly Bears"): 20,
        rpb.find("Beast Within"): 10,
        rpb.find("Rampant Growth"): 6,
        rpb.find("Forest"): 23,
    }
    deck = Deck.build([esika], green)
    assert deck_faults(deck, five) == []
    short = Deck.build([esika], {**green, rpb.find("Forest"): 7, rpb.find("Wastes"): 16})
    assert deck_faults(short, five) == ["under-sourced-G"]  # the judge still sees a real shortage


# Real Oracle texts of removal, wipes and blinks (the cards need not be in the fixture set).
REMOVAL_TEXTS = [
    (
        "Condemn",
        "Instant",
        "Put target attacking creature on the bottom of its owner's library. Its controller gains life "
        "equal to its toughness.",
        "removal",
    ),
    (
        "Chaos Warp",
        "Instant",
        "The owner of target permanent shuffles it into their library, then reveals the top card of "
        "their library. If it's a permanent card, they put it onto the battlefield.",
        "removal",
    ),
    (
        "Oblivion Ring",
        "Enchantment",
        "When Oblivion Ring enters the battlefield, exile another target nonland permanent.\n"
        "When Oblivion Ring leaves the battlefield, return the exiled card to the battlefield under its owner's control.",
        "removal",
    ),
    (
        "Journey to Nowhere",
        "Enchantment",
        "When Journey to Nowhere enters the battlefield, exile target creature.\nWhen "
        "Journey to Nowhere leaves the battlefield, return the exiled card to the battlefield under its owner's control.",
        "removal",
    ),
    (
        "Cloudshift",
        "Instant",
        "Exile target creature you control, then return that card to the battlefield under your control.",
        None,
    ),
    (
        "Conjurer's Closet",
        "Artifact",
        "At the beginning of your end step, you may exile target creature you control, then "
        "return that card to the battlefield under your control.",
        None,
    ),
    (
        "Flickerwisp",
        "Creature — Elemental",
        "Flying\nWhen Flickerwisp enters the battlefield, exile another target permanent. "
        "Return that card to the battlefield under its owner's control at the beginning of the next end step.",
        None,
    ),
    (
        "Toxic Deluge",
        "Sorcery",
        "As an additional cost to cast this spell, pay X life.\nAll creatures get -X/-X until end of turn.",
        "wipe",
    ),
]


@pytest.mark.parametrize(("name", "type_line", "text", "role"), REMOVAL_TEXTS)
def test_removal_blinks_and_wipes_read_from_real_text(name, type_line, text, role):
    from draft.quality import is_removal
    from draft.ratings import roles_from_text
    from tests.helpers.decks import fixture

    card = fixture(name, type_line, text)
    roles = roles_from_text(card, text)
    assert ("removal" in roles) is (role == "removal")
    assert ("wipe" in roles) is (role == "wipe")
    assert is_removal(card) is (role == "removal")  # the judge's own rules agree


# --- The same rules from a Scryfall card array ------------------------------------------------------------------


def test_scryfall_cards_follow_the_same_rules():
    from sets.errors import MeldResultError

    index = CardIndex(read_card_file(FIXTURE.with_name("real_probe_scryfall.json")).card_sets())
    assert index.find("Grist, the Hunger Tide").can_be_commander
    assert not index.find("Westvale Abbey").can_be_commander
    assert index.find("Westvale Abbey").identity == ColorIdentity.parse("B")  # the back face's color indicator
    assert index.find("Ice").identity == ColorIdentity.parse("UR")
    assert index.find("Stomp").name == "Bonecrusher Giant // Stomp"
    assert index.find("Kongming, “Sleeping Dragon”").can_be_commander
    urza = index.find("Urza, Lord Protector")
    assert [face.name for face in urza.faces] == ["Urza, Lord Protector", "Urza, Planeswalker"]
    with pytest.raises(MeldResultError):
        index.find("Urza, Planeswalker")


# --- Reversible cards: one card printed on both sides -------------------------------------------------------------


def test_a_reversible_printing_is_the_same_card_once(tmp_path):
    """Scryfall and MTGJSON give a Secret Lair reversible printing (layout reversible_card) two faces that are both
    the same card: it is that card, named once, not a card called "Propaganda // Propaganda"."""
    face = {
        "object": "card_face",
        "name": "Propaganda",
        "mana_cost": "{2}{U}",
        "type_line": "Enchantment",
        "oracle_text": "Creatures can't attack you unless their controller pays {2} for each creature they control "
        "that's attacking you.",
        "colors": ["U"],
    }
    scryfall = [
        {
            "object": "card",
            "name": "Propaganda // Propaganda",
            "layout": "reversible_card",
            "set": "sld",
            "collector_number": "1001",
            "rarity": "rare",
            "card_faces": [face, dict(face)],
        },
        {
            "object": "card",
            "name": "Propaganda",
            "layout": "normal",
            "set": "tmp",
            "collector_number": "80",
            "rarity": "uncommon",
            "mana_cost": "{2}{U}",
            "type_line": "Enchantment",
            "colors": ["U"],
            "color_identity": ["U"],
            "oracle_text": face["oracle_text"],
        },
    ]
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(scryfall), encoding="utf-8")
    cards = read_card_file(path).cards
    assert [card.name for card in cards] == ["Propaganda", "Propaganda"]
    assert all(len(card.faces) == 1 and card.identity == ColorIdentity.parse("U") for card in cards)
    mtgjson = {
        "meta": {},
        "data": {
            "code": "SLD",
            "name": "Secret Lair",
            "cards": [
                {
                    "uuid": f"sl-{side}",
                    "name": "Propaganda // Propaganda",
                    "faceName": "Propaganda",
                    "side": side,
                    "number": "1001",
                    "layout": "reversible_card",
                    "manaCost": "{2}{U}",
                    "type": "Enchantment",
                    "text": face["oracle_text"],
                    "colors": ["U"],
                    "colorIdentity": ["U"],
                    "rarity": "rare",
                }
                for side in "ab"
            ],
        },
    }
    path.write_text(json.dumps(mtgjson), encoding="utf-8")
    assert [(card.name, len(card.faces)) for card in read_card_file(path).cards] == [("Propaganda", 1)]


# --- The MTGO draft log names cards as MTGO does ------------------------------------------------------------------


def test_mtgo_draft_log_uses_mtgo_names(imported):
    from draft.engine import DraftConfig
    from draft.log import mtgo_log
    from draft.sim import run_pod

    result = run_pod(7, DraftConfig(seats=4, set_code="RPB"))
    seen = set()
    for seat in range(4):
        log = mtgo_log(result.draft, seat, [f"Bot {i + 1}" for i in range(4)], dt.datetime(2020, 11, 20, 20, 0))
        seen |= {line[4:] for line in log.splitlines() if line[:4] in ("--> ", "    ")}
    assert not any(" // " in name for name in seen)  # MTGO: Fire/Ice, and a double-faced card by its front face
    assert {"Westvale Abbey", "Fire/Ice"} <= seen


@pytest.mark.parametrize(
    ("name", "cost"),
    [
        ("Fire // Ice", 2),  # Fire is cast for {1}{R}; the card's mana value is 4
        ("Cut // Ribbons", 2),  # Cut, {1}{R}
        ("Bonecrusher Giant", 2),  # Stomp, {1}{R}, as an Adventure
        ("Far // Away", 3),  # Away, {2}{B}
        ("Murder", 3),
        ("Eldrazi Displacer", None),
    ],
)
def test_removal_costs_what_its_removing_half_costs(rpb, name, cost):
    from draft.quality import is_cheap_removal, removal_cost
    from draft.ratings import removal_mana

    card = rpb.find(name)
    text = "\n".join(face.text for face in card.faces)
    assert removal_mana(card, text) == cost
    assert removal_cost(card) == cost  # the judge's own reading
    assert is_cheap_removal(card) is (cost is not None and cost <= 3)
