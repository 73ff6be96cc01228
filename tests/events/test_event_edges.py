"""Store events on real database files: strict numbers, user text shown as typed, game table sizes, bots,
exit codes, and moving one event between databases (issue 11 items 6, 8, 9, 10, 12)."""

from __future__ import annotations

import dataclasses
import io
import json
import re
import unicodedata
from pathlib import Path
from types import SimpleNamespace

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from events.night.rounds import game_table_sizes
from events.storage.store import Store
from sets.errors import InputError, StateError
from sets.names import name_key, shows_something
from sets.numbers import is_number, parse_int
from tests.helpers.night import Night
from tests.helpers.sweeps import examples


@pytest.fixture
def events(tmp_path):
    return Night(Store(tmp_path / "event.json"))


def played_event(events, names=("Ann", "Bo", "Cy", "Di"), name="Friday", requests=None):
    """A bots-drafted event with auto decks and round 1 started (one table of four); ``requests``: the Pipers players
    ask for, made before the decks are registered (as a request must be)."""
    event_id = events.create(name, style="bots", seed=7)
    for player in names:
        events.add_player(event_id, player)
    events.seat(event_id)
    events.start_draft(event_id)
    if requests:
        events.set_pipers(event_id, requests=requests)
    for player in names:
        events.register_deck(event_id, player, auto=True)
    events.new_round(event_id)
    return event_id


def one_line_error(result, code: int) -> None:
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    assert result.stderr.startswith("cmdraft: error: ") and result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr + result.stdout


# --- item 6: one strict integer parser -------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["--5", "²", "٣", "3_000", "+-1", "", " ", "1e3", "0x10", "١٢", "5.0", "9" * 19])
def test_strict_parser_refuses_anything_but_ascii_digits(text):
    with pytest.raises(InputError, match="bad count"):
        parse_int(text, "count", signed=True)


def test_strict_parser_reads_plain_numbers_and_signs_only_where_allowed():
    assert (
        parse_int("007", "n") == 7
        and parse_int(" -5 ", "n", signed=True) == -5
        and parse_int("+5", "n", signed=True) == 5
    )
    assert not is_number("-5") and is_number("-5", signed=True)
    with pytest.raises(InputError, match="no sign"):
        parse_int("-1", "count")


@pytest.mark.parametrize(
    "args",
    [
        ["game", "{id}", "1", "1", "--life", "Ann=--5"],
        ["game", "{id}", "1", "1", "--life", "Ann=²"],
        ["game", "{id}", "1", "1", "--life", "Ann=٣"],
        ["game", "{id}", "1", "1", "--damage", "Cy=X:²"],
        ["game", "{id}", "1", "1", "--damage", "Cy=Ann:X:²"],
        ["game", "{id}", "1", "1", "--damage", "Cy=Ann:X:-3"],
        ["game", "{id}", "1", "1", "--cast", "Bo=X#²"],
        ["game", "{id}", "٣", "1"],
        ["game", "{id}", "1", "²"],
        ["pipers", "{id}", "--request", "Ann=--1"],
        ["pipers", "{id}", "--request", "Ann=-1"],
        ["pipers", "{id}", "--opened", "1=²"],
        ["pipers", "{id}", "--opened", "²=1"],
        ["pipers", "{id}", "--stock", "٣"],
        ["show", "٣"],
        ["new", "X", "--pod-size", "٨"],
    ],
)
def test_typed_numbers_go_through_the_strict_parser(events, cli, args):
    event_id = played_event(events)
    before = events.store.path.read_bytes()
    result = cli("event", *[a.replace("{id}", str(event_id)) for a in args], "--db", events.store.path)
    one_line_error(result, 2)
    assert events.store.path.read_bytes() == before


def test_a_player_number_is_read_strictly(events):
    event_id = played_event(events)
    ann = events.player_id(event_id, "Ann")
    assert events.player_id(event_id, f"#{ann}") == ann
    for fake in ("#٣", "#²", "#+1", "#1_0"):
        with pytest.raises(InputError, match="no player"):
            events.player_id(event_id, fake)


