"""Files other tools write (Moxfield, Archidekt, MTG Arena, MTGO, Cockatrice, Forge, XMage, Draftmancer), read as a
person who exported them expects: commanders found where each tool keeps them, printings and finishes kept,
cards from sets we don't have named clearly."""

from __future__ import annotations

import csv
import json

import pytest

from draft.decks import Zone
from draft.formats import FileFormat, parse, read_file, resolve, write
from events.storage.store import Store
from sets.basics import basic_lands
from sets.card_index import CardIndex, card_index
from sets.importers import read_card_file
from tests.helpers.cardfiles import mtgjson_card
from tests.helpers.cardfiles import write as write_json_file
from tests.helpers.night import Night
from tests.helpers.nights import physical_event


@pytest.mark.parametrize(
    ("line", "zone"),
    [
        ("1x Murder (cmr) 144 [Commander Synergy]", Zone.MAIN),  # a category of the user's own, not the commander
        ("1x Murder (cmr) 144 [Removal,Commander Staples]", Zone.MAIN),
        ("1x Akroma, Vision of Ixidor (cmr) 2 [Commander{top}]", Zone.COMMANDER),
        ("1x Akroma, Vision of Ixidor (cmr) 2 [Legendary,Commander{top}]", Zone.COMMANDER),
        ("1x Murder (cmr) 144 [Maybeboard{noDeck}{noPrice},Removal]", Zone.SIDEBOARD),
        ("1x Murder (cmr) 144 [Sideboard{noDeck}{noPrice}]", Zone.SIDEBOARD),
        ("1x Murder (cmr) 144 [Cuts{noDeck}{noPrice}]", Zone.SIDEBOARD),  # a category kept out of the deck
        ("1x Murder (cmr) 144 [Removal{noPrice}]", Zone.MAIN),
        ("1x Murder (cmr) 144 [Side Quest]", Zone.MAIN),
    ],
)
def test_archidekt_categories_by_name_and_flag(line, zone):
    """Archidekt writes a card's categories as ``[First{flags},Second]``: the category named Commander holds the
    commander, and a category flagged ``{noDeck}`` (Maybeboard, Sideboard, or one of the user's own) is outside
    the deck; a user's category that merely contains a word (Commander Synergy) is an ordinary main-deck one."""
    parsed = parse(line)
    assert parsed.errors == []
    (entry,) = parsed.entries
    assert entry.zone is zone


@pytest.mark.parametrize(
    ("line", "set_code", "number"),
    [
        ("1 Sol Ring (SLD) 1494★", "SLD", "1494★"),
        ("1 Sol Ring (PLST) C21-263", "PLST", "C21-263"),
        ("1 Sol Ring (PMEI) 2022-3", "PMEI", "2022-3"),
        ("1 Sol Ring (SLD) 123p", "SLD", "123p"),
        ("1 Sol Ring (ONE) 413Φ", "ONE", "413Φ"),  # Scryfall's Phyrexian-language printings
        ("1 Sol Ring (ARN) 4†", "ARN", "4†"),
        ("1 Sol Ring (pmps08) 12 *F*", "PMPS08", "12"),
    ],
)
def test_collector_numbers_with_the_marks_scryfall_gives_them(line, set_code, number):
    """Moxfield and Archidekt copy Scryfall's collector numbers, marks and all (★, †, Φ, a letter, a hyphenated
    list number): the card's name stays the name, whatever mark its number carries."""
    (entry,) = parse(line).entries
    assert (entry.name, entry.set_code, entry.number) == ("Sol Ring", set_code, number)


