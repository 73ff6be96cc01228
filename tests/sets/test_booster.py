"""Collation: the CMR draft booster, any MTGJSON booster, statistics against the spec."""

from __future__ import annotations

import json
import math
import random
import re
import sys
import threading
from bisect import bisect
from collections import Counter
from dataclasses import replace
from itertools import accumulate, permutations

import pytest

from sets.audit import audit, chi_square_sf, expected_by, rules_group
from sets.booster import Booster, BoosterSpec, Variant, booster_spec
from sets.catalog import save_imported
from sets.colors import Color
from sets.draw_odds import plain_inclusion
from sets.errors import BoosterSpecError
from sets.importers import read_card_file
from sets.sheet_draws import COARSE, compose
from tests.helpers.cardfiles import mtgjson_card, mtgjson_set, write
from tests.helpers.old_collation import old_balanced_spec
from tests.helpers.products import CLB_FILE, CMM_FILE

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
    assert any(not p.card.main_set for p in etched) and all(
        p.card.main_set for b in opened for p in b.printings if not p.etched
    )


def test_all_checks_of_the_audit_pass(spec, opened):
    checks = audit(spec, opened, N)
    titles = {check.title for check in checks}
    assert {
        "variants",
        "boosters with a special card",
        "legendary: rarity mix",
        "common: color groups (balanced)",
        "common: cards",
        "cards per slot (sheet)",
    } <= titles
    for check in checks:
        assert check.p_value > 0.001, check


def test_audit_notices_a_broken_collation(spec):
    """Boosters from a spec with the Piper in every pack must fail the audit."""
    broken = spec.open_many(random.Random(1), 3000)
    broken = [type(b)(b.index, 2, b.printings) for b in broken]
    assert min(check.p_value for check in audit(spec, broken, 3000)) < 1e-6


def _shares(card_set, sheet_name, boosters):
    """Expected copies of each card of a sheet, read from the set's booster definition: its weight share of the sheet
    times the cards the variants draw from it (RULES.md section 5: balancing keeps every common's share)."""
    definition = card_set.boosters["draft"]
    sheet = definition["sheets"][sheet_name]
    total_variants = sum(v["weight"] for v in definition["variants"])
    slots = sum(v["weight"] / total_variants * v["contents"].get(sheet_name, 0) for v in definition["variants"])
    total = sum(sheet["cards"].values())
    return {card_set.by_number[str(number)]: boosters * slots * w / total for number, w in sheet["cards"].items() if w}


def _group_ratios(card_set, sheet_name, opened):
    expected = _shares(card_set, sheet_name, len(opened))
    observed = Counter(p.card for b in opened for p in b.printings if p.sheet == sheet_name)
    groups_observed, groups_expected = Counter(), Counter()
    for card, e in expected.items():
        groups_observed[rules_group(card)] += observed[card]
        groups_expected[rules_group(card)] += e
    colorless = [card for card in expected if not card.colors]
    colorless_ratio = sum(observed[c] for c in colorless) / sum(expected[c] for c in colorless)
    return {g: groups_observed[g] / e for g, e in groups_expected.items()}, colorless_ratio


def test_balanced_commons_keep_every_cards_share(cmr, opened):
    """Issue 10: colorless commons (Command Tower, the Diamonds) came out at 0.63x their share, mono-colored at 1.08x."""
    ratios, colorless = _group_ratios(cmr, "common", opened)
    assert set(ratios) == {"W", "U", "B", "R", "G", "other"}
    assert all(0.97 <= ratio <= 1.03 for ratio in ratios.values()), ratios
    assert 0.97 <= colorless <= 1.03


def test_the_old_forced_colors_drawing_starves_colorless_commons(cmr, spec):
    old = old_balanced_spec(spec).open_many(random.Random(20201120), 4000)
    ratios, colorless = _group_ratios(cmr, "common", old)
    assert colorless < 0.7 and ratios["other"] < 0.7 and all(ratios[c] > 1.05 for c in "WUBRG")


AUDIT_SIZE, AUDIT_SEED = 20000, 10


