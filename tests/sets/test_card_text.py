"""Card text on demand: rules text the user brings (import, download) enriches the bundled cards.

Every rules text here is made up for the tests; no real card text is committed.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import http.server
import json
import os
import re
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pexpect
import pytest
from rich.console import Console
from rich.table import Table

from events.screens.render import add_text_rows
from sets.catalog import load_set
from sets.download import DownloadError, download_set
from tests.helpers.cardfiles import cmr_mtgjson, made_up, write
from tests.helpers.paths import ROOT
from tests.helpers.products import CLB


def tst_set() -> dict:
    """Another set: a reprint of a CMR card and a double-faced card, both with made-up text."""

    def card(uuid, name, number, cost, type_, text, colors, **extra):
        return {
            "uuid": uuid,
            "name": name,
            "number": number,
            "manaCost": cost,
            "type": type_,
            "text": text,
            "colors": colors,
            "colorIdentity": colors,
            "rarity": "common",
            "layout": extra.pop("layout", "normal"),
            "setCode": "ZZT",
            **extra,
        }

    cards = [
        card("t1", "Murder", "1", "{1}{B}{B}", "Instant", "Reprinted invented words.", ["B"]),
        card(
            "t2",
            "Day Walker // Night Walker",
            "2a",
            "{1}{G}",
            "Creature — Wolf",
            "Front invented words.",
            ["G"],
            layout="transform",
            side="a",
            faceName="Day Walker",
            power="2",
            toughness="2",
        ),
        card(
            "t3",
            "Day Walker // Night Walker",
            "2b",
            "",
            "Creature — Wolf",
            "Back invented words.",
            ["G"],
            layout="transform",
            side="b",
            faceName="Night Walker",
            colorIndicator=["G"],
            power="3",
            toughness="3",
        ),
    ]
    return {"code": "ZZT", "name": "Test Reprints", "cards": cards}


def test_bundled_data_holds_no_rules_text():
    text = (ROOT / "sets" / "data" / "cmr.json").read_text(encoding="utf-8")
    assert '"text"' not in text and all(not face.text for card in load_set("CMR") for face in card.faces)


def test_without_imported_text_card_says_where_to_get_it(cli):
    result = cli("card", "Murder")
    assert result.exit_code == 0 and "cmdraft sets download CMR" in result.stdout
    # no text here: no entries (before: one empty string a face, as if the card were printed without text)
    assert json.loads(cli("card", "Murder", "--json").stdout)["text"] == []


def test_card_takes_a_unique_start_of_a_name_and_names_the_cards_an_ambiguous_start_fits(cli):
    """As at the pick prompt: 'cmdraft card murd' is Murder; a start several cards share lists them (exit 2)."""
    result = cli("card", "murd", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["name"] == "Murder"
    assert json.loads(cli("card", "fier", "--json").stdout)["name"] == "Fiery Cannonade"
    ambiguous = cli("card", "fi")
    assert ambiguous.exit_code == 2 and "Traceback" not in ambiguous.output
    assert "'fi' is the start of" in ambiguous.output
    assert all(name in ambiguous.output for name in ("Fiery Cannonade", "Fire Diamond", "First Response"))
    assert "type more of the name" in ambiguous.output
    typo = cli("card", "fiery canonade")
    assert typo.exit_code == 2 and "did you mean 'Fiery Cannonade'" in typo.output


def test_import_mtgjson_set_enriches_the_bundled_cards(cli, tmp_path, cmdraft_home):
    path = write(tmp_path, "CMR.json", cmr_mtgjson())
    result = cli("sets", "import", path, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["sets"] == [] and report["rules_text"] == [
        {"code": "CMR", "cards_with_text": 393, "from_file": 393, "reprints": False}
    ]
    kept = cmdraft_home / "texts" / "CMR.json"
    assert kept.is_file() and ROOT not in kept.resolve().parents
    data = json.loads(cli("card", "Akroma, Vision of Ixidor", "--json").stdout)
    assert data["text"] == [made_up("Akroma, Vision of Ixidor")] and data["set"] == "CMR"
    shown = cli("card", "Akroma, Vision of Ixidor").stdout
    assert "Invented test words for Akroma, Vision of Ixidor." in shown and "Second invented line." in shown
    # the facts stay the bundled ones: same numbers, same commander facts
    assert cli("sets", "show", "CMR", "--json").stdout == cli("sets", "show", "CMR", "--json").stdout
    assert json.loads(cli("sets", "show", "CMR", "--json").stdout)["commanders"] == 103
    plain = cli("sets", "import", path)
    assert "rules text for CMR: 393 of 393 bundled cards" in plain.stdout


def test_import_allprintings_keeps_text_for_reprints_and_stores_other_sets(cli, tmp_path):
    printings = {"meta": {}, "data": {"CMR": cmr_mtgjson({"Akroma, Vision of Ixidor"})["data"], "ZZT": tst_set()}}
    report = json.loads(cli("sets", "import", write(tmp_path, "AllPrintings.json", printings), "--json").stdout)
    assert [entry["code"] for entry in report["sets"]] == ["ZZT"]
    assert report["rules_text"] == [  # Akroma, and Murder through its reprint
        {"code": "CMR", "cards_with_text": 2, "from_file": 2, "reprints": False}
    ]
    assert json.loads(cli("card", "Murder", "--set", "CMR", "--json").stdout)["text"] == ["Reprinted invented words."]
    dfc = json.loads(cli("card", "Night Walker", "--set", "ZZT", "--json").stdout)
    assert dfc["text"] == ["Front invented words.", "Back invented words."]
    assert "Back invented words." in cli("card", "Day Walker // Night Walker").stdout


def test_import_scryfall_file_enriches_too(cli, tmp_path):
    cards = [
        {
            "object": "card",
            "name": "Murder",
            "layout": "normal",
            "mana_cost": "{1}{B}{B}",
            "cmc": 3.0,
            "type_line": "Instant",
            "oracle_text": "Scryfall invented words.",
            "colors": ["B"],
            "color_identity": ["B"],
            "set": "zzs",
            "collector_number": "9",
            "rarity": "common",
        }
    ]
    report = json.loads(cli("sets", "import", write(tmp_path, "scry.json", cards), "--json").stdout)
    assert report["rules_text"] == [{"code": "CMR", "cards_with_text": 1, "from_file": 1, "reprints": True}]
    assert "Scryfall invented words." in cli("card", "Murder", "--set", "CMR").stdout


def test_a_later_import_adds_to_the_kept_text(cli, tmp_path):
    cli("sets", "import", write(tmp_path, "a.json", cmr_mtgjson({"Murder"})))
    report = json.loads(
        cli("sets", "import", write(tmp_path, "b.json", cmr_mtgjson({"Sisay's Ring"})), "--json").stdout
    )
    assert report["rules_text"] == [{"code": "CMR", "cards_with_text": 2, "from_file": 1, "reprints": False}]


def test_bundled_code_given_with_code_is_refused(cli, tmp_path):
    result = cli("sets", "import", write(tmp_path, "t.json", cmr_mtgjson({"Murder"})), "--code", "CMR")
    assert result.exit_code == 2 and "bundled set" in result.stderr


@pytest.mark.parametrize("kind", ["set", "texts"])
def test_import_into_an_unwritable_data_folder_is_one_line(tmp_path, kind, cli, monkeypatch):
    blocker = tmp_path / "home"
    blocker.write_text("a file where the data folder should be")
    data = {"meta": {}, "data": tst_set()} if kind == "set" else cmr_mtgjson({"Murder"})
    path = write(tmp_path, "cards.json", data)
    monkeypatch.setenv("CMDRAFT_HOME", str(blocker))
    result = cli("sets", "import", path)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("cmdraft: error: cannot write") and "CMDRAFT_HOME" in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


# --- sets download, from a server on this machine ------------------------------------------------------


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the folder; '/short/NAME' promises more bytes than it sends and hangs up (a broken download);
    '/status/N/NAME' answers N; '/html/NAME' a web page (a network asking to sign in); '/big/NAME' promises 3 GiB;
    '/trickle/NAME' sends it 32 bytes at a time."""

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path.startswith("/status/"):
            self.send_error(int(self.path.split("/")[2]))
            return
        if self.path.startswith("/html/") or (self.path.startswith("/big/") and not self.path.endswith(".sha256")):
            page = self.path.startswith("/html/")
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8" if page else "application/json")
            self.send_header("Content-Length", "47" if page else str(3 * 1024**3))
            self.end_headers()
            self.wfile.write(b"<html><body>Sign in to the Wi-Fi</body></html>" if page else b"{")
            return
        if self.path.startswith("/big/"):
            self.path = self.path[len("/big") :]
        if self.path.startswith("/short/") and not self.path.endswith(".sha256"):
            body = Path(self.directory, self.path[len("/short/") :]).read_bytes()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        if self.path.startswith("/short/"):
            self.path = self.path[len("/short") :]
        if self.path.startswith("/trickle/") and not self.path.endswith(".sha256"):
            body = Path(self.directory, self.path[len("/trickle/") :]).read_bytes()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            for start in range(0, len(body), 32):
                self.wfile.write(body[start : start + 32])
                self.wfile.flush()
                time.sleep(0.002)
            return
        if self.path.startswith("/trickle/"):
            self.path = self.path[len("/trickle") :]
        super().do_GET()