# --- item 6: user text shown as typed --------------------------------------------------------------------------


def visible_form(text: str) -> str:
    """What a name looks like on screen: control, format and separator characters (Unicode categories Cc, Cf,
    Zl, Zp) written out, line breaks kept, everything else as typed."""

    def form(ch: str) -> str:
        if ch == "\n" or unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp"):
            return ch
        code = ord(ch)
        return f"\\x{code:02x}" if code < 0x100 else (f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")

    return "".join(form(ch) for ch in text)


def no_raw_controls(output: str) -> bool:
    return not any(unicodedata.category(ch) == "Cc" and ch != "\n" for ch in output)


@pytest.mark.parametrize("name", ["Test [/b] event", "[bold red]Friday[/]", "back\\slash\\", "[link=x]y[/link]"])
def test_event_names_with_markup_are_shown_as_typed(cli, tmp_path, name):
    db = tmp_path / "markup.json"
    assert cli("event", "new", name, "--db", db).exit_code == 0
    assert cli("event", "player", "add", "1", "[/b]", "Ann", "--db", db).exit_code == 0
    for args in (["list"], ["show", "1"], ["deck", "1"], ["standings", "1"], ["pipers", "1"]):
        result = cli("event", *args, "--db", db)
        assert result.exit_code == 0, (args, result.stderr)
        if args[0] in ("list", "show", "deck"):
            assert name in result.stdout, (args, result.stdout)
    assert "[/b]" in cli("event", "show", "1", "--db", db).stdout
    timer = cli("event", "timer", "1", "--db", db, input="q\n")
    assert timer.exit_code == 0 and name in timer.stdout


NAME_CHARS = st.one_of(
    st.sampled_from(list("[]\\/=:#@ab Zé") + ["[/", "[b]", "[/]", "[bold red]", "[link=x]", "\\["]),
    st.sampled_from(list("字漢🦄ｗ한")),
    st.characters(categories=["Cc"]),
    st.characters(exclude_categories=["Cs"]),
)
NAMES = (
    st.lists(NAME_CHARS, min_size=1, max_size=8)
    .map("".join)
    .filter(lambda s: s.split() and not s.lstrip().startswith("-"))
)
# The names registration takes: a name that shows nothing (only spaces or control characters) is refused
# (tests/events/test_world_names.py).
REGISTERED_NAMES = NAMES.filter(shows_something)


def render(renderable, markup: bool) -> str:
    """Rendered on a console like the CLI's (markup off) and on rich's default (markup on): both must hold."""
    from events.screens.render import SafeConsole

    kind = SafeConsole if not markup else Console
    console = kind(file=io.StringIO(), width=200, markup=markup, highlight=False, color_system=None)
    console.print(renderable)
    return console.file.getvalue()


@pytest.fixture(scope="module")
def real_snapshot(tmp_path_factory):
    """A whole event's snapshot, ledger, standings and game board from a real database file."""
    from draft.formats import parse

    events = Night(Store(tmp_path_factory.mktemp("snap") / "snap.json"))
    event_id = played_event(events, requests={"Ann": 2, "Cy": 2})
    events.register_deck(  # after round 1: the desk's correction, with its reason
        event_id,
        "Bo",
        parse("Commander\n1 The Prismatic Piper\n1 The Prismatic Piper\n\nDeck\n1 Plains\n"),
        reason="two Pipers lead",
    )
    board = events.game(
        event_id, 1, 1, life={"Ann": -3}, damage=[("Ann", "Bo", "Piper#2", 4)], casts=[("Bo", "Piper#1")]
    )
    return events.snapshot(event_id), events.piper_ledger(event_id), events.standings(event_id), board


def renamed(value, names: dict[str, str]):
    """``value`` with every player and event name replaced (a deep copy)."""
    if isinstance(value, msgspec.Struct):
        fields = {name: renamed(getattr(value, name), names) for name in value.__struct_fields__}
        return msgspec.structs.replace(value, **fields)
    if isinstance(value, dict):
        return {key: renamed(item, names) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(renamed(item, names) for item in value)
    if isinstance(value, str):
        for old, new in names.items():
            value = value.replace(old, new)
        return value
    return value


@pytest.mark.slow
@pytest.mark.sweep
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(event_name=NAMES, player_names=st.lists(NAMES, min_size=4, max_size=4, unique=True), card_name=NAMES)
def test_every_screen_renders_any_name_as_typed(real_snapshot, event_name, player_names, card_name):
    from events.night.pipers import Request
    from events.night.round_clock import RoundClock
    from events.screens import boards
    from events.screens import deck_tables as decks
    from events.screens import render as screens
    from events.screens.clock import clock_screen
    from events.screens.render import identity_text
    from events.screens.timer import _screen, schedule
    from sets.booster import Printing
    from sets.catalog import load_set
    from sets.colors import Color

    snap, ledger, standings, board = real_snapshot
    mapping = {
        "Friday": f"\x00E{event_name}",
        **{old: f"\x00P{i}{new}" for i, (old, new) in enumerate(zip(("Ann", "Bo", "Cy", "Di"), player_names))},
    }
    # Placeholders first, so that a random name containing another name is not replaced twice.
    final = {f"\x00E{event_name}": event_name, **{f"\x00P{i}{new}": new for i, new in enumerate(player_names)}}
    snap2, ledger2, board2 = (renamed(renamed(x, mapping), final) for x in (snap, ledger, board))
    rows = [dataclasses.replace(row, name=renamed(renamed(row.name, mapping), final)) for row in standings]
    piper = next(card for card in load_set("CMR") if card.name == "The Prismatic Piper")
    face = dataclasses.replace(
        piper.faces[0], name=card_name, type_line=f"Legendary Creature — {card_name}", power=card_name
    )
    card = dataclasses.replace(piper, name=card_name, faces=(face,), partner_with=card_name)
    report = SimpleNamespace(
        valid=False,
        problems=[SimpleNamespace(code="not-in-pool", message=f"{card_name!s} is not in the pool")],
        format=SimpleNamespace(value="commander-draft"),
        commanders=[card_name, player_names[0]],
        piper_colors=[],
        chosen_for_you=[card_name],
        color_identity=piper.identity,
        size=1,
        notes=[card_name],
        product="CLB",
    )
    suggestion = SimpleNamespace(
        commanders=[card_name], piper_colors=[], identity=piper.identity, playable=3, added_pipers=0
    )
    seat = SimpleNamespace(
        seat=0,
        name=player_names[0],
        style=SimpleNamespace(value="best-card"),
        report=SimpleNamespace(
            piper_colors=[Color.U], valid=False, codes=lambda: [card_name], color_identity=piper.identity, size=1
        ),
        deck=SimpleNamespace(commanders=[card]),
    )
    pod = SimpleNamespace(
        draft=SimpleNamespace(config=SimpleNamespace(set_code=card_name)), seed=1, pipers_opened=0, seats=[seat]
    )
    slot = next(iter(schedule(3, 20, 2, 60)))
    screens_and_names = [
        (boards.event_board(snap2, ledger2), [event_name, *player_names]),
        (boards.deck_board(snap2), [event_name, *player_names]),
        # the forecast's rows (shown while some deck is unregistered) name the players who asked
        (
            boards.piper_ledger(
                msgspec.structs.replace(
                    ledger2,
                    forecast=msgspec.structs.replace(
                        ledger2.forecast,
                        spent=False,
                        requests=[Request(player=name, requested=2, name=name) for name in player_names[0:3:2]],
                    ),
                )
            ),
            player_names[0:3:2],
        ),
        (boards.standings_table(rows), player_names),
        (boards.game_board(board2), player_names),
        (screens.pack_table([Printing(card, "", False, False)], title=event_name), [card_name, event_name]),
        (screens.pack_table([Printing(card, "", True, False)], title=event_name, width=80), [event_name]),
        (screens.card_panel(card), [card_name]),
        (decks.deck_report(report), [card_name]),
        (decks.suggestion_table([suggestion]), [card_name]),
        (decks.pod_table(pod), [player_names[0]]),
        (screens.mana_text("{2}{" + card_name + "}"), []),
        (_screen(slot, 42, False, event_name), [event_name]),
        (
            clock_screen(
                event_name,
                1,
                RoundClock(length=600, started=0),
                30,
                [player_names[:2], player_names[2:]],
                player_names[::2],
            ),
            [event_name, *player_names],
        ),
        (
            screens.card_list_table(
                ["Count", "Card", "Id"],
                [["1", card_name, identity_text(piper.identity.code)]],
                title="Your pool",
                width=80,
            ),
            [card_name],
        ),
        (screens.text_line(card, 200), [card_name]),
        (screens.shown(f"registered {player_names[0]}"), [player_names[0]]),
        (f"Saved. Continue with {player_names[1]}", [player_names[1]]),
    ]
    for renderable, expected in screens_and_names:
        for markup in (False, True):
            if markup and isinstance(renderable, str):
                continue  # a plain string is a message: only the CLI's console (markup off) prints those
            output = render(renderable, markup)
            assert no_raw_controls(output), repr(output)
            for name in expected:
                assert shown_as_typed(name, output), (name, output)


def shown_as_typed(name: str, output: str) -> bool:
    """Whether a screen shows the name as typed (control characters written out; it may wrap at its spaces)."""
    flat, shown = output.replace("\n", ""), visible_form(name)
    return shown in flat or all(part in flat for part in shown.split())


def test_the_name_checks_can_disagree():
    """A planted fault for the sampled name fuzzers: a string printed where rich reads markup loses the name's
    brackets, and a control character written raw is seen."""
    name = "[b]Ann[/b]"
    assert not shown_as_typed(name, render(f"registered {name}", markup=True))
    assert shown_as_typed(name, render(f"registered {name}", markup=False))
    assert not no_raw_controls("Ann\x1b[31m")


@pytest.mark.sweep
@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    event_name=REGISTERED_NAMES,
    player_names=st.lists(REGISTERED_NAMES, min_size=2, max_size=3, unique_by=name_key),
)
def test_every_event_command_prints_any_name_as_typed(cli, tmp_path_factory, event_name, player_names):
    db = tmp_path_factory.mktemp("names") / "names.json"
    assert cli("event", "new", event_name, "--db", db).exit_code == 0
    added = cli("event", "player", "add", "1", *player_names, "--db", db)
    assert added.exit_code == 0, added.stderr
    outputs = [added.stdout]
    for args in (
        ["list"],
        ["show", "1"],
        ["deck", "1"],
        ["standings", "1"],
        ["seat", "1"],
        ["show", "1"],
        ["pipers", "1"],
        ["player", "drop", "1", "#1"],
    ):
        result = cli("event", *args, "--db", db)
        assert result.exit_code == 0, (args, result.stderr)
        outputs.append(result.stdout)
    timer = cli("event", "timer", "1", "--db", db, input="q\n")
    assert timer.exit_code == 0
    for output in [*outputs, timer.stdout]:
        assert no_raw_controls(output), repr(output)
    flat = "".join(outputs[2].split())
    # Event names are kept as typed (ends stripped); player names with their spaces collapsed.
    for shown in [visible_form(event_name.strip()), *(visible_form(" ".join(name.split())) for name in player_names)]:
        assert "".join(shown.split()) in flat, (shown, outputs[2])


@pytest.mark.slow
def test_a_player_named_like_markup_quits_a_terminal_draft_cleanly(tmp_path):
    """Waiting for other players, a terminal answers 'quit' and end of input; '[/b]' is shown as typed."""
    import pexpect

    from tests.helpers.terminals import PICK, spawn

    db = tmp_path / "quit.json"
    events = Night(Store(db))
    event_id = events.create("Quit [/b] night", style="terminal", seed=5)
    for name in ("[/b]", "Bo"):
        events.add_player(event_id, name)
    events.add_player(event_id, "Robo", bot=True)
    events.seat(event_id)
    events.start_draft(event_id)
    with events.store.read() as handle:
        code = next(p["code"] for p in handle.table("players").all() if p["name"] == "[/b]")
    for leave in ("quit", None):
        child = spawn(["event", "draft", str(event_id), "--player", "[/b]", "--db", str(db)], tmp_path, timeout=60)
        # each new terminal asks the seat code (the name shown as typed)
        child.expect(re.escape("Seat code for [/b]"))
        child.sendline(code)
        if leave == "quit":
            child.expect(PICK)
            child.sendline("1 2")
            child.expect(r"\[Y/n\]")
            child.sendline("y")
        child.expect(PICK)  # the next pack: the bot upstream passed it at once
        if leave:
            child.sendline(leave)
        else:
            child.sendeof()
        child.expect(r"Saved\. Continue with: cmdraft event draft \d+ --player '\[/b\]' --db (\S+)")
        assert child.match.group(1) == str(db)  # the hint keeps the database
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0 and "Traceback" not in (child.before or "")


# --- item 8: game tables of 3 to 5 -------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [3, 4, 5])
def test_every_game_table_holds_three_to_five_players(size):
    for players in range(3, 65):
        tables = game_table_sizes(players, size)
        assert sum(tables) == players and all(3 <= t <= 5 for t in tables), (players, size, tables)
        assert max(tables) - min(tables) <= 1, (players, size, tables)
        if players % size == 0:
            assert tables == [size] * (players // size), (players, size, tables)


def test_the_reported_table_sizes():
    assert game_table_sizes(5, 3) == [5]  # not 3 + 2
    assert game_table_sizes(7, 5) == [4, 3]  # not one table of 7
    assert game_table_sizes(12, 5) == [4, 4, 4]  # not 6 + 6


def test_one_v_one_tables_are_pairs_and_one_three_when_odd():
    for players in range(2, 65):
        tables = game_table_sizes(players, 4, one_v_one=True)
        assert sum(tables) == players and tables.count(3) == players % 2 and set(tables) <= {2, 3}


def test_rounds_use_the_table_sizes(events):
    event_id = events.create("Fives", style="bots", seed=3, game_size=5)
    for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"):
        events.add_player(event_id, name)
    events.seat(event_id)
    events.start_draft(event_id)
    tables = events.new_round(event_id, force=True).tables
    assert sorted(len(t) for t in tables) == [3, 4]


# --- item 9: bots fill draft seats only ---------------------------------------------------------------------------


def test_bots_that_fill_draft_seats_are_never_paired_need_no_deck_and_have_no_standing(events, cli):
    event_id = events.create("Bots fill", style="terminal", seed=9)
    humans = ("Ann", "Bo", "Cy")
    for name in humans:
        events.add_player(event_id, name)
    for name in ("Robo", "Droid"):
        events.add_player(event_id, name, bot=True)
    events.seat(event_id)
    events.start_draft(event_id)
    # The humans draft (the test picks for them through the session); bots pick by themselves.
    for pod in events.snapshot(event_id).pods:
        session = events.draft_session(event_id, pod.number)
        while not session.draft.finished:
            for seat in session.waiting_humans():
                session.pick(session.suggested_pick(seat))
            session.refresh()
        events.after_picks(event_id, pod.number, session)
    assert events.snapshot(event_id).event.status == "building"
    for name in humans:
        events.register_deck(event_id, name, auto=True)
    rnd = events.new_round(event_id)  # no --force: the bots need no deck
    assert sorted(n for t in rnd.tables for n in t) == sorted(humans)
    events.record_result(event_id, 1, 1, " > ".join(rnd.tables[0]))
    assert sorted(row.name for row in events.standings(event_id)) == sorted(humans)
    board = cli("event", "deck", event_id, "--db", events.store.path)
    assert "Robo" not in board.stdout and "Ann" in board.stdout
    listed = json.loads(cli("event", "deck", event_id, "--db", events.store.path, "--json").stdout)
    assert sorted(row["name"] for row in listed) == sorted(humans)
    standings = json.loads(cli("event", "standings", event_id, "--db", events.store.path, "--json").stdout)
    assert sorted(row["name"] for row in standings) == sorted(humans)


# --- item 10: exit codes as README says ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["result", "{id}", "9", "1", "Ann > Bo"],
        ["result", "{id}", "1", "9", "Ann > Bo"],
        ["game", "{id}", "9", "1"],
        ["game", "{id}", "1", "9", "--life", "Ann=-1"],
        ["game", "{id}", "0", "1"],
    ],
)
@pytest.mark.parametrize("finished", [False, True])
def test_an_unknown_round_or_table_is_bad_input_in_every_state(events, cli, args, finished):
    event_id = played_event(events)
    if finished:
        table = events.snapshot_tables(event_id, 1)[0]
        events.record_result(event_id, 1, 1, " > ".join(table))
        events.finish(event_id)
    before = events.store.path.read_bytes()
    result = cli("event", *[a.replace("{id}", str(event_id)) for a in args], "--db", events.store.path)
    one_line_error(result, 2)
    assert re.search(r"no round|has tables 1 to", result.stderr)
    assert events.store.path.read_bytes() == before


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["result", "{id}", "1", "1", "Ann > Zed"], "no player 'Zed'"),
        (["game", "{id}", "1", "1", "--life", "Zed=-1"], "no player 'Zed'"),
        (["game", "{id}", "1", "1", "--damage", "Ann=Zed:Piper:3"], "no player 'Zed'"),
        (["game", "{id}", "1", "1", "--cast", "Ann=Nothing Like It"], "Nothing Like It"),
    ],
)
@pytest.mark.parametrize("state", ["closed", "finished"])
def test_a_name_that_names_nobody_is_bad_input_in_every_state(events, cli, args, said, state):
    """docs/commands.md: a name that names nothing (a player, a commander) is bad input, 2, whatever state the
    event is in; only a real one whose step isn't possible now is 3."""
    event_id = played_event(events)
    table = events.snapshot_tables(event_id, 1)[0]
    events.record_result(event_id, 1, 1, " > ".join(table))  # round 1 closed
    if state == "finished":
        events.finish(event_id)
    before = events.store.path.read_bytes()
    result = cli("event", *[a.replace("{id}", str(event_id)) for a in args], "--db", events.store.path)
    one_line_error(result, 2)
    assert said in result.stderr
    assert events.store.path.read_bytes() == before


