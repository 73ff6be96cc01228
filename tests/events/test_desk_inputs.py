"""Bad input refused at the argument, as one line with exit 2 and nothing written: unknown cards in a
converted deck, a conversion onto its own input, a folder name too long for the file system, numbers
and names beyond their documented range."""

from __future__ import annotations

import json
import os

import pytest

from tests.helpers.decks import WHITE


def test_deck_convert_with_unknown_cards_exits_2_naming_the_lines_and_writes_nothing(cli, tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("1 Akroma, Vison of Ixidor\n1 Not A Card At All\n" + f"1 {WHITE[0]}\n", encoding="utf-8")
    out = tmp_path / "out.json"
    refused = cli("deck", "convert", deck, out)
    assert refused.exit_code == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert "2 lines can't be converted" in refused.stderr
    assert "line 1: unknown card 'Akroma, Vison of Ixidor'" in refused.stderr and "line 2:" in refused.stderr
    assert "--skip-unknown" in refused.stderr and not out.exists()
    skipped = cli("deck", "convert", deck, out, "--skip-unknown")
    assert (
        skipped.exit_code == 0
        and "wrote" in skipped.stdout
        and "(json: 0 commanders, 1 in the main deck)" in skipped.stdout
    )
    assert skipped.stdout.count("skipped") == 2


def test_deck_convert_onto_its_own_input_is_refused_even_with_force(cli, tmp_path):
    deck = tmp_path / "deck.txt"
    text = f"1 {WHITE[0]}\n1 {WHITE[1]}\n"
    deck.write_text(text, encoding="utf-8")
    for target in (deck, tmp_path / "." / "deck.txt"):
        refused = cli("deck", "convert", deck, target, "--to", "json", "--force")
        assert refused.exit_code == 2 and "this command's input" in refused.stderr
    os.link(deck, tmp_path / "linked.txt")  # a hard link is the same file
    refused = cli("deck", "convert", deck, tmp_path / "linked.txt", "--to", "json", "--force")
    assert refused.exit_code == 2 and "this command's input" in refused.stderr
    assert deck.read_text(encoding="utf-8") == text


def test_an_export_folder_name_too_long_for_the_file_system_is_one_line_exit_2(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "event.json"
    assert cli("event", "new", "Friday", "--db", db).exit_code == 0
    refused = cli("event", "export", "1", "--out", "x" * 300, "--db", db)
    assert refused.exit_code == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert "cannot write to" in refused.stderr and "choose another folder" in refused.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("event.json")) == []


def test_a_life_change_beyond_its_range_is_refused_at_the_argument_with_the_range(cli, tmp_path):
    from events.night.games import MAX_LIFE_CHANGE
    from events.storage.store import Store
    from tests.helpers.night import Night

    events = Night(Store(tmp_path / "game.json"))
    event_id = events.create("Games", style="bots", seed=9)
    for name in ("Ann", "Bo", "Cy", "Di"):
        events.add_player(event_id, name)
    events.seat(event_id)
    events.start_draft(event_id)
    for name in ("Ann", "Bo", "Cy", "Di"):
        events.register_deck(event_id, name, auto=True)
    events.new_round(event_id)
    db = events.store.path
    refused = cli("event", "game", event_id, "1", "1", "--life", "Ann=-999999999999999999", "--db", db)
    assert refused.exit_code == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert f"--life must be from -{MAX_LIFE_CHANGE:,} to {MAX_LIFE_CHANGE:,}" in refused.stderr
    assert "the database" not in refused.stderr
    assert cli("event", "game", event_id, "1", "1", "--life", f"Ann=-{MAX_LIFE_CHANGE}", "--db", db).exit_code == 0
    board = cli("event", "game", event_id, "1", "1", "--db", db)  # the table is usable after the refusal
    assert board.exit_code == 0 and f"{40 - MAX_LIFE_CHANGE}" in board.stdout


def test_a_practice_name_beyond_its_length_is_refused_at_the_argument(cli):
    from events.storage.records import MAX_NAME

    refused = cli("play", "--name", "n" * 10_000, "--plain", input="")
    assert refused.exit_code == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert f"--name must be from 1 to {MAX_NAME} characters, not 10,000" in refused.stderr


def seated_physical(cli, tmp_path):
    """A physical event of Ann and Bo, seated: pools are recorded at the desk."""
    db = tmp_path / "event.json"
    for args in (
        ("event", "new", "Physical", "--style", "physical"),
        ("event", "player", "add", "1", "Ann", "Bo"),
        ("event", "seat", "1"),
    ):
        assert cli(*args, "--db", db).exit_code == 0
    return db


def test_a_20000_line_deck_or_pool_is_bad_input_not_a_damaged_database(cli, tmp_path):
    from events.storage.records import MAX_CARDS

    many = tmp_path / "many-lines.txt"
    many.write_bytes(b"1 Arcane Signet\n" * 20_000)
    db = seated_physical(cli, tmp_path)
    pool = cli("event", "pool", "1", "Ann", many, "--db", db)
    assert pool.exit_code == 2 and f"from 0 to {MAX_CARDS:,} cards" in pool.stderr and "20,000" in pool.stderr
    small = tmp_path / "pool.txt"
    small.write_text("1 Arcane Signet\n", encoding="utf-8")
    for name in ("Ann", "Bo"):
        assert cli("event", "pool", "1", name, small, "--db", db).exit_code == 0
    deck = cli("event", "deck", "1", "Ann", many, "--db", db)
    assert deck.exit_code == 2 and "the deck of 'Ann'" in deck.stderr and "20,000" in deck.stderr


def test_a_round_left_open_is_refused_naming_its_tables_without_a_result_and_a_result_names_who_is_twice_astray_or_unknown(
    tmp_path,
):
    from events.night.table_reports import TableReports
    from events.storage.store import Store
    from sets.errors import InputError, StateError
    from tests.helpers.night import Night, bots_drafted

    events = Night(Store(tmp_path / "night.json"))
    event_id = bots_drafted(
        events, "Friday", ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu"], 3
    )
    tables = events.new_round(event_id).tables
    assert [len(t) for t in tables] == [4, 4, 4]
    events.record_result(event_id, 1, 2, " > ".join(tables[1]))
    with pytest.raises(StateError, match=r"^round 1 still has tables without results \(tables 1 / 3\); record"):
        events.new_round(event_id)
    with pytest.raises(StateError, match=r"^round 1 still has tables without results \(tables 1 / 3\); record"):
        events.finish(event_id)
    with pytest.raises(StateError, match=r"before the final table \(round 1: tables 1 / 3\): record them first$"):
        TableReports(events.store).top(event_id, 3)
    first, second, third, fourth = tables[0]
    with pytest.raises(InputError, match=rf"^the result must name every player at the table once; '{third}' is named"):
        events.record_result(event_id, 1, 1, f"{first} > {third} > {third} = {second} > {fourth}")
    ids = {p.name: p.id for p in events.players(event_id)}
    stranger = tables[2][0]
    seats = " / ".join(f"'{name}'" for name in tables[0])
    with pytest.raises(InputError, match=rf"^'{stranger}' is not at this table \(it seats {seats}\)$"):
        events.record_result(event_id, 1, 1, [[ids[first]], [ids[second]], [ids[third]], [ids[stranger]]])
    with pytest.raises(InputError, match=rf"^no player 'Zed' in event {event_id} \(this table seats {seats}\): see"):
        events.record_result(event_id, 1, 1, f"{first} > Zed")
    events.record_result(event_id, 1, 3, " > ".join(tables[2]))
    with pytest.raises(StateError, match=r"\(table 1\); record them first$"):
        events.new_round(event_id)


def test_a_deck_for_a_finished_event_is_refused_as_finished_not_as_closed_asking_for_a_reason(tmp_path, cli):
    from events.storage.store import Store
    from tests.helpers.night import Night, bots_drafted

    events = Night(Store(tmp_path / "night.json"))
    event_id = bots_drafted(events, "Friday", ["Ann", "Bo", "Cy"], 5)
    events.record_result(event_id, 1, 1, " > ".join(events.new_round(event_id).tables[0]))
    events.finish(event_id)
    for extra in ((), ("--reason", "a basic was missing")):
        refused = cli("event", "deck", event_id, "Ann", "--auto", *extra, "--db", events.store.path)
        assert refused.exit_code == 3 and len(refused.stderr.strip().splitlines()) == 1
        assert (
            "the event is finished: its decks can no longer be built or changed" in refused.stderr
            and "--reason" not in refused.stderr
        )


def test_the_terminal_pairs_the_current_round_again_after_a_drop_as_the_desk_page_does(tmp_path, cli):
    from events.storage.store import Store
    from tests.helpers.night import Night, bots_drafted

    events = Night(Store(tmp_path / "night.json"))
    event_id = bots_drafted(events, "Friday", ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"], 7)
    db = events.store.path
    gone = events.new_round(event_id).tables[0][0]
    assert cli("event", "player", "drop", event_id, gone, "--db", db).exit_code == 0
    again = cli("event", "round", event_id, "--again", "--json", "--db", db)
    assert again.exit_code == 0, again.output
    tables = json.loads(again.stdout)["tables"]
    assert json.loads(again.stdout)["round"] == 1 and [len(t) for t in tables] == [4, 4]
    assert gone not in {name for table in tables for name in table}
    assert [e.what for e in events.history(event_id)[-2:]] == ["round again", "round"]
    events.record_result(event_id, 1, 1, " > ".join(tables[0]))
    refused = cli("event", "round", event_id, "--again", "--db", db)
    assert refused.exit_code == 3 and len(refused.stderr.strip().splitlines()) == 1
    assert refused.stderr == (  # what to do said too (before: only that it can't)
        "cmdraft: error: round 1 already has results, reports or games; it can't be paired again: play it as paired, "
        "or take those back with undo first\n"
    )


def test_undo_after_a_round_paired_again_names_it_and_says_how_to_pair_the_round(tmp_path, cli):
    from events.night.table_reports import TableReports
    from events.storage.store import Store
    from tests.helpers.night import Night, bots_drafted

    events = Night(Store(tmp_path / "night.json"))
    event_id = bots_drafted(events, "Friday", ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"], 4)
    db = events.store.path
    events.drop_player(event_id, events.new_round(event_id).tables[0][0])
    TableReports(events.store).repair(event_id)
    assert cli("event", "undo", event_id, "--yes", "--db", db).exit_code == 0  # the new pairing
    refused = cli("event", "undo", event_id, "--db", db)
    assert refused.exit_code == 3 and len(refused.stderr.strip().splitlines()) == 1
    assert "(a round paired again) can't be undone" in refused.stderr and "None" not in refused.stderr
    assert f"pair the round ('cmdraft event round {event_id}" in refused.stderr


def test_a_no_show_dropped_once_round_1_is_paired_is_not_said_to_have_dropped_after_it(tmp_path):
    from events.storage.store import Store
    from tests.helpers.night import Night

    events = Night(Store(tmp_path / "night.json"))
    event_id = events.create("Friday", style="bots", seed=4)
    for name in ("Ann", "Bo", "Cy", "Di", "Ed"):
        events.add_player(event_id, name)
    events.check_in(event_id, ["Ann", "Bo", "Cy", "Di"])
    events.seat(event_id)
    events.start_draft(event_id)
    for name in ("Ann", "Bo", "Cy", "Di"):
        events.register_deck(event_id, name, auto=True)
    played = events.new_round(event_id).tables[0][0]
    events.drop_player(event_id, "Ed")  # never seated, never paired
    events.drop_player(event_id, played)  # at a table of round 1
    after = {p.name: p.dropped_after for p in events.players(event_id)}
    assert (after["Ed"], after[played]) == (0, 1)


def test_a_name_no_one_has_lists_the_tables_players_each_quoted_and_keeps_a_typed_see_whole(tmp_path):
    """The table's players are user text in a message: each quoted (a name holding ' / ' read as two players), and a
    typed name holding ": see '" stays whole in its quotes (the list was put inside it)."""
    from events.storage.store import Store
    from sets.errors import InputError
    from tests.helpers.night import Night, bots_drafted

    events = Night(Store(tmp_path / "night.json"))
    event_id = bots_drafted(events, "Friday", ["Al / Bo", "Cy", "Di"], 3)
    table = events.new_round(event_id).tables[0]
    seats = " / ".join(f"'{name}'" for name in table)
    with pytest.raises(InputError) as refused:
        events.record_result(event_id, 1, 1, "Zed > Cy > Di")
    assert str(refused.value) == (
        f"no player 'Zed' in event {event_id} (this table seats {seats}): see 'cmdraft event show {event_id}'"
    )
    with pytest.raises(InputError) as refused:
        events.record_result(event_id, 1, 1, "Zed: see 'x > Cy > Di")
    assert str(refused.value) == (
        f"no player \"Zed: see 'x\" in event {event_id} (this table seats {seats}): see 'cmdraft event show {event_id}'"
    )


def test_a_pool_piped_for_an_unknown_player_is_refused_as_an_unknown_player_before_any_line_is_read(cli, tmp_path):
    """Before: with nothing piped in, 'Zed' (no such player) was told the pool had no cards."""
    db = seated_physical(cli, tmp_path)
    for piped in ("", "1 Arcane Signet\n"):
        refused = cli("event", "pool", "1", "Zed", "--json", "--db", db, input=piped)
        assert refused.exit_code == 2 and "no player 'Zed'" in refused.stderr, refused.stderr
        assert refused.stdout == ""


def test_a_deck_file_with_auto_is_refused_and_the_registered_deck_stands(tmp_path, cli):
    """`event deck ID NAME FILE --auto` registered the bot's deck and said nothing of the file: both is bad input
    (exit 2, one line), refused before anything is written, as `--build` with a file is."""
    from events.storage.store import Store
    from tests.helpers.night import Night, bots_drafted

    events = Night(Store(tmp_path / "night.json"))
    event_id = bots_drafted(events, "Friday", ["Ann", "Bo", "Cy"], 5)
    before = events.snapshot(event_id).players[0].deck
    deck = tmp_path / "deck.txt"
    deck.write_text("Commander\n1 The Prismatic Piper\n\nDeck\n59 Plains\n", encoding="utf-8")
    refused = cli("event", "deck", event_id, "Ann", deck, "--auto", "--db", events.store.path)
    assert refused.exit_code == 2 and refused.stderr.strip().splitlines() == [
        "cmdraft: error: give a deck file or --auto, not both: --auto lets the bot build the deck from the pool"
    ]
    assert events.snapshot(event_id).players[0].deck == before


def test_auto_with_piper_colors_is_refused_and_the_registered_deck_stands(tmp_path, cli):
    """`event deck ID NAME --auto --piper W` registered the bot's deck, led by its own legends, with the color
    checked against it: "NOT legal: 1 color given but no commander chooses a color", exit 1, an illegal deck on the
    board.  --auto chooses the commanders and their colors: with --piper it is bad input (exit 2, one line), refused
    before anything is written, as --build with --piper is."""
    from events.storage.store import Store
    from tests.helpers.night import Night, bots_drafted

    events = Night(Store(tmp_path / "night.json"))
    event_id = bots_drafted(events, "Friday", ["Ann", "Bo", "Cy"], 5)
    before = events.snapshot(event_id).players[0].deck
    refused = cli("event", "deck", event_id, "Ann", "--auto", "--piper", "W", "--db", events.store.path)
    assert refused.exit_code == 2 and refused.stderr.strip().splitlines() == [
        "cmdraft: error: give --piper with a deck file, not --auto: the bot chooses its commanders and their colors"
    ]
    assert events.snapshot(event_id).players[0].deck == before
