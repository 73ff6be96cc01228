"""Deck and pool files: round trips for every format, other tools' conventions, no silent drops, fuzzing."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from draft.decks import PIPER, Deck, DeckLine, Zone
from draft.formats import EXPORT_FORMATS, FORMATS, FileFormat, LineError, parse, pool_as_deck, read_file, resolve, write
from sets.basics import basic_land
from sets.card_index import card_index
from sets.colors import Color
from sets.errors import InputError
from tests.helpers.decks import cmr_card, legend, sample_deck, spells, with_mtgo_ids


@pytest.fixture(scope="module")
def idx():
    return card_index(["CMR"])


def by_zone(deck):
    return {zone: Counter({line.card.name: 0 for line in deck.zone(zone)}) + deck_counts(deck, zone) for zone in Zone}


def deck_counts(deck, zone):
    counts = Counter()
    for line in deck.zone(zone):
        counts[line.card.name] += line.count
    return counts


HOLDS_COLORS = {FileFormat.JSON, FileFormat.CSV, FileFormat.COCKATRICE, FileFormat.FORGE}
HOLDS_PRINTINGS = {FileFormat.JSON, FileFormat.CSV, FileFormat.ARENA, FileFormat.COCKATRICE}
HOLDS_FINISH = {FileFormat.JSON, FileFormat.CSV}


@pytest.mark.parametrize("fmt", list(FileFormat), ids=str)
def test_round_trip(fmt, idx):
    deck = sample_deck() if fmt is not FileFormat.MTGO else with_mtgo_ids(sample_deck())
    text = write(deck, fmt)
    parsed = parse(text)
    assert parsed.errors == []
    again, problems = resolve(parsed, idx)
    assert problems == []
    kept = [z for z in Zone if z is not Zone.SIDEBOARD or FORMATS[fmt].holds_sideboard]
    assert {z: deck_counts(again, z) for z in Zone} == {
        z: deck_counts(deck, z) if z in kept else Counter() for z in Zone
    }
    assert [c.name for c in again.commanders] == [c.name for c in deck.commanders]
    if fmt in HOLDS_COLORS:
        assert again.piper_colors == (Color.U,)
    if fmt in HOLDS_PRINTINGS:
        assert {(l.card.set_code, l.card.number) for l in again.lines} == {
            (l.card.set_code, l.card.number) for l in deck.lines
        }
    if fmt in HOLDS_FINISH:
        assert {(l.card.name, l.foil, l.etched) for l in again.lines} == {
            (l.card.name, l.foil, l.etched) for l in deck.lines
        }
    assert fmt not in HOLDS_COLORS | HOLDS_PRINTINGS or write(again, fmt) == text


def commander_with_a_sideboard_copy():
    hans = cmr_card("Hans Eriksson")
    return Deck.build([hans], {basic_land("G"): 59}, {hans: 1}, name="Hans")


def partners_with_sideboard_copies():
    akroma, brinelin = legend("W", partner=True), legend("U", partner=True)
    main = {basic_land("W"): 29, basic_land("U"): 29}
    return Deck.build([akroma, brinelin], main, {akroma: 2, brinelin: 1, spells("U", 1)[0]: 1}, name="Pair")


@pytest.mark.parametrize("make_deck", [commander_with_a_sideboard_copy, partners_with_sideboard_copies])
@pytest.mark.parametrize("fmt", list(FileFormat), ids=str)
def test_commanders_with_sideboard_copies_round_trip_in_every_format(fmt, make_deck, idx):
    deck = with_mtgo_ids(make_deck()) if fmt is FileFormat.MTGO else make_deck()
    again, problems = resolve(parse(write(deck, fmt)), idx)
    assert problems == []
    assert Counter(c.name for c in again.commanders) == Counter(c.name for c in deck.commanders)
    assert deck_counts(again, Zone.MAIN) == deck_counts(deck, Zone.MAIN)
    sideboard = deck_counts(deck, Zone.SIDEBOARD) if FORMATS[fmt].holds_sideboard else Counter()
    assert deck_counts(again, Zone.SIDEBOARD) == sideboard
    assert again.size == deck.size == 60


@pytest.mark.parametrize("fmt", list(FileFormat), ids=str)
def test_an_unnamed_deck_stays_unnamed_in_every_format(fmt, idx):
    deck = commander_with_a_sideboard_copy()
    unnamed = Deck(deck.lines, deck.piper_colors, "")
    unnamed = with_mtgo_ids(unnamed) if fmt is FileFormat.MTGO else unnamed
    again, _ = resolve(parse(write(unnamed, fmt)), idx)
    assert again.name == ""


def test_json_is_lossless(idx):
    deck = sample_deck((Color.G,))
    again, _ = resolve(parse(write(deck, FileFormat.JSON)), idx)
    assert again == deck


def two_pipers_deck() -> Deck:
    """Two Pipers leading, one black and one red, beside 58 Swamps."""
    piper = cmr_card(PIPER)
    lines = (DeckLine(piper, 1, Zone.COMMANDER), DeckLine(piper, 1, Zone.COMMANDER))
    return Deck((*lines, DeckLine(basic_land("B"), 58, Zone.MAIN)), (Color.B, Color.R))


def test_two_piper_colors_survive(idx):
    deck = two_pipers_deck()
    for fmt in HOLDS_COLORS:
        again, _ = resolve(parse(write(deck, fmt)), idx)
        assert again.piper_colors == (Color.B, Color.R), fmt
        assert len(again.commanders) == 2


def test_arena_sections(idx):
    text = (
        "Commander\n1 Akroma, Vision of Ixidor (CMR) 2\n\nDeck\n1 Island (CMR) 999\n20 Plains\n\nSideboard\n1 Murder\n"
    )
    deck, problems = resolve(parse(text), idx)
    assert problems == [] and [c.name for c in deck.commanders] == ["Akroma, Vision of Ixidor"]
    assert deck_counts(deck, Zone.MAIN) == Counter({"Plains": 20, "Island": 1}) and deck_counts(
        deck, Zone.SIDEBOARD
    ) == Counter({"Murder": 1})


@pytest.mark.parametrize(
    ("line", "name", "count", "zone", "foil", "etched"),
    [
        ("1 Murder", "Murder", 1, Zone.MAIN, False, False),
        ("4x Murder", "Murder", 4, Zone.MAIN, False, False),
        ("4X Murder", "Murder", 4, Zone.MAIN, False, False),
        ("Murder", "Murder", 1, Zone.MAIN, False, False),
        ("1 Murder (CMR) 144 *F*", "Murder", 1, Zone.MAIN, True, False),
        ("1 Najeela, the Blade-Blossom (CMR) 514 *E*", "Najeela, the Blade-Blossom", 1, Zone.MAIN, True, True),
        ("1 Akroma, Vision of Ixidor *CMDR*", "Akroma, Vision of Ixidor", 1, Zone.COMMANDER, False, False),
        ("1x Murder (cmr) 144 [Removal]", "Murder", 1, Zone.MAIN, False, False),
        (
            "1x Akroma, Vision of Ixidor (cmr) 2 [Commander{top}]",
            "Akroma, Vision of Ixidor",
            1,
            Zone.COMMANDER,
            False,
            False,
        ),
        ("1 Murder [Maybeboard]", "Murder", 1, Zone.SIDEBOARD, False, False),
        ("1 Murder #removal #!staple", "Murder", 1, Zone.MAIN, False, False),
        # deckstats.net: the rest of a line after '#' is a comment, and '#!Commander' marks the commander
        ("2 Murder # kills a blocker", "Murder", 2, Zone.MAIN, False, False),
        ("1 Murder (CMR) 144 # the best removal, maybe", "Murder", 1, Zone.MAIN, False, False),
        ("1 Akroma, Vision of Ixidor #!Commander", "Akroma, Vision of Ixidor", 1, Zone.COMMANDER, False, False),
        ("SB: 2 Murder", "Murder", 2, Zone.SIDEBOARD, False, False),
        # a count after the name, as some lists write it
        ("Murder x1", "Murder", 1, Zone.MAIN, False, False),
        ("Murder x 3", "Murder", 3, Zone.MAIN, False, False),
        ("Murder ×2 (CMR) 144", "Murder", 2, Zone.MAIN, False, False),
        ("SB: Murder X2", "Murder", 2, Zone.SIDEBOARD, False, False),
        ("1 Murder ^Have,#37d67a^", "Murder", 1, Zone.MAIN, False, False),
    ],
)
def test_moxfield_and_archidekt_conventions(line, name, count, zone, foil, etched):
    parsed = parse(line)
    assert parsed.errors == []
    (entry,) = parsed.entries
    assert (entry.name, entry.count, entry.zone, entry.foil, entry.etched) == (name, count, zone, foil, etched)


def test_bad_lines_are_said_in_the_files_order_whatever_is_wrong_with_each(idx):
    """An error line names the first bad lines of the file: an unknown card on line 1 comes before a line without a
    name on line 3, not after every unreadable line."""
    parsed = parse("1 Murdr\n1 Murder\n3x\n1 Sol Rnig\n0 Murder\n")
    _, problems = resolve(parsed, idx)
    assert [problem.message.split(":")[0] for problem in problems] == ["line 1", "line 3", "line 4", "line 5"]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('<?xml version="1.0"?>\n<cockatrice_deck version="1"><deckname>x</deckname></cockatrice_deck>\n', "no <zone>"),
        ('{"main": ["Murder"], "commanders": "Akroma"}', "expected a list of cards: 'commanders'"),
    ],
)
def test_a_problem_of_the_whole_file_names_no_line_0(text, said):
    """What is wrong with a file as a whole, or with a part of it that has no line, is said without a 'line 0'."""
    (error,) = parse(text).errors
    assert str(error).startswith(said)


def test_every_unreadable_line_is_reported_with_its_number(idx):
    text = "1 Murder\n3x\n0 Murder\n\x00\x01junk\n1 Sol Rnig\n// a comment\n1 Murder\n"
    parsed = parse(text)
    assert [(e.line, e.reason) for e in parsed.errors] == [
        (2, "a count without a card name"),
        (3, "count must be 1 to 9999, not '0'"),  # as every format says it
        (4, "not a card line"),
    ]
    deck, problems = resolve(parsed, idx)
    assert deck_counts(deck, Zone.MAIN) == Counter({"Murder": 2})
    unknown = [p for p in problems if p.code == "unknown-card"]
    assert len(unknown) == 1 and unknown[0].message.startswith("line 5: unknown card 'Sol Rnig'")


def test_unknown_names_get_suggestions(idx):
    _, problems = resolve(parse("1 Akroma Vision of Ixidorr\n"), idx)
    assert "did you mean 'Akroma, Vision of Ixidor'" in problems[0].message


def test_only_the_first_unknown_names_get_suggestions(idx):
    text = "".join(f"1 Murdr {i}\n" for i in range(30))
    _, problems = resolve(parse(text), idx)
    guessed = [p.message for p in problems if "did you mean" in p.message]
    assert len(problems) == 30 and 0 < len(guessed) <= 10
    assert guessed[0].startswith("line 1: unknown card 'Murdr 0' (did you mean 'Murder'")
    assert problems[-1].message == "line 30: unknown card 'Murdr 29'"


@pytest.mark.parametrize("command", ["check", "convert"])
def test_a_file_of_thousands_of_unknown_names_is_said_in_one_bounded_line(cli, tmp_path, command):
    deck = tmp_path / "unknown.txt"
    deck.write_text("".join(f"1 Murdr {i} {'x' * 100}\n" for i in range(2000)), encoding="utf-8")
    args = ("deck", "check", deck) if command == "check" else ("deck", "convert", deck, tmp_path / "out.cod")
    result = cli(*args)
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert "2000 lines can't be" in result.stderr and "line 5: " in result.stderr and "line 6: " not in result.stderr
    assert "; and 1,995 more;" in result.stderr and len(result.stderr) < 1500
    assert len(result.stdout) < 5000  # the report folds the lines past the first ten


def test_cockatrice_commanders_from_the_side_zone_without_comments(idx):
    text = (
        '<?xml version="1.0"?><cockatrice_deck version="1"><deckname>x</deckname><zone name="main">'
        '<card number="59" name="Plains"/></zone><zone name="side"><card number="1" name="Akroma, Vision of Ixidor"/></zone>'
        "</cockatrice_deck>"
    )
    deck, _ = resolve(parse(text), idx)
    assert [c.name for c in deck.commanders] == ["Akroma, Vision of Ixidor"] and deck.size == 60


def test_mtgo_dek_needs_every_catid():
    from draft.formats.mtgo import MissingMtgoIdError
    from sets.identity import make_card

    deck = sample_deck()
    with pytest.raises(MissingMtgoIdError, match=r"no MTGO \.dek written: .* 24 cards have none"):
        write(deck, FileFormat.MTGO)
    known = make_card(deck.lines[0].card.faces, set_code="TST", number="1", mtgo_id=81234)
    text = write(Deck((DeckLine(known, 1, Zone.MAIN),)), FileFormat.MTGO)
    assert 'CatID="81234"' in text and text.count("<Cards ") == 1


def test_forge_reads_set_codes_and_sections(idx):
    text = "[metadata]\nName=Test\n[Commander]\n1 Akroma, Vision of Ixidor|CMR\n[Main]\n1 Murder|CMR|1\n59 Plains\n[Planes]\n1 Some Plane\n"
    parsed = parse(text)
    assert parsed.format is FileFormat.FORGE and parsed.name == "Test"
    deck, problems = resolve(parsed, idx)
    assert deck_counts(deck, Zone.MAIN) == Counter({"Murder": 1, "Plains": 59})
    # [Planes] holds cards played beside the deck (Forge's DeckSection): skipped, not an unknown sideboard card
    assert problems == [] and deck.zone(Zone.SIDEBOARD) == []


def test_forge_reads_foil_collector_numbers_and_marked_colors_as_forge_writes_them(idx):
    """Forge's card request: NAME[+]|SET|ART|[NUMBER]|#{flags}: '+' ends a foil's name, the number is in brackets,
    and a commander's chosen color is the markedColors flag (or the older '#U' form)."""
    text = (
        "[metadata]\nName=Forge\n[Commander]\n1 The Prismatic Piper|CMR|1|[1]|#{markedColors=U}\n"
        "1 The Prismatic Piper|CMR|1|[1]|#B\n[Main]\n2 Murder+|CMR|1\n1 Murder|CMR|1|[133]\n"
    )
    parsed = parse(text)
    assert parsed.errors == []
    assert [(e.name, e.foil, e.number, e.color) for e in parsed.entries] == [
        ("The Prismatic Piper", False, "1", Color.U),
        ("The Prismatic Piper", False, "1", Color.B),
        ("Murder", True, None, None),
        ("Murder", False, "133", None),
    ]
    deck, problems = resolve(parsed, idx)
    assert problems == [] and deck.piper_colors == (Color.U, Color.B)
    assert [(line.card.name, line.count, line.foil) for line in deck.zone(Zone.MAIN)] == [
        ("Murder", 2, True),
        ("Murder", 1, False),
    ]


