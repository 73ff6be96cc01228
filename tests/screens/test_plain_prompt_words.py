"""The line prompt (``--plain``, for screen readers) in words: no arrow and no middle dot for a reader to read aloud
in the status line or between a card's facts.  The full-screen app and the big-screen timer keep their arrow."""

from __future__ import annotations

import dataclasses
import io
import re

from rich.console import Console

from events.screens.render import card_line, passing, text_line
from events.screens.table import TablePrompt
from events.sessions.seat import SeatSession
from events.storage.draft_files import TableSession
from events.storage.store import Store
from sets.booster import Printing
from sets.catalog import load_set
from tests.helpers.practice import session_at
from tests.helpers.products import CLB

FACELESS = "Choose a color before the game begins. Faceless One is the chosen color.\nChoose a Background"


def test_the_plain_prompts_status_line_says_the_passing_direction_and_the_seconds_in_words(tmp_path):
    session = session_at(tmp_path / "db.json")
    prompt = TablePrompt(SeatSession(session, 0), Console(width=80), None)
    assert prompt.status_line(20).plain == "Pack 1 of 3, pick 1 of 10, passing left, 20s left"
    assert prompt.status_line().plain == "Pack 1 of 3, pick 1 of 10, passing left"
    assert passing(True) == "left ←" and passing(False) == "right →"  # the app's and the timer's, kept


def test_a_cards_facts_on_the_plain_prompt_are_set_apart_by_semicolons_not_middle_dots():
    najeela = next(card for card in load_set("CMR").cards if card.name == "Najeela, the Blade-Blossom")
    line = card_line(Printing(najeela), "7").plain
    assert "·" not in line
    assert line == "7  Najeela, the Blade-Blossom; {2}{R}; mythic; WUBRG; Legendary Creature — Human Warrior; legend"
    narrow = card_line(Printing(najeela), "7", width=50).plain  # what doesn't fit 50 columns on a line of its own
    assert narrow == "7  Najeela, the Blade-Blossom; {2}{R}; mythic\n   WUBRG; Creature; legend"


class OvertakenTerminal:
    """A terminal whose player types '3 4' just after another terminal took this seat's pick."""

    def __init__(self, other: SeatSession) -> None:
        self.other = other

    def ask(self, prompt, deadline=None, status=None) -> str:
        self.other.pick([0, 1])
        return "3 4"


def test_a_pick_another_terminal_overtook_is_never_said_to_be_taken(tmp_path):
    db = tmp_path / "db.json"
    session = session_at(db)
    there = SeatSession(TableSession.load(Store(db), session.draft_id), 0)
    there.show()
    console = Console(file=io.StringIO(), width=80)
    TablePrompt(SeatSession(session, 0), console, OvertakenTerminal(there)).pick_once()
    said = console.file.getvalue()
    assert "Not taken: that pack has moved on" in said and "Took" not in said


def test_the_plain_prompt_says_a_finish_in_words_and_names_backgrounds():
    etched = card_line(Printing(CLB["Faceless One"], etched=True), "1").plain
    assert "✦" not in etched and etched.endswith("; any color, Background, choose a Background; foil-etched")
    foil = card_line(Printing(CLB["Agent of the Shadow Thieves"], foil=True), "2", width=80).plain
    # (80 columns wrap it: the finish goes beside the type, before the lead notes)
    assert "★" not in foil and foil.endswith("Enchantment\n   foil; Background"), foil


