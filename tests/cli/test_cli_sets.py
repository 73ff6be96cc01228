"""CLI wiring for sets, card and identity: output, JSON shape, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.cardfiles import atomic_cards, cmr_mtgjson, mtgjson_set, scryfall_cards, write
from tests.helpers.products import CMM, import_products


def test_sets_list_and_show(cli):
    result = cli("sets", "list", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)[0]["code"] == "CMR"
    summary = json.loads(cli("sets", "show", "CMR", "--json").stdout)
    assert summary["cards"] == 393 and summary["by_rarity"]["common"] == 141 and summary["commanders"] == 103
    assert "commanders" in cli("sets", "show", "cmr").stdout


def test_sets_list_says_whether_each_sets_card_text_is_installed(cli, tmp_path):
    """Issue 43: none (and the command that brings it), some, or all of a set's rules text on this machine."""

    def cmr_row():
        return next(row for row in json.loads(cli("sets", "list", "--json").stdout) if row["code"] == "CMR")

    assert cmr_row()["cards_with_text"] == 0
    assert "none: 'cmdraft sets download CMR'" in cli("sets", "list").stdout
    assert cli("sets", "import", write(tmp_path, "some.json", cmr_mtgjson({"Murder", "Ghastly Demise"}))).exit_code == 0
    assert cmr_row()["cards_with_text"] == 2 and "2 of 393" in cli("sets", "list").stdout
    assert cli("sets", "import", write(tmp_path, "all.json", cmr_mtgjson())).exit_code == 0
    assert cmr_row()["cards_with_text"] == 393 and "installed (393)" in cli("sets", "list").stdout


def test_card_lookup_tolerates_case_and_accents(cli):
    data = json.loads(cli("card", "JESKA thrice reborn", "--json").stdout)
    assert data["number"] == "186" and data["color_identity"] == ["R"] and data["can_be_commander"]
    assert "Jeska, Thrice Reborn" in cli("card", "jeska, thrice reborn").stdout


def test_unknown_card_suggests(cli):
    result = cli("card", "Najela the Blade Blossom")
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert line.startswith(
        "cmdraft: error: unknown card 'Najela the Blade Blossom' (did you mean 'Najeela, the Blade-Blossom'"
    )
    assert "\n" not in line


@pytest.mark.parametrize("name", ["", "   "])
def test_an_empty_card_name_asks_for_a_card_name_instead_of_calling_it_unknown(cli, name):
    result = cli("card", name)
    assert result.exit_code == 2
    assert result.stderr == (
        "cmdraft: error: no card name given: give a card's name (or the start of one), such as 'Sol Ring'\n"
    )


@pytest.mark.parametrize("maker", [mtgjson_set, atomic_cards, scryfall_cards])
def test_identity_prints_one_json_line_per_card(cli, tmp_path, maker):
    path = write(tmp_path, "cards.json", maker())
    result = cli("identity", path, "--json")
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert all(set(line) == {"name", "color_identity", "deck_colors"} for line in lines)
    names = [line["name"] for line in lines]
    assert len(names) == len(set(names))


def test_identity_json_matches_the_contract(cli, tmp_path):
    path = write(tmp_path, "a.json", atomic_cards())
    lines = {d["name"]: d for d in map(json.loads, cli("identity", path, "--json").stdout.splitlines())}
    assert lines["Murmuring Bosk"] == {
        "name": "Murmuring Bosk",
        "color_identity": ["W", "B"],
        "deck_colors": ["W", "B", "G"],
    }


def test_identity_table_flags_mismatches(cli, tmp_path):
    result = cli("identity", write(tmp_path, "TST.json", mtgjson_set()))
    assert "Lying Card" in result.stdout and "1 card differs from the file" in result.stdout


def test_sets_import_then_use(cli, tmp_path):
    result = cli("sets", "import", write(tmp_path, "TST.json", mtgjson_set()), "--json")
    report = json.loads(result.stdout)
    assert report["sets"][0]["code"] == "TST" and report["identity_mismatches"][0]["name"] == "Lying Card"
    assert "TST" in [row["code"] for row in json.loads(cli("sets", "list", "--json").stdout)]
    assert json.loads(cli("card", "Homicidal Brute", "--set", "TST", "--json").stdout)["color_identity"] == ["U", "R"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("sets", "show", "XYZ"), "unknown set 'XYZ'"),
        (("card", "Sol Ring", "--set", "NOPE"), "unknown set 'NOPE'"),
        (("identity", "/no/such/file.json"), "cannot read '/no/such/file.json'"),
    ],
)
def test_bad_input_exits_2_with_one_line(cli, args, message):
    result = cli(*args)
    assert result.exit_code == 2
    assert (
        message in result.stderr and len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    )


