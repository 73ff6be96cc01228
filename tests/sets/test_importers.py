"""MTGJSON and Scryfall imports: faces, identity computed by the engine, mismatches reported."""

from __future__ import annotations

import json
import random

import pytest

from sets.catalog import load_set
from sets.colors import ColorIdentity
from sets.errors import ImportFormatError, InputError, UnknownSetError
from sets.importers import read_card_file
from tests.helpers.cardfiles import atomic_cards, mtgjson_set, scryfall_cards, write


def by_name(result):
    return {card.name: card for card in result.cards}


def test_mtgjson_set_groups_faces_and_computes_identity(tmp_path):
    result = read_card_file(write(tmp_path, "TST.json", mtgjson_set()))
    assert result.kind == "mtgjson-set" and result.code == "TST"
    cards = by_name(result)
    scholar = cards["Civilized Scholar // Homicidal Brute"]
    assert [f.name for f in scholar.faces] == ["Civilized Scholar", "Homicidal Brute"]
    assert scholar.identity == ColorIdentity.parse("UR") and scholar.number == "3"
    kellan = cards["Kellan, the Fae-Blooded // Birthright Boon"]
    assert kellan.identity == ColorIdentity.parse("RW") and kellan.can_be_commander
    tundra = cards["Tundra"]
    assert tundra.identity == ColorIdentity.parse("") and tundra.deck_colors == ColorIdentity.parse("WU")
    assert cards["Alpha Legend"].mtgo_id == 1001


def plain_card(number: str, name: str, cost: str, type_line: str, colors: list[str], **more: object) -> dict:
    """A card as shared/data's plain card lists write it: one flat object, a card of two parts joined by ' // '."""
    front = type_line.split(" // ")[0]
    supertypes = ["Legendary"] if front.startswith("Legendary") else []
    types = [t for t in ("Creature", "Instant", "Sorcery", "Land", "Artifact") if t in front.split(" — ")[0]]
    return {
        "number": number,
        "name": name,
        "rarity": "rare",
        "mana_cost": cost,
        "mana_value": 0,
        "colors": colors,
        "type_line": type_line,
        "supertypes": supertypes,
        "types": types,
        "subtypes": [],
        "text": "",
        "power": None,
        "toughness": None,
        "loyalty": None,
        **more,
    }


@pytest.mark.parametrize(
    ("card", "faces", "identity", "layout"),
    [
        (
            plain_card(
                "1",
                "Beanstalk Giant // Fertile Footsteps",
                "{6}{G} // {2}{G}",
                "Creature — Giant // Sorcery — Adventure",
                ["G"],
            ),
            ["Beanstalk Giant", "Fertile Footsteps"],
            "G",
            "adventure",
        ),
        (  # RULES.md's seed: a white adventure on a red legend
            plain_card(
                "2",
                "Kellan, the Fae-Blooded // Birthright Boon",
                "{2}{R} // {1}{W}",
                "Legendary Creature — Human Warrior // Sorcery — Adventure",
                ["R"],
            ),
            ["Kellan, the Fae-Blooded", "Birthright Boon"],
            "RW",
            "adventure",
        ),
        (  # a multicolored card's colors written as one string, as CMM's list writes Akiri's
            plain_card("6", "Akiri, Fearless Voyager", "{1}{R}{W}", "Legendary Creature — Kor Warrior", ["RW"]),
            ["Akiri, Fearless Voyager"],
            "RW",
            "normal",
        ),
        (
            plain_card("3", "Fire // Ice", "{1}{R} // {1}{U}", "Instant // Instant", ["U", "R"]),
            ["Fire", "Ice"],
            "UR",
            "split",
        ),
        (  # no cost on the back: a transforming card
            plain_card(
                "4",
                "Delver of Secrets // Insectile Aberration",
                "{U} // ",
                "Creature — Human Wizard // Creature — Human Insect",
                ["U"],
            ),
            ["Delver of Secrets", "Insectile Aberration"],
            "U",
            "transform",
        ),
        (  # a cost on each side and not two instants or sorceries: a modal double-faced card
            plain_card(
                "5",
                "Valki, God of Lies // Tibalt, Cosmic Impostor",
                "{1}{B} // {5}{B}{R}",
                "Legendary Creature — God // Legendary Planeswalker — Tibalt",
                ["B"],
            ),
            ["Valki, God of Lies", "Tibalt, Cosmic Impostor"],
            "BR",
            "modal_dfc",
        ),
    ],
)
def test_a_plain_card_list_reads_each_card_with_its_faces_and_colors(tmp_path, card, faces, identity, layout):
    """shared/data's plain lists write an adventure, split or double-faced card as one object whose name, cost and
    type line join the parts with ' // ' (CMM's Beanstalk Giant, CLB's adventures): each part is a face, and the
    identity counts every face's cost (CR 903.4)."""
    result = read_card_file(write(tmp_path, "cards.json", {"set": "TST", "cards": [card]}))
    (read,) = result.cards
    assert [face.name for face in read.faces] == faces
    assert read.identity == ColorIdentity.parse(identity)
    assert read.layout.value == layout and read.name == card["name"]


