"""Writing pools, decks and draft logs to a folder, with safe file names."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

from draft.formats import EXPORT_FORMATS, EXTENSIONS, pool_as_deck, write
from draft.log import mtgo_log
from events.store import atomic_write
from sets.errors import InputError


def safe_name(text: str, fallback: str = "player") -> str:
    """A file-name part from free text: letters, digits, dot, dash and underscore only; never a path."""
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    plain = re.sub(r"[^A-Za-z0-9._-]+", "-", plain).strip("-._")
    return plain[:60] or fallback


def write_file(path: Path, text: str) -> None:
    """Write an export file whole, or fail with a one-line error."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, text)
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


def export_event(events, event_id: int, folder: Path) -> list[Path]:
    """Standings CSV, every pool and deck in each format, the draft logs, and a database holding this event only."""
    import csv
    import io

    from draft.log import mtgo_log
    from events.drafts import TableSession

    snap = events.snapshot(event_id)
    written = []
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["rank", "player", "points", "opponents_average", "average_place", "rounds", "dropped"])
    for rank, row in enumerate(events.standings(event_id), start=1):
        writer.writerow([rank, row.name, f"{row.points:g}", f"{row.opponents_average:.4f}", f"{row.average_place:.4f}", row.rounds,
                         int(row.dropped)])
    path = folder / "standings.csv"
    write_file(path, buffer.getvalue())
    written.append(path)
    logs = {}
    for pod in snap["pods"]:
        if pod.get("draft"):
            session = TableSession.load(events.store, pod["draft"])
            for seat, pid in enumerate(pod["players"]):
                logs[pid] = mtgo_log(session.draft, seat, session.names, f"{snap['event']['name']} pod {pod['number']}")
            path = folder / f"pod{pod['number']}-draft.json"
            write_file(path, json.dumps(session.draft.to_json(), separators=(",", ":")))
            written.append(path)
    for player in snap["players"]:
        stem = f"{player['id']:03d}-{safe_name(player['name'])}"
        try:
            pool = events.pool(event_id, str(player["id"]))
        except Exception:
            pool = []
        deck = events.deck_of(event_id, player["id"])
        if pool or deck is not None:
            written += export_seat(folder, stem, pool, deck, logs.get(player["id"]))
    from events.transfer import export_tables

    data = export_tables(events, event_id)  # this event only: 'event restore' adds it to another database
    path = folder / "database.json"
    write_file(path, json.dumps(data, ensure_ascii=False, separators=(",", ":")))
    written.append(path)
    return written
