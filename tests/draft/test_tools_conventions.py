"""Deck files as other tools write and read them, where a reviewer found cmdraft reading them otherwise: Forge's
marked colors and sections, a Piper's one chosen color in every format, Cockatrice's comments naming commanders
kept in the main zone, CSV headers, XML deck files that are text, and a converted deck's name."""

from __future__ import annotations

import json

import pytest

from draft.decks import Zone
from draft.formats import FileFormat, parse, read_file, resolve
from sets.card_index import card_index

PIPER_LINE = "1 The Prismatic Piper|CMR|[1]|#{markedColors=G}"


def _convert(cli, tmp_path, name, text, out="out.json"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return cli("deck", "convert", path, tmp_path / out)


def _cod(comments: str, main: str, side: str = "") -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1">\n    <deckname>x</deckname>\n'
        f"    <comments>{comments}</comments>\n"
        f'    <zone name="main">\n{main}    </zone>\n'
        + (f'    <zone name="side">\n{side}    </zone>\n' if side else "")
    ) + "</cockatrice_deck>\n"


def _card(name: str, count: int = 1) -> str:
    return f'        <card number="{count}" name="{name}"/>\n'


# --- 1. Forge: the card line's marked color, which Forge reads and updates, wins over the Comment ----------------


def test_a_forge_pipers_marked_color_wins_over_a_stale_comment(cli, tmp_path):
    """Forge reads a card's chosen color from its request's markedColors flag and writes it back when the player
    changes it; 'Comment=' is free text Forge keeps as it was written.  So the line says G, the stale comment U:
    the Piper is green (before: ['U'], the comment's)."""
    text = (
        "[metadata]\nName=x\nComment=Piper colors: U\n[Commander]\n1 Jeska, Thrice Reborn|CMR\n"
        f"{PIPER_LINE}\n[Main]\n1 Murder|CMR\n"
    )
    result = _convert(cli, tmp_path, "conf.dck", text)
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["piper_colors"] == ["G"]


def test_a_forge_comment_still_gives_the_color_when_no_card_line_marks_one():
    """A .dck whose Piper line marks no color (written by cmdraft before it wrote the flag): the comment is all
    that says it, and is read."""
    parsed = parse("[metadata]\nComment=Piper colors: U\n[Commander]\n1 The Prismatic Piper|CMR\n[Main]\n1 Murder\n")
    deck, problems = resolve(parsed, card_index(["CMR"]))
    assert problems == [] and [color.value for color in deck.piper_colors] == ["U"]


# --- 2. a Piper chooses one color (CR 903.4b): anything else is refused in every format, as the CSV did ---------

ONE_PIPER_DCK = "[metadata]\nName=x\n{comment}[Commander]\n1 Jeska, Thrice Reborn|CMR\n{piper}\n[Main]\n1 Murder|CMR\n"


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        # the CSV, as it refused these before: the other formats now say the same
        ("wu.csv", "count,name,zone,piper_color\n1,The Prismatic Piper,commander,WU\n1,Murder,main,\n", "line 2: "),
        ("purple.csv", "count,name,zone,piper_color\n1,The Prismatic Piper,commander,purple\n", "line 2: "),
        (
            "wu.dck",
            ONE_PIPER_DCK.format(comment="", piper="1 The Prismatic Piper|CMR|[1]|#{markedColors=WU}"),
            "line 5: ",
        ),
        (
            "x.dck",
            ONE_PIPER_DCK.format(comment="", piper="1 The Prismatic Piper|CMR|[1]|#{markedColors=X}"),
            "line 5: ",
        ),
        ("legacy.dck", ONE_PIPER_DCK.format(comment="", piper="1 The Prismatic Piper|CMR|#W#U"), "line 5: "),
        (
            "bg.dck",
            ONE_PIPER_DCK.format(comment="Comment=Piper colors: B G\n", piper="1 The Prismatic Piper|CMR"),
            "line 3: ",
        ),
        (
            "purple.dck",
            ONE_PIPER_DCK.format(comment="Comment=Piper colors: purple\n", piper="1 The Prismatic Piper|CMR"),
            "line 3: ",
        ),
        ("purple.cod", _cod("Piper colors: purple", _card("Murder"), _card("The Prismatic Piper")), "line 4: "),
        (
            "bg.cod",
            _cod("Commanders: The Prismatic Piper\nPiper colors: B G", _card("Murder"), _card("The Prismatic Piper")),
            "line 5: ",
        ),
    ],
)
def test_a_piper_color_that_is_not_one_color_is_one_line_of_bad_input(cli, tmp_path, name, text, said):
    """Each Piper chooses one color (RULES, CR 903.4b): 'WU', 'X', 'purple', or two colors in a comment for the one
    Piper leading are no choice.  Before, .dck and .cod dropped them (or kept 'B G' for one Piper) and converted
    with exit 0 while the CSV refused them: now every format names the line and the value, exit 2."""
    result = _convert(cli, tmp_path, name, text)
    assert result.exit_code == 2, result.output
    assert len(result.stderr.splitlines()) == 1 and said in result.stderr
    assert "color" in result.stderr and "CR 903.4b" in result.stderr
    assert not (tmp_path / "out.json").exists()
    assert cli("deck", "check", tmp_path / name).exit_code == 2


