"""Pools typed by hand (issue 22, item 5) on real database files: a unique start of a name is enough (as
at the pick prompt), 'undo' takes back the last change, a recorded pool is edited line by line with
'event pool ID NAME --edit', and a line typed ahead is never swallowed by a question about a bad one."""

from __future__ import annotations

import pexpect
import pytest

from events.night.pool_entry import PoolEntry, pool_lines, read_pool_line
from events.storage.store import Store
from sets.card_index import card_index
from sets.cards import normalize_name
from sets.catalog import load_set
from tests.helpers.night import Night
from tests.helpers.nights import physical_event, record
from tests.helpers.terminals import spawn_keys as spawn


@pytest.fixture
def events(tmp_path):
    return Night(Store(tmp_path / "pools.json"))


def prefixes(unique: bool) -> list[tuple[str, str]]:
    """(start, card) pairs from the set data itself: starts that name exactly one card of every known set,
    or several."""
    names = {normalize_name(card.name): card.name for card in card_index()}
    found = []
    for card in load_set("CMR"):
        key = normalize_name(card.name)
        for length in range(3, len(key)):
            start = key[:length]
            if start.endswith(" "):
                continue
            owners = {name for k, name in names.items() if k.startswith(start)}
            if (len(owners) == 1) == unique:
                found.append((start, card.name))
                break
    return found


def test_a_unique_start_of_a_name_is_enough_and_an_unclear_one_is_asked_for():
    index = card_index()
    unique = prefixes(unique=True)
    assert len(unique) > 100
    for start, name in unique[::25]:
        line = read_pool_line(f"2 {start}", index)
        assert line.ok and line.text == f"2 {name}" and line.cards == 2, start
    for start, _ in prefixes(unique=False)[:5]:
        line = read_pool_line(f"1 {start}", index)
        assert not line.ok and "type more of it" in line.problem and len(line.suggestions) > 1, start


def test_undo_takes_back_the_last_change_of_any_kind():
    entry = PoolEntry(card_index())
    entry.add("2 Murder")
    entry.add("3 Plains")
    entry.add("1 Murdr")  # set aside
    assert entry.cards == 5 and len(entry.set_aside) == 1
    entry.take_suggestion(1)
    assert entry.texts() == ["2 Murder", "3 Plains", "1 Murder"] and not entry.set_aside
    assert entry.undo().startswith("fix 1 Murdr") and entry.set_aside[0].text == "1 Murdr"
    entry.remove("1")
    assert entry.texts() == ["3 Plains"]
    assert entry.undo() == "- 2 Murder" and entry.texts() == ["2 Murder", "3 Plains"]
    assert entry.undo() == "set aside 1 Murdr" and not entry.set_aside
    assert entry.undo() == "+ 3 Plains" and entry.texts() == ["2 Murder"]
    with pytest.raises(ValueError, match="there is no line 4"):
        entry.remove("4")


@pytest.mark.slow
def test_lines_typed_ahead_are_never_swallowed(events, tmp_path):
    """Pasted all at once: the bad line is set aside and asked about after the pool ends, so the card
    lines after it are all kept (the old re-type question took the next card line as its answer)."""
    event_id = physical_event(events, ["Ann", "Bo"])
    child = spawn(["event", "pool", str(event_id), "Ann", "--db", str(events.store.path)], tmp_path)
    child.expect(r"\[0/60\] > ")
    child.send("1 Murdr\n2 Plains\n3 Island\n\n")
    child.expect(r"\+ 2 Plains")
    child.expect(r"\+ 3 Island")
    child.expect("set aside: 1 Murdr")
    child.expect("type the line again")
    child.sendline("1")
    child.expect(r"\+ 1 Murder")
    child.expect("pool recorded: 6 cards")
    child.expect(pexpect.EOF)
    assert sorted(p.card.name for p in events.pool(event_id, "Ann")) == ["Island"] * 3 + ["Murder"] + ["Plains"] * 2


def test_a_recorded_pool_is_edited_line_by_line(events, cli):
    event_id = physical_event(events, ["Ann", "Bo"])
    record(events, event_id, "Ann", "2 Murder\n3 Plains\n1 Sisay's Ring\n")
    assert pool_lines(events.pool(event_id, "Ann")) == ["2 Murder", "3 Plains", "1 Sisay's Ring"]
    # Take out the Plains, undo that, take out the Sol Ring, add two Islands by a start of the name.
    result = cli(
        "event",
        "pool",
        event_id,
        "Ann",
        "--edit",
        "--db",
        events.store.path,
        input="list\nremove 2\nundo\nremove 3\n2 isla\n\n",
    )
    assert result.exit_code == 0, result.output
    assert "undone: - 3 Plains" in result.stdout and "pool recorded: 7 cards" in result.stdout
    assert pool_lines(events.pool(event_id, "Ann")) == ["2 Murder", "3 Plains", "2 Island"]
    refused = cli("event", "pool", event_id, "Bo", "--edit", "--db", events.store.path, input="\n")
    assert refused.exit_code == 3 and "no pool recorded" in refused.stderr


def test_pool_words_are_commands_only_alone():
    """'undo' alone takes back the last line; with a count it is a card line (read as a card name)."""
    import io

    from rich.console import Console

    from events.screens.pool_entry import _command

    entry = PoolEntry(card_index())
    console = Console(file=io.StringIO(), width=100)
    _command(console, entry, "2 Murder")
    _command(console, entry, "1 Undo")  # no card called Undo in the bundled set: set aside, not a command
    assert entry.texts() == ["2 Murder"] and entry.set_aside[0].text == "1 Undo"
    _command(console, entry, "undo")
    _command(console, entry, "undo")
    assert entry.texts() == [] and not entry.set_aside


@pytest.mark.slow
@pytest.mark.parametrize("edit", [False, True], ids=["new pool", "editing a recorded pool"])
def test_ctrl_c_while_typing_a_pool_records_nothing(events, tmp_path, edit):
    """Ctrl-C is not 'the pool is finished': the command stops (exit 130) and the lines typed so far are
    not recorded; a pool being edited stays exactly as it was."""
    event_id = physical_event(events, ["Ann", "Bo"])
    if edit:
        record(events, event_id, "Ann", "2 Murder\n3 Plains\n")
    before = pool_lines(events.pool(event_id, "Ann")) if edit else None
    args = ["event", "pool", str(event_id), "Ann", "--db", str(events.store.path)] + (["--edit"] if edit else [])
    child = spawn(args, tmp_path)
    child.expect(r"\[\d+/60\] > ")
    child.sendline("remove 1" if edit else "2 Island")
    child.expect(r"\((\d+) cards\)")
    child.sendline("1 Murdr")  # set aside: Ctrl-C must not lead on to the set-aside questions and a save
    child.expect("set aside")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130 and "pool recorded" not in child.before
    if edit:
        assert pool_lines(events.pool(event_id, "Ann")) == before
    else:
        with pytest.raises(Exception, match="no pool"):
            events.pool(event_id, "Ann")
