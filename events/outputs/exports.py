"""Writing pools, decks and draft logs to a folder, with safe file names."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Sequence
from pathlib import Path

from draft.decks import Deck, Zone
from draft.formats import EXPORT_FORMATS, EXTENSIONS, FORMATS, FileFormat, deck_pool, pool_as_deck, write
from draft.formats.mtgo import MissingMtgoIdError
from draft.log import mtgo_log
from draft.sim import PodResult
from events import timing
from events.night.base import EventBase, player_number
from events.night.decks import Decks, unread_card
from events.night.history import Entry
from events.night.rounds import Rounds
from events.night.transfer import export_tables
from events.outputs.guard import check_folder, fill_folder, write_output, write_outputs
from events.outputs.pairing_sheets import PAIRINGS_CSV, pairing_rows
from events.outputs.sheet_writers import csv_text
from events.outputs.sheets import Table
from events.outputs.standings_sheets import results_csv, standings_csv
from events.storage.draft_files import TableSession
from sets.booster import Printing
from sets.errors import StateError, UnknownCardError
from sets.names import BLANK_LETTERS
from sets.visible import quoted

MTGO_SKIPPED = (
    "no MTGO .dek files written: MTGO needs a catalog id (CatID) for every card and some cards have none; "
    "import an MTGJSON file that has them ('cmdraft sets import FILE', identifiers.mtgoId) and export again"
)


def safe_name(text: str, fallback: str = "player") -> str:
    """A file-name part from free text: letters and digits of any script (as NFKC writes them: full-width ``Ａ``
    is ``A``) with their accents, dot, dash and underscore; every other run a dash; never a path.  ``山田 太郎``
    is ``山田-太郎``: a Japanese or Korean name is kept, not lost to ``player`` (a Hangul filler, a letter that shows
    nothing, is no letter here)."""
    plain = unicodedata.normalize("NFKC", text)
    kept = "".join(
        ch if unicodedata.category(ch)[0] in "LNM" and ch not in BLANK_LETTERS or ch in "._-" else "-" for ch in plain
    )
    kept = re.sub(r"-{2,}", "-", kept).strip("-._")
    kept = kept.lstrip("".join({ch for ch in kept if unicodedata.category(ch)[0] == "M"}) + "-._")
    return unicodedata.normalize("NFC", kept[:60]).rstrip("-._") or fallback


def write_file(path: Path, text: str, force: bool = False) -> None:
    """Write an output file whole under the output rule (``events.outputs.guard``), or fail with a one-line error."""
    write_output(path, text, force)


def write_deck(path: Path, deck: Deck, fmt: FileFormat, force: bool = False) -> list[Path]:
    """Write a deck file; where the format keeps no sideboard (MTGO), the whole pool goes to ``STEM-pool.EXT`` beside it.

    Both texts are made and both paths checked (``events.outputs.guard``) before anything is written, so a
    deck that can't be written (MTGO ids missing) or a refused path leaves no file.
    """
    files = [(path, write(deck, fmt))]
    if not FORMATS[fmt].holds_sideboard and deck.zone(Zone.SIDEBOARD):
        files.append((path.with_name(f"{path.stem}-pool{path.suffix}"), write(deck_pool(deck), fmt)))
    return write_outputs(files, force)


def note_once(notes: list[str] | None, message: str) -> None:
    if notes is not None and message not in notes:
        notes.append(message)


def left_out(what: str, name: str, card: str) -> str:
    """The export's note for a pool or deck it cannot write whole: a card in it no set here has now."""
    return f"the {what} of {quoted(name)} is left out of the files: no set here has its card {quoted(card)}; database.json keeps it"


def seat_files(
    folder: Path,
    stem: str,
    pool: Sequence[Printing] | None,
    deck: Deck | None,
    log_text: str | None,
    notes: list[str] | None = None,
) -> list[tuple[Path, str]]:
    """Pool (None: none written) and deck in every export format, plus the draft log, as the files to write and
    their texts.

    A file that can't be written as its format requires (an MTGO .dek without every card's id) is left
    out, and why goes into ``notes`` once, however many seats it concerns.
    """
    files = []
    pool_deck = None if pool is None else pool_as_deck(pool, f"{stem} pool")
    for fmt in EXPORT_FORMATS:
        for kind, content in (("pool", pool_deck), ("deck", deck)):
            if content is None:
                continue
            try:
                text = write(content, fmt)
            except MissingMtgoIdError:
                note_once(notes, MTGO_SKIPPED)
                continue
            files.append((folder / f"{stem}-{kind}.{EXTENSIONS[fmt]}", text))
    if log_text is not None:
        files.append((folder / f"{stem}-draftlog.txt", log_text))
    return files


