"""Constructed Commander admits only the cards its card files say it admits: Alchemy's rebalanced ``A-`` cards and
acorn-stamped Un-cards are out, an online-only printing of a paper card is in (legality is the card's, not the
printing's).  Made-up cards with invented text, in the shapes MTGJSON and Scryfall publish."""

from __future__ import annotations

import json

import pytest

from tests.helpers.cardfiles import mtgjson_card, write

LEGAL = {"commander": "Legal", "vintage": "Legal"}
DIGITAL = {"alchemy": "Legal", "historic": "Legal"}  # what MTGJSON lists for a rebalanced card: no commander


def _set(tmp_path):
    cards = [
        mtgjson_card("l1", "Probe Leader", "1", "{1}{G}", "Legendary Creature — Elf", "", "G", legalities=LEGAL),
        mtgjson_card("p1", "Paper Bear", "2", "{1}{G}", "Creature — Bear", "", "G", legalities=LEGAL),
        mtgjson_card(
            "a1", "A-Paper Bear", "A-2", "{G}", "Creature — Bear", "", "G", legalities=DIGITAL, isRebalanced=True
        ),
        mtgjson_card(
            "o1", "Screen Bear", "3", "{1}{G}", "Creature — Bear", "", "G", legalities=LEGAL, isOnlineOnly=True
        ),
        mtgjson_card(
            "f1", "Acorn Bear", "4", "{1}{G}", "Creature — Bear", "", "G", isFunny=True, securityStamp="acorn"
        ),
        mtgjson_card("n1", "Quiet Bear", "5", "{1}{G}", "Creature — Bear", "", "G"),  # no legalities: not said
        mtgjson_card("s1", "Silver Bear", "6", "{1}{G}", "Creature — Bear", "", "G", legalities={}, isFunny=True),
    ]
    return write(tmp_path, "PRL.json", {"meta": {}, "data": {"code": "PRL", "name": "Probe", "cards": cards}})


def _check(cli, tmp_path, card):
    deck = tmp_path / "deck.txt"
    deck.write_text(f"Commander\n1 Probe Leader\n\nDeck\n1 {card}\n98 Forest\n", encoding="utf-8")
    result = cli("deck", "check", str(deck), "--format", "commander", "--json")
    return result.exit_code, json.loads(result.stdout)


@pytest.mark.parametrize(
    ("card", "legal"),
    [
        ("Paper Bear", True),
        ("A-Paper Bear", False),  # an Alchemy rebalanced card: digital only
        ("Screen Bear", True),  # an online-only printing; the card is legal in paper
        ("Acorn Bear", False),  # an acorn-stamped Un-card
        ("Quiet Bear", True),  # the file says nothing: nothing to hold against it
        ("Silver Bear", False),  # an Un-card: MTGJSON gives it no legalities at all
    ],
)
def test_constructed_commander_admits_only_what_the_card_file_admits(cli, tmp_path, card, legal):
    assert cli("sets", "import", str(_set(tmp_path))).exit_code == 0
    code, report = _check(cli, tmp_path, card)
    assert report["valid"] is legal and code == (0 if legal else 1)
    if not legal:
        [problem] = report["problems"]
        assert problem["code"] == "not-legal" and problem["cards"] == [card]


def test_a_commander_draft_deck_plays_what_its_pool_holds_whatever_the_legalities(cli, tmp_path):
    assert cli("sets", "import", str(_set(tmp_path))).exit_code == 0
    pool = tmp_path / "pool.txt"
    pool.write_text("1 Probe Leader\n1 A-Paper Bear\n1 Acorn Bear\n", encoding="utf-8")
    deck = tmp_path / "deck.txt"
    deck.write_text("Commander\n1 Probe Leader\n\nDeck\n1 A-Paper Bear\n1 Acorn Bear\n57 Forest\n", encoding="utf-8")
    report = json.loads(cli("deck", "check", str(deck), "--pool", str(pool), "--json").stdout)
    assert report["valid"], report["problems"]


def test_scryfall_legalities_say_the_same(cli, tmp_path):
    def card(name, legality, **extra):
        return {
            "object": "card",
            "name": name,
            "layout": "normal",
            "set": "psl",
            "mana_cost": "{1}{G}",
            "type_line": "Creature — Bear",
            "colors": ["G"],
            "legalities": {"commander": legality},
            **extra,
        }

    cards = [
        dict(card("Probe Leader", "legal"), type_line="Legendary Creature — Elf"),
        card("A-Paper Bear", "not_legal", digital=True),
        card("Screen Bear", "legal", digital=True),
    ]
    assert cli("sets", "import", str(write(tmp_path, "cards.json", cards))).exit_code == 0
    assert _check(cli, tmp_path, "A-Paper Bear")[1]["problems"][0]["code"] == "not-legal"
    assert _check(cli, tmp_path, "Screen Bear")[1]["valid"]