def test_game_tracker_refuses_changes_to_closed_rounds_and_finished_events(events, cli):
    event_id = played_event(events)
    db = events.store.path
    assert cli("event", "game", event_id, 1, 1, "--life", "Ann=-2", "--db", db).exit_code == 0
    table = events.snapshot_tables(event_id, 1)[0]
    events.record_result(event_id, 1, 1, " > ".join(table))
    before = db.read_bytes()
    closed = cli("event", "game", event_id, 1, 1, "--life", "Ann=-2", "--db", db)
    one_line_error(closed, 3)
    assert "closed" in closed.stderr and db.read_bytes() == before
    shown = json.loads(cli("event", "game", event_id, 1, 1, "--db", db, "--json").stdout)  # reading still works
    assert next(p for p in shown["players"] if p["player"] == "Ann")["life"] == 38
    events.finish(event_id)
    before = db.read_bytes()
    finished = cli("event", "game", event_id, 1, 1, "--life", "Bo=-1", "--db", db)
    one_line_error(finished, 3)
    assert "finished" in finished.stderr and db.read_bytes() == before
    with pytest.raises(StateError):
        events.game(event_id, 1, 1, life={"Bo": 1})


def test_restore_of_a_missing_file_is_bad_input(events, cli, tmp_path):
    played_event(events)
    before = events.store.path.read_bytes()
    for args in (["/nonexistent"], ["/nonexistent", "--all"], [str(tmp_path)]):
        result = cli("event", "restore", *args, "--db", events.store.path)
        one_line_error(result, 2)
        assert events.store.path.read_bytes() == before


