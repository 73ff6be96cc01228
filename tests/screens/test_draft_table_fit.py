"""The draft table at 80x24 with the longest names a set has: every column of every card stays on
screen (issue 24: name, cost, type, rarity, identity), the Type column is the one that gives way."""

from __future__ import annotations

import pytest

from sets.booster import Printing
from sets.catalog import load_set
from tests.helpers.practice import practice_app, screen_text, session_at, settle, widget_text


def rows_of(text: str, pack) -> tuple[str, list[str]]:
    lines = text.splitlines()
    header = next(line for line in lines if " Card " in line and "Cost" in line)
    assert " Id" in header, text  # the identity column's header is on screen
    rows = []
    for number, printing in enumerate(pack, start=1):
        row = next((line for line in lines if f" {number:>2}  {printing.card.name}" in line), None)
        assert row is not None, (number, printing.card.name, text)
        rows.append(row)
    return header, rows


def check_every_column(text: str, pack) -> None:
    header, rows = rows_of(text, pack)
    at = header.index(" Id") + 1
    for printing, row in zip(pack, rows):
        code = printing.card.deck_colors.code or "C"
        assert row[at : at + len(code)] == code, (row, code)  # the identity, under its header
        assert printing.card.rarity.letter in row[header.index(" R ") + 1]
    assert "▇" not in text and "▅" not in text  # no scroll bar: nothing is hidden


async def test_the_longest_cmr_names_leave_the_identity_column_on_screen(tmp_path):
    cmr = {card.name: card for card in load_set("CMR").cards}
    longest = sorted(cmr, key=len)[-3:]  # Ardenn, Intrepid Archaeologist and the next longest
    session = session_at(tmp_path / "db.json")
    hand = session.draft.queues[0][0].cards
    for slot, name in enumerate([*longest, "Gnostro, Voice of the Crags", "Colfenor, the Last Yew"]):
        hand[slot] = Printing(cmr[name])
    assert len(hand) == 20
    short = [card for name, card in sorted(cmr.items()) if len(name) <= 16 and not card.is_basic_land]
    for other in [held.cards for held in session.draft.queues[0]][1:]:  # the packs waiting: short names only
        for slot in range(len(other)):
            other[slot] = Printing(short[slot % len(short)])
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        check_every_column(screen_text(pilot.app), session.draft.pack(0))
        session_pack_names = [p.card.name for p in session.draft.pack(0)]
        assert longest[-1] in session_pack_names
        # the next pack has short names only: its types are whole again (the long names' room isn't kept)
        await pilot.press("space", "j", "space", "enter")
        await pilot.pause()
        text = screen_text(pilot.app)
        pack = session.draft.pack(0)
        check_every_column(text, pack)
        assert max(len(p.card.name) for p in pack) <= 24
        assert "Creature" in text and "Creat." not in text


async def test_the_builders_problems_are_whole_lines_at_80_columns(tmp_path):
    """A fresh builder at 80x24: the deck's problem is one line ending in '…' (``check`` has it whole), never
    a sentence cut off mid-way that the log's line below seems to finish ('can be your' + 'deck.')."""
    from tests.helpers.practice import drafted

    session = drafted(tmp_path / "db.json")
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert type(screen).__name__ == "BuilderScreen"
        lines = screen_text(pilot.app).splitlines()
        problem = [line for line in lines if line.startswith("no-commander: ")]
        assert len(problem) == 1 and problem[0].rstrip().endswith("…"), lines
        after = lines[lines.index(problem[0]) + 1]
        assert not after.startswith(("Spacecraft", "and toughness")), lines  # no second line of the same message
        assert screen.query_one("#stats").size.height <= 4
        # the cut problem is not the end of it: the box says where every problem is shown whole
        assert any("': check' shows every problem whole" in line for line in lines), lines