def test_two_colors_in_a_comment_for_two_pipers_are_theirs():
    """The note cmdraft writes for two Pipers ('Piper colors: B R'): one color each, read as ever."""
    text = _cod(
        "Commanders: The Prismatic Piper; The Prismatic Piper\nPiper colors: B R",
        _card("Swamp", 58),
        _card("The Prismatic Piper", 2),
    )
    deck, problems = resolve(parse(text), card_index(["CMR"]))
    assert problems == [] and [c.value for c in deck.piper_colors] == ["B", "R"] and len(deck.commanders) == 2


# --- 3. Cockatrice: the commanders the comments name, kept in the main zone ------------------------------------


def test_cockatrice_commanders_named_in_the_comments_are_found_in_the_main_zone(cli, tmp_path):
    """Cockatrice has no command zone; many players keep the commanders in the main zone and name them in the
    deck's comments, as cmdraft's own .cod does ('Commanders: A; B').  Before: no commander (deck check:
    no-commander)."""
    text = _cod(
        "Commanders: Jeska, Thrice Reborn; Anara, Wolvid Familiar",
        _card("Jeska, Thrice Reborn") + _card("Murder", 2) + _card("Anara, Wolvid Familiar") + _card("Mountain", 56),
    )
    deck, problems = resolve(parse(text), card_index(["CMR"]))
    assert problems == []
    assert [card.name for card in deck.commanders] == ["Jeska, Thrice Reborn", "Anara, Wolvid Familiar"]
    assert {line.card.name: line.count for line in deck.zone(Zone.MAIN)} == {"Murder": 2, "Mountain": 56}
    path = tmp_path / "main.cod"
    path.write_text(text, encoding="utf-8")
    report = json.loads(cli("deck", "check", path, "--json").stdout)
    assert "no-commander" not in [problem["code"] for problem in report["problems"]]


def test_cockatrice_comments_naming_a_card_the_deck_lacks_change_nothing():
    text = _cod("Commanders: Kenrith, the Returned King", _card("Murder", 2))
    deck, problems = resolve(parse(text), card_index(["CMR"]))
    assert problems == [] and deck.commanders == [] and deck.zone(Zone.MAIN)[0].count == 2


# --- 4. CSV: a header row without a name column is refused; text lists with commas stay text --------------------


@pytest.mark.parametrize("name", ["noname.csv", "noname.txt"])
def test_a_csv_without_a_name_column_is_refused_naming_its_headers(cli, tmp_path, name):
    """docs/file-formats.md: a CSV needs a name column.  Before: its lines were read as text ('unknown card
    'qty,edition'')."""
    result = _convert(cli, tmp_path, name, "qty,edition\n1,CMR\n")
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert "'qty', 'edition'" in result.stderr and "'name'" in result.stderr and "unknown card" not in result.stderr


@pytest.mark.parametrize("name", ["list.csv", "list.txt"])
def test_a_text_list_whose_card_names_hold_commas_is_text(cli, tmp_path, name):
    path = tmp_path / name
    path.write_text("1 Jeska, Thrice Reborn\n1 Anara, Wolvid Familiar\n\n58 Mountain\n", encoding="utf-8")
    parsed = read_file(path)
    assert parsed.format is FileFormat.TEXT and parsed.errors == []
    assert [entry.name for entry in parsed.entries] == ["Jeska, Thrice Reborn", "Anara, Wolvid Familiar", "Mountain"]