def test_audit_fails_the_old_drawing_and_passes_the_new(spec):
    """The planted fault: the old balancing (one of each color forced, the rest uniform) at a fixed seed and size."""
    old = audit(spec, old_balanced_spec(spec).open_many(random.Random(AUDIT_SEED), AUDIT_SIZE), AUDIT_SIZE)
    failed = {check.title: check for check in old if check.p_value < 1e-6}
    assert {"common: color groups (balanced)", "common: cards"} <= set(failed)
    worst = failed["common: cards"].rows[0]
    assert worst.observed < 0.75 * worst.expected  # a colorless common, at about 0.63x its share
    new = audit(spec, spec.open_many(random.Random(AUDIT_SEED), AUDIT_SIZE), AUDIT_SIZE)
    assert all(check.p_value > 0.001 for check in new), [(c.title, c.p_value) for c in new if c.p_value <= 0.001]


def test_audit_card_tables_list_the_worst_first_and_warn_on_small_samples(spec):
    checks = {check.title: check for check in audit(spec, spec.open_many(random.Random(3), 300), 300)}
    cards = checks["common: cards"]
    residuals = [abs(row.residual) for row in cards.rows]
    assert residuals == sorted(residuals, reverse=True) and len(cards.rows) == 141
    assert "under 5" in checks["dedicated_foil: cards"].warning and "under 5" in checks["variants"].warning
    assert not checks["boosters with a special card"].warning


def test_expected_figures_do_not_come_from_the_drawing(spec):
    """The audit reads only the definition: a sheet whose drawing is broken leaves its expected figures alone."""
    broken = old_balanced_spec(spec)
    assert expected_by(broken, "common", rules_group, 900) == expected_by(spec, "common", rules_group, 900)
    expected = expected_by(spec, "common", rules_group, 900)
    assert expected["other"] == pytest.approx(900 * (31 / 141) * (70 * 13 + 5 * 13 + 14 * 12 + 12) / 90)


def _enumerated_inclusion(weights, count):
    """Every ordered draw of ``count`` different cards, each by weight among the cards left."""
    exact = [0.0] * len(weights)
    for order in permutations(range(len(weights)), count):
        chance, left = 1.0, sum(weights)
        for i in order:
            chance *= weights[i] / left
            left -= weights[i]
        for i in order:
            exact[i] += chance
    return exact


@pytest.mark.parametrize(
    ("weights", "count"),
    [
        ([1, 2, 3, 4], 2),
        ([1, 2, 3, 4, 16, 1, 1], 3),
        ([1, 2, 3, 4, 16, 1, 1], 5),
        ([5720, 5720, 5720, 1562, 710, 355, 355], 4),
        ([1000, 1, 1, 1, 1, 1], 3),
    ],
)
def test_inclusion_of_weighted_draws_without_repeats_is_exact(weights, count):
    assert plain_inclusion(weights, count) == pytest.approx(_enumerated_inclusion(weights, count), abs=1e-9)


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
    # Two or three commons can't take one of each of five colors: the balanced sheet draws plainly, every card 1/10.
    checks = {check.title: check for check in audit(spec, boosters, 400)}
    assert "common: color groups (balanced)" not in checks and checks["common: cards"].p_value > 0.001
    variants = Counter(b.variant for b in boosters)
    assert all(
        row.expected == pytest.approx((variants[0] * 3 + variants[1] * 2) / 10) for row in checks["common: cards"].rows
    )


def _balanced_set():
    """An MTGJSON set whose 10-card common slot is color-balanced: 8 cards a color (one at weight 3), and "other":
    colorless artifacts, lands at weight 2 (one that taps for green) and multicolor cards."""
    cards, sheet = [], {}
    for c in "WUBRG":
        for i in range(8):
            uuid = f"{c}{i}"
            cards.append(mtgjson_card(uuid, f"Mono {c}{i}", f"{len(cards) + 1}", f"{{{c}}}", "Creature — Test", "", c))
            sheet[uuid] = 3 if i == 0 else 1
    others = [
        ("Relic", "{2}", "Artifact", "", (), None, 1),
        ("Green Diamond", "{2}", "Artifact", "{T}: Add {G}.", (), "G", 1),
        ("Grove", "", "Land — Forest", "", (), "G", 2),
        ("Tower", "", "Land", "{T}: Add {C}.", (), "", 2),
        ("Duo", "{W}{U}", "Creature — Test", "", "WU", None, 1),
        ("Trio", "{B}{R}{G}", "Creature — Test", "", "BRG", None, 1),
    ]
    for name, cost, type_, text, colors, identity, weight in others:
        uuid = name.lower().replace(" ", "")
        cards.append(mtgjson_card(uuid, name, f"{len(cards) + 1}", cost, type_, text, colors, identity=identity))
        sheet[uuid] = weight
    body = {
        "code": "BAL",
        "name": "Balanced",
        "cards": cards,
        "booster": {
            "draft": {
                "boosters": [{"contents": {"common": 10}, "weight": 1}],
                "boostersTotalWeight": 1,
                "sheets": {"common": {"balanceColors": True, "cards": sheet, "totalWeight": sum(sheet.values())}},
            }
        },
    }
    return {"meta": {"version": "5.2.2"}, "data": body}


