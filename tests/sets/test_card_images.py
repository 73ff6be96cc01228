"""Card images fetched once from Scryfall (a stand-in on this machine) into the data folder, as its API asks."""

from __future__ import annotations

import json
import os
import socket
import sys

import pexpect
import pytest

from sets.catalog import load_set
from sets.download import DownloadError
from sets.images import API_PAUSE, IMAGE_PAUSE, Fetcher, download_images, image_of, images_dir, read_index
from tests.helpers.cardfiles import mtgjson_set, write
from tests.helpers.scryfall_fake import FakeScryfall


@pytest.fixture
def tst(cli, cmdraft_home, tmp_path):
    """The small imported set TST (16 cards by name, two of them double-faced)."""
    result = cli("sets", "import", str(write(tmp_path, "tst.json", mtgjson_set())))
    assert result.exit_code == 0, result.output
    return load_set("TST")


@pytest.fixture
def fake(tst):
    scryfall = FakeScryfall(list(tst), page_size=6, unlisted={"Tundra", "Lying Card"}, without_image={"Common G9"})
    httpd, _ = scryfall.start()
    yield scryfall
    httpd.shutdown()
    httpd.server_close()


class Recorder:
    """An injected clock and sleep: sleeping moves the clock; every request's time is noted by the fake."""

    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    def pause(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def fetcher(fake: FakeScryfall, recorder: Recorder | None = None) -> Fetcher:
    recorder = recorder or Recorder()
    return Fetcher(fake.base, pause=recorder.pause, clock=recorder.clock, paced=True)  # as for Scryfall itself


def png_files(code: str) -> list[str]:
    return sorted(p.name for p in images_dir(code).iterdir() if p.suffix == ".jpg")


def test_every_card_with_an_image_is_kept_once_with_its_artist(tst, fake):
    report = download_images(tst, fetcher=fetcher(fake))
    by_name = {card.name for card in tst}
    assert report.cards == len(by_name) == 16
    assert report.fetched == 15 and report.kept == 0 and report.missing == ["Common G9"]
    for card in tst:
        kept = image_of(card)
        if card.name == "Common G9":
            assert kept is None
            continue
        assert kept is not None, card.name
        path, artist = kept
        assert path.read_bytes() == fake.images[card.name] and artist == f"Artist {fake.numbers[card.name]}"
    # Tundra and Lying Card are not in the set's search: they came by name through /cards/collection.
    posts = [r for r in fake.requests if r["method"] == "POST"]
    assert [r["path"] for r in posts] == ["/cards/collection"]
    searches = [r for r in fake.requests if r["path"].startswith("/cards/search")]
    assert len(searches) == 3  # 14 cards listed, 6 a page
    assert len(fake.image_requests()) == 15 == len(set(fake.image_requests()))


def test_requests_name_the_application_and_say_what_they_accept(tst, fake):
    download_images(tst, fetcher=fetcher(fake))
    for request in fake.requests:
        headers = {k.lower(): v for k, v in request["headers"].items()}
        assert headers["user-agent"].startswith("cmdraft/") and "Python-urllib" not in headers["user-agent"]
        wanted = "image/*" if request["path"].startswith("/img/") else "application/json"
        assert headers["accept"] == wanted


def test_requests_keep_scryfalls_pace(tst, fake):
    """2 a second to the API (500 ms apart), 100 ms between images: the injected clock sees every gap."""
    recorder = Recorder()
    times: list[float] = []
    paced = fetcher(fake, recorder)
    original = paced.open

    def noted(url, accept, gap, data=None):
        answer = original(url, accept, gap, data)
        times.append((recorder.now, accept))
        return answer

    paced.open = noted
    download_images(tst, fetcher=paced)
    for (before, _), (after, accept) in zip(times, times[1:], strict=False):
        assert after - before >= (IMAGE_PAUSE if accept == "image/*" else API_PAUSE) - 1e-9
    assert 0.05 <= IMAGE_PAUSE <= 0.1 and API_PAUSE >= 0.5


def test_scryfalls_address_is_paced_and_a_mirror_on_this_machine_is_not(tst, fake):
    """The pace is Scryfall's rule: a Fetcher for its API keeps it by default; one for a server on this machine (a
    local mirror, as ``CMDRAFT_SCRYFALL_URL`` may name) fetches without a pause."""
    assert Fetcher("https://api.scryfall.com").paced
    assert not Fetcher(fake.base).paced and not Fetcher("http://localhost:8000").paced
    recorder = Recorder()
    download_images(tst, fetcher=Fetcher(fake.base, pause=recorder.pause, clock=recorder.clock))
    assert recorder.slept == []


def test_an_interrupted_run_keeps_what_arrived_whole_and_a_new_run_fetches_only_the_rest(tst, fake):
    fake.broken = {"Common B2"}
    with pytest.raises(DownloadError, match="stopped at|broke off"):
        download_images(tst, fetcher=fetcher(fake))
    folder = images_dir("TST")
    assert not [p for p in folder.iterdir() if p.name.endswith(".part")]  # nothing half-written kept
    first = fake.image_requests()
    kept = png_files("TST")
    assert 0 < len(kept) == len(first) - 1 < 15
    broken_card = next(c for c in tst if c.name == "Common B2")
    assert image_of(broken_card) is None

    fake.broken = set()
    fake.requests.clear()
    report = download_images(tst, fetcher=fetcher(fake))
    assert report.kept == len(kept) and report.fetched == 15 - len(kept)
    again = fake.image_requests()
    assert len(again) == 15 - len(kept) and not set(again) & (set(first) - {first[-1]})
    # the kept list is used again: only the card Scryfall had no image for (Common G9) is asked about again
    assert [r["path"] for r in fake.requests if not r["path"].startswith("/img/")] == ["/cards/collection"]
    assert image_of(broken_card) is not None

    fake.requests.clear()
    assert download_images(tst, fetcher=fetcher(fake)).fetched == 0
    assert [r["path"] for r in fake.requests] == ["/cards/collection"]


def test_a_kept_image_left_empty_or_damaged_is_not_shown_and_the_next_run_fetches_it_again(tst, fake):
    """A power cut or a bad disk can leave a kept file empty or not an image: no page is sent to it, and the next
    run fetches it again (it isn't counted as kept)."""
    download_images(tst, fetcher=fetcher(fake))
    empty, damaged = (next(c for c in tst if c.name == name) for name in ("Common W0", "Common B2"))
    image_of(empty)[0].write_bytes(b"")  # type: ignore[index]  # both were just downloaded
    image_of(damaged)[0].write_bytes(b"\0" * 512)  # type: ignore[index]  # both were just downloaded
    assert image_of(empty) is None and image_of(damaged) is None
    fake.requests.clear()
    report = download_images(tst, fetcher=fetcher(fake))
    assert report.fetched == 2 and report.kept == 13 and len(fake.image_requests()) == 2
    assert image_of(empty) is not None and image_of(damaged) is not None


def test_something_that_is_not_an_image_is_not_kept(tst, fake):
    fake.images["Common W0"] = b"<html>a login page</html>"
    with pytest.raises(DownloadError, match="not a JPEG or PNG"):
        download_images(tst, fetcher=fetcher(fake))
    assert image_of(next(c for c in tst if c.name == "Common W0")) is None


def test_a_damaged_index_counts_as_none(tst, fake):
    download_images(tst, fetcher=fetcher(fake))
    (images_dir("TST") / "index.json").write_text("{damaged")
    assert read_index("TST") == {} and image_of(next(iter(tst))) is None


# --- the command --------------------------------------------------------------------------------------------


def test_the_command_downloads_and_resumes(cli, tst, fake, monkeypatch):
    monkeypatch.setenv("CMDRAFT_SCRYFALL_URL", fake.base)
    fake.broken = {"Common R3"}
    broken = cli("sets", "download", "TST", "--images")
    assert broken.exit_code == 2 and broken.stdout == "" and broken.stderr.count("\n") == 1
    assert broken.stderr.startswith("cmdraft: error: the download of") and "run the command again" in broken.stderr
    fake.broken = set()
    result = cli("sets", "download", "tst", "--images", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["fetched"] + report["kept"] == 15 and report["kept"] > 0 and report["missing"] == ["Common G9"]
    assert "Scryfall" in report["attribution"] and "Wizards of the Coast" in report["attribution"]


def test_without_a_network_the_command_says_so_in_one_line_and_keeps_nothing(cli, tst, cmdraft_home, monkeypatch):
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("CMDRAFT_SCRYFALL_URL", f"http://127.0.0.1:{port}")
    result = cli("sets", "download", "TST", "--images")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("cmdraft: error: cannot download") and "no network" in result.stderr
    assert result.stderr.count("\n") == 1 and not (cmdraft_home / "images" / "TST").exists()


def test_offline_with_every_image_kept_the_command_still_ends_well_and_says_the_imageless_werent_asked_again(
    cli, tst, fake, monkeypatch
):
    """Asking again about cards without an image must not make a run that needs nothing from the network fail
    offline (a store preparing the night without internet)."""
    monkeypatch.setenv("CMDRAFT_SCRYFALL_URL", fake.base)
    assert cli("sets", "download", "TST", "--images").exit_code == 0
    with socket.socket() as sock:  # a port nobody listens on: no network
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("CMDRAFT_SCRYFALL_URL", f"http://127.0.0.1:{port}")
    shown = cli("sets", "download", "TST", "--images")
    assert shown.exit_code == 0, shown.output
    assert "15 already kept" in shown.stdout and "no image on Scryfall for: Common G9" in shown.stdout
    assert "not asked again about those (the next run asks): cannot download" in shown.stdout
    report = json.loads(cli("sets", "download", "TST", "--images", "--json").stdout)
    assert report["kept"] == 15 and report["missing"] == ["Common G9"] and "no network" in report["not_asked_again"]
    monkeypatch.setenv("CMDRAFT_SCRYFALL_URL", fake.base)
    online = json.loads(cli("sets", "download", "TST", "--images", "--json").stdout)
    assert online["not_asked_again"] is None and online["missing"] == ["Common G9"]


def test_an_unknown_set_is_refused(cli, cmdraft_home):
    result = cli("sets", "download", "QQQ", "--images")
    assert result.exit_code == 2 and "unknown set 'QQQ'" in result.stderr


@pytest.mark.slow
def test_the_command_shows_a_progress_bar_and_the_attribution_in_a_terminal(tst, fake, cmdraft_home):
    env = dict(os.environ, CMDRAFT_HOME=str(cmdraft_home), CMDRAFT_SCRYFALL_URL=fake.base, COLUMNS="100", TERM="xterm")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "events", "sets", "download", "TST", "--images"],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(30, 100),
    )
    child.expect("images of TST")
    child.expect(r"images of TST: 15 fetched, 0 already kept, 1 without an image")
    child.expect("no image on Scryfall for: Common G9")
    child.expect(r"Card images from Scryfall .* Wizards of the Coast")
    child.expect(pexpect.EOF)