@pytest.mark.parametrize(("content", "message"), [("{", "not valid JSON"), ('{"a": 1}', "not a card file")])
def test_malformed_card_files(cli, tmp_path, content, message):
    path = tmp_path / "x.json"
    path.write_text(content)
    for command in ("identity", "sets"):
        args = ("identity", path) if command == "identity" else ("sets", "import", path)
        result = cli(*args)
        assert result.exit_code == 2 and message in result.stderr


@pytest.mark.slow
def test_installed_script_reports_errors_without_traceback():
    """In a process of its own: the installed ``cmdraft`` script, as a user runs it."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "events", "card", "Sol Rnig"], capture_output=True, text=True, timeout=60
    )
    assert (
        done.returncode == 2
        and done.stderr.startswith("cmdraft: error: unknown card 'Sol Rnig'")
        and "Traceback" not in done.stderr
    )


def test_a_mana_cost_not_in_braces_exits_2(cli, tmp_path):
    data = scryfall_cards()
    data[0]["mana_cost"] = "{4}Z"
    path = write(tmp_path, "cards.json", data)
    for args in (("identity", path), ("sets", "import", path)):
        result = cli(*args)
        assert (
            result.exit_code == 2
            and "has a bad mana cost '{4}Z'" in result.stderr
            and "Transguild Courier" in result.stderr
        )


def test_an_unknown_mana_symbol_imports_the_file_and_names_the_card(cli, tmp_path):
    """Before: one card's symbol cmdraft doesn't know ({Z/Q}) refused the whole file (exit 2)."""
    data = scryfall_cards()
    data[0]["mana_cost"] = "{4}{Z/Q}"
    path = write(tmp_path, "cards.json", data)
    for args in (("identity", path), ("sets", "import", path)):
        result = cli(*args)
        assert result.exit_code == 0, result.output
        assert "Transguild Courier" in result.output and "{Z/Q}" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("code", ["A", "ABCDEFGHI", "CM-R"])
def test_a_set_code_of_the_wrong_shape_is_refused_in_the_same_words_by_every_command(cli, tmp_path, code):
    """One rule for a set code's shape: a command that loads a set never sends the user to download or import a
    code that ``sets download`` and ``sets import --code`` refuse."""
    card_file = write(tmp_path, "cards.json", cmr_mtgjson({"Murder"}))
    commands = [
        ("sim", "--set", code),
        ("sets", "show", code),
        ("card", "Sol Ring", "--set", code),
        ("sets", "download", code),
        ("sets", "import", card_file, "--code", code),
    ]
    for args in commands:
        result = cli(*args)
        assert result.exit_code == 2, args
        assert "a set code is 2-8 letters or digits, e.g. CMR" in result.stderr, (args, result.stderr)
        assert "sets download" not in result.stderr, (args, result.stderr)


def test_sets_show_counts_the_legends_a_products_grant_pairs(cli):
    """A store reading 'sets show CMM' sees that its draft pairs mono-colored legends (the Commander Masters grant),
    not only the few cards printed with partner; a set with no grant shows none."""
    import_products(cli)
    summary = json.loads(cli("sets", "show", "CMM", "--json").stdout)
    mono = [c for c in CMM.values() if c.can_be_commander and len(c.identity) == 1 and not c.has_partner]
    assert summary["granted_partners"] == len(mono) > 0 and "exactly one color" in summary["grant"]
    assert "granted partners" in cli("sets", "show", "CMM").stdout
    for code in ("CMR", "CLB"):
        assert "granted_partners" not in json.loads(cli("sets", "show", code, "--json").stdout)


def test_importing_a_product_set_reports_its_own_cards_text_not_the_bundled_sets_state(cli):
    """`sets import cmm_set.json` also said "rules text for CMR: 4 of 393 bundled cards": its four reprints of CMR
    cards gave them text, said as if the file were CMR's and 389 of its cards were missing. It reports the set it
    stored with how many of its cards came with text, then what its reprints gave the bundled set."""
    from sets.catalog import load_set
    from tests.helpers.products import CMM_FILE

    with_text = sum(any(face.text for face in card.faces) for card in CMM.values())
    result = cli("sets", "import", CMM_FILE)
    assert result.exit_code == 0, result.output
    said = " ".join(result.stdout.split())
    assert f"imported CMM: {len(CMM)} cards, {with_text} with rules text -> " in said
    assert "bundled cards" not in said and "of 393" not in said
    reprinted = sum(
        any(face.text for face in card.faces) and card.name in {c.name for c in load_set("CMR").cards}
        for card in CMM.values()
    )
    assert f"rules text also for {reprinted} bundled CMR cards of the same name" in said
    report = json.loads(cli("sets", "import", CMM_FILE, "--json").stdout)
    assert report["sets"][0]["cards_with_text"] == with_text
    assert report["rules_text"] == [
        {"code": "CMR", "cards_with_text": reprinted, "from_file": reprinted, "reprints": True}
    ]


def test_a_plain_cmr_card_list_gives_the_bundled_cards_their_text(cli, tmp_path):
    """Importing shared/data/cmr/cards.json (its set an object with a code) said "cards without a usable set code;
    give one with --code XYZ", and with ``--code CMR`` "CMR is a bundled set ... leave --code out": no way in.  It
    adds its rules text to the bundled cards, as an MTGJSON file of CMR does."""
    card = {
        "number": "186",
        "name": "Jeska, Thrice Reborn",
        "rarity": "mythic",
        "mana_cost": "{2}{R}",
        "mana_value": 3,
        "colors": ["R"],
        "type_line": "Legendary Planeswalker — Jeska",
        "supertypes": ["Legendary"],
        "types": ["Planeswalker"],
        "subtypes": ["Jeska"],
        "text": "Jeska, Thrice Reborn can be your commander.\nPartner",
        "power": None,
        "toughness": None,
        "loyalty": "0",
    }
    data = {"set": {"code": "CMR", "name": "Commander Legends", "base_set_size": 361}, "cards": [card]}
    result = cli("sets", "import", write(tmp_path, "cards.json", data))
    assert result.exit_code == 0, result.stderr
    shown = json.loads(cli("card", "Jeska, Thrice Reborn", "--json").stdout)
    assert "Jeska, Thrice Reborn can be your commander." in shown["text"][0]


def test_a_set_file_cmdraft_stored_imports_as_it_was_stored(cli, tmp_path):
    """A set cmdraft keeps (``sets/TST.json`` in its data folder, the path ``sets list`` shows), copied to a
    machine with no network and imported there, was read as a plain card list: exit 0 and every card stored
    blank, colorless and unable to lead, so decks led by its legends were refused.  It imports with its cards'
    identities, commander facts, rules text and boosters; ``identity`` reads it the same way."""
    first = json.loads(cli("sets", "import", write(tmp_path, "TST.json", mtgjson_set()), "--json").stdout)
    stored = tmp_path / "copied" / "TST.json"
    stored.parent.mkdir()
    stored.write_bytes(Path(first["sets"][0]["path"]).read_bytes())
    before = {name: json.loads(cli("card", name, "--set", "TST", "--json").stdout) for name in CARDS_KEPT}
    result = cli("sets", "import", stored, "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["sets"][0]["boosters"] == first["sets"][0]["boosters"]
    after = {name: json.loads(cli("card", name, "--set", "TST", "--json").stdout) for name in CARDS_KEPT}
    assert after == before and after["Beta Partner"]["can_be_commander"]
    assert after["Civilized Scholar // Homicidal Brute"]["color_identity"] == ["U", "R"]
    listed = {
        row["name"]: row["color_identity"]
        for row in map(json.loads, cli("identity", stored, "--json").stdout.splitlines())
    }
    assert listed["Civilized Scholar // Homicidal Brute"] == ["U", "R"] and listed["Beta Partner"] == ["B"]


CARDS_KEPT = ("Alpha Legend", "Beta Partner", "Civilized Scholar // Homicidal Brute")


def test_a_stored_sets_identity_is_computed_from_its_text_and_a_changed_one_is_reported(cli, tmp_path):
    """A stored set file whose card says another identity than its text gives (edited, or made by a faulty tool) is
    not trusted: the engine's identity from the text is kept and the file's is reported, as for every other kind of
    card file; a damaged one is refused in one line naming what is missing, with what to do."""
    first = json.loads(cli("sets", "import", write(tmp_path, "TST.json", mtgjson_set()), "--json").stdout)
    data = json.loads(Path(first["sets"][0]["path"]).read_text(encoding="utf-8"))
    card = next(card for card in data["cards"] if card["name"] == "Beta Partner")
    card["identity"] = card["deck_colors"] = "WUBRG"
    tampered = write(tmp_path, "tampered.json", data)
    listed = {
        row["name"]: row["color_identity"]
        for row in map(json.loads, cli("identity", tampered, "--json").stdout.splitlines())
    }
    assert listed["Beta Partner"] == ["B"]
    imported = cli("sets", "import", tampered, "--json")
    assert imported.exit_code == 0, imported.stderr
    assert [row["name"] for row in json.loads(imported.stdout)["identity_mismatches"]] == ["Beta Partner"]
    assert json.loads(cli("card", "Beta Partner", "--set", "TST", "--json").stdout)["color_identity"] == ["B"]

    del data["cards"]
    damaged = cli("sets", "import", write(tmp_path, "damaged.json", data))
    assert damaged.exit_code == 2 and damaged.stderr.count("\n") == 1
    assert "is damaged (no 'cards' field): copy it again from the data folder it came from" in damaged.stderr
    assert "KeyError" not in damaged.stderr
