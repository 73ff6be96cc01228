"""A printed sheet as data: what goes on it, not how it looks.

A ``Sheet`` is a title and pages, each page a list of blocks (tables, notes, lines to fill in),
plus the rows a CSV of it holds.  The sheets themselves are made in ``printables`` (the choice of
sheet, seatings and seat-code slips), ``pairing_sheets``, ``standings_sheets`` and
``decklist_sheets``; the writers in ``events.outputs.sheet_writers`` turn a sheet into 80-column
text, one self-contained HTML page or CSV.  No rendering library is used here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from events.storage.records import Event

CSV_PRINTABLES = ("pairings", "standings", "results")


@dataclass(frozen=True)
class Table:
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    title: str = ""
    right: tuple[int, ...] = ()  # columns aligned right (numbers)


@dataclass(frozen=True)
class Note:
    text: str
    strong: bool = False


@dataclass(frozen=True)
class Blanks:
    """Lines to fill in by hand: ``Label: ______``."""

    labels: tuple[str, ...]


@dataclass(frozen=True)
class Link:
    """A web address to open on a phone: printed as text, and on an HTML page as a QR code of it too."""

    url: str


Block = Table | Note | Blanks | Link


@dataclass(frozen=True)
class Page:
    title: str
    blocks: tuple[Block, ...]
    name: str = ""  # a player's name after the title: shown as typed, never upper-cased


def page_heading(page: Page, upper: bool = False) -> str:
    """A page's heading: the title (upper-cased on 80-column text) and the name as typed."""
    title = page.title.upper() if upper else page.title
    return f"{title} · {page.name}" if page.name else title


@dataclass(frozen=True)
class Sheet:
    what: str
    title: str
    subtitle: str
    pages: tuple[Page, ...]
    csv: Table | None = None
    page_breaks: bool = True  # each page on its own sheet of paper when printed
    per_paper: int = 1  # pages printed together on one sheet of paper, with cut lines between them
    meta: dict[str, Any] = field(default_factory=dict)


def subtitle(event: Event) -> str:
    return f"{event.date} · {event.set} {event.mode} ({event.style})"