@pytest.fixture
def server(tmp_path):
    folder = tmp_path / "www"
    folder.mkdir()
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(folder)))
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    yield folder, f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def publish(folder: Path, data: dict, digest: str | None = None) -> bytes:
    body = json.dumps(data).encode()
    (folder / "CMR.json").write_bytes(body)
    (folder / "CMR.json.sha256").write_text((digest or hashlib.sha256(body).hexdigest()) + "\n")
    return body


def nothing_stored(home: Path) -> bool:
    """No downloaded file (not even a partial one) and no kept text."""
    downloads = home / "downloads"
    return not (home / "texts").exists() and (not downloads.exists() or not any(downloads.iterdir()))


def test_download_checks_the_sha256_stores_and_imports(cli, server, cmdraft_home, monkeypatch):
    folder, base = server
    body = publish(folder, cmr_mtgjson({"Murder", "Sisay's Ring"}))
    monkeypatch.setenv("CMDRAFT_MTGJSON_URL", base)
    result = cli("sets", "download", "cmr", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    stored = cmdraft_home / "downloads" / "CMR.json"
    assert report["downloaded"] == str(stored) and stored.read_bytes() == body
    assert report["rules_text"] == [{"code": "CMR", "cards_with_text": 2, "from_file": 2, "reprints": False}]
    assert "Invented test words for Sisay's Ring." in cli("card", "Sisay's Ring").stdout
    shown = cli("sets", "download", "CMR", "--source", f"{base}/CMR.json")
    assert shown.exit_code == 0 and "SHA-256 checked" in shown.stdout


def test_download_with_a_wrong_checksum_stores_nothing(cli, server, cmdraft_home):
    folder, base = server
    publish(folder, cmr_mtgjson({"Murder"}), digest="0" * 64)
    result = cli("sets", "download", "CMR", "--source", f"{base}/CMR.json")
    assert result.exit_code == 2 and "doesn't match its published SHA-256" in result.stderr
    assert result.stderr.count("\n") == 1 and nothing_stored(cmdraft_home)
    # no text here: no entries (before: one empty string a face, as if the card were printed without text)
    assert json.loads(cli("card", "Murder", "--json").stdout)["text"] == []


def test_a_truncated_download_stores_nothing(cli, server, cmdraft_home):
    folder, base = server
    publish(folder, cmr_mtgjson())
    result = cli("sets", "download", "CMR", "--source", f"{base}/short/CMR.json")
    assert result.exit_code == 2 and "nothing was stored" in result.stderr and result.stderr.count("\n") == 1
    assert "broke off" in result.stderr or "stopped at" in result.stderr
    assert nothing_stored(cmdraft_home)


def test_a_download_that_trickles_in_stops_in_one_line_and_stores_nothing(server, cmdraft_home):
    """Before: each read waited up to 30 s, so a server sending a few bytes now and then held the command for good."""
    folder, base = server
    publish(folder, cmr_mtgjson())
    ticks = iter(range(0, 10**6, 5))  # every look at the clock: 5 s later
    with pytest.raises(DownloadError, match=r"is too slow \(\d[\d,]* bytes in \d+ s, under 1,024 a second\)"):
        download_set("CMR", f"{base}/trickle/CMR.json", clock=lambda: float(next(ticks)))
    assert nothing_stored(cmdraft_home)
    assert download_set("CMR", f"{base}/CMR.json").read_bytes() == (folder / "CMR.json").read_bytes()


def test_a_checksum_file_without_a_digest_is_refused(cli, server, cmdraft_home):
    folder, base = server
    publish(folder, cmr_mtgjson({"Murder"}), digest="<html>not found</html>")
    result = cli("sets", "download", "CMR", "--source", f"{base}/CMR.json")
    assert result.exit_code == 2 and "holds no SHA-256" in result.stderr and nothing_stored(cmdraft_home)


def test_without_a_network_download_says_so_in_one_line(tmp_path, cli, cmdraft_home, monkeypatch):
    import socket

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("CMDRAFT_MTGJSON_URL", f"http://127.0.0.1:{port}")
    result = cli("sets", "download", "CMR")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("cmdraft: error: cannot download") and "no network" in result.stderr
    assert result.stderr.count("\n") == 1 and not (cmdraft_home / "downloads" / "CMR.json").exists()


@pytest.mark.parametrize(
    "path, says",
    [
        ("/status/404/CMR.json", "answered 404 Not Found; check the set code"),
        ("/status/429/CMR.json", "answered 429 (too many requests); wait a minute and run the command again"),
        ("/status/500/CMR.json", "answered 500 Internal Server Error; the server has a problem, try again later"),
        ("/status/503/CMR.json", "answered 503 Service Unavailable; the server has a problem, try again later"),
        ("/html/CMR.json", "answered a web page instead of the data: a network that asks you to sign in first"),
        ("/big/CMR.json", "sends more than 2 GiB (3,221,225,472 bytes), more than any card file"),
    ],
)
def test_a_server_that_refuses_or_answers_something_else_is_told_apart_in_one_line(
    cli, server, cmdraft_home, path, says
):
    """Only a 404 is about the set code; a 429 asks for a wait, a 5xx is the server's own trouble, a web page
    instead of the file is a network asking to sign in, a file larger than any card file is not fetched."""
    folder, base = server
    publish(folder, cmr_mtgjson({"Murder"}))
    result = cli("sets", "download", "CMR", "--source", base + path)
    assert result.exit_code == 2 and result.stdout == "" and result.stderr.count("\n") == 1, result.output
    assert says in result.stderr and nothing_stored(cmdraft_home)


def test_a_redirect_never_leaves_https_nor_goes_where_a_download_may_not():
    from sets.download import DownloadError, direct_opener

    redirects = urllib.request.HTTPRedirectHandler
    handler = next(h for h in direct_opener("https://mtgjson.com/").handlers if isinstance(h, redirects))
    asked = urllib.request.Request("https://mtgjson.com/api/v5/CMR.json")
    for target, says in (
        ("http://127.0.0.1:8000/api/desk", "it leaves https://"),
        ("file:///etc/passwd", "only https://"),
    ):
        with pytest.raises(DownloadError, match=re.escape(says)):
            handler.redirect_request(asked, None, 302, "Found", {}, target)
    assert handler.redirect_request(asked, None, 302, "Found", {}, "https://mtgjson.com/v5/CMR.json") is not None


@pytest.mark.parametrize("url", ["http://example.com/CMR.json", "ftp://127.0.0.1/CMR.json", "file:///etc/passwd"])
def test_only_https_leaves_this_machine(cli, url):
    result = cli("sets", "download", "CMR", "--source", url)
    assert result.exit_code == 2 and "only https://" in result.stderr


@pytest.mark.slow
def test_download_shows_a_progress_bar_in_a_terminal(server, tmp_path):
    """A real terminal (a pseudo-terminal, the command in a process of its own): the progress bar shows only on a terminal."""
    folder, base = server
    publish(folder, cmr_mtgjson())
    env = dict(os.environ, CMDRAFT_HOME=str(tmp_path / "home"), CMDRAFT_MTGJSON_URL=base, COLUMNS="100", TERM="xterm")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "events", "sets", "download", "CMR"],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(30, 100),
    )
    child.expect("downloading CMR.json")
    child.expect(r"downloaded .*CMR\.json \(SHA-256 checked\)")
    child.expect("rules text for CMR: 393 of 393")
    child.expect(pexpect.EOF)


