"""The practice app by keyboard alone (Textual's Pilot): q leaves from every panel over the table, the builder and
the review, as the footer and the help say, and every panel's own line of keys says so; Esc still only closes.
The review says whose cards are rated more ('hint', 'you') where it showed a bare '-0.4' under "how much more the
hint's pair is rated"."""

from __future__ import annotations

import re

import pytest

from draft.advice import ReviewRow, review
from draft.traits import card_rating
from events.screens.review import rated_higher, rated_sentence
from sets.catalog import load_set
from tests.helpers.practice import drafted, practice_app, screen_text, session_at, settle

TABLE_PANELS = ["question_mark", "i", "p", "h", "s"]
# (keys, where q is said): a panel's border, the goldfish's line of keys, the review's footer
BUILDER_PANELS = [
    (("question_mark",), "q: quit"),
    (("f", "n"), "q quit"),
    (("r",), "q Quit"),
    (("r", "tab", "enter"), "q: quit"),
]


@pytest.mark.parametrize("key", TABLE_PANELS)
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_q_leaves_from_a_panel_over_the_draft_table(tmp_path, key, size):
    async with practice_app(session_at(tmp_path / "db.json")).run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press(key)
        await pilot.pause()
        assert type(pilot.app.screen).__name__ == "Panel"
        assert "q: quit" in screen_text(pilot.app)  # the panel's own keys, on its border
        await pilot.press("q")
        await pilot.pause()
        assert pilot.app.return_code == 0  # the app has ended, as 'q Quit' in the footer says


@pytest.mark.parametrize(("keys", "said"), BUILDER_PANELS)
async def test_q_leaves_from_the_builders_panels_the_goldfish_and_the_review(tmp_path, keys, said):
    async with practice_app(drafted(tmp_path / "db.json")).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(*keys)
        await settle(pilot)
        assert type(pilot.app.screen).__name__ != "BuilderScreen"
        assert said in " ".join(screen_text(pilot.app).split())
        await pilot.press("q")
        await pilot.pause()
        assert pilot.app.return_code == 0


async def test_escape_still_only_closes_a_panel(tmp_path):
    async with practice_app(session_at(tmp_path / "db.json")).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("i", "escape")
        await pilot.pause()
        assert type(pilot.app.screen).__name__ == "TableScreen" and pilot.app.return_code is None


# --- the review's "whose cards are rated more", never a bare negative number ------------------------------------


def greedy_draft(db):
    """A draft whose seat always takes the two highest-rated cards, colors or not: some picks out-rate the hint's."""
    session = session_at(db, seed=5, players=4)
    while not session.draft.finished:
        pack = session.draft.pack(0)
        due = len(session.suggested_positions(0))
        best = sorted(range(len(pack)), key=lambda i: -card_rating(pack[i].card))[:due]
        session.pick(session.choose(0, best))
    return session


def test_whose_cards_are_rated_more_reads_right_either_way():
    card = load_set("CMR").cards
    a, b, c = card[0], card[1], card[2]
    row = ReviewRow(1, 1, (a, b), (a, c), -0.44, ())
    assert (rated_higher(row), rated_higher(row, short=True)) == ("you +0.4", "you")
    assert rated_sentence(row).startswith("your cards are rated 0.4 higher")
    assert rated_higher(ReviewRow(1, 2, (a, b), (a, c), 1.25, ())) == "hint +1.2"
    assert rated_sentence(ReviewRow(1, 2, (a, b), (a, c), 1.25, ())) == "the hint's cards are rated 1.2 higher"
    assert rated_higher(ReviewRow(1, 3, (a, b), (b, a), 0.0, ())) == "same"
    assert rated_higher(ReviewRow(1, 4, (a, b), (a, c), 0.01, ())) == "even"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_review_says_whose_cards_are_rated_more_and_every_column_stays_on_screen(tmp_path, size):
    session = greedy_draft(tmp_path / "db.json")
    rows = review(session.draft, 0, session.pipers)
    yours = next(index for index, row in enumerate(rows) if row.difference <= -0.05)
    async with practice_app(session).run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        for _ in range(yours):
            await pilot.press("j")
        await pilot.pause()
        text = screen_text(pilot.app)
        header = next(line for line in text.splitlines() if "You took" in line)
        assert header.rstrip().endswith("W")  # the last column's header on screen, nothing scrolled off
        row = rows[yours]
        assert f"P{row.pack}p{row.pick}: you took" in text
        said = " ".join(text.split())
        assert f"your cards are rated {abs(row.difference):.1f} higher" in said
        assert not re.search(r"\s-\d\.\d", text)  # no bare negative figure left to puzzle over


