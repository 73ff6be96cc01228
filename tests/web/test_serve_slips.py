"""The desk's seating slips for players' own phones: `event print ID seatings --codes --url URL` gives each slip
the join address (event and player number, never the code) as text and as the QR code segno makes for it."""

from __future__ import annotations

import re
import shlex
import urllib.request
from pathlib import Path

import pytest
import segno

from events.night.serving import serving
from events.storage.store import Store
from tests.helpers.nights import codes_of, terminal_night
from tests.helpers.serve_process import serve_process, stop

EXIT_BAD = 2  # README "Exit codes": bad input

BASE = "http://192.168.1.20:8000"


def player_numbers(db: Path, event_id: int) -> dict[str, int]:
    with Store(db).read() as handle:
        return {p["name"]: p.doc_id for p in handle.table("players").all() if p["event"] == event_id and not p["bot"]}


def segno_svg(url: str) -> str:
    """The QR code segno draws for exactly this text (segno cannot read one back, so the slip's SVG is compared
    with the one made from the address the join page expects)."""
    return segno.make(url, error="m", micro=False).svg_inline(
        scale=2, border=4, svgclass="qr", lineclass=None, omitsize=True
    )


def slips(html: str) -> dict[str, tuple[str, str, str]]:
    """Each slip's player name -> (its whole HTML, the QR's SVG, the address printed under it)."""
    found = {}
    for section in re.findall(r'<section class="page seating[^"]*">(.*?)</section>', html, re.S):
        name = re.search(r"<h2>Seating slip · (.*?)</h2>", section).group(1)
        figure = re.search(
            r'<figure class="link">(<svg.*?</svg>)<figcaption>(.*?)</figcaption></figure>', section, re.S
        )
        assert figure, f"no QR code on {name}'s slip"
        found[name] = (section, figure.group(1), figure.group(2).replace("&amp;", "&"))
    return found


def test_each_slip_carries_the_join_address_and_its_qr_code_but_never_the_seat_code(tmp_path, cli):
    db = tmp_path / "slips.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", "Cy", bots=1)
    codes, numbers = codes_of(db, event_id), player_numbers(db, event_id)
    printed = cli(
        "event", "print", event_id, "seatings", "--codes", "--format", "html", "--url", BASE + "/", "--db", db
    )
    assert printed.exit_code == 0, printed.output
    found = slips(printed.stdout)
    assert sorted(found) == ["Ann", "Bo", "Cy"]
    for name, (section, svg, shown) in found.items():
        expected = f"{BASE}/join?event={event_id}&player={numbers[name]}"
        assert shown == expected
        assert svg == segno_svg(expected)
        assert codes[name] in section  # the code is on the slip, for the player to type...
        assert not any(code in shown for code in codes.values())  # ...and in no QR payload
        assert svg != segno_svg(f"{expected}&code={codes[name]}")
    assert len({svg for _, svg, _ in found.values()}) == 3


def test_text_slips_print_the_join_address(tmp_path, cli):
    db = tmp_path / "slips.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2)
    numbers = player_numbers(db, event_id)
    text = cli("event", "print", event_id, "seatings", "--codes", "--url", BASE, "--db", db).stdout
    for number in numbers.values():
        assert f"{BASE}/join?event={event_id}&player={number}" in text
    assert "scan the QR code" in text
    plain = cli("event", "print", event_id, "seatings", "--codes", "--db", db).stdout
    assert "/join?" not in plain  # no --url: the slips stay as they were


@pytest.mark.parametrize(
    "url",
    [
        "192.168.1.20:8000",
        "ftp://host",
        "http://",
        "http://host/?x=1",
        "http://host/#top",
        "http://h:99999",
        "http://a b",
        "http://192.168.1.20:8000/desk",  # a page of the server, not its address: each slip's /join would miss
        "http://host/x/",
    ],
)
def test_a_url_phones_cannot_open_is_refused_in_one_line(tmp_path, cli, url):
    db = tmp_path / "slips.json"
    event_id = terminal_night(cli, db, "Ann", bots=3)
    result = cli("event", "print", event_id, "seatings", "--codes", "--url", url, "--db", db)
    assert result.exit_code == EXIT_BAD
    assert "--url" in result.stderr and "cmdraft serve" in result.stderr and "Traceback" not in result.output


def test_url_belongs_to_the_slips_with_codes(tmp_path, cli):
    db = tmp_path / "slips.json"
    event_id = terminal_night(cli, db, "Ann", bots=3)
    result = cli("event", "print", event_id, "seatings", "--url", BASE, "--db", db)
    assert result.exit_code == EXIT_BAD and "seatings --codes" in result.stderr