def test_a_card_of_a_set_not_loaded_is_named_with_the_set_to_add():
    """A Moxfield or Arena line names the card's set: when that set isn't loaded the problem says which set
    to add, rather than guessing at look-alike names."""
    index = card_index(["CMR"])
    deck, problems = resolve(parse("1 Kenrith, the Returned King (ELD) 303\n1 Murder (M20) 109\n"), index)
    assert [line.card.name for line in deck.lines] == ["Murder"]  # a known card read from any set's line
    (problem,) = problems
    assert problem.code == "unknown-card"
    assert problem.message == (
        "line 1: unknown card 'Kenrith, the Returned King' (from ELD, a set not loaded: "
        "'cmdraft sets download ELD' adds it)"
    )


def test_an_edition_given_by_its_whole_name_gets_name_suggestions_not_a_set_to_download():
    text = "count,name,edition\n1,Murdr,Commander Legends\n"
    _, (problem,) = resolve(parse(text), card_index(["CMR"]))
    assert "sets download" not in problem.message and "did you mean" in problem.message


def test_sb_marked_leaders_are_the_commanders_of_a_list_without_a_command_zone():
    """Cockatrice (its text export with comments), deckstats.net and XMage mark sideboard cards 'SB:' and, having
    no command zone, keep a Commander deck's commanders there: one or two cards that lead, alone in it, lead."""
    index = card_index(["CMR"])
    deck, problems = resolve(parse("1 Murder\n59 Swamp\nSB: 1 Nadier, Agent of the Duskenel\n"), index)
    assert problems == [] and [card.name for card in deck.commanders] == ["Nadier, Agent of the Duskenel"]
    deck, _ = resolve(parse("1 Murder\n59 Swamp\nSB: 1 Nadier, Agent of the Duskenel\nSB: 2 Murder\n"), index)
    assert deck.commanders == [] and len(deck.zone(Zone.SIDEBOARD)) == 2  # a longer sideboard stays one


def test_forge_semicolon_lines_are_comments():
    """Forge's CardPool skips lines starting ';' or '#'."""
    parsed = parse("[metadata]\nName=x\n[Main]\n; kept for later\n1 Murder|CMR\n")
    assert parsed.errors == [] and [entry.name for entry in parsed.entries] == ["Murder"]


@pytest.mark.parametrize("comment", ["; a note", "# a note", "// a note"])
def test_a_dck_that_opens_with_a_comment_line_is_read_as_forge(comment):
    """The comment lines Forge skips may come before the first section too: the file is still a .dck, not plain
    text whose section headers are unknown cards."""
    parsed = parse(
        f"{comment}\n[metadata]\nName=x\n[Commander]\n1 Akroma, Vision of Ixidor|CMR\n[Main]\n1 Murder|CMR\n"
    )
    assert parsed.format is FileFormat.FORGE and parsed.errors == [] and parsed.name == "x"
    assert [(entry.name, entry.zone) for entry in parsed.entries] == [
        ("Akroma, Vision of Ixidor", Zone.COMMANDER),
        ("Murder", Zone.MAIN),
    ]


def _draftmancer_dek(main: dict[str, int], side: dict[str, int]) -> str:
    """An MTGO .dek as Draftmancer's exportToMTGO writes a drafted deck: Scryfall's names, the rest of the pool
    as the sideboard."""
    lines = [
        f'  <Cards CatID="{1000 + i}" Quantity="{n}" Sideboard="{side_}" Name="{name}" Annotation="0"/>'
        for i, (name, n, side_) in enumerate(
            [(name, n, "false") for name, n in main.items()] + [(name, n, "true") for name, n in side.items()]
        )
    ]
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n  <NetDeckID>0</NetDeckID>\n'
        "  <PreconstructedDeckID>0</PreconstructedDeckID>\n" + "\n".join(lines) + "\n</Deck>\n"
    )