def test_forge_deck_gives_each_piper_its_color_as_forge_reads_it_on_the_card_line(idx):
    """Before: the chosen colors were only in 'Comment=' (which Forge shows and never reads) and the two Pipers one
    line.  Forge reads a card's marked color from its request's flags, NAME|SET|[NUMBER]|#{markedColors=U}, as
    Forge itself writes them (forge-core CardDb.CardRequest); ours reads it back with the Comment gone too."""
    deck = two_pipers_deck()
    text = write(deck, FileFormat.FORGE)
    commanders = text.split("[Commander]\n")[1].split("\n[Main]")[0].splitlines()
    assert commanders == [
        "1 The Prismatic Piper|CMR|[1]|#{markedColors=B}",
        "1 The Prismatic Piper|CMR|[1]|#{markedColors=R}",
    ]
    without_comment = "\n".join(line for line in text.splitlines() if not line.startswith("Comment="))
    again, problems = resolve(parse(without_comment), idx)
    assert problems == [] and again.piper_colors == (Color.B, Color.R) and len(again.commanders) == 2


def test_xmage_dck_reads_with_its_commanders_from_the_sideboard(idx):
    """XMage's own .dck: 'N [SET:NUMBER] Name' lines, 'SB:' for the sideboard (where its Commander decks keep the
    commanders), NAME:, AUTHOR: and LAYOUT lines for its deck editor."""
    text = (
        "NAME:Nev\r\nAUTHOR:Ann\r\n1 [CMR:5] Ancestral Blade\r\n2 [CMR:133] Murder\r\n"
        "SB: 1 [CMR:287] Nevinyrral, Urborg Tyrant\r\n"
        "LAYOUT MAIN:(1,2)(NONE,false,50)|([CMR:5])([CMR:133],[CMR:133])\r\n"
        "LAYOUT SIDEBOARD:(1,1)(NONE,false,50)|([CMR:287])\r\n"
    )
    parsed = parse(text)
    assert parsed.errors == [] and parsed.name == "Nev"
    assert [(e.set_code, e.number) for e in parsed.entries] == [("CMR", "5"), ("CMR", "133"), ("CMR", "287")]
    deck, problems = resolve(parsed, idx)
    assert problems == []
    assert [card.name for card in deck.commanders] == ["Nevinyrral, Urborg Tyrant"]
    assert deck_counts(deck, Zone.MAIN) == Counter({"Murder": 2, "Ancestral Blade": 1})
    # A limited deck's sideboard (more than commanders) stays a sideboard.
    pool = "4 [CMR:133] Murder\nSB: 1 [CMR:287] Nevinyrral, Urborg Tyrant\nSB: 2 [CMR:5] Ancestral Blade\n"
    deck, problems = resolve(parse(pool), idx)
    assert problems == [] and not deck.commanders
    assert deck_counts(deck, Zone.SIDEBOARD) == Counter({"Nevinyrral, Urborg Tyrant": 1, "Ancestral Blade": 2})


