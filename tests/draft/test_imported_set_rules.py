"""Issue 25: the rules and file formats for cards of every imported set, not CMR's alone.

Every card here is made up, with rules text written for these tests, in one small MTGJSON set file
(tests/fixtures/rules_set.json, code RUL); the expected verdicts come from the Comprehensive Rules
(903.3, 903.5b/d, 702.124, 100.2a) and from what MTGO and Cockatrice read, never from the code.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from draft.commanders import can_pair
from draft.deck_rules import validate
from draft.decks import Deck, DeckFormat
from draft.formats import FileFormat, parse, resolve, write
from sets.card_facts import ANY_NUMBER
from sets.card_index import CardIndex
from sets.cards import Layout
from sets.catalog import load_set
from sets.colors import ALL_COLORS, ColorIdentity
from sets.errors import InputError, MeldResultError
from sets.identity import basic_type_conflict
from sets.importers import read_card_file
from sets.set_json import set_from_json
from tests.helpers.paths import FIXTURES

FIXTURE = FIXTURES / "rules_set.json"


@pytest.fixture(scope="module")
def rul() -> CardIndex:
    """The fixture set's cards by name (not imported: the pure rules need no data folder)."""
    from sets.basics import basic_lands

    return CardIndex([*read_card_file(FIXTURE).card_sets(), basic_lands()])


@pytest.fixture
def imported(cli) -> Path:
    """The fixture set imported into this test's data folder, as a user would."""
    result = cli("sets", "import", FIXTURE)
    assert result.exit_code == 0, result.output
    return FIXTURE


def card(rul, name):
    return rul.find(name)


def codes(report) -> list[str]:
    return [problem.code for problem in report.problems]


def commander_deck(commanders, main) -> Deck:
    return Deck.build(commanders, main)


# --- 1. CR 903.3: legendary Vehicles and Spacecraft with printed power and toughness ------------------------


@pytest.mark.parametrize(
    ("name", "leads"),
    [
        ("Skyhull Dreadnought", True),  # legendary Vehicle, 5/5
        ("Orrery Starwright", True),  # legendary Spacecraft with a power/toughness box
        ("Beacon of Vell", False),  # legendary Spacecraft without power/toughness
        ("Rusted Skiff", False),  # a Vehicle that isn't legendary
    ],
)
def test_vehicles_and_spacecraft_lead_only_with_printed_power_and_toughness(rul, name, leads):
    lead = card(rul, name)
    assert lead.can_be_commander is leads
    report = validate(commander_deck([lead], {}), fmt=DeckFormat.COMMANDER_DRAFT)
    assert ("not-a-commander" in codes(report)) is not leads


def test_a_stored_set_keeps_the_vehicle_rule(imported):
    stored = {c.name: c for c in load_set("RUL")}
    assert stored["Skyhull Dreadnought"].can_be_commander and not stored["Beacon of Vell"].can_be_commander


# --- 2. "can be your commander" wherever it stands -----------------------------------------------------------


def test_can_be_your_commander_counts_in_a_planeswalkers_text_but_not_on_a_back_face_alone(rul):
    walker = card(rul, "Maelis, Tide Oracle")  # the line stands after two loyalty abilities
    engine = card(rul, "Ferrin's Workshop")  # the back face says it; the front is a plain artifact
    assert walker.can_be_commander and not engine.can_be_commander  # CR 712.8a: off the battlefield, the front face
    assert "not-a-commander" not in codes(validate(commander_deck([walker], {}), fmt=DeckFormat.COMMANDER_DRAFT))
    assert "not-a-commander" in codes(validate(commander_deck([engine], {}), fmt=DeckFormat.COMMANDER_DRAFT))


def test_a_meld_result_that_says_it_can_lead_makes_no_commander():
    from sets.identity import make_card
    from tests.helpers.decks import fixture

    front = fixture("Half of a Pair", "Artifact").front
    result = fixture("Made in Play", "Legendary Artifact", "Made in Play can be your commander.").front
    assert not make_card([front, result], Layout.MELD).can_be_commander
    assert not make_card([front, result], Layout.TRANSFORM).can_be_commander  # a back face alone: CR 712.8a
    assert make_card([result, front], Layout.TRANSFORM).can_be_commander


