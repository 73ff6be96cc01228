"""Names from around the world on the pages, in a real browser (Debian's chromium through Playwright): the pages write
out the characters the terminal and the sheets write out (``sets/visible.py``, one policy), so a right-to-left
override in one name turns neither that name nor the text after it around, on the desk or on a phone, in the
visible text or in the labels a screen reader reads.
Screenshots go to the test's folder ($CMDRAFT_SCREENSHOTS to keep them)."""

from __future__ import annotations

import re
import unicodedata

from playwright.sync_api import expect

from sets.visible import ESCAPED_CATEGORIES, visible
from tests.helpers.browsers import PHONE, Served
from tests.helpers.nights import codes_of, start, terminal_night
from tests.helpers.pages import join
from tests.helpers.paths import ROOT

PAGE_JS = ROOT / "events" / "web" / "static" / "page.js"

# Every code point (surrogates aside) the function given changes: as one string of code points, for Python to read.
CHANGED = """(change) => {
  const out = [];
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const ch = String.fromCodePoint(cp);
    if (change(ch) !== ch) out.push(cp);
  }
  return out;
}"""


def escaped_here(below: int = 0x110000) -> set[int]:
    """The code points ``visible`` writes out (a line break kept, as on a card's rules text), among those assigned
    in this Python's Unicode (a browser may know newer ones)."""
    return {
        cp
        for cp in range(below)
        if unicodedata.category(chr(cp)) in ESCAPED_CATEGORIES and visible(chr(cp), line_breaks=True) != chr(cp)
    }


def assigned(cps: list[int], below: int = 0x110000) -> set[int]:
    return {cp for cp in cps if cp < below and unicodedata.category(chr(cp)) != "Cn"}


def test_the_pages_write_out_the_characters_every_face_writes_out(browser):
    page = browser.new_context().new_page()
    page.add_script_tag(path=str(PAGE_JS))
    shown = page.evaluate(f"({CHANGED})(cmdraftPage.shown)")
    assert assigned(shown) == escaped_here()
    assert page.evaluate("cmdraftPage.shown('abc\\u202edef \\ud83d\\udc68\\u200d\\ud83d\\udc69 \\udb40\\udc41')") == (
        visible("abc\u202edef 👨\u200d👩 \U000e0041")
    )
    # The table for a browser whose regular expressions know no Unicode properties: the same, for every character
    # of the Basic Multilingual Plane (where this Python's Unicode and the table's may not differ).
    fallback = re.search(r"return (/\[.*/g);", PAGE_JS.read_text(encoding="utf-8"))
    assert fallback is not None
    older = page.evaluate(f"({CHANGED})((ch) => ch.replace({fallback.group(1)}, 'X'))")
    assert assigned(older, 0x10000) == escaped_here(0x10000)
    assert {cp for cp in older if cp >= 0x10000} <= escaped_here()


def test_a_name_with_a_right_to_left_override_is_written_out_on_the_desk_and_the_phone(tmp_path, cli, browser, shots):
    db = tmp_path / "world.json"
    evil, family = "abc\u202edef", "👨\u200d👩\u200d👧 ファミリー"
    event_id = terminal_night(cli, db, evil, "山田\u3000太郎", family, "عبد الله", bots=4, timer=300)
    start(cli, db, event_id)
    codes = codes_of(db, event_id)
    served = Served(db, event_id)
    try:
        desk = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        desk.goto(f"{served.url}/desk?token=desk-secret")
        expect(desk.locator("#desk-pods")).to_contain_text("abc\\u202edef")
        text = desk.locator("body").inner_text()
        assert "\u202e" not in text and "\u200d" not in text and "山田 太郎" in text and "عبد الله" in text
        # a screen reader reads the buttons' labels: the name in them is written out as the visible text is
        labels = desk.locator("[aria-label]").evaluate_all("nodes => nodes.map(n => n.getAttribute('aria-label'))")
        assert any("abc\\u202edef" in label for label in labels), labels
        assert not any("\u202e" in label for label in labels)
        desk.screenshot(path=str(shots / "desk-world-names-1920x1080.png"))
        phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
        join(phone, served.url, codes[evil], event_id=event_id, name="abcdef")  # what a person can type finds them
        expect(phone.locator("#player-name")).to_have_text("abc\\u202edef")
        assert "\u202e" not in phone.locator("body").inner_text() and "\u202e" not in phone.title()
        phone.screenshot(path=str(shots / "phone-world-names-390x844.png"))
    finally:
        served.stop()
