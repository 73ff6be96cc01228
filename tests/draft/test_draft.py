"""The pick-two draft engine, bots, bot decks and `cmdraft sim`."""

from __future__ import annotations

import datetime as dt
import json
import random
import re
from collections import Counter

import pytest

from draft.bots import Bot, BotStyle
from draft.deck_rules import validate
from draft.deckbuild import build_deck
from draft.engine import Draft, DraftConfig, IllegalPickError, pass_direction
from draft.log import mtgo_log
from draft.sim import aggregate, piper_card, pod_summary, run_pod
from draft.traits import card_rating
from sets.catalog import load_set
from sets.errors import InputError
from tests.helpers.tool_readers import draftmancer_mtgo_log


@pytest.fixture(scope="module")
def finished():
    return run_pod(7)


def random_picks(draft: Draft, rng: random.Random, until: int | None = None) -> None:
    while not draft.finished and (until is None or len(draft.log) < until):
        seat = draft.waiting()[0]  # the first seat holding a pack: the same order after a resume
        pack = draft.pack(seat)
        draft.pick(seat, rng.sample(range(len(pack)), draft.picks_due(seat)))


def test_counts_eight_seats_three_boosters_ten_picks_of_two(finished):
    draft = finished.draft
    assert len(draft.log) == 8 * 3 * 10
    assert all(len(p.taken) == 2 for p in draft.log)
    assert [len(pool) for pool in draft.pools] == [60] * 8
    assert Counter((p.seat, p.pack) for p in draft.log) == {(s, r): 10 for s in range(8) for r in (1, 2, 3)}


def test_every_card_ends_in_exactly_one_pool(finished):
    opened = Counter(p for row in finished.draft.boosters for b in row for p in b.printings)
    pooled = Counter(p for pool in finished.draft.pools for p in pool)
    assert opened == pooled


def test_passing_left_right_left():
    assert [pass_direction(r) for r in range(3)] == [1, -1, 1]
    draft = Draft.new(DraftConfig(seats=4), seed=3)
    first = {seat: draft.pack(seat) for seat in range(4)}
    for seat in range(4):
        draft.pick(seat, [0, 1])
    for seat in range(4):  # round 1 passes left: seat s now holds what seat s-1 had
        assert draft.pack(seat) == first[(seat - 1) % 4][2:]
    random_picks(draft, random.Random(1), until=4 * 10)
    second = {seat: draft.pack(seat) for seat in range(4)}
    assert draft.round == 1
    for seat in range(4):
        draft.pick(seat, [0, 1])
    for seat in range(4):  # round 2 passes right
        assert draft.pack(seat) == second[(seat + 1) % 4][2:]


def test_odd_pack_last_pick_takes_what_is_left():
    draft = Draft.new(DraftConfig(seats=3, picks_per_turn=3), seed=1)
    random_picks(draft, random.Random(2))
    sizes = [len(p.taken) for p in draft.picks_of(0) if p.pack == 1]
    assert sizes == [3] * 6 + [2] and sum(len(pool) for pool in draft.pools) == 3 * 3 * 20


def _absent_from(draft: Draft, seat: int):
    here = {p.card for p in draft.pack(seat)}
    return next(p for other in range(draft.config.seats) for p in draft.pack(other) if p.card not in here)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (lambda d: d.pick(9, [0, 1]), "no seat 9"),
        (lambda d: d.pick(0, [0]), "take exactly 2 cards"),
        (lambda d: d.pick(0, [0, 1, 2]), "take exactly 2 cards"),
        (lambda d: d.pick(0, [0, 0]), "position 0 is not a card left"),
        (lambda d: d.pick(0, [0, 25]), "position 25 is not a card left"),
        (lambda d: d.pick(0, [_absent_from(d, 0), d.pack(0)[0]]), "is not in the pack in front of seat 1"),
    ],
)
def test_illegal_picks_say_why(action, message):
    draft = Draft.new(DraftConfig(seats=4), seed=5)
    with pytest.raises(IllegalPickError, match=message):
        action(draft)
    assert not draft.log


def test_picking_without_a_pack_and_after_the_end():
    draft = Draft.new(DraftConfig(seats=3), seed=2)
    draft.pick(1, [0, 1])  # seat 2's pack goes on to seat 3: seat 2 waits for seat 1 to pass one
    assert not draft.can_pick(1, [0, 1])
    with pytest.raises(IllegalPickError, match="seat 2 has no pack in front of it now; wait for seat 1 to pass one"):
        draft.pick(1, [0, 1])
    random_picks(draft, random.Random(3))
    with pytest.raises(IllegalPickError, match="draft is over"):
        draft.pick(1, [0, 1])


