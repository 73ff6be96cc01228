"""``packs --json``, read by a script: one booster a line, and commands.md names every key a line holds and every
key of its cards, so that a script is written from the page, not from a guess.  Before, the page said only "one
booster per line"."""

from __future__ import annotations

import json
import re
from pathlib import Path

COMMANDS = Path(__file__).parents[2] / "docs" / "commands.md"


def documented() -> tuple[set[str], set[str]]:
    (row,) = [
        line for line in COMMANDS.read_text(encoding="utf-8").splitlines() if line.startswith("| `cmdraft packs [")
    ]
    booster, _, cards = row.partition('"cards": [{')
    return set(re.findall(r'"(\w+)"', booster)) | {"cards"}, set(re.findall(r'"(\w+)"', cards.partition("}")[0]))


def test_every_key_of_a_packs_json_line_is_the_one_commands_md_names(cli):
    result = cli("packs", "--count", "2", "--seed", "7", "--json")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2  # one booster a line
    boosters, cards = documented()
    for line in lines:
        booster = json.loads(line)
        assert set(booster) == boosters, (set(booster), boosters)
        assert all(set(card) == cards for card in booster["cards"]), cards
    assert [json.loads(line)["index"] for line in lines] == [0, 1] and json.loads(lines[0])["seed"] == 7
