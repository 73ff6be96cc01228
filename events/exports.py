"""Writing pools, decks and draft logs to a folder, with safe file names."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

from draft.formats import EXPORT_FORMATS, EXTENSIONS, pool_as_deck, write
from draft.log import mtgo_log
from sets.errors import InputError


def safe_name(text: str, fallback: str = "player") -> str:
    """A file-name part from free text: letters, digits, dot, dash and underscore only; never a path."""
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    plain = re.sub(r"[^A-Za-z0-9._-]+", "-", plain).strip("-._")
    return plain[:60] or fallback


def write_file(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.tmp")
        temporary.write_text(text, encoding="utf-8", newline="")
        temporary.replace(path)
    except OSError as error:
        raise InputError(f"cannot write {str(path)!r}: {error.strerror or error}; choose a writable folder") from None


def export_seat(folder: Path, stem: str, pool, deck, log_text: str | None) -> list[Path]:
    """Pool and deck in every export format, plus the draft log."""
    written = []
    pool_deck = pool_as_deck(pool, f"{stem} pool")
    for fmt in EXPORT_FORMATS:
        for kind, content in (("pool", pool_deck), ("deck", deck)):
            if content is None:
                continue
            path = folder / f"{stem}-{kind}.{EXTENSIONS[fmt]}"
            write_file(path, write(content, fmt))
            written.append(path)
    if log_text is not None:
        path = folder / f"{stem}-draftlog.txt"
        write_file(path, log_text)
        written.append(path)
    return written


def export_pod(result, folder: Path) -> list[Path]:
    names = [seat.name for seat in result.seats]
    written = []
    for seat in result.seats:
        stem = f"seat{seat.seat + 1}-{safe_name(seat.name)}"
        written += export_seat(folder, stem, seat.pool, seat.deck, mtgo_log(result.draft, seat.seat, names))
    path = folder / "draft.json"
    write_file(path, json.dumps(result.draft.to_json(), separators=(",", ":")))
    path2 = folder / "pod.json"
    write_file(path2, json.dumps(result.to_json(), ensure_ascii=False, indent=1))
    return [*written, path, path2]
