"""A stand-in for Scryfall's API and image host on this machine (``http.server``), with small generated images.

``FakeScryfall(cards)`` answers ``GET /cards/search`` (in pages of ``page_size``), ``POST /cards/collection``
and ``GET /img/N.png``; it records every request (path, method, headers).  Cards named in ``unlisted`` are left
out of the search (found only through the collection), ``without_image`` have no image at all, and the images
of cards named in ``broken`` promise more bytes than they send (a download that breaks off).  ``search_answer``
(a content type and a body) replaces every search's answer (a broken or hostile server); ``image_base`` replaces
the address the answers give for images; the images of cards named in ``gone`` answer 404.
"""

from __future__ import annotations

import functools
import json
import struct
import threading
import time
import urllib.parse
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from sets.cards import Card

FRAMES = {"W": (233, 223, 184), "U": (42, 111, 201), "B": (59, 51, 64), "R": (204, 59, 40), "G": (36, 134, 74)}


def card_png(card: Card, width: int = 146, height: int = 204) -> bytes:
    """A small made-up card picture: a frame in the card's colour, an art box, a text box (no real card art)."""
    return _card_png(card.colors.code, card.rarity.letter, width, height)


@functools.cache
def _card_png(letters: str, rarity: str, width: int, height: int) -> bytes:
    gem = {"M": (211, 86, 31), "R": (184, 145, 42), "U": (125, 138, 150)}.get(rarity, (30, 30, 30))
    frame = FRAMES.get(letters[:1], (200, 170, 80) if len(letters) > 1 else (155, 154, 150))
    art = tuple(min(255, c + 60) for c in frame)
    rows = []
    for y in range(height):
        row = bytearray([0])
        for x in range(width):
            border = x < 6 or x >= width - 6 or y < 6 or y >= height - 6
            in_art = 12 <= x < width - 12 and 24 <= y < height // 2
            in_text = 12 <= x < width - 12 and height // 2 + 14 <= y < height - 16
            in_title = 12 <= x < width - 12 and 9 <= y < 20
            in_gem = width - 26 <= x < width - 14 and height // 2 + 1 <= y < height // 2 + 13
            colour = (
                (20, 20, 20)
                if border
                else gem
                if in_gem
                else art
                if in_art
                else (250, 246, 236)
                if in_text or in_title
                else frame
            )
            row += bytes(colour)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


@dataclass
class FakeScryfall:
    cards: list[Card]
    page_size: int = 10
    unlisted: set[str] = field(default_factory=set)
    without_image: set[str] = field(default_factory=set)
    broken: set[str] = field(default_factory=set)
    gone: set[str] = field(default_factory=set)
    trickle: set[str] = field(default_factory=set)  # images sent a few bytes at a time
    search_answer: tuple[str, bytes] | None = None
    image_base: str | None = None
    requests: list[dict[str, Any]] = field(default_factory=list)
    base: str = ""

    def __post_init__(self) -> None:
        unique: dict[str, Card] = {}
        for card in self.cards:
            unique.setdefault(card.name, card)
        self.by_name = unique
        self.numbers = {name: n for n, name in enumerate(unique)}
        self.images = {name: card_png(card) for name, card in unique.items()}

    def entry(self, name: str) -> dict[str, Any]:
        card = self.by_name[name]
        out: dict[str, Any] = {"object": "card", "name": name, "artist": f"Artist {self.numbers[name]}"}
        if name in self.without_image:
            return out
        uris = {"normal": f"{self.image_base or self.base}/img/{self.numbers[name]}.png", "small": "unused"}
        if len(card.faces) > 1:
            out["card_faces"] = [{"name": face.name, "image_uris": uris} for face in card.faces]
        else:
            out["image_uris"] = uris
        return out

    def image_requests(self) -> list[str]:
        return [r["path"] for r in self.requests if r["path"].startswith("/img/")]

    def start(self) -> tuple[ThreadingHTTPServer, str]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _record(self) -> None:
                fake.requests.append({"path": self.path, "method": self.command, "headers": dict(self.headers)})

            def _json(self, body: Any, status: int = 200) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                self._record()
                parts = urllib.parse.urlsplit(self.path)
                if parts.path == "/cards/search" and fake.search_answer:
                    kind, data = fake.search_answer
                    self.send_response(200)
                    self.send_header("Content-Type", kind)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return
                if parts.path == "/cards/search":
                    query = urllib.parse.parse_qs(parts.query)
                    page = int(query.get("page", ["1"])[0])
                    names = [n for n in fake.by_name if n not in fake.unlisted]
                    chunk = names[(page - 1) * fake.page_size : page * fake.page_size]
                    more = page * fake.page_size < len(names)
                    nxt = dict(query, page=[str(page + 1)])
                    body: dict[str, Any] = {"object": "list", "has_more": more, "data": [fake.entry(n) for n in chunk]}
                    if more:
                        body["next_page"] = f"{fake.base}/cards/search?{urllib.parse.urlencode(nxt, doseq=True)}"
                    self._json(body)
                    return
                if parts.path.startswith("/img/"):
                    number = int(parts.path[len("/img/") : -len(".png")])
                    name = next(n for n, i in fake.numbers.items() if i == number)
                    data = fake.images[name]
                    if name in fake.gone:
                        self._json({"object": "error", "status": 404}, 404)
                        return
                    self.send_response(200)
                    self.send_header("Content-Type", "image/png")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    if name in fake.broken:
                        self.wfile.write(data[: len(data) // 2])
                        self.wfile.flush()
                        self.close_connection = True
                        return
                    step = 16 if name in fake.trickle else len(data)
                    for start in range(0, len(data), step):
                        self.wfile.write(data[start : start + step])
                        self.wfile.flush()
                        if name in fake.trickle:  # 20 ms apart: a busy client still reads them one by one (the
                            time.sleep(0.02)  # pace needs 13 reads to pass its grace; the image is ~30 such pieces)
                    return
                self._json({"object": "error", "status": 404}, 404)

            def do_POST(self) -> None:
                self._record()
                if self.path != "/cards/collection":
                    self._json({"object": "error", "status": 404}, 404)
                    return
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                asked = [i["name"] for i in body["identifiers"]]
                found = [fake.entry(name) for name in fake.by_name if name in asked or name.split(" // ")[0] in asked]
                self._json({"object": "list", "data": found, "not_found": []})

        httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{httpd.server_address[1]}"
        threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
        return httpd, self.base


def names(cards: Iterable[Card]) -> list[str]:
    return sorted({card.name for card in cards})
