"""The organizer's printed sheets for a 10-player event on a real database file: text (golden files,
80 columns), one self-contained HTML page (parsed), CSV; and standings by exact fractions."""

from __future__ import annotations

import csv
import io
import re
from fractions import Fraction
from html.parser import HTMLParser

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events.night.schema import number_text
from events.outputs.pairing_sheets import place_boxes
from events.outputs.printables import PRINTABLES
from events.outputs.sheet_writers import text_table
from events.outputs.sheets import Table
from events.outputs.text import cell_width
from events.storage.store import Store
from tests.helpers.night import Night, bots_drafted
from tests.helpers.printed import NAMES, printed_night


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    """The 10-player night every printable is made from (tests/helpers/printed.py)."""
    return printed_night(tmp_path_factory.mktemp("night"))


def run(cli, events, event_id, *args):
    result = cli("event", "print", event_id, *args, "--db", events.store.path)
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("what", PRINTABLES)
def test_text_printables_fit_80_columns_and_match_golden(night, cli, golden, what):
    events, event_id = night
    text = run(cli, events, event_id, what)
    assert all(cell_width(line) <= 80 for page in text.split("\f") for line in page.splitlines())
    assert "Friday <CMR> & co" in text
    golden(f"print-{what}.txt", text)


class Outline(HTMLParser):
    """Tags, attributes and text of a page, to check its structure."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.stack: list[str] = []
        self.sections: list[dict] = []
        self.style = ""

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag not in ("meta", "col"):  # void elements have no end tag
            self.stack.append(tag)
        if tag == "section":
            self.sections.append(
                {
                    "class": attrs.get("class", "").split(),
                    "h2": "",
                    "tables": 0,
                    "rows": [],
                    "captions": [],
                    "row_tables": [],
                    "notes": [],
                }
            )
        if tag == "p" and self.sections and "note" in attrs.get("class", ""):
            self.sections[-1]["notes"].append("")
        if tag == "table" and self.sections:
            self.sections[-1]["tables"] += 1
            self.sections[-1]["captions"].append("")
        if tag == "tr" and self.sections:
            self.sections[-1]["rows"].append([])
            self.sections[-1]["row_tables"].append(self.sections[-1]["tables"] - 1)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1] if self.stack else None}>"
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)
        if self.stack and self.stack[-1] == "style":
            self.style += data
        if self.sections and self.stack and self.stack[-1] == "h2":
            self.sections[-1]["h2"] += data
        if (
            self.sections
            and self.stack
            and self.stack[-1] == "p"
            and self.sections[-1]["notes"]
            and self.tags[-1][0] == "p"
            and "note" in self.tags[-1][1].get("class", "")
        ):
            self.sections[-1]["notes"][-1] += data
        if self.sections and self.stack and self.stack[-1] == "caption":
            self.sections[-1]["captions"][-1] += data
        if self.sections and self.stack and self.stack[-1] in ("td", "th") and self.sections[-1]["rows"]:
            self.sections[-1]["rows"][-1].append(data)


def parse_html(text: str) -> Outline:
    outline = Outline()
    outline.feed(text)
    outline.close()
    assert outline.stack == [], "unclosed tags"
    return outline


@pytest.mark.parametrize("what", PRINTABLES)
def test_html_printables_are_one_self_contained_page(night, cli, what, tmp_path):
    events, event_id = night
    path = tmp_path / f"{what}.html"
    result = cli("event", "print", event_id, what, "--format", "html", "--out", path, "--db", events.store.path)
    assert result.exit_code == 0 and path.exists()
    page = parse_html(path.read_text(encoding="utf-8"))
    tags = [tag for tag, _ in page.tags]
    assert tags[:2] == ["html", "head"] and tags.count("body") == 1 and tags.count("style") == 1
    assert "script" not in tags and "link" not in tags and "img" not in tags and "iframe" not in tags
    assert not any(
        value and ("http:" in value or "https:" in value or value.startswith("//"))
        for _, attrs in page.tags
        for value in attrs.values()
    )
    assert "url(" not in page.style and "@import" not in page.style
    assert "@page" in page.style and "@media print" in page.style
    # The user's text is shown literally: the ampersand and angle brackets are escaped, not markup.
    assert "Friday <CMR> & co" in "".join(page.text)
    assert page.sections, "a page has sections"


def sections_of(night, cli, what):
    events, event_id = night
    return parse_html(run(cli, events, event_id, what, "--format", "html")).sections


def test_html_slips_one_per_table_three_to_a_sheet_with_cut_lines(night, cli):
    events, event_id = night
    tables = events.snapshot(event_id).rounds[-1].tables
    sections = sections_of(night, cli, "slips")
    assert len(sections) == len(tables)
    # A new sheet of paper after every third slip, a cut line between slips on one sheet, nothing after the last.
    expected = [("break" if n % 3 == 0 else "cut") if n < len(tables) else None for n in range(1, len(tables) + 1)]
    assert [
        ("break" if "break" in s["class"] else "cut" if "cut" in s["class"] else None) for s in sections
    ] == expected
    for number, (section, table) in enumerate(zip(sections, tables, strict=True), start=1):
        assert section["h2"].startswith(f"Table {number} · round 3")
        body = section["rows"][1:]
        assert len(body) == len(table)
        # Places 1st to the table's size to tick, for every player.
        assert all(f"{len(table)}th" in "".join(row) or len(table) < 4 for row in body)
    style = parse_html(run(cli, events, event_id, "slips", "--format", "html")).style
    assert "break-after:page" in style and "page-break-after:always" in style and "dashed" in style


def test_html_decklists_one_page_per_player_with_every_card(night, cli):
    events, event_id = night
    sections = sections_of(night, cli, "decklists")
    assert len(sections) == 10 and all("decklist" in s["class"] for s in sections)
    assert sum("break" in s["class"] for s in sections) == 9
    snap = events.snapshot(event_id)
    for section in sections:
        name = section["h2"].split("·", 1)[1].strip()
        player = next(p for p in snap.players if p.name == name)
        deck = events.deck_of(event_id, player.id)
        pool = events.pool(event_id, player.id)
        captions = section["captions"]

        def rows_in(test):
            return [
                row
                for row, t in zip(section["rows"], section["row_tables"], strict=True)
                if test(captions[t]) and row and row[0].isdigit()
            ]

        listed = sum(int(row[0]) for row in rows_in(bool))
        assert listed == sum(deck.main.values()), name
        assert listed + len(deck.commanders) == deck.size == 60  # a Commander draft deck (rules: 60 cards)
        # The sideboard is the rest of the pool: pool cards = deck cards taken from the pool + sideboard.
        note = next(text for text in section["notes"] if text.startswith("Sideboard ("))
        side = sum(int(item.split(" ", 1)[0]) for item in note.split(": ", 1)[1].split(" / ") if item != "none")
        assert note.startswith(f"Sideboard ({side}, the rest of the pool)")
        from collections import Counter

        used = Counter({card.name: n for card, n in deck.main.items()}) + Counter(c.name for c in deck.commanders)
        held = Counter(p.card.name for p in pool)
        from_pool = sum(min(n, held[name]) for name, n in used.items())
        assert side == len(pool) - from_pool, name
        who = section["rows"][1]
        assert who == [player.name, f"#{player.number}", str(player.pod), str(player.seat + 1)]


def test_html_seatings_pods_and_find_your_seat(night, cli):
    events, event_id = night
    sections = sections_of(night, cli, "seatings")
    assert [s["h2"] for s in sections] == ["Draft pods", "Find your seat"]
    assert sections[0]["tables"] == 2
    lookup = [row for row in sections[1]["rows"][1:]]
    assert [row[0] for row in lookup] == sorted((row[0] for row in lookup), key=str.casefold)
    snap = events.snapshot(event_id)
    for name, pod, seat in lookup:
        player = next(p for p in snap.players if p.name == name)
        assert (player.pod, player.seat + 1) == (int(pod), int(seat))


def test_pairings_show_seat_order_and_the_recorded_first_player(night, cli):
    events, event_id = night
    snap = events.snapshot(event_id)
    rnd = snap.rounds[-1]
    names = {p.id: p.name for p in snap.players}
    rows = list(csv.DictReader(io.StringIO(run(cli, events, event_id, "pairings", "--format", "csv"))))
    assert [(int(r["table"]), int(r["seat"]), r["player"]) for r in rows] == [
        (t, s, names[pid]) for t, table in enumerate(rnd.tables, start=1) for s, pid in enumerate(table, start=1)
    ]
    firsts = [r["player"] for r in rows if r["first"] == "1"]
    # One first player a table, the one recorded with the round when it was paired.
    assert firsts == [names[pid] for pid in rnd.first]
    assert all(pid in table for pid, table in zip(rnd.first, rnd.tables, strict=True))
    # Printing again never draws again.
    assert run(cli, events, event_id, "pairings", "--format", "csv") == run(
        cli, events, event_id, "pairings", "--format", "csv"
    )


def test_first_players_are_drawn_from_the_seed_and_spread(tmp_path):
    """The draw is random over seats: across many seeded rounds every seat goes first sometimes."""
    import msgspec

    from events.outputs.pairing_sheets import first_players
    from events.storage.records import Round

    night = Night(Store(tmp_path / "draw.json"))
    event = night.event(night.create("Draw", seed=0))
    table = Round(event=event.id, number=1, tables=[[10, 11, 12, 13]], status="open")
    seats = [0] * 4
    for seed in range(200):
        first = first_players(msgspec.structs.replace(event, seed=seed), table)
        seats[first[0] - 10] += 1
    assert all(count > 20 for count in seats)


def test_results_and_standings_csv(night, cli):
    events, event_id = night
    results = list(csv.DictReader(io.StringIO(run(cli, events, event_id, "results", "--format", "csv"))))
    assert list(results[0]) == ["round", "table", "player", "place", "points", "final"]
    assert len(results) == 20  # two rounds of ten players
    drawn = [r for r in results if r["round"] == "1" and r["table"] == "1"][:2]
    assert [r["place"] for r in drawn] == ["1", "1"] and [r["points"] for r in drawn] == ["2.5", "2.5"]
    standings = list(csv.DictReader(io.StringIO(run(cli, events, event_id, "standings", "--format", "csv"))))
    totals = {}
    for r in results:
        totals[r["player"]] = totals.get(r["player"], Fraction(0)) + Fraction(r["points"])
    assert {r["player"]: Fraction(r["points"]) for r in standings} == totals


def test_csv_only_for_tables_and_unknown_printables(night, cli):
    events, event_id = night
    for args, message in (
        (("slips", "--format", "csv"), "no CSV form"),
        (("menus",), "nothing called 'menus'"),
        (("standings", "--format", "pdf"), "unknown print format"),
    ):
        result = cli("event", "print", event_id, *args, "--db", events.store.path)
        assert result.exit_code == 2 and message in result.stderr and "Traceback" not in result.output


def test_a_round_asked_for_mid_draft_or_after_the_end_names_the_step_not_event_round(cli, tmp_path):
    """Before: pairings, slips and the round clock asked for while the pods drafted said "start one with 'cmdraft
    event round 1'", which is refused until the draft is over; after the end they said it too."""
    from tests.helpers.nights import start, terminal_night

    db = tmp_path / "d.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2)
    start(cli, db, event_id)
    asked = [("print", event_id, "pairings"), ("print", event_id, "slips"), ("clock", event_id)]
    for args in asked:
        result = cli("event", *args, "--db", db)
        assert (
            result.exit_code == 3 and f"'cmdraft event show {event_id}' shows the pods still drafting" in result.stderr
        )
        assert "event round" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    refused = cli("event", "round", event_id, "--db", db)  # (what the old words asked for)
    assert refused.exit_code == 3 and "shows the pods still drafting" in refused.stderr
    finished = Night(Store(tmp_path / "f.json"))
    done = bots_drafted(finished, "Done", NAMES[:4], seed=1)
    finished.finish(done)
    for args in (("print", done, "pairings"), ("clock", done)):
        result = cli("event", *args, "--db", finished.store.path)
        assert result.exit_code == 3 and "the event is finished" in result.stderr and "start one" not in result.stderr