@pytest.mark.parametrize("seats", [1, 13])
def test_seats_out_of_range(seats):
    with pytest.raises(InputError, match="seats at the table must be from 2 to 12, not"):
        Draft.new(DraftConfig(seats=seats))


@pytest.mark.parametrize("stop", [0, 1, 37, 100, 239])
def test_resume_at_any_pick_equals_an_uninterrupted_draft(stop):
    whole = Draft.new(DraftConfig(), seed=11)
    random_picks(whole, random.Random(4))
    part = Draft.new(DraftConfig(), seed=11)
    rng = random.Random(4)
    random_picks(part, rng, until=stop)
    saved = json.loads(json.dumps(part.to_json()))
    resumed = Draft.from_json(saved)
    assert resumed.to_json() == part.to_json()
    random_picks(resumed, rng)
    assert resumed.to_json() == whole.to_json() and resumed.pools == whole.pools


def test_replaying_the_log_on_the_same_seed_reproduces_the_state(finished):
    again = Draft.new(DraftConfig(), seed=finished.draft.seed)
    again.replay([[p.seat, *p.positions] for p in finished.draft.log])
    assert again.to_json() == finished.draft.to_json()


def test_damaged_save_is_a_clear_error(finished):
    data = finished.draft.to_json()
    data["picks"][3] = [0, 99, 98]
    with pytest.raises(InputError, match="does not replay"):
        Draft.from_json(data)
    with pytest.raises(InputError, match="damaged"):
        Draft.from_json({"config": {}})


def test_bots_see_only_their_pack_and_pool_and_pick_legally():
    draft = Draft.new(DraftConfig(seats=6), seed=9)
    bots = [Bot(BotStyle.BEST_CARD if s % 2 else BotStyle.COMMANDER_FIRST, s) for s in range(6)]
    while not draft.finished:
        for seat in draft.waiting():
            pack = draft.pack(seat)
            choice = bots[seat].choose(pack, draft.picks_due(seat), draft.round / 3)
            assert draft.can_pick(seat, choice)
            bots[seat].remember([p.card for p in draft.pick(seat, choice).taken])
    assert all(len(bot.pool) == 60 for bot in bots)


def test_every_bot_deck_is_legal_over_many_seeds():
    for seed in range(12):
        for style in (BotStyle.COMMANDER_FIRST, BotStyle.BEST_CARD):
            result = run_pod(seed, DraftConfig(seats=4 + seed % 5), style)
            for seat in result.seats:
                assert seat.report.valid, (seed, style, seat.report.problems)
                assert seat.deck.size >= 60 and 1 <= len(seat.deck.commanders) <= 2


def test_bot_decks_have_playables_and_lands(finished):
    for seat in finished.seats:
        lands = sum(n for card, n in seat.deck.main.items() if card.is_land)
        spells = sum(n for card, n in seat.deck.main.items() if not card.is_land)
        assert 20 <= lands <= 30 and 30 <= spells <= 40


def test_commander_first_bots_take_legends_early():
    legend_picks = Counter()
    for seed in range(6):
        result = run_pod(seed, styles=[BotStyle.COMMANDER_FIRST, BotStyle.BEST_CARD])
        for pick in result.draft.log:
            if pick.pack == 1 and pick.pick <= 3:
                style = result.seats[pick.seat].style
                legend_picks[style] += sum(p.card.can_be_commander for p in pick.taken)
    assert legend_picks[BotStyle.COMMANDER_FIRST] > legend_picks[BotStyle.BEST_CARD]


def test_deck_builder_uses_pipers_when_the_pool_has_no_legend():
    cmr = load_set("CMR")
    piper = cmr.card("1")
    blue = [card for card in cmr if card.deck_colors.code == "U" and not card.is_legendary][:25]
    pool = blue + [card for card in cmr if card.deck_colors.code == "G" and not card.is_legendary][:25]
    deck = build_deck(pool, piper)
    report = validate(deck, pool)
    assert report.valid and [c.name for c in deck.commanders] == [piper.name, piper.name]
    assert set(report.piper_colors) == {"U", "G"}


def test_rating_model_is_sensible():
    cmr = load_set("CMR")
    by_name = {card.name: card for card in cmr}
    # Power first: a bomb over premium removal over a marginal trick (and a mana rock is no bomb in a draft deck).
    assert (
        card_rating(by_name["Hellkite Courser"]) > card_rating(by_name["Murder"]) > card_rating(by_name["Bladebrand"])
    )
    assert card_rating(by_name["Murder"]) > card_rating(by_name["Jeweled Lotus"])
    assert card_rating(by_name["Najeela, the Blade-Blossom"]) > card_rating(by_name["Bladebrand"])


