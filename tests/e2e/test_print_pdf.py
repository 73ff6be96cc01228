"""Every HTML printable rendered by a real browser (headless Chromium, Debian's ``chromium``) to PDF,
and the PDF's pages counted against what the sheet promises: one sheet of paper per decklist, three
result slips to a sheet, seatings and pairings on two sheets, standings and results on one."""

from __future__ import annotations

import math
import re
import shutil

import pytest

from events.storage.store import Store
from tests.helpers.night import Night
from tests.helpers.printed import printed_night


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    """The 10-player night every printable is made from (tests/helpers/printed.py)."""
    return printed_night(tmp_path_factory.mktemp("night"))


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="headless Chromium is not installed (apt-get install chromium; .ci/run installs it)"
)


def pdf_pages(browser, html_path) -> int:
    """Print an HTML file to PDF with headless Chromium (the module's one, a fresh context each time, nothing
    fetched) as ``chromium --headless --print-to-pdf --no-pdf-header-footer`` prints it (the page size the sheet's
    CSS asks for, backgrounds printed, no header or footer), and count its pages."""
    pdf = html_path.with_suffix(".pdf")
    page = browser.new_context().new_page()
    page.goto(html_path.as_uri())
    page.pdf(path=pdf, print_background=True, prefer_css_page_size=True, display_header_footer=False)
    page.context.close()
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF")
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))


def printed(cli, events, event_id, what, tmp_path):
    path = tmp_path / f"{what}.html"
    result = cli("event", "print", event_id, what, "--format", "html", "--out", path, "--db", events.store.path)
    assert result.exit_code == 0, result.output
    return path


def test_each_printable_prints_on_the_sheets_of_paper_it_promises(night, cli, tmp_path, browser):
    events, event_id = night
    snap = events.snapshot(event_id)
    players = sum(1 for p in snap.players if p.status == "active" and not p.bot)
    tables = len(snap.rounds[-1].tables)
    expected = {
        "seatings": 2,
        "pairings": 2,
        "slips": math.ceil(tables / 3),
        "standings": 1,
        "results": 1,
        "decklists": players,
    }
    pages = {what: pdf_pages(browser, printed(cli, events, event_id, what, tmp_path)) for what in expected}
    assert pages == expected


@pytest.mark.parametrize(("players", "size", "sheets"), [(16, 4, 2), (15, 5, 1), (25, 5, 2)])
def test_three_result_slips_to_a_sheet_of_paper(cli, tmp_path, browser, players, size, sheets):
    """16 players: four tables of four, three slips on the first sheet and one on the second (a slip per
    sheet took four); 15 at tables of five: three slips on one sheet; 25: five slips on two sheets."""
    events = Night(Store(tmp_path / "slips.json"))
    event_id = events.create("Slips", style="physical", seed=4, game_size=size)
    for number in range(players):
        events.add_player(event_id, f"Player {number + 1}")
    events.seat(event_id)
    with events.store.write() as db:  # straight to deck building: the slips need a paired round only
        db.table("events").update({"status": "building"}, doc_ids=[event_id])
    tables = len(events.new_round(event_id, force=True).tables)
    assert pdf_pages(browser, printed(cli, events, event_id, "slips", tmp_path)) == math.ceil(tables / 3) == sheets


def test_the_page_count_check_can_disagree(tmp_path, browser):
    """A planted fault: three forced page breaks make four pages, and the counter says so."""
    page = tmp_path / "planted.html"
    page.write_text(
        "<!DOCTYPE html><html><body>"
        + "".join(f'<p style="break-after:page">sheet {n}</p>' for n in range(3))
        + "<p>last</p></body></html>",
        encoding="utf-8",
    )
    assert pdf_pages(browser, page) == 4


def test_a_sealed_decklist_with_its_long_sideboard_still_takes_one_sheet(cli, tmp_path, browser):
    """Sealed: 120 cards opened, so some 80 go to the sideboard; each player's sheet is still one page."""
    events = Night(Store(tmp_path / "sealed.json"))
    event_id = events.create("Sealed", mode="sealed", style="bots", seed=6)
    for name in ("Ann", "Bo", "Cy"):
        events.add_player(event_id, name)
    events.start_draft(event_id)
    for name in ("Ann", "Bo", "Cy"):
        events.register_deck(event_id, name, auto=True)
        assert len(events.pool(event_id, name)) == 120
    assert pdf_pages(browser, printed(cli, events, event_id, "decklists", tmp_path)) == 3


# A probe the test adds to its own copy of a sheet (the sheet itself has no scripts): the column headings
# whose text the browser laid out on more than one line.
WRAPPED_HEADINGS = """<script>window.addEventListener("load", () => {
  const wrapped = [];
  for (const th of document.querySelectorAll("th")) {
    const range = document.createRange();
    range.selectNodeContents(th);
    const lines = new Set([...range.getClientRects()].map(rect => Math.round(rect.top)));
    if (lines.size > 1) wrapped.push(th.textContent);
  }
  document.body.setAttribute("data-wrapped", wrapped.join("|") || "none");
});</script>"""


@pytest.mark.parametrize("what", ["seatings", "pairings", "slips", "standings", "results", "decklists"])
def test_no_column_heading_is_broken_over_two_lines(night, cli, tmp_path, browser, what):
    """Laid out by a real browser at the printed width (A4 less its margins), a column heading such as
    a slip's 'Seat' fits its column: it is never split into 'Se' / 'at'."""
    events, event_id = night
    sheet = printed(cli, events, event_id, what, tmp_path)
    probe = tmp_path / f"{what}-probe.html"
    probe.write_text(
        sheet.read_text(encoding="utf-8").replace("</body>", WRAPPED_HEADINGS + "</body>"), encoding="utf-8"
    )
    page = browser.new_context(viewport={"width": 1000, "height": 1400}).new_page()
    page.goto(probe.as_uri())  # the probe runs on the load event, which goto waits for
    found = page.locator("body").get_attribute("data-wrapped")
    assert found is not None, "the probe did not run"
    assert found == "none"


def test_seat_code_slips_print_five_to_a_sheet_of_paper(cli, tmp_path, browser):
    """Twelve players' code slips, long names and all: three sheets of paper (one slip a sheet took twelve)."""
    events = Night(Store(tmp_path / "codes.json"))
    event_id = events.create("Codes", style="terminal", seed=3)
    for number in range(12):
        events.add_player(event_id, f"Player number {number + 1} with a long name Wolfeschlegelsteinhausen")
    events.seat(event_id)
    path = tmp_path / "codes.html"
    result = cli(
        "event", "print", event_id, "seatings", "--codes", "--format", "html", "--out", path, "--db", events.store.path
    )
    assert result.exit_code == 0, result.output
    assert pdf_pages(browser, path) == 3