def test_a_draftmancer_dek_pool_is_recorded_whole_whatever_its_sideboard_holds(cli, tmp_path):
    """A pool has no commanders to find: a .dek whose sideboard holds the rest of the draft (as Draftmancer
    exports a drafted deck) is every card of the pool, not an unclear command zone."""
    events = Night(Store(tmp_path / "pool.json"))
    event_id = physical_event(events, ["Ann", "Bo"])
    pool = tmp_path / "ann.dek"
    pool.write_text(
        _draftmancer_dek({"Murder": 2, "Swamp": 40}, {"Akroma, Vision of Ixidor": 1, "Plains": 16, "Bladebrand": 1}),
        encoding="utf-8",
    )
    result = cli("event", "pool", event_id, "Ann", pool, "--db", events.store.path)
    assert result.exit_code == 0, result.output
    assert "pool recorded: 60 cards" in result.stdout


def test_a_dek_pool_beside_a_deck_check_brings_no_command_zone_problem(cli, tmp_path):
    pool = tmp_path / "pool.dek"
    pool.write_text(_draftmancer_dek({"Murder": 2}, {"Akroma, Vision of Ixidor": 1, "Plains": 16}), encoding="utf-8")
    deck = tmp_path / "deck.txt"
    deck.write_text("Commander\n1 Akroma, Vision of Ixidor\nDeck\n1 Murder\n", encoding="utf-8")
    report = json.loads(cli("deck", "check", deck, "--pool", pool, "--json").stdout)
    assert "unclear-commander" not in {problem["code"] for problem in report["problems"]}
    suggested = cli("deck", "suggest", pool)
    assert suggested.exit_code == 0 and "sideboard holds" not in suggested.output


@pytest.mark.parametrize(
    ("zone_cell", "zone"),
    [
        ("commander", Zone.COMMANDER),
        ("Commanders", Zone.COMMANDER),
        ("Commander{top}", Zone.COMMANDER),
        ("Commander Synergy", Zone.MAIN),
        ("Ramp,Commander Staples", Zone.MAIN),
        ("sideboard", Zone.SIDEBOARD),
        ("side", Zone.SIDEBOARD),
        ("Maybeboard{noDeck}{noPrice}", Zone.SIDEBOARD),
        ("maybe", Zone.SIDEBOARD),
        ("Side Quest", Zone.MAIN),
        ("mainboard", Zone.MAIN),
        ("", Zone.MAIN),
    ],
)
def test_a_csv_zone_or_category_cell_is_read_as_the_text_categories_are(zone_cell, zone):
    """Archidekt's CSV gives the same categories as its text; the CSV's zone column follows the same rule."""
    parsed = parse(f'count,name,category\n1,Murder,"{zone_cell}"\n')
    (entry,) = parsed.entries
    assert entry.zone is zone


def _set_file(tmp_path, code: str, cards: list[tuple[str, str, str, str]]):
    """An MTGJSON set file (code, and cards as name, number, cost, type) and the index of it with basic lands."""
    body = [
        mtgjson_card(f"{code}-{number}", name, number, cost, type_, colors=[ch for ch in cost if ch in "WUBRG"])
        for name, number, cost, type_ in cards
    ]
    for card in body:
        card["setCode"] = code
    path = write_json_file(tmp_path, f"{code}.json", {"meta": {}, "data": {"code": code, "name": code, "cards": body}})
    return CardIndex([*read_card_file(path).card_sets(), basic_lands()])


def test_arena_names_dominaria_dar_and_reads_it_back(tmp_path):
    """MTG Arena calls Dominaria DAR (its code DOM is taken): Arena's own export, and Draftmancer's and XMage's
    for Arena, write (DAR), and Arena's importer wants it."""
    index = _set_file(
        tmp_path,
        "DOM",
        [
            ("Teferi, Hero of Dominaria", "207", "{3}{W}{U}", "Legendary Planeswalker — Teferi"),
            ("Lyra Dawnbringer", "26", "{3}{W}{W}", "Legendary Creature — Angel"),
            ("Lyra Dawnbringer", "278", "{3}{W}{W}", "Legendary Creature — Angel"),  # a second printing
        ],
    )
    deck, problems = resolve(
        parse("Commander\n1 Lyra Dawnbringer (DAR) 278\nDeck\n1 Teferi, Hero of Dominaria (DAR) 207\n"), index
    )
    assert problems == []
    assert [(line.card.name, line.card.set_code, line.card.number) for line in deck.lines] == [
        ("Lyra Dawnbringer", "DOM", "278"),
        ("Teferi, Hero of Dominaria", "DOM", "207"),
    ]
    written = write(deck, FileFormat.ARENA)
    assert "1 Lyra Dawnbringer (DAR) 278" in written and "1 Teferi, Hero of Dominaria (DAR) 207" in written
    assert write(deck, FileFormat.COCKATRICE).count('setShortName="DOM"') == 2  # only Arena calls it DAR


