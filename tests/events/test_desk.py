"""The organizer's desk on real database files: player admin (rename, remove, #N, names that look like
numbers), quoted names in results, results history and exports, the Piper ledger from decks, typed pools."""

from __future__ import annotations

import csv
import json
from fractions import Fraction

import pytest

from events.night.finishing_orders import order_quote, split_order
from events.night.table_reports import TableReports
from events.storage.store import Store
from sets.errors import InputError
from tests.helpers.night import Night, bots_drafted
from tests.helpers.nights import physical_event, record
from tests.helpers.paths import ROOT

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo"]


@pytest.fixture
def events(tmp_path):
    return Night(Store(tmp_path / "desk.json"))


def new_event(events, names, **options):
    event_id = events.create("Desk", style="bots", seed=9, **options)
    for name in names:
        events.add_player(event_id, name)
    return event_id


# --- player admin -------------------------------------------------------------------------------------------------


def test_a_player_named_3_is_reachable_and_3_never_means_player_number_3(events, cli):
    event_id = new_event(events, ["Ann", "Bo", "Cy", "3"])  # "Cy" is player #3, "3" is player #4
    with events.store.read() as db:
        assert events._player(db, event_id, "3").name == "3"
        assert events._player(db, event_id, "#3").name == "Cy"
        assert events._player(db, event_id, "# 4").name == "3"
    other = new_event(events, ["Ann", "Bo"])  # no player named 2: the bare number is refused with a hint
    result = cli("event", "player", "drop", other, "2", "--db", events.store.path)
    assert result.exit_code == 2 and "for player number 2 write '#2'" in result.stderr
    assert all(p.status == "active" for p in events.snapshot(other).players)
    result = cli("event", "player", "drop", other, "#2", "--db", events.store.path)  # numbers count per event
    assert result.exit_code == 0 and "'Bo' dropped" in result.stdout
    assert cli("event", "player", "drop", other, "#6", "--db", events.store.path).exit_code == 2


@pytest.mark.parametrize("typed", ["99", "#99", "# 99"])
def test_a_number_no_player_has_is_answered_as_a_number_with_the_numbers_there_are(events, cli, typed):
    event_id = new_event(events, NAMES)  # ten players: #1 to #10
    result = cli("event", "table", event_id, "--player", typed, "--db", events.store.path)
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert line.startswith(f"cmdraft: error: no player 99 in event {event_id} (")  # a number, not a name '99'
    assert "player numbers here run from #1 to #10" in line and line.endswith(f"see 'cmdraft event show {event_id}'")
    assert ("no one is named '99'" in line) == (typed == "99")  # bare digits could have been a name: say it isn't
    alone = new_event(events, ["Ann"])
    with (
        events.store.read() as db,
        pytest.raises(InputError, match=rf"^no player 4 in event {alone} \(the only player"),
    ):
        events._player(db, alone, 4)  # a number from the program itself (a phone's join)


def test_exact_name_first_then_the_same_name_in_another_case(events):
    event_id = new_event(events, ["Ann", "BO"])
    # A database from before names were compared folded may hold "ann" beside "Ann": exact still wins.
    with events.store.write() as db:
        db.table("players").insert(
            {
                "event": event_id,
                "name": "ann",
                "status": "active",
                "late": False,
                "bot": False,
                "pod": None,
                "seat": None,
                "requested": 0,
                "number": 3,
            }
        )
    with events.store.read() as db:
        assert events._player(db, event_id, "Ann").id == 1 and events._player(db, event_id, "ann").id == 3
        assert events._player(db, event_id, "bo").name == "BO"
        assert events._player(db, event_id, "ｂｏ ").name == "BO"  # Unicode width forms and spaces too
        with pytest.raises(InputError, match="names 2 players: use the player number"):
            events._player(db, event_id, "ANN")


