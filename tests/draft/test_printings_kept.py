"""A file that names a printing (set code and collector number) gets that printing back when cmdraft writes the
deck again, in every format that holds one: a round trip never swaps the player's printing for the set's own."""

from __future__ import annotations

import csv
import io
import json
from xml.etree import ElementTree

import pytest

from draft.decks import Zone
from draft.formats import FileFormat, parse, resolve, write
from sets.card_index import card_index

# Arcane Signet's Commander 2021 printing (C21 isn't loaded here), and a Commander Legends collector number the
# bundled set's data (its booster cards) doesn't hold: an extended-art printing.
LIST = """Commander
1 Jeska, Thrice Reborn (CMR) 186

Deck
1 Arcane Signet (C21) 263
1 Ancestral Blade (CMR) 999
1 Murder (CMR) 134
"""


@pytest.fixture(scope="module")
def idx():
    return card_index(["CMR"])


def printings(text: str, fmt: FileFormat) -> set[tuple[str, str, str]]:
    """(name, set, number) of every card line a written file holds, read as the format's own readers read it."""
    if fmt is FileFormat.CSV:
        return {(row["name"], row["set"], row["number"]) for row in csv.DictReader(io.StringIO(text))}
    if fmt is FileFormat.JSON:
        data = json.loads(text)
        return {
            (c["name"], c.get("set", ""), c.get("number", "")) for zone in ("commanders", "main") for c in data[zone]
        }
    if fmt is FileFormat.COCKATRICE:
        return {
            (c.get("name"), c.get("setShortName"), c.get("collectorNumber"))
            for c in ElementTree.fromstring(text).iter("card")
        }
    found = set()
    for line in text.splitlines():
        if line[:1].isdigit():
            name, _, printing = line.split(" ", 1)[1].rpartition(" (")
            code, _, number = printing.partition(") ")
            found.add((name, code, number))
    return found


@pytest.mark.parametrize("fmt", [FileFormat.ARENA, FileFormat.CSV, FileFormat.JSON, FileFormat.COCKATRICE], ids=str)
def test_a_printing_the_file_names_is_written_back(idx, fmt):
    deck, problems = resolve(parse(LIST, FileFormat.ARENA), idx)
    assert problems == []
    assert {line.card.name for line in deck.zone(Zone.MAIN)} == {"Arcane Signet", "Ancestral Blade", "Murder"}
    written = printings(write(deck, fmt), fmt)
    assert {("Arcane Signet", "C21", "263"), ("Ancestral Blade", "CMR", "999")} <= written
    assert ("Murder", "CMR", "134") in written
    again, problems = resolve(parse(write(deck, fmt), fmt), idx)  # and again from the file written
    assert problems == []
    assert printings(write(again, FileFormat.ARENA), FileFormat.ARENA) == printings(
        write(deck, FileFormat.ARENA), FileFormat.ARENA
    )


def test_a_number_the_set_gives_another_card_is_not_kept(idx):
    """CMR 134 is Murder: ``Ancestral Blade (CMR) 134`` is a slip, and writing it back would make Arena load Murder."""
    deck, _ = resolve(parse("1 Ancestral Blade (CMR) 134\n", FileFormat.ARENA), idx)
    assert write(deck, FileFormat.ARENA).splitlines()[1] == "1 Ancestral Blade (CMR) 5"


def test_a_commander_keeps_its_printing_too(idx):
    text = "Commander\n1 Jeska, Thrice Reborn (PCMR) 186p\n\nDeck\n1 Murder (CMR) 134\n"
    deck, problems = resolve(parse(text, FileFormat.ARENA), idx)
    assert problems == []
    assert write(deck, FileFormat.ARENA).splitlines()[1] == "1 Jeska, Thrice Reborn (PCMR) 186p"


def test_a_csv_edition_that_is_a_sets_whole_name_is_no_printing(idx):
    """Collection CSVs may give the set's name in their edition column: that is no code a file can write back."""
    text = "Count,Name,Edition,Collector Number\n1,Arcane Signet,Commander 2021,263\n1,Murder,c21,999\n"
    deck, problems = resolve(parse(text, FileFormat.CSV), idx)
    assert problems == []
    written = printings(write(deck, FileFormat.ARENA), FileFormat.ARENA)
    assert written == {("Arcane Signet", "CMR", "297"), ("Murder", "C21", "999")}


# Collector numbers a file may give that can't be written back as they are: a line break (which would add the line
# "1 Black Lotus" to an Arena list), a ')' that ends "(C21) 26)3" early, and 25 characters (more than the 20 a
# registered deck keeps).
BAD_NUMBERS = ["263\n1 Black Lotus", "26)3", "C21-263-EXTENDEDARTXYZ-12"]


