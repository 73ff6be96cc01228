"""``cmdraft event print``, ``export`` and ``restore``: the event's sheets and files, out and back in."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from events.cli.common import DbOption, ForceOption, JsonOption, emit_json, out, write_stdout
from events.cli.event.shared import EventArg, core
from events.night.base import EventBase
from events.night.opening import open_night
from events.night.transfer import read_database_file, restore_all, restore_event
from events.outputs.exports import export_event, write_file
from events.outputs.guard import check_file, output_value
from events.outputs.printables import sheet
from events.outputs.sheet_writers import render
from events.screens.render import shown
from sets.errors import InputError
from sets.visible import quoted, visible


def event_print(
    event_id: EventArg,
    what: Annotated[
        str, typer.Argument(metavar="WHAT", help="seatings, pairings, slips, standings, results or decklists.")
    ],
    fmt: Annotated[str, typer.Option("--format", help="text (80 columns), html (one page to print) or csv.")] = "text",
    out_file: Annotated[str | None, typer.Option("--out", help="Write to this file instead of the screen.")] = None,
    codes: Annotated[
        bool, typer.Option("--codes", help="seatings: add every player's seat code, a slip each (for the desk only).")
    ] = False,
    url: Annotated[
        str | None,
        typer.Option(
            "--url",
            help="seatings --codes: the address 'cmdraft serve' prints; each slip gets its join link and QR code.",
        ),
    ] = None,
    players: Annotated[
        list[str] | None,
        typer.Option(
            "--player",
            help="seatings --codes: only this player's slip (name or #N; repeatable), e.g. for a late player.",
        ),
    ] = None,
    force: ForceOption = False,
    db: DbOption = None,
) -> None:
    """Printable sheets: draft seatings, round pairings, result slips, standings, results, decklists."""
    if codes and what.lower() != "seatings":
        raise InputError("--codes belongs to 'seatings' (the desk's seating slips); leave it out for other sheets")
    if url is not None and not codes:
        raise InputError("--url belongs to the seating slips: use it with 'seatings --codes'")
    if players and not codes:
        raise InputError("--player belongs to the seating slips: use it with 'seatings --codes'")
    target = None if out_file is None else output_value(out_file, "--out")
    events = core(db)
    if target is not None:
        check_file(target, force)  # refused before anything is worked out
    text = render(sheet(events, event_id, what.lower(), codes=codes, url=url or "", only=players or ()), fmt.lower())
    if target is None:
        write_stdout(text)
        return

    write_file(target, text, force)
    out().print(shown(f"wrote {what} to {target}"))


def event_export(
    event_id: EventArg,
    out_dir: Annotated[str, typer.Option("--out", help="Folder to write into (new or empty, unless --force).")],
    force: ForceOption = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Standings, results and pairings CSV, every pool and deck in each format, draft logs and a database copy."""
    folder = output_value(out_dir, "--out")
    notes: list[str] = []
    written = export_event(core(db), event_id, folder, notes, force=force)
    if as_json:
        emit_json({"written": [str(p) for p in written], "notes": [visible(note) for note in notes]})
    else:
        out().print(Text(f"wrote {len(written)} files to {folder}"))
        for note in notes:
            out().print(Text(note))


def event_restore(
    file: Annotated[Path, typer.Argument(help="The database.json of an export, or a database backup (NAME.bak.N).")],
    which: Annotated[
        int | None, typer.Option("--event", help="The event to take from a file that holds several.")
    ] = None,
    whole: Annotated[
        bool, typer.Option("--all", help="Replace the whole database with the file (every event).")
    ] = False,
    force: Annotated[
        bool, typer.Option("--force", help="Restore over a live draft: stop it first and discard its later picks.")
    ] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Add the file's event to the database, or replace the same event there; other events are left alone.
    With --all the whole database is replaced by the file.  An event whose draft is live is refused
    unless --force, which stops the draft first and says how many picks the restore discards."""
    data = read_database_file(file)  # a missing or unreadable file is bad input (exit 2), before anything changes
    if whole:
        if which is not None:
            raise InputError("--all restores every event of the file; leave out --event, or leave out --all")
        night = open_night(db, EventBase)
        whole_db = restore_all(night, file, data, force)
        stopped, discarded, backup, saved = whole_db.stopped, whole_db.discarded_picks, whole_db.backup, whole_db.saved
        report: dict[str, object] = {
            "restored": str(file),
            "saved": saved,
            "saved_at": whole_db.saved_at,
            "all": True,
            "event": None,  # every event of the file: the same keys as one event's restore, for scripts
            "replaced": None,
            "backup": backup,
            "damaged": whole_db.damaged,
            "left_out": [{"id": number, "name": name} for number, name in whole_db.left_out],
        }
        message = f"restored {file} (saved {saved}) into {night.path}: changes made after it are not in it"
        if whole_db.left_out:
            gone = ", ".join(f"event {number} ({quoted(name)})" for number, name in whole_db.left_out)
            message += f"; {gone} {'is' if len(whole_db.left_out) == 1 else 'are'} not in the file: "
            message += f"{'it is' if len(whole_db.left_out) == 1 else 'they are'} gone from the database"
        if whole_db.damaged:
            message += f"; the database it replaced could not be read and was kept aside as {whole_db.damaged}"
    else:
        events = core(db, create=True)  # a restore may start a new database
        restored = restore_event(events, data, which, force)
        stopped, discarded, backup = restored.stopped, restored.discarded_picks, restored.backup
        report = {
            "restored": str(file),
            "saved": restored.saved,
            "saved_at": restored.saved_at,
            "all": False,
            "event": restored.event,
            "replaced": restored.replaced,
            "backup": backup,
            "damaged": None,  # only a restore of the whole database replaces one that can't be read
            "left_out": [],  # only a restore of the whole database takes events away
        }
        message = (
            f"{'replaced' if restored.replaced else 'added'} event {restored.event} ({quoted(restored.name)}) from {file} "
            f"(saved {restored.saved}); other events unchanged"
        )
    report.update(stopped_drafts=stopped, discarded_picks=discarded)
    if stopped:
        message += (
            f"; stopped {stopped} live draft{'s' if stopped != 1 else ''} first: the restore discards "
            f"{discarded} pick{'s' if discarded != 1 else ''}"
        )
    if backup:
        message += f" (previous database kept as {backup})"
    if as_json:
        emit_json(report)
    else:
        out().print(shown(message))
