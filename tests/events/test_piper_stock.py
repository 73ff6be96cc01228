"""Pipers a deck adds beyond its pool come from the store's stock: `auto` and the builder (terminal and phone) never
add more than the stock holds (its count less what the other registered decks add) and say so."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from rich.console import Console

from draft.commanders import usable_options
from draft.deck_rules import validate
from draft.deck_session import DeckSession
from draft.deckbuild import build_deck, rank_commanders
from draft.decks import is_piper
from draft.engine import DraftConfig
from draft.formats import parse
from draft.hint import explain_pick
from draft.sim import piper_card
from events.screens.boards import deck_board, event_board
from events.sessions.activities import EventDeck
from events.sessions.seat import SeatSession
from events.storage.draft_files import TableSession
from events.storage.store import Store
from sets.colors import Color
from sets.errors import InputError, StateError
from tests.helpers.night import Night

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
MOST = 2  # a Commander Legends deck adds at most two Pipers (docs/rules.md)


def no_legend_pool(cmr):
    """Forty commons and uncommons, none legendary and no Piper: only added Pipers can lead it."""
    cards = [c for c in cmr if c.rarity.letter in "CU" and not c.is_legendary and not is_piper(c) and c.mana_value]
    return cards[:40]


def added(commanders, pool) -> int:
    return max(0, sum(1 for c in commanders if is_piper(c)) - sum(1 for c in pool if is_piper(c)))


@pytest.mark.parametrize("may_add", [0, 1, 2])
def test_no_option_adds_more_pipers_than_may_be_added(cmr, may_add):
    pool = no_legend_pool(cmr)
    options = list(usable_options(Counter(pool), piper_card("CMR"), may_add=may_add))
    assert all(n <= may_add for _, _, n in options)
    assert bool(options) == (may_add > 0)  # without a legend only added Pipers lead
    deck = build_deck(pool, piper_card("CMR"), "", may_add)
    assert added(deck.commanders, pool) <= may_add
    suggested = rank_commanders(Counter(pool), 10, piper=piper_card("CMR"), may_add=may_add)
    assert all(s.added_pipers <= may_add for s in suggested) if suggested else may_add == 0


def test_without_a_stock_figure_the_product_allows_two(cmr):
    pool = no_legend_pool(cmr)
    assert max(n for _, _, n in usable_options(Counter(pool), piper_card("CMR"))) == MOST


def test_the_builder_refuses_to_lead_with_more_pipers_than_the_stock_holds(cmr):
    session = DeckSession(no_legend_pool(cmr), piper=piper_card("CMR"), name="x", save=lambda *a: None, may_add=1)
    with pytest.raises(InputError, match="store.s stock holds 1 Piper for this deck"):
        session.choose_pipers([Color.U, Color.R])
    session.choose_pipers([Color.U])  # one added Piper: the stock holds it
    assert added(session.commanders, session.pool) == 1


def test_the_builders_own_auto_build_keeps_within_the_stock(cmr):
    pool = no_legend_pool(cmr)
    session = DeckSession(pool, piper=piper_card("CMR"), name="x", save=lambda *a: None, may_add=0)
    with pytest.raises(InputError, match="no legal deck: .* the store's stock holds no Pipers for this deck"):
        session.replace()  # no Piper added past the stock: nothing can lead this pool, and it says so
    assert added(session.commanders, pool) == 0
    assert all(s.added_pipers == 0 for s in session.suggestions(5))


def night(tmp_path, stock: int) -> tuple[Night, int]:
    events = Night(Store(tmp_path / "event.json"))
    event_id = events.create("Stock", style="bots", seed=3, piper_stock=stock)
    for name in NAMES:
        events.add_player(event_id, name)
    events.seat(event_id)
    events.start_draft(event_id)
    return events, event_id


def adds(events, event_id, name) -> int:
    """The Pipers a registered deck adds beyond its owner's pool, counted from the records."""
    pid = events.player_id(event_id, name)
    deck = events.deck_of(event_id, pid)
    pool = [p.card for p in events.pool(event_id, pid)]
    return added(deck.commanders, pool)