@pytest.mark.parametrize(
    ("name", "content"),
    [
        (
            "bad.cod",
            '<?xml version="1.0"?>\n<cockatrice_deck version="1">\n  <zone name="main">\n'
            '    <card number="1" name="Murder"/>\n    <card number="abc" name="Murder"/>\n  </zone>\n</cockatrice_deck>\n',
        ),
        (
            "bad.dek",
            '<?xml version="1.0" encoding="utf-8"?>\n<Deck>\n  <NetDeckID>0</NetDeckID>\n'
            '  <Cards CatID="1" Quantity="1" Sideboard="false" Name="Murder" />\n'
            '  <Cards CatID="1" Quantity="-1" Sideboard="false" Name="Murder" />\n</Deck>\n',
        ),
    ],
)
def test_a_bad_xml_card_is_named_by_its_line_in_the_file(cli, tmp_path, name, content):
    """The line a person opens the file at: the fifth line, not the second card element."""
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    result = cli("deck", "convert", path, tmp_path / "out.txt")
    assert result.exit_code == 2
    assert f"'{path}': 1 line can't be converted: line 5: count must be 1 to" in result.stderr


def test_a_set_code_in_brackets_before_the_name_is_read_as_magic_workstation_writes_it(idx):
    text = "// Deck file for Magic Workstation\n2 [CMR] Murder\nSB:  1 [CMR] Ancestral Blade\n"
    parsed = parse(text)
    assert parsed.errors == []
    assert [(e.name, e.count, e.set_code, e.zone) for e in parsed.entries] == [
        ("Murder", 2, "CMR", Zone.MAIN),
        ("Ancestral Blade", 1, "CMR", Zone.SIDEBOARD),
    ]


