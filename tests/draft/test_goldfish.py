"""The goldfish (``draft.goldfish``): a deck's opening hand, mulligans as Commander takes them (CR 103.5, the
London mulligan; 103.5c, the free first one of a multiplayer game), draws, and turns 1-6 a land a turn with the
mana available and what could be cast.  Expected figures come from the rules and from decks planted for them."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from draft.decks import Deck, DeckLine, Zone
from draft.goldfish import HAND, Goldfish, can_pay
from sets.basics import basic_land
from sets.cards import Card, Face
from sets.colors import ColorIdentity
from sets.errors import InputError

FOREST, ISLAND = basic_land("G"), basic_land("U")
G, U, GU, NONE = (ColorIdentity.parse(c) for c in ("G", "U", "GU", ""))


def spell(name: str, cost: str, colors: str, mana_value: int) -> Card:
    identity = ColorIdentity.parse(colors)
    face = Face(name, cost, "Creature — Elf", types=("Creature",), subtypes=("Elf",))
    return Card(name, (face,), identity, identity, set_code="ZZZ", number=name[:3], mana_value=mana_value)


TRIPLE = spell("Triple Green", "{G}{G}{G}", "G", 3)
BIG = spell("Big Seven", "{6}{G}", "G", 7)
LEADER = spell("Leader Two", "{1}{G}", "G", 2)


def deck_of(lines: dict[Card, int], commanders=(LEADER,)) -> Deck:
    return Deck(
        tuple(DeckLine(c, 1, Zone.COMMANDER) for c in commanders)
        + tuple(DeckLine(card, n, Zone.MAIN) for card, n in lines.items()),
        (),
    )


FORESTS = deck_of({FOREST: 40, TRIPLE: 10, BIG: 9})


def test_the_opening_hand_is_seven_seeded_cards_of_the_deck_with_its_lands_counted():
    fish = Goldfish(FORESTS, random.Random(4))
    view = fish.view()
    assert len(view.hand) == HAND and view.library == 59 - HAND
    assert Counter(fish.hand) + Counter(fish.library) == Counter(FORESTS.main)
    assert view.lands_in_hand == sum(card is FOREST for card in view.hand)
    assert Goldfish(FORESTS, random.Random(4)).view() == view


def test_mulligans_as_commander_the_first_free_in_multiplayer_then_one_to_the_bottom_each():
    fish = Goldfish(FORESTS, random.Random(1))
    fish.mulligan()
    assert fish.view().bottom_due == 0 and len(fish.hand) == HAND  # the free one (CR 103.5c)
    fish.mulligan()
    assert fish.view().bottom_due == 1 and len(fish.hand) == HAND  # London: seven drawn, one goes back
    with pytest.raises(InputError, match=r"put 1 card of the hand on the bottom first"):
        fish.draw()
    with pytest.raises(InputError, match="put exactly 1 card"):
        fish.bottom([0, 1])
    kept = fish.hand[1:]
    (bottomed,) = fish.bottom([0])
    assert fish.hand == kept and fish.library[-1] is bottomed and fish.view().bottom_due == 0
    with pytest.raises(InputError, match="the hand is kept already"):
        fish.mulligan()
    two = Goldfish(FORESTS, random.Random(1), multiplayer=False)
    two.mulligan()
    assert two.view().bottom_due == 1  # no free mulligan for two players


@pytest.mark.parametrize(("forests", "said"), [(1, "the deck has 1 card:"), (5, "the deck has 5 cards:")])
def test_a_deck_too_small_to_mulligan_says_its_size_in_words(forests, said):
    with pytest.raises(InputError, match=f"^{said} nothing to mulligan into$"):
        Goldfish(deck_of({FOREST: forests}), random.Random(1)).mulligan()


def test_turns_play_a_land_each_and_say_what_the_lands_in_play_can_cast():
    fish = Goldfish(FORESTS, random.Random(7))
    fish.hand = [FOREST, FOREST, FOREST, FOREST, TRIPLE, BIG, BIG]  # planted: a land for every turn up to 4
    fish.library = [BIG] * 10
    turns = fish.play_out()
    assert [t.turn for t in turns] == [1, 2, 3, 4, 5, 6]
    assert [t.mana for t in turns] == [1, 2, 3, 4, 4, 4]  # one land a turn while the hand has one
    assert [t.drawn for t in turns] == [BIG] * 6  # multiplayer: a draw on turn 1 too
    assert [TRIPLE in t.castable for t in turns] == [False, False, True, True, True, True]
    assert [LEADER in t.castable for t in turns] == [False, True, True, True, True, True]  # from the command zone
    assert not any(BIG in t.castable for t in turns)
    assert turns[2].colors == G
    with pytest.raises(InputError, match="turns 1-6 are played"):
        fish.next_turn()


def test_a_two_player_game_skips_the_starting_players_first_draw():
    fish = Goldfish(FORESTS, random.Random(7), multiplayer=False)
    first = fish.next_turn()
    assert first.drawn is None and fish.next_turn().drawn is not None


def test_the_land_played_brings_a_color_the_hand_needs():
    needs_blue = spell("Blue Two", "{1}{U}", "U", 2)
    fish = Goldfish(deck_of({FOREST: 20, ISLAND: 20, needs_blue: 19}, commanders=()), random.Random(2))
    fish.hand = [FOREST, ISLAND, needs_blue, FOREST, ISLAND, FOREST, FOREST]
    fish.library = [FOREST] * 5
    fish.in_play = [FOREST]  # green already there: blue is the color missing
    assert fish.next_turn().land is ISLAND


def test_costs_are_paid_symbol_by_symbol_by_lands_of_their_colors():
    assert can_pay(TRIPLE, [G, G, G]) and not can_pay(TRIPLE, [G, G, U]) and not can_pay(TRIPLE, [G, G])
    both = spell("Both", "{G}{U}", "GU", 2)
    assert can_pay(both, [GU, G]) and can_pay(both, [G, GU]) and not can_pay(both, [G, G])
    assert can_pay(spell("Hybrid", "{G/U}{G/U}", "GU", 2), [U, G])
    assert can_pay(spell("Ex", "{X}{G}", "G", 1), [G])  # X is 0
    colorless = spell("Eldrazi", "{C}{1}", "", 2)
    assert can_pay(colorless, [NONE, G]) and not can_pay(colorless, [G, G])
    twobrid = spell("Twobrid", "{2/G}", "G", 2)
    assert can_pay(twobrid, [G]) and can_pay(twobrid, [U, U]) and not can_pay(twobrid, [U])


# --- the faces: the line prompt's builder and the app's -------------------------------------------------------


def drafted_session(db, seed: int = 5):
    from draft.engine import DraftConfig
    from events.storage.draft_files import TableSession
    from events.storage.store import Store

    session = TableSession.create(
        Store(db),
        kind="practice",
        seed=seed,
        config=DraftConfig(seats=4),
        humans=[0],
        names=["You", "Bot 2", "Bot 3", "Bot 4"],
    )
    while not session.draft.finished:
        session.pick(session.suggested_pick(0))
    return session


def hand_rows(lines: list[str]) -> list[str]:
    """The numbered card lines under the last 'Hand N' heading."""
    start = max(i for i, line in enumerate(lines) if line.startswith("Hand "))
    rows = []
    for line in lines[start + 1 :]:
        if not line[:2].strip().isdigit():
            break
        rows.append(line)
    return rows


def test_the_plain_builder_deals_counts_lands_mulligans_draws_and_plays_turns(tmp_path):
    import io
    import re

    from rich.console import Console

    from events.screens.practice import PracticeUI
    from events.screens.terminal import Quit, Terminal

    session = drafted_session(tmp_path / "g.json")
    console = Console(file=io.StringIO(), width=80, no_color=True, highlight=False)
    script = "auto new\ny\nhand\nmulligan\nmulligan\nturn\nbottom 1\ndraw\nturns\nturn\nquit\n"
    ui = PracticeUI(session, console, Terminal(console, io.StringIO(script)))
    with pytest.raises(Quit):
        ui.build()
    out = console.file.getvalue()
    lines = [line.replace("deck> ", "") for line in out.splitlines()]
    first = lines[: next(i for i, line in enumerate(lines) if "1 mulligan" in line)]  # the hand dealt
    rows = hand_rows(first)
    lands = sum(re.search(r"  (Basic )?Land\b", row) is not None for row in rows)  # counted from the type lines
    heading = next(line for line in first if line.startswith("Hand 1 ·"))
    assert len(rows) == 7 and f"7 cards, {lands} land" in heading
    assert "2 mulligans (the first is free)" in out and "Put 1 card on the bottom" in out
    assert "put 1 card of the hand on the bottom first ('bottom N')" in out  # 'turn' before the hand is kept
    kept = hand_rows(lines[: next(i for i, line in enumerate(lines) if line.startswith("Put 1 card on the bottom"))])
    bottomed = re.sub(r"^\s*1 (\{[^}]*\})*\s*", "", kept[0]).split("  ")[0]
    assert f"On the bottom: {bottomed}" in out
    assert "Drawn: " in out and "Turns 1-6" in out
    table = out[out.rindex("Turns 1-6") :]
    assert all(re.search(rf"^\W*{turn}\b", table, re.M) for turn in range(1, 7))
    assert "turns 1-6 are played: deal a new hand" in out
