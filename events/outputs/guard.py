"""The one guard every command that writes a file passes: outputs never destroy inputs.

The rule (README, "Output files"):

- An output path must be given: an empty ``--out ''`` is bad input (exit 2), never "the current folder".
- An existing file is replaced only if this run created it, or with ``--force``.
- Never, ``--force`` or not: the open database, its backups, lock, temporary and journal files (and those of
  any database beside them, open or not)
  (compared by real path, so a symbolic link or ``..`` can't hide them, and by inode, so a hard
  link can't either), or any file that holds a cmdraft database (its ``_meta`` record).
- A folder of output files (``event export``, ``sim --out``, the practice ``export``) is new or
  empty, or this run's, or taken with ``--force``; the root of a file system and a folder that
  holds the open database are never filled.
- A FIFO, a device or a folder where an output file should go is refused.
- Never, ``--force`` or not: a file this run reads as its input (``note_input``; by real path and inode).

Everything written goes to a temporary file that is fsynced and renamed into place
(``events.storage.store.atomic_write``).  What a killed run left is finished by the next: a folder's filling is
marked (``UNFINISHED``) until its last file is in, and a folder so marked is taken again without ``--force``, the
database copy a stopped export wrote there included (a copy in a folder without the mark is never replaced); the
temporary files of a run no longer running are removed when the file they were for is written.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Sequence
from pathlib import Path

from events import portable
from events.outputs.written import READ, WRITTEN
from events.storage.safe_files import atomic_write, full_disk
from events.storage.store import OPEN_DATABASES, belongs_to_database
from sets.errors import InputError
from sets.files import kind_of
from sets.visible import quoted

_DATABASE_MARK = re.compile(rb'"app"\s*:\s*"cmdraft"')
UNFINISHED = ".cmdraft-unfinished"  # in a folder of output files while it is being filled (a crash leaves it)
_TEMPORARY = re.compile(r"\.(?P<name>.+)\.(?P<pid>\d+)\.tmp")  # atomic_write's temporary: .NAME.PID.tmp


def output_value(value: str | os.PathLike | None, option: str) -> Path:
    """The path typed for ``option``; an empty or blank one is bad input."""
    text = "" if value is None else os.fspath(value)
    if not text.strip():
        raise InputError(
            f"{option} needs a path: an empty value would mean the current folder; give a file or folder name"
        )
    if "\x00" in text:
        raise InputError(f"{option} {quoted(text)} holds a NUL character; give a plain path")
    return Path(text).expanduser()


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def looks_like_database(path: Path) -> bool:
    """Whether the regular file ``path`` holds a cmdraft database (a backup or an export's copy too)."""
    try:
        with open(path, "rb") as stream:
            tail = b""
            while True:
                chunk = stream.read(1 << 20)
                if not chunk:
                    return False
                if _DATABASE_MARK.search(tail + chunk):
                    return True
                tail = chunk[-64:]
    except OSError:
        return False


def _database_candidates(folder: Path) -> list[Path]:
    """Files in ``folder`` that may be a live database: ones with a lock beside them (``NAME.lock``)."""
    try:
        names = {entry.name for entry in os.scandir(folder)}
    except OSError:
        return []
    return [
        folder / name[: -len(".lock")]
        for name in sorted(names)
        if name.endswith(".lock") and name[: -len(".lock")] in names
    ]


def _protected(real: Path) -> Path | None:
    """The database ``real`` is one of the files of: one this run opened, or one beside it (``NAME.lock`` by
    ``NAME``, a journal in ``NAME.drafts``) though this run never opened it (a server may hold it right now)."""
    found = next((db for db in OPEN_DATABASES if belongs_to_database(real, db)), None)
    return found if found is not None else next((db for db in _owners(real) if belongs_to_database(real, db)), None)


def _owners(real: Path) -> list[Path]:
    """The databases whose files ``real`` may be by its name or its folders' (each name cut at one of its dots,
    a leading one left out) that are there, were opened (their lock is beside them: a large file that was never a
    database is not read through) and hold a database."""
    found = []
    for step in (real, *list(real.parents)[:2]):
        name = step.name.lstrip(".")
        for cut in (i for i, letter in enumerate(name) if letter == "."):
            candidate = step.with_name(name[:cut])
            lock = candidate.with_name(candidate.name + ".lock")
            if candidate != real and candidate.is_file() and lock.exists() and looks_like_database(candidate):
                found.append(candidate)
    return found


def note_input(path: Path) -> None:
    """Record a file this run reads as its input: no output of the run may replace it."""
    READ.add(_real(path))


def _is_input(real: Path) -> bool:
    if real in READ:
        return True
    try:
        mine = os.stat(real)
    except OSError:
        return False
    for other in READ:
        try:
            theirs = os.stat(other)
        except OSError:
            continue
        if (mine.st_dev, mine.st_ino) == (theirs.st_dev, theirs.st_ino):
            return True  # a hard link to the input
    return False


def check_file(path: Path, force: bool = False) -> Path:
    """The real path to write ``path`` to, after the rule above (``InputError`` otherwise)."""
    real = _real(path)
    if _is_input(real):
        raise InputError(
            f"won't write {quoted(str(path))}: it is this command's input (--force does not change that); "
            "choose another output file"
        )
    database = _protected(real)
    if database is not None:
        raise InputError(
            f"won't write {quoted(str(path))}: it is the {'open ' if database in OPEN_DATABASES else ''}database "
            f"{quoted(str(database))} or one of its files; "
            "choose another output file"
        )
    try:
        info = os.stat(real)
    except FileNotFoundError:
        return real
    except OSError as error:
        raise InputError(
            f"can't write {quoted(str(path))}: {error.strerror or error}; choose another output file"
        ) from None
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"won't write {quoted(str(path))}: it is {kind_of(info.st_mode)}; choose a file name")
    if real not in WRITTEN and looks_like_database(real):  # (one this run wrote, or took over from a stopped run)
        raise InputError(
            f"won't write over {quoted(str(path))}: it holds a cmdraft database (--force does not change that); "
            "choose another output file"
        )
    if real not in WRITTEN and not force:
        raise InputError(f"{quoted(str(path))} already exists; add --force to replace it, or choose another file")
    return real