def test_csv_with_other_tools_headers(idx):
    text = "Quantity,Card Name,Edition,Collector Number,Board,Foil\n2,Murder,CMR,144,main,foil\n1,Akroma's Will,CMR,3,sideboard,\n"
    deck, problems = resolve(parse(text), idx)
    assert problems == [] and deck_counts(deck, Zone.MAIN) == Counter({"Murder": 2})
    assert deck.zone(Zone.MAIN)[0].foil and deck_counts(deck, Zone.SIDEBOARD) == Counter({"Akroma's Will": 1})


def test_a_csv_color_column_is_the_cards_own_color_not_a_choice(idx):
    text = (
        "Quantity,Name,Board,Color\n1,Hans Eriksson,commander,Green\n58,Forest,main,\n1,Arcane Signet,main,Colorless\n"
    )
    deck, problems = resolve(parse(text), idx)
    assert problems == [] and deck.piper_colors == ()
    assert [c.name for c in deck.commanders] == ["Hans Eriksson"] and deck.size == 60


@pytest.mark.parametrize("header", ["piper_color", "Piper Color", "chosen_color", "Chosen Color"])
def test_a_csv_chosen_color_column_gives_the_pipers_color(idx, header):
    text = f"count,name,zone,{header}\n1,{PIPER},commander,Blue\n59,Island,main,\n"
    deck, problems = resolve(parse(text), idx)
    assert problems == [] and deck.piper_colors == (Color.U,)


def test_pool_files(idx):
    cards = spells("G", 5) + spells("G", 2)
    pool = with_mtgo_ids(pool_as_deck(cards, "pool"))
    for fmt in EXPORT_FORMATS:
        again, problems = resolve(parse(write(pool, fmt)), idx)
        assert problems == [] and deck_counts(again, Zone.MAIN) == Counter(card.name for card in cards), fmt


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("<cockatrice_deck><zone", "broken XML"),
        ('<!DOCTYPE x [<!ENTITY a "aaaa">]><Deck/>', "DOCTYPE"),
        ("{not json", "not valid JSON"),
        ('{"hello": 1}', "not a cmdraft deck JSON"),
    ],
)
def test_structurally_broken_files_are_input_errors(content, message):
    with pytest.raises(InputError, match=message):
        parse(content)