# --- whole files as the tools write them ------------------------------------------------------------------------

TOOL_FILES = {
    "mtg-arena-brawl.txt": (
        "About\nName Piper and Akroma\n\nCommander\n1 The Prismatic Piper (CMR) 1\n1 Akroma, Vision of Ixidor (CMR) 2"
        "\n\nDeck\n2 Murder (CMR) 134\n30 Plains (ZNR) 266\n\nSideboard\n1 Sakashima of a Thousand Faces (CMR) 89\n"
    ),
    "moxfield.txt": (
        "1 Murder (CMR) 134 *F*\n1 Murder (CMR) 134\n30 Plains\n\n1 The Prismatic Piper (CMR) 1\n"
        "1 Akroma, Vision of Ixidor (CMR) 2 *E*\n"
    ),
    "archidekt.txt": (
        "1x The Prismatic Piper (cmr) 1 [Commander{top}]\n1x Akroma, Vision of Ixidor (cmr) 2 *F* [Commander{top}]\n"
        "2x Murder (cmr) 134 [Removal]\n30x Plains (znr) 266 [Land]\n1x Sakashima of a Thousand Faces (cmr) 89 "
        "[Maybeboard{noDeck}{noPrice},Clones]\n"
    ),
    "mtgo.txt": "2 Murder\n30 Plains\n\n1 The Prismatic Piper\n1 Akroma, Vision of Ixidor\n",
    "cockatrice.cod": (
        '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1">\n    <lastLoadedTimestamp/>\n'
        "    <deckname>Piper and Akroma</deckname>\n    <format>commander</format>\n"
        '    <bannerCard providerId="">Akroma, Vision of Ixidor</bannerCard>\n    <comments></comments>\n'
        "    <tags><tag>draft</tag></tags>\n"
        '    <zone name="main">\n        <card number="2" name="Murder" setShortName="CMR" collectorNumber="134"/>\n'
        '        <card number="30" name="Plains"/>\n    </zone>\n    <zone name="side">\n'
        '        <card number="1" name="The Prismatic Piper" setShortName="CMR" collectorNumber="1" uuid="x"/>\n'
        '        <card number="1" name="Akroma, Vision of Ixidor" setShortName="CMR" collectorNumber="2"/>\n'
        '    </zone>\n    <zone name="tokens">\n        <card number="1" name="Angel"/>\n    </zone>\n'
        "</cockatrice_deck>\n"
    ),
    "forge.dck": (
        "[metadata]\nName=Piper and Akroma\n[Commander]\n1 The Prismatic Piper|CMR|[1]|#{markedColors=U}\n"
        "1 Akroma, Vision of Ixidor+|CMR|1\n[Main]\n2 Murder|CMR|1\n30 Plains|ZNR|3\n[Sideboard]\n"
        "1 Sakashima of a Thousand Faces|CMR\n"
    ),
    "xmage.dck": (
        "NAME:Piper and Akroma\n2 [CMR:134] Murder\n30 [ZNR:266] Plains\nSB: 1 [CMR:1] The Prismatic Piper\n"
        "SB: 1 [CMR:2] Akroma, Vision of Ixidor\nLAYOUT MAIN:(1,2)(NONE,false,50)|([CMR:134],[CMR:134])([ZNR:266])\n"
    ),
    "mtgo.dek": (
        '<?xml version="1.0" encoding="utf-8"?>\n<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n  <NetDeckID>0</NetDeckID>\n'
        "  <PreconstructedDeckID>0</PreconstructedDeckID>\n"
        '  <Cards CatID="86418" Quantity="2" Sideboard="false" Name="Murder" Annotation="0" />\n'
        '  <Cards CatID="96460" Quantity="30" Sideboard="false" Name="Plains" Annotation="0" />\n'
        '  <Cards CatID="86170" Quantity="1" Sideboard="true" Name="The Prismatic Piper" Annotation="0" />\n'
        '  <Cards CatID="86172" Quantity="1" Sideboard="true" Name="Akroma, Vision of Ixidor" Annotation="0" />\n'
        "</Deck>\n"
    ),
}


