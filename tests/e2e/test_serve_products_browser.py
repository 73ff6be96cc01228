"""Battle for Baldur's Gate (CLB) and Commander Masters (CMM) nights on phones, in a real browser (Debian's chromium at
390x844): the phone's deck builder offers each product's own commanders (CLB: a legend that says "Choose a
Background" leads beside a legendary Background, CR 702.124k, and Faceless One leads in the colour chosen for it, as
the Piper does in CMR; CMM: two legends of exactly one colour each lead together, the set's grant) and registers the
deck as ``event deck`` does.  The products' cards come from the test sets (``tests/helpers/products.py``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from events.storage.store import Store
from tests.helpers.browsers import Served, phone_page
from tests.helpers.night import Night
from tests.helpers.nights import codes_of, draft_to_the_end
from tests.helpers.pages import join
from tests.helpers.products import (
    CLB,
    CMM,
    chooses_background,
    import_products,
    is_background,
    mono_legend_without_partner,
)


def product_night(folder: Path, code: str, first: Callable[[Any], bool], second: Callable[[Any], bool]):
    """A terminal night of ``code`` for Ann and seven bots drafted to the end, whose secret (the first of a few) gives
    Ann a pool holding a card of each kind: (database, event, the first card's name, the second's)."""
    cards = CLB if code == "CLB" else CMM
    for secret in range(1, 60):
        db = folder / f"{code}-{secret}.json"
        events = Night(Store(db))
        event_id = events.create("Night", set_code=code, style="terminal", secret=secret, piper_stock=4)
        events.add_player(event_id, "Ann")
        events.add_players(event_id, [f"Bot {n}" for n in range(1, 8)], bot=True)
        events.seat(event_id)
        events.start_draft(event_id)
        night = draft_to_the_end(db, event_id)
        pool = {p.card.name for p in night.pool(event_id, night.player_id(event_id, "Ann"))}
        firsts = sorted(n for n in pool if n in cards and first(cards[n]))
        seconds = sorted(n for n in pool if n in cards and second(cards[n]) and n not in firsts[:1])
        if firsts and seconds:
            return db, event_id, firsts[0], seconds[0]
    raise AssertionError(f"no secret under 60 gave a {code} pool with such a pair")


def lead_build_register(page, first: str, second: str) -> None:
    """On the phone's builder: ♛ on ``first`` then on ``second`` (both lead), Auto build around them, Register."""
    page.get_by_role("button", name=f"make {first} a commander", exact=True).click()
    expect(page.locator("#deck-commanders")).to_contain_text(first)
    page.get_by_role("button", name=f"make {second} a commander", exact=True).click()  # room for one more
    lines = page.locator("#deck-commanders .line")
    expect(lines).to_have_count(2)
    expect(page.locator("#deck-commanders")).to_contain_text(second)
    page.get_by_role("button", name="Auto build").click()  # finished around the two chosen
    expect(page.locator("#deck-legal")).to_have_text("Legal")
    expect(lines).to_have_count(2)
    page.get_by_role("button", name="Register", exact=True).click()
    expect(page.locator("#deck-legal")).to_have_text("Legal · registered")


def registered_commanders(db: Path, event_id: int) -> list[str]:
    night = Night(Store(db))
    deck = night.deck_of(event_id, night.player_id(event_id, "Ann"))
    assert deck is not None
    return sorted(c.name for c in deck.commanders)


def test_a_clb_phone_builder_leads_with_a_background_pair_and_offers_faceless_one(tmp_path, cli, browser):
    import_products(cli)
    db, event_id, legend, background = product_night(tmp_path, "CLB", chooses_background, is_background)
    served = Served(db, event_id)
    try:
        page = phone_page(browser)
        join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann", screen="#screen-deck")
        expect(page.locator("#piper-label")).to_have_text("Faceless One as")  # the product's added card, by name
        expect(page.locator("#piper-set")).to_have_text("Lead with Faceless One")
        expect(page.locator("#deck-commanders")).to_contain_text("or lead with Faceless One.")
        lead_build_register(page, legend, background)  # CR 702.124k
    finally:
        served.stop()
    assert registered_commanders(db, event_id) == sorted([legend, background])


def test_the_added_cards_button_says_how_many_the_colours_tapped_ask_for(tmp_path, cli, browser):
    """Before: it read "Lead with Faceless One" with two colours tapped, which lead with two."""
    import_products(cli)
    db, event_id, _, _ = product_night(tmp_path, "CLB", chooses_background, is_background)
    served = Served(db, event_id)
    try:
        page = phone_page(browser)
        join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann", screen="#screen-deck")
        button = page.locator("#piper-set")
        expect(button).to_have_text("Lead with Faceless One")
        page.get_by_role("button", name="Faceless One colour White").click()
        expect(button).to_have_text("Lead with Faceless One")
        page.get_by_role("button", name="Faceless One colour Blue").click()
        expect(button).to_have_text("Lead with 2 Faceless Ones")  # counted as every face counts them
        button.click()
        expect(page.locator("#deck-commanders .line")).to_have_count(2)
        expect(button).to_have_text("Lead with 2 Faceless Ones")  # the colours they lead in stay tapped
        page.get_by_role("button", name="Faceless One colour Blue").click()
        expect(button).to_have_text("Lead with Faceless One")
        page.get_by_role("button", name="Faceless One colour Red").click()
        page.get_by_role("button", name="Faceless One colour Green").click()
        expect(button).to_have_text("Lead with 3 Faceless Ones")  # asked for: the server says how many may lead
    finally:
        served.stop()


def test_a_cmm_phone_builder_leads_with_two_legends_of_one_colour_each(tmp_path, cli, browser):
    import_products(cli)
    db, event_id, one, other = product_night(tmp_path, "CMM", mono_legend_without_partner, mono_legend_without_partner)
    served = Served(db, event_id)
    try:
        page = phone_page(browser)
        join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann", screen="#screen-deck")
        expect(page.locator("#piper-label")).to_have_text("The Prismatic Piper as")
        lead_build_register(page, one, other)  # the set's grant: each has exactly one colour
    finally:
        served.stop()
    assert registered_commanders(db, event_id) == sorted([one, other])