def test_unknown_pod_is_bad_input(events):
    event_id = played_event(events)
    with pytest.raises(InputError, match="no pod 9"):
        events.draft_session(event_id, 9)


# --- item 12: export and restore one event ------------------------------------------------------------------------


def event_summary(events, event_id):
    snap = events.snapshot(event_id)
    names = {p.id: p.name for p in snap.players}
    return {
        "name": snap.event.name,
        "status": snap.event.status,
        "players": [(p.name, p.pool_size, bool(p.deck)) for p in snap.players],
        "rounds": [[[n for n in t] for t in events.snapshot_tables(event_id, r.number)] for r in snap.rounds],
        "first": [[names[i] for i in r.first] for r in snap.rounds],
        "standings": [(row.name, row.points) for row in events.standings(event_id)],
        "game": [(p.player, p.life, [t.tax for t in p.tax]) for p in events.game(event_id, 1, 1).players],
    }


def test_export_holds_one_event_and_restore_adds_or_replaces_it_alone(cli, tmp_path):
    source = Night(Store(tmp_path / "source.json"))
    first = played_event(source, name="First night")
    second = played_event(source, names=("Eve", "Fay", "Gil", "Hob"), name="Second night")
    table = source.snapshot_tables(second, 1)[0]
    commanders = [card["name"] for card in source.snapshot(second).players[1].deck.commanders]
    # a deck led by two copies of one card (two Pipers) names the copy it casts
    cast = commanders[0] + ("#1" if commanders.count(commanders[0]) > 1 else "")
    source.game(second, 1, 1, life={"Eve": -4}, casts=[("Fay", cast)])
    source.record_result(second, 1, 1, " > ".join(table))
    out = tmp_path / "export"
    assert cli("event", "export", second, "--out", out, "--db", source.store.path).exit_code == 0
    exported = json.loads((out / "database.json").read_text())
    assert list(exported["events"]) == [str(second)]
    assert sorted(p["name"] for p in exported["players"].values()) == ["Eve", "Fay", "Gil", "Hob"]
    assert all(
        doc["event"] == second
        for name in ("players", "pods", "pools", "decks", "rounds", "results")
        for doc in exported[name].values()
    )
    assert {d.get("event") for d in exported["drafts"].values()} == {second}
    expected = event_summary(source, second)

    # Into another database that has its own events: added, the others untouched.
    target = Night(Store(tmp_path / "target.json"))
    own = played_event(target, names=("Ivy", "Jo", "Kai", "Lu"), name="Other store")
    own_before = event_summary(target, own)
    added = cli("event", "restore", out / "database.json", "--db", target.store.path)
    assert added.exit_code == 0 and "added event" in added.stdout, added.stderr
    listed = {row.name: row.id for row in target.list_events()}
    assert set(listed) == {"Other store", "Second night"}
    assert event_summary(target, listed["Second night"]) == expected
    assert event_summary(target, own) == own_before
    # The restored event goes on: its next round pairs its own players.
    target.new_round(listed["Second night"])
    assert sorted(n for t in target.snapshot_tables(listed["Second night"], 2) for n in t) == [
        "Eve",
        "Fay",
        "Gil",
        "Hob",
    ]

    # Again: the same event is replaced in place (round 2 gone), nothing is added, the others stay.
    again = cli("event", "restore", out / "database.json", "--db", target.store.path, "--json")
    report = json.loads(again.stdout)
    assert report["replaced"] and report["event"] == listed["Second night"] and Path(report["backup"]).exists()
    assert {row.name for row in target.list_events()} == {"Other store", "Second night"}
    assert event_summary(target, listed["Second night"]) == expected
    assert event_summary(target, own) == own_before
    with target.store.read() as db:
        assert len(db.table("players").all()) == 8 and len(db.table("rounds").all()) == 2

    # Back into the source after a change there: only that event goes back; the first is untouched.
    first_before = event_summary(source, first)
    source.drop_player(second, "Eve")
    restored = cli("event", "restore", out / "database.json", "--db", source.store.path)
    assert restored.exit_code == 0 and "replaced event" in restored.stdout
    assert event_summary(source, second) == expected and event_summary(source, first) == first_before

    # A whole database with several events needs --all (or --event ID).
    several = cli("event", "restore", source.store.path, "--db", target.store.path)
    one_line_error(several, 2)
    pick = cli("event", "restore", source.store.path, "--event", first, "--db", target.store.path)
    assert pick.exit_code == 0 and {row.name for row in target.list_events()} == {
        "Other store",
        "Second night",
        "First night",
    }
    whole = cli("event", "restore", source.store.path, "--all", "--db", target.store.path)
    assert whole.exit_code == 0 and {row.name for row in target.list_events()} == {"First night", "Second night"}


