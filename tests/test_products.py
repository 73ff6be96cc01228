"""Issue 40: every Commander-draft product, Battle for Baldur's Gate (CLB) and Commander Masters (CMM) beside
Commander Legends (CMR).

The sets are small MTGJSON-shaped files of real cards (tests/fixtures/clb_set.json, cmm_set.json, made by
tests/fixtures/make_product_sets.py: facts only) with booster definitions shaped like MTGJSON's, imported into the
test's own data folder as a store would ('cmdraft sets import'), never from the network.  The expected verdicts
come from the rules (CR 903.13e/f, 702.124 and the products' own options, RULES.md section 6) and the expected
booster contents from the products' slot lists, never from the code under test.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from draft.commanders import can_pair
from draft.deck_rules import validate
from draft.deckbuild import build_deck
from draft.decks import Deck, DeckLine, Zone
from draft.engine import DraftConfig
from draft.formats import FileFormat, parse, resolve, write
from draft.products import product, product_of, products
from draft.sim import piper_card, run_pod
from events.storage.store import Store
from sets.audit import audit
from sets.booster import booster_spec
from sets.card_index import card_index
from sets.cards import Rarity
from sets.catalog import load_set
from tests.helpers.night import Night
from tests.helpers.nights import draft_to_the_end
from tests.helpers.paths import FIXTURES
from tests.helpers.products import (
    BASICS,
    CLB,
    CMM,
    chooses_background,
    import_products,
    is_background,
    mono_legend_without_partner,
)


@pytest.fixture
def imported(cli) -> None:
    import_products(cli)


# --- the profiles ----------------------------------------------------------------------------------------------


def test_each_product_has_its_profile_with_the_rules_and_their_sources():
    found = products()
    assert set(found) == {"CMR", "CLB", "CMM"}
    for each in found.values():  # all three draft and build the same way (CR 903.13b, 903.13f)
        assert (each.boosters, each.booster_size, each.picks_per_turn, each.min_deck_size) == (3, 20, 2, 60)
        assert each.added.most == 2 and each.added.source
    assert found["CMR"].added.card == found["CMM"].added.card == "The Prismatic Piper"
    assert (found["CLB"].added.card, found["CLB"].added.word) == ("Faceless One", "Faceless One")
    assert found["CMR"].grant is None and found["CLB"].grant is None
    grant = found["CMM"].grant
    # Sources differ on colorless legends: ours is the primer's wording (mono-colored only), and the data says so.
    assert grant is not None and not grant.colorless and "colorless" in grant.source and "magic.gg" in grant.source
    assert not grant.applies(CMM["Kozilek, the Great Distortion"])  # a colorless legend: no grant
    assert grant.applies(CMM["Avacyn, Angel of Hope"]) and not grant.applies(CMM["Akiri, Fearless Voyager"])
    assert product("XYZ").added.card == "The Prismatic Piper" and not product("XYZ").known


def test_the_product_of_a_pool_is_the_one_most_of_its_cards_come_from():
    assert product_of(list(CLB.values())[:30] + [BASICS["Plains"]] * 20).code == "CLB"
    assert product_of([CMM["Avacyn, Angel of Hope"], CMM["The Prismatic Piper"]]).code == "CMM"
    assert product_of([CLB["Faceless One"]]).code == "CLB"  # only the added card: its own product
    assert product_of([]).code == "CMR"


# --- deck check verdicts, each citing its rule --------------------------------------------------------------


def write_deck(path: Path, commanders: list[str], main: dict[str, int], space: str = " ") -> Path:
    lines = ["Commander"] + [f"1{space}{name}" for name in commanders] + ["", "Deck"]
    lines += [f"{n}{space}{name}" for name, n in main.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_pool(path: Path, cards: dict[str, int]) -> Path:
    path.write_text("".join(f"{n} {name}\n" for name, n in cards.items()), encoding="utf-8")
    return path


def white_spells(cards: dict, count: int) -> dict[str, int]:
    chosen = [
        c.name
        for c in cards.values()
        if c.identity.code == "W" and not c.can_be_commander and not c.is_land and not is_background(c)
    ]
    return {name: 1 for name in chosen[:count]}


def check(cli, deck: Path, pool: Path, *extra: str):
    result = cli("deck", "check", deck, "--pool", pool, "--json", *extra)
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


def messages(report: dict, code: str) -> str:
    return " | ".join(p["message"] for p in report["problems"] if p["code"] == code)


def test_a_faceless_one_added_after_a_clb_draft_may_lead(imported, cli, tmp_path):
    spells = white_spells(CLB, 12)
    pool = write_pool(tmp_path / "pool.txt", spells)
    deck = write_deck(tmp_path / "deck.txt", ["Faceless One"], {**spells, "Plains": 60 - 1 - len(spells)})
    code, report = check(cli, deck, pool)
    assert code == 0 and report["valid"] and report["commanders"] == ["Faceless One"], report
    # a no-break space after the count, as some sites copy it, reads as a space: the same verdict
    pasted = write_deck(
        tmp_path / "pasted.txt", ["Faceless One"], {**spells, "Plains": 60 - 1 - len(spells)}, space="\u00a0"
    )
    assert check(cli, pasted, pool) == (code, report)


def test_three_faceless_ones_added_are_refused_citing_903_13e(imported, cli, tmp_path):
    spells = white_spells(CLB, 12)
    pool = write_pool(tmp_path / "pool.txt", spells)
    deck = write_deck(tmp_path / "deck.txt", ["Faceless One"] * 3, {**spells, "Plains": 60 - 3 - len(spells)})
    code, report = check(cli, deck, pool)
    assert code == 1 and "too-many-pipers" in [p["code"] for p in report["problems"]]
    said = messages(report, "too-many-pipers")
    assert "3 Faceless Ones added" in said and "at most 2" in said and "CR 903.13e" in said


def test_a_faceless_one_in_the_main_deck_not_from_the_pool_is_refused(imported, cli, tmp_path):
    spells = white_spells(CLB, 12)
    pool = write_pool(tmp_path / "pool.txt", {**spells, "Abdel Adrian, Gorion's Ward": 1})
    deck = write_deck(
        tmp_path / "deck.txt",
        ["Abdel Adrian, Gorion's Ward"],
        {**spells, "Faceless One": 1, "Plains": 58 - len(spells)},
    )
    code, report = check(cli, deck, pool)
    assert code == 1 and "must be commanders (CR 903.13e" in messages(report, "piper-not-commander")


def test_a_clb_background_without_a_commander_that_chooses_one_is_refused_citing_702_124k(imported, cli, tmp_path):
    assert not chooses_background(CLB["Astarion, the Decadent"]) and is_background(CLB["Flaming Fist"])
    spells = white_spells(CLB, 12)
    leaders = {"Astarion, the Decadent": 1, "Flaming Fist": 1}
    pool = write_pool(tmp_path / "pool.txt", {**spells, **leaders})
    deck = write_deck(tmp_path / "deck.txt", list(leaders), {**spells, "Plains": 58 - len(spells)})
    code, report = check(cli, deck, pool)
    assert code == 1 and "CR 702.124k" in messages(report, "not-a-commander")
    assert "CR 702.124" in messages(report, "illegal-pair")
    # the same Background beside a legend that chooses one is legal
    good = {"Abdel Adrian, Gorion's Ward": 1, "Flaming Fist": 1}
    pool = write_pool(tmp_path / "good-pool.txt", {**spells, **good})
    deck = write_deck(tmp_path / "good.txt", list(good), {**spells, "Plains": 58 - len(spells)})
    assert check(cli, deck, pool)[0] == 0


def test_two_mono_colored_cmm_legends_may_lead_by_the_cmm_grant(imported, cli, tmp_path):
    pair = ["Avacyn, Angel of Hope", "Azami, Lady of Scrolls"]  # W and U, neither has partner
    assert all(mono_legend_without_partner(CMM[name]) for name in pair)
    spells = white_spells(CMM, 12)
    pool = write_pool(tmp_path / "pool.txt", {**spells, **dict.fromkeys(pair, 1)})
    deck = write_deck(tmp_path / "deck.txt", pair, {**spells, "Plains": 23, "Island": 35 - len(spells)})
    code, report = check(cli, deck, pool)
    assert code == 0 and report["color_identity"] == ["W", "U"], report


def test_a_two_colored_and_a_mono_colored_cmm_legend_are_refused_naming_the_grant(imported, cli, tmp_path):
    pair = ["Akiri, Fearless Voyager", "Azami, Lady of Scrolls"]  # WR without partner, and U
    spells = white_spells(CMM, 12)
    pool = write_pool(tmp_path / "pool.txt", {**spells, **dict.fromkeys(pair, 1)})
    deck = write_deck(tmp_path / "deck.txt", pair, {**spells, "Plains": 23, "Island": 35 - len(spells)})
    code, report = check(cli, deck, pool)
    said = messages(report, "illegal-pair")
    assert code == 1 and "CR 702.124" in said
    assert "Commander Masters grant" in said and "Akiri, Fearless Voyager's color identity is WR" in said


def test_a_colorless_cmm_legend_and_a_piper_are_refused_as_a_pair_citing_702_124(imported, cli, tmp_path):
    """docs/products.md: the CMM grant gives a colorless legend no partner, and a pair needs both partners to have
    the ability (CR 702.124): the Piper's own partner doesn't let Kozilek lead beside it."""
    pair = ["Kozilek, the Great Distortion", "The Prismatic Piper"]
    spells = white_spells(CMM, 12)
    pool = write_pool(tmp_path / "pool.txt", {**spells, pair[0]: 1})
    deck = write_deck(tmp_path / "deck.txt", pair, {**spells, "Plains": 58 - len(spells)})
    code, report = check(cli, deck, pool, "--piper", "W")
    said = messages(report, "illegal-pair")
    assert code == 1 and "CR 702.124" in said and "Kozilek, the Great Distortion has no partner ability" in said
    assert not can_pair(CMM[pair[0]], CMM[pair[1]], product("CMM"))


@pytest.mark.parametrize("option", ["--product", "--set"])
def test_the_same_mono_colored_pair_in_a_cmr_deck_is_refused(imported, cli, tmp_path, option):
    """``--set`` names the product as it does for ``event new``, ``play`` and ``sim`` (it was "No such option")."""
    pair = ["Avacyn, Angel of Hope", "Azami, Lady of Scrolls"]
    spells = white_spells(CMM, 12)
    pool = write_pool(tmp_path / "pool.txt", {**spells, **dict.fromkeys(pair, 1)})
    deck = write_deck(tmp_path / "deck.txt", pair, {**spells, "Plains": 23, "Island": 35 - len(spells)})
    code, report = check(cli, deck, pool, option, "CMR")
    said = messages(report, "illegal-pair")
    assert code == 1 and "CR 702.124a" in said and "grants mono-colored legends no partner" in said
    assert not can_pair(CMM[pair[0]], CMM[pair[1]], product("CMR"))
    assert can_pair(CMM[pair[0]], CMM[pair[1]])  # their own product's grant


def test_a_deck_of_names_alone_is_read_as_the_set_that_alone_prints_some_of_them(imported, cli, tmp_path):
    """No line names a set: the two legends only CMM prints say it is a CMM deck, though more of its lines are cards
    CMR prints too; those are read as CMM's printings, so the CMM grant lets the pair lead (RULES.md section 6)."""
    pair = ["Avacyn, Angel of Hope", "Azami, Lady of Scrolls"]
    cmr = {card.name for card in load_set("CMR")}
    reprints = [
        name
        for name, card in CMM.items()
        if name in cmr and card.identity.code in ("W", "U", "") and not card.is_land and not card.can_be_commander
    ]
    assert not set(pair) & cmr and len(reprints) > len(pair)  # a count of every line would say CMR
    deck = write_deck(
        tmp_path / "deck.txt", pair, {**dict.fromkeys(reprints, 1), "Plains": 29, "Island": 29 - len(reprints)}
    )
    result = cli("deck", "check", deck, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["color_identity"] == ["W", "U"]
    parsed, problems = resolve(parse(deck.read_text(encoding="utf-8")), card_index())
    assert problems == [] and {line.card.set_code for line in parsed.lines if not line.card.is_basic_land} == {"CMM"}


def test_without_a_pool_a_card_no_booster_of_the_decks_product_holds_is_refused(imported, cli, tmp_path):
    """A draft deck holds only cards of its pool (RULES.md section 3): with no pool given, a card no draft booster of
    the deck's product holds (its sheets, RULES.md sections 5 and 6) can be in no pool.  A deck whose cards name no
    product at all (an imported set of another kind) is not judged by one it never drafted."""
    assert cli("sets", "import", FIXTURES / "real_probe.json").exit_code == 0
    on_sheets = {p.card.name for sheet in booster_spec("CMR").sheets.values() for p in sheet.printings}
    assert "Hans Eriksson" in on_sheets and not {"Grizzly Bears", "Rampant Growth"} & on_sheets
    deck = write_deck(tmp_path / "deck.txt", ["Hans Eriksson"], {"Grizzly Bears": 2, "Rampant Growth": 1, "Forest": 56})
    result = cli("deck", "check", deck, "--json")
    report = json.loads(result.stdout)
    assert result.exit_code == 1 and {p["code"] for p in report["problems"]} == {"not-in-product"}, report
    said = messages(report, "not-in-product")
    assert "Grizzly Bears is in no CMR draft booster" in said and "Rampant Growth" in said and "Hans" not in said
    assert report["notes"] == [
        "no pool given: copies were not checked against a pool, only that each card is in a CMR draft booster"
    ]
    # the same deck against the CLB boosters: Hans Eriksson is on none of them
    result = cli("deck", "check", deck, "--json", "--product", "CLB")
    assert "Hans Eriksson is in no CLB draft booster" in messages(json.loads(result.stdout), "not-in-product")
    # cards of no product: nothing says which boosters they came from
    other = write_deck(tmp_path / "other.txt", ["Pir, Imaginative Rascal"], {"Grizzly Bears": 4, "Forest": 55})
    result = cli("deck", "check", other, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["notes"] == ["no pool given: copies were not checked against a pool"]


@pytest.mark.parametrize(
    "fmt", [FileFormat.FORGE, FileFormat.ARENA, FileFormat.COCKATRICE, FileFormat.CSV, FileFormat.JSON]
)
def test_a_cmm_deck_read_back_keeps_its_cmm_printings_of_cards_cmr_also_prints(imported, fmt):
    """A file that names each card's set (Forge's NAME|SET, with no collector number) is read back as that set's
    printing, not the first set that prints the name: the same deck has the same identities in every format."""
    cmm = {card.name: card for card in load_set("CMM")}
    reprints = sorted(set(cmm) & {card.name for card in load_set("CMR")} - {"The Prismatic Piper"})
    assert len(reprints) >= 5, "the CMM fixture should share some cards with CMR"
    deck = Deck(tuple(DeckLine(cmm[name], 1, Zone.MAIN) for name in reprints))
    again, problems = resolve(parse(write(deck, fmt)), card_index())
    assert problems == []
    assert {(line.card.name, line.card.set_code) for line in again.lines} == {(name, "CMM") for name in reprints}


def test_a_product_that_is_not_imported_says_how_to_get_it(cli, tmp_path):
    deck = write_deck(tmp_path / "deck.txt", [], {"Plains": 60})
    for args in (
        ("deck", "check", deck, "--product", "CLB"),
        ("sim", "--product", "CMM"),
        ("packs", "--set", "CLB"),
        ("event", "new", "Night", "--product", "CLB", "--db", tmp_path / "e.json"),
    ):
        result = cli(*args)
        assert result.exit_code == 2, (args, result.output)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "cmdraft sets download" in lines[0], (args, result.stderr)
    wrong = cli("deck", "check", deck, "--product", "M21")
    assert wrong.exit_code == 2 and "CMR, CLB, CMM" in wrong.stderr


def test_deck_suggest_offers_the_products_added_card_and_grant(imported, cli, tmp_path):
    pair = {"Avacyn, Angel of Hope": 1, "Azami, Lady of Scrolls": 1}
    pool = write_pool(tmp_path / "pool.txt", {**white_spells(CMM, 12), **pair})
    shown = json.loads(cli("deck", "suggest", pool, "--json", "--top", "20").stdout)["suggestions"]
    assert any(sorted(s["commanders"]) == sorted(pair) for s in shown)
    clb_pool = write_pool(tmp_path / "clb.txt", white_spells(CLB, 14))
    table = cli("deck", "suggest", clb_pool)
    assert table.exit_code == 0 and "Faceless One" in table.stdout and "Added Faceless Ones" in table.stdout


# --- boosters: what each product's rules say a booster holds ------------------------------------------------------


def opened(code: str, count: int, seed: int = 40):
    return booster_spec(load_set(code)).open_many(random.Random(seed), count)


def binomial_ok(observed: int, n: int, p: float) -> bool:
    """Within five standard deviations of n * p."""
    mean, sd = n * p, (n * p * (1 - p)) ** 0.5
    return abs(observed - mean) <= 5 * sd


def test_clb_boosters_hold_what_the_clb_slots_promise(imported):
    n = 3000
    boosters = opened("CLB", n)
    with_special = 0
    for booster in boosters:
        cards = [p.card for p in booster.printings]
        assert len(cards) == 20
        plain = [p.card for p in booster.printings if not p.foil]
        faceless = sum(card.name == "Faceless One" for card in plain)
        with_special += faceless
        commons = [c for c in plain if c.rarity is Rarity.COMMON and not c.is_legendary]
        assert len(commons) == 13 - faceless  # Faceless One replaces a common
        legends = [c for c in plain if c.is_legendary and c.can_be_commander and not c.name == "Faceless One"]
        backgrounds = [c for c in plain if is_background(c)]
        assert len(legends) == 1 and len(backgrounds) == 1
        assert sum(1 for c in plain if c.rarity is Rarity.UNCOMMON and not c.is_legendary) == 3
        assert sum(1 for c in plain if c.rarity in (Rarity.RARE, Rarity.MYTHIC) and not c.is_legendary) == 1
        assert sum(1 for p in booster.printings if p.foil) == 1
    assert binomial_ok(with_special, n, 1 / 6), with_special


def test_cmm_boosters_hold_what_the_cmm_slots_promise(imported):
    n = 3000
    boosters = opened("CMM", n)
    with_piper = two_rares = 0
    for booster in boosters:
        assert len(booster.printings) == 20
        plain = [p.card for p in booster.printings if not p.foil]
        piper = sum(card.name == "The Prismatic Piper" for card in plain)
        with_piper += piper
        assert sum(1 for c in plain if c.rarity is Rarity.COMMON) == 11 - piper
        legendary = [c for c in plain if c.is_legendary and c.can_be_commander and c.name != "The Prismatic Piper"]
        assert sum(1 for c in legendary if c.rarity is Rarity.UNCOMMON) == 2
        assert sum(1 for c in legendary if c.rarity in (Rarity.RARE, Rarity.MYTHIC)) == 1
        rares = sum(1 for c in plain if c.rarity in (Rarity.RARE, Rarity.MYTHIC) and not c.is_legendary)
        uncommons = sum(1 for c in plain if c.rarity is Rarity.UNCOMMON and not c.is_legendary)
        assert (uncommons, rares) in ((4, 1), (3, 2))  # the wildcard: an uncommon, or a rare or mythic
        two_rares += rares == 2
        assert sum(1 for p in booster.printings if p.foil) == 1
    assert binomial_ok(with_piper, n, 1 / 6) and binomial_ok(two_rares, n, 1 / 3), (with_piper, two_rares)


@pytest.mark.parametrize("code", ["CLB", "CMM"])
def test_the_audit_passes_the_products_boosters_and_catches_a_lost_special_card(imported, code):
    spec = booster_spec(load_set(code))
    boosters = spec.open_many(random.Random(9), 3000)
    checks = {check.title: check for check in audit(spec, boosters, 3000)}
    assert "variants" in checks and "cards per slot (sheet)" in checks
    assert all(check.p_value > 0.001 for check in checks.values()), checks
    # The fault: every booster of the special card's variants dealt as a common-only one (no special card ever).
    plain = next(i for i, v in enumerate(spec.variants) if not v.count("special"))
    lost = [type(b)(b.index, plain, tuple(p for p in b.printings if p.sheet != "special")) for b in boosters]
    assert min(check.p_value for check in audit(spec, lost, 3000)) < 1e-6


# --- drafts to legal decks ---------------------------------------------------------------------------------------


def test_a_clb_pod_of_bots_ends_in_legal_decks_led_by_legend_and_background(imported):
    result = run_pod(7, DraftConfig(seats=8, set_code="CLB"))
    assert all(seat.report.valid for seat in result.seats), [s.report.problems for s in result.seats]
    led = [seat.deck.commanders for seat in result.seats]
    assert any(len(c) == 2 and chooses_background(c[0]) and is_background(c[1]) for c in led), led


def test_a_clb_pool_no_legend_can_lead_is_led_by_added_faceless_ones(imported):
    spells = [CLB[name] for name in white_spells(CLB, 20)] + [
        c for c in CLB.values() if c.identity.code == "U" and not c.can_be_commander and not is_background(c)
    ][:20]
    faceless = piper_card("CLB")
    assert faceless is not None and faceless.name == "Faceless One"
    deck = build_deck(spells, faceless)
    report = validate(deck, spells)
    assert report.valid and [c.name for c in deck.commanders][:1] == ["Faceless One"], report.problems


def test_a_cmm_pod_of_bots_leads_with_two_mono_colored_legends(imported):
    result = run_pod(3, DraftConfig(seats=8, set_code="CMM"))
    assert all(seat.report.valid for seat in result.seats)
    assert any(
        len(c) == 2 and all(mono_legend_without_partner(x) for x in c)
        for c in (seat.deck.commanders for seat in result.seats)
    )


def test_sim_names_the_products_added_card(imported, cli):
    shown = cli("sim", "--product", "CLB", "--seed", "4", "--players", "4")
    assert shown.exit_code == 0 and re.search(r"CLB pod, seed 4: \d+ Faceless Ones? opened", shown.stdout)


# --- a store night of each product ---------------------------------------------------------------------------------


def drafted_event(cli, db: Path, code: str, names: list[str], stock: int = 0) -> int:
    made = cli(
        "event", "new", f"{code} night", "--product", code, "--style", "terminal", "--stock", stock,
        "--seed", 11, "--db", db, "--json",
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    event_id = json.loads(made.stdout)["id"]
    assert cli("event", "player", "add", event_id, *names, "--db", db).exit_code == 0
    assert cli("event", "seat", event_id, "--db", db).exit_code == 0
    assert cli("event", "draft", event_id, "--db", db, "--json").exit_code == 0
    return event_id


def test_a_cmm_night_registers_decks_led_by_two_mono_colored_legends_and_counts_pipers(imported, cli, tmp_path):
    db = tmp_path / "cmm.json"
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
    event_id = drafted_event(cli, db, "CMM", names, stock=2)
    night = draft_to_the_end(db, event_id)
    registered = [night.register_deck(event_id, name, auto=True) for name in names]
    assert all(deck.valid for deck in registered)
    led = [[CMM.get(name) for name in d.report.commanders] for d in registered]
    assert any(len(c) == 2 and all(x and mono_legend_without_partner(x) for x in c) for c in led), led
    ledger = night.piper_ledger(event_id)
    assert ledger.card == "The Prismatic Piper" and ledger.stock == 2
    shown = cli("event", "pipers", event_id, "--db", db)
    assert shown.exit_code == 0 and "Piper stock" in shown.stdout


def test_a_clb_night_with_phones_ends_in_decks_led_by_legend_and_background_and_an_added_faceless_one(
    imported, cli, tmp_path, manual_clock
):
    from tests.helpers.served import client, phone

    db = tmp_path / "clb.json"
    names = ["Ann", "Bo", "Cy", "Di"]
    made = cli(
        "event", "new", "CLB night", "--product", "CLB", "--style", "terminal", "--stock", 3, "--seed", 5,
        "--db", db, "--json",
    )  # fmt: skip
    event_id = json.loads(made.stdout)["id"]
    assert cli("event", "player", "add", event_id, *names, "--db", db).exit_code == 0
    for number in range(4):
        assert cli("event", "player", "add", event_id, f"Bot {number + 1}", "--bot", "--db", db).exit_code == 0
    assert cli("event", "seat", event_id, "--db", db).exit_code == 0
    assert cli("event", "draft", event_id, "--db", db, "--json").exit_code == 0
    with Store(db).read() as handle:
        codes = {p["name"]: p["code"] for p in handle.table("players").all() if not p["bot"]}

    def wanted(card: dict) -> int:
        found = CLB.get(card["name"])
        return 0 if found is None else 2 if chooses_background(found) else 1 if is_background(found) else 0

    with client(db, event_id, manual_clock, watch=False) as web:
        phones = {name: phone(web, event_id, name, codes[name]) for name in names}
        for _ in range(200):
            moved = False
            manual_clock.advance(1)
            for each in phones.values():
                draft = each.seat()["draft"]
                if not draft["cards"]:
                    continue
                order = sorted(range(len(draft["cards"])), key=lambda i: -wanted(draft["cards"][i]))
                answer = each.post(
                    "/api/pick", {"pack": draft["pack"], "pick": draft["pick"], "cards": order[: draft["take"]]}
                )
                assert answer.status_code == 200, answer.text
                moved = True
            if not moved:
                break
        pools = {name: [CLB.get(c["name"]) for c in each.seat()["pool"]] for name, each in phones.items()}
        # One phone leads with a legend that chooses a Background and a Background from its pool
        leader = next(
            name
            for name, pool in pools.items()
            if any(c and chooses_background(c) for c in pool) and any(c and is_background(c) for c in pool)
        )
        deck = phones[leader].get("/api/deck").json()
        side = {entry["card"]["name"]: entry["card"]["id"] for entry in deck["sideboard"]}
        legend = next(n for n in side if CLB.get(n) and chooses_background(CLB[n]))
        background = next(n for n in side if CLB.get(n) and is_background(CLB[n]))
        # the crowns the page shows are the core's: with no commander a Background can't lead by itself (the phone
        # offered one, and the tap was refused), beside a legend that chooses one it can
        assert side[legend] in deck["crownable"] and side[background] not in deck["crownable"]
        alone = phones[leader].post("/api/deck", {"action": "commanders", "cards": [side[legend]]}).json()
        assert side[background] in alone["crownable"] and side[legend] not in alone["crownable"]
        chosen = phones[leader].post("/api/deck", {"action": "commanders", "cards": [side[legend], side[background]]})
        assert chosen.status_code == 200, chosen.text
        # another leads with a Faceless One its pool doesn't hold: added after the draft
        held = {n: sum(1 for c in pools[n] if c and c.name == "Faceless One") for n in names}
        adder = min((n for n in names if n != leader), key=lambda n: held[n])
        assert held[adder] < 2
        colors = ["W", "U"][: held[adder] + 1]  # one more Faceless One than the pool holds: one added
        added = phones[adder].post("/api/deck", {"action": "pipers", "colors": colors})
        assert added.status_code == 200, added.text
        assert added.json()["added"] == {"card": "Faceless One", "word": "Faceless One", "words": "Faceless Ones"}
        for name in (leader, adder):
            built = phones[name].post("/api/deck", {"action": "auto"})
            assert built.status_code == 200 and built.json()["legal"], built.text
            assert phones[name].post("/api/deck/register", {}).status_code == 200
    snap = Night(Store(db)).snapshot(event_id)
    decks = {p.name: p.deck for p in snap.players}
    assert decks[leader].valid and [c["name"] for c in decks[leader].commanders] == [legend, background]
    assert decks[adder].valid and [c["name"] for c in decks[adder].commanders] == ["Faceless One"] * len(colors)
    ledger = Night(Store(db)).piper_ledger(event_id)
    assert ledger.card == "Faceless One" and ledger.needed >= 1 and ledger.stock == 3
    assert any(d.player == adder and d.added == 1 for d in ledger.decks)
    shown = cli("event", "pipers", event_id, "--db", db)
    assert "Faceless One stock" in shown.stdout and "Piper" not in shown.stdout


@pytest.mark.parametrize("fmt", ["COCKATRICE", "FORGE"])
def test_exports_name_the_added_card_leading_and_read_its_colors_back(fmt):
    from draft.formats import FileFormat, parse, write
    from sets.colors import Color

    deck = Deck.build([CLB["Faceless One"]], {BASICS["Plains"]: 59}, piper_colors=[Color.W])
    text = write(deck, FileFormat[fmt])
    assert "Faceless One colors: W" in text and "Piper" not in text
    assert parse(text).piper_colors == [Color.W]


def test_a_clb_nights_decklist_sheet_names_the_faceless_ones_colors_not_a_pipers(imported, cli, tmp_path):
    db = tmp_path / "clb.json"
    event_id = drafted_event(cli, db, "CLB", ["Ann", "Bo", "Cy", "Di"], stock=2)
    draft_to_the_end(db, event_id)
    deck = write_deck(tmp_path / "deck.txt", ["Faceless One"], {"Island": 59})
    registered = cli("event", "deck", event_id, "Ann", deck, "--piper", "U", "--db", db)
    assert registered.exit_code == 0, registered.output
    sheet = cli("event", "print", event_id, "decklists", "--db", db)
    assert sheet.exit_code == 0, sheet.output
    ann = sheet.stdout.split("DECKLIST · Bo")[0]
    assert "Faceless One (chosen color: blue)" in ann and "Faceless One colors: blue" in ann
    assert "Piper" not in sheet.stdout


@pytest.mark.parametrize(
    ("comment", "said"),
    [("Faceless One colors: purple", "line 3: "), ("Faceless One colors: B G", "line 3: ")],
    ids=["no color", "two for one"],
)
def test_a_clb_deck_files_chosen_color_that_is_not_one_is_refused_without_naming_a_piper(
    imported, cli, tmp_path, comment, said
):
    deck = tmp_path / "faceless.dck"
    deck.write_text(f"[metadata]\nName=x\nComment={comment}\n[Commander]\n1 Faceless One|CLB\n[Main]\n59 Island\n")
    result = cli("deck", "convert", deck, tmp_path / "out.json")
    assert result.exit_code == 2, result.output
    assert said in result.stderr and "CR 903.4b" in result.stderr and "Piper" not in result.stderr