def test_rename_a_player_everywhere(events, cli):
    event_id = new_event(events, ["Ann", "Bob", "Cy", "Di"])
    events.seat(event_id)
    events.start_draft(event_id)  # a bots draft: the seat names live in the draft too
    result = cli("event", "player", "rename", event_id, "Bob", "Bo", "--db", events.store.path)
    assert result.exit_code == 0 and "Bob is now Bo" in result.stdout
    snap = events.snapshot(event_id)
    assert [p.name for p in snap.players] == ["Ann", "Bo", "Cy", "Di"]
    pod = snap.pods[0]
    session = events.draft_session(event_id, pod.number)
    assert session.names[pod.players.index(2)] == "Bo"
    clash = cli("event", "player", "rename", event_id, "Bo", "ann", "--db", events.store.path)
    assert clash.exit_code == 2 and "same name as player #1 'Ann'" in clash.stderr


def test_remove_a_registration_typo_before_seating_only(events, cli):
    event_id = new_event(events, ["Ann", "Bo", "Cy", "Dii", "Di"])
    result = cli("event", "player", "remove", event_id, "Dii", "--db", events.store.path)
    assert result.exit_code == 0 and "Dii removed" in result.stdout
    snap = events.snapshot(event_id)
    assert [p.name for p in snap.players] == ["Ann", "Bo", "Cy", "Di"]  # gone, not dropped
    events.seat(event_id)
    late = cli("event", "player", "remove", event_id, "Di", "--db", events.store.path)
    assert late.exit_code == 3 and "drop them instead" in late.stderr
    assert len(events.snapshot(event_id).players) == 4


# --- results with quoted names -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        ("Ann > Bo = Cy > Di", [["Ann"], ["Bo", "Cy"], ["Di"]]),
        ('"A > B" = "x = y, z" > Di', [["A > B", "x = y, z"], ["Di"]]),
        ("'Say \"hi\"' > O'Brien", [['Say "hi"'], ["O'Brien"]]),
        (r'"back\\slash \"q\"" > 3', [['back\\slash "q"'], ["3"]]),
        ("  Ann   Lee >Bo", [["Ann Lee"], ["Bo"]]),
    ],
)
def test_result_strings_split_by_places_and_draws(text, groups):
    assert split_order(text) == groups


@pytest.mark.parametrize("text", ["Ann > > Bo", '"Ann > Bo', "Ann = ", "> Ann"])
def test_bad_result_strings_are_one_line_errors(text):
    with pytest.raises(InputError, match="bad result"):
        split_order(text)