def test_printing_before_the_step_is_out_of_order(cli, tmp_path):
    events = Night(Store(tmp_path / "e.json"))
    event_id = events.create("Early", style="bots", seed=1)
    for name in NAMES[:4]:
        events.add_player(event_id, name)
    for what, message in (
        ("seatings", "seat the players first"),
        ("pairings", "no round has started"),
        ("slips", "no round has started"),
        ("decklists", "decks are registered after the draft"),
    ):
        result = cli("event", "print", event_id, what, "--db", events.store.path)
        assert result.exit_code == 3 and message in result.stderr


# --- standings by exact fractions ----------------------------------------------------------------------------


def planted(tmp_path, names, rounds, orders, points="0.3,0.2,0.1"):
    """An event whose rounds and results are written straight into a real database file."""
    events = Night(Store(tmp_path / "planted.json"))
    event_id = events.create("Planted", style="bots", seed=1, game_size=3, points=points)
    for name in names:
        events.add_player(event_id, name)
    with events.store.write() as db:
        db.table("events").update({"status": "playing"}, doc_ids=[event_id])
        for number, tables in enumerate(rounds, start=1):
            db.table("rounds").insert({"event": event_id, "number": number, "tables": tables, "status": "closed"})
        for (number, table), order in orders.items():
            db.table("results").insert(
                {"event": event_id, "round": number, "table": table, "order": [[p] for p in order]}
            )
    return events, event_id