# --- the line of keys: composed again only when the keys it shows change -----------------------------------------


async def test_the_key_bar_follows_a_change_of_keys_and_stays_as_it_was_when_focus_moves():
    """Textual's footer mounts its keys anew on every focus move; the app's ``KeyBar`` only when they change."""
    from textual.app import App
    from textual.binding import Binding
    from textual.reactive import reactive
    from textual.widgets import Input

    from events.screens.app.foot import KeyBar

    class Keys(App):
        BINDINGS = [Binding("f2", "export", "Export"), Binding("ctrl+q", "quit", "Quit")]
        ENABLE_COMMAND_PALETTE = False
        can_export = reactive(True, bindings=True)

        def compose(self):
            yield Input(id="one")
            yield Input(id="two")
            yield KeyBar()

        def check_action(self, action, parameters):
            return self.can_export if action == "export" else True

    app = Keys()
    async with app.run_test(size=(80, 8)) as pilot:
        await settle(pilot)
        bar = app.query_one(KeyBar)
        keys = list(bar.children)
        assert "f2 Export" in screen_text(app) and "^q Quit" in screen_text(app)
        await pilot.press("tab")  # the focus moves, the keys stay: the same widgets show them
        await settle(pilot)
        assert app.focused is app.query_one("#two") and list(bar.children) == keys
        app.can_export = False  # a key goes away: the bar says so
        await settle(pilot)
        assert "Export" not in screen_text(app) and "^q Quit" in screen_text(app)


async def test_the_typed_line_shows_its_end_as_it_grows_and_never_lays_the_screen_out_again(tmp_path):
    """The builder's command line at 80 columns: a line longer than the screen scrolls to show its end, as
    Textual's Input does, and no letter typed lays the whole screen out again (the app's ``TypedLine``)."""
    async with practice_app(drafted(tmp_path / "db.json")).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        line = "add " + " ".join(str(number) for number in range(1, 30))  # 82 characters
        await pilot.press("colon")
        screen = pilot.app.screen
        screen.query_one("#command").insert_text_at_cursor(line[:-8])  # most of it at once, the rest typed
        await pilot.pause()
        layouts = []
        lay_out = screen._refresh_layout
        screen._refresh_layout = lambda *args, **options: (layouts.append(args), lay_out(*args, **options))[1]
        await pilot.press(*[{" ": "space"}.get(ch, ch) for ch in line[-8:]])
        await pilot.pause()
        assert screen.query_one("#command").value == line and not layouts
        assert line[-30:] in screen_text(pilot.app).splitlines()[-2]  # the end, where the cursor is


async def test_the_tables_help_names_what_the_app_takes_not_the_line_prompts_commands(tmp_path):
    """The help once ended with the line prompt's commands ('pool', 'hint', 'more', 'list' ...), which the app's
    typed line reads as card names; it names the app's keys, the pick's language and reading a card, and those work."""
    async with practice_app(session_at(tmp_path / "db.json")).run_test(size=(120, 60)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        said = " ".join(screen_text(pilot.app).split())
        assert "Commands:" not in said and "more or Enter" not in said and "list (the pack again)" not in said
        assert "p your pool so far" in said and "Read a card: ? N, show N or card NAME" in said
        await pilot.press("escape", "slash", *"show", "space", "1", "enter")  # as the help says: a card in full
        await pilot.pause()
        assert type(pilot.app.screen).__name__ == "Panel" and "Card" in screen_text(pilot.app)