@pytest.mark.parametrize("name", sorted(TOOL_FILES))
def test_a_tools_file_reads_with_its_commanders_and_main_deck(name, tmp_path):
    """Each tool's own layout of the same Commander deck (The Prismatic Piper beside Akroma), BOM and CRLF line
    ends and all: the commanders are found where the tool keeps them, and the main deck is the main deck."""
    path = tmp_path / name
    path.write_bytes(b"\xef\xbb\xbf" + TOOL_FILES[name].replace("\n", "\r\n").encode("utf-8"))
    deck, problems = resolve(read_file(path), card_index(["CMR"]))
    assert problems == []
    assert sorted(card.name for card in deck.commanders) == ["Akroma, Vision of Ixidor", "The Prismatic Piper"]
    main = {line.card.name: 0 for line in deck.zone(Zone.MAIN)}
    for line in deck.zone(Zone.MAIN):
        main[line.card.name] += line.count
    assert main == {"Murder": 2, "Plains": 30}
    if name == "forge.dck":
        assert [color.value for color in deck.piper_colors] == ["U"]


@pytest.mark.parametrize("line", ["Commander: Akroma, Vision of Ixidor", "COMMANDER: 1 Akroma, Vision of Ixidor"])
def test_a_commander_named_on_its_own_header_line(line):
    """Some list exports name the commander on one line, 'Commander: NAME', as 'CMDR:' does."""
    parsed = parse(f"{line}\n1 Commander's Sphere\n")
    assert parsed.errors == []
    assert [(entry.name, entry.zone) for entry in parsed.entries] == [
        ("Akroma, Vision of Ixidor", Zone.COMMANDER),
        ("Commander's Sphere", Zone.MAIN),
    ]


def test_a_pool_files_unreadable_lines_are_named_with_the_file(cli, tmp_path):
    events = Night(Store(tmp_path / "pool.json"))
    event_id = physical_event(events, ["Ann", "Bo"])
    pool = tmp_path / "ann.txt"
    pool.write_text("2 Murder\n1 Murdr\n", encoding="utf-8")
    result = cli("event", "pool", event_id, "Ann", pool, "--db", events.store.path)
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert f"'{pool}': the pool has unreadable lines: line 2: unknown card 'Murdr'" in line


def test_a_pool_file_without_cards_is_named_in_its_refusal(cli, tmp_path):
    events = Night(Store(tmp_path / "pool.json"))
    event_id = physical_event(events, ["Ann", "Bo"])
    pool = tmp_path / "ann.txt"
    pool.write_text("// Ann's pool\n\nDeck\n", encoding="utf-8")
    result = cli("event", "pool", event_id, "Ann", pool, "--db", events.store.path)
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert f"'{pool}': the pool has no cards" in line