class Typed:
    """A terminal that answers with these lines, in order."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)

    def ask(self, prompt, deadline=None, status=None) -> str:
        return self.lines.pop(0)


def test_the_plain_prompts_signals_are_sentences_with_every_figure_named(tmp_path):
    """A screen reader reads a table's row as bare numbers ('B black Eyeblight Massacre 2.9 3.0 1'): each color is a
    sentence that names what each figure is."""
    seat = SeatSession(session_at(tmp_path / "db.json"), 0)
    console = Console(file=io.StringIO(), width=80)
    TablePrompt(seat, console, Typed("1 2")).pick_once()  # a pack is passed to you: the signals have packs
    TablePrompt(seat, console, Typed("signals", "", "1 2")).pick_once()
    said = console.file.getvalue()
    sentences = [line for line in said.splitlines() if "best card seen" in line]
    assert len(sentences) == 5 and "Avg best" not in said and "Per pack" not in said
    assert all(
        re.search(r"rates \d\.\d a pack on average; \d\.\d \w+ cards a pack, over 1 pack\.$", s) for s in sentences
    )


def test_the_plain_review_says_each_pick_as_a_sentence_with_every_name_whole_at_80_columns(tmp_path):
    """At 80 columns the review's table gave the hint's cards the room the taken cards left ('Astral / Confrontati /
    on +', a word broken across three lines) and dropped what wheeled: each pick is now a sentence, as the signals
    are, and each bot's deck too."""
    from draft.advice import review as advice_review
    from events.screens.review import review
    from events.sessions.activities import bot_decks

    session = session_at(tmp_path / "r.json", seed=11)
    while not session.draft.finished:  # the first two cards of every pack: often not the hint's
        session.pick(session.draft.request(0, list(range(len(session.suggested_positions(0))))))
    console = Console(file=io.StringIO(), width=80, no_color=True)
    review(console, session)
    said = console.file.getvalue()
    folded = " ".join(said.split())
    assert "─" not in said and "P1p1" not in said  # read aloud: words, no table rule, no 'P one p one'
    differ = 0
    for row in advice_review(session.draft, 0, session.pipers):
        taken = " + ".join(c.name for c in row.taken)
        assert f"Pack {row.pack} pick {row.pick}: you took {taken}" in folded
        if {c.name for c in row.hint} != {c.name for c in row.taken}:
            differ += 1
            assert "the hint: " + " + ".join(c.name for c in row.hint) in folded
        if row.wheeled:
            assert "wheeled: " + " / ".join(c.name for c in row.wheeled) in folded
    assert differ
    for bot in bot_decks(session):
        leaders = " + ".join(c.name for c in bot.deck.commanders)
        assert f"Seat {bot.seat + 1} (" in folded and leaders in folded


def test_a_chosen_cards_line_on_the_plain_prompt_is_sentences_never_middle_dots():
    faceless = CLB["Faceless One"]
    if not any(face.text for face in faceless.faces):  # the text as an import brings it
        faceless = dataclasses.replace(faceless, faces=(dataclasses.replace(faceless.front, text=FACELESS),))
    said = text_line(faceless, 200, plain=True).plain
    assert "·" not in said and said.endswith(": Choose a color before the game begins. Choose a Background.")
    assert " · " in text_line(faceless, 200).plain  # the app's panel keeps its dots


def test_show_with_a_cards_name_shows_that_card_not_the_deck(tmp_path):
    """'? N, show N or card NAME' says the help: 'show sol ring' printed the whole deck instead."""
    from events.screens import deck_commands as words

    assert words.parse("show sol ring", None) == words.ReadCard("sol ring")
    assert words.parse("show 12", None) == words.ReadCard("12")
    assert type(words.parse("show", None)).__name__ == type(words.parse("show deck", None)).__name__ == "ShowDeck"
    assert type(words.parse("show POOL", None)).__name__ == "ShowPool"


def test_after_an_aside_the_plain_prompt_says_one_line_not_the_whole_pack_again(tmp_path):
    """A screen reader heard the whole pack (20 lines and more) again after each 'hint', 'signals', 'pool' or 'help'
    and Enter: the pack is the same, so one line says so and how to hear it again ('list'), which reads it whole."""
    seat = SeatSession(session_at(tmp_path / "db.json"), 0)
    console = Console(file=io.StringIO(), width=80, height=200)
    last = seat.pack[-1].card.name
    TablePrompt(seat, console, Typed("hint", "", "pool", "", "signals", "", "help", "", "1 2")).pick_once()
    said = console.file.getvalue()
    assert said.count(f"20  {last}; ") == 1  # shown once, at the start, and never read out again
    assert said.count("Back to the same pack: 20 cards, take 2 ('list' reads it again).") == 4
    assert said.count("Pack 1 of 3, pick 1 of 10, passing left") == 5  # where the draft is: the pack's, each aside's
    console.file = io.StringIO()
    last = f"{len(seat.pack)}  {seat.pack[-1].card.name}; "
    TablePrompt(seat, console, Typed("help", "", "list", "3 4")).pick_once()
    again = console.file.getvalue()
    assert "list (the pack again)" in again and again.count(last) == 2
    assert again.count("Seat 1 of 8, draft") == 2  # the pack at first and on 'list', whole


def test_after_an_aside_a_pack_that_moved_on_meanwhile_is_said_and_the_new_one_shown(tmp_path):
    """While the player read the hint another terminal took this seat's pick: the prompt says so and returns, so
    the pack in front of the seat now is shown whole, never the old one."""
    db = tmp_path / "db.json"
    session = session_at(db)
    there = SeatSession(TableSession.load(Store(db), session.draft_id), 0)
    there.show()

    class OvertakenDuringHint(Typed):
        def ask(self, prompt, deadline=None, status=None) -> str:
            if prompt.startswith("Enter: back"):
                there.pick([0, 1])
            return super().ask(prompt, deadline, status)

    console = Console(file=io.StringIO(), width=80, height=200)
    TablePrompt(SeatSession(session, 0), console, OvertakenDuringHint("hint", "")).pick_once()
    said = console.file.getvalue()
    assert "That pack has moved on: your pack 1 pick 1 is already made" in said
    assert "Back to the same pack" not in said


def test_card_notes_say_a_cmm_mono_legend_pairs_and_faceless_one_is_a_background_too(cli):
    """`packs`, `sealed` and `card` noted a CMM legend of one color only as 'legend' (in a CMM draft it pairs: the
    product's grant), and Faceless One only as choosing a Background (it is one too: ``partner_ability``)."""
    from draft.commanders import partner_ability
    from draft.products import lead_notes, product_of
    from tests.helpers.products import CMM, import_products

    mono = next(c for c in CMM.values() if c.can_be_commander and len(c.identity) == 1 and not c.has_partner)
    assert product_of([mono]).grant is not None
    assert lead_notes(mono) == ["legend", "partner in a Commander Masters draft"]
    faceless = CLB["Faceless One"]
    assert "is a Background" in partner_ability(faceless)
    assert lead_notes(faceless) == ["any color", "Background", "choose a Background"]
    assert card_line(Printing(faceless), "1").plain.endswith("; any color, Background, choose a Background")
    import_products(cli)
    for name, words in (
        (mono.name, "partner in a Commander Masters draft"),
        ("Faceless One", "any color, Background, choose a Background"),
    ):
        shown_card = cli("card", name)
        assert shown_card.exit_code == 0 and words in " ".join(shown_card.stdout.split()), shown_card.stdout
    packs = cli("packs", "--set", "CMM", "--seed", "1")  # a booster with mono-colored legends (the 80-column table)
    assert packs.exit_code == 0 and "legend, partner in a Commander Masters draft" in " ".join(packs.stdout.split())


def test_a_card_that_cant_be_found_is_refused_in_one_line_however_narrow_the_console():
    """'card zzzz' (or '? 99') at the pick prompt and in the builder: the refusal was wrapped at the console's width
    (two lines in a pipe of 80 columns, more on a narrow terminal), unlike every other refusal there: one line,
    the terminal wraps it and a screen reader or a script reads it whole."""
    from events.screens.cards import show_card

    pack = [card for card in load_set("CMR").cards][:20]
    for asked in ("zzzz", "99", "kitesail corsiar"):
        console = Console(file=io.StringIO(), width=30, color_system=None)
        show_card(console, asked, pack, "this pack")
        said = console.file.getvalue()
        assert said.count("\n") == 1 and said.endswith("\n"), said
        assert asked in said


def test_a_typo_in_the_first_words_of_a_long_name_gets_did_you_mean():
    """'commander aruami' (the start of Araumi of the Dead Tide, two letters swapped) was refused with no hint: a
    typo was matched against whole names only, and a few letters are far from a name of five words. The typed words
    are matched against the same number of first words of each name too."""
    import pytest

    from events.screens.picks import read_choices
    from sets.errors import InputError

    names = ["Araumi of the Dead Tide", "Murder", "Kitesail Corsair", "Kitesail Skirmisher", "Sol Ring"]
    with pytest.raises(InputError, match=r"'aruami' is not in this pack\. Did you mean Araumi of the Dead Tide\?"):
        read_choices("aruami", names, what="in this pack")
    with pytest.raises(InputError, match=r"Did you mean Kitesail Corsair / Kitesail Skirmisher\?"):
        read_choices("kitesial", names, what="in this pack")
    with pytest.raises(InputError, match=r"'mudrer' is not in this pack\. Did you mean Murder\?"):
        read_choices("mudrer", names, what="in this pack")  # a whole name's typo, as before


def test_the_seat_sentence_is_said_once_a_session_not_before_every_pick(tmp_path):
    """A screen reader heard "Seat 1 of 8, draft 1 (seed 3)." before each of the draft's 27 packs and each page of
    one: it never changes, so it is said as the draft opens, and again only on 'list' (the pack read whole)."""
    seat = SeatSession(session_at(tmp_path / "db.json"), 0)
    console = Console(file=io.StringIO(), width=80, height=200)
    prompt = TablePrompt(seat, console, Typed("1 2", "3 4", "list", "1 2"))
    for _ in range(3):
        prompt.pick_once()
    said = console.file.getvalue()
    assert said.count("Pack 1 of 3, pick ") == 4  # three packs, the third listed again
    assert said.count("Seat 1 of 8, draft") == 2, said  # as the draft opened, and on 'list'


def test_at_40_columns_a_cards_facts_break_between_fields_never_leaving_one_alone():
    """A 40-column terminal (a phone's): 'Strategic Planning; {1}{U}; common; U' was one character too wide and the
    identity went to a line of its own, 'U' alone at the left edge, read as a stray word.  Each line now fits, the
    name leads the first, and the facts that don't fit go under it, indented, whole fields with their type."""
    cards = load_set("CMR").cards
    finishes = [(False, False), (True, False), (False, True)]  # a foil's or etched card's notes are longer
    for width, (foil, etched) in ((width, finish) for width in (40, 41, 44, 50) for finish in finishes):
        console = Console(file=io.StringIO(), width=width, no_color=True, highlight=False)
        for card in cards:
            console.print(card_line(Printing(card, foil=foil, etched=etched), "12", width=width))
            head = f"12  {card.name}; "
            lines = console.file.getvalue().splitlines()
            console.file = io.StringIO()
            if len(head) + len(card.mana_cost or "no cost") > width:
                continue  # a name too long for the terminal: the terminal wraps it
            assert lines[0].startswith(head), lines
            assert all(len(line) <= width for line in lines), lines
            assert all(line.startswith("    ") and " " in line.strip() for line in lines[1:]), lines


def test_the_packs_later_pages_leave_out_the_pool_lines_said_on_its_first(tmp_path):
    """A pack paged on 24 lines: the pool and curve lines came again under every page of the same pick, read out
    again unchanged; they are said under the first page (and again on 'list', the pack from its first page)."""
    seat = SeatSession(session_at(tmp_path / "db.json"), 0)
    console = Console(file=io.StringIO(), width=80, height=24, force_terminal=True, no_color=True)
    TablePrompt(seat, console, Typed("", "list", "1 2")).pick_once()
    said = re.sub(r"\x1b\[[0-9;]*m", "", console.file.getvalue())
    assert re.search(r"Cards \d+ to 20 of 20\.", said), said  # the second page was shown
    assert said.count("Pool (0): ") == 2 and said.count("Curve: ") == 2, said  # page 1, and page 1 on 'list'
    assert said.count("Pack 1 of 3, pick 1 of 10, passing left") == 3  # where the draft is: above every prompt