@pytest.mark.parametrize("content", ["[1,2]", '["1 Murder"]', "1 Murder", "  [ ]"])
def test_a_json_file_that_is_no_cmdraft_deck_is_one_line_of_bad_input(cli, tmp_path, content):
    path = tmp_path / "deck.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=r"deck\.json: (not a cmdraft deck JSON file|not valid JSON)"):
        read_file(path)
    result = cli("deck", "check", path)
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1 and "unknown card" not in result.stderr


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "cp1252", "latin-1"])
def test_odd_encodings(tmp_path, idx, encoding):
    path = tmp_path / "deck.txt"
    path.write_bytes("1 Murder\n1 Lim-Dûl's Vault\n".encode(encoding))
    parsed = read_file(path)
    assert parsed.entries[0].name == "Murder" and len(parsed.entries) == 2


@pytest.mark.parametrize(
    "data",
    [
        b"\xff\xfe1 Murder\n",  # a stray mark before UTF-8 text, an odd number of bytes
        b"\xff\xfe1 Murder\n\n",  # the same, even: it would read as UTF-16 into other letters
        b"\xfe\xff" + "1 Murder\n".encode("utf-16-be")[:-1],  # UTF-16 cut short
    ],
)
def test_a_file_with_a_utf16_mark_that_isnt_utf16_says_so(tmp_path, cli, data):
    """Before: "byte 0x0a on line 1 is not text in UTF-8, UTF-16 or Windows-1252"."""
    path = tmp_path / "deck.txt"
    path.write_bytes(data)
    mark = " ".join(f"0x{byte:02x}" for byte in data[:2])
    with pytest.raises(InputError, match=rf"deck.txt: starts with a UTF-16 byte-order mark \({mark}\) but the rest"):
        read_file(path)
    result = cli("deck", "check", path)
    assert result.exit_code == 2 and result.stderr.strip().endswith("save the file as UTF-8 (or whole as UTF-16)")


def test_huge_file(idx):
    text = "\n".join(f"{i % 4 + 1} Murder" for i in range(10000))
    deck, problems = resolve(parse(text), idx)
    assert problems == [] and deck.main[cmr_card("Murder")] == sum(i % 4 + 1 for i in range(10000))


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="cannot read"):
        read_file(tmp_path / "none.txt")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2000))
def test_random_bytes_never_crash(data):
    from draft.formats import decode

    try:
        parsed = parse(decode(data))
    except InputError:
        return
    assert all(isinstance(e, LineError) for e in parsed.errors)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.characters(), max_size=500), st.sampled_from(list(FileFormat)))
def test_random_text_in_any_format_never_crashes(text, fmt):
    try:
        parse(text, fmt)
    except InputError:
        pass


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(1, 30), st.sampled_from(sorted(c.name for c in card_index(["CMR"]) if "," not in c.name)[:60])
        ),
        min_size=1,
        max_size=30,
    )
)
def test_written_text_lines_parse_back(rows):
    text = "\n".join(f"{count} {name}" for count, name in rows)
    parsed = parse(text)
    assert [(e.count, e.name) for e in parsed.entries] == rows


# --- CLI -------------------------------------------------------------------------------------------------


def write_deck(tmp_path, deck, fmt, name="deck"):
    path = tmp_path / f"{name}.{'txt' if fmt in (FileFormat.ARENA, FileFormat.TEXT) else fmt.value}"
    path.write_text(write(deck, fmt), encoding="utf-8")
    return path


def legal_piper_deck():
    piper, akroma = cmr_card(PIPER), cmr_card("Akroma, Vision of Ixidor")
    main = Counter(spells("W", 10) + spells("U", 10))
    main[basic_land("W")], main[basic_land("U")] = 19, 19
    return Deck.build([piper, akroma], main), pool_as_deck(
        [akroma, *spells("W", 10), *spells("U", 10), *spells("B", 5)]
    )