def test_card_type_group_headers_are_headers_not_cards():
    """Lists grouped by card type (MTGGoldfish's, TappedOut's, a site's 'copy as text') head each group with its
    type and often a count; XMage's text reader skips the same words."""
    parsed = parse(
        "Commander (1)\n1 Akroma, Vision of Ixidor\n\nCreatures (2)\n2 Murder\nInstants:\n1 Bladebrand\nLands (30)\n30 Plains\nOther Spells\n"
    )
    assert parsed.errors == []
    assert [(entry.name, entry.zone) for entry in parsed.entries] == [
        ("Akroma, Vision of Ixidor", Zone.COMMANDER),
        ("Murder", Zone.MAIN),
        ("Bladebrand", Zone.MAIN),
        ("Plains", Zone.MAIN),
    ]


def test_an_arena_dar_line_of_a_set_not_loaded_names_dominaria_to_download():
    _, (problem,) = resolve(parse("1 Teferi, Hero of Dominaria (DAR) 207\n"), card_index(["CMR"]))
    assert "(from DOM, a set not loaded: 'cmdraft sets download DOM' adds it)" in problem.message


def test_a_printing_in_brackets_after_the_name_as_mtg_wtf_writes_it():
    """mtg.wtf (magic-search-engine) writes '1 Day of Judgment [FDN:140] *F*': the set and number in brackets."""
    (entry,) = parse("1 Day of Judgment [FDN:140] *F*").entries
    assert (entry.name, entry.set_code, entry.number, entry.foil, entry.zone) == (
        "Day of Judgment",
        "FDN",
        "140",
        True,
        Zone.MAIN,
    )


COCKATRICE_TEXT = """// Piper and Akroma

// Commanders: The Prismatic Piper; Akroma, Vision of Ixidor

// 32 Maindeck
// 2 Instant
2 Murder (CMR) 134

// 30 Land
30 Plains

// 2 Sideboard
// 2 Creature
SB: 1 The Prismatic Piper (CMR) 1
SB: 1 Akroma, Vision of Ixidor (CMR) 2
"""


def test_cockatrices_text_export_keeps_its_name_and_commanders():
    """Cockatrice's 'save as text' with comments: the deck's name on the first comment line, a blank line after
    it; the side zone, where Cockatrice players keep commanders, marked 'SB:'."""
    deck, problems = resolve(parse(COCKATRICE_TEXT), card_index(["CMR"]))
    assert problems == []
    assert deck.name == "Piper and Akroma"
    assert sorted(card.name for card in deck.commanders) == ["Akroma, Vision of Ixidor", "The Prismatic Piper"]
    assert sum(line.count for line in deck.zone(Zone.MAIN)) == 32
    assert parse("// Lands\n\n30 Plains\n").name == ""  # a group's header is no name


@pytest.mark.parametrize("separator", [",", ";"])
def test_a_csv_that_opens_with_excels_separator_line_is_a_csv(separator, tmp_path):
    """Dragon Shield's CSV export opens with Excel's separator line ('"sep=,"') before its header, and says a foil
    under 'Printing' (Foil or Normal); Excel names ';' there where ';' separates the cells.  The table under the
    line is the deck, its lines numbered as the file has them."""
    header = ["Folder Name", "Quantity", "Trade Quantity", "Card Name", "Set Code", "Set Name", "Card Number"]
    rows = [
        [*header, "Condition", "Printing", "Language"],
        ["Draft", "2", "0", "Murder", "CMR", "Commander Legends", "134", "NearMint", "Foil", "English"],
        [
            "Draft",
            "1",
            "0",
            "Akroma, Vision of Ixidor",
            "CMR",
            "Commander Legends",
            "2",
            "NearMint",
            "Normal",
            "English",
        ],
        ["Draft", "1", "0", "", "CMR", "Commander Legends", "3", "NearMint", "Normal", "English"],
    ]
    body = "\r\n".join(separator.join(f'"{cell}"' if "," in cell else cell for cell in row) for row in rows)
    path = tmp_path / "dragonshield.csv"
    path.write_text(f'"sep={separator}"\r\n{body}\r\n', encoding="utf-8")
    parsed = read_file(path)
    assert parsed.format is FileFormat.CSV
    assert [(e.name, e.count, e.set_code, e.number, e.foil, e.line) for e in parsed.entries] == [
        ("Murder", 2, "CMR", "134", True, 3),
        ("Akroma, Vision of Ixidor", 1, "CMR", "2", False, 4),
    ]
    assert [(error.line, error.reason) for error in parsed.errors] == [(5, "no card name")]


