"""The one text policy every face uses (``sets.visible``, ``events.outputs.text``): what is written out, how wide text is,
how a width is shared among columns; and that the terminal's tables and the printed ones use it."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events.outputs.text import cell_width, cut, fit_columns
from sets.visible import QUOTES, quoted, visible


@pytest.mark.parametrize(
    ("text", "width"),
    [("Sol Ring", 8), ("李", 2), ("ｗｗ", 4), ("e\u0301", 1), ("😀", 2), ("", 0), ("Ann\x1b", 7)],  # \x1b: "\x1b"
)
def test_display_width_counts_wide_letters_twice_and_marks_as_nothing(text, width):
    assert cell_width(text) == width


def test_a_cut_never_splits_past_the_width_and_keeps_every_character():
    head, rest = cut("李李李", 5)
    assert (head, rest) == ("李李", "李") and cell_width(head) <= 5
    assert cut("abc", 0) == ("a", "bc")  # at least one character goes, or wrapping would never end


@pytest.mark.slow
@given(st.text(max_size=30))
def test_visible_text_holds_no_hidden_character_and_keeps_the_rest(text):
    shown = visible(text)
    assert not any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in shown)
    kept = [ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp")]
    assert all(ch in shown for ch in kept)
    assert visible(shown) == shown  # writing out twice changes nothing


@given(
    st.lists(st.tuples(st.integers(1, 40), st.integers(1, 10)), min_size=1, max_size=6),
    st.integers(0, 150),
)
def test_columns_share_the_room_levelling_the_widest_down(columns, room):
    natural = [n for n, _ in columns]
    least = [min(n, m) for n, m in columns]
    widths = fit_columns(natural, least, room)
    assert all(m <= w <= n for w, n, m in zip(widths, natural, least, strict=True))
    if sum(least) <= room:
        assert sum(widths) <= room
        assert sum(widths) == min(room, sum(natural))  # no cell wasted
    # no column is more than a cell wider than one that gave way above its least: the widest go first
    gave_way = [w for w, m, n in zip(widths, least, natural, strict=True) if m < w < n]
    could = [w for w, m in zip(widths, least, strict=True) if w > m]
    assert all(w <= min(gave_way) + 1 for w in could) if gave_way else True


def test_the_terminal_and_paper_tables_share_their_width_the_same_way():
    """A planted case both faces meet: two wrapping columns too wide for the line. On paper and on the screen
    the columns come out the same widths, the ones ``fit_columns`` gives."""
    from rich.console import Console

    from events.outputs.sheet_writers import text_table
    from events.outputs.sheets import Table
    from events.screens.render import fit_table

    long_a, long_b = "a" * 50, "b" * 40
    paper = text_table(Table(("Left", "Right"), ((long_a, long_b),), right=()), width=60)
    expected = fit_columns([50, 40], [4, 5], 60 - 2)
    assert paper[0].startswith("Left" + " " * (expected[0] - 4) + "  Right")
    assert paper[2] == "a" * expected[0] + "  " + "b" * expected[1]
    console = Console(width=60, file=None, record=True)
    table = fit_table(["Left", "Right"], [[long_a, long_b]], essential=set(), width=60, plain=True)
    with console.capture() as capture:
        console.print(table)
    lines = capture.get().splitlines()
    screen = fit_columns([50, 40], [6, 6], 60 - 2)
    assert any(line.strip().startswith("a" * screen[0] + "  " + "b" * screen[1]) for line in lines), lines


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Ann", "'Ann'"),  # the usual quotes
        ("O'Neil", '"O\'Neil"'),  # a name with an apostrophe: the other quotes
        ('Bob "The Piper" O\'Neil', '\u201cBob "The Piper" O\'Neil\u201d'),  # both: typographic quotes, no backslash
        ('Ann \u201cAce\u201d O\'Neil "Bo"', '\u2018Ann \u201cAce\u201d O\'Neil "Bo"\u2019'),
        ("Ann\x1b[31m", "'Ann\\x1b[31m'"),  # a control character written out, as everywhere
    ],
)
def test_a_quoted_name_reads_as_typed_between_quotes_it_does_not_hold(text, shown):
    assert quoted(text) == shown


@given(st.text(max_size=20))
def test_a_quoted_text_is_the_visible_text_between_two_marks_found_nowhere_inside(text):
    shown = quoted(text)
    inner = shown[1:-1]
    if inner == visible(text):  # one of the pairs fits: where the text ends is plain
        opening, closing = next(pair for pair in QUOTES if pair == (shown[0], shown[-1]))
        assert opening not in inner and closing not in inner
    else:  # the text holds every quote: only its single quotes get a backslash
        assert shown[0] == shown[-1] == "'" and inner == visible(text).replace("'", "\\'")


def test_the_console_writes_out_control_characters_inside_text_objects_and_table_cells_too():
    """Not only plain strings: a ``Text`` built around a name (``Text(f"no image for {name}")``, a styled cell)
    reaches the terminal with its escape sequences written out, and rich's own styles still work."""
    import io

    from rich.table import Table
    from rich.text import Text

    from events.screens.render import SafeConsole

    sink = io.StringIO()
    shown = SafeConsole(file=sink, force_terminal=True, color_system="standard", width=80, markup=False)
    table = Table("Card name, a wide column")  # (a Text cell is measured before it is written out)
    table.add_row(Text("Evil\x1b[2J", style="bold"))
    shown.print(Text("missing: Bad\x1b]0;title Card\u202e"), table)
    out = sink.getvalue()
    assert "Bad\\x1b]0;title Card\\u202e" in out and "Evil\\x1b[2J" in out
    assert "\x1b[2J" not in out and "\x1b]0" not in out and "\u202e" not in out
    assert "\x1b[1m" in out  # the cell's bold: rich's own code, kept