def test_a_card_name_with_hidden_characters_is_written_out_where_the_run_names_cards_without_an_image(
    cli, cmdraft_home, tmp_path, monkeypatch
):
    """A set file's card name is data from a server: the end of the run names the cards Scryfall has no image for,
    and a name holding format characters (a right-to-left override that turns the rest of the line around, a
    zero-width joiner) shows them written out.  (A control character refuses the file at its import.)"""
    hostile = "Evil\u202e Card\u200d"
    data = mtgjson_set()
    for card in data["data"]["cards"]:
        if card["name"] == "Common G9":
            card["name"] = hostile
    assert cli("sets", "import", str(write(tmp_path, "tst.json", data))).exit_code == 0
    scryfall = FakeScryfall(list(load_set("TST")), without_image={hostile})
    httpd, base = scryfall.start()
    try:
        monkeypatch.setenv("CMDRAFT_SCRYFALL_URL", base)
        result = cli("sets", "download", "TST", "--images")
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert result.exit_code == 0, result.output
    assert "\u202e" not in result.stdout and "\u200d" not in result.stdout
    assert "no image on Scryfall for: Evil\\u202e Card\\u200d" in result.stdout


# --- a broken or hostile server -----------------------------------------------------------------------------

STRANGE_ANSWERS = {
    "a web page": ("text/html", b"<html><body>Sign in to the store's Wi-Fi</body></html>", "answered a web page"),
    "a JSON list": ("application/json", b"[]", "no list of cards"),
    "a JSON string": ("application/json", b'"x"', "no list of cards"),
    "data not a list": ("application/json", b'{"data": 5}', "no list of cards"),
}


