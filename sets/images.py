"""Card images kept offline: fetched once from Scryfall into the data folder, then served from there.

What Scryfall's API documentation asks, and how it is met here:

- every request names this application in its ``User-Agent`` (``cmdraft/VERSION``) and says what it accepts
  (``Accept: application/json`` for the API, ``image/*`` for an image);
- at most 2 requests a second to ``/cards/search`` and ``/cards/collection`` (500 ms apart), and 100 ms
  between image files (their file host has no limit; we keep the API's pace anyway); a 429 stops the run; a
  server on this machine (``CMDRAFT_SCRYFALL_URL`` at a local mirror) is not Scryfall and is not paced;
- a set's cards are listed with a paged search (175 cards a page, so a set is a few requests), which is the
  bulk form that fits one set: the bulk data files hold every card ever printed (hundreds of megabytes).
  Cards the search doesn't find (an imported set stored under a code of its own) are asked for by name,
  75 to a request, through ``/cards/collection``;
- each image is fetched once: the run keeps what arrived whole and a new run fetches only what is missing
  (resumable); an image is written beside its place and renamed into it only when whole and an image;
- a card Scryfall had no image for is asked about again, by name, on the next run (a new set's images come in
  over days).

Images are Scryfall's ``normal`` size (488 × 680 JPEG: the whole card, its artist credit and copyright line
left on).  Card images are copyright Wizards of the Coast; Scryfall provides them, and everything that shows
them says so (``ATTRIBUTION``).  ``CMDRAFT_SCRYFALL_URL`` replaces the API's address (the tests' local server).
"""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from sets.cards import Card, CardSet, normalize_name
from sets.download import (
    SIGN_IN,
    TIMEOUT_SECONDS,
    DownloadError,
    Pace,
    check_address,
    direct_opener,
    on_this_machine,
    refusal,
    web_page,
    written_whole,
)
from sets.errors import InputError
from sets.userdata import user_home
from sets.visible import quoted

SCRYFALL_API = "https://api.scryfall.com"
ATTRIBUTION = "Card images from Scryfall (scryfall.com); card images © Wizards of the Coast."
API_PAUSE = 0.5  # /cards/search and /cards/collection: 2 requests a second
IMAGE_PAUSE = 0.1  # image files: 50-100 ms between requests
COLLECTION_BATCH = 75  # the most identifiers /cards/collection takes at once
MAX_IMAGE_BYTES = 4 * 1024 * 1024
MAX_ANSWER_BYTES = 32 * 1024 * 1024  # a page of 175 cards is about 1 MiB
MAX_PAGES = 200  # 35,000 cards: more than any set
FILE_NAME = re.compile(r"^[0-9a-f]{20}\.(jpg|png)$")
_MAGIC = {b"\xff\xd8\xff": "jpg", b"\x89PNG\r\n\x1a\n": "png"}

Progress = Callable[[int, int], None]


def images_dir(code: str) -> Path:
    return user_home() / "images" / code.upper()


def api_base() -> str:
    return (os.environ.get("CMDRAFT_SCRYFALL_URL") or SCRYFALL_API).rstrip("/")


def user_agent() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        number = version("cmdraft")
    except PackageNotFoundError:  # pragma: no cover - run from a bare checkout
        number = "0"
    return f"cmdraft/{number} (offline card images for store drafts)"


def file_name(card_key: str) -> str:
    """The image file of a card (by its normalized name): a name that is safe on every file system."""
    return hashlib.sha256(card_key.encode("utf-8")).hexdigest()[:20] + ".jpg"


def card_key(card: Card) -> str:
    return normalize_name(card.name)


@dataclass(frozen=True, slots=True)
class ImageReport:
    code: str
    cards: int
    fetched: int
    kept: int  # already there from an earlier run
    missing: list[str]  # cards Scryfall has no image for
    folder: Path
    not_asked: str | None = None  # why the cards without an image weren't asked about again (no network…)