def seat_hint(cli, db: Path, event_id: int) -> str:
    """The slips command `event seat --again` suggests (its own line)."""
    result = cli("event", "seat", event_id, "--again", "--db", db)
    assert result.exit_code == 0, result.output
    return next(line for line in result.stdout.splitlines() if "seatings --codes" in line)


@pytest.mark.slow
def test_event_seat_suggests_the_slips_with_serves_address_while_serve_runs(tmp_path, cli):
    """A real `cmdraft serve` process (the address it prints is what the slips must carry), stopped with Ctrl-C
    and then killed as a crash would leave it."""
    db = tmp_path / "slips.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2)
    assert "--url" not in seat_hint(cli, db, event_id)  # no server running: the command as before
    with serve_process(db, event_id) as (process, url):
        assert seat_hint(cli, db, event_id).endswith(f"--db {db} --url {url} --format html --out slips.html --force")
        with urllib.request.urlopen(url + "/", timeout=30) as answer:  # it answers: Ctrl-C now stops a running server
            assert answer.status == 200
        stop(process)
    assert "--url" not in seat_hint(cli, db, event_id)  # stopped: the address is no longer served
    with serve_process(db, event_id) as (process, url):
        assert f"--url {url}" in seat_hint(cli, db, event_id)
        process.kill()  # a crash leaves its file behind, naming a process that is gone
        process.wait()
    assert any(tmp_path.glob("*.serving-*.json"))
    assert "--url" not in seat_hint(cli, db, event_id)


@pytest.mark.parametrize(("url", "per_paper"), [(BASE, 3), (None, 5)])
def test_slips_with_the_join_address_print_three_to_a_sheet_and_five_without(tmp_path, cli, url, per_paper):
    """docs/store-night.md "Seat codes": five slips to a sheet, three when they carry the QR code (taller)."""
    db = tmp_path / "slips.json"
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]
    event_id = terminal_night(cli, db, *names, bots=1)
    printed = cli(
        "event",
        "print",
        event_id,
        "seatings",
        "--codes",
        "--format",
        "html",
        *(["--url", url] if url else []),
        "--db",
        db,
    )
    assert printed.exit_code == 0, printed.output
    classes = re.findall(r'<section class="page seating([^"]*)">', printed.stdout)
    assert len(classes) == len(names)
    ends = ["break" if "break" in c else "cut" if "cut" in c else None for c in classes]
    assert ends == [("break" if n % per_paper == 0 else "cut") if n < len(names) else None for n in range(1, 8)]


def draft_started_at_the_desk(cli, db: Path, event_id: int) -> str:
    """What ``event draft ID`` says as it starts a terminal draft (the desk's view, left at once with 'quit')."""
    result = cli("event", "draft", event_id, "--db", db, input="quit\n")
    return next(line for line in result.stdout.splitlines() if line.startswith("The draft is on."))


@pytest.mark.parametrize("served", [False, True])
def test_the_desk_starting_a_draft_is_told_players_pick_on_their_phones_or_at_terminals(tmp_path, cli, served):
    db = tmp_path / "phones.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2)
    terminal = f"at a terminal: cmdraft event draft {event_id} --player NAME"
    if served:
        with serving(db, event_id, BASE):  # what `cmdraft serve` leaves beside the database while it runs
            said = draft_started_at_the_desk(cli, db, event_id)
        assert said == f"The draft is on. Each player picks on their phone (cmdraft serve, at {BASE}) or {terminal}"
    else:
        said = draft_started_at_the_desk(cli, db, event_id)
        assert (
            said
            == f"The draft is on. Each player picks on their phone while cmdraft serve {event_id} runs, or {terminal}"
        )


def test_a_draft_without_seat_codes_is_picked_at_terminals_only(tmp_path, cli):
    db = tmp_path / "no-codes.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2, codes=False)
    said = draft_started_at_the_desk(cli, db, event_id)
    assert said == f"The draft is on. Each player picks at a terminal: cmdraft event draft {event_id} --player NAME"


def test_the_slips_command_event_seat_suggests_runs_after_seating_and_again_after_seating_again(
    tmp_path, cli, monkeypatch
):
    """`event seat` says the command that prints the slips; the desk runs it, then re-seats (`--again`) and runs
    what that suggests in the same folder: the old slips are wrong now, so it replaces them."""
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "slips.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2)
    seated = cli("event", "seat", event_id, "--again", "--db", db)
    for _ in range(2):
        (line,) = [line for line in seated.stdout.splitlines() if "seatings --codes" in line]
        printed = cli(*shlex.split(line)[1:])
        assert printed.exit_code == 0, printed.output
        assert all(f"<h2>Seating slip · {name}</h2>" in (tmp_path / "slips.html").read_text() for name in ("Ann", "Bo"))
        seated = cli("event", "seat", event_id, "--again", "--db", db)