async def test_at_120_columns_long_type_lines_leave_the_card_panel_on_screen(tmp_path):
    """The pack list takes its own width on a big terminal, but never the card panel's (min 30 columns):
    long names with long type lines get the short type, and the panel's lines end on screen."""
    cmr = {card.name: card for card in load_set("CMR").cards}
    session = session_at(tmp_path / "db.json")
    hand = session.draft.queues[0][0].cards
    for slot, name in enumerate(
        ["Ardenn, Intrepid Archaeologist", "Gnostro, Voice of the Crags", "Sakashima of a Thousand Faces"]
    ):
        hand[slot] = Printing(cmr[name])
    async with practice_app(session).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        check_every_column(screen_text(pilot.app), session.draft.pack(0))
        side = pilot.app.screen.query_one("#side")
        assert side.region.right <= 120 and side.region.width >= 30, side.region
        assert "Legendary Creature — Kor Scout" in widget_text(pilot.app.screen, "#card")
        lines = screen_text(pilot.app).splitlines()
        assert any(
            line.rstrip().endswith("Legendary Creature — Kor") or "Creature — Kor Scout" in line for line in lines
        )


def test_a_sealed_or_pool_build_exports_under_its_own_name(tmp_path, cli):
    """Forge and Cockatrice list a deck by the name in its file: a sealed pool's deck is 'sealed-4', as
    its files are, not 'Practice draft 1' (it was never drafted)."""
    db, out = tmp_path / "db.json", tmp_path / "out"
    result = cli("sealed", "--seed", "4", "--build", "--db", db, input=f"auto new\nexport {out}\nquit\n")
    assert result.exit_code == 0, result.stdout
    dck = (out / "sealed-4-deck.dck").read_text(encoding="utf-8")
    assert "Name=sealed-4\n" in dck and "Practice draft" not in dck
    import xml.etree.ElementTree as ET

    assert ET.parse(out / "sealed-4-deck.cod").getroot().findtext("deckname") == "sealed-4"


def test_done_and_leaving_a_sealed_or_pool_build_name_the_command_that_opens_it_not_a_practice_draft(tmp_path, cli):
    """Issue 43: 'resume draft 1' after 'done' in `sealed --build` pointed at another practice draft."""
    import shlex

    db = tmp_path / "db.json"
    result = cli("sealed", "--seed", "4", "--build", "--plain", "--db", db, input="auto new\ndone\nquit\n")
    assert result.exit_code == 0, result.stdout
    text = " ".join(result.stdout.split())
    again = shlex.join(
        ["cmdraft", "sealed", "--build", "--set", "CMR", "--seed", "4", "--boosters", "6", "--db", str(db)]
    )
    assert f"'{again}' opens it again" in text and f"opens this deck again: {again}" in text
    assert "resume draft" not in text and "play --resume" not in text
    pool = tmp_path / "pool.txt"
    pool.write_text("1 Murder\n1 Cast Down\n1 Sengir, the Dark Baron\n", encoding="utf-8")
    built = cli("build", str(pool), "--plain", "--db", db, input="done\nquit\n")
    assert built.exit_code == 0, built.stdout
    assert shlex.join(["cmdraft", "build", str(pool), "--db", str(db)]) in " ".join(built.stdout.split())


def test_done_in_a_practice_draft_names_that_draft_and_its_database(tmp_path, cli):
    """Issue 43: 'done' named 'cmdraft play --resume N' without the database the draft is in, which opens draft N
    of the default database: another practice draft, or none."""
    import shlex

    from draft.engine import DraftConfig
    from events.storage.draft_files import TableSession
    from events.storage.store import Store

    db = tmp_path / "my drafts.json"
    for seed in (3, 4):  # draft 1 left at its first pick, draft 2 drafted to the end
        table = TableSession.create(
            Store(db), kind="practice", seed=seed, config=DraftConfig(seats=4), humans=[0], names=list("ABCD")
        )
    while not table.draft.finished:
        table.pick(table.suggested_pick(0))
    result = cli("play", "--resume", str(table.draft_id), "--plain", "--db", db, input="auto new\ndone\nquit\n")
    assert result.exit_code == 0, result.stdout
    text = " ".join(result.stdout.split())
    again = f"cmdraft play --resume {table.draft_id} --db {shlex.quote(str(db))}"
    assert table.draft_id == 2 and f"Deck saved. Export it any time with 'export'; '{again}' opens it again." in text


