"""The line builder (the plain prompt and the full-screen app's ':' line) may name the product's added card as a
commander: a CLB pool with a Background and no legend that chooses one leads with the Background beside a Faceless
One added after the draft, the pair its own 'suggest' offers first (CR 702.124k; Faceless One has "Choose a
Background" and may lead when not drafted, products.md)."""

from __future__ import annotations

import io

from rich.console import Console

from draft import deck_actions as act
from draft.deck_session import DeckSession
from draft.products import product
from events.screens import deck_commands as words
from events.screens.builder import answer_lines, opening_lines
from sets.colors import Color
from tests.helpers.products import CLB, is_background


def clb_session(*more: str) -> DeckSession:
    """A CLB pool of a blue Background and blue spells (and ``more`` cards): no card of it can lead alone, no
    Faceless One drafted."""
    background = CLB["Dungeon Delver"]
    assert is_background(background) and background.identity.code == "U"
    spells = [c for c in CLB.values() if c.identity.code == "U" and not c.can_be_commander and not c.is_land]
    spells = [c for c in spells if not is_background(c)][:10]
    pool = [background, *spells, *spells, *(CLB[name] for name in more)]
    return DeckSession(
        pool, piper=CLB["Faceless One"], name="t", save=lambda *a: None, hand_seed=1, product=product("CLB")
    )


def test_a_background_leads_beside_a_faceless_one_named_on_the_commander_line():
    session = clb_session()
    faceless, delver = CLB["Faceless One"], CLB["Dungeon Delver"]
    assert faceless not in session.pool
    result = session.apply(words.parse("commander dungeon delver + faceless one", session))
    assert session.commanders == [delver, faceless]
    assert len(session.colors) == 1  # Faceless One chose its color (the best deck's)
    assert not [p.code for p in session.report().problems if p.code in ("illegal-pair", "not-a-commander")]
    assert result.moved == ()  # nothing left the main deck: the Faceless One was added, not drafted
    assert session.main[faceless] == 0


def test_the_added_card_is_named_by_name_never_by_a_number_past_the_pool_list():
    session = clb_session()
    number = len(session.pool_list) + 1
    try:
        words.parse(f"commander 1 {number}", session)
    except Exception as error:  # InputError: the pool list's numbers only
        assert f"choose 1 to {len(session.pool_list)}" in str(error)
    else:
        raise AssertionError("a number past the pool list was read")


class Place:
    """The least a place offers the builder's words: the session."""

    def __init__(self, session: DeckSession) -> None:
        self.session = session


def rendered(lines, width: int) -> str:
    console = Console(width=width, record=True, file=io.StringIO())
    for line in lines:
        console.print(line)
    return console.export_text()


def test_the_builders_commander_advice_counts_the_added_faceless_ones_at_80_columns():
    """products.md: the builder's suggest ranks the choices, "Added Faceless Ones" counting the cards you'd add;
    in a CLB draft that column is named for Faceless One (never "Added Pipers") and isn't dropped at 80 columns
    beside the chosen colors and a long commander's name: its header wraps instead."""
    session = clb_session("Safana, Calimport Cutthroat")  # chooses a Background
    answer = answer_lines(session.apply(act.Suggest(5)), Place(session), 80)
    for text in (rendered(opening_lines(session, 80), 80), rendered(answer, 80)):
        header = " ".join(line.strip() for line in text.splitlines()[1:5])
        assert "Chosen" in header and "Added" in header and "Faceless" in header and "Ones" in header, text
        assert "Pipers" not in text
        rows = {(line.split()[1], line.split()[-1]) for line in text.splitlines() if line[:1].isdigit()}
        assert ("Safana,", "0") in rows and ("Dungeon", "1") in rows, text  # Safana + Delver add none


def clb_app(cli, tmp_path):
    """``clb_session``'s pool (the imported CLB's cards) in the full-screen builder: (the app, its deck session, the
    CLB cards by name)."""
    from events.screens.app.practice import BuildApp
    from events.sessions.activities import PoolDeck
    from events.storage.pool_builds import PoolBuild
    from events.storage.store import Store
    from sets.catalog import load_set
    from tests.helpers.products import import_products

    import_products(cli)
    clb = {card.name: card for card in load_set("CLB").cards}
    pool = [clb[card.name] for card in clb_session().pool]
    deck = PoolDeck(PoolBuild.open(Store(tmp_path / "db.json"), "clb pool", pool, set_code="CLB"), "pool", tmp_path)
    return BuildApp(deck), deck.session, clb