def test_standings_compare_exact_fractions_and_exact_ties_share_a_rank(tmp_path):
    # Points 0.3/0.2/0.1, worked out by hand.  Totals: P1 0.5, P2 0.2, P3 0.4, P4 0.5, Zed 0.4, Ada 0.4;
    # per round: P1 0.25, P2 0.1, P3 0.2, P4 0.25, Zed 0.2, Ada 0.2.  Opponents' averages:
    # P1 (Ada, P3, Zed, P3) 0.2; P4 (Zed, P2, P2, Ada) 0.15; P3 (P1, Ada, Zed, P1) 0.225;
    # Zed (P4, P2, P3, P1) 0.2; Ada (P1, P3, P2, P4) 0.2; P2 (P4, Zed, Ada, P4) 0.225.
    # Zed places 2, 2 and Ada 3, 1: both average 2.  Zed and Ada are equal on points and both
    # tie-breakers, so they share rank 4 and are listed by name (Ada first), although their float
    # sums differ (0.2 against 0.19999999999999998).
    names = ["P1", "P2", "P3", "P4", "Zed", "Ada"]
    rounds = [[[6, 1, 3], [4, 5, 2]], [[5, 3, 1], [2, 6, 4]]]
    orders = {(1, 1): [3, 1, 6], (1, 2): [4, 5, 2], (2, 1): [1, 5, 3], (2, 2): [6, 4, 2]}
    events, event_id = planted(tmp_path, names, rounds, orders)
    rows = events.standings(event_id)
    assert [(row.rank, row.name) for row in rows] == [
        (1, "P1"),
        (2, "P4"),
        (3, "P3"),
        (4, "Ada"),
        (4, "Zed"),
        (6, "P2"),
    ]
    by_name = {row.name: row for row in rows}
    assert by_name["Zed"].points == by_name["Ada"].points == Fraction(2, 5)
    assert by_name["Zed"].opponents_average == by_name["Ada"].opponents_average == Fraction(1, 5)
    assert by_name["P3"].opponents_average == Fraction(9, 40) and by_name["P4"].opponents_average == Fraction(3, 20)
    assert by_name["Zed"].average_place == by_name["Ada"].average_place == 2