def test_imported_balanced_sheet_keeps_each_cards_share(tmp_path):
    card_set = _imported_tst(tmp_path, _balanced_set())
    spec = booster_spec("BAL")
    count = 6000
    opened = spec.open_many(random.Random(8), count)
    for booster in opened:
        assert {rules_group(p.card) for p in booster.printings} >= {"W", "U", "B", "R", "G"}
    ratios, colorless = _group_ratios(card_set, "common", opened)
    assert all(0.97 <= ratio <= 1.03 for ratio in ratios.values()) and 0.95 <= colorless <= 1.05, (ratios, colorless)
    assert all(check.p_value > 0.001 for check in audit(spec, opened, count))
    old = old_balanced_spec(spec).open_many(random.Random(8), count)
    assert min(check.p_value for check in audit(spec, old, count)) < 1e-6


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
    # each player numbered 'number', as an event's players are ('player', the same number, kept; before: only it)
    assert [(p["number"], p["player"]) for p in data["players"]] == [(1, 1), (2, 2)]


def test_audit_cli(cli):
    result = cli("packs", "audit", "--count", "3000", "--seed", "2", "--json")
    data = json.loads(result.stdout)
    assert data["count"] == 3000 and all(check["p_value"] > 0.001 for check in data["checks"])
    cards = next(check for check in data["checks"] if check["title"] == "common: cards")
    assert len(cards["rows"]) == 141 and cards["dof"] == 140 and not cards["warning"]
    text = cli("packs", "audit", "--count", "1000", "--seed", "2").stdout
    assert "p =" in text and "common: color groups (balanced)" in text
    assert "131 more rows, closer to expected" in text  # the 10 worst commons on screen
    assert re.search(
        r"warning: \d+ of 361 expected counts are under 5", text
    )  # the foil sheet's cards, at 1000 boosters


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
    assert any(
        Counter(p.card for p in b.printings if p.sheet == "rare").most_common(1)[0][1] > 1
        for b in boosters
        if b.variant == 0
    )


FOILS = "foils per booster (foil-etched counted as foil)"


def test_the_audit_counts_the_foil_etched_legend_as_a_foil(spec):
    """Every CMR draft booster holds one foil: a traditional foil or, in 6 of 90, a foil-etched legend (RULES §5);
    no table reads a booster with a foil-etched legend as one "without a foil"."""
    count = 900
    checks = {check.title: check for check in audit(spec, spec.open_many(random.Random(5), count), count)}
    rows = {row.label: (row.observed, row.expected) for row in checks[FOILS].rows}
    assert rows == {"1 foil": (count, count)}
    assert "boosters with a dedicated_foil card" not in checks  # its "without" row counted the etched boosters
    assert checks["boosters with a etched_foil card"].rows[0].observed > 0


def test_the_audit_sees_boosters_whose_etched_legend_lost_its_foil(spec):
    """A planted fault: the foil-etched legends come out as plain cards."""
    boosters = spec.open_many(random.Random(6), 900)
    plain = [
        type(b)(b.index, b.variant, tuple(type(p)(p.card, p.sheet) if p.etched else p for p in b.printings))
        for b in boosters
    ]
    check = next(c for c in audit(spec, plain, 900) if c.title == FOILS)
    assert dict((row.label, row.observed) for row in check.rows)["0 foils"] > 0 and check.p_value < 1e-6


def opened_sheet_by_sheet(spec: BoosterSpec, rng: random.Random, count: int, start: int = 0) -> list[Booster]:
    """Boosters opened the long way: the variant, then each sheet's own ``draw`` (no index tables, no steps)."""
    boosters = []
    for index in range(start, start + count):
        variant = bisect(list(accumulate(v.weight for v in spec.variants)), rng.random() * spec.total_weight)
        printings = [p for name, n in spec.variants[variant].contents for p in spec.sheets[name].draw(rng, n)]
        boosters.append(Booster(index, variant, tuple(printings)))
    return boosters


