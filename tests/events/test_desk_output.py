"""Small desk friction (issue 22, item 7) on real database files: an illegal deck is exit 1 at the desk as
at 'deck check'; the registration board shows commanders; the physical timer counts packs and stops for
review between them; names with commas are never split in joined lists; bidi controls are shown escaped."""

from __future__ import annotations

import io
import json
import os

import pytest
from rich.console import Console

from events.storage.store import Store
from sets.errors import StateError
from tests.helpers.night import Night


@pytest.fixture
def building(tmp_path):
    """A bots draft of four, drafted: decks can be registered."""
    events = Night(Store(tmp_path / "desk.json"))
    event_id = events.create("Desk", style="bots", seed=3)
    for name in ("Ann, the Great", "Bo", "Cy", "Di"):
        events.add_player(event_id, name)
    events.seat(event_id)
    events.start_draft(event_id)
    return events, event_id


def test_an_illegal_deck_registered_at_the_desk_exits_1_as_deck_check(building, cli, tmp_path):
    events, event_id = building
    illegal = tmp_path / "illegal.txt"
    illegal.write_text("1 Murder\n", encoding="utf-8")  # one card: far too small, no commander
    for extra in ((), ("--json",)):
        result = cli("event", "deck", event_id, "Bo", illegal, *extra, "--db", events.store.path)
        assert result.exit_code == 1, result.output
    assert "NOT legal" in cli("event", "deck", event_id, "Bo", illegal, "--db", events.store.path).stdout
    check = cli("deck", "check", illegal)
    assert check.exit_code == 1  # the same verdict, the same code
    legal = cli("event", "deck", event_id, "Cy", "--auto", "--db", events.store.path)
    assert legal.exit_code == 0 and "legal" in legal.stdout
    assert events.snapshot(event_id).players[1].deck.valid is False  # still registered, shown on the board


def test_the_registration_board_has_a_commander_column(building, cli):
    events, event_id = building
    report = events.register_deck(event_id, "Cy", auto=True)
    board = cli("event", "deck", event_id, "--db", events.store.path).stdout
    assert "Commanders" in board.splitlines()[1] or "Commanders" in board
    commanders = events.snapshot(event_id).players[2].deck.commanders
    assert report.valid and all(c["name"].split(",")[0] in board for c in commanders)


def test_names_with_commas_are_never_split_in_joined_lists(building, cli):
    events, event_id = building
    for name in ("Ann, the Great", "Bo", "Cy", "Di"):
        events.register_deck(event_id, name, auto=True)
    shown = cli("event", "round", event_id, "--db", events.store.path).stdout
    assert "Ann, the Great" in shown and " / " in shown
    board = cli("event", "show", event_id, "--db", events.store.path).stdout
    table = events.snapshot(event_id).rounds[0].tables[0]
    names = {p.id: p.name for p in events.snapshot(event_id).players}
    assert " / ".join(names[pid] for pid in table) in board
    assert ", ".join(names[pid] for pid in table) not in board


@pytest.mark.parametrize(
    "control", ["\u202e", "\u202d", "\u2066", "\u2067", "\u2068", "\u2069", "\u200f", "\u061c", "\x1b"]
)
def test_bidi_and_control_characters_are_shown_escaped(control):
    from events.outputs.sheet_writers import to_text
    from events.outputs.sheets import Note, Page, Sheet
    from events.screens.render import shown

    name = f"Ann{control}regit"
    escaped = f"\\u{ord(control):04x}" if ord(control) > 0xFF else f"\\x{ord(control):02x}"
    assert shown(name).plain == f"Ann{escaped}regit"
    paper = to_text(Sheet("x", "Title", "sub", (Page("one", (Note(name),)),)))
    assert control not in paper and f"Ann{escaped}regit" in paper
    assert shown("Émile 李 ✂").plain == "Émile 李 ✂"  # letters of any script stay as typed


# Every character of these Unicode categories is written out, on the screen and on paper alike: control,
# format (bidi controls, zero-width joiners, soft hyphens, tag characters), line and paragraph separators.
HIDDEN = ["\u200d", "\u200c", "\u200b", "\xad", "\ufeff", "\u2060", "\U000e0041", "\u2028", "\u2029", "\x85", "\t"]