def test_ranks_skip_after_a_shared_rank_and_tie_breakers_apply_in_order(tmp_path):
    # One table of three, a draw for first: A = B > C with 3,2,1 points.  A and B: 2.5 each, the
    # same opponents' average ((2.5 + 1) / 2) and place 1: rank 1 both; C: rank 3.
    events, event_id = planted(tmp_path, ["B", "A", "C"], [[[1, 2, 3]]], {}, points="3,2,1")
    with events.store.write() as db:
        db.table("results").insert({"event": event_id, "round": 1, "table": 1, "order": [[1, 2], [3]]})
    rows = events.standings(event_id)
    assert [(r.rank, r.name, r.points, r.opponents_average, r.average_place) for r in rows] == [
        (1, "A", Fraction(5, 2), Fraction(7, 4), 1),
        (1, "B", Fraction(5, 2), Fraction(7, 4), 1),
        (3, "C", 1, Fraction(5, 2), 3),
    ]


def test_both_tie_breakers_are_a_dash_before_play_on_paper_and_screen(tmp_path, cli):
    events, event_id = planted(tmp_path, ["A", "B", "C", "Late"], [[[1, 2, 3]]], {(1, 1): [1, 2, 3]})
    rows = {row.name: row for row in events.standings(event_id)}
    assert rows["Late"].average_place is None and rows["Late"].rounds == 0
    out = cli("event", "print", event_id, "standings", "--db", events.store.path).stdout
    late = next(line for line in out.splitlines() if "Late" in line)
    assert late.split() == ["4th", "Late", "0", "–", "–", "0"]  # a dash, never an opponents' average of "0.00"
    screen = cli("event", "standings", event_id, "--db", events.store.path).stdout
    assert [cell.strip() for cell in next(line for line in screen.splitlines() if "Late" in line).split("│")[4:6]] == [
        "–",
        "–",
    ]
    assert "0.333333" not in screen and "Tie-breaker 1" in screen and "Avg place" in screen


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (Fraction(1, 3), "0.33"),
        (Fraction(2, 3), "0.67"),
        (Fraction(5, 2), "2.5"),
        (3, "3"),
        (Fraction(-1, 8), "-0.12"),
        (None, ""),
        (Fraction(7, 4), "1.75"),
    ],
)
def test_numbers_for_people_never_show_long_decimals(value, shown):
    assert number_text(value) == shown