@pytest.mark.parametrize("kind", sorted(STRANGE_ANSWERS))
def test_a_search_answered_with_something_else_than_a_list_of_cards_is_one_line_exit_2(
    cli, tst, fake, kind, monkeypatch
):
    content_type, body, says = STRANGE_ANSWERS[kind]
    fake.search_answer = (content_type, body)
    monkeypatch.setenv("CMDRAFT_SCRYFALL_URL", fake.base)
    result = cli("sets", "download", "TST", "--images")
    assert result.exit_code == 2 and result.stdout == "" and result.stderr.count("\n") == 1, result.output
    assert result.stderr.startswith("cmdraft: error: ") and says in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "entry",
    [
        {"name": "Alpha Legend", "card_faces": ["not a face"]},
        {"name": "Alpha Legend", "card_faces": {"0": {"image_uris": {"normal": "x"}}}},
        {"name": "Alpha Legend", "card_faces": [], "artist": 7},
    ],
)
def test_card_faces_of_the_wrong_shape_give_no_image_and_no_crash(tst, fake, entry):
    """The entry gives no image, so the card is asked for by name (the collection, which has it)."""
    fake.search_answer = ("application/json", json.dumps({"object": "list", "data": [entry]}).encode())
    report = download_images(tst, fetcher=fetcher(fake))
    assert report.fetched == 15 and report.missing == ["Common G9"]


def test_an_answer_larger_than_a_page_of_cards_is_refused_unread(tst, fake):
    fake.search_answer = ("application/json", b'{"data": [' + b" " * (33 * 1024 * 1024) + b"]}")
    with pytest.raises(DownloadError, match="answered more than 32 MiB, no page of cards"):
        download_images(tst, fetcher=fetcher(fake))