@pytest.mark.parametrize("hidden", HIDDEN)
def test_one_policy_escapes_the_same_characters_on_screen_on_paper_and_in_error_lines(hidden, cli, tmp_path):
    import unicodedata

    from events.outputs.sheet_writers import to_html, to_text
    from events.outputs.sheets import Note, Page, Sheet
    from events.screens.render import shown

    assert unicodedata.category(hidden) in ("Cc", "Cf", "Zl", "Zp")
    code = ord(hidden)
    escaped = f"\\x{code:02x}" if code < 0x100 else (f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    name = f"Bo{hidden}b"
    assert shown(name).plain == f"Bo{escaped}b"  # the terminal and the full-screen app
    sheet = Sheet("x", "Title", "sub", (Page("one", (Note(name),)),))
    assert f"Bo{escaped}b" in to_text(sheet) and hidden not in to_text(sheet)  # paper, as text
    assert f"Bo{escaped}b" in to_html(sheet)  # paper, as a page
    if hidden.isspace():
        return  # a name's spaces are made plain spaces when it is recorded: the error line shows one
    db = tmp_path / "e.json"
    assert cli("event", "new", "Friday", "--style", "bots", "--db", db).exit_code == 0
    for player in ("Ann", "Cy"):
        assert cli("event", "player", "add", "1", player, "--db", db).exit_code == 0
    assert cli("event", "seat", "1", "--db", db).exit_code == 0
    assert cli("event", "draft", "1", "--db", db).exit_code == 0
    result = cli("event", "player", "add", "1", name, "--db", db)  # refused, quoting the name as typed
    assert result.exit_code == 3 and hidden not in result.stderr and f"Bo{escaped}b" in result.stderr


def test_a_line_break_stays_in_rules_text_on_screen_and_is_written_out_in_a_line():
    from events.screens.render import shown
    from sets.visible import visible

    assert shown("Flying\nHaste").plain == "Flying\nHaste"
    assert visible("Ann\nBo") == "Ann\\x0aBo"


def test_the_physical_timer_counts_packs_and_waits_for_review_between_them():
    from events.screens.timer import run_timer, schedule

    slots = list(schedule(3, 4, 2, 30))  # two picks a pack
    assert [slot.pack for slot in slots] == [1, 1, 2, 2, 3, 3]
    read_end, write_end = os.pipe()
    os.write(write_end, b"\n\n\n\n")  # two picks of pack 1, Enter at the review, pick 1 of pack 2; then no keys
    os.close(write_end)
    console = Console(file=io.StringIO(), width=80, force_terminal=True)
    with os.fdopen(read_end) as stream:
        done = run_timer(console, slots, stream=stream)
    screen = console.file.getvalue()
    assert "PACK 1" in screen and "ROUND" not in screen
    assert "PACK 1 DONE" in screen and "Review your picks" in screen and "Enter: start pack 2" in screen
    assert done == 3 and "PACK 2" in screen and "PACK 2 DONE" not in screen
    # The pause is a real wait: with no Enter after pack 1, pack 2 never starts.
    read_end, write_end = os.pipe()
    os.write(write_end, b"\n\n")
    os.close(write_end)
    console = Console(file=io.StringIO(), width=80, force_terminal=True)
    with os.fdopen(read_end) as stream:
        assert run_timer(console, slots, stream=stream) == 2
    assert "PACK 1 DONE" in console.file.getvalue() and "PACK 2 " not in console.file.getvalue()


def test_a_pool_recorded_again_checks_the_registered_deck_against_it(building, cli, tmp_path):
    """Bo's deck is registered legal; Bo's pool is then recorded again without Bo's commanders (a mistyped
    pool fixed, or the wrong player's). The deck was checked against the old pool, so it is checked again:
    the board says not legal, and the desk is told to register the deck again."""
    events, event_id = building
    assert events.register_deck(event_id, "Bo", auto=True).valid
    snap = events.snapshot(event_id)
    bo = snap.players[1]
    commanders = {c["name"] for c in bo.deck.commanders}
    pool = [p.card.name for p in events.pool(event_id, "Bo")]
    without = [name for name in pool if name not in commanders]
    assert len(without) < len(pool)
    path = tmp_path / "bo-pool.txt"
    path.write_text("".join(f"1 {name}\n" for name in without), encoding="utf-8")
    result = cli("event", "pool", event_id, "Bo", path, "--replace", "--db", events.store.path)
    assert result.exit_code == 0, result.output
    assert "register" in result.stdout and "deck" in result.stdout and "not legal" in result.stdout
    deck = events.snapshot(event_id).players[1].deck
    assert deck.valid is False
    board = json.loads(cli("event", "deck", event_id, "--json", "--db", events.store.path).stdout)
    row = next(row for row in board if row["player"] == "Bo")
    assert row["status"] != "legal", row
    # the same pool again (the right one): the deck is legal again
    path.write_text("".join(f"1 {name}\n" for name in pool), encoding="utf-8")
    again = cli("event", "pool", event_id, "Bo", path, "--replace", "--db", events.store.path)
    assert again.exit_code == 0 and events.snapshot(event_id).players[1].deck.valid is True


def test_a_round_that_does_not_exist_says_which_rounds_there_are(building, cli):
    """A result or game entry for a round not paired yet (a typo, or 'round' not run yet) is bad input (2)
    saying which rounds exist and how to pair the next: no bare 'no round 5'."""
    events, event_id = building
    for name in ("Ann, the Great", "Bo", "Cy", "Di"):
        events.register_deck(event_id, name, auto=True)
    db = ("--db", events.store.path)
    before = cli("event", "result", event_id, 1, 1, "Bo > Cy > Di > #1", *db)
    assert before.exit_code == 2 and "no round has been paired yet" in before.stderr
    assert f"cmdraft event round {event_id}" in before.stderr
    events.new_round(event_id)
    for args in (("result", event_id, 5, 1, "Bo > Cy > Di > #1"), ("game", event_id, 5, 1, "--life", "Bo=-1")):
        result = cli("event", *args, *db)
        assert result.exit_code == 2, result.output
        assert "no round 5" in result.stderr and "rounds 1 to 1" in result.stderr and "Traceback" not in result.output
    assert events.history(event_id)[-1].what == "round"  # nothing was written by the refusals


@pytest.mark.parametrize(
    ("options", "why"),
    [(("--style", "terminal"), "terminal"), (("--style", "bots"), "bots"), (("--sealed",), "sealed")],
)
def test_the_physical_draft_timer_is_refused_for_an_event_without_a_physical_draft(cli, tmp_path, options, why):
    """The big-screen pick timer is for a draft at the table: a terminal or bots draft times its own picks,
    a sealed event passes no packs. Refused (3) saying why, instead of a pick clock nobody follows."""
    db = tmp_path / "timer.json"
    assert cli("event", "new", "Friday", *options, "--db", db).exit_code == 0
    result = cli("event", "timer", "1", "--db", db, input="q\n")
    assert result.exit_code == 3, result.output
    assert why in result.stderr and "physical" in result.stderr and "PACK 1" not in result.stdout


def test_a_name_with_bidi_controls_is_written_out_in_an_error_line(tmp_path, cli):
    """The one-line error quotes what was typed; a right-to-left override in it is shown as ``\\u202e``,
    never passed to the terminal to turn the rest of the line around."""
    db = tmp_path / "e.json"
    assert cli("event", "new", "Friday", "--style", "bots", "--db", db).exit_code == 0
    for name in ("Ann", "Bo"):
        assert cli("event", "player", "add", "1", name, "--db", db).exit_code == 0
    assert cli("event", "seat", "1", "--db", db).exit_code == 0
    assert cli("event", "draft", "1", "--db", db).exit_code == 0
    result = cli("event", "player", "add", "1", "Cy\u202eevil", "--db", db)  # refused: the draft has started
    assert result.exit_code == 3
    assert "\u202e" not in result.stderr and "Cy\\u202eevil" in result.stderr
    assert result.stderr.count("\n") == 1


def test_a_pool_recorded_again_while_a_deck_is_checked_refuses_that_deck(building, monkeypatch):
    """Registering a deck checks it against the pool, then writes: if another terminal records the
    player's pool again in between, the check no longer holds and nothing is written (exit 3)."""
    import events.night.decks as decks_module
    from draft.formats import parse
    from events.storage.store import Store
    from tests.helpers.night import Night

    events, event_id = building
    pool_text = "".join(f"1 {p.card.name}\n" for p in events.pool(event_id, "Bo"))
    checked = decks_module.validate

    def validate_while_the_desk_records_the_pool(*args, **kwargs):
        Night(Store(events.store.path)).record_pool(event_id, "Bo", parse(pool_text), replace=True)
        return checked(*args, **kwargs)

    monkeypatch.setattr(decks_module, "validate", validate_while_the_desk_records_the_pool)
    with pytest.raises(StateError, match="recorded again while the deck was checked"):
        events.register_deck(event_id, "Bo", auto=True)
    assert events.snapshot(event_id).players[1].deck is None


HOSTILE = ["Evil\u202eName", "Tab\tName", "=cmd|' /C calc'!A0", "<script>alert(1)</script>", "Zero\u200dJoin"]


def unescaped(text: str) -> list[str]:
    """The control, format and separator characters in ``text`` that a file or message should have written out
    (a file's own line breaks are its lines)."""
    import unicodedata

    return sorted({ch for ch in text if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") and ch != "\n"})


def test_every_output_of_a_night_with_hostile_names_writes_them_out(cli, tmp_path):
    """Every file an export writes, every printed CSV and the prose of --json: no bidi control, tab or zero-width
    character as it is, and no CSV cell a spreadsheet would run as a formula; JSON data fields keep the name
    exactly as stored."""
    import csv

    db = tmp_path / "hostile.json"
    run = lambda *args: cli(*args, "--db", db)  # noqa: E731
    assert run("event", "new", "Hostile\u202eNight", "--style", "bots", "--seed", "4").exit_code == 0
    added = run("event", "player", "add", "1", *HOSTILE)
    assert added.exit_code == 0 and not unescaped(added.stdout)
    assert "registered 'Tab Name'" in added.stdout  # as it is stored: a name's spaces are plain spaces
    for step in (("seat", "1"), ("draft", "1")):
        assert run("event", *step).exit_code == 0
    for number in range(1, len(HOSTILE) + 1):
        assert run("event", "deck", "1", f"#{number}", "--auto").exit_code == 0
    assert run("event", "round", "1", "--force").exit_code == 0
    shown = json.loads(run("event", "show", "1", "--json").stdout)
    number = {player["name"]: f"#{player['number']}" for player in shown["players"]}
    tables = [[number[name] for name in table] for table in shown["rounds"][0]["tables"]]
    for table_number, table in enumerate(tables, start=1):
        assert run("event", "result", "1", "1", str(table_number), " > ".join(table)).exit_code == 0
    listed = json.loads(run("event", "undo", "1", "--list", "--json").stdout)
    undone = json.loads(run("event", "undo", "1", "--json").stdout)
    assert "\u202e" in undone["new"] or "\u202e" in json.dumps(undone["new"], ensure_ascii=False)  # data: as stored
    for prose in (listed["text"], undone["undid"]):
        assert not unescaped(prose) and "\\u202e" in prose, prose
    assert run("event", "result", "1", "1", "1", " > ".join(tables[0])).exit_code == 0
    assert run("event", "finish", "1").exit_code == 0
    printed = {
        f"print-{what}.csv": run("event", "print", "1", what, "--format", "csv").stdout
        for what in ("pairings", "standings", "results")
    }
    assert run("event", "export", "1", "--out", tmp_path / "out").exit_code == 0
    files = {path.name: path.read_text(encoding="utf-8") for path in (tmp_path / "out").iterdir()}
    assert any(name.endswith("-draftlog.txt") for name in files) and any(name.endswith(".dck") for name in files)
    for name, text in {**printed, **files}.items():
        if name.endswith(".json"):
            continue  # data: the stored values as they are
        assert not unescaped(text), name
        if name.endswith(".csv"):
            cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
            assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@")], name
    assert "Evil\\u202eName" in files["standings.csv"] and "'=cmd|' /C calc'!A0" in files["standings.csv"]
    stored = {p["name"] for p in json.loads(run("event", "show", "1", "--json").stdout)["players"]}
    assert "Evil\u202eName" in stored  # a data field is the stored value itself
