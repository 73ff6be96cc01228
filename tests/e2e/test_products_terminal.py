"""Issue 40 end to end: a CLB practice draft at a real terminal, and the bots benchmark for CLB and CMM in a
process of its own (tests/test_products.py has the rest of the products' tests and their fixtures)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pexpect
import pytest

from draft.deck_rules import validate
from draft.decks import Deck
from draft.engine import DraftConfig
from events.storage.store import Store
from tests.helpers.products import BASICS, CLB, chooses_background, import_products, is_background


@pytest.fixture
def imported(cli) -> None:
    import_products(cli)


def test_a_clb_practice_draft_ends_in_bot_decks_with_backgrounds_and_the_player_leading_with_an_added_faceless_one(
    imported, tmp_path
):
    from events.sessions.activities import bot_decks
    from events.storage.draft_files import TableSession
    from tests.helpers.terminals import spawn

    db = tmp_path / "practice.json"
    session = TableSession.create(
        Store(db),
        kind="practice",
        seed=8,
        config=DraftConfig(seats=8, set_code="CLB"),
        humans=[0],
        names=["You"] + [f"Bot {n}" for n in range(2, 9)],
        timer=None,
    )
    while not session.draft.finished:
        session.pick(session.suggested_pick(0))
    # the bots' decks the practice shows: legal, some led by a legend and its Background
    bots = bot_decks(session)
    assert all(bot.report.valid for bot in bots)
    assert any(
        len(c) == 2 and chooses_background(c[0]) and is_background(c[1]) for c in (b.deck.commanders for b in bots)
    )
    child = spawn(
        ["play", "--resume", str(session.draft_id), "--db", str(db)], Path(os.environ["CMDRAFT_HOME"]), timeout=120
    )
    child.expect("deck> ")
    child.sendline("piper W")
    child.expect("deck> ")
    child.sendline("auto")
    child.expect("deck> ")
    child.sendline("done")
    child.expect("or quit> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    with Store(db).read() as handle:
        deck = handle.table("drafts").get(doc_id=session.draft_id)["deck"]
    assert [c["name"] for c in deck["commanders"]] == ["Faceless One"]
    pool = [p.card for p in session.draft.pools[0]]
    cards = {c.name: c for c in pool} | {"Faceless One": CLB["Faceless One"]} | BASICS
    built = Deck.build(
        [cards["Faceless One"]],
        Counter({cards[c["name"]]: c["count"] for c in deck["main"]}),
        piper_colors=[],
    )
    assert validate(built, pool).valid


@pytest.mark.parametrize("code", ["CLB", "CMM"])
def test_the_bots_benchmark_runs_for_each_product(code):
    """In a process of its own, as the README gives it: the product's set from the suite's fixture (not imported in
    this test's data folder), every style's figures, one pod each."""

    from draft.bots import BotStyle

    done = subprocess.run(
        [sys.executable, "-m", "tests.benchmarks", "bots", "--pods", "1", "--set", code, "--json"],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parent.parent.parent,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["set"] == code and "fixture" in data["set_source"]
    assert set(data["styles"]) == {style.value for style in BotStyle}
    assert data["styles"]["strong"]["decks"] == 8