def test_mismatch_with_the_files_identity_is_reported(tmp_path):
    result = read_card_file(write(tmp_path, "TST.json", mtgjson_set()))
    assert [(card.name, str(published)) for card, published in result.mismatches] == [("Lying Card", "WG")]


def test_atomic_cards(tmp_path):
    result = read_card_file(write(tmp_path, "AtomicCards.json", atomic_cards()))
    cards = by_name(result)
    assert result.kind == "mtgjson-atomic"
    assert cards["Ghostfire"].identity == ColorIdentity.parse("R")
    assert cards["Fire // Ice"].identity == ColorIdentity.parse("UR")
    assert cards["Murmuring Bosk"].deck_colors == ColorIdentity.parse("WBG")
    assert result.mismatches == []


def test_scryfall_array_and_list_object(tmp_path):
    for data in (scryfall_cards(), {"object": "list", "data": scryfall_cards()}):
        result = read_card_file(write(tmp_path, "cards.json", data))
        cards = by_name(result)
        assert set(cards) == {
            "Transguild Courier",
            "Delver of Secrets // Insectile Aberration",
            "Bonecrusher Giant // Stomp",
        }
        assert (
            cards["Transguild Courier"].identity == ColorIdentity.parse("WUBRG")
            and cards["Transguild Courier"].mtgo_id == 24567
        )
        assert cards["Delver of Secrets // Insectile Aberration"].identity == ColorIdentity.parse("U")
        assert cards["Bonecrusher Giant // Stomp"].identity == ColorIdentity.parse("R")
        assert result.mismatches == []


@pytest.mark.parametrize("cost", ["{W", "2W", "{1}{W}{"])
def test_a_mana_cost_not_in_brace_notation_is_a_clear_error(tmp_path, cost):
    from sets.errors import ManaCostError

    data = mtgjson_set()
    data["data"]["cards"][0]["manaCost"] = cost
    with pytest.raises(ManaCostError, match=r"TST.json: card 'Alpha Legend' has a bad mana cost"):
        read_card_file(write(tmp_path, "TST.json", data))