# --- 3. Partner variants, CR 702.124 as written --------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "pair"),
    [
        ("Odra, Keeper of Tales", "Scholar of the Deep Stacks", True),  # Choose a Background + legendary Background
        ("Odra, Keeper of Tales", "Apprentice's Path", False),  # a Background that isn't legendary
        ("Tamsin Wildheart", "Bram Oakhollow", True),  # Partner—Friends forever = Friends forever
        ("Tamsin Wildheart", "Hale Ironbrow", False),  # Friends forever is not partner
        ("Ysolde the Survivor", "Corvin of the Wastes", True),  # the same Partner—Survivors
        ("Ysolde the Survivor", "Hale Ironbrow", False),  # Partner—Survivors is not partner
        ("Hale Ironbrow", "Hale Ironbrow", True),  # partner ("Haste, partner" on one line)
        ("Lira, Lantern Bearer", "Dov, Shadow Warden", True),  # Partner with each other
        ("Lira, Lantern Bearer", "Hale Ironbrow", False),  # Partner with NAME is not partner
        ("Nell Marrow", "The Ninth Wanderer", True),  # Doctor's companion + Time Lord Doctor
        ("Nell Marrow", "The Rogue Wanderer", False),  # a Doctor with another creature type
        ("Odra, Keeper of Tales", "Nell Marrow", False),  # different abilities never combine
    ],
)
def test_partner_variants_pair_as_cr_702_124_says(rul, first, second, pair):
    a, b = card(rul, first), card(rul, second)
    assert can_pair(a, b) is pair and can_pair(b, a) is pair
    report = validate(commander_deck([a, b], {}), fmt=DeckFormat.COMMANDER_DRAFT)
    assert ("illegal-pair" in codes(report)) is not pair


def test_a_background_that_is_not_legendary_cant_lead_beside_a_chooser(rul):
    report = validate(
        commander_deck([card(rul, "Odra, Keeper of Tales"), card(rul, "Apprentice's Path")], {}),
        fmt=DeckFormat.COMMANDER_DRAFT,
    )
    assert {"not-a-commander", "illegal-pair"} <= set(codes(report))


# --- 4. CR 903.5d: a basic land type needs every color its abilities could make --------------------------------


def test_a_forest_that_makes_any_color_needs_every_color(rul):
    crossing = card(rul, "Verdant Crossing")
    assert crossing.identity == ColorIdentity.parse("")  # CR 903.4: no mana symbol but the reminder's
    assert basic_type_conflict(crossing, ColorIdentity.parse("G")) == ColorIdentity.parse("WUBR")
    assert not basic_type_conflict(crossing, ALL_COLORS)
    report = validate(commander_deck([card(rul, "Tamsin Wildheart")], {crossing: 1}), fmt=DeckFormat.COMMANDER_DRAFT)
    assert "basic-type-outside-identity" in codes(report)


def test_mana_of_any_color_in_the_identity_asks_for_nothing_more(rul):
    hollow = card(rul, "Gloomfen Hollow")
    assert not basic_type_conflict(hollow, ColorIdentity.parse("B"))
    assert basic_type_conflict(hollow, ColorIdentity.parse("R")) == ColorIdentity.parse("B")


# --- 5. Copy limits written on cards, constructed Commander ----------------------------------------------------


def constructed(rul, main) -> list[str]:
    lead = card(rul, "Ysolde the Survivor")
    deck = Deck.build([lead], main)
    return [p.message for p in validate(deck, fmt=DeckFormat.COMMANDER).problems if p.code == "too-many-copies"]


