"""Collation: the CMR draft booster, any MTGJSON booster, statistics against the spec."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from sets.audit import audit, chi_square_sf, expected_by
from sets.booster import BoosterSpec, booster_spec
from sets.catalog import save_imported
from sets.colors import Color
from sets.errors import BoosterSpecError
from sets.importers import read_card_file
from tests.cardfiles import mtgjson_set, write

N = 12000


@pytest.fixture(scope="module")
def spec():
    return booster_spec("CMR")


@pytest.fixture(scope="module")
def opened(spec):
    return spec.open_many(random.Random(20201120), N)


def test_every_booster_has_twenty_cards_and_five_colors_of_commons(opened):
    for booster in opened:
        assert len(booster.printings) == 20
        commons = [p.card for p in booster.printings if p.sheet == "common"]
        assert {c for card in commons for c in card.colors} == set(Color)


def test_a_sheet_never_repeats_a_card_within_a_booster(opened):
    for booster in opened:
        per_sheet = Counter((p.sheet, p.card.number) for p in booster.printings)
        assert max(per_sheet.values()) == 1


def test_same_seed_same_boosters(spec):
    first = [b.to_json() for b in spec.open_many(random.Random(5), 30)]
    again = [b.to_json() for b in spec.open_many(random.Random(5), 30)]
    other = [b.to_json() for b in spec.open_many(random.Random(6), 30)]
    assert first == again and first != other


def _share(spec, sheet):
    return spec.variant_share(sheet)


@pytest.mark.parametrize("sheet", ["special", "etched_foil", "dedicated_foil"])
def test_slot_frequencies_match_the_spec(spec, opened, sheet):
    observed = sum(any(p.sheet == sheet for p in b.printings) for b in opened)
    expected = _share(spec, sheet) * N
    statistic = (observed - expected) ** 2 / expected + (observed - expected) ** 2 / (N - expected)
    assert chi_square_sf(statistic, 1) > 0.001


def test_piper_replaces_a_common(opened):
    for booster in opened:
        sheets = Counter(p.sheet for p in booster.printings)
        assert sheets["common"] + sheets["special"] == 13


def test_etched_slot_holds_etched_legends_including_the_reprints(opened):
    etched = [p for b in opened for p in b.printings if p.etched]
    assert etched and all(p.foil and p.card.is_legendary for p in etched)
    assert any(not p.card.main_set for p in etched) and all(p.card.main_set for b in opened for p in b.printings if not p.etched)


def test_all_checks_of_the_audit_pass(spec, opened):
    checks = audit(spec, opened, N)
    titles = {check.title for check in checks}
    assert {"variants", "boosters with a special card", "legendary: rarity mix", "common: colors (balanced)"} <= titles
    for check in checks:
        assert check.p_value > 0.001, check


def test_audit_notices_a_broken_collation(spec):
    """Boosters from a spec with the Piper in every pack must fail the audit."""
    broken = spec.open_many(random.Random(1), 3000)
    broken = [type(b)(b.index, 2, b.printings) for b in broken]
    assert min(check.p_value for check in audit(spec, broken, 3000)) < 1e-6


def test_legendary_card_frequencies_follow_their_weights(spec, opened):
    observed = Counter(p.card.number for b in opened for p in b.printings if p.sheet == "legendary")
    expected = expected_by(spec, "legendary", lambda card: card.number, N)
    statistic = sum((observed[k] - e) ** 2 / e for k, e in expected.items())
    assert chi_square_sf(statistic, len(expected) - 1) > 0.001


def test_chi_square_known_values():
    assert chi_square_sf(3.841, 1) == pytest.approx(0.05, abs=1e-3)
    assert chi_square_sf(18.307, 10) == pytest.approx(0.05, abs=1e-3)
    assert chi_square_sf(0, 4) == 1.0


def _imported_tst(tmp_path, data=None):
    result = read_card_file(write(tmp_path, "TST.json", data or mtgjson_set()))
    (card_set,) = result.card_sets()
    save_imported(card_set)
    return card_set


def test_mtgjson_booster_drives_the_same_engine(tmp_path):
    card_set = _imported_tst(tmp_path)
    spec = booster_spec("TST")
    boosters = spec.open_many(random.Random(3), 400)
    assert {len(b.printings) for b in boosters} == {4}
    foils = [p for b in boosters for p in b.printings if p.sheet == "foil"]
    assert foils and all(p.foil for p in foils)
    scholar = card_set.by_number["3"]
    assert Counter(p.card for p in foils)[scholar] > Counter(p.card.number for p in foils)["2"]
    for booster in boosters:
        commons = [p.card for p in booster.printings if p.sheet == "common"]
        assert len(commons) in (2, 3)


def test_booster_type_choice_and_errors(tmp_path):
    _imported_tst(tmp_path)
    assert booster_spec("TST", "draft").kind == "draft"
    with pytest.raises(BoosterSpecError, match="no 'collector' booster: choose one of draft"):
        booster_spec("TST", "collector")
    _imported_tst(tmp_path, {"data": dict(mtgjson_set(with_booster=False)["data"], code="NOB")})
    with pytest.raises(BoosterSpecError, match="set NOB has no booster data"):
        booster_spec("NOB")


@pytest.mark.parametrize(
    ("corrupt", "message"),
    [
        (lambda d: d["sheets"]["common"].update(total_weight=999), "weights add up to 141, not 999"),
        (lambda d: d["sheets"]["special"]["cards"].update({"9999": 1}), "names card '9999'"),
        (lambda d: d["variants"][0]["contents"].update(mystery=1), "sheet 'mystery', which is not defined"),
        (lambda d: d["variants"][0].update(weight=0), "variant 1 has weight 0"),
        (lambda d: d.update(total_weight=91), "variant weights add up to 90, not 91"),
        (lambda d: d["variants"][0]["contents"].update(special=2), "draws 2 cards from sheet 'special' of 1"),
    ],
)
def test_corrupt_definitions_are_refused(cmr, corrupt, message):
    data = json.loads(json.dumps(cmr.boosters["draft"]))
    corrupt(data)
    with pytest.raises(BoosterSpecError, match=message):
        BoosterSpec.from_json(data, cmr)


def test_spec_totals_match_the_shared_figures(cmr):
    for sheet in cmr.boosters["draft"]["sheets"].values():
        assert sum(sheet["cards"].values()) == sheet["total_weight"]
    spec = booster_spec(cmr)
    assert spec.total_weight == 90 and spec.sizes == {20}
    assert _share(spec, "special") == pytest.approx(1 / 6) and _share(spec, "etched_foil") == pytest.approx(1 / 15)


# --- CLI ---------------------------------------------------------------------------------


def test_packs_json_one_line_per_booster(cli):
    result = cli("packs", "--count", "3", "--seed", "11", "--json")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["index"] for line in lines] == [0, 1, 2] and all(line["seed"] == 11 for line in lines)
    card = lines[0]["cards"][0]
    assert set(card) == {"number", "name", "rarity", "sheet", "foil", "etched"}
    assert result.stdout == cli("packs", "--count", "3", "--seed", "11", "--json").stdout


def test_packs_table(cli):
    result = cli("packs", "--seed", "1")
    assert result.exit_code == 0 and "Commander Legends Draft Booster #1" in result.stdout


def test_sealed_gives_six_boosters_each(cli):
    data = json.loads(cli("sealed", "--players", "2", "--seed", "4", "--json").stdout)
    assert [len(p["boosters"]) for p in data["players"]] == [6, 6] and len(data["players"][0]["pool"]) == 120


def test_audit_cli(cli):
    result = cli("packs", "audit", "--count", "3000", "--seed", "2", "--json")
    data = json.loads(result.stdout)
    assert data["count"] == 3000 and all(check["p_value"] > 0.001 for check in data["checks"])
    assert "p =" in cli("packs", "audit", "--count", "1000", "--seed", "2").stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("packs", "--set", "XYZ"), "unknown set 'XYZ'"),
        (("packs", "--count", "0"), "--count must be at least 1"),
        (("packs", "audit", "--count", "-5"), "--count must be at least 1"),
        (("sealed", "--players", "0"), "--players must be at least 1"),
        (("packs", "--booster", "collector"), "no 'collector' booster"),
    ],
)
def test_packs_bad_input(cli, args, message):
    result = cli(*args)
    assert result.exit_code == 2 and message in result.stderr


def test_corrupt_imported_booster_exits_2(cli, tmp_path):
    data = mtgjson_set()
    data["data"]["booster"]["draft"]["sheets"]["rare"]["totalWeight"] = 7
    cli("sets", "import", write(tmp_path, "TST.json", data))
    result = cli("packs", "--set", "TST")
    assert result.exit_code == 2 and "corrupt booster definition" in result.stderr and "not 7" in result.stderr


def test_sheets_that_allow_duplicates(tmp_path):
    data = mtgjson_set()
    booster = data["data"]["booster"]["draft"]
    booster["sheets"]["rare"]["allowDuplicates"] = True
    booster["boosters"][0]["contents"]["rare"] = 5  # more draws than the sheet has cards
    _imported_tst(tmp_path, data)
    boosters = booster_spec("TST").open_many(random.Random(2), 200)
    assert any(Counter(p.card for p in b.printings if p.sheet == "rare").most_common(1)[0][1] > 1 for b in boosters if b.variant == 0)
