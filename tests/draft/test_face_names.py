"""A card of several faces is named, as a whole, by its own name or by any one face's (``Stomp``, ``Ormendahl,
Profane Prince``, ``Ice``), but a meld pair's back face, which two cards share: deck lines, banned lists and a
.cod's commanders read the same names, so no face of cmdraft takes a name one way and another face another."""

from __future__ import annotations

import pytest

from draft.banlist import read_banlist
from draft.deck_rules import DeckFormat, validate
from draft.decks import Zone
from draft.formats import FileFormat, parse, resolve
from sets.basics import basic_lands
from sets.card_index import CardIndex
from sets.cards import names_of
from sets.importers import read_card_file
from tests.helpers.paths import FIXTURES


@pytest.fixture(scope="module")
def rpb() -> CardIndex:
    return CardIndex([*read_card_file(FIXTURES / "real_probe.json").card_sets(), basic_lands()])


@pytest.mark.parametrize(
    ("card", "names"),
    [
        ("Bonecrusher Giant", ["Bonecrusher Giant // Stomp", "Bonecrusher Giant", "Stomp"]),
        (
            "Westvale Abbey",
            ["Westvale Abbey // Ormendahl, Profane Prince", "Westvale Abbey", "Ormendahl, Profane Prince"],
        ),
        ("Fire // Ice", ["Fire // Ice", "Fire", "Ice"]),
        ("Urza, Lord Protector", ["Urza, Lord Protector"]),  # Urza, Planeswalker is two cards' back face
        ("Murder", ["Murder"]),
    ],
)
def test_the_names_of_a_card(rpb, card, names):
    found = rpb.find(card)
    assert list(names_of(found)) == names
    assert all(rpb.get(name) is found for name in names)


def test_a_banned_list_naming_a_back_face_bans_the_card(rpb):
    """The deck line "1 Ormendahl, Profane Prince" is Westvale Abbey; a banned list naming that face bans it too."""
    deck, problems = resolve(parse("Commander\n1 Kytheon, Hero of Akros\n\nDeck\n1 Westvale Abbey\n1 Stomp\n"), rpb)
    assert problems == []
    banned = read_banlist("Ormendahl, Profane Prince\nStomp\n", "bans.txt")
    report = validate(deck, fmt=DeckFormat.COMMANDER, banned=banned)
    assert {name for p in report.problems if p.code == "banned" for name in p.cards} == {
        "Westvale Abbey // Ormendahl, Profane Prince",
        "Bonecrusher Giant // Stomp",
    }


def test_a_cod_commander_named_by_its_back_face_in_the_comments(rpb):
    """Cockatrice players keep commanders in the main zone and name them in the comments; the comment may name the
    face the card line names."""
    cod = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_deck version="1">
    <deckname>Gideon</deckname>
    <comments>Commanders: Gideon, Battle-Forged</comments>
    <zone name="main">
        <card number="1" name="Gideon, Battle-Forged"/>
        <card number="1" name="Murder"/>
    </zone>
</cockatrice_deck>
"""
    deck, problems = resolve(parse(cod, FileFormat.COCKATRICE), rpb)
    assert problems == []
    assert [line.card.front.name for line in deck.zone(Zone.COMMANDER)] == ["Kytheon, Hero of Akros"]
    assert [line.card.name for line in deck.zone(Zone.MAIN)] == ["Murder"]


@pytest.fixture(scope="module")
def cmr() -> CardIndex:
    from sets.card_index import card_index

    return card_index(["CMR"])


PIPER_COD = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_deck version="1">
    <deckname>Piper</deckname>
    <comments>Commanders: Prismatic Piper
Piper colors: U</comments>
    <zone name="main">
        <card number="1" name="The Prismatic Piper"/>
        <card number="1" name="Murder"/>
    </zone>
</cockatrice_deck>
"""


def test_a_card_is_named_without_its_leading_the_everywhere(cmr):
    """A deck line names The Prismatic Piper as ``Prismatic Piper`` (the index's aliases); ``names_of``, which a
    banned list and a .cod's commanders read, did not, so those two knew no such card."""
    piper = cmr.find("Prismatic Piper")
    assert piper.name == "The Prismatic Piper"
    assert list(names_of(piper)) == ["The Prismatic Piper", "Prismatic Piper"]


def test_a_cod_commander_named_without_the_leads(cmr):
    deck, problems = resolve(parse(PIPER_COD, FileFormat.COCKATRICE), cmr)
    assert problems == []
    assert [line.card.name for line in deck.zone(Zone.COMMANDER)] == ["The Prismatic Piper"]
    assert [line.card.name for line in deck.zone(Zone.MAIN)] == ["Murder"]


def test_a_banned_list_naming_a_card_without_the_bans_it(cmr):
    deck, problems = resolve(parse("Commander\n1 The Prismatic Piper\n\nDeck\n1 Murder\n"), cmr)
    assert problems == []
    report = validate(deck, fmt=DeckFormat.COMMANDER, banned=read_banlist("Prismatic Piper\n", "bans.txt"))
    assert [p.cards for p in report.problems if p.code == "banned"] == [("The Prismatic Piper",)]