def check_folder(folder: Path, force: bool = False) -> Path:
    """The real folder to fill with output files, after the rule above (``InputError`` otherwise; a name the
    file system can't hold, too long or otherwise, too)."""
    try:
        return _check_folder(folder, force)
    except OSError as error:
        raise InputError(
            f"cannot write to {quoted(str(folder))}: {error.strerror or error}; choose another folder"
        ) from None


def _check_folder(folder: Path, force: bool) -> Path:
    real = _real(folder)
    if real.parent == real:
        raise InputError(
            f"won't fill {quoted(str(folder))}: it is the root of a file system; choose a folder of its own"
        )
    for database in OPEN_DATABASES:
        if database.parent == real or belongs_to_database(real, database):
            raise InputError(
                f"won't fill {quoted(str(folder))}: it holds the open database {quoted(str(database))}; choose another folder"
            )
    if real.exists() and not real.is_dir():
        raise InputError(f"cannot write to {quoted(str(folder))}: it is a file, not a folder; choose a folder")
    if real.is_dir():
        live = next((path for path in _database_candidates(real) if looks_like_database(path)), None)
        if live is not None:
            raise InputError(
                f"won't fill {quoted(str(folder))}: it holds the cmdraft database {live.name}; choose another folder"
            )
    try:
        real.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(
            f"cannot write to {quoted(str(folder))}: {error.strerror or error}; choose a writable folder"
        ) from None
    if not os.access(real, os.W_OK) or not real.stat().st_mode & 0o222:
        raise InputError(f"cannot write to {quoted(str(folder))}: not a writable folder; choose another")
    if real not in WRITTEN and not force and not (real / UNFINISHED).exists() and _holds_files(real):
        held = _database_in(real)
        if held is not None:  # --force would be refused at that file: don't offer it
            raise InputError(_holds_database(folder, held))
        raise InputError(
            f"{quoted(str(folder))} is not empty; choose a new folder, or add --force to write into it "
            "(files there are replaced, a cmdraft database never)"
        )
    WRITTEN.add(real)
    return real