@pytest.mark.parametrize("stock", [0, 1, 3])
def test_auto_decks_together_add_no_more_pipers_than_the_stock_and_say_so(tmp_path, stock):
    events, event_id = night(tmp_path, stock)
    reports = {name: events.register_deck(event_id, name, auto=True) for name in NAMES}
    total = sum(adds(events, event_id, name) for name in NAMES)
    assert total <= stock
    assert events.piper_ledger(event_id).shortfall == 0
    left = stock
    for name in NAMES:  # in registration order: the desk is told what the stock still held for each deck
        note = reports[name].pipers_note
        pool = [p.card for p in events.pool(event_id, events.player_id(event_id, name))]
        wanted = added(build_deck(pool, piper_card("CMR")).commanders, pool)  # the bot's deck with no stock to mind
        if left + in_pool(events, event_id, name) >= MOST or wanted <= left:
            assert note is None  # the stock holds as many as the deck may lead, or more than the bot's deck adds
        else:
            assert note is not None and f"holds {pipers(left)} for the deck of '{name}'" in note
            assert "your" not in note  # the desk asked: the words are not addressed to the player
        left -= adds(events, event_id, name)


def pipers(n: int) -> str:
    return f"{n} Piper" if n == 1 else f"{n} Pipers"


def in_pool(events, event_id, name) -> int:
    return sum(1 for p in events.pool(event_id, events.player_id(event_id, name)) if is_piper(p.card))


def test_the_note_says_a_pools_own_piper_may_lead_and_the_stock_is_for_pipers_beyond_it(tmp_path):
    events, event_id = night(tmp_path, 0)
    held = {name: in_pool(events, event_id, name) for name in NAMES}
    assert 1 in held.values() and 0 in held.values(), "the seed should give one player a Piper and another none"
    for name, count in held.items():
        note = events.stock_for(event_id, events.player_id(event_id, name))[1]
        if count >= MOST:
            assert note is None
        elif count:
            assert note == (
                f"the {pipers(count)} in your pool may lead your deck; the store's stock is for Pipers added beyond "
                "the pool, and holds 0 Pipers for your deck (the event's stock of 0, less what other decks add)"
            )
        else:
            assert note == (
                "the store's stock holds 0 Pipers for your deck (the event's stock of 0, less what other decks add): "
                "the deck adds no more Pipers than that"
            )


def test_the_stock_taken_by_other_decks_is_no_longer_there(tmp_path, cmr):
    events, event_id = night(tmp_path, 2)
    ann, bo = events.player_id(event_id, "Ann"), events.player_id(event_id, "Bo")
    assert events.stock_for(event_id, ann) == (2, None)
    builder = EventDeck(events.phases[3], event_id, "Bo")
    pool = builder.session.pool
    builder.session.choose_pipers([Color.U, Color.R])
    taken = added(builder.session.commanders, pool)
    builder.session.save()
    assert adds(events, event_id, "Bo") == taken
    left, note = events.stock_for(event_id, ann)
    assert left == 2 - taken
    assert (note is None) == (left >= MOST)
    assert events.stock_for(event_id, bo)[0] == 2  # a deck's own added Pipers are not taken from it


def test_a_deck_registered_after_the_stock_ran_out_is_refused_with_what_is_left(tmp_path):
    events, event_id = night(tmp_path, 0)

    def held(name: str) -> int:
        return sum(1 for p in events.pool(event_id, events.player_id(event_id, name)) if is_piper(p.card))

    first, second = sorted(NAMES, key=held)[:2]  # each leads with two Pipers: adds the ones their pool lacks
    adds_first = MOST - held(first)
    assert adds_first >= 1 and MOST - held(second) >= 1, "the seed should leave two players short of two Pipers"
    events.set_pipers(event_id, stock=adds_first)  # the stock holds exactly what the first deck adds
    builders = [EventDeck(events.phases[3], event_id, name) for name in (first, second)]  # both opened now
    for builder in builders:
        builder.session.choose_pipers([Color.G, Color.U])
    builders[0].session.save()
    with pytest.raises(StateError, match="the store's stock holds 0 Pipers for it now"):
        builders[1].session.save()
    assert adds(events, event_id, first) == adds_first
    assert events.deck_of(event_id, events.player_id(event_id, second)) is None


