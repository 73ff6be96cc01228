"""The deck builder app says its words whole at 80x24: a refusal longer than the log's two lines opens whole in a
panel (the log showed its last two lines: the rule's number and "the commanders are unchanged", never which cards
were refused nor why), and the goldfish's turns are laid out in the room its scroll bar leaves."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from draft import deck_actions as act
from sets.errors import InputError
from tests.helpers.practice import drafted, practice_app, screen_text, settle, type_command


def folded(text: str) -> str:
    """The screen's words on one line: a panel's borders and the lines it wraps at, gone."""
    return " ".join(" ".join(line.strip(" │╭╮╰╯─").split()) for line in text.splitlines())


def panel_text(panel) -> str:
    console = Console(width=400, file=io.StringIO(), record=True)
    for static in panel.query("Static"):
        console.print(static.content)
    return " ".join(console.export_text().split())


async def test_a_long_refusal_opens_whole_in_a_panel_and_a_short_one_stays_in_the_log(tmp_path):
    session = drafted(tmp_path / "db.json")
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        ui = screen.session
        legends = [c for c in ui.pool_list if c.can_be_commander and not c.has_partner and not c.chooses_color]
        first, second = legends[0], legends[1]
        try:
            ui.apply(act.ChooseCommanders((first, second)))
        except InputError as error:
            said = " ".join(str(error).split())
        assert len(said) > 2 * 80  # more than the log's two lines hold
        await type_command(pilot, f"commander {first.name} + {second.name}")
        panel = pilot.app.screen
        assert type(panel).__name__ == "Panel", screen_text(pilot.app)
        assert said in panel_text(panel)  # whole: which cards, why, and what to do
        assert first.name in folded(screen_text(pilot.app))
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is screen and screen.focused is screen.query_one("#pool")
        await type_command(pilot, "add 999")  # a short refusal: the log's lines hold it
        assert pilot.app.screen is screen and "999" in screen_text(pilot.app)


@pytest.mark.parametrize("size", [(80, 24), (101, 30), (200, 50)])
async def test_the_goldfish_lays_its_turns_out_in_the_room_left_beside_its_scroll_bar(tmp_path, size):
    """At 80x24 six turns scroll, and the scroll bar took the table's last two columns: 'Rograkh, So' then
    'of Rohgahh' on the next line, its 'n' gone."""
    async with practice_app(drafted(tmp_path / "db.json")).run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("f", "n", "T")
        await pilot.pause()
        fish = pilot.app.screen
        assert type(fish).__name__ == "GoldfishScreen"
        assert size[1] > 24 or fish.query_one("VerticalScroll").max_scroll_y > 0  # it scrolls: the bar is there
        shown_width = fish.query_one("#fish").content_region.width
        assert 0 < fish.width() <= shown_width
        assert "Esc: close · q: quit" in screen_text(pilot.app)  # its keys on the border, never scrolled away


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
async def test_the_builder_opens_with_the_best_commanders_whole_in_its_log_never_a_tables_tail(tmp_path, size):
    """The log's two lines held the end of the commander table ('    The Prismatic Piper', a row's second line) and
    the line prompt's "'auto' gives you a ready-made deck", a command the keys call f."""
    session = drafted(tmp_path / "db.json")
    async with practice_app(session).run_test(size=size) as pilot:
        await pilot.pause()
        ui = pilot.app.screen.session
        best = ui.suggestions(1)[0]
        log = " ".join(line.strip() for line in screen_text(pilot.app).splitlines()[-4:-2])
        assert " + ".join(best.commanders) + f" ({best.identity.code})" in log, log
        assert "'auto'" not in log


async def test_a_terminal_grown_wide_shows_the_builders_first_advice_as_one_whole_line_beside_the_keys(
    tmp_path, monkeypatch
):
    """The log wrapped its words at the width the terminal had when the app started (RichLog measures a line on the
    app's console, sized once): a terminal of 80 columns made 120 wide wrapped the best commanders' line in two and
    the keys' line made a third, so the log's two lines showed "ranks more." and the keys, never which commanders."""
    monkeypatch.setenv("COLUMNS", "80")  # the terminal's width when the app's console was made
    session = drafted(tmp_path / "db.json", seed=3, players=8)
    async with practice_app(session).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        best = pilot.app.screen.session.suggestions(1)[0]
        first = f"Best commanders for this pool: {' + '.join(best.commanders)} ({best.identity.code})"
        first += "; ': suggest' ranks more."
        assert 80 < len(first) <= 118  # longer than the 80 columns it was wrapped at, shorter than this log
        log = [line.rstrip(" ▁▂▃▄▅▆▇█") for line in screen_text(pilot.app).splitlines()[-4:-2]]
        assert log == [first, "c on a card makes it your commander, f finishes the deck, ? lists every key."]