def test_deck_check_json_contract(cli, tmp_path):
    deck, pool = legal_piper_deck()
    deck_path, pool_path = (
        write_deck(tmp_path, deck, FileFormat.ARENA),
        write_deck(tmp_path, pool, FileFormat.ARENA, "pool"),
    )
    result = cli("deck", "check", deck_path, "--pool", pool_path, "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["valid"] is True
    assert set(data) >= {"valid", "format", "commanders", "piper_colors", "color_identity", "size", "problems"}
    assert data["piper_colors"] == ["U"] and data["color_identity"] == ["W", "U"] and data["size"] == 60


@pytest.mark.parametrize("color", ["U", "blue", "Blue"])
def test_deck_check_piper_option(cli, tmp_path, color):
    deck, pool = legal_piper_deck()
    deck_path, pool_path = (
        write_deck(tmp_path, deck, FileFormat.ARENA),
        write_deck(tmp_path, pool, FileFormat.ARENA, "pool"),
    )
    assert cli("deck", "check", deck_path, "--pool", pool_path, "--piper", color).exit_code == 0
    bad = cli("deck", "check", deck_path, "--pool", pool_path, "--piper", "red", "--json")
    assert bad.exit_code == 1 and "outside-identity" in [p["code"] for p in json.loads(bad.stdout)["problems"]]


def test_deck_check_illegal_exits_1_and_lists_problems(cli, tmp_path):
    deck, pool = legal_piper_deck()
    deck_path = write_deck(tmp_path, deck, FileFormat.ARENA)
    tiny_pool = write_deck(tmp_path, pool_as_deck(spells("W", 3)), FileFormat.ARENA, "pool")
    result = cli("deck", "check", deck_path, "--pool", tiny_pool)
    assert result.exit_code == 1 and "not-in-pool" in result.stdout and "NOT LEGAL" in result.stdout


def test_deck_check_names_the_pool_file_that_holds_an_unreadable_line(cli, tmp_path):
    deck = tmp_path / "hans.txt"
    deck.write_text("Commander\n1 Hans Eriksson\n\nDeck\n59 Forest\n", encoding="utf-8")
    pool = tmp_path / "badpool.txt"
    pool.write_text("2 Hans Eriksson\n1 Hans Erikson\n", encoding="utf-8")
    result = cli("deck", "check", deck, "--pool", pool)
    assert result.exit_code == 2
    assert f"'{pool}': 1 line can't be read: line 2: unknown card 'Hans Erikson'" in result.stderr
    assert str(deck) not in result.stderr
    deck.write_text("Commander\n1 Hans Eriksson\n\nDeck\n58 Forest\n1 Forst\n", encoding="utf-8")
    result = cli("deck", "check", deck, "--pool", pool)
    assert f"'{deck}': 1 line can't be read: line 6: unknown card 'Forst'" in result.stderr
    assert f"; '{pool}': 1 line can't be read: line 2:" in result.stderr and "correct them" in result.stderr


def test_deck_check_wastes_come_from_the_pool(cli, tmp_path):
    deck, pool = legal_piper_deck()
    main = deck.main
    main[basic_land("U")] -= 2
    main[basic_land("")] = 2
    deck = Deck.build(deck.commanders, main)
    deck_path, pool_path = (
        write_deck(tmp_path, deck, FileFormat.ARENA),
        write_deck(tmp_path, pool, FileFormat.ARENA, "pool"),
    )
    result = cli("deck", "check", deck_path, "--pool", pool_path, "--json")
    problems = json.loads(result.stdout)["problems"]
    assert result.exit_code == 1 and [(p["code"], p["cards"]) for p in problems] == [("not-in-pool", ["Wastes"])]
    with_wastes = Deck(pool.lines + (DeckLine(basic_land(""), 2),))
    pool_path = write_deck(tmp_path, with_wastes, FileFormat.ARENA, "pool")
    assert cli("deck", "check", deck_path, "--pool", pool_path).exit_code == 0


@pytest.mark.parametrize(
    ("doctor_types", "legal"), [(["Time Lord", "Doctor"], True), (["Time Lord", "Doctor", "Rogue"], False)]
)
def test_deck_check_doctors_companion_from_an_imported_set(cli, tmp_path, doctor_types, legal):
    from tests.helpers.cardfiles import mtgjson_card
    from tests.helpers.cardfiles import write as write_file

    type_line = "Legendary Creature — " + " ".join(doctor_types)
    doctor = mtgjson_card("d1", "The Test Doctor", "1", "{2}{U}", type_line, "", "U", subtypes=doctor_types)
    companion = mtgjson_card(
        "d2", "Test Companion", "2", "{1}{W}", "Legendary Creature — Human", "Doctor's companion", "W"
    )
    data = {"meta": {}, "data": {"code": "WHO", "name": "Doctor Test", "cards": [doctor, companion]}}
    assert cli("sets", "import", write_file(tmp_path, "WHO.json", data)).exit_code == 0
    deck_path = tmp_path / "deck.txt"
    deck_path.write_text(
        "Commander\n1 The Test Doctor\n1 Test Companion\n\nDeck\n29 Plains\n29 Island\n", encoding="utf-8"
    )
    pool_path = tmp_path / "pool.txt"
    pool_path.write_text("1 The Test Doctor\n1 Test Companion\n", encoding="utf-8")
    result = cli("deck", "check", deck_path, "--pool", pool_path, "--json")
    codes = [p["code"] for p in json.loads(result.stdout)["problems"]]
    assert (result.exit_code, codes) == ((0, []) if legal else (1, ["illegal-pair"]))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("deck", "check", "/no/such/deck.txt"), "cannot read '/no/such/deck.txt'"),
        (("deck", "check", "{deck}", "--piper", "purple"), "unknown color 'purple'"),
        (("deck", "check", "{deck}", "--format", "modern"), "unknown deck format 'modern'"),
        (("deck", "check", "{deck}", "--format", "commander", "--banlist", "/no/ban.txt"), "cannot read banned list"),
        (("deck", "convert", "{deck}", "{tmp}/out.txt", "--to", "pdf"), "unknown deck file format 'pdf'"),
        (("deck", "convert", "{deck}", "/proc/forbidden/out.txt"), "cannot write"),
        (("deck", "suggest", "{deck}", "--top", "0"), "--top must be at least 1"),
    ],
)
def test_deck_bad_input_exits_2(cli, tmp_path, args, message):
    deck, _ = legal_piper_deck()
    deck_path = write_deck(tmp_path, deck, FileFormat.ARENA)
    args = [a.format(deck=deck_path, tmp=tmp_path) for a in args]
    result = cli(*args)
    assert result.exit_code == 2 and message in result.stderr and "Traceback" not in result.stderr


def test_broken_deck_file_exits_2(cli, tmp_path):
    path = tmp_path / "broken.cod"
    path.write_text("<cockatrice_deck><zone")
    result = cli("deck", "check", path)
    assert result.exit_code == 2 and "broken XML" in result.stderr