def test_a_builder_open_before_the_stock_ran_out_leads_within_what_it_holds_now(tmp_path):
    """A phone's builder opens when the draft ends and stays open; another deck then takes the stock (or the desk
    lowers it): leading with Pipers, 'auto' and the note follow the stock as it is now, not as it was."""
    events, event_id = night(tmp_path, 2)
    builder = EventDeck(events.phases[3], event_id, "Bo")  # opened while the stock held two for Bo
    assert builder.pipers_note is None
    events.set_pipers(event_id, stock=0)
    held = sum(1 for card in builder.session.pool if is_piper(card))
    assert held < MOST, "the seed should leave Bo short of two Pipers"
    with pytest.raises(InputError, match="stock holds 0 Pipers for this deck"):
        builder.session.choose_pipers([Color.G, Color.U][: held + 1])  # one more than the pool holds
    assert builder.pipers_note is not None and "the store's stock holds 0 Pipers for your deck" in builder.pipers_note
    builder.session.replace()
    assert added(builder.session.commanders, builder.session.pool) == 0
    builder.session.save()
    assert adds(events, event_id, "Bo") == 0


def test_the_command_line_says_how_many_the_stock_holds_for_the_players_deck(tmp_path, cli, cmr):
    events, event_id = night(tmp_path, 0)
    events.record_pool(event_id, "Ann", parse("\n".join(f"1 {c.name}" for c in no_legend_pool(cmr))), replace=True)
    result = cli("event", "deck", str(event_id), "Ann", "--auto", "--db", str(events.store.path))
    # only added Pipers can lead Ann's pool now, and the stock holds none: the desk is told to raise it
    assert result.exit_code == 2 and "raise the store's stock with 'cmdraft event pipers" in result.stderr
    events.set_pipers(event_id, stock=1)
    result = cli("event", "deck", str(event_id), "Ann", "--auto", "--db", str(events.store.path))
    assert result.stdout.startswith("deck registered for 'Ann'") and "your" not in result.stdout
    assert "; the store's stock holds 1 Piper for the deck of 'Ann'" in result.stdout


def name_wants_pipers(events, event_id, name) -> bool:
    """Whether the bot's deck from the player's pool, with no stock to mind, adds Pipers beyond the pool."""
    pool = [p.card for p in events.pool(event_id, events.player_id(event_id, name))]
    return added(build_deck(pool, piper_card("CMR")).commanders, pool) > 0


def test_the_desk_hears_nothing_of_the_stock_when_the_bots_deck_adds_no_piper(tmp_path, cli, cmr):
    """An empty stock that changes nothing in the bot's deck (a legend leads it) is not worth a note at the desk."""
    events, event_id = night(tmp_path, 0)
    legend = next(
        c for c in cmr if c.can_be_commander and not c.has_partner and not is_piper(c) and len(c.identity) == 2
    )
    playable = [c for c in cmr if not c.is_legendary and c.mana_value and c.identity <= legend.identity]
    pool = [legend, *playable[:44]]  # a pool a legend of its own leads: no Piper is needed
    events.record_pool(event_id, "Ann", parse("\n".join(f"1 {c.name}" for c in pool)), replace=True)
    assert not name_wants_pipers(events, event_id, "Ann")  # the bot's deck adds none, with no stock to mind
    result = cli("event", "deck", str(event_id), "Ann", "--auto", "--db", str(events.store.path))
    assert result.stdout.startswith("deck registered for 'Ann'") and "stock" not in result.stdout


@pytest.mark.parametrize(("stock", "sure"), [(0, 0), (14, 0), (15, 1), (16, 2)])
def test_a_nights_draft_plans_with_the_pipers_the_stock_sures_every_seat(tmp_path, stock, sure):
    """Eight players: a seat is sure of the stock less two for each of the seven others, at most two
    (docs/bots.md); the draft keeps that count, and its bots plan with it."""
    events, event_id = night(tmp_path, stock)
    table = events.draft_session(event_id, 1)
    assert table.pipers == sure
    assert {bot.pipers for bot in table.bots.values()} == {sure}


def test_at_a_night_with_no_pipers_every_auto_deck_is_legal_without_one(tmp_path):
    events, event_id = night(tmp_path, 0)
    for name in NAMES:
        assert events.register_deck(event_id, name, auto=True).valid, name
        assert adds(events, event_id, name) == 0