# The steps each test set's boosters take (``sets.sheet_draws``): a table's (one, distinct: up to four cards compared
# with each other), a float running total's, a balanced sheet's, the sheet's own (by_sheet: a weighted balanced sheet,
# or colors that may run out of cards as in the small fixtures).
STEPS = {
    "CMR": {"balanced", "distinct", "one", "one_by_totals"},
    "TST": {"distinct", "one"},
    "BAL": {"by_sheet"},
    "CLB": {"by_sheet", "distinct", "one"},
    "CMM": {"balanced", "by_sheet", "distinct", "one"},
}


def same_as_sheet_by_sheet(spec: BoosterSpec, seed: int, count: int) -> None:
    """The spec's boosters are the sheets' own draws, and leave the generator where the sheets' draws leave it.

    The boosters that differ are named by their places and the first is shown, rather than the two lists compared
    whole: pytest explains a failed ``==`` of lists with a diff of their reprs, quadratic in their length, whenever
    it runs verbose (``-vv``) or on CI (``CI`` set): minutes for a few hundred boosters, where a planted fault is to
    be caught (the tests below)."""
    fast, slow = random.Random(seed), random.Random(seed)
    opened, expected = spec.open_many(fast, count, 7), opened_sheet_by_sheet(spec, slow, count, 7)
    assert len(opened) == len(expected) == count
    differ = [place for place, (mine, theirs) in enumerate(zip(opened, expected)) if mine != theirs]
    assert not differ, f"{len(differ)} boosters differ, the first: {opened[differ[0]]} against {expected[differ[0]]}"
    assert fast.random() == slow.random()


@pytest.mark.parametrize("code", list(STEPS))
def test_boosters_drawn_from_index_tables_are_the_sheets_own_draws(tmp_path, code):
    """Issue 41: ``open_many`` runs the spec's draws written out once from its tables; the same seed gives the very
    boosters the sheets' ``draw`` gives (seeds keep their packs), for CMR, a weighted foil sheet, a weighted balanced
    sheet and the CLB and CMM fixtures (balanced commons that may run out of a color, a weighted foil sheet)."""
    if code in ("TST", "BAL"):
        _imported_tst(tmp_path, None if code == "TST" else _balanced_set())
    product = {"CLB": CLB_FILE, "CMM": CMM_FILE}.get(code)
    spec = booster_spec(code if product is None else next(iter(read_card_file(product).card_sets())))
    assert {step.kind for steps in spec._steps for step in steps} == STEPS[code]
    for seed in (41, 2026):
        same_as_sheet_by_sheet(spec, seed, 3000)


# Sheet names as a set file may spell them: the written-out draws name tables by names of their own, never these.
ODD_NAMES = ["common", 'x"] + __import__("os").getpid() #', "a\nb = 1", "ünïcode sheet", "def", "index", "rnd"]


def random_spec(cmr, rng: random.Random) -> dict:
    """A booster definition of random shape over CMR's cards: uniform, weighted, heavy (no index table), balanced
    (uniform, weighted, small enough to run out of a color), duplicates allowed, one card; 1 to 40 variants, each
    drawing 0 to 15 cards of a sheet, weights at times too big for the variants' table."""
    cards = sorted(cmr.cards, key=lambda card: card.number)
    commons = [card for card in cards if card.rarity.value == "common"]
    names = iter(rng.sample(ODD_NAMES, len(ODD_NAMES)) + [f"sheet {i}" for i in range(20)])
    sheets = {}
    for _ in range(rng.randint(2, 7)):
        shape = rng.choice(["uniform", "weighted", "heavy", "balanced", "balanced weighted", "small", "dups", "one"])
        pool = commons if shape.startswith("balanced") or shape == "small" else cards
        size = {"one": 1, "small": rng.randint(6, 12), "dups": rng.randint(2, 6)}.get(shape, rng.randint(20, len(pool)))
        chosen = rng.sample(pool, size)
        weight = {"weighted": (1, 6), "heavy": (500, 9000), "balanced weighted": (1, 3)}.get(shape, (1, 1))
        sheet = {"cards": {card.number: rng.randint(*weight) for card in chosen}}
        sheet["balance_colors"] = shape in ("balanced", "balanced weighted", "small")
        sheet["allow_duplicates"] = shape == "dups"
        sheet["foil"] = rng.random() < 0.3
        sheets[next(names)] = sheet
    variants = []
    for _ in range(rng.choice([1, 2, 4, 9, 40])):
        contents = {}
        for name in rng.sample(list(sheets), rng.randint(0, len(sheets))):
            most = 15 if sheets[name]["allow_duplicates"] else min(15, len(sheets[name]["cards"]))
            contents[name] = rng.randint(1, most)
        variants.append({"weight": rng.choice([1, 3, 70, 5000, 40000]), "contents": contents})
    return {"sheets": sheets, "variants": variants}