class Fetcher:
    """Requests to Scryfall, paced as its documentation asks: ``pause`` sleeps (injected in tests), ``clock``
    reads seconds that only go forward; ``paced``: whether to keep that pace (by default, unless ``base`` is a server
    on this machine, which is a mirror, not Scryfall)."""

    def __init__(
        self,
        base: str,
        pause: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        paced: bool | None = None,
    ) -> None:
        self.base, self.pause, self.clock = base, pause, clock
        self.paced = not on_this_machine(base) if paced is None else paced
        self.last: float | None = None
        self.agent = user_agent()

    def _wait(self, gap: float) -> None:
        if not self.paced:
            return
        if self.last is not None:
            left = self.last + gap - self.clock()
            if left > 0:
                self.pause(left)
        self.last = self.clock()

    def open(self, url: str, accept: str, gap: float, data: bytes | None = None) -> Any:
        check_address(url)
        self._wait(gap)
        headers = {"User-Agent": self.agent, "Accept": accept}
        if data is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(url, data=data, headers=headers)
        try:
            return direct_opener(url).open(request, timeout=TIMEOUT_SECONDS)
        except urllib.error.HTTPError as error:
            raise refusal(url, error.code, error.reason, "check CMDRAFT_SCRYFALL_URL (unset: Scryfall's API)") from None
        except (urllib.error.URLError, OSError, http.client.HTTPException) as error:
            reason = getattr(error, "reason", None) or error
            raise DownloadError(
                f"cannot download {url}: no network or no answer ({reason}); try again when online "
                "(the images that arrived are kept)"
            ) from None

    def json(self, url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """A list the API answers (``{"data": [...]}``): an answer that is a web page, larger than a page of cards,
        or JSON of another shape is a ``DownloadError`` saying so."""
        data = None if body is None else json.dumps(body).encode()
        try:
            with self.open(url, "application/json", API_PAUSE, data) as answer:
                if web_page(answer):
                    raise DownloadError(f"{url} answered {SIGN_IN}; run the command again once online")
                raw = answer.read(MAX_ANSWER_BYTES + 1)
            if len(raw) > MAX_ANSWER_BYTES:
                raise DownloadError(f"{url} answered more than {MAX_ANSWER_BYTES // 1_048_576} MiB, no page of cards")
            page = json.loads(raw)
        except DownloadError as error:
            if error.status == 404 and body is None:
                return {"data": [], "has_more": False}  # a search that finds nothing answers 404
            raise
        except (OSError, ValueError, http.client.HTTPException) as error:
            raise DownloadError(f"cannot read {url}: {error}; try again") from None
        if not isinstance(page, dict) or not isinstance(page.get("data", []), list):
            raise DownloadError(f"{url} answered JSON that is no list of cards; check CMDRAFT_SCRYFALL_URL")
        return page


def _front(card: dict[str, Any]) -> dict[str, Any]:
    """A card's first face (``card_faces``: a double-faced card's images and artist are its faces'), or nothing."""
    faces = card.get("card_faces")
    return faces[0] if isinstance(faces, list) and faces and isinstance(faces[0], dict) else {}


def _image_uri(card: dict[str, Any]) -> str | None:
    uris = card.get("image_uris") or _front(card).get("image_uris") or {}
    uri = uris.get("normal") if isinstance(uris, dict) else None
    return uri if isinstance(uri, str) else None


def _names(card: dict[str, Any]) -> list[str]:
    faces = card.get("card_faces")
    names = [str(card.get("name", ""))]
    names += [str(face.get("name", "")) for face in faces if isinstance(face, dict)] if isinstance(faces, list) else []
    return [normalize_name(name) for name in names if name]


def _artist(card: dict[str, Any]) -> str:
    artist = card.get("artist") or _front(card).get("artist") or ""
    return str(artist)


def list_images(card_set: CardSet, fetcher: Fetcher, only: set[str] | None = None) -> dict[str, dict[str, str]]:
    """The image address and artist of each of the set's cards (by normalized name) that Scryfall has; ``only``:
    just these cards, asked for by name (no search of the set)."""
    wanted: dict[str, Card] = {}
    for card in card_set:
        if only is None or card_key(card) in only:
            wanted.setdefault(card_key(card), card)
    faces = {normalize_name(c.faces[0].name): key for key, c in wanted.items() if len(c.faces) > 1}
    found: dict[str, dict[str, str]] = {}

    def take(entry: dict[str, Any]) -> None:
        uri = _image_uri(entry)
        if not uri:
            return
        for name in _names(entry):
            key = name if name in wanted else faces.get(name)
            if key and key not in found:
                found[key] = {"url": uri, "artist": _artist(entry)}

    query = urllib.parse.urlencode({"q": f"set:{card_set.code.lower()}", "unique": "cards", "order": "set"})
    url: str | None = f"{fetcher.base}/cards/search?{query}" if only is None else None
    for _ in range(MAX_PAGES):
        if not url:
            break
        page = fetcher.json(url)
        for entry in page.get("data") or []:
            if isinstance(entry, dict):
                take(entry)
        following = page.get("next_page") if page.get("has_more") else None
        url = following if isinstance(following, str) else None
        if url and not url.startswith(fetcher.base):
            url = fetcher.base + urllib.parse.urlsplit(url)._replace(scheme="", netloc="").geturl()
    if url:
        raise DownloadError(f"{fetcher.base}'s search of {card_set.code} goes on past {MAX_PAGES} pages; try again")
    rest = [wanted[key].name for key in wanted if key not in found]
    for start in range(0, len(rest), COLLECTION_BATCH):
        batch = rest[start : start + COLLECTION_BATCH]
        names = [name.split(" // ")[0] for name in batch]
        page = fetcher.json(f"{fetcher.base}/cards/collection", {"identifiers": [{"name": n} for n in names]})
        for entry in page.get("data") or []:
            if isinstance(entry, dict):
                take(entry)
    return found


def read_index(code: str) -> dict[str, dict[str, str]]:
    path = images_dir(code) / "index.json"
    try:
        stat = path.stat()
    except OSError:
        return {}
    return _read_index(str(path), stat.st_mtime_ns, stat.st_size)


@cache
def _read_index(path: str, mtime_ns: int, size: int) -> dict[str, dict[str, str]]:
    """The set's index of images (cached per file version); a damaged one counts as none (download again)."""
    try:
        cards = json.loads(Path(path).read_text(encoding="utf-8"))["cards"]
        return {
            str(key): {"file": str(entry["file"]), "artist": str(entry.get("artist", "")), "url": str(entry["url"])}
            for key, entry in cards.items()
            if FILE_NAME.match(str(entry.get("file", ""))) or entry.get("file") == ""  # "": Scryfall has none
        }
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def _write_index(code: str, cards: dict[str, dict[str, str]]) -> None:
    from sets.catalog import save_user_file

    body = {"source": "Scryfall", "attribution": ATTRIBUTION, "cards": cards}
    save_user_file(images_dir(code) / "index.json", json.dumps(body, ensure_ascii=False, indent=1))


def is_image(head: bytes) -> bool:
    """Whether bytes start as a JPEG or a PNG does (all an image file is checked for before it is kept or served)."""
    return any(head.startswith(magic) for magic in _MAGIC)


def whole_image(path: Path) -> bool:
    """A kept image file that is one (a power cut or a bad disk can leave an empty or damaged file)."""
    try:
        with open(path, "rb") as file:
            return is_image(file.read(8))
    except OSError:
        return False


def _fetch_image(fetcher: Fetcher, url: str, target: Path) -> None:
    """One image into ``target``, whole or not at all: from an https:// address (or one under the API's own)."""
    if not url.startswith("https://") and not url.startswith(fetcher.base + "/"):
        raise DownloadError(f"won't download the image {quoted(url)}: Scryfall's images are at https:// addresses")
    with fetcher.open(url, "image/*", IMAGE_PAUSE) as answer:
        length = answer.headers.get("Content-Length")
        total = int(length) if length and length.isdigit() else None
        pace, came = Pace(url, fetcher.clock), bytearray()
        try:
            while len(came) <= MAX_IMAGE_BYTES and (chunk := answer.read1(MAX_IMAGE_BYTES + 1 - len(came))):
                came += chunk
                pace.check(len(came))  # a trickle stops the run rather than holding it for good
        except (TimeoutError, http.client.IncompleteRead, OSError) as error:
            raise DownloadError(f"the download of {url} broke off ({error}); run the command again") from None
        body = bytes(came)
    if len(body) > MAX_IMAGE_BYTES:
        raise DownloadError(f"{url} is larger than a card image ({MAX_IMAGE_BYTES // 1_048_576} MiB)")
    if total is not None and len(body) != total:
        raise DownloadError(f"the download of {url} stopped at {len(body)} of {total} bytes; run the command again")
    if not is_image(body):
        raise DownloadError(f"{url} is not a JPEG or PNG image; nothing of it was kept")
    with written_whole(target) as partial:
        partial.write_bytes(body)
        os.replace(partial, target)


def _listed_entry(key: str, listed: dict[str, dict[str, str]]) -> dict[str, str]:
    """A card's place in the index from the listing: its image's file, address and artist, or none."""
    return {"file": file_name(key), **listed[key]} if key in listed else {"file": "", "url": "", "artist": ""}


def download_images(
    card_set: CardSet,
    progress: Progress | None = None,
    *,
    fetcher: Fetcher | None = None,
) -> ImageReport:
    """Every card image of ``card_set`` into ``images/CODE/`` under the data folder, each fetched once.

    A run that breaks off (no network, a broken answer) raises ``DownloadError`` having kept every image that
    arrived whole; the next run fetches only the rest."""
    fetcher = fetcher or Fetcher(api_base())
    folder = images_dir(card_set.code)
    index = read_index(card_set.code)
    keys = {card_key(card) for card in card_set}
    blank = {key for key in keys & index.keys() if not index[key].get("file")}
    only = blank if keys <= index.keys() else None
    not_asked = None
    if blank or only is None:  # new cards, or ones Scryfall had no image for (it may have one now)
        try:
            listed = list_images(card_set, fetcher, only=only)
        except DownloadError as error:
            if only is None:
                raise
            listed, not_asked = {}, str(error)  # offline with every image kept: the run goes on without asking
        kept_before = {key: entry for key, entry in index.items() if key not in blank}
        index = {key: kept_before.get(key) or _listed_entry(key, listed) for key in sorted(keys)}
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise InputError(
                f"cannot write {quoted(str(folder))}: {error.strerror or error}; set CMDRAFT_HOME to a writable folder"
            ) from None
        _write_index(card_set.code, index)
    wanted = [(key, entry) for key, entry in index.items() if key in keys and entry["file"]]
    todo = [(key, entry) for key, entry in wanted if not whole_image(folder / entry["file"])]  # (damaged: again)
    kept = len(wanted) - len(todo)
    total = len(todo)
    if progress:
        progress(0, total)
    gone: set[str] = set()  # images the file host has no more (404, 410): named, asked again by the next run
    for done, (key, entry) in enumerate(todo, 1):
        try:
            _fetch_image(fetcher, entry["url"], folder / entry["file"])
        except DownloadError as error:
            if error.status not in (404, 410):
                raise
            gone.add(key)
        if progress:
            progress(done, total)
    missing = sorted(
        {card.name for card in card_set if not index.get(card_key(card), {}).get("file") or card_key(card) in gone}
    )
    return ImageReport(card_set.code, len(keys), total - len(gone), kept, missing, folder, not_asked)


def image_of(card: Card) -> tuple[Path, str] | None:
    """The kept image of a card and its artist, when one was downloaded (any set that has the card's name)."""
    entry = read_index(card.set_code).get(card_key(card)) if card.set_code else None
    if entry is None or not entry["file"]:
        return None
    path = images_dir(card.set_code) / entry["file"]
    return (path, entry["artist"]) if whole_image(path) else None


def image_codes() -> Iterable[str]:
    root = user_home() / "images"
    try:
        return sorted(p.name for p in root.iterdir() if p.is_dir())
    except OSError:
        return []