@pytest.mark.parametrize("separator", [";", "\t"])
def test_a_csv_whose_cells_a_semicolon_or_tab_separates_is_a_csv(separator):
    """A spreadsheet saved as CSV where the comma is the decimal mark separates its cells with ';' (and one saved
    as text, with tabs): the header names its columns all the same, and a name with a comma in it is one cell."""
    rows = [["Quantity", "Name", "Set Code"], ["2", "Murder", "CMR"], ["1", "Akroma, Vision of Ixidor", "CMR"]]
    parsed = parse("\n".join(separator.join(row) for row in rows) + "\n")
    assert parsed.format is FileFormat.CSV and parsed.errors == []
    assert [(e.name, e.count, e.set_code) for e in parsed.entries] == [
        ("Murder", 2, "CMR"),
        ("Akroma, Vision of Ixidor", 1, "CMR"),
    ]


@pytest.mark.parametrize(
    ("text", "given"),
    [
        ("count,name\n1.0,Murder\n", "1.0"),  # a spreadsheet's number as a decimal
        ('<?xml version="1.0"?><Deck><Cards CatID="1" Quantity="lots" Name="Murder"/></Deck>', "lots"),
        ('{"main": [{"name": "Murder", "count": 0}]}', "0"),
    ],
)
def test_a_count_a_cell_gives_wrongly_is_named_with_the_card(text, given):
    """A count in its own cell or attribute that is no count from 1 to 9999 is named as the file gives it, beside
    the card's name: 'count must be 1 to 9999' alone, beside a line whose count looks like 1, says nothing."""
    (error,) = parse(text).errors
    assert error.reason == f"count must be 1 to 9999, not '{given}'" and error.text == "Murder"


def test_a_csv_whose_lines_a_lone_cr_ends_is_a_csv(tmp_path):
    """Excel for the Mac's "CSV (Macintosh)" ends each line with a carriage return alone: the header is the first
    line all the same, and each row is a card."""
    path = tmp_path / "mac.csv"
    path.write_bytes(b"Quantity,Name,Set Code\r2,Murder,CMR\r1,Murdr,CMR\r")
    parsed = read_file(path)
    assert parsed.format is FileFormat.CSV and parsed.errors == []
    assert [(e.name, e.count, e.line) for e in parsed.entries] == [("Murder", 2, 2), ("Murdr", 1, 3)]


MTGO_DRAFT_LOG = """Event #: 1234567
Time:    2/6/2026 7:05:09 PM
Players:
    Ann
--> Bo
    Cy

------ CMR ------

Pack 1 pick 1:
    Akroma, Vision of Ixidor
--> Murder
--> Sol Ring
    Command Tower

Pack 1 pick 2:
    Command Tower
--> Akroma, Vision of Ixidor

"""


def test_an_mtgo_draft_log_is_read_as_the_pool_its_player_took(cli, tmp_path):
    """MTGO's draft log marks each card its player took '--> ' under its pick: read as a deck or pool file, it is
    those cards (a pick of two marks two), named after the player marked among the players; the players, the
    packs' other cards and the log's own lines are no cards and no bad lines."""
    parsed = parse(MTGO_DRAFT_LOG.replace("\n", "\r\n"))
    assert parsed.errors == [] and parsed.name == "Bo"
    assert [(e.name, e.count, e.zone, e.line) for e in parsed.entries] == [
        ("Murder", 1, Zone.MAIN, 12),
        ("Sol Ring", 1, Zone.MAIN, 13),
        ("Akroma, Vision of Ixidor", 1, Zone.MAIN, 18),
    ]
    log = tmp_path / "Bo-draftlog.txt"
    log.write_text(MTGO_DRAFT_LOG.replace("Sol Ring", "Arcane Signet"), encoding="utf-8")
    result = cli("deck", "convert", log, tmp_path / "pool.csv")
    assert result.exit_code == 0, result.stderr
    with (tmp_path / "pool.csv").open(encoding="utf-8", newline="") as written:
        rows = list(csv.DictReader(written))
    assert sorted((row["name"], row["count"]) for row in rows) == [
        ("Akroma, Vision of Ixidor", "1"),
        ("Arcane Signet", "1"),
        ("Murder", "1"),
    ]