def test_a_damaged_text_file_counts_as_none_and_a_new_import_mends_it(cli, tmp_path, cmdraft_home):
    (cmdraft_home / "texts").mkdir()
    (cmdraft_home / "texts" / "CMR.json").write_text("{not json")
    result = cli("card", "Murder", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["text"] == []
    report = json.loads(cli("sets", "import", write(tmp_path, "m.json", cmr_mtgjson({"Murder"})), "--json").stdout)
    assert report["rules_text"] == [{"code": "CMR", "cards_with_text": 1, "from_file": 1, "reprints": False}]
    assert json.loads(cli("card", "Murder", "--json").stdout)["text"] == [made_up("Murder")]


def test_the_line_under_a_pick_shows_the_monarchy_and_the_removal_before_keywords_and_reminder_text():
    """Issue 43: --confirm shows one line per card; it must show what the card is for."""
    from draft.cardtext import lines_that_matter

    commodore = "Trample (This creature can deal excess combat damage to the player.)\nWhen this enters, you become the monarch."
    assert lines_that_matter(commodore) == ["When this enters, you become the monarch.", "Trample"]
    aura = "Enchant creature\nWhen this enters, tap enchanted creature.\nEnchanted creature can't block.\nFlash"
    assert lines_that_matter(aura)[-2:] == ["Enchant creature", "Flash"]
    assert lines_that_matter("Flying, deathtouch\nDestroy target creature an opponent controls.")[0].startswith(
        "Destroy"
    )


def test_a_card_without_text_names_its_own_sets_download():
    card = next(card for card in CLB.values() if card.set_code == "CLB")
    bare = dataclasses.replace(card, faces=tuple(dataclasses.replace(face, text="") for face in card.faces))
    table = Table()
    add_text_rows(table, bare)
    console = Console(width=200, record=True)
    console.print(table)
    shown = console.export_text()
    assert "cmdraft sets download CLB" in shown and "download CMR" not in shown
