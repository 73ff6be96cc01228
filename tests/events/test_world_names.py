"""Names people type from around the world (``sets/names.py``, the one rule): a name that shows nothing
is refused, characters that take no place never make two names different or keep a player from being found,
and names are listed by their letters, whatever their case, width, accents or Unicode form."""

from __future__ import annotations

import json

import pytest

from events.outputs.exports import safe_name
from events.outputs.text import cell_width
from events.storage.store import Store
from sets.errors import InputError
from sets.names import name_key, name_order
from tests.helpers.cliapp import invoke
from tests.helpers.night import Night, bots_drafted

# Each shows nothing on a screen: zero-width space, a bidi override, ideographic spaces, a Hangul filler, joiners,
# a variation selector alone, the braille blank, a soft hyphen.
SHOWS_NOTHING = [
    "\x7f",
    "\x1b",
    "\u200b",
    "\u202e",
    "\u3000\u3000",
    "\u3164",
    "\u200d\u200c",
    "\ufe0f",
    "\u2800",
    "\xad",
    " \u2060 ",
]


@pytest.fixture
def events(tmp_path):
    return Night(Store(tmp_path / "world.json"))


@pytest.mark.parametrize("blank", SHOWS_NOTHING)
def test_a_player_name_that_shows_nothing_is_refused_in_one_escaped_line(blank, cli, tmp_path):
    db = tmp_path / "e.json"
    assert cli("event", "new", "金曜ドラフト", "--style", "physical", "--db", db).exit_code == 0
    result = cli("event", "player", "add", "1", "Ann", blank, "--db", db)
    assert result.exit_code == 2, result.stdout
    line = result.stderr.strip()
    assert "\n" not in line and not any(ch in line for ch in blank.strip())  # written out, never as it is
    if blank.isspace():
        assert "a player needs a name (only spaces were given); none of the 2 names was registered" in line
    else:
        assert "shows nothing" in line and "give a name with a letter, digit or sign" in line
    shown = json.loads(cli("event", "show", "1", "--json", "--db", db).stdout)
    assert shown["players"] == []  # all or nothing: Ann neither


@pytest.mark.parametrize("blank", SHOWS_NOTHING)
def test_an_event_name_or_a_rename_that_shows_nothing_is_refused(blank, events):
    refusal = "needs a name" if blank.isspace() else "name .* shows nothing"
    with pytest.raises(InputError, match=f"event {refusal}" if not blank.isspace() else f"an event {refusal}"):
        events.create(blank, style="physical")
    event_id = events.create("Friday", style="physical")
    events.add_player(event_id, "Ann")
    with pytest.raises(InputError, match=refusal):
        events.rename_player(event_id, "Ann", blank)


@pytest.mark.parametrize("spaced", ["Ann\u200b", "\u202eAnn", "An\xadn", "A\u200bnn", "Ann\u2060", "\u3164Ann"])
def test_characters_that_take_no_place_dont_make_a_name_different(spaced, events):
    event_id = events.create("Friday", style="physical")
    events.add_player(event_id, "Ann")
    with pytest.raises(InputError, match=r"same name as player #1 'Ann'"):
        events.add_player(event_id, spaced)


def test_a_player_is_found_by_the_name_a_person_can_type(events, cli):
    event_id = events.create("Friday", style="physical")
    for name in ("abc\u202edef", "José", "山田\u3000太郎", "ＡＢＣ", "👨\u200d👩\u200d👧 Family"):
        events.add_player(event_id, name)
    typed = {
        "abcdef": "abc\u202edef",  # the override can't be typed: the letters find the player
        "Jose\u0301": "José",  # decomposed, as a Mac keyboard may give it
        "山田 太郎": "山田 太郎",
        "abc": "ＡＢＣ",
        "👨👩👧 family": "👨\u200d👩\u200d👧 Family",
    }
    for text, name in typed.items():
        assert events.player(event_id, text).name == name
    result = cli("event", "player", "rename", event_id, "abcdef", "ABC Def", "--db", events.store.path)
    assert result.exit_code == 0 and "ABC Def" in result.stdout


def test_names_are_listed_by_their_letters_whatever_their_case_width_accents_or_form(events, cli):
    event_id = events.create("Friday", style="physical")
    for name in ("Zoë", "Ünal", "Ｔａｒｏ", "Émile", "bo", "Ann", "Ulla", "emma", "=SUM(A1)", "O'Neil", "Olaf"):
        events.add_player(event_id, name)
    result = cli("event", "standings", event_id, "--json", "--db", events.store.path)
    listed = [row["name"] for row in json.loads(result.stdout)]  # all on 0 points: by name
    # punctuation takes no place: "=SUM(A1)" among the S's (it came before Ann), "O'Neil" read "oneil"
    assert listed == ["Ann", "bo", "Émile", "emma", "Olaf", "O'Neil", "=SUM(A1)", "Ｔａｒｏ", "Ulla", "Ünal", "Zoë"]


def test_the_same_name_in_any_form_has_one_key_and_one_place_in_a_list():
    forms = ["José", "Jose\u0301", "JOSÉ", "Ｊｏｓé", "Jos\u200bé", " José "]
    assert len({name_key(form) for form in forms}) == 1
    assert len({name_order(form)[:3] for form in forms}) == 1