def test_any_number_and_up_to_n_from_the_cards_text(rul):
    rats, sisters, lantern = card(rul, "Swarming Gloomrats"), card(rul, "Lantern Sisters"), card(rul, "Hadra's Lantern")
    assert rats.copy_limit == ANY_NUMBER and sisters.copy_limit == 9 and lantern.copy_limit is None
    assert constructed(rul, {rats: 40}) == []
    assert constructed(rul, {sisters: 9}) == []
    assert constructed(rul, {sisters: 10}) == [
        "10 copies of Lantern Sisters: its text allows up to 9 in a deck (CR 903.5b, CR 100.2a): take out 1"
    ]
    assert constructed(rul, {lantern: 2}) == [
        "2 copies of Hadra’s Lantern: Commander allows one of each card but basic lands (CR 903.5b): take out 1"
    ]


def test_a_copy_limit_flag_in_card_facts_without_text():
    facts = {
        "number": "1",
        "name": "Facts Only Rat",
        "rarity": "common",
        "identity": "B",
        "deck_colors": "B",
        "copy_limit": "any",
        "faces": [
            {
                "name": "Facts Only Rat",
                "mana_cost": "{B}",
                "type_line": "Creature — Rat",
                "colors": "B",
                "supertypes": [],
                "types": ["Creature"],
                "subtypes": ["Rat"],
            }
        ],
    }
    seven = dict(facts, name="Facts Only Seven", number="2", copy_limit=7)
    stored = set_from_json({"code": "FCT", "cards": [facts, seven]}, "test")
    assert [c.copy_limit for c in stored.cards] == [ANY_NUMBER, 7]
    from sets.set_json import card_to_json

    assert [card_to_json(c)["copy_limit"] for c in stored.cards] == ["any", 7]


def test_the_copy_limit_survives_the_import(imported):
    stored = {c.name: c for c in load_set("RUL")}
    assert stored["Swarming Gloomrats"].copy_limit == ANY_NUMBER and stored["Lantern Sisters"].copy_limit == 9


# --- 6. Names -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ('Kaelo, "Silent Storm"', "Kaelo, “Silent Storm”"),
        ("kaelo silent storm", "Kaelo, “Silent Storm”"),
        ("Hadra's Lantern", "Hadra’s Lantern"),
        ("Hadra‘s Lantern", "Hadra’s Lantern"),
        ("Blaze // Frost", "Blaze // Frost"),
        ("Blaze/Frost", "Blaze // Frost"),
        ("Blaze", "Blaze // Frost"),
        ("Ferrin's Workshop", "Ferrin's Workshop // Ferrin, Awakened Engine"),
        ("Vor, Hollow Sentinel", "Vor, Hollow Sentinel"),
    ],
)
def test_names_as_people_and_files_write_them(rul, typed, name):
    assert rul.find(typed).name == name


def test_a_meld_result_is_reported_never_read_as_another_card(rul):
    assert rul.get("Vor, Unbound Colossus") is None
    with pytest.raises(MeldResultError, match=r"'Vor, Unbound Colossus' is the meld result .* can't be in a deck"):
        rul.find("Vor, Unbound Colossus")
    deck, problems = resolve(parse("1 Vor, Hollow Sentinel\n1 Vor, Unbound Colossus\n"), rul)
    assert [p.code for p in problems] == ["meld-result"] and [c.name for c in deck.main] == ["Vor, Hollow Sentinel"]
    assert "The Shard of Vor" in problems[0].message


def test_card_command_names_the_meld_result(cli, imported):
    result = cli("card", "Vor, Unbound Colossus")
    assert result.exit_code == 2 and "meld result" in result.stderr and len(result.stderr.strip().splitlines()) == 1


# --- 7. MTGO .dek ----------------------------------------------------------------------------------------------


def rul_deck(rul, *extra) -> Deck:
    main = {card(rul, n): 1 for n in ("Blaze // Frost", "Ferrin's Workshop", "Hadra’s Lantern", *extra)}
    main[card(rul, "Swamp")] = 20
    return Deck.build([card(rul, "Ysolde the Survivor"), card(rul, "Corvin of the Wastes")], main)


