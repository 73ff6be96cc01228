"""Issue 24, the full-screen practice app: async tests driving Textual's own harness (``App.run_test`` and its
Pilot) at 80x24 and 120x40, pressing the keys a player presses and reading the session (on disk), the widgets
and the rendered screen; SVG snapshots of the main screens through pytest-textual-snapshot (``snap_compare``;
``pytest --snapshot-update`` rewrites them on purpose)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from draft import deck_actions as act
from draft.advice import seat_advice, signals
from events.screens.builder import deck_table
from events.storage.draft_files import TableSession
from events.storage.store import Store
from sets.booster import Printing
from sets.cards import Card, Face
from sets.colors import ColorIdentity
from tests.helpers.cardfiles import cmr_mtgjson, write
from tests.helpers.practice import drafted, practice_app, screen_text, session_at, type_command, widget_text

SIZES = [(80, 24), (120, 40)]


def on_disk(db: Path, draft_id: int) -> TableSession:
    return TableSession.load(Store(db), draft_id)


# --- 1: the draft table ------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
async def test_the_whole_pack_fits_with_where_the_draft_is(tmp_path, size):
    session = session_at(tmp_path / "db.json")
    pack = session.draft.pack(0)
    async with practice_app(session).run_test(size=size) as pilot:
        await pilot.pause()
        text = screen_text(pilot.app)
        lines = text.splitlines()
        assert len(lines) == size[1]
        assert "Pack 1/3 · pick 1/10 · take 2 · passing left ←" in lines[0]
        header = next(line for line in lines if "Card" in line and "Cost" in line)
        assert all(word in header for word in ("#", "Type", "R", "Id"))
        for number, printing in enumerate(pack, start=1):
            card = printing.card
            row = next((line for line in lines if f" {number:>2}  {card.name}" in line), None)
            assert row is not None, (number, card.name)
            assert (card.deck_colors.code or "C") in row.split(card.name, 1)[1]
        assert "Your pool: 0 cards" in text
        if size[0] >= 110:  # the room of a bigger terminal: whole type lines
            long_types = [p.card.type_line for p in pack if " — " in p.card.type_line]
            assert any(t in text for t in long_types)


async def test_keys_mark_and_take_and_the_pick_is_on_disk(tmp_path):
    db = tmp_path / "db.json"
    session = session_at(db)
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press(
            "j", "j", "space", "down", "down", "space", "k", "enter"
        )  # cards 3 and 5 marked; k moves only
        await pilot.pause()
        assert on_disk(db, session.draft_id).draft.picks_of(0)[0].positions == (2, 4)
        assert "pick 2/10" in screen_text(pilot.app)
        await pilot.press(
            "space", "j", "enter"
        )  # a new pack starts at its top; enter marks the highlighted one when one is missing
        await pilot.pause()
        assert sorted(on_disk(db, session.draft_id).draft.picks_of(0)[1].positions) == [0, 1]
        await pilot.press("space", "j", "space", "j", "space")  # a third mark is refused
        await pilot.pause()
        assert "Already 2 marked" in screen_text(pilot.app)
        assert len(on_disk(db, session.draft_id).draft.picks_of(0)) == 2


async def test_marks_are_drawn_on_their_own_rows_and_every_other_row_stays_as_it_was(tmp_path):
    """A mark draws its row again and only it (the table keeps the other rows' drawings): each row on
    the screen shows its own card, with the mark exactly when that card is marked."""
    session = session_at(tmp_path / "db.json")
    pack = [printing.card.name for printing in session.draft.pack(0)]

    def drawn_rows(app) -> dict[int, str]:
        lines = screen_text(app).splitlines()
        rows = {}
        for index, name in enumerate(pack):
            hits = [line for line in lines for mark in "● " if f"{mark}{index + 1:>2}  {name[:10]}" in line]
            assert len(hits) == 1, (index, name, hits)
            rows[index] = "●" if f"●{index + 1:>2}  {name[:10]}" in hits[0] else " "
        return rows

    async with practice_app(session).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        expected = {index: " " for index in range(len(pack))}
        assert drawn_rows(pilot.app) == expected
        for keys, changed in (
            (("space",), {0: "●"}),
            (("j", "j", "space"), {2: "●"}),
            (("k", "k", "space"), {0: " "}),
            (("j", "space"), {1: "●"}),
            (("j", "space"), {2: " "}),
        ):
            await pilot.press(*keys)
            await pilot.pause()
            expected.update(changed)
            assert drawn_rows(pilot.app) == expected, keys


async def test_typed_numbers_and_names_follow_the_prompt_rules(tmp_path):
    db = tmp_path / "db.json"
    session = session_at(db)
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("3", "space", "7", "enter")  # a digit starts the typed line
        await pilot.pause()
        assert on_disk(db, session.draft_id).draft.picks_of(0)[0].positions == (2, 6)
        pack = session.draft.pack(0)
        first, second = pack[0].card.name, pack[4].card.name
        await pilot.press("slash")
        await pilot.press(*list(f"{first.lower()} + {second[:7]}"), "enter")
        await pilot.pause()
        assert on_disk(db, session.draft_id).draft.picks_of(0)[1].positions == (0, 4)
        await pilot.press("slash", *list("xyzzy, 1"), "enter")
        await pilot.pause()
        assert "'xyzzy' is not in this pack" in widget_text(pilot.app.screen, "#message")
        assert len(on_disk(db, session.draft_id).draft.picks_of(0)) == 2


async def test_timeout_takes_for_your_colors_and_clears_the_typed_line(tmp_path, manual_clock):
    """Issue 24's first bug in the app: '1' typed, time runs out, then '3 7' must take 3 and 7."""
    db = tmp_path / "db.json"
    session = session_at(db, timer=20)
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert "20s" in screen_text(pilot.app)  # the timer widget, on the status line
        await pilot.press("1")
        await pilot.pause()
        assert screen.query_one("#names").value == "1"
        expected = seat_advice(session.draft, 0).positions  # the timeout takes the hint's pick for your colors
        manual_clock.advance(20.01)  # the clock ran out
        screen.tick()
        await pilot.pause()
        taken = on_disk(db, session.draft_id).draft.picks_of(0)
        assert len(taken) == 1 and list(taken[0].positions) == expected
        assert screen.query_one("#names").value == ""
        assert "Time is up" in screen_text(pilot.app)
        await pilot.press("3", "space", "7", "enter")
        await pilot.pause()
        assert on_disk(db, session.draft_id).draft.picks_of(0)[1].positions == (2, 6)


async def test_timeout_takes_the_card_marked_and_the_best_for_your_colors_beside_it(tmp_path, manual_clock):
    """A card marked with space when the clock runs out is taken; the hint's best other card completes the pick."""
    db = tmp_path / "db.json"
    session = session_at(db, timer=20)
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        hint = seat_advice(session.draft, 0).positions
        mine = next(i for i in range(len(session.draft.pack(0))) if i not in hint)
        await pilot.press(*["j"] * mine, "space")
        await pilot.pause()
        assert "Marked 1 of 2" in screen_text(pilot.app)
        manual_clock.advance(20.01)
        screen.tick()
        await pilot.pause()
        taken = on_disk(db, session.draft_id).draft.picks_of(0)
        assert len(taken) == 1 and set(taken[0].positions) == {mine, hint[0]}
        said = widget_text(screen, "#message")
        assert "the card you had chosen, and the best pick for your colors for the rest" in said


async def test_escape_drops_the_typed_line_so_the_next_digits_start_a_new_pick(tmp_path):
    """'1' typed and refused (two are due), Esc back to the list, then '2 3': cards 2 and 3, never 12 and 3."""
    db = tmp_path / "db.json"
    session = session_at(db)
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("1", "enter")
        await pilot.pause()
        assert "take exactly 2 cards" in widget_text(pilot.app.screen, "#message")
        await pilot.press("escape", "2", "space", "3", "enter")
        await pilot.pause()
        assert on_disk(db, session.draft_id).draft.picks_of(0)[0].positions == (1, 2)


async def test_the_last_pick_of_a_pack_is_taken_for_you(tmp_path):
    db = tmp_path / "db.json"
    session = session_at(db, players=2)
    while len(session.draft.pack(0)) > 4:
        session.pick(session.choose(0, [0, 1]))
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("space", "j", "space", "enter")
        await pilot.pause()
        picks = on_disk(db, session.draft_id).draft.picks_of(0)
        assert [(p.pack, p.pick) for p in picks[-2:]] == [(1, 9), (1, 10)] and len(picks[-1].offered) == 2
        assert "Pack 2/3 · pick 1/10" in screen_text(pilot.app)
        assert "Last pick of the pack: " + " + ".join(p.card.name for p in picks[-1].taken) in widget_text(
            pilot.app.screen, "#message"
        )


def side_text(app, column: int = 59) -> str:
    """The side of an 80-column table screen (the card, the message, the pool), its lines joined: a sentence
    wrapped over several lines reads whole."""
    return " ".join(" ".join(line[column:].split()) for line in screen_text(app).splitlines()[1:-2])


async def test_at_80x24_the_last_pick_and_a_typos_hint_are_shown_whole(tmp_path):
    session = session_at(tmp_path / "db.json", players=2)
    while len(session.draft.pack(0)) > 4:
        session.pick(session.choose(0, [0, 1]))
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("space", "j", "space", "enter")
        await pilot.pause()
        last = session.draft.picks_of(0)[-1].taken
        assert len(last) == 2
        assert "Last pick of the pack: " + " + ".join(p.card.name for p in last) + " (taken for you)." in side_text(
            pilot.app
        )
        typo = "fiery canonade"
        await pilot.press("slash", *[{" ": "space"}.get(ch, ch) for ch in typo], "enter")
        await pilot.pause()
        message = widget_text(pilot.app.screen, "#message")
        assert "Did you mean" in message and " ".join(message.split()) in side_text(pilot.app)


async def test_at_80x24_the_side_counts_the_cards_that_can_lead_and_p_names_them(tmp_path):
    session = session_at(tmp_path / "db.json")
    while sum(p.card.can_be_commander for p in session.draft.pools[0]) < 3:
        session.pick(session.suggested_pick(0))
    leaders = sorted({p.card.name for p in session.draft.pools[0] if p.card.can_be_commander})
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert f"Can lead: {len(leaders)} (p)" in side_text(pilot.app)
        await pilot.press("p")
        await pilot.pause()
        shown_all = " ".join(panel_text(pilot.app.screen).split())
        assert all(name in shown_all for name in leaders)


@pytest.mark.parametrize("where", ["table", "builder"])
async def test_at_80x24_the_help_fits_the_width_and_its_keys_stay_on_screen(tmp_path, where):
    session = session_at(tmp_path / "db.json") if where == "table" else drafted(tmp_path / "db.json")
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        panel = pilot.app.screen
        scroller = panel.query_one("VerticalScroll")
        body = str(panel.query_one("Static").content)
        room = scroller.scrollable_content_region.width
        assert max(len(line) for line in body.splitlines()) <= room  # no line wraps
        assert "Esc or Enter: close" in screen_text(pilot.app)  # on the border, under a body that scrolls
        assert scroller.max_scroll_y > 0
        await pilot.press("end")
        await pilot.wait_for_scheduled_animations()  # the scroll to the end is animated (a second, after a refresh)
        assert body.splitlines()[-1].strip() in screen_text(pilot.app)  # the last line, scrolled to


async def test_at_80x24_the_builder_shows_long_commander_names_whole_and_every_key_of_its_bar(tmp_path):
    session = drafted(tmp_path / "db.json")
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        builder = pilot.app.screen
        ui = builder.session
        partners = sorted((c for c in ui.pool_list if c.has_partner), key=lambda c: -len(c.name))
        pair = next(
            ((a, b) for a in partners for b in partners if a is not b and ui.can_choose_commanders([a, b])), None
        )
        leaders = pair or tuple(sorted((c for c in ui.pool_list if c.can_be_commander), key=lambda c: -len(c.name))[:1])
        await type_command(pilot, "commander " + " ".join(str(ui.pool_list.index(c) + 1) for c in leaders))
        lines = screen_text(pilot.app).splitlines()
        title = " ".join(" ".join(lines[:2]).split())
        report = ui.report()
        assert " + ".join(c.name for c in leaders) in title and f"identity {report.color_identity.code}" in title
        bar = lines[-1]
        shown_keys = [b for b in builder.BINDINGS if b.show]
        assert all(
            f"{b.key_display or {'colon': ':', 'question_mark': '?'}.get(b.key, b.key)} {b.description}" in bar
            for b in shown_keys
        ), bar


async def test_confirm_asks_before_taking(tmp_path):
    db = tmp_path / "db.json"
    session = session_at(db)
    async with practice_app(session, confirm=True).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("space", "j", "space", "enter")
        await pilot.pause()
        assert "Take #1 " in screen_text(pilot.app) and not on_disk(db, session.draft_id).draft.picks_of(0)
        await pilot.press("n")
        await pilot.pause()
        assert not on_disk(db, session.draft_id).draft.picks_of(0)
        await pilot.press("enter")  # back on the table: the marks are still there
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert on_disk(db, session.draft_id).draft.picks_of(0)[0].positions == (0, 1)


async def test_confirm_shows_what_each_card_is_for_before_its_keywords_and_no_reminder_text(cli, tmp_path):
    """Issue 43: the question before a pick shows, under it, one line per chosen card as the line prompt does: the
    monarchy or the removal first, keywords after, reminder text dropped."""
    data = cmr_mtgjson()
    for number, card in enumerate(data["data"]["cards"]):
        what = "you become the monarch" if number % 2 else "destroy target creature"
        card["text"] = f"Vigilance (Invented reminder words.)\nInvented words.\nInvented: {what}."
    assert cli("sets", "import", write(tmp_path, "CMR.json", data)).exit_code == 0
    session = session_at(tmp_path / "db.json")
    names = [p.card.name for p in session.draft.pack(0)[:2]]
    async with practice_app(session, confirm=True).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("space", "j", "space", "enter")
        await pilot.pause()
        from textual.widgets import Static

        shown = "\n".join(str(getattr(w.content, "plain", w.content)) for w in pilot.app.screen.query(Static))
        assert "Take #1 " in shown and "Take #1 " in screen_text(pilot.app) and "reminder" not in shown
        for name in names:
            assert re.search(
                re.escape(name) + r": Invented: (you become the monarch|destroy target creature)\. · Invented words\."
                r" · Vigilance",
                shown,
            ), shown


async def test_names_from_files_are_shown_literally(tmp_path):
    session = session_at(tmp_path / "db.json")
    odd = Card(
        "[b]Bold[/b] Knight [red]",
        (
            Face(
                "[b]Bold[/b] Knight [red]",
                "{1}{R}",
                "Creature — Knight",
                types=("Creature",),
                subtypes=("Knight",),
                text="[blink]not a style[/blink]",
            ),
        ),
        ColorIdentity.parse("R"),
        ColorIdentity.parse("R"),
        set_code="ZZZ",
        number="1",
        mana_value=2,
    )
    session.draft.queues[0][0].cards[0] = Printing(odd)
    async with practice_app(session).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        text = screen_text(pilot.app)
        assert "[b]Bold[/b] Knight [red]" in text  # in the list and in the card panel
        panel = widget_text(pilot.app.screen, "#card")
        assert "[b]Bold[/b] Knight [red]" in panel and "[blink]not a style[/blink]" in panel


async def test_card_text_imported_while_the_app_runs_is_shown_at_once(tmp_path, cli):
    """Rules text imported (another terminal's 'cmdraft sets import') while a draft is open shows on the next
    card drawn, in the side panel and the card in full, with no resume."""
    session = session_at(tmp_path / "db.json")
    first = session.draft.pack(0)[0].card.name
    async with practice_app(session).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "no rules text: cmdraft sets download CMR" in " ".join(widget_text(pilot.app.screen, "#card").split())
        assert cli("sets", "import", write(tmp_path, "CMR.json", cmr_mtgjson())).exit_code == 0
        await pilot.press("j", "k")
        await pilot.pause()
        assert f"Invented test words for {first}." in widget_text(pilot.app.screen, "#card")
        await pilot.press("i")
        await pilot.pause()
        assert f"Invented test words for {first}." in screen_text(pilot.app)


# --- 2: learning aids --------------------------------------------------------------------------------


async def test_hint_shows_the_pair_and_why_and_marks_it(tmp_path):
    db = tmp_path / "db.json"
    session = session_at(db)
    advice = seat_advice(session.draft, 0)
    async with practice_app(session).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        text = screen_text(pilot.app)
        for pick in advice.picks:
            assert pick.card.name in text and f"rating {pick.rating:.1f}" in text
        await pilot.press("enter")
        await pilot.pause()
        assert sorted(pilot.app.screen.seat.marked) == sorted(advice.positions)
        await pilot.press("enter")
        await pilot.pause()
        assert sorted(on_disk(db, session.draft_id).draft.picks_of(0)[0].positions) == sorted(advice.positions)


async def test_signals_view_and_pool(tmp_path):
    session = session_at(tmp_path / "db.json")
    for _ in range(3):
        session.pick(session.suggested_pick(0))
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        text = screen_text(pilot.app)
        assert "Signals" in text and all(word in text for word in ("white", "blue", "black", "red", "green"))
        await pilot.press("escape", "p")
        await pilot.pause()
        assert "Your pool" in screen_text(pilot.app)
        await pilot.press("escape", "question_mark")
        await pilot.pause()
        assert "space        mark / unmark" in screen_text(pilot.app)


async def test_signals_at_the_first_pick_say_no_pack_was_passed_yet_never_a_table_of_zeros(tmp_path):
    session = session_at(tmp_path / "db.json")
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        text = screen_text(pilot.app)
        assert "No pack has been passed to you yet: the signals start at your next pick." in text
        assert "0.0" not in text and "Best card seen" not in text


async def test_signals_name_each_colors_best_card_at_80x24(tmp_path):
    session = session_at(tmp_path / "db.json")
    for _ in range(4):
        session.pick(session.suggested_pick(0))
    tops = [row.top.name for row in signals(session.draft, 0) if row.top is not None]
    assert len(tops) >= 3
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        text = screen_text(pilot.app)
        for name in tops:
            assert name in text, name


@pytest.mark.slow
async def test_the_last_pick_opens_the_builder_and_review_shows_every_pick(tmp_path):
    db = tmp_path / "db.json"
    session = session_at(db, players=2)
    while not (session.draft.round == 2 and len(session.draft.pack(0)) == 4):
        session.pick(session.suggested_pick(0))
    async with practice_app(session).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("space", "j", "space", "enter")
        await pilot.pause()
        assert type(pilot.app.screen).__name__ == "BuilderScreen"
        await pilot.press("r")
        await pilot.pause()
        screen = pilot.app.screen
        assert type(screen).__name__ == "ReviewScreen"
        assert screen.query_one("#picks").row_count == len(session.draft.picks_of(0)) == 30
        await pilot.press("tab", "enter")  # a bot's pool and deck
        await pilot.pause()
        assert "Seat 2: deck" in screen_text(pilot.app)


# --- 3: the deck builder -----------------------------------------------------------------------------


def saved(db: Path, draft_id: int) -> dict:
    with Store(db).read() as data:
        return data.table("drafts").get(doc_id=draft_id)["deck"]


async def test_builder_keys_change_and_save_the_deck_with_undo_and_redo(tmp_path):
    db = tmp_path / "db.json"
    session = drafted(db)
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        ui = screen.session
        await pilot.press("enter")  # the first card: the cursor opens on it, past the first group heading
        await pilot.pause()
        first = screen.row_card("pool")[0]
        assert ui.main[first] == 1 and {c["name"] for c in saved(db, session.draft_id)["main"]} == {first.name}
        await pilot.press("u")
        await pilot.pause()
        assert ui.main[first] == 0 and not saved(db, session.draft_id)["main"]
        await pilot.press("U")
        await pilot.pause()
        assert ui.main[first] == 1 and saved(db, session.draft_id)["main"]
        await pilot.press("tab")
        await pilot.press("j", "d")  # out of the deck again, from the deck list
        await pilot.pause()
        assert ui.main[first] == 0


@pytest.mark.slow
async def test_builder_commander_lands_finish_and_figures(tmp_path):
    db = tmp_path / "db.json"
    session = drafted(db)
    async with practice_app(session, export_root=tmp_path).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        ui = screen.session
        leader = next(c for c in ui.pool_list if c.can_be_commander and c.identity)
        table = screen.query_one("#pool")
        row = table.get_row_index(f"card:{ui.pool_list.index(leader) + 1}")
        table.move_cursor(row=row)
        await pilot.press("c")
        await pilot.pause()
        assert ui.commanders == [leader]
        await pilot.press("l")  # basics up to 60, then undo them
        await pilot.pause()
        assert ui.deck().size == 60 and all(card.is_basic_land for card in ui.main)
        await pilot.press("u")
        await pilot.pause()
        assert not ui.main
        await pilot.press("f")  # finish, keeping what you chose
        await pilot.pause()
        assert ui.deck().size == 60 and ui.commanders == [leader]
        text = screen_text(pilot.app)
        assert "Curve" in text and "creatures" in text and "Sources/symbols" in text and "60/60 cards" in text
        await pilot.press("n")
        await pilot.pause()
        hand = [line for line in screen_text(pilot.app).splitlines() if "Hand 1 · 7 cards" in line]
        assert hand
        await pilot.press("n")  # n again: another hand
        await pilot.pause()
        assert any("Hand 2 · 7 cards" in line for line in screen_text(pilot.app).splitlines())
        await pilot.press("escape", "x")
        await pilot.pause()
        assert saved(db, session.draft_id)["commanders"][0]["name"] == leader.name
        folder = tmp_path / f"cmdraft-practice-{session.draft_id}"
        assert (folder / "practice-deck.dck").exists() and (folder / "practice-bot-2-deck.dck").exists()


def panel_text(panel) -> str:
    """Everything a panel holds, scrolled out of sight or not, as text."""
    console = Console(width=200, file=io.StringIO(), record=True)
    for static in panel.query("Static"):
        console.print(static.content)
    return console.export_text()


@pytest.mark.slow
async def test_command_line_answers_open_whole_in_a_panel_and_the_lists_get_the_keys_back(tmp_path):
    """At 80x24 the log shows two lines: 'suggest', 'show deck' and 'bot 2' open whole in a panel that
    scrolls; after Enter (and after closing the panel) the keys go to the lists again, not the command line."""
    session = drafted(tmp_path / "db.json")
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        ui = screen.session
        await pilot.press("f")  # the bot's commander and a whole deck
        await pilot.pause()
        await type_command(pilot, "suggest")
        panel = pilot.app.screen
        assert type(panel).__name__ == "Panel"
        text = screen_text(pilot.app)
        best = ui.apply(act.Suggest()).suggestions[0]
        assert all(name in text for name in best.commanders)
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is screen and screen.focused is screen.query_one("#pool")
        await pilot.press("tab")  # the deck list
        await type_command(pilot, "show deck")
        panel = pilot.app.screen
        assert type(panel).__name__ == "Panel"
        shown_all = panel_text(panel)
        assert all(card.name in shown_all for card in ui.deck().main)  # every card, not the last two lines
        scroller = panel.query_one("VerticalScroll")
        assert scroller.max_scroll_y > 0  # longer than the screen: it scrolls
        await pilot.press("enter")
        await pilot.pause()
        assert screen.focused is screen.query_one("#deck")  # back on the list it came from
        await type_command(pilot, "bot 2")
        assert "Seat 2: pool" in screen_text(pilot.app) and "Seat 2: deck" in panel_text(pilot.app.screen)
        await pilot.press("escape")
        await pilot.pause()
        await type_command(pilot, "lands")  # a short answer stays in the log, and the keys go to the list
        assert pilot.app.screen is screen and screen.query_one("#command").value == ""
        before = screen.query_one("#deck").cursor_row
        await pilot.press("j")
        await pilot.pause()
        moved = screen.query_one("#deck").cursor_row - before  # 2: past the group heading under the commander
        assert screen.query_one("#command").value == "" and moved in (1, 2) and screen.row_card("deck")[0] is not None


@pytest.mark.slow
async def test_the_goldfish_at_80x24_counts_lands_mulligans_to_the_bottom_and_plays_six_turns(tmp_path):
    session = drafted(tmp_path / "db.json")
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        builder = pilot.app.screen
        await pilot.press("f", "n")
        await pilot.pause()
        fish = builder.session.fish
        lands = sum(card.is_land for card in fish.hand)
        word = "land" if lands == 1 else "lands"
        assert f"Hand 1 · 7 cards, {lands} {word}" in screen_text(pilot.app)
        await pilot.press("m", "m")  # the first mulligan is free, the second owes one card
        await pilot.pause()
        assert "2 mulligans (the first is free)" in screen_text(pilot.app)
        assert "Put 1 card on the bottom" in panel_text(pilot.app.screen)
        await pilot.press("t")  # refused until the hand is kept
        await pilot.pause()
        # the panel's keys, never the line prompt's command ('bottom N' is no key in the panel)
        assert "on the bottom first (its number, then b)" in screen_text(pilot.app) and not fish.turns
        assert "bottom N" not in screen_text(pilot.app)
        first = fish.hand[0]
        await pilot.press("1", "b")
        await pilot.pause()
        assert len(fish.hand) == 6 and fish.library[-1] is first
        await pilot.press("T")
        await pilot.pause()
        assert [turn.turn for turn in fish.turns] == [1, 2, 3, 4, 5, 6]
        shown_all = panel_text(pilot.app.screen)
        assert "Turns 1-6" in shown_all and all(turn.land is None or turn.land.name in shown_all for turn in fish.turns)
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is builder
        await type_command(pilot, "draw")  # the command line plays on the same game
        assert type(pilot.app.screen).__name__ == "GoldfishScreen" and fish.drawn


@pytest.mark.slow
async def test_the_builders_command_line_owes_the_bottom_in_its_own_words_and_takes_bottom_n(tmp_path):
    """The command line reads the line prompt's commands: a turn asked while the hand owes its bottom says the way
    this line has ('bottom N'), as the prompt says it (it said only what was owed: the words moved to the faces)."""
    session = drafted(tmp_path / "db.json")
    async with practice_app(session).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        builder = pilot.app.screen
        await pilot.press("f")
        await pilot.pause()
        for line in ("hand", "mulligan", "mulligan"):  # the first mulligan is free, the second owes one card
            await type_command(pilot, line)
            await pilot.press("escape")
            await pilot.pause()
        fish = builder.session.fish
        await type_command(pilot, "turn")
        assert builder.refusal.plain == "put 1 card of the hand on the bottom first ('bottom N')" and not fish.turns
        first = fish.hand[0]
        await type_command(pilot, "bottom 1")
        assert len(fish.hand) == 6 and fish.library[-1] is first


@pytest.mark.slow
async def test_build_app_over_a_pool_with_odd_names(tmp_path):
    from events.screens.app.practice import BuildApp
    from events.sessions.activities import PoolDeck
    from events.storage.pool_builds import PoolBuild
    from sets.catalog import load_set

    cmr = load_set("CMR")
    odd = Card(
        "[red]Not Red[/red]",
        (Face("[red]Not Red[/red]", "{2}{G}", "Creature — Elf", types=("Creature",), subtypes=("Elf",)),),
        ColorIdentity.parse("G"),
        ColorIdentity.parse("G"),
        set_code="ZZZ",
        number="7",
        mana_value=3,
    )
    pool = [c for c in cmr.cards if c.main_set][:60] + [odd]
    build = PoolBuild.open(Store(tmp_path / "db.json"), "test pool", pool)
    deck = PoolDeck(build, "pool", tmp_path)
    ui = deck.session

    async with BuildApp(deck).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "[red]Not Red[/red]" in screen_text(pilot.app)
        number = ui.pool_list.index(odd) + 1
        await pilot.press("colon", *list(f"add {number}"), "enter")
        await pilot.pause()
        assert ui.main[odd] == 1
        await pilot.press("colon", *list(f"? {number}"), "enter")  # the lists have the keys after Enter
        await pilot.pause()
        assert type(pilot.app.screen).__name__ == "Panel" and "Creature — Elf" in screen_text(pilot.app)
    again = PoolBuild.open(Store(tmp_path / "db.json"), "test pool", pool)
    assert again.build_id == build.build_id and again.doc["deck"]["main"][0]["name"] == "[red]Not Red[/red]"


# --- snapshots (pytest-textual-snapshot: tests/__snapshots__/, an HTML diff on failure, --snapshot-update) -------


SIZE_IDS = [f"{width}x{height}" for width, height in SIZES]


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_snapshot_of_the_draft_table(tmp_path, snap_compare, size):
    assert snap_compare(practice_app(session_at(tmp_path / "a.json", seed=3)), terminal_size=size)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_snapshot_of_the_deck_builder(tmp_path, snap_compare, size):
    assert snap_compare(practice_app(drafted(tmp_path / "b.json", seed=5)), press=["f"], terminal_size=size)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_snapshot_of_the_review(tmp_path, snap_compare, size):
    assert snap_compare(practice_app(drafted(tmp_path / "b.json", seed=5)), press=["f", "r"], terminal_size=size)


async def test_the_80x24_builder_shows_a_cards_text_and_the_whole_export_note(cli, tmp_path):
    """Issue 43: at 80x24 the card panel shows at least three lines of rules text (what the card does comes before
    where it comes from), and an export whose note outgrows the log's two lines opens it whole in a panel."""
    data = cmr_mtgjson()
    for card in data["data"]["cards"]:
        card["text"] = "\n".join(f"Line {n} of what this card does." for n in range(1, 6))
    assert cli("sets", "import", write(tmp_path, "CMR.json", data)).exit_code == 0
    session = drafted(tmp_path / "b.json", seed=5)
    app = practice_app(session, export_root=tmp_path / "out")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        await pilot.pause()
        screen = pilot.app.screen
        await pilot.press("escape", "j", "i")  # the card under the pool list's cursor, as a player asks for it
        await pilot.pause()
        shown_lines = [n for n in range(1, 6) if f"Line {n} of what this card does." in screen_text(pilot.app)]
        assert len(shown_lines) >= 3, screen_text(pilot.app)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("f")
        await pilot.pause()
        await pilot.press("x")
        await pilot.pause()
        text = screen_text(pilot.app)
        assert "Export" in text and "Wrote" in text
        folded = " ".join(line.strip(" │") for line in text.splitlines())
        assert "no MTGO .dek files written" in folded and "and export again" in folded
        assert screen is not pilot.app.screen  # the note opened in a panel


async def test_a_piper_commander_shows_the_color_it_chose_in_both_deck_lists(tmp_path):
    """'piper U G': the deck lists show each Piper as blue and green (CR 903.4b), not its card's colorless 'C'."""
    session = drafted(tmp_path / "db.json")
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        await type_command(pilot, "piper U G")
        rows = [" ".join(str(c) for c in screen.query_one("#deck").get_row_at(i)) for i in range(2)]
        assert [row.split()[-1] for row in rows] == ["U", "G"] and all("Piper" in row for row in rows)
        console = Console(width=80, file=io.StringIO(), record=True)
        console.print(deck_table(screen.session.deck(), 80))  # the line prompt's 'show deck'
        leading = [line.split() for line in console.export_text().splitlines() if line.lstrip().startswith("commander")]
        assert [words[-2] for words in leading] == ["U", "G"]


async def test_the_builders_log_shows_two_whole_lines_at_80x24(tmp_path):
    """The log's tables are laid out for 120 columns: on 80 a scrollbar along the log's foot took one of its two
    lines, so an answer of two lines (short enough to stay out of a panel) showed only its last."""
    async with practice_app(drafted(tmp_path / "db.json")).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f", "u", "U")  # redone: "Redone." and "Deck: 60 cards, identity …; legal"
        await pilot.pause()
        lines = screen_text(pilot.app).splitlines()
        assert lines[-4].strip() == "Redone." and lines[-3].startswith("Deck: 60 cards")


async def test_the_deck_line_puts_a_chosen_color_beside_its_own_commander(tmp_path):
    """A drafted Piper and a partner lead: 'The Prismatic Piper (blue) + Malcolm, …', where the line put the color
    last, beside the partner ('Faceless One + Agent of the Shadow Thieves (green)' said the Agent was green)."""
    async with practice_app(drafted(tmp_path / "db.json", seed=2)).run_test(size=(120, 40)) as pilot:  # a Piper
        await pilot.pause()
        screen = pilot.app.screen
        ui = screen.session
        partner = next(c for c in ui.pool_list if c.can_be_commander and c.has_partner and not c.chooses_color)
        await type_command(pilot, f"commander The Prismatic Piper + {partner.name}")
        assert [c.name for c in ui.commanders] == ["The Prismatic Piper", partner.name] and ui.colors
        line = widget_text(screen, "#deckline")
        assert line.startswith(f"The Prismatic Piper ({ui.colors[0].word}) + {partner.name} · ")