def test_the_timer_and_the_hint_pick_for_the_pipers_the_store_sures(tmp_path, manual_clock):
    """Four players who let the timer pick for them all draft long at a store with no Pipers: every pick is the
    suggestion for a seat sure of none (the hint's too), and every pool gets a legal automatic deck without one."""
    table = TableSession.create(
        Store(tmp_path / "d.json"),
        kind="event",
        seed=12,  # (at seed 11 a seat sure of none now drafts as one sure of two would: a one-color lead keeps a
        config=DraftConfig(seats=4),  # second color, docs/bots.md; the check below needs a draft where they differ)
        humans=[0, 1, 2, 3],
        names=["Ann", "Bo", "Cy", "Di"],
        timer=60,
        pipers=0,
        extra={"assist": True},
    )
    assert TableSession.load(table.store, table.draft_id).pipers == 0  # kept with the draft
    differed = False
    while not table.draft.finished:
        expected = {}
        for seat in table.waiting_humans():
            draft = table.draft
            progress = (draft.round + (draft.at(seat)[1] - 1) / draft.picks_per_pack) / draft.config.boosters
            asked = dict(
                progress=progress,
                count=draft.picks_due(seat),
                picks=[(pick.offered, pick.pick) for pick in draft.picks_of(seat)],
            )
            pool = [p.card for p in draft.pools[seat]]
            expected[seat] = explain_pick(draft.pack(seat), pool, pipers=0, **asked).positions
            assert SeatSession(table, seat).hint().positions == expected[seat]
            if not differed:
                differed = explain_pick(draft.pack(seat), pool, **asked).positions != expected[seat]
        manual_clock.advance(61)
        taken = table.apply_timeout()
        assert {pick.seat: list(pick.positions) for pick in taken} == expected
    assert differed  # a seat sure of two Pipers would have been told other cards
    for seat in range(4):
        pool = table.draft.pools[seat]
        deck = build_deck(pool, piper_card("CMR"), "", 0)
        assert validate(deck, [p.card for p in pool]).valid
        assert added(deck.commanders, [p.card for p in pool]) == 0


def test_a_deck_file_that_leaves_the_ledger_short_tells_the_desk_at_once(tmp_path, cli):
    """Before: ``event deck ID NAME FILE --piper R --piper G`` printed only "legal" (``pipers_note`` null) although the
    Pipers it adds left the ledger short: the shortfall showed only in ``event pipers``."""
    events, event_id = night(tmp_path, 0)
    deck = tmp_path / "deck.txt"
    deck.write_text("Commander\n2 The Prismatic Piper\n\nDeck\n29 Mountain\n29 Forest\n", encoding="utf-8")
    db = str(events.store.path)
    register = ("event", "deck", str(event_id), "NAME", str(deck), "--piper", "R", "--piper", "G", "--db", db)
    led = "The Prismatic Piper (red) + The Prismatic Piper (green); identity RG; 60 cards"  # as the file says
    without = [n for n in NAMES if in_pool(events, event_id, n) == 0]
    for name in without:  # each adds two Pipers, lent from the pools (the stock holds none) until they run out
        said = cli(*(name if arg == "NAME" else arg for arg in register))
        assert said.exit_code == 0, said.output
        ledger = events.piper_ledger(event_id)
        if not ledger.shortfall:
            assert " ".join(said.stdout.split()) == f"deck registered for '{name}' ({led}): legal"
            continue
        lenders = " / ".join(lender.player for lender in ledger.lenders) or "nobody in the event"
        note = (
            f"Piper shortfall: registered decks add {ledger.needed} Pipers, {ledger.shortfall} more than players and "
            f"the store can lend (could lend: {lenders})"
        )
        assert " ".join(said.stdout.split()) == f"deck registered for '{name}' ({led}): legal; {note}"
        again = cli(*(name if arg == "NAME" else arg for arg in register), "--json")
        assert again.exit_code == 0 and json.loads(again.stdout)["pipers_note"] == note
        events.set_pipers(event_id, stock=ledger.shortfall)  # the stock covers it now: nothing to say
        covered = cli(*(name if arg == "NAME" else arg for arg in register), "--json")
        assert json.loads(covered.stdout)["pipers_note"] is None
        break
    else:
        raise AssertionError("the seed should leave more Pipers needed than lent")