def test_dek_carries_every_catid_and_mtgo_names(rul):
    text = write(rul_deck(rul), FileFormat.MTGO)
    root = ElementTree.fromstring(text)
    rows = {row.get("Name"): row.attrib for row in root.iter("Cards")}
    assert root.tag == "Deck" and all(row.get("CatID", "").isdigit() for row in rows.values())
    assert set(rows) == {
        "Blaze/Frost",
        "Ferrin's Workshop",
        "Hadra’s Lantern",
        "Swamp",
        "Ysolde the Survivor",
        "Corvin of the Wastes",
    }
    assert rows["Blaze/Frost"]["CatID"] == "90060" and rows["Swamp"]["Quantity"] == "20"
    assert {n for n, row in rows.items() if row["Sideboard"] == "true"} == {
        "Ysolde the Survivor",
        "Corvin of the Wastes",
    }
    again, problems = resolve(parse(text), rul)
    assert problems == [] and again.main == rul_deck(rul).main and again.commanders == rul_deck(rul).commanders


def test_an_unknown_mtgo_id_is_said_once_and_no_dek_is_written(rul, tmp_path):
    from events.outputs.exports import MTGO_SKIPPED, export_seat

    deck = rul_deck(rul, "Nameless Relic")
    notes: list[str] = []
    for stem in ("seat1", "seat2"):
        export_seat(tmp_path, stem, [line.card for line in deck.lines], deck, None, notes)
    assert notes == [MTGO_SKIPPED]
    assert not list(tmp_path.glob("*.dek")) and (tmp_path / "seat2-deck.cod").exists()


def test_convert_to_dek_without_an_id_is_one_line_and_no_file(cli, imported, tmp_path):
    source = tmp_path / "deck.txt"
    source.write_text("1 Ysolde the Survivor\n1 Nameless Relic\n1 Blaze/Frost\n", encoding="utf-8")
    result = cli("deck", "convert", source, tmp_path / "deck.dek")
    assert result.exit_code == 2 and not (tmp_path / "deck.dek").exists()
    assert result.stderr.count("\n") == 1 and "'Nameless Relic'" in result.stderr and "1 card has none" in result.stderr
    good = tmp_path / "good.txt"
    good.write_text("1 Ysolde the Survivor\n1 Blaze/Frost\n10 Swamp\n", encoding="utf-8")
    assert cli("deck", "convert", good, tmp_path / "good.dek").exit_code == 0
    names = [row.get("Name") for row in ElementTree.parse(tmp_path / "good.dek").getroot().iter("Cards")]
    assert sorted(names) == ["Blaze/Frost", "Swamp", "Ysolde the Survivor"]


@pytest.mark.parametrize("value", ["yes", "1", "", "TRUE!"])
def test_a_sideboard_value_other_than_true_or_false_is_reported(rul, value):
    text = (
        # one card a line, as MTGO writes a .dek: the bad one is on line 2 of the file
        '<?xml version="1.0"?><Deck><Cards CatID="90026" Quantity="1" Sideboard="true" Name="Ysolde the Survivor" />\n'
        f'<Cards CatID="90052" Quantity="1" Sideboard="{value}" Name="Hadra’s Lantern" />\n'
        '<Cards CatID="90074" Quantity="5" Sideboard="false" Name="Swamp" /></Deck>'
    )
    parsed = parse(text)
    assert [e.name for e in parsed.entries] == ["Ysolde the Survivor", "Swamp"]
    assert len(parsed.errors) == 1 and parsed.errors[0].line == 2 and "true or false" in str(parsed.errors[0])
    deck, problems = resolve(parsed, rul)
    assert "unreadable-line" in [p.code for p in problems] and card(rul, "Hadra's Lantern") not in deck.main


def test_cmr_cards_take_their_mtgo_ids_from_an_imported_file(cli, tmp_path):
    from tests.helpers.cardfiles import mtgo_id_files

    murder = next(c for c in load_set("CMR") if c.name == "Murder")
    assert murder.mtgo_id is None
    for path in mtgo_id_files(tmp_path, [murder]):
        assert cli("sets", "import", path).exit_code == 0
    expected = json.loads((tmp_path / "cmr-ids.json").read_text())["data"]["cards"][0]["identifiers"]["mtgoId"]
    assert next(c for c in load_set("CMR") if c.name == "Murder").mtgo_id == int(expected)