def test_deck_convert_every_format(cli, tmp_path):
    from tests.helpers.cardfiles import mtgo_id_files

    deck, _ = legal_piper_deck()
    source = write_deck(tmp_path, deck.with_piper_colors([Color.U]), FileFormat.JSON)
    for path in mtgo_id_files(tmp_path, [line.card for line in deck.lines]):  # MTGO needs every card's id
        assert cli("sets", "import", path).exit_code == 0
    for fmt in EXPORT_FORMATS:
        target = tmp_path / f"out-{fmt.value}.{fmt.value if fmt is not FileFormat.ARENA else 'txt'}"
        assert cli("deck", "convert", source, target).exit_code == 0
        check = json.loads(cli("deck", "check", target, "--json").stdout)
        assert check["commanders"] == ["The Prismatic Piper", "Akroma, Vision of Ixidor"] and check["size"] == 60


def test_constructed_format_cli(cli, tmp_path):
    deck, _ = legal_piper_deck()
    result = json.loads(
        cli("deck", "check", write_deck(tmp_path, deck, FileFormat.ARENA), "--format", "commander", "--json").stdout
    )
    assert result["format"] == "commander" and "deck-too-small" in [p["code"] for p in result["problems"]]
    ban = tmp_path / "ban.txt"
    ban.write_text("# my list\nPlains\n")
    result = json.loads(
        cli(
            "deck",
            "check",
            write_deck(tmp_path, deck, FileFormat.ARENA),
            "--format",
            "commander",
            "--banlist",
            ban,
            "--json",
        ).stdout
    )
    assert "banned" not in [p["code"] for p in result["problems"]]  # basic lands are never counted as banned singletons


def test_deck_suggest_cli(cli, tmp_path):
    _, pool = legal_piper_deck()
    data = json.loads(cli("deck", "suggest", write_deck(tmp_path, pool, FileFormat.ARENA, "pool"), "--json").stdout)
    assert data["suggestions"] and data["suggestions"][0]["playable"] >= data["suggestions"][-1]["playable"]


def test_short_archidekt_category_is_not_a_set_code():
    (entry,) = parse("1x Murder (cmr) 144 [Ramp]").entries
    assert (entry.name, entry.set_code, entry.number) == ("Murder", "CMR", "144")


@pytest.mark.parametrize("where", ["first", "last"])
def test_plain_list_with_commander_set_apart_by_a_blank_line(idx, where):
    main = "1 Murder\n58 Swamp\n"
    commander = "1 Nadier, Agent of the Duskenel\n"
    text = commander + "\n" + main if where == "first" else main + "\n" + commander
    deck, problems = resolve(parse(text), idx)
    assert problems == [] and [c.name for c in deck.commanders] == ["Nadier, Agent of the Duskenel"] and deck.size == 60


def test_blank_lines_between_ordinary_groups_change_nothing(idx):
    deck, _ = resolve(parse("1 Murder\n\n2 Swamp\n\n1 Bladebrand\n"), idx)
    assert deck.commanders == [] and deck.size == 4


def test_arena_export_is_what_mtga_reads():
    import re

    text = write(sample_deck(), FileFormat.ARENA)
    line = re.compile(r"^\d+ [^()*]+?( \([A-Z0-9]{2,6}\) \S+)?$")
    for row in text.splitlines():
        assert row in ("", "Commander", "Deck", "Sideboard") or line.match(row), row


def test_constructed_cards_are_unknown_until_imported(cli, tmp_path):
    from tests.helpers.cardfiles import atomic_cards
    from tests.helpers.cardfiles import write as write_json_file

    data = atomic_cards()
    data["data"]["Rhys the Exiled"] = [
        {
            "name": "Rhys the Exiled",
            "manaCost": "{2}{G}",
            "type": "Legendary Creature — Elf Warrior",
            "supertypes": ["Legendary"],
            "types": ["Creature"],
            "subtypes": ["Elf", "Warrior"],
            "text": "{B}, Sacrifice an Elf: Regenerate Rhys the Exiled.",
            "colors": ["G"],
            "colorIdentity": ["B", "G"],
            "layout": "normal",
        }
    ]
    deck = tmp_path / "deck.txt"
    deck.write_text("Commander\n1 Rhys the Exiled\n\nDeck\n1 Murmuring Bosk\n49 Forest\n49 Swamp\n")
    before = json.loads(cli("deck", "check", deck, "--format", "commander", "--json").stdout)
    assert {p["code"] for p in before["problems"]} >= {"unknown-card"}
    assert (
        cli("sets", "import", write_json_file(tmp_path, "AtomicCards.json", data), "--code", "MYCARDS").exit_code == 0
    )
    after = json.loads(cli("deck", "check", deck, "--format", "commander", "--json").stdout)
    # Murmuring Bosk makes white mana: outside a black-green identity, even though its type is Forest
    assert after["valid"] is False and [(p["code"], p["cards"]) for p in after["problems"]] == [
        ("outside-identity", ["Murmuring Bosk"])
    ]
    assert after["color_identity"] == ["B", "G"] and after["size"] == 100


@pytest.mark.parametrize("content", [b"", b"\x00\x01\x02\xff" * 50, b"// only a comment\n"])
def test_a_file_with_no_card_line_exits_2(cli, tmp_path, content):
    path = tmp_path / "junk.txt"
    path.write_bytes(content)
    result = cli("deck", "check", path)
    assert result.exit_code == 2 and "no card lines could be read" in result.stderr