def export_seat(
    folder: Path,
    stem: str,
    pool: Sequence[Printing],
    deck: Deck | None,
    log_text: str | None,
    notes: list[str] | None = None,
    *,
    force: bool = False,
) -> list[Path]:
    """``seat_files`` written, every path checked before any is written."""
    return write_outputs(seat_files(folder, stem, pool, deck, log_text, notes), force)


def export_pod(result: PodResult, folder: Path, notes: list[str] | None = None, *, force: bool = False) -> list[Path]:
    """Every seat's files, the draft and the pod, every path checked before any is written.  Returns the files
    written under ``folder`` as it was given, as ``export_event`` does (``sim --out --json`` prints them)."""
    given, folder = folder, check_folder(folder, force)
    names = [seat.name for seat in result.seats]
    files = []
    for seat in result.seats:
        stem = f"seat{seat.seat + 1}-{safe_name(seat.name)}"
        files += seat_files(
            folder, stem, seat.pool, seat.deck, mtgo_log(result.draft, seat.seat, names, timing.local()), notes
        )
    files.append((folder / "draft.json", json.dumps(result.draft.to_json(), separators=(",", ":"))))
    files.append((folder / "pod.json", json.dumps(result.to_json(), ensure_ascii=False, indent=1)))
    return [given / path.relative_to(folder) for path in fill_folder(folder, files, force)]


HISTORY_CSV = ("entry", "at", "who", "what", "old", "new", "undoes")


def history_csv(entries: Sequence[Entry]) -> Table:
    """The event's history as CSV rows; a value that isn't text is written as JSON."""

    def value(v: object) -> str:
        return "" if v is None else v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)

    return Table(
        HISTORY_CSV,
        tuple((str(e.id), e.at, e.who, e.what, value(e.old), value(e.new), str(e.undoes or "")) for e in entries),
    )


def export_event(
    events: EventBase, event_id: int, folder: Path, notes: list[str] | None = None, *, force: bool = False
) -> list[Path]:
    """Standings, results, pairings and history CSV, every pool and deck in each format, the draft logs, and a copy
    of the database; every path checked before any is written.  Returns the files written, under ``folder`` as it
    was given (no path of this machine the user didn't type: ``event export --json`` prints them)."""
    snap = events.snapshot(event_id)
    decks = Decks(events.store)  # the pools too
    given, folder = folder, check_folder(folder, force)
    files = []
    tables = {
        "standings.csv": standings_csv(Rounds(events.store).standings(event_id)),
        "results.csv": results_csv(events, snap),
        "pairings.csv": Table(PAIRINGS_CSV, pairing_rows(snap, snap.rounds)),
        "history.csv": history_csv(events.history(event_id)),
    }
    for name, table in tables.items():
        files.append((folder / name, csv_text(table)))
    logs = {}
    for pod in snap.pods:
        if pod.draft and snap.event.status != "finished" and snap.drafts.get(pod.number) in ("drafting", "replaced"):
            # the packs still to come are secret until the event is finished: no draft file, no logs
            note_once(
                notes, f"pod {pod.number} is still drafting: its packs and draft logs stay out until 'event finish'"
            )
            continue
        if pod.draft:
            session = TableSession.load(events.store, pod.draft)
            for seat, pid in enumerate(pod.players):
                logs[pid] = mtgo_log(
                    session.draft, seat, session.names, timing.local(), f"{snap.event.name} pod {pod.number}"
                )
            path = folder / f"pod{pod.number}-draft.json"
            replay = session.draft.to_json()
            if snap.event.status != "finished":
                replay = {
                    **replay,
                    "seed": None,
                }  # the packs' secret stays out of every file until the event is finished
            files.append((path, json.dumps(replay, separators=(",", ":"))))
    for player in snap.players:
        stem = f"{player_number(player):03d}-{safe_name(player.name)}"  # the #N of the event, as the desk says it
        pool: list[Printing] | None
        try:
            pool = decks.pool(event_id, player.id)
        except StateError:  # no pool recorded (yet)
            pool = []
        except UnknownCardError as error:  # a card its set no longer has (the set's file imported again without it)
            note_once(notes, left_out("pool", player.name, error.name))
            pool = None
        deck, unread = decks.deck_read(event_id, player.id)
        if unread:  # the same for a deck: no file of it written without the card
            note_once(notes, left_out("deck", player.name, unread_card(unread)))
            deck = None
        if pool or deck is not None or player.id in logs:
            files += seat_files(folder, stem, pool, deck, logs.get(player.id), notes)
    data = export_tables(events, event_id)  # this event only: 'event restore' adds it to another database
    files.append((folder / "database.json", data.text()))
    return [given / path.relative_to(folder) for path in fill_folder(folder, files, force)]