# --- 8. Cockatrice .cod ----------------------------------------------------------------------------------------


def test_cod_names_double_faced_cards_by_front_face(rul):
    text = write(rul_deck(rul), FileFormat.COCKATRICE)
    root = ElementTree.fromstring(text)
    assert root.tag == "cockatrice_deck"
    names = {c.get("name"): c.get("number") for zone in root.iter("zone") for c in zone.iter("card")}
    assert "Ferrin's Workshop" in names and "Blaze // Frost" in names and not any("Awakened" in n for n in names)
    again, problems = resolve(parse(text), rul)
    assert problems == [] and again.main == rul_deck(rul).main


def test_a_cod_with_another_root_says_so_in_one_line(cli, tmp_path):
    path = tmp_path / "deck.cod"
    path.write_text(
        '<?xml version="1.0"?><deck><zone name="main"><card number="1" name="Murder"/></zone></deck>', encoding="utf-8"
    )
    from draft.formats import read_file

    with pytest.raises(InputError, match=r"deck\.cod: the root element is <deck>, not <cockatrice_deck>"):
        read_file(path)
    result = cli("deck", "check", path)
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1 and "cockatrice_deck" in result.stderr


# --- 9. identity --json: one line per card ---------------------------------------------------------------------


def test_identity_json_is_one_line_per_card_not_per_printing(cli):
    result = cli("identity", FIXTURE, "--json")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    names = [row["name"] for row in rows]
    assert names.count("Twice-Told Tale") == 1 and len(names) == len(set(names))
    printings = json.loads(FIXTURE.read_text(encoding="utf-8"))["data"]["cards"]
    # every card once: the entries less the back faces and halves (same name and number) and the second printing
    assert len(rows) == len({(c["name"]) for c in printings})
    assert {"name": "Verdant Crossing", "color_identity": [], "deck_colors": list("WUBRG")} in rows


def test_the_import_lists_an_any_color_forest_as_differing_from_the_files_identity(cli):
    report = json.loads(cli("sets", "import", FIXTURE, "--json").stdout)
    # each identity a list of letters, as every color_identity in --json (before: the strings "WUBRG" and "G")
    assert report["identity_mismatches"] == [{"name": "Verdant Crossing", "computed": list("WUBRG"), "file": ["G"]}]


def test_a_scryfall_meld_result_is_no_card_but_the_back_face_of_its_pair():
    from sets.scryfall import read_scryfall

    parts = [
        {"component": "meld_part", "name": "Grel, Iron Half"},
        {"component": "meld_part", "name": "Grel's Other Half"},
        {"component": "meld_result", "name": "Grel, Whole at Last"},
    ]
    objs = [
        {
            "object": "card",
            "name": name,
            "layout": "meld",
            "type_line": type_line,
            "mana_cost": cost,
            "oracle_text": "",
            "set": "tsf",
            "collector_number": number,
            "rarity": "rare",
            "all_parts": parts,
        }
        for name, type_line, cost, number in (
            ("Grel, Iron Half", "Legendary Creature — Golem", "{3}", "1"),
            ("Grel's Other Half", "Artifact", "{2}", "2"),
            ("Grel, Whole at Last", "Legendary Creature — Golem", "", "1b"),
        )
    ]
    result = read_scryfall(objs, "test")
    assert [c.name for c in result.cards] == ["Grel, Iron Half", "Grel's Other Half"]
    assert all(c.faces[-1].name == "Grel, Whole at Last" for c in result.cards)
    index = CardIndex(result.card_sets())
    assert index.get("Grel, Whole at Last") is None
    assert index.meld_result("grel whole at last") == ("Grel, Whole at Last", ["Grel, Iron Half", "Grel's Other Half"])