@pytest.mark.parametrize(
    "content", [b"", b"\r\n\r\n", b"// only a comment\nDeck\n", b'<?xml version="1.0"?>\n<Deck></Deck>\n']
)
def test_a_file_with_no_card_line_and_no_bad_one_says_it_holds_none(cli, tmp_path, content):
    """An empty file (or one of comments and headers alone) has no unreadable line to name: the error says what it
    holds, not '0 unreadable'."""
    path = tmp_path / ("empty.dek" if content.startswith(b"<") else "empty.txt")
    path.write_bytes(content)
    result = cli("deck", "check", path)
    assert result.exit_code == 2
    assert "no card lines could be read (the file holds none: it is empty, or only" in result.stderr
    assert "0 unreadable" not in result.stderr


def test_cockatrice_tokens_zone_is_not_part_of_the_deck(idx):
    text = (
        '<?xml version="1.0"?><cockatrice_deck version="1"><deckname>x</deckname><zone name="main">'
        '<card number="2" name="Murder"/></zone><zone name="tokens"><card number="1" name="Zombie"/></zone></cockatrice_deck>'
    )
    deck, problems = resolve(parse(text), idx)
    assert problems == [] and deck.size == 2


def test_deck_convert_says_how_many_cards_went_to_each_zone(cli, tmp_path):
    """Before: one figure for the whole input (84 cards for a 60-card deck and its 24-card sideboard)."""
    deck, _ = legal_piper_deck()
    side = next(line.card for line in deck.lines if line.zone is Zone.MAIN and not line.card.is_basic_land)
    deck = Deck((*deck.lines, DeckLine(side, 3, Zone.SIDEBOARD)))
    source = write_deck(tmp_path, deck, FileFormat.JSON)
    counts = {zone: sum(line.count for line in deck.zone(zone)) for zone in Zone}
    shown = cli("deck", "convert", source, tmp_path / "out.cod")
    assert shown.exit_code == 0, shown.output
    assert (
        f"(cod: {counts[Zone.COMMANDER]} commanders, {counts[Zone.MAIN]} in the main deck, 3 in the sideboard)"
        in shown.stdout
    )
    told = json.loads(cli("deck", "convert", source, tmp_path / "out.dck", "--json").stdout)
    assert (told["main"], told["sideboard"]) == (58, 3) and told["cards"] == 63
    # the commanders by name, as 'deck check --json' and every deck in --json give them (before: their count, 2)
    assert told["commanders"] == [line.card.name for line in deck.zone(Zone.COMMANDER)] and len(told["commanders"]) == 2


@pytest.mark.parametrize(
    ("name", "written"),
    [
        ("deck.cod", "cod"),
        ("deck.DCK", "dck"),
        ("deck.json", "json"),
        ("deck.csv", "csv"),
        ("deck.txt", "arena"),
        ("deck", "arena"),
        ("deck.list", "arena"),
    ],
)
def test_deck_convert_takes_the_format_from_the_outs_extension_any_other_is_arena_text(cli, tmp_path, name, written):
    """Docs (Commands, deck convert): OUT's extension picks the format unless --to; any other extension is Arena."""
    deck = tmp_path / "in.txt"
    deck.write_text("Commander\n1 Akroma, Vision of Ixidor\n\nDeck\n1 Fyndhorn Elves\n", encoding="utf-8")
    result = cli("deck", "convert", deck, tmp_path / name, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["format"] == written
    plain = cli("deck", "convert", deck, tmp_path / f"plain-{name}", "--to", "text", "--json")
    assert json.loads(plain.stdout)["format"] == "text"


def test_an_xml_deck_under_another_formats_extension_is_refused_with_advice_that_works(cli, tmp_path):
    """The input's format comes from its extension and its content (`--to` names the output's only): a Cockatrice
    deck saved as `.dek` is refused naming what it holds, and the advice (the extension of its format) reads it."""
    (tmp_path / "in.txt").write_text("Commander\n1 Akroma, Vision of Ixidor\n\nDeck\n1 Fyndhorn Elves\n")
    cod = cli("deck", "convert", tmp_path / "in.txt", tmp_path / "deck.cod")
    assert cod.exit_code == 0, cod.output
    misnamed = tmp_path / "deck.dek"
    misnamed.write_bytes((tmp_path / "deck.cod").read_bytes())
    for command in (("deck", "check", misnamed), ("deck", "convert", misnamed, tmp_path / "out.json")):
        refused = cli(*command)
        assert refused.exit_code == 2 and "not <Deck>: this is not an MTGO .dek file" in refused.stderr
        assert "--to" not in refused.stderr and "(.cod for Cockatrice, .dek for MTGO)" in refused.stderr
    assert cli("deck", "check", tmp_path / "deck.cod").exit_code in (0, 1)  # read: a verdict, not bad input


def test_a_name_that_starts_with_a_number_is_read_whole_when_the_rest_names_no_card():
    """``1996 World Champion`` written bare reads as 1996 of ``World Champion``; no card has that name, the whole line
    does: one card.  A counted line of it, and a count before a card named by the rest, read as ever."""
    from sets.card_index import CardIndex
    from sets.cards import CardSet, Face
    from sets.identity import make_card

    numbered = make_card([Face("1996 Test Champion", "{W}", "Creature — Legend", types=("Creature",))], number="1")
    index = CardIndex([CardSet("TNM", "Numbers", (numbered,)), *card_index().sets])
    deck, problems = resolve(parse("1996 Test Champion\n1 1996 Test Champion\n3 Forest\n"), index)
    assert not problems
    assert [(line.card.name, line.count) for line in deck.lines] == [
        ("1996 Test Champion", 1),
        ("1996 Test Champion", 1),
        ("Forest", 3),
    ]
