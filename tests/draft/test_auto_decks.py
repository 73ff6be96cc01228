"""Auto decks (``auto`` in the builder, ``auto new``, ``event deck --auto``, the bots' decks) are decks a good player
would sleeve (docs/bots.md "Decks", docs/practice.md): the product's minimum size exactly (60 counting the commanders,
CR 903.13f: at least 60, and a good player plays no card past it) unless the pool can't fill it, 22-25 lands by the
spells' mana values with the pool's nonbasic lands counted among them, basics split so each color has the sources
its commanders and spells ask, every added card inside the commanders' color identity (CR 903.4), and one line
saying why when the pool can make no legal deck."""

from __future__ import annotations

from collections import Counter

import pytest

from draft.commanders import commander_identity
from draft.deck_rules import validate
from draft.deck_session import DeckSession
from draft.deck_spells import COSTLY_COMMANDER
from draft.deckbuild import build_deck, no_deck_reason
from draft.decks import is_piper
from draft.deckstats import complete_deck
from draft.engine import DraftConfig
from draft.manabase import mana_sources
from draft.sim import piper_card, pod_seeds, run_pod
from sets.basics import basic_land
from sets.catalog import save_imported
from sets.colors import Color
from sets.errors import InputError
from sets.importers import read_card_file
from tests.helpers.products import CLB_FILE, CMM, CMM_FILE

MINIMUM = 60  # cards, commanders counted (CR 903.13f as the Commander draft products apply it)
LANDS = (22, 25)  # the lands a 60-card Commander draft deck plays, by its curve (docs/bots.md)
COMMANDER_SOURCES = {1: 10, 2: 12, 3: 14}  # sources of a commander's colored symbols of a color, two-color deck


def named(card_set, name: str):
    return next(card for card in card_set if card.name == name)


def imported(code: str) -> None:
    if code != "CMR":
        for card_set in read_card_file(CLB_FILE if code == "CLB" else CMM_FILE).card_sets():
            save_imported(card_set)


def seats(code: str, pods: int = 2):
    """Every seat of seeded pods of strong bots: its pool's cards and its deck."""
    imported(code)
    for pod_seed in pod_seeds(23, pods):
        for seat in run_pod(pod_seed, DraftConfig(seats=8, set_code=code)).seats:
            yield [p.card for p in seat.pool], seat.deck


def lands_of(main: Counter) -> int:
    return sum(n for card, n in main.items() if card.is_land)


@pytest.mark.parametrize("code", ["CMR", "CLB", "CMM"])
def test_auto_keeps_the_players_cards_and_fills_to_exactly_the_minimum(code):
    """The player set the lands first (the bot deck's basics), or chose half the spells, or nothing: ``auto`` keeps
    them all and the deck has 60 cards, not 60 plus what was already there."""
    for pool, deck in seats(code):
        identity = commander_identity(deck.commanders, deck.piper_colors)
        spells = [(card, n) for card, n in deck.main.items() if not card.is_land]
        starts = [
            Counter(),
            Counter({card: n for card, n in deck.main.items() if card.is_basic_land}),
            Counter(dict(spells[::2])),
        ]
        for start in starts:
            main = complete_deck(pool, deck.commanders, deck.piper_colors, start)
            assert sum(main.values()) + len(deck.commanders) == MINIMUM, (code, [c.name for c in deck.commanders])
            assert main & start == start  # nothing the player chose is gone
            added = main - start
            assert all(card.deck_colors <= identity for card in added), [c.name for c in added]
            assert not any(is_piper(card) for card in added)
            if not start:
                assert (
                    LANDS[0] <= lands_of(main) <= LANDS[1]
                    or lands_of(main) > LANDS[1]
                    and not [
                        card
                        for card in pool
                        if card.deck_colors <= identity and not card.is_land and not is_piper(card)
                        if (Counter(pool)[card] - main[card] - deck.commanders.count(card)) > 0
                    ]
                ), lands_of(main)  # more lands only when no spell of the identity is left in the pool


