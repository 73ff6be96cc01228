"""A sealed pool's boosters come from the product's profile (``Product.sealed_boosters``): the pools opened at a
sealed night and for a late player, and the words on their seating slip ("six boosters") all ask it, so a product
whose profile differs opens (and says) its own count."""

from __future__ import annotations

import dataclasses

import pytest

from draft.products import product, products
from events.outputs.printables import seatings
from events.outputs.sheets import Note
from events.storage.store import Store
from tests.helpers.cliapp import invoke
from tests.helpers.night import Night


def late_sealed_slip(night: Night, event_id: int) -> str:
    sheet = seatings(night.phases[0], event_id, codes=True, only=["Late"])
    return " ".join(block.text for page in sheet.pages for block in page.blocks if isinstance(block, Note))


def drafting_night(tmp_path) -> tuple[Night, int]:
    night = Night(Store(tmp_path / "night.json"))
    event_id = night.create("Sealed late", style="terminal", seed=3)
    for name in ("Ann", "Bo"):
        night.add_player(event_id, name)
    night.seat(event_id)
    night.start_draft(event_id)
    night.add_player(event_id, "Late", sealed=True)
    return night, event_id


def test_cmr_seals_six_boosters_and_the_slip_says_so(tmp_path):
    assert product("CMR").sealed_boosters == 6 and product("CMR").sealed_words == "six boosters"
    night, event_id = drafting_night(tmp_path)
    assert len(night.pool(event_id, "Late")) == 6 * 20
    assert "Your pool is sealed (six boosters)." in late_sealed_slip(night, event_id)


@pytest.fixture
def four_booster_cmr(monkeypatch):
    """The CMR profile with a sealed pool of four boosters, as another product's profile may say."""
    monkeypatch.setitem(products(), "CMR", dataclasses.replace(products()["CMR"], sealed_boosters=4))


def test_a_profile_of_four_boosters_opens_four_and_the_slip_says_four(tmp_path, four_booster_cmr):
    night, event_id = drafting_night(tmp_path)
    assert len(night.pool(event_id, "Late")) == 4 * 20
    words = late_sealed_slip(night, event_id)
    assert "Your pool is sealed (four boosters)." in words and "six" not in words


def test_a_sealed_night_opens_the_profiles_count_for_every_player(tmp_path, four_booster_cmr):
    night = Night(Store(tmp_path / "night.json"))
    event_id = night.create("Sealed", mode="sealed", seed=5)
    for name in ("Ann", "Bo"):
        night.add_player(event_id, name)
    night.start_draft(event_id)
    assert [len(night.pool(event_id, name)) for name in ("Ann", "Bo")] == [80, 80]


def test_cmdraft_sealed_opens_the_profiles_count_unless_boosters_is_given(four_booster_cmr):
    """``cmdraft sealed`` asks the same profile: four boosters a player here, and ``--boosters`` still wins."""
    import json

    def pools(*args: object) -> list[int]:
        result = invoke(["sealed", "--players", 2, "--seed", 4, "--json", *args])
        assert result.exit_code == 0, result.output
        return [len(player["boosters"]) for player in json.loads(result.stdout)["players"]]

    assert pools() == [4, 4]
    assert pools("--boosters", 2) == [2, 2]