def test_an_image_address_that_is_neither_https_nor_the_apis_own_is_not_fetched(tst, fake):
    """A server's answer can't send the download to another service on this machine (http:// on loopback)."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        fake.image_base = f"http://127.0.0.1:{other.getsockname()[1]}"
        with pytest.raises(DownloadError, match="won't download the image 'http://127.0.0.1:.*https://"):
            download_images(tst, fetcher=fetcher(fake))
    assert png_files("TST") == []


def test_a_full_disk_says_so_and_keeps_no_partial_image(tst, fake, monkeypatch):
    """No space left: the line says the disk is full (not that the folder can't be written), and no ``.part``
    file stays behind."""
    import errno
    from pathlib import Path

    from sets.errors import InputError

    def full(self, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", full)
    with pytest.raises(InputError, match="No space left on device; the disk is full: free some space, or set"):
        download_images(tst, fetcher=fetcher(fake))
    assert [p.name for p in images_dir("TST").iterdir()] == ["index.json"]


def test_an_image_the_file_host_no_longer_has_is_named_and_the_run_goes_on_to_the_rest(tst, fake):
    """Before: one image answering 404 stopped every run at the same place, so the images after it never came."""
    fake.gone = {"Common B2"}
    report = download_images(tst, fetcher=fetcher(fake))
    assert report.fetched == 14 and report.missing == ["Common B2", "Common G9"] and len(png_files("TST")) == 14
    fake.gone = set()
    fake.requests.clear()
    again = download_images(tst, fetcher=fetcher(fake))  # asked again: it may be back
    assert again.fetched == 1 and again.kept == 14 and again.missing == ["Common G9"]
    assert len(fake.image_requests()) == 1


def test_a_search_whose_pages_never_end_stops_after_max_pages_and_says_so(tst, fake, monkeypatch):
    """docs/storage-and-safety.md's bound 'a set's search 200 pages': a server whose every page says there is
    another is asked MAX_PAGES times, then the run stops in one error, with no image fetched."""
    from sets import images

    monkeypatch.setattr(images, "MAX_PAGES", 3)
    page = {"object": "list", "data": [], "has_more": True, "next_page": fake.base + "/cards/search?page=2"}
    fake.search_answer = ("application/json", json.dumps(page).encode())
    with pytest.raises(DownloadError, match="search of TST goes on past 3 pages; try again"):
        download_images(tst, fetcher=fetcher(fake))
    assert sum(request["path"].startswith("/cards/search") for request in fake.requests) == 3
    assert fake.image_requests() == []


def test_a_card_scryfall_had_no_image_for_is_asked_about_again_on_the_next_run(tst, fake):
    """Before: once recorded without an image, a card stayed without one until the set's index was deleted."""
    first = download_images(tst, fetcher=fetcher(fake))
    assert first.missing == ["Common G9"] and image_of(next(c for c in tst if c.name == "Common G9")) is None
    fake.without_image = set()  # its image came since
    fake.requests.clear()
    again = download_images(tst, fetcher=fetcher(fake))
    assert again.missing == [] and again.fetched == 1 and again.kept == 15
    assert fake.image_requests() == [f"/img/{fake.numbers['Common G9']}.png"]
    assert [r["path"] for r in fake.requests if not r["path"].startswith("/img/")] == ["/cards/collection"]
    kept = image_of(next(c for c in tst if c.name == "Common G9"))
    assert kept is not None and kept[0].read_bytes() == fake.images["Common G9"]
    fake.requests.clear()
    third = download_images(tst, fetcher=fetcher(fake))  # every card has its image: nothing is listed or fetched
    assert third.missing == [] and third.kept == 16 and fake.requests == []


def test_an_image_that_trickles_in_stops_the_run_in_one_line_and_keeps_nothing_of_it(tst, fake):
    """Before: each read waited up to 30 s, so a server sending a few bytes now and then held the run for good."""
    slow = next(card for card in tst if card.name == "Common B2")
    fake.trickle = {slow.name}
    ticks = iter(range(0, 10**6, 5))  # every look at the clock: 5 s later

    def clock() -> float:
        return float(next(ticks))

    with pytest.raises(DownloadError, match=r"is too slow \(\d[\d,]* bytes in \d+ s, under 1,024 a second\)"):
        download_images(tst, fetcher=Fetcher(fake.base, pause=lambda seconds: None, clock=clock, paced=True))
    assert image_of(slow) is None and not [p for p in images_dir("TST").iterdir() if p.name.endswith(".part")]
    fake.trickle = set()
    assert download_images(tst, fetcher=fetcher(fake)).missing == ["Common G9"]  # the next run fetches the rest
    assert image_of(slow) is not None