def pair_pool(cmr, order: int) -> tuple[list, list]:
    """A white and black partner pair (neither costly enough to ask for lands of its own, ``COSTLY_COMMANDER``), and
    40 of the white and black spells lowest (``order`` 1) or highest (-1) in mana value, with the pool's two lands for
    those colors (Vault of Champions, Command Tower)."""
    white = next(
        c
        for c in cmr
        if c.has_partner and c.identity.code == "W" and not is_piper(c) and c.mana_value < COSTLY_COMMANDER
    )
    black = next(c for c in cmr if c.has_partner and c.identity.code == "B")
    spells = [c for c in cmr if c.deck_colors.code in ("W", "B", "WB") and not c.is_legendary and not c.is_land]
    spells.sort(key=lambda c: (order * c.mana_value, c.name))
    lands = [named(cmr, "Vault of Champions"), named(cmr, "Command Tower")]
    return [white, black], [white, black, *spells[:40], *lands]


def test_auto_lands_follow_the_curve_and_count_the_nonbasic_lands(cmr):
    """A low curve plays fewer lands than a high one, both 22-25; the pool's dual land and Command Tower are two of
    those lands (the basics are the rest)."""
    counts = {}
    for order in (1, -1):
        leaders, pool = pair_pool(cmr, order)
        main = complete_deck(pool, leaders, [], Counter())
        lands = lands_of(main)
        nonbasic = sum(n for card, n in main.items() if card.is_land and not card.is_basic_land)
        basics = sum(n for card, n in main.items() if card.is_basic_land)
        assert nonbasic == 2 and basics == lands - 2 and LANDS[0] <= lands <= LANDS[1], (order, lands)
        assert sum(main.values()) + 2 == MINIMUM
        counts[order] = lands
    assert counts[1] < counts[-1], counts


def test_auto_basics_follow_the_colors_demand(cmr):
    """Mostly white spells and a few black ones under a white and a black commander: more Plains than Swamps, and
    each commander's color has the 10, 12 or 14 sources its colored symbols ask (docs/bots.md)."""
    leaders, _ = pair_pool(cmr, 1)
    white = [c for c in cmr if c.deck_colors.code == "W" and not c.is_legendary and not c.is_land][:32]
    black = [c for c in cmr if c.deck_colors.code == "B" and not c.is_legendary and not c.is_land][:4]
    main = complete_deck([*leaders, *white, *black], leaders, [], Counter())
    assert main[basic_land("W")] > main[basic_land("B")] > 0
    identity = commander_identity(leaders, [])
    deck = build_deck([*leaders, *white, *black], named(cmr, "The Prismatic Piper"), "", 0)
    assert list(deck.commanders) == leaders
    sources = mana_sources(deck, identity)
    for leader, letter in zip(leaders, "WB", strict=True):
        symbols = leader.front.cost.count(Color(letter))
        assert sources[letter] >= COMMANDER_SOURCES[min(symbols, 3)], (leader.name, sources)


@pytest.mark.parametrize("code", ["CMR", "CLB", "CMM"])
def test_the_bots_decks_are_the_minimum_size_with_the_lands_their_pool_allows(code):
    for pool, deck in seats(code):
        report = validate(deck, pool)
        assert report.valid and deck.size == MINIMUM, (code, deck.size)
        assert LANDS[0] <= lands_of(deck.main) <= 26  # up to a 26th where filler spells make way (docs/bots.md)


# --- a pool that can make no legal deck: one line saying why -----------------------------------------------------


def no_legend_pool(cmr) -> list:
    return [c for c in cmr if not c.is_legendary and c.deck_colors.code == "U"][:60]


