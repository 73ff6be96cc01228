"""The bundled Commander Legends data."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from sets.cards import Rarity
from sets.colors import COLORLESS
from tests.helpers.paths import SHARED_DATA


def test_counts(cmr):
    assert len(cmr) == 393
    assert sum(card.main_set for card in cmr) == 361
    assert sorted(int(c.number) for c in cmr if not c.main_set) == list(range(514, 546))
    assert Counter(card.rarity for card in cmr)[Rarity.SPECIAL] == 1


def test_piper_and_the_two_planeswalker_commanders(cmr):
    piper = cmr.card("1")
    assert (
        piper.name == "The Prismatic Piper"
        and piper.chooses_color
        and piper.has_partner
        and piper.identity == COLORLESS
    )
    walkers = sorted(card.name for card in cmr if card.can_be_commander and not card.front.is_legendary_creature)
    assert walkers == ["Jeska, Thrice Reborn", "Tevesh Szat, Doom of Fools"]


def test_committed_data_holds_no_rules_text():
    from importlib import resources

    text = resources.files("sets").joinpath("data", "cmr.json").read_text(encoding="utf-8")
    assert '"text"' not in text and "choose a color before" not in text


@pytest.mark.skipif(not (SHARED_DATA / "cmr" / "cards.json").exists(), reason="needs ../shared/data (reference data)")
def test_generator_reproduces_the_committed_data(tmp_path):
    from importlib import resources

    from sets.build_cmr import build

    assert build(SHARED_DATA / "cmr", tmp_path) == []
    for name in ("cmr.json", "cmr-boosters.json"):
        committed = resources.files("sets").joinpath("data", name).read_text(encoding="utf-8")
        assert json.loads((tmp_path / name).read_text()) == json.loads(committed)


@pytest.mark.skipif(not (SHARED_DATA / "cmr" / "cards.json").exists(), reason="needs ../shared/data (reference data)")
def test_generator_fails_when_engine_and_source_disagree(tmp_path):
    from sets.build_cmr import build

    source = tmp_path / "src"
    source.mkdir()
    cards = json.loads((SHARED_DATA / "cmr" / "cards.json").read_text())
    cards["cards"][1]["color_identity"] = ["U"]
    (source / "cards.json").write_text(json.dumps(cards))
    (source / "draft-booster.json").write_text((SHARED_DATA / "cmr" / "draft-booster.json").read_text())
    failures = build(source, tmp_path / "out")
    assert failures and "Akroma, Vision of Ixidor" in failures[0]