def drawn(app, selector: str) -> str:
    """What a widget's region of the screen shows, as the player sees it (its lines joined by spaces)."""
    region = app.screen.query_one(selector).content_region
    lines = screen_text(app).splitlines()[region.y : region.bottom]
    return " ".join(" ".join(line[region.x : region.right].split()) for line in lines)


async def test_at_80x24_the_card_panel_never_cuts_the_note_that_says_how_to_get_rules_text(tmp_path):
    """The longest legends' names and type lines fill the side's card panel at 80 columns: where the bundled set
    has no rules text, the command that brings it is still on screen whole for every card, the first one too."""
    cards = [card for card in load_set("CMR").cards if card.main_set]
    longest = sorted(cards, key=lambda card: -(len(card.name) + len(card.type_line)))
    session = session_at(tmp_path / "db.json")
    hand = session.draft.queues[0][0].cards
    for slot in range(len(hand)):
        hand[slot] = Printing(longest[slot])
    async with practice_app(session).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for printing in hand:
            shown = drawn(pilot.app, "#card")
            assert "(no rules text: cmdraft sets download CMR)" in shown, (printing.card.name, shown)
            assert printing.card.name.split()[0] in shown
            await pilot.press("j")
            await pilot.pause()


async def test_the_pack_list_says_which_cards_can_lead_at_every_width_in_the_line_prompts_words(tmp_path):
    """At 80 columns a legend's Type cell read 'Creature' and a Background's 'Enchant.' while the line prompt said
    'legend, choose a Background': the cell holds the core's words (``lead_notes``) as far as its room goes, at
    every width, and the highlighted card's side says them all."""
    from draft.products import lead_notes
    from events.screens.app.pack_list import card_side, type_cell
    from events.screens.render import card_line
    from tests.helpers.products import CLB

    abdel, sage, faceless = CLB["Abdel Adrian, Gorion's Ward"], CLB["Candlekeep Sage"], CLB["Faceless One"]
    assert lead_notes(abdel) == ["legend", "choose a Background"]
    assert card_line(Printing(abdel), "1").plain.endswith("; legend, choose a Background")  # the line prompt's
    assert [type_cell(card, 10, False) for card in (abdel, sage, faceless)] == ["legend", "Background", "any color"]
    assert type_cell(abdel, 30, False) == "legend, choose a Background"
    assert type_cell(abdel, 40, False) == "Creature; legend, choose a Background"
    assert "legend, choose a Background" in card_side(abdel, 20, 6).plain
    session = session_at(tmp_path / "db.json")  # its first pack has two legends (docs/practice.md's screen)
    pack = session.draft.pack(0)
    legends = [p.card.name for p in pack if p.card.can_be_commander]
    assert len(legends) == 2
    for size in ((80, 24), (120, 40)):
        async with practice_app(session).run_test(size=size) as pilot:
            await pilot.pause()
            text = screen_text(pilot.app)
            check_every_column(text, pack)  # every card and column still on screen, no scroll bar
            for name in legends:
                row = next(line for line in text.splitlines() if f"  {name}  " in line)
                assert "legend" in row and "Creature  " not in row, row


