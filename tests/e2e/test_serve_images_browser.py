"""Card images on the player's page, from images downloaded (from a local stand-in for Scryfall, once for the
module) into each test's data folder: the pack shows them sorted as players sort it, names and costs stay text, a
long press or the ⤢ button shows the card full size, the builder shows them too; the images come with cache headers
and the strict CSP.  Screenshots at 390x844 and 1920x1080 go to the test's folder ($CMDRAFT_SCREENSHOTS to keep
them)."""

from __future__ import annotations

import re
import shutil
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from events.storage.store import Store
from sets.catalog import load_set
from sets.images import Fetcher, download_images
from tests.helpers.browsers import LAPTOP, PHONE, Served
from tests.helpers.night import Night
from tests.helpers.nights import codes_of, draft_to_the_end, start, terminal_night
from tests.helpers.pages import desk, join, serious, too_small
from tests.helpers.scryfall_fake import FakeScryfall
from tests.helpers.served import drafted_night


@pytest.fixture(scope="module")
def downloaded(tmp_path_factory):
    """Every CMR card's (made-up) image downloaded once for the module, into a data folder of its own."""
    home = tmp_path_factory.mktemp("images-home")
    fake = FakeScryfall(list(load_set("CMR")), page_size=175)
    httpd, base = fake.start()
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setenv("CMDRAFT_HOME", str(home))
        try:
            report = download_images(load_set("CMR"), fetcher=Fetcher(base, pause=lambda seconds: None))
        finally:
            httpd.shutdown()
            httpd.server_close()
    assert report.fetched > 300 and not report.missing
    return home, fake


@pytest.fixture
def cmr_images(cmdraft_home, downloaded):
    """The module's downloaded images, copied into this test's data folder (a test may change its own)."""
    home, fake = downloaded
    shutil.copytree(home / "images", cmdraft_home / "images")
    return fake


@pytest.fixture
def pod(cmr_images, two_drafting):
    """Ann and Bo drafting among six bots, served once the images are in the data folder."""
    return two_drafting


def seat_cards(page: Page) -> list[dict]:
    return page.evaluate("fetch('/api/seat').then(r => r.json()).then(s => s.draft.cards)")