# --- any name fits and is shown literally --------------------------------------------------------------------------


NAME_TEXT = st.text(
    alphabet=st.sampled_from(list("Ab [/]\\<>&\"'=,é") + ["\x1b", "\x07", "\u200f", "李", "ｗ", "\u0301", "😀"]),
    min_size=1,
    max_size=80,
)


@given(names=st.lists(NAME_TEXT, min_size=1, max_size=6), title=NAME_TEXT)
def test_any_names_fit_80_columns_and_html_shows_them_literally(names, title):
    from events.outputs.sheet_writers import to_html, to_text
    from events.outputs.sheets import Note, Page, Sheet, Table
    from sets.visible import visible

    table = Table(
        ("Rank", "Player", "Points", "Opp. avg", "Avg place", "Rounds"),
        tuple((str(i), name, "2.5", "1.25", "", "3") for i, name in enumerate(names, start=1)),
        right=(0, 2, 3, 4, 5),
    )
    sheet = Sheet("standings", title, "subtitle", (Page(title, (table, Note(names[0]))), Page("two", (Note(title),))))
    text = to_text(sheet)
    for line in text.replace("\f", "\n").splitlines():
        assert cell_width(line) <= 80
        assert not any(ch in line for ch in "\x1b\x07\u200f")  # control characters are shown as escapes
    page = parse_html(to_html(sheet))
    cells = [cell for section in page.sections for row in section["rows"] for cell in row]
    for name in names:
        assert visible(name) in "".join(cells)
    assert "".join(page.text).count(visible(title)) >= 3


def test_tables_one_under_another_share_their_column_widths(night, cli):
    """Pairings: every table's columns start at the same place (text) and have the same widths (HTML)."""
    events, event_id = night
    text = run(cli, events, event_id, "pairings")
    rules = [
        line
        for line, above in zip(text.splitlines()[1:], text.splitlines(), strict=False)
        if above.startswith("Table  Seat") and set(line) <= {"-", " "}
    ]
    assert len(rules) == len(events.snapshot(event_id).rounds[-1].tables) and len(set(rules)) == 1
    page = run(cli, events, event_id, "pairings", "--format", "html")
    groups = re.findall(r"<caption>Table \d+</caption>\n(<colgroup>.*?</colgroup>)", page)
    assert len(groups) == len(rules) and len(set(groups)) == 1
    # The check can disagree: tables of different content measured alone have different widths.
    from events.outputs.sheet_writers import text_table
    from events.outputs.sheets import Table

    short, wide = Table(("Seat", "Player"), (("1", "Al"),)), Table(("Seat", "Player"), (("1", "Bartholomew"),))
    assert text_table(short)[1] != text_table(wide)[1]


def test_decklists_keep_names_as_typed_and_carry_the_event_on_every_sheet(night, cli):
    events, event_id = night
    text = run(cli, events, event_id, "decklists")
    assert "DECKLIST · Ann" in text and "DECKLIST · 李小龍 [/b]" in text and "DECKLIST · ANN" not in text
    assert all(page.startswith("Friday <CMR> & co") for page in text.split("\f"))
    page = run(cli, events, event_id, "decklists", "--format", "html")
    sections = page.split("<section")[1:]
    assert len(sections) == 10
    # The first sheet has the page header; every later one names the event itself.
    assert all('<p class="event">Friday &lt;CMR&gt; &amp; co · 2026-01-16' in s for s in sections[1:])