def test_draft_log_gives_each_card_taken_a_block_of_its_own(finished):
    """MTGO's log marks one card a pick, and Draftmancer, reading it, keeps a block's last marked card: each card of a
    pick of two is a block, the second's pack without the first, so that a reader of the log finds the whole pool."""
    text = mtgo_log(finished.draft, 0, [s.name for s in finished.seats], dt.datetime(2020, 11, 20, 20, 0))
    assert text.count("Pack 1 pick 1:") == 1 and "------ CMR ------" in text
    picks = draftmancer_mtgo_log(text)
    first, second = picks[0][1], picks[1][1]
    assert (
        len(first) == 20
        and sum(line.startswith("--> ") for line in text.split("Pack 1 pick 1:\n")[1].split("\n\n")[0].splitlines())
        == 1
    )
    assert len(second) == 19 and sorted(second + [picks[0][2]]) == sorted(first)  # the same pack, less the first card
    pool = Counter(p.card.name for pick in finished.draft.picks_of(0) for p in pick.taken)
    assert Counter(picked for _, _, picked in picks) == pool and sum(pool.values()) == 60


@pytest.mark.parametrize(
    ("when", "shown"),
    [
        (dt.datetime(2020, 11, 5, 20, 3, 9), "11/5/2020 8:03:09 PM"),
        (dt.datetime(2021, 3, 7, 0, 0, 5), "3/7/2021 12:00:05 AM"),
        (dt.datetime(2021, 1, 1, 12, 30, 0), "1/1/2021 12:30:00 PM"),
        (dt.datetime(2021, 10, 12, 9, 5, 0), "10/12/2021 9:05:00 AM"),
    ],
)
def test_the_draft_logs_time_has_no_leading_zeros_as_mtgo_writes_it(finished, when, shown):
    """Issue 43: MTGO's log writes M/D/YYYY h:mm:ss AM/PM, as the tools that read these logs expect."""
    assert (
        mtgo_log(finished.draft, 0, [s.name for s in finished.seats], when=when).splitlines()[1] == f"Time:    {shown}"
    )


def test_aggregate_figures():
    summaries = [pod_summary(seed, DraftConfig(seats=4)) for seed in range(3)]
    figures = aggregate(summaries)
    assert figures.pods == 3 and figures.seats == 12 and figures.legal_rate == 1.0
    assert sum(figures.pipers_opened_distribution.values()) == 3


# --- CLI -----------------------------------------------------------------------------------------------