def test_finishing_a_deck_whose_colors_hold_few_spells_says_it_is_mostly_lands():
    """'f' on a mono-red commander with a handful of red cards built 46 Mountains and 49 lands, said "legal", and
    no figure nor line said anything was amiss: the figures and the answer now say how many lands and spells."""
    from draft.deck_session import DeckSession
    from draft.sim import piper_card
    from events.screens.builder import answer_lines
    from events.screens.deck_tables import stats_lines
    from sets.catalog import load_set

    cards = load_set("CMR").cards
    leader = next(c for c in cards if c.name == "Rograkh, Son of Rohgahh")
    red = [c for c in cards if c.deck_colors.code == "R" and not c.is_land and not c.can_be_commander][:8]
    blue = [c for c in cards if c.deck_colors.code == "U" and not c.is_land][:50]
    session = DeckSession([leader, *red, *blue], piper=piper_card("CMR"), name="t", save=lambda *a: None)
    session.apply(act.ChooseCommanders((leader,)))
    done = session.apply(act.Complete())
    lands = sum(n for c, n in session.deck().main.items() if c.is_land)
    assert lands > 28  # more than any deck plays (the bots' play 22-26)
    said = " ".join(str(line) for line in stats_lines(session.stats()))
    assert f"{lands} lands" in said and "8 spells" in said
    assert session.stats().lands_warning in session.stats().cautions  # what the phone's deck says too

    class Place:
        session = None
        registers = False

    Place.session = session
    answer = " ".join(str(line) for line in answer_lines(done, Place(), 80))
    assert f"{lands} lands" in answer


def test_a_color_short_of_sources_counts_one_symbol_as_one_symbol():
    from draft.deckstats import source_warnings
    from sets.colors import Color, ColorIdentity

    blue = Color("U")
    said = source_warnings({blue: 0}, {blue: 1}, ColorIdentity.parse("U"), 0, {blue: 10})
    assert said == ["blue 0 (1 U symbol to cast: 10 wanted)"]  # it said '1 U symbols'


async def test_the_builders_cursor_rests_on_cards_never_on_a_group_heading(tmp_path):
    """The pool list opened with its cursor on 'Creature (26)': c said "Highlight a pool card to make it your
    commander" and Enter, a and i did nothing; j, k and the arrows stopped on every group's heading too."""
    async with practice_app(drafted(tmp_path / "db.json")).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert screen.row_card("pool")[0] is not None
        seen = set()
        for key in ["j"] * 45 + ["k"] * 45 + ["down"] * 12 + ["up"] * 12:
            await pilot.press(key)
            await pilot.pause()
            card, row_key = screen.row_card("pool")
            assert card is not None, (key, row_key)
            seen.add(card)
        assert len(seen) > 30  # it went through several groups
        await pilot.press("f", "tab")
        await pilot.pause()
        for key in ["j"] * 30 + ["k"] * 30:
            await pilot.press(key)
            await pilot.pause()
            assert screen.row_card("deck")[0] is not None, key


async def test_after_an_answer_shown_in_a_panel_the_log_says_so_never_a_tables_last_rows(tmp_path):
    """': show pool' opened whole in a panel, and closing it left the log holding the table's last two rows
    ('22   Coronation of Chaos   R   3   0   4'), read as if something had just happened to those cards."""
    async with practice_app(drafted(tmp_path / "db.json")).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        last = screen.session.pool_list[-1]
        await type_command(pilot, "show pool")
        assert type(pilot.app.screen).__name__ == "Panel"
        await pilot.press("escape")
        await pilot.pause()
        log = " ".join(line.strip() for line in screen_text(pilot.app).splitlines()[-4:-2])
        assert last.name not in log and ": show pool: shown whole in a panel" in log, log


async def test_the_draft_table_is_laid_out_again_when_the_terminal_is_resized_keeping_the_marks(tmp_path):
    """Made 130 columns wide mid-pick, the pack kept its 80-column list (costs '2W', types 'Creature') beside a wide
    empty gap until the next pick; now it takes the room at once, the marks and the cursor kept."""
    from tests.helpers.practice import session_at

    async with practice_app(session_at(tmp_path / "db.json")).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        await pilot.press("space", "j", "j")
        await pilot.pause()
        card = screen.seat.pack[0].card
        assert card.mana_cost not in screen_text(pilot.app)  # '{2}{W}' is written '2W' on 80 columns
        await pilot.resize_terminal(130, 40)
        await settle(pilot, lambda: card.mana_cost in screen_text(pilot.app))
        text = screen_text(pilot.app)
        assert card.mana_cost in text and card.type_line in text, text
        assert screen.seat.marked == [0] and "●" in text and screen.query_one("#pack").cursor_row == 2