def test_text_slips_have_cut_lines_and_a_form_feed_per_sheet_of_paper(tmp_path, cli):
    from events.outputs.sheet_writers import CUT_LINE

    events = Night(Store(tmp_path / "slips.json"))
    event_id = events.create("Slips", style="physical", seed=4)
    for number in range(16):
        events.add_player(event_id, f"P{number + 1}")
    events.seat(event_id)
    with events.store.write() as db:
        db.table("events").update({"status": "building"}, doc_ids=[event_id])
    events.new_round(event_id, force=True)
    text = run(cli, events, event_id, "slips")
    sheets = text.split("\f")
    assert [sheet.count("RESULT SLIP") for sheet in sheets] == [3, 1]
    assert [sheet.count(CUT_LINE) for sheet in sheets] == [2, 0]
    assert all(cell_width(line) <= 80 for line in text.splitlines())


@pytest.mark.parametrize("what", PRINTABLES)
def test_a_table_heading_is_part_of_its_table_so_no_page_end_leaves_it_alone(night, cli, what):
    """Headings of tables (a round of results, a table of pairings, a card type) are the table's caption,
    which a browser never separates from the table; page titles may not end a page either."""
    events, event_id = night
    page = run(cli, events, event_id, what, "--format", "html")
    assert "<h3>" not in page
    assert page.count("<caption>") == page.count("<table>\n<caption>")
    style = parse_html(page).style
    assert "h2{" in style and "break-after:avoid" in style.split("h2{", 1)[1].split("}", 1)[0]
    if what == "results":
        assert [f"<caption>Round {n} (" in page for n in (1, 2, 3)] == [True, True, False]  # round 3: no result yet


FORMULA_NAMES = ["=SUM(A1)", "+1 Cy", "-Di", "@Ed", "Ann"]


def test_csv_cells_a_spreadsheet_would_run_as_formulas_are_written_as_text(tmp_path, cli):
    """A name typed at the desk (``=SUM(A1)``, ``@Ed``) reaches a spreadsheet as the text it is: every CSV
    the desk writes (printed or exported) starts such a cell with an apostrophe; numbers stay numbers."""
    events = Night(Store(tmp_path / "event.json"))
    event_id = bots_drafted(events, "=HYPERLINK(1)", FORMULA_NAMES, seed=3)
    rnd = events.new_round(event_id)
    for table, names in enumerate(rnd.tables, start=1):
        events.record_result(event_id, 1, table, " > ".join(f'"{n}"' for n in names))
    texts = [run(cli, events, event_id, what, "--format", "csv") for what in ("pairings", "standings", "results")]
    out = tmp_path / "export"
    assert cli("event", "export", event_id, "--out", out, "--db", events.store.path).exit_code == 0
    texts += [path.read_text(encoding="utf-8") for path in sorted(out.glob("*.csv"))]
    assert len(texts) >= 6  # three printed, and the export's standings, results, pairings, history
    cells = [cell for text in texts for row in csv.reader(io.StringIO(text)) for cell in row]
    risky = [
        cell
        for cell in cells
        if cell[:1] in ("=", "+", "-", "@", "\t", "\r") and not re.fullmatch(r"[+-]?\d+(\.\d+)?", cell)
    ]
    assert risky == []
    for name in FORMULA_NAMES[:4]:
        assert "'" + name in cells
    standings = list(csv.DictReader(io.StringIO(texts[1])))
    assert sum(Fraction(row["points"]) for row in standings) == sum(
        events.snapshot(event_id).event.points[: len(FORMULA_NAMES)]
    )


def test_a_result_slips_place_boxes_wrap_between_boxes_never_inside_one():
    """A long name beside them leaves the places narrow (a 5-player table): each "[ ]4th" stays whole on its line."""
    row = ("1", "<script>alert('x')</script> \"Q\" *", place_boxes(5), "_" * 16)
    lines = text_table(Table(("Seat", "Player", "Place (tick one)", "Signature"), (row,), right=(0,)))
    assert len(lines) > 3  # the places wrapped
    assert re.findall(r"\[\s\](\d\w\w)", "\n".join(lines)) == ["1st", "2nd", "3rd", "4th", "5th"]