# --- 5. Forge sections outside the deck are skipped ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("section", "card"),
    [
        ("Planes", "1 Akoum|PCA"),
        ("Schemes", "1 A Display of My Dark Power|ARC"),
        ("Conspiracy", "1 Backup Plan|CNS"),
        ("Avatar", "1 Akroma, Vision of Ixidor|CMR"),
    ],
)
def test_forge_sections_outside_the_deck_are_skipped(cli, tmp_path, section, card):
    """Forge's deck sections (forge-core DeckSection): Avatar (Vanguard), Planes, Schemes and Conspiracy hold cards
    played beside the deck, never in it.  Before: their cards were read as the sideboard, and a card of a set not
    loaded stopped the file with advice to download a set that imports leave those cards out of."""
    text = f"[metadata]\nName=x\n[Commander]\n1 Jeska, Thrice Reborn|CMR\n[Main]\n1 Murder|CMR\n[{section}]\n{card}\n"
    result = _convert(cli, tmp_path, "deck.dck", text)
    assert result.exit_code == 0, result.output
    written = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert [line["name"] for line in written["commanders"]] == ["Jeska, Thrice Reborn"]
    assert [line["name"] for line in written["main"]] == ["Murder"] and written["sideboard"] == []


# --- 6. an XML deck file's extension holds text ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["deck.dek", "deck.cod"])
def test_an_xml_deck_file_that_is_text_is_refused_in_one_line(cli, tmp_path, name):
    """MTGO opens a .dek and Cockatrice a .cod as XML; a text list under that name is neither.  Before, a .dek of
    '1 Murder' converted (exit 0) while a .cod with the wrong root and a foreign .json were refused."""
    for command in ("check", "convert"):
        path = tmp_path / name
        path.write_text("1 Murder\n1 Jeska, Thrice Reborn\n", encoding="utf-8")
        args = ("deck", command, path) + ((tmp_path / "out.json",) if command == "convert" else ())
        result = cli(*args)
        assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1, result.output
        assert name in result.stderr and "XML" in result.stderr and ".txt" in result.stderr
    assert not (tmp_path / "out.json").exists()


# --- 7. a deck converted from a file that gives no name is named after the file -----------------------------------


@pytest.mark.parametrize(
    ("out", "named"), [("out.dck", "Name=Friday Jeska\n"), ("out.cod", "<deckname>Friday Jeska</deckname>")]
)
def test_a_converted_deck_without_a_name_is_named_after_its_file(cli, tmp_path, out, named):
    """An Arena list without About names no deck; Forge and Cockatrice show a deck by its name.  Before: 'Name='
    and '<deckname></deckname>', empty; now the input's file name without its extension."""
    result = _convert(cli, tmp_path, "Friday Jeska.txt", "Commander\n1 Jeska, Thrice Reborn\n\nDeck\n1 Murder\n", out)
    assert result.exit_code == 0, result.output
    assert named in (tmp_path / out).read_text(encoding="utf-8")
    about = _convert(cli, tmp_path, "other.txt", "About\nName Friday\n\nCommander\n1 Jeska, Thrice Reborn\n", "n" + out)
    assert about.exit_code == 0 and "Friday Jeska" not in (tmp_path / ("n" + out)).read_text(encoding="utf-8")
    assert "Friday" in (tmp_path / ("n" + out)).read_text(encoding="utf-8")


def test_a_comment_color_with_no_piper_leading_is_the_checks_problem_not_a_bad_line(cli, tmp_path):
    """docs/file-formats.md: with no Piper leading, the colors a comment gives are for no one: `deck check` says so
    (piper-color-extra, an illegal deck, 1), as for colors given with --piper, and the file is read."""
    path = tmp_path / "none.cod"
    path.write_text(_cod("Piper colors: U", _card("Murder") + _card("Mountain", 58), _card("Jeska, Thrice Reborn")))
    result = cli("deck", "check", path, "--json")
    codes = [problem["code"] for problem in json.loads(result.stdout)["problems"]]
    assert result.exit_code == 1 and "piper-color-extra" in codes and "unreadable-line" not in codes