async def test_a_terminal_widened_from_too_narrow_shows_every_number_and_whole_name(tmp_path):
    """Started at 40x12 and widened to 60x20, the pack list was drawn at its header's widths before its cells were
    measured and kept that drawing: no card numbers, names cut to four letters ('Iona', 'Kite'). Widened, each
    row shows its number and the card's whole name."""
    session = session_at(tmp_path / "db.json")
    async with practice_app(session).run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        await pilot.resize_terminal(60, 20)

        def number_rows():
            return [line for line in screen_text(pilot.app).splitlines() if line[:5].strip().isdigit()]

        await settle(pilot, lambda: len(number_rows()) >= 10)
        text = screen_text(pilot.app)
        shown_rows = number_rows()
        assert len(shown_rows) >= 10, text
        for number, printing in enumerate(session.draft.pack(0)[: len(shown_rows)], start=1):
            assert f" {number:>2}  {printing.card.name}" in text, (number, printing.card.name, text)


@pytest.mark.parametrize("columns", [80, 50, 34])
def test_the_builders_help_fits_the_terminal_with_every_word_in_order(tmp_path, columns):
    """Before: the line prompt's help, written 70 wide, wrapped raggedly below that (a command's words broke off
    into the command column). Now each command's words stay in their column, or go under it when that is narrow."""
    from events.screens.deck_commands import HELP_BUILD
    from tests.helpers.cliapp import invoke

    pool = tmp_path / "pool.txt"
    pool.write_text("1 Murder\n1 Cast Down\n1 Sengir, the Dark Baron\n", encoding="utf-8")
    built = invoke(
        ["build", str(pool), "--plain", "--db", str(tmp_path / "db.json")],
        input="help\nquit\n",
        env={"COLUMNS": str(columns)},
    )
    lines = [line.removeprefix("deck> ") for line in built.stdout.splitlines()]  # (the typed line isn't echoed here)
    start = next(i for i, line in enumerate(lines) if line.startswith("Deck building commands"))
    end = next(i for i in range(start, len(lines)) if not lines[i].strip() or lines[i].startswith("Saved."))
    shown = lines[start:end]
    said = " ".join(" ".join(shown).split())
    assert said == " ".join(HELP_BUILD.split()), said  # every word, in its order
    assert all(len(line) <= columns for line in shown)
    commands = [line.split("  ")[1] for line in HELP_BUILD.splitlines() if line.startswith("  ") and line[2] != " "]
    assert all(any(line.startswith(f"  {command}") for line in shown) for command in commands)  # each begins a line
    heading = next(i for i, line in enumerate(shown) if line.startswith("  "))
    begins = tuple(f"  {command}" for command in commands)
    assert all(line.startswith(begins) or line.startswith(" " * 6) for line in shown[heading:])  # none ragged


@pytest.mark.parametrize("columns", [80, 50])
def test_the_pick_prompts_help_fits_the_terminal_with_its_hanging_indent(tmp_path, columns):
    """Before: written 70 to 100 wide with its own line breaks, the help wrapped at 80 columns into a stray line at the
    left ('  help (this text), quit (save and leave). This event's drafts have no assistance: no hint, signals or'
    then 'Can lead'.)."""
    from events.screens.picks import HELP_PICK
    from tests.helpers.cliapp import invoke

    played = invoke(
        ["play", "--plain", "--seed", "3", "--db", str(tmp_path / "db.json")],
        input="help\nquit\n",
        env={"COLUMNS": str(columns)},
    )
    lines = played.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if "Pick cards by their numbers" in line)
    lines[start] = lines[start][lines[start].index("Pick cards") :]  # (after the prompt: the typed line isn't echoed)
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("Read a card:")) + 1
    while end < len(lines) and lines[end].startswith("  "):  # the last paragraph's own continuation
        end += 1
    shown = lines[start:end]
    assert " ".join(" ".join(shown).split()) == " ".join(HELP_PICK.split())  # every word, in its order
    assert all(len(line) <= columns for line in shown)
    paragraphs = tuple(line.split(" ")[0] for line in HELP_PICK.splitlines() if not line.startswith(" "))
    assert all(line.startswith(paragraphs) or line.startswith("  ") for line in shown), shown  # none ragged