def test_a_pool_with_nothing_to_lead_and_no_piper_to_add_gets_one_line_saying_why(cmr):
    pool = no_legend_pool(cmr)
    reason = no_deck_reason(pool, named(cmr, "The Prismatic Piper"), 0)
    assert reason is not None and "\n" not in reason
    assert "no card that can be a commander" in reason and "the store's stock holds no Pipers" in reason
    assert not validate(
        build_deck(pool, named(cmr, "The Prismatic Piper"), "", 0), pool
    ).valid  # the check can disagree
    assert no_deck_reason(pool, named(cmr, "The Prismatic Piper"), None) is None  # two Pipers lead it
    assert validate(build_deck(pool, named(cmr, "The Prismatic Piper")), pool).valid
    session = DeckSession(
        pool, piper=named(cmr, "The Prismatic Piper"), name="", save=lambda deck, legal, final: None, may_add=0
    )
    with pytest.raises(InputError, match="no legal deck: the pool has no card that can be a commander"):
        session.replace(True)


def test_a_colorless_leader_whose_pool_cannot_fill_its_deck_gets_one_line_saying_why():
    """A colorless commander allows no free basic land (CR 903.5d): with a handful of colorless cards and no Piper
    to add, the deck can't reach 60."""
    imported("CMM")
    kozilek = CMM["Kozilek, the Great Distortion"]
    colorless = [c for c in CMM.values() if not c.deck_colors and not c.is_land and not c.is_legendary][:5]
    blue = [c for c in CMM.values() if c.deck_colors.code == "U" and not c.is_legendary][:30]
    pool = [kozilek, *colorless, *blue]
    reason = no_deck_reason(pool, piper_card("CMM"), 0)
    assert reason is not None and "\n" not in reason
    assert "Kozilek, the Great Distortion leads a colorless deck" in reason and "CR 903.5d" in reason
    deck = build_deck(pool, piper_card("CMM"), "", 0)
    assert deck.size < MINIMUM and not validate(deck, pool).valid


def leaderless_pools(tmp_path):
    """A physical event whose two pools hold nothing that can lead, and no Piper in stock: (events, event id)."""
    from draft.formats import parse
    from events.storage.store import Store
    from tests.helpers.night import Night

    events = Night(Store(tmp_path / "event.json"))
    event_id = events.create("Pipers", style="physical", seed=4)  # no stock: no Piper to add
    for name in ("Ann", "Bo"):
        events.add_player(event_id, name)
    events.seat(event_id)
    events.record_pool(event_id, "Ann", parse("10 Murder\n"))
    events.record_pool(event_id, "Bo", parse("10 Murder\n"))
    return events, event_id


def test_event_deck_auto_for_a_pool_with_nothing_to_lead_says_why_in_one_line(tmp_path, cli):

    events, event_id = leaderless_pools(tmp_path)
    result = cli("event", "deck", event_id, "Bo", "--auto", "--db", tmp_path / "event.json")
    said = result.stderr.strip()
    assert result.exit_code not in (0, 1) and "Traceback" not in result.output
    assert said.count("\n") == 0 and "the pool of 'Bo': no legal deck" in said and "stock holds no Pipers" in said, said
    assert events.deck_of(event_id, events.player_id(event_id, "Bo")) is None  # nothing registered


def test_event_deck_auto_at_the_desk_says_how_the_desk_raises_its_stock_not_to_ask_itself(tmp_path, cli):
    from events.night.refusals import Actor

    events, event_id = leaderless_pools(tmp_path)
    said = cli("event", "deck", event_id, "Bo", "--auto", "--db", tmp_path / "event.json").stderr.strip()
    assert "ask the desk" not in said, said  # the desk is who asks
    assert f"'cmdraft event pipers {event_id} --stock N'" in said, said
    bo = events.player_id(event_id, "Bo")
    with pytest.raises(InputError) as raised:  # the player asking, from their own terminal: the desk holds the stock
        events.register_deck(event_id, "Bo", auto=True, actor=Actor.seat(bo))
    assert "ask the desk for one" in str(raised.value) and "--stock" not in str(raised.value)