def test_specs_of_every_shape_draw_as_their_sheets(cmr):
    """The written-out draws serve any spec (an imported set's): each of 40 random shapes gives the sheets' own
    boosters and leaves the generator where they leave it; odd sheet names stay data."""
    kinds = Counter()
    for seed in range(40):
        spec = BoosterSpec.from_json(random_spec(cmr, random.Random(seed)), cmr)
        kinds.update(step.kind for steps in spec._steps for step in steps)
        same_as_sheet_by_sheet(spec, seed, 300)
    assert set(kinds) == {"one", "one_by_totals", "distinct", "distinct_marked", "balanced", "by_sheet"}


def test_a_variant_drawing_one_sheet_twice_draws_it_twice(cmr):
    """Two entries of one sheet in a variant (a spec built in code) each refuse only their own repeats."""
    spec = booster_spec(cmr)
    common = spec.sheets["common"]
    variants = [Variant(2, (("common", 13), ("common", 13))), Variant(1, (("common", 6), ("common", 6), ("common", 2)))]
    twice = BoosterSpec("twice", variants, {"common": common})
    same_as_sheet_by_sheet(twice, 5, 2000)


def test_threads_opening_from_one_spec_keep_their_own_draws(spec):
    """The marks that refuse repeats are made at each call: threads opening at once get what each alone gets."""
    alone = {seed: spec.open_many(random.Random(seed), 400) for seed in range(6)}
    together: dict[int, list[Booster]] = {}
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [
            threading.Thread(target=lambda s=seed: together.update({s: spec.open_many(random.Random(s), 400)}))
            for seed in alone
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(switch)
    assert together == alone


def _open_with(spec, step, planted) -> None:
    """The spec opens its boosters with ``planted`` in the place of ``step`` (a planted fault)."""
    spec._open_many = compose(
        [[planted if s is step else s for s in steps] for steps in spec._steps],
        [v.weight for v in spec.variants],
        [],
        spec._cum,
        Booster,
    )


def test_the_comparison_sees_a_balanced_step_that_draws_otherwise(cmr):
    """A planted fault: the balanced sheet's groups swapped in its written-out draws; the comparison with the
    sheets' own draws catches it."""
    spec = booster_spec(cmr)
    step = spec._steps[0][0]
    assert step.kind == "balanced" and step.count == 13
    cards, slots, size, *forced = step.tables
    swapped = replace(step, tables=(cards, slots, size, *forced[2:4], *forced[:2], *forced[4:]))
    _open_with(spec, step, swapped)
    with pytest.raises(AssertionError, match="boosters differ"):
        same_as_sheet_by_sheet(spec, 3, 300)


def test_the_foil_sheets_bucket_table_gives_what_bisect_gives_at_both_ends_of_every_bucket(spec):
    """Issue 41: CMR's foil sheet (too big for an index table) looks its card up in a table of 4,096 buckets of the
    random numbers first; a bucket that names a card gives it at its lowest number and its highest (and so at every
    number between, the lookup growing with the number), and few buckets are left to ``bisect``."""
    step = next(s for steps in spec._steps for s in steps if s.kind == "one_by_totals")
    cards, totals, total, table, buckets = step.tables
    assert buckets == COARSE and len(table) == COARSE
    for bucket, card in enumerate(table):
        if card is not None:
            low, high = bucket / COARSE, math.nextafter((bucket + 1) / COARSE, 0.0)
            assert cards[bisect(totals, low * total)] is card is cards[bisect(totals, high * total)]
    assert sum(card is None for card in table) < COARSE / 8


def test_the_comparison_sees_a_foil_bucket_table_that_names_another_card(cmr):
    """A planted fault: half the foil sheet's buckets name their neighbour's card; the comparison with the sheets'
    own draws catches it."""
    spec = booster_spec(cmr)
    step = next(s for steps in spec._steps for s in steps if s.kind == "one_by_totals")
    cards, totals, total, table, buckets = step.tables
    shifted = tuple(table[b + 1] if b % 2 == 0 else card for b, card in enumerate(table[:-1])) + table[-1:]
    planted = replace(step, tables=(cards, totals, total, shifted, buckets))
    _open_with(spec, step, planted)
    with pytest.raises(AssertionError, match="boosters differ"):
        same_as_sheet_by_sheet(spec, 3, 300)
