"""MTGO .dek keeps the verdict: only commanders in the sideboard, read back as the command zone, never guessed."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from draft.commanders import can_pair
from draft.deck_rules import validate
from draft.decks import PIPER, Deck, DeckLine, Zone
from draft.engine import DraftConfig
from draft.formats import FileFormat, deck_pool, parse, resolve, write
from draft.sim import run_pod
from sets.basics import basic_land
from sets.card_index import card_index
from sets.catalog import load_set
from sets.colors import Color
from tests.helpers.decks import cmr_card, spells, with_mtgo_ids


@pytest.fixture(scope="module")
def idx():
    return card_index(["CMR"])


def counts(deck: Deck, zone: Zone) -> Counter:
    found = Counter()
    for line in deck.zone(zone):
        found[line.card.name] += line.count
    return found


def through_dek(deck: Deck, idx) -> tuple[Deck, list]:
    return resolve(parse(write(with_mtgo_ids(deck), FileFormat.MTGO)), idx)


def verdict(deck: Deck, pool: Deck, problems=()):
    report = validate(deck, pool, extra_problems=problems)
    return report.valid, sorted(report.commanders), sorted({p.code for p in report.problems})


def legends():
    return [card for card in load_set("CMR") if card.can_be_commander and card.main_set and not card.chooses_color]


def hand_built(commanders, colors=()) -> Deck:
    """Commanders, a main deck of their colors and a sideboard that starts with other legends (what fooled the old reader)."""
    identity = set()
    for card in commanders:
        identity |= set(card.deck_colors.code)
    others = [card for card in legends() if card not in commanders][:3]
    lines = [DeckLine(card, 1, Zone.COMMANDER) for card in commanders]
    lines += [DeckLine(card, 1, Zone.SIDEBOARD) for card in others]
    lines += [DeckLine(card, 1, Zone.SIDEBOARD) for card in spells("B", 2)]
    letters = sorted(identity) or [""]
    lines += [DeckLine(basic_land(letters[i % len(letters)]), 1, Zone.MAIN) for i in range(60 - len(commanders))]
    return Deck(tuple(lines), tuple(colors), "test")


def many_decks():
    """One commander, two partners, one and two Pipers, Piper + partner; plus every bot deck of four pods."""
    pool = legends()
    partners = [card for card in pool if card.has_partner]
    pairs = [(a, b) for i, a in enumerate(partners) for b in partners[i + 1 :] if can_pair(a, b)][:40]
    piper = cmr_card(PIPER)
    decks = [hand_built([card]) for card in pool]
    decks += [hand_built(list(pair)) for pair in pairs]
    decks += [
        hand_built([piper], (Color.U,)),
        hand_built([piper, piper], (Color.B, Color.R)),
        hand_built([partners[0], piper], (Color.G,)),
    ]
    for seed in (1, 2, 3, 4):
        decks += [seat.deck for seat in run_pod(seed, DraftConfig()).seats]
    return decks


def test_the_writer_keeps_only_commanders_in_the_sideboard():
    import xml.etree.ElementTree as ElementTree

    deck = hand_built([legends()[0]])
    root = ElementTree.fromstring(write(with_mtgo_ids(deck), FileFormat.MTGO))
    side = [card.get("Name") for card in root.iter("Cards") if card.get("Sideboard") == "true"]
    main = sum(int(card.get("Quantity")) for card in root.iter("Cards") if card.get("Sideboard") == "false")
    assert side == [legends()[0].name] and main == 59 and deck.zone(Zone.SIDEBOARD)


def test_every_deck_keeps_commanders_and_verdict_through_dek(idx):
    decks = many_decks()
    shapes = Counter(len(deck.commanders) for deck in decks)
    assert shapes[1] > 50 and shapes[2] > 20
    for deck in decks:
        pool = deck_pool(deck)
        again, problems = through_dek(deck, idx)
        assert problems == []
        assert [c.name for c in again.commanders] == [c.name for c in deck.commanders]
        assert counts(again, Zone.MAIN) == counts(deck, Zone.MAIN) and counts(again, Zone.SIDEBOARD) == Counter()
        before, after = verdict(deck, pool), verdict(again, pool)
        if any(card.chooses_color for card in deck.commanders):
            assert after[:2] == before[:2], deck.name  # .dek has no place for the Piper's color: it is searched for
        else:
            assert after == before, deck.name


def test_one_commander_with_a_partner_first_in_the_sideboard_stays_one(idx):
    """The issue's case: a JSON deck with one commander turned legal with two through .dek."""
    partners = [card for card in legends() if card.has_partner]
    lead, other = next((a, b) for a in partners for b in partners if a is not b and can_pair(a, b))
    deck = hand_built([lead])
    deck = Deck((deck.lines[0], DeckLine(other, 1, Zone.SIDEBOARD), *deck.lines[1:]), (), "one")
    json_again, _ = resolve(parse(write(deck, FileFormat.JSON)), idx)
    again, problems = through_dek(json_again, idx)
    assert [c.name for c in again.commanders] == [lead.name] and problems == []
    assert verdict(again, deck_pool(deck)) == verdict(deck, deck_pool(deck))