@pytest.mark.parametrize(("cost", "kept", "unknown"), [("{1}{TK}{W}", "{1}{W}", "{TK}"), ("{Q}", "", "{Q}")])
def test_a_card_with_a_mana_symbol_cmdraft_does_not_know_is_kept_without_it_and_named(tmp_path, cost, kept, unknown):
    """Before: one card's odd symbol ({TK}) refused the whole file.  Real card data has symbols a reader doesn't
    know: the card is kept, the unknown symbol left out of its cost (it adds no color; its mana value is the
    file's), and the import names the card and the symbol; the set's boosters still open."""
    from sets.booster import booster_spec

    data = mtgjson_set()
    data["data"]["cards"][0].update(manaCost=cost, manaValue=3)
    result = read_card_file(write(tmp_path, "TST.json", data))
    cards = {card.name: card for card in result.cards}
    assert len(cards) == len({c["name"] for c in data["data"]["cards"]})  # nothing skipped
    legend = cards["Alpha Legend"]
    assert legend.faces[0].mana_cost == kept and legend.mana_value == 3
    [note] = [p for p in result.problems if "Alpha Legend" in p]
    assert f"TST.json: card 'Alpha Legend' has a mana symbol cmdraft doesn't know, {unknown}" in note, note
    assert "Beta Partner" not in " ".join(result.problems)
    [stored] = result.card_sets()
    assert booster_spec(stored).open(random.Random(1)).printings  # the set's boosters still open


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not json", "not valid JSON"),
        (b'{"hello": 1}', "not a card file cmdraft knows"),
        (b"[]", "empty"),
        (b"\xff\xfe\x00garbage", "not UTF-8"),
        (b'{"data": {"cards": [{"name": "X"}]}}', "no set code"),
    ],
)
def test_unreadable_files_are_clear_errors(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(ImportFormatError, match=message):
        read_card_file(path)


def test_missing_path(tmp_path):
    with pytest.raises(InputError, match="cannot read .*check the path"):
        read_card_file(tmp_path / "nope.json")


def test_imported_set_is_usable_like_the_bundled_one(tmp_path):
    from sets.card_index import card_index
    from sets.catalog import save_imported

    result = read_card_file(write(tmp_path, "TST.json", mtgjson_set()))
    (card_set,) = result.card_sets()
    save_imported(card_set)
    loaded = load_set("tst")
    assert len(loaded) == len(card_set) and "draft" in loaded.boosters
    assert card_index().find("homicidal brute").name == "Civilized Scholar // Homicidal Brute"


def test_unknown_set_names_the_known_ones():
    with pytest.raises(UnknownSetError, match="unknown set 'XYZ'.*CMR"):
        load_set("XYZ")


def test_imported_set_file_damaged_is_a_clear_error(cmdraft_home):
    folder = cmdraft_home / "sets"
    folder.mkdir()
    (folder / "BAD.json").write_text(json.dumps({"code": "BAD", "cards": [{"name": "x"}]}))
    with pytest.raises(ImportFormatError, match="import it again|damaged"):
        load_set("BAD")


def test_a_broken_booster_section_does_not_lose_the_cards(tmp_path):
    data = mtgjson_set()
    data["data"]["booster"]["draft"]["sheets"] = ["not", "a", "mapping"]
    result = read_card_file(write(tmp_path, "TST.json", data))
    assert len(result.cards) > 10 and result.boosters == {} and "booster section" in result.problems[0]


def test_mtgjson_all_printings_reads_every_set(tmp_path, cli):
    first = mtgjson_set()["data"]
    second = dict(mtgjson_set(with_booster=False)["data"], code="TS2", name="Second")
    path = write(tmp_path, "AllPrintings.json", {"meta": {}, "data": {"TST": first, "TS2": second}})
    result = read_card_file(path)
    assert result.kind == "mtgjson-printings" and {c.set_code for c in result.cards} == {"TST", "TS2"}
    sets = {s.code: s for s in result.card_sets()}
    assert "draft" in sets["TST"].boosters and sets["TS2"].boosters == {}
    report = json.loads(cli("sets", "import", path, "--json").stdout)
    assert sorted(entry["code"] for entry in report["sets"]) == ["TS2", "TST"]


LONGEST_PRINTED = (
    "Our Market Research Shows That Players Like Really Long Card Names So We Made this Card to Have the Absolute "
    "Longest Card Name Ever Elemental"
)


@pytest.mark.parametrize(
    "name, says",
    [
        ("Evil\x1b]0;pwned\x07 Card", "holds the control character U+001B"),
        ("nul\x00byte", "holds the control character U+0000"),
        ("X" * 5000, "is 5,000 characters long, more than any card's 150"),
    ],
)
@pytest.mark.parametrize("kind", ["mtgjson", "scryfall"])
def test_a_card_name_no_deck_file_could_hold_refuses_the_file_and_stores_nothing(
    cli, cmdraft_home, tmp_path, name, says, kind
):
    """A downloaded or given file whose card name holds a control character or is longer than any card's: its set
    would give pools that no deck file can write and read back, so the file is refused in one line (exit 2)."""
    if kind == "mtgjson":
        data: object = mtgjson_set()
        data["data"]["cards"][-1]["name"] = name  # type: ignore[index]  # the helper's set file, a dict
    else:
        data = scryfall_cards()
        data[0]["name"] = name  # type: ignore[index]  # the helper's card list
    result = cli("sets", "import", str(write(tmp_path, "hostile.json", data)))
    assert result.exit_code == 2 and result.stdout == "" and result.stderr.count("\n") == 1, result.output
    assert says in result.stderr and "nothing was imported" in result.stderr and "\x1b" not in result.stderr
    assert not (cmdraft_home / "sets").exists() or not any((cmdraft_home / "sets").iterdir())


def test_the_longest_printed_card_name_is_a_card_name(tmp_path):
    data = scryfall_cards()
    data[0]["name"] = LONGEST_PRINTED
    assert LONGEST_PRINTED in by_name(read_card_file(write(tmp_path, "long.json", data)))


def test_mtgjson_art_cards_and_tokens_are_no_cards_and_never_hide_the_card_they_show(tmp_path):
    """An art series card (layout ``art_series``, type ``Card``) bears a real card's name; a token or emblem is no
    card of a deck either.  Read from AllPrintings, whose art set (AMH2) comes before the set (MH2), the name must
    still find the legendary creature, as the Scryfall reader skips the same layouts."""
    from sets.card_index import CardIndex
    from tests.helpers.cardfiles import mtgjson_card

    legend = mtgjson_card("m1", "Test Legend", "1", "{1}{G}", "Legendary Creature — Elf", "", "G", rarity="rare")
    art = mtgjson_card("a1", "Test Legend", "1", "", "Card", "", layout="art_series")
    token = mtgjson_card("t1", "Elf Warrior", "T1", "", "Token Creature — Elf Warrior", "", "G", layout="token")
    emblem = mtgjson_card("e1", "Emblem Test", "E1", "", "Emblem — Test", "", layout="emblem")
    sets = {
        "AMH9": {"code": "AMH9", "name": "Art Series", "cards": [art]},
        "MH9": {"code": "MH9", "name": "Horizons", "cards": [legend, token, emblem]},
    }
    result = read_card_file(write(tmp_path, "AllPrintings.json", {"meta": {}, "data": sets}))
    assert [(card.name, card.set_code) for card in result.cards] == [("Test Legend", "MH9")]
    found = CardIndex(result.card_sets()).find("Test Legend")
    assert found.set_code == "MH9" and found.can_be_commander


def test_scryfall_art_cards_and_tokens_are_no_cards_either(tmp_path):
    """The same layouts skipped from a Scryfall array, the art card listed before the card it shows."""
    from sets.card_index import CardIndex

    def card(name, layout, type_line, **extra):
        return {"object": "card", "name": name, "layout": layout, "type_line": type_line, "set": "mh9", **extra}

    cards = [
        card(
            "Test Legend", "art_series", "Card // Card", card_faces=[{"name": "Test Legend"}, {"name": "Test Legend"}]
        ),
        card("Elf Warrior", "token", "Token Creature — Elf Warrior", colors=["G"]),
        card("Test Legend", "normal", "Legendary Creature — Elf", mana_cost="{1}{G}", colors=["G"], oracle_text=""),
    ]
    result = read_card_file(write(tmp_path, "cards.json", cards))
    assert [card.name for card in result.cards] == ["Test Legend"]
    assert CardIndex(result.card_sets()).find("Test Legend").can_be_commander


def test_a_plain_card_list_whose_set_is_an_object_takes_its_code_and_name(tmp_path):
    """shared/data/cmr/cards.json writes its set as an object (``{"code": "CMR", "name": "Commander Legends",
    ...}``), the CLB and CMM lists as a bare code.  The object was read as one string, so no card had a usable set
    code and the import refused the file."""
    card = plain_card("7", "Test Knight", "{1}{W}", "Creature — Human Knight", ["W"])
    data = {"set": {"code": "tst", "name": "Test Set", "release_date": "2020-11-20"}, "cards": [card]}
    result = read_card_file(write(tmp_path, "cards.json", data))
    assert (result.code, result.name) == ("TST", "Test Set")
    assert [card.set_code for card in result.cards] == ["TST"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"garbage\n', "not valid JSON (line 1, column 10: Invalid control character)"),
        ('{"a": 1,}', "not valid JSON (line 1, column 9: Expecting property name enclosed in double quotes)"),
        ("[1,\n 2 3]", "not valid JSON (line 2, column 4: Expecting ',' delimiter)"),
    ],
)
def test_a_json_files_mistake_is_named_whole_with_its_line_and_column(content, message):
    """A damaged database said "not valid JSON (line 1: Invalid control character at)": the parser's words end in
    'at' before the place it gives apart; the place is said as line and column, and no sentence hangs on 'at'."""
    from sets.files import loads

    with pytest.raises(ValueError) as caught:
        loads(content)
    assert str(caught.value) == message