@pytest.mark.parametrize("event", ["Friday Night, Foil", "Friday; Set", "Store\tQuantity"])
def test_a_draft_log_whose_event_name_reads_as_a_csv_header_is_still_the_pool_it_records(event):
    """The log's first line holds the event's name: a comma, semicolon or tab in it with a column's word made the
    log a CSV header ('a CSV deck needs a card name column')."""
    first = MTGO_DRAFT_LOG.lstrip().splitlines()[0]
    parsed = parse(MTGO_DRAFT_LOG.replace(first, f"Event #: {event}", 1))
    assert parsed.errors == [] and [e.name for e in parsed.entries] == [
        "Murder",
        "Sol Ring",
        "Akroma, Vision of Ixidor",
    ]


@pytest.mark.parametrize(("separator", "words"), [("\t", "a tab"), (";", "a semicolon")])
def test_a_row_split_by_a_tab_or_semicolon_says_that_separator_in_words(separator, words):
    parsed = parse(f"count{separator}name\n1{separator}Murder{separator}x\n")
    (error,) = parsed.errors
    assert error.reason == f"3 cells where the header names 2: a cell with {words} in it goes between double quotes"


def test_magic_workstations_deck_names_itself_in_a_comment():
    """A Magic Workstation .mwDeck gives its deck's name as '// NAME : ...' among its comment lines."""
    parsed = parse(
        "// Deck file for Magic Workstation\n// NAME : Piper and Akroma\n// CREATOR : Ann\n"
        "        2 [CMR] Murder\nSB:  1 [CMR] Akroma, Vision of Ixidor\n"
    )
    assert parsed.name == "Piper and Akroma" and parsed.errors == []
    assert [(e.name, e.count, e.set_code) for e in parsed.entries] == [
        ("Murder", 2, "CMR"),
        ("Akroma, Vision of Ixidor", 1, "CMR"),
    ]


def test_a_csv_row_a_names_comma_split_says_to_quote_it():
    """A CSV typed by hand with a name's comma outside quotes has more cells than its header: the row is refused
    saying so, not read as the unknown card 'Akroma'; trailing empty cells, as some tools write them, are no more
    cells."""
    parsed = parse("count,name\n1,Akroma, Vision of Ixidor\n2,Murder,,\n")
    ((error,), (entry,)) = parsed.errors, parsed.entries
    assert error.line == 2 and error.reason.startswith("3 cells where the header names 2: a cell with a comma in it")
    assert "Akroma, Vision of Ixidor)" in error.reason  # a name with a comma, for the comma
    assert "double quotes" in error.reason and (entry.name, entry.count) == ("Murder", 2)


def test_a_collector_number_with_leading_zeros_is_the_sets_own():
    """'(CMR) 071', as some collection tools pad numbers, is CMR's number 71: written back as CMR writes it, so a
    tool that looks the printing up by set and number finds it."""
    deck, problems = resolve(parse("1 Ghost of Ramirez DePietro (CMR) 071\n1 Murder (cmr) 0134\n"), card_index(["CMR"]))
    assert problems == []
    assert "1 Ghost of Ramirez DePietro (CMR) 71" in write(deck, FileFormat.ARENA)
    assert "1 Murder (CMR) 134" in write(deck, FileFormat.ARENA)