async def test_the_builder_takes_the_wide_lists_when_the_terminal_grows_and_the_narrow_ones_back(tmp_path):
    async with practice_app(drafted(tmp_path / "db.json")).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        await pilot.press("f", "j", "j")
        await pilot.pause()
        row = screen.query_one("#pool").cursor_row
        pool = screen.query_one("#pool")
        assert len(pool.columns) == 2
        await pilot.resize_terminal(140, 40)
        await settle(pilot, lambda: len(pool.columns) == 5)
        assert len(pool.columns) == 5 and pool.cursor_row == row  # #, Card, Cost, Id, In
        assert "Cost" in screen_text(pilot.app)
        await pilot.resize_terminal(80, 24)
        await settle(pilot, lambda: len(pool.columns) == 2)
        assert len(pool.columns) == 2 and pool.cursor_row == row and screen.row_card("pool")[0] is not None


async def test_marks_for_the_bottom_go_with_the_refusal_when_the_hand_owes_none(tmp_path):
    """Before a mulligan '1' then 'b' was refused ("nothing to put on the bottom") and "Marked for the bottom: 1"
    stayed on screen as if card 1 were on its way: a mark nothing can use is refused at once, in the core's words;
    after a mulligan a mark stays through a refusal that it can still serve (one card owed, two marked)."""
    async with practice_app(drafted(tmp_path / "db.json")).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f", "n", "1", "b")
        await pilot.pause()
        text = folded(screen_text(pilot.app))
        assert "nothing to put on the bottom" in text and "Marked for the bottom" not in text
        await pilot.press("m", "m", "1", "2", "b")  # one owed, two marked: refused, the marks kept to change
        await pilot.pause()
        text = folded(screen_text(pilot.app))
        assert "put exactly 1 card on the bottom, not 2" in text and "Marked for the bottom: 1 2" in text
        await pilot.press("2", "b")
        await pilot.pause()
        text = folded(screen_text(pilot.app))
        assert "Marked for the bottom" not in text and "On the bottom: " in text


async def test_the_reviews_line_under_the_list_names_every_card_that_wheeled_at_80x24(tmp_path):
    """The pick's words under the review's list kept three lines: at 80 columns the pick's sentence took two and the
    wheeled cards were cut after the third ("Wheeled: Rummaging Goblin / ... / Staff of"), in a pod of four after a
    few names."""
    session = drafted(tmp_path / "db.json", seed=5, players=4)
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        assert type(pilot.app.screen).__name__ == "ReviewScreen"
        wheeled = pilot.app.screen.rows[0].wheeled
        assert len(wheeled) > 4  # more names than one line of 80 columns holds
        shown = folded(screen_text(pilot.app))
        assert "Wheeled: " + " / ".join(card.name for card in wheeled) in shown, shown


async def test_help_typed_on_the_command_line_is_fitted_to_its_panel_with_no_ragged_line(tmp_path):
    """Before: fitted to the screen's width, the help went into a panel six columns narrower, which broke each long
    line once more ('one or two commanders from your pool, by' then 'numbers' at the panel's left edge)."""
    from events.screens.deck_commands import HELP_BUILD

    async with practice_app(drafted(tmp_path / "db.json")).run_test(size=(72, 30)) as pilot:
        await pilot.pause()
        await type_command(pilot, "help")
        panel = pilot.app.screen
        assert type(panel).__name__ == "Panel", screen_text(pilot.app)
        console = Console(width=400, file=io.StringIO(), record=True)
        for static in panel.query("Static"):
            console.print(static.content, width=panel.size.width - 6)
        lines = [line.rstrip() for line in console.export_text().splitlines()]
        start = next(i for i, line in enumerate(lines) if line.startswith("Deck building commands"))
        shown = [line for line in lines[start:] if line.strip()]
        commands = tuple(
            "  " + line.split("  ")[1] for line in HELP_BUILD.splitlines() if line.startswith("  ") and line[2] != " "
        )
        heading = next(i for i, line in enumerate(shown) if line.startswith("  "))
        assert all(line.startswith(commands) or line.startswith(" " * 6) for line in shown[heading:]), shown