def test_the_pack_shows_images_sorted_with_names_as_text_and_booster_order_one_tap_away(pod, browser, shots):
    db, event_id, served = pod
    phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True).new_page()
    join(phone, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
    cards = seat_cards(phone)
    buttons = phone.locator("#pack .card")
    expect(buttons).to_have_count(len(cards))
    expect(phone.locator("#pack .card img.card-img")).to_have_count(len(cards))
    assert all(card["image"].startswith("/images/CMR/") for card in cards)
    # Sorted: mythics and rares, then legends, first; each group by colour, then mana value.
    shown = [int(i) for i in buttons.evaluate_all("bs => bs.map(b => b.dataset.index)")]
    ranks = [0 if cards[i]["rarity"] in "MR" or "Legendary" in cards[i]["type"] else 1 for i in shown]
    assert ranks == sorted(ranks) and ranks[0] == 0
    rares = [cards[i]["rarity"] for i in shown if cards[i]["rarity"] in "MR"]
    assert rares == sorted(rares)  # M before R
    # Each card's button is named by its name, cost and type as text (for screen readers).
    first = cards[shown[0]]
    expect(buttons.first).to_have_accessible_name(re.compile(re.escape(first["name"])))
    assert phone.locator("#pack .card").first.locator(".card-name").inner_text() == first["name"]
    expect(phone.locator("#image-credit")).to_contain_text("Scryfall")
    phone.screenshot(path=str(shots / "images-pack-390x844.png"))

    phone.click("#pack-order")  # booster order: the pack as dealt
    expect(phone.locator("#pack-order")).to_have_attribute("aria-pressed", "true")
    dealt = [int(i) for i in buttons.evaluate_all("bs => bs.map(b => b.dataset.index)")]
    assert dealt == list(range(len(cards)))
    phone.click("#pack-order")
    assert [int(i) for i in buttons.evaluate_all("bs => bs.map(b => b.dataset.index)")] == shown

    # A long press shows the card full size and picks nothing; the ⤢ button does the same.
    box = buttons.nth(3).bounding_box()
    phone.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    phone.mouse.down()
    expect(phone.locator("#sheet")).to_be_visible()
    phone.mouse.up()
    expect(buttons.nth(3)).to_have_attribute("aria-pressed", "false")
    expect(phone.locator("#sheet-title")).to_have_text(cards[shown[3]]["name"])
    expect(phone.locator("#sheet-img")).to_have_attribute("src", cards[shown[3]]["image"])
    expect(phone.locator("#sheet-credit")).to_contain_text("Illustrated by Artist")
    phone.screenshot(path=str(shots / "images-full-390x844.png"))
    phone.click("#sheet-close")
    phone.locator("#pack .card-box").nth(1).locator(".card-more").click()
    expect(phone.locator("#sheet-title")).to_have_text(cards[shown[1]]["name"])
    phone.keyboard.press("Escape")
    expect(phone.locator("#sheet")).to_be_hidden()

    laptop = browser.new_context(viewport=LAPTOP).new_page()
    join(laptop, served.url, codes_of(db, event_id)["Bo"], event_id=event_id, name="Bo")
    expect(laptop.locator("#pack .card img.card-img").first).to_be_visible()
    laptop.locator("#pack img").first.evaluate("img => img.decode()")
    laptop.screenshot(path=str(shots / "images-pack-1920x1080.png"))
    laptop.locator("#pack .card-box").first.locator(".card-more").click()
    expect(laptop.locator("#sheet-img")).to_be_visible()
    laptop.screenshot(path=str(shots / "images-full-1920x1080.png"))


def test_an_image_that_does_not_arrive_leaves_the_card_drawn_as_text_with_its_name(pod, browser, shots):
    """Every image request fails (the store's Wi-Fi drops them, or the files were damaged since the server named
    them): no card is left a blank box; each is drawn as text, its name shown, its full-size view with no picture."""
    db, event_id, served = pod
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.route("**/images/**", lambda route: route.abort())
    join(phone, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann")
    cards = seat_cards(phone)
    assert all(card["image"] for card in cards)  # the server names them
    expect(phone.locator("#pack .card img.card-img")).to_have_count(0)  # each picture gone once it failed
    names = phone.locator("#pack .card .card-name")
    expect(names).to_have_count(len(cards))
    widths = names.evaluate_all("ns => ns.map(n => n.getBoundingClientRect().width)")
    assert min(widths) > 20, widths  # shown, not the 1 px kept for screen readers under a picture
    phone.screenshot(path=str(shots / "images-not-arrived-390x844.png"))
    phone.locator("#pack .card-box").first.locator(".card-more").click()
    expect(phone.locator("#sheet-title")).to_be_visible()
    expect(phone.locator("#sheet-img")).to_be_hidden()


def test_an_image_is_served_with_cache_headers_and_the_strict_csp(pod):
    db, event_id, served = pod
    card = next(iter(load_set("CMR")))
    from sets.images import image_of

    path, _ = image_of(card)
    with urllib.request.urlopen(f"{served.url}/images/CMR/{path.name}") as answer:
        assert answer.read() == path.read_bytes()
        assert answer.headers["Content-Type"] == "image/png"  # the stand-in's images are PNGs
        assert "max-age=604800" in answer.headers["Cache-Control"]
        assert "default-src 'self'" in answer.headers["Content-Security-Policy"]
    path.write_bytes(b"")  # a kept file left empty (a power cut): not served, so the page draws the card as text
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{served.url}/images/CMR/{path.name}")
    assert refused.value.code == 404
    for bad in ["../index.json", "index.json", "0123.jpg", "%2e%2e%2fsecret"]:
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{served.url}/images/CMR/{bad}")
        assert refused.value.code == 404


@pytest.fixture
def built(tmp_path, cli, cmr_images):
    """Drafted to the end, nothing registered yet: the builder."""
    db = tmp_path / "built.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=6)
    start(cli, db, event_id)
    draft_to_the_end(db, event_id)
    served = Served(db, event_id)
    yield db, event_id, served
    served.stop()


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["390x844", "1920x1080"])
def test_the_builder_shows_each_cards_image_and_opens_it_full_size(built, browser, shots, size):
    db, event_id, served = built
    page = browser.new_context(viewport=size, is_mobile=size is PHONE, has_touch=size is PHONE).new_page()
    page.goto(f"{served.url}/")
    page.fill("#join-event", str(event_id))
    page.fill("#join-player", "Ann")
    page.fill("#join-code", codes_of(db, event_id)["Ann"])
    page.click("#join-button")
    expect(page.locator("#screen-deck")).to_be_visible()
    page.click("#deck-auto")
    expect(page.locator("#deck-legal")).to_have_text("Legal")
    expect(page.locator("#deck-main .line img.line-img").first).to_be_visible()
    name = page.locator("#deck-main .line-name").first
    expect(name).to_have_accessible_name(re.compile(r"\w"))
    page.screenshot(path=str(shots / f"images-builder-{size['width']}x{size['height']}.png"), full_page=False)
    assert too_small(page) == [] and serious(page) == []
    name.click()
    expect(page.locator("#sheet-img")).to_be_visible()


def test_the_deck_read_only_after_round_one_keeps_every_cards_name_and_image(built, browser, shots):
    """Once round 1 is paired the phone shows its registered deck read-only: no control changes it, and every line
    keeps its card's name (a name with an image is the button that opens it full size, and the read-only deck hid
    every such button, name and all)."""
    db, event_id, served = built
    events = Night(Store(db))
    for name in ("Ann", "Bo"):
        assert events.register_deck(event_id, name, auto=True).valid
    desk(served.url, "/api/desk/round", {})
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    join(page, served.url, codes_of(db, event_id)["Ann"], event_id=event_id, name="Ann", screen="#screen-deck")
    expect(page.locator("#deck-closed")).to_be_visible()
    lines = page.locator("#deck-commanders .line, #deck-main .line")
    expect(lines.first).to_be_visible()
    assert lines.count() > 20
    shown = page.locator("#deck-commanders .line .line-name:visible, #deck-main .line .line-name:visible")
    expect(shown).to_have_count(lines.count())  # every line's name shown (waited for: a push may redraw the deck)
    assert all(re.search(r"\w", name) for name in shown.all_inner_texts())
    expect(page.locator("#deck-grid button:visible:not(.line-name)")).to_have_count(0)
    page.screenshot(path=str(shots / "images-deck-closed-390x844.png"))
    page.locator("#deck-main .line-name").first.click()  # a name still opens its card
    expect(page.locator("#sheet-img")).to_be_visible()


def test_the_published_decklists_show_each_cards_image_beside_its_name_and_cost_as_text(
    tmp_path, cli, browser, shots, cmr_images
):
    db = tmp_path / "lists.json"
    event_id = drafted_night(cli, db, ["Ann", "Bo", "Cy", "Di"])
    served = Served(db, event_id)
    try:
        events = Night(Store(db))
        for number, table in enumerate(desk(served.url, "/api/desk/round", {})["tables"], 1):
            order = [[events.player_id(event_id, name)] for name in table]
            desk(served.url, "/api/desk/settle", {"round": 1, "table": number, "order": order})
        desk(served.url, "/api/desk/finish", {})
        desk(served.url, "/api/desk/publish", {"on": True})
        for size, viewport in (("390x844", PHONE), ("1920x1080", LAPTOP)):
            page = browser.new_context(viewport=viewport).new_page()
            page.goto(served.url + "/decklists")
            expect(page.locator(".decklist")).to_have_count(4)
            images = page.locator(".decklist-lines img.decklist-image")
            assert images.count() > 4 * 20  # the lines' cards, each with its image
            sources = images.evaluate_all("imgs => imgs.map(i => i.getAttribute('src'))")
            assert all(src.startswith("/images/CMR/") for src in sources)
            page.wait_for_function(  # the images in view are loaded (those further down load as they come into view)
                "() => { const i = document.querySelector('.decklist-image'); return i.complete && i.naturalWidth > 0; }"
            )
            first = page.locator(".decklist-lines li.has-image").first
            assert re.fullmatch(r"\d+ \S.*", first.locator(".decklist-line").inner_text())  # count and name, as text
            assert first.locator("img").get_attribute("alt") == ""  # the name is read from the text, not twice
            costs = page.locator(".decklist-cost")  # costs as pips, as the player's page draws them, never "{2}{G}"
            assert costs.count() > 4 * 10 and "{" not in page.locator("#decklists").inner_text()
            assert costs.first.locator(".pip").count() >= 1
            assert re.fullmatch(r"costs \w+( and \w+)*", costs.first.get_attribute("aria-label") or "")
            expect(page.locator("#image-credit")).to_be_visible()
            expect(page.locator("#image-credit")).to_contain_text("Scryfall")
            page.screenshot(path=str(shots / f"images-decklists-{size}.png"))
            page.context.close()
    finally:
        served.stop()