def test_sim_json_contract(cli):
    result = cli("sim", "--seed", "3", "--players", "4", "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["seed"] == 3 and data["set"] == "CMR" and len(data["players"]) == 4
    player = data["players"][0]
    assert {"seat", "name", "picks", "pool", "deck", "valid", "problems"} <= set(player)
    assert player["picks"][0]["pack"] == 1 and player["picks"][0]["pick"] == 1 and len(player["picks"][0]["taken"]) == 2
    assert set(player["deck"]) == {"commanders", "piper_colors", "main"} and len(player["pool"]) == 60
    assert result.stdout == cli("sim", "--seed", "3", "--players", "4", "--json").stdout


def test_sim_table_and_out_folder(cli, tmp_path):
    result = cli("sim", "--seed", "4", "--players", "3", "--out", tmp_path / "pod")
    assert result.exit_code == 0 and re.search(r"\d+ Pipers? opened", result.stdout)
    files = {p.name for p in (tmp_path / "pod").iterdir()}
    for ext in ("txt", "cod", "dck", "json", "csv"):
        assert f"seat1-Bot-1-deck.{ext}" in files and f"seat3-Bot-3-pool.{ext}" in files
    assert "seat2-Bot-2-draftlog.txt" in files and "draft.json" in files
    # The bundled data has no MTGO ids: no .dek is written, and the output says so once.
    assert not any(name.endswith(".dek") for name in files) and result.stdout.count("no MTGO .dek files written") == 1
    check = cli(
        "deck", "check", tmp_path / "pod" / "seat1-Bot-1-deck.cod", "--pool", tmp_path / "pod" / "seat1-Bot-1-pool.dck"
    )
    assert check.exit_code == 0


def test_sim_out_json_carries_its_files_and_notes_in_the_json_as_event_export_does_and_stderr_stays_empty(
    cli, tmp_path
):
    """Before: the files written were not in it ('event export --json' lists them as 'written')."""
    result = cli("sim", "--seed", "4", "--players", "3", "--out", tmp_path / "pod", "--json")
    assert result.exit_code == 0 and result.stderr == ""
    data = json.loads(result.stdout)
    assert len(data["notes"]) == 1 and "no MTGO .dek files written" in data["notes"][0]
    assert sorted(data["written"]) == sorted(str(path) for path in (tmp_path / "pod").iterdir())
    alone = json.loads(cli("sim", "--seed", "4", "--players", "3", "--json").stdout)  # no --out: no notes
    assert "notes" not in alone and {**alone, "written": data["written"], "notes": data["notes"]} == data


def test_sim_out_writes_dek_files_once_mtgo_ids_are_imported(cli, tmp_path):
    from sets.basics import basic_lands
    from sets.catalog import load_set
    from tests.helpers.cardfiles import mtgo_id_files

    for path in mtgo_id_files(tmp_path, [*load_set("CMR"), *basic_lands()]):
        assert cli("sets", "import", path).exit_code == 0
    result = cli("sim", "--seed", "4", "--players", "3", "--out", tmp_path / "pod")
    assert result.exit_code == 0 and "no MTGO .dek" not in result.stdout
    deck = tmp_path / "pod" / "seat1-Bot-1-deck.dek"
    import xml.etree.ElementTree as ElementTree

    rows = list(ElementTree.parse(deck).getroot().iter("Cards"))
    assert rows and all(row.get("CatID", "").isdigit() for row in rows)
    check = cli(
        "deck", "check", tmp_path / "pod" / "seat1-Bot-1-deck.cod", "--pool", tmp_path / "pod" / "seat1-Bot-1-pool.dek"
    )
    assert check.exit_code == 0


def test_sim_pipers_is_a_stores_stock_the_bots_plan_and_the_decks_add_with(cli):
    """``--pipers N``: a store's stock shared by the table; each seat counts on what is left after every other seat
    took the most a deck may add (docs/bots.md): two each from 16 for eight seats, none from 0."""
    piper = piper_card("CMR").name

    def pod(*extra: str) -> dict:
        result = cli("sim", "--seed", "7", "--players", "8", "--json", *extra)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    without = pod()
    assert pod("--pipers", "16") == without  # two sure for each of the eight: as with no store at all
    empty = pod("--pipers", "0")
    for seat in empty["players"]:  # from an empty stock a deck leads only with the Pipers its seat drafted
        assert seat["deck"]["commanders"].count(piper) <= seat["pool"].count(piper), seat["name"]
    assert [s["picks"] for s in empty["players"]] != [s["picks"] for s in without["players"]]  # the plans changed
    many = cli("sim", "--seed", "5", "--players", "4", "--drafts", "2", "--pipers", "0", "--json")
    assert many.exit_code == 0 and json.loads(many.stdout)["pods"] == 2


def test_sim_many_pods(cli):
    data = json.loads(cli("sim", "--seed", "5", "--players", "4", "--drafts", "4", "--jobs", "2", "--json").stdout)
    assert data["pods"] == 4 and data["legal_rate"] == 1.0
    single = json.loads(cli("sim", "--seed", "5", "--players", "4", "--drafts", "4", "--json").stdout)
    assert single == data
    assert "Legal decks" in cli("sim", "--seed", "5", "--players", "4", "--drafts", "2").stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("sim", "--players", "1"), "--players must be from 2 to 12, not 1"),
        (("sim", "--players", "13"), "--players must be from 2 to 12, not 13"),
        (("play", "--players", "1"), "--players must be from 2 to 12, not 1"),
        (("sim", "--bots", "random"), "unknown bot style 'random'"),
        (("sim", "--out", "/proc/nope/out"), "cannot write to '/proc/nope/out'"),
        (("sim", "--drafts", "0"), "--drafts must be at least 1"),
        (("sim", "--pipers", "1001"), "--pipers must be from 0 to 1,000, not 1,001"),
        (("sim", "--pipers", "-1"), "--pipers must be from 0 to 1,000, not -1"),
    ],
)
def test_sim_bad_input(cli, args, message):
    result = cli(*args)
    assert result.exit_code == 2 and message in result.stderr


def test_sim_out_is_a_file(cli, tmp_path):
    target = tmp_path / "file"
    target.write_text("x")
    result = cli("sim", "--out", target)
    assert result.exit_code == 2 and "cannot write to" in result.stderr


def test_pack_trail_follows_one_booster_round_the_table(finished):
    draft = finished.draft
    first = draft.picks_of(0)[0]
    trail = draft.pack_trail(first)
    assert [p.pick for p in trail] == list(range(1, 11))
    assert [p.seat for p in trail[:3]] == [0, 1, 2]  # pack one passes left
    taken = [printing for p in trail for printing in p.taken]
    assert sorted(taken, key=str) == sorted(first.offered, key=str)
    second_round = next(p for p in draft.picks_of(0) if p.pack == 2)
    assert [p.seat for p in draft.pack_trail(second_round)[:3]] == [0, 7, 6]  # pack two passes right