def test_names_with_operators_and_commas_record_results(events, cli):
    names = ["A > B", "x = y, z", "3", "O'Brien"]
    event_id = new_event(events, names, game_size=4)
    events.seat(event_id)
    events.start_draft(event_id)
    rnd = events.new_round(event_id, force=True)
    assert sorted(rnd.tables[0]) == sorted(names)
    order = '"x = y, z" > "A > B" = 3 > O\'Brien'
    result = cli("event", "result", event_id, "1", "1", order, "--db", events.store.path, "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["points"] == {"x = y, z": 3, "A > B": 1.5, "3": 1.5, "O'Brien": 0}
    board = cli("event", "show", event_id, "--db", events.store.path).stdout
    assert "x = y, z > A > B = 3 > O'Brien" in board  # the finishing order on the board
    history = json.loads(cli("event", "show", event_id, "--db", events.store.path, "--json").stdout)["rounds"][0][
        "results"
    ]
    assert history == {"1": [["x = y, z"], ["A > B", "3"], ["O'Brien"]]}


def two_rounds_played(events) -> int:
    """An event of ``NAMES`` drafted by bots, every deck registered, two rounds played in seating order."""
    event_id = new_event(events, NAMES)
    events.seat(event_id)
    events.start_draft(event_id)
    for name in NAMES:
        events.register_deck(event_id, name, auto=True)
    for number in (1, 2):
        rnd = events.new_round(event_id)
        for table, names in enumerate(rnd.tables, start=1):
            events.record_result(event_id, number, table, " > ".join(f'"{n}"' for n in names))
    return event_id


def test_exports_hold_results_and_pairings_beside_standings(events, cli, tmp_path):
    event_id = two_rounds_played(events)
    out = tmp_path / "export"
    assert cli("event", "export", event_id, "--out", out, "--db", events.store.path).exit_code == 0
    snap = events.snapshot(event_id)
    results = list(csv.DictReader((out / "results.csv").open(encoding="utf-8")))
    assert list(results[0]) == ["round", "table", "player", "place", "points", "final"] and len(results) == 20
    # Every row is a fact from the recorded finishing order: place i of the table earns 3/2/1/0/0.
    expected_points = {1: "3", 2: "2", 3: "1", 4: "0", 5: "0"}
    assert all(expected_points[int(r["place"])] == r["points"] for r in results)
    pairings = list(csv.DictReader((out / "pairings.csv").open(encoding="utf-8")))
    assert len(pairings) == 20 and {r["round"] for r in pairings} == {"1", "2"}
    names = {p.id: p.name for p in snap.players}
    for rnd in snap.rounds:
        mine = [r for r in pairings if r["round"] == str(rnd.number)]
        assert [[r["player"] for r in mine if r["table"] == str(t)] for t in range(1, len(rnd.tables) + 1)] == [
            [names[pid] for pid in table] for table in rnd.tables
        ]
        assert [r["player"] for r in mine if r["first"] == "1"] == [names[pid] for pid in rnd.first]
    assert (out / "standings.csv").exists()


# --- the Piper ledger from the registered decks ------------------------------------------------------------------


def register(events, event_id, name, text, colors=None):
    from draft.formats import parse
    from sets.colors import Color

    return events.register_deck(
        event_id, name, parse(text), piper_colors=[Color.parse(c) for c in colors or []] or None
    )


def test_piper_ledger_counts_pools_and_decks(events, cli):
    event_id = physical_event(events, ["Ann", "Bo", "Cy"])
    record(events, event_id, "Ann", "1 The Prismatic Piper\n10 Murder\n")
    record(events, event_id, "Bo", "10 Murder\n")
    record(events, event_id, "Cy", "2 The Prismatic Piper\n10 Murder\n")
    events.set_pipers(event_id, opened={1: 4})  # typed at the desk: one more than the pools hold
    ledger = events.piper_ledger(event_id)
    assert ledger.pods[0].opened == 3 and ledger.pods[0].typed == 4 and ledger.pods[0].disagrees
    assert ledger.needed == 0 and ledger.unused == 3 and ledger.shortfall == 0
    board = cli("event", "show", event_id, "--db", events.store.path).stdout
    assert "4 Pipers typed as opened, but the recorded pools hold 3" in board
    # Bo adds two Pipers (none in his pool); Ann keeps hers out of her deck; Cy plays one of his two.
    register(events, event_id, "Bo", "Commander\n2 The Prismatic Piper\nDeck\n5 Murder\n", ["B", "R"])
    register(events, event_id, "Ann", "Commander\n\nDeck\n5 Murder\n")
    register(events, event_id, "Cy", "Commander\n1 The Prismatic Piper\nDeck\n5 Murder\n", ["B"])
    ledger = events.piper_ledger(event_id)
    assert ledger.to_json()["decks"] == [
        {"player": "Bo", "owned": 0, "used": 2, "added": 2, "name": "Bo"},
        {"player": "Cy", "owned": 2, "used": 1, "added": 0, "name": "Cy"},
    ]
    assert ledger.needed == 2 and ledger.unused == 2 and ledger.available == 2 and ledger.shortfall == 0
    assert [(lender.player, lender.spare) for lender in ledger.lenders] == [("Ann", 1), ("Cy", 1)]
    # Cy now plays both of his: one lendable Piper left for Bo's two.
    register(events, event_id, "Cy", "Commander\n2 The Prismatic Piper\nDeck\n5 Murder\n", ["B", "R"])
    ledger = events.piper_ledger(event_id)
    assert ledger.needed == 2 and ledger.unused == 1 and ledger.shortfall == 1
    assert [(lender.player, lender.spare) for lender in ledger.lenders] == [("Ann", 1)]
    shown = cli("event", "show", event_id, "--db", events.store.path).stdout
    assert "Piper shortfall: registered decks add 2 Pipers, 1 more than" in shown and "Ann" in shown
    events.set_pipers(event_id, stock=1)  # the store's own Piper covers it
    assert events.piper_ledger(event_id).shortfall == 0
    # The typed count is fixed: no more flag.
    events.set_pipers(event_id, opened={1: 3})
    assert not events.piper_ledger(event_id).pods[0].disagrees


def test_requests_before_deck_building_are_a_forecast_apart(events, cli):
    event_id = physical_event(events, ["Ann", "Bo"])
    record(events, event_id, "Ann", "1 The Prismatic Piper\n10 Murder\n")
    record(events, event_id, "Bo", "10 Murder\n")
    events.set_pipers(event_id, requests={"Bo": 2})
    ledger = events.piper_ledger(event_id)
    assert ledger.shortfall == 0 and ledger.needed == 0  # no deck adds any yet
    assert ledger.forecast.needed_from_others == 2 and ledger.forecast.available == 1
    assert ledger.forecast.shortfall == 1
    screen = cli("event", "pipers", event_id, "--db", events.store.path).stdout
    assert "Forecast" in screen and "forecast short" in screen and "SHORTFALL" not in screen


def test_a_request_for_a_dropped_player_is_refused_and_nothing_is_written(events, cli):
    """Before: the request was written to the history (exit 0) though the ledger counts active players only."""
    event_id = physical_event(events, ["Ann", "Bo"])
    events.drop_player(event_id, "Bo")
    before = events.history(event_id)
    refused = cli("event", "pipers", event_id, "--request", "Bo=2", "--stock", "3", "--db", events.store.path)
    assert refused.exit_code == 3
    assert refused.stderr.strip().endswith("'Bo' has dropped; their request to add Pipers can't be recorded")
    assert events.history(event_id) == before and events.piper_ledger(event_id).forecast.requested == 0
    assert events.event(event_id).piper_stock == 0  # the stock given with it isn't set either


# --- typed pools that forgive typos ------------------------------------------------------------------------------


def test_a_short_pool_is_recorded_with_a_warning_the_board_keeps_until_fixed(events, cli, tmp_path):
    event_id = physical_event(events, ["Ann", "Bo"])
    db = events.store.path
    typed = cli("event", "pool", event_id, "Ann", "--db", db, input="2 Murder\n45 Plains\n\n")
    assert typed.exit_code == 0 and "47 cards" in typed.stdout
    assert "warning: the pool of 'Ann' has 47 cards, but a draft pool has 60" in typed.stdout
    board = cli("event", "show", event_id, "--db", db).stdout
    assert "the pool of 'Ann' has 47 cards, but a draft pool has 60" in board
    full = tmp_path / "ann.txt"
    full.write_text("2 Murder\n58 Plains\n")
    fixed = cli("event", "pool", event_id, "Ann", full, "--replace", "--db", db)
    assert fixed.exit_code == 0 and "warning" not in fixed.stdout
    assert "the pool of 'Ann'" not in cli("event", "show", event_id, "--db", db).stdout


def test_sealed_pools_are_expected_to_hold_120(events):
    from events.night.schema import expected_pool_size, pool_warning

    sealed = events.event(events.create("Sealed", mode="sealed"))
    draft = events.event(events.create("Draft"))
    # CMR: draft boosters of 20 cards (rules: 60 cards a drafted pool); sealed opens six boosters.
    assert expected_pool_size(draft) == 60 and expected_pool_size(sealed) == 120
    assert pool_warning(sealed, 120) is None and "a sealed pool has 120" in pool_warning(sealed, 60)


@pytest.mark.slow
def test_typing_a_pool_in_a_real_terminal_keeps_good_lines_and_reasks_the_bad_one(events, tmp_path):
    """A real terminal (a pseudo-terminal, the command in a process of its own): lines typed at a terminal, asked again in place."""
    import pexpect

    from tests.helpers.terminals import spawn_keys as spawn

    event_id = physical_event(events, ["Ann", "Bo"])
    child = spawn(["event", "pool", str(event_id), "Ann", "--db", str(events.store.path)], tmp_path)
    child.expect(r"\[0/60\] > ")
    child.sendline("2 Murder")
    child.expect(r"\+ 2 Murder")
    child.expect(r"\[2/60\] > ")
    child.sendline("1 Murdr")  # a typo: only this line is set aside, with suggestions
    child.expect("unknown card 'Murdr'")
    child.expect("1: Murder")
    child.expect("set aside")
    child.expect(r"\[2/60\] > ")
    child.sendline("1")  # a number alone takes that suggestion; the count typed is kept
    child.expect(r"\+ 1 Murder")
    child.expect(r"\[3/60\] > ")
    child.sendline("4 Plains")
    child.expect(r"\[7/60\] > ")
    child.sendline("Nonesuch Card Name")
    child.expect("set aside")
    child.expect(r"\[7/60\] > ")
    child.sendline("")  # the end: the set-aside line is asked again
    child.expect("type the line again")
    child.sendline("")  # leave it out
    child.expect("left out: Nonesuch Card Name")
    child.expect("pool recorded: 7 cards")
    child.expect("warning: the pool of 'Ann' has 7 cards, but a draft pool has 60")
    child.expect(pexpect.EOF)
    pool = sorted(p.card.name for p in events.pool(event_id, "Ann"))
    assert pool == ["Murder"] * 3 + ["Plains"] * 4


# --- README's desk flow -------------------------------------------------------------------------------------------

DESK_FLOW = [
    "event player add",
    "event player checkin",
    "event seat",
    "event seat 1 --again",
    "event print 1 seatings",
    "event draft",
    '"Later" --sealed',
    "event pool",
    "event pool 1 Ann --edit",
    "event pipers",
    "event deck 1 Ann",
    "event print 1 decklists",
    "event round",
    "event print 1 pairings",
    "event print 1 slips",
    "event clock",
    "event result",
    "--replace",
    "event game",
    "event undo",
    "event log",
    "event standings",
    "event finish",
    "event export",
]


def test_readme_shows_the_desk_flow_in_order():

    page = (ROOT / "docs" / "store-night.md").read_text(encoding="utf-8")
    section = page.split("# Store events", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    positions = [section.find(step) for step in DESK_FLOW]
    assert -1 not in positions, [s for s, p in zip(DESK_FLOW, positions, strict=True) if p == -1]
    assert positions == sorted(positions)


def test_the_desk_flow_runs_in_readme_order_at_the_command_line(cli, tmp_path):
    db = tmp_path / "friday.json"

    def ok(*args, input=None):
        result = cli(*args, "--db", db, input=input)
        assert result.exit_code == 0, (args, result.output)
        return result.stdout

    ok("event", "new", "Friday CMR", "--style", "bots", "--seed", "12", "--date", "2026-02-06")
    ok("event", "player", "add", "1", *NAMES, "Jo Typo")
    ok("event", "player", "remove", "1", "Jo Typo")
    ok("event", "player", "checkin", "1", "--all")
    ok("event", "seat", "1")
    ok("event", "seat", "1", "--again")
    assert "FIND YOUR SEAT" in ok("event", "print", "1", "seatings")
    ok("event", "draft", "1")
    ledger = json.loads(ok("event", "pipers", "1", "--json"))
    assert ledger["needed"] == 0 and all(pod["opened"] is not None for pod in ledger["pods"])
    for name in NAMES:
        ok("event", "deck", "1", name, "--auto")
    assert ok("event", "print", "1", "decklists").count("DECKLIST ·") == 10
    ok("event", "round", "1")
    assert "ROUND 1 PAIRINGS" in ok("event", "print", "1", "pairings")
    assert "RESULT SLIP" in ok("event", "print", "1", "slips")
    assert json.loads(ok("event", "clock", "1", "--json"))["remaining"] > 0
    snap = json.loads(ok("event", "show", "1", "--json"))
    for number, table in enumerate(snap["rounds"][0]["tables"], start=1):
        ok("event", "result", "1", "1", str(number), " > ".join(f'"{n}"' for n in table))
    log = json.loads(ok("event", "log", "1", "--json"))
    assert [e["what"] for e in log].count("result") == len(snap["rounds"][0]["tables"]) and log[-1]["what"] == "result"
    standings = ok("event", "standings", "1")
    assert "Tie-breaker 1" in standings and "Tie-breaker 2" in standings
    ok("event", "finish", "1")
    ok("event", "export", "1", "--out", tmp_path / "out")
    assert {"standings.csv", "results.csv", "pairings.csv"} <= {p.name for p in (tmp_path / "out").iterdir()}


@pytest.mark.slow
def test_typing_is_refused_before_it_starts_when_the_pool_cant_be_recorded(events, tmp_path):
    """A real terminal (a pseudo-terminal, the command in a process of its own): the refusal comes before the terminal asks for a line."""
    import pexpect

    from tests.helpers.terminals import spawn_keys as spawn

    event_id = physical_event(events, ["Ann", "Bo"])
    record(events, event_id, "Bo", "10 Murder\n")
    for who, message, code in (("Nobody", "no player 'Nobody'", 2), ("Bo", "already has a pool recorded", 3)):
        child = spawn(["event", "pool", str(event_id), who, "--db", str(events.store.path)], tmp_path)
        index = child.expect([message, r"\[0/60\] > "])
        assert index == 0
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == code


@pytest.mark.parametrize(
    ("name", "order"),
    [
        ("Ann>", "Ann> > Bo > Cy > Di"),
        ("Ann>", "Bo > Ann> > Cy > Di"),
        ("Ann>", "Bo = Cy > Di > Ann>"),
        ("A = B", "A = B > Bo > Cy = Di"),  # splits into names no player has
    ],
)
def test_a_result_naming_a_player_with_a_separator_unquoted_names_that_player_and_the_quoting(events, name, order):
    event_id = new_event(events, [name, "Bo", "Cy", "Di"], game_size=4)
    events.seat(event_id)
    events.start_draft(event_id)
    events.new_round(event_id, force=True)
    with pytest.raises(InputError) as raised:
        events.record_result(event_id, 1, 1, order)
    message = str(raised.value)
    assert f"'{name}'" in message and "quote" in message
    suggested = order.replace(name, f'"{name}"')
    assert suggested in message  # the order as it should be typed, ready to copy
    events.record_result(event_id, 1, 1, suggested)  # and that order records


def test_two_players_with_separators_typed_bare_are_both_named_with_the_order_quoted(events):
    event_id = new_event(events, ["Ann>", "B = o", "Cy"], game_size=3)
    events.seat(event_id)
    events.start_draft(event_id)
    events.new_round(event_id, force=True)
    with pytest.raises(InputError) as raised:
        events.record_result(event_id, 1, 1, "Ann> > B = o > Cy")
    message = str(raised.value)
    assert "'Ann>' has >" in message and "'B = o' has =" in message
    assert message.endswith('quote the names: "Ann>" > "B = o" > Cy')
    events.record_result(event_id, 1, 1, '"Ann>" > "B = o" > Cy')


def test_a_truly_empty_place_still_says_a_place_has_no_name_beside_a_quoted_separator_name(events):
    event_id = new_event(events, ["A = B", "Bo", "Cy"], game_size=3)
    events.seat(event_id)
    events.start_draft(event_id)
    events.new_round(event_id, force=True)
    with pytest.raises(InputError, match="a place has no name"):
        events.record_result(event_id, 1, 1, '"A = B" > > Bo > Cy')


@pytest.mark.parametrize("name", ["Ann>", "A = B", 'Say "hi"', "back\\slash", 'O\'Brien > \\"x"'])
def test_a_quoted_name_reads_back_whole_from_a_finishing_order(name):
    assert split_order(f"{order_quote(name)} > Bo") == [[name], ["Bo"]]


@pytest.mark.parametrize("action", ["--confirm", "--dispute"])
def test_confirming_at_a_table_whose_result_is_recorded_says_so_and_never_advises_a_report(events, cli, action):
    """`event table --confirm` with nothing to confirm: a recorded result is said as recorded (3), with who
    corrects it, not "report it with --report", which the table would then refuse."""
    event_id = bots_drafted(events, "Tables", ["Ann", "Bo", "Cy"], seed=4)
    (table,) = events.new_round(event_id).tables
    events.record_result(event_id, 1, 1, " > ".join(table))
    db = events.store.path
    refused = cli("event", "table", event_id, "--player", "Ann", action, "--db", db)
    assert refused.exit_code == 3, refused.output
    assert "--report" not in refused.stderr and "the desk corrects it" in refused.stderr, refused.stderr
    assert f"table 1 of round 1 already has its result ({' > '.join(table)})" in refused.stderr
    assert cli("event", "table", event_id, "--player", "Ann", "--report", "Ann > Bo > Cy", "--db", db).exit_code == 3
    nothing = bots_drafted(events, "Tables", ["Di", "Ed", "Flo"], seed=4)
    events.new_round(nothing)
    waiting = cli("event", "table", nothing, "--player", "Di", action, "--db", db)
    assert waiting.exit_code == 2 and "nothing is reported at your table yet: report it with --report" in waiting.stderr


def test_the_final_tables_places_count_for_no_points_in_the_result_and_results_csv(events, cli, tmp_path):
    """The final table's result stays out of the points (docs: store-night "The final table"): `event result` says
    its places, not points, `--json` says it is the final table's, and results.csv leaves its points blank with
    `final` "yes", so a script summing results.csv's points gets the standings' points."""
    event_id = two_rounds_played(events)
    finalists = TableReports(events.store).top(event_id, 4).players
    order = f'"{finalists[3]}" > "{finalists[0]}" = "{finalists[1]}" > "{finalists[2]}"'
    said = cli("event", "result", event_id, 3, 1, order, "--db", events.store.path)
    assert (
        said.exit_code == 0
        and said.stdout.split()
        == (f"Final table: {finalists[3]} 1st / {finalists[0]} 2nd / {finalists[1]} 2nd / {finalists[2]} 4th").split()
    )
    again = cli("event", "result", event_id, 3, 1, order, "--replace", "--json", "--db", events.store.path)
    answer = json.loads(again.stdout)
    assert answer["final"] is True and answer["places"] == {
        finalists[3]: 1,
        finalists[0]: 2,
        finalists[1]: 2,
        finalists[2]: 4,
    }
    out = tmp_path / "export"
    assert cli("event", "export", event_id, "--out", out, "--db", events.store.path).exit_code == 0
    results = list(csv.DictReader((out / "results.csv").open(encoding="utf-8")))
    final = [r for r in results if r["round"] == "3"]
    assert len(final) == 4 and all(r["points"] == "" and r["final"] == "yes" for r in final)
    assert all(r["final"] == "" and r["points"] != "" for r in results if r["round"] != "3")
    totals: dict[str, Fraction] = {}
    for r in results:
        totals[r["player"]] = totals.get(r["player"], Fraction(0)) + Fraction(r["points"] or "0")
    standings = list(csv.DictReader((out / "standings.csv").open(encoding="utf-8")))
    assert {r["player"]: Fraction(r["points"]) for r in standings} == totals