def dek(main: list[tuple[int, str]], side: list[tuple[int, str]]) -> str:
    from xml.sax.saxutils import quoteattr

    rows = [f'<Cards Quantity="{n}" Sideboard="false" Name={quoteattr(name)} />' for n, name in main]
    rows += [f'<Cards Quantity="{n}" Sideboard="true" Name={quoteattr(name)} />' for n, name in side]
    return '<?xml version="1.0"?><Deck>' + "".join(rows) + "</Deck>"


def test_a_sideboard_that_does_not_say_who_leads_is_reported_never_guessed(idx):
    partners = [card for card in legends() if card.has_partner]
    a, b = next((a, b) for a in partners for b in partners if a is not b and can_pair(a, b))
    # The first two could lead together; the old reader took them.  Now nothing is chosen.
    text = dek([(57, "Plains")], [(1, a.name), (1, b.name), (1, "Murder")])
    deck, problems = resolve(parse(text), idx)
    assert deck.commanders == [] and [p.code for p in problems] == ["unclear-commander"]
    assert "sideboard holds 3 cards" in problems[0].message and a.name in problems[0].message
    report = validate(deck, None, extra_problems=problems)
    assert not report.valid and "unclear-commander" in {p.code for p in report.problems}


@pytest.mark.parametrize("side", [[(1, "The Prismatic Piper")], [(2, "The Prismatic Piper")], [(1, "Murder")]], ids=str)
def test_a_small_sideboard_is_the_command_zone_whatever_it_holds(idx, side):
    deck, problems = resolve(parse(dek([(58, "Swamp")], side)), idx)
    assert problems == [] and len(deck.commanders) == sum(n for n, _ in side)
    if side == [(1, "Murder")]:
        assert "not-a-commander" in {p.code for p in validate(deck).problems}


def test_convert_to_dek_writes_the_pool_file_and_check_agrees(cli, tmp_path):
    partners = [card for card in legends() if card.has_partner]
    lead, other = next((a, b) for a in partners for b in partners if a is not b and can_pair(a, b))
    base = hand_built([lead])
    deck = Deck((base.lines[0], DeckLine(other, 1, Zone.SIDEBOARD), *base.lines[1:]), (), "one")
    source = tmp_path / "deck.json"
    source.write_text(write(deck, FileFormat.JSON), encoding="utf-8")
    refused = cli("deck", "convert", source, tmp_path / "deck.dek")
    assert refused.exit_code == 2 and "no MTGO .dek written" in refused.stderr and not (tmp_path / "deck.dek").exists()
    from tests.helpers.cardfiles import mtgo_id_files

    for path in mtgo_id_files(tmp_path, [line.card for line in deck.lines]):
        assert cli("sets", "import", path).exit_code == 0
    result = cli("deck", "convert", source, tmp_path / "deck.dek", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["pool_file"] == str(tmp_path / "deck-pool.dek")
    pool_text = (tmp_path / "deck-pool.dek").read_text(encoding="utf-8")
    assert 'Sideboard="true"' not in pool_text and other.name.split(",")[0] in pool_text
    checks = [
        json.loads(cli("deck", "check", path, "--pool", tmp_path / "deck-pool.dek", "--json").stdout)
        for path in (source, tmp_path / "deck.dek")
    ]
    assert checks[0]["commanders"] == checks[1]["commanders"] == [lead.name]
    assert checks[0]["valid"] == checks[1]["valid"]
    shown = cli("deck", "convert", source, tmp_path / "again.dek")
    assert "went to" in shown.stdout and "again-pool.dek" in shown.stdout


def test_convert_of_an_unclear_dek_warns_and_keeps_the_cards(cli, tmp_path):
    source = tmp_path / "old.dek"
    source.write_text(
        dek([(57, "Plains")], [(1, "Murder"), (1, "Akroma, Vision of Ixidor"), (1, "The Prismatic Piper")]),
        encoding="utf-8",
    )
    result = cli("deck", "convert", source, tmp_path / "old.json")
    assert result.exit_code == 0 and "warning the .dek sideboard holds 3 cards" in result.stdout
    again, _ = resolve(parse((tmp_path / "old.json").read_text(encoding="utf-8")), card_index(["CMR"]))
    assert again.commanders == [] and sum(counts(again, Zone.SIDEBOARD).values()) == 3
    check = cli("deck", "check", source, "--json")
    assert check.exit_code == 1 and "unclear-commander" in {p["code"] for p in json.loads(check.stdout)["problems"]}