def test_a_request_for_a_player_whose_deck_is_registered_is_refused_and_nothing_is_written(tmp_path, cli):
    """Before: ``event pipers ID --request Bo=2`` after Bo's deck was registered was taken, and the forecast showed
    "Needed from others 2" beside the deck's own Pipers.  A request comes before the deck (docs/store-night.md,
    "Piper ledger"): once the deck says how many it adds, a request for that player is refused (3, nothing
    written); requests made before stay the forecast until every deck is registered."""
    events, event_id = night(tmp_path, 0)
    db = str(events.store.path)
    events.set_pipers(event_id, requests={"Ann": 2})
    events.register_deck(event_id, "Bo", auto=True)
    entries = len(events.history(event_id))
    refused = cli("event", "pipers", str(event_id), "--stock", "4", "--request", "Bo=2", "--db", db)
    assert refused.exit_code == 3, refused.output
    assert " ".join(refused.stderr.split()) == (
        "cmdraft: error: the deck of 'Bo' is registered: it says how many Pipers it adds (the ledger counts those), "
        "so a request for them is no longer taken"
    )
    ledger = events.piper_ledger(event_id)
    assert ledger.stock == 0 and len(events.history(event_id)) == entries  # nothing written
    assert ledger.forecast.needed_from_others == 2 and [r.name for r in ledger.forecast.requests] == ["Ann"]
    with pytest.raises(StateError, match="the deck of 'Bo' is registered"):
        events.set_pipers(event_id, requests={"Bo": 0})


@pytest.mark.parametrize("stock", [0, 1, 5])
def test_the_most_pipers_a_deck_may_lead_with_are_its_pools_and_the_stocks_at_most_two(tmp_path, stock):
    """What the phone's builder asks before it offers a Piper: a pool's own Pipers may lead, the stock adds the rest
    up to the product's two (CR 903.13e)."""
    events, event_id = night(tmp_path, stock)
    for name in NAMES:
        pid = events.player_id(event_id, name)
        in_pool = sum(1 for p in events.pool(event_id, pid) if is_piper(p.card))
        assert events.pipers_most(event_id, pid) == min(MOST, in_pool + stock), name


def test_the_event_board_says_what_a_registered_deck_adds_not_only_what_was_requested(tmp_path):
    """``event show``'s Pipers column: a deck leading with Pipers beyond its pool says how many it adds (the column
    showed only the requests typed before, so it stayed empty for a deck that adds two)."""
    events, event_id = night(tmp_path, 2)
    builder = EventDeck(events.phases[3], event_id, "Bo")
    builder.session.choose_pipers([Color.U, Color.R])
    taken = added(builder.session.commanders, builder.session.pool)
    builder.session.save()
    console = Console(record=True, width=200)
    console.print(event_board(events.snapshot(event_id), events.piper_ledger(event_id)))
    row = next(line for line in console.export_text().splitlines() if " Bo " in line)
    assert (f"{taken} added" in row) if taken else ("added" not in row), row


def test_the_decks_board_names_each_piper_with_the_color_it_chose(tmp_path):
    """``event deck ID``'s board listed "The Prismatic Piper + The Prismatic Piper": which one is blue?"""
    events, event_id = night(tmp_path, 2)
    builder = EventDeck(events.phases[3], event_id, "Bo")
    builder.session.choose_pipers([Color.U, Color.R])
    builder.session.save()
    console = Console(record=True, width=200)
    console.print(deck_board(events.snapshot(event_id)))
    row = next(line for line in console.export_text().splitlines() if " Bo " in line)
    assert "The Prismatic Piper (blue) + The Prismatic Piper (red)" in row, row


def test_a_deck_registered_is_read_back_on_one_line_however_narrow_the_reader_with_each_choosers_color(tmp_path):
    """The read-back names each commander that chose its color with that color, counts a one-card deck as '1 card',
    and stays one line in a pipe narrower than it (a script reads it line by line)."""
    from tests.helpers.cliapp import invoke

    events, event_id = night(tmp_path, 0)
    name = next(n for n in NAMES if in_pool(events, event_id, n) == 0)
    deck = tmp_path / "deck.txt"
    deck.write_text("Commander\n1 The Prismatic Piper\n", encoding="utf-8")
    said = invoke(
        ["event", "deck", event_id, name, deck, "--piper", "U", "--db", events.store.path], env={"COLUMNS": "40"}
    )
    assert said.exit_code == 1 and said.stdout.count("\n") == 1, said.output  # registered, not legal
    assert said.stdout.startswith(
        f"deck registered for '{name}' (The Prismatic Piper (blue); identity U; 1 card): NOT legal: "
    ), said.stdout