async def pool_cursor_on(pilot, ui, card) -> None:
    """The pool list focused, its cursor on ``card``'s row."""
    from textual.widgets import DataTable

    table = pilot.app.screen.query_one("#pool", DataTable)
    table.focus()
    table.move_cursor(row=table.get_row_index(f"card:{ui.pool_list.index(card) + 1}"))
    await pilot.pause()


async def test_c_and_delete_pair_and_unpair_a_background_with_the_added_faceless_one_leading(cli, tmp_path):
    """The full-screen builder's c: "a second one that can pair with the first: both lead" (practice.md).  Before,
    a Faceless One added after the draft ('piper U') didn't count as the first, so c on a Background was refused
    ("it can be a commander only beside a commander that has Choose a Background"), as though none led."""
    from textual.widgets import DataTable

    from tests.helpers.practice import screen_text, type_command

    app, ui, clb = clb_app(cli, tmp_path)
    delver, faceless = clb["Dungeon Delver"], clb["Faceless One"]
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await type_command(pilot, "piper U")
        assert ui.commanders == [faceless]
        await pilot.press("escape")
        await pool_cursor_on(pilot, ui, delver)
        await pilot.press("c")
        await pilot.pause()
        assert sorted(card.name for card in ui.commanders) == [delver.name, faceless.name], screen_text(pilot.app)
        assert ui.colors == [Color.U]  # the Faceless One keeps the color it was given
        # and Delete on the Background's commander row leaves the added Faceless One leading (before: refused with
        # the usage line, as an added card is no card of the pool list)
        deck_table = pilot.app.screen.query_one("#deck", DataTable)
        deck_table.focus()
        deck_table.move_cursor(row=deck_table.get_row_index(f"commander:{ui.commanders.index(delver)}"))
        await pilot.pause()
        await pilot.press("delete")
        await pilot.pause()
        assert ui.commanders == [faceless] and ui.colors == [Color.U], screen_text(pilot.app)


async def test_c_on_a_background_with_nothing_leading_leads_it_beside_an_added_faceless_one(cli, tmp_path):
    """The pool holds a Background and no legend that chooses one: c on it was refused ("only beside a commander
    that has Choose a Background") though the pair its 'suggest' offers first is that Background beside a Faceless
    One added after the draft, which the line builder takes as 'commander N + faceless one'."""
    from tests.helpers.practice import screen_text

    app, ui, clb = clb_app(cli, tmp_path)
    delver, faceless = clb["Dungeon Delver"], clb["Faceless One"]
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert ui.commanders == []
        await pool_cursor_on(pilot, ui, delver)
        await pilot.press("c")
        await pilot.pause()
        assert sorted(card.name for card in ui.commanders) == [delver.name, faceless.name], screen_text(pilot.app)
        assert len(ui.colors) == 1 and faceless not in ui.pool  # the added one chose its color; none was drafted
        # c on a spell: refused in the rules' words, the commanders kept
        spell = next(card for card in ui.pool_list if not card.can_be_commander and card is not delver)
        await pool_cursor_on(pilot, ui, spell)
        await pilot.press("c")
        await pilot.pause()
        assert sorted(card.name for card in ui.commanders) == [delver.name, faceless.name]
        assert "the commanders are unchanged" in " ".join(screen_text(pilot.app).split())


def test_a_second_faceless_one_named_beside_one_leading_takes_the_pools_other_color():
    """A blue-black pool led by a black Faceless One: naming two ('commander faceless + faceless') keeps black and
    gives the second the color of the best deck two lead, blue.  Before, only choices listing black first were
    looked at (the ranking lists a pair's colors in WUBRG order, blue before black), so it took red."""
    spells = [
        c
        for c in CLB.values()
        if c.identity.code in ("U", "B") and not c.can_be_commander and not c.is_land and not is_background(c)
    ]
    pool = [*spells, *spells]
    session = DeckSession(
        pool, piper=CLB["Faceless One"], name="t", save=lambda *a: None, hand_seed=1, product=product("CLB")
    )
    session.apply(words.parse("piper B", session))
    assert session.colors == [Color.B]
    session.apply(words.parse("commander faceless + faceless", session))
    assert session.colors == [Color.B, Color.U]
    assert session.report().color_identity.code == "UB"