def test_a_late_player_with_a_sealed_pool_gets_their_own_slip_with_the_join_address_from_the_command_they_are_told(
    tmp_path, cli, monkeypatch
):
    """A player who joins once the draft has started (`--sealed`) has a code but no draft seat: the command the desk
    is told (with serve's address while it runs) prints their slip alone (every other code stays unprinted), with
    their join address and the commands their own terminal runs (no draft to pick)."""
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "late.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2)
    assert cli("event", "draft", event_id, "--db", db, input="quit\n").exit_code == 0
    with serving(db, event_id, BASE):  # what `cmdraft serve` leaves beside the database while it runs
        added = cli("event", "player", "add", event_id, "Lou", "--sealed", "--db", db)
    assert added.exit_code == 0, added.output
    told = re.search(r"their slip: '(cmdraft event print [^']*)'", " ".join(added.stdout.split()))
    assert told, added.stdout
    lou = player_numbers(db, event_id)["Lou"]
    assert told.group(1).endswith(f"--player Lou --db {db} --url {BASE} --format html --out slip-{lou}-Lou.html")
    printed = cli(*shlex.split(told.group(1))[1:])
    assert printed.exit_code == 0, printed.output
    found = slips((tmp_path / f"slip-{lou}-Lou.html").read_text(encoding="utf-8"))
    assert sorted(found) == ["Lou"]
    section, svg, shown = found["Lou"]
    expected = f"{BASE}/join?event={event_id}&player={player_numbers(db, event_id)['Lou']}"
    assert shown == expected and svg == segno_svg(expected)
    codes = codes_of(db, event_id)
    assert codes["Lou"] in section and codes["Ann"] not in section and codes["Bo"] not in section
    assert f"cmdraft event deck {event_id} Lou --build" in section and "--player Lou" in section
    assert f"cmdraft event draft {event_id} --player Lou" not in section  # no draft seat to pick at
    every = slips(
        cli("event", "print", event_id, "seatings", "--codes", "--url", BASE, "--format", "html", "--db", db).stdout
    )
    assert sorted(every) == ["Ann", "Bo", "Lou"]  # the whole set of slips has the late player's too


def test_only_a_slip_holders_slip_is_printed_alone(tmp_path, cli):
    db = tmp_path / "one.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", "Cy", bots=1)
    one = cli("event", "print", event_id, "seatings", "--codes", "--player", "#2", "--player", "Cy", "--db", db)
    assert one.exit_code == 0 and one.stdout.count("SEATING SLIP") == 2 and "SLIP · Ann" not in one.stdout
    assert cli("event", "player", "drop", event_id, "Bo", "--db", db).exit_code == 0
    dropped = cli("event", "print", event_id, "seatings", "--codes", "--player", "Bo", "--db", db)
    assert dropped.exit_code == 3 and "no seating slip for 'Bo'" in dropped.stderr
    bot = cli("event", "print", event_id, "seatings", "--codes", "--player", "Bot 1", "--db", db)
    assert bot.exit_code == 3 and "no seating slip for 'Bot 1'" in bot.stderr
    unknown = cli("event", "print", event_id, "seatings", "--codes", "--player", "Zed", "--db", db)
    assert unknown.exit_code == 2 and "no player 'Zed'" in unknown.stderr
    plain = cli("event", "print", event_id, "seatings", "--player", "Ann", "--db", db)
    assert plain.exit_code == 2 and "--player belongs to the seating slips" in plain.stderr


def test_two_late_players_whose_names_differ_by_an_accent_are_told_two_slip_files_and_both_print(
    tmp_path, cli, monkeypatch
):
    """The file each late player's slip is suggested to go to is their own: 'Zoé' and 'Zoè' (two names: accents
    count) once both went to 'slip-Zo.html', and the second print was refused (the file was there)."""
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "accents.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", bots=2)
    assert cli("event", "draft", event_id, "--db", db, input="quit\n").exit_code == 0
    told = []
    for name in ("Zoé", "Zoè"):
        with serving(db, event_id, BASE):  # what `cmdraft serve` leaves beside the database while it runs
            added = cli("event", "player", "add", event_id, name, "--sealed", "--db", db)
        assert added.exit_code == 0, added.output
        told.append(re.search(r"their slip: '(cmdraft event print .*)'$", " ".join(added.stdout.split())).group(1))
    files = [shlex.split(command)[-1] for command in told]
    numbers = player_numbers(db, event_id)
    assert files == [f"slip-{numbers['Zoé']}-Zoe.html", f"slip-{numbers['Zoè']}-Zoe.html"]
    for command in told:
        printed = cli(*shlex.split(command)[1:])
        assert printed.exit_code == 0, printed.output
    assert [sorted(slips((tmp_path / file).read_text(encoding="utf-8"))) for file in files] == [["Zoé"], ["Zoè"]]
