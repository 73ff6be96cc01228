"""A mana source, to the deck builder, is a card the deck counts on turn after turn: a land, or a cheap artifact
with a mana ability of its own that keeps it, or that finds a basic land.  A Treasure made once, a Lotus sacrificed
for its mana, is ramp (it counts toward fewer lands), never one of a color's sources (docs/bots.md)."""

from __future__ import annotations

from draft.manabase import produced
from draft.traits import card_traits
from sets.colors import ColorIdentity
from sets.importers import read_card_file
from tests.helpers.cardfiles import mtgjson_card
from tests.helpers.cardfiles import write as write_file

TREASURE = '(It\'s an artifact with "{T}, Sacrifice this artifact: Add one mana of any color.")'

ARTIFACTS = {  # (cost, type, rules text) -> a source of the deck's colors
    ("{2}", "Artifact", "{T}: Add one mana of any color."): True,
    ("{2}", "Artifact", "{T}: Add {C}{C}.\n{1}, {T}, Sacrifice this artifact: Draw a card."): True,
    ("{1}", "Artifact", "{T}: Choose a player. That player adds one mana of any color they choose."): True,
    (
        "{1}",
        "Artifact",
        "{2}, {T}, Sacrifice this artifact: Search your library for a basic land card, put it onto the battlefield "
        "tapped, then shuffle.",
    ): True,
    ("{1}{B}", "Artifact — Equipment", f"When this enters, create a Treasure token. {TREASURE}\nEquip {{2}}"): False,
    ("{3}", "Artifact", "{T}, Sacrifice this artifact: Add three mana of any one color."): False,
    ("{2}", "Artifact", f"{{T}}, Remove a coin counter from this artifact: Create a Treasure token. {TREASURE}"): False,
    ("{2}", "Artifact", f"Flash\n{{T}}, Sacrifice this artifact: Add one mana of any color. {TREASURE}"): False,
}


def test_only_a_lasting_mana_ability_makes_an_artifact_a_source(tmp_path):
    cards = [
        mtgjson_card(f"a{n}", f"Rock {n}", str(n + 1), cost, type_, text, "B" if "{B}" in cost else ())
        for n, (cost, type_, text) in enumerate(ARTIFACTS)
    ]
    data = {"meta": {}, "data": {"code": "TXT", "name": "Texts", "cards": cards}}
    card_set = next(iter(read_card_file(write_file(tmp_path, "TXT.json", data)).card_sets()))
    by_name = {card.name: card for card in card_set.cards}
    identity = ColorIdentity.parse("WB")
    for n, ((_, _, text), lasting) in enumerate(ARTIFACTS.items()):
        card = by_name[f"Rock {n}"]
        traits = card_traits(card)
        assert {"ramp", "fixing"} & traits.roles, (text, traits.roles)  # ramp all the same
        assert traits.source is lasting, text
        if not lasting:
            assert not produced(card, identity), text  # no color of the deck counts on it