def _database_in(folder: Path) -> str | None:
    """The name of a ``.json`` file at the top of ``folder`` that holds a cmdraft database (an earlier export's
    ``database.json``), if any."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return None
    return next(
        (
            entry.name
            for entry in sorted(entries, key=lambda entry: entry.name)
            if entry.name.endswith(".json")
            and entry.is_file(follow_symlinks=False)
            and looks_like_database(Path(entry.path))
        ),
        None,
    )


def _holds_database(folder: Path, name: str) -> str:
    return (
        f"won't fill {quoted(str(folder))}: {quoted(name)} there holds a cmdraft database, which nothing replaces "
        "(--force neither); choose a new folder"
    )


def _is_database_text(text: str) -> bool:
    return _DATABASE_MARK.search(text[:4096].encode("utf-8", "replace")) is not None


def write_output(path: Path, text: str, force: bool = False) -> Path:
    """Write one output file whole, under the rule; returns the real path written."""
    real = check_file(path, force)
    try:
        real.parent.mkdir(parents=True, exist_ok=True)
        if not real.parent.stat().st_mode & 0o222:
            raise PermissionError(13, "the folder is read-only")
        atomic_write(real, text)
        _clear_temporaries(real)
    except OSError as error:
        raise InputError(
            f"cannot write {quoted(str(path))}: {error.strerror or error}; "
            + (
                "free some space on that disk, or choose another folder"
                if full_disk(error)
                else "choose a writable folder"
            )
        ) from None
    WRITTEN.add(real)
    return real


def _stale(entry: os.DirEntry[str], name: str | None = None) -> bool:
    """Whether ``entry`` is a temporary a killed run left (``.NAME.PID.tmp`` of a process no longer running; for
    ``name`` only when given)."""
    found = _TEMPORARY.fullmatch(entry.name)
    if found is None or name not in (None, found.group("name")) or int(found.group("pid")) == os.getpid():
        return False
    try:
        return entry.is_file(follow_symlinks=False) and not portable.process_alive(
            int(found.group("pid")), entry.stat(follow_symlinks=False).st_mtime
        )
    except OSError:
        return False


def _holds_files(folder: Path) -> bool:
    """Whether ``folder`` holds anything but the temporaries a killed run left of its mark (a run killed as it wrote
    the mark leaves only that: the folder counts as empty, and the run that fills it clears them; any other file,
    another program's temporary too, is the folder's)."""
    with os.scandir(folder) as entries:
        return any(not _stale(entry, UNFINISHED) for entry in entries)


def _clear_temporaries(real: Path) -> None:
    """The temporaries a killed run left for ``real`` (``.NAME.PID.tmp`` of a process no longer running)."""
    try:
        entries = list(os.scandir(real.parent))
    except OSError:
        return
    for entry in entries:
        if _stale(entry, real.name):
            try:
                os.unlink(entry.path)
            except OSError:
                pass


def fill_folder(folder: Path, files: Sequence[tuple[Path, str]], force: bool = False) -> list[Path]:
    """``write_outputs`` for the files of a folder ``check_folder`` passed: the folder is marked unfinished until
    its last file is in, so that a run a crash stopped is finished by the next one, ``--force`` or not (the files
    there are that run's); a refusal before any file is written leaves no mark."""
    mark = folder / UNFINISHED
    stopped = mark.exists()
    force = force or stopped
    for path, text in files:
        if stopped and _is_database_text(text) and path.is_file() and looks_like_database(path):
            WRITTEN.add(_real(path))  # the stopped run's own copy (written just before its mark was removed)
        elif path.is_file() and looks_like_database(path):
            raise InputError(_holds_database(folder, path.name))
        check_file(path, force)
    try:
        atomic_write(mark, "a cmdraft run was writing this folder; the same command run again finishes it\n")
    except OSError as error:
        raise InputError(
            f"cannot write to {quoted(str(folder))}: {error.strerror or error}; choose a writable folder"
        ) from None
    _clear_temporaries(mark)
    written = write_outputs(files, force)
    mark.unlink(missing_ok=True)
    portable.fsync_folder(folder)
    return written


def write_outputs(files: Sequence[tuple[Path, str]], force: bool = False) -> list[Path]:
    """Several output files as one: every path is checked under the rule before any is written, so a refusal
    (a database among them, a file there without ``--force``) writes nothing; returns the paths as given."""
    for path, _ in files:
        check_file(path, force)
    for path, text in files:
        write_output(path, text, force)
    return [path for path, _ in files]