def test_every_int_parameter_of_the_cli_uses_the_strict_parser(cli):
    """Not only the event commands: any number option or argument anywhere goes through sets.numbers."""
    import click
    import typer

    from events.cli import app
    from events.cli.root import StrictInt, StrictIntRange

    def walk(command):
        yield command
        for sub in getattr(command, "commands", {}).values():
            yield from walk(sub)

    ints = [
        (command.name, param.name, param.type)
        for command in walk(typer.main.get_command(app))
        for param in command.params
        if isinstance(param.type, click.types.IntParamType)
    ]
    assert len(ints) > 10 and all(isinstance(kind, (StrictInt, StrictIntRange)) for _, _, kind in ints), ints
    one_line_error(cli("sim", "--players", "٨"), 2)
    one_line_error(cli("packs", "audit", "--seed", "²"), 2)


def test_restoring_one_event_from_a_backup_keeps_its_live_draft_whole(cli, tmp_path):
    """A backup of this very database names a live draft's journal file: the restored event holds every
    pick made so far, drafts on with its own journal, and the database's other event is untouched."""
    db = tmp_path / "db.json"
    events = Night(Store(db))
    other = played_event(events, names=("Eve", "Fay", "Gil", "Hob"), name="Other night")
    event_id = events.create("Live", style="terminal", seed=3)
    for name in ("Ann", "Bo"):
        events.add_player(event_id, name)
    events.seat(event_id)
    events.start_draft(event_id)
    session = events.draft_session(event_id, 1)
    for turn in range(3):
        if turn == 2:
            backup = events.store.backup()  # mid-draft (say, another event's phase change)
        for seat in session.waiting_humans():
            session.pick(session.suggested_pick(seat))
    picks = [p.positions for p in session.draft.log]
    other_before = event_summary(events, other)
    refused = cli("event", "restore", backup, "--event", event_id, "--db", db, "--json")
    assert refused.exit_code == 3 and "--force" in refused.stderr  # the draft is live (issue 20)
    result = cli("event", "restore", backup, "--event", event_id, "--force", "--db", db, "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["replaced"] and Path(report["backup"]).exists()
    assert report["discarded_picks"] == 0  # the backup names this draft's own journal: every pick comes along
    restored = Night(Store(db))
    again = restored.draft_session(report["event"], 1)
    assert [p.positions for p in again.draft.log] == picks and len(picks) == 6  # the journal's picks are never lost
    again.pick(again.suggested_pick(0))
    assert len(Night(Store(db)).draft_session(report["event"], 1).draft.log) == 7
    assert event_summary(restored, other) == other_before
