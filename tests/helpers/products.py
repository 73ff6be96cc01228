"""The Commander-draft products' test sets: small MTGJSON-shaped CLB and CMM files of real cards (facts only,
tests/fixtures/make_product_sets.py), their cards by name, and what the tests ask of a card."""

from __future__ import annotations

from pathlib import Path

from sets.basics import basic_lands
from sets.cards import CommanderAbility
from sets.importers import read_card_file

FIXTURES = Path(__file__).parent.parent / "fixtures"
CLB_FILE, CMM_FILE = FIXTURES / "clb_set.json", FIXTURES / "cmm_set.json"


def import_products(cli) -> None:
    """CLB and CMM imported into the test's data folder, as 'cmdraft sets import' does."""
    for path in (CLB_FILE, CMM_FILE):
        result = cli("sets", "import", path)
        assert result.exit_code == 0, result.output


def fixture_cards(path: Path) -> dict:
    card_set = next(iter(read_card_file(path).card_sets()))
    return {card.name: card for card in card_set.cards}


CLB = fixture_cards(CLB_FILE)
CMM = fixture_cards(CMM_FILE)
BASICS = {card.name: card for card in basic_lands().cards}


def chooses_background(card) -> bool:
    return CommanderAbility.CHOOSE_A_BACKGROUND in card.abilities and card.name != "Faceless One"


def is_background(card) -> bool:
    return CommanderAbility.BACKGROUND in card.abilities and not card.can_be_commander


def mono_legend_without_partner(card) -> bool:
    return card.can_be_commander and len(card.identity) == 1 and not card.has_partner