def _bad_number_file(fmt: FileFormat, number: str) -> str:
    if fmt is FileFormat.CSV:
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerows(
            [["count", "name", "set", "number"], [1, "Arcane Signet", "C21", number]]
        )
        return buffer.getvalue()
    if fmt is FileFormat.JSON:
        return json.dumps({"main": [{"name": "Arcane Signet", "set": "C21", "number": number}]})
    escaped = number.replace("\n", "&#10;")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1"><zone name="main">'
        f'<card number="1" name="Arcane Signet" setShortName="C21" collectorNumber="{escaped}"/></zone></cockatrice_deck>\n'
    )


@pytest.mark.parametrize("number", BAD_NUMBERS, ids=["line-break", "parenthesis", "25-characters"])
@pytest.mark.parametrize("fmt", [FileFormat.CSV, FileFormat.JSON, FileFormat.COCKATRICE], ids=str)
def test_a_number_that_cannot_be_written_back_gives_way_to_the_cards_own_printing(idx, fmt, number):
    """A file's collector number was written back unchecked: a line break in it added a card line to the Arena list
    (``1 Black Lotus``), a ')' wrote a line cmdraft could not read back.  Only a number of the shape the text reader
    reads, 1 to 20 characters, is kept; else the card's own printing is written."""
    deck, problems = resolve(parse(_bad_number_file(fmt, number), fmt), idx)
    assert problems == []
    assert len(deck.lines) == 1 and deck.lines[0].printed == ("C21", number)  # kept as the file said it
    for out in (f for f in FileFormat if f is not FileFormat.MTGO):  # a .dek names no printing (and wants a CatID)
        written = write(deck, out)
        assert "Black Lotus" not in written and "26)3" not in written and "EXTENDEDART" not in written, out
        again, problems = resolve(parse(written, out), idx)
        assert problems == [], (out, written)
        assert [(line.card.name, line.count) for line in again.lines] == [("Arcane Signet", 1)], out
    assert write(deck, FileFormat.ARENA) == "Deck\n1 Arcane Signet (CMR) 297\n"


@pytest.mark.parametrize("edition", ["Ixalan", "Mirage"])
def test_a_csv_edition_of_six_letters_that_is_a_sets_name_is_no_printing(idx, edition):
    """Deckbox-style CSVs give the set's name under "Edition": Ixalan and Mirage are six letters, the shape of a
    code, and were written back as ``(IXALAN) 263``.  A code is at most five characters or holds a digit."""
    text = f"Count,Name,Edition,Collector Number\n1,Arcane Signet,{edition},263\n1,Murder,PMPS08,999\n"
    deck, problems = resolve(parse(text, FileFormat.CSV), idx)
    assert problems == []
    written = printings(write(deck, FileFormat.ARENA), FileFormat.ARENA)
    assert written == {("Arcane Signet", "CMR", "297"), ("Murder", "PMPS08", "999")}


def test_a_six_letter_code_is_kept_where_the_column_says_it_holds_codes(idx):
    """A column named "Set Code" holds codes: a six-letter one there is kept (and is read before an "Edition"
    column of names beside it)."""
    text = "Count,Name,Edition,Set Code,Collector Number\n1,Arcane Signet,Commander 2021,PCMRXX,263\n"
    deck, problems = resolve(parse(text, FileFormat.CSV), idx)
    assert problems == []
    assert printings(write(deck, FileFormat.ARENA), FileFormat.ARENA) == {("Arcane Signet", "PCMRXX", "263")}


THREE_SIGNETS = "1 Arcane Signet (C21) 263\n1 Arcane Signet (CMR) 297\n1 Arcane Signet (PLST) C21-263\n"


def test_copies_of_several_printings_are_one_line_where_the_format_writes_no_printing(idx):
    """Plain text writes a card's name alone: three Arcane Signets of C21, CMR and PLST were ``1 Arcane Signet``
    three times; they are ``3 Arcane Signet``.  Arena text writes each printing, so it keeps three lines."""
    deck, problems = resolve(parse(THREE_SIGNETS, FileFormat.ARENA), idx)
    assert problems == []
    assert write(deck, FileFormat.TEXT) == "3 Arcane Signet\n"
    assert write(deck, FileFormat.ARENA).splitlines()[1:] == [
        "1 Arcane Signet (C21) 263",
        "1 Arcane Signet (CMR) 297",
        "1 Arcane Signet (PLST) C21-263",
    ]
    assert len(list(ElementTree.fromstring(write(deck, FileFormat.COCKATRICE)).iter("card"))) == 3


def test_a_dck_merges_copies_by_finish_and_set_which_is_all_it_writes(idx):
    """Forge writes a card's name, finish and set (no number outside a Piper's line): copies alike there are one line."""
    text = "1 Arcane Signet (C21) 263\n1 Arcane Signet (C21) 999\n1 Arcane Signet (C21) 263 *F*\n1 Arcane Signet (C21) 264 *E*\n"
    deck, problems = resolve(parse(text, FileFormat.ARENA), idx)
    assert problems == []
    assert write(deck, FileFormat.FORGE).splitlines()[3:] == ["2 Arcane Signet|C21", "2 Arcane Signet+|C21"]