def test_an_exports_files_are_named_after_players_in_their_own_script(events, cli, tmp_path):
    names = ["山田\u3000太郎", "김민수", "Ｔａｒｏ", "José Ñ", "👨\u200d👩\u200d👧"]
    event_id = bots_drafted(events, "金曜ドラフト", names, seed=3)
    assert cli("event", "export", event_id, "--out", tmp_path / "out", "--db", events.store.path).exit_code == 0
    files = {path.name for path in (tmp_path / "out").iterdir()}
    for stem in ("001-山田-太郎", "002-김민수", "003-Taro", "004-José-Ñ", "005-player"):  # an emoji is no letter
        assert {f"{stem}-pool.txt", f"{stem}-deck.txt", f"{stem}-draftlog.txt"} <= files, stem


@pytest.mark.parametrize("blank", ["\u200b", "   ", "\u3000", "\u202e\u3164"])
def test_a_practice_seat_named_with_nothing_to_show_is_refused_before_a_draft_is_made(blank, cli, tmp_path):
    db = tmp_path / "practice.json"
    result = cli("play", "--name", blank, "--plain", "--db", db)
    line = result.stderr.strip()
    assert result.exit_code == 2 and "\n" not in line and "shows nothing" in line, result.stderr
    assert not any(ch in line for ch in blank.strip())
    assert not db.exists()  # refused before anything is made


def test_a_name_typed_decomposed_is_kept_composed_and_counted_by_its_letters(events):
    event_id = events.create("Jose\u0301's night", style="physical")
    assert events.event(event_id).name == "José's night"
    events.add_player(event_id, "Jose\u0301")  # a Mac keyboard's é
    long = "e\u0301" * 50  # 100 code points, 50 letters: within the 80 a name may have
    events.add_player(event_id, long)
    assert [p.name for p in events.players(event_id)] == ["José", "é" * 50]


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("👨\u200d👩\u200d👧" * 20, "👨\\u200d👩\\u200d👧" * 4),  # 24 code points would end inside the fifth family
        ("🇯🇵" * 45, "🇯🇵" * 12),
        ("a" + "🇯🇵" * 45, "a" + "🇯🇵" * 11),  # 24 would take half of the twelfth flag
        ("x" * 23 + "\U0001f44d\U0001f3fd" * 40, "x" * 23),  # nor a thumb without its skin tone
    ],
)
def test_a_too_long_name_is_quoted_without_cutting_a_character_in_two(events, name, shown):
    event_id = events.create("Friday", style="physical")
    with pytest.raises(InputError) as refused:
        events.add_player(event_id, name)
    assert f"player name '{shown}…' is {len(name)} characters; keep it to 80" in str(refused.value)


def test_a_terminal_names_the_players_it_waits_for_in_the_order_of_every_list(cli, tmp_path):
    db = tmp_path / "terminal.json"
    assert cli("event", "new", "Friday", "--style", "terminal", "--no-codes", "--db", db).exit_code == 0
    assert cli("event", "player", "add", "1", "Zoë", "Émile", "ｂｏ", "Ann", "--db", db).exit_code == 0
    assert cli("event", "seat", "1", "--db", db).exit_code == 0
    players = ["--player", "Zoë", "--player", "Émile", "--player", "ｂｏ"]
    result = cli("event", "draft", "1", *players, "--db", db, input="quit\n")
    assert result.exit_code == 0 and "ｂｏ / Émile / Zoë: waiting for the desk to start" in result.stdout


def test_the_desks_boards_show_long_names_whole_so_two_alike_are_told_apart(cli, tmp_path):
    db = tmp_path / "long.json"
    first, second = "長" * 40 + "甲", "長" * 40 + "乙"  # alike but for their last character
    assert cli("event", "new", "Friday", "--style", "bots", "--db", db).exit_code == 0
    assert cli("event", "player", "add", "1", first, second, "Ann", "--db", db).exit_code == 0
    for board in (["show", "1"], ["standings", "1"]):
        at_80 = invoke(["event", *board, "--db", db], env={"COLUMNS": "80"}).stdout  # the desk's terminal
        assert max(cell_width(line) for line in at_80.splitlines()) <= 80
        names = "".join(line.split("│")[2].strip() for line in at_80.splitlines() if line.count("│") > 3)
        assert first in names and second in names, (board, at_80)  # the second column: every player's name


@pytest.mark.parametrize("hidden", ["\u200b", "\ufe0f", "\u2060", "\u3164"])
def test_an_accent_typed_after_a_character_that_takes_no_place_is_still_the_same_name(hidden, events):
    # 'Jose' + an invisible character + a combining acute shows as José: it is José's name, not a second one
    assert name_key(f"Jose{hidden}\u0301") == name_key("José")
    event_id = events.create("Friday", style="physical")
    events.add_player(event_id, "José")
    with pytest.raises(InputError, match=r"same name as player #1 'José'"):
        events.add_player(event_id, f"Jose{hidden}\u0301")


@pytest.mark.parametrize(
    ("name", "stem"), [("\u3164Ann", "Ann"), ("Ann\u3164Bo", "Ann-Bo"), ("Ann\uffa0\u2800Bo", "Ann-Bo")]
)
def test_a_file_named_after_a_player_has_no_blank_letter_in_it(name, stem):
    # a Hangul filler is a letter by its category that shows nothing: a file name would hold it invisibly
    assert safe_name(name) == stem
